//! Numbers you can check: `/stats?explain=true`, a step mash's infusion water and decoctions (in
//! `/stats`, `/checks` and the brew-day checklist, in the caller's units), the pitch-rate tool
//! with a pack's production date and a starter plan, and the refractometer's Novotný method.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, TestApp, call, get, post};

async fn recipe_with_step_mash(app: &TestApp, acct: &Account, equipment: Option<&str>) -> String {
    let mut body = json!({"name": "Hefeweizen", "batch_size_liters": 20, "boil_time_minutes": 60});
    if let Some(e) = equipment {
        body["equipment_id"] = json!(e);
    }
    let id = post(app, acct, "/v1/recipes", body).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for (kind, child) in [
        (
            "fermentables",
            json!({"name": "Wheat malt", "amount_kg": 3, "color_srm": 2, "yield_percent": 80}),
        ),
        (
            "fermentables",
            json!({"name": "Pilsner malt", "amount_kg": 2, "color_srm": 2, "yield_percent": 80}),
        ),
        (
            "hops",
            json!({"name": "Hallertau", "alpha_acid": 4, "amount_grams": 25, "time_minutes": 60}),
        ),
        ("yeasts", json!({"name": "WB-06", "attenuation": 80})),
        (
            "mash-steps",
            json!({"name": "Ferulic acid rest", "temperature_c": 40, "duration_minutes": 15, "sort_order": 0}),
        ),
        (
            "mash-steps",
            json!({"name": "Saccharification", "temperature_c": 63, "duration_minutes": 45, "sort_order": 1}),
        ),
        (
            "mash-steps",
            json!({"name": "Decoction", "type": "decoction", "temperature_c": 72, "duration_minutes": 15, "sort_order": 2}),
        ),
    ] {
        post(app, acct, &format!("/v1/recipes/{id}/{kind}"), child).await;
    }
    id
}

#[tokio::test]
async fn explain_gives_the_working_of_every_figure() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let id = recipe_with_step_mash(&app, &acct, None).await;

    let plain = get(&app, &acct, &format!("/v1/recipes/{id}/stats")).await;
    assert!(plain.get("explain").is_none(), "only when asked: {plain}");
    let explained = get(&app, &acct, &format!("/v1/recipes/{id}/stats?explain=true")).await;
    let e = &explained["explain"];
    for figure in [
        "og",
        "fg",
        "abv",
        "ibu",
        "srm",
        "ebc",
        "attenuation",
        "calories",
        "calories_per_liter",
        "bu_gu",
    ] {
        // The same number (calories are whole numbers in the figures).
        assert_eq!(
            e[figure]["result"].as_f64(),
            plain[figure].as_f64(),
            "{figure}: {}",
            e[figure]
        );
        assert!(
            !e[figure]["formula"]["name"].as_str().unwrap().is_empty()
                && !e[figure]["formula"]["source"].as_str().unwrap().is_empty(),
            "{figure}"
        );
        assert!(
            !e[figure]["steps"].as_array().unwrap().is_empty(),
            "{figure}"
        );
        for input in e[figure]["inputs"].as_array().unwrap() {
            assert!(
                input["name"].is_string()
                    && input["value"].is_number()
                    && input["unit"].is_string()
            );
        }
    }
    // Per fermentable points and per hop IBU, named by id.
    let parts = e["og"]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0]["name"], "Wheat malt");
    let points: f64 = parts.iter().map(|p| p["result"].as_f64().unwrap()).sum();
    assert!((1.0 + points / 1000.0 - plain["og"].as_f64().unwrap()).abs() < 0.0001);
    let hop = &e["ibu"]["parts"][0];
    assert_eq!(hop["id"], plain["ibu_by_hop"][0]["hop_id"]);
    assert!(
        hop["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["label"].as_str().unwrap().starts_with("bigness"))
    );
    // The rest of the answer is the same with or without explain.
    let mut without = explained.clone();
    without.as_object_mut().unwrap().remove("explain");
    assert_eq!(without, plain);

    let (status, v) = call(app.with_key(
        Method::GET,
        &format!("/v1/recipes/{id}/stats?explain=yes"),
        &acct.key,
    ))
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, _) = call(app.with_key(
        Method::GET,
        &format!("/v1/recipes/{id}/stats?explain=false"),
        &acct.key,
    ))
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_step_mash_says_what_water_to_add_and_what_to_pull() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let kit = post(
        &app,
        &acct,
        "/v1/equipment",
        json!({"name": "Kettle", "batch_size_liters": 20, "boil_off_liters_per_hour": 3,
               "trub_chiller_loss_liters": 1, "mash_tun_deadspace_liters": 1,
               "grain_absorption_liters_per_kg": 1}),
    )
    .await;
    let id = recipe_with_step_mash(&app, &acct, kit["id"].as_str()).await;
    let stats = get(&app, &acct, &format!("/v1/recipes/{id}/stats")).await;
    let steps = stats["mash_steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    // Strike 2.7 × 5 + 1 = 14.5 L; 40 → 63 °C with boiling water:
    // 23 × (0.41 × 5 + 14.5)/37 = 10.2878 L.
    assert_eq!(steps[0]["infusion_volume_liters"], Value::Null);
    assert_eq!(steps[1]["infusion_volume_liters"], 10.29);
    assert_eq!(steps[1]["infusion_temperature_c"], 100.0);
    // Decoction 63 → 72 °C: (24.7878 + 0.67 × 5) × 9/37 = 6.8443 L of thick mash.
    assert_eq!(steps[2]["decoction_volume_liters"], 6.84);
    assert_eq!(steps[2]["infusion_volume_liters"], Value::Null);
    // Sparge: mash water 20 + 1 + 3 + 1 + 5 = 30 L, less the strike and the infusion.
    assert_eq!(stats["volumes"]["strike_water_liters"], 14.5);
    assert_eq!(stats["volumes"]["sparge_water_liters"], 5.21);

    // The brew day says it, in the brewer's units.
    let (status, _) = call(
        app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
            .json(&json!({"amounts": "us", "temperature": "f"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let session = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": id, "brew_date": "2026-12-07"}),
    )
    .await;
    let sid = session["id"].as_str().unwrap();
    let checklist = get(&app, &acct, &format!("/v1/sessions/{sid}/steps")).await;
    let described = |title: &str| {
        checklist
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["title"].as_str().unwrap().contains(title))
            .unwrap_or_else(|| panic!("{title}: {checklist}"))["description"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(
        described("Saccharification"),
        "Add 2.72 gal of boiling water to bring the mash to 145 °F."
    );
    assert_eq!(
        described("Decoction"),
        "Pull 1.81 gal of thick mash, bring it to a boil and stir it back in to reach 162 °F."
    );

    // Water at 60 °C cannot bring a mash to 63 °C: no volume, a check on the step's field.
    let infusion_id = steps[1]["mash_step_id"].as_str().unwrap();
    let (status, v) = call(
        app.with_key(
            Method::PATCH,
            &format!("/v1/mash-steps/{infusion_id}"),
            &acct.key,
        )
        .json(&json!({"infuse_temperature_c": 60})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["infuse_temperature_c"], 60.0);
    let stats = get(&app, &acct, &format!("/v1/recipes/{id}/stats")).await;
    assert_eq!(
        stats["mash_steps"][1]["infusion_volume_liters"],
        Value::Null
    );
    assert_eq!(stats["mash_steps"][1]["impossible"], true);
    let checks = get(&app, &acct, &format!("/v1/recipes/{id}/checks")).await;
    let check = checks["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "infusion_impossible")
        .unwrap_or_else(|| panic!("{checks}"));
    assert_eq!(check["severity"], "error");
    assert_eq!(
        check["path"],
        json!(["mash_steps", infusion_id, "infuse_temperature_c"])
    );
    assert!(
        check["message"].as_str().unwrap().contains("140 °F"),
        "{check}"
    );
    // Hotter than boiling is no water at all.
    let (status, v) = call(
        app.with_key(
            Method::PATCH,
            &format!("/v1/mash-steps/{infusion_id}"),
            &acct.key,
        )
        .json(&json!({"infuse_temperature_c": 120})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
}

async fn tool(app: &TestApp, acct: &Account, path: &str) -> (StatusCode, Value) {
    call(app.with_key(Method::GET, path, &acct.key)).await
}

#[tokio::test]
async fn pitch_rate_from_a_production_date_with_a_starter_plan() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let base = "/v1/tools/pitch-rate?volume_liters=20&og=1.050&kind=ale&cells_per_pack_billion=100";
    let (status, v) = tool(
        &app,
        &acct,
        &format!("{base}&production_date=2026-11-07&as_of=2026-12-07"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["age_days"], 30);
    assert_eq!(v["viability_percent"], 79.0);
    assert_eq!(v["inputs"]["production_date"], "2026-11-07");
    assert_eq!(v["inputs"]["viability_percent"], Value::Null);
    assert_eq!(v["starter_liters"], 0.82);
    assert_eq!(
        v["starter_steps"],
        json!([{"liters": 0.82, "gravity": 1.036, "extract_grams": 76.3,
                "cells_before_billion": 79.0, "cells_after_billion": 185.8}])
    );
    // Today by default.
    let (status, v) = tool(&app, &acct, &format!("{base}&production_date=2026-11-07")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["inputs"]["as_of"].is_string());
    // A big lager from one old pack takes more than one flask.
    let (_, v) = tool(
        &app,
        &acct,
        "/v1/tools/pitch-rate?volume_liters=60&og=1.060&kind=lager&cells_per_pack_billion=100&viability_percent=40",
    )
    .await;
    let steps = v["starter_steps"].as_array().unwrap();
    assert!(steps.len() > 1, "{v}");
    assert_eq!(steps[0]["liters"], 4.0);
    // Both, neither, a malformed date: 400. A pack from the future or long dead: 422.
    for (query, expected) in [
        (
            format!("{base}&viability_percent=90&production_date=2026-11-07"),
            StatusCode::BAD_REQUEST,
        ),
        (base.to_owned(), StatusCode::BAD_REQUEST),
        (
            format!("{base}&production_date=7/11/2026"),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("{base}&production_date=2026-12-08&as_of=2026-12-07"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("{base}&production_date=2026-01-01&as_of=2026-12-07"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let (status, v) = tool(&app, &acct, &query).await;
        assert_eq!(status, expected, "{query}: {v}");
        if expected == StatusCode::UNPROCESSABLE_ENTITY {
            assert_eq!(v["details"][0]["path"], json!(["production_date"]), "{v}");
        }
    }
}

#[tokio::test]
async fn the_refractometer_offers_novotny() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let base =
        "/v1/tools/refractometer?original_brix=12.5&current_brix=6.5&wort_correction_factor=1.04";
    let (_, terrill) = tool(&app, &acct, base).await;
    assert_eq!(terrill["current_gravity"], 1.0125);
    assert_eq!(terrill["inputs"]["method"], "terrill");
    let (_, novotny) = tool(&app, &acct, &format!("{base}&method=novotny")).await;
    assert_eq!(novotny["current_gravity"], 1.0104);
    assert_eq!(novotny["inputs"]["method"], "novotny");
    let (status, _) = tool(&app, &acct, &format!("{base}&method=brix")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
