//! Recipe checks (`GET /v1/recipes/{id}/checks` and every import report), full-volume mashing
//! with a mash tun's capacity, and hop-stand temperatures refused where nothing uses them.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, TestApp, call, get, issue_codes, post, random_id};

async fn patch(app: &TestApp, acct: &Account, path: &str, body: Value) -> Value {
    let (status, v) = call(app.with_key(Method::PATCH, path, &acct.key).json(&body)).await;
    assert_eq!(status, StatusCode::OK, "{path}: {v}");
    v
}

async fn checks(app: &TestApp, acct: &Account, recipe: &str) -> Vec<Value> {
    get(app, acct, &format!("/v1/recipes/{recipe}/checks")).await["checks"]
        .as_array()
        .unwrap()
        .clone()
}

fn codes(checks: &[Value]) -> Vec<&str> {
    checks.iter().map(|c| c["code"].as_str().unwrap()).collect()
}

fn find<'a>(checks: &'a [Value], code: &str) -> &'a Value {
    checks
        .iter()
        .find(|c| c["code"] == code)
        .unwrap_or_else(|| panic!("no {code}: {checks:?}"))
}

/// A 25 L all-grain recipe: 5 kg of pale malt, a 60-minute hop, a yeast and a 66 °C rest.
async fn sound_recipe(app: &TestApp, acct: &Account, extra: Value) -> String {
    let mut body = json!({"name": "Pale", "batch_size_liters": 25, "boil_time_minutes": 60});
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let id = post(app, acct, "/v1/recipes", body).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for (kind, child) in [
        (
            "fermentables",
            json!({"name": "Pale malt", "amount_kg": 5, "color_srm": 3, "yield_percent": 80}),
        ),
        (
            "hops",
            json!({"name": "Magnum", "alpha_acid": 12, "amount_grams": 30, "time_minutes": 60}),
        ),
        ("yeasts", json!({"name": "US-05", "attenuation": 78})),
        (
            "mash-steps",
            json!({"name": "Rest", "temperature_c": 66, "duration_minutes": 60}),
        ),
    ] {
        post(app, acct, &format!("/v1/recipes/{id}/{kind}"), child).await;
    }
    id
}

#[tokio::test]
async fn checks_point_at_the_field_and_speak_the_callers_units() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    // A new recipe: nothing to brew yet.
    let empty = post(&app, &acct, "/v1/recipes", json!({"name": "New"})).await;
    let empty_id = empty["id"].as_str().unwrap();
    let found = checks(&app, &acct, empty_id).await;
    assert_eq!(
        codes(&found),
        ["no_fermentables", "no_yeast", "no_mash_steps"]
    );
    assert_eq!(find(&found, "no_fermentables")["severity"], "error");
    assert_eq!(find(&found, "no_yeast")["path"], json!(["yeasts"]));

    // A sound recipe has none.
    let id = sound_recipe(&app, &acct, json!({})).await;
    assert_eq!(checks(&app, &acct, &id).await, Vec::<Value>::new());

    // The issue's cases: a 90-minute hop in a 60-minute boil, 1 kg of hops at 30 min in 25 L.
    let long = post(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/hops"),
        json!({"name": "Hallertau", "alpha_acid": 4, "amount_grams": 20, "time_minutes": 90}),
    )
    .await;
    post(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/hops"),
        json!({"name": "Tettnang", "alpha_acid": 4, "amount_grams": 1000, "time_minutes": 30}),
    )
    .await;
    patch(
        &app,
        &acct,
        &format!("/v1/recipes/{id}"),
        json!({"efficiency": 0.45}),
    )
    .await;
    let found = checks(&app, &acct, &id).await;
    assert_eq!(
        codes(&found),
        [
            "efficiency_unusual",
            "hop_time_exceeds_boil",
            "hop_rate_high"
        ]
    );
    let time = find(&found, "hop_time_exceeds_boil");
    assert_eq!(
        time["path"],
        json!(["hops", long["id"], "time_minutes"]),
        "the hop named by its id"
    );
    assert_eq!(time["severity"], "warning");
    assert_eq!(
        time["message"],
        "Hallertau: 90 min is longer than the 60 min boil; it is counted, and added, at 60 min."
    );
    // 1050 g in 25 L = 42 g/L.
    let rate = find(&found, "hop_rate_high")["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(rate.contains("42 g/L of batch, more than 25 g/L"), "{rate}");
    assert_eq!(find(&found, "efficiency_unusual")["severity"], "info");
    assert_eq!(
        find(&found, "efficiency_unusual")["path"],
        json!(["efficiency"])
    );

    // In US units: 42 g/L = 5.61 oz/gal; the API's numbers stay metric elsewhere.
    let (status, _) = call(
        app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
            .json(&json!({"amounts": "us"})),
    )
    .await;
    assert_eq!(status, 200);
    let found = checks(&app, &acct, &id).await;
    let rate = find(&found, "hop_rate_high")["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        rate.starts_with("2.31 lb of hops")
            && rate.contains("5.61 oz/gal of batch, more than 3.34 oz/gal"),
        "{rate}"
    );

    // Fixing the recipe takes the checks away.
    patch(
        &app,
        &acct,
        &format!("/v1/hops/{}", long["id"].as_str().unwrap()),
        json!({"time_minutes": 60}),
    )
    .await;
    patch(
        &app,
        &acct,
        &format!("/v1/recipes/{id}"),
        json!({"efficiency": 0.72}),
    )
    .await;
    assert_eq!(codes(&checks(&app, &acct, &id).await), ["hop_rate_high"]);

    // Another account's recipe, or none, is 404; a malformed id 400; no credential 401.
    let other = app.account().await;
    let (status, _) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{id}/checks"), &other.key)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = call(app.with_key(
        Method::GET,
        &format!("/v1/recipes/{}/checks", random_id()),
        &acct.key,
    ))
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = call(app.with_key(Method::GET, "/v1/recipes/nope/checks", &acct.key)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(app.request(Method::GET, &format!("/v1/recipes/{id}/checks"))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    app.stop().await;
}

#[tokio::test]
async fn water_ion_high_follows_the_mash_water_after_additions() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let id = sound_recipe(&app, &acct, json!({})).await;
    // 25 L of distilled water (no profile): 30 g of gypsum gives 0.2328 × 30000/25 = 279 mg/L of
    // calcium and 670 mg/L of sulfate.
    let gypsum = post(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/water-additions"),
        json!({"agent": "gypsum", "amount": 30}),
    )
    .await;
    let water = get(&app, &acct, &format!("/v1/recipes/{id}/water")).await;
    let found = checks(&app, &acct, &id).await;
    let ions: Vec<&str> = found
        .iter()
        .filter(|c| c["code"] == "water_ion_high")
        .map(|c| c["message"].as_str().unwrap())
        .collect();
    assert_eq!(ions.len(), 2, "{found:?}");
    assert!(
        ions[0].starts_with("Calcium in the mash water is"),
        "{ions:?}"
    );
    assert!(
        ions[1].starts_with("Sulfate in the mash water is"),
        "{ions:?}"
    );
    // The same chemistry as the /water answer.
    let calcium = water["mash"]["ions"]["calcium"].as_f64().unwrap();
    assert!(calcium > 250.0, "{water}");
    assert!(
        ions[0].contains(&format!("{} mg/L", calcium.round())),
        "{ions:?} vs {calcium}"
    );
    assert_eq!(
        find(&found, "water_ion_high")["path"],
        json!(["water_additions"])
    );
    // 5 g is within every limit.
    patch(
        &app,
        &acct,
        &format!("/v1/water-additions/{}", gypsum["id"].as_str().unwrap()),
        json!({"amount": 5}),
    )
    .await;
    assert!(!codes(&checks(&app, &acct, &id).await).contains(&"water_ion_high"));
    app.stop().await;
}

#[tokio::test]
async fn a_full_volume_mash_puts_all_the_water_in_the_tun() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let kit = json!({
        "name": "All-in-one 35 L",
        "batch_size_liters": 25,
        "boil_off_liters_per_hour": 3,
        "trub_chiller_loss_liters": 1.5,
        "mash_tun_deadspace_liters": 1,
        "mash_method": "full_volume",
        "mash_tun_volume_liters": 35
    });
    let biab = post(&app, &acct, "/v1/equipment", kit.clone()).await;
    assert_eq!(biab["mash_method"], "full_volume");
    assert_eq!(biab["mash_tun_volume_liters"], 35.0);
    let mut sparge_kit = kit.clone();
    sparge_kit["name"] = json!("Three vessels");
    sparge_kit.as_object_mut().unwrap().remove("mash_method");
    let sparge = post(&app, &acct, "/v1/equipment", sparge_kit).await;
    assert_eq!(sparge["mash_method"], "sparge", "the default");

    let id = sound_recipe(&app, &acct, json!({"equipment_id": biab["id"]})).await;
    let stats = get(&app, &acct, &format!("/v1/recipes/{id}/stats")).await;
    // 25 L: post-boil 26.5, pre-boil 29.5, mash water 29.5 + 1 + 5 = 35.5 L, all of it strike.
    assert_eq!(stats["volumes"]["strike_water_liters"], 35.5);
    assert_eq!(stats["volumes"]["sparge_water_liters"], 0.0);
    assert_eq!(stats["volumes"]["mash_thickness_liters_per_kg"], 6.9);
    // 35.5 L + 0.67 × 5 kg = 38.85 L in a 35 L tun.
    let found = checks(&app, &acct, &id).await;
    let over = find(&found, "mash_exceeds_capacity");
    assert_eq!(over["severity"], "error");
    assert_eq!(over["path"], json!(["equipment_id"]));
    assert_eq!(
        over["message"],
        "The mash takes 38.85 L (35.5 L of strike water and 3.35 L of grain) but the mash tun holds 35 L."
    );

    // The brew day heats all the water, cooler (a thinner mash: 0.41/6.9 × 46 + 66 = 68.7 °C)
    // and skips the sparge.
    let session = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": id, "brew_date": "2026-11-29"}),
    )
    .await;
    let sid = session["id"].as_str().unwrap();
    let steps = get(&app, &acct, &format!("/v1/sessions/{sid}/steps")).await;
    let steps = steps.as_array().unwrap();
    let text = |title: &str| {
        steps
            .iter()
            .find(|s| s["title"] == title)
            .unwrap_or_else(|| panic!("no step {title:?}: {steps:?}"))["description"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(
        text("Heat strike water")
            .starts_with("Heat 35.5 L of strike water to 68.7 °C for a 66 °C rest"),
        "{}",
        text("Heat strike water")
    );
    assert!(text("Drain the mash (no sparge)").contains("collect 29.5 L of wort"));
    assert!(!steps.iter().any(|s| s["title"] == "Sparge and lauter"));

    // The same recipe on the sparge kit: 2.7 × 5 + 1 = 14.5 L strike, 21 L sparge, 73 °C.
    patch(
        &app,
        &acct,
        &format!("/v1/recipes/{id}"),
        json!({"equipment_id": sparge["id"]}),
    )
    .await;
    let stats = get(&app, &acct, &format!("/v1/recipes/{id}/stats")).await;
    assert_eq!(stats["volumes"]["strike_water_liters"], 14.5);
    assert_eq!(stats["volumes"]["sparge_water_liters"], 21.0);
    assert_eq!(stats["volumes"]["mash_thickness_liters_per_kg"], 2.7);
    assert!(!codes(&checks(&app, &acct, &id).await).contains(&"mash_exceeds_capacity"));

    // A bigger tun, or none said, and the check goes.
    let biab_path = format!("/v1/equipment/{}", biab["id"].as_str().unwrap());
    patch(
        &app,
        &acct,
        &format!("/v1/recipes/{id}"),
        json!({"equipment_id": biab["id"]}),
    )
    .await;
    patch(
        &app,
        &acct,
        &biab_path,
        json!({"mash_tun_volume_liters": 40}),
    )
    .await;
    assert!(!codes(&checks(&app, &acct, &id).await).contains(&"mash_exceeds_capacity"));
    let cleared = patch(
        &app,
        &acct,
        &biab_path,
        json!({"mash_tun_volume_liters": null}),
    )
    .await;
    assert_eq!(cleared["mash_tun_volume_liters"], Value::Null);

    // Refusals at the field.
    let (status, body) = call(
        app.with_key(Method::PATCH, &biab_path, &acct.key)
            .json(&json!({"mash_method": "decoction", "mash_tun_volume_liters": 0})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_enum_value".to_owned(), "mash_method".to_owned()),
            ("too_small".to_owned(), "mash_tun_volume_liters".to_owned()),
        ]
    );
    app.stop().await;
}

#[tokio::test]
async fn hop_stand_temperatures_are_used_or_refused_never_ignored() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let id = sound_recipe(&app, &acct, json!({})).await;
    let hops = format!("/v1/recipes/{id}/hops");
    // On a boil, first-wort, mash or dry hop a temperature is refused at the field.
    for hop_use in ["boil", "first_wort", "mash", "dry_hop"] {
        let (status, body) = call(app.with_key(Method::POST, &hops, &acct.key).json(&json!({
            "name": "Citra", "alpha_acid": 12, "amount_grams": 50, "time_minutes": 20,
            "use": hop_use, "temperature_c": 80
        })))
        .await;
        assert_eq!(status, 422, "{hop_use}: {body}");
        assert_eq!(
            issue_codes(&body),
            [("custom".to_owned(), "temperature_c".to_owned())],
            "{hop_use}"
        );
    }
    // An aroma hop with a temperature is a stand: its IBU follows the stand model (20 minutes
    // at 80 °C count 3.3 minutes of boil, against 20 minutes of late boil without).
    let aroma = post(
        &app,
        &acct,
        &hops,
        json!({"name": "Citra", "alpha_acid": 12, "amount_grams": 50, "time_minutes": 20,
               "use": "aroma", "temperature_c": 80}),
    )
    .await;
    assert_eq!(aroma["temperature_c"], 80.0);
    let aroma_path = format!("/v1/hops/{}", aroma["id"].as_str().unwrap());
    let ibu = |stats: &Value| {
        stats["ibu_by_hop"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["hop_id"] == aroma["id"])
            .unwrap()["ibu"]
            .as_f64()
            .unwrap()
    };
    let stats_path = format!("/v1/recipes/{id}/stats");
    let stand = ibu(&get(&app, &acct, &stats_path).await);
    patch(&app, &acct, &aroma_path, json!({"temperature_c": null})).await;
    let late_boil = ibu(&get(&app, &acct, &stats_path).await);
    assert!(
        stand > 0.0 && stand < late_boil / 3.0,
        "{stand} vs {late_boil}"
    );

    // A whirlpool hop moved to the boil loses its temperature; moving it with one is refused.
    let pool = post(
        &app,
        &acct,
        &hops,
        json!({"name": "Mosaic", "alpha_acid": 12, "amount_grams": 50, "time_minutes": 20,
               "use": "whirlpool", "temperature_c": 85}),
    )
    .await;
    let pool_path = format!("/v1/hops/{}", pool["id"].as_str().unwrap());
    let to_aroma = patch(&app, &acct, &pool_path, json!({"use": "aroma"})).await;
    assert_eq!(to_aroma["temperature_c"], 85.0, "aroma is a stand too");
    let (status, body) = call(
        app.with_key(Method::PATCH, &pool_path, &acct.key)
            .json(&json!({"use": "boil", "temperature_c": 85})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["details"][0]["path"], json!(["temperature_c"]));
    let moved = patch(&app, &acct, &pool_path, json!({"use": "boil"})).await;
    assert_eq!(
        (moved["use"].clone(), moved["temperature_c"].clone()),
        (json!("boil"), Value::Null)
    );
    let (status, body) = call(
        app.with_key(Method::PATCH, &pool_path, &acct.key)
            .json(&json!({"temperature_c": 85})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        get(&app, &acct, &pool_path).await["temperature_c"],
        Value::Null
    );
    app.stop().await;
}

#[tokio::test]
async fn every_import_report_carries_each_recipes_checks() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    // A German-style file: 1 kg of hops at 30 min in 25 L, a 90-minute hop in a 60-minute boil,
    // and a temperature on a boil hop that a hop stand alone could use.
    let file = "<?xml version=\"1.0\"?><RECIPES><RECIPE><NAME>Hopfenbombe</NAME>\
        <TYPE>All Grain</TYPE><BATCH_SIZE>25</BATCH_SIZE><BOIL_TIME>60</BOIL_TIME>\
        <EFFICIENCY>75</EFFICIENCY>\
        <FERMENTABLES><FERMENTABLE><NAME>Pils</NAME><TYPE>Grain</TYPE><AMOUNT>5</AMOUNT>\
        <YIELD>80</YIELD><COLOR>2</COLOR></FERMENTABLE></FERMENTABLES>\
        <HOPS><HOP><NAME>Hallertauer</NAME><ALPHA>4</ALPHA><AMOUNT>1</AMOUNT><USE>Boil</USE>\
        <TIME>30</TIME><TEMPERATURE>100</TEMPERATURE></HOP>\
        <HOP><NAME>Magnum</NAME><ALPHA>12</ALPHA><AMOUNT>0.02</AMOUNT><USE>Boil</USE>\
        <TIME>90</TIME></HOP></HOPS>\
        <YEASTS><YEAST><NAME>W-34/70</NAME><TYPE>Lager</TYPE><FORM>Dry</FORM>\
        <AMOUNT>0.0115</AMOUNT></YEAST></YEASTS>\
        <MASH><NAME>Mash</NAME><MASH_STEPS><MASH_STEP><NAME>Rest</NAME><TYPE>Infusion</TYPE>\
        <STEP_TEMP>66</STEP_TEMP><STEP_TIME>60</STEP_TIME></MASH_STEP></MASH_STEPS></MASH>\
        </RECIPE></RECIPES>";
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/recipes/import", &acct.key)
            .header("Content-Type", "application/xml")
            .body(file),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let recipe = &body["recipes"][0];
    let found = recipe["checks"].as_array().unwrap().clone();
    assert_eq!(
        codes(&found),
        ["hop_time_exceeds_boil", "hop_rate_high"],
        "{found:?}"
    );
    let magnum = recipe["hops"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == "Magnum")
        .unwrap();
    assert_eq!(
        find(&found, "hop_time_exceeds_boil")["path"],
        json!(["hops", magnum["id"], "time_minutes"])
    );
    // The report's checks are the route's.
    let id = recipe["id"].as_str().unwrap();
    assert_eq!(checks(&app, &acct, id).await, found);
    // The boil hop's temperature was left out, and said so.
    assert!(
        recipe["hops"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["temperature_c"].is_null())
    );
    let warnings = body["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w["path"]
            == json!(["RECIPES", "RECIPE", "0", "HOPS", "HOP", "0", "TEMPERATURE"])
            && w["message"].as_str().unwrap().contains("only a hop stand")),
        "{warnings:?}"
    );
    app.stop().await;
}
