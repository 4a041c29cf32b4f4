//! Display preferences, password change and name change.

use reqwest::Method;
use serde_json::json;

use crate::support::{TestApp, call, issue_codes, session_cookie};

#[tokio::test]
async fn preferences_default_change_one_at_a_time_and_refuse_unknown_values() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let defaults =
        json!({"amounts":"metric","gravity":"sg","color":"srm","temperature":"c","currency":null});
    let (status, got) = call(app.with_key(Method::GET, "/v1/me/preferences", &acct.key)).await;
    assert_eq!((status.as_u16(), &got), (200, &defaults));

    let (status, got) = call(
        app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
            .json(&json!({"gravity": "plato", "temperature": "f"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        got,
        json!({"amounts":"metric","gravity":"plato","color":"srm","temperature":"f","currency":null})
    );
    // Stored on the account: another credential of the same account sees it.
    let (_, again) = call(app.with_cookie(Method::GET, "/v1/me/preferences", &acct.cookie)).await;
    assert_eq!(again, got);

    let (status, bad) = call(
        app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
            .json(&json!({"amounts": "imperial", "color": null, "gravity": "brix"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&bad),
        vec![
            ("invalid_enum_value".to_owned(), "amounts".to_owned()),
            ("invalid_type".to_owned(), "color".to_owned()),
        ]
    );
    assert_eq!(bad["details"][0]["options"], json!(["metric", "us"]));
    // Nothing changed by the refused request; `{}` changes nothing either.
    let (_, after) = call(
        app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
            .json(&json!({})),
    )
    .await;
    assert_eq!(after, got);

    // Another account keeps its own.
    let other = app.account().await;
    let (_, theirs) = call(app.with_key(Method::GET, "/v1/me/preferences", &other.key)).await;
    assert_eq!(theirs, defaults);
    app.stop().await;
}

#[tokio::test]
async fn the_currency_is_an_iso_4217_code_cleared_with_null_and_carried_by_costs() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let patch = |body: serde_json::Value| {
        call(
            app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
                .json(&body),
        )
    };
    let (status, got) = patch(json!({"currency": "EUR"})).await;
    assert_eq!(status, 200, "{got}");
    assert_eq!(got["currency"], "EUR");
    assert_eq!(got["amounts"], "metric");

    // Not an active ISO 4217 code (lower case, withdrawn, made up, not a string): 422 at
    // ["currency"], and nothing changes.
    for bad in [
        json!("eur"),
        json!("HRK"),
        json!("ABC"),
        json!("EURO"),
        json!(978),
    ] {
        let (status, body) = patch(json!({"currency": bad, "amounts": "us"})).await;
        assert_eq!(status, 422, "{bad}: {body}");
        assert_eq!(body["details"].as_array().unwrap().len(), 1, "{body}");
        assert_eq!(body["details"][0]["path"], json!(["currency"]), "{body}");
    }
    let (_, body) = patch(json!({"currency": "ABC"})).await;
    assert_eq!(body["details"][0]["code"], "invalid_enum_value");
    assert!(
        body["details"][0]["options"]
            .as_array()
            .unwrap()
            .contains(&json!("USD"))
    );
    let (_, kept) = call(app.with_key(Method::GET, "/v1/me/preferences", &acct.key)).await;
    assert_eq!(
        (kept["currency"].as_str(), kept["amounts"].as_str()),
        (Some("EUR"), Some("metric"))
    );

    // Cost answers carry it.
    let (_, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Priced", "batch_size_liters": 20, "boil_time_minutes": 60})),
    )
    .await;
    let cost_path = format!("/v1/recipes/{}/cost", recipe["id"].as_str().unwrap());
    let (status, cost) = call(app.with_key(Method::GET, &cost_path, &acct.key)).await;
    assert_eq!(status, 200, "{cost}");
    assert_eq!(cost["currency"], "EUR");

    // Another preference leaves it; null clears it.
    let (_, got) = patch(json!({"gravity": "brix"})).await;
    assert_eq!(got["currency"], "EUR");
    let (_, got) = patch(json!({"currency": null})).await;
    assert_eq!(got["currency"], serde_json::Value::Null);
    let (_, cost) = call(app.with_key(Method::GET, &cost_path, &acct.key)).await;
    assert_eq!(cost["currency"], serde_json::Value::Null);
    app.stop().await;
}

#[tokio::test]
async fn change_password_checks_the_current_one_and_can_end_other_sessions() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    // A second browser signed in to the same account.
    let res = app
        .request(Method::POST, "/api/auth/sign-in/email")
        .json(&json!({"email": acct.email, "password": acct.password}))
        .send()
        .await
        .unwrap();
    let other_browser = session_cookie(&res).unwrap();

    let (status, body) = call(
        app.with_cookie(Method::POST, "/api/auth/change-password", &acct.cookie)
            .json(&json!({"currentPassword": "not the password", "newPassword": "a new password"})),
    )
    .await;
    assert_eq!(
        (status.as_u16(), body),
        (401, json!({"error": "Invalid password"}))
    );

    let (status, body) = call(
        app.with_cookie(Method::POST, "/api/auth/change-password", &acct.cookie)
            .json(&json!({"currentPassword": acct.password, "newPassword": "short"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["path"], json!(["newPassword"]));

    // An API key cannot change the password (cookie only).
    let (status, _) = call(
        app.with_key(Method::POST, "/api/auth/change-password", &acct.key)
            .json(&json!({"currentPassword": acct.password, "newPassword": "a new password"})),
    )
    .await;
    assert_eq!(status, 401);

    let (status, body) = call(
        app.with_cookie(Method::POST, "/api/auth/change-password", &acct.cookie)
            .json(
                &json!({"currentPassword": acct.password, "newPassword": "a new password",
                "revokeOtherSessions": true}),
            ),
    )
    .await;
    assert_eq!((status.as_u16(), body), (200, json!({"status": true})));
    // This browser stays signed in, the other one is signed out, keys keep working.
    let (status, _) =
        call(app.with_cookie(Method::GET, "/api/auth/get-session", &acct.cookie)).await;
    assert_eq!(status, 200);
    let (status, _) =
        call(app.with_cookie(Method::GET, "/api/auth/get-session", &other_browser)).await;
    assert_eq!(status, 401);
    let (status, _) = call(app.with_key(Method::GET, "/v1/me", &acct.key)).await;
    assert_eq!(status, 200);
    // The old password no longer signs in; the new one does.
    for (password, expected) in [(acct.password.as_str(), 401), ("a new password", 200)] {
        let res = app
            .request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": acct.email, "password": password}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), expected, "{password}");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_wrong_current_password_counts_as_a_failed_sign_in() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    for _ in 0..10 {
        let (status, _) = call(
            app.with_cookie(Method::POST, "/api/auth/change-password", &acct.cookie)
                .json(&json!({"currentPassword": "guess", "newPassword": "a new password"})),
        )
        .await;
        assert_eq!(status, 401);
    }
    let res = app
        .with_cookie(Method::POST, "/api/auth/change-password", &acct.cookie)
        .json(&json!({"currentPassword": acct.password, "newPassword": "a new password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    assert!(res.headers().get("retry-after").is_some());
    app.stop().await;
}

#[tokio::test]
async fn update_user_renames_the_account() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, body) = call(
        app.with_cookie(Method::POST, "/api/auth/update-user", &acct.cookie)
            .json(&json!({"name": "Ada Lovelace"})),
    )
    .await;
    assert_eq!((status.as_u16(), body), (200, json!({"status": true})));
    let (_, me) = call(app.with_key(Method::GET, "/v1/me", &acct.key)).await;
    assert_eq!(me["name"], "Ada Lovelace");
    let (status, body) = call(
        app.with_cookie(Method::POST, "/api/auth/update-user", &acct.cookie)
            .json(&json!({"name": ""})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["code"], "too_small");
    app.stop().await;
}

#[tokio::test]
async fn preferences_patched_at_once_do_not_undo_each_other() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    // The web app saves each choice on its own, so quick changes arrive together.
    for _ in 0..5 {
        let patch = |body: serde_json::Value| {
            call(
                app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
                    .json(&body),
            )
        };
        let (a, b, c, d, e) = tokio::join!(
            patch(json!({"amounts": "us"})),
            patch(json!({"gravity": "brix"})),
            patch(json!({"color": "ebc"})),
            patch(json!({"temperature": "f"})),
            patch(json!({"currency": "USD"})),
        );
        assert!([a.0, b.0, c.0, d.0, e.0].iter().all(|s| *s == 200));
        let (_, got) = call(app.with_key(Method::GET, "/v1/me/preferences", &acct.key)).await;
        assert_eq!(
            got,
            json!({"amounts":"us","gravity":"brix","color":"ebc","temperature":"f","currency":"USD"})
        );
        let (status, _) = call(
            app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
                .json(&json!({"amounts":"metric","gravity":"sg","color":"srm","temperature":"c","currency":null})),
        )
        .await;
        assert_eq!(status, 200);
    }
    app.stop().await;
}
