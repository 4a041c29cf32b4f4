//! The inventory.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestApp, call, issue_codes, random_id};

async fn add(app: &TestApp, key: &str, body: Value) -> Value {
    let (status, item) = call(app.with_key(Method::POST, "/v1/inventory", key).json(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{item}");
    item
}

#[tokio::test]
async fn create_applies_the_seed_defaults_and_requires_category_and_name() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let item = add(
        &app,
        &acct.key,
        json!({"category": "hop", "name": "Cascade", "alpha_acid": 5.5, "year": 2025}),
    )
    .await;
    assert_eq!(item["amount"], 0.0);
    assert_eq!(item["amount_unit"], "kg");
    assert_eq!(item["alpha_acid"], 5.5);
    assert_eq!(item["year"], 2025);
    for nullable in [
        "type",
        "form",
        "origin",
        "color_srm",
        "yield_percent",
        "attenuation",
        "notes",
    ] {
        assert_eq!(item[nullable], Value::Null, "{nullable}");
    }
    assert_eq!(item["user_id"], acct.id.as_str());

    let (status, body) = call(app.with_key(Method::POST, "/v1/inventory", &acct.key).json(
        &json!({
            "name": "", "amount": -1, "amount_unit": "", "year": 2025.5, "category": "grain"
        }),
    ))
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_enum_value", "category"),
            ("too_small", "name"),
            ("too_small", "amount"),
            ("too_small", "amount_unit"),
            ("not_integer", "year")
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/inventory", &acct.key)
            .json(&json!({})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("invalid_type", "category"), ("invalid_type", "name")]
            .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    app.stop().await;
}

#[tokio::test]
async fn list_is_ordered_by_category_then_name_and_filters() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    for (category, name) in [
        ("yeast", "US-05"),
        ("hop", "citra"),
        ("fermentable", "Pilsner"),
        ("hop", "Amarillo"),
        ("misc", "Irish moss"),
    ] {
        add(&app, &acct.key, json!({"category": category, "name": name})).await;
    }
    let names = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let res = app
        .with_key(Method::GET, "/v1/inventory", &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-total-count"], "5");
    assert_eq!(
        names(&res.json().await.unwrap()),
        ["Pilsner", "Amarillo", "citra", "US-05", "Irish moss"]
    );
    let (_, hops) = call(app.with_key(Method::GET, "/v1/inventory?category=hop", &acct.key)).await;
    assert_eq!(names(&hops), ["Amarillo", "citra"]);
    let (_, found) = call(app.with_key(Method::GET, "/v1/inventory?q=PILS", &acct.key)).await;
    assert_eq!(names(&found), ["Pilsner"]);
    let res = app
        .with_key(Method::GET, "/v1/inventory?limit=2&offset=2", &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.headers()["link"],
        "</v1/inventory?limit=2&offset=4>; rel=\"next\""
    );
    assert_eq!(names(&res.json().await.unwrap()), ["citra", "US-05"]);
    assert_eq!(
        call(app.with_key(Method::GET, "/v1/inventory?category=grain", &acct.key))
            .await
            .0,
        400
    );
    app.stop().await;
}

#[tokio::test]
async fn patch_changes_any_field_including_category_and_clears_nullables() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let item = add(
        &app,
        &acct.key,
        json!({"category": "misc", "name": "Gypsum", "origin": "DE", "amount": 2}),
    )
    .await;
    let path = format!("/v1/inventory/{}", item["id"].as_str().unwrap());
    let (status, patched) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"category": "fermentable", "origin": null, "amount_unit": "g"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(patched["category"], "fermentable");
    assert_eq!(patched["origin"], Value::Null);
    assert_eq!(patched["amount_unit"], "g");
    assert_eq!(patched["amount"], 2.0);
    let (_, same) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({})),
    )
    .await;
    assert_eq!(same, patched);
    let (status, body) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"amount": null, "name": null})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("invalid_type", "name"), ("invalid_type", "amount")]
            .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    let res = app
        .with_key(Method::DELETE, &path, &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(
        call(app.with_key(Method::GET, &path, &acct.key)).await.0,
        404
    );
    app.stop().await;
}

#[tokio::test]
async fn adjust_is_atomic_and_never_goes_below_zero() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let item = add(
        &app,
        &acct.key,
        json!({"category": "fermentable", "name": "Maris Otter", "amount": 10}),
    )
    .await;
    let path = format!("/v1/inventory/{}/adjust", item["id"].as_str().unwrap());
    let (status, adjusted) = call(
        app.with_key(Method::POST, &path, &acct.key)
            .json(&json!({"delta": -2.5})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(adjusted["amount"], 7.5);
    assert_ne!(adjusted["updated_at"], item["updated_at"]);

    let (status, body) = call(
        app.with_key(Method::POST, &path, &acct.key)
            .json(&json!({"delta": -8})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("too_small".to_owned(), "amount".to_owned())]
    );
    let (status, body) = call(
        app.with_key(Method::POST, &path, &acct.key)
            .json(&json!({"delta": "1"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [("invalid_type".to_owned(), "delta".to_owned())]
    );

    // 40 concurrent adjusts of -0.125 and +0.25: none is lost.
    let mut tasks = Vec::new();
    for i in 0..40 {
        let req = app
            .with_key(Method::POST, &path, &acct.key)
            .json(&json!({"delta": if i % 2 == 0 { -0.125 } else { 0.25 }}));
        tasks.push(tokio::spawn(
            async move { req.send().await.unwrap().status() },
        ));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap(), 200);
    }
    let (_, now) = call(app.with_key(
        Method::GET,
        &format!("/v1/inventory/{}", item["id"].as_str().unwrap()),
        &acct.key,
    ))
    .await;
    assert_eq!(now["amount"], 7.5 + 20.0 * 0.25 - 20.0 * 0.125);

    // Concurrent draws that together exceed the stock: exactly the ones that fit succeed.
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let req = app
            .with_key(Method::POST, &path, &acct.key)
            .json(&json!({"delta": -1}));
        tasks.push(tokio::spawn(
            async move { req.send().await.unwrap().status() },
        ));
    }
    let mut ok = 0;
    for t in tasks {
        if t.await.unwrap() == 200 {
            ok += 1;
        }
    }
    assert_eq!(ok, 10, "10 kg on hand, 1 kg per draw");
    app.stop().await;
}

#[tokio::test]
async fn another_accounts_items_are_not_found() {
    let app = TestApp::spawn().await;
    let owner = app.account().await;
    let other = app.account().await;
    let item = add(
        &app,
        &owner.key,
        json!({"category": "yeast", "name": "WLP001", "amount": 1}),
    )
    .await;
    let id = item["id"].as_str().unwrap();
    let missing = random_id();
    for (method, suffix, body) in [
        (Method::GET, "", None),
        (Method::PATCH, "", Some(json!({"name": "mine now"}))),
        (Method::POST, "/adjust", Some(json!({"delta": -1}))),
        (Method::DELETE, "", None),
    ] {
        let send = |target: &str| {
            let req = app.with_key(
                method.clone(),
                &format!("/v1/inventory/{target}{suffix}"),
                &other.key,
            );
            match &body {
                Some(b) => req.json(b),
                None => req,
            }
        };
        let theirs = call(send(id)).await;
        assert_eq!(theirs, call(send(&missing)).await);
        assert_eq!(theirs.0, 404);
    }
    let (_, untouched) =
        call(app.with_key(Method::GET, &format!("/v1/inventory/{id}"), &owner.key)).await;
    assert_eq!(untouched, item);
    app.stop().await;
}
