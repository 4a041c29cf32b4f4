//! Fault tests: the database restarted (fast and immediate) under load, down at start, a
//! statement past `statement_timeout`, the database frozen (the client-side deadline), clients
//! disconnecting mid-transaction, SIGTERM under load.
//! Each test runs its own private PostgreSQL cluster (wort-pgcluster), which it stops and starts.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use wort_pgcluster::{Cluster, ClusterOptions, RunningCluster};
use wort_server::{ServerSettings, start};

const DB: &str = "wort";
/// How long a request may wait for a pooled connection before it is answered 503.
const POOL_WAIT: Duration = Duration::from_secs(2);

struct Fixture {
    dir: PathBuf,
    cluster: Option<RunningCluster>,
    url: String,
}

impl Fixture {
    async fn new() -> Fixture {
        let dir =
            std::env::temp_dir().join(format!("wort-fault-{}", uuid::Uuid::new_v4().simple()));
        let cluster = start_cluster(&dir);
        cluster.create_database(DB).unwrap();
        let url = cluster.database_url(DB);
        wort_db::migrate::run_migrations(&url).await.unwrap();
        Fixture {
            dir,
            cluster: Some(cluster),
            url,
        }
    }

    fn stop_fast(&mut self) {
        self.cluster.take().unwrap().stop().unwrap();
    }

    /// `pg_ctl stop -m immediate` semantics: SIGQUIT to the postmaster, no clean shutdown.
    fn stop_immediate(&mut self) {
        let cluster = self.cluster.take().unwrap();
        let pid_file = std::fs::read_to_string(cluster.data_dir().join("postmaster.pid")).unwrap();
        let pid = pid_file.lines().next().unwrap().trim().to_owned();
        assert!(
            Command::new("kill")
                .args(["-QUIT", &pid])
                .status()
                .unwrap()
                .success()
        );
        let started = Instant::now();
        while Path::new(&format!("/proc/{pid}")).exists() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "postmaster did not exit"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        std::mem::forget(cluster); // its server is gone; nothing left to stop
    }

    fn start(&mut self) {
        self.cluster = Some(start_cluster(&self.dir));
    }

    /// SIGSTOP to the postmaster and every backend: to the kernel the server is alive
    /// (connections accepted, packets acknowledged) but it answers nothing, and it cannot enforce
    /// its own `statement_timeout`. Thawed when the guard drops, panics included.
    fn freeze(&self) -> Frozen {
        let pid_file = std::fs::read_to_string(
            self.cluster
                .as_ref()
                .unwrap()
                .data_dir()
                .join("postmaster.pid"),
        )
        .unwrap();
        let postmaster = pid_file.lines().next().unwrap().trim().to_owned();
        let children = Command::new("pgrep")
            .args(["-P", &postmaster])
            .output()
            .unwrap();
        let mut pids: Vec<String> = String::from_utf8_lossy(&children.stdout)
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        pids.push(postmaster);
        signal("-STOP", &pids);
        Frozen(pids)
    }

    fn psql(&self, sql: &str) -> String {
        let out = self
            .cluster
            .as_ref()
            .unwrap()
            .psql(DB)
            .args(["-X", "-q", "-t", "-A", "-c", sql])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn server_settings(&self) -> ServerSettings {
        let mut settings = ServerSettings::local(&self.url);
        settings.pool.max_size = 4;
        settings.pool.wait_timeout = POOL_WAIT;
        settings.pool.create_timeout = Duration::from_secs(2);
        settings.pool.recycle_timeout = Duration::from_secs(2);
        settings.workers = Some(2);
        settings
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(cluster) = self.cluster.take() {
            let _ = cluster.stop();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

struct Frozen(Vec<String>);

impl Drop for Frozen {
    fn drop(&mut self) {
        signal("-CONT", &self.0);
    }
}

fn signal(which: &str, pids: &[String]) {
    let status = Command::new("kill").arg(which).args(pids).status().unwrap();
    assert!(status.success(), "kill {which} {pids:?}");
}

fn start_cluster(dir: &Path) -> RunningCluster {
    Cluster::start(
        dir,
        ClusterOptions {
            ephemeral: true,
            ..ClusterOptions::default()
        },
    )
    .unwrap()
}

/// `GET /v1/recipes` with `key`: the request the fault tests load and probe with.
async fn list_recipes(
    client: &reqwest::Client,
    base: &str,
    key: &str,
) -> reqwest::Result<reqwest::Response> {
    client
        .get(format!("{base}/v1/recipes"))
        .header("X-API-Key", key)
        .send()
        .await
}

/// Signs up and returns an API key.
async fn api_key(client: &reqwest::Client, base: &str) -> String {
    let res = client
        .post(format!("{base}/api/auth/sign-up/email"))
        .json(&json!({"name": "F", "email": format!("f-{}@example.com", uuid::Uuid::new_v4().simple()), "password": "12345678"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "sign-up");
    let cookie = res.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let key: Value = client
        .post(format!("{base}/api/auth/api-key/create"))
        .header("Cookie", cookie)
        .header("Origin", base)
        .json(&json!({"name": "k"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    key["key"].as_str().unwrap().to_owned()
}

/// Steady load for `duration` from 4 tasks: every (when, status, latency).
async fn load(base: &str, key: &str, duration: Duration) -> Vec<(Duration, StatusCode, Duration)> {
    let began = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let (base, key) = (base.to_owned(), key.to_owned());
        tasks.push(tokio::spawn(async move {
            let client = reqwest::Client::builder()
                .timeout(Duration::from_secs(20))
                .build()
                .unwrap();
            let mut seen = Vec::new();
            while began.elapsed() < duration && seen.len() < 20_000 {
                let sent = Instant::now();
                let status = match client
                    .get(format!("{base}/v1/recipes?limit=5"))
                    .header("X-API-Key", &key)
                    .send()
                    .await
                {
                    Ok(res) => res.status(),
                    Err(e) => panic!("request failed outright: {e}"),
                };
                seen.push((sent - began, status, sent.elapsed()));
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            seen
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all.sort_by_key(|(at, _, _)| *at);
    all
}

async fn restart_under_load(immediate: bool) {
    let mut fx = Fixture::new().await;
    let started = start(fx.server_settings()).unwrap();
    let handle = started.server.handle();
    tokio::spawn(started.server);
    let base = format!("http://{}", started.addr);
    let client = reqwest::Client::new();
    let key = api_key(&client, &base).await;

    let load = tokio::spawn({
        let (base, key) = (base.clone(), key.clone());
        async move { load(&base, &key, Duration::from_secs(7)).await }
    });
    tokio::time::sleep(Duration::from_secs(1)).await;
    tokio::task::block_in_place(|| {
        if immediate {
            fx.stop_immediate()
        } else {
            fx.stop_fast()
        }
    });
    tokio::time::sleep(Duration::from_millis(1500)).await;
    tokio::task::block_in_place(|| fx.start());
    let results = load.await.unwrap();

    let statuses: std::collections::BTreeSet<u16> =
        results.iter().map(|(_, s, _)| s.as_u16()).collect();
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 503),
        "only 200 and 503 while the database restarts: {statuses:?}"
    );
    assert!(statuses.contains(&503), "the outage was seen");
    let slowest = results.iter().map(|(_, _, took)| *took).max().unwrap();
    assert!(
        slowest < POOL_WAIT + Duration::from_secs(3),
        "no request hangs past the pool timeout: {slowest:?}"
    );
    let tail: Vec<_> = results
        .iter()
        .filter(|(at, _, _)| *at > Duration::from_secs(6))
        .collect();
    assert!(
        !tail.is_empty() && tail.iter().all(|(_, s, _)| *s == 200),
        "recovered without restarting wort"
    );
    let res = client.get(format!("{base}/readyz")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    handle.stop(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fast_database_restart_under_load_gives_only_503s_and_recovers() {
    restart_under_load(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_immediate_database_restart_under_load_gives_only_503s_and_recovers() {
    restart_under_load(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wort_starts_while_the_database_is_down_and_becomes_ready_when_it_returns() {
    let mut fx = Fixture::new().await;
    tokio::task::block_in_place(|| fx.stop_fast());
    let started = start(fx.server_settings()).unwrap();
    let handle = started.server.handle();
    tokio::spawn(started.server);
    let base = format!("http://{}", started.addr);
    let client = reqwest::Client::new();
    assert_eq!(
        client
            .get(format!("{base}/healthz"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    let res = client.get(format!("{base}/readyz")).send().await.unwrap();
    assert_eq!(res.status(), 503);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "Database unavailable"})
    );
    let res = client
        .get(format!("{base}/v1/me"))
        .header("X-API-Key", format!("wort_{}", "a".repeat(43)))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 503);
    assert!(res.headers().contains_key("retry-after"));
    tokio::task::block_in_place(|| fx.start());
    let res = client.get(format!("{base}/readyz")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    handle.stop(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_statement_past_the_timeout_is_503_and_frees_its_connection() {
    let fx = Fixture::new().await;
    let mut settings = fx.server_settings();
    settings.pool.statement_timeout = Duration::from_millis(300);
    let started = start(settings).unwrap();
    let handle = started.server.handle();
    tokio::spawn(started.server);
    let base = format!("http://{}", started.addr);
    let client = reqwest::Client::new();
    let key = api_key(&client, &base).await;

    // Another session holds a lock on recipes for a while, so a read of recipes waits on it.
    let locker = {
        let url = fx.url.clone();
        std::thread::spawn(move || {
            let out = Command::new("psql")
                .args([&url, "-X", "-q", "-c", "BEGIN; LOCK TABLE recipes IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(2); COMMIT;"])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sent = Instant::now();
    let res = list_recipes(&client, &base, &key).await.unwrap();
    assert_eq!(res.status(), 503, "canceled by statement_timeout");
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "the timeout, not the lock, decided: {:?}",
        sent.elapsed()
    );
    tokio::task::block_in_place(|| locker.join().unwrap());
    // The connection is not stuck: the pool (4 connections) serves many more requests.
    for _ in 0..10 {
        let res = list_recipes(&client, &base, &key).await.unwrap();
        assert_eq!(res.status(), 200);
    }
    handle.stop(true).await;
}

/// The client-side deadline (`WORT_DB_DEADLINE_MS`): a frozen server never answers, so only the
/// client can end the wait. Without it these requests would hang for as long as the freeze.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_database_is_503_within_the_deadline_and_the_pool_recovers() {
    let fx = Fixture::new().await;
    let mut settings = fx.server_settings();
    settings.pool.deadline = Duration::from_millis(500);
    let started = start(settings).unwrap();
    let handle = started.server.handle();
    tokio::spawn(started.server);
    let base = format!("http://{}", started.addr);
    // Bounded so that a regression fails the test instead of hanging it.
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let key = api_key(&client, &base).await;
    // Warm every worker's pool, so that requests meet open connections to the frozen server.
    for _ in 0..10 {
        let res = list_recipes(&client, &base, &key).await.unwrap();
        assert_eq!(res.status(), 200);
    }

    let frozen = tokio::task::block_in_place(|| fx.freeze());
    let read = list_recipes(&client, &base, &key)
        .await
        .expect("answered while the database is frozen");
    assert_eq!(read.status(), 503);
    assert!(read.headers().contains_key("retry-after"));
    let write = client
        .post(format!("{base}/v1/recipes"))
        .header("X-API-Key", &key)
        .json(&json!({"name": "Frozen"}))
        .send()
        .await
        .expect("answered while the database is frozen");
    assert_eq!(write.status(), 503);
    drop(frozen);

    // The failed connections were discarded: fresh ones serve again, without a restart.
    let mut recovered = false;
    for _ in 0..50 {
        let res = list_recipes(&client, &base, &key).await.unwrap();
        if res.status() == 200 {
            recovered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(recovered, "the pool recovers after the freeze");
    handle.stop(true).await;
}

/// One deadline per request: with the database frozen and a pool far smaller than the crowd of
/// requests, every request is answered within `WORT_DB_DEADLINE_MS` + 500 ms, whether it waited
/// for a pooled connection, for a new one to open, or for a statement; the pool's own wait
/// (5 s here) never decides. Keyed writes cut by the freeze are then retried with their keys and
/// each is applied exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_is_answered_within_a_short_deadline_during_a_freeze() {
    every_request_answered_within(Duration::from_millis(1_000)).await;
}

/// The same with the default `WORT_DB_DEADLINE_MS`, 5 s: the pool's wait and connect timeouts
/// (5 s each here) would have added up to more than twice that.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_is_answered_within_the_default_deadline_during_a_freeze() {
    every_request_answered_within(wort_db::pool::DEFAULT_DEADLINE).await;
}

async fn every_request_answered_within(deadline: Duration) {
    const MARGIN: Duration = Duration::from_millis(500);
    let fx = Fixture::new().await;
    let mut settings = fx.server_settings();
    settings.pool.deadline = deadline;
    // One connection per worker, and waits and connects that alone would take 5 s.
    settings.pool.max_size = 2;
    settings.pool.wait_timeout = Duration::from_secs(5);
    settings.pool.create_timeout = Duration::from_secs(5);
    let started = start(settings).unwrap();
    let handle = started.server.handle();
    tokio::spawn(started.server);
    let base = format!("http://{}", started.addr);
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let key = api_key(&client, &base).await;
    for _ in 0..4 {
        assert_eq!(
            list_recipes(&client, &base, &key).await.unwrap().status(),
            200
        );
    }

    let frozen = tokio::task::block_in_place(|| fx.freeze());
    // Waves of requests over three seconds, so that some meet a busy pool, some a connection
    // being opened to the frozen server, some a statement that never returns.
    let mut tries = Vec::new();
    for wave in 0..6u32 {
        for i in 0..8u32 {
            let (client, base, key) = (client.clone(), base.clone(), key.clone());
            tries.push(tokio::spawn(async move {
                let sent = Instant::now();
                let request = match i % 3 {
                    0 => client.get(format!("{base}/v1/recipes?limit=5")),
                    1 => client
                        .post(format!("{base}/v1/recipes"))
                        .header("Idempotency-Key", format!("freeze-{wave}-{i}"))
                        .json(&json!({"name": format!("Frozen {wave}-{i}")})),
                    _ => client.get(format!("{base}/readyz")),
                };
                let res = request.header("X-API-Key", &key).send().await.unwrap();
                let status = res.status();
                let body = res.text().await.unwrap();
                (wave, i, sent.elapsed(), status, body)
            }));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let mut answers = Vec::new();
    for t in tries {
        answers.push(t.await.unwrap());
    }
    drop(frozen);

    let slowest = answers.iter().map(|(_, _, took, ..)| *took).max();
    eprintln!(
        "deadline {deadline:?}: slowest of {} answers during the freeze: {slowest:?}",
        answers.len()
    );
    for (wave, i, took, ..) in &answers {
        if *took > deadline + Duration::from_millis(50) {
            eprintln!("  request {wave}-{i} (kind {}): {took:?}", i % 3);
        }
    }
    for (wave, i, took, status, body) in &answers {
        assert!(
            *took <= deadline + MARGIN,
            "request {wave}-{i} answered {status} after {took:?}: {body}"
        );
        assert_eq!(*status, 503, "request {wave}-{i}: {body}");
        if i % 3 == 1 {
            assert!(
                body.contains("may or may not have been applied"),
                "a write's 503: {body}"
            );
        }
    }

    // Each keyed write, retried with its key until it has a definite answer, exists once.
    for (wave, i, ..) in answers.iter().filter(|(_, i, ..)| i % 3 == 1) {
        let mut created = false;
        for _ in 0..100 {
            let res = client
                .post(format!("{base}/v1/recipes"))
                .header("X-API-Key", &key)
                .header("Idempotency-Key", format!("freeze-{wave}-{i}"))
                .json(&json!({"name": format!("Frozen {wave}-{i}")}))
                .send()
                .await
                .unwrap();
            if res.status() == 201 {
                created = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        assert!(created, "the write {wave}-{i} is applied after the freeze");
    }
    let names = tokio::task::block_in_place(|| {
        fx.psql("SELECT count(*), count(DISTINCT name) FROM recipes WHERE name LIKE 'Frozen %'")
    });
    let expected = answers.iter().filter(|(_, i, ..)| i % 3 == 1).count();
    assert_eq!(names, format!("{expected}|{expected}"), "each write once");
    handle.stop(true).await;
}

/// A multi-host `DATABASE_URL` (how wort follows a failover): hosts are tried in order, and with
/// `target_session_attrs=read-write` only one that accepts writes is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_multi_host_url_skips_a_host_that_does_not_answer() {
    let fx = Fixture::new().await;
    let dead =
        std::env::temp_dir().join(format!("wort-no-server-{}", uuid::Uuid::new_v4().simple()));
    let cluster = fx.cluster.as_ref().unwrap();
    // The key=value form: several socket directories (the URL form names several TCP hosts).
    let url = format!(
        "user=postgres dbname={DB} host={},{} port={} target_session_attrs=read-write",
        dead.display(),
        cluster.socket_dir().display(),
        cluster.port()
    );
    let mut settings = fx.server_settings();
    settings.database_url = url;
    let started = start(settings).unwrap();
    let handle = started.server.handle();
    tokio::spawn(started.server);
    let base = format!("http://{}", started.addr);
    let client = reqwest::Client::new();
    let key = api_key(&client, &base).await;
    let res = client
        .post(format!("{base}/v1/recipes"))
        .header("X-API-Key", &key)
        .json(&json!({"name": "Two hosts"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    handle.stop(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_disconnect_mid_transaction_leave_no_idle_transaction() {
    let fx = Fixture::new().await;
    let started = start(fx.server_settings()).unwrap();
    let handle = started.server.handle();
    tokio::spawn(started.server);
    let base = format!("http://{}", started.addr);
    let client = reqwest::Client::new();
    let key = api_key(&client, &base).await;
    let recipe: Value = client
        .post(format!("{base}/v1/recipes"))
        .header("X-API-Key", &key)
        .json(&json!({"name": "Locked"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let rid = recipe["id"].as_str().unwrap().to_owned();

    // Hold the recipe row so adding a hop (a transaction that updates it first) has to wait…
    let locker = {
        let url = fx.url.clone();
        let rid = rid.clone();
        std::thread::spawn(move || {
            let sql = format!(
                "BEGIN; SELECT 1 FROM recipes WHERE id = '{rid}' FOR UPDATE; SELECT pg_sleep(1.5); COMMIT;"
            );
            Command::new("psql")
                .args([&url, "-X", "-q", "-c", &sql])
                .output()
                .unwrap();
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    // …and give up on those requests while they wait inside their transactions.
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    for _ in 0..3 {
        let r = impatient
            .post(format!("{base}/v1/recipes/{rid}/hops"))
            .header("X-API-Key", &key)
            .json(&json!({"name": "H", "alpha_acid": 5, "amount_grams": 10, "time_minutes": 60}))
            .send()
            .await;
        assert!(r.is_err(), "the client gave up");
    }
    tokio::task::block_in_place(|| locker.join().unwrap());
    tokio::time::sleep(Duration::from_millis(500)).await;
    let idle =
        fx.psql("SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'");
    assert_eq!(idle, "0", "no session is left idle in a transaction");
    let waiting = fx.psql("SELECT count(*) FROM pg_locks WHERE NOT granted");
    assert_eq!(waiting, "0", "no lock is left waiting");
    // Each abandoned request either finished its whole transaction or none of it: every hop
    // written came with its recipe's updated_at bump, in one transaction.
    let hops: i64 = fx
        .psql(&format!(
            "SELECT count(*) FROM hops WHERE recipe_id = '{rid}'"
        ))
        .parse()
        .unwrap();
    let bumped = fx.psql(&format!(
        "SELECT (SELECT updated_at FROM recipes WHERE id = '{rid}') >= coalesce((SELECT max(created_at) FROM hops WHERE recipe_id = '{rid}'), '-infinity')"
    ));
    assert!(
        (0..=3).contains(&hops) && bumped == "t",
        "hops {hops}, recipe bumped {bumped}"
    );
    let res = client
        .get(format!("{base}/v1/recipes/{rid}"))
        .header("X-API-Key", &key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    handle.stop(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_lets_in_flight_requests_finish() {
    let fx = Fixture::new().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut wort = Command::new(env!("CARGO_BIN_EXE_wort"))
        .args(["serve", "--no-migrate"])
        .env("DATABASE_URL", &fx.url)
        .env("WORT_ADDR", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "warn")
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let began = Instant::now();
    while client
        .get(format!("{base}/readyz"))
        .send()
        .await
        .map(|r| r.status() != 200)
        .unwrap_or(true)
    {
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "wort did not start"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let key = api_key(&client, &base).await;

    // Requests that wait on a lock are in flight when SIGTERM arrives.
    let locker = {
        let url = fx.url.clone();
        std::thread::spawn(move || {
            Command::new("psql")
                .args([&url, "-X", "-q", "-c", "BEGIN; LOCK TABLE recipes IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(1); COMMIT;"])
                .output()
                .unwrap();
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let in_flight: Vec<_> = (0..4)
        .map(|_| {
            let req = client
                .get(format!("{base}/v1/recipes"))
                .header("X-API-Key", &key);
            tokio::spawn(async move { req.send().await.map(|r| r.status()) })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        Command::new("kill")
            .args(["-TERM", &wort.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    for request in in_flight {
        assert_eq!(
            request.await.unwrap().unwrap(),
            200,
            "in-flight requests complete"
        );
    }
    let stopping = Instant::now();
    let status = loop {
        if let Some(status) = wort.try_wait().unwrap() {
            break status;
        }
        assert!(
            stopping.elapsed() < Duration::from_secs(35),
            "wort exits within the grace period"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "{status}");
    tokio::task::block_in_place(|| locker.join().unwrap());
    assert!(
        client.get(format!("{base}/healthz")).send().await.is_err(),
        "no longer listening"
    );
}

/// A provider that streams a piece every 200 ms for a minute: an answer longer than any grace.
async fn slow_provider() -> (String, actix_web::dev::ServerHandle) {
    use actix_web::{App, HttpResponse, HttpServer, web};
    async fn completions() -> HttpResponse {
        let chunk = |content: &str| {
            web::Bytes::from(format!(
                "data: {}\n\n",
                json!({"id": "c", "object": "chat.completion.chunk", "model": "slow",
                       "choices": [{"index": 0, "delta": {"content": content}}]})
            ))
        };
        let stream = futures_util::stream::unfold(0u32, move |i| async move {
            if i >= 300 {
                return None;
            }
            if i > 0 {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Some((
                Ok::<_, actix_web::Error>(chunk(&format!("word{i} "))),
                i + 1,
            ))
        });
        HttpResponse::Ok()
            .content_type("text/event-stream")
            .streaming(stream)
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server =
        HttpServer::new(|| App::new().route("/v1/chat/completions", web::post().to(completions)))
            .workers(1)
            .shutdown_timeout(0)
            .listen(listener)
            .unwrap()
            .run();
    let handle = server.handle();
    tokio::spawn(server);
    (format!("http://{addr}/v1"), handle)
}

/// A chat answer still streaming when the grace period ends is cut short, stored
/// as far as it got with a mark, and its client told: never lost silently.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_interrupts_a_streaming_answer_and_keeps_what_arrived() {
    let fx = Fixture::new().await;
    let (ai_url, ai) = slow_provider().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut wort = Command::new(env!("CARGO_BIN_EXE_wort"))
        .args(["serve", "--no-migrate"])
        .env("DATABASE_URL", &fx.url)
        .env("WORT_ADDR", format!("127.0.0.1:{port}"))
        .env("WORT_AI_BASE_URL", &ai_url)
        .env("WORT_AI_MODEL", "slow")
        .env("WORT_SHUTDOWN_GRACE_SECS", "4")
        .env("RUST_LOG", "warn")
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let began = Instant::now();
    while client
        .get(format!("{base}/readyz"))
        .send()
        .await
        .map(|r| r.status() != 200)
        .unwrap_or(true)
    {
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "wort did not start"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let key = api_key(&client, &base).await;
    let mut res = client
        .post(format!("{base}/v1/chat"))
        .header("X-API-Key", &key)
        .json(&json!({"message": "Tell me everything about mashing."}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    // A few pieces arrive, then SIGTERM.
    let mut received = String::new();
    while received.matches("event: delta").count() < 3 {
        received.push_str(&String::from_utf8_lossy(
            &res.chunk().await.unwrap().unwrap(),
        ));
    }
    let signalled = Instant::now();
    assert!(
        Command::new("kill")
            .args(["-TERM", &wort.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    while let Ok(Some(chunk)) = res.chunk().await {
        received.push_str(&String::from_utf8_lossy(&chunk));
    }
    let cut_after = signalled.elapsed();
    assert!(
        received.contains("event: error") && received.contains("restarting"),
        "{received}"
    );
    assert!(!received.contains("event: done"));
    assert!(
        cut_after >= Duration::from_secs(1) && cut_after < Duration::from_secs(4),
        "cut short 2 s before the 4 s grace ends: {cut_after:?}"
    );
    let status = wort.wait().unwrap();
    assert!(status.success(), "{status}");
    // The question and the answer so far are in the thread, the answer marked.
    let stored =
        fx.psql("SELECT string_agg(role || ':' || content, '|' ORDER BY seq) FROM chat_messages");
    assert!(
        stored.starts_with("user:Tell me everything about mashing.|assistant:word0 word1 word2"),
        "{stored}"
    );
    assert!(
        stored.ends_with("[Interrupted: wort restarted before this answer was complete.]"),
        "{stored}"
    );
    let charged = fx.psql("SELECT messages FROM ai_usage");
    assert_eq!(charged, "1", "the turn counts like any answered one");
    ai.stop(false).await;
}
