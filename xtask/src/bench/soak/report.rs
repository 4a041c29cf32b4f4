//! The report: requests, errors, latency percentiles overall, per phase and per endpoint, peak
//! memory, wort's WARN and ERROR lines, and the verdict.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crate::bench::load::percentile;

use super::clients::{AI_OPS, AiRun, ClientRun, OPS, Sample, outcome_name};
use super::faults::Mark;
use super::verify::Verified;
use super::{AI_CLIENTS, AI_PAUSE, CLIENTS, THINK};

pub(super) struct Findings<'a> {
    pub(super) total: Duration,
    pub(super) load_took: Duration,
    pub(super) timeline: &'a [Mark],
    pub(super) clients: &'a [ClientRun],
    pub(super) ai: &'a [AiRun],
    pub(super) verified: Option<&'a Verified>,
    /// One analysis and one chat after the load, the provider back to normal.
    pub(super) ai_after: &'a str,
    pub(super) peak_kib: u64,
    pub(super) end_kib: u64,
    pub(super) died: Option<&'a str>,
    pub(super) log: &'a str,
    pub(super) log_path: &'a Path,
}

/// Nearest-rank quantile of sorted microseconds, in milliseconds.
/// Requests, a `status × n` list, connection errors, p50/p90/p99/max of some samples.
pub(super) struct Summary {
    pub(super) requests: usize,
    pub(super) ok: usize,
    pub(super) statuses: BTreeMap<u16, usize>,
    pub(super) latencies: Vec<u32>,
}

impl Summary {
    pub(super) fn of<'s>(samples: impl Iterator<Item = &'s Sample>) -> Summary {
        let mut summary = Summary {
            requests: 0,
            ok: 0,
            statuses: BTreeMap::new(),
            latencies: Vec::new(),
        };
        for s in samples {
            summary.requests += 1;
            if (200..300).contains(&s.outcome) {
                summary.ok += 1;
            }
            *summary.statuses.entry(s.outcome).or_insert(0) += 1;
            summary.latencies.push(s.micros);
        }
        summary.latencies.sort_unstable();
        summary
    }

    /// Everything that is not 2xx, e.g. `503 × 12, client timeout × 1`.
    pub(super) fn errors(&self) -> String {
        let text = self
            .statuses
            .iter()
            .filter(|(outcome, _)| !(200..300).contains(*outcome))
            .map(|(outcome, n)| format!("{} × {n}", outcome_name(*outcome)))
            .collect::<Vec<_>>()
            .join(", ");
        if text.is_empty() { "none".into() } else { text }
    }

    pub(super) fn answered(&self) -> usize {
        self.statuses
            .iter()
            .filter(|(outcome, _)| **outcome >= 100)
            .map(|(_, n)| n)
            .sum()
    }

    pub(super) fn ms(&self, q: f64) -> String {
        format!("{:.1}", percentile(&self.latencies, q))
    }

    pub(super) fn percentiles(&self) -> String {
        format!(
            "{} / {} / {} / {}",
            self.ms(0.50),
            self.ms(0.90),
            self.ms(0.99),
            self.ms(1.0)
        )
    }
}

pub(super) fn report(f: &Findings) -> String {
    let mut r = String::new();
    let all: Vec<&Sample> = f.clients.iter().flat_map(|c| &c.samples).collect();
    let total = Summary::of(all.iter().copied());
    let secs = f.total.as_secs_f64();
    r.push_str(&format!(
        "Load: {CLIENTS} clients (keep-alive, {} ms pause between requests) for {:.0} s, and \
         {AI_CLIENTS} AI clients (one asking for analyses, one for streamed chat turns, {} ms pause \
         between calls); the load \
         phase took {:.1} s in all (AI calls waiting on the hanging provider finish after it).\n\n",
        THINK.as_millis(),
        secs,
        AI_PAUSE.as_millis(),
        f.load_took.as_secs_f64()
    ));

    r.push_str(
        "Timeline (seconds from the start of the load):\n\n| at | fault | took |\n|---|---|---|\n",
    );
    for mark in f.timeline {
        r.push_str(&format!(
            "| {:.1} s | {} | {:.1} s |\n",
            mark.at.as_secs_f64(),
            mark.what,
            mark.took.as_secs_f64()
        ));
    }

    r.push_str(&format!(
        "\nAll {CLIENTS} clients: **{} requests, {} answered ({} 2xx)**; errors: {}.\n\
         Latency p50 / p90 / p99 / max: **{} ms** (closed loop: a client waits for its answer, \
         so a stalled server slows the offered load; every wait is counted).\n\n",
        total.requests,
        total.answered(),
        total.ok,
        total.errors(),
        total.percentiles()
    ));

    // Phases: from one database fault to the next.
    r.push_str(
        "By phase (each database fault starts one; the requests sent during it):\n\n\
         | from | phase | requests | 2xx | not 2xx | p50 / p90 / p99 / max (ms) | 5xx and connection errors from – to |\n\
         |---|---|---|---|---|---|---|\n",
    );
    let mut bounds: Vec<(Duration, String)> = vec![(Duration::ZERO, "start (no fault)".into())];
    bounds.extend(
        f.timeline
            .iter()
            .filter(|m| m.database)
            .map(|m| (m.at, m.what.clone())),
    );
    for (i, (from, what)) in bounds.iter().enumerate() {
        let to = bounds.get(i + 1).map_or(u32::MAX, |(at, _)| as_ms(*at));
        let from_ms = as_ms(*from);
        let phase: Vec<&Sample> = all
            .iter()
            .copied()
            .filter(|s| s.at_ms >= from_ms && s.at_ms < to)
            .collect();
        let summary = Summary::of(phase.iter().copied());
        // When the 5xx answers and connection errors of the phase began and ended (answered).
        let failures = phase
            .iter()
            .filter(|s| !(200..300).contains(&s.outcome) && !(400..500).contains(&s.outcome));
        let first = failures.clone().map(|s| s.at_ms).min();
        let last = failures
            .map(|s| s.at_ms.saturating_add(s.micros / 1000))
            .max();
        let window = match (first, last) {
            (Some(first), Some(last)) => format!(
                "{:.1}–{:.1} s ({:.1} s)",
                f64::from(first) / 1000.0,
                f64::from(last) / 1000.0,
                f64::from(last.saturating_sub(first)) / 1000.0
            ),
            _ => "none".to_owned(),
        };
        r.push_str(&format!(
            "| {:.1} s | {} | {} | {} | {} | {} | {} |\n",
            from.as_secs_f64(),
            short(what),
            summary.requests,
            summary.ok,
            summary.errors(),
            summary.percentiles(),
            window
        ));
    }

    r.push_str(
        "\nBy endpoint:\n\n| endpoint | requests | 2xx | not 2xx | p50 / p90 / p99 / max (ms) |\n\
         |---|---|---|---|---|\n",
    );
    for (i, (_, label, _)) in OPS.iter().enumerate() {
        let summary = Summary::of(all.iter().copied().filter(|s| usize::from(s.op) == i));
        r.push_str(&format!(
            "| {label} | {} | {} | {} | {} |\n",
            summary.requests,
            summary.ok,
            summary.errors(),
            summary.percentiles()
        ));
    }

    r.push_str(&format!(
        "\nAI calls ({AI_CLIENTS} clients; the provider's modes are in the timeline):\n\n\
         | call | calls | 2xx | not 2xx | p50 / p90 / p99 / max (ms) |\n|---|---|---|---|---|\n"
    ));
    let ai: Vec<&Sample> = f.ai.iter().flat_map(|c| &c.samples).collect();
    for (i, label) in AI_OPS.iter().enumerate() {
        let summary = Summary::of(ai.iter().copied().filter(|s| usize::from(s.op) == i));
        r.push_str(&format!(
            "| {label} | {} | {} | {} | {} |\n",
            summary.requests,
            summary.ok,
            summary.errors(),
            summary.percentiles()
        ));
    }
    r.push_str(
        "\nAI calls by the provider's mode when they were sent:\n\n\
         | from | provider | calls | 2xx | not 2xx | p50 / max (ms) |\n|---|---|---|---|---|---|\n",
    );
    let mut modes: Vec<(Duration, String)> = vec![(Duration::ZERO, "ok".into())];
    modes.extend(
        f.timeline
            .iter()
            .filter(|m| !m.database)
            .map(|m| (m.at, short(&m.what).replace("AI provider: ", ""))),
    );
    for (i, (from, what)) in modes.iter().enumerate() {
        let to = modes.get(i + 1).map_or(u32::MAX, |(at, _)| as_ms(*at));
        let from_ms = as_ms(*from);
        let summary = Summary::of(
            ai.iter()
                .copied()
                .filter(|s| s.at_ms >= from_ms && s.at_ms < to),
        );
        r.push_str(&format!(
            "| {:.1} s | {what} | {} | {} | {} | {} / {} |\n",
            from.as_secs_f64(),
            summary.requests,
            summary.ok,
            summary.errors(),
            summary.ms(0.5),
            summary.ms(1.0)
        ));
    }
    let sum = |get: fn(&AiRun) -> u64| f.ai.iter().map(get).sum::<u64>();
    let silence =
        f.ai.iter()
            .map(|a| a.longest_chat_silence)
            .max()
            .unwrap_or_default();
    r.push_str(&format!(
        "\nChat streams answered 200: {} ended with `event: done`, {} with `event: error`, {} \
         with neither; {} `: keepalive` comments seen; longest silence inside a stream {:.1} s \
         (contract: a keepalive at least every 15 s).\n",
        sum(|a| a.chats_done),
        sum(|a| a.chats_error),
        sum(|a| a.chats_cut),
        sum(|a| a.keepalives),
        silence.as_secs_f64()
    ));

    r.push_str(&format!(
        "\nAfter the load, the provider back to normal: {}.\n",
        f.ai_after
    ));

    let mib = |kib: u64| kib as f64 / 1024.0;
    r.push_str(&format!(
        "\nwort's memory: **peak RSS {:.1} MiB** (VmHWM), {:.1} MiB at the end.\n",
        mib(f.peak_kib),
        mib(f.end_kib)
    ));

    r.push_str("\nAcknowledged writes, read back after the run:\n\n");
    let unknown: u64 = f.clients.iter().map(|c| c.writes_unknown).sum();
    match f.verified {
        Some(v) => {
            r.push_str("| write | acknowledged (2xx) | read back | **missing** | unreadable |\n|---|---|---|---|---|\n");
            for (label, check) in [
                ("fermentation readings (by id)", &v.logs),
                ("recipes (by id)", &v.recipes),
            ] {
                r.push_str(&format!(
                    "| {label} | {} | {} | **{}** | {} |\n",
                    check.acked,
                    check.found,
                    check.missing.len(),
                    check.unreadable.len()
                ));
            }
            let acked: u64 = v.adjusts.iter().map(|(a, _, _)| a).sum();
            let unknown_adjusts: u64 = v.adjusts.iter().map(|(_, u, _)| u).sum();
            let amounts: f64 = v.adjusts.iter().filter_map(|(_, _, a)| *a).sum();
            r.push_str(&format!(
                "| inventory +1 adjustments (sum of the {CLIENTS} items' amounts) | {acked} | \
                 {amounts:.0} | **{}** | {} items |\n",
                v.adjusts_missing(),
                v.adjusts_unreadable()
            ));
            let phantom: u64 = v
                .adjusts
                .iter()
                .filter_map(|(acked, unknown, amount)| {
                    Some(((*amount)?.round() as u64).saturating_sub(acked + unknown))
                })
                .sum();
            let applied_unacked: u64 = v
                .adjusts
                .iter()
                .filter_map(|(acked, _, amount)| {
                    Some(((*amount)?.round() as u64).saturating_sub(*acked))
                })
                .sum();
            r.push_str(&format!(
                "\nWrites answered 5xx or not at all (outcome unknown to the client): {unknown} \
                 ({unknown_adjusts} of them adjustments, of which {applied_unacked} were applied \
                 after all; adjustments applied beyond every attempt: {phantom}). 2xx writes \
                 without an id in the answer: {}.\n",
                v.acked_without_id
            ));
            for (label, check) in [("reading", &v.logs), ("recipe", &v.recipes)] {
                for path in check.missing.iter().take(20) {
                    r.push_str(&format!("- missing {label}: `{path}`\n"));
                }
                for path in check.unreadable.iter().take(20) {
                    r.push_str(&format!("- unreadable {label}: `{path}`\n"));
                }
            }
        }
        None => r.push_str("not checked: wort was not running.\n"),
    }

    r.push_str(&log_summary(f.log, f.log_path));

    let verdict = match (f.died, f.verified) {
        (Some(why), _) => format!("FAIL: {why}"),
        (None, Some(v)) if v.failed() => {
            "FAIL: acknowledged writes are missing or could not be read back".into()
        }
        (None, Some(_)) => "PASS: wort stayed up and every acknowledged write is there".into(),
        (None, None) => "FAIL: nothing verified".into(),
    };
    r.push_str(&format!("\n**Verdict: {verdict}.**\n"));
    r
}

fn as_ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

/// The fault's name without its explanation in parentheses.
fn short(what: &str) -> &str {
    what.split(" (").next().unwrap_or(what)
}

/// The line without its terminal colour codes (`ESC [ … m`).
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// wort's WARN and ERROR lines, grouped with ids and numbers blanked out.
pub(super) fn log_summary(log: &str, path: &Path) -> String {
    let mut groups: BTreeMap<String, usize> = BTreeMap::new();
    let mut warn = 0;
    let mut error = 0;
    for raw in log.lines() {
        let stripped = strip_ansi(raw);
        let line = stripped.as_str();
        let level = if line.contains(" WARN ") {
            warn += 1;
            "WARN"
        } else if line.contains(" ERROR ") {
            error += 1;
            "ERROR"
        } else {
            continue;
        };
        let rest = line.split_once(level).map_or(line, |(_, rest)| rest).trim();
        let key: String = rest
            .split_whitespace()
            .map(|word| {
                let digits = word.chars().filter(char::is_ascii_digit).count();
                if digits >= 4 { "…" } else { word }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let key = format!("{level} {}", key.chars().take(220).collect::<String>());
        *groups.entry(key).or_insert(0) += 1;
    }
    let mut text = format!(
        "\nwort's log ({}): {warn} WARN and {error} ERROR lines (RUST_LOG=warn).\n",
        path.display()
    );
    let mut sorted: Vec<_> = groups.into_iter().collect();
    sorted.sort_by_key(|entry| std::cmp::Reverse(entry.1));
    for (key, n) in sorted.iter().take(15) {
        text.push_str(&format!("- {n} × `{key}`\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn log_lines_lose_their_colours() {
        let line = "\u{1b}[2m2026-11-24T02:06:24Z\u{1b}[0m \u{1b}[33m WARN\u{1b}[0m x: y";
        assert_eq!(strip_ansi(line), "2026-11-24T02:06:24Z  WARN x: y");
        let summary = log_summary(line, Path::new("wort.log"));
        assert!(summary.contains("1 WARN and 0 ERROR"), "{summary}");
        assert!(summary.contains("- 1 × `WARN x: y`"), "{summary}");
    }
}
