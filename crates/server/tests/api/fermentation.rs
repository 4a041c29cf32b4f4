//! Fermentation steps on recipes (a child kind like mash steps) and a session's fermentation
//! schedule, planned when it enters `fermenting`.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use time::Duration;

use crate::support::{Account, TestApp, call, get, post};

async fn send(
    app: &TestApp,
    acct: &Account,
    m: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let req = app.with_key(m, path, &acct.key);
    call(match body {
        Some(b) => req.json(&b),
        None => req,
    })
    .await
}

/// A recipe with a two-rest plan (primary until 1.015, then 3 days warm) and a 3-day dry hop.
pub async fn planned_recipe(app: &TestApp, acct: &Account) -> String {
    let recipe = post(app, acct, "/v1/recipes", json!({"name": "Hazy"})).await;
    let id = recipe["id"].as_str().unwrap().to_owned();
    let steps = format!("/v1/recipes/{id}/fermentation-steps");
    post(
        app,
        acct,
        &steps,
        json!({"name": "Primary", "temperature_c": 18, "until_gravity": 1.015}),
    )
    .await;
    post(
        app,
        acct,
        &steps,
        json!({"name": "Free rise", "temperature_c": 21, "days": 3}),
    )
    .await;
    post(
        app,
        acct,
        &format!("/v1/recipes/{id}/hops"),
        json!({"name": "Citra", "alpha_acid": 12, "amount_grams": 100, "time_minutes": 4320, "use": "dry_hop"}),
    )
    .await;
    id
}

#[tokio::test]
async fn fermentation_steps_are_a_recipe_child_kind() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let recipe = post(&app, &acct, "/v1/recipes", json!({"name": "Lager"})).await;
    let rid = recipe["id"].as_str().unwrap();
    let list = format!("/v1/recipes/{rid}/fermentation-steps");
    let primary = post(
        &app,
        &acct,
        &list,
        json!({"name": "Primary", "temperature_c": 10, "days": 14}),
    )
    .await;
    assert_eq!(primary["days"], 14.0);
    assert_eq!(primary["until_gravity"], Value::Null);
    assert_eq!(primary["sort_order"], 0);
    let lager = post(
        &app,
        &acct,
        &list,
        json!({"name": "Lagering", "temperature_c": 1, "until_attenuation_percent": 80}),
    )
    .await;
    assert_eq!(lager["sort_order"], 1);

    // Bounds and required fields: 422 naming the field.
    let (status, v) = send(
        &app,
        &acct,
        Method::POST,
        &list,
        Some(json!({"name": "X", "temperature_c": 10, "days": 400})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v.to_string().contains("days"), "{v}");
    let (status, v) = send(&app, &acct, Method::POST, &list, Some(json!({"name": "X"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v.to_string().contains("temperature_c"), "{v}");
    let (status, _) = send(
        &app,
        &acct,
        Method::POST,
        &list,
        Some(json!({"name": "X", "temperature_c": 10, "until_gravity": 1.5})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // Item routes: get, patch (clearing a nullable), delete; another account gets 404.
    let item = format!("/v1/fermentation-steps/{}", primary["id"].as_str().unwrap());
    assert_eq!(get(&app, &acct, &item).await["name"], "Primary");
    let (status, v) = send(
        &app,
        &acct,
        Method::PATCH,
        &item,
        Some(json!({"days": null, "until_gravity": 1.012})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["days"], Value::Null);
    assert_eq!(v["until_gravity"], 1.012);
    let (status, _) = send(&app, &other, Method::GET, &item, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = send(&app, &other, Method::GET, &list, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // In the recipe's detail, in order, and carried by a copy and a scale.
    let detail = get(&app, &acct, &format!("/v1/recipes/{rid}")).await;
    let names: Vec<_> = detail["fermentation_steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    assert_eq!(names, [json!("Primary"), json!("Lagering")]);
    let copy = post(&app, &acct, &format!("/v1/recipes/{rid}/copy"), json!({})).await;
    assert_eq!(copy["fermentation_steps"].as_array().unwrap().len(), 2);
    assert_ne!(copy["fermentation_steps"][0]["id"], primary["id"]);
    let scaled = post(
        &app,
        &acct,
        &format!("/v1/recipes/{rid}/scale"),
        json!({"batch_size_liters": 40}),
    )
    .await;
    assert_eq!(
        scaled["fermentation_steps"][1]["until_attenuation_percent"],
        80.0
    );

    let (status, _) = send(&app, &acct, Method::DELETE, &item, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(get(&app, &acct, &list).await.as_array().unwrap().len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn entering_fermenting_plans_the_schedule_and_readings_meet_its_conditions() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let recipe = planned_recipe(&app, &acct).await;
    let session = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": recipe, "brew_date": "2026-11-20"}),
    )
    .await;
    let sid = session["id"].as_str().unwrap();
    let schedule = format!("/v1/sessions/{sid}/fermentation-schedule");
    assert_eq!(
        get(&app, &acct, &schedule).await,
        json!([]),
        "nothing before fermenting"
    );
    let (status, _) = send(&app, &other, Method::GET, &schedule, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    for status in ["brewing", "fermenting"] {
        let (s, v) = send(
            &app,
            &acct,
            Method::PATCH,
            &format!("/v1/sessions/{sid}"),
            Some(json!({"status": status})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let planned = get(&app, &acct, &schedule).await;
    let steps = planned.as_array().unwrap();
    assert_eq!(steps.len(), 3, "{planned}");
    assert_eq!(steps[0]["name"], "Primary");
    assert_eq!(steps[0]["kind"], "rest");
    assert_eq!(steps[0]["due"], true, "primary is due at once");
    assert_eq!(steps[1]["due"], false);
    assert_eq!(steps[1]["due_at"], Value::Null);
    assert_eq!(steps[1]["due_at_gravity"], 1.015);
    assert_eq!(steps[2]["kind"], "dry_hop");
    assert_eq!(steps[2]["amount_grams"], 100.0);
    assert_eq!(steps[2]["due_at_gravity"], 1.015);

    let logs = format!("/v1/sessions/{sid}/fermentation-logs");
    post(&app, &acct, &logs, json!({"gravity": 1.030})).await;
    assert_eq!(get(&app, &acct, &schedule).await[1]["due"], false);
    // The reading that meets the condition comes from a device: its posts make steps due too.
    let (_, token) = crate::devices::device(&app, &acct, "ispindel", Some(sid)).await;
    let (status, answer) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .json(&json!({"name": "iSpindel", "gravity": 1.014, "temperature": 18.0})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let after = get(&app, &acct, &schedule).await;
    assert_eq!(after[1]["due"], true, "{after}");
    assert_eq!(after[2]["due"], true, "{after}");
    assert!(after[1]["became_due_at"].is_string());
    app.stop().await;
}

/// A recipe whose primary lasts at most 14 days and ends earlier at 1.012 (or at 75 %
/// attenuation) but not before day 3, then a 2-day crash.
async fn fallback_recipe(app: &TestApp, acct: &Account, until: Value) -> String {
    let recipe = post(app, acct, "/v1/recipes", json!({"name": "Fallback"})).await;
    let id = recipe["id"].as_str().unwrap().to_owned();
    let steps = format!("/v1/recipes/{id}/fermentation-steps");
    let mut primary = json!({"name": "Primary", "temperature_c": 18, "days": 14, "min_days": 3});
    for (k, v) in until.as_object().unwrap() {
        primary[k] = v.clone();
    }
    let made = post(app, acct, &steps, primary).await;
    assert_eq!(made["min_days"], 3.0, "{made}");
    post(
        app,
        acct,
        &steps,
        json!({"name": "Crash", "temperature_c": 1, "days": 2}),
    )
    .await;
    id
}

async fn fermenting(app: &TestApp, acct: &Account, recipe: &str) -> String {
    let session = post(
        app,
        acct,
        "/v1/sessions",
        json!({"recipe_id": recipe, "brew_date": "2026-11-20", "status": "fermenting"}),
    )
    .await;
    session["id"].as_str().unwrap().to_owned()
}

async fn reading(app: &TestApp, acct: &Account, sid: &str, gravity: f64) {
    post(
        app,
        acct,
        &format!("/v1/sessions/{sid}/fermentation-logs"),
        json!({"gravity": gravity}),
    )
    .await;
}

async fn schedule_of(app: &TestApp, acct: &Account, sid: &str) -> Value {
    get(
        app,
        acct,
        &format!("/v1/sessions/{sid}/fermentation-schedule"),
    )
    .await
}

/// The periodic check as an instance runs it, at the test clock's now, on its own pool.
async fn check_schedules(app: &TestApp, url: &str) -> usize {
    use wort_domain::brew_session::ports::BrewSessionRepository;
    let pool = wort_db::build_pool(url, &wort_db::PoolSettings::default()).unwrap();
    wort_db::PgBrewSessions::new(pool)
        .announce_due_fermentation_steps(wort_domain::ports::Clock::now(&*app.clock))
        .await
        .unwrap()
}

#[tokio::test]
async fn min_days_is_a_field_of_fermentation_steps_never_above_days() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = post(&app, &acct, "/v1/recipes", json!({"name": "Ale"})).await;
    let rid = recipe["id"].as_str().unwrap();
    let list = format!("/v1/recipes/{rid}/fermentation-steps");
    let (status, v) = send(
        &app,
        &acct,
        Method::POST,
        &list,
        Some(json!({"name": "P", "temperature_c": 18, "days": 5, "min_days": 7})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(
        crate::support::issue_codes(&v),
        [("too_big".to_owned(), "min_days".to_owned())],
        "{v}"
    );
    let step = post(
        &app,
        &acct,
        &list,
        json!({"name": "P", "temperature_c": 18, "days": 10, "min_days": 4, "until_gravity": 1.012}),
    )
    .await;
    assert_eq!(step["min_days"], 4.0);
    let item = format!("/v1/fermentation-steps/{}", step["id"].as_str().unwrap());
    // Shortening the days below the minimum is refused; clearing the days is not.
    let (status, v) = send(&app, &acct, Method::PATCH, &item, Some(json!({"days": 2}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v.to_string().contains("min_days"), "{v}");
    let (status, v) = send(
        &app,
        &acct,
        Method::PATCH,
        &item,
        Some(json!({"days": null, "min_days": 5})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["min_days"], 5.0);
    let detail = get(&app, &acct, &format!("/v1/recipes/{rid}")).await;
    assert_eq!(detail["fermentation_steps"][0]["min_days"], 5.0);
    let copy = post(&app, &acct, &format!("/v1/recipes/{rid}/copy"), json!({})).await;
    assert_eq!(copy["fermentation_steps"][0]["min_days"], 5.0);
    app.stop().await;
}

#[tokio::test]
async fn gravity_after_min_days_ends_the_step_at_once_by_gravity() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = fallback_recipe(&app, &acct, json!({"until_gravity": 1.012})).await;
    let sid = fermenting(&app, &acct, &recipe).await;
    let planned = schedule_of(&app, &acct, &sid).await;
    assert_eq!(planned[0]["due_by"], "time", "{planned}");
    assert!(
        planned[1]["due_at"].is_string(),
        "the time fallback: {planned}"
    );
    assert_eq!(planned[1]["due_at_gravity"], 1.012);
    assert_eq!(planned[1]["min_days_after_previous"], 3.0);
    assert!(planned[1]["due_at_gravity_from"].is_string());

    // Not yet gravity on day 0; on day 4 a reading reaching 1.012 ends primary at once.
    reading(&app, &acct, &sid, 1.030).await;
    app.clock.advance(Duration::days(4));
    let before = schedule_of(&app, &acct, &sid).await;
    assert_eq!(before[1]["due"], false, "{before}");
    assert_eq!(before[0]["ended_by"], Value::Null);
    reading(&app, &acct, &sid, 1.011).await;
    let after = schedule_of(&app, &acct, &sid).await;
    assert_eq!(after[1]["due"], true, "{after}");
    assert_eq!(after[1]["due_by"], "gravity");
    assert_eq!(after[0]["ended_by"], "gravity", "{after}");
    assert_eq!(after[0]["ended_gravity"], 1.011);
    assert_eq!(after[0]["ended_at"], after[1]["became_due_at"]);
    assert_eq!(after[1]["ended_by"], Value::Null, "the crash runs");
    app.stop().await;
}

#[tokio::test]
async fn gravity_before_min_days_does_not_end_the_step_the_clock_does_at_min_days() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = fallback_recipe(&app, &acct, json!({"until_gravity": 1.012})).await;
    let sid = fermenting(&app, &acct, &recipe).await;
    // Day 0 and day 2: the gravity is there, but primary lasts at least 3 days.
    reading(&app, &acct, &sid, 1.011).await;
    app.clock.advance(Duration::days(2));
    reading(&app, &acct, &sid, 1.010).await;
    check_schedules(&app, &crate::support::database_url()).await;
    let early = schedule_of(&app, &acct, &sid).await;
    assert_eq!(early[1]["due"], false, "{early}");
    // Day 3: the clock ends it, the latest gravity still being there.
    app.clock.advance(Duration::days(1) + Duration::minutes(1));
    check_schedules(&app, &crate::support::database_url()).await;
    let ended = schedule_of(&app, &acct, &sid).await;
    assert_eq!(ended[1]["due"], true, "{ended}");
    assert_eq!(ended[0]["ended_by"], "gravity");
    assert_eq!(ended[0]["ended_gravity"], 1.010, "the latest reading");
    app.stop().await;
}

#[tokio::test]
async fn attenuation_ends_a_step_after_min_days() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = fallback_recipe(&app, &acct, json!({"until_attenuation_percent": 75})).await;
    let sid = fermenting(&app, &acct, &recipe).await;
    let (status, v) = send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/sessions/{sid}"),
        Some(json!({"measured_og": 1.050})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    app.clock.advance(Duration::days(3) + Duration::hours(1));
    // 1.050 → 1.013 is 74 %: not yet; 1.012 is 76 %.
    reading(&app, &acct, &sid, 1.013).await;
    assert_eq!(schedule_of(&app, &acct, &sid).await[1]["due"], false);
    reading(&app, &acct, &sid, 1.012).await;
    let after = schedule_of(&app, &acct, &sid).await;
    assert_eq!(after[1]["due"], true, "{after}");
    assert_eq!(after[0]["ended_by"], "attenuation");
    assert_eq!(after[0]["ended_gravity"], 1.012);
    app.stop().await;
}

#[tokio::test]
async fn days_elapsed_end_the_step_by_time_exactly_once_across_checks() {
    let url = crate::database::isolated_database_url("steps_fallback");
    let app = TestApp::spawn_with(crate::support::Options {
        database: Some(url.clone()),
        ..Default::default()
    })
    .await;
    let acct = app.account().await;
    // Events are written to the outbox only for a subscribed endpoint (nothing listens there).
    crate::webhooks::create_webhook(
        &app,
        &acct,
        "http://127.0.0.1:9/hook",
        &["fermentation.step_due"],
    )
    .await;
    let recipe = fallback_recipe(&app, &acct, json!({"until_gravity": 1.012})).await;
    let sid = fermenting(&app, &acct, &recipe).await;
    reading(&app, &acct, &sid, 1.020).await;
    app.clock.advance(Duration::days(13));
    assert_eq!(check_schedules(&app, &url).await, 0, "day 13 of 14");
    app.clock.advance(Duration::days(1) + Duration::minutes(1));
    // Two instances check at once (and the app's own clock may too): one marks the step.
    let (a, b) = tokio::join!(check_schedules(&app, &url), check_schedules(&app, &url));
    assert!(a + b <= 1, "{a} + {b}");
    let mut ended = schedule_of(&app, &acct, &sid).await;
    for _ in 0..50 {
        if ended[1]["due"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        ended = schedule_of(&app, &acct, &sid).await;
    }
    assert_eq!(ended[1]["due"], true, "{ended}");
    assert_eq!(ended[0]["ended_by"], "time");
    assert_eq!(ended[0]["ended_gravity"], Value::Null);
    let mut psql = crate::database::Psql::start(&url).unwrap();
    let events = psql
        .run(&format!(
            "SELECT body::json->'data'->>'name', body::json->'data'->>'due_by' \
             FROM webhook_events WHERE type = 'fermentation.step_due' \
             AND body::json->'data'->>'session_id' = '{sid}' ORDER BY created_at"
        ))
        .unwrap();
    assert_eq!(events, ["Primary|time", "Crash|time"]);
    app.stop().await;
}
