//! Checklist step timers on the server: every device sees the same countdown, an impossible
//! action is `422 invalid_transition`, `done` is read from the clock; readings' times.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use wort_domain::ports::Clock;

use crate::support::{Account, TestApp, call, issue_codes};

/// A session from a bare recipe, and its checklist.
async fn session_steps(app: &TestApp, acct: &Account) -> (String, Vec<Value>) {
    let (_, r) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Timers", "boil_time_minutes": 60})),
    )
    .await;
    let (status, s) = call(
        app.with_key(Method::POST, "/v1/sessions", &acct.key)
            .json(&json!({"recipe_id": r["id"], "brew_date": "2026-11-28"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    let sid = s["id"].as_str().unwrap().to_owned();
    let (_, steps) =
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}/steps"), &acct.key)).await;
    (sid, steps.as_array().unwrap().clone())
}

async fn act(app: &TestApp, acct: &Account, step: &str, action: &str) -> (StatusCode, Value) {
    call(
        app.with_key(Method::POST, &format!("/v1/steps/{step}/timer"), &acct.key)
            .json(&json!({ "action": action })),
    )
    .await
}

fn at(v: &Value) -> OffsetDateTime {
    OffsetDateTime::parse(v.as_str().unwrap(), &Rfc3339).unwrap()
}

#[tokio::test]
async fn a_started_timer_is_the_same_countdown_for_every_reader() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (sid, steps) = session_steps(&app, &acct).await;
    let boil = steps.iter().find(|s| s["boil"] == true).unwrap();
    let id = boil["id"].as_str().unwrap();
    assert_eq!(
        boil["timer"],
        json!({"state": "idle", "started_at": null, "ends_at": null, "remaining_seconds": 3600.0}),
        "{boil}"
    );
    // A step without a duration has no timer, and no action applies to it.
    let plain = steps
        .iter()
        .find(|s| s["duration_minutes"].is_null())
        .unwrap();
    assert_eq!(plain["timer"], Value::Null);
    let (status, v) = act(&app, &acct, plain["id"].as_str().unwrap(), "start").await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(
        issue_codes(&v),
        [("invalid_transition".into(), "action".into())]
    );
    assert_eq!(v["details"][0]["from"], "none");

    let (status, started) = act(&app, &acct, id, "start").await;
    assert_eq!(status, 200, "{started}");
    let t = &started["timer"];
    assert_eq!(t["state"], "running");
    assert_eq!(at(&t["ends_at"]) - at(&t["started_at"]), Duration::hours(1));

    // The second device (another request, later) reads the same ends_at, running.
    app.clock.advance(Duration::minutes(10));
    let (_, list) =
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}/steps"), &acct.key)).await;
    let seen = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap()
        .clone();
    assert_eq!(seen["timer"]["state"], "running");
    assert_eq!(seen["timer"]["ends_at"], t["ends_at"]);
    let left = seen["timer"]["remaining_seconds"].as_f64().unwrap();
    assert!((2990.0..=3000.0).contains(&left), "{left}");
    // Pressing start again (a reload, a second phone) never restarts it.
    let (status, v) = act(&app, &acct, id, "start").await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["details"][0]["code"], "invalid_transition");
    assert_eq!(v["details"][0]["from"], "running");
    assert_eq!(v["details"][0]["action"], "start");

    // Pause keeps what is left; it does not move while paused; resume counts on from it.
    let (status, paused) = act(&app, &acct, id, "pause").await;
    assert_eq!(status, 200, "{paused}");
    assert_eq!(paused["timer"]["state"], "paused");
    assert_eq!(paused["timer"]["ends_at"], Value::Null);
    let kept = paused["timer"]["remaining_seconds"].as_f64().unwrap();
    app.clock.advance(Duration::hours(3));
    let (_, still) = call(app.with_key(Method::GET, &format!("/v1/steps/{id}"), &acct.key)).await;
    assert_eq!(still["timer"], paused["timer"]);
    let (_, resumed) = act(&app, &acct, id, "resume").await;
    assert_eq!(resumed["timer"]["state"], "running");
    assert_eq!(resumed["timer"]["started_at"], t["started_at"]);
    let left = resumed["timer"]["remaining_seconds"].as_f64().unwrap();
    assert!((left - kept).abs() < 0.001, "{left} vs {kept}");

    // Past ends_at it reads done, with nothing left; only reset applies then.
    app.clock.advance(Duration::hours(1));
    let (_, done) = call(app.with_key(Method::GET, &format!("/v1/steps/{id}"), &acct.key)).await;
    assert_eq!(done["timer"]["state"], "done", "{done}");
    assert_eq!(done["timer"]["remaining_seconds"], 0.0);
    for action in ["pause", "resume", "start"] {
        let (status, _) = act(&app, &acct, id, action).await;
        assert_eq!(status, 422, "{action} on a done timer");
    }
    let (status, reset) = act(&app, &acct, id, "reset").await;
    assert_eq!(status, 200);
    assert_eq!(reset["timer"], boil["timer"]);
    // Resetting an idle timer is allowed (two devices resetting together both succeed).
    assert_eq!(act(&app, &acct, id, "reset").await.0, 200);
    // Pause of an idle timer is impossible.
    let (status, v) = act(&app, &acct, id, "pause").await;
    assert_eq!(
        (status, &v["details"][0]["from"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("idle"))
    );
}

#[tokio::test]
async fn the_timer_body_is_checked_and_other_accounts_steps_are_not_found() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let (_, steps) = session_steps(&app, &acct).await;
    let id = steps.iter().find(|s| s["boil"] == true).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, v) = act(&app, &acct, &id, "restart").await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(
        issue_codes(&v),
        [("invalid_enum_value".into(), "action".into())]
    );
    let (status, v) = call(
        app.with_key(Method::POST, &format!("/v1/steps/{id}/timer"), &acct.key)
            .json(&json!({})),
    )
    .await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(issue_codes(&v), [("invalid_type".into(), "action".into())]);
    assert_eq!(act(&app, &other, &id, "start").await.0, 404);
    assert_eq!(
        act(&app, &acct, &crate::support::random_id(), "start")
            .await
            .0,
        404
    );
    // Changing the duration of an idle timer shows the new one.
    let (_, patched) = call(
        app.with_key(Method::PATCH, &format!("/v1/steps/{id}"), &acct.key)
            .json(&json!({"duration_minutes": 90})),
    )
    .await;
    assert_eq!(patched["timer"]["remaining_seconds"], 5400.0);
    let (_, cleared) = call(
        app.with_key(Method::PATCH, &format!("/v1/steps/{id}"), &acct.key)
            .json(&json!({"duration_minutes": null})),
    )
    .await;
    assert_eq!(cleared["timer"], Value::Null);
}

#[tokio::test]
async fn a_retried_timer_action_with_its_idempotency_key_is_applied_once() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, steps) = session_steps(&app, &acct).await;
    let id = steps.iter().find(|s| s["boil"] == true).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let send = || {
        app.with_key(Method::POST, &format!("/v1/steps/{id}/timer"), &acct.key)
            .header("Idempotency-Key", "boil-start-1")
            .json(&json!({"action": "start"}))
    };
    let (first, a) = call(send()).await;
    let replay = send().send().await.unwrap();
    assert_eq!(replay.headers()["Idempotent-Replayed"], "true");
    let b: Value = replay.json().await.unwrap();
    assert_eq!(
        (first, &a),
        (StatusCode::OK, &b),
        "the retry gets the first answer, not a 422"
    );
}

#[tokio::test]
async fn a_reading_takes_a_past_time_is_corrected_and_is_never_far_ahead() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (sid, _) = session_steps(&app, &acct).await;
    // Milliseconds: the API answers times to the millisecond.
    let now = app.clock.now();
    let now = now
        .replace_nanosecond(now.millisecond() as u32 * 1_000_000)
        .unwrap();
    let yesterday = (now - Duration::days(1)).format(&Rfc3339).unwrap();
    let path = format!("/v1/sessions/{sid}/fermentation-logs");
    let (status, log) = call(
        app.with_key(Method::POST, &path, &acct.key)
            .json(&json!({"gravity": 1.020, "logged_at": yesterday})),
    )
    .await;
    assert_eq!(status, 201, "{log}");
    assert_eq!(at(&log["logged_at"]), now - Duration::days(1));
    let ahead = (now + Duration::minutes(10)).format(&Rfc3339).unwrap();
    let (status, v) = call(
        app.with_key(Method::POST, &path, &acct.key)
            .json(&json!({"gravity": 1.020, "logged_at": ahead})),
    )
    .await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(issue_codes(&v), [("too_big".into(), "logged_at".into())]);
    // A phone a little fast is fine.
    let soon = (now + Duration::minutes(4)).format(&Rfc3339).unwrap();
    let (status, _) = call(
        app.with_key(Method::POST, &path, &acct.key)
            .json(&json!({"gravity": 1.019, "logged_at": soon})),
    )
    .await;
    assert_eq!(status, 201);
    // Corrected: gravity and time; never into the future either.
    let lpath = format!("/v1/fermentation-logs/{}", log["id"].as_str().unwrap());
    let two_days = (now - Duration::days(2)).format(&Rfc3339).unwrap();
    let (status, fixed) = call(
        app.with_key(Method::PATCH, &lpath, &acct.key)
            .json(&json!({"gravity": 1.018, "logged_at": two_days})),
    )
    .await;
    assert_eq!(status, 200, "{fixed}");
    assert_eq!(
        (fixed["gravity"].as_f64(), at(&fixed["logged_at"])),
        (Some(1.018), now - Duration::days(2))
    );
    let (status, v) = call(
        app.with_key(Method::PATCH, &lpath, &acct.key)
            .json(&json!({"logged_at": ahead})),
    )
    .await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(issue_codes(&v), [("too_big".into(), "logged_at".into())]);
}
