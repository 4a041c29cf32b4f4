//! Imports keep the file's meaning (water agents, EBC colours, equipment) and fermentables say
//! when they go in (`added`), end to end.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, TestApp, call, get, issue_codes};

const WATER_AGENTS: &[u8] =
    include_bytes!("../../../interchange/tests/data/files/constructed_water_agents.xml");
const AUSSIE_ALE: &[u8] =
    include_bytes!("../../../interchange/tests/data/files/bx_beersmith_aussie_ale.xml");
const EQUIPMENT_JSON: &[u8] =
    include_bytes!("../../../interchange/tests/data/files/constructed_equipment.json");

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

async fn import(app: &TestApp, acct: &Account, query: &str, ct: &str, body: &[u8]) -> Value {
    let (status, v) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/recipes/import{query}"),
            &acct.key,
        )
        .header("Content-Type", ct)
        .body(body.to_vec()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[tokio::test]
async fn imported_salts_count_in_the_water_and_equipment_comes_along_once() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let answer = import(&app, &acct, "", "application/xml", WATER_AGENTS).await;
    let recipe = &answer["recipes"][0];
    let additions = recipe["water_additions"].as_array().unwrap();
    assert_eq!(additions.len(), 8, "{recipe}");
    assert_eq!(additions[0]["agent"], "calcium_chloride");
    assert_eq!(additions[3]["step"], "sparge");
    assert_eq!(additions[6]["agent"], "lactic_acid");
    assert_eq!(additions[6]["strength_percent"], 88.0);
    let miscs: Vec<&str> = (recipe["miscs"].as_array().unwrap().iter())
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(miscs, ["Burton Salts", "Polyclar Brewbrite"]);
    // The sugar after the boil is a fermenter addition.
    assert_eq!(recipe["fermentables"][1]["added"], "fermenter");

    // The recipe is linked to the file's equipment, now one of the account's profiles.
    let equipment_id = recipe["equipment_id"].as_str().unwrap().to_owned();
    let kit = get(&app, &acct, &format!("/v1/equipment/{equipment_id}")).await;
    assert_eq!(kit["name"], "Grainfather");
    assert!((num(&kit["boil_off_liters_per_hour"]) - 3.0).abs() < 1e-9);

    // The water: calcium, magnesium, sulfate and chloride from the salts (no source water: RO).
    let id = recipe["id"].as_str().unwrap();
    let water = get(&app, &acct, &format!("/v1/recipes/{id}/water")).await;
    let mash = &water["mash"]["ions"];
    for ion in ["calcium", "magnesium", "sulfate", "chloride"] {
        assert!(num(&mash[ion]) > 5.0, "{ion}: {water}");
    }
    // Gypsum outweighs calcium chloride: more sulfate than chloride.
    assert!(num(&mash["sulfate"]) > num(&mash["chloride"]), "{water}");
    // The boil's salt counts overall, not in the mash.
    assert_eq!(num(&mash["sodium"]), 0.0, "{water}");
    assert!(num(&water["overall"]["ions"]["sodium"]) > 0.0, "{water}");
    assert_eq!(water["volumes_from"], "equipment", "{water}");

    // Importing the same file again reuses the identical profile.
    let again = import(&app, &acct, "", "application/xml", WATER_AGENTS).await;
    assert_eq!(again["recipes"][0]["equipment_id"], recipe["equipment_id"]);
    let profiles = get(&app, &acct, "/v1/equipment").await;
    assert_eq!(profiles.as_array().unwrap().len(), 1, "{profiles}");

    // A BeerJSON file with one recipe and one profile links them too.
    let j = import(&app, &acct, "", "application/json", EQUIPMENT_JSON).await;
    let linked = j["recipes"][0]["equipment_id"].as_str().unwrap().to_owned();
    assert_ne!(linked, equipment_id);
    let profiles = get(&app, &acct, "/v1/equipment").await;
    assert_eq!(profiles.as_array().unwrap().len(), 2, "{profiles}");
}

#[tokio::test]
async fn ebc_colours_are_read_as_the_query_says() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let srm_of = |v: &Value| num(&v["recipes"][0]["est_color_srm"]);
    // auto: the file's 16.8 EBC (8.5 SRM) agrees with the grist as EBC.
    let auto = import(&app, &acct, "", "application/xml", AUSSIE_ALE).await;
    assert!((srm_of(&auto) - 8.5).abs() <= 2.0, "{}", srm_of(&auto));
    assert!(auto["warnings"].as_array().unwrap().iter().any(|w| {
        w["message"]
            .as_str()
            .unwrap()
            .starts_with("fermentable colours read as EBC")
    }));
    let srm = import(
        &app,
        &acct,
        "?fermentable_color=srm",
        "application/xml",
        AUSSIE_ALE,
    )
    .await;
    assert_eq!(srm_of(&srm), 14.7);
    let ebc = import(
        &app,
        &acct,
        "?fermentable_color=ebc",
        "application/xml",
        AUSSIE_ALE,
    )
    .await;
    assert_eq!(srm_of(&ebc), srm_of(&auto));
    // Another value: 400 in the contract's shape, before the body is read, nothing created.
    let (status, body) = call(
        app.with_key(
            Method::POST,
            "/v1/recipes/import?fermentable_color=lovibond",
            &acct.key,
        )
        .header("Content-Type", "application/xml")
        .body(AUSSIE_ALE.to_vec()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("fermentable_color"),
        "{body}"
    );
    let list = get(&app, &acct, "/v1/recipes").await;
    assert_eq!(list.as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn fermentables_say_when_they_go_in_and_the_gravities_follow() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, kit) = send(
        &app,
        &acct,
        Method::POST,
        "/v1/equipment",
        Some(
            json!({"name": "Kit", "batch_size_liters": 20, "boil_off_liters_per_hour": 3,
            "trub_chiller_loss_liters": 0, "mash_tun_deadspace_liters": 0,
            "top_up_water_liters": 0, "fermenter_loss_liters": 0}),
        ),
    )
    .await;
    let (_, recipe) = send(
        &app,
        &acct,
        Method::POST,
        "/v1/recipes",
        Some(
            json!({"name": "Sugar late", "batch_size_liters": 20, "efficiency": 0.72,
            "equipment_id": kit["id"]}),
        ),
    )
    .await;
    let id = recipe["id"].as_str().unwrap();
    let add = |body: Value| {
        let path = format!("/v1/recipes/{id}/fermentables");
        let app = &app;
        let acct = &acct;
        async move {
            let (status, v) = send(app, acct, Method::POST, &path, Some(body)).await;
            assert_eq!(status, StatusCode::CREATED, "{v}");
            v
        }
    };
    let grain =
        add(json!({"name": "Pale", "amount_kg": 5, "color_srm": 3, "yield_percent": 80})).await;
    assert_eq!(grain["added"], "mash", "the type's default");
    let sugar = add(
        json!({"name": "Dextrose", "type": "sugar", "amount_kg": 1, "color_srm": 0,
        "yield_percent": 100}),
    )
    .await;
    assert_eq!(sugar["added"], "boil", "the type's default");
    let (_, yeast) = send(
        &app,
        &acct,
        Method::POST,
        &format!("/v1/recipes/{id}/yeasts"),
        Some(json!({"name": "US-05", "attenuation": 75})),
    )
    .await;
    assert_eq!(yeast["name"], "US-05");
    let stats_path = format!("/v1/recipes/{id}/stats");
    // 5 kg grain at 80 % × 0.72 and 1 kg sugar in 20 L: 55.5323 + 19.2820 = 74.8143 points.
    // Pre-boil over 23 L (20 + 3 L/h × 1 h): 74.8143 × 20/23 = 65.0559 → 1.0651.
    let boil = get(&app, &acct, &stats_path).await;
    assert_eq!(boil["og"], 1.0748);
    assert_eq!(boil["volumes"]["pre_boil_gravity"], 1.0651);
    let sugar_path = format!("/v1/fermentables/{}", sugar["id"].as_str().unwrap());
    let (status, v) = send(
        &app,
        &acct,
        Method::PATCH,
        &sugar_path,
        Some(json!({"added": "late_boil"})),
    )
    .await;
    assert_eq!((status, &v["added"]), (StatusCode::OK, &json!("late_boil")));
    // Late in the boil: the same OG, the pre-boil gravity without it (55.5323 × 20/23 → 1.0483).
    let late = get(&app, &acct, &stats_path).await;
    assert_eq!(late["og"], 1.0748);
    assert_eq!(late["volumes"]["pre_boil_gravity"], 1.0483);
    // In the fermenter: OG 1.0555, FG 1.0139, ABV (1.0555323 + 0.019282 − 1.0138831) × 131.25
    // = 8.00.
    send(
        &app,
        &acct,
        Method::PATCH,
        &sugar_path,
        Some(json!({"added": "fermenter"})),
    )
    .await;
    let fermenter = get(&app, &acct, &stats_path).await;
    assert_eq!(
        (&fermenter["og"], &fermenter["fg"], &fermenter["abv"]),
        (&json!(1.0555), &json!(1.0139), &json!(8.0))
    );
    // A word the API does not know is a 422 at the field.
    let (status, body) = send(
        &app,
        &acct,
        Method::PATCH,
        &sugar_path,
        Some(json!({"added": "whirlpool"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        issue_codes(&body)
            .iter()
            .any(|(code, path)| code == "invalid_enum_value" && path.contains("added")),
        "{body}"
    );
}
