//! Request metrics for Prometheus: a count and a latency histogram per route
//! *pattern* (`/v1/recipes/{id}`, never the raw path, so ids cannot explode the series or leak
//! into a monitoring system), method and status. The `wort` binary serves them, with its pool and
//! AI counters, on `WORT_METRICS_ADDR`.
//!
//! Recording is lock-free once a series exists: a read lock finds it, atomics count.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds (Prometheus' defaults, which span a cached
/// read to a slow AI call).
const BUCKETS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The label of requests that matched no route (unknown paths, the web app's files): one
/// series for all of them.
pub const UNMATCHED: &str = "unmatched";

/// The label of every request method outside [`KNOWN_METHODS`].
pub const OTHER_METHOD: &str = "other";

/// The methods that get a label of their own. Every label value comes from a fixed set: a label
/// copied from the request would let any client create series (and memory) without bound.
const KNOWN_METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE",
];

/// The method as labelled: itself when it is a standard one, else [`OTHER_METHOD`].
pub fn method_label(method: &str) -> &'static str {
    KNOWN_METHODS
        .into_iter()
        .find(|known| *known == method)
        .unwrap_or(OTHER_METHOD)
}

/// A series' labels. `route` is a pattern of the route table or [`UNMATCHED`], `method` one of
/// [`KNOWN_METHODS`] or [`OTHER_METHOD`], `status` a three-digit status: the number of series
/// is bounded by the route table, whatever clients send.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Key {
    route: String,
    method: &'static str,
    status: u16,
}

#[derive(Default)]
struct Series {
    count: AtomicU64,
    sum_micros: AtomicU64,
    /// Non-cumulative: `buckets[i]` counts requests in `(BUCKETS[i-1], BUCKETS[i]]`; the last slot
    /// those above every bound.
    buckets: [AtomicU64; BUCKETS.len() + 1],
}

/// The process's request metrics, shared by every worker.
#[derive(Default)]
pub struct RequestMetrics {
    series: RwLock<HashMap<Key, Arc<Series>>>,
}

impl RequestMetrics {
    /// Counts one answered request. `route` must be a pattern of the route table or
    /// [`UNMATCHED`], never a raw path; the method is reduced to its label here.
    pub fn observe(&self, route: &str, method: &str, status: u16, elapsed: Duration) {
        let key = Key {
            route: route.to_owned(),
            method: method_label(method),
            status,
        };
        let found = self
            .series
            .read()
            .ok()
            .and_then(|map| map.get(&key).cloned());
        let series = match found {
            Some(s) => s,
            None => match self.series.write() {
                Ok(mut map) => map.entry(key).or_default().clone(),
                Err(_) => return,
            },
        };
        let seconds = elapsed.as_secs_f64();
        let slot = BUCKETS
            .iter()
            .position(|bound| seconds <= *bound)
            .unwrap_or(BUCKETS.len());
        series.count.fetch_add(1, Ordering::Relaxed);
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        series.sum_micros.fetch_add(micros, Ordering::Relaxed);
        if let Some(bucket) = series.buckets.get(slot) {
            bucket.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The Prometheus text exposition of every series, in a stable order.
    pub fn render(&self, out: &mut String) {
        let Ok(map) = self.series.read() else {
            return;
        };
        let mut keys: Vec<&Key> = map.keys().collect();
        keys.sort();
        out.push_str("# HELP wort_http_requests_total Requests answered, by route pattern, method and status.\n");
        out.push_str("# TYPE wort_http_requests_total counter\n");
        for key in &keys {
            if let Some(s) = map.get(*key) {
                let _ = writeln!(
                    out,
                    "wort_http_requests_total{{{}}} {}",
                    labels(key),
                    s.count.load(Ordering::Relaxed)
                );
            }
        }
        out.push_str(
            "# HELP wort_http_request_duration_seconds Time from request to response headers.\n",
        );
        out.push_str("# TYPE wort_http_request_duration_seconds histogram\n");
        for key in &keys {
            let Some(s) = map.get(*key) else { continue };
            let labels = labels(key);
            let mut cumulative = 0;
            for (bound, bucket) in BUCKETS.iter().zip(&s.buckets) {
                cumulative += bucket.load(Ordering::Relaxed);
                let _ = writeln!(
                    out,
                    "wort_http_request_duration_seconds_bucket{{{labels},le=\"{bound}\"}} {cumulative}"
                );
            }
            let count = s.count.load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "wort_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {count}"
            );
            #[allow(clippy::cast_precision_loss)]
            let sum = s.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
            let _ = writeln!(
                out,
                "wort_http_request_duration_seconds_sum{{{labels}}} {sum}"
            );
            let _ = writeln!(
                out,
                "wort_http_request_duration_seconds_count{{{labels}}} {count}"
            );
        }
    }
}

fn labels(key: &Key) -> String {
    format!(
        "route=\"{}\",method=\"{}\",status=\"{}\"",
        escape(&key.route),
        escape(key.method),
        key.status
    )
}

/// A label value as the exposition format wants it: `\`, `"` and newlines escaped.
pub fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_buckets_are_cumulative_per_series() {
        let m = RequestMetrics::default();
        m.observe("/v1/recipes/{id}", "GET", 200, Duration::from_millis(3));
        m.observe("/v1/recipes/{id}", "GET", 200, Duration::from_millis(30));
        m.observe("/v1/recipes/{id}", "GET", 404, Duration::from_millis(1));
        m.observe(UNMATCHED, "GET", 404, Duration::from_secs(20));
        let mut out = String::new();
        m.render(&mut out);
        let ok = r#"route="/v1/recipes/{id}",method="GET",status="200""#;
        assert!(
            out.contains(&format!("wort_http_requests_total{{{ok}}} 2\n")),
            "{out}"
        );
        assert!(out.contains(&format!(
            "wort_http_request_duration_seconds_bucket{{{ok},le=\"0.005\"}} 1\n"
        )));
        assert!(out.contains(&format!(
            "wort_http_request_duration_seconds_bucket{{{ok},le=\"0.05\"}} 2\n"
        )));
        assert!(out.contains(&format!(
            "wort_http_request_duration_seconds_bucket{{{ok},le=\"+Inf\"}} 2\n"
        )));
        assert!(out.contains(&format!(
            "wort_http_request_duration_seconds_sum{{{ok}}} 0.033\n"
        )));
        let slow = r#"route="unmatched",method="GET",status="404""#;
        assert!(out.contains(&format!(
            "wort_http_request_duration_seconds_bucket{{{slow},le=\"10\"}} 0\n"
        )));
        assert!(out.contains(&format!(
            "wort_http_request_duration_seconds_bucket{{{slow},le=\"+Inf\"}} 1\n"
        )));
    }

    #[test]
    fn unknown_methods_share_one_label() {
        let m = RequestMetrics::default();
        for i in 0..1_000 {
            m.observe(
                UNMATCHED,
                &format!("X{i}{}", "A".repeat(2_000)),
                400,
                Duration::ZERO,
            );
        }
        m.observe(UNMATCHED, "get", 404, Duration::ZERO);
        m.observe(UNMATCHED, "PATCH", 404, Duration::ZERO);
        let mut out = String::new();
        m.render(&mut out);
        assert!(
            out.contains(
                r#"wort_http_requests_total{route="unmatched",method="other",status="400"} 1000"#
            ),
            "{out}"
        );
        // Methods are case-sensitive: `get` is not `GET`.
        assert!(out.contains(r#"{route="unmatched",method="other",status="404"} 1"#));
        assert!(out.contains(r#"{route="unmatched",method="PATCH",status="404"} 1"#));
        assert!(!out.contains("AAAA"));
        assert_eq!(out.matches("wort_http_requests_total{").count(), 3);
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
