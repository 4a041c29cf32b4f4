//! Every bound the OpenAPI document shows is the bound the API enforces: for each bounded field
//! of each request body, the bound itself is accepted and one step past it is a `422` whose
//! `minimum`/`maximum` is the document's number. The bounds are written once, in the domain's
//! `rules.rs`; this test keeps the document and the validation from ever drifting apart.

use reqwest::Method;
use serde_json::{Value, json};

use crate::security::{example, fill, resolve};
use crate::support::{TestApp, call, random_id};

/// One value to send for a field and what must come back at that field.
struct Probe {
    value: Value,
    /// `None`: accepted (no bound issue at the field); `Some((code, key, bound, inclusive))`.
    expect: Option<(&'static str, &'static str, f64, bool)>,
}

fn probes(property: &Value) -> Vec<Probe> {
    let mut out = Vec::new();
    let string = |n: u64| json!("x".repeat(usize::try_from(n).unwrap()));
    if let Some(max) = property["maxLength"].as_u64() {
        out.push(Probe {
            value: string(max),
            expect: None,
        });
        out.push(Probe {
            value: string(max + 1),
            expect: Some(("too_big", "maximum", max as f64, true)),
        });
    }
    if let Some(min) = property["minLength"].as_u64().filter(|m| *m > 0) {
        out.push(Probe {
            value: string(min),
            expect: None,
        });
        out.push(Probe {
            value: string(min - 1),
            expect: Some(("too_small", "minimum", min as f64, true)),
        });
    }
    let integer = property["type"] == "integer"
        || property["type"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("integer")));
    // One step: a whole unit for integers, a millionth for measurements (exactly representable
    // next to every bound the API has).
    let step = if integer { 1.0 } else { 1e-6 };
    let number = |x: f64| {
        if integer { json!(x as i64) } else { json!(x) }
    };
    if let Some(max) = property["maximum"].as_f64() {
        out.push(Probe {
            value: number(max),
            expect: None,
        });
        out.push(Probe {
            value: number(max + step),
            expect: Some(("too_big", "maximum", max, true)),
        });
    }
    if let Some(min) = property["minimum"].as_f64() {
        out.push(Probe {
            value: number(min),
            expect: None,
        });
        out.push(Probe {
            value: number(min - step),
            expect: Some(("too_small", "minimum", min, true)),
        });
    }
    if let Some(min) = property["exclusiveMinimum"].as_f64() {
        out.push(Probe {
            value: number(min + step),
            expect: None,
        });
        out.push(Probe {
            value: number(min),
            expect: Some(("too_small", "minimum", min, false)),
        });
    }
    out
}

/// `POST /v1/chat` refuses a message over 8,000 characters with `413` before anything else
/// (the chat's own size rule), so that one bound is not a 422.
fn answers_413(path: &str, field: &str) -> bool {
    path == "/v1/chat" && field == "message"
}

#[tokio::test]
async fn every_documented_bound_is_the_enforced_bound() {
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let (_, doc) = call(app.request(Method::GET, "/v1/openapi.json")).await;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method_name, operation) in item.as_object().unwrap() {
            let Some(schema) = operation.pointer("/requestBody/content/application~1json/schema")
            else {
                continue;
            };
            let schema = resolve(&doc, schema);
            let Some(properties) = schema["properties"].as_object() else {
                continue;
            };
            let method = Method::from_bytes(method_name.to_uppercase().as_bytes()).unwrap();
            // Key management and account changes take the cookie; everything else the key.
            let cookie_only = operation["security"]
                .as_array()
                .is_some_and(|s| s.len() == 1 && s[0].get("session_cookie").is_some());
            let target = fill(path, &random_id());
            for (field, property) in properties {
                let property = resolve(&doc, property);
                for probe in probes(property) {
                    let mut body = example(&doc, schema);
                    body[field.as_str()] = probe.value.clone();
                    let req = if cookie_only {
                        app.with_cookie(method.clone(), &target, &acct.cookie)
                    } else {
                        app.with_key(method.clone(), &target, &acct.key)
                    };
                    let (status, answer) = call(req.json(&body)).await;
                    let at_field: Vec<&Value> = answer["details"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|d| d["path"] == json!([field]))
                        .filter(|d| d["code"] == "too_big" || d["code"] == "too_small")
                        .collect();
                    let what = format!("{method} {path} {field}={}", probe.value);
                    match probe.expect {
                        None => assert!(at_field.is_empty(), "{what}: refused: {answer}"),
                        Some(("too_big", ..)) if answers_413(path, field) => {
                            assert_eq!(status, 413, "{what}: {answer}");
                        }
                        Some((code, key, bound, inclusive)) => {
                            assert_eq!(status, 422, "{what}: {answer}");
                            let detail = at_field.first().unwrap_or_else(|| {
                                panic!("{what}: no {code} at [{field}]: {answer}")
                            });
                            assert_eq!(detail["code"], code, "{what}");
                            assert_eq!(detail[key].as_f64(), Some(bound), "{what}: {detail}");
                            assert_eq!(detail["inclusive"], inclusive, "{what}: {detail}");
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    // Every create and update body of the API has bounded fields: far more than this.
    assert!(
        checked > 300,
        "only {checked} probes: is the document complete?"
    );
    app.stop().await;
}
