//! What caches may keep: every answer to a request with a credential is `private, no-cache`;
//! every answer that carries a secret (a key, a signing secret, a device token, a session and
//! its cookie) is `no-store` and never compressed, whatever the client accepts.

use reqwest::header::HeaderMap;
use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestApp, session_cookie};

/// Everything a client accepts, so that only the server's own rule can keep a body plain.
const ACCEPT_ALL: &str = "gzip, br";

fn cache_control(headers: &HeaderMap) -> &str {
    headers
        .get("cache-control")
        .map_or("", |v| v.to_str().unwrap())
}

/// Sends `req` asking for compression; status, headers and the body as sent.
async fn send(req: RequestBuilder) -> (StatusCode, HeaderMap, Vec<u8>) {
    let res = req
        .header("Accept-Encoding", ACCEPT_ALL)
        .send()
        .await
        .unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    (status, headers, res.bytes().await.unwrap().to_vec())
}

/// A secret's answer: `no-store`, plain JSON (it parses as sent), nothing to revalidate.
fn assert_secret(what: &str, headers: &HeaderMap, body: &[u8]) -> Value {
    assert_eq!(cache_control(headers), "no-store", "{what}: {headers:?}");
    assert!(
        !headers.contains_key("content-encoding"),
        "{what}: {headers:?}"
    );
    assert!(!headers.contains_key("etag"), "{what}: {headers:?}");
    serde_json::from_slice(body).unwrap_or_else(|e| panic!("{what}: {e}"))
}

#[tokio::test]
async fn answers_to_credentialed_requests_are_private() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    // An API key, the session cookie, a `GET` and a write, a refusal, a `304`.
    let (status, headers, _) = send(app.with_key(Method::GET, "/v1/me", &acct.key)).await;
    assert_eq!(status, 200);
    assert_eq!(cache_control(&headers), "private, no-cache");
    let tag = headers["etag"].to_str().unwrap().to_owned();
    let (status, headers, _) = send(
        app.with_key(Method::GET, "/v1/me", &acct.key)
            .header("If-None-Match", &tag),
    )
    .await;
    assert_eq!(status, 304);
    assert_eq!(cache_control(&headers), "private, no-cache");
    let (status, headers, _) =
        send(app.with_cookie(Method::GET, "/v1/recipes", &acct.cookie)).await;
    assert_eq!(status, 200);
    assert_eq!(cache_control(&headers), "private, no-cache");
    let (status, headers, _) = send(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Private ale"})),
    )
    .await;
    assert_eq!(status, 201);
    assert_eq!(cache_control(&headers), "private, no-cache");
    let (status, headers, _) = send(app.with_key(Method::GET, "/v1/me", "wort_not-a-key")).await;
    assert_eq!(status, 401);
    assert_eq!(cache_control(&headers), "private, no-cache");
    // A device's token in the path is its credential.
    let (status, headers, _) = send(
        app.request(Method::POST, "/ingest/wortd_unknown")
            .json(&json!({"gravity": 1.05})),
    )
    .await;
    assert_eq!(status, 401);
    assert_eq!(cache_control(&headers), "private, no-cache");
    app.stop().await;
}

#[tokio::test]
async fn public_answers_are_not_marked_private() {
    let app = TestApp::spawn().await;
    for path in ["/healthz", "/v1/openapi.json"] {
        let (status, headers, _) = send(app.request(Method::GET, path)).await;
        assert_eq!(status, 200, "{path}");
        let policy = cache_control(&headers);
        assert!(!policy.contains("private"), "{path}: {policy}");
        assert!(!policy.contains("no-store"), "{path}: {policy}");
    }
    // The OpenAPI document is large enough to compress, and is: only secrets stay plain.
    let (_, headers, _) = send(app.request(Method::GET, "/v1/openapi.json")).await;
    assert!(headers.contains_key("content-encoding"), "{headers:?}");
    app.stop().await;
}

#[tokio::test]
async fn answers_with_secrets_are_no_store_and_never_compressed() {
    let app = TestApp::spawn().await;
    // Long enough fields that each answer passes the size from which JSON is compressed
    // (1 KiB), where the fields allow it: 200 four-byte characters in a name, a long address.
    let name = "🍺".repeat(200);
    let email = format!(
        "{}@{}.example.com",
        "b".repeat(64),
        ["c".repeat(60), "d".repeat(60)].join(".")
    );
    let password = "correct horse battery";

    let (status, headers, body) = send(
        app.request(Method::POST, "/api/auth/sign-up/email")
            .json(&json!({"name": name, "email": email, "password": password})),
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert!(body.len() > 1024, "{} bytes", body.len());
    assert_secret("sign-up", &headers, &body);
    assert!(headers.contains_key("set-cookie"));

    let res = app
        .request(Method::POST, "/api/auth/sign-in/email")
        .header("Accept-Encoding", ACCEPT_ALL)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let cookie = session_cookie(&res).unwrap();
    let headers = res.headers().clone();
    let body = res.bytes().await.unwrap();
    assert!(body.len() > 1024, "{} bytes", body.len());
    assert_secret("sign-in", &headers, &body);

    let (status, headers, body) =
        send(app.with_cookie(Method::GET, "/api/auth/get-session", &cookie)).await;
    assert_eq!(status, 200);
    assert!(body.len() > 1024, "{} bytes", body.len());
    assert_secret("get-session", &headers, &body);

    // A key's answer cannot reach 1 KiB (its name holds 64 characters at most); the rule is the
    // same, and `encoding`'s own test shows it on a large body.
    let (status, headers, body) = send(
        app.with_cookie(Method::POST, "/api/auth/api-key/create", &cookie)
            .json(&json!({"name": "🔑".repeat(64)})),
    )
    .await;
    assert_eq!(status, 200);
    let created = assert_secret("api key", &headers, &body);
    let key = created["key"].as_str().unwrap().to_owned();

    let url = format!("http://127.0.0.1:9/hook?pad={}", "x".repeat(1500));
    let (status, headers, body) = send(
        app.with_key(Method::POST, "/v1/webhooks", &key)
            .json(&json!({"url": url, "events": ["reading.created"]})),
    )
    .await;
    assert_eq!(status, 201, "{}", String::from_utf8_lossy(&body));
    assert!(body.len() > 1024, "{} bytes", body.len());
    let webhook = assert_secret("webhook", &headers, &body);
    assert!(webhook["secret"].is_string());
    // Read back without its secret, it is an ordinary private answer again.
    let (_, headers, _) = send(app.with_key(
        Method::GET,
        &format!("/v1/webhooks/{}", webhook["id"].as_str().unwrap()),
        &key,
    ))
    .await;
    assert_eq!(cache_control(&headers), "private, no-cache");

    let (status, headers, body) = send(
        app.with_key(Method::POST, "/v1/devices", &key)
            .json(&json!({"name": name, "kind": "ispindel"})),
    )
    .await;
    assert_eq!(status, 201, "{}", String::from_utf8_lossy(&body));
    assert!(body.len() > 1024, "{} bytes", body.len());
    let device = assert_secret("device", &headers, &body);
    assert!(device["token"].is_string());
    let (status, headers, body) = send(app.with_key(
        Method::POST,
        &format!("/v1/devices/{}/token", device["id"].as_str().unwrap()),
        &key,
    ))
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert!(body.len() > 1024, "{} bytes", body.len());
    assert_secret("device token", &headers, &body);

    let (status, headers, body) =
        send(app.with_cookie(Method::POST, "/api/auth/sign-out", &cookie)).await;
    assert_eq!(status, 200);
    assert_secret("sign-out", &headers, &body);
    app.stop().await;
}

#[tokio::test]
async fn a_refused_secret_request_is_an_ordinary_private_answer() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, headers, body) = send(
        app.with_key(Method::POST, "/v1/webhooks", &acct.key)
            .json(&json!({"url": "ftp://example.com/", "events": ["reading.created"]})),
    )
    .await;
    assert_eq!(status, 422, "{}", String::from_utf8_lossy(&body));
    assert_eq!(cache_control(&headers), "private, no-cache");
    app.stop().await;
}
