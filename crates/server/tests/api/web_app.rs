//! The web app as the `wort` binary serves it: the app for every client-side route, the
//! API's JSON 404 (`{"error":"Not found"}`) kept under `/v1` and `/api`, and the security headers.

use reqwest::Method;

use crate::support::TestApp;

#[tokio::test]
async fn client_routes_load_the_app_with_a_strict_policy() {
    let app = TestApp::spawn().await;
    for path in [
        "/",
        "/recipes",
        "/recipes/0190f0a5-6b1f-7c4e-9b61-0d8f3f1c2a11",
        "/signin",
    ] {
        let res = app.request(Method::GET, path).send().await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        let headers = res.headers().clone();
        assert_eq!(
            headers["content-type"], "text/html; charset=utf-8",
            "{path}"
        );
        assert_eq!(headers["cache-control"], "no-cache", "{path}");
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'self'"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert!(headers.contains_key("referrer-policy"));
        let html = res.text().await.unwrap();
        assert!(html.starts_with("<!doctype html>"), "{path}: {html}");
        assert!(!html.contains("<script>"), "no inline script: {html}");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_api_keeps_its_json_404_and_every_answer_its_headers() {
    let app = TestApp::spawn().await;
    for (method, path) in [
        (Method::GET, "/v1/no-such-thing"),
        (Method::GET, "/api/auth/no-such-thing"),
        (Method::GET, "/v1"),
        (Method::POST, "/recipes"),
        (Method::GET, "/assets/index-0000000.js"),
    ] {
        let res = app.request(method.clone(), path).send().await.unwrap();
        assert_eq!(res.status(), 404, "{method} {path}");
        assert_eq!(res.headers()["x-content-type-options"], "nosniff");
        assert_eq!(res.headers()["x-frame-options"], "DENY");
        assert_eq!(
            res.headers()["content-security-policy"],
            "default-src 'none'; frame-ancestors 'none'"
        );
        assert_eq!(res.text().await.unwrap(), r#"{"error":"Not found"}"#);
    }
    app.stop().await;
}

#[tokio::test]
async fn hashed_assets_are_cached_for_a_year_and_the_app_without_a_build_says_how() {
    let app = TestApp::spawn().await;
    let html = app
        .request(Method::GET, "/")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    // With `web/dist` built (as `cargo xtask test` does first), the page names its hashed files.
    let assets: Vec<&str> = html
        .split('"')
        .filter(|part| part.starts_with("/assets/"))
        .collect();
    if assets.is_empty() {
        assert!(html.contains("built without its web app"), "{html}");
    }
    for asset in assets {
        let res = app.request(Method::GET, asset).send().await.unwrap();
        assert_eq!(res.status(), 200, "{asset}");
        assert_eq!(
            res.headers()["cache-control"],
            "public, max-age=31536000, immutable",
            "{asset}"
        );
        assert_eq!(res.headers()["x-content-type-options"], "nosniff");
        let kind = res.headers()["content-type"].to_str().unwrap().to_owned();
        if asset.ends_with(".js") {
            assert_eq!(kind, "text/javascript; charset=utf-8");
        } else if asset.ends_with(".css") {
            assert_eq!(kind, "text/css; charset=utf-8");
        }
    }
    app.stop().await;
}
