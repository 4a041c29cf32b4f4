//! The brewer's tools (`/v1/tools/{name}`): each tool's worked example over HTTP, the inputs
//! echoed, `400` for a missing, malformed or unknown parameter, `422` for one out of bounds, and
//! the bounds in the OpenAPI document equal to the enforced ones.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestApp, call, issue_codes};

async fn tool(app: &TestApp, key: &str, path: &str) -> (StatusCode, Value) {
    call(app.with_key(Method::GET, path, key)).await
}

#[tokio::test]
async fn every_tool_answers_its_worked_example_with_its_inputs() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let k = acct.key.as_str();

    let (status, v) = tool(
        &app,
        k,
        "/v1/tools/priming?volume_liters=20&temperature_c=20&co2_volumes=2.4&sugar=table",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v,
        json!({
            "inputs": {"volume_liters": 20.0, "temperature_c": 20.0, "co2_volumes": 2.4, "sugar": "table"},
            "residual_co2_volumes": 0.86, "co2_to_add_volumes": 1.54,
            "sugar_grams": 123.1, "sugar_grams_per_liter": 6.15
        })
    );

    let (_, v) = tool(
        &app,
        k,
        "/v1/tools/keg-pressure?temperature_c=3&co2_volumes=2.5",
    )
    .await;
    assert_eq!(v["pressure_psi"], 10.9);
    assert_eq!(v["pressure_kpa"], 75.4);
    assert_eq!(v["inputs"]["co2_volumes"], 2.5);

    let (_, v) = tool(
        &app,
        k,
        "/v1/tools/refractometer?original_brix=12.5&current_brix=6.5&wort_correction_factor=1.04",
    )
    .await;
    assert_eq!(
        (
            &v["original_gravity"],
            &v["current_gravity"],
            &v["abv_percent"]
        ),
        (&json!(1.0485), &json!(1.0125), &json!(4.72))
    );

    let (_, v) = tool(
        &app,
        k,
        "/v1/tools/hydrometer-correction?gravity=1.050&sample_temperature_c=37.78&calibration_temperature_c=15.56",
    )
    .await;
    assert_eq!(v["corrected_gravity"], 1.0561);

    let (_, v) = tool(
        &app,
        k,
        "/v1/tools/dilution?volume_liters=20&gravity=1.060&target_gravity=1.050",
    )
    .await;
    assert_eq!(
        (&v["water_liters"], &v["final_volume_liters"]),
        (&json!(4.0), &json!(24.0))
    );

    let (_, v) = tool(
        &app,
        k,
        "/v1/tools/pitch-rate?volume_liters=20&og=1.050&kind=ale&cells_per_pack_billion=100&viability_percent=90",
    )
    .await;
    assert_eq!(v["cells_needed_billion"], 185.8);
    assert_eq!(v["packs"], 3);
    assert_eq!(v["starter_liters"], 0.73);
    assert_eq!(v["inputs"]["kind"], "ale");
    app.stop().await;
}

#[tokio::test]
async fn missing_malformed_or_unknown_parameters_are_400_and_bounds_422() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let k = acct.key.as_str();
    let keg = "/v1/tools/keg-pressure";

    for (query, says) in [
        ("temperature_c=3", "Missing query parameter co2_volumes"),
        ("temperature_c=abc&co2_volumes=2", "temperature_c"),
        ("temperature_c=NaN&co2_volumes=2", "temperature_c"),
        ("temperature_c=inf&co2_volumes=2", "temperature_c"),
        (
            "temperature_c=3&co2_volumes=2&volume_litres=5",
            "Unknown query parameter volume_litres",
        ),
    ] {
        let (status, v) = tool(&app, k, &format!("{keg}?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{query}: {v}");
    }
    let (status, v) = tool(
        &app,
        k,
        "/v1/tools/priming?volume_liters=20&temperature_c=20&co2_volumes=2.4&sugar=maple",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("table, corn, dme, honey"),
        "{v}"
    );

    // Out of bounds: every failing parameter named, with the bound.
    let (status, v) = tool(
        &app,
        k,
        "/v1/tools/priming?volume_liters=0&temperature_c=90&co2_volumes=2.4&sugar=corn",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(
        issue_codes(&v),
        [
            ("too_small".to_owned(), "volume_liters".to_owned()),
            ("too_big".to_owned(), "temperature_c".to_owned())
        ]
    );
    assert_eq!(v["details"][1]["maximum"], 35);

    // Rules between parameters: a target above the gravity, a reading that rose.
    let (status, v) = tool(
        &app,
        k,
        "/v1/tools/dilution?volume_liters=20&gravity=1.050&target_gravity=1.060",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["details"][0]["path"], json!(["target_gravity"]));
    let (status, _) = tool(
        &app,
        k,
        "/v1/tools/refractometer?original_brix=10&current_brix=11&wort_correction_factor=1.04",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // Any credential; none is 401; an unknown tool is 404; another method 405.
    let (status, _) = call(app.request(
        Method::GET,
        "/v1/tools/keg-pressure?temperature_c=3&co2_volumes=2",
    ))
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = tool(&app, k, "/v1/tools/mash-ph").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = call(app.with_key(Method::POST, "/v1/tools/dilution", k)).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    app.stop().await;
}

/// Each documented numeric parameter's bound is the enforced one: the bound itself is accepted
/// (an exclusive one refused) and one step past the maximum is `422` with that `maximum`.
#[tokio::test]
async fn documented_parameter_bounds_are_the_enforced_ones() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, doc) = call(app.request(Method::GET, "/v1/openapi.json")).await;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/v1/tools/") {
            continue;
        }
        // The query parameters (every GET also takes the `If-None-Match` header).
        let params: Vec<&Value> = item["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["in"] == "query")
            // The optional choices (`method`, `production_date`, `as_of`) are left at their
            // defaults; an optional bounded number (`viability_percent`) is given.
            .filter(|p| p["required"] == true || p["schema"]["maximum"].is_number())
            .collect();
        // A valid query: every number at a value inside its range, every enum at its first value.
        let valid = |name: &str| -> String {
            params
                .iter()
                .map(|p| {
                    let n = p["name"].as_str().unwrap();
                    let value = if let Some(options) = p["schema"]["enum"].as_array() {
                        options[0].as_str().unwrap().to_owned()
                    } else if n == name {
                        String::new()
                    } else {
                        comfortable(n)
                    };
                    (n.to_owned(), value)
                })
                .filter(|(n, _)| n != name)
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join("&")
        };
        for p in &params {
            let name = p["name"].as_str().unwrap();
            let Some(max) = p["schema"]["maximum"].as_f64() else {
                assert!(p["schema"]["enum"].is_array(), "{path} {name} has no bound");
                continue;
            };
            let base = valid(name);
            let at = |x: f64| format!("{path}?{base}&{name}={x}");
            let (status, v) = tool(&app, &acct.key, &at(max + 0.001)).await;
            assert_eq!(
                status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{path} {name}: {v}"
            );
            assert_eq!(
                v["details"][0]["maximum"].as_f64(),
                Some(max),
                "{path} {name}"
            );
            if let Some(min) = p["schema"]["exclusiveMinimum"].as_f64() {
                let (status, _) = tool(&app, &acct.key, &at(min)).await;
                assert_eq!(
                    status,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "{path} {name} = {min}"
                );
            } else {
                let min = p["schema"]["minimum"].as_f64().unwrap();
                let (status, _) = tool(&app, &acct.key, &at(min - 0.001)).await;
                assert_eq!(
                    status,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "{path} {name} < {min}"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 18, "every numeric parameter of the six tools");
    app.stop().await;
}

/// A value inside every tool's range for a parameter, and consistent with the others (a target
/// gravity below the gravity, a current Brix below the original).
fn comfortable(name: &str) -> String {
    match name {
        "volume_liters" => "20",
        "temperature_c" | "sample_temperature_c" | "calibration_temperature_c" => "20",
        "co2_volumes" => "2.4",
        "original_brix" => "40",
        "current_brix" => "0",
        "wort_correction_factor" => "1.04",
        "gravity" => "1.2",
        "target_gravity" | "og" => "1.01",
        "cells_per_pack_billion" => "100",
        "viability_percent" => "90",
        other => panic!("no comfortable value for {other}"),
    }
    .to_owned()
}
