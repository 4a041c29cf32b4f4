//! Answers whose size grows with the account's data (exports, the shopping list, a recipe's cost)
//! are made a few at a time: one per core in production, one here. A request that finds every
//! slot taken waits, and past the wait is answered `503` with `Retry-After`.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use wort_server::HeavyAnswerSettings;

use crate::database::{Psql, isolated_database_url};
use crate::support::{Account, Options, TestApp, call};

const EXPORT: &str = "/v1/recipes/export?format=beerjson";

async fn one_slot(tag: &str) -> (TestApp, String) {
    let db = isolated_database_url(tag);
    let app = TestApp::spawn_with(Options {
        database: Some(db.clone()),
        heavy_answers: Some(HeavyAnswerSettings {
            at_once: Some(1),
            wait: Some(Duration::from_millis(300)),
        }),
        // The export holding the slot waits on a locked table for as long as the test needs,
        // not for the database deadline.
        database_deadline: Some(Duration::from_secs(120)),
        ..Options::default()
    })
    .await;
    (app, db)
}

async fn recipe(app: &TestApp, acct: &Account, name: &str) -> String {
    let (status, body) = call(
        app.with_key(Method::POST, "/v1/recipes", &acct.key)
            .json(&json!({ "name": name })),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_str().unwrap().to_owned()
}

/// Locks `recipes` in a transaction of its own until [`Held::release`]: a request that reads
/// recipes then waits inside the database, holding whatever it holds.
struct Held(Psql);

impl Held {
    fn lock(db: &str) -> Held {
        let mut psql = Psql::start(db).unwrap();
        psql.run("BEGIN").unwrap();
        psql.run("LOCK TABLE recipes IN ACCESS EXCLUSIVE MODE")
            .unwrap();
        Held(psql)
    }

    fn release(mut self) {
        self.0.run("ROLLBACK").unwrap();
        self.0.finish().unwrap();
    }
}

/// Waits until some statement of `db` waits on a lock (the request holding the slot has reached
/// the locked table). Bounded: a minute is far more than any machine needs.
async fn until_one_waits_on_the_lock(db: &str) {
    let db = db.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut psql = Psql::start(&db).unwrap();
        for _ in 0..600 {
            let waiting = psql
                .run(
                    "SELECT count(*) FROM pg_stat_activity \
                     WHERE datname = current_database() AND wait_event_type = 'Lock'",
                )
                .unwrap();
            if waiting != ["0"] {
                psql.finish().unwrap();
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("no request reached the locked table");
    })
    .await
    .unwrap();
}

fn assert_busy(status: StatusCode, retry_after: Option<&str>, body: &Value) {
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let secs: u64 = retry_after.expect("Retry-After").parse().unwrap();
    assert!(secs >= 1, "Retry-After {secs}");
    assert!(body["error"].is_string(), "{body}");
}

/// `GET path`. A request that waited on the locked table instead of for a slot would be answered
/// only after the database deadline (2 minutes here): the half-minute bound makes that a failure.
async fn send(app: &TestApp, acct: &Account, path: &str) -> (StatusCode, Option<String>, Value) {
    let res = app
        .with_key(Method::GET, path, &acct.key)
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap();
    let status = res.status();
    let retry_after = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    let body = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap_or(Value::Null);
    (status, retry_after, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_waits_for_the_only_slot_and_is_told_to_come_back() {
    let (app, db) = one_slot("heavy_export").await;
    let acct = app.account().await;
    recipe(&app, &acct, "Held Pale").await;
    // One after the other, each export gets the slot back: answering gives it up.
    for _ in 0..3 {
        let (status, _, body) = send(&app, &acct, EXPORT).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    let held = Held::lock(&db);
    let first = tokio::spawn({
        let (client, url, key) = (
            app.client.clone(),
            format!("{}{EXPORT}", app.base),
            acct.key.clone(),
        );
        async move {
            let res = client
                .get(url)
                .header("X-API-Key", key)
                .send()
                .await
                .unwrap();
            (res.status(), res.json::<Value>().await.unwrap())
        }
    });
    until_one_waits_on_the_lock(&db).await;

    // The first export holds the slot while it waits in the database: the others wait for it,
    // and are told to come back when it does not free up in time. Both exports take it, and so
    // do the shopping list and a recipe's cost.
    for path in [
        EXPORT.to_owned(),
        "/v1/recipes/export?format=beerxml&limit=200".to_owned(),
        "/v1/shopping-list".to_owned(),
    ] {
        let (status, retry_after, body) = send(&app, &acct, &path).await;
        assert_busy(status, retry_after.as_deref(), &body);
    }
    // Answers that do not grow with the account are not held up.
    let (status, _, body) = send(&app, &acct, "/v1/me").await;
    assert_eq!(status, StatusCode::OK, "{body}");

    held.release();
    let (status, doc) = first.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{doc}");
    assert_eq!(doc["beerjson"]["recipes"][0]["name"], "Held Pale", "{doc}");
    // The slot came back with the answer.
    let (status, _, body) = send(&app, &acct, EXPORT).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_recipe_export_and_cost_take_the_slot_too() {
    let (app, db) = one_slot("heavy_one").await;
    let acct = app.account().await;
    let id = recipe(&app, &acct, "Held Stout").await;
    let cost = format!("/v1/recipes/{id}/cost");
    let one = format!("/v1/recipes/{id}/export?format=beerxml");
    for path in [&cost, &one] {
        let (status, _, body) = send(&app, &acct, path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }

    let held = Held::lock(&db);
    let first = tokio::spawn({
        let (client, url, key) = (
            app.client.clone(),
            format!("{}{EXPORT}", app.base),
            acct.key.clone(),
        );
        async move {
            client
                .get(url)
                .header("X-API-Key", key)
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    until_one_waits_on_the_lock(&db).await;
    for path in [&cost, &one] {
        let (status, retry_after, body) = send(&app, &acct, path).await;
        assert_busy(status, retry_after.as_deref(), &body);
    }
    held.release();
    assert_eq!(first.await.unwrap(), StatusCode::OK);
    for path in [&cost, &one] {
        let (status, _, body) = send(&app, &acct, path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }
}
