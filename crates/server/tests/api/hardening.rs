//! Regressions for what an adversarial review of the service found, one test per finding fixed.

use reqwest::Method;
use serde_json::json;

use wort_domain::account::AccountLimits;

use crate::support::{CORS_ORIGIN, Options, TestApp, call};

#[tokio::test]
async fn allowed_origins_can_read_the_paging_retry_and_request_id_headers() {
    let app = TestApp::spawn().await;
    let res = app
        .request(Method::GET, "/healthz")
        .header("Origin", CORS_ORIGIN)
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.headers()["access-control-expose-headers"],
        "X-Total-Count, Link, Retry-After, X-Request-Id, Idempotent-Replayed"
    );
    app.stop().await;
}

#[tokio::test]
async fn an_origin_with_a_trailing_slash_is_not_the_allowed_origin() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let res = app
        .request(Method::GET, "/healthz")
        .header("Origin", format!("{CORS_ORIGIN}/"))
        .send()
        .await
        .unwrap();
    assert!(res.headers().get("access-control-allow-origin").is_none());
    // Nor does it make a cookie usable for a write.
    let (status, _) = call(
        app.request(Method::POST, "/v1/recipes")
            .header("Cookie", &acct.cookie)
            .header("Origin", format!("{}/", app.origin))
            .json(&json!({"name": "Sneaky"})),
    )
    .await;
    assert_eq!(status, 401);
    app.stop().await;
}

#[tokio::test]
async fn only_canonical_uuids_are_accepted_in_paths() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Canonical"})),
    )
    .await;
    let id = recipe["id"].as_str().unwrap();
    let (status, _) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{id}"), &acct.key)).await;
    assert_eq!(status, 200);
    let upper = id.to_uppercase();
    let (status, _) =
        call(app.with_key(Method::GET, &format!("/v1/recipes/{upper}"), &acct.key)).await;
    assert_eq!(status, 200, "case-insensitive");
    for alias in [
        format!("%7B{id}%7D"),
        format!("urn:uuid:{id}"),
        id.replace('-', ""),
    ] {
        let (status, body) =
            call(app.with_key(Method::GET, &format!("/v1/recipes/{alias}"), &acct.key)).await;
        assert_eq!(status, 400, "{alias}: {body}");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_refused_transition_from_abandoned_reads_well() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Dumped"})),
    )
    .await;
    let (_, session) = call(app.with_key(Method::POST, "/v1/sessions", &acct.key).json(
        &json!({"recipe_id": recipe["id"], "brew_date": "2026-11-28", "status": "abandoned"}),
    ))
    .await;
    let path = format!("/v1/sessions/{}", session["id"].as_str().unwrap());
    let (status, body) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"status": "brewing"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["details"][0]["message"],
        "An abandoned session cannot become brewing"
    );
    app.stop().await;
}

#[tokio::test]
async fn racing_transitions_keep_phases_in_order_and_a_repeated_status_changes_nothing() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Race"})),
    )
    .await;
    for _ in 0..10 {
        let (_, session) = call(app.with_key(Method::POST, "/v1/sessions", &acct.key).json(
            &json!({"recipe_id": recipe["id"], "brew_date": "2026-11-28",
                    "status": "fermenting"}),
        ))
        .await;
        let path = format!("/v1/sessions/{}", session["id"].as_str().unwrap());
        let (a, b) = tokio::join!(
            call(
                app.with_key(Method::PATCH, &path, &acct.key)
                    .json(&json!({"status": "conditioning"}))
            ),
            call(
                app.with_key(Method::PATCH, &path, &acct.key)
                    .json(&json!({"status": "completed"}))
            ),
        );
        // Either order is allowed (conditioning after completed is refused); the times never
        // go backwards.
        assert!(a.0 == 200 || a.0 == 422, "{a:?}");
        assert_eq!(b.0, 200, "{b:?}");
        let (_, now) = call(app.with_key(Method::GET, &path, &acct.key)).await;
        let at = |k: &str| now[k].as_str().map(str::to_owned);
        if let (Some(conditioning), Some(completed)) =
            (at("conditioning_started_at"), at("completed_at"))
        {
            assert!(completed >= conditioning, "{now}");
        }
        assert!(at("updated_at") >= at("completed_at"), "{now}");
        // Re-sending the current status is a no-op: updated_at stays.
        let (status, again) = call(
            app.with_key(Method::PATCH, &path, &acct.key)
                .json(&json!({"status": "completed"})),
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(again["updated_at"], now["updated_at"]);
    }
    app.stop().await;
}

#[tokio::test]
async fn composed_and_decomposed_emails_are_one_account() {
    let app = TestApp::spawn().await;
    let tag = uuid::Uuid::new_v4().simple().to_string();
    let decomposed = format!("jose\u{301}-{tag}@example.com");
    let composed = format!("JOS\u{c9}-{tag}@example.com");
    let (status, user) =
        call(app.request(Method::POST, "/api/auth/sign-up/email").json(
            &json!({"name": "José", "email": decomposed, "password": "correct horse battery"}),
        ))
        .await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(
        user["user"]["email"],
        format!("jos\u{e9}-{tag}@example.com"),
        "stored composed and lower-cased"
    );
    let (status, body) = call(
        app.request(Method::POST, "/api/auth/sign-up/email")
            .json(&json!({"name": "Impostor", "email": composed, "password": "another password"})),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["code"], "already_exists");
    let (status, _) = call(
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": composed, "password": "correct horse battery"})),
    )
    .await;
    assert_eq!(status, 200);
    app.stop().await;
}

/// `/docs` ran Swagger UI from a CDN on the service's own origin. Now every asset it
/// loads is wort's own, under a policy that allows no other origin and no inline script.
#[tokio::test]
async fn the_docs_page_loads_nothing_from_another_origin() {
    let app = TestApp::spawn().await;
    let res = app.request(Method::GET, "/docs").send().await.unwrap();
    assert_eq!(res.status(), 200);
    let csp = res.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("script-src 'self';"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    let page = res.text().await.unwrap();
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "{page}"
    );
    assert!(!page.contains("<script>"), "no inline script: {page}");
    for (path, kind, marker) in [
        (
            "/docs/swagger-ui-bundle.js",
            "text/javascript",
            "SwaggerUIBundle",
        ),
        ("/docs/swagger-ui.css", "text/css", ".swagger-ui"),
        ("/docs/init.js", "text/javascript", "/v1/openapi.json"),
    ] {
        assert!(page.contains(path), "{path} not on the page");
        let res = app.request(Method::GET, path).send().await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        let content_type = res.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        assert!(res.text().await.unwrap().contains(marker), "{path}");
    }
    app.stop().await;
}

fn sign_up_body() -> serde_json::Value {
    json!({
        "name": "Flood",
        "email": format!("flood-{}@example.com", uuid::Uuid::new_v4().simple()),
        "password": "correct horse battery"
    })
}

/// Sign-up had no limit at all. Now each address gets
/// `WORT_SIGNUP_PER_HOUR` sign-ups an hour; the next is `429` with `Retry-After` (before any
/// password is hashed), and another address is not affected.
#[tokio::test]
async fn sign_ups_are_limited_per_client_address() {
    let app = TestApp::spawn_with(Options {
        account_limits: Some(AccountLimits {
            sign_ups_per_address: 2,
            ..AccountLimits::default()
        }),
        ..Options::default()
    })
    .await;
    for _ in 0..2 {
        let (status, body) = call(
            app.request(Method::POST, "/api/auth/sign-up/email")
                .json(&sign_up_body()),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let res = app
        .request(Method::POST, "/api/auth/sign-up/email")
        .json(&sign_up_body())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry > 3_000 && retry <= 3_601, "{retry}");
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        body,
        json!({"error": "Too many sign-ups from this address; try again later"})
    );
    // Another client address (the test harness's client-address header) signs up as usual.
    let (status, _) = call(
        app.request(Method::POST, "/api/auth/sign-up/email")
            .header("X-Test-Client-Ip", "198.51.100.23")
            .json(&sign_up_body()),
    )
    .await;
    assert_eq!(status, 200);
    // An hour later the address may sign up again.
    app.clock.advance(time::Duration::seconds(3_601));
    let (status, _) = call(
        app.request(Method::POST, "/api/auth/sign-up/email")
            .json(&sign_up_body()),
    )
    .await;
    assert_eq!(status, 200);
    app.stop().await;
}

/// Simultaneous sign-ups from one address create exactly `WORT_SIGNUP_PER_HOUR` accounts: each
/// is counted before its password is hashed, so the rest wait (`429`) together.
#[tokio::test]
async fn a_burst_of_sign_ups_from_one_address_never_passes_the_limit() {
    let app = TestApp::spawn_with(Options {
        account_limits: Some(AccountLimits {
            sign_ups_per_address: 3,
            ..AccountLimits::default()
        }),
        ..Options::default()
    })
    .await;
    let sign_ups = (0..30).map(|_| {
        app.request(Method::POST, "/api/auth/sign-up/email")
            .json(&sign_up_body())
            .send()
    });
    let statuses: Vec<u16> = futures_util::future::join_all(sign_ups)
        .await
        .into_iter()
        .map(|res| res.unwrap().status().as_u16())
        .collect();
    let created = statuses.iter().filter(|s| **s == 200).count();
    let waited = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!((created, waited), (3, 27), "{statuses:?}");
    app.stop().await;
}

/// `WORT_SIGNUP=closed`: the route is not there; sign-in of existing accounts still works.
#[tokio::test]
async fn closed_sign_up_is_404_and_sign_in_still_works() {
    let open = TestApp::spawn().await;
    let acct = open.account().await;
    open.stop().await;
    let app = TestApp::spawn_with(Options {
        account_limits: Some(AccountLimits {
            sign_up_open: false,
            ..AccountLimits::default()
        }),
        ..Options::default()
    })
    .await;
    let (status, body) = call(
        app.request(Method::POST, "/api/auth/sign-up/email")
            .json(&sign_up_body()),
    )
    .await;
    assert_eq!(
        (status.as_u16(), body),
        (404, json!({"error": "Not found"}))
    );
    let (status, _) = call(
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": acct.email, "password": acct.password})),
    )
    .await;
    assert_eq!(status, 200);
    app.stop().await;
}

/// `WORT_SIGNIN_FAILURES_PER_ADDRESS` sets how many failed sign-ins one address may make across
/// any emails before it waits.
#[tokio::test]
async fn failed_sign_ins_per_address_follow_the_setting() {
    let app = TestApp::spawn_with(Options {
        account_limits: Some(AccountLimits {
            failed_sign_ins_per_address: 3,
            sign_ups_per_address: 0,
            ..AccountLimits::default()
        }),
        ..Options::default()
    })
    .await;
    let wrong =
        |n: usize| json!({"email": format!("nobody-{n}@example.com"), "password": "wrong wrong"});
    for n in 0..3 {
        let (status, _) = call(
            app.request(Method::POST, "/api/auth/sign-in/email")
                .json(&wrong(n)),
        )
        .await;
        assert_eq!(status, 401);
    }
    let (status, _) = call(
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&wrong(9)),
    )
    .await;
    assert_eq!(status, 429);
    app.stop().await;
}

/// Prometheus metrics on their own listener, labelled by route pattern (never an
/// id), with the pools and the AI counters.
#[tokio::test]
async fn metrics_count_requests_by_route_pattern_on_their_own_listener() {
    let app = TestApp::spawn_with(Options {
        metrics: true,
        ..Options::default()
    })
    .await;
    let acct = app.account().await;
    let id = uuid::Uuid::new_v4();
    for _ in 0..3 {
        let (status, _) =
            call(app.with_key(Method::GET, &format!("/v1/recipes/{id}"), &acct.key)).await;
        assert_eq!(status, 404);
    }
    // A device post with a token nobody has: counted under the route pattern, token unseen.
    let token = format!("wortd_{}", "Z".repeat(43));
    let res = app
        .request(Method::POST, &format!("/ingest/{token}"))
        .json(&serde_json::json!({"gravity": 1.05}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    let url = app.metrics_url.clone().unwrap();
    let res = app.client.get(&url).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = res.text().await.unwrap();
    assert!(
        text.contains(
            r#"wort_http_requests_total{route="/v1/recipes/{id}",method="GET",status="404"} 3"#
        ),
        "{text}"
    );
    assert!(!text.contains(&id.to_string()), "no raw ids in labels");
    assert!(text.contains(r#"wort_http_request_duration_seconds_bucket{route="/v1/recipes/{id}",method="GET",status="404",le="+Inf"} 3"#));
    assert!(text.contains("wort_db_pool_size{worker=\"0\"}"), "{text}");
    assert!(text.contains("wort_ai_calls_total 0"), "{text}");
    assert!(
        text.contains(
            r#"wort_http_requests_total{route="/ingest/{token}",method="POST",status="401"} 1"#
        ),
        "{text}"
    );
    assert!(!text.contains(&token));
    assert!(text.contains(r#"wort_webhook_deliveries_total{outcome="delivered"} 0"#));
    // The metrics listener serves nothing else, and the API does not serve metrics.
    let other = url.replace("/metrics", "/v1/me");
    assert_eq!(app.client.get(&other).send().await.unwrap().status(), 404);
    // (On the API's port `/metrics` is just a path of the web app.)
    let page = app.request(Method::GET, "/metrics").send().await.unwrap();
    assert!(
        !page
            .text()
            .await
            .unwrap()
            .contains("wort_http_requests_total")
    );
    app.stop().await;
}
