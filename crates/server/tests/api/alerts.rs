//! The fermentation autopilot's alerts: rules, alerts raised once and cleared, judged on each
//! reading and by the clock, delivered as webhooks, exactly once across instances.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use wort_domain::ports::Clock;

use crate::support::{Account, TestApp, call, get, issue_codes, post};
use crate::webhooks::{Receiver, create_webhook};

async fn send(
    app: &TestApp,
    acct: &Account,
    m: Method,
    path: &str,
    body: Value,
) -> (StatusCode, Value) {
    call(app.with_key(m, path, &acct.key).json(&body)).await
}

async fn fermenting_session(app: &TestApp, acct: &Account) -> String {
    let recipe = post(app, acct, "/v1/recipes", json!({"name": "Pale"})).await;
    let session = post(
        app,
        acct,
        "/v1/sessions",
        json!({"recipe_id": recipe["id"], "brew_date": "2026-11-20", "status": "fermenting"}),
    )
    .await;
    session["id"].as_str().unwrap().to_owned()
}

async fn reading(app: &TestApp, acct: &Account, session: &str, body: Value) {
    let (status, v) = send(
        app,
        acct,
        Method::POST,
        &format!("/v1/sessions/{session}/fermentation-logs"),
        body,
    )
    .await;
    assert_eq!(status, 201, "{v}");
}

async fn alerts(app: &TestApp, acct: &Account, query: &str) -> (Vec<Value>, i64) {
    let res = app
        .with_key(Method::GET, &format!("/v1/alerts{query}"), &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let total = res.headers()["x-total-count"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let body: Value = res.json().await.unwrap();
    (body.as_array().unwrap().clone(), total)
}

/// Waits (at most 10 s) until the account's alerts with `query` number `n`: the clock judges
/// every 200 ms in tests.
async fn wait_for_alerts(app: &TestApp, acct: &Account, query: &str, n: usize) -> Vec<Value> {
    for _ in 0..100 {
        let (list, _) = alerts(app, acct, query).await;
        if list.len() == n {
            return list;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "waited for {n} alerts ({query}); have {:?}",
        alerts(app, acct, query).await.0
    );
}

#[tokio::test]
async fn rules_take_exactly_the_fields_of_their_kind() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let theirs = fermenting_session(&app, &other).await;

    let (status, body) = send(
        &app,
        &acct,
        Method::POST,
        "/v1/alert-rules",
        json!({"kind": "gravity_below"}),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(issue_codes(&body), [("custom".into(), "gravity".into())]);

    let (status, body) = send(
        &app,
        &acct,
        Method::POST,
        "/v1/alert-rules",
        json!({"kind": "temperature_outside", "min_c": 18, "max_c": 18.5, "gravity": 1.01}),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    let mut codes = issue_codes(&body);
    codes.sort();
    assert_eq!(
        codes,
        [
            ("custom".into(), "gravity".into()),
            ("custom".into(), "max_c".into())
        ]
    );

    let (status, body) = send(
        &app,
        &acct,
        Method::POST,
        "/v1/alert-rules",
        json!({"kind": "stalled", "points": 0, "hours": 800}),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    let mut codes = issue_codes(&body);
    codes.sort();
    assert_eq!(
        codes,
        [
            ("too_big".into(), "hours".into()),
            ("too_small".into(), "points".into())
        ]
    );

    // Another account's session is not one to watch.
    let (status, body) = send(
        &app,
        &acct,
        Method::POST,
        "/v1/alert-rules",
        json!({"kind": "device_silent", "minutes": 30, "session_id": theirs}),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(issue_codes(&body), [("custom".into(), "session_id".into())]);

    let (status, rule) = send(
        &app,
        &acct,
        Method::POST,
        "/v1/alert-rules",
        json!({"kind": "temperature_outside", "min_c": 18, "max_c": 21, "session_id": session}),
    )
    .await;
    assert_eq!(status, 201, "{rule}");
    assert_eq!(rule["enabled"], true);
    assert_eq!(rule["gravity"], Value::Null);
    let path = format!("/v1/alert-rules/{}", rule["id"].as_str().unwrap());

    // A patch is checked as the whole rule it makes.
    let (status, body) = send(&app, &acct, Method::PATCH, &path, json!({"max_c": 18.2})).await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = send(
        &app,
        &acct,
        Method::PATCH,
        &path,
        json!({"kind": "gravity_below"}),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(issue_codes(&body), [("custom".into(), "kind".into())]);
    let (status, patched) = send(
        &app,
        &acct,
        Method::PATCH,
        &path,
        json!({"max_c": 22.5, "session_id": null, "enabled": false}),
    )
    .await;
    assert_eq!(status, 200, "{patched}");
    assert_eq!(patched["max_c"], 22.5);
    assert_eq!(patched["min_c"], 18.0);
    assert_eq!(patched["session_id"], Value::Null);
    assert_eq!(patched["enabled"], false);

    // Another account sees none of it.
    let (status, _) = call(app.with_key(Method::GET, &path, &other.key)).await;
    assert_eq!(status, 404);
    let (status, _) = send(&app, &other, Method::PATCH, &path, json!({"enabled": true})).await;
    assert_eq!(status, 404);
    let (status, _) = call(app.with_key(Method::DELETE, &path, &other.key)).await;
    assert_eq!(status, 404);
    let listed = get(&app, &other, "/v1/alert-rules").await;
    assert_eq!(listed.as_array().unwrap().len(), 0);
    let listed = get(&app, &acct, "/v1/alert-rules").await;
    assert_eq!(listed.as_array().unwrap().len(), 1);

    let (status, _) = call(app.with_key(Method::DELETE, &path, &acct.key)).await;
    assert_eq!(status, 204);
    let (status, _) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(status, 404);

    let (status, body) = call(app.with_key(Method::GET, "/v1/alerts?state=open", &acct.key)).await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn a_temperature_alert_is_raised_once_cleared_past_the_hysteresis_and_announced() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let receiver = Receiver::start().await;
    create_webhook(
        &app,
        &acct,
        &receiver.url(),
        &["alert.raised", "alert.cleared"],
    )
    .await;
    let session = fermenting_session(&app, &acct).await;
    // No session named: every fermenting session of the account.
    post(
        &app,
        &acct,
        "/v1/alert-rules",
        json!({"kind": "temperature_outside", "min_c": 18, "max_c": 21}),
    )
    .await;

    reading(&app, &acct, &session, json!({"temperature_c": 20})).await;
    assert_eq!(alerts(&app, &acct, "").await.1, 0);

    reading(&app, &acct, &session, json!({"temperature_c": 22.4})).await;
    reading(&app, &acct, &session, json!({"temperature_c": 23})).await;
    let (active, total) = alerts(&app, &acct, "").await;
    assert_eq!(total, 1, "raised once, not once per reading: {active:?}");
    let alert = &active[0];
    assert_eq!(alert["kind"], "temperature_outside");
    assert_eq!(alert["session_id"], session.as_str());
    assert_eq!(alert["value"], 22.4);
    assert_eq!(alert["message"], "Temperature 22.4 °C is above 21 °C");
    assert_eq!(alert["cleared_at"], Value::Null);

    // Back inside, but within half a degree of the edge: still active.
    reading(&app, &acct, &session, json!({"temperature_c": 20.7})).await;
    assert_eq!(alerts(&app, &acct, "").await.1, 1);
    // A reading without a temperature says nothing about it.
    reading(&app, &acct, &session, json!({"gravity": 1.040})).await;
    assert_eq!(alerts(&app, &acct, "").await.1, 1);

    let id = alert["id"].as_str().unwrap();
    let acknowledge = format!("/v1/alerts/{id}/acknowledge");
    let (status, acked) = send(&app, &acct, Method::POST, &acknowledge, json!({})).await;
    assert_eq!(status, 200, "{acked}");
    assert!(acked["acknowledged_at"].is_string());
    assert_eq!(acked["cleared_at"], Value::Null);
    let (_, again) = send(&app, &acct, Method::POST, &acknowledge, json!({})).await;
    assert_eq!(again["acknowledged_at"], acked["acknowledged_at"]);

    reading(&app, &acct, &session, json!({"temperature_c": 20.4})).await;
    assert_eq!(alerts(&app, &acct, "").await.1, 0);
    let (all, total) = alerts(&app, &acct, "?state=all").await;
    assert_eq!(total, 1);
    assert!(all[0]["cleared_at"].is_string());
    assert_eq!(
        alerts(&app, &acct, &format!("?state=all&session_id={session}"))
            .await
            .1,
        1
    );

    let raised = receiver.wait_for("alert.raised", 1).await;
    let cleared = receiver.wait_for("alert.cleared", 1).await;
    let data = |r: &crate::webhooks::Received| {
        serde_json::from_str::<Value>(&r.body).unwrap()["data"].clone()
    };
    assert_eq!(data(&raised[0])["id"], id);
    assert_eq!(data(&cleared[0])["id"], id);
    assert!(data(&cleared[0])["cleared_at"].is_string());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.of_type("alert.raised").len(), 1);
    assert_eq!(receiver.of_type("alert.cleared").len(), 1);

    // Another account sees none of it, and cannot acknowledge it.
    let other = app.account().await;
    assert_eq!(alerts(&app, &other, "?state=all").await.1, 0);
    let (status, _) = call(app.with_key(
        Method::POST,
        &format!("/v1/alerts/{id}/acknowledge"),
        &other.key,
    ))
    .await;
    assert_eq!(status, 404);
    receiver.stop().await;
}

#[tokio::test]
async fn gravity_marks_watch_only_fermenting_sessions_and_leaving_fermentation_clears() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let recipe = post(&app, &acct, "/v1/recipes", json!({"name": "Later"})).await;
    let planned = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": recipe["id"], "brew_date": "2026-12-20"}),
    )
    .await;
    post(
        &app,
        &acct,
        "/v1/alert-rules",
        json!({"kind": "gravity_below", "gravity": 1.016}),
    )
    .await;
    reading(
        &app,
        &acct,
        planned["id"].as_str().unwrap(),
        json!({"gravity": 1.010}),
    )
    .await;
    assert_eq!(alerts(&app, &acct, "").await.1, 0);
    reading(&app, &acct, &session, json!({"gravity": 1.015})).await;
    let (active, _) = alerts(&app, &acct, "").await;
    assert_eq!(active.len(), 1);
    assert_eq!(active[0]["message"], "Gravity 1.015 is below 1.016");

    // Conditioning: the rule for every fermenting session no longer watches it.
    let (status, body) = send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/sessions/{session}"),
        json!({"status": "conditioning"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    wait_for_alerts(&app, &acct, "", 0).await;
}

#[tokio::test]
async fn a_silent_device_and_a_stall_are_told_by_the_clock() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let device = post(
        &app,
        &acct,
        "/v1/devices",
        json!({"name": "Spindle", "kind": "ispindel", "session_id": session}),
    )
    .await;
    post(
        &app,
        &acct,
        "/v1/alert-rules",
        json!({"kind": "device_silent", "minutes": 30, "session_id": session}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(alerts(&app, &acct, "").await.1, 0);

    app.clock.advance(time::Duration::minutes(45));
    let raised = wait_for_alerts(&app, &acct, "", 1).await;
    assert_eq!(raised[0]["kind"], "device_silent");
    assert_eq!(raised[0]["device_id"], device["id"]);
    assert!(raised[0]["value"].as_f64().unwrap() >= 45.0);

    // The device posts: the next pass clears it.
    let token = device["token"].as_str().unwrap();
    let (status, body) = call(app.request(Method::POST, &format!("/ingest/{token}")).json(
        &json!({"name": "Spindle", "ID": 1, "angle": 50, "temperature": 19.5,
                "temp_units": "C", "battery": 4.0, "gravity": 1.045}),
    ))
    .await;
    assert!(status.is_success(), "{status} {body}");
    wait_for_alerts(&app, &acct, "", 0).await;

    // A stall, on a session no device feeds: less than 2 points over 48 hours, well above any
    // predicted FG.
    let session = fermenting_session(&app, &acct).await;
    post(
        &app,
        &acct,
        "/v1/alert-rules",
        json!({"kind": "stalled", "points": 2, "hours": 48, "session_id": session}),
    )
    .await;
    let now = app.clock.now();
    let at = |hours_ago: i64| {
        wort_domain::timestamp::format(now - time::Duration::minutes(hours_ago * 60 + 20))
    };
    reading(
        &app,
        &acct,
        &session,
        json!({"gravity": 1.0306, "logged_at": at(48)}),
    )
    .await;
    reading(
        &app,
        &acct,
        &session,
        json!({"gravity": 1.0300, "logged_at": at(0)}),
    )
    .await;
    let stalled = wait_for_alerts(&app, &acct, "", 1).await;
    assert_eq!(stalled[0]["kind"], "stalled");
    assert_eq!(stalled[0]["value"], 0.6);

    // It moves again: cleared.
    reading(&app, &acct, &session, json!({"gravity": 1.0200})).await;
    wait_for_alerts(&app, &acct, "", 0).await;
    assert_eq!(alerts(&app, &acct, "?state=all").await.1, 2);
}

#[tokio::test]
async fn deleting_a_rule_clears_its_alert_and_keeps_the_history() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let rule = post(
        &app,
        &acct,
        "/v1/alert-rules",
        json!({"kind": "gravity_above", "gravity": 1.050, "session_id": session}),
    )
    .await;
    reading(&app, &acct, &session, json!({"gravity": 1.060})).await;
    assert_eq!(alerts(&app, &acct, "").await.1, 1);
    let (status, _) = call(app.with_key(
        Method::DELETE,
        &format!("/v1/alert-rules/{}", rule["id"].as_str().unwrap()),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 204);
    assert_eq!(alerts(&app, &acct, "").await.1, 0);
    let (all, _) = alerts(&app, &acct, "?state=all").await;
    assert_eq!(all.len(), 1);
    assert_eq!(all[0]["rule_id"], Value::Null);
    assert!(all[0]["cleared_at"].is_string());
}

#[tokio::test]
async fn two_instances_raise_and_announce_an_alert_once() {
    let first = TestApp::spawn().await;
    let second = TestApp::spawn().await;
    let acct = first.account().await;
    let receiver = Receiver::start().await;
    create_webhook(&first, &acct, &receiver.url(), &["alert.raised"]).await;
    let session = fermenting_session(&first, &acct).await;
    post(
        &first,
        &acct,
        "/v1/devices",
        json!({"name": "Tilt", "kind": "tilt", "session_id": session}),
    )
    .await;
    post(
        &first,
        &acct,
        "/v1/alert-rules",
        json!({"kind": "device_silent", "minutes": 5}),
    )
    .await;
    // Both clocks move; both instances judge every 200 ms.
    first.clock.advance(time::Duration::minutes(10));
    second.clock.advance(time::Duration::minutes(10));
    wait_for_alerts(&first, &acct, "", 1).await;
    receiver.wait_for("alert.raised", 1).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(alerts(&second, &acct, "?state=all").await.1, 1);
    assert_eq!(receiver.of_type("alert.raised").len(), 1);
    receiver.stop().await;
}
