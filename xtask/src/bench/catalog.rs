//! Ingredient catalogue search over HTTP: the full shipped catalogue plus 200 items of the
//! account's own (50 of each kind), queried with a mix of what brewers type in a picker
//! (prefixes, typos, product ids spelt three ways), one request at a time on a kept-alive
//! connection; p50 and p99 latency. The goal is p99 under 10 ms.

use std::net::SocketAddr;
use std::time::Instant;

use super::load::{self, Connection, Request};
use super::seed;

/// Searches measured (after a warm-up of one pass over the mix).
const SEARCHES: usize = 2_000;
/// The goal (docs/benchmarks.md, "Ingredient catalogue search").
const TARGET_P99_MS: f64 = 10.0;
const KINDS: [&str; 4] = ["fermentables", "hops", "yeasts", "miscs"];

/// The mix: what a person types, by kind (URL-encoded).
const QUERIES: [(&str, &str); 10] = [
    ("hops", "citr"),
    ("fermentables", "maris%20oter"),
    ("yeasts", "us%2005"),
    ("yeasts", "US-05"),
    ("hops", "cascade"),
    ("fermentables", "crystal%2040"),
    ("hops", "zatec"),
    ("hops", "mosiac"),
    ("miscs", "irish"),
    ("fermentables", "pils"),
];

fn request(method: &'static str, path: String, body: Option<String>) -> Request {
    Request {
        method,
        path,
        api_key: Some(seed::light_key()),
        body,
    }
}

/// The section of the report (markdown).
pub fn measure(addr: SocketAddr) -> Result<String, String> {
    for kind in KINDS {
        for i in 0..50 {
            let body = format!(r#"{{"name":"House {kind} {i}","aliases":["hb-{i}"]}}"#);
            let created = load::once(
                addr,
                &request("POST", format!("/v1/catalog/{kind}"), Some(body)),
            )?;
            if created.status != 201 {
                return Err(format!(
                    "POST /v1/catalog/{kind} answered {}: {}",
                    created.status,
                    String::from_utf8_lossy(&created.body)
                ));
            }
        }
    }
    let requests: Vec<Vec<u8>> = QUERIES
        .iter()
        .map(|(kind, q)| request("GET", format!("/v1/catalog/{kind}?q={q}"), None).to_bytes(addr))
        .collect();
    let mut connection = Connection::new(addr);
    for bytes in &requests {
        connection
            .send(bytes)
            .map_err(|e| format!("catalogue search: {e}"))?;
    }
    let mut micros: Vec<u32> = Vec::with_capacity(SEARCHES);
    for bytes in requests.iter().cycle().take(SEARCHES) {
        let started = Instant::now();
        let response = connection
            .send(bytes)
            .map_err(|e| format!("catalogue search: {e}"))?;
        let elapsed = started.elapsed();
        if response.status != 200 {
            return Err(format!("catalogue search answered {}", response.status));
        }
        micros.push(u32::try_from(elapsed.as_micros()).unwrap_or(u32::MAX));
    }
    micros.sort_unstable();
    let ms = |q: f64| f64::from(load::nearest_rank(&micros, q).unwrap_or(0)) / 1000.0;
    let (p50, p99) = (ms(0.50), ms(0.99));
    Ok(format!(
        "\n## Ingredient catalogue search\n\n{SEARCHES} searches one at a time (kept-alive \
         connection) over the shipped catalogue plus 200 items of the account's own, a mix of \
         {} typical queries (`citr`, `maris oter`, `us 05`, `US-05`, `cascade`, `crystal 40`…).\n\n\
         | p50 | p99 | target p99 |\n|---|---|---|\n| {p50:.2} ms | {p99:.2} ms | < {TARGET_P99_MS} ms {} |\n",
        QUERIES.len(),
        super::mark(p99 < TARGET_P99_MS),
    ))
}
