//! Water chemistry end to end: water profiles (built-in and own), water additions as a recipe
//! child kind, the recipe's water report, and the calibration from measured mash pH.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, TestApp, call, get, issue_codes, post};

async fn send(
    app: &TestApp,
    acct: &Account,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let req = app.with_key(method, path, &acct.key);
    call(match body {
        Some(b) => req.json(&b),
        None => req,
    })
    .await
}

async fn patch(app: &TestApp, acct: &Account, path: &str, body: Value) -> Value {
    let (status, v) = send(app, acct, Method::PATCH, path, Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{path}: {v}");
    v
}

fn close(v: &Value, expected: f64, tol: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!(
        (got - expected).abs() <= tol,
        "{got} is not {expected} ± {tol}"
    );
}

/// A 20 L recipe with 5 kg of pale malt (no equipment: the mash water is the batch size).
async fn pale(app: &TestApp, acct: &Account) -> String {
    let recipe = post(
        app,
        acct,
        "/v1/recipes",
        json!({"name": "Pale", "batch_size_liters": 20}),
    )
    .await;
    let id = recipe["id"].as_str().unwrap().to_owned();
    post(
        app,
        acct,
        &format!("/v1/recipes/{id}/fermentables"),
        json!({"name": "Pale malt", "amount_kg": 5, "color_srm": 2, "yield_percent": 80}),
    )
    .await;
    id
}

#[tokio::test]
async fn built_in_profiles_are_listed_with_sources_and_are_read_only() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let list = get(&app, &acct, "/v1/water-profiles").await;
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for city in [
        "Burton",
        "Dortmund",
        "Dublin",
        "Edinburgh",
        "London",
        "Munich",
        "Pilsen",
        "Vienna",
        "Distilled",
    ] {
        assert!(
            names.iter().any(|n| n.starts_with(city)),
            "{city} missing from {names:?}"
        );
    }
    for p in list.as_array().unwrap() {
        assert_eq!(p["builtin"], true, "{p}");
        assert!(p["source"].as_str().is_some_and(|s| s.len() > 10), "{p}");
    }
    let burton = list
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"].as_str().unwrap().starts_with("Burton"))
        .unwrap();
    let id = burton["id"].as_str().unwrap();
    let (status, _) = send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/water-profiles/{id}"),
        Some(json!({"calcium": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = send(
        &app,
        &acct,
        Method::DELETE,
        &format!("/v1/water-profiles/{id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    app.stop().await;
}

#[tokio::test]
async fn targets_by_beer_come_first_with_their_sources_and_work_as_targets() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let list = get(&app, &acct, "/v1/water-profiles").await;
    let list = list.as_array().unwrap();
    let targets: Vec<&Value> = list.iter().filter(|p| p["kind"] == "target").collect();
    let names: Vec<&str> = targets
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for wanted in [
        "Pale and hoppy",
        "Balanced",
        "Malty",
        "Amber",
        "Dark and roasty",
        "Light lager",
    ] {
        assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
    }
    // Targets first, then the source waters (cities, RO), each kind by name.
    let kinds: Vec<&str> = list.iter().map(|p| p["kind"].as_str().unwrap()).collect();
    let first_water = kinds.iter().position(|k| *k == "water").unwrap();
    assert_eq!(first_water, targets.len(), "{kinds:?}");
    assert!(
        kinds[first_water..].iter().all(|k| *k == "water"),
        "{kinds:?}"
    );
    assert!(
        list.iter()
            .any(|p| p["kind"] == "water" && p["name"] == "Munich")
    );
    for t in &targets {
        assert_eq!(t["builtin"], true);
        let source = t["source"].as_str().unwrap();
        assert!(source.contains("not a published profile"), "{source}");
    }
    // A hoppy target leans to sulfate, a malty one to chloride; dark beers carry alkalinity.
    let by = |name: &str| *targets.iter().find(|p| p["name"] == name).unwrap();
    let ratio = |p: &Value| p["sulfate"].as_f64().unwrap() / p["chloride"].as_f64().unwrap();
    assert!(ratio(by("Pale and hoppy")) > 3.0);
    assert!(ratio(by("Malty")) < 0.6);
    assert!(
        by("Dark and roasty")["bicarbonate"].as_f64() > by("Light lager")["bicarbonate"].as_f64()
    );
    // A target names a recipe's target water; built-in targets are read-only too.
    let target_id = by("Pale and hoppy")["id"].as_str().unwrap();
    let recipe = post(
        &app,
        &acct,
        "/v1/recipes",
        json!({"name": "IPA", "target_water_profile_id": target_id}),
    )
    .await;
    let report = get(
        &app,
        &acct,
        &format!("/v1/recipes/{}/water", recipe["id"].as_str().unwrap()),
    )
    .await;
    assert_eq!(report["target_water_profile"]["name"], "Pale and hoppy");
    assert_eq!(report["target_water_profile"]["kind"], "target");
    let (status, _) = send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/water-profiles/{target_id}"),
        Some(json!({"sulfate": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);

    // An account's own profile is a water unless it says it is a target; a bad kind is a 422.
    let tap = post(
        &app,
        &acct,
        "/v1/water-profiles",
        json!({"name": "Tap", "calcium": 40, "magnesium": 8, "sodium": 12, "sulfate": 30,
               "chloride": 25, "bicarbonate": 120}),
    )
    .await;
    assert_eq!(tap["kind"], "water");
    let mine = post(
        &app,
        &acct,
        "/v1/water-profiles",
        json!({"name": "My NEIPA", "kind": "target", "calcium": 100, "magnesium": 10, "sodium": 10,
               "sulfate": 80, "chloride": 180, "bicarbonate": 20}),
    )
    .await;
    assert_eq!(mine["kind"], "target");
    let all = get(&app, &acct, "/v1/water-profiles").await;
    let own: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["builtin"] == false)
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    // The account's own come after the built-ins, targets first.
    assert_eq!(own, ["My NEIPA", "Tap"]);
    let patched = patch(
        &app,
        &acct,
        &format!("/v1/water-profiles/{}", tap["id"].as_str().unwrap()),
        json!({"kind": "target"}),
    )
    .await;
    assert_eq!(patched["kind"], "target");
    let (status, body) = send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/water-profiles/{}", tap["id"].as_str().unwrap()),
        Some(json!({"kind": "source"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["details"][0]["path"], json!(["kind"]));
    app.stop().await;
}

#[tokio::test]
async fn own_profiles_are_created_patched_deleted_and_private() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let mine = post(
        &app,
        &acct,
        "/v1/water-profiles",
        json!({"name": "Tap", "calcium": 40, "magnesium": 8, "sodium": 12, "sulfate": 30,
               "chloride": 25, "bicarbonate": 120, "ph": 7.6}),
    )
    .await;
    assert_eq!(mine["builtin"], false);
    let id = mine["id"].as_str().unwrap();
    let patched = patch(
        &app,
        &acct,
        &format!("/v1/water-profiles/{id}"),
        json!({"calcium": 45, "ph": null}),
    )
    .await;
    assert_eq!(patched["calcium"], 45.0);
    assert_eq!(patched["ph"], Value::Null);
    assert_eq!(patched["sulfate"], 30.0);
    // Another account sees built-ins only.
    let (status, _) = send(
        &app,
        &other,
        Method::GET,
        &format!("/v1/water-profiles/{id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let theirs = get(&app, &other, "/v1/water-profiles").await;
    assert!(
        theirs
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["builtin"] == true)
    );
    // Nor can name it on a recipe.
    let (status, body) = send(
        &app,
        &other,
        Method::POST,
        "/v1/recipes",
        Some(json!({"name": "X", "water_profile_id": id})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body.to_string().contains("water_profile_id"), "{body}");
    // Bad bodies.
    let (status, body) = send(
        &app,
        &acct,
        Method::POST,
        "/v1/water-profiles",
        Some(json!({"name": "Neg", "calcium": -1})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(!issue_codes(&body).is_empty());
    // A recipe naming it forgets it when it is deleted.
    let recipe = post(
        &app,
        &acct,
        "/v1/recipes",
        json!({"name": "R", "water_profile_id": id}),
    )
    .await;
    assert_eq!(recipe["water_profile_id"], id);
    let (status, _) = send(
        &app,
        &acct,
        Method::DELETE,
        &format!("/v1/water-profiles/{id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let rid = recipe["id"].as_str().unwrap();
    assert_eq!(
        get(&app, &acct, &format!("/v1/recipes/{rid}")).await["water_profile_id"],
        Value::Null
    );
    app.stop().await;
}

#[tokio::test]
async fn additions_give_ions_by_stoichiometry_and_travel_with_copies_and_scales() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let id = pale(&app, &acct).await;
    let gypsum = post(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/water-additions"),
        json!({"agent": "gypsum", "amount": 5}),
    )
    .await;
    assert_eq!(gypsum["unit"], "g");
    assert_eq!(gypsum["step"], "mash");
    assert_eq!(gypsum["strength_percent"], Value::Null);
    let lactic = post(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/water-additions"),
        json!({"agent": "lactic_acid", "amount": 2}),
    )
    .await;
    assert_eq!(lactic["unit"], "ml");
    assert_eq!(lactic["strength_percent"], 88.0);
    post(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/water-additions"),
        json!({"agent": "calcium_chloride", "amount": 4, "step": "sparge"}),
    )
    .await;
    // A strength where the agent has none, and an unknown agent.
    let (status, body) = send(
        &app,
        &acct,
        Method::POST,
        &format!("/v1/recipes/{id}/water-additions"),
        Some(json!({"agent": "gypsum", "amount": 1, "strength_percent": 50})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body.to_string().contains("strength_percent"), "{body}");
    let (status, _) = send(
        &app,
        &acct,
        Method::POST,
        &format!("/v1/recipes/{id}/water-additions"),
        Some(json!({"agent": "salt", "amount": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    let report = get(&app, &acct, &format!("/v1/recipes/{id}/water")).await;
    // 5 g CaSO4·2H2O in 20 L: Ca 40.078/172.16 × 250 mg/L = 58.2, SO4 96.06/172.16 × 250 = 139.5.
    close(&report["mash"]["liters"], 20.0, 1e-9);
    close(&report["mash"]["ions"]["calcium"], 58.2, 0.1);
    close(&report["mash"]["ions"]["sulfate"], 139.5, 0.1);
    assert_eq!(report["mash"]["ions"]["chloride"], 0.0);
    assert_eq!(report["mash"]["sulfate_to_chloride"], Value::Null);
    // The sparge's 4 g CaCl2·2H2O only in the overall water (20 L, no sparge without equipment):
    // Cl 70.9/147.01 × 200 = 96.5.
    close(&report["overall"]["ions"]["chloride"], 96.5, 0.1);
    assert_eq!(report["volumes_from"], "batch_size");
    let ph = &report["mash_ph"];
    assert!(ph["model"].as_str().unwrap().contains("deLange"));
    let predicted = ph["predicted"].as_f64().unwrap();
    assert!((5.0..5.8).contains(&predicted), "{predicted}");
    assert_eq!(ph["correction"], Value::Null);

    // Copy and scale carry the additions.
    let copy = post(&app, &acct, &format!("/v1/recipes/{id}/copy"), json!({})).await;
    assert_eq!(copy["water_additions"].as_array().unwrap().len(), 3);
    let scaled = post(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/scale"),
        json!({"batch_size_liters": 40}),
    )
    .await;
    let amounts: Vec<f64> = scaled["water_additions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["amount"].as_f64().unwrap())
        .collect();
    assert_eq!(amounts, vec![10.0, 4.0, 8.0]);
    // Exports carry them as water-agent miscs, in both formats.
    let json_doc = get(&app, &acct, &format!("/v1/recipes/{id}/export"))
        .await
        .to_string();
    assert!(json_doc.contains("Gypsum (CaSO4·2H2O)"), "{json_doc}");
    assert!(json_doc.contains("Lactic acid 88 %"), "{json_doc}");
    let (status, xml) = send(
        &app,
        &acct,
        Method::GET,
        &format!("/v1/recipes/{id}/export?format=beerxml"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let xml = xml.as_str().unwrap_or_default().to_owned();
    assert!(
        xml.contains("<NAME>Calcium chloride (CaCl2·2H2O)</NAME>"),
        "{xml}"
    );
    assert!(xml.contains("<TYPE>Water Agent</TYPE>"), "{xml}");
    app.stop().await;
}

#[tokio::test]
async fn the_acid_needed_lands_the_prediction_on_the_target() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let id = pale(&app, &acct).await;
    let report = get(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/water?target_ph=5.3"),
    )
    .await;
    let need = &report["acid_needed"];
    assert_eq!(need["target_ph"], 5.3);
    let ml = need["lactic_acid_88_ml"].as_f64().unwrap();
    assert!(ml > 0.0, "{need}");
    post(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/water-additions"),
        json!({"agent": "lactic_acid", "amount": ml}),
    )
    .await;
    let after = get(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/water?target_ph=5.3"),
    )
    .await;
    close(&after["mash_ph"]["predicted"], 5.3, 0.011);
    // Alkaline water needs more acid than distilled.
    let dublin = get(&app, &acct, "/v1/water-profiles")
        .await
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Dublin")
        .unwrap()["id"]
        .clone();
    patch(
        &app,
        &acct,
        &format!("/v1/recipes/{id}"),
        json!({"water_profile_id": dublin}),
    )
    .await;
    let hard = get(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/water?target_ph=5.3"),
    )
    .await;
    assert!(
        hard["mash_ph"]["predicted"].as_f64().unwrap() > 5.33,
        "{hard}"
    );
    for bad in ["abc", "9", "NaN"] {
        let (status, _) = send(
            &app,
            &acct,
            Method::GET,
            &format!("/v1/recipes/{id}/water?target_ph={bad}"),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }
    let other = app.account().await;
    let (status, _) = send(
        &app,
        &other,
        Method::GET,
        &format!("/v1/recipes/{id}/water"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.stop().await;
}

#[tokio::test]
async fn three_measured_brews_calibrate_every_prediction() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let id = pale(&app, &acct).await;
    let predicted =
        get(&app, &acct, &format!("/v1/recipes/{id}/water")).await["mash_ph"]["predicted"]
            .as_f64()
            .unwrap();
    let mut sessions = Vec::new();
    for (i, offset) in [0.10, 0.20, 0.15].into_iter().enumerate() {
        let s = post(
            &app,
            &acct,
            "/v1/sessions",
            json!({"recipe_id": id, "brew_date": format!("2026-11-0{}", i + 1)}),
        )
        .await;
        let sid = s["id"].as_str().unwrap().to_owned();
        let measured = (predicted + offset) * 100.0;
        let measured = measured.round() / 100.0;
        let after = patch(
            &app,
            &acct,
            &format!("/v1/sessions/{sid}"),
            json!({"measured_mash_ph": measured}),
        )
        .await;
        assert_eq!(after["measured_mash_ph"], measured);
        close(&after["predicted_mash_ph"], predicted, 0.006);
        sessions.push(sid);
        let cal = get(&app, &acct, "/v1/me/water-calibration").await;
        assert_eq!(cal["pairs"].as_array().unwrap().len(), i + 1);
        assert_eq!(cal["correction"].is_null(), i < 2, "{cal}");
    }
    let cal = get(&app, &acct, "/v1/me/water-calibration").await;
    close(&cal["mean_error"], 0.15, 0.01);
    let report = get(&app, &acct, &format!("/v1/recipes/{id}/water")).await;
    close(&report["mash_ph"]["correction"], 0.15, 0.01);
    close(&report["mash_ph"]["corrected"], predicted + 0.15, 0.02);
    assert_eq!(report["mash_ph"]["calibration_pairs"], 3);
    // Clearing a measurement drops its pair; a bad one is refused.
    patch(
        &app,
        &acct,
        &format!("/v1/sessions/{}", sessions[0]),
        json!({"measured_mash_ph": null}),
    )
    .await;
    assert_eq!(
        get(&app, &acct, "/v1/me/water-calibration").await["pairs"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let (status, _) = send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/sessions/{}", sessions[1]),
        Some(json!({"measured_mash_ph": 12})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // A measured pH sent with a move the session cannot make is refused with the move: the
    // patch is one write, so nothing of it is kept.
    let (status, _) = send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/sessions/{}", sessions[1]),
        Some(json!({"measured_mash_ph": 5.9, "status": "completed"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/sessions/{}", sessions[1]),
        Some(json!({"measured_mash_ph": 4.9, "status": "brewing"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let kept = get(&app, &acct, &format!("/v1/sessions/{}", sessions[1])).await;
    assert_eq!(kept["measured_mash_ph"], 5.9);
    assert_eq!(kept["status"], "completed");
    // Another account's session is not found, and its calibration is its own.
    let other = app.account().await;
    let (status, _) = send(
        &app,
        &other,
        Method::PATCH,
        &format!("/v1/sessions/{}", sessions[1]),
        Some(json!({"measured_mash_ph": 5.4})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        get(&app, &other, "/v1/me/water-calibration").await["pairs"],
        json!([])
    );
    app.stop().await;
}
