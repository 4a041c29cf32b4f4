//! The HTTP layer at its edges, where an outside client sends what a well-behaved one never
//! would: methods and paths that must not become metrics labels, bodies that trickle, heads with
//! too many fields, `HEAD` requests, and a sign-out from another origin. Requests reqwest cannot
//! send go over a raw TCP connection.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Options, TestApp, call};

/// A raw HTTP/1.1 exchange: what came back, as status, lower-cased headers and body.
struct RawResponse {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl RawResponse {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

fn parse(raw: &[u8]) -> RawResponse {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    RawResponse {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// Writes `head` then each of `trickle` with `pause` between them, and reads until the server
/// closes the connection (or `patience` runs out, which fails the test).
async fn raw_exchange(
    base: &str,
    head: String,
    trickle: Vec<Vec<u8>>,
    pause: Duration,
    patience: Duration,
) -> RawResponse {
    let addr = base.trim_start_matches("http://").to_owned();
    tokio::task::spawn_blocking(move || {
        let mut stream = TcpStream::connect(&addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(50)))
            .unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        let started = Instant::now();
        let mut received = Vec::new();
        let mut pieces = trickle.into_iter();
        let mut next_piece = Instant::now() + pause;
        let mut buf = [0u8; 8192];
        loop {
            assert!(
                started.elapsed() < patience,
                "no complete answer within {patience:?}; got {:?}",
                String::from_utf8_lossy(&received)
            );
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => received.extend_from_slice(&buf[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                // The server may reset a connection it has answered and closed while bytes
                // were still arriving: what was read before counts.
                Err(_) => break,
            }
            if Instant::now() >= next_piece {
                if let Some(piece) = pieces.next() {
                    // A write after the server has closed fails; the answer is already in.
                    let _ = stream.write_all(&piece);
                }
                next_piece = Instant::now() + pause;
            }
        }
        parse(&received)
    })
    .await
    .unwrap()
}

/// One request, sent at once, with `Connection: close`.
async fn raw_request(base: &str, head: String) -> RawResponse {
    raw_exchange(
        base,
        head,
        Vec::new(),
        Duration::from_secs(1),
        Duration::from_secs(10),
    )
    .await
}

fn host(base: &str) -> &str {
    base.trim_start_matches("http://")
}

/// Metrics labels come from fixed sets: methods nobody registered share the label `other`, and
/// paths no route matches share `unmatched`, so no client can grow the series (or the memory
/// behind them) by sending new methods or paths.
#[tokio::test]
async fn unknown_methods_and_paths_add_no_metrics_series() {
    let app = TestApp::spawn_with(Options {
        metrics: true,
        ..Options::default()
    })
    .await;
    let url = app.metrics_url.clone().unwrap();
    let series = |text: &str| text.matches("wort_http_requests_total{").count();
    for i in 0..20 {
        let method = format!("M{i}{}", "X".repeat(2_000));
        let res = raw_request(
            &app.base,
            format!(
                "{method} /v1/recipes HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                host(&app.base)
            ),
        )
        .await;
        assert!(res.status >= 400, "{}", res.status);
        let path = format!("/no-such-{i}-{}", "p".repeat(500));
        let res = app.request(Method::GET, &path).send().await.unwrap();
        assert!(res.status().is_success() || res.status() == 404);
        let res = app
            .request(Method::DELETE, &format!("/v1/nothing/{i}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404);
    }
    let text = app
        .client
        .get(&url)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!text.contains("XXXX"), "a raw method became a label");
    assert!(!text.contains("no-such"), "a raw path became a label");
    assert!(!text.contains("/v1/nothing"), "a raw path became a label");
    assert!(
        text.contains(
            r#"wort_http_requests_total{route="/v1/recipes",method="other",status="405"} 20"#
        ),
        "{text}"
    );
    assert!(
        text.contains(
            r#"wort_http_requests_total{route="unmatched",method="DELETE",status="404"} 20"#
        ),
        "{text}"
    );
    // 20 requests of each kind, three series in all.
    assert_eq!(series(&text), 3, "{text}");
    assert!(text.len() < 16 * 1024, "{} bytes", text.len());
    app.stop().await;
}

/// The JSON error shape, the request id and the security headers of an answer.
fn assert_answered_by_the_app(res: &RawResponse, status: u16, error: &str) {
    assert_eq!(res.status, status, "{}", res.body);
    assert_eq!(res.json(), json!({ "error": error }));
    assert!(
        res.header("content-type")
            .unwrap()
            .starts_with("application/json")
    );
    assert!(res.header("x-request-id").is_some_and(|id| !id.is_empty()));
    assert_eq!(res.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(res.header("x-frame-options"), Some("DENY"));
}

/// A body that trickles is cut at the body read deadline (1 s here; 30 s by default) with a
/// `408` in the JSON error shape, and the connection is closed: it holds no file descriptor
/// longer than that. Both readers are covered: the JSON bodies (sign-in) and the raw ones
/// (recipe import).
#[tokio::test]
async fn a_trickling_body_is_cut_with_408_at_the_deadline() {
    let app = TestApp::spawn_with(Options {
        body_read_timeout: Some(Duration::from_secs(1)),
        ..Options::default()
    })
    .await;
    let acct = app.account().await;
    let trickle = || (0..100).map(|_| b" ".to_vec()).collect::<Vec<_>>();
    for (path, auth) in [
        ("/api/auth/sign-in/email", String::new()),
        ("/v1/recipes/import", format!("X-API-Key: {}\r\n", acct.key)),
    ] {
        let started = Instant::now();
        let res = raw_exchange(
            &app.base,
            format!(
                "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
                 Content-Length: 1000\r\n{auth}\r\n{{\"email\":",
                host(&app.base)
            ),
            trickle(),
            Duration::from_millis(100),
            Duration::from_secs(8),
        )
        .await;
        assert_answered_by_the_app(&res, 408, "Request body not received in time");
        assert!(started.elapsed() < Duration::from_secs(5), "{path}");
    }
    // A body that arrives in time is read as usual.
    let (status, _) = call(
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": acct.email, "password": acct.password})),
    )
    .await;
    assert_eq!(status, 200);
    app.stop().await;
}

/// A head with more header fields (or bytes of them) than the app's limits is `431` in the JSON
/// error shape, with the request id and security headers. Beyond actix's own hard limits (96
/// fields, 128 KiB of head) actix answers a bare `431` itself before any application code runs:
/// that answer has no body and no headers of ours, and the server carries on.
#[tokio::test]
async fn oversized_heads_are_431_in_the_json_shape_where_the_app_sees_them() {
    let app = TestApp::spawn().await;
    let head = |fields: usize, value_len: usize| {
        let mut head = format!(
            "GET /healthz HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            host(&app.base)
        );
        for i in 0..fields {
            head.push_str(&format!("X-Filler-{i}: {}\r\n", "v".repeat(value_len)));
        }
        head.push_str("\r\n");
        head
    };
    let res = raw_request(&app.base, head(80, 8)).await;
    assert_answered_by_the_app(&res, 431, "Request header fields too large");
    let res = raw_request(&app.base, head(10, 4_000)).await;
    assert_answered_by_the_app(&res, 431, "Request header fields too large");
    // Within the limits: served.
    let res = raw_request(&app.base, head(40, 8)).await;
    assert_eq!(res.status, 200, "{}", res.body);
    // Past actix's limits: its own bare answer.
    let res = raw_request(&app.base, head(200, 8)).await;
    assert_eq!(res.status, 431);
    assert_eq!(res.body, "");
    assert_eq!(call(app.request(Method::GET, "/healthz")).await.0, 200);
    app.stop().await;
}

/// Headers that differ between two answers to the same request for reasons of their own.
const VARYING: [&str; 2] = ["date", "x-request-id"];

fn comparable(headers: &reqwest::header::HeaderMap) -> Vec<(String, String)> {
    let mut list: Vec<(String, String)> = headers
        .iter()
        .filter(|(name, _)| !VARYING.contains(&name.as_str()))
        .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    list.sort();
    list
}

/// `HEAD` on every documented `GET` route answers what `GET` answers (status and headers,
/// `Content-Length` included), without the body; with an API key on `/v1`, a session cookie on
/// `/api/auth`, and on the web app's pages.
#[tokio::test]
async fn head_answers_like_get_on_every_get_route() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Head Ale"})),
    )
    .await;
    assert_eq!(status, 201, "{recipe}");
    let recipe_id = recipe["id"].as_str().unwrap().to_owned();
    let doc: Value = app
        .request(Method::GET, "/v1/openapi.json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut paths: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, item)| item.get("get").is_some())
        .map(|(path, _)| {
            // Every id is the recipe's: found on recipe routes, a 404 elsewhere (the same 404
            // for GET and HEAD is what counts).
            let mut out = String::new();
            let mut rest = path.as_str();
            while let Some((before, after)) = rest.split_once('{') {
                out.push_str(before);
                out.push_str(&recipe_id);
                rest = after.split_once('}').map_or("", |(_, r)| r);
            }
            out.push_str(rest);
            out
        })
        .collect();
    assert!(paths.len() > 20, "{paths:?}");
    paths.extend([
        "/".to_owned(),
        "/recipes/123".to_owned(),
        "/docs".to_owned(),
    ]);
    let mut ok = 0;
    for path in &paths {
        let send = |method: Method| {
            let req = if path.starts_with("/api/auth") {
                app.with_cookie(method, path, &acct.cookie)
            } else {
                app.with_key(method, path, &acct.key)
            };
            req.send()
        };
        let get = send(Method::GET).await.unwrap();
        let head = send(Method::HEAD).await.unwrap();
        assert_eq!(head.status(), get.status(), "HEAD {path}");
        assert_eq!(
            comparable(head.headers()),
            comparable(get.headers()),
            "HEAD {path}"
        );
        let get_status = get.status();
        let get_body = get.bytes().await.unwrap();
        let head_body = head.bytes().await.unwrap();
        assert!(head_body.is_empty(), "HEAD {path} sent a body");
        if get_status == StatusCode::OK {
            ok += 1;
            assert!(!get_body.is_empty(), "GET {path}");
        }
    }
    assert!(ok >= 10, "only {ok} routes answered 200");
    app.stop().await;
}

/// A sign-out whose session cookie cannot act (another origin's page) is refused and changes
/// nothing: the cookie is not cleared and the session still works. From the app's own origin it
/// ends both.
#[tokio::test]
async fn a_refused_sign_out_keeps_the_cookie_and_the_session() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    for origin in [Some("https://evil.example"), None] {
        let mut req = app
            .request(Method::POST, "/api/auth/sign-out")
            .header("Cookie", &acct.cookie);
        if let Some(origin) = origin {
            req = req.header("Origin", origin);
        }
        let res = req.send().await.unwrap();
        assert_eq!(res.status(), 400, "{origin:?}");
        assert!(res.headers().get("set-cookie").is_none(), "{origin:?}");
        assert_eq!(
            res.json::<Value>().await.unwrap(),
            json!({"error": "Origin not allowed"})
        );
        assert_eq!(
            call(app.with_cookie(Method::GET, "/v1/me", &acct.cookie))
                .await
                .0,
            200,
            "{origin:?}"
        );
    }
    let res = app
        .with_cookie(Method::POST, "/api/auth/sign-out", &acct.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(
        call(app.with_cookie(Method::GET, "/v1/me", &acct.cookie))
            .await
            .0,
        401
    );
    app.stop().await;
}

/// A burst of connections from one address cannot use up the server's file descriptors: past the
/// cap each new one is closed at once, the ones held keep working, and a place comes back when
/// one of them closes.
#[tokio::test]
async fn one_address_holds_at_most_its_connection_cap() {
    let app = TestApp::spawn_with(Options {
        max_connections_per_address: Some(4),
        peer_is_client: true,
        ..Options::default()
    })
    .await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    tokio::task::spawn_blocking(move || {
        let healthz = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
        let ask = |stream: &mut TcpStream| -> Option<u16> {
            stream
                .set_read_timeout(Some(Duration::from_secs(5)))
                .unwrap();
            stream.write_all(healthz.as_bytes()).ok()?;
            let mut buf = [0u8; 4096];
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => None,
                Ok(n) => Some(parse(&buf[..n]).status),
            }
        };
        let mut held: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(&addr).unwrap()).collect();
        for stream in &mut held {
            assert_eq!(ask(stream), Some(200), "within the cap");
        }
        for _ in 0..3 {
            let mut over = TcpStream::connect(&addr).unwrap();
            assert_eq!(ask(&mut over), None, "past the cap: closed unanswered");
        }
        // Those held still work (keep-alive), and closing one gives its place back.
        assert_eq!(ask(&mut held[0]), Some(200));
        drop(held.pop());
        let mut answered = false;
        for _ in 0..50 {
            let mut next = TcpStream::connect(&addr).unwrap();
            if ask(&mut next) == Some(200) {
                answered = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(answered, "a place came back when a connection closed");
    })
    .await
    .unwrap();
    app.stop().await;
}

/// A GET with an API key and the given `Accept-Encoding` / `If-None-Match`.
async fn conditional_get(
    app: &TestApp,
    path: &str,
    key: &str,
    accept: Option<&str>,
    if_none_match: Option<&str>,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut req = app.with_key(Method::GET, path, key);
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
async fn json_over_a_kibibyte_is_compressed_and_small_json_is_not() {
    use std::io::Read;
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Long notes", "notes": "mash at 66 °C, ".repeat(200)})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let path = format!("/v1/recipes/{}", recipe["id"].as_str().unwrap());
    let (_, plain_headers, plain) = conditional_get(&app, &path, &acct.key, None, None).await;
    assert!(plain.len() > 1024);
    assert!(!plain_headers.contains_key("content-encoding"));
    for (accept, coding) in [
        ("gzip, br", "br"),
        ("gzip", "gzip"),
        ("br;q=0.1, gzip", "gzip"),
    ] {
        let (status, headers, body) =
            conditional_get(&app, &path, &acct.key, Some(accept), None).await;
        assert_eq!(status, 200);
        assert_eq!(headers["content-encoding"], coding, "{accept}");
        assert!(
            headers
                .get_all("vary")
                .iter()
                .any(|v| v == "Accept-Encoding"),
            "{headers:?}"
        );
        assert_eq!(headers["content-type"], "application/json");
        let mut decoded = Vec::new();
        match coding {
            "br" => brotli::Decompressor::new(&body[..], 4096)
                .read_to_end(&mut decoded)
                .unwrap(),
            _ => flate2::read::GzDecoder::new(&body[..])
                .read_to_end(&mut decoded)
                .unwrap(),
        };
        assert!(
            body.len() < plain.len() / 4,
            "{accept}: {} bytes",
            body.len()
        );
        assert_eq!(decoded, plain, "{accept}");
    }
    for accept in ["identity", "br;q=0, gzip;q=0"] {
        let (_, headers, body) = conditional_get(&app, &path, &acct.key, Some(accept), None).await;
        assert!(!headers.contains_key("content-encoding"), "{accept}");
        assert_eq!(body, plain);
    }
    // A small answer goes out as it is, whatever the client accepts.
    let (status, headers, body) =
        conditional_get(&app, "/v1/me", &acct.key, Some("br, gzip"), None).await;
    assert_eq!(status, 200);
    assert!(body.len() <= 1024);
    assert!(!headers.contains_key("content-encoding"));
    serde_json::from_slice::<Value>(&body).unwrap();
    app.stop().await;
}

#[tokio::test]
async fn json_resources_answer_if_none_match_with_304() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Bitter"})),
    )
    .await;
    let id = recipe["id"].as_str().unwrap().to_owned();
    let path = format!("/v1/recipes/{id}");
    for resource in [
        path.clone(),
        format!("{path}/stats"),
        "/v1/recipes".to_owned(),
    ] {
        let (status, headers, _) =
            conditional_get(&app, &resource, &acct.key, Some("gzip"), None).await;
        assert_eq!(status, 200, "{resource}");
        let tag = headers["etag"].to_str().unwrap().to_owned();
        assert!(tag.starts_with("W/\""), "weak: {tag}");
        let (status, headers, body) =
            conditional_get(&app, &resource, &acct.key, Some("gzip"), Some(&tag)).await;
        assert_eq!(status, 304, "{resource}");
        assert!(body.is_empty());
        assert_eq!(headers["etag"], tag.as_str());
        // The security headers and the request id reach a 304 too.
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["x-frame-options"], "DENY");
        assert_eq!(
            headers["content-security-policy"],
            "default-src 'none'; frame-ancestors 'none'"
        );
        assert!(headers.contains_key("x-request-id"));
        // Another tag, or none: the whole answer.
        let (status, _, body) =
            conditional_get(&app, &resource, &acct.key, None, Some("W/\"0\"")).await;
        assert_eq!(status, 200);
        serde_json::from_slice::<Value>(&body).unwrap();
    }
    // A change makes a new tag: the old one no longer matches.
    let (_, headers, _) = conditional_get(&app, &path, &acct.key, None, None).await;
    let before = headers["etag"].to_str().unwrap().to_owned();
    let (status, _) = call(
        app.with_key(Method::PATCH, &path, &acct.key)
            .json(&json!({"name": "Best Bitter"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, headers, _) = conditional_get(&app, &path, &acct.key, None, Some(&before)).await;
    assert_eq!(status, 200);
    assert_ne!(headers["etag"], before.as_str());
    // Without a credential the 401 is not turned into a 304, whatever the tag.
    let res = app
        .request(Method::GET, &path)
        .header("If-None-Match", "*")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    app.stop().await;
}
