//! `GET /v1/home`: what is happening now (sessions brewing or fermenting, running timers).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use time::Duration;

use crate::support::{Account, TestApp, call};

async fn send(app: &TestApp, acct: &Account, m: Method, path: &str, body: Value) -> Value {
    let (status, v) = call(app.with_key(m.clone(), path, &acct.key).json(&body)).await;
    assert!(status.is_success(), "{m} {path}: {status} {v}");
    v
}

async fn home(app: &TestApp, acct: &Account) -> Value {
    let (status, v) = call(app.with_key(Method::GET, "/v1/home", &acct.key)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

async fn session(app: &TestApp, acct: &Account, recipe: &str, name: &str) -> String {
    let s = send(
        app,
        acct,
        Method::POST,
        "/v1/sessions",
        json!({"recipe_id": recipe, "brew_date": "2026-11-20", "name": name}),
    )
    .await;
    s["id"].as_str().unwrap().to_owned()
}

async fn move_to(app: &TestApp, acct: &Account, sid: &str, status: &str) {
    send(
        app,
        acct,
        Method::PATCH,
        &format!("/v1/sessions/{sid}"),
        json!({ "status": status }),
    )
    .await;
}

#[tokio::test]
async fn home_shows_sessions_brewing_or_fermenting_and_the_timers_that_run() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    assert_eq!(
        home(&app, &acct).await,
        json!({"sessions": [], "timers": []})
    );
    let recipe = crate::fermentation::planned_recipe(&app, &acct).await;

    let fermenting = session(&app, &acct, &recipe, "Hazy #1").await;
    move_to(&app, &acct, &fermenting, "fermenting").await;
    send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/sessions/{fermenting}"),
        json!({"measured_og": 1.050}),
    )
    .await;
    send(
        &app,
        &acct,
        Method::POST,
        &format!("/v1/sessions/{fermenting}/fermentation-logs"),
        json!({"gravity": 1.030}),
    )
    .await;

    let brewing = session(&app, &acct, &recipe, "Hazy #2").await;
    move_to(&app, &acct, &brewing, "brewing").await;
    let (_, steps) = call(app.with_key(
        Method::GET,
        &format!("/v1/sessions/{brewing}/steps"),
        &acct.key,
    ))
    .await;
    let steps = steps.as_array().unwrap();
    let boil = steps.iter().find(|s| s["boil"] == true).unwrap();
    let boil_id = boil["id"].as_str().unwrap();
    let first = steps[0]["id"].as_str().unwrap();
    send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/steps/{first}"),
        json!({"completed": true}),
    )
    .await;
    // Neither a planned nor a finished session is on the home page.
    session(&app, &acct, &recipe, "Planned").await;
    let done = session(&app, &acct, &recipe, "Done").await;
    move_to(&app, &acct, &done, "completed").await;

    app.clock.advance(Duration::hours(30));
    send(
        &app,
        &acct,
        Method::POST,
        &format!("/v1/steps/{boil_id}/timer"),
        json!({"action": "start"}),
    )
    .await;
    let now = home(&app, &acct).await;
    let shown = now["sessions"].as_array().unwrap();
    let names: Vec<_> = shown.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Hazy #1", "Hazy #2"], "fermenting first: {now}");

    let f = &shown[0];
    assert_eq!(f["status"], "fermenting");
    assert_eq!(f["day"], 2, "30 hours in is day 2");
    assert!(f["phase_started_at"].is_string());
    assert_eq!(f["fermentation"]["original_gravity"], 1.05);
    assert_eq!(f["fermentation"]["latest_gravity"], 1.03);
    // (1.050 − 1.030) / (1.050 − 1) = 40 %.
    assert_eq!(f["fermentation"]["apparent_attenuation_percent"], 40.0);
    assert_eq!(f["fermentation"]["abv_percent"], 2.63);
    // Primary is due at once; the free rise waits for primary's gravity (the dry hop too, but
    // it comes later in the schedule).
    let next = &f["next_step"];
    assert_eq!(next["name"], "Free rise", "{f}");
    assert_eq!(next["due"], false);
    assert_eq!(next["due_at_gravity"], 1.015);

    let b = &shown[1];
    assert_eq!(b["status"], "brewing");
    assert_eq!(b["day"], 2);
    assert_eq!(b["next_step"], Value::Null, "no schedule before fermenting");
    assert_eq!(b["checklist_done"], 1);
    assert_eq!(b["checklist_total"], steps.len());

    let timers = now["timers"].as_array().unwrap();
    assert_eq!(timers.len(), 1, "{now}");
    assert_eq!(timers[0]["session_id"], brewing.as_str());
    assert_eq!(timers[0]["session_name"], "Hazy #2");
    assert_eq!(timers[0]["step"]["id"], boil_id);
    assert_eq!(timers[0]["step"]["timer"]["state"], "running");

    // Once its end has passed, a timer is no longer running, and no longer listed.
    app.clock.advance(Duration::minutes(61));
    assert_eq!(home(&app, &acct).await["timers"], json!([]));

    // Another account sees none of it.
    assert_eq!(
        home(&app, &other).await,
        json!({"sessions": [], "timers": []})
    );
    app.stop().await;
}

#[tokio::test]
async fn a_running_or_paused_timer_is_listed_until_its_session_is_final() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = crate::fermentation::planned_recipe(&app, &acct).await;
    let sid = session(&app, &acct, &recipe, "Timers").await;
    let (_, steps) =
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}/steps"), &acct.key)).await;
    let boil = steps
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["boil"] == true)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let timer = format!("/v1/steps/{boil}/timer");
    send(
        &app,
        &acct,
        Method::POST,
        &timer,
        json!({"action": "start"}),
    )
    .await;
    app.clock.advance(Duration::minutes(10));
    let now = home(&app, &acct).await;
    // A planned session's timer counts: the brewer started it before moving the session on.
    assert_eq!(now["sessions"], json!([]));
    let t = &now["timers"][0]["step"]["timer"];
    assert_eq!(t["state"], "running", "{now}");
    // The test clock also moves with real time.
    let left = t["remaining_seconds"].as_f64().unwrap();
    assert!((2_990.0..=3_000.0).contains(&left), "{left}");

    send(
        &app,
        &acct,
        Method::POST,
        &timer,
        json!({"action": "pause"}),
    )
    .await;
    let now = home(&app, &acct).await;
    assert_eq!(now["timers"][0]["step"]["timer"]["state"], "paused");

    send(
        &app,
        &acct,
        Method::POST,
        &timer,
        json!({"action": "reset"}),
    )
    .await;
    assert_eq!(home(&app, &acct).await["timers"], json!([]), "idle");

    send(
        &app,
        &acct,
        Method::POST,
        &timer,
        json!({"action": "start"}),
    )
    .await;
    move_to(&app, &acct, &sid, "abandoned").await;
    assert_eq!(
        home(&app, &acct).await["timers"],
        json!([]),
        "an abandoned session's timer is over"
    );
    app.stop().await;
}
