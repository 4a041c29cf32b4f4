//! Authentication: accounts, sessions, API keys, throttling, CSRF and CORS.

use reqwest::{Method, StatusCode};
use serde_json::json;
use time::Duration;

use crate::support::{CORS_ORIGIN, TestApp, call, issue_codes, session_cookie};

#[tokio::test]
async fn sign_up_returns_user_and_cookie_and_me_works_with_both_credentials() {
    let app = TestApp::spawn().await;
    let email = format!("Mixed-{}@Example.com", uuid::Uuid::new_v4().simple());
    let res = app
        .request(Method::POST, "/api/auth/sign-up/email")
        .json(&json!({"name": "Ada", "email": email, "password": "12345678"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let set_cookie = res
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        set_cookie.contains("HttpOnly")
            && set_cookie.contains("SameSite=Lax")
            && set_cookie.contains("Path=/")
    );
    assert!(
        !set_cookie.contains("Secure"),
        "plain http origin: no Secure flag"
    );
    let cookie = session_cookie(&res).unwrap();
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["user"]["email"], email.to_lowercase());
    assert_eq!(body["user"]["name"], "Ada");
    assert!(body["user"]["createdAt"].as_str().unwrap().ends_with('Z'));

    let (status, me) = call(app.with_cookie(Method::GET, "/v1/me", &cookie)).await;
    assert_eq!(status, 200);
    assert_eq!(
        me,
        json!({"id": body["user"]["id"], "email": email.to_lowercase(), "name": "Ada"})
    );

    let (status, session) =
        call(app.with_cookie(Method::GET, "/api/auth/get-session", &cookie)).await;
    assert_eq!(status, 200);
    assert_eq!(session["user"]["id"], body["user"]["id"]);
    assert!(session["session"]["expiresAt"].is_string());
    app.stop().await;
}

#[tokio::test]
async fn taken_email_is_already_exists_and_bad_fields_are_all_reported() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, body) =
        call(app.request(Method::POST, "/api/auth/sign-up/email").json(
            &json!({"name": "X", "email": acct.email.to_uppercase(), "password": "abcdefgh"}),
        ))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("already_exists".to_owned(), "email".to_owned())]
    );

    let (status, body) = call(
        app.request(Method::POST, "/api/auth/sign-up/email")
            .json(&json!({"name": "", "email": "not-an-email", "password": "short"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("too_small".to_owned(), "name".to_owned()),
            ("invalid_string".to_owned(), "email".to_owned()),
            ("too_small".to_owned(), "password".to_owned()),
        ]
    );
    app.stop().await;
}

#[tokio::test]
async fn sign_in_wrong_password_and_unknown_email_look_the_same() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let wrong = call(
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": acct.email, "password": "wrong password"})),
    )
    .await;
    let unknown = call(
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": "nobody-here@example.com", "password": "wrong password"})),
    )
    .await;
    assert_eq!(
        wrong,
        (
            StatusCode::UNAUTHORIZED,
            json!({"error": "Invalid email or password"})
        )
    );
    assert_eq!(wrong, unknown);

    let res = app
        .request(Method::POST, "/api/auth/sign-in/email")
        .json(&json!({"email": acct.email, "password": acct.password}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(session_cookie(&res).is_some());
    app.stop().await;
}

#[tokio::test]
async fn sign_in_is_throttled_after_ten_failures_until_the_window_passes() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let attempt = |password: &str| {
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": acct.email, "password": password}))
    };
    for _ in 0..10 {
        assert_eq!(call(attempt("nope nope")).await.0, 401);
    }
    let res = attempt(&acct.password).send().await.unwrap();
    assert_eq!(res.status(), 429, "even the right password waits");
    let retry_after: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=901).contains(&retry_after), "{retry_after}");
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        body,
        json!({"error": "Too many sign-in attempts; try again later"})
    );

    app.clock.advance(Duration::minutes(16));
    assert_eq!(call(attempt(&acct.password)).await.0, 200);
    // A success clears the count: one more failure is just a 401.
    assert_eq!(call(attempt("nope nope")).await.0, 401);
    assert_eq!(call(attempt(&acct.password)).await.0, 200);
    app.stop().await;
}

#[tokio::test]
async fn api_keys_are_shown_once_listed_without_secret_and_revoked_at_once() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, created) = call(
        app.with_cookie(Method::POST, "/api/auth/api-key/create", &acct.cookie)
            .json(&json!({"name": "brewpi", "expiresIn": 3600})),
    )
    .await;
    assert_eq!(status, 200);
    let key = created["key"].as_str().unwrap();
    assert!(key.starts_with("wort_") && key.len() == 48);
    assert_eq!(created["start"], key[..9]);
    assert_eq!(created["prefix"], "wort_");
    assert_eq!(created["userId"], acct.id.as_str());
    assert!(created["expiresAt"].is_string());
    assert!(created["lastUsedAt"].is_null());

    assert_eq!(call(app.with_key(Method::GET, "/v1/me", key)).await.0, 200);
    let (status, list) =
        call(app.with_cookie(Method::GET, "/api/auth/api-key/list", &acct.cookie)).await;
    assert_eq!(status, 200);
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == created["id"])
        .unwrap();
    assert!(listed.get("key").is_none(), "never the key in a list");
    assert!(
        listed["lastUsedAt"].is_string(),
        "first use sets lastUsedAt"
    );

    let (status, body) = call(
        app.with_cookie(Method::POST, "/api/auth/api-key/delete", &acct.cookie)
            .json(&json!({"keyId": created["id"]})),
    )
    .await;
    assert_eq!((status, body), (StatusCode::OK, json!({"success": true})));
    assert_eq!(
        call(app.with_key(Method::GET, "/v1/me", key)).await,
        (StatusCode::UNAUTHORIZED, json!({"error": "Unauthorized"}))
    );
    // Deleting again, or an unknown or malformed id: 404.
    for key_id in [
        created["id"].clone(),
        json!(uuid::Uuid::new_v4()),
        json!("nope"),
    ] {
        let (status, _) = call(
            app.with_cookie(Method::POST, "/api/auth/api-key/delete", &acct.cookie)
                .json(&json!({"keyId": key_id})),
        )
        .await;
        assert_eq!(status, 404);
    }
    app.stop().await;
}

#[tokio::test]
async fn expired_keys_are_rejected() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, created) = call(
        app.with_cookie(Method::POST, "/api/auth/api-key/create", &acct.cookie)
            .json(&json!({"name": "short-lived", "expiresIn": 60})),
    )
    .await;
    let key = created["key"].as_str().unwrap();
    assert_eq!(call(app.with_key(Method::GET, "/v1/me", key)).await.0, 200);
    app.clock.advance(Duration::seconds(61));
    assert_eq!(call(app.with_key(Method::GET, "/v1/me", key)).await.0, 401);

    let (status, body) = call(
        app.with_cookie(Method::POST, "/api/auth/api-key/create", &acct.cookie)
            .json(&json!({"name": "", "expiresIn": 59})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("too_small".to_owned(), "name".to_owned()),
            ("too_small".to_owned(), "expiresIn".to_owned())
        ]
    );
    app.stop().await;
}

#[tokio::test]
async fn every_bad_key_gets_the_same_401_bytes() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let mut answers = Vec::new();
    let not_ours = format!("wort_{}", "A".repeat(43));
    for key in [
        "",
        "garbage",
        "wort_short",
        not_ours.as_str(),
        "wort_ with spaces",
    ] {
        let res = app
            .with_key(Method::GET, "/v1/me", key)
            .send()
            .await
            .unwrap();
        answers.push((res.status(), res.text().await.unwrap()));
    }
    let res = app.request(Method::GET, "/v1/me").send().await.unwrap();
    answers.push((res.status(), res.text().await.unwrap()));
    // An invalid key loses even with a valid cookie.
    let res = app
        .with_key(Method::GET, "/v1/me", &not_ours)
        .header("Cookie", &acct.cookie)
        .send()
        .await
        .unwrap();
    answers.push((res.status(), res.text().await.unwrap()));
    for a in &answers {
        assert_eq!(
            a,
            &(
                StatusCode::UNAUTHORIZED,
                r#"{"error":"Unauthorized"}"#.to_owned()
            )
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn key_management_needs_the_cookie_not_a_key() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, _) = call(
        app.with_key(Method::POST, "/api/auth/api-key/create", &acct.key)
            .json(&json!({"name": "minted"})),
    )
    .await;
    assert_eq!(status, 401);
    assert_eq!(
        call(app.with_key(Method::GET, "/api/auth/api-key/list", &acct.key))
            .await
            .0,
        401
    );
    app.stop().await;
}

#[tokio::test]
async fn cookie_writes_need_an_allowed_origin() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let create = |origin: Option<&str>, referer: Option<&str>| {
        let mut req = app
            .request(Method::POST, "/v1/recipes")
            .header("Cookie", &acct.cookie)
            .json(&json!({"name": "CSRF test"}));
        if let Some(o) = origin {
            req = req.header("Origin", o);
        }
        if let Some(r) = referer {
            req = req.header("Referer", r);
        }
        req
    };
    assert_eq!(
        call(create(Some("https://evil.example"), None)).await.0,
        401
    );
    assert_eq!(
        call(create(None, None)).await.0,
        401,
        "no Origin, no Referer: cookie ignored"
    );
    assert_eq!(
        call(create(None, Some("https://evil.example/page")))
            .await
            .0,
        401
    );
    assert_eq!(call(create(Some(&app.origin.clone()), None)).await.0, 201);
    assert_eq!(
        call(create(None, Some(&format!("{}/app/recipes", app.origin))))
            .await
            .0,
        201
    );
    assert_eq!(call(create(Some(CORS_ORIGIN), None)).await.0, 201);
    // Reads with a cookie need no Origin.
    assert_eq!(
        call(
            app.request(Method::GET, "/v1/recipes")
                .header("Cookie", &acct.cookie)
        )
        .await
        .0,
        200
    );
    // Sign-out from a foreign origin is refused: it ends nothing and clears nothing.
    let res = app
        .request(Method::POST, "/api/auth/sign-out")
        .header("Cookie", &acct.cookie)
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert!(res.headers().get("set-cookie").is_none());
    assert_eq!(
        call(app.with_cookie(Method::GET, "/v1/me", &acct.cookie))
            .await
            .0,
        200
    );
    // Sign-up from a foreign page is refused outright.
    let (status, body) = call(
        app.request(Method::POST, "/api/auth/sign-up/email")
            .header("Origin", "https://evil.example")
            .json(&json!({"name": "X", "email": "x@example.com", "password": "12345678"})),
    )
    .await;
    assert_eq!(
        (status, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"error": "Origin not allowed"})
        )
    );
    app.stop().await;
}

#[tokio::test]
async fn sign_out_ends_the_session() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let res = app
        .with_cookie(Method::POST, "/api/auth/sign-out", &acct.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(
        res.json::<serde_json::Value>().await.unwrap(),
        json!({"success": true})
    );
    assert_eq!(
        call(app.with_cookie(Method::GET, "/v1/me", &acct.cookie))
            .await
            .0,
        401
    );
    assert_eq!(
        call(app.with_cookie(Method::GET, "/api/auth/get-session", &acct.cookie))
            .await
            .0,
        401
    );
    // Not signed in: still 200.
    assert_eq!(
        call(app.request(Method::POST, "/api/auth/sign-out"))
            .await
            .0,
        200
    );
    // The API key is unaffected.
    assert_eq!(
        call(app.with_key(Method::GET, "/v1/me", &acct.key)).await.0,
        200
    );
    app.stop().await;
}

#[tokio::test]
async fn cors_headers_only_for_allowed_origins() {
    let app = TestApp::spawn().await;
    let res = app
        .request(Method::OPTIONS, "/v1/recipes")
        .header("Origin", CORS_ORIGIN)
        .header("Access-Control-Request-Method", "POST")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    let h = res.headers();
    assert_eq!(h["access-control-allow-origin"], CORS_ORIGIN);
    assert_eq!(h["access-control-allow-credentials"], "true");
    assert_eq!(
        h["access-control-allow-methods"],
        "GET, POST, PATCH, DELETE, OPTIONS"
    );
    assert_eq!(
        h["access-control-allow-headers"],
        "Content-Type, X-API-Key, Idempotency-Key"
    );
    assert_eq!(h["access-control-max-age"], "600");

    let res = app
        .request(Method::OPTIONS, "/v1/recipes")
        .header("Origin", "https://evil.example")
        .header("Access-Control-Request-Method", "POST")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert!(
        res.headers()
            .keys()
            .all(|k| !k.as_str().starts_with("access-control-"))
    );

    let res = app
        .request(Method::GET, "/healthz")
        .header("Origin", CORS_ORIGIN)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["access-control-allow-origin"], CORS_ORIGIN);
    // Beside `Vary: Accept-Encoding`, which every JSON `GET` carries.
    assert!(
        res.headers().get_all("vary").iter().any(|v| v == "Origin"),
        "{:?}",
        res.headers()
    );
    let res = app
        .request(Method::GET, "/v1/me")
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401, "processed as usual");
    assert!(res.headers().get("access-control-allow-origin").is_none());
    app.stop().await;
}

#[tokio::test]
async fn one_address_is_throttled_after_100_failures_across_emails() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let from = |ip: &str, email: &str, password: &str| {
        app.request(Method::POST, "/api/auth/sign-in/email")
            .header("X-Test-Client-Ip", ip)
            .json(&json!({"email": email, "password": password}))
    };
    let sprayer = format!("sprayer-{}", uuid::Uuid::new_v4().simple());
    for i in 0..100 {
        let (status, _) = call(from(
            &sprayer,
            &format!("guess-{i}@example.com"),
            "password1",
        ))
        .await;
        assert_eq!(status, 401, "attempt {i}");
    }
    let res = from(&sprayer, &acct.email, &acct.password)
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        429,
        "the address is throttled, even for a right password"
    );
    assert!(res.headers().contains_key("retry-after"));
    let elsewhere = format!("elsewhere-{}", uuid::Uuid::new_v4().simple());
    assert_eq!(
        call(from(&elsewhere, &acct.email, &acct.password)).await.0,
        200,
        "other addresses are not"
    );
    app.stop().await;
}

#[tokio::test]
async fn an_account_holds_at_most_100_api_keys() {
    let app = TestApp::spawn().await;
    let acct = app.account().await; // holds one key already
    let create = || {
        app.with_cookie(Method::POST, "/api/auth/api-key/create", &acct.cookie)
            .json(&json!({"name": "k"}))
    };
    let mut tasks = Vec::new();
    for _ in 0..105 {
        let req = create();
        tasks.push(tokio::spawn(
            async move { req.send().await.unwrap().status() },
        ));
    }
    let mut created = 0;
    for t in tasks {
        match t.await.unwrap() {
            StatusCode::OK => created += 1,
            StatusCode::UNPROCESSABLE_ENTITY => {}
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(created, 99, "concurrent creates stop exactly at the cap");
    let (status, body) = call(create()).await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("too_big".to_owned(), "keys".to_owned())]
    );
    let (_, list) =
        call(app.with_cookie(Method::GET, "/api/auth/api-key/list", &acct.cookie)).await;
    assert_eq!(list.as_array().unwrap().len(), 100);
    app.stop().await;
}

/// Sends every request at once and answers each status as it comes back, in that order.
fn burst(
    requests: Vec<reqwest::RequestBuilder>,
) -> tokio::sync::mpsc::UnboundedReceiver<StatusCode> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    for req in requests {
        let tx = tx.clone();
        tokio::spawn(async move {
            let status = req.send().await.unwrap().status();
            tx.send(status).unwrap();
        });
    }
    rx
}

fn count(statuses: &[StatusCode], wanted: u16) -> usize {
    statuses.iter().filter(|s| s.as_u16() == wanted).count()
}

/// Simultaneous wrong passwords for one email get exactly the limit's ten guesses: each attempt
/// is counted before its password is checked, so the other fifty wait, and the right password,
/// sent while the ten guesses are still being checked, waits too.
#[tokio::test]
async fn a_burst_of_sign_ins_for_one_email_gets_ten_guesses_and_no_more() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let attempt = |password: &str| {
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": acct.email, "password": password}))
    };
    let mut answers = burst((0..60).map(|_| attempt("nope nope")).collect());
    let mut statuses = Vec::new();
    let mut right_password = None;
    while let Some(status) = answers.recv().await {
        statuses.push(status);
        // A refusal means ten wrong guesses hold the email's count, finished or not.
        if status == 429 && right_password.is_none() {
            right_password = Some(call(attempt(&acct.password)).await.0);
        }
    }
    assert_eq!(count(&statuses, 401), 10, "{statuses:?}");
    assert_eq!(count(&statuses, 429), 50, "{statuses:?}");
    assert_eq!(right_password, Some(StatusCode::TOO_MANY_REQUESTS));
    app.stop().await;
}

/// Simultaneous wrong sign-ins from one address, each for another email, get exactly the
/// address's limit of guesses; the rest wait, and so does a right password from that address.
#[tokio::test]
async fn a_burst_of_sign_ins_from_one_address_gets_its_limit_and_no_more() {
    let app = TestApp::spawn_with(crate::support::Options {
        account_limits: Some(wort_domain::account::AccountLimits {
            failed_sign_ins_per_address: 5,
            sign_ups_per_address: 0,
            ..Default::default()
        }),
        ..Default::default()
    })
    .await;
    let acct = app.account().await;
    let sprayer = format!("sprayer-{}", uuid::Uuid::new_v4().simple());
    let from_sprayer = |email: &str, password: &str| {
        app.request(Method::POST, "/api/auth/sign-in/email")
            .header("X-Test-Client-Ip", &sprayer)
            .json(&json!({"email": email, "password": password}))
    };
    let guesses = (0..40)
        .map(|i| from_sprayer(&format!("guess-{i}@example.com"), "password1"))
        .collect();
    let mut answers = burst(guesses);
    let mut statuses = Vec::new();
    while let Some(status) = answers.recv().await {
        statuses.push(status);
    }
    assert_eq!(count(&statuses, 401), 5, "{statuses:?}");
    assert_eq!(count(&statuses, 429), 35, "{statuses:?}");
    assert_eq!(
        call(from_sprayer(&acct.email, &acct.password)).await.0,
        429,
        "the address waits, even with a right password"
    );
    app.stop().await;
}

/// A right password is not a failure: it gives back the address's count it took, so someone
/// who signs in again and again from one address is never throttled for it.
#[tokio::test]
async fn right_passwords_do_not_use_up_the_address_limit() {
    let app = TestApp::spawn_with(crate::support::Options {
        account_limits: Some(wort_domain::account::AccountLimits {
            failed_sign_ins_per_address: 2,
            sign_ups_per_address: 0,
            ..Default::default()
        }),
        ..Default::default()
    })
    .await;
    let acct = app.account().await;
    let sign_in = |password: &str| {
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": acct.email, "password": password}))
    };
    assert_eq!(call(sign_in("nope nope")).await.0, 401);
    for _ in 0..4 {
        assert_eq!(call(sign_in(&acct.password)).await.0, 200);
    }
    // The one failure is still counted (a success clears only the email's count, never the
    // address's): one more failure reaches the limit of two.
    assert_eq!(call(sign_in("nope nope")).await.0, 401);
    assert_eq!(call(sign_in(&acct.password)).await.0, 429);
    app.stop().await;
}

/// Two instances of wort on one database share the count: a burst split between them still gets
/// ten guesses at an email, not ten per instance.
#[tokio::test]
async fn two_instances_on_one_database_share_the_email_limit() {
    let first = TestApp::spawn().await;
    let second = TestApp::spawn().await;
    let acct = first.account().await;
    let guess = |app: &TestApp| {
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": acct.email, "password": "nope nope"}))
    };
    let guesses = (0..60)
        .map(|i| guess(if i % 2 == 0 { &first } else { &second }))
        .collect();
    let mut answers = burst(guesses);
    let mut statuses = Vec::new();
    while let Some(status) = answers.recv().await {
        statuses.push(status);
    }
    assert_eq!(count(&statuses, 401), 10, "{statuses:?}");
    assert_eq!(count(&statuses, 429), 50, "{statuses:?}");
    first.stop().await;
    second.stop().await;
}

/// Polls `check` until it holds, for at most two seconds: how long another instance may take to
/// hear of a revocation (PostgreSQL announces it when the change commits).
async fn within_two_seconds(what: &str, mut check: impl AsyncFnMut() -> bool) {
    let started = std::time::Instant::now();
    while !check().await {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(2),
            "{what}: still accepted after 2 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn revoked_credentials_stop_working_on_every_instance_at_once() {
    // Two instances on one database, each remembering the credentials it has checked.
    let one = TestApp::spawn().await;
    let two = TestApp::spawn().await;
    let acct = one.account().await;
    let (_, second_key) = call(
        one.with_cookie(Method::POST, "/api/auth/api-key/create", &acct.cookie)
            .json(&json!({"name": "second"})),
    )
    .await;
    let second = second_key["key"].as_str().unwrap().to_owned();
    // Both instances remember both keys and the cookie (each is used twice).
    for app in [&one, &two] {
        for _ in 0..2 {
            for key in [acct.key.as_str(), second.as_str()] {
                assert_eq!(call(app.with_key(Method::GET, "/v1/me", key)).await.0, 200);
            }
            assert_eq!(
                call(app.with_cookie(Method::GET, "/v1/me", &acct.cookie))
                    .await
                    .0,
                200
            );
        }
    }
    let me = |app: &TestApp, key: &str| app.with_key(Method::GET, "/v1/me", key);

    // A key deleted through one instance: at once there, promptly on the other.
    let (status, _) = call(
        one.with_cookie(Method::POST, "/api/auth/api-key/delete", &acct.cookie)
            .json(&json!({"keyId": second_key["id"]})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(call(me(&one, &second)).await.0, 401);
    within_two_seconds("a deleted key on the other instance", async || {
        call(me(&two, &second)).await.0 == 401
    })
    .await;
    // The other key and the cookie are still good.
    assert_eq!(call(me(&two, &acct.key)).await.0, 200);

    // A rename through one instance reaches the other's remembered user.
    let (status, _) = call(
        one.with_cookie(Method::POST, "/api/auth/update-user", &acct.cookie)
            .json(&json!({"name": "Renamed Brewer"})),
    )
    .await;
    assert_eq!(status, 200);
    within_two_seconds("a rename on the other instance", async || {
        call(me(&two, &acct.key)).await.1["name"] == "Renamed Brewer"
    })
    .await;

    // Signing out on one instance ends the cookie on the other.
    let (status, _) = call(one.with_cookie(Method::POST, "/api/auth/sign-out", &acct.cookie)).await;
    assert_eq!(status, 200);
    within_two_seconds("a signed-out cookie on the other instance", async || {
        call(two.with_cookie(Method::GET, "/v1/me", &acct.cookie))
            .await
            .0
            == 401
    })
    .await;

    // An account deleted behind wort's back (an operator's SQL): its key stops everywhere.
    assert_eq!(call(me(&one, &acct.key)).await.0, 200);
    assert_eq!(call(me(&two, &acct.key)).await.0, 200);
    let deleted = std::process::Command::new(crate::backup::pg_tool("psql"))
        .args([
            &crate::support::database_url(),
            "-X",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-c",
            &format!("DELETE FROM users WHERE id = '{}'", acct.id),
        ])
        .env_remove("PGDATABASE")
        .status()
        .unwrap();
    assert!(deleted.success());
    for app in [&one, &two] {
        within_two_seconds("a deleted account's key", async || {
            call(me(app, &acct.key)).await.0 == 401
        })
        .await;
    }
    one.stop().await;
    two.stop().await;
}

#[tokio::test]
async fn a_remembered_key_still_expires_on_time() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, created) = call(
        app.with_cookie(Method::POST, "/api/auth/api-key/create", &acct.cookie)
            .json(&json!({"name": "short", "expiresIn": 3600})),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let key = created["key"].as_str().unwrap().to_owned();
    for _ in 0..3 {
        assert_eq!(call(app.with_key(Method::GET, "/v1/me", &key)).await.0, 200);
    }
    // Within the minute the cache trusts a confirmed key, the key itself expires.
    app.clock
        .advance(Duration::minutes(59) + Duration::seconds(50));
    assert_eq!(call(app.with_key(Method::GET, "/v1/me", &key)).await.0, 200);
    app.clock.advance(Duration::seconds(15));
    assert_eq!(call(app.with_key(Method::GET, "/v1/me", &key)).await.0, 401);
    app.stop().await;
}
