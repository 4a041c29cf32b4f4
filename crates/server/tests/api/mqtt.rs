//! MQTT and Home Assistant, against a real broker (Debian's mosquitto, started by each test on
//! a free port of its own): readings, alerts and discovery configs arrive retained on their
//! topics; a broker that is down delays no request and gets the messages once it is up; a wrong
//! password shows in `last_error`; settings are checked and are the account's own.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Account, Options, TestApp, call, issue_codes, post};

/// A mosquitto of the test's own, on 127.0.0.1: no persistence, anonymous unless a user is
/// given (then only that user, from a password file).
pub(crate) struct Broker {
    child: Option<Child>,
    pub(crate) port: u16,
    dir: PathBuf,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Broker {
    pub(crate) fn start(user: Option<(&str, &str)>) -> Broker {
        Self::start_on(free_port(), user)
    }

    pub(crate) fn start_on(port: u16, user: Option<(&str, &str)>) -> Broker {
        let dir = std::env::temp_dir().join(format!("wort-mosquitto-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut config = format!("listener {port} 127.0.0.1\npersistence false\n");
        match user {
            None => config.push_str("allow_anonymous true\n"),
            Some((name, password)) => {
                let file = dir.join("passwords");
                let made = Command::new("mosquitto_passwd")
                    .arg("-c")
                    .arg("-b")
                    .arg(&file)
                    .args([name, password])
                    .status()
                    .expect("mosquitto_passwd (Debian's mosquitto) is installed");
                assert!(made.success());
                config.push_str(&format!(
                    "allow_anonymous false\npassword_file {}\n",
                    file.display()
                ));
            }
        }
        let conf = dir.join("mosquitto.conf");
        std::fs::write(&conf, config).unwrap();
        let child = Command::new(mosquitto())
            .arg("-c")
            .arg(&conf)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("mosquitto (Debian's mosquitto) is installed");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "mosquitto did not start on {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Broker {
            child: Some(child),
            port,
            dir,
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("mqtt://127.0.0.1:{}", self.port)
    }

    /// What a client subscribing now receives on `topic`: up to `count` messages within
    /// `wait`, each as (topic, retained, payload).
    pub(crate) async fn receive(
        &self,
        user: Option<(&str, &str)>,
        topic: &str,
        count: usize,
        wait: Duration,
    ) -> Vec<(String, bool, String)> {
        let mut command = Command::new("mosquitto_sub");
        command
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-t", topic])
            .args([
                "-C",
                &count.to_string(),
                "-W",
                &wait.as_secs().max(1).to_string(),
            ])
            .args(["-q", "1", "-F", "%t\t%r\t%p"]);
        if let Some((name, password)) = user {
            command.args(["-u", name, "-P", password]);
        }
        let output = tokio::task::spawn_blocking(move || command.output().unwrap())
            .await
            .unwrap();
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|line| {
                let mut parts = line.splitn(3, '\t');
                let topic = parts.next().unwrap_or_default().to_owned();
                let retained = parts.next() == Some("1");
                let payload = parts.next().unwrap_or_default().to_owned();
                (topic, retained, payload)
            })
            .collect()
    }

    pub(crate) fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn mosquitto() -> &'static str {
    if std::path::Path::new("/usr/sbin/mosquitto").exists() {
        "/usr/sbin/mosquitto"
    } else {
        "mosquitto"
    }
}

async fn send(
    app: &TestApp,
    acct: &Account,
    m: Method,
    path: &str,
    body: Value,
) -> (StatusCode, Value) {
    call(app.with_key(m, path, &acct.key).json(&body)).await
}

async fn integrate(app: &TestApp, acct: &Account, body: Value) -> Value {
    let (status, v) = send(app, acct, Method::PATCH, "/v1/integrations/mqtt", body).await;
    assert_eq!(status, 200, "{v}");
    v
}

async fn integration(app: &TestApp, acct: &Account) -> (StatusCode, Value) {
    call(app.with_key(Method::GET, "/v1/integrations/mqtt", &acct.key)).await
}

/// A fermenting session whose measured OG is 1.050.
async fn fermenting_session(app: &TestApp, acct: &Account, name: &str) -> String {
    let recipe = post(app, acct, "/v1/recipes", json!({"name": name})).await;
    let session = post(
        app,
        acct,
        "/v1/sessions",
        json!({"recipe_id": recipe["id"], "brew_date": "2026-11-20", "status": "fermenting"}),
    )
    .await;
    let id = session["id"].as_str().unwrap().to_owned();
    let (status, v) = send(
        app,
        acct,
        Method::PATCH,
        &format!("/v1/sessions/{id}"),
        json!({"measured_og": 1.050}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    id
}

async fn reading(app: &TestApp, acct: &Account, session: &str, body: Value) -> Duration {
    let started = Instant::now();
    let (status, v) = send(
        app,
        acct,
        Method::POST,
        &format!("/v1/sessions/{session}/fermentation-logs"),
        body,
    )
    .await;
    assert_eq!(status, 201, "{v}");
    started.elapsed()
}

/// Waits until the integration's `GET` answer satisfies `done`.
async fn wait_for(
    app: &TestApp,
    acct: &Account,
    what: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, v) = integration(app, acct).await;
        if done(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "waited for {what}: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn prefix() -> String {
    format!("test/{}", uuid::Uuid::new_v4().simple())
}

#[tokio::test]
async fn readings_alerts_and_discovery_configs_arrive_retained() {
    let broker = Broker::start(None);
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let prefix = prefix();
    let created = integrate(
        &app,
        &acct,
        json!({"url": broker.url(), "topic_prefix": prefix}),
    )
    .await;
    assert_eq!(created["enabled"], true);
    assert_eq!(created["discovery_prefix"], "homeassistant");
    assert_eq!(created["has_password"], false);
    assert!(created.get("password").is_none());

    // Entering fermentation announces the session's sensors.
    let session = fermenting_session(&app, &acct, "Pale").await;
    wait_for(&app, &acct, "the configs published", |v| {
        v["pending_messages"] == 0 && v["last_published_at"].is_string()
    })
    .await;
    let config_topic = format!("homeassistant/sensor/wort_{session}_gravity/config");
    let configs = broker
        .receive(None, &config_topic, 1, Duration::from_secs(10))
        .await;
    assert_eq!(configs.len(), 1, "{configs:?}");
    assert!(configs[0].1, "retained");
    let config: Value = serde_json::from_str(&configs[0].2).unwrap();
    assert_eq!(config["unique_id"], format!("wort_{session}_gravity"));
    assert_eq!(
        config["state_topic"],
        format!("{prefix}/sessions/{session}/reading")
    );
    assert_eq!(config["value_template"], "{{ value_json.gravity }}");
    assert_eq!(
        config["device"]["identifiers"][0],
        format!("wort_{session}")
    );
    let temperature = broker
        .receive(
            None,
            &format!("homeassistant/sensor/wort_{session}_temperature/config"),
            1,
            Duration::from_secs(5),
        )
        .await;
    let temperature: Value = serde_json::from_str(&temperature[0].2).unwrap();
    assert_eq!(temperature["device_class"], "temperature");
    assert_eq!(temperature["unit_of_measurement"], "°C");

    // Each reading; a subscriber that comes later gets the latest, retained.
    reading(
        &app,
        &acct,
        &session,
        json!({"gravity": 1.020, "temperature_c": 19.0}),
    )
    .await;
    reading(
        &app,
        &acct,
        &session,
        json!({"gravity": 1.012, "temperature_c": 19.5}),
    )
    .await;
    let reading_topic = format!("{prefix}/sessions/{session}/reading");
    wait_for(&app, &acct, "both readings published", |v| {
        v["pending_messages"] == 0 && v["last_published_at"].is_string()
    })
    .await;
    let got = broker
        .receive(None, &reading_topic, 1, Duration::from_secs(5))
        .await;
    assert_eq!(got.len(), 1, "{got:?}");
    let (topic, retained, payload) = &got[0];
    assert_eq!(topic, &reading_topic);
    assert!(retained);
    let payload: Value = serde_json::from_str(payload).unwrap();
    assert_eq!(payload["gravity"], 1.012);
    assert_eq!(payload["temperature_c"], 19.5);
    assert_eq!(payload["attenuation"], 76.0);
    assert_eq!(payload["abv"], 4.99);
    assert!(payload["logged_at"].is_string());

    // An alert raised, then cleared: the latest is retained.
    post(
        &app,
        &acct,
        "/v1/alert-rules",
        json!({"kind": "temperature_outside", "min_c": 18, "max_c": 21}),
    )
    .await;
    let alerts_topic = format!("{prefix}/alerts");
    reading(&app, &acct, &session, json!({"temperature_c": 23.0})).await;
    let raised = broker
        .receive(None, &alerts_topic, 1, Duration::from_secs(10))
        .await;
    assert_eq!(raised.len(), 1, "{raised:?}");
    let alert: Value = serde_json::from_str(&raised[0].2).unwrap();
    assert_eq!(alert["state"], "raised");
    assert_eq!(alert["kind"], "temperature_outside");
    assert_eq!(alert["session_id"], session.as_str());
    reading(&app, &acct, &session, json!({"temperature_c": 19.0})).await;
    wait_for(&app, &acct, "the clearing published", |v| {
        v["pending_messages"] == 0
    })
    .await;
    let cleared = broker
        .receive(None, &alerts_topic, 1, Duration::from_secs(5))
        .await;
    let cleared: Value = serde_json::from_str(&cleared[0].2).unwrap();
    assert_eq!(cleared["state"], "cleared");
    assert_eq!(cleared["id"], alert["id"]);

    // Leaving fermentation removes the sensors: an empty retained message on each config topic.
    let port = broker.port;
    let topic = config_topic.clone();
    let watcher = tokio::spawn(async move {
        let mut command = Command::new("mosquitto_sub");
        command
            .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-t", &topic])
            .args(["-C", "2", "-W", "15", "-q", "1", "-F", "%t\t%l\t%p"]);
        tokio::task::spawn_blocking(move || command.output().unwrap())
            .await
            .unwrap()
    });
    // The watcher has its retained config before the change.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (status, v) = send(
        &app,
        &acct,
        Method::PATCH,
        &format!("/v1/sessions/{session}"),
        json!({"status": "conditioning"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let watched = String::from_utf8(watcher.await.unwrap().stdout).unwrap();
    let lines: Vec<&str> = watched.lines().collect();
    assert_eq!(lines.len(), 2, "{watched}");
    assert!(lines[0].contains("unique_id"), "{watched}");
    assert!(
        lines[1].starts_with(&format!("{config_topic}\t0\t")),
        "an empty message: {watched}"
    );
    wait_for(&app, &acct, "the removal published", |v| {
        v["pending_messages"] == 0
    })
    .await;
    let after = broker
        .receive(None, &config_topic, 1, Duration::from_secs(1))
        .await;
    assert!(after.is_empty(), "the retained config is gone: {after:?}");
}

#[tokio::test]
async fn a_broker_that_is_down_delays_nothing_and_gets_the_reading_once_up() {
    let port = free_port();
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let prefix = prefix();
    integrate(
        &app,
        &acct,
        json!({"url": format!("mqtt://127.0.0.1:{port}"), "topic_prefix": prefix}),
    )
    .await;
    let session = fermenting_session(&app, &acct, "Stout").await;
    let took = reading(&app, &acct, &session, json!({"gravity": 1.030})).await;
    assert!(
        took < Duration::from_secs(2),
        "the reading waited for the broker: {took:?}"
    );
    let down = wait_for(&app, &acct, "the failure recorded", |v| {
        v["last_error"].is_string()
    })
    .await;
    let error = down["last_error"].as_str().unwrap();
    assert!(error.contains("cannot reach the broker"), "{error}");
    assert!(down["pending_messages"].as_i64().unwrap() >= 1, "{down}");
    // Another reading while it is down answers as promptly.
    let took = reading(&app, &acct, &session, json!({"gravity": 1.025})).await;
    assert!(took < Duration::from_secs(2), "{took:?}");

    let broker = Broker::start_on(port, None);
    let up = wait_for(&app, &acct, "the backlog published", |v| {
        v["pending_messages"] == 0 && v["last_error"].is_null()
    })
    .await;
    assert!(up["last_published_at"].is_string());
    let got = broker
        .receive(
            None,
            &format!("{prefix}/sessions/{session}/reading"),
            1,
            Duration::from_secs(5),
        )
        .await;
    assert_eq!(got.len(), 1, "{got:?}");
    let payload: Value = serde_json::from_str(&got[0].2).unwrap();
    assert_eq!(payload["gravity"], 1.025, "the latest is the one retained");
}

#[tokio::test]
async fn a_wrong_password_shows_in_last_error_until_it_is_fixed() {
    let user = ("brewer", "right-secret");
    let broker = Broker::start(Some(user));
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let prefix = prefix();
    let created = integrate(
        &app,
        &acct,
        json!({"url": broker.url(), "topic_prefix": prefix, "username": "brewer",
               "password": "wrong"}),
    )
    .await;
    assert_eq!(created["username"], "brewer");
    assert_eq!(created["has_password"], true);
    let session = fermenting_session(&app, &acct, "Porter").await;
    reading(&app, &acct, &session, json!({"gravity": 1.040})).await;
    let refused = wait_for(&app, &acct, "the refusal recorded", |v| {
        v["last_error"].is_string()
    })
    .await;
    let error = refused["last_error"].as_str().unwrap();
    assert!(error.contains("not authorized"), "{error}");
    assert!(refused["last_error_at"].is_string());
    assert!(refused["last_published_at"].is_null());

    let fixed = integrate(&app, &acct, json!({"password": "right-secret"})).await;
    assert!(
        fixed["last_error"].is_null(),
        "new credentials start clean: {fixed}"
    );
    wait_for(&app, &acct, "published with the right password", |v| {
        v["pending_messages"] == 0 && v["last_published_at"].is_string()
    })
    .await;
    let got = broker
        .receive(
            Some(user),
            &format!("{prefix}/sessions/{session}/reading"),
            1,
            Duration::from_secs(5),
        )
        .await;
    assert_eq!(got.len(), 1, "{got:?}");
}

#[tokio::test]
async fn settings_are_checked_and_the_accounts_own() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (status, _) = integration(&app, &acct).await;
    assert_eq!(status, 404);
    let patch = |body: Value| send(&app, &acct, Method::PATCH, "/v1/integrations/mqtt", body);

    let (status, v) = patch(json!({"topic_prefix": "wort"})).await;
    assert_eq!(status, 422, "a new integration needs a url: {v}");
    assert!(
        issue_codes(&v).contains(&("invalid_type".into(), "url".into())),
        "{v}"
    );
    let (status, v) = patch(json!({"url": "http://broker.example"})).await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(issue_codes(&v), [("custom".to_owned(), "url".to_owned())]);
    let (status, v) = patch(json!({"url": "mqtt://192.168.1.5/path"})).await;
    assert_eq!(status, 422, "{v}");
    let (status, v) = patch(json!({"url": "mqtt://192.168.1.5", "topic_prefix": "home/#"})).await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(
        issue_codes(&v),
        [("custom".to_owned(), "topic_prefix".to_owned())]
    );
    let (status, v) = patch(json!({"url": "mqtt://192.168.1.5", "discovery_prefix": "ha/"})).await;
    assert_eq!(status, 422, "{v}");
    let (status, _) =
        patch(json!({"url": "mqtt://192.168.1.5", "username": "u".repeat(201)})).await;
    assert_eq!(status, 422);
    let (status, _) = integration(&app, &acct).await;
    assert_eq!(status, 404, "nothing was created");

    // A home broker on the LAN is the usual case.
    let created = integrate(
        &app,
        &acct,
        json!({"url": "mqtt://192.168.1.5", "enabled": false}),
    )
    .await;
    assert_eq!(created["topic_prefix"], "wort");
    assert_eq!(created["enabled"], false);
    let changed = integrate(&app, &acct, json!({"topic_prefix": "home/brewery"})).await;
    assert_eq!(changed["url"], "mqtt://192.168.1.5");
    assert_eq!(changed["topic_prefix"], "home/brewery");

    // Another account has none, and cannot delete this one.
    let other = app.account().await;
    assert_eq!(integration(&app, &other).await.0, 404);
    let (status, _) = call(app.with_key(Method::DELETE, "/v1/integrations/mqtt", &other.key)).await;
    assert_eq!(status, 404);
    assert_eq!(integration(&app, &acct).await.0, 200);

    let (status, _) = call(app.with_key(Method::DELETE, "/v1/integrations/mqtt", &acct.key)).await;
    assert_eq!(status, 204);
    assert_eq!(integration(&app, &acct).await.0, 404);
}

#[tokio::test]
async fn loopback_brokers_are_refused_unless_private_targets_are_allowed() {
    let app = TestApp::spawn_with(Options {
        webhooks: Some(wort_server::WebhookSettings::default()),
        ..Default::default()
    })
    .await;
    let acct = app.account().await;
    for url in [
        "mqtt://127.0.0.1:1884",
        "mqtt://localhost",
        "mqtts://169.254.169.254",
    ] {
        let (status, v) = send(
            &app,
            &acct,
            Method::PATCH,
            "/v1/integrations/mqtt",
            json!({"url": url}),
        )
        .await;
        assert_eq!(status, 422, "{url}: {v}");
        assert_eq!(
            issue_codes(&v),
            [("custom".to_owned(), "url".to_owned())],
            "{v}"
        );
    }
    integrate(&app, &acct, json!({"url": "mqtt://10.1.2.3:1883"})).await;

    // WORT_MQTT_ALLOW_PRIVATE=0: LAN brokers refused too.
    let strict = TestApp::spawn_with(Options {
        webhooks: Some(wort_server::WebhookSettings::default()),
        mqtt: Some(wort_server::MqttSettings {
            allow_lan: false,
            ..Default::default()
        }),
        ..Default::default()
    })
    .await;
    let acct = strict.account().await;
    let (status, v) = send(
        &strict,
        &acct,
        Method::PATCH,
        "/v1/integrations/mqtt",
        json!({"url": "mqtt://10.1.2.3:1883"}),
    )
    .await;
    assert_eq!(status, 422, "{v}");
}

#[tokio::test]
async fn enabling_the_integration_announces_the_sessions_already_fermenting() {
    let broker = Broker::start(None);
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let session = fermenting_session(&app, &acct, "Lager").await;
    // Created switched off: nothing is written, nothing published.
    let off = integrate(
        &app,
        &acct,
        json!({"url": broker.url(), "topic_prefix": prefix(), "enabled": false}),
    )
    .await;
    assert_eq!(off["pending_messages"], 0);
    reading(&app, &acct, &session, json!({"gravity": 1.040})).await;
    assert_eq!(integration(&app, &acct).await.1["pending_messages"], 0);

    let on = integrate(
        &app,
        &acct,
        json!({"enabled": true, "discovery_prefix": "ha"}),
    )
    .await;
    assert_eq!(on["pending_messages"], 3, "three sensors: {on}");
    wait_for(&app, &acct, "the configs published", |v| {
        v["pending_messages"] == 0 && v["last_published_at"].is_string()
    })
    .await;
    let got = broker
        .receive(
            None,
            &format!("ha/sensor/wort_{session}_abv/config"),
            1,
            Duration::from_secs(5),
        )
        .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].1, "retained");
    let config: Value = serde_json::from_str(&got[0].2).unwrap();
    assert_eq!(config["unique_id"], format!("wort_{session}_abv"));
    assert_eq!(config["unit_of_measurement"], "%");
    assert_eq!(config["device"]["name"], "Lager");

    // Deleting a fermenting session removes its sensors too.
    let (status, _) = call(app.with_key(
        Method::DELETE,
        &format!("/v1/sessions/{session}"),
        &acct.key,
    ))
    .await;
    assert_eq!(status, 204);
    wait_for(&app, &acct, "the removals published", |v| {
        v["pending_messages"] == 0
    })
    .await;
    let gone = broker
        .receive(
            None,
            &format!("ha/sensor/wort_{session}_abv/config"),
            1,
            Duration::from_secs(1),
        )
        .await;
    assert!(gone.is_empty(), "the retained config is gone: {gone:?}");
}
