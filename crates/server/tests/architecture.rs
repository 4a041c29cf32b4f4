//! The dependency direction is the architecture: this test fails when an arrow points the wrong
//! way. It reads `Cargo.lock` (the whole resolved graph, transitive dependencies included, with no
//! network needed).

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet};

/// Package name → names of its dependencies, from the lock file.
fn lock_graph() -> BTreeMap<String, Vec<String>> {
    let lock =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock")).unwrap();
    let mut graph = BTreeMap::new();
    for package in lock.split("[[package]]").skip(1) {
        let name = package
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .map(|n| n.trim_end_matches('"').to_owned())
            .unwrap();
        let deps = package
            .split_once("dependencies = [")
            .map(|(_, rest)| {
                rest.split(']')
                    .next()
                    .unwrap()
                    .split(',')
                    .filter_map(|d| {
                        d.trim()
                            .trim_matches('"')
                            .split(' ')
                            .next()
                            .map(str::to_owned)
                    })
                    .filter(|d| !d.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        graph.insert(name, deps);
    }
    graph
}

fn reachable_from(name: &str) -> BTreeSet<String> {
    let graph = lock_graph();
    assert!(graph.contains_key(name), "{name} is not in Cargo.lock");
    let mut seen = BTreeSet::new();
    let mut stack = vec![name.to_owned()];
    while let Some(package) = stack.pop() {
        for dep in graph.get(&package).into_iter().flatten() {
            if seen.insert(dep.clone()) {
                stack.push(dep.clone());
            }
        }
    }
    seen
}

#[test]
fn domain_does_no_io() {
    let deps = reachable_from("wort-domain");
    let forbidden: Vec<_> = deps
        .iter()
        .filter(|d| {
            d.starts_with("diesel")
                || d.starts_with("actix")
                || d.starts_with("wort-")
                || ["reqwest", "tokio", "hyper", "mio", "argon2"].contains(&d.as_str())
        })
        .collect();
    assert!(
        forbidden.is_empty(),
        "wort-domain must not depend on {forbidden:?}"
    );
}

/// The OpenAPI derives are the HTTP adapter's concern: the domain carries them only behind its
/// `openapi` feature, which `wort-http` turns on (Cargo.lock cannot tell an optional dependency
/// from another, so the manifest is read).
#[test]
fn the_domain_describes_its_schemas_only_for_the_http_adapter() {
    let manifest = |crate_dir: &str| {
        std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("../{crate_dir}/Cargo.toml")),
        )
        .expect("manifest")
    };
    let domain = manifest("domain");
    let utoipa = domain
        .lines()
        .find(|l| l.starts_with("utoipa"))
        .expect("utoipa in the domain's manifest");
    assert!(utoipa.contains("optional = true"), "{utoipa}");
    assert!(domain.contains("openapi = [\"dep:utoipa\"]"));
    for user in ["db", "interchange", "ai", "webhooks"] {
        let line = manifest(user)
            .lines()
            .find(|l| l.starts_with("wort-domain"))
            .map(str::to_owned)
            .unwrap_or_default();
        assert!(!line.contains("openapi"), "wort-{user}: {line}");
    }
}

#[test]
fn adapters_do_not_know_each_other() {
    let http = reachable_from("wort-http");
    assert!(
        !http.contains("wort-db") && !http.iter().any(|d| d.starts_with("diesel")),
        "wort-http must not reach the database adapter"
    );
    let db = reachable_from("wort-db");
    assert!(
        !db.contains("wort-http") && !db.iter().any(|d| d.starts_with("actix")),
        "wort-db must not reach the HTTP adapter"
    );
}

#[test]
fn the_check_sees_transitive_dependencies() {
    // wort-server reaches tokio only through its dependencies' dependencies too.
    let server = reachable_from("wort-server");
    assert!(
        server.contains("tokio") && server.contains("diesel") && server.contains("wort-domain")
    );
}

#[test]
fn the_ai_adapter_knows_only_the_domain() {
    let ai = reachable_from("wort-ai");
    let forbidden: Vec<_> = ai
        .iter()
        .filter(|d| {
            d.starts_with("diesel")
                || d.starts_with("actix")
                || ["wort-db", "wort-http", "wort-server"].contains(&d.as_str())
        })
        .collect();
    assert!(
        forbidden.is_empty(),
        "wort-ai must not depend on {forbidden:?}"
    );
    for adapter in ["wort-db", "wort-http"] {
        assert!(
            !reachable_from(adapter).contains("wort-ai"),
            "{adapter} must not reach the AI adapter"
        );
    }
}

#[test]
fn the_webhook_sender_knows_only_the_domain() {
    let sender = reachable_from("wort-webhooks");
    let forbidden: Vec<_> = sender
        .iter()
        .filter(|d| {
            d.starts_with("diesel")
                || d.starts_with("actix")
                || ["wort-db", "wort-http", "wort-ai", "wort-server"].contains(&d.as_str())
        })
        .collect();
    assert!(
        forbidden.is_empty(),
        "wort-webhooks must not depend on {forbidden:?}"
    );
    for adapter in ["wort-db", "wort-http", "wort-ai"] {
        assert!(
            !reachable_from(adapter).contains("wort-webhooks"),
            "{adapter} must not reach the webhook sender"
        );
    }
}

#[test]
fn the_mqtt_publisher_knows_only_the_domain() {
    let publisher = reachable_from("wort-mqtt");
    let forbidden: Vec<_> = publisher
        .iter()
        .filter(|d| {
            d.starts_with("diesel")
                || d.starts_with("actix")
                || [
                    "wort-db",
                    "wort-http",
                    "wort-ai",
                    "wort-webhooks",
                    "wort-server",
                ]
                .contains(&d.as_str())
        })
        .collect();
    assert!(
        forbidden.is_empty(),
        "wort-mqtt must not depend on {forbidden:?}"
    );
    for adapter in ["wort-db", "wort-http", "wort-ai", "wort-webhooks"] {
        assert!(
            !reachable_from(adapter).contains("wort-mqtt"),
            "{adapter} must not reach the MQTT publisher"
        );
    }
}

/// A pure adapter: no I/O, no other adapter, and the domain it translates into.
fn assert_pure_and_knows_only_the_domain(name: &str) {
    let deps = reachable_from(name);
    let forbidden: Vec<_> = deps
        .iter()
        .filter(|d| {
            ["diesel", "actix", "tokio", "reqwest", "hyper", "mio"]
                .iter()
                .any(|io| d.starts_with(io))
                || ["wort-db", "wort-http", "wort-ai", "wort-server"].contains(&d.as_str())
        })
        .collect();
    assert!(
        forbidden.is_empty(),
        "{name} must not depend on {forbidden:?}"
    );
    assert!(deps.contains("wort-domain"), "{name}");
}

#[test]
fn interchange_is_pure_and_knows_only_the_domain() {
    assert_pure_and_knows_only_the_domain("wort-interchange");
}

/// What devices post is read by a crate of its own, as pure as interchange.
#[test]
fn device_payloads_are_pure_and_know_only_the_domain() {
    assert_pure_and_knows_only_the_domain("wort-hydrometers");
}
