//! The API's common rules (docs/api-rules.md): routing, order of checks, bodies, probes, request
//! ids, OpenAPI.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestApp, call, issue_codes, random_id};

#[tokio::test]
async fn unknown_paths_are_404_and_wrong_methods_405_with_or_without_credential() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    // Paths with ids are registered in scopes by prefix (routes::configure): a path that enters
    // a scope but matches nothing inside it, or only looks like a scope, is the same 404.
    let id = random_id();
    for req in [
        app.request(Method::GET, "/v1/nope"),
        // A GET outside the API loads the web app (so deep links work); any other method is 404.
        app.with_key(Method::POST, "/nope", &acct.key),
        app.with_key(Method::GET, "/v1/recipes/", &acct.key),
        app.with_key(Method::GET, "/v1/recipesx", &acct.key),
        app.with_key(Method::GET, &format!("/v1/recipes/{id}/nope"), &acct.key),
        app.with_key(Method::GET, "/v1/recipes//stats", &acct.key),
        app.with_key(Method::GET, "/v1/fermentables", &acct.key),
        app.with_key(Method::GET, "/v1/steps", &acct.key),
        app.with_key(
            Method::GET,
            &format!("/v1/sessions/{id}/fermentation-logs/x/y"),
            &acct.key,
        ),
    ] {
        assert_eq!(
            call(req).await,
            (StatusCode::NOT_FOUND, json!({"error": "Not found"}))
        );
    }
    for (req, allow) in [
        (app.request(Method::PUT, "/v1/recipes"), "GET, POST"),
        (
            app.with_key(Method::PUT, "/v1/recipes", &acct.key),
            "GET, POST",
        ),
        (
            app.with_key(Method::POST, &format!("/v1/recipes/{id}/stats"), &acct.key),
            "GET",
        ),
        (
            app.with_key(Method::PUT, &format!("/v1/hops/{id}"), &acct.key),
            "GET, PATCH, DELETE",
        ),
        (
            app.with_key(
                Method::GET,
                &format!("/v1/inventory/{id}/adjust"),
                &acct.key,
            ),
            "POST",
        ),
    ] {
        let res = req.send().await.unwrap();
        assert_eq!(res.status(), 405);
        assert_eq!(res.headers()["allow"], allow);
        assert_eq!(
            res.json::<Value>().await.unwrap(),
            json!({"error": "Method not allowed"})
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn order_of_checks_credential_then_path_then_body_then_existence() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    // No credential beats a bad path and a bad body.
    let (status, _) = call(
        app.request(Method::PATCH, "/v1/recipes/not-a-uuid")
            .body("{"),
    )
    .await;
    assert_eq!(status, 401);
    // A bad path beats a bad body.
    let (status, body) = call(
        app.with_key(Method::PATCH, "/v1/recipes/not-a-uuid", &acct.key)
            .header("Content-Type", "application/json")
            .body("{"),
    )
    .await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("UUID"), "{body}");
    // A bad body beats a missing recipe.
    let path = format!("/v1/recipes/{}", random_id());
    let (status, _) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .header("Content-Type", "application/json")
            .body("{"),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"name": ""})),
    )
    .await;
    assert_eq!(status, 422);
    let (status, _) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"name": "ok"})),
    )
    .await;
    assert_eq!(status, 404);
    app.stop().await;
}

#[tokio::test]
async fn bodies_need_json_content_type_valid_syntax_and_an_object() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let post = || app.with_key(Method::POST, "/v1/recipes", &acct.key);
    let (status, _) = call(
        post()
            .header("Content-Type", "text/plain")
            .body(r#"{"name":"x"}"#),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = call(
        post()
            .header("Content-Type", "application/json; charset=utf-8")
            .body(r#"{"name":"x"}"#),
    )
    .await;
    assert_eq!(status, 201, "parameters on the content type are fine");
    let (status, body) = call(
        post()
            .header("Content-Type", "application/json")
            .body(r#"{"name":"#),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("Malformed JSON")
    );
    let (status, body) = call(post().json(&json!([1, 2]))).await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["path"], json!([]));
    assert_eq!(body["details"][0]["code"], "invalid_type");
    let (status, _) = call(post().header("Content-Type", "application/json")).await;
    assert_eq!(status, 400, "a required body that is missing");
    app.stop().await;
}

#[tokio::test]
async fn bodies_over_one_mebibyte_are_413() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let big = format!(r#"{{"name":"x","notes":"{}"}}"#, "a".repeat(1024 * 1024));
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .header("Content-Type", "application/json")
            .body(big),
    )
    .await;
    assert_eq!(
        (status, body),
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            json!({"error": "Payload too large"})
        )
    );
    app.stop().await;
}

#[tokio::test]
async fn request_ids_are_echoed_when_sane_and_generated_otherwise() {
    let app = TestApp::spawn().await;
    let res = app
        .request(Method::GET, "/healthz")
        .header("X-Request-Id", "abc-123_x.y")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-request-id"], "abc-123_x.y");
    for bad in ["has space", &"a".repeat(129), "semi;colon"] {
        let res = app
            .request(Method::GET, "/v1/nope")
            .header("X-Request-Id", bad)
            .send()
            .await
            .unwrap();
        let id = res.headers()["x-request-id"].to_str().unwrap();
        assert_ne!(id, bad);
        assert!(!id.is_empty() && id.len() <= 128);
    }
    app.stop().await;
}

#[tokio::test]
async fn probes_and_openapi_need_no_credential() {
    let app = TestApp::spawn().await;
    assert_eq!(
        call(app.request(Method::GET, "/healthz")).await,
        (StatusCode::OK, json!({"status": "ok"}))
    );
    assert_eq!(
        call(app.request(Method::GET, "/readyz")).await,
        (StatusCode::OK, json!({"status": "ok"}))
    );
    let (status, doc) = call(app.request(Method::GET, "/v1/openapi.json")).await;
    assert_eq!(status, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    assert_eq!(doc["info"]["version"], "1.0.0");
    for path in [
        "/v1/recipes",
        "/v1/recipes/{id}",
        "/v1/me",
        "/api/auth/api-key/create",
        "/api/auth/sign-up/email",
    ] {
        assert!(
            doc["paths"].get(path).is_some(),
            "{path} missing from the OpenAPI document"
        );
    }
    assert_eq!(
        doc["components"]["securitySchemes"]["api_key"]["name"],
        "X-API-Key"
    );
    let res = app.request(Method::GET, "/docs").send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.text().await.unwrap().contains("/v1/openapi.json"));
    app.stop().await;
}

#[tokio::test]
async fn readyz_is_503_while_the_database_is_unreachable() {
    // A server whose database does not exist answers probes honestly and starts anyway.
    let url = {
        let base = crate::support::database_url();
        let (prefix, rest) = base.split_once('?').unwrap_or((&base, ""));
        let without_db = prefix.rsplit_once('/').map_or(prefix, |(p, _)| p);
        format!("{without_db}/wort_no_such_db?{rest}")
    };
    let started = wort_server::start(wort_server::ServerSettings {
        database_url: url,
        addr: "127.0.0.1:0".parse().unwrap(),
        public_origin: None,
        cors_origins: vec![],
        client_address: Default::default(),
        account_limits: Default::default(),
        pool: wort_db::PoolSettings {
            max_size: 2,
            ..Default::default()
        },
        clock: std::sync::Arc::new(wort_domain::ports::SystemClock),
        ai: None,
        workers: Some(1),
        shutdown_grace_secs: 1,
        bench_routes: false,
        metrics_addr: None,
        webhooks: Default::default(),
        mqtt: Default::default(),
        device_reading_interval: std::time::Duration::from_secs(60),
        body_read_timeout: std::time::Duration::from_secs(30),
        max_connections_per_address: wort_http::connections::DEFAULT_LIMIT,
        heavy_answers: Default::default(),
        readings_retention: None,
        alert_check_every: wort_server::alert_clock::CHECK_EVERY,
    })
    .unwrap();
    let handle = started.server.handle();
    tokio::spawn(started.server);
    let base = format!("http://{}", started.addr);
    let client = reqwest::Client::new();
    let res = client.get(format!("{base}/readyz")).send().await.unwrap();
    assert_eq!(res.status(), 503);
    assert!(res.headers().contains_key("retry-after"));
    assert_eq!(
        client
            .get(format!("{base}/healthz"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    // A request that needs the database: 503 with Retry-After, no internals.
    let res = client
        .get(format!("{base}/v1/me"))
        .header("X-API-Key", format!("wort_{}", "b".repeat(43)))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 503);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "Service unavailable"})
    );
    handle.stop(true).await;
}

#[tokio::test]
async fn validation_reports_every_failing_field_in_zod_shape() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({
                "style": 5, "type": "lager", "batch_size_liters": 0, "boil_time_minutes": -1,
                "efficiency": 1.5, "notes": null, "id": "ignored"
            })),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        issue_codes(&body),
        [
            ("invalid_type", "name"),
            ("invalid_type", "style"),
            ("invalid_enum_value", "type"),
            ("too_small", "batch_size_liters"),
            ("too_small", "boil_time_minutes"),
            ("too_big", "efficiency"),
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
    );
    let d = &body["details"];
    assert_eq!(d[0]["received"], "undefined");
    assert_eq!(d[0]["message"], "Required");
    assert_eq!(d[1]["expected"], "string");
    assert_eq!(d[1]["received"], "number");
    assert_eq!(
        d[2]["options"],
        json!(["all_grain", "extract", "partial_mash"])
    );
    assert_eq!(d[2]["received"], "lager");
    assert_eq!(d[3]["inclusive"], false);
    assert_eq!(d[4]["minimum"], 0);
    assert_eq!(d[4]["inclusive"], true);
    assert_eq!(d[5]["maximum"], 1);
    app.stop().await;
}

/// U+0000 cannot be stored in PostgreSQL text: refused, never a 500 (found by Schemathesis).
#[tokio::test]
async fn nul_characters_are_refused_in_bodies_and_queries() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Pale\u{0}Ale", "notes": "fine"})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        issue_codes(&body),
        [("invalid_string".to_owned(), "name".to_owned())]
    );
    assert_eq!(body["details"][0]["validation"], "regex");
    let (status, body) = call(app.with_key(Method::GET, "/v1/recipes?q=a%00b", &acct.key)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body, json!({"error": "Malformed query string"}));
    app.stop().await;
}
