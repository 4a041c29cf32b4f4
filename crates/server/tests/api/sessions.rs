//! Brew sessions, the state machine, the checklist and fermentation logs.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, TestApp, call, issue_codes, post, random_id};

/// A bare recipe named `name` and a session made from it with the extra `fields`.
async fn recipe_and_session(
    app: &TestApp,
    acct: &Account,
    name: &str,
    fields: Value,
) -> (String, Value) {
    let recipe = post(app, acct, "/v1/recipes", json!({ "name": name })).await;
    let rid = recipe["id"].as_str().unwrap().to_owned();
    let mut body = json!({ "recipe_id": rid });
    body.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    (rid, post(app, acct, "/v1/sessions", body).await)
}

/// A recipe with mash steps, every kind of hop addition, miscs and a yeast.
async fn full_recipe(app: &TestApp, acct: &Account) -> String {
    let r = post(
        app,
        acct,
        "/v1/recipes",
        json!({"name": "Brew Day IPA", "batch_size_liters": 20, "boil_time_minutes": 60}),
    )
    .await;
    let id = r["id"].as_str().unwrap().to_owned();
    let add = |kind: &'static str, body: Value| {
        let path = format!("/v1/recipes/{id}/{kind}");
        async move { post(app, acct, &path, body).await }
    };
    add(
        "fermentables",
        json!({"name": "Pale", "amount_kg": 5, "color_srm": 3, "yield_percent": 80}),
    )
    .await;
    add("mash-steps", json!({"name": "Saccharification", "temperature_c": 66, "duration_minutes": 60, "infuse_amount_liters": 15})).await;
    add(
        "mash-steps",
        json!({"name": "Mash out", "temperature_c": 76, "duration_minutes": 10}),
    )
    .await;
    add("hops", json!({"name": "Magnum", "alpha_acid": 12, "amount_grams": 20, "time_minutes": 60, "use": "first_wort"})).await;
    add(
        "hops",
        json!({"name": "Cascade", "alpha_acid": 5.5, "amount_grams": 28, "time_minutes": 60}),
    )
    .await;
    add(
        "hops",
        json!({"name": "Cascade", "alpha_acid": 5.5, "amount_grams": 14, "time_minutes": 10}),
    )
    .await;
    add(
        "hops",
        json!({"name": "Citra", "alpha_acid": 12, "amount_grams": 30, "time_minutes": 0}),
    )
    .await;
    add("hops", json!({"name": "Mosaic", "alpha_acid": 12, "amount_grams": 50, "time_minutes": 20, "use": "whirlpool"})).await;
    add("hops", json!({"name": "Galaxy", "alpha_acid": 14, "amount_grams": 60, "time_minutes": 4320, "use": "dry_hop"})).await;
    add(
        "miscs",
        json!({"name": "Irish moss", "amount": 5, "time_minutes": 15}),
    )
    .await;
    add(
        "miscs",
        json!({"name": "Gypsum", "amount": 5, "use": "mash"}),
    )
    .await;
    add("yeasts", json!({"name": "US-05", "attenuation": 81})).await;
    id
}

#[tokio::test]
async fn creating_a_session_snapshots_the_recipe_and_generates_the_checklist() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = full_recipe(&app, &acct).await;
    let (_, recipe) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}"), &acct.key)).await;
    let (_, stats) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}/stats"), &acct.key)).await;
    let session = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": rid, "brew_date": "2026-11-28"}),
    )
    .await;
    assert_eq!(session["name"], "Brew Day IPA");
    assert_eq!(session["status"], "planned");
    assert_eq!(session["brew_date"], "2026-11-28");
    assert_eq!(session["recipe_id"], rid.as_str());
    assert_eq!(session["measured_abv"], Value::Null);
    for phase in [
        "brewing_started_at",
        "fermenting_started_at",
        "conditioning_started_at",
        "completed_at",
        "abandoned_at",
    ] {
        assert_eq!(session[phase], Value::Null, "{phase}");
    }
    let mut expected = recipe.clone();
    expected["stats"] = stats;
    assert_eq!(
        session["recipe_snapshot"], expected,
        "the recipe exactly as GET returned it, plus stats"
    );

    let sid = session["id"].as_str().unwrap();
    let (status, steps) =
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}/steps"), &acct.key)).await;
    assert_eq!(status, 200);
    let titles: Vec<&str> = steps
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Heat strike water",
            "Add 5 g Gypsum to the mash",
            "Mash: Saccharification at 66 °C for 60 min",
            "Mash: Mash out at 76 °C for 10 min",
            "Sparge and lauter",
            "Add 20 g Magnum as a first-wort addition",
            "Bring to a boil",
            "Add 28 g Cascade at 60 min",
            "Add 5 g Irish moss at 15 min",
            "Add 14 g Cascade at 10 min",
            "At flame-out: add 30 g Citra",
            "Whirlpool: add 50 g Mosaic for 20 min",
            "Chill the wort",
            "Transfer to the fermenter",
            "Pitch yeast",
        ]
    );
    let first = &steps[0];
    assert_eq!(
        first["description"],
        "Heat 15 L of strike water for a 66 °C rest."
    );
    assert_eq!(steps[2]["duration_minutes"], 60.0);
    assert_eq!(steps[14]["description"], "US-05");
    // The boil's step carries the timer; the additions say when they are due against it, in
    // minutes before its end. First-wort hops go in before the countdown, whirlpool after it.
    let boil: Vec<(&str, bool, Value)> = steps
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["title"].as_str().unwrap(),
                s["boil"].as_bool().unwrap(),
                s["boil_addition_at"].clone(),
            )
        })
        .filter(|(_, boil, at)| *boil || !at.is_null())
        .collect();
    assert_eq!(
        boil,
        [
            ("Bring to a boil", true, Value::Null),
            ("Add 28 g Cascade at 60 min", false, json!(60.0)),
            ("Add 5 g Irish moss at 15 min", false, json!(15.0)),
            ("Add 14 g Cascade at 10 min", false, json!(10.0)),
            ("At flame-out: add 30 g Citra", false, json!(0.0)),
        ]
    );
    for (i, s) in steps.as_array().unwrap().iter().enumerate() {
        assert_eq!(s["sort_order"], i as i64);
        assert_eq!(s["completed"], false);
        assert_eq!(s["completed_at"], Value::Null);
        assert_eq!(s["session_id"], sid);
    }
    app.stop().await;
}

#[tokio::test]
async fn the_snapshot_survives_recipe_edits_and_deletion() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = full_recipe(&app, &acct).await;
    let session = post(&app, &acct, "/v1/sessions", json!({"recipe_id": rid, "brew_date": "2026-11-28", "name": "Batch 7", "notes": "first try"})).await;
    let path = format!("/v1/sessions/{}", session["id"].as_str().unwrap());
    assert_eq!(session["name"], "Batch 7");
    assert_eq!(session["notes"], "first try");

    call(
        app.with_key(Method::PATCH, &format!("/v1/recipes/{rid}"), &acct.key)
            .json(&json!({"name": "Renamed", "batch_size_liters": 40})),
    )
    .await;
    let (_, after_edit) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(after_edit["recipe_snapshot"], session["recipe_snapshot"]);

    let res = app
        .with_key(Method::DELETE, &format!("/v1/recipes/{rid}"), &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    let (status, after_delete) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(status, 200, "sessions outlive their recipe");
    assert_eq!(after_delete["recipe_id"], Value::Null);
    assert_eq!(after_delete["recipe_snapshot"], session["recipe_snapshot"]);
    assert_eq!(after_delete["recipe_snapshot"]["name"], "Brew Day IPA");
    app.stop().await;
}

#[tokio::test]
async fn create_validates_and_needs_the_callers_recipe() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let rid = post(&app, &other, "/v1/recipes", json!({"name": "Theirs"})).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, _) = call(
        app.with_key(Method::POST, "/v1/sessions", &acct.key)
            .json(&json!({"recipe_id": rid, "brew_date": "2026-11-28"})),
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = call(
        app.with_key(Method::POST, "/v1/sessions", &acct.key)
            .json(&json!({"recipe_id": random_id(), "brew_date": "2026-11-28"})),
    )
    .await;
    assert_eq!(status, 404);
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/sessions", &acct.key)
            .json(&json!({"recipe_id": "nope", "brew_date": "28/11/2026", "status": "bottled"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_string", "recipe_id"),
            ("invalid_string", "brew_date"),
            ("invalid_enum_value", "status")
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    assert_eq!(body["details"][0]["validation"], "uuid");
    assert_eq!(body["details"][1]["validation"], "date");
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/sessions", &acct.key)
            .json(&json!({})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("invalid_type", "recipe_id"), ("invalid_type", "brew_date")]
            .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    app.stop().await;
}

#[tokio::test]
async fn the_state_machine_allows_forward_moves_and_abandoning_only() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = post(&app, &acct, "/v1/recipes", json!({"name": "States"})).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let all = [
        "planned",
        "brewing",
        "fermenting",
        "conditioning",
        "completed",
        "abandoned",
    ];
    let rank = |s: &str| all.iter().position(|x| *x == s).unwrap();
    let allowed = |from: &str, to: &str| {
        from == to
            || (!matches!(from, "completed" | "abandoned")
                && (to == "abandoned" || rank(to) > rank(from)))
    };
    // What the session offers: exactly the allowed moves away from where it is, in this order.
    let offered = |from: &str| {
        json!(
            all.iter()
                .filter(|to| **to != from && allowed(from, to))
                .collect::<Vec<_>>()
        )
    };
    assert_eq!(
        offered("planned"),
        json!([
            "brewing",
            "fermenting",
            "conditioning",
            "completed",
            "abandoned"
        ])
    );
    assert_eq!(offered("completed"), json!([]));
    for from in all {
        for to in all {
            // A session created straight into `from`.
            let s = post(
                &app,
                &acct,
                "/v1/sessions",
                json!({"recipe_id": rid, "brew_date": "2026-11-28", "status": from}),
            )
            .await;
            assert_eq!(s["next_statuses"], offered(from), "{from}");
            let path = format!("/v1/sessions/{}", s["id"].as_str().unwrap());
            let (status, body) = call(
                app.with_key(Method::PATCH, &path, &acct.key)
                    .json(&json!({"status": to, "notes": "x"})),
            )
            .await;
            if allowed(from, to) {
                assert_eq!(status, 200, "{from} → {to}: {body}");
                assert_eq!(body["status"], to);
                assert_eq!(body["next_statuses"], offered(to), "{from} → {to}");
            } else {
                assert_eq!(status, 422, "{from} → {to}");
                assert_eq!(
                    issue_codes(&body),
                    [("invalid_transition".to_owned(), "status".to_owned())]
                );
                assert_eq!(
                    (
                        body["details"][0]["from"].as_str(),
                        body["details"][0]["to"].as_str()
                    ),
                    (Some(from), Some(to))
                );
                let (_, unchanged) = call(app.with_key(Method::GET, &path, &acct.key)).await;
                assert_eq!(unchanged["notes"], Value::Null, "nothing half-written");
            }
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn entering_a_state_stamps_it_and_skipped_states_stay_null() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, s) = recipe_and_session(
        &app,
        &acct,
        "Phases",
        json!({"brew_date": "2026-11-28", "status": "brewing"}),
    )
    .await;
    assert!(
        s["brewing_started_at"].is_string(),
        "a status given on create is entered at once"
    );
    let path = format!("/v1/sessions/{}", s["id"].as_str().unwrap());
    let (_, same) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"status": "brewing"})),
    )
    .await;
    assert_eq!(
        same["brewing_started_at"], s["brewing_started_at"],
        "re-sending the status is a no-op"
    );
    let (_, conditioning) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"status": "conditioning", "measured_og": 1.052, "measured_fg": 1.012})),
    )
    .await;
    assert!(conditioning["conditioning_started_at"].is_string());
    assert_eq!(
        conditioning["fermenting_started_at"],
        Value::Null,
        "skipped"
    );
    assert_eq!(conditioning["measured_abv"], 5.25);
    let (_, cleared) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"measured_fg": null})),
    )
    .await;
    assert_eq!(cleared["measured_abv"], Value::Null);
    let (status, body) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"measured_og": 1.3, "name": null, "brew_date": "soon"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_type", "name"),
            ("invalid_string", "brew_date"),
            ("too_big", "measured_og")
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    app.stop().await;
}

#[tokio::test]
async fn list_filters_by_status_and_recipe_and_sorts_by_brew_date() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let r1 = post(&app, &acct, "/v1/recipes", json!({"name": "One"})).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r2 = post(&app, &acct, "/v1/recipes", json!({"name": "Two"})).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for (rid, date, status) in [
        (&r1, "2026-01-01", "completed"),
        (&r1, "2026-03-01", "planned"),
        (&r2, "2026-02-01", "planned"),
    ] {
        post(
            &app,
            &acct,
            "/v1/sessions",
            json!({"recipe_id": rid, "brew_date": date, "status": status}),
        )
        .await;
    }
    let dates = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s["brew_date"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let res = app
        .with_key(Method::GET, "/v1/sessions?limit=2", &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-total-count"], "3");
    assert_eq!(
        res.headers()["link"],
        "</v1/sessions?limit=2&offset=2>; rel=\"next\""
    );
    assert_eq!(
        dates(&res.json().await.unwrap()),
        ["2026-03-01", "2026-02-01"]
    );
    let (_, planned) =
        call(app.with_key(Method::GET, "/v1/sessions?status=planned", &acct.key)).await;
    assert_eq!(dates(&planned), ["2026-03-01", "2026-02-01"]);
    let (_, of_r1) = call(app.with_key(
        Method::GET,
        &format!("/v1/sessions?recipe_id={r1}"),
        &acct.key,
    ))
    .await;
    assert_eq!(dates(&of_r1), ["2026-03-01", "2026-01-01"]);
    for bad in ["status=bottled", "recipe_id=nope", "limit=0"] {
        assert_eq!(
            call(app.with_key(Method::GET, &format!("/v1/sessions?{bad}"), &acct.key))
                .await
                .0,
            400,
            "{bad}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn steps_tick_untick_and_custom_steps_append() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, s) = recipe_and_session(&app, &acct, "Steps", json!({"brew_date": "2026-11-28"})).await;
    let sid = s["id"].as_str().unwrap();
    let (_, steps) =
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}/steps"), &acct.key)).await;
    let generated = steps.as_array().unwrap().len();
    assert_eq!(
        generated, 6,
        "no ingredients: strike, sparge, boil, chill, transfer, pitch: {steps}"
    );
    let step_path = format!("/v1/steps/{}", steps[0]["id"].as_str().unwrap());
    let (status, ticked) = call(
        app.with_key(Method::PATCH, &step_path, &acct.key)
            .json(&json!({"completed": true})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(ticked["completed"], true);
    assert!(ticked["completed_at"].is_string());
    let (_, again) = call(
        app.with_key(Method::PATCH, &step_path, &acct.key)
            .json(&json!({"completed": true})),
    )
    .await;
    assert_eq!(
        again["completed_at"], ticked["completed_at"],
        "ticking twice keeps the first time"
    );
    let (_, unticked) = call(
        app.with_key(Method::PATCH, &step_path, &acct.key)
            .json(&json!({"completed": false})),
    )
    .await;
    assert_eq!(
        (unticked["completed"].as_bool(), &unticked["completed_at"]),
        (Some(false), &Value::Null)
    );

    let custom = post(
        &app,
        &acct,
        &format!("/v1/sessions/{sid}/steps"),
        json!({"title": "Clean up", "duration_minutes": 30}),
    )
    .await;
    assert_eq!(custom["sort_order"], generated as i64);
    assert_eq!(custom["description"], Value::Null);
    let (status, body) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/sessions/{sid}/steps"),
            &acct.key,
        )
        .json(&json!({"title": ""})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("too_small".to_owned(), "title".to_owned())]
    );
    let (status, body) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/sessions/{sid}/steps"),
            &acct.key,
        )
        .json(&json!({})),
    )
    .await;
    assert_eq!(
        (status, issue_codes(&body)),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            vec![("invalid_type".to_owned(), "title".to_owned())]
        )
    );
    let res = app
        .with_key(
            Method::DELETE,
            &format!("/v1/steps/{}", custom["id"].as_str().unwrap()),
            &acct.key,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    let (_, session) =
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}"), &acct.key)).await;
    assert_ne!(
        session["updated_at"], s["updated_at"],
        "step writes bump the session"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_checklist_reads_in_the_callers_units_and_typed_text_stays_as_typed() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = full_recipe(&app, &acct).await;
    let session = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": rid, "brew_date": "2026-11-28"}),
    )
    .await;
    let sid = session["id"].as_str().unwrap();
    let steps_path = format!("/v1/sessions/{sid}/steps");
    let (_, metric) = call(app.with_key(Method::GET, &steps_path, &acct.key)).await;
    // The numbers travel as numbers, metric, whatever the caller's units.
    assert_eq!(
        metric[0]["quantities"],
        json!([
            {"kind": "volume", "value": 15.0, "unit": "L"},
            {"kind": "temperature", "value": 66.0, "unit": "°C"}
        ])
    );
    assert_eq!(metric[2]["quantities"][1]["kind"], "duration");

    let (status, _) = call(
        app.with_key(Method::PATCH, "/v1/me/preferences", &acct.key)
            .json(&json!({"amounts": "us", "temperature": "f", "gravity": "plato"})),
    )
    .await;
    assert_eq!(status, 200);
    let (_, us) = call(app.with_key(Method::GET, &steps_path, &acct.key)).await;
    let titles: Vec<&str> = us
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        &titles[..6],
        [
            "Heat strike water",
            "Add 0.18 oz Gypsum to the mash",
            "Mash: Saccharification at 151 °F for 60 min",
            "Mash: Mash out at 169 °F for 10 min",
            "Sparge and lauter",
            "Add 0.71 oz Magnum as a first-wort addition",
        ]
    );
    assert_eq!(
        us[0]["description"],
        "Heat 3.96 gal of strike water for a 151 °F rest."
    );
    assert_eq!(us[0]["quantities"], metric[0]["quantities"]);

    // A person's words in a generated step stay exactly as typed, braces included; the
    // description, still generated, keeps following the caller's units.
    let step_path = format!("/v1/steps/{}", us[0]["id"].as_str().unwrap());
    let (status, edited) = call(
        app.with_key(Method::PATCH, &step_path, &acct.key)
            .json(&json!({"title": "Strike {0} water {hot}"})),
    )
    .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["title"], "Strike {0} water {hot}");
    assert_eq!(
        edited["description"],
        "Heat 3.96 gal of strike water for a 151 °F rest."
    );
    // A step a person adds is never rendered, even with a brace-number in it.
    let custom = post(&app, &acct, &steps_path, json!({"title": "Add {0} love"})).await;
    assert_eq!(custom["title"], "Add {0} love");
    assert_eq!(custom["quantities"], json!([]));
    app.stop().await;
}

#[tokio::test]
async fn the_session_reports_fermentation_so_far_from_its_latest_gravity() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let rid = full_recipe(&app, &acct).await;
    let s = post(
        &app,
        &acct,
        "/v1/sessions",
        json!({"recipe_id": rid, "brew_date": "2026-11-20", "status": "fermenting"}),
    )
    .await;
    let sid = s["id"].as_str().unwrap();
    let path = format!("/v1/sessions/{sid}");
    let logs = format!("{path}/fermentation-logs");
    let planned = s["recipe_snapshot"]["stats"]["og"].as_f64().unwrap();
    assert!(planned > 1.0, "{planned}");
    assert_eq!(
        s["fermentation"],
        json!({
            "original_gravity": planned,
            "latest_gravity": null,
            "apparent_attenuation_percent": null,
            "abv_percent": null
        }),
        "the planned OG until one is measured, nothing so far before a reading"
    );

    // The latest reading by logged_at that has a gravity counts, whatever order they came in.
    let kept = post(
        &app,
        &acct,
        &logs,
        json!({"logged_at": "2026-11-21T08:00:00Z", "gravity": 1.042}),
    )
    .await;
    let latest = post(
        &app,
        &acct,
        &logs,
        json!({"logged_at": "2026-11-22T08:00:00Z", "gravity": 1.020}),
    )
    .await;
    post(
        &app,
        &acct,
        &logs,
        json!({"logged_at": "2026-11-20T20:00:00Z", "gravity": 1.050}),
    )
    .await;
    post(
        &app,
        &acct,
        &logs,
        json!({"logged_at": "2026-11-23T08:00:00Z", "temperature_c": 18.5}),
    )
    .await;
    let (_, got) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    let round = |x: f64, d: i32| (x * 10f64.powi(d)).round() / 10f64.powi(d);
    assert_eq!(
        got["fermentation"],
        json!({
            "original_gravity": planned,
            "latest_gravity": 1.020,
            "apparent_attenuation_percent": round((planned - 1.020) / (planned - 1.0) * 100.0, 1),
            "abv_percent": round((planned - 1.020) * 131.25, 2)
        })
    );

    // A measured OG replaces the planned one: 32 of 52 points gone, 4.2 % so far.
    let (status, updated) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"measured_og": 1.052})),
    )
    .await;
    assert_eq!(status, 200, "{updated}");
    let measured = json!({
        "original_gravity": 1.052,
        "latest_gravity": 1.020,
        "apparent_attenuation_percent": 61.5,
        "abv_percent": 4.2
    });
    assert_eq!(updated["fermentation"], measured);
    let (_, list) = call(app.with_key(Method::GET, "/v1/sessions", &acct.key)).await;
    assert_eq!(list[0]["fermentation"], measured, "the list says the same");

    // Deleting the latest reading falls back to the one before: 10 of 52 points, 1.3125 %.
    let (status, _) = call(app.with_key(
        Method::DELETE,
        &format!("/v1/fermentation-logs/{}", latest["id"].as_str().unwrap()),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 204);
    let (_, got) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(
        got["fermentation"],
        json!({
            "original_gravity": 1.052,
            "latest_gravity": kept["gravity"],
            "apparent_attenuation_percent": 19.2,
            "abv_percent": 1.31
        })
    );
    app.stop().await;
}

#[tokio::test]
async fn fermentation_logs_record_list_by_range_and_report_the_latest() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, s) = recipe_and_session(
        &app,
        &acct,
        "Logs",
        json!({"brew_date": "2026-11-20", "status": "fermenting"}),
    )
    .await;
    let sid = s["id"].as_str().unwrap();
    let logs = format!("/v1/sessions/{sid}/fermentation-logs");
    assert_eq!(
        call(app.with_key(Method::GET, &format!("{logs}/latest"), &acct.key))
            .await
            .0,
        404,
        "none yet"
    );

    app.clock.advance(time::Duration::minutes(1));
    let now_log = post(&app, &acct, &logs, json!({"temperature_c": 19.5})).await;
    assert!(
        now_log["logged_at"].is_string(),
        "logged_at defaults to now"
    );
    assert_eq!(now_log["gravity_unit"], "sg");
    let (_, session) =
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}"), &acct.key)).await;
    assert_eq!(
        (&session["updated_at"], &now_log["logged_at"]),
        (&now_log["created_at"], &now_log["created_at"]),
        "a reading bumps its session's updated_at and defaults to now"
    );
    assert_ne!(session["updated_at"], s["updated_at"]);
    for (at, gravity) in [
        ("2026-11-01T08:00:00Z", 1.050),
        ("2026-11-02T08:00:00Z", 1.030),
        ("2026-11-01T20:00:00+02:00", 1.040),
    ] {
        post(
            &app,
            &acct,
            &logs,
            json!({"logged_at": at, "gravity": gravity, "gravity_unit": "plato"}),
        )
        .await;
    }
    let (status, day) = call(app.with_key(
        Method::GET,
        &format!("{logs}?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z"),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 200);
    let got: Vec<(&str, f64)> = day
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["logged_at"].as_str().unwrap(),
                l["gravity"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("2026-11-01T08:00:00.000Z", 1.050),
            ("2026-11-01T18:00:00.000Z", 1.040)
        ],
        "from ≤ logged_at < to, oldest first"
    );
    assert_eq!(day[0]["gravity_unit"], "plato");
    let res = app
        .with_key(Method::GET, &format!("{logs}?limit=2"), &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-total-count"], "4");
    assert_eq!(
        res.headers()["link"],
        format!("<{logs}?limit=2&offset=2>; rel=\"next\"")
    );
    let (_, latest) = call(app.with_key(Method::GET, &format!("{logs}/latest"), &acct.key)).await;
    assert_eq!(
        latest["id"], now_log["id"],
        "the most recent logged_at, not the last written"
    );

    for bad in [
        "from=yesterday",
        "to=2026-13-01T00:00:00Z",
        "limit=5001",
        "limit=0",
    ] {
        assert_eq!(
            call(app.with_key(Method::GET, &format!("{logs}?{bad}"), &acct.key))
                .await
                .0,
            400,
            "{bad}"
        );
    }
    assert_eq!(
        call(app.with_key(Method::GET, &format!("{logs}?limit=5000"), &acct.key))
            .await
            .0,
        200
    );

    let (status, body) = call(
        app.with_key(Method::POST, &logs, &acct.key)
            .json(&json!({"gravity_unit": "brix"})),
    )
    .await;
    assert_eq!(status, 422, "a reading needs a measurement");
    assert_eq!(body["details"][0]["code"], "custom");
    let (status, body) = call(
        app.with_key(Method::POST, &logs, &acct.key)
            .json(&json!({"gravity": 1.3, "ph": 15, "gravity_unit": "oe", "logged_at": "noon"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_string", "logged_at"),
            ("invalid_enum_value", "gravity_unit"),
            ("too_big", "gravity"),
            ("too_big", "ph")
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );

    let log_path = format!("/v1/fermentation-logs/{}", now_log["id"].as_str().unwrap());
    let (status, patched) = call(
        app.with_key(Method::PATCH, &log_path, &acct.key)
            .json(&json!({"gravity": 1.012, "notes": "krausen fell"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        (
            patched["gravity"].as_f64(),
            patched["temperature_c"].as_f64()
        ),
        (Some(1.012), Some(19.5))
    );
    let (status, _) = call(
        app.with_key(Method::PATCH, &log_path, &acct.key)
            .json(&json!({"gravity": null, "notes": null, "temperature_c": null})),
    )
    .await;
    assert_eq!(status, 422, "a reading cannot be emptied");
    assert_eq!(
        app.with_key(Method::DELETE, &log_path, &acct.key)
            .send()
            .await
            .unwrap()
            .status(),
        204
    );
    assert_eq!(
        call(app.with_key(Method::GET, &log_path, &acct.key))
            .await
            .0,
        404
    );
    app.stop().await;
}

#[tokio::test]
async fn deleting_a_session_takes_its_steps_and_logs_but_not_the_recipe() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (rid, s) =
        recipe_and_session(&app, &acct, "Keep me", json!({"brew_date": "2026-11-28"})).await;
    let sid = s["id"].as_str().unwrap();
    let log = post(
        &app,
        &acct,
        &format!("/v1/sessions/{sid}/fermentation-logs"),
        json!({"gravity": 1.05}),
    )
    .await;
    let (_, steps) =
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}/steps"), &acct.key)).await;
    let res = app
        .with_key(Method::DELETE, &format!("/v1/sessions/{sid}"), &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}"), &acct.key))
            .await
            .0,
        404
    );
    assert_eq!(
        call(app.with_key(Method::DELETE, &format!("/v1/sessions/{sid}"), &acct.key))
            .await
            .0,
        404
    );
    assert_eq!(
        call(app.with_key(
            Method::GET,
            &format!("/v1/fermentation-logs/{}", log["id"].as_str().unwrap()),
            &acct.key
        ))
        .await
        .0,
        404
    );
    assert_eq!(
        call(app.with_key(
            Method::GET,
            &format!("/v1/steps/{}", steps[0]["id"].as_str().unwrap()),
            &acct.key
        ))
        .await
        .0,
        404
    );
    assert_eq!(
        call(app.with_key(Method::GET, &format!("/v1/recipes/{rid}"), &acct.key))
            .await
            .0,
        200
    );
    app.stop().await;
}

#[tokio::test]
async fn every_session_step_and_log_route_hides_other_accounts() {
    let app = TestApp::spawn().await;
    let owner = app.account().await;
    let other = app.account().await;
    let (_, s) =
        recipe_and_session(&app, &owner, "Private", json!({"brew_date": "2026-11-28"})).await;
    let sid = s["id"].as_str().unwrap().to_owned();
    let log = post(
        &app,
        &owner,
        &format!("/v1/sessions/{sid}/fermentation-logs"),
        json!({"gravity": 1.05}),
    )
    .await;
    let (_, steps) = call(app.with_key(
        Method::GET,
        &format!("/v1/sessions/{sid}/steps"),
        &owner.key,
    ))
    .await;
    let step_id = steps[0]["id"].as_str().unwrap().to_owned();
    let log_id = log["id"].as_str().unwrap().to_owned();
    let missing = random_id();
    let routes: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/v1/sessions/{s}".into(), None),
        (
            Method::PATCH,
            "/v1/sessions/{s}".into(),
            Some(json!({"status": "brewing"})),
        ),
        (Method::GET, "/v1/sessions/{s}/steps".into(), None),
        (
            Method::POST,
            "/v1/sessions/{s}/steps".into(),
            Some(json!({"title": "Sneaky"})),
        ),
        (
            Method::GET,
            "/v1/sessions/{s}/fermentation-logs".into(),
            None,
        ),
        (
            Method::POST,
            "/v1/sessions/{s}/fermentation-logs".into(),
            Some(json!({"gravity": 1.01})),
        ),
        (
            Method::GET,
            "/v1/sessions/{s}/fermentation-logs/latest".into(),
            None,
        ),
        (Method::GET, "/v1/steps/{st}".into(), None),
        (
            Method::PATCH,
            "/v1/steps/{st}".into(),
            Some(json!({"completed": true})),
        ),
        (Method::GET, "/v1/fermentation-logs/{l}".into(), None),
        (
            Method::PATCH,
            "/v1/fermentation-logs/{l}".into(),
            Some(json!({"notes": "mine"})),
        ),
        (Method::DELETE, "/v1/steps/{st}".into(), None),
        (Method::DELETE, "/v1/fermentation-logs/{l}".into(), None),
        (Method::DELETE, "/v1/sessions/{s}".into(), None),
    ];
    for (method, template, body) in routes {
        let fill = |s: &str, st: &str, l: &str| {
            template
                .replace("{s}", s)
                .replace("{st}", st)
                .replace("{l}", l)
        };
        let send = |path: String| {
            let req = app.with_key(method.clone(), &path, &other.key);
            match &body {
                Some(b) => req.json(b),
                None => req,
            }
        };
        let theirs = call(send(fill(&sid, &step_id, &log_id))).await;
        assert_eq!(theirs.0, 404, "{method} {template}");
        assert_eq!(
            theirs,
            call(send(fill(&missing, &missing, &missing))).await,
            "{method} {template}"
        );
    }
    let (_, still) =
        call(app.with_key(Method::GET, &format!("/v1/sessions/{sid}"), &owner.key)).await;
    assert_eq!(still["status"], "planned");
    let (_, logs) = call(app.with_key(
        Method::GET,
        &format!("/v1/sessions/{sid}/fermentation-logs"),
        &owner.key,
    ))
    .await;
    assert_eq!(logs.as_array().unwrap().len(), 1);
    app.stop().await;
}

/// A one-day range of a session with 100,000 readings is an index range scan on
/// (session_id, logged_at), not a scan of the session's readings.
#[tokio::test]
async fn a_day_of_readings_is_an_index_range_scan_even_with_100000_readings() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, s) = recipe_and_session(
        &app,
        &acct,
        "Busy sensor",
        json!({"brew_date": "2026-01-01"}),
    )
    .await;
    let sid = s["id"].as_str().unwrap();
    // One reading a minute for ~70 days, written straight into the database.
    let sql = format!(
        "INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, gravity, gravity_unit, created_at) \
         SELECT gen_random_uuid(), '{user}', '{sid}', timestamptz '2026-01-01' + n * interval '1 minute', 1.05, 'sg', now() \
         FROM generate_series(1, 100000) AS n; ANALYZE fermentation_logs;",
        user = acct.id
    );
    psql(&sql);
    let plan = psql(&format!(
        "EXPLAIN SELECT * FROM fermentation_logs WHERE session_id = '{sid}' AND user_id = '{}' \
         AND logged_at >= '2026-02-01T00:00:00Z' AND logged_at < '2026-02-02T00:00:00Z' ORDER BY logged_at, id LIMIT 1000",
        acct.id
    ));
    assert!(
        plan.contains("fermentation_logs_session_time_idx"),
        "{plan}"
    );
    assert!(!plan.contains("Seq Scan"), "{plan}");
    let (status, day) = call(app.with_key(
        Method::GET,
        &format!(
            "/v1/sessions/{sid}/fermentation-logs?from=2026-02-01T00:00:00Z&to=2026-02-02T00:00:00Z"
        ),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        day.as_array().unwrap().len(),
        1000,
        "1,440 readings that day, first page of 1,000"
    );
    // The total comes with the page, and with an empty page past the end too.
    let day_path = format!(
        "/v1/sessions/{sid}/fermentation-logs?from=2026-02-01T00:00:00Z&to=2026-02-02T00:00:00Z"
    );
    for (query, len) in [("", 1000), ("&offset=1000", 440), ("&offset=5000", 0)] {
        let res = app
            .with_key(Method::GET, &format!("{day_path}{query}"), &acct.key)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{query}");
        assert_eq!(res.headers()["x-total-count"], "1440", "{query}");
        let page: Value = res.json().await.unwrap();
        assert_eq!(page.as_array().unwrap().len(), len, "{query}");
    }
    // Another account's session is not found, with readings in the range or without.
    let other = app.account().await;
    for path in [
        day_path.clone(),
        format!("/v1/sessions/{sid}/fermentation-logs?from=2030-01-01T00:00:00Z"),
    ] {
        let (status, _) = call(app.with_key(Method::GET, &path, &other.key)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    app.stop().await;
}

/// Runs SQL through `psql` against the test database and returns what it printed.
fn psql(sql: &str) -> String {
    let out = std::process::Command::new("psql")
        .args([
            &crate::support::database_url(),
            "-X",
            "-q",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-c",
            sql,
        ])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
