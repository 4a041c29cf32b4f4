//! Devices, their tokens, and `POST /ingest/{token}` with the payloads real
//! hydrometers send.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, Options, TestApp, call, issue_codes, post, random_id};

/// A session (fermenting) to post readings into.
pub async fn fermenting_session(app: &TestApp, acct: &Account) -> String {
    let recipe = post(
        app,
        acct,
        "/v1/recipes",
        json!({ "name": "Hydrometer Ale" }),
    )
    .await;
    let session = post(
        app,
        acct,
        "/v1/sessions",
        json!({ "recipe_id": recipe["id"], "brew_date": "2026-11-20", "status": "fermenting" }),
    )
    .await;
    session["id"].as_str().unwrap().to_owned()
}

/// A device of `kind` assigned to `session`; returns (device, token).
pub async fn device(
    app: &TestApp,
    acct: &Account,
    kind: &str,
    session: Option<&str>,
) -> (Value, String) {
    let d = post(
        app,
        acct,
        "/v1/devices",
        json!({ "name": format!("My {kind}"), "kind": kind, "session_id": session }),
    )
    .await;
    let token = d["token"].as_str().unwrap().to_owned();
    (d, token)
}

async fn ingest_json(app: &TestApp, token: &str, body: &Value) -> (StatusCode, Value) {
    call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .json(body),
    )
    .await
}

/// A session's readings as its list shows them (the first 1,000).
pub async fn readings(app: &TestApp, acct: &Account, session: &str) -> Vec<Value> {
    let (status, v) = call(app.with_key(
        Method::GET,
        &format!("/v1/sessions/{session}/fermentation-logs"),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 200);
    v.as_array().unwrap().clone()
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 1e-4
}

#[tokio::test]
async fn devices_are_managed_and_the_token_is_shown_once_and_hashed() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let (d, token) = device(&app, &acct, "ispindel", Some(&session)).await;
    assert!(
        token.starts_with("wortd_") && token.len() == 6 + 43,
        "{token}"
    );
    assert_eq!(d["kind"], "ispindel");
    assert_eq!(d["session_id"], session.as_str());
    assert!(d["last_seen_at"].is_null() && d["last_payload"].is_null());
    let id = d["id"].as_str().unwrap();
    let (status, got) =
        call(app.with_key(Method::GET, &format!("/v1/devices/{id}"), &acct.key)).await;
    assert_eq!(status, 200);
    assert!(got.get("token").is_none(), "the token is never shown again");
    let (_, list) = call(app.with_key(Method::GET, "/v1/devices", &acct.key)).await;
    assert_eq!(list.as_array().unwrap().len(), 1);

    // Rename, change kind, unassign.
    let (status, patched) = call(
        app.with_key(Method::PATCH, &format!("/v1/devices/{id}"), &acct.key)
            .json(&json!({"name": "Blue", "kind": "gravitymon", "session_id": null})),
    )
    .await;
    assert_eq!(status, 200, "{patched}");
    assert_eq!(patched["name"], "Blue");
    assert!(patched["session_id"].is_null());

    // Bad input: another account's session, an unknown kind, a missing name.
    let other = app.account().await;
    let foreign = fermenting_session(&app, &other).await;
    let (status, body) = call(
        app.with_key(Method::PATCH, &format!("/v1/devices/{id}"), &acct.key)
            .json(&json!({"session_id": foreign})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("custom".to_owned(), "session_id".to_owned())]
    );
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/devices", &acct.key)
            .json(&json!({"kind": "hydrometer"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_enum_value".to_owned(), "kind".to_owned()),
            ("invalid_type".to_owned(), "name".to_owned())
        ]
    );

    // Replacing the token: the old one is refused at once.
    let (status, replaced) =
        call(app.with_key(Method::POST, &format!("/v1/devices/{id}/token"), &acct.key)).await;
    assert_eq!(status, 200);
    let new_token = replaced["token"].as_str().unwrap();
    assert_ne!(new_token, token);
    let body = json!({"gravity": 1.050});
    assert_eq!(ingest_json(&app, &token, &body).await.0, 401);
    assert_eq!(
        ingest_json(&app, new_token, &body).await.0,
        409,
        "known, but unassigned"
    );

    // Another account sees nothing of it.
    assert_eq!(
        call(app.with_key(Method::GET, &format!("/v1/devices/{id}"), &other.key))
            .await
            .0,
        404
    );
    assert_eq!(
        call(app.with_key(Method::POST, &format!("/v1/devices/{id}/token"), &other.key))
            .await
            .0,
        404
    );
    assert!(
        !crate::support::captured_logs().contains(new_token),
        "tokens never reach the log"
    );
    assert_eq!(
        call(app.with_key(Method::DELETE, &format!("/v1/devices/{id}"), &acct.key))
            .await
            .0,
        204
    );
    assert_eq!(
        ingest_json(&app, new_token, &body).await.0,
        401,
        "a deleted device's token"
    );
    app.stop().await;
}

/// Every supported payload exactly as the firmware sends it, each from its own device (one
/// reading per device per minute).
#[tokio::test]
async fn every_device_payload_is_stored_as_one_reading_in_si_units() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let cases: Vec<(&str, Value, f64, &str, f64)> = vec![
        (
            "ispindel",
            json!({"name":"iSpindel000","ID":1234567,"token":"","angle":22.21945,"temperature":21.5625,
                   "temp_units":"C","battery":4.082989,"gravity":1.041945,"interval":900,"RSSI":-76}),
            1.041945,
            "sg",
            21.5625,
        ),
        (
            "ispindel",
            json!({"name":"iSpindel001","ID":7654321,"angle":40.1,"temperature":70.7,"temp_units":"F",
                   "battery":3.9,"gravity":10.2,"interval":900,"RSSI":-60}),
            1.04086,
            "plato",
            21.5,
        ),
        (
            "ispindel",
            json!({"name":"iSpindel002","ID":1,"angle":30,"temperature":294.7125,"temp_units":"K",
                   "battery":4.0,"gravity":1.020,"interval":900,"RSSI":-70}),
            1.020,
            "sg",
            21.5625,
        ),
        (
            "gravitymon",
            json!({"name":"gravmon","ID":"e422a3","token":"","interval":900,"temperature":20.5,"temp_units":"C",
                   "gravity":8.9,"angle":34.45,"battery":3.85,"rssi":-75.2,"corr-gravity":8.9,
                   "gravity-unit":"P","run-time":6}),
            1.03549,
            "plato",
            20.5,
        ),
        (
            "stream",
            json!({"name":"YourDeviceName","temp":20.32,"aux_temp":15.61,"ext_temp":6.51,"temp_unit":"C",
                   "gravity":1.042,"gravity_unit":"G","pressure":10,"pressure_unit":"PSI","ph":4.12,
                   "bpm":123,"comment":"Hello World","beer":"Pale Ale","battery":4.98}),
            1.042,
            "sg",
            20.32,
        ),
        (
            "stream",
            json!({"name":"MyDevice","temp":68.2,"temp_unit":"F","gravity":"1.050","gravity_unit":"G",
                   "ph":"4.5","comment":"from my controller","battery":"4.1"}),
            1.050,
            "sg",
            20.1111,
        ),
        (
            "rapt",
            json!({"name":"Pill","temp":19.5,"temp_unit":"C","gravity":1048.5,"gravity_unit":"G","battery":88}),
            1.0485,
            "sg",
            19.5,
        ),
    ];
    for (kind, body, sg, unit, celsius) in &cases {
        let (_, token) = device(&app, &acct, kind, Some(&session)).await;
        let (status, answer) = ingest_json(&app, &token, body).await;
        assert_eq!(
            (status, &answer),
            (StatusCode::OK, &json!({"message": "success"})),
            "{body}"
        );
        let stored = readings(&app, &acct, &session).await;
        let last = stored.last().unwrap();
        assert!(close(&last["gravity"], *sg), "{kind}: {last}");
        assert_eq!(last["gravity_unit"], *unit, "{kind}");
        assert!(close(&last["temperature_c"], *celsius), "{kind}: {last}");
        assert!(last["device_id"].is_string());
    }
    // The Tilt posts a form, temperature in °F.
    let (tilt, token) = device(&app, &acct, "tilt", Some(&session)).await;
    let (status, _) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("Timepoint=44166.5345&Temp=68&SG=1.050&Beer=Untitled&Color=RED&Comment="),
    )
    .await;
    assert_eq!(status, 200);
    let last = readings(&app, &acct, &session).await.pop().unwrap();
    assert!(
        close(&last["gravity"], 1.050) && close(&last["temperature_c"], 20.0),
        "{last}"
    );
    assert_eq!(last["device_id"], tilt["id"]);
    let (_, seen) = call(app.with_key(
        Method::GET,
        &format!("/v1/devices/{}", tilt["id"].as_str().unwrap()),
        &acct.key,
    ))
    .await;
    assert!(seen["last_seen_at"].is_string());
    assert_eq!(seen["last_payload"]["Color"], "RED");
    // A reading entered by hand has no device.
    let (_, by_hand) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/sessions/{session}/fermentation-logs"),
            &acct.key,
        )
        .json(&json!({"gravity": 1.030})),
    )
    .await;
    assert!(by_hand["device_id"].is_null());
    app.stop().await;
}

#[tokio::test]
async fn ingest_refusals_401_409_422_429_store_nothing() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let reading = json!({"gravity": 1.040, "temperature": 20, "temp_units": "C"});

    // 401: unknown or malformed token.
    assert_eq!(
        ingest_json(&app, &format!("wortd_{}", "A".repeat(43)), &reading)
            .await
            .0,
        401
    );
    assert_eq!(ingest_json(&app, "nonsense", &reading).await.0, 401);
    // An API key is no device token.
    assert_eq!(ingest_json(&app, &acct.key, &reading).await.0, 401);
    // And a device token opens nothing else (it can only post readings).
    let (_, token_only) = device(&app, &acct, "ispindel", None).await;
    for path in ["/v1/me", "/v1/devices", &format!("/v1/sessions/{session}")] {
        let (status, _) = call(
            app.request(Method::GET, path)
                .header("X-API-Key", &token_only),
        )
        .await;
        assert_eq!(status, 401, "{path}");
    }

    let (d, token) = device(&app, &acct, "ispindel", Some(&session)).await;
    // 422: nothing usable (the device is still seen, its payload kept for the brewer to read).
    let (status, body) = ingest_json(&app, &token, &json!({"name": "x", "battery": 4.1})).await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = ingest_json(&app, &token, &json!({"gravity": "abc"})).await;
    assert_eq!(status, 422);
    assert_eq!(issue_codes(&body)[0].1, "gravity");
    let (status, _) = ingest_json(&app, &token, &json!({"gravity": 1.3})).await;
    assert_eq!(status, 422, "1.3 SG is outside 0.9–1.2");
    let (status, _) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .header("content-type", "application/json")
            .body("{not json"),
    )
    .await;
    assert_eq!(status, 400);
    // The credential before the body: an unknown token with bad JSON is 401.
    let (status, _) = call(
        app.request(Method::POST, &format!("/ingest/wortd_{}", "Q".repeat(43)))
            .header("content-type", "application/json")
            .body("{not json"),
    )
    .await;
    assert_eq!(status, 401);
    assert!(readings(&app, &acct, &session).await.is_empty());
    let (_, seen) = call(app.with_key(
        Method::GET,
        &format!("/v1/devices/{}", d["id"].as_str().unwrap()),
        &acct.key,
    ))
    .await;
    assert_eq!(seen["last_payload"], json!({"gravity": 1.3}));

    // 200, then 429 within the minute with Retry-After, nothing more stored.
    assert_eq!(ingest_json(&app, &token, &reading).await.0, 200);
    let res = app
        .request(Method::POST, &format!("/ingest/{token}"))
        .json(&reading)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(readings(&app, &acct, &session).await.len(), 1);

    // 409: the session completed (nothing stored), or no session at all.
    app.clock.advance(time::Duration::seconds(61));
    let (status, _) = call(
        app.with_key(Method::PATCH, &format!("/v1/sessions/{session}"), &acct.key)
            .json(&json!({"status": "completed"})),
    )
    .await;
    assert_eq!(status, 200);
    let (status, body) = ingest_json(&app, &token, &reading).await;
    assert_eq!(status, 409);
    assert!(
        body["error"].as_str().unwrap().contains("completed"),
        "{body}"
    );
    let (_, unassigned) = device(&app, &acct, "tilt", None).await;
    assert_eq!(ingest_json(&app, &unassigned, &reading).await.0, 409);
    assert_eq!(readings(&app, &acct, &session).await.len(), 1);

    // A body over 16 KiB.
    let big = json!({"gravity": 1.05, "comment": "x".repeat(20_000)});
    assert_eq!(ingest_json(&app, &token, &big).await.0, 413);
    app.stop().await;
}

#[tokio::test]
async fn two_posts_at_once_from_one_device_store_one_reading() {
    let app = TestApp::spawn_with(Options::default()).await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let (_, token) = device(&app, &acct, "ispindel", Some(&session)).await;
    let body = json!({"gravity": 1.040});
    let posts = (0..8).map(|_| ingest_json(&app, &token, &body));
    let statuses: Vec<u16> = futures_util::future::join_all(posts)
        .await
        .into_iter()
        .map(|(s, _)| s.as_u16())
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        7,
        "{statuses:?}"
    );
    assert_eq!(readings(&app, &acct, &session).await.len(), 1);
    let _ = random_id();
    app.stop().await;
}

/// The device's page after a post: when it was last seen, and what it sent.
async fn seen(app: &TestApp, acct: &Account, device: &Value) -> Value {
    let (status, v) = call(app.with_key(
        Method::GET,
        &format!("/v1/devices/{}", device["id"].as_str().unwrap()),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 200);
    v
}

#[tokio::test]
async fn a_nul_character_in_a_post_is_never_a_500_and_the_device_is_seen() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;

    // JSON: a NUL in a field wort does not read (in its name and in its value) is dropped from
    // the last payload; the reading is stored.
    let (d, token) = device(&app, &acct, "ispindel", Some(&session)).await;
    let body = r#"{"name":"iSpindel\u0000","ba\u0000ttery":4.1,"gravity":1.042,"temperature":20.5,"temp_units":"C"}"#;
    let (status, v) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .header("content-type", "application/json")
            .body(body),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let page = seen(&app, &acct, &d).await;
    assert!(page["last_seen_at"].is_string(), "{page}");
    assert_eq!(
        page["last_payload"],
        json!({"name": "iSpindel", "battery": 4.1, "gravity": 1.042, "temperature": 20.5, "temp_units": "C"})
    );
    assert_eq!(readings(&app, &acct, &session).await.len(), 1);

    // A NUL in a field that would be stored (the note) is refused at that field, as everywhere
    // in the API; the post is still seen.
    let (d, token) = device(&app, &acct, "stream", Some(&session)).await;
    let (status, v) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .header("content-type", "application/json")
            .body(r#"{"gravity":1.041,"comment":"dry hopped\u0000"}"#),
    )
    .await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(
        issue_codes(&v),
        [("invalid_string".to_owned(), "comment".to_owned())]
    );
    let page = seen(&app, &acct, &d).await;
    assert!(page["last_seen_at"].is_string(), "{page}");
    assert_eq!(
        page["last_payload"],
        json!({"gravity": 1.041, "comment": "dry hopped"})
    );

    // A form post (the Tilt's): the same.
    let (d, token) = device(&app, &acct, "tilt", Some(&session)).await;
    let (status, v) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("SG=1.040&Temp=68&Beer=Pale%00Ale&Co%00lor=RED"),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let page = seen(&app, &acct, &d).await;
    assert!(page["last_seen_at"].is_string(), "{page}");
    assert_eq!(
        page["last_payload"],
        json!({"SG": "1.040", "Temp": "68", "Beer": "PaleAle", "Color": "RED"})
    );
    assert_eq!(readings(&app, &acct, &session).await.len(), 2);
    let (d, token) = device(&app, &acct, "tilt", Some(&session)).await;
    let (status, v) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("SG=1.040&Temp=68&Comment=%00"),
    )
    .await;
    assert_eq!(status, 422, "{v}");
    assert!(seen(&app, &acct, &d).await["last_seen_at"].is_string());
    assert_eq!(readings(&app, &acct, &session).await.len(), 2);
    app.stop().await;
}
