//! The dependency direction is the architecture: this test fails when an arrow points the wrong
//! way (read from `cargo metadata`, so it sees transitive dependencies too).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::{BTreeSet, HashMap};
use std::process::Command;

use serde_json::Value;

/// Normal (non-dev, non-build) dependencies of each package id, from the resolve graph.
fn resolve() -> (Value, HashMap<String, Vec<String>>) {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut graph = HashMap::new();
    for node in meta["resolve"]["nodes"].as_array().unwrap() {
        let deps = node["deps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| {
                d["dep_kinds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|k| k["kind"].is_null())
            })
            .map(|d| d["pkg"].as_str().unwrap().to_owned())
            .collect();
        graph.insert(node["id"].as_str().unwrap().to_owned(), deps);
    }
    (meta, graph)
}

fn package_names_reachable_from(name: &str) -> BTreeSet<String> {
    let (meta, graph) = resolve();
    let names: HashMap<String, String> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_owned(),
                p["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let start = names
        .iter()
        .find(|(_, n)| n.as_str() == name)
        .map(|(id, _)| id.clone())
        .unwrap();
    let mut seen = BTreeSet::new();
    let mut stack = vec![start];
    while let Some(id) = stack.pop() {
        for dep in graph.get(&id).into_iter().flatten() {
            if seen.insert(names[dep].clone()) {
                stack.push(dep.clone());
            }
        }
    }
    seen
}

#[test]
fn domain_does_no_io() {
    let deps = package_names_reachable_from("wort-domain");
    let forbidden: Vec<_> = deps
        .iter()
        .filter(|d| {
            d.starts_with("diesel")
                || d.starts_with("actix")
                || d.as_str() == "reqwest"
                || d.as_str() == "tokio"
                || d.starts_with("wort-")
        })
        .collect();
    assert!(
        forbidden.is_empty(),
        "wort-domain must not depend on {forbidden:?}"
    );
}

#[test]
fn adapters_do_not_know_each_other() {
    let http = package_names_reachable_from("wort-http");
    assert!(
        !http.contains("wort-db") && !http.iter().any(|d| d.starts_with("diesel")),
        "wort-http must not reach the database adapter"
    );
    let db = package_names_reachable_from("wort-db");
    assert!(
        !db.contains("wort-http") && !db.iter().any(|d| d.starts_with("actix")),
        "wort-db must not reach the HTTP adapter"
    );
}
