//! `Idempotency-Key` on writes under `/v1`: a retry with the key gets the first answer and
//! applies nothing again.

use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::{Value, json};
use time::Duration;
use wort_domain::idempotency::Fingerprint;
use wort_domain::idempotency::rules::ABANDONED_AFTER;

use crate::support::{Account, TestApp, call, database_url, issue_codes, random_id};

const KEY: &str = "Idempotency-Key";
const REPLAYED: &str = "Idempotent-Replayed";

async fn recipe_count(app: &TestApp, acct: &Account) -> i64 {
    let res = app
        .with_key(Method::GET, "/v1/recipes", &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res.headers()["X-Total-Count"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

fn create(app: &TestApp, acct: &Account, key: &str, body: &Value) -> RequestBuilder {
    app.with_key(Method::POST, "/v1/recipes", &acct.key)
        .header(KEY, key)
        .json(body)
}

#[tokio::test]
async fn a_retried_create_is_applied_once_and_replays_the_first_answer() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let key = random_id();
    let body = json!({"name": "Pale Ale"});

    let first = create(&app, &acct, &key, &body).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(first.headers().get(REPLAYED).is_none());
    let first_type = first.headers()["content-type"].clone();
    let first_body = first.text().await.unwrap();

    let again = create(&app, &acct, &key, &body).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(again.headers()[REPLAYED], "true");
    assert_eq!(again.headers()["content-type"], first_type);
    assert!(again.headers().contains_key("x-request-id"));
    assert_eq!(again.text().await.unwrap(), first_body, "the same bytes");
    assert_eq!(recipe_count(&app, &acct).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn the_key_with_another_request_is_422_idempotency_key_reused() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let key = random_id();
    let (status, _) = call(create(&app, &acct, &key, &json!({"name": "Stout"}))).await;
    assert_eq!(status, StatusCode::CREATED);

    let (status, body) = call(create(&app, &acct, &key, &json!({"name": "Porter"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        issue_codes(&body),
        [(
            "idempotency_key_reused".to_owned(),
            "Idempotency-Key".to_owned()
        )]
    );
    // Another path with the same body is another request too.
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/equipment", &acct.key)
            .header(KEY, &key)
            .json(&json!({"name": "Stout"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(recipe_count(&app, &acct).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn concurrent_tries_with_one_key_apply_once() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let key = random_id();
    let body = json!({"name": "Race"});
    let tries = (0..6).map(|_| create(&app, &acct, &key, &body).send());
    let answers = futures_util::future::join_all(tries).await;
    let mut applied = 0;
    for res in answers {
        let res = res.unwrap();
        let status = res.status();
        let replayed = res.headers().get(REPLAYED).is_some();
        let text = res.text().await.unwrap();
        match status {
            StatusCode::CREATED if !replayed => applied += 1,
            StatusCode::CREATED => {}
            StatusCode::CONFLICT => assert!(text.contains("still being processed"), "{text}"),
            other => panic!("{other}: {text}"),
        }
    }
    assert_eq!(applied, 1);
    assert_eq!(recipe_count(&app, &acct).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn a_running_request_holds_its_key_until_abandoned() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let key = random_id();
    let body = r#"{"name":"Held"}"#;
    // A reservation without an answer, as a wort that died mid-request leaves it.
    let fingerprint = Fingerprint::of("POST", "/v1/recipes", body.as_bytes());
    let hex: String = fingerprint.0.iter().map(|b| format!("{b:02x}")).collect();
    psql(&format!(
        "INSERT INTO idempotency_keys (user_id, key, fingerprint, token, reserved_at) \
         VALUES ('{}', '{key}', '\\x{hex}', gen_random_uuid(), now())",
        acct.id
    ));
    let post = || {
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .header(KEY, &key)
            .header("Content-Type", "application/json")
            .body(body)
    };
    let res = post().send().await.unwrap();
    assert_eq!(res.status(), StatusCode::CONFLICT);
    assert_eq!(res.headers()["retry-after"], "1");
    let text: Value = res.json().await.unwrap();
    assert!(text["error"].as_str().unwrap().contains("still"), "{text}");
    assert_eq!(recipe_count(&app, &acct).await, 0);

    app.clock
        .advance(Duration::seconds(ABANDONED_AFTER.whole_seconds() + 1));
    let (status, recipe) = call(post()).await;
    assert_eq!(status, StatusCode::CREATED, "{recipe}");
    let res = post().send().await.unwrap();
    assert_eq!(res.headers()[REPLAYED], "true");
    assert_eq!(recipe_count(&app, &acct).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn malformed_keys_are_400() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    for bad in ["", "has space", &"k".repeat(256), "caf\u{e9}"] {
        let res = app
            .with_key(Method::POST, "/v1/recipes", &acct.key)
            .header(KEY, bad.as_bytes())
            .json(&json!({"name": "x"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{bad:?}");
        let body: Value = res.json().await.unwrap();
        assert!(
            body["error"].as_str().unwrap().contains("Idempotency-Key"),
            "{body}"
        );
    }
    // Two keys at once.
    let (status, _) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .header(KEY, "a")
            .header(KEY, "b")
            .json(&json!({"name": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(recipe_count(&app, &acct).await, 0);
    // Without a credential the key is not looked at: 401 as always.
    let (status, _) = call(
        app.request(Method::POST, "/v1/recipes")
            .header(KEY, "has space")
            .json(&json!({"name": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    app.stop().await;
}

#[tokio::test]
async fn a_patch_is_replayed_not_applied_again() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, recipe) = call(create(&app, &acct, &random_id(), &json!({"name": "Mild"}))).await;
    let path = format!("/v1/recipes/{}", recipe["id"].as_str().unwrap());
    let key = random_id();
    let patch = || {
        app.with_key(Method::PATCH, &path, &acct.key)
            .header(KEY, &key)
            .json(&json!({"notes": "first"}))
    };
    let (status, first) = call(patch()).await;
    assert_eq!(status, StatusCode::OK);
    // Changed by another write in between: a replay still answers what the first try did.
    let (status, _) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"notes": "second"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let res = patch().send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()[REPLAYED], "true");
    let replayed: Value = res.json().await.unwrap();
    assert_eq!(replayed, first);
    let (_, now) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(now["notes"], "second", "the retry changed nothing");
    app.stop().await;
}

#[tokio::test]
async fn keys_belong_to_one_account() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.account().await, app.account().await);
    let key = random_id();
    let (status, from_a) = call(create(&app, &a, &key, &json!({"name": "A"}))).await;
    assert_eq!(status, StatusCode::CREATED);
    // B's request with A's key string, another body: B's own, new key.
    let res = create(&app, &b, &key, &json!({"name": "B"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    assert!(res.headers().get(REPLAYED).is_none());
    let from_b: Value = res.json().await.unwrap();
    assert_ne!(from_a["id"], from_b["id"]);
    assert_eq!(from_b["user_id"], b.id.as_str());
    assert_eq!(recipe_count(&app, &a).await, 1);
    assert_eq!(recipe_count(&app, &b).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn without_the_header_every_request_is_applied() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    for _ in 0..2 {
        let res = app
            .with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Twice"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        assert!(res.headers().get(REPLAYED).is_none());
    }
    assert_eq!(recipe_count(&app, &acct).await, 2);
    app.stop().await;
}

#[tokio::test]
async fn refused_requests_are_replayed_too_and_other_prefixes_ignore_the_key() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let key = random_id();
    // A validation failure is the request's answer: the retry gets it again.
    let bad = json!({"name": ""});
    let (status, first) = call(create(&app, &acct, &key, &bad)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let res = create(&app, &acct, &key, &bad).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(res.headers()[REPLAYED], "true");
    assert_eq!(res.json::<Value>().await.unwrap(), first);
    // Outside /v1 the header means nothing (sign-in keeps its own rules).
    let (status, _) = call(
        app.request(Method::POST, "/api/auth/sign-in/email")
            .header(KEY, "has space")
            .json(&json!({"email": acct.email, "password": acct.password})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn keys_older_than_a_day_are_pruned() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, _) = call(create(&app, &acct, "kept", &json!({"name": "Kept"}))).await;
    assert_eq!(status, StatusCode::CREATED);
    app.stop().await;
    psql(&format!(
        "INSERT INTO idempotency_keys (user_id, key, fingerprint, token, reserved_at, status) \
         VALUES ('{}', 'old', '\\x00', gen_random_uuid(), now() - interval '25 hours', 201)",
        acct.id
    ));
    // A wort starting now prunes when it starts.
    let later = TestApp::spawn().await;
    let mut left = String::new();
    for _ in 0..50 {
        left = psql(&format!(
            "SELECT string_agg(key, ',' ORDER BY key) FROM idempotency_keys WHERE user_id = '{}'",
            acct.id
        ));
        if left == "kept" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(left, "kept");
    later.stop().await;
}

fn psql(sql: &str) -> String {
    let out = std::process::Command::new("psql")
        .args([
            &database_url(),
            "-X",
            "-q",
            "-t",
            "-A",
            "-v",
            "ON_ERROR_STOP=1",
            "-c",
            sql,
        ])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A replay may carry a secret (a webhook's, a device's token) whose first answer said
/// `no-store`: every replay says it too, and is never compressed.
#[tokio::test]
async fn a_replayed_secret_is_never_stored_nor_compressed() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let key = random_id();
    let url = format!("http://127.0.0.1:9/hook?pad={}", "x".repeat(1500));
    let body = json!({"url": url, "events": ["reading.created"]});
    let post = || {
        app.with_key(Method::POST, "/v1/webhooks", &acct.key)
            .header(KEY, &key)
            .header("Accept-Encoding", "gzip, br")
            .json(&body)
    };
    let first = post().send().await.unwrap();
    assert_eq!(first.status(), StatusCode::CREATED);
    let first_body: Value = first.json().await.unwrap();
    let replay = post().send().await.unwrap();
    assert_eq!(replay.status(), StatusCode::CREATED);
    assert_eq!(replay.headers()[REPLAYED], "true");
    assert_eq!(replay.headers()["cache-control"], "no-store");
    assert!(!replay.headers().contains_key("content-encoding"));
    let replayed: Value = replay.json().await.unwrap();
    assert_eq!(replayed["secret"], first_body["secret"]);
    app.stop().await;
}
