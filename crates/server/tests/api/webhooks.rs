//! Webhooks. Signed deliveries checked by an independent implementation, exactly
//! once per endpoint across instances, retries through a receiver outage and a restart, the
//! test ping, `fermentation.stable`, deactivation, and private targets refused.

use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use wort_domain::webhook::rules::MAX_IN_FLIGHT_PER_ACCOUNT;

use crate::database::isolated_database_url;
use crate::devices::fermenting_session;
use crate::support::{Account, Options, TestApp, call, issue_codes, test_webhook_settings};

/// One request the receiver got.
#[derive(Clone, Debug)]
pub(crate) struct Received {
    id: String,
    timestamp: String,
    signature: String,
    pub(crate) body: String,
}

/// A webhook receiver on 127.0.0.1 that records what it is sent and answers `status`.
pub(crate) struct Receiver {
    port: u16,
    got: Arc<Mutex<Vec<Received>>>,
    status: Arc<Mutex<u16>>,
    handle: actix_web::dev::ServerHandle,
}

impl Receiver {
    pub(crate) async fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        Self::on(listener).await
    }

    async fn on(listener: TcpListener) -> Receiver {
        let port = listener.local_addr().unwrap().port();
        let got = Arc::new(Mutex::new(Vec::new()));
        let status = Arc::new(Mutex::new(204u16));
        let (g, s) = (got.clone(), status.clone());
        let server = HttpServer::new(move || {
            let (g, s) = (g.clone(), s.clone());
            App::new().default_service(web::to(move |req: HttpRequest, body: String| {
                let (g, s) = (g.clone(), s.clone());
                async move {
                    let header = |n: &str| {
                        req.headers()
                            .get(n)
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or_default()
                            .to_owned()
                    };
                    g.lock().unwrap().push(Received {
                        id: header("webhook-id"),
                        timestamp: header("webhook-timestamp"),
                        signature: header("webhook-signature"),
                        body,
                    });
                    let code = *s.lock().unwrap();
                    HttpResponse::build(actix_web::http::StatusCode::from_u16(code).unwrap())
                        .finish()
                }
            }))
        })
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
        let handle = server.handle();
        tokio::spawn(server);
        Receiver {
            port,
            got,
            status,
            handle,
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hook", self.port)
    }

    fn received(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    pub(crate) fn of_type(&self, t: &str) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|r| serde_json::from_str::<Value>(&r.body).unwrap()["type"] == t)
            .collect()
    }

    /// Waits until `n` requests of type `t` arrived (at most 20 s).
    pub(crate) async fn wait_for(&self, t: &str, n: usize) -> Vec<Received> {
        for _ in 0..200 {
            let got = self.of_type(t);
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("waited for {n} × {t}; got {:?}", self.of_type(t).len());
    }

    pub(crate) async fn stop(self) {
        self.handle.stop(true).await;
    }
}

/// A server on `database` (a database of the test's own: see `isolated_database_url`).
fn on(database: &str) -> Options {
    Options {
        database: Some(database.to_owned()),
        ..Default::default()
    }
}

fn psql_on(database: &str, sql: &str) {
    let out = std::process::Command::new("psql")
        .args([database, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A port nothing listens on (yet): a receiver that is down.
fn free_port() -> TcpListener {
    TcpListener::bind("127.0.0.1:0").unwrap()
}

pub(crate) async fn create_webhook(
    app: &TestApp,
    acct: &Account,
    url: &str,
    events: &[&str],
) -> Value {
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/webhooks", &acct.key)
            .json(&json!({"url": url, "events": events})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

async fn add_reading(app: &TestApp, acct: &Account, session: &str, body: Value) -> Value {
    let (status, v) = call(
        app.with_key(
            Method::POST,
            &format!("/v1/sessions/{session}/fermentation-logs"),
            &acct.key,
        )
        .json(&body),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    v
}

async fn deliveries(app: &TestApp, acct: &Account, webhook: &Value) -> Vec<Value> {
    let (status, v) = call(app.with_key(
        Method::GET,
        &format!(
            "/v1/webhooks/{}/deliveries",
            webhook["id"].as_str().unwrap()
        ),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 200);
    v.as_array().unwrap().clone()
}

/// Verifies a Standard Webhooks signature with Python's own `hmac`, `hashlib` and `base64`:
/// an implementation that shares no code with wort's.
fn python_verifies(secret: &str, r: &Received) -> bool {
    let script = "import base64,hashlib,hmac,sys\n\
        secret,msg_id,ts,body,sig=sys.argv[1:]\n\
        key=base64.b64decode(secret.split('_',1)[1])\n\
        mac=hmac.new(key,f'{msg_id}.{ts}.{body}'.encode(),hashlib.sha256).digest()\n\
        ok=any(hmac.compare_digest('v1,'+base64.b64encode(mac).decode(),s) for s in sig.split(' '))\n\
        print('valid' if ok else 'invalid')";
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            script,
            secret,
            &r.id,
            &r.timestamp,
            &r.body,
            &r.signature,
        ])
        .output()
        .expect("python3 runs");
    String::from_utf8_lossy(&out.stdout).trim() == "valid"
}

#[tokio::test]
async fn webhooks_are_managed_and_the_secret_is_shown_once() {
    let app = TestApp::spawn_with(on(&isolated_database_url("managed"))).await;
    let acct = app.account().await;
    let receiver = Receiver::start().await;
    let hook = create_webhook(&app, &acct, &receiver.url(), &["reading.created"]).await;
    let secret = hook["secret"].as_str().unwrap();
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert_eq!(hook["active"], true);
    assert_eq!(hook["events"], json!(["reading.created"]));
    let id = hook["id"].as_str().unwrap();
    let (_, got) = call(app.with_key(Method::GET, &format!("/v1/webhooks/{id}"), &acct.key)).await;
    assert!(got.get("secret").is_none());
    let (status, patched) = call(
        app.with_key(Method::PATCH, &format!("/v1/webhooks/{id}"), &acct.key)
            .json(&json!({"events": ["fermentation.stable", "session.status_changed"], "active": false})),
    )
    .await;
    assert_eq!(status, 200, "{patched}");
    assert_eq!(patched["active"], false);

    for (body, expected) in [
        (
            json!({"url": receiver.url(), "events": []}),
            ("too_small", "events"),
        ),
        (
            json!({"url": receiver.url(), "events": ["reading.deleted"]}),
            ("invalid_enum_value", "events.0"),
        ),
        (
            json!({"url": receiver.url(), "events": ["ping"]}),
            ("invalid_enum_value", "events.0"),
        ),
        (
            json!({"url": "ftp://example.com/", "events": ["reading.created"]}),
            ("custom", "url"),
        ),
        (
            json!({"url": "not a url", "events": ["reading.created"]}),
            ("invalid_string", "url"),
        ),
    ] {
        let (status, v) = call(
            app.with_key(Method::POST, "/v1/webhooks", &acct.key)
                .json(&body),
        )
        .await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(
            issue_codes(&v),
            [(expected.0.to_owned(), expected.1.to_owned())],
            "{body}"
        );
    }
    let other = app.account().await;
    for (method, path) in [
        (Method::GET, format!("/v1/webhooks/{id}")),
        (Method::GET, format!("/v1/webhooks/{id}/deliveries")),
        (Method::POST, format!("/v1/webhooks/{id}/test")),
        (Method::DELETE, format!("/v1/webhooks/{id}")),
    ] {
        assert_eq!(
            call(app.with_key(method, &path, &other.key)).await.0,
            404,
            "{path}"
        );
    }
    assert!(!crate::support::captured_logs().contains(secret));
    assert_eq!(
        call(app.with_key(Method::DELETE, &format!("/v1/webhooks/{id}"), &acct.key))
            .await
            .0,
        204
    );
    receiver.stop().await;
    app.stop().await;
}

#[tokio::test]
async fn private_targets_are_refused_unless_the_operator_allows_them() {
    // It delivers nothing: its workers would refuse the other tests' receivers on 127.0.0.1.
    let strict = wort_server::WebhookSettings {
        allow_private: false,
        deliver: false,
        ..test_webhook_settings()
    };
    let app = TestApp::spawn_with(Options {
        webhooks: Some(strict),
        ..Default::default()
    })
    .await;
    let acct = app.account().await;
    for url in [
        "http://127.0.0.1:8080/hook",
        "http://localhost/hook",
        "http://10.0.0.7/",
        "http://192.168.1.20/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[fd00::1]/",
        "http://[::ffff:127.0.0.1]/",
    ] {
        let (status, body) = call(
            app.with_key(Method::POST, "/v1/webhooks", &acct.key)
                .json(&json!({"url": url, "events": ["reading.created"]})),
        )
        .await;
        assert_eq!(status, 422, "{url}: {body}");
        assert_eq!(
            issue_codes(&body),
            [("custom".to_owned(), "url".to_owned())],
            "{url}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn events_are_delivered_signed_and_logged() {
    let app = TestApp::spawn_with(Options {
        metrics: true,
        database: Some(isolated_database_url("delivered")),
        ..Default::default()
    })
    .await;
    let acct = app.account().await;
    let receiver = Receiver::start().await;
    let session = fermenting_session(&app, &acct).await;
    let hook = create_webhook(
        &app,
        &acct,
        &receiver.url(),
        &["reading.created", "session.status_changed"],
    )
    .await;
    let secret = hook["secret"].as_str().unwrap().to_owned();
    let reading = add_reading(
        &app,
        &acct,
        &session,
        json!({"gravity": 1.044, "temperature_c": 19.5}),
    )
    .await;
    let (status, _) = call(
        app.with_key(Method::PATCH, &format!("/v1/sessions/{session}"), &acct.key)
            .json(&json!({"status": "conditioning"})),
    )
    .await;
    assert_eq!(status, 200);

    let created = receiver.wait_for("reading.created", 1).await;
    let body: Value = serde_json::from_str(&created[0].body).unwrap();
    assert_eq!(
        body["data"], reading,
        "data is the reading as the API shows it"
    );
    assert!(body["timestamp"].is_string());
    assert!(python_verifies(&secret, &created[0]), "{:?}", created[0]);
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let sent_at: i64 = created[0].timestamp.parse().unwrap();
    assert!((now - sent_at).abs() < 60);

    let changed = receiver.wait_for("session.status_changed", 1).await;
    let body: Value = serde_json::from_str(&changed[0].body).unwrap();
    assert_eq!(body["data"]["from"], "fermenting");
    assert_eq!(body["data"]["to"], "conditioning");
    assert_eq!(body["data"]["session_id"], session.as_str());
    assert!(python_verifies(&secret, &changed[0]));
    // A tampered body does not verify.
    let mut forged = changed[0].clone();
    forged.body = forged.body.replace("conditioning", "completed");
    assert!(!python_verifies(&secret, &forged));

    // Re-sending the current status changes nothing and sends nothing.
    call(
        app.with_key(Method::PATCH, &format!("/v1/sessions/{session}"), &acct.key)
            .json(&json!({"status": "conditioning"})),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.of_type("session.status_changed").len(), 1);

    let mut log = Vec::new();
    for _ in 0..50 {
        log = deliveries(&app, &acct, &hook).await;
        if log.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(
        log.iter()
            .all(|a| a["status"] == "delivered" && a["response_status"] == 204)
    );

    // The test ping: delivered, and in the log.
    let (status, ping) = call(app.with_key(
        Method::POST,
        &format!("/v1/webhooks/{}/test", hook["id"].as_str().unwrap()),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 200, "{ping}");
    assert_eq!(
        (ping["status"].as_str(), ping["event_type"].as_str()),
        (Some("delivered"), Some("ping"))
    );
    let pings = receiver.wait_for("ping", 1).await;
    assert!(python_verifies(&secret, &pings[0]));
    assert_eq!(deliveries(&app, &acct, &hook).await.len(), 3);

    // Another account's readings never reach this endpoint.
    let other = app.account().await;
    let theirs = fermenting_session(&app, &other).await;
    add_reading(&app, &other, &theirs, json!({"gravity": 1.050})).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.of_type("reading.created").len(), 1);
    receiver.stop().await;
    app.stop().await;
}

#[tokio::test]
async fn two_instances_deliver_each_event_exactly_once() {
    let db = isolated_database_url("two");
    let first = TestApp::spawn_with(on(&db)).await;
    let second = TestApp::spawn_with(on(&db)).await;
    let acct = first.account().await;
    let receiver = Receiver::start().await;
    let session = fermenting_session(&first, &acct).await;
    create_webhook(&first, &acct, &receiver.url(), &["reading.created"]).await;
    let second_hook = Receiver::start().await;
    create_webhook(&first, &acct, &second_hook.url(), &["reading.created"]).await;
    let n = 60;
    for i in 0..n {
        let app = if i % 2 == 0 { &first } else { &second };
        add_reading(
            app,
            &acct,
            &session,
            json!({"gravity": 1.050 - f64::from(i) * 0.0001}),
        )
        .await;
    }
    for r in [&receiver, &second_hook] {
        let got = r.wait_for("reading.created", n as usize).await;
        // Let any duplicate arrive before counting.
        tokio::time::sleep(Duration::from_millis(800)).await;
        let got_after = r.of_type("reading.created");
        assert_eq!(got_after.len(), got.len());
        let mut ids: Vec<_> = got_after.iter().map(|r| r.id.clone()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n as usize, "each event once per endpoint");
        assert_eq!(got_after.len(), n as usize);
    }
    receiver.stop().await;
    second_hook.stop().await;
    first.stop().await;
    second.stop().await;
}

#[tokio::test]
async fn a_receiver_that_is_down_gets_every_event_when_it_is_back_even_after_a_restart() {
    let db = isolated_database_url("restart");
    let app = TestApp::spawn_with(on(&db)).await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let reserved = free_port();
    let port = reserved.local_addr().unwrap().port();
    drop(reserved);
    let url = format!("http://127.0.0.1:{port}/hook");
    let hook = create_webhook(&app, &acct, &url, &["reading.created"]).await;
    for i in 0..5 {
        add_reading(
            &app,
            &acct,
            &session,
            json!({"gravity": 1.040 - f64::from(i) * 0.001}),
        )
        .await;
    }
    // Attempts fail (nothing listens) and are scheduled again.
    for _ in 0..50 {
        if deliveries(&app, &acct, &hook).await.len() >= 5 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let log = deliveries(&app, &acct, &hook).await;
    assert!(log.len() >= 5, "{log:?}");
    assert!(
        log.iter()
            .all(|a| a["status"] == "retrying" && a["response_status"].is_null()),
        "{log:?}"
    );
    assert!(log[0]["error"].is_string());

    // wort restarts mid-retry: the retries are in the database, not in the process.
    app.stop().await;
    let restarted = TestApp::spawn_with(on(&db)).await;
    let receiver = Receiver::on(TcpListener::bind(("127.0.0.1", port)).unwrap()).await;
    let got = receiver.wait_for("reading.created", 5).await;
    let mut ids: Vec<_> = got.iter().map(|r| r.id.clone()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 5, "every event, once each");
    // Each attempt is recorded just after its answer arrives: poll briefly.
    let mut log = Vec::new();
    for _ in 0..100 {
        log = deliveries(&restarted, &acct, &hook).await;
        if log.iter().filter(|a| a["status"] == "delivered").count() == 5 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let delivered = log.iter().filter(|a| a["status"] == "delivered").count();
    assert_eq!(delivered, 5, "{log:#?}");
    receiver.stop().await;
    restarted.stop().await;
}

#[tokio::test]
async fn failures_back_off_give_up_after_the_window_and_deactivate_after_fifty() {
    let mut settings = test_webhook_settings();
    settings.retry.retry_for = time::Duration::seconds(1);
    // A database of its own: its workers would give up on other tests' deliveries after 1 s.
    let app = TestApp::spawn_with(Options {
        webhooks: Some(settings),
        database: Some(isolated_database_url("giveup")),
        ..Default::default()
    })
    .await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let receiver = Receiver::start().await;
    *receiver.status.lock().unwrap() = 500;
    let hook = create_webhook(&app, &acct, &receiver.url(), &["reading.created"]).await;
    add_reading(&app, &acct, &session, json!({"gravity": 1.030})).await;
    // 100 ms, 200 ms, 400 ms… then the 1 s window is over: failed.
    let mut log = Vec::new();
    for _ in 0..60 {
        log = deliveries(&app, &acct, &hook).await;
        if log.first().is_some_and(|a| a["status"] == "failed") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(log.first().unwrap()["status"], "failed", "{log:?}");
    assert!(log.len() >= 2 && log.len() <= 6, "{} attempts", log.len());
    assert!(log.iter().all(|a| a["response_status"] == 500));
    let attempts: Vec<i64> = log
        .iter()
        .rev()
        .map(|a| a["attempt"].as_i64().unwrap())
        .collect();
    assert_eq!(attempts, (1..=attempts.len() as i64).collect::<Vec<_>>());

    // 50 failures in a row switch the endpoint off.
    for i in 0..50 {
        add_reading(
            &app,
            &acct,
            &session,
            json!({"gravity": 1.029 - f64::from(i) * 0.0001}),
        )
        .await;
    }
    let id = hook["id"].as_str().unwrap();
    let mut state = Value::Null;
    for _ in 0..100 {
        state = call(app.with_key(Method::GET, &format!("/v1/webhooks/{id}"), &acct.key))
            .await
            .1;
        if state["active"] == false {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(state["active"], false, "{state}");
    assert!(state["consecutive_failures"].as_i64().unwrap() >= 50);
    // Switched back on: a fresh count.
    let (_, on) = call(
        app.with_key(Method::PATCH, &format!("/v1/webhooks/{id}"), &acct.key)
            .json(&json!({"active": true})),
    )
    .await;
    assert_eq!(
        (on["active"].as_bool(), on["consecutive_failures"].as_i64()),
        (Some(true), Some(0))
    );
    receiver.stop().await;
    app.stop().await;
}

#[tokio::test]
async fn fermentation_stable_is_sent_once_until_gravity_moves_again() {
    let app = TestApp::spawn_with(on(&isolated_database_url("stable"))).await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct).await;
    let receiver = Receiver::start().await;
    create_webhook(&app, &acct, &receiver.url(), &["fermentation.stable"]).await;
    let now = time::OffsetDateTime::now_utc();
    let at = |hours: i64| wort_domain::timestamp::format(now - time::Duration::hours(hours));
    // Three flat readings in the first hours: fermentation has not begun, nothing is sent.
    for h in [72, 71, 70] {
        add_reading(
            &app,
            &acct,
            &session,
            json!({"gravity": 1.050, "logged_at": at(h)}),
        )
        .await;
    }
    // Falling, then flat for 48 hours.
    for (h, g) in [
        (60, 1.030),
        (52, 1.014),
        (48, 1.012),
        (30, 1.011),
        (12, 1.011),
    ] {
        add_reading(
            &app,
            &acct,
            &session,
            json!({"gravity": g, "logged_at": at(h)}),
        )
        .await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        receiver.of_type("fermentation.stable").is_empty(),
        "not yet: the last 48 h are not covered"
    );
    add_reading(
        &app,
        &acct,
        &session,
        json!({"gravity": 1.011, "logged_at": at(0)}),
    )
    .await;
    let stable = receiver.wait_for("fermentation.stable", 1).await;
    let body: Value = serde_json::from_str(&stable[0].body).unwrap();
    assert_eq!(body["data"]["session_id"], session.as_str());
    assert_eq!(body["data"]["gravity"], 1.011);
    // Still flat: not sent again.
    add_reading(&app, &acct, &session, json!({"gravity": 1.011})).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.of_type("fermentation.stable").len(), 1);
    // It moves (a refermentation): forgotten, and announced again once flat for 48 h more.
    add_reading(&app, &acct, &session, json!({"gravity": 1.016})).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.of_type("fermentation.stable").len(), 1);
    receiver.stop().await;
    app.stop().await;
}

#[tokio::test]
async fn events_and_their_log_are_pruned_after_thirty_days() {
    let db = isolated_database_url("prune");
    let app = TestApp::spawn_with(on(&db)).await;
    let acct = app.account().await;
    let receiver = Receiver::start().await;
    let session = fermenting_session(&app, &acct).await;
    let hook = create_webhook(&app, &acct, &receiver.url(), &["reading.created"]).await;
    add_reading(&app, &acct, &session, json!({"gravity": 1.040})).await;
    receiver.wait_for("reading.created", 1).await;
    for _ in 0..50 {
        if deliveries(&app, &acct, &hook).await.len() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(deliveries(&app, &acct, &hook).await.len(), 1);
    app.stop().await;
    // This account's event is made 31 days old (only its own: tests may share the database),
    // and a wort starting now prunes when its workers start.
    psql_on(
        &db,
        &format!(
            "UPDATE webhook_events SET created_at = created_at - interval '31 days' \
             WHERE user_id = '{}'",
            acct.id
        ),
    );
    let later = TestApp::spawn_with(on(&db)).await;
    let mut log = vec![Value::Null];
    for _ in 0..50 {
        log = deliveries(&later, &acct, &hook).await;
        if log.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(log.is_empty(), "{log:?}");
    receiver.stop().await;
    later.stop().await;
}

#[tokio::test]
async fn the_test_ping_is_sent_at_most_once_per_ten_seconds_even_across_instances() {
    let db = isolated_database_url("pinglimit");
    let first = TestApp::spawn_with(on(&db)).await;
    let second = TestApp::spawn_with(on(&db)).await;
    let acct = first.account().await;
    let receiver = Receiver::start().await;
    let hook = create_webhook(&first, &acct, &receiver.url(), &["reading.created"]).await;
    let other = create_webhook(&first, &acct, &receiver.url(), &["reading.created"]).await;
    let test = |app: &TestApp, hook: &Value| {
        app.with_key(
            Method::POST,
            &format!("/v1/webhooks/{}/test", hook["id"].as_str().unwrap()),
            &acct.key,
        )
        .send()
    };
    assert_eq!(test(&first, &hook).await.unwrap().status(), 200);
    // Again at once, on this instance and on the other one: refused, and nothing is sent.
    for app in [&first, &second] {
        let res = test(app, &hook).await.unwrap();
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        let retry: u64 = res.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=10).contains(&retry), "Retry-After: {retry}");
        let body: Value = res.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().contains("test"), "{body}");
    }
    // A burst at once: still nothing more sent.
    let burst = (0..20).map(|_| test(&second, &hook));
    for res in futures_util::future::join_all(burst).await {
        assert_eq!(res.unwrap().status(), 429);
    }
    // The limit is the endpoint's: another endpoint of the account may be tested.
    assert_eq!(test(&second, &other).await.unwrap().status(), 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.of_type("ping").len(), 2);
    receiver.stop().await;
    first.stop().await;
    second.stop().await;
}

/// A receiver that accepts connections and never answers: every attempt to it waits for the
/// attempt's timeout. Returns its URL and how many connections it has accepted.
async fn silent_receiver() -> (
    String,
    Arc<std::sync::atomic::AtomicUsize>,
    tokio::task::JoinHandle<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = accepted.clone();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            held.push(socket);
        }
    });
    (url, accepted, task)
}

#[tokio::test]
async fn one_accounts_dead_endpoints_do_not_delay_another_accounts_deliveries() {
    let app = TestApp::spawn_with(on(&isolated_database_url("fairness"))).await;
    // Account A: 25 endpoints that never answer, and 50 deliveries due to them at once, more
    // than an instance's attempts in flight.
    let a = app.account().await;
    let (silent, accepted, silent_task) = silent_receiver().await;
    for _ in 0..25 {
        create_webhook(&app, &a, &silent, &["reading.created"]).await;
    }
    let a_session = fermenting_session(&app, &a).await;
    add_reading(&app, &a, &a_session, json!({"gravity": 1.050})).await;
    add_reading(&app, &a, &a_session, json!({"gravity": 1.049})).await;
    for _ in 0..100 {
        if accepted.load(std::sync::atomic::Ordering::SeqCst) >= 8 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    // A's attempts in flight are capped, whatever its backlog.
    let in_flight = accepted.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        (1..=MAX_IN_FLIGHT_PER_ACCOUNT as usize).contains(&in_flight),
        "{in_flight} attempts of one account in flight"
    );

    // Account B's delivery arrives long before A's attempts time out (10 s).
    let b = app.account().await;
    let receiver = Receiver::start().await;
    create_webhook(&app, &b, &receiver.url(), &["reading.created"]).await;
    let b_session = fermenting_session(&app, &b).await;
    let started = std::time::Instant::now();
    add_reading(&app, &b, &b_session, json!({"gravity": 1.040})).await;
    receiver.wait_for("reading.created", 1).await;
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(3),
        "B waited {waited:?} behind A's dead endpoints"
    );
    // Dropping the silent receiver's connections ends A's attempts before the server stops.
    silent_task.abort();
    receiver.stop().await;
    app.stop().await;
}

#[tokio::test]
async fn a_devices_reading_is_announced_like_one_entered_by_hand() {
    let app = TestApp::spawn_with(on(&isolated_database_url("device_reading"))).await;
    let acct = app.account().await;
    let receiver = Receiver::start().await;
    let session = fermenting_session(&app, &acct).await;
    // Two endpoints, one subscribed twice over: one event, one delivery per endpoint.
    create_webhook(&app, &acct, &receiver.url(), &["reading.created"]).await;
    create_webhook(
        &app,
        &acct,
        &receiver.url(),
        &["fermentation.stable", "reading.created"],
    )
    .await;
    let (_, token) = crate::devices::device(&app, &acct, "ispindel", Some(&session)).await;
    let (status, answer) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .json(&json!({"name": "iSpindel", "gravity": 1.021, "temperature": 18.0})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let created = receiver.wait_for("reading.created", 2).await;
    let body: Value = serde_json::from_str(&created[0].body).unwrap();
    assert_eq!(created[0].body, created[1].body);
    assert_eq!(body["data"]["session_id"], session.as_str());
    assert_eq!(body["data"]["gravity"], 1.021);
    assert!(body["data"]["device_id"].is_string(), "{body}");
    receiver.stop().await;
    app.stop().await;
}

#[tokio::test]
async fn fermentation_step_due_is_sent_once_per_step() {
    let app = TestApp::spawn_with(on(&isolated_database_url("step_due"))).await;
    let acct = app.account().await;
    let receiver = Receiver::start().await;
    create_webhook(&app, &acct, &receiver.url(), &["fermentation.step_due"]).await;
    let recipe = crate::fermentation::planned_recipe(&app, &acct).await;
    let (status, session) = call(
        app.with_key(Method::POST, "/v1/sessions", &acct.key)
            .json(&json!({"recipe_id": recipe, "brew_date": "2026-11-20", "status": "fermenting"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{session}");
    let session = session["id"].as_str().unwrap().to_owned();
    // Primary is due the moment fermentation starts.
    let first = receiver.wait_for("fermentation.step_due", 1).await;
    let body: Value = serde_json::from_str(&first[0].body).unwrap();
    assert_eq!(body["data"]["session_id"], session.as_str());
    assert_eq!(body["data"]["name"], "Primary");
    assert_eq!(body["data"]["temperature_c"], 18.0);
    // Primary's gravity reached: the next rest and the dry hop.
    add_reading(&app, &acct, &session, json!({"gravity": 1.014})).await;
    let due = receiver.wait_for("fermentation.step_due", 3).await;
    let names: Vec<String> = due
        .iter()
        .map(|r| {
            serde_json::from_str::<Value>(&r.body).unwrap()["data"]["name"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert!(
        names.contains(&"Free rise".to_owned()) && names.contains(&"Citra".to_owned()),
        "{names:?}"
    );
    // More readings meeting the same condition announce nothing again.
    add_reading(&app, &acct, &session, json!({"gravity": 1.012})).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(receiver.of_type("fermentation.step_due").len(), 3);
    receiver.stop().await;
    app.stop().await;
}

#[tokio::test]
async fn fermentation_step_due_follows_the_clock_for_timed_steps() {
    let app = TestApp::spawn_with(on(&isolated_database_url("step_due_clock"))).await;
    let acct = app.account().await;
    let receiver = Receiver::start().await;
    create_webhook(&app, &acct, &receiver.url(), &["fermentation.step_due"]).await;
    let (_, recipe) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({"name": "Quick"})),
    )
    .await;
    let steps = format!(
        "/v1/recipes/{}/fermentation-steps",
        recipe["id"].as_str().unwrap()
    );
    // Primary lasts about 2 seconds: the crash is due then, found by the periodic check.
    for body in [
        json!({"name": "Primary", "temperature_c": 19, "days": 0.00002}),
        json!({"name": "Crash", "temperature_c": 2, "days": 2}),
    ] {
        let (status, v) = call(app.with_key(Method::POST, &steps, &acct.key).json(&body)).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }
    let (status, session) = call(app.with_key(Method::POST, "/v1/sessions", &acct.key).json(
        &json!({"recipe_id": recipe["id"], "brew_date": "2026-11-20", "status": "fermenting"}),
    ))
    .await;
    assert_eq!(status, StatusCode::CREATED, "{session}");
    let due = receiver.wait_for("fermentation.step_due", 2).await;
    let last: Value = serde_json::from_str(&due[1].body).unwrap();
    assert_eq!(last["data"]["name"], "Crash");
    assert_eq!(last["data"]["temperature_c"], 2.0);
    assert!(last["data"]["due_at"].is_string());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.of_type("fermentation.step_due").len(), 2);
    receiver.stop().await;
    app.stop().await;
}
