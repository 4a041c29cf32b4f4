//! The OpenAPI document is part of the API clients build on: a snapshot catches unintended
//! changes. The snapshot is `api/openapi.json` at the repository's root, which the web app's
//! typed client is generated from too (api/README.md).
//! After an intended change: `UPDATE_SNAPSHOTS=1 cargo xtask test -- openapi` and review the diff.

use serde_json::Value;

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../api/openapi.json");

#[test]
fn the_openapi_document_matches_its_snapshot() {
    // Compared as JSON values, and stored with sorted keys: the order of an object's keys means
    // nothing in JSON, and utoipa keeps extension fields (our links' `operationId`,
    // `requestBody`) in a HashMap, whose order changes from one process to the next.
    let current = serde_json::to_value(wort_http::openapi::document()).unwrap();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(
            SNAPSHOT,
            serde_json::to_string_pretty(&current).unwrap() + "\n",
        )
        .unwrap();
    }
    let stored: Value = std::fs::read_to_string(SNAPSHOT)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    assert!(
        stored == current,
        "the OpenAPI document changed; if intended, run with UPDATE_SNAPSHOTS=1 and review the diff"
    );
}

#[test]
fn every_operation_documents_its_errors_and_security() {
    let doc: Value = serde_json::to_value(wort_http::openapi::document()).unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    assert_eq!(doc["info"]["version"], "1.0.0");
    let mut operations = 0;
    let mut operation_ids = std::collections::HashSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            operations += 1;
            let id = op["operationId"].as_str().unwrap_or_default();
            assert!(
                operation_ids.insert(id.to_owned()),
                "{method} {path}: operationId {id:?} is not unique"
            );
            let responses = op["responses"].as_object().unwrap();
            let has = |status: &str| responses.contains_key(status);
            assert!(has("500") && has("503"), "{method} {path}");
            let secured = op
                .get("security")
                .is_some_and(|s| s.as_array().is_some_and(|a| !a.is_empty()));
            if path.starts_with("/v1/") && path != "/v1/openapi.json" {
                assert!(secured, "{method} {path} must declare its credential");
            }
            if secured {
                assert!(has("401"), "{method} {path}");
            }
            // `/ingest/{token}` holds a credential, not an id: an unknown one is 401, never 404.
            if path.contains('{') && !path.starts_with("/ingest/") {
                assert!(
                    has("400") && has("404"),
                    "{method} {path}: malformed and unknown ids"
                );
            }
            if op.get("requestBody").is_some() {
                assert!(
                    has("400") && has("422"),
                    "{method} {path}: bad JSON and failed validation"
                );
            }
            assert!(
                !responses.contains_key("403"),
                "{method} {path}: 403 is never returned"
            );
        }
    }
    assert!(operations >= 60, "{operations} operations documented");
}

/// A recipe child's fields are described once, by its entity in the domain (the schema the API
/// answers with, derived from the struct). Every other place is held to it: the create and update
/// bodies (the HTTP adapter's tables) must name exactly the entity's writable fields, so a field
/// added to the entity and forgotten by a body, or a body field the entity never answers, fails
/// here. (The hand-written JSON destructures the entity and the database rows build it field by
/// field, so those two fail to compile instead; docs/architecture.md, "A field's places".)
#[test]
fn each_recipe_child_body_names_the_fields_its_entity_answers() {
    let doc: Value = serde_json::to_value(wort_http::openapi::document()).unwrap();
    let schemas = &doc["components"]["schemas"];
    let properties = |name: &str| -> std::collections::BTreeSet<String> {
        schemas[name]["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("schema {name}"))
            .keys()
            .cloned()
            .collect()
    };
    let read_only = ["id", "recipe_id", "created_at", "updated_at"];
    for entity in [
        "Fermentable",
        "Hop",
        "Yeast",
        "Misc",
        "MashStep",
        "WaterAddition",
        "FermentationStep",
    ] {
        // A water addition's unit follows from its agent (grams of a salt, millilitres of an
        // acid): answered, never sent.
        let derived: &[&str] = if entity == "WaterAddition" {
            &["unit"]
        } else {
            &[]
        };
        let writable: std::collections::BTreeSet<String> = properties(entity)
            .into_iter()
            .filter(|p| !read_only.contains(&p.as_str()) && !derived.contains(&p.as_str()))
            .collect();
        assert_eq!(
            properties(&format!("Create{entity}")),
            writable,
            "Create{entity}"
        );
        assert_eq!(
            properties(&format!("Update{entity}")),
            writable,
            "Update{entity}"
        );
    }
}
