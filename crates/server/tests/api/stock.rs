//! Inventory that follows the brewing: a session's deduction, the shopping list, a recipe's cost.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, TestApp, call, random_id};

async fn post(app: &TestApp, acct: &Account, path: &str, body: Value) -> Value {
    let (status, out) = call(app.with_key(Method::POST, path, &acct.key).json(&body)).await;
    assert!(status.is_success(), "{path}: {status} {out}");
    out
}

/// A 20 l recipe: 5 kg Maris Otter, 28 g + 28 g Citra, one US-05 (no amount), 1 tsp Irish moss.
async fn recipe(app: &TestApp, acct: &Account) -> String {
    let r = post(
        app,
        acct,
        "/v1/recipes",
        json!({"name": "Stock Pale", "batch_size_liters": 20, "boil_time_minutes": 60}),
    )
    .await;
    let id = r["id"].as_str().unwrap().to_owned();
    let add = |kind: &'static str, body: Value| {
        let path = format!("/v1/recipes/{id}/{kind}");
        async move { post(app, acct, &path, body).await }
    };
    add(
        "fermentables",
        json!({"name": "Maris Otter", "amount_kg": 5, "color_srm": 3, "yield_percent": 80}),
    )
    .await;
    for time in [60, 10] {
        add(
            "hops",
            json!({"name": "Citra", "alpha_acid": 12, "amount_grams": 28, "time_minutes": time}),
        )
        .await;
    }
    add("yeasts", json!({"name": "US-05", "attenuation": 81})).await;
    add(
        "miscs",
        json!({"name": "Irish moss", "amount": 1, "amount_unit": "tsp", "use": "boil", "time_minutes": 15}),
    )
    .await;
    id
}

async fn session(app: &TestApp, acct: &Account, recipe_id: &str) -> String {
    let s = post(
        app,
        acct,
        "/v1/sessions",
        json!({"recipe_id": recipe_id, "brew_date": "2026-11-27"}),
    )
    .await;
    s["id"].as_str().unwrap().to_owned()
}

async fn item(app: &TestApp, acct: &Account, body: Value) -> String {
    post(app, acct, "/v1/inventory", body).await["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn amount(app: &TestApp, acct: &Account, id: &str) -> f64 {
    let (status, item) =
        call(app.with_key(Method::GET, &format!("/v1/inventory/{id}"), &acct.key)).await;
    assert_eq!(status, StatusCode::OK);
    item["amount"].as_f64().unwrap()
}

async fn deduct(
    app: &TestApp,
    acct: &Account,
    session: &str,
    preview: bool,
) -> (StatusCode, Value) {
    call(
        app.with_key(
            Method::POST,
            &format!("/v1/sessions/{session}/inventory-deduction"),
            &acct.key,
        )
        .json(&json!({"preview": preview})),
    )
    .await
}

/// Stock for the recipe: malt in lb, hops in oz (one name in capitals), yeast in packets, and
/// the Irish moss in a unit wort does not recognise.
async fn stock(app: &TestApp, acct: &Account) -> [String; 4] {
    [
        item(app, acct, json!({"category": "fermentable", "name": "maris otter", "amount": 55.115, "amount_unit": "lb", "price_per_unit": 1.5, "best_before": "2027-03-01"})).await,
        item(app, acct, json!({"category": "hop", "name": "CITRA", "amount": 4, "amount_unit": "oz", "price_per_unit": 3})).await,
        item(app, acct, json!({"category": "yeast", "name": "US-05", "amount": 2, "amount_unit": "Packets"})).await,
        item(app, acct, json!({"category": "misc", "name": "Irish moss", "amount": 10, "amount_unit": "tablets"})).await,
    ]
}

#[tokio::test]
async fn items_keep_their_unit_text_and_gain_price_and_best_before() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let id = item(&app, &acct, json!({"category": "fermentable", "name": "Pilsner", "amount": 2, "amount_unit": "Kilograms", "price_per_unit": 2.5, "best_before": "2027-01-31"})).await;
    let (_, got) = call(app.with_key(Method::GET, &format!("/v1/inventory/{id}"), &acct.key)).await;
    assert_eq!(got["amount_unit"], "Kilograms");
    assert_eq!(got["price_per_unit"], 2.5);
    assert_eq!(got["best_before"], "2027-01-31");
    assert_eq!(got["unit_dimension"], "mass");
    assert_eq!(got["amount_base"], 2000.0);
    let (status, body) = call(
        app.with_key(Method::PATCH, &format!("/v1/inventory/{id}"), &acct.key)
            .json(&json!({"price_per_unit": -1, "best_before": "31/01/2027"})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    let paths: Vec<&str> = body["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"][0].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["price_per_unit", "best_before"]);
    let (status, got) = call(
        app.with_key(Method::PATCH, &format!("/v1/inventory/{id}"), &acct.key)
            .json(&json!({"price_per_unit": null, "amount_unit": "handfuls"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(got["price_per_unit"], Value::Null);
    assert_eq!(got["unit_dimension"], Value::Null);
    assert_eq!(got["amount_base"], Value::Null);
}

#[tokio::test]
async fn a_deduction_previews_applies_once_and_undoes() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct).await;
    let sid = session(&app, &acct, &rid).await;
    let [malt, hop, yeast, moss] = stock(&app, &acct).await;

    let (status, preview) = deduct(&app, &acct, &sid, true).await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(preview["applied"], false);
    let lines = preview["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["item_id"], malt.as_str());
    assert_eq!(lines[0]["unit"], "lb");
    assert!((lines[0]["needed"].as_f64().unwrap() - 11.023_113).abs() < 1e-5);
    assert_eq!(lines[0]["status"], "enough");
    assert_eq!(lines[1]["item_id"], hop.as_str());
    assert_eq!(lines[2]["status"], "enough");
    assert_eq!(lines[3]["needed"], 1.0);
    assert_eq!(lines[4]["status"], "not_convertible");
    // A preview changes nothing.
    assert_eq!(amount(&app, &acct, &malt).await, 55.115);

    let (status, applied) = deduct(&app, &acct, &sid, false).await;
    assert_eq!(status, 200, "{applied}");
    assert_eq!(applied["applied"], true);
    assert!(applied["applied_at"].is_string());
    assert!((amount(&app, &acct, &malt).await - (55.115 - 11.023_113)).abs() < 1e-5);
    assert!((amount(&app, &acct, &hop).await - (4.0 - 56.0 / 28.349_523_125)).abs() < 1e-9);
    assert_eq!(amount(&app, &acct, &yeast).await, 1.0);
    assert_eq!(amount(&app, &acct, &moss).await, 10.0);

    // Once per session; a preview now shows what was taken.
    let (status, body) = deduct(&app, &acct, &sid, false).await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].is_string());
    let (_, again) = deduct(&app, &acct, &sid, true).await;
    assert_eq!(again["applied"], true);
    assert_eq!(again["lines"], applied["lines"]);

    // Undo puts everything back; undoing again is 404.
    let path = format!("/v1/sessions/{sid}/inventory-deduction");
    let (status, _) = call(app.with_key(Method::DELETE, &path, &acct.key)).await;
    assert_eq!(status, 204);
    assert!((amount(&app, &acct, &malt).await - 55.115).abs() < 1e-9);
    assert!((amount(&app, &acct, &hop).await - 4.0).abs() < 1e-9);
    assert_eq!(amount(&app, &acct, &yeast).await, 2.0);
    let (status, _) = call(app.with_key(Method::DELETE, &path, &acct.key)).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_shortfall_refuses_the_whole_deduction_naming_the_lines() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct).await;
    let sid = session(&app, &acct, &rid).await;
    let malt = item(&app, &acct, json!({"category": "fermentable", "name": "Maris Otter", "amount": 25, "amount_unit": "kg"})).await;
    // 50 g of Citra on hand for 2 × 28 g: the second line is short by 6 g.
    let hop = item(
        &app,
        &acct,
        json!({"category": "hop", "name": "Citra", "amount": 50, "amount_unit": "g"}),
    )
    .await;
    let (status, preview) = deduct(&app, &acct, &sid, true).await;
    assert_eq!(status, 200);
    assert_eq!(preview["lines"][1]["status"], "enough");
    assert_eq!(preview["lines"][2]["status"], "short");
    assert_eq!(preview["lines"][2]["short"], 6.0);
    let (status, body) = deduct(&app, &acct, &sid, false).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["details"].as_array().unwrap().len(), 1);
    assert_eq!(body["details"][0]["path"], json!(["lines", "2"]));
    assert_eq!(body["details"][0]["code"], "too_small");
    assert!(
        body["details"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Citra")
    );
    assert_eq!(amount(&app, &acct, &malt).await, 25.0);
    assert_eq!(amount(&app, &acct, &hop).await, 50.0);
}

#[tokio::test]
async fn deduction_bad_input_and_other_accounts() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let rid = recipe(&app, &acct).await;
    let sid = session(&app, &acct, &rid).await;
    let (status, body) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/sessions/{sid}/inventory-deduction"),
            &acct.key,
        )
        .json(&json!({"preview": "yes"})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["details"][0]["path"], json!(["preview"]));
    let (status, _) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/sessions/{sid}/inventory-deduction"),
            &acct.key,
        )
        .json(&json!({})),
    )
    .await;
    assert_eq!(status, 422);
    for preview in [true, false] {
        let (status, _) = deduct(&app, &other, &sid, preview).await;
        assert_eq!(status, 404);
    }
    let (status, _) = deduct(&app, &acct, &random_id(), true).await;
    assert_eq!(status, 404);
    let (status, _) = call(app.with_key(
        Method::DELETE,
        &format!("/v1/sessions/{sid}/inventory-deduction"),
        &other.key,
    ))
    .await;
    assert_eq!(status, 404);
    let (status, _) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}/cost"), &other.key)).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn two_devices_applying_at_once_one_applies_the_other_is_refused() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct).await;
    let malt = item(&app, &acct, json!({"category": "fermentable", "name": "Maris Otter", "amount": 100, "amount_unit": "kg"})).await;
    for round in 0..5 {
        let sid = session(&app, &acct, &rid).await;
        let (a, b) = tokio::join!(
            deduct(&app, &acct, &sid, false),
            deduct(&app, &acct, &sid, false)
        );
        let mut statuses = [a.0.as_u16(), b.0.as_u16()];
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409], "round {round}: {} {}", a.1, b.1);
        // Taken once: 5 kg a round.
        assert_eq!(
            amount(&app, &acct, &malt).await,
            100.0 - 5.0 * f64::from(round + 1)
        );
    }
}

#[tokio::test]
async fn an_adjust_racing_a_deduction_loses_neither() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct).await;
    let malt = item(&app, &acct, json!({"category": "fermentable", "name": "Maris Otter", "amount": 50, "amount_unit": "kg"})).await;
    let mut expected = 50.0;
    for round in 0..5 {
        let sid = session(&app, &acct, &rid).await;
        let adjust = call(
            app.with_key(
                Method::POST,
                &format!("/v1/inventory/{malt}/adjust"),
                &acct.key,
            )
            .json(&json!({"delta": 2})),
        );
        let ((ds, db), (as_, ab)) = tokio::join!(deduct(&app, &acct, &sid, false), adjust);
        assert_eq!(ds, 200, "round {round}: {db}");
        assert_eq!(as_, 200, "round {round}: {ab}");
        // Then an undo racing another adjust.
        let undo = call(app.with_key(
            Method::DELETE,
            &format!("/v1/sessions/{sid}/inventory-deduction"),
            &acct.key,
        ));
        let adjust = call(
            app.with_key(
                Method::POST,
                &format!("/v1/inventory/{malt}/adjust"),
                &acct.key,
            )
            .json(&json!({"delta": -1})),
        );
        let ((us, _), (as2, ab2)) = tokio::join!(undo, adjust);
        assert_eq!(us, 204);
        assert_eq!(as2, 200, "{ab2}");
        expected += 2.0 - 1.0;
        assert_eq!(amount(&app, &acct, &malt).await, expected, "round {round}");
    }
}

#[tokio::test]
async fn the_shopping_list_gathers_recipes_and_sessions_beyond_the_stock() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct).await;
    let planned = session(&app, &acct, &rid).await;
    item(
        &app,
        &acct,
        json!({"category": "fermentable", "name": "Maris Otter", "amount": 8, "amount_unit": "kg"}),
    )
    .await;
    item(
        &app,
        &acct,
        json!({"category": "hop", "name": "Citra", "amount": 1, "amount_unit": "lb"}),
    )
    .await;

    let path = format!("/v1/shopping-list?recipe_id={rid}&session_id={planned}");
    let (status, list) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(status, 200, "{list}");
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    // 10 kg of malt for 8 on hand; the hops are covered; yeast and Irish moss are unmatched.
    assert_eq!(names, ["Maris Otter", "US-05", "Irish moss"]);
    assert_eq!(list[0]["to_buy"], 2.0);
    assert_eq!(list[0]["unit"], "kg");
    assert_eq!(list[1]["to_buy"], 2.0);
    assert_eq!(list[1]["unit"], "each");
    assert_eq!(list[2]["unit"], "ml");

    let res = app
        .with_key(Method::GET, &path, &acct.key)
        .header("Accept", "text/plain")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let text = res.text().await.unwrap();
    assert!(
        text.contains("Fermentables\n- Maris Otter: 2 kg\n"),
        "{text}"
    );
    assert!(text.contains("Yeasts\n- US-05: 2 each\n"), "{text}");

    // None chosen: nothing to buy. Malformed id: 400. Another account's: 404.
    let (status, list) = call(app.with_key(Method::GET, "/v1/shopping-list", &acct.key)).await;
    assert_eq!((status.as_u16(), list), (200, json!([])));
    let (status, _) =
        call(app.with_key(Method::GET, "/v1/shopping-list?recipe_id=nope", &acct.key)).await;
    assert_eq!(status, 400);
    let other = app.account().await;
    let (status, _) = call(app.with_key(Method::GET, &path, &other.key)).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_session_already_deducted_needs_nothing_more() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct).await;
    let sid = session(&app, &acct, &rid).await;
    item(
        &app,
        &acct,
        json!({"category": "fermentable", "name": "Maris Otter", "amount": 6, "amount_unit": "kg"}),
    )
    .await;
    let path = format!("/v1/shopping-list?session_id={sid}");
    let (_, before) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(before[0]["name"], "Citra");
    let (status, _) = deduct(&app, &acct, &sid, false).await;
    // Hops, yeast and moss are unmatched (taken from nothing); the malt is covered.
    assert_eq!(status, 200);
    let (_, after) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(after, json!([]));
    // The stock left (1 kg) now falls short for the recipe itself.
    let (_, list) = call(app.with_key(
        Method::GET,
        &format!("/v1/shopping-list?recipe_id={rid}"),
        &acct.key,
    ))
    .await;
    assert_eq!(list[0]["name"], "Maris Otter");
    assert_eq!(list[0]["to_buy"], 4.0);
}

#[tokio::test]
async fn the_cost_of_a_recipe_from_its_items_prices() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = recipe(&app, &acct).await;
    stock(&app, &acct).await;
    let (status, cost) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}/cost"), &acct.key)).await;
    assert_eq!(status, 200, "{cost}");
    // 11.023 lb × 1.5 = 16.53; 56 g = 1.975 oz × 3 = 5.93.
    let malt: f64 = 5.0 / 0.453_592_37 * 1.5;
    let hops: f64 = 56.0 / 28.349_523_125 * 3.0;
    assert_eq!(cost["lines"][0]["cost"], ((malt * 100.0).round() / 100.0));
    assert_eq!(cost["total"], ((malt + hops) * 100.0).round() / 100.0);
    assert_eq!(
        cost["per_liter"],
        (((malt + hops) / 20.0) * 100.0).round() / 100.0
    );
    assert_eq!(cost["batch_size_liters"], 20.0);
    assert_eq!(cost["unpriced"], json!(["US-05", "Irish moss"]));
    assert_eq!(cost["lines"][0]["status"], "enough");
    assert_eq!(cost["lines"][4]["status"], "not_convertible");
}

/// 5 kg Maris Otter and 2 oz (56.699 g) of Chinook, against 25 kg of malt and 0.75 oz of
/// Chinook: the hop line is short by 1.25 oz.
async fn chinook_short(app: &TestApp, acct: &Account) -> (String, String, String, String) {
    let r = post(
        app,
        acct,
        "/v1/recipes",
        json!({"name": "Chinook Pale", "batch_size_liters": 20, "boil_time_minutes": 60}),
    )
    .await;
    let rid = r["id"].as_str().unwrap().to_owned();
    post(
        app,
        acct,
        &format!("/v1/recipes/{rid}/fermentables"),
        json!({"name": "Maris Otter", "amount_kg": 5, "color_srm": 3, "yield_percent": 80}),
    )
    .await;
    post(
        app,
        acct,
        &format!("/v1/recipes/{rid}/hops"),
        json!({"name": "Chinook", "alpha_acid": 13, "amount_grams": 2.0 * 28.349_523_125, "time_minutes": 60}),
    )
    .await;
    let sid = session(app, acct, &rid).await;
    let malt = item(app, acct, json!({"category": "fermentable", "name": "Maris Otter", "amount": 25, "amount_unit": "kg"})).await;
    let hop = item(
        app,
        acct,
        json!({"category": "hop", "name": "Chinook", "amount": 0.75, "amount_unit": "oz"}),
    )
    .await;
    (rid, sid, malt, hop)
}

async fn deduct_partial(app: &TestApp, acct: &Account, session: &str) -> (StatusCode, Value) {
    call(
        app.with_key(
            Method::POST,
            &format!("/v1/sessions/{session}/inventory-deduction"),
            &acct.key,
        )
        .json(&json!({"preview": false, "partial": true})),
    )
    .await
}

#[tokio::test]
async fn a_partial_deduction_takes_what_is_on_hand_and_lists_the_shortfall() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (rid, sid, malt, hop) = chinook_short(&app, &acct).await;

    // Without `partial`: all or nothing, as always.
    let (status, body) = deduct(&app, &acct, &sid, false).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["details"][0]["path"], json!(["lines", "1"]));
    assert_eq!(amount(&app, &acct, &hop).await, 0.75);
    assert_eq!(amount(&app, &acct, &malt).await, 25.0);

    let (status, applied) = deduct_partial(&app, &acct, &sid).await;
    assert_eq!(status, 200, "{applied}");
    assert_eq!(applied["applied"], true);
    assert_eq!(applied["partial"], true);
    let chinook = &applied["lines"][1];
    assert_eq!(chinook["status"], "short");
    assert_eq!(chinook["taken"], 0.75);
    assert!(
        (chinook["short"].as_f64().unwrap() - 1.25).abs() < 1e-9,
        "{chinook}"
    );
    assert!(
        (chinook["needed"].as_f64().unwrap() - 2.0).abs() < 1e-9,
        "{chinook}"
    );
    assert_eq!(applied["lines"][0]["taken"], 5.0);
    // The hop is used up (never below 0); the malt line is taken whole.
    assert_eq!(amount(&app, &acct, &hop).await, 0.0);
    assert_eq!(amount(&app, &acct, &malt).await, 20.0);

    // Once per session, partial or not; a preview shows the deduction as applied.
    let (status, _) = deduct_partial(&app, &acct, &sid).await;
    assert_eq!(status, 409);
    let (_, shown) = deduct(&app, &acct, &sid, true).await;
    assert_eq!(shown, applied);

    // The shortfall is on the session's shopping list, topping up the hop's own item.
    let path = format!("/v1/shopping-list?session_id={sid}");
    let (status, list) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list[0]["name"], "Chinook");
    assert_eq!(list[0]["item_id"], hop.as_str());
    assert_eq!(list[0]["unit"], "oz");
    assert_eq!(list[0]["on_hand"], 0.0);
    assert!(
        (list[0]["to_buy"].as_f64().unwrap() - 1.25).abs() < 1e-6,
        "{list}"
    );
    let (_, text) = call(
        app.with_key(Method::GET, &path, &acct.key)
            .header("Accept", "text/plain"),
    )
    .await;
    assert!(
        text.as_str().unwrap().contains("- Chinook: 1.25 oz\n"),
        "{text}"
    );
    // With the recipe brewed again besides: its 2 oz and the missing 1.25 oz.
    let (_, both) = call(app.with_key(
        Method::GET,
        &format!("/v1/shopping-list?session_id={sid}&recipe_id={rid}"),
        &acct.key,
    ))
    .await;
    let chinook = both
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "Chinook")
        .unwrap();
    assert!(
        (chinook["to_buy"].as_f64().unwrap() - 3.25).abs() < 1e-6,
        "{both}"
    );

    // Undo puts back exactly what was taken (0.75 oz, not the 2 oz asked for).
    let (status, _) = call(app.with_key(
        Method::DELETE,
        &format!("/v1/sessions/{sid}/inventory-deduction"),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 204);
    assert_eq!(amount(&app, &acct, &hop).await, 0.75);
    assert_eq!(amount(&app, &acct, &malt).await, 25.0);
    // Undone, the session needs its whole recipe again: 2 oz less the 0.75 on hand.
    let (_, list) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert!(
        (list[0]["to_buy"].as_f64().unwrap() - 1.25).abs() < 1e-6,
        "{list}"
    );
    assert!(
        (list[0]["needed"].as_f64().unwrap() - 2.0).abs() < 1e-6,
        "{list}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_partial_deduction_with_nothing_short_is_a_whole_one() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, sid, malt, hop) = chinook_short(&app, &acct).await;
    call(
        app.with_key(
            Method::POST,
            &format!("/v1/inventory/{hop}/adjust"),
            &acct.key,
        )
        .json(&json!({"delta": 1.25})),
    )
    .await;
    let (status, applied) = deduct_partial(&app, &acct, &sid).await;
    assert_eq!(status, 200, "{applied}");
    assert_eq!(applied["partial"], false);
    assert_eq!(applied["lines"][1]["status"], "enough");
    assert!(amount(&app, &acct, &hop).await.abs() < 1e-9);
    assert_eq!(amount(&app, &acct, &malt).await, 20.0);
    let (_, list) = call(app.with_key(
        Method::GET,
        &format!("/v1/shopping-list?session_id={sid}"),
        &acct.key,
    ))
    .await;
    assert_eq!(list, json!([]));
    app.stop().await;
}

#[tokio::test]
async fn a_partial_deduction_under_one_idempotency_key_is_applied_once() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, sid, _, hop) = chinook_short(&app, &acct).await;
    let send = || {
        call(
            app.with_key(
                Method::POST,
                &format!("/v1/sessions/{sid}/inventory-deduction"),
                &acct.key,
            )
            .header("Idempotency-Key", "partial-chinook-1")
            .json(&json!({"preview": false, "partial": true})),
        )
    };
    let (status, first) = send().await;
    assert_eq!(status, 200, "{first}");
    let (status, again) = send().await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again, first);
    assert_eq!(amount(&app, &acct, &hop).await, 0.0);
    // `partial` must be a boolean.
    let (status, body) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/sessions/{sid}/inventory-deduction"),
            &acct.key,
        )
        .json(&json!({"preview": false, "partial": "yes"})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["details"][0]["path"], json!(["partial"]));
    app.stop().await;
}
