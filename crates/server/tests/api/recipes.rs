//! Recipes end to end.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestApp, call, issue_codes, random_id};

async fn create(app: &TestApp, key: &str, body: Value) -> Value {
    let (status, recipe) = call(app.with_key(Method::POST, "/v1/recipes", key).json(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{recipe}");
    recipe
}

#[tokio::test]
async fn create_applies_defaults_and_read_embeds_child_arrays() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = create(
        &app,
        &acct.key,
        json!({"name": "  Pale Ale ", "unknown": 1, "user_id": "x"}),
    )
    .await;
    assert_eq!(recipe["name"], "  Pale Ale ", "stored exactly as sent");
    assert_eq!(recipe["style"], "");
    assert_eq!(recipe["type"], "all_grain");
    assert_eq!(recipe["batch_size_liters"], 20.0);
    assert_eq!(recipe["boil_time_minutes"], 60.0);
    assert_eq!(recipe["efficiency"], 0.72);
    assert_eq!(recipe["notes"], Value::Null);
    assert_eq!(recipe["est_color_srm"], 0.0);
    assert_eq!(recipe["user_id"], acct.id.as_str());
    assert!(recipe.get("unknown").is_none());
    assert_eq!(recipe["created_at"], recipe["updated_at"]);
    let ts = recipe["created_at"].as_str().unwrap();
    assert!(ts.len() == 24 && ts.ends_with('Z'), "{ts}");

    let id = recipe["id"].as_str().unwrap();
    let (status, full) = call(app.with_key(
        Method::GET,
        &format!("/v1/recipes/{}", id.to_uppercase()),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 200, "UUIDs in paths are case-insensitive");
    for list in ["fermentables", "hops", "yeasts", "miscs", "mash_steps"] {
        assert_eq!(full[list], json!([]), "{list}");
    }
    assert_eq!(full["name"], recipe["name"]);
    app.stop().await;
}

#[tokio::test]
async fn patch_changes_only_what_is_sent() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = create(
        &app,
        &acct.key,
        json!({"name": "Stout", "notes": "roasty", "style": "Dry Stout"}),
    )
    .await;
    let path = format!("/v1/recipes/{}", recipe["id"].as_str().unwrap());

    let (status, same) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        same, recipe,
        "empty PATCH changes nothing, updated_at included"
    );
    let (_, same) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"id": "x", "est_color_srm": 3})),
    )
    .await;
    assert_eq!(same, recipe, "read-only fields are ignored");

    let (status, patched) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"efficiency": 0.8, "notes": null})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(patched["efficiency"], 0.8);
    assert_eq!(patched["notes"], Value::Null);
    assert_eq!(patched["style"], "Dry Stout");
    assert_eq!(patched["name"], "Stout");
    assert_ne!(patched["updated_at"], recipe["updated_at"]);
    assert_eq!(patched["created_at"], recipe["created_at"]);

    let (status, body) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"name": null, "type": "nope", "efficiency": -0.1})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_type", "name"),
            ("invalid_enum_value", "type"),
            ("too_small", "efficiency")
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    let (_, unchanged) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(unchanged["efficiency"], 0.8, "nothing half-written");
    app.stop().await;
}

#[tokio::test]
async fn delete_is_204_then_404() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipe = create(&app, &acct.key, json!({"name": "Gone"})).await;
    let path = format!("/v1/recipes/{}", recipe["id"].as_str().unwrap());
    let res = app
        .with_key(Method::DELETE, &path, &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert!(res.text().await.unwrap().is_empty());
    assert_eq!(
        call(app.with_key(Method::DELETE, &path, &acct.key)).await,
        (StatusCode::NOT_FOUND, json!({"error": "Not found"}))
    );
    assert_eq!(
        call(app.with_key(Method::GET, &path, &acct.key)).await.0,
        404
    );
    app.stop().await;
}

#[tokio::test]
async fn another_accounts_recipe_is_indistinguishable_from_a_missing_one() {
    let app = TestApp::spawn().await;
    let owner = app.account().await;
    let other = app.account().await;
    let recipe = create(&app, &owner.key, json!({"name": "Mine"})).await;
    let theirs = format!("/v1/recipes/{}", recipe["id"].as_str().unwrap());
    let missing = format!("/v1/recipes/{}", random_id());
    for (method, body) in [
        (Method::GET, None),
        (Method::PATCH, Some(json!({"name": "Stolen"}))),
        (Method::DELETE, None),
    ] {
        let send = |path: &str| {
            let req = app.with_key(method.clone(), path, &other.key);
            match &body {
                Some(b) => req.json(b),
                None => req,
            }
        };
        let a = send(&theirs).send().await.unwrap();
        let b = send(&missing).send().await.unwrap();
        assert_eq!(a.status(), 404);
        assert_eq!(
            (a.status(), a.text().await.unwrap()),
            (b.status(), b.text().await.unwrap()),
            "{method}"
        );
    }
    let (_, list) = call(app.with_key(Method::GET, "/v1/recipes", &other.key)).await;
    assert_eq!(list, json!([]));
    let (_, still) = call(app.with_key(Method::GET, &theirs, &owner.key)).await;
    assert_eq!(still["name"], "Mine");
    app.stop().await;
}

/// `X-Total-Count` of `GET /v1/recipes?<query>`.
async fn total(app: &TestApp, key: &str, query: &str) -> String {
    let res = app
        .with_key(Method::GET, &format!("/v1/recipes?{query}"), key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    res.headers()["x-total-count"].to_str().unwrap().to_owned()
}

/// The unfiltered total comes from a per-account counter kept by triggers (migration 000008),
/// the filtered one from counting: both must agree with what is there.
#[tokio::test]
async fn the_total_follows_creates_copies_and_deletes_even_concurrent_ones() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    create(&app, &other.key, json!({"name": "Theirs"})).await;
    assert_eq!(total(&app, &acct.key, "limit=1").await, "0");

    let made = futures_util::future::join_all(
        (0..20).map(|i| create(&app, &acct.key, json!({"name": format!("R{i}")}))),
    )
    .await;
    assert_eq!(total(&app, &acct.key, "limit=1").await, "20");

    let copied = app.with_key(
        Method::POST,
        &format!("/v1/recipes/{}/copy", made[0]["id"].as_str().unwrap()),
        &acct.key,
    );
    assert_eq!(call(copied).await.0, StatusCode::CREATED);
    assert_eq!(total(&app, &acct.key, "").await, "21");

    // R2 and R3 go; R1 and R10–R19 are the eleven names containing "R1".
    let deletes = made[2..4].iter().map(|r| {
        call(app.with_key(
            Method::DELETE,
            &format!("/v1/recipes/{}", r["id"].as_str().unwrap()),
            &acct.key,
        ))
    });
    for (status, _) in futures_util::future::join_all(deletes).await {
        assert_eq!(status, StatusCode::NO_CONTENT);
    }
    assert_eq!(total(&app, &acct.key, "sort=name&offset=100").await, "19");
    // The counter also drives `Link`: a next page while more remain, none after.
    let page = |query: &str| {
        app.with_key(Method::GET, &format!("/v1/recipes?{query}"), &acct.key)
            .send()
    };
    let res = page("limit=10&offset=5").await.unwrap();
    assert_eq!(
        res.headers()["link"],
        "</v1/recipes?limit=10&offset=15>; rel=\"next\""
    );
    assert_eq!(
        res.json::<Value>().await.unwrap().as_array().unwrap().len(),
        10
    );
    let res = page("limit=10&offset=15").await.unwrap();
    assert!(res.headers().get("link").is_none());
    assert_eq!(
        res.json::<Value>().await.unwrap().as_array().unwrap().len(),
        4
    );
    assert_eq!(total(&app, &acct.key, "q=r1").await, "11");
    assert_eq!(total(&app, &acct.key, "type=all_grain").await, "19");
    assert_eq!(total(&app, &acct.key, "type=extract").await, "0");
    assert_eq!(total(&app, &other.key, "").await, "1", "the other account");
    app.stop().await;
}

#[tokio::test]
async fn list_filters_sorts_and_pages() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    for (name, style, kind) in [
        ("banana Wheat", "Weissbier", "all_grain"),
        ("Apple 100%_Cider", "Cider", "extract"),
        ("cherry Stout", "Stout", "partial_mash"),
        ("Dunkel", "wheat dark", "all_grain"),
    ] {
        create(
            &app,
            &acct.key,
            json!({"name": name, "style": style, "type": kind}),
        )
        .await;
    }
    let names = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };

    let res = app
        .with_key(Method::GET, "/v1/recipes", &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-total-count"], "4");
    assert!(res.headers().get("link").is_none());
    let all: Value = res.json().await.unwrap();
    assert_eq!(
        names(&all),
        ["Dunkel", "cherry Stout", "Apple 100%_Cider", "banana Wheat"],
        "default -updated_at"
    );

    let (_, by_name) = call(app.with_key(Method::GET, "/v1/recipes?sort=name", &acct.key)).await;
    assert_eq!(
        names(&by_name),
        ["Apple 100%_Cider", "banana Wheat", "cherry Stout", "Dunkel"],
        "case-insensitive"
    );
    let (_, wheat) =
        call(app.with_key(Method::GET, "/v1/recipes?q=WHEAT&sort=name", &acct.key)).await;
    assert_eq!(
        names(&wheat),
        ["banana Wheat", "Dunkel"],
        "q matches name or style"
    );
    let (_, literal) = call(app.with_key(Method::GET, "/v1/recipes?q=0%25_", &acct.key)).await;
    assert_eq!(
        names(&literal),
        ["Apple 100%_Cider"],
        "% and _ match themselves"
    );
    let (_, none) = call(app.with_key(Method::GET, "/v1/recipes?q=_x", &acct.key)).await;
    assert_eq!(none, json!([]));
    let (_, extract) = call(app.with_key(Method::GET, "/v1/recipes?type=extract", &acct.key)).await;
    assert_eq!(names(&extract), ["Apple 100%_Cider"]);

    let res = app
        .with_key(Method::GET, "/v1/recipes?sort=-name&limit=3&q=e", &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-total-count"], "4");
    assert_eq!(
        res.headers()["link"],
        "</v1/recipes?q=e&sort=-name&limit=3&offset=3>; rel=\"next\""
    );
    assert_eq!(
        names(&res.json().await.unwrap()),
        ["Dunkel", "cherry Stout", "banana Wheat"]
    );
    let (_, last) = call(app.with_key(
        Method::GET,
        "/v1/recipes?sort=-name&limit=3&offset=3",
        &acct.key,
    ))
    .await;
    assert_eq!(names(&last), ["Apple 100%_Cider"]);

    for bad in [
        "limit=0",
        "limit=201",
        "limit=abc",
        "offset=-1",
        "type=lager",
        "sort=style",
    ] {
        let (status, body) =
            call(app.with_key(Method::GET, &format!("/v1/recipes?{bad}"), &acct.key)).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let (_, beyond) = call(app.with_key(Method::GET, "/v1/recipes?offset=100", &acct.key)).await;
    assert_eq!(beyond, json!([]));
    app.stop().await;
}
