//! The fast paths answer what the plain ones answer (docs/architecture.md, "The performance
//! layer, fenced").
//!
//! A recipe read gathers its seven lists in one statement, each list a `json` column read by serde
//! into the same row structs, where each list's own endpoint reads its table with a plain diesel
//! query. A page of readings is JSON written by hand, where one reading is serde's derived
//! `Serialize`. Both pairs must agree field for field, on awkward values too: text that needs
//! escaping, numbers at their bounds' edges, fractions, nulls and several items in order.

use serde_json::{Value, json};

use crate::support::{TestApp, get, post};

const AWKWARD: &str = "Ünïcode \"quoted\" \\ back\u{1F37A}\ttab";

#[tokio::test]
async fn the_recipe_read_in_one_statement_gives_what_each_list_gives() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = post(&app, &acct, "/v1/recipes", json!({"name": AWKWARD})).await;
    let id = recipe["id"].as_str().unwrap().to_owned();
    let children: [(&str, &str, Vec<Value>); 7] = [
        (
            "fermentables",
            "fermentables",
            vec![
                json!({"name": AWKWARD, "amount_kg": 4.123456789, "color_srm": 2.5, "yield_percent": 80.25, "notes": null}),
                json!({"name": "Crystal 60", "amount_kg": 0.001, "color_srm": 60, "yield_percent": 74, "added": "late_boil"}),
            ],
        ),
        (
            "hops",
            "hops",
            vec![
                json!({"name": "Saaz", "alpha_acid": 3.25, "amount_grams": 28.349523125, "time_minutes": 60}),
                json!({"name": AWKWARD, "alpha_acid": 12, "amount_grams": 0.5, "time_minutes": 0, "use": "dry_hop"}),
            ],
        ),
        (
            "yeasts",
            "yeasts",
            vec![json!({"name": AWKWARD, "attenuation_percent": 77.7})],
        ),
        (
            "miscs",
            "miscs",
            vec![json!({"name": "Irish moss", "amount": 1.0e-3, "unit": "tsp"})],
        ),
        (
            "mash_steps",
            "mash-steps",
            vec![
                json!({"name": "Protein rest", "temperature_c": 52.5, "duration_minutes": 15}),
                json!({"name": AWKWARD, "temperature_c": 66, "duration_minutes": 60}),
            ],
        ),
        (
            "water_additions",
            "water-additions",
            vec![json!({"agent": "gypsum", "amount": 2.75})],
        ),
        (
            "fermentation_steps",
            "fermentation-steps",
            vec![
                json!({"name": "Primary", "temperature_c": 19.5, "days": 10}),
                json!({"name": AWKWARD, "temperature_c": 2, "days": 3}),
            ],
        ),
    ];
    for (_, path, bodies) in &children {
        for body in bodies {
            post(
                &app,
                &acct,
                &format!("/v1/recipes/{id}/{path}"),
                body.clone(),
            )
            .await;
        }
    }
    let detail = get(&app, &acct, &format!("/v1/recipes/{id}")).await;
    for (key, path, bodies) in &children {
        let list = get(&app, &acct, &format!("/v1/recipes/{id}/{path}")).await;
        assert_eq!(list.as_array().map(Vec::len), Some(bodies.len()), "{key}");
        assert_eq!(
            detail[key], list,
            "{key}: the recipe read and the list disagree"
        );
        // And each item as its own endpoint reads it.
        for item in list.as_array().unwrap() {
            let one = get(
                &app,
                &acct,
                &format!("/v1/{path}/{}", item["id"].as_str().unwrap()),
            )
            .await;
            assert_eq!(&one, item, "{key}");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn a_page_of_readings_written_by_hand_gives_what_serde_gives() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = post(&app, &acct, "/v1/recipes", json!({"name": "Readings"})).await;
    let session = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": recipe["id"], "brew_date": "2026-12-01"}),
    )
    .await;
    let sid = session["id"].as_str().unwrap();
    let readings = [
        json!({"gravity": 1.0523456, "temperature_c": 19.25, "logged_at": "2026-12-01T10:00:00.123Z"}),
        json!({"gravity": 1.0504, "gravity_unit": "plato", "logged_at": "2026-12-02T10:00:00Z"}),
        json!({"temperature_c": -1.5, "ph": 4.21, "notes": AWKWARD, "logged_at": "2026-12-03T10:00:00Z"}),
        json!({"notes": "", "gravity": 1.0, "logged_at": "2026-12-04T23:59:59.999Z"}),
    ];
    for body in &readings {
        post(
            &app,
            &acct,
            &format!("/v1/sessions/{sid}/fermentation-logs"),
            body.clone(),
        )
        .await;
    }
    let page = get(
        &app,
        &acct,
        &format!("/v1/sessions/{sid}/fermentation-logs"),
    )
    .await;
    let page = page.as_array().unwrap();
    assert_eq!(page.len(), readings.len());
    for item in page {
        let one = get(
            &app,
            &acct,
            &format!("/v1/fermentation-logs/{}", item["id"].as_str().unwrap()),
        )
        .await;
        assert_eq!(&one, item);
    }
    app.stop().await;
}
