//! Fermentation steps on recipes (a child kind like mash steps) and a session's fermentation
//! schedule, planned when it enters `fermenting`.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

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
