//! One meaning per request: a JSON member named twice, a query parameter sent twice, and a NUL
//! character are refused where they are, rather than read one way by wort and perhaps another by
//! whatever stands in front of it.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::devices::{device, fermenting_session};
use crate::support::{TestApp, call, issue_codes};

/// Sends `body` as it is written (a JSON serializer could not write a member twice).
fn raw_json(req: reqwest::RequestBuilder, body: &str) -> reqwest::RequestBuilder {
    req.header("Content-Type", "application/json")
        .body(body.to_owned())
}

fn error(body: &Value) -> &str {
    body["error"].as_str().unwrap_or_else(|| panic!("{body}"))
}

#[tokio::test]
async fn a_json_member_named_twice_is_400_naming_it() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    for (body, member) in [
        (r#"{"name":"a","name":"b"}"#, "name"),
        (
            r#"{"name":"a","notes":"x","batch_size_liters":20,"notes":"y"}"#,
            "notes",
        ),
        // Nested, in a member the route does not even read.
        (r#"{"name":"a","extra":[{"k":1},{"k":1,"k":2}]}"#, "k"),
    ] {
        let (status, answer) = call(raw_json(
            app.with_key(Method::POST, "/v1/recipes", &acct.key),
            body,
        ))
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(
            error(&answer),
            format!("Duplicate member \"{member}\" in the JSON body"),
            "{body}"
        );
    }
    // Nothing was created by any of them.
    let (_, list) = call(app.with_key(Method::GET, "/v1/recipes", &acct.key)).await;
    assert_eq!(list.as_array().unwrap().len(), 0, "{list}");
    // The same name in two objects is two members.
    let (status, answer) = call(raw_json(
        app.with_key(Method::POST, "/v1/recipes", &acct.key),
        r#"{"name":"a","extra":[{"k":1},{"k":2}]}"#,
    ))
    .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");

    // Before any credential too (sign-in), and in a device's post.
    let (status, answer) = call(raw_json(
        app.request(Method::POST, "/api/auth/sign-in/email"),
        r#"{"email":"a@example.com","password":"x","password":"y"}"#,
    ))
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(
        error(&answer),
        "Duplicate member \"password\" in the JSON body"
    );
    let session = fermenting_session(&app, &acct).await;
    let (_, token) = device(&app, &acct, "ispindel", Some(&session)).await;
    let (status, answer) = call(raw_json(
        app.request(Method::POST, &format!("/ingest/{token}")),
        r#"{"gravity":1.050,"temperature":20,"gravity":1.010}"#,
    ))
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(
        error(&answer),
        "Duplicate member \"gravity\" in the JSON body"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_query_parameter_sent_twice_is_400_naming_it() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    for (path, name) in [
        ("/v1/recipes?limit=5&limit=6", "limit"),
        ("/v1/recipes?q=a&q=b", "q"),
        ("/v1/catalog/hops?q=citra&limit=2&q=saaz", "q"),
        ("/v1/sessions?offset=0&offset=0", "offset"),
        (
            "/v1/tools/keg-pressure?temperature_c=4&co2_volumes=2.5&temperature_c=5",
            "temperature_c",
        ),
    ] {
        let (status, answer) = call(app.with_key(Method::GET, path, &acct.key)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {answer}");
        assert_eq!(
            error(&answer),
            format!("Duplicate query parameter \"{name}\": send it once"),
            "{path}"
        );
    }
    // Each sent once is fine.
    let (status, _) = call(app.with_key(Method::GET, "/v1/recipes?limit=5&q=a", &acct.key)).await;
    assert_eq!(status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn the_shopping_lists_ids_repeat_up_to_their_cap() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Shopping ale"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = recipe["id"].as_str().unwrap();
    let ids = |n: usize| vec![format!("recipe_id={id}"); n].join("&");
    for n in [1, 2, 50] {
        let path = format!("/v1/shopping-list?{}", ids(n));
        let (status, answer) = call(app.with_key(Method::GET, &path, &acct.key)).await;
        assert_eq!(status, StatusCode::OK, "{n}: {answer}");
    }
    // 51 are refused even when they repeat one id: the cap counts what is sent, as the
    // document's `maxItems` does.
    let path = format!("/v1/shopping-list?{}", ids(51));
    let (status, answer) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(error(&answer).contains("recipe_id"), "{answer}");
    // Its other parameters are still sent once.
    let path = format!("/v1/shopping-list?recipe_id={id}&x=1&x=2");
    let (status, answer) = call(app.with_key(Method::GET, &path, &acct.key)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    app.stop().await;
}

#[tokio::test]
async fn a_nul_character_is_a_string_problem_at_its_field() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let nul_issue = |answer: &Value, field: &str| {
        assert_eq!(
            issue_codes(answer),
            [("invalid_string".to_owned(), field.to_owned())],
            "{answer}"
        );
        let message = answer["details"][0]["message"].as_str().unwrap();
        assert!(message.starts_with("String must not contain"), "{message}");
    };
    // Text, an enumeration and an id.
    for (body, field) in [
        (json!({"name": "a\u{0}b"}), "name"),
        (json!({"name": "a", "type": "all grain\u{0}"}), "type"),
        (
            json!({"name": "a", "equipment_id": "\u{0}"}),
            "equipment_id",
        ),
    ] {
        let (status, answer) = call(
            app.with_key(Method::POST, "/v1/recipes", &acct.key)
                .json(&body),
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {answer}");
        nul_issue(&answer, field);
    }
    // A device's number sent as a string: a NUL in it is not "not a number".
    let session = fermenting_session(&app, &acct).await;
    let (_, token) = device(&app, &acct, "stream", Some(&session)).await;
    let (status, answer) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .json(&json!({"gravity": "1.050\u{0}"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    nul_issue(&answer, "gravity");
    let (_, tilt) = device(&app, &acct, "tilt", Some(&session)).await;
    let (status, answer) = call(
        app.request(Method::POST, &format!("/ingest/{tilt}"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body("SG=1.050%00&Temp=68"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    nul_issue(&answer, "SG");
    app.stop().await;
}
