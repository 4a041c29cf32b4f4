//! What the failover cost the clients, from their samples: statuses, the window of 503s and
//! of errors, the longest time without a success; and the read-back's verdict.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::super::clients::{Sample, outcome_name};
use super::super::verify::{Check, Verified};

/// Times in milliseconds from the start of the load.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Window {
    pub(super) requests: u64,
    pub(super) by_outcome: BTreeMap<u16, u64>,
    /// The first 503 sent and the end of the last 503 answered.
    pub(super) first_503: Option<u32>,
    pub(super) last_503_end: Option<u32>,
    /// The same for every answer that is neither 2xx nor 404 (connection errors included).
    pub(super) first_error: Option<u32>,
    pub(super) last_error_end: Option<u32>,
    /// The longest stretch after the kill with no 2xx answered: from the kill or the end of
    /// a 2xx to the end of the next 2xx (the first success after the outage); `None` when no
    /// request sent after the kill succeeded.
    pub(super) without_success: Option<(u32, u32)>,
    /// The longest request sent from the kill to the last error.
    pub(super) slowest_in_window_ms: u32,
}

fn end_ms(s: &Sample) -> u32 {
    s.at_ms.saturating_add(s.micros / 1000)
}

fn is_error(outcome: u16) -> bool {
    !(200..300).contains(&outcome) && outcome != 404
}

pub(super) fn window(samples: &[Sample], kill_ms: u32) -> Window {
    let mut w = Window::default();
    for s in samples {
        w.requests += 1;
        *w.by_outcome.entry(s.outcome).or_default() += 1;
        if s.outcome == 503 {
            w.first_503 = Some(w.first_503.map_or(s.at_ms, |f| f.min(s.at_ms)));
            w.last_503_end = Some(w.last_503_end.map_or(end_ms(s), |l| l.max(end_ms(s))));
        }
        if is_error(s.outcome) {
            w.first_error = Some(w.first_error.map_or(s.at_ms, |f| f.min(s.at_ms)));
            w.last_error_end = Some(w.last_error_end.map_or(end_ms(s), |l| l.max(end_ms(s))));
        }
    }
    let mut successes: Vec<u32> = samples
        .iter()
        .filter(|s| s.at_ms >= kill_ms && (200..300).contains(&s.outcome))
        .map(end_ms)
        .collect();
    successes.sort_unstable();
    let mut previous = kill_ms;
    for end in successes {
        let longest = w.without_success.map_or(0, |(from, to)| to - from);
        if end.saturating_sub(previous) > longest {
            w.without_success = Some((previous, end));
        }
        previous = previous.max(end);
    }
    let until = w.last_error_end.unwrap_or(kill_ms);
    w.slowest_in_window_ms = samples
        .iter()
        .filter(|s| s.at_ms >= kill_ms && s.at_ms <= until)
        .map(|s| s.micros / 1000)
        .max()
        .unwrap_or(0);
    w
}

/// Seconds from the kill, signed ("+1.2 s").
fn since(ms: u32, kill_ms: u32) -> String {
    let d = (f64::from(ms) - f64::from(kill_ms)) / 1000.0;
    format!("{d:+.2} s")
}

fn secs(ms: u32) -> String {
    format!("{:.2} s", f64::from(ms) / 1000.0)
}

/// Requests per second from one second before the kill to three after the last error; a run of
/// seconds with nothing but 503s (or nothing answered at all) is one row.
fn per_second(samples: &[Sample], kill_ms: u32, until_ms: u32) -> String {
    let first = kill_ms / 1000;
    let last = until_ms / 1000 + 3;
    let mut rows: BTreeMap<u32, (u64, u64, u64)> = (first.saturating_sub(1)..=last)
        .map(|s| (s, (0, 0, 0)))
        .collect();
    for s in samples {
        if let Some(row) = rows.get_mut(&(s.at_ms / 1000)) {
            match s.outcome {
                200..=299 => row.0 += 1,
                503 => row.1 += 1,
                _ => row.2 += 1,
            }
        }
    }
    // (from, to, counts): consecutive seconds without a 2xx or another status merged.
    let mut merged: Vec<(u32, u32, (u64, u64, u64))> = Vec::new();
    for (second, counts) in rows {
        let only_503 = counts.0 == 0 && counts.2 == 0;
        match merged.last_mut() {
            Some((_, to, sum)) if only_503 && sum.0 == 0 && sum.2 == 0 => {
                *to = second + 1;
                sum.1 += counts.1;
            }
            _ => merged.push((second, second + 1, counts)),
        }
    }
    let mut out = String::from("| seconds of the load | 2xx | 503 | other |\n|---|---|---|---|\n");
    for (from, to, (ok, unavailable, other)) in merged {
        let _ = writeln!(out, "| {from}–{to} s | {ok} | {unavailable} | {other} |");
    }
    out
}

pub(super) struct Findings<'a> {
    pub(super) setup: &'a [String],
    pub(super) total_s: f64,
    pub(super) kill_ms: u32,
    pub(super) killed: &'a str,
    pub(super) promoted_ms: Option<u32>,
    pub(super) writable_ms: Option<u32>,
    pub(super) timeline: &'a [(u32, String)],
    pub(super) samples: &'a [Sample],
    pub(super) verified: Option<&'a Verified>,
    pub(super) died: Option<&'a str>,
}

pub(super) fn report(f: &Findings) -> String {
    let w = window(f.samples, f.kill_ms);
    let mut out = String::from("# Failover under load\n\n");
    for line in f.setup {
        let _ = writeln!(out, "- {line}");
    }
    let _ = writeln!(
        out,
        "\nLoad for {:.0} s; the fault at {}: {}.\n",
        f.total_s,
        secs(f.kill_ms),
        f.killed
    );
    out.push_str("| at (from the kill) | event |\n|---|---|\n");
    for (at, what) in f.timeline {
        let _ = writeln!(out, "| {} | {what} |", since(*at, f.kill_ms));
    }
    let statuses: Vec<String> = w
        .by_outcome
        .iter()
        .map(|(outcome, n)| format!("{} × {n}", outcome_name(*outcome)))
        .collect();
    let _ = writeln!(
        out,
        "\nRequests: {}; {}.\n",
        w.requests,
        statuses.join(", ")
    );
    let span = |from: Option<u32>, to: Option<u32>| match (from, to) {
        (Some(a), Some(b)) => format!(
            "{:.2} s (from {} to {})",
            f64::from(b.saturating_sub(a)) / 1000.0,
            since(a, f.kill_ms),
            since(b, f.kill_ms)
        ),
        _ => "none".to_owned(),
    };
    let _ = writeln!(out, "- 503s: {}", span(w.first_503, w.last_503_end));
    let _ = writeln!(
        out,
        "- errors of any kind (not 2xx, not 404): {}",
        span(w.first_error, w.last_error_end)
    );
    let _ = writeln!(
        out,
        "- longest time without a success: {}",
        w.without_success.map_or_else(
            || "no success after the kill".to_owned(),
            |(from, to)| span(Some(from), Some(to))
        )
    );
    let _ = writeln!(
        out,
        "- standby out of recovery: {}; accepting writes: {}",
        f.promoted_ms
            .map_or("never".to_owned(), |ms| since(ms, f.kill_ms)),
        f.writable_ms
            .map_or("never".to_owned(), |ms| since(ms, f.kill_ms))
    );
    let _ = writeln!(
        out,
        "- slowest request sent during the errors: {} ms\n",
        w.slowest_in_window_ms
    );
    out.push_str(&per_second(
        f.samples,
        f.kill_ms,
        w.last_error_end.unwrap_or(f.kill_ms),
    ));
    out.push('\n');
    match f.verified {
        Some(v) => out.push_str(&read_back(v)),
        None => out.push_str("Acknowledged writes: not read back (wort died).\n"),
    }
    if let Some(why) = f.died {
        let _ = writeln!(out, "\n**wort died**: {why}");
    }
    out
}

fn read_back(v: &Verified) -> String {
    let mut out = String::from(
        "| write | acknowledged (2xx) | read back | missing | unreadable |\n|---|---|---|---|---|\n",
    );
    let mut row = |what: &str, c: &Check| {
        let _ = writeln!(
            out,
            "| {what} | {} | {} | **{}** | {} |",
            c.acked,
            c.found,
            c.missing.len(),
            c.unreadable.len()
        );
    };
    row("fermentation readings (by id)", &v.logs);
    row("recipes (by id)", &v.recipes);
    let acked: u64 = v.adjusts.iter().map(|(a, _, _)| a).sum();
    let unknown: u64 = v.adjusts.iter().map(|(_, u, _)| u).sum();
    let applied_unacked: u64 = v
        .adjusts
        .iter()
        .filter_map(|(a, _, amount)| Some(((*amount)?.round() as u64).saturating_sub(*a)))
        .sum();
    let _ = writeln!(
        out,
        "| inventory +1 adjustments (sum of amounts) | {acked} | {} | **{}** | {} |",
        acked.saturating_sub(v.adjusts_missing()),
        v.adjusts_missing(),
        v.adjusts_unreadable()
    );
    let _ = writeln!(
        out,
        "\nAdjustments answered 5xx or not at all: {unknown}; of those applied anyway: \
         {applied_unacked}. 2xx writes without an id: {}.",
        v.acked_without_id
    );
    let verdict = if v.failed() {
        "FAILED: an acknowledged write is missing or could not be read back"
    } else {
        "every acknowledged write was read back: 0 missing"
    };
    let _ = writeln!(out, "\nVerdict: **{verdict}**.");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(at_ms: u32, ms: u32, outcome: u16) -> Sample {
        Sample {
            at_ms,
            micros: ms * 1000,
            op: 0,
            outcome,
        }
    }

    #[test]
    fn the_window_runs_from_the_first_error_sent_to_the_last_answered() {
        let samples = [
            sample(900, 1, 201),
            sample(1_000, 5, 503),
            sample(1_001, 1, 200),
            sample(1_200, 2, 404),
            sample(1_500, 3, 3),
            sample(4_000, 200, 503),
            sample(4_100, 10, 201),
            sample(5_000, 1, 200),
        ];
        let w = window(&samples, 1_000);
        assert_eq!(w.requests, 8);
        assert_eq!(w.first_503, Some(1_000));
        assert_eq!(w.last_503_end, Some(4_200));
        assert_eq!(w.first_error, Some(1_000));
        assert_eq!(w.last_error_end, Some(4_200));
        // 1_001 ended 1_002 (the server not quite dead yet); 4_110 is the first after it.
        assert_eq!(w.without_success, Some((1_002, 4_110)));
        assert_eq!(w.slowest_in_window_ms, 200);
        assert_eq!(w.by_outcome.get(&503), Some(&2));
        assert_eq!(w.by_outcome.get(&404), Some(&1));
    }

    #[test]
    fn seconds_without_a_success_are_one_row() {
        let samples = [
            sample(1_500, 1, 200),
            sample(2_100, 1, 503),
            sample(2_200, 1, 200),
            sample(3_100, 1, 503),
            sample(5_100, 1, 503),
            sample(6_100, 1, 201),
        ];
        let table = per_second(&samples, 2_000, 3_200);
        let rows: Vec<&str> = table.lines().skip(2).collect();
        assert_eq!(
            rows,
            [
                "| 1–2 s | 1 | 0 | 0 |",
                "| 2–3 s | 1 | 1 | 0 |",
                "| 3–6 s | 0 | 2 | 0 |",
                "| 6–7 s | 1 | 0 | 0 |",
            ]
        );
    }

    #[test]
    fn no_errors_no_window() {
        let w = window(&[sample(10, 1, 200)], 5);
        assert_eq!(w.first_503, None);
        assert_eq!(w.first_error, None);
        assert_eq!(w.without_success, Some((5, 11)));
        assert_eq!(window(&[sample(10, 1, 503)], 5).without_success, None);
    }
}
