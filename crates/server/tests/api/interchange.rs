//! Importing BeerXML and BeerJSON files, exporting recipes as either.

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, TestApp, call, issue_codes, random_id};

const PUNK_IPA: &[u8] =
    include_bytes!("../../../interchange/tests/data/files/bx_diydog_punk_ipa.xml");
const MEDIEVAL_ALE: &[u8] =
    include_bytes!("../../../interchange/tests/data/files/bj_medieval_ale.json");

async fn import(
    app: &TestApp,
    acct: &Account,
    content_type: &str,
    body: Vec<u8>,
) -> (StatusCode, Value) {
    call(
        app.with_key(Method::POST, "/v1/recipes/import", &acct.key)
            .header("Content-Type", content_type)
            .body(body),
    )
    .await
}

async fn recipe_count(app: &TestApp, acct: &Account) -> String {
    let res = app
        .with_key(Method::GET, "/v1/recipes", &acct.key)
        .send()
        .await
        .unwrap();
    res.headers()["x-total-count"].to_str().unwrap().to_owned()
}

/// A small valid BeerXML recipe; `batch` lets a test make it invalid.
fn xml_recipe(name: &str, batch: &str) -> String {
    format!(
        "<RECIPE><NAME>{name}</NAME><TYPE>All Grain</TYPE><BATCH_SIZE>{batch}</BATCH_SIZE>\
         <BOIL_TIME>60</BOIL_TIME><EFFICIENCY>75</EFFICIENCY>\
         <FERMENTABLES><FERMENTABLE><NAME>Pale</NAME><TYPE>Grain</TYPE><AMOUNT>4</AMOUNT>\
         <YIELD>80</YIELD><COLOR>3</COLOR></FERMENTABLE></FERMENTABLES>\
         <HOPS><HOP><NAME>Saaz</NAME><ALPHA>3.5</ALPHA><AMOUNT>0.03</AMOUNT><USE>Boil</USE>\
         <TIME>60</TIME></HOP></HOPS></RECIPE>"
    )
}

fn xml_file(recipes: &[String]) -> Vec<u8> {
    format!(
        "<?xml version=\"1.0\"?><RECIPES>{}</RECIPES>",
        recipes.concat()
    )
    .into_bytes()
}

/// What a file carries of a recipe: everything but ids, owner and timestamps.
fn carried(recipe: &Value) -> Value {
    let mut v = recipe.clone();
    let object = v.as_object_mut().unwrap();
    for field in ["id", "user_id", "created_at", "updated_at"] {
        object.remove(field);
    }
    for list in ["fermentables", "hops", "yeasts", "miscs", "mash_steps"] {
        for child in object[list].as_array_mut().unwrap() {
            let child = child.as_object_mut().unwrap();
            for field in ["id", "recipe_id", "created_at"] {
                child.remove(field);
            }
        }
    }
    v
}

/// Statistics with each hop's IBU but not its id (a re-imported hop has a new one).
/// The statistics without the ids of the children they name (a copy's children are new rows).
fn without_hop_ids(mut stats: Value) -> Value {
    for hop in stats["ibu_by_hop"].as_array_mut().unwrap() {
        hop.as_object_mut().unwrap().remove("hop_id");
    }
    for step in stats["mash_steps"].as_array_mut().unwrap() {
        step.as_object_mut().unwrap().remove("mash_step_id");
    }
    stats
}

#[tokio::test]
async fn a_beerxml_file_becomes_recipes_with_their_ingredients_and_stats() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, body) = import(
        &app,
        &acct,
        "text/xml; charset=ISO-8859-1",
        PUNK_IPA.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let recipes = body["recipes"].as_array().unwrap();
    assert_eq!(recipes.len(), 1);
    assert!(body["warnings"].is_array());
    let imported = &recipes[0];
    assert_eq!(imported["name"], "PUNK IPA 2010 - CURRENT");
    assert_eq!(imported["batch_size_liters"], 20.0);
    assert_eq!(imported["user_id"], acct.id.as_str());
    assert_eq!(imported["fermentables"][0]["name"], "Extra Pale");
    assert_eq!(imported["fermentables"][0]["amount_kg"], 4.38);
    assert_eq!(imported["hops"][0]["name"], "Chinook");
    assert_eq!(imported["hops"][0]["amount_grams"], 20.0, "kg become grams");
    assert!(imported["hops"].as_array().unwrap().len() > 2);
    assert!(!imported["yeasts"].as_array().unwrap().is_empty());

    let id = imported["id"].as_str().unwrap();
    let (status, read) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{id}"), &acct.key)).await;
    assert_eq!(status, 200);
    // The report's recipe is GET's, with the recipe's checks beside it.
    let mut answered = imported.clone();
    let checks = answered.as_object_mut().unwrap().remove("checks").unwrap();
    assert!(checks.is_array(), "{checks}");
    assert_eq!(read, answered, "the import answers the recipe as GET does");
    let (status, stats) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{id}/stats"), &acct.key)).await;
    assert_eq!(status, 200);
    let og = stats["og"].as_f64().unwrap();
    assert!((1.045..1.065).contains(&og), "{stats}");
    assert!(stats["ibu"].as_f64().unwrap() > 20.0, "{stats}");
    assert_eq!(recipe_count(&app, &acct).await, "1");
    app.stop().await;
}

#[tokio::test]
async fn a_beerjson_file_is_imported() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, body) = import(
        &app,
        &acct,
        "application/json; charset=utf-8",
        MEDIEVAL_ALE.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let recipe = &body["recipes"][0];
    assert_eq!(recipe["name"], "#20 1058 Medieval Ale");
    assert!(!recipe["fermentables"].as_array().unwrap().is_empty());
    assert_eq!(recipe_count(&app, &acct).await, "1");
    app.stop().await;
}

#[tokio::test]
async fn a_file_with_one_invalid_recipe_creates_nothing() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let file = xml_file(&[xml_recipe("Good", "20"), xml_recipe("Bad", "0")]);
    let (status, body) = import(&app, &acct, "application/xml", file).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let paths: Vec<String> = issue_codes(&body).into_iter().map(|(_, p)| p).collect();
    assert!(
        paths.contains(&"RECIPES.RECIPE.1.BATCH_SIZE".to_owned()),
        "{paths:?}"
    );
    assert_eq!(recipe_count(&app, &acct).await, "0");

    // The same file repaired: both recipes, in file order.
    let file = xml_file(&[xml_recipe("Good", "20"), xml_recipe("Also good", "10")]);
    let (status, body) = import(&app, &acct, "application/xml", file).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["recipes"][0]["name"], "Good");
    assert_eq!(body["recipes"][1]["name"], "Also good");
    assert_eq!(recipe_count(&app, &acct).await, "2");
    app.stop().await;
}

/// Every warning once copied the recipe's name whole: a long name and a few hundred values out of
/// range made an answer of hundreds of megabytes. The answer stays within the report's caps.
#[tokio::test]
async fn the_answer_to_an_import_stays_small_whatever_the_file_warns() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let hops: String = (0..200)
        .map(|_| {
            "<HOP><NAME>Saaz</NAME><ALPHA>150</ALPHA><AMOUNT>1000</AMOUNT><USE>Boil</USE>\
             <TIME>1e9</TIME></HOP>"
        })
        .collect();
    let name = "é".repeat(20_000);
    let recipe = xml_recipe(&name, "20").replace(
        "<HOPS><HOP><NAME>Saaz</NAME><ALPHA>3.5</ALPHA><AMOUNT>0.03</AMOUNT><USE>Boil</USE>\
         <TIME>60</TIME></HOP></HOPS>",
        &format!("<HOPS>{hops}</HOPS>"),
    );
    let res = app
        .with_key(Method::POST, "/v1/recipes/import", &acct.key)
        .header("Content-Type", "application/xml")
        .body(xml_file(&[recipe]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let text = res.text().await.unwrap();
    // 200 hops of the recipe itself take about 60 kB; the 100 warnings at most a few more; the
    // recipe's checks one per hop boiled longer than the boil (about 45 kB here, each hop's name
    // cut to 40 characters): all in proportion to the recipe, none to the file's warnings.
    assert!(text.len() < 220_000, "{} bytes", text.len());
    assert_eq!(
        body_checks(&text),
        203,
        "each hop's time, the hop rate (20 t in 20 L), no yeast, no mash steps"
    );
    let body: Value = serde_json::from_str(&text).unwrap();
    let recipe = &body["recipes"][0];
    assert_eq!(recipe["name"].as_str().unwrap().chars().count(), 200);
    assert_eq!(recipe["hops"].as_array().unwrap().len(), 200);
    let warnings = body["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 100);
    // The name cut, then three per hop (alpha, amount, time): 601, of which 99 are shown.
    assert_eq!(warnings[99]["message"], "502 more warnings not shown");
    assert_eq!(warnings[0]["recipe"], recipe["name"]);
    assert!(
        warnings
            .iter()
            .all(|w| w["message"].as_str().unwrap().chars().count() <= 500)
    );
    app.stop().await;
}

#[tokio::test]
async fn more_than_a_hundred_recipes_is_422() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let recipes: Vec<String> = (0..101)
        .map(|i| xml_recipe(&format!("R{i}"), "20"))
        .collect();
    let (status, body) = import(&app, &acct, "application/xml", xml_file(&recipes)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(recipe_count(&app, &acct).await, "0");

    let (status, body) = import(&app, &acct, "application/xml", xml_file(&recipes[..100])).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["recipes"].as_array().unwrap().len(), 100);
    assert_eq!(recipe_count(&app, &acct).await, "100");
    app.stop().await;
}

#[tokio::test]
async fn bad_requests_are_refused_in_the_contracts_order() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    // No credential: 401 before the content type or size is looked at.
    let (status, body) = call(
        app.request(Method::POST, "/v1/recipes/import")
            .header("Content-Type", "text/plain")
            .body(vec![b' '; 6 * 1024 * 1024]),
    )
    .await;
    assert_eq!(
        (status, body),
        (StatusCode::UNAUTHORIZED, json!({"error": "Unauthorized"}))
    );

    let too_large = vec![b' '; 5 * 1024 * 1024 + 1];
    let (status, body) = import(&app, &acct, "application/xml", too_large).await;
    assert_eq!(
        (status, body),
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            json!({"error": "Payload too large"})
        )
    );
    // Exactly 5 MiB is read (and is then not a recipe file).
    let (status, _) = import(&app, &acct, "application/xml", vec![b' '; 5 * 1024 * 1024]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let (status, body) = import(&app, &acct, "text/plain", PUNK_IPA.to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("Content-Type"),
        "{body}"
    );
    let (status, body) = import(
        &app,
        &acct,
        "application/xml",
        b"<RECIPES><RECIPE>".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].is_string());
    let (status, _) = import(&app, &acct, "application/json", PUNK_IPA.to_vec()).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "XML declared as JSON is not parseable"
    );
    assert_eq!(recipe_count(&app, &acct).await, "0");

    // Routing first: another method on the import path is 405, not an id.
    let (status, _) = call(app.with_key(Method::GET, "/v1/recipes/import", &acct.key)).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    app.stop().await;
}

#[tokio::test]
async fn billion_laughs_is_refused_quickly() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let mut doc =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n");
    for level in 1..=9 {
        let previous = if level == 1 {
            "lol".to_owned()
        } else {
            format!("lol{}", level - 1)
        };
        doc.push_str(&format!(
            " <!ENTITY lol{level} \"{}\">\n",
            format!("&{previous};").repeat(10)
        ));
    }
    doc.push_str("]>\n<RECIPES><RECIPE><NAME>&lol9;</NAME></RECIPE></RECIPES>");
    let start = Instant::now();
    let (status, body) = import(&app, &acct, "application/xml", doc.into_bytes()).await;
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"], "Validation failed");
    app.stop().await;
}

#[tokio::test]
async fn export_then_import_gives_the_same_recipe_in_both_formats() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, body) = import(&app, &acct, "application/xml", PUNK_IPA.to_vec()).await;
    let original = &body["recipes"][0];
    let id = original["id"].as_str().unwrap();
    let (_, original_stats) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{id}/stats"), &acct.key)).await;

    for (format, content_type) in [
        ("beerjson", "application/json"),
        ("beerxml", "application/xml"),
    ] {
        let res = app
            .with_key(
                Method::GET,
                &format!("/v1/recipes/{id}/export?format={format}"),
                &acct.key,
            )
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{format}");
        let file = res.bytes().await.unwrap().to_vec();
        let (status, again) = import(&app, &acct, content_type, file).await;
        assert_eq!(status, StatusCode::CREATED, "{format}: {again}");
        let copy = &again["recipes"][0];
        assert_eq!(carried(copy), carried(original), "{format}");
        let copy_id = copy["id"].as_str().unwrap();
        let (_, stats) = call(app.with_key(
            Method::GET,
            &format!("/v1/recipes/{copy_id}/stats"),
            &acct.key,
        ))
        .await;
        assert_eq!(
            without_hop_ids(stats),
            without_hop_ids(original_stats.clone()),
            "{format}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn export_names_a_safe_file_and_the_declared_type() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Ölbier \"Spezial\"/../2026\r\n"})),
    )
    .await;
    let id = recipe["id"].as_str().unwrap();

    let res = app
        .with_key(Method::GET, &format!("/v1/recipes/{id}/export"), &acct.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/json");
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"_lbier _Spezial__.._2026__.json\""
    );
    let doc: Value = res.json().await.unwrap();
    assert_eq!(doc["beerjson"]["version"], 1.0);
    assert_eq!(doc["beerjson"]["recipes"][0]["name"], recipe["name"]);

    let res = app
        .with_key(
            Method::GET,
            &format!("/v1/recipes/{id}/export?format=beerxml"),
            &acct.key,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()["content-type"],
        "application/xml; charset=utf-8"
    );
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"_lbier _Spezial__.._2026__.xml\""
    );
    let text = res.text().await.unwrap();
    assert!(
        text.starts_with("<?xml") && text.contains("<RECIPES>"),
        "{text}"
    );

    let (status, body) = call(app.with_key(
        Method::GET,
        &format!("/v1/recipes/{id}/export?format=bogus"),
        &acct.key,
    ))
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _) =
        call(app.with_key(Method::GET, "/v1/recipes/export?format=bogus", &acct.key)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    app.stop().await;
}

#[tokio::test]
async fn another_accounts_recipe_cannot_be_exported() {
    let app = TestApp::spawn().await;
    let owner = app.account().await;
    let other = app.account().await;
    let (_, body) = import(&app, &owner, "application/xml", PUNK_IPA.to_vec()).await;
    let id = body["recipes"][0]["id"].as_str().unwrap();
    for target in [id.to_owned(), random_id()] {
        let (status, body) = call(app.with_key(
            Method::GET,
            &format!("/v1/recipes/{target}/export"),
            &other.key,
        ))
        .await;
        assert_eq!(
            (status, body),
            (StatusCode::NOT_FOUND, json!({"error": "Not found"}))
        );
    }
    // And the other account's export of everything holds none of the owner's recipes.
    let (status, doc) = call(app.with_key(Method::GET, "/v1/recipes/export", &other.key)).await;
    assert_eq!(status, 200);
    assert_eq!(doc["beerjson"]["recipes"], json!([]));
    app.stop().await;
}

#[tokio::test]
async fn export_of_every_recipe_pages_like_the_list() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let file = xml_file(&[
        xml_recipe("First", "20"),
        xml_recipe("Second", "20"),
        xml_recipe("Third", "20"),
    ]);
    let (status, _) = import(&app, &acct, "application/xml", file).await;
    assert_eq!(status, StatusCode::CREATED);

    let res = app
        .with_key(
            Method::GET,
            "/v1/recipes/export?format=beerxml&limit=2",
            &acct.key,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-total-count"], "3");
    assert_eq!(
        res.headers()["link"],
        "</v1/recipes/export?format=beerxml&limit=2&offset=2>; rel=\"next\""
    );
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"wort-recipes.xml\""
    );
    let text = res.text().await.unwrap();
    assert_eq!(text.matches("<RECIPE>").count(), 2, "{text}");

    let res = app
        .with_key(
            Method::GET,
            "/v1/recipes/export?limit=2&offset=2",
            &acct.key,
        )
        .send()
        .await
        .unwrap();
    assert!(res.headers().get("link").is_none());
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"wort-recipes.json\""
    );
    let doc: Value = res.json().await.unwrap();
    let recipes = doc["beerjson"]["recipes"].as_array().unwrap();
    assert_eq!(recipes.len(), 1);
    assert_eq!(recipes[0]["name"], "Third", "oldest first");
    assert!(
        !recipes[0]["ingredients"]["hop_additions"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    let (status, _) =
        call(app.with_key(Method::GET, "/v1/recipes/export?limit=201", &acct.key)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    app.stop().await;
}

/// `POST path` with the account's key; the created body.
async fn created(app: &TestApp, acct: &Account, path: &str, body: Value) -> Value {
    let (status, v) = call(app.with_key(Method::POST, path, &acct.key).json(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{path}: {v}");
    v
}

#[tokio::test]
async fn exports_carry_the_screens_numbers_the_equipment_and_the_style() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let kit = created(
        &app,
        &acct,
        "/v1/equipment",
        json!({"name": "Kettle 30 L", "batch_size_liters": 20, "boil_off_liters_per_hour": 3,
               "trub_chiller_loss_liters": 1.5, "mash_tun_deadspace_liters": 1,
               "fermenter_loss_liters": 1, "hop_utilization_percent": 90}),
    )
    .await;
    let recipe = created(
        &app,
        &acct,
        "/v1/recipes",
        json!({"name": "House IPA", "style_id": "21A", "equipment_id": kit["id"],
               "batch_size_liters": 20, "boil_time_minutes": 60}),
    )
    .await;
    let id = recipe["id"].as_str().unwrap();
    created(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/fermentables"),
        json!({"name": "Pale", "amount_kg": 6, "color_srm": 3, "yield_percent": 80}),
    )
    .await;
    created(
        &app,
        &acct,
        &format!("/v1/recipes/{id}/hops"),
        json!({"name": "Columbus", "alpha_acid": 15, "amount_grams": 30, "time_minutes": 60}),
    )
    .await;
    let (_, stats) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{id}/stats"), &acct.key)).await;
    assert!(!stats["volumes"].is_null(), "{stats}");

    // BeerJSON: the estimates are /stats with the profile; the profile and the style are written.
    let (status, doc) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{id}/export"), &acct.key)).await;
    assert_eq!(status, StatusCode::OK);
    let r = &doc["beerjson"]["recipes"][0];
    assert_eq!(r["original_gravity"]["value"], stats["og"]);
    assert_eq!(r["final_gravity"]["value"], stats["fg"]);
    assert_eq!(r["alcohol_by_volume"]["value"], stats["abv"]);
    assert_eq!(r["color_estimate"]["value"], stats["srm"]);
    assert_eq!(r["style"]["style_guide"], "BJCP 2021");
    assert_eq!(r["style"]["category_number"], 21);
    assert_eq!(r["style"]["style_letter"], "A");
    assert_eq!(r["style"]["name"], "American IPA");
    let e = &doc["beerjson"]["equipments"][0];
    assert_eq!(e["name"], "Kettle 30 L");
    let kettle = &e["equipment_items"][1];
    assert_eq!(kettle["form"], "Brew Kettle");
    assert_eq!(kettle["boil_rate_per_hour"]["value"], 3.0);
    assert_eq!(
        kettle["maximum_volume"]["value"],
        stats["volumes"]["pre_boil_liters"]
    );

    // BeerXML likewise: EST_* and IBU are the screen's, with EQUIPMENT and a BJCP STYLE.
    let res = app
        .with_key(
            Method::GET,
            &format!("/v1/recipes/{id}/export?format=beerxml"),
            &acct.key,
        )
        .send()
        .await
        .unwrap();
    let xml = res.text().await.unwrap();
    for (element, value) in [
        ("EST_OG", &stats["og"]),
        ("EST_FG", &stats["fg"]),
        ("IBU", &stats["ibu"]),
        ("EST_COLOR", &stats["srm"]),
        ("EST_ABV", &stats["abv"]),
        ("BOIL_SIZE", &stats["volumes"]["pre_boil_liters"]),
    ] {
        let open = format!("<{element}>");
        let text = xml
            .split(&open)
            .nth(1)
            .and_then(|rest| rest.split('<').next())
            .unwrap_or_else(|| panic!("no {element}: {xml}"));
        assert_eq!(
            text.parse::<f64>().unwrap(),
            value.as_f64().unwrap(),
            "{element}"
        );
    }
    for part in [
        "<EQUIPMENT>",
        "<NAME>Kettle 30 L</NAME>",
        "<HOP_UTILIZATION>90</HOP_UTILIZATION>",
        "<STYLE_GUIDE>BJCP 2021</STYLE_GUIDE>",
        "<CATEGORY_NUMBER>21</CATEGORY_NUMBER>",
        "<STYLE_LETTER>A</STYLE_LETTER>",
        "<OG_MIN>1.056</OG_MIN>",
    ] {
        assert!(xml.contains(part), "{part}: {xml}");
    }

    // The same numbers in the export of every recipe.
    let (_, all) = call(app.with_key(Method::GET, "/v1/recipes/export", &acct.key)).await;
    assert_eq!(
        all["beerjson"]["recipes"][0]["original_gravity"]["value"],
        stats["og"]
    );
    assert_eq!(all["beerjson"]["equipments"][0]["name"], "Kettle 30 L");
    app.stop().await;
}

/// How many checks the import answer's first recipe carries.
fn body_checks(text: &str) -> usize {
    let body: Value = serde_json::from_str(text).unwrap();
    body["recipes"][0]["checks"].as_array().unwrap().len()
}
