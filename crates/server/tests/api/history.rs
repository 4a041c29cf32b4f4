//! Recipe history and sharing: versions that coalesce edits and freeze on a name, a brew, a
//! copy; a version's content and figures as they were; diffs, restore with the original ids;
//! lineage; comparing two recipes; share links with their public page and files, revocation,
//! the copy into another account, and the isolation of all of it.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use time::Duration;

use crate::support::{Account, TestApp, call, get, post};

async fn pale_ale(app: &TestApp, acct: &Account) -> (String, String) {
    let id = post(
        app,
        acct,
        "/v1/recipes",
        json!({"name": "Pale Ale", "notes": "Secret tip"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    post(
        app,
        acct,
        &format!("/v1/recipes/{id}/fermentables"),
        json!({"name": "Pale malt", "amount_kg": 4.5, "color_srm": 3, "yield_percent": 80}),
    )
    .await;
    let hop = post(
        app,
        acct,
        &format!("/v1/recipes/{id}/hops"),
        json!({"name": "Cascade", "alpha_acid": 6, "amount_grams": 30, "time_minutes": 60}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (id, hop)
}

async fn patch(app: &TestApp, acct: &Account, path: &str, body: Value) -> Value {
    let (status, v) = call(app.with_key(Method::PATCH, path, &acct.key).json(&body)).await;
    assert_eq!(status, 200, "{path}: {v}");
    v
}

#[tokio::test]
async fn edits_coalesce_into_versions_that_keep_their_content_and_figures() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (id, hop) = pale_ale(&app, &acct).await;
    let versions = format!("/v1/recipes/{id}/versions");

    // Made and edited within ten minutes: one version, the recipe as it is.
    let list = get(&app, &acct, &versions).await;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list[0]["number"], 1);
    assert_eq!(list[0]["current"], true);
    let og_v1 = get(&app, &acct, &format!("/v1/recipes/{id}/stats")).await["og"].clone();

    // Eleven minutes on, an edit starts version 2; version 1 is frozen as it was.
    app.clock.advance(Duration::minutes(11));
    patch(
        &app,
        &acct,
        &format!("/v1/hops/{hop}"),
        json!({"amount_grams": 45}),
    )
    .await;
    patch(
        &app,
        &acct,
        &format!("/v1/recipes/{id}"),
        json!({"efficiency": 0.8}),
    )
    .await;
    let list = get(&app, &acct, &versions).await;
    let numbers: Vec<i64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["number"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, vec![2, 1], "newest first: {list}");
    assert_eq!(list[0]["current"], true);
    assert_eq!(list[1]["current"], false);
    assert_eq!(list[1]["summary"], "Created.");
    assert_eq!(
        list[0]["summary"], "Changed efficiency; 1 hop changed.",
        "{list}"
    );

    let v1 = get(&app, &acct, &format!("{versions}/1")).await;
    assert_eq!(v1["recipe"]["hops"][0]["amount_grams"], 30.0);
    assert_eq!(v1["recipe"]["efficiency"], 0.72);
    assert_eq!(v1["stats"]["og"], og_v1, "figures as they were");
    let v2 = get(&app, &acct, &format!("{versions}/2")).await;
    assert_eq!(v2["recipe"]["hops"][0]["amount_grams"], 45.0);
    assert_ne!(v2["stats"]["og"], og_v1);

    // The diff names the fields and the child by its id.
    let diff = get(&app, &acct, &format!("{versions}/2/diff?against=1")).await;
    assert_eq!(
        diff["fields"],
        json!([{"path": ["efficiency"], "before": 0.72, "after": 0.8}])
    );
    assert_eq!(diff["children"][0]["kind"], "hop");
    assert_eq!(diff["children"][0]["id"], hop.as_str());
    assert_eq!(diff["children"][0]["change"], "changed");
    assert_eq!(
        diff["children"][0]["fields"],
        json!([{"path": ["amount_grams"], "before": 30.0, "after": 45.0}])
    );
    // `against` defaults to the version before.
    assert_eq!(get(&app, &acct, &format!("{versions}/2/diff")).await, diff);

    // Naming closes version 2: the next edit, however soon, is version 3.
    let (status, named) = call(
        app.with_key(Method::POST, &versions, &acct.key)
            .json(&json!({"message": "More hops"})),
    )
    .await;
    assert_eq!(status, 201, "{named}");
    assert_eq!(
        (named["number"].clone(), named["current"].clone()),
        (json!(2), json!(false))
    );
    assert_eq!(named["message"], "More hops");
    call(app.with_key(Method::DELETE, &format!("/v1/hops/{hop}"), &acct.key)).await;
    let list = get(&app, &acct, &versions).await;
    assert_eq!(list[0]["number"], 3);
    assert_eq!(list[1]["message"], "More hops");

    // Restore version 1: the hop comes back with its id, the efficiency too, as version 4.
    let (status, restored) =
        call(app.with_key(Method::POST, &format!("{versions}/1/restore"), &acct.key)).await;
    assert_eq!(status, 201, "{restored}");
    assert_eq!(restored["number"], 4);
    assert_eq!(restored["message"], "Restored version 1");
    let recipe = get(&app, &acct, &format!("/v1/recipes/{id}")).await;
    assert_eq!(recipe["hops"][0]["id"], hop.as_str());
    assert_eq!(recipe["hops"][0]["amount_grams"], 30.0);
    assert_eq!(recipe["efficiency"], 0.72);
    let frozen3 = get(&app, &acct, &format!("{versions}/3")).await;
    assert_eq!(
        frozen3["recipe"]["hops"],
        json!([]),
        "version 3 kept its content"
    );
    let again = get(&app, &acct, &format!("{versions}/4/diff?against=1")).await;
    assert_eq!(again, json!({"fields": [], "children": []}));

    // Bad numbers: 400; numbers the recipe never had: 404.
    let (status, _) = call(app.with_key(Method::GET, &format!("{versions}/x"), &acct.key)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(app.with_key(Method::GET, &format!("{versions}/99"), &acct.key)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = call(
        app.with_key(Method::POST, &versions, &acct.key)
            .json(&json!({"message": ""})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    app.stop().await;
}

#[tokio::test]
async fn sessions_copies_and_scaled_copies_record_the_version_they_came_from() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (id, hop) = pale_ale(&app, &acct).await;
    let session = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": id, "brew_date": "2026-12-07"}),
    )
    .await;
    assert_eq!(session["recipe_version"], 1);
    // The brewed version is frozen: an edit a minute later is version 2.
    app.clock.advance(Duration::minutes(1));
    patch(
        &app,
        &acct,
        &format!("/v1/hops/{hop}"),
        json!({"amount_grams": 40}),
    )
    .await;
    let v1 = get(&app, &acct, &format!("/v1/recipes/{id}/versions/1")).await;
    assert_eq!(v1["recipe"]["hops"][0]["amount_grams"], 30.0);

    let copy = post(&app, &acct, &format!("/v1/recipes/{id}/copy"), json!({})).await;
    assert_eq!(copy["parent_recipe_id"], id.as_str());
    assert_eq!(copy["parent_version"], 2);
    let copy_id = copy["id"].as_str().unwrap();
    let scaled = post(
        &app,
        &acct,
        &format!("/v1/recipes/{copy_id}/scale"),
        json!({"batch_size_liters": 40}),
    )
    .await;
    assert_eq!(scaled["parent_recipe_id"], copy_id);
    assert_eq!(scaled["parent_version"], 1);

    let lineage = get(
        &app,
        &acct,
        &format!("/v1/recipes/{}/lineage", scaled["id"].as_str().unwrap()),
    )
    .await;
    let names: Vec<&str> = lineage["ancestors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec![copy_id, id.as_str()], "parent first: {lineage}");
    let down = get(&app, &acct, &format!("/v1/recipes/{id}/lineage")).await;
    assert_eq!(down["ancestors"], json!([]));
    assert_eq!(down["descendants"].as_array().unwrap().len(), 2, "{down}");

    // Compare: children pair by name, whatever their case and order.
    let diff = get(
        &app,
        &acct,
        &format!(
            "/v1/recipes/{}/diff?against_recipe={id}",
            scaled["id"].as_str().unwrap()
        ),
    )
    .await;
    let hop_change = diff["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "hop")
        .unwrap();
    assert_eq!(hop_change["change"], "changed");
    assert_eq!(hop_change["against_id"], hop.as_str());
    assert_eq!(hop_change["fields"][0]["path"], json!(["amount_grams"]));
    let (status, _) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{id}/diff"), &acct.key)).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "against_recipe is required"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_shared_link_shows_one_recipe_and_nothing_else_until_revoked() {
    let app = TestApp::spawn().await;
    let owner = app.account().await;
    let other = app.account().await;
    let (id, _) = pale_ale(&app, &owner).await;
    let share = format!("/v1/recipes/{id}/share");

    let (status, body) = call(app.with_key(Method::GET, &share, &owner.key)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "not shared yet: {body}");
    let res = app
        .with_key(Method::POST, &share, &owner.key)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let link: Value = res.json().await.unwrap();
    let token = link["token"].as_str().unwrap().to_owned();
    assert!(token.len() >= 22, "at least 128 random bits: {token}");
    assert!(
        link["url"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/shared/{token}"))
    );
    assert_eq!(link["include_notes"], false);
    // A second share is the live link.
    let (status, again) = call(
        app.with_key(Method::POST, &share, &owner.key)
            .json(&json!({"include_notes": true})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["token"], token.as_str());
    assert_eq!(again["include_notes"], true);
    call(
        app.with_key(Method::POST, &share, &owner.key)
            .json(&json!({"include_notes": false})),
    )
    .await;

    // The public page: no credential, the recipe named in plain HTML, nothing else of the account.
    let res = app
        .request(Method::GET, &format!("/shared/{token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    for (name, value) in [
        ("x-robots-tag", "noindex"),
        ("referrer-policy", "no-referrer"),
        ("cache-control", "no-store"),
    ] {
        assert_eq!(res.headers()[name], value, "{name}");
    }
    let html = res.text().await.unwrap();
    assert!(html.contains("<h1>Pale Ale</h1>"), "{html}");
    assert!(html.contains("property=\"og:title\" content=\"Pale Ale\""));
    assert!(html.contains("Cascade") && html.contains("Pale malt"));
    assert!(
        html.contains("4.5 kg (9.92 lb)"),
        "amounts in metric and US: {html}"
    );
    assert!(html.contains("30 g (1.06 oz)"));
    assert!(!html.contains("Secret tip"), "notes only when included");
    assert!(!html.contains(&id), "no ids of the account");
    assert!(!html.contains(&owner.email));

    let json_file = app
        .request(Method::GET, &format!("/shared/{token}/recipe.json"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(json_file.contains("\"author\":\"wort\""), "{json_file}");
    assert!(!json_file.contains("Secret tip"));
    let xml = app
        .request(Method::GET, &format!("/shared/{token}/recipe.xml"))
        .send()
        .await
        .unwrap();
    assert_eq!(xml.status(), 200);
    assert!(xml.text().await.unwrap().contains("<NAME>Pale Ale</NAME>"));

    // Another brewer copies it: their recipe, its source the link, no parent.
    let (status, copy) = call(app.with_key(
        Method::POST,
        &format!("/v1/shared/{token}/copy"),
        &other.key,
    ))
    .await;
    assert_eq!(status, StatusCode::CREATED, "{copy}");
    assert_eq!(copy["source_url"], link["url"]);
    assert_eq!(copy["parent_recipe_id"], Value::Null);
    assert_eq!(copy["notes"], Value::Null);
    assert_eq!(copy["hops"][0]["name"], "Cascade");

    // Another account cannot see or revoke the owner's link.
    let (status, _) = call(app.with_key(Method::GET, &share, &other.key)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = call(app.with_key(Method::DELETE, &share, &other.key)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Revoked: 404 at once, everywhere; a new share is a new token.
    let (status, _) = call(app.with_key(Method::DELETE, &share, &owner.key)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    for path in [
        format!("/shared/{token}"),
        format!("/shared/{token}/recipe.json"),
        format!("/shared/{token}/recipe.xml"),
    ] {
        let res = app.request(Method::GET, &path).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
    }
    let (status, _) = call(app.with_key(
        Method::POST,
        &format!("/v1/shared/{token}/copy"),
        &other.key,
    ))
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, fresh) = call(
        app.with_key(Method::POST, &share, &owner.key)
            .json(&json!({})),
    )
    .await;
    assert_ne!(fresh["token"], token.as_str());

    // An unknown token of the right shape, or of any shape: 404.
    for path in ["/shared/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/shared/x"] {
        let res = app.request(Method::GET, path).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(res.headers()["x-robots-tag"], "noindex", "errors too");
        assert_eq!(res.headers()["cache-control"], "no-store");
    }
    // A share token opens a recipe: it never reaches the log.
    assert!(
        !crate::support::captured_logs().contains(&token),
        "a log line holds a token"
    );
    app.stop().await;
}

#[tokio::test]
async fn shared_pages_answer_sixty_requests_a_minute_per_address() {
    let app = TestApp::spawn().await;
    let mut limited = false;
    for _ in 0..70 {
        let res = app
            .request(Method::GET, "/shared/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
            .send()
            .await
            .unwrap();
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            assert!(res.headers().contains_key("retry-after"));
            limited = true;
            break;
        }
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
    }
    assert!(limited, "the 61st request of a minute is refused");
    app.stop().await;
}

#[tokio::test]
async fn another_accounts_history_is_a_random_id() {
    let app = TestApp::spawn().await;
    let owner = app.account().await;
    let other = app.account().await;
    let (id, _) = pale_ale(&app, &owner).await;
    let (theirs, _) = pale_ale(&app, &other).await;
    for path in [
        format!("/v1/recipes/{id}/versions"),
        format!("/v1/recipes/{id}/versions/1"),
        format!("/v1/recipes/{id}/versions/1/diff"),
        format!("/v1/recipes/{id}/lineage"),
        format!("/v1/recipes/{id}/diff?against_recipe={theirs}"),
        format!("/v1/recipes/{theirs}/diff?against_recipe={id}"),
    ] {
        let (status, body) = call(app.with_key(Method::GET, &path, &other.key)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
    }
    let (status, _) = call(app.with_key(
        Method::POST,
        &format!("/v1/recipes/{id}/versions/1/restore"),
        &other.key,
    ))
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.stop().await;
}
