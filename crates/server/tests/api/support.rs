//! Test harness: a real wort server (in-process, port 0) on a real PostgreSQL, driven over HTTP.
//!
//! The server comes from `WORT_TEST_DATABASE_URL` (set by `cargo xtask test`, which runs a
//! private cluster). Each test process gets a database of its own, cloned from a template
//! migrated once per run (`database.rs`); under nextest, that is one per test. Tests of one
//! process (`cargo test`) share it; each test signs up its own accounts, and since every row is
//! owned by an account, they cannot see each other's data either.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};
use wort_domain::ports::Clock;
use wort_server::{ServerSettings, start};

/// A clock tests can move forward (sign-in windows, key expiry, the AI day).
pub struct TestClock {
    offset: Mutex<Duration>,
}

impl TestClock {
    pub fn advance(&self, by: Duration) {
        *self.offset.lock().unwrap() += by;
    }
}

impl Clock for TestClock {
    fn now(&self) -> OffsetDateTime {
        wort_domain::timestamp::to_db_precision(
            OffsetDateTime::now_utc() + *self.offset.lock().unwrap(),
        )
    }
}

/// This test process's own database, migrated (made on first use).
pub fn database_url() -> String {
    crate::database::own_database_url()
}

/// Everything the servers of this test process logged, so tests can check what never appears
/// in a log line (keys, passwords, cookies, tokens).
static LOGS: Mutex<Vec<u8>> = Mutex::new(Vec::new());

struct LogBuffer;

impl std::io::Write for LogBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        LOGS.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Captures every log line at debug level (once per process).
fn capture_logs() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("debug"))
            .with_writer(|| LogBuffer)
            .with_ansi(false)
            .try_init();
    });
}

/// The log lines captured so far in this process.
pub fn captured_logs() -> String {
    String::from_utf8_lossy(&LOGS.lock().unwrap()).into_owned()
}

pub struct TestApp {
    pub base: String,
    pub origin: String,
    pub client: reqwest::Client,
    pub clock: Arc<TestClock>,
    handle: actix_web::dev::ServerHandle,
    /// `http://…/metrics` when spawned with `Options { metrics: true, .. }`.
    pub metrics_url: Option<String>,
}

pub const CORS_ORIGIN: &str = "https://brewing.example";

/// What [`TestApp::spawn_with`] can change; the default is what [`TestApp::spawn`] starts.
#[derive(Default)]
pub struct Options {
    /// The AI provider (`None`: AI not configured).
    pub ai: Option<wort_ai::AiSettings>,
    /// `None`: sign-up open and not limited per address (tests sign up many accounts), sign-in
    /// failures limited as in production.
    pub account_limits: Option<wort_domain::account::AccountLimits>,
    /// Also serve Prometheus metrics (on an ephemeral port: [`TestApp::metrics_url`]).
    pub metrics: bool,
    /// `None`: webhooks may target private addresses (the test receivers are on 127.0.0.1),
    /// retries start after 100 ms, and this instance delivers.
    pub webhooks: Option<wort_server::WebhookSettings>,
    /// `None`: private LAN brokers allowed, a failed broker retried after 200 ms, and this
    /// instance publishes.
    pub mqtt: Option<wort_server::MqttSettings>,
    /// `None`: one reading per device per 60 s, as in production.
    pub device_reading_interval: Option<std::time::Duration>,
    /// Another database than the process's shared one (`database::isolated_database_url`).
    pub database: Option<String>,
    /// `None`: the default body read deadline (30 s).
    pub body_read_timeout: Option<std::time::Duration>,
    /// `None`: the default cap on connections per client address.
    pub max_connections_per_address: Option<usize>,
    /// The connection's peer is the client (no client-address header, so the per-address
    /// connection cap applies). By default each test app reads its own header instead, so that
    /// the per-address limits of one test never spill into another.
    pub peer_is_client: bool,
    /// `None`: one answer that grows with the account's data at a time per core, each waiting up
    /// to the database deadline for its turn, as in production.
    pub heavy_answers: Option<wort_server::HeavyAnswerSettings>,
    /// `None`: the production database deadline and statement timeout (5 s); a test that holds a
    /// table locked on purpose sets more.
    pub database_deadline: Option<std::time::Duration>,
    /// `WORT_READINGS_RETENTION_DAYS` (`None`: every reading kept, as by default).
    pub readings_retention: Option<wort_domain::brew_session::retention::RetentionDays>,
}

/// The webhook settings tests run with unless they say otherwise.
pub fn test_webhook_settings() -> wort_server::WebhookSettings {
    let mut settings = wort_server::WebhookSettings {
        allow_private: true,
        ..Default::default()
    };
    settings.retry.base = Duration::milliseconds(100);
    settings
}

impl TestApp {
    pub async fn spawn() -> TestApp {
        Self::spawn_with(Options::default()).await
    }

    /// Like [`spawn`](Self::spawn), with the given options (an AI provider, say).
    pub async fn spawn_with(options: Options) -> TestApp {
        capture_logs();
        let url = options.database.clone().unwrap_or_else(database_url);
        let clock = Arc::new(TestClock {
            offset: Mutex::new(Duration::ZERO),
        });
        let started = start(ServerSettings {
            database_url: url,
            addr: "127.0.0.1:0".parse().unwrap(),
            public_origin: None,
            cors_origins: vec![CORS_ORIGIN.to_owned()],
            client_address: if options.peer_is_client {
                wort_http::client_address::ClientAddressRule::default()
            } else {
                wort_http::client_address::ClientAddressRule {
                    header: Some("X-Test-Client-Ip".to_owned()),
                    trusted_proxies: Vec::new(),
                }
            },
            account_limits: options
                .account_limits
                .unwrap_or(wort_domain::account::AccountLimits {
                    sign_ups_per_address: 0,
                    ..Default::default()
                }),
            pool: {
                let mut pool = wort_db::PoolSettings {
                    max_size: 4,
                    ..Default::default()
                };
                if let Some(deadline) = options.database_deadline {
                    pool.deadline = deadline;
                    pool.statement_timeout = deadline;
                }
                pool
            },
            clock: clock.clone(),
            ai: options.ai,
            workers: Some(1),
            shutdown_grace_secs: 1,
            bench_routes: false,
            metrics_addr: options.metrics.then(|| "127.0.0.1:0".parse().unwrap()),
            webhooks: options.webhooks.unwrap_or_else(test_webhook_settings),
            mqtt: options.mqtt.unwrap_or_else(|| wort_server::MqttSettings {
                retry_base: Duration::milliseconds(200),
                ..Default::default()
            }),
            device_reading_interval: options
                .device_reading_interval
                .unwrap_or(std::time::Duration::from_secs(60)),
            body_read_timeout: options
                .body_read_timeout
                .unwrap_or(std::time::Duration::from_secs(30)),
            max_connections_per_address: options
                .max_connections_per_address
                .unwrap_or(wort_http::connections::DEFAULT_LIMIT),
            heavy_answers: options.heavy_answers.unwrap_or_default(),
            readings_retention: options.readings_retention,
            // Stalls and silent devices are judged by the clock: tests move the clock, then wait
            // for a pass.
            alert_check_every: std::time::Duration::from_millis(200),
        })
        .expect("server starts");
        let handle = started.server.handle();
        let base = format!("http://{}", started.addr);
        let metrics_url = started
            .metrics
            .as_ref()
            .map(|(addr, _)| format!("http://{addr}/metrics"));
        tokio::spawn(started.run());
        // Every test app is its own "client address", so per-address sign-in limits of one test
        // never spill into another (tests of one process share a database).
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            "X-Test-Client-Ip",
            uuid::Uuid::new_v4().to_string().parse().unwrap(),
        );
        // Idle connections are dropped before actix's 5 s keep-alive closes them on its side: a
        // test that pauses (a bulk load through psql) would otherwise reuse a connection the
        // server has just closed and read `IncompleteMessage`.
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .default_headers(headers)
            .pool_idle_timeout(std::time::Duration::from_secs(2))
            .build()
            .unwrap();
        TestApp {
            origin: base.clone(),
            base,
            client,
            clock,
            handle,
            metrics_url,
        }
    }

    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let keyed = keyed_writes() && matches!(method, Method::POST | Method::PATCH);
        let request = self.client.request(method, format!("{}{path}", self.base));
        if keyed {
            // Every write through its key's transaction (`WORT_TEST_KEYED_WRITES`).
            request.header("Idempotency-Key", random_id())
        } else {
            request
        }
    }

    /// A request authenticated with an API key.
    pub fn with_key(&self, method: Method, path: &str, key: &str) -> RequestBuilder {
        self.request(method, path).header("X-API-Key", key)
    }

    /// A request authenticated with a session cookie, from the service's own origin.
    pub fn with_cookie(&self, method: Method, path: &str, cookie: &str) -> RequestBuilder {
        self.request(method, path)
            .header("Cookie", cookie)
            .header("Origin", &self.origin)
    }

    /// Signs up a fresh account and creates an API key for it.
    pub async fn account(&self) -> Account {
        let email = format!("brewer-{}@example.com", uuid::Uuid::new_v4().simple());
        let password = "correct horse battery".to_owned();
        let res = self
            .request(Method::POST, "/api/auth/sign-up/email")
            .json(&json!({"name": "Test Brewer", "email": email, "password": password}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "sign-up");
        let cookie = session_cookie(&res).expect("sign-up sets the session cookie");
        let user: Value = res.json().await.unwrap();
        let res = self
            .with_cookie(Method::POST, "/api/auth/api-key/create", &cookie)
            .json(&json!({"name": "tests"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "key create");
        let key: Value = res.json().await.unwrap();
        Account {
            id: user["user"]["id"].as_str().unwrap().to_owned(),
            email,
            password,
            cookie,
            key: key["key"].as_str().unwrap().to_owned(),
        }
    }

    pub async fn stop(self) {
        self.handle.stop(true).await;
    }
}

/// `wort_session=<token>` from a response's `Set-Cookie`, ready for a `Cookie` header.
pub fn session_cookie(res: &Response) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("wort_session="))
        .and_then(|v| v.split(';').next())
        .filter(|kv| kv.len() > "wort_session=".len())
        .map(str::to_owned)
}

pub struct Account {
    pub id: String,
    pub email: String,
    pub password: String,
    pub cookie: String,
    pub key: String,
}

/// Sends a request and returns status and JSON body (`Value::Null` when there is none).
pub async fn call(req: RequestBuilder) -> (StatusCode, Value) {
    let res = req.send().await.unwrap();
    let status = res.status();
    let text = res.text().await.unwrap();
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    (status, body)
}

/// POSTs `body` with the account's API key and expects `201 Created`: the created item.
pub async fn post(app: &TestApp, acct: &Account, path: &str, body: Value) -> Value {
    let (status, v) = call(app.with_key(Method::POST, path, &acct.key).json(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{path}: {v}");
    v
}

/// GETs with the account's API key and expects `200`: the answer.
pub async fn get(app: &TestApp, acct: &Account, path: &str) -> Value {
    let (status, v) = call(app.with_key(Method::GET, path, &acct.key)).await;
    assert_eq!(status, StatusCode::OK, "{path}: {v}");
    v
}

/// The body of a `422`, as `(code, path joined by '.')` pairs.
pub fn issue_codes(body: &Value) -> Vec<(String, String)> {
    assert_eq!(body["error"], "Validation failed", "{body}");
    body["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let path = d["path"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(".");
            (d["code"].as_str().unwrap().to_owned(), path)
        })
        .collect()
}

/// `WORT_TEST_KEYED_WRITES=1`: every `POST` and `PATCH` the tests send carries a fresh
/// `Idempotency-Key`, so the whole suite also runs each write inside its key's transaction
/// (`cargo xtask test` runs it both ways; tests of the key itself are left out of the keyed run).
pub fn keyed_writes() -> bool {
    std::env::var_os("WORT_TEST_KEYED_WRITES").is_some_and(|v| v == "1")
}

pub fn random_id() -> String {
    uuid::Uuid::new_v4().to_string()
}
