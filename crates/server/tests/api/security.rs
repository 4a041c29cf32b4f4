//! The security matrix, walked from the OpenAPI document so that a new route cannot escape it:
//! another account's ids are indistinguishable from random ones, every route needs a credential
//! and answers the same 401, nothing is ever 403, no response but key creation carries `key`,
//! and no log line carries a secret.

use std::collections::BTreeMap;

use reqwest::{Method, StatusCode};
use serde_json::{Map, Value, json};

use crate::support::{Account, TestApp, call, captured_logs, random_id};

/// What the owner has: one resource of every kind, by the path segment that names the kind.
pub(crate) async fn owner_fixture(
    app: &TestApp,
    owner: &Account,
) -> BTreeMap<&'static str, String> {
    async fn create(app: &TestApp, key: &str, path: &str, body: Value) -> String {
        let (status, v) = call(app.with_key(Method::POST, path, key).json(&body)).await;
        assert_eq!(status, 201, "{path}: {v}");
        v["id"].as_str().unwrap().to_owned()
    }
    let k = &owner.key;
    let recipe = create(app, k, "/v1/recipes", json!({"name": "Secret recipe"})).await;
    let mut ids = BTreeMap::new();
    ids.insert(
        "fermentables",
        create(
            app,
            k,
            &format!("/v1/recipes/{recipe}/fermentables"),
            json!({"name": "F", "amount_kg": 1, "color_srm": 2, "yield_percent": 75}),
        )
        .await,
    );
    ids.insert(
        "hops",
        create(
            app,
            k,
            &format!("/v1/recipes/{recipe}/hops"),
            json!({"name": "H", "alpha_acid": 5, "amount_grams": 10, "time_minutes": 60}),
        )
        .await,
    );
    ids.insert(
        "yeasts",
        create(
            app,
            k,
            &format!("/v1/recipes/{recipe}/yeasts"),
            json!({"name": "Y"}),
        )
        .await,
    );
    ids.insert(
        "miscs",
        create(
            app,
            k,
            &format!("/v1/recipes/{recipe}/miscs"),
            json!({"name": "M", "amount": 1}),
        )
        .await,
    );
    ids.insert(
        "mash-steps",
        create(
            app,
            k,
            &format!("/v1/recipes/{recipe}/mash-steps"),
            json!({"name": "S", "temperature_c": 66, "duration_minutes": 60}),
        )
        .await,
    );
    ids.insert(
        "water-additions",
        create(
            app,
            k,
            &format!("/v1/recipes/{recipe}/water-additions"),
            json!({"agent": "gypsum", "amount": 5}),
        )
        .await,
    );
    ids.insert(
        "water-profiles",
        create(
            app,
            k,
            "/v1/water-profiles",
            json!({"name": "Secret well", "calcium": 50, "magnesium": 10, "sodium": 10,
                   "sulfate": 50, "chloride": 50, "bicarbonate": 100}),
        )
        .await,
    );
    ids.insert(
        "fermentation-steps",
        create(
            app,
            k,
            &format!("/v1/recipes/{recipe}/fermentation-steps"),
            json!({"name": "Primary", "temperature_c": 19, "days": 10}),
        )
        .await,
    );
    let session = create(
        app,
        k,
        "/v1/sessions",
        json!({"recipe_id": recipe, "brew_date": "2026-11-28"}),
    )
    .await;
    ids.insert(
        "fermentation-logs",
        create(
            app,
            k,
            &format!("/v1/sessions/{session}/fermentation-logs"),
            json!({"gravity": 1.05}),
        )
        .await,
    );
    ids.insert(
        "steps",
        create(
            app,
            k,
            &format!("/v1/sessions/{session}/steps"),
            json!({"title": "Custom"}),
        )
        .await,
    );
    ids.insert(
        "notes",
        create(
            app,
            k,
            &format!("/v1/sessions/{session}/notes"),
            json!({"text": "Secret note"}),
        )
        .await,
    );
    ids.insert(
        "inventory",
        create(
            app,
            k,
            "/v1/inventory",
            json!({"category": "hop", "name": "Citra"}),
        )
        .await,
    );
    ids.insert(
        "chats",
        create(
            app,
            k,
            "/v1/chats",
            json!({"title": "Secret chat", "recipe_id": recipe}),
        )
        .await,
    );
    ids.insert(
        "equipment",
        create(
            app,
            k,
            "/v1/equipment",
            json!({"name": "Secret kettle", "batch_size_liters": 20}),
        )
        .await,
    );
    ids.insert(
        "devices",
        create(
            app,
            k,
            "/v1/devices",
            json!({"name": "Secret iSpindel", "kind": "ispindel", "session_id": session}),
        )
        .await,
    );
    ids.insert(
        "webhooks",
        create(
            app,
            k,
            "/v1/webhooks",
            json!({"url": "http://127.0.0.1:9/secret", "events": ["reading.created"]}),
        )
        .await,
    );
    // The account's own catalogue items, one per kind (keyed by the two segments of the path).
    for (kind, name) in [
        ("catalog/fermentables", "Secret malt"),
        ("catalog/hops", "Secret hop"),
        ("catalog/yeasts", "Secret yeast"),
        ("catalog/miscs", "Secret spice"),
    ] {
        let id = create(app, k, &format!("/v1/{kind}"), json!({"name": name})).await;
        ids.insert(kind, id);
    }
    // The account's MQTT integration (one per account, no id in its path), enabled before the
    // session ferments, so that its discovery configs, the reading and the alert are written to
    // its outbox; nothing listens on the port, so each publishing attempt fails and is recorded.
    let (status, v) = call(
        app.with_key(Method::PATCH, "/v1/integrations/mqtt", k)
            .json(&json!({"url": "mqtt://127.0.0.1:9", "password": "secret"})),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    // A rule on the session, and the alert it raises: the session's rule applies while it is
    // fermenting, and a reading above the mark raises the alert.
    let rule = create(
        app,
        k,
        "/v1/alert-rules",
        json!({"kind": "gravity_above", "gravity": 1.001, "session_id": session}),
    )
    .await;
    let (status, v) = call(
        app.with_key(Method::PATCH, &format!("/v1/sessions/{session}"), k)
            .json(&json!({"status": "fermenting"})),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    create(
        app,
        k,
        &format!("/v1/sessions/{session}/fermentation-logs"),
        json!({"gravity": 1.05}),
    )
    .await;
    let (_, alerts) = call(app.with_key(Method::GET, "/v1/alerts", k)).await;
    ids.insert("alert-rules", rule);
    ids.insert("alerts", alerts[0]["id"].as_str().unwrap().to_owned());
    ids.insert("recipes", recipe);
    ids.insert("sessions", session);
    // The styles are one catalogue for every account: the owner reads one like anybody.
    ids.insert("styles", "21A".to_owned());
    ids
}

/// Paths whose ids name data shared by every account (the BJCP styles): nobody's id is private
/// there, so the "another account's id is a random id" rule does not apply.
/// `/v1/shared/{token}/copy` takes a share token, which anybody holding the link may use: the
/// owner's recipe shared is copied by other accounts by design (its isolation is tested in
/// `history.rs`).
const SHARED_CATALOGUES: &[&str] = &["/v1/styles/", "/v1/shared/"];

pub(crate) fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.rsplit('/').next().unwrap();
            resolve(doc, &doc["components"]["schemas"][name])
        }
        None => schema,
    }
}

/// A minimal valid instance of a schema: required properties only, smallest allowed values.
/// Deriving bodies from the document also checks that the document agrees with validation.
pub(crate) fn example(doc: &Value, schema: &Value) -> Value {
    let schema = resolve(doc, schema);
    for combinator in ["allOf", "oneOf", "anyOf"] {
        if let Some(options) = schema.get(combinator).and_then(Value::as_array) {
            let usable = options
                .iter()
                .find(|o| o.get("type") != Some(&json!("null")))
                .unwrap();
            return example(doc, usable);
        }
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values.iter().find(|v| !v.is_null()).cloned().unwrap();
    }
    let kind = match &schema["type"] {
        Value::String(t) => t.clone(),
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap()
            .to_owned(),
        _ if schema.get("properties").is_some() => "object".to_owned(),
        other => panic!("cannot make an example of {other} in {schema}"),
    };
    let number = || {
        let min = schema["minimum"]
            .as_f64()
            .or(schema["exclusiveMinimum"].as_f64().map(|m| m + 1.0))
            .unwrap_or(1.0);
        json!(min.max(schema["maximum"].as_f64().map_or(min, |max| max.min(min))))
    };
    match kind.as_str() {
        "object" => {
            let mut out = Map::new();
            for name in schema["required"].as_array().into_iter().flatten() {
                let name = name.as_str().unwrap();
                out.insert(name.to_owned(), example(doc, &schema["properties"][name]));
            }
            Value::Object(out)
        }
        "string" => match schema["format"].as_str() {
            Some("uuid") => json!(random_id()),
            Some("date") => json!("2026-11-28"),
            Some("date-time") => json!("2026-11-28T12:00:00Z"),
            Some("email") => json!("someone@example.com"),
            _ => json!("x".repeat(schema["minLength"].as_u64().unwrap_or(1).max(1) as usize)),
        },
        "integer" | "number" => number(),
        "boolean" => json!(true),
        "array" => json!([]),
        other => panic!("unexpected schema type {other}"),
    }
}

/// Bodies for rules the schema cannot express (a reading needs at least one measurement; an
/// imported BeerJSON file is described as any JSON value).
fn body_override(method: &str, path: &str) -> Option<Value> {
    match (method, path) {
        ("post", "/v1/sessions/{id}/fermentation-logs") => Some(json!({"gravity": 1.05})),
        // `events` must not be empty, which the generic example (`[]`) would be.
        ("post", "/v1/webhooks") => {
            Some(json!({"url": "http://127.0.0.1:9/hook", "events": ["reading.created"]}))
        }
        ("patch", "/v1/webhooks/{id}") => Some(json!({"events": ["reading.created"]})),
        // A rule takes the fields of its kind, which the schema lists as all optional.
        ("post", "/v1/alert-rules") => Some(json!({"kind": "gravity_below", "gravity": 1.01})),
        ("post", "/v1/recipes/import") => {
            Some(json!({"beerjson": {"version": 1.0, "recipes": []}}))
        }
        _ => None,
    }
}

pub(crate) fn request_example(
    doc: &Value,
    method: &str,
    path: &str,
    operation: &Value,
) -> Option<Value> {
    let schema = operation.pointer("/requestBody/content/application~1json/schema")?;
    Some(body_override(method, path).unwrap_or_else(|| example(doc, schema)))
}

/// The owner's id for a path: the resource named by the two segments right after `/v1/`
/// (`catalog/hops`) or else the one.
pub(crate) fn id_for<'a>(path: &str, ids: &'a BTreeMap<&'static str, String>) -> &'a str {
    let rest = path.trim_start_matches("/v1/");
    let mut segments = rest.split('/');
    let first = segments.next().unwrap();
    let two = segments.next().map(|second| format!("{first}/{second}"));
    two.and_then(|two| ids.get(two.as_str()))
        .or_else(|| ids.get(first))
        .unwrap_or_else(|| panic!("the security matrix has no owner fixture for {path}: add one"))
        .as_str()
}

pub(crate) fn fill(path: &str, id: &str) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}').unwrap() + start;
        out.push_str(&rest[..start]);
        // A version number is a number: the first version of the recipe named by the id.
        out.push_str(if &rest[start..=end] == "{n}" { "1" } else { id });
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The required query parameters of an operation, each given `id` (they name another resource
/// of the same account, like `against_recipe`).
pub(crate) fn required_query(operation: &Value, id: &str) -> String {
    let names: Vec<String> = operation["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["in"] == "query" && p["required"] == true)
        .map(|p| format!("{}={id}", p["name"].as_str().unwrap()))
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!("?{}", names.join("&"))
    }
}

#[tokio::test]
async fn the_security_matrix_holds_for_every_route_in_the_openapi_document() {
    let app = TestApp::spawn().await;
    let owner = app.account().await;
    let other = app.account().await;
    let ids = owner_fixture(&app, &owner).await;
    let (_, doc) = call(app.request(Method::GET, "/v1/openapi.json")).await;
    let mut responses: Vec<(String, StatusCode, String)> = Vec::new();
    let mut checked = 0;

    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method_name, operation) in item.as_object().unwrap() {
            let method = Method::from_bytes(method_name.to_uppercase().as_bytes()).unwrap();
            let body = request_example(&doc, method_name, path, operation);
            let send = |target: String, key: Option<&str>| {
                let mut req = app.request(method.clone(), &target);
                if let Some(key) = key {
                    req = req.header("X-API-Key", key);
                }
                if let Some(b) = &body {
                    req = req.json(b);
                }
                req
            };
            let secured = operation
                .get("security")
                .is_some_and(|s| s.as_array().is_some_and(|a| !a.is_empty()));
            let random = random_id();

            // Without a credential: the same 401, to the byte.
            if secured {
                let res = send(fill(path, &random), None).send().await.unwrap();
                let status = res.status();
                let text = res.text().await.unwrap();
                assert_eq!(
                    (status, text.as_str()),
                    (StatusCode::UNAUTHORIZED, r#"{"error":"Unauthorized"}"#),
                    "{method} {path}"
                );
            }

            // Another account's id answers exactly like an id that does not exist.
            let shared = SHARED_CATALOGUES.iter().any(|p| path.starts_with(p));
            if path.contains('{') && path.starts_with("/v1/") && !shared {
                let mine = id_for(path, &ids);
                let theirs = fill(path, mine) + &required_query(operation, mine);
                let a = send(theirs.clone(), Some(&other.key)).send().await.unwrap();
                let (a_status, a_text) = (a.status(), a.text().await.unwrap());
                let b = send(
                    fill(path, &random) + &required_query(operation, &random),
                    Some(&other.key),
                )
                .send()
                .await
                .unwrap();
                let (b_status, b_text) = (b.status(), b.text().await.unwrap());
                assert_eq!(
                    a_status,
                    StatusCode::NOT_FOUND,
                    "{method} {path} as another account: {a_text}"
                );
                assert_eq!((a_status, &a_text), (b_status, &b_text), "{method} {path}");
                responses.push((format!("{method} {path}"), a_status, a_text));
                checked += 1;
            }

            // And the owner's own call never leaks a key or a 403 either.
            if secured && method == Method::GET {
                let target = if path.contains('{') {
                    let mine = id_for(path, &ids);
                    fill(path, mine) + &required_query(operation, mine)
                } else {
                    path.clone()
                };
                let res = send(target, Some(&owner.key)).send().await.unwrap();
                let status = res.status();
                responses.push((
                    format!("{method} {path} (owner)"),
                    status,
                    res.text().await.unwrap(),
                ));
            }
        }
    }
    assert!(
        checked >= 30,
        "only {checked} id routes were checked: is the document complete?"
    );

    for (route, status, text) in &responses {
        assert_ne!(*status, StatusCode::FORBIDDEN, "{route}");
        if let Ok(json) = serde_json::from_str::<Value>(text) {
            assert!(
                !contains_key_field(&json),
                "{route} returned a `key` field: {text}"
            );
        }
    }

    // Sign in with the password and use cookie and key, then grep the log for every secret.
    let res = app
        .request(Method::POST, "/api/auth/sign-in/email")
        .json(&json!({"email": owner.email, "password": owner.password}))
        .send()
        .await
        .unwrap();
    let cookie = crate::support::session_cookie(&res).unwrap();
    call(app.with_cookie(Method::GET, "/v1/me", &cookie)).await;
    call(app.with_key(Method::GET, "/v1/me", &owner.key)).await;
    let logs = captured_logs();
    assert!(logs.contains("request"), "the log is captured");
    let token = cookie.trim_start_matches("wort_session=");
    for (what, secret) in [
        ("password", owner.password.as_str()),
        ("API key", owner.key.as_str()),
        ("session token", token),
    ] {
        assert!(!logs.contains(secret), "a log line contains the {what}");
    }
    app.stop().await;
}

fn contains_key_field(v: &Value) -> bool {
    match v {
        Value::Object(map) => map.contains_key("key") || map.values().any(contains_key_field),
        Value::Array(items) => items.iter().any(contains_key_field),
        _ => false,
    }
}
