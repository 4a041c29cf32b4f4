//! The fermentation forecast (`GET /v1/sessions/{id}/forecast`): nulls with the reason until
//! there is enough to fit, the fit of a generated curve, and another account's session.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use crate::support::{Account, TestApp, call, get, post};

/// A session of a 20 L pale beer (5 kg pale malt, a yeast attenuating 75 %): its recipe
/// snapshot's stats carry the predicted OG and FG. Returns the session and its (OG, FG).
async fn session(app: &TestApp, acct: &Account) -> (String, f64, f64) {
    let recipe = post(
        app,
        acct,
        "/v1/recipes",
        json!({"name": "Forecast Pale", "batch_size_liters": 20, "boil_time_minutes": 60}),
    )
    .await;
    let rid = recipe["id"].as_str().unwrap();
    post(
        app,
        acct,
        &format!("/v1/recipes/{rid}/fermentables"),
        json!({"name": "Pale", "amount_kg": 5, "color_srm": 3, "yield_percent": 80}),
    )
    .await;
    post(
        app,
        acct,
        &format!("/v1/recipes/{rid}/yeasts"),
        json!({"name": "US-05", "attenuation": 75}),
    )
    .await;
    let session = post(
        app,
        acct,
        "/v1/sessions",
        json!({"recipe_id": rid, "brew_date": "2026-11-28"}),
    )
    .await;
    let stats = &session["recipe_snapshot"]["stats"];
    (
        session["id"].as_str().unwrap().to_owned(),
        stats["og"].as_f64().unwrap(),
        stats["fg"].as_f64().unwrap(),
    )
}

async fn log(app: &TestApp, acct: &Account, session: &str, at: OffsetDateTime, gravity: f64) {
    post(
        app,
        acct,
        &format!("/v1/sessions/{session}/fermentation-logs"),
        json!({"logged_at": wort_domain::timestamp::format(at), "gravity": gravity}),
    )
    .await;
}

const FIELDS: [&str; 8] = [
    "predicted_fg",
    "predicted_fg_low",
    "predicted_fg_high",
    "finish_at",
    "finish_at_low",
    "finish_at_high",
    "method",
    "readings_used",
];

#[tokio::test]
async fn too_few_readings_give_nulls_and_the_reason() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (id, og, _) = session(&app, &acct).await;
    let path = format!("/v1/sessions/{id}/forecast");

    // No reading at all.
    let f = get(&app, &acct, &path).await;
    for field in FIELDS {
        assert_eq!(f[field], Value::Null, "{field}: {f}");
    }
    assert_eq!(
        f["reason"],
        "needs at least 6 gravity readings over 12 hours with a drop of at least 0.003 \
         (has 0 over 0 hours, a drop of 0.000)"
    );

    // Eight readings falling by 0.008, but over 7 hours only.
    let start = OffsetDateTime::now_utc() - Duration::hours(10);
    for h in 0..8 {
        log(
            &app,
            &acct,
            &id,
            start + Duration::hours(h),
            og - 0.001 * h as f64,
        )
        .await;
    }
    let f = get(&app, &acct, &path).await;
    assert_eq!(f["predicted_fg"], Value::Null);
    assert_eq!(f["readings_used"], Value::Null);
    assert_eq!(
        f["reason"],
        "needs at least 6 gravity readings over 12 hours with a drop of at least 0.003 \
         (has 8 over 7 hours, a drop of 0.007)"
    );
}

#[tokio::test]
async fn a_generated_fermentation_is_forecast_with_the_true_fg_inside_the_interval() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (id, og, recipe_fg) = session(&app, &acct).await;
    // The beer finishes 3 points above the recipe's FG: a logistic fall with its midpoint at
    // 36 h and a rate of 0.1 per hour, read every hour for 60 hours (about 90 % of the drop)
    // with ±0.0005 of deterministic noise.
    let fg = recipe_fg + 0.003;
    let curve = |h: f64| fg + (og - fg) / (1.0 + (0.1 * (h - 36.0)).exp());
    let start = OffsetDateTime::now_utc() - Duration::hours(61);
    for h in 0..=60 {
        let noise = [0.0, 0.0005, -0.0004, 0.0002, -0.0005, 0.0003][h % 6];
        let g = ((curve(h as f64) + noise) * 10_000.0).round() / 10_000.0;
        log(&app, &acct, &id, start + Duration::hours(h as i64), g).await;
    }
    let f = get(&app, &acct, &format!("/v1/sessions/{id}/forecast")).await;
    assert_eq!(f["reason"], Value::Null, "{f}");
    assert_eq!(f["readings_used"], 61);
    assert_eq!(f["method"], "logistic-4p (Speers, Rogers & Smith 2003)");
    let (low, mid, high) = (
        f["predicted_fg_low"].as_f64().unwrap(),
        f["predicted_fg"].as_f64().unwrap(),
        f["predicted_fg_high"].as_f64().unwrap(),
    );
    assert!(low <= fg && fg <= high, "{fg} outside [{low}, {high}]: {f}");
    assert!((mid - fg).abs() < 0.0015, "{mid} vs {fg}");
    // Within 0.001 of the FG: 36 + 10 ln((OG − FG) / 0.001 − 1) hours after the first reading.
    let finish = |key: &str| {
        OffsetDateTime::parse(
            f[key].as_str().unwrap(),
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap()
    };
    let truth =
        start + Duration::seconds_f64(3600.0 * (36.0 + 10.0 * ((og - fg) / 0.001 - 1.0).ln()));
    assert!(finish("finish_at_low") <= finish("finish_at"));
    assert!(finish("finish_at") <= finish("finish_at_high"));
    assert!(
        (finish("finish_at") - truth).abs() < Duration::hours(6),
        "{} vs {truth}",
        finish("finish_at")
    );
}

#[tokio::test]
async fn another_accounts_session_is_not_found() {
    let app = TestApp::spawn().await;
    let owner = app.account().await;
    let other = app.account().await;
    let (id, _, _) = session(&app, &owner).await;
    let (status, body) = call(app.with_key(
        Method::GET,
        &format!("/v1/sessions/{id}/forecast"),
        &other.key,
    ))
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, _) = call(app.with_key(
        Method::GET,
        &format!("/v1/sessions/{}/forecast", crate::support::random_id()),
        &owner.key,
    ))
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
