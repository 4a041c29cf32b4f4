//! A brew session's brewhouse numbers: the mash efficiency and real attenuation reached, from
//! its measured gravities and volume, next to the recipe's planned ones.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestApp, call};

#[tokio::test]
async fn measured_efficiency_and_real_attenuation_sit_next_to_the_planned_ones() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let k = acct.key.as_str();
    let (status, recipe) = call(app.with_key(Method::POST, "/v1/recipes", k).json(
        &json!({"name": "Pale", "batch_size_liters": 20, "boil_time_minutes": 60, "efficiency": 0.72}),
    ))
    .await;
    assert_eq!(status, StatusCode::CREATED, "{recipe}");
    let rid = recipe["id"].as_str().unwrap();
    for (path, body) in [
        (
            "fermentables",
            json!({"name": "Pale malt", "amount_kg": 5, "color_srm": 3, "yield_percent": 80}),
        ),
        ("yeasts", json!({"name": "US-05", "attenuation": 78})),
    ] {
        let (status, v) = call(
            app.with_key(Method::POST, &format!("/v1/recipes/{rid}/{path}"), k)
                .json(&body),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }
    let (status, session) = call(
        app.with_key(Method::POST, "/v1/sessions", k)
            .json(&json!({"recipe_id": rid, "brew_date": "2026-11-28"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{session}");
    let b = &session["brewhouse"];
    assert_eq!(b["planned_efficiency_percent"], 72.0);
    assert!(
        b["planned_real_attenuation_percent"].as_f64().unwrap() > 55.0,
        "{b}"
    );
    assert_eq!(b["measured_efficiency_percent"], Value::Null);
    assert_eq!(b["measured_real_attenuation_percent"], Value::Null);

    // 19 L at 1.040 into the fermenter from 5 kg of 80 % malt: 49.3 %; down to 1.010: 60.9 %.
    let sid = session["id"].as_str().unwrap();
    let (status, patched) = call(
        app.with_key(Method::PATCH, &format!("/v1/sessions/{sid}"), k)
            .json(&json!({"measured_og": 1.040, "measured_batch_size_liters": 19, "measured_fg": 1.010})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{patched}");
    assert_eq!(patched["brewhouse"]["measured_efficiency_percent"], 49.3);
    assert_eq!(
        patched["brewhouse"]["measured_real_attenuation_percent"],
        60.9
    );
    let (_, read) = call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}"), k)).await;
    assert_eq!(read["brewhouse"], patched["brewhouse"]);

    // Without a measured volume, the recipe's batch size: 20 L at 1.040 is 51.9 %.
    let (_, v) = call(
        app.with_key(Method::PATCH, &format!("/v1/sessions/{sid}"), k)
            .json(&json!({"measured_batch_size_liters": null})),
    )
    .await;
    assert_eq!(v["brewhouse"]["measured_efficiency_percent"], 51.9);
    app.stop().await;
}
