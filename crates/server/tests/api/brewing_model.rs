//! The brewing model end to end: equipment profiles, hop form, styles, `/stats` volumes and style
//! fit, scaling, and the brew-day checklist with a profile.

use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Account, TestApp, call, get, issue_codes, post, random_id};

/// The worked example of docs/calculations.md: 3 L/h boil-off, 1.5 L trub loss, 1 L deadspace.
fn kit() -> Value {
    json!({
        "name": "Kettle 30 L",
        "batch_size_liters": 20,
        "boil_off_liters_per_hour": 3,
        "trub_chiller_loss_liters": 1.5,
        "mash_tun_deadspace_liters": 1,
        "fermenter_loss_liters": 1
    })
}

/// A 20 L, 60 min all-grain recipe with 5 kg of grain, one bittering hop and a 66 °C rest.
async fn pale_ale(app: &TestApp, acct: &Account, extra: Value) -> String {
    let mut body = json!({"name": "Pale Ale", "batch_size_liters": 20, "boil_time_minutes": 60});
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let recipe = post(app, acct, "/v1/recipes", body).await;
    let id = recipe["id"].as_str().unwrap().to_owned();
    post(
        app,
        acct,
        &format!("/v1/recipes/{id}/fermentables"),
        json!({"name": "Pale malt", "amount_kg": 5, "color_srm": 3, "yield_percent": 80}),
    )
    .await;
    post(
        app,
        acct,
        &format!("/v1/recipes/{id}/hops"),
        json!({"name": "Magnum", "alpha_acid": 12, "amount_grams": 30, "time_minutes": 60}),
    )
    .await;
    post(
        app,
        acct,
        &format!("/v1/recipes/{id}/yeasts"),
        json!({"name": "US-05", "attenuation": 78}),
    )
    .await;
    post(
        app,
        acct,
        &format!("/v1/recipes/{id}/mash-steps"),
        json!({"name": "Saccharification", "temperature_c": 66, "duration_minutes": 60}),
    )
    .await;
    id
}

#[tokio::test]
async fn equipment_profiles_are_created_with_defaults_listed_patched_and_deleted() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let profile = post(
        &app,
        &acct,
        "/v1/equipment",
        json!({"name": "Pot", "batch_size_liters": 10}),
    )
    .await;
    assert_eq!(profile["grain_absorption_liters_per_kg"], 1.0);
    assert_eq!(profile["hop_utilization_percent"], 100.0);
    assert_eq!(profile["trub_chiller_loss_liters"], 0.0);
    assert_eq!(profile["notes"], Value::Null);
    assert_eq!(profile["user_id"], acct.id.as_str());
    let id = profile["id"].as_str().unwrap();
    post(&app, &acct, "/v1/equipment", kit()).await;

    let (status, list) = call(app.with_key(Method::GET, "/v1/equipment", &acct.key)).await;
    assert_eq!(status, 200);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Kettle 30 L", "Pot"], "by name");

    let path = format!("/v1/equipment/{id}");
    let (status, patched) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"trub_chiller_loss_liters": 0.5, "notes": "dented"})),
    )
    .await;
    assert_eq!(status, 200, "{patched}");
    assert_eq!(patched["trub_chiller_loss_liters"], 0.5);
    assert_eq!(patched["notes"], "dented");
    assert_eq!(patched["batch_size_liters"], 10.0, "untouched");

    // Lowering the batch below a loss makes the whole profile impossible.
    let (status, body) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"batch_size_liters": 0.4})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        issue_codes(&body),
        [("custom".to_owned(), "trub_chiller_loss_liters".to_owned())]
    );
    assert_eq!(get(&app, &acct, &path).await["batch_size_liters"], 10.0);

    // Another account sees nothing.
    let other = app.account().await;
    let (status, _) = call(app.with_key(Method::GET, &path, &other.key)).await;
    assert_eq!(status, 404);
    let (status, _) = call(app.with_key(Method::DELETE, &path, &other.key)).await;
    assert_eq!(status, 404);

    let (status, _) = call(app.with_key(Method::DELETE, &path, &acct.key)).await;
    assert_eq!(status, 204);
    let (status, _) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(status, 404);
    app.stop().await;
}

#[tokio::test]
async fn physically_impossible_profiles_are_refused_with_every_field_named() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, body) = call(app.with_key(Method::POST, "/v1/equipment", &acct.key).json(
        &json!({
            "name": "Impossible",
            "batch_size_liters": 20,
            "boil_off_liters_per_hour": -1,
            "hop_utilization_percent": 250,
            "fermenter_loss_liters": 25
        }),
    ))
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        issue_codes(&body),
        [
            (
                "too_small".to_owned(),
                "boil_off_liters_per_hour".to_owned()
            ),
            ("too_big".to_owned(), "hop_utilization_percent".to_owned()),
        ],
        "bounds first, in the HTTP reader"
    );
    // Within every bound, but a loss larger than the batch.
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/equipment", &acct.key)
            .json(&json!({"name": "Leaky", "batch_size_liters": 20, "fermenter_loss_liters": 25})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        issue_codes(&body),
        [("custom".to_owned(), "fermenter_loss_liters".to_owned())]
    );
    assert_eq!(body["details"][0]["maximum"], 20);
    // Required fields.
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/equipment", &acct.key)
            .json(&json!({})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_type".to_owned(), "name".to_owned()),
            ("invalid_type".to_owned(), "batch_size_liters".to_owned()),
        ]
    );
    let (_, list) = call(app.with_key(Method::GET, "/v1/equipment", &acct.key)).await;
    assert_eq!(list, json!([]), "nothing half-written");
    app.stop().await;
}

#[tokio::test]
async fn a_recipe_names_only_its_own_profile_and_a_known_style() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let theirs = post(&app, &other, "/v1/equipment", kit()).await;
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "IPA", "equipment_id": theirs["id"]})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        issue_codes(&body),
        [("custom".to_owned(), "equipment_id".to_owned())]
    );
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "IPA", "style_id": "99Z"})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        issue_codes(&body),
        [("custom".to_owned(), "style_id".to_owned())]
    );

    let mine = post(&app, &acct, "/v1/equipment", kit()).await;
    let recipe = post(
        &app,
        &acct,
        "/v1/recipes",
        json!({"name": "IPA", "equipment_id": mine["id"], "style_id": "21A"}),
    )
    .await;
    assert_eq!(recipe["equipment_id"], mine["id"]);
    assert_eq!(recipe["style_id"], "21A");
    let path = format!("/v1/recipes/{}", recipe["id"].as_str().unwrap());
    let (status, body) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"equipment_id": theirs["id"]})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(get(&app, &acct, &path).await["equipment_id"], mine["id"]);
    let (status, cleared) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"equipment_id": null, "style_id": null})),
    )
    .await;
    assert_eq!(status, 200, "{cleared}");
    assert_eq!(cleared["equipment_id"], Value::Null);
    assert_eq!(cleared["style_id"], Value::Null);
    app.stop().await;
}

#[tokio::test]
async fn stats_add_volumes_and_style_fit_only_when_named() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let plain = pale_ale(&app, &acct, json!({})).await;
    let stats = get(&app, &acct, &format!("/v1/recipes/{plain}/stats")).await;
    assert_eq!(stats["volumes"], Value::Null);
    assert_eq!(stats["style_fit"], Value::Null);
    // The plain statistics, unchanged: 5 kg × 80 % × 0.72 over 20 L.
    assert_eq!(stats["og"], 1.0555);

    let profile = post(&app, &acct, "/v1/equipment", kit()).await;
    let with = pale_ale(
        &app,
        &acct,
        json!({"equipment_id": profile["id"], "style_id": "18B"}),
    )
    .await;
    let stats = get(&app, &acct, &format!("/v1/recipes/{with}/stats")).await;
    let v = &stats["volumes"];
    // docs/calculations.md's worked example.
    assert_eq!(v["into_fermenter_liters"], 20.0, "{v}");
    assert_eq!(v["post_boil_liters"], 21.5);
    assert_eq!(v["pre_boil_liters"], 24.5);
    assert_eq!(v["strike_water_liters"], 14.5);
    assert_eq!(v["sparge_water_liters"], 16.0);
    let og = stats["og"].as_f64().unwrap();
    assert!(og < 1.0555, "the trub loss spreads the sugar thinner: {og}");
    let pre_boil = v["pre_boil_gravity"].as_f64().unwrap();
    assert!(pre_boil > 1.0 && pre_boil < og, "{pre_boil} < {og}");

    let fit = &stats["style_fit"];
    // The fit is judged on the values as a brewer reads them: OG to 0.001, IBU to 1.
    let shown = |x: &Value, scale: f64| (x.as_f64().unwrap() * scale).round() / scale;
    assert_eq!(fit["og"]["value"], shown(&stats["og"], 1000.0));
    assert_eq!(fit["og"]["min"], 1.045, "18B American Pale Ale: {fit}");
    assert_eq!(fit["og"]["max"], 1.06);
    assert_eq!(fit["og"]["in_range"], true);
    assert_eq!(fit["og"]["position"], "in_range");
    assert_eq!(fit["ibu"]["value"], shown(&stats["ibu"], 1.0));
    for key in ["og", "fg", "ibu", "color_srm", "abv"] {
        assert!(fit[key]["in_range"].is_boolean(), "{key}: {fit}");
    }

    // A profile in use cannot be deleted; the recipe keeps it.
    let profile_path = format!("/v1/equipment/{}", profile["id"].as_str().unwrap());
    let (status, body) = call(app.with_key(Method::DELETE, &profile_path, &acct.key)).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["details"][0]["message"]
            .as_str()
            .unwrap()
            .contains("used by 1 recipe"),
        "{body}"
    );
    get(&app, &acct, &profile_path).await;

    // The kettle's utilisation scales the IBU.
    let (status, _) = call(
        app.with_key(Method::PATCH, &profile_path, &acct.key)
            .json(&json!({"hop_utilization_percent": 50})),
    )
    .await;
    assert_eq!(status, 200);
    let half = get(&app, &acct, &format!("/v1/recipes/{with}/stats")).await;
    let ratio = half["ibu"].as_f64().unwrap() / stats["ibu"].as_f64().unwrap();
    assert!((ratio - 0.5).abs() < 0.01, "{ratio}");
    app.stop().await;
}

#[tokio::test]
async fn hop_form_multiplies_utilisation_by_brewtargets_factors() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let id = pale_ale(&app, &acct, json!({})).await;
    let stats_path = format!("/v1/recipes/{id}/stats");
    let leafless = get(&app, &acct, &stats_path).await["ibu"].as_f64().unwrap();
    let recipe = get(&app, &acct, &format!("/v1/recipes/{id}")).await;
    let hop = recipe["hops"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(recipe["hops"][0]["form"], Value::Null);
    let hop_path = format!("/v1/hops/{hop}");
    for (form, factor) in [
        ("pellet", 1.10),
        ("plug", 1.02),
        ("leaf", 1.0),
        ("extract", 1.0),
    ] {
        let (status, h) = call(
            app.with_key(Method::PATCH, &hop_path, &acct.key)
                .json(&json!({"form": form})),
        )
        .await;
        assert_eq!(status, 200, "{h}");
        assert_eq!(h["form"], form);
        let ibu = get(&app, &acct, &stats_path).await["ibu"].as_f64().unwrap();
        assert!(
            (ibu / leafless - factor).abs() < 0.005,
            "{form}: {ibu} vs {leafless}"
        );
    }
    let (status, body) = call(
        app.with_key(Method::PATCH, &hop_path, &acct.key)
            .json(&json!({"form": "cryo"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("invalid_enum_value".to_owned(), "form".to_owned())]
    );
    app.stop().await;
}

#[tokio::test]
async fn styles_are_listed_and_read_by_any_credential() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let list = get(&app, &acct, "/v1/styles").await;
    let list = list.as_array().unwrap();
    assert!(list.len() > 100, "{}", list.len());
    let ipa = get(&app, &acct, "/v1/styles/21A").await;
    assert_eq!(ipa["name"], "American IPA");
    assert_eq!(ipa["og"], json!({"min": 1.056, "max": 1.07}));
    assert!(ipa.get("description").is_none(), "numbers only");
    let (status, _) = call(app.with_key(Method::GET, "/v1/styles/99Z", &acct.key)).await;
    assert_eq!(status, 404);
    let (status, body) = call(app.with_key(Method::GET, "/v1/styles/21A%20x", &acct.key)).await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = call(app.request(Method::GET, "/v1/styles")).await;
    assert_eq!(status, 401);
    app.stop().await;
}

#[tokio::test]
async fn scaling_keeps_og_and_ibu_and_refuses_impossible_sizes() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let profile = post(&app, &acct, "/v1/equipment", kit()).await;
    let id = pale_ale(&app, &acct, json!({"equipment_id": profile["id"]})).await;
    let before = get(&app, &acct, &format!("/v1/recipes/{id}/stats")).await;
    let scale = format!("/v1/recipes/{id}/scale");
    let scaled = post(
        &app,
        &acct,
        &scale,
        json!({"batch_size_liters": 45, "efficiency": 0.8}),
    )
    .await;
    assert_eq!(scaled["name"], "Pale Ale (45 L)");
    assert_eq!(scaled["batch_size_liters"], 45.0);
    assert_eq!(scaled["efficiency"], 0.8);
    assert_eq!(scaled["equipment_id"], profile["id"]);
    assert_eq!(scaled["hops"].as_array().unwrap().len(), 1);
    assert_eq!(scaled["mash_steps"].as_array().unwrap().len(), 1);
    let kg = scaled["fermentables"][0]["amount_kg"].as_f64().unwrap();
    assert!(kg > 5.0 && kg < 11.25, "solved, not multiplied: {kg}");
    let after = get(
        &app,
        &acct,
        &format!("/v1/recipes/{}/stats", scaled["id"].as_str().unwrap()),
    )
    .await;
    let og = |s: &Value| s["og"].as_f64().unwrap();
    let ibu = |s: &Value| s["ibu"].as_f64().unwrap();
    assert!(
        (og(&after) - og(&before)).abs() <= 0.001,
        "{after} vs {before}"
    );
    assert!(
        (ibu(&after) / ibu(&before) - 1.0).abs() <= 0.01,
        "{after} vs {before}"
    );
    // The default name gives the size in the caller's units.
    let (status, _) = call(
        app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
            .json(&json!({"amounts": "us"})),
    )
    .await;
    assert_eq!(status, 200);
    let us = post(&app, &acct, &scale, json!({"batch_size_liters": 18.927})).await;
    assert_eq!(us["name"], "Pale Ale (5.00 gal)");

    for (batch, code) in [(0.0, "too_small"), (10_000.0, "too_big")] {
        let (status, body) = call(
            app.with_key(Method::POST, &scale, &acct.key)
                .json(&json!({"batch_size_liters": batch})),
        )
        .await;
        assert_eq!(status, 422, "{batch}: {body}");
        assert_eq!(
            issue_codes(&body),
            [(code.to_owned(), "batch_size_liters".to_owned())]
        );
    }
    let other = app.account().await;
    let (status, _) = call(
        app.with_key(Method::POST, &scale, &other.key)
            .json(&json!({"batch_size_liters": 10})),
    )
    .await;
    assert_eq!(status, 404, "another account's recipe");
    let (status, _) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/recipes/{}/scale", random_id()),
            &acct.key,
        )
        .json(&json!({"batch_size_liters": 10})),
    )
    .await;
    assert_eq!(status, 404);
    let (_, list) = call(app.with_key(Method::GET, "/v1/recipes", &acct.key)).await;
    assert_eq!(
        list.as_array().unwrap().len(),
        3,
        "only the two scaled recipes were added"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_brew_day_checklist_uses_the_profiles_volumes() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let profile = post(&app, &acct, "/v1/equipment", kit()).await;
    let id = pale_ale(&app, &acct, json!({"equipment_id": profile["id"]})).await;
    let session = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": id, "brew_date": "2026-11-28"}),
    )
    .await;
    let sid = session["id"].as_str().unwrap();
    let steps = get(&app, &acct, &format!("/v1/sessions/{sid}/steps")).await;
    let steps = steps.as_array().unwrap();
    let step = |title: &str| {
        steps
            .iter()
            .find(|s| s["title"] == title)
            .unwrap_or_else(|| panic!("no step {title:?}: {steps:?}"))
    };
    let strike = step("Heat strike water")["description"].as_str().unwrap();
    assert!(
        strike.starts_with("Heat 14.5 L of strike water to 73 °C for a 66 °C rest"),
        "{strike}"
    );
    let sparge = step("Sparge and lauter")["description"].as_str().unwrap();
    assert_eq!(sparge, "Sparge with 16 L of water; collect 24.5 L of wort.");
    let check = step("Check the pre-boil volume and gravity")["description"]
        .as_str()
        .unwrap();
    assert!(check.starts_with("Expect 24.5 L at 1.0"), "{check}");
    assert_eq!(
        step("Transfer to the fermenter")["description"],
        "20 L into the fermenter."
    );
    // The snapshot's stats are what /stats said, volumes included.
    let stats = get(&app, &acct, &format!("/v1/recipes/{id}/stats")).await;
    assert_eq!(session["recipe_snapshot"]["stats"], stats);

    // Without a profile the checklist is as it always was.
    let plain = pale_ale(&app, &acct, json!({})).await;
    let session = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": plain, "brew_date": "2026-11-28"}),
    )
    .await;
    let sid = session["id"].as_str().unwrap();
    let steps = get(&app, &acct, &format!("/v1/sessions/{sid}/steps")).await;
    let titles: Vec<&str> = steps
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["title"].as_str().unwrap())
        .collect();
    assert!(!titles.contains(&"Check the pre-boil volume and gravity"));
    app.stop().await;
}

#[tokio::test]
async fn a_hop_stands_temperature_sets_its_bitterness() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let id = pale_ale(&app, &acct, json!({})).await;
    let stand = post(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/hops"),
        json!({"name": "Citra", "alpha_acid": 12, "amount_grams": 100, "time_minutes": 30,
               "use": "whirlpool", "temperature_c": 80}),
    )
    .await;
    assert_eq!(stand["temperature_c"], 80.0);
    let hop_path = format!("/v1/hops/{}", stand["id"].as_str().unwrap());
    let ibu_of_stand = |stats: &Value| {
        stats["ibu_by_hop"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["hop_id"] == stand["id"])
            .unwrap()["ibu"]
            .as_f64()
            .unwrap()
    };
    let stats_path = format!("/v1/recipes/{id}/stats");
    let at_80 = ibu_of_stand(&get(&app, &acct, &stats_path).await);
    // Without a temperature, a quarter of the stand's minutes counts as boiling (7.5 of 30);
    // at 80 °C the isomerisation rate is 0.165 of boiling's (4.9 minutes): less bitterness.
    let (status, _) = call(
        app.with_key(Method::PATCH, &hop_path, &acct.key)
            .json(&json!({"temperature_c": null})),
    )
    .await;
    assert_eq!(status, 200);
    let unknown = ibu_of_stand(&get(&app, &acct, &stats_path).await);
    assert!(at_80 > 0.0 && at_80 < unknown, "{at_80} < {unknown}");
    // At 60 °C or below nothing isomerises.
    let (status, _) = call(
        app.with_key(Method::PATCH, &hop_path, &acct.key)
            .json(&json!({"temperature_c": 60})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(ibu_of_stand(&get(&app, &acct, &stats_path).await), 0.0);
    // Past boiling is refused at the field.
    let (status, body) = call(
        app.with_key(Method::PATCH, &hop_path, &acct.key)
            .json(&json!({"temperature_c": 101})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["details"][0]["path"], json!(["temperature_c"]));
    app.stop().await;
}
