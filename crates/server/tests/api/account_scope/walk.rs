//! What the statement check drives: every route of the OpenAPI document as the owner of one
//! resource of every kind and as another account (the security matrix's fixture and ids), the
//! flows the document's examples cannot make (sign-in, keys, a keyed write, devices, shares,
//! readings that make fermentation steps due or the fermentation stable), and the background
//! work those set off (webhook deliveries, the fermentation schedule's clock).

use std::collections::BTreeMap;
use std::time::Duration;

use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::security::{
    example, fill, id_for, owner_fixture, request_example, required_query, resolve,
};
use crate::support::{Account, TestApp, call, post};
use crate::webhooks::{Receiver, create_webhook};

/// Paths driven by [`flows`] rather than from the document: their credentials end mid-walk
/// (sign-out, key deletion, a password change) or their path holds a token, not an id.
fn driven_by_flows(path: &str) -> bool {
    ["/api/auth/", "/shared/", "/v1/shared/", "/ingest/"]
        .iter()
        .any(|p| path.starts_with(p))
}

pub async fn everything(app: &TestApp) {
    let owner = app.account().await;
    let other = app.account().await;
    let receiver = Receiver::start().await;
    create_webhook(
        app,
        &owner,
        &receiver.url(),
        &[
            "reading.created",
            "session.status_changed",
            "fermentation.stable",
            "fermentation.step_due",
        ],
    )
    .await;
    // Started first: its second step becomes due by the clock while the rest is walked.
    timed_schedule(app, &owner).await;
    let ids = owner_fixture(app, &owner).await;
    every_route(app, &owner, &other, &ids).await;
    flows(app, &owner, &other).await;
    wait_for(&receiver, "the clock's step", |r| {
        r["type"] == "fermentation.step_due" && r["data"]["name"] == "Crash"
    })
    .await;
    wait_for(&receiver, "the stable fermentation", |r| {
        r["type"] == "fermentation.stable"
    })
    .await;
    receiver.stop().await;
}

async fn send(req: RequestBuilder, body: Option<&Value>) {
    let req = match body {
        Some(b) => req.json(b),
        None => req,
    };
    call(req).await;
}

/// The example body, and then the example with each optional property added in turn: a write
/// whose minimal body is refused (an empty patch) or takes one path only still runs its
/// statements for some property.
fn bodies(doc: &Value, method: &str, path: &str, operation: &Value) -> Vec<Option<Value>> {
    let Some(minimal) = request_example(doc, method, path, operation) else {
        return vec![None];
    };
    let schema = operation
        .pointer("/requestBody/content/application~1json/schema")
        .map(|s| resolve(doc, s));
    let mut out = vec![Some(minimal.clone())];
    if let (Some(properties), Value::Object(base)) =
        (schema.and_then(|s| s["properties"].as_object()), &minimal)
    {
        for (name, property) in properties {
            if !base.contains_key(name) {
                let mut body = base.clone();
                body.insert(name.clone(), example(doc, property));
                out.push(Some(Value::Object(body)));
            }
        }
    }
    out
}

/// Every operation of the document: as the other account with the owner's ids, then as the
/// owner; the owner's deletions last, parents after their children.
async fn every_route(
    app: &TestApp,
    owner: &Account,
    other: &Account,
    ids: &BTreeMap<&'static str, String>,
) {
    let (_, doc) = call(app.request(Method::GET, "/v1/openapi.json")).await;
    let mut deletions = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if driven_by_flows(path) {
            continue;
        }
        for (method_name, operation) in item.as_object().unwrap() {
            let method = Method::from_bytes(method_name.to_uppercase().as_bytes()).unwrap();
            let target = if path.contains('{') {
                let mine = id_for(path, ids);
                fill(path, mine) + &required_query(operation, mine)
            } else {
                path.clone()
            };
            if method == Method::DELETE {
                deletions.push(target.clone());
            }
            for body in bodies(&doc, method_name, path, operation) {
                if path.contains('{') {
                    let req = app.with_key(method.clone(), &target, &other.key);
                    send(req, body.as_ref()).await;
                }
                if method != Method::DELETE {
                    let req = app.with_key(method.clone(), &target, &owner.key);
                    send(req, body.as_ref()).await;
                }
            }
        }
    }
    deletions.sort_by_key(|t| t.starts_with("/v1/recipes/") || t.starts_with("/v1/sessions/"));
    for target in deletions {
        send(app.with_key(Method::DELETE, &target, &owner.key), None).await;
    }
}

/// A recipe whose schedule's second step falls due about two seconds after fermentation starts,
/// found by the periodic check; and a session fermenting it.
async fn timed_schedule(app: &TestApp, owner: &Account) {
    let recipe = post(app, owner, "/v1/recipes", json!({"name": "Quick"})).await;
    let steps = format!(
        "/v1/recipes/{}/fermentation-steps",
        recipe["id"].as_str().unwrap()
    );
    post(
        app,
        owner,
        &steps,
        json!({"name": "Primary", "temperature_c": 19, "days": 0.00002}),
    )
    .await;
    post(
        app,
        owner,
        &steps,
        json!({"name": "Crash", "temperature_c": 2, "days": 2}),
    )
    .await;
    post(
        app,
        owner,
        "/v1/sessions",
        json!({"recipe_id": recipe["id"], "brew_date": "2026-11-20", "status": "fermenting"}),
    )
    .await;
}

async fn flows(app: &TestApp, owner: &Account, other: &Account) {
    restore(app, owner).await;
    readings(app, owner).await;
    shares(app, owner, other).await;
    keyed_write(app, owner).await;
    credentials(app, owner).await;
}

/// Readings from the API and from a device: 60 hours of one gravity make the fermentation stable,
/// the device's lower gravity moves it again and makes the steps waiting on it due.
async fn readings(app: &TestApp, owner: &Account) {
    let recipe = crate::fermentation::planned_recipe(app, owner).await;
    let session = post(
        app,
        owner,
        "/v1/sessions",
        json!({"recipe_id": recipe, "brew_date": "2026-11-20", "status": "fermenting"}),
    )
    .await;
    let session = session["id"].as_str().unwrap();
    let logs = format!("/v1/sessions/{session}/fermentation-logs");
    let now = OffsetDateTime::now_utc();
    for hours_ago in [72, 48, 24, 12] {
        let at = (now - time::Duration::hours(hours_ago))
            .format(&Rfc3339)
            .unwrap();
        post(
            app,
            owner,
            &logs,
            json!({"gravity": 1.030, "logged_at": at}),
        )
        .await;
    }
    let (_, token) = crate::devices::device(app, owner, "ispindel", Some(session)).await;
    // A body that cannot be read is refused for its token first.
    let (status, _) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .header("content-type", "application/json")
            .body("{not json"),
    )
    .await;
    assert_eq!(status, 400);
    let (status, answer) = call(
        app.request(Method::POST, &format!("/ingest/{token}"))
            .json(&json!({"name": "iSpindel", "gravity": 1.014, "temperature": 18.0})),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
}

/// A version whose hop names one of the account's own catalogue items, restored: the restore
/// keeps the items still there.
async fn restore(app: &TestApp, owner: &Account) {
    let item = post(app, owner, "/v1/catalog/hops", json!({"name": "Own hop"})).await;
    let recipe = post(app, owner, "/v1/recipes", json!({"name": "Versioned"})).await;
    let recipe = recipe["id"].as_str().unwrap();
    post(
        app,
        owner,
        &format!("/v1/recipes/{recipe}/hops"),
        json!({"catalog_id": item["id"], "alpha_acid": 5, "amount_grams": 30, "time_minutes": 60}),
    )
    .await;
    let versions = format!("/v1/recipes/{recipe}/versions");
    post(app, owner, &versions, json!({"message": "Before"})).await;
    let (status, _) = call(
        app.with_key(Method::PATCH, &format!("/v1/recipes/{recipe}"), &owner.key)
            .json(&json!({"name": "Versioned, changed"})),
    )
    .await;
    assert_eq!(status, 200);
    let restore = format!("{versions}/1/restore");
    let (status, body) = call(app.with_key(Method::POST, &restore, &owner.key)).await;
    assert_eq!(status, 201, "{body}");
}

/// A share link: its public page and files, and another account's copy.
async fn shares(app: &TestApp, owner: &Account, other: &Account) {
    let recipe = post(app, owner, "/v1/recipes", json!({"name": "Shared"})).await;
    let link = post(
        app,
        owner,
        &format!("/v1/recipes/{}/share", recipe["id"].as_str().unwrap()),
        json!({}),
    )
    .await;
    let token = link["token"].as_str().unwrap();
    for path in [
        format!("/shared/{token}"),
        format!("/shared/{token}/recipe.json"),
        format!("/shared/{token}/recipe.xml"),
    ] {
        let (status, _) = call(app.request(Method::GET, &path)).await;
        assert_eq!(status, 200, "{path}");
    }
    post(app, other, &format!("/v1/shared/{token}/copy"), json!({})).await;
}

/// A write with an `Idempotency-Key`, and its replay (when the run does not give every write a
/// key of its own already: `WORT_TEST_KEYED_WRITES`).
async fn keyed_write(app: &TestApp, owner: &Account) {
    if crate::support::keyed_writes() {
        return;
    }
    let key = crate::support::random_id();
    for _ in 0..2 {
        let (status, body) = call(
            app.with_key(Method::POST, "/v1/recipes", &owner.key)
                .header("Idempotency-Key", &key)
                .json(&json!({"name": "Keyed"})),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
}

/// Signing in and out, a refused password, the cookie's session, keys made, listed and deleted,
/// the name and the password changed.
async fn credentials(app: &TestApp, owner: &Account) {
    let sign_in = |password: &str| {
        app.request(Method::POST, "/api/auth/sign-in/email")
            .json(&json!({"email": owner.email, "password": password}))
    };
    let (status, _) = call(sign_in("not the password")).await;
    assert_eq!(status, 401);
    let res = sign_in(&owner.password).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let cookie = crate::support::session_cookie(&res).unwrap();
    for path in ["/api/auth/get-session", "/v1/me", "/api/auth/api-key/list"] {
        let (status, body) = call(app.with_cookie(Method::GET, path, &cookie)).await;
        assert_eq!(status, 200, "{path}: {body}");
    }
    let cookie_post =
        |path: &str, body: Value| call(app.with_cookie(Method::POST, path, &cookie).json(&body));
    let (status, _) = cookie_post("/api/auth/update-user", json!({"name": "Renamed"})).await;
    assert_eq!(status, 200);
    let (status, key) = cookie_post("/api/auth/api-key/create", json!({"name": "brief"})).await;
    assert_eq!(status, 200);
    let (status, _) = call(app.with_key(Method::GET, "/v1/me", key["key"].as_str().unwrap())).await;
    assert_eq!(status, 200);
    let (status, _) = cookie_post("/api/auth/api-key/delete", json!({"keyId": key["id"]})).await;
    assert_eq!(status, 200);
    let (status, body) = cookie_post(
        "/api/auth/change-password",
        json!({"currentPassword": owner.password, "newPassword": "a new password",
               "revokeOtherSessions": true}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = cookie_post("/api/auth/sign-out", json!({})).await;
    assert_eq!(status, 200);
}

/// Waits (at most 30 s) for a webhook the receiver got that `matches` its body.
async fn wait_for(receiver: &Receiver, what: &str, matches: impl Fn(&Value) -> bool) {
    for _ in 0..300 {
        let all = ["fermentation.step_due", "fermentation.stable"]
            .iter()
            .flat_map(|t| receiver.of_type(t))
            .map(|r| serde_json::from_str::<Value>(&r.body).unwrap())
            .collect::<Vec<_>>();
        if all.iter().any(&matches) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("waited 30 s for {what} to be delivered");
}
