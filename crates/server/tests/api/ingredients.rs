//! Recipe ingredients, recipe copy and statistics, through the API.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, TestApp, call, issue_codes, random_id};

async fn recipe(app: &TestApp, acct: &Account, body: Value) -> String {
    let (status, r) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&body),
    )
    .await;
    assert_eq!(status, 201, "{r}");
    r["id"].as_str().unwrap().to_owned()
}

async fn add(app: &TestApp, acct: &Account, recipe_id: &str, kind: &str, body: Value) -> Value {
    let (status, child) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/recipes/{recipe_id}/{kind}"),
            &acct.key,
        )
        .json(&body),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{kind}: {child}");
    child
}

/// A valid create body for each kind, and one field to change.
fn samples() -> Vec<(&'static str, Value, Value)> {
    vec![
        (
            "fermentables",
            json!({"name": "Pale", "amount_kg": 4, "color_srm": 3, "yield_percent": 80}),
            json!({"amount_kg": 5.5}),
        ),
        (
            "hops",
            json!({"name": "Cascade", "alpha_acid": 5.5, "amount_grams": 28, "time_minutes": 60}),
            json!({"use": "whirlpool"}),
        ),
        (
            "yeasts",
            json!({"name": "US-05"}),
            json!({"attenuation": 81.5}),
        ),
        (
            "miscs",
            json!({"name": "Irish moss", "amount": 5}),
            json!({"time_minutes": 15.5}),
        ),
        (
            "mash-steps",
            json!({"name": "Saccharification", "temperature_c": 66, "duration_minutes": 60}),
            json!({"temperature_c": 67.5}),
        ),
    ]
}

#[tokio::test]
async fn every_kind_creates_with_defaults_lists_reads_patches_and_deletes() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct, json!({"name": "All kinds"})).await;
    let (_, before) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}"), &acct.key)).await;
    for (kind, body, change) in samples() {
        let first = add(&app, &acct, &rid, kind, body.clone()).await;
        let second = add(&app, &acct, &rid, kind, body.clone()).await;
        assert_eq!(first["recipe_id"], rid.as_str());
        assert_eq!(
            (first["sort_order"].as_i64(), second["sort_order"].as_i64()),
            (Some(0), Some(1)),
            "{kind} appends"
        );
        let placed = add(&app, &acct, &rid, kind, {
            let mut b = body.clone();
            b["sort_order"] = json!(0);
            b
        })
        .await;
        assert_eq!(placed["sort_order"], 0);

        let (status, list) =
            call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}/{kind}"), &acct.key)).await;
        assert_eq!(status, 200);
        let ids: Vec<_> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].clone())
            .collect();
        assert_eq!(
            ids,
            [
                first["id"].clone(),
                placed["id"].clone(),
                second["id"].clone()
            ],
            "{kind}: sort_order, then created_at"
        );

        let item = format!("/v1/{kind}/{}", first["id"].as_str().unwrap());
        assert_eq!(
            call(app.with_key(Method::GET, &item, &acct.key)).await,
            (StatusCode::OK, first.clone())
        );
        let (status, same) = call(
            app.with_key(Method::PATCH, &item, &acct.key)
                .json(&json!({"recipe_id": random_id()})),
        )
        .await;
        assert_eq!(
            (status, &same),
            (StatusCode::OK, &first),
            "{kind}: recipe_id cannot change"
        );
        let (status, patched) =
            call(app.with_key(Method::PATCH, &item, &acct.key).json(&change)).await;
        assert_eq!(status, 200);
        for (field, value) in change.as_object().unwrap() {
            assert_eq!(&patched[field], value, "{kind}.{field}");
        }
        let res = app
            .with_key(Method::DELETE, &item, &acct.key)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 204);
        assert_eq!(
            call(app.with_key(Method::GET, &item, &acct.key)).await.0,
            404
        );
        assert_eq!(
            call(app.with_key(Method::DELETE, &item, &acct.key)).await.0,
            404
        );
    }
    let (_, after) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}"), &acct.key)).await;
    assert_ne!(
        after["updated_at"], before["updated_at"],
        "child writes bump the recipe"
    );
    for (array, count) in [
        ("fermentables", 2),
        ("hops", 2),
        ("yeasts", 2),
        ("miscs", 2),
        ("mash_steps", 2),
    ] {
        assert_eq!(after[array].as_array().unwrap().len(), count, "{array}");
    }
    app.stop().await;
}

#[tokio::test]
async fn defaults_per_kind_follow_the_contract() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct, json!({"name": "Defaults"})).await;
    let f = add(
        &app,
        &acct,
        &rid,
        "fermentables",
        json!({"name": "M", "amount_kg": 1, "color_srm": 2, "yield_percent": 75}),
    )
    .await;
    assert_eq!(
        (f["type"].as_str(), &f["origin"], &f["notes"]),
        (Some("grain"), &Value::Null, &Value::Null)
    );
    let h = add(
        &app,
        &acct,
        &rid,
        "hops",
        json!({"name": "H", "alpha_acid": 5, "amount_grams": 10, "time_minutes": 5}),
    )
    .await;
    assert_eq!(h["use"], "boil");
    let y = add(&app, &acct, &rid, "yeasts", json!({"name": "Y"})).await;
    assert_eq!(y["type"], "ale");
    for field in [
        "lab",
        "product_id",
        "form",
        "attenuation",
        "min_temp_c",
        "max_temp_c",
        "amount",
        "amount_unit",
        "notes",
    ] {
        assert_eq!(y[field], Value::Null, "yeast.{field}");
    }
    let m = add(
        &app,
        &acct,
        &rid,
        "miscs",
        json!({"name": "Salt", "amount": 2}),
    )
    .await;
    assert_eq!(
        (
            m["type"].as_str(),
            m["use"].as_str(),
            m["amount_unit"].as_str(),
            m["time_minutes"].as_f64()
        ),
        (Some("other"), Some("boil"), Some("g"), Some(0.0))
    );
    let s = add(
        &app,
        &acct,
        &rid,
        "mash-steps",
        json!({"name": "Rest", "temperature_c": 65, "duration_minutes": 45}),
    )
    .await;
    assert_eq!(
        (
            s["type"].as_str(),
            &s["infuse_amount_liters"],
            &s["ramp_minutes"]
        ),
        (Some("infusion"), &Value::Null, &Value::Null)
    );
    app.stop().await;
}

#[tokio::test]
async fn child_validation_reports_every_field() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct, json!({"name": "Invalid"})).await;
    let (status, body) = call(
        app.with_key(Method::POST, &format!("/v1/recipes/{rid}/hops"), &acct.key)
            .json(&json!({
                "name": "", "alpha_acid": 101, "amount_grams": -1, "use": "steep", "sort_order": 1.5
            })),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("too_small", "name"),
            ("too_big", "alpha_acid"),
            ("too_small", "amount_grams"),
            ("invalid_enum_value", "use"),
            ("not_integer", "sort_order"),
            ("invalid_type", "time_minutes")
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    let (status, body) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/recipes/{rid}/mash-steps"),
            &acct.key,
        )
        .json(&json!({"name": "x", "temperature_c": 121, "duration_minutes": 1441})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("too_big", "temperature_c"),
            ("too_big", "duration_minutes")
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    // Body is checked before the recipe's existence.
    let (status, _) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/recipes/{}/yeasts", random_id()),
            &acct.key,
        )
        .json(&json!({})),
    )
    .await;
    assert_eq!(status, 422);
    let (status, _) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/recipes/{}/yeasts", random_id()),
            &acct.key,
        )
        .json(&json!({"name": "Y"})),
    )
    .await;
    assert_eq!(status, 404);
    app.stop().await;
}

#[tokio::test]
async fn a_recipe_holds_at_most_200_of_each_kind() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct, json!({"name": "Crowded"})).await;
    for i in 0..200 {
        let (status, _) = call(
            app.with_key(
                Method::POST,
                &format!("/v1/recipes/{rid}/yeasts"),
                &acct.key,
            )
            .json(&json!({"name": format!("Y{i}")})),
        )
        .await;
        assert_eq!(status, 201);
    }
    let (status, body) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/recipes/{rid}/yeasts"),
            &acct.key,
        )
        .json(&json!({"name": "one too many"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("too_big".to_owned(), "yeasts".to_owned())]
    );
    assert_eq!(body["details"][0]["maximum"], 200);
    // Other kinds are unaffected.
    add(
        &app,
        &acct,
        &rid,
        "hops",
        json!({"name": "H", "alpha_acid": 5, "amount_grams": 10, "time_minutes": 5}),
    )
    .await;
    app.stop().await;
}

#[tokio::test]
async fn children_of_another_account_are_not_found_everywhere() {
    let app = TestApp::spawn().await;
    let owner = app.account().await;
    let other = app.account().await;
    let rid = recipe(&app, &owner, json!({"name": "Owned"})).await;
    for (kind, body, change) in samples() {
        let child = add(&app, &owner, &rid, kind, body.clone()).await;
        let id = child["id"].as_str().unwrap();
        let missing = random_id();
        let pairs = [
            (
                Method::GET,
                format!("/v1/{kind}/{id}"),
                format!("/v1/{kind}/{missing}"),
                None,
            ),
            (
                Method::PATCH,
                format!("/v1/{kind}/{id}"),
                format!("/v1/{kind}/{missing}"),
                Some(change.clone()),
            ),
            (
                Method::DELETE,
                format!("/v1/{kind}/{id}"),
                format!("/v1/{kind}/{missing}"),
                None,
            ),
            (
                Method::GET,
                format!("/v1/recipes/{rid}/{kind}"),
                format!("/v1/recipes/{missing}/{kind}"),
                None,
            ),
            (
                Method::POST,
                format!("/v1/recipes/{rid}/{kind}"),
                format!("/v1/recipes/{missing}/{kind}"),
                Some(body.clone()),
            ),
        ];
        for (method, theirs, absent, body) in pairs {
            let send = |path: &str| {
                let req = app.with_key(method.clone(), path, &other.key);
                match &body {
                    Some(b) => req.json(b),
                    None => req,
                }
            };
            let a = call(send(&theirs)).await;
            assert_eq!(a.0, 404, "{method} {theirs}");
            assert_eq!(a, call(send(&absent)).await, "{method} {theirs}");
        }
        assert_eq!(
            call(app.with_key(Method::GET, &format!("/v1/{kind}/{id}"), &owner.key)).await,
            (StatusCode::OK, child)
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn copy_duplicates_the_recipe_and_every_child() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(
        &app,
        &acct,
        json!({"name": "Original", "style": "Bitter", "notes": "n"}),
    )
    .await;
    for (kind, body, _) in samples() {
        add(&app, &acct, &rid, kind, body).await;
    }
    let (status, copy) =
        call(app.with_key(Method::POST, &format!("/v1/recipes/{rid}/copy"), &acct.key)).await;
    assert_eq!(status, 201, "no body at all is fine");
    assert_eq!(copy["name"], "Original (copy)");
    assert_eq!(copy["style"], "Bitter");
    let (_, original) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}"), &acct.key)).await;
    for array in ["fermentables", "hops", "yeasts", "miscs", "mash_steps"] {
        let (a, b) = (
            original[array].as_array().unwrap(),
            copy[array].as_array().unwrap(),
        );
        assert_eq!(a.len(), b.len(), "{array}");
        for (o, c) in a.iter().zip(b) {
            assert_ne!(o["id"], c["id"]);
            assert_eq!(c["recipe_id"], copy["id"]);
            assert_eq!(o["sort_order"], c["sort_order"]);
            assert_eq!(o["name"], c["name"]);
        }
    }
    let (status, named) = call(
        app.with_key(Method::POST, &format!("/v1/recipes/{rid}/copy"), &acct.key)
            .json(&json!({"name": "Variant"})),
    )
    .await;
    assert_eq!(
        (status, named["name"].as_str()),
        (StatusCode::CREATED, Some("Variant"))
    );
    let (status, _) = call(
        app.with_key(Method::POST, &format!("/v1/recipes/{rid}/copy"), &acct.key)
            .json(&json!({"name": ""})),
    )
    .await;
    assert_eq!(status, 422);
    // Found by the fuzzing run: whitespace alone is not an absent body but malformed JSON.
    let (status, _) = call(
        app.with_key(Method::POST, &format!("/v1/recipes/{rid}/copy"), &acct.key)
            .header("content-type", "application/json")
            .body("\t"),
    )
    .await;
    assert_eq!(status, 400, "a lone tab is refused, not read as no body");
    let other = app.account().await;
    assert_eq!(
        call(app.with_key(Method::POST, &format!("/v1/recipes/{rid}/copy"), &other.key))
            .await
            .0,
        404
    );
    app.stop().await;
}

#[tokio::test]
async fn stats_follow_the_ingredients_and_colour_shows_on_every_read() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(
        &app,
        &acct,
        json!({"name": "Stats", "batch_size_liters": 20, "efficiency": 0.75}),
    )
    .await;
    let stats_path = format!("/v1/recipes/{rid}/stats");
    let (status, empty) = call(app.with_key(Method::GET, &stats_path, &acct.key)).await;
    assert_eq!(status, 200);
    assert_eq!(empty["og"], 1.0);
    assert_eq!(empty["bu_gu"], Value::Null);
    assert_eq!(empty["ibu_by_hop"], json!([]));

    add(
        &app,
        &acct,
        &rid,
        "fermentables",
        json!({"name": "Pale", "amount_kg": 5, "color_srm": 3, "yield_percent": 80}),
    )
    .await;
    let hop = add(
        &app,
        &acct,
        &rid,
        "hops",
        json!({"name": "Magnum", "alpha_acid": 12, "amount_grams": 20, "time_minutes": 60}),
    )
    .await;
    add(
        &app,
        &acct,
        &rid,
        "yeasts",
        json!({"name": "US-05", "attenuation": 80}),
    )
    .await;
    let (_, stats) = call(app.with_key(Method::GET, &stats_path, &acct.key)).await;
    // points = 5 × 2.20462 × 46.21 × 0.80 × 0.75 / (20 × 0.264172) = 57.82…
    assert_eq!(stats["og"], 1.0578);
    assert_eq!(stats["fg"], 1.0116);
    assert_eq!(stats["attenuation"], 80.0);
    assert!(
        stats["calories"].is_i64() && stats["calories_per_liter"].is_i64(),
        "whole numbers: {stats}"
    );
    assert_eq!(stats["ibu_by_hop"][0]["hop_id"], hop["id"]);
    // Tinseth: 1.65 × 0.000125^0.057846 × (1 − e^−2.4)/4.15 × 0.12 × 20 g × 1000 / 20 L = 25.79
    assert_eq!(stats["ibu"], 25.8);
    assert_eq!(stats["ibu_by_hop"][0]["ibu"], 25.8);
    let (_, listed) = call(app.with_key(Method::GET, "/v1/recipes", &acct.key)).await;
    assert_eq!(listed[0]["est_color_srm"], stats["srm"]);
    let (_, read) = call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}"), &acct.key)).await;
    assert_eq!(read["est_color_srm"], stats["srm"]);

    // Removing the yeast changes the numbers immediately: nothing ferments.
    let yeast_id = read["yeasts"][0]["id"].as_str().unwrap().to_owned();
    app.with_key(Method::DELETE, &format!("/v1/yeasts/{yeast_id}"), &acct.key)
        .send()
        .await
        .unwrap();
    let (_, unfermented) = call(app.with_key(Method::GET, &stats_path, &acct.key)).await;
    assert_eq!(unfermented["fg"], unfermented["og"]);
    assert_eq!(unfermented["abv"], 0.0);
    app.stop().await;
}

/// The reference recipes of another brewing program, entered through the API, stay within the
/// tolerances the reference file states.
/// The list reads only each fermentable's weight and colour (not the whole rows): every recipe
/// of a page still shows the colour its own page computes, summed in the same order, and another
/// account's malts never count.
#[tokio::test]
async fn the_list_shows_each_recipes_own_colour() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let bills: [&[(f64, f64)]; 3] = [
        &[(4.2, 1.8), (0.35, 60.0), (0.1, 450.0)],
        &[(5.0, 3.5), (0.25, 120.0)],
        &[],
    ];
    let mut ids = Vec::new();
    for (i, bill) in bills.iter().enumerate() {
        let rid = recipe(
            &app,
            &acct,
            json!({"name": format!("Colour {i}"), "batch_size_liters": 19 + i}),
        )
        .await;
        for (kg, srm) in *bill {
            add(
                &app,
                &acct,
                &rid,
                "fermentables",
                json!({"name": "Malt", "amount_kg": kg, "color_srm": srm, "yield_percent": 78}),
            )
            .await;
        }
        ids.push(rid);
    }
    // Another account's dark malt in its own recipe.
    let theirs = recipe(&app, &other, json!({"name": "Theirs"})).await;
    add(
        &app,
        &other,
        &theirs,
        "fermentables",
        json!({"name": "Black", "amount_kg": 3, "color_srm": 500, "yield_percent": 60}),
    )
    .await;

    let (status, listed) = call(app.with_key(Method::GET, "/v1/recipes", &acct.key)).await;
    assert_eq!(status, 200);
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 3);
    for rid in &ids {
        let row = listed.iter().find(|r| r["id"] == rid.as_str()).unwrap();
        let (_, stats) =
            call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}/stats"), &acct.key)).await;
        assert_eq!(row["est_color_srm"], stats["srm"], "recipe {rid}");
    }
    let empty = listed.iter().find(|r| r["id"] == ids[2].as_str()).unwrap();
    assert_eq!(empty["est_color_srm"], 0.0);
    assert!(
        listed
            .iter()
            .all(|r| r["est_color_srm"].as_f64().unwrap() < 40.0)
    );

    // A recipe's update answers with the same colour.
    let (status, patched) = call(
        app.with_key(Method::PATCH, &format!("/v1/recipes/{}", ids[0]), &acct.key)
            .json(&json!({"notes": "darker?"})),
    )
    .await;
    assert_eq!(status, 200);
    let first = listed.iter().find(|r| r["id"] == ids[0].as_str()).unwrap();
    assert_eq!(patched["est_color_srm"], first["est_color_srm"]);
    app.stop().await;
}

#[tokio::test]
async fn reference_recipes_match_another_program_within_tolerance() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    // The one copy in the repository, kept with the domain's calculator tests.
    let reference: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../domain/tests/data/stats-reference.json"
    )))
    .unwrap();
    for case in reference["recipes"].as_array().unwrap() {
        let rid = recipe(&app, &acct, case["recipe"].clone()).await;
        for (kind, array) in [
            ("fermentables", "fermentables"),
            ("hops", "hops"),
            ("yeasts", "yeasts"),
        ] {
            for child in case[array].as_array().unwrap() {
                add(&app, &acct, &rid, kind, child.clone()).await;
            }
        }
        let (_, stats) =
            call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}/stats"), &acct.key)).await;
        let want = &case["reference"];
        let name = case["name"].as_str().unwrap();
        let (og, fg, ibu, srm) = (
            stats["og"].as_f64().unwrap(),
            stats["fg"].as_f64().unwrap(),
            stats["ibu"].as_f64().unwrap(),
            stats["srm"].as_f64().unwrap(),
        );
        assert!(
            (og - want["og"].as_f64().unwrap()).abs() <= 0.0005 + 1e-9,
            "{name} OG {og} vs {}",
            want["og"]
        );
        assert!(
            (fg - want["fg"].as_f64().unwrap()).abs() <= 0.001 + 1e-9,
            "{name} FG {fg} vs {}",
            want["fg"]
        );
        let want_ibu = want["ibu"].as_f64().unwrap();
        assert!(
            (ibu - want_ibu).abs() <= 0.05 * want_ibu,
            "{name} IBU {ibu} vs {want_ibu}"
        );
        let want_srm = want["color_srm"].as_f64().unwrap();
        assert!(
            (srm - want_srm).abs() <= 0.01 * want_srm + 0.05,
            "{name} SRM {srm} vs {want_srm}"
        );
    }
    app.stop().await;
}

/// The recipe read carries its children as JSON written by PostgreSQL; each must come back
/// exactly as the create answered it (a plain row read): the last bit of every float, every
/// character of the text, the microseconds of the instant.
#[tokio::test]
async fn the_recipe_read_gives_each_child_exactly_as_created() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct, json!({"name": "Exact"})).await;
    let awkward = "say \"krausen\" \\ tab\there, Bière 🍺 </script>";
    let bodies = [
        (
            "fermentables",
            json!({"name": awkward, "amount_kg": 4.300000000000001, "color_srm": 3.333_333_333_333_333_5,
                   "yield_percent": 79.99999999999999, "origin": awkward, "notes": "x\ny"}),
        ),
        (
            "hops",
            json!({"name": awkward, "alpha_acid": 5.500000000000001, "amount_grams": 28.349523125,
                   "time_minutes": 59.99999999999999, "form": "pellet", "use": "whirlpool",
                   "temperature_c": 79.4}),
        ),
        (
            "yeasts",
            json!({"name": awkward, "lab": "Wyeast", "product_id": "1056", "attenuation": 0.30000000000000004,
                   "min_temp_c": 15.000000000000002, "amount": 1e-7, "amount_unit": "pkg"}),
        ),
        (
            "miscs",
            json!({"name": awkward, "amount": 0.1, "time_minutes": 1e-9}),
        ),
        (
            "mash-steps",
            json!({"name": awkward, "temperature_c": 66.66666666666667, "duration_minutes": 60,
                   "infuse_amount_liters": 12.345678901234567}),
        ),
    ];
    let mut created = Vec::new();
    for (kind, body) in bodies {
        created.push((kind, add(&app, &acct, &rid, kind, body).await));
    }
    let (status, read) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}"), &acct.key)).await;
    assert_eq!(status, 200, "{read}");
    for (kind, child) in created {
        let list = kind.replace('-', "_");
        assert_eq!(read[&list][0], child, "{kind}");
    }
}
