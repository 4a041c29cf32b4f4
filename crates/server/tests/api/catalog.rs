//! The ingredient catalogue: built-in items, the account's own, search, and `catalog_id` links.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestApp, call, issue_codes, random_id};

/// The names of a list answer, in order.
fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_owned())
        .collect()
}

async fn search(app: &TestApp, key: &str, kind: &str, q: &str) -> Vec<String> {
    let (status, list) = call(
        app.with_key(Method::GET, &format!("/v1/catalog/{kind}"), key)
            .query(&[("q", q)]),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{list}");
    names(&list)
}

async fn create(app: &TestApp, key: &str, kind: &str, body: Value) -> Value {
    let (status, item) = call(
        app.with_key(Method::POST, &format!("/v1/catalog/{kind}"), key)
            .json(&body),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{item}");
    item
}

/// The id of the built-in item of `kind` named exactly `name`.
async fn builtin_id(app: &TestApp, key: &str, kind: &str, name: &str) -> String {
    let (_, list) = call(
        app.with_key(Method::GET, &format!("/v1/catalog/{kind}"), key)
            .query(&[("q", name), ("limit", "50")]),
    )
    .await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name && i["source"] == "builtin")
        .unwrap_or_else(|| panic!("no built-in {name}: {list}"))["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn searches_find_what_a_person_types() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let k = &acct.key;
    assert_eq!(search(&app, k, "hops", "citr").await[0], "Citra");
    assert_eq!(
        search(&app, k, "fermentables", "maris oter").await[0],
        "Maris Otter"
    );
    for q in ["us05", "US-05", "us 05"] {
        assert_eq!(search(&app, k, "yeasts", q).await[0], "SafAle US-05", "{q}");
    }
    assert_eq!(search(&app, k, "hops", "zatec").await[0], "Saaz");
    assert_eq!(search(&app, k, "hops", "ŽATEC").await[0], "Saaz");
    assert_eq!(
        search(&app, k, "hops", "cascde").await[0],
        "Cascade",
        "a typo"
    );
    assert!(search(&app, k, "hops", "qqqqzzzz").await.is_empty());
}

#[tokio::test]
async fn built_in_items_carry_their_kinds_fields() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, list) = call(
        app.with_key(Method::GET, "/v1/catalog/yeasts", &acct.key)
            .query(&[("q", "us-05")]),
    )
    .await;
    let us05 = &list[0];
    assert_eq!(us05["source"], "builtin");
    assert_eq!(us05["lab"], "Fermentis");
    assert_eq!(us05["product_id"], "US-05");
    assert_eq!(us05["type"], "ale");
    assert_eq!(us05["form"], "dry");
    assert!(us05["aliases"].as_array().unwrap().contains(&json!("US05")));
    for field in [
        "attenuation",
        "attenuation_min",
        "attenuation_max",
        "min_temp_c",
        "max_temp_c",
        "flocculation",
        "notes",
    ] {
        assert!(us05.get(field).is_some(), "{field} in {us05}");
    }
    assert!(us05.get("data_source").is_none());
    let id = us05["id"].as_str().unwrap();
    let (status, one) =
        call(app.with_key(Method::GET, &format!("/v1/catalog/yeasts/{id}"), &acct.key)).await;
    assert_eq!((status, &one), (StatusCode::OK, us05));
    // An id of another kind is not found.
    let (status, _) =
        call(app.with_key(Method::GET, &format!("/v1/catalog/hops/{id}"), &acct.key)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn without_a_search_the_list_is_alphabetical_and_paged() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let mine = create(&app, &acct.key, "miscs", json!({"name": "aaa my salt"})).await;
    let res = app
        .with_key(Method::GET, "/v1/catalog/miscs", &acct.key)
        .send()
        .await
        .unwrap();
    let total: i64 = res.headers()["x-total-count"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let first: Value = res.json().await.unwrap();
    assert_eq!(first.as_array().unwrap().len(), 20, "default limit");
    assert_eq!(first[0]["id"], mine["id"], "case-insensitive: aaa first");
    let list = names(&first);
    let mut sorted = list.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(list, sorted);

    let (_, all) = call(
        app.with_key(Method::GET, "/v1/catalog/miscs", &acct.key)
            .query(&[("limit", "50"), ("offset", "0")]),
    )
    .await;
    let res = app
        .with_key(Method::GET, "/v1/catalog/miscs", &acct.key)
        .query(&[("limit", "5"), ("offset", "3")])
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.headers()["x-total-count"].to_str().unwrap(),
        total.to_string()
    );
    let page: Value = res.json().await.unwrap();
    assert_eq!(page.as_array().unwrap()[..], all.as_array().unwrap()[3..8]);
    for (limit, offset) in [("0", "0"), ("51", "0"), ("x", "0"), ("5", "-1")] {
        let (status, _) = call(
            app.with_key(Method::GET, "/v1/catalog/miscs", &acct.key)
                .query(&[("limit", limit), ("offset", offset)]),
        )
        .await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "limit {limit} offset {offset}"
        );
    }
    // Another account does not see the item.
    let other = app.account().await;
    let (_, list) = call(
        app.with_key(Method::GET, "/v1/catalog/miscs", &other.key)
            .query(&[("q", "aaa my salt")]),
    )
    .await;
    assert!(!names(&list).contains(&"aaa my salt".to_owned()));
    // A session cookie reads too.
    let (status, _) = call(app.with_cookie(Method::GET, "/v1/catalog/hops", &acct.cookie)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn own_items_come_before_built_in_ones_of_equal_match() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let mine = create(
        &app,
        &acct.key,
        "hops",
        json!({"name": "Citra", "alpha_acid": 13.1}),
    )
    .await;
    let (_, list) = call(
        app.with_key(Method::GET, "/v1/catalog/hops", &acct.key)
            .query(&[("q", "citr")]),
    )
    .await;
    assert_eq!(list[0]["id"], mine["id"]);
    assert_eq!(list[0]["source"], "mine");
    assert_eq!(list[1]["name"], "Citra");
    assert_eq!(list[1]["source"], "builtin");
}

#[tokio::test]
async fn own_items_are_created_changed_and_deleted_built_in_ones_are_read_only() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let k = &acct.key;
    let item = create(
        &app,
        k,
        "yeasts",
        json!({"name": "House Kveik", "aliases": ["Voss-ish"], "lab": "Me", "type": "kveik",
               "form": "slant", "flocculation": "very_high", "attenuation": 80}),
    )
    .await;
    assert_eq!(item["source"], "mine");
    assert_eq!(item["aliases"], json!(["Voss-ish"]));
    assert_eq!(item["product_id"], Value::Null);
    assert_eq!(item["flocculation"], "very_high");
    let id = item["id"].as_str().unwrap().to_owned();
    assert_eq!(search(&app, k, "yeasts", "vossish").await[0], "House Kveik");

    let path = format!("/v1/catalog/yeasts/{id}");
    let (status, changed) = call(
        app.with_key(Method::PATCH, &path, k)
            .json(&json!({"lab": null, "attenuation_min": 75, "name": "House Kveik II"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    assert_eq!(changed["lab"], Value::Null);
    assert_eq!(changed["attenuation_min"], 75.0);
    assert_eq!(changed["attenuation"], 80.0, "untouched");
    assert_eq!(changed["type"], "kveik");
    let (status, same) = call(app.with_key(Method::PATCH, &path, k).json(&json!({}))).await;
    assert_eq!((status, &same), (StatusCode::OK, &changed));

    let (status, body) = call(
        app.with_key(Method::POST, "/v1/catalog/yeasts", k)
            .json(&json!({"aliases": ["", 3], "form": "powder", "attenuation": 101})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        issue_codes(&body),
        [
            ("too_small", "aliases.0"),
            ("invalid_type", "aliases.1"),
            ("invalid_enum_value", "form"),
            ("too_big", "attenuation"),
            ("invalid_type", "name"),
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );

    // Another account: 404 on each route.
    let other = app.account().await;
    for method in [Method::GET, Method::PATCH, Method::DELETE] {
        let (status, _) = call(
            app.with_key(method.clone(), &path, &other.key)
                .json(&json!({})),
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method}");
    }

    // Built-in: read-only.
    let saaz = builtin_id(&app, k, "hops", "Saaz").await;
    let saaz_path = format!("/v1/catalog/hops/{saaz}");
    let (status, body) = call(
        app.with_key(Method::PATCH, &saaz_path, k)
            .json(&json!({"alpha_acid": 9})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(body["error"].is_string(), "{body}");
    let (status, _) = call(app.with_key(Method::DELETE, &saaz_path, k)).await;
    assert_eq!(status, StatusCode::CONFLICT);

    let (status, body) = call(app.with_key(Method::DELETE, &path, k)).await;
    assert_eq!((status, body), (StatusCode::NO_CONTENT, Value::Null));
    let (status, _) = call(app.with_key(Method::DELETE, &path, k)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) =
        call(app.with_key(Method::GET, &format!("/v1/catalog/hops/{}", random_id()), k)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

async fn recipe(app: &TestApp, key: &str) -> String {
    let (status, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", key)
            .json(&json!({"name": "Linked"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{recipe}");
    recipe["id"].as_str().unwrap().to_owned()
}

async fn item(app: &TestApp, key: &str, kind: &str, id: &str) -> Value {
    let (status, item) =
        call(app.with_key(Method::GET, &format!("/v1/catalog/{kind}/{id}"), key)).await;
    assert_eq!(status, StatusCode::OK, "{item}");
    item
}

#[tokio::test]
async fn a_child_created_from_a_catalogue_item_takes_what_it_does_not_send() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let k = &acct.key;
    let recipe = recipe(&app, k).await;
    let add = |kind: &'static str, body: Value| {
        let path = format!("/v1/recipes/{recipe}/{kind}");
        let req = app.with_key(Method::POST, &path, k).json(&body);
        async move { call(req).await }
    };

    let saaz = builtin_id(&app, k, "hops", "Saaz").await;
    let saaz_item = item(&app, k, "hops", &saaz).await;
    let (status, hop) = add(
        "hops",
        json!({"catalog_id": saaz, "amount_grams": 30, "time_minutes": 60}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{hop}");
    assert_eq!(hop["name"], "Saaz");
    assert_eq!(hop["alpha_acid"], saaz_item["alpha_acid"]);
    assert_eq!(hop["catalog_id"], saaz.as_str());
    let (_, hop2) = add(
        "hops",
        json!({"catalog_id": saaz, "name": "My Saaz", "alpha_acid": 2.9,
               "amount_grams": 30, "time_minutes": 5}),
    )
    .await;
    assert_eq!(
        (&hop2["name"], &hop2["alpha_acid"]),
        (&json!("My Saaz"), &json!(2.9)),
        "sent wins"
    );

    let mo = builtin_id(&app, k, "fermentables", "Maris Otter").await;
    let mo_item = item(&app, k, "fermentables", &mo).await;
    let (status, malt) = add("fermentables", json!({"catalog_id": mo, "amount_kg": 5})).await;
    assert_eq!(status, StatusCode::CREATED, "{malt}");
    for field in ["name", "type", "color_srm", "yield_percent", "origin"] {
        assert_eq!(malt[field], mo_item[field], "{field}");
    }

    let us05 = builtin_id(&app, k, "yeasts", "SafAle US-05").await;
    let us05_item = item(&app, k, "yeasts", &us05).await;
    let (status, yeast) = add("yeasts", json!({"catalog_id": us05})).await;
    assert_eq!(status, StatusCode::CREATED, "{yeast}");
    for field in [
        "name",
        "lab",
        "product_id",
        "type",
        "form",
        "attenuation",
        "min_temp_c",
        "max_temp_c",
    ] {
        assert_eq!(yeast[field], us05_item[field], "{field}");
    }

    let salt = create(
        &app,
        k,
        "miscs",
        json!({"name": "Gypsum", "type": "water_agent", "use": "mash", "amount_unit": "tsp"}),
    )
    .await;
    let (status, misc) = add("miscs", json!({"catalog_id": salt["id"], "amount": 2})).await;
    assert_eq!(status, StatusCode::CREATED, "{misc}");
    assert_eq!(
        (
            &misc["name"],
            &misc["type"],
            &misc["use"],
            &misc["amount_unit"]
        ),
        (
            &json!("Gypsum"),
            &json!("water_agent"),
            &json!("mash"),
            &json!("tsp")
        )
    );

    // The item changes later: the child does not.
    let salt_path = format!("/v1/catalog/miscs/{}", salt["id"].as_str().unwrap());
    call(
        app.with_key(Method::PATCH, &salt_path, k)
            .json(&json!({"name": "CaSO4"})),
    )
    .await;
    let misc_path = format!("/v1/miscs/{}", misc["id"].as_str().unwrap());
    let (_, again) = call(app.with_key(Method::GET, &misc_path, k)).await;
    assert_eq!(again["name"], "Gypsum");
    // Deleted: the link goes, the values stay.
    let (status, _) = call(app.with_key(Method::DELETE, &salt_path, k)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, again) = call(app.with_key(Method::GET, &misc_path, k)).await;
    assert_eq!(
        (&again["catalog_id"], &again["name"]),
        (&Value::Null, &json!("Gypsum"))
    );

    // A copy of the recipe keeps the links.
    let (_, copy) =
        call(app.with_key(Method::POST, &format!("/v1/recipes/{recipe}/copy"), k)).await;
    assert_eq!(copy["hops"][0]["catalog_id"], saaz.as_str(), "{copy}");
}

#[tokio::test]
async fn a_catalog_id_must_name_an_item_of_the_kind_the_account_sees() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    let k = &acct.key;
    let recipe = recipe(&app, k).await;
    let theirs = create(
        &app,
        &other.key,
        "hops",
        json!({"name": "Their hop", "alpha_acid": 5}),
    )
    .await;
    let yeast = builtin_id(&app, k, "yeasts", "SafAle US-05").await;
    let hops = format!("/v1/recipes/{recipe}/hops");
    for bad in [
        random_id(),
        theirs["id"].as_str().unwrap().to_owned(),
        yeast,
    ] {
        let (status, body) = call(app.with_key(Method::POST, &hops, k).json(
            &json!({"catalog_id": bad, "name": "X", "alpha_acid": 5, "amount_grams": 1, "time_minutes": 1}),
        ))
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(
            issue_codes(&body),
            [("custom".to_owned(), "catalog_id".to_owned())]
        );
    }
    // Without the item, the required fields are missing too, all reported at once.
    let (_, body) = call(
        app.with_key(Method::POST, &hops, k)
            .json(&json!({"catalog_id": random_id(), "amount_grams": 1, "time_minutes": 1})),
    )
    .await;
    let codes = issue_codes(&body);
    assert!(
        codes.contains(&("custom".to_owned(), "catalog_id".to_owned())),
        "{codes:?}"
    );
    assert!(
        codes.contains(&("invalid_type".to_owned(), "name".to_owned())),
        "{codes:?}"
    );

    // PATCH sets (no copying), refuses a bad id, clears with null.
    let (_, hop) = call(
        app.with_key(Method::POST, &hops, k)
            .json(&json!({"name": "Plain", "alpha_acid": 5, "amount_grams": 1, "time_minutes": 1})),
    )
    .await;
    assert_eq!(hop["catalog_id"], Value::Null);
    let path = format!("/v1/hops/{}", hop["id"].as_str().unwrap());
    let citra = builtin_id(&app, k, "hops", "Citra").await;
    let (status, linked) = call(
        app.with_key(Method::PATCH, &path, k)
            .json(&json!({"catalog_id": citra})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{linked}");
    assert_eq!(
        (&linked["catalog_id"], &linked["name"]),
        (&json!(citra), &json!("Plain"))
    );
    let (status, body) = call(
        app.with_key(Method::PATCH, &path, k)
            .json(&json!({"catalog_id": theirs["id"]})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        issue_codes(&body),
        [("custom".to_owned(), "catalog_id".to_owned())]
    );
    let (_, cleared) = call(
        app.with_key(Method::PATCH, &path, k)
            .json(&json!({"catalog_id": null})),
    )
    .await;
    assert_eq!(cleared["catalog_id"], Value::Null);
}

#[tokio::test]
async fn an_inventory_item_created_from_a_catalogue_item_takes_its_category_and_fields() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let k = &acct.key;
    let citra = builtin_id(&app, k, "hops", "Citra").await;
    let citra_item = item(&app, k, "hops", &citra).await;
    let (status, stock) = call(
        app.with_key(Method::POST, "/v1/inventory", k)
            .json(&json!({"catalog_id": citra, "amount": 0.5})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{stock}");
    assert_eq!(stock["category"], "hop");
    assert_eq!(stock["name"], "Citra");
    assert_eq!(stock["alpha_acid"], citra_item["alpha_acid"]);
    assert_eq!(stock["origin"], citra_item["origin"]);
    assert_eq!(stock["catalog_id"], citra.as_str());
    // A category of another kind than the item's: 422.
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/inventory", k)
            .json(&json!({"catalog_id": citra, "category": "yeast"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(issue_codes(&body).contains(&("custom".to_owned(), "catalog_id".to_owned())));
    let path = format!("/v1/inventory/{}", stock["id"].as_str().unwrap());
    let us05 = builtin_id(&app, k, "yeasts", "SafAle US-05").await;
    let (status, _) = call(
        app.with_key(Method::PATCH, &path, k)
            .json(&json!({"catalog_id": us05})),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a yeast for a hop"
    );
    let (status, _) = call(
        app.with_key(Method::PATCH, &path, k)
            .json(&json!({"catalog_id": us05, "category": "yeast"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn an_import_links_ingredients_whose_names_name_one_item() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let k = &acct.key;
    let file = "<?xml version=\"1.0\"?><RECIPES><RECIPE><NAME>Pils</NAME><TYPE>All Grain</TYPE>\
        <BATCH_SIZE>20</BATCH_SIZE><BOIL_TIME>60</BOIL_TIME><EFFICIENCY>75</EFFICIENCY>\
        <FERMENTABLES><FERMENTABLE><NAME>maris-otter</NAME><TYPE>Grain</TYPE><AMOUNT>4</AMOUNT>\
        <YIELD>70</YIELD><COLOR>9</COLOR></FERMENTABLE></FERMENTABLES>\
        <HOPS><HOP><NAME>Žatec</NAME><ALPHA>4.1</ALPHA><AMOUNT>0.03</AMOUNT><USE>Boil</USE>\
        <TIME>60</TIME></HOP><HOP><NAME>Nobody's Hop</NAME><ALPHA>5</ALPHA><AMOUNT>0.01</AMOUNT>\
        <USE>Boil</USE><TIME>10</TIME></HOP></HOPS></RECIPE></RECIPES>";
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/recipes/import", k)
            .header("Content-Type", "application/xml")
            .body(file),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let recipe = &body["recipes"][0];
    let saaz = builtin_id(&app, k, "hops", "Saaz").await;
    let mo = builtin_id(&app, k, "fermentables", "Maris Otter").await;
    let hops = recipe["hops"].as_array().unwrap();
    let zatec = hops.iter().find(|h| h["name"] == "Žatec").unwrap();
    assert_eq!(zatec["catalog_id"], saaz.as_str());
    assert_eq!(zatec["alpha_acid"], 4.1, "the file's numbers stay");
    let nobody = hops.iter().find(|h| h["name"] == "Nobody's Hop").unwrap();
    assert_eq!(nobody["catalog_id"], Value::Null);
    let malt = &recipe["fermentables"][0];
    assert_eq!(malt["catalog_id"], mo.as_str());
    assert_eq!(
        (&malt["color_srm"], &malt["name"]),
        (&json!(9.0), &json!("maris-otter"))
    );
}

#[tokio::test]
async fn a_list_may_ask_for_only_the_accounts_own_items_or_only_built_in_ones() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let other = app.account().await;
    create(
        &app,
        &acct.key,
        "hops",
        json!({"name": "Garden Cascade", "alpha_acid": 6}),
    )
    .await;
    create(
        &app,
        &acct.key,
        "hops",
        json!({"name": "Allotment Citra", "alpha_acid": 11}),
    )
    .await;
    create(&app, &other.key, "hops", json!({"name": "Neighbour's Hop"})).await;
    let list = |query: Vec<(&'static str, &'static str)>| {
        let app = &app;
        let key = acct.key.clone();
        async move {
            let res = app
                .with_key(Method::GET, "/v1/catalog/hops", &key)
                .query(&query)
                .send()
                .await
                .unwrap();
            let total = res
                .headers()
                .get("x-total-count")
                .map(|v| v.to_str().unwrap().to_owned())
                .unwrap_or_default();
            let status = res.status();
            let body: Value = res.json().await.unwrap();
            (status, total, body)
        }
    };
    let (status, total, mine) = list(vec![("source", "mine")]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(total, "2");
    assert_eq!(names(&mine), ["Allotment Citra", "Garden Cascade"]);
    let (_, _, found) = list(vec![("source", "mine"), ("q", "cascade")]).await;
    assert_eq!(
        names(&found),
        ["Garden Cascade"],
        "searching stays within the source"
    );
    let (_, total, builtin) = list(vec![("source", "builtin"), ("limit", "50")]).await;
    assert!(total.parse::<i64>().unwrap() >= 150, "{total}");
    assert!(
        builtin
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["source"] == "builtin"),
        "{builtin}"
    );
    let (_, all_total, _) = list(vec![]).await;
    assert_eq!(
        all_total.parse::<i64>().unwrap(),
        total.parse::<i64>().unwrap() + 2,
        "both, and never another account's"
    );
    let (status, _, body) = list(vec![("source", "theirs")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    app.stop().await;
}
