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

/// Decodes a body sent with `coding`.
fn decode(coding: &str, bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    match coding {
        "br" => {
            brotli::Decompressor::new(bytes, 4096)
                .read_to_end(&mut out)
                .unwrap();
        }
        "gzip" => {
            flate2::read::GzDecoder::new(bytes)
                .read_to_end(&mut out)
                .unwrap();
        }
        other => panic!("unexpected coding {other}"),
    }
    out
}

/// One GET with the given `Accept-Encoding` (none when `None`): status, headers, raw body.
async fn fetch(
    app: &TestApp,
    path: &str,
    accept: Option<&str>,
    if_none_match: Option<&str>,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut req = app.request(Method::GET, path);
    if let Some(a) = accept {
        req = req.header("Accept-Encoding", a);
    }
    if let Some(tag) = if_none_match {
        req = req.header("If-None-Match", tag);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    (status, headers, res.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn files_are_sent_precompressed_by_accept_encoding_with_an_etag_each() {
    let app = TestApp::spawn().await;
    let (_, _, html) = fetch(&app, "/", None, None).await;
    let html = String::from_utf8(html).unwrap();
    let Some(script) = html
        .split('"')
        .find(|part| part.starts_with("/assets/") && part.ends_with(".js"))
        .map(str::to_owned)
    else {
        // A server built without the app has no files to compress.
        assert!(html.contains("built without its web app"), "{html}");
        app.stop().await;
        return;
    };
    let (status, plain_headers, plain) = fetch(&app, &script, None, None).await;
    assert_eq!(status, 200);
    assert!(!plain_headers.contains_key("content-encoding"));
    assert_eq!(plain_headers["vary"], "Accept-Encoding");
    let mut tags = vec![plain_headers["etag"].to_str().unwrap().to_owned()];
    for (accept, coding) in [
        ("gzip, deflate, br", "br"),
        ("gzip", "gzip"),
        ("br;q=0.5, gzip;q=0.9", "gzip"),
        ("gzip;q=0, br", "br"),
    ] {
        let (status, headers, body) = fetch(&app, &script, Some(accept), None).await;
        assert_eq!(status, 200, "{accept}");
        assert_eq!(headers["content-encoding"], coding, "{accept}");
        assert_eq!(headers["vary"], "Accept-Encoding");
        assert_eq!(
            headers["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert!(body.len() < plain.len(), "{accept}: compressed is smaller");
        assert_eq!(decode(coding, &body), plain, "{accept}");
        let tag = headers["etag"].to_str().unwrap().to_owned();
        assert!(tag.starts_with('"'), "strong: {tag}");
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    assert_eq!(tags.len(), 3, "one tag per representation: {tags:?}");
    // Identity only, refused codings, or an unknown one: the file as it is.
    for accept in ["identity", "br;q=0, gzip;q=0", "deflate"] {
        let (_, headers, body) = fetch(&app, &script, Some(accept), None).await;
        assert!(!headers.contains_key("content-encoding"), "{accept}");
        assert_eq!(body, plain, "{accept}");
    }

    // Revalidation: the tag of the representation asked for answers 304 with the same headers.
    let (_, headers, _) = fetch(&app, &script, Some("br"), None).await;
    let br_tag = headers["etag"].to_str().unwrap().to_owned();
    let (status, headers, body) = fetch(&app, &script, Some("br"), Some(&br_tag)).await;
    assert_eq!(status, 304);
    assert!(body.is_empty());
    assert_eq!(headers["etag"], br_tag.as_str());
    assert_eq!(headers["vary"], "Accept-Encoding");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(
        headers["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("default-src 'self'")
    );
    // Another representation's tag does not match this one.
    let (status, _, _) = fetch(&app, &script, Some("gzip"), Some(&br_tag)).await;
    assert_eq!(status, 200);

    // index.html: revalidated every time, with a tag, and 304 when unchanged.
    for path in ["/", "/recipes/0190f0a5-6b1f-7c4e-9b61-0d8f3f1c2a11"] {
        let (status, headers, body) = fetch(&app, path, Some("br, gzip"), None).await;
        assert_eq!(status, 200);
        assert_eq!(headers["cache-control"], "no-cache");
        assert_eq!(headers["content-encoding"], "br");
        assert_eq!(decode("br", &body), html.as_bytes());
        let tag = headers["etag"].to_str().unwrap().to_owned();
        let (status, headers, body) = fetch(&app, path, Some("br, gzip"), Some(&tag)).await;
        assert_eq!(status, 304, "{path}");
        assert!(body.is_empty());
        assert_eq!(headers["cache-control"], "no-cache");
        assert_eq!(headers["x-content-type-options"], "nosniff");
    }
    app.stop().await;
}
