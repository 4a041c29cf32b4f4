//! The report of `--delays`: the holds as they went, the tries' statuses, one table row per
//! kind of write (acknowledged, unknown, missing, applied twice), examples, wort's log, and the
//! verdict.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use super::super::report::log_summary;
use super::check::Counted;
use super::proxy::{Window, WindowKind};
use super::writers::{KINDS, TRIES_DURING_LOAD, Writer};
use super::{CLIENTS, SETTLE_FOR};

pub(super) struct Findings<'a> {
    pub(super) wort_bin: &'a Path,
    pub(super) total: Duration,
    pub(super) deadline_ms: u64,
    pub(super) hold_range: (Duration, Duration),
    pub(super) load_took: Duration,
    pub(super) settle_took: Duration,
    pub(super) windows: &'a [Window],
    pub(super) connections: usize,
    pub(super) writers: &'a [Writer],
    pub(super) counted: &'a Counted,
    pub(super) peak_kib: u64,
    /// From the cluster's start to the count.
    pub(super) took: Duration,
    pub(super) died: Option<&'a str>,
    pub(super) log: &'a str,
    pub(super) log_path: &'a Path,
}

pub(super) fn describe(kind: WindowKind) -> String {
    match kind {
        WindowKind::AfterCommit { arm, connections } => format!(
            "answers after a commit point (armed {:.1} s, up to {connections} connections)",
            arm.as_secs_f64()
        ),
        WindowKind::AllAnswers => "every connection's answers".into(),
        WindowKind::AllRequests => "every connection's requests".into(),
    }
}

fn status_name(status: u16) -> String {
    if status == 0 {
        "no answer (timeout or connection error)".into()
    } else {
        status.to_string()
    }
}

pub(super) fn report(f: &Findings) -> String {
    let mut r = String::new();
    let (shortest, longest) = f.hold_range;
    r.push_str(&format!(
        "Setup: a durable private PostgreSQL cluster; one wort (`{}`, pool 16, \
         `WORT_DB_DEADLINE_MS={}`) whose `DATABASE_URL` points at the proxy on 127.0.0.1 \
         ({} connections opened through it); {CLIENTS} clients, each with its own account and \
         API key, sending keyed writes for {:.0} s (the last finished their tries at {:.1} s), \
         up to {TRIES_DURING_LOAD} tries each; then the writes still unknown were tried again \
         with the proxy quiet for {:.1} s (at most {} s). Holds of {:.1}–{:.1} s.\n\n",
        f.wort_bin.display(),
        f.deadline_ms,
        f.connections,
        f.total.as_secs_f64(),
        f.load_took.as_secs_f64(),
        f.settle_took.as_secs_f64(),
        SETTLE_FOR.as_secs(),
        shortest.as_secs_f64(),
        longest.as_secs_f64(),
    ));

    r.push_str(
        "Holds (seconds from the start of the load; \"held\": connections that had bytes held, \
         \"cut\": of those, the ones wort closed while held, i.e. its deadline ran out):\n\n\
         | at | held | for | connections held | cut by wort | statements whose answers were \
         held |\n|---|---|---|---|---|---|\n",
    );
    for w in f.windows {
        let triggers = if w.triggers.is_empty() {
            "—".to_owned()
        } else {
            w.triggers
                .iter()
                .map(|t| format!("`{}`", t.replace('|', "\\|")))
                .collect::<Vec<_>>()
                .join("<br>")
        };
        r.push_str(&format!(
            "| {:.1} s | {} | {:.1} s | {} | {} | {triggers} |\n",
            w.at.as_secs_f64(),
            describe(w.kind),
            w.hold.as_secs_f64(),
            w.connections_held,
            w.cut_by_wort,
        ));
    }
    let held: usize = f.windows.iter().map(|w| w.connections_held).sum();
    let cut: usize = f.windows.iter().map(|w| w.cut_by_wort).sum();
    r.push_str(&format!(
        "\n{} windows; {held} connection holds, {cut} of them cut by wort's deadline.\n\n",
        f.windows.len()
    ));

    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    for t in f
        .writers
        .iter()
        .flat_map(|w| &w.writes)
        .flat_map(|w| &w.tries)
    {
        *statuses.entry(t.status).or_insert(0) += 1;
    }
    let tries: usize = statuses.values().sum();
    r.push_str(&format!(
        "Tries: {tries} in all: {}.\n\n",
        statuses
            .iter()
            .map(|(s, n)| format!("{} × {n}", status_name(*s)))
            .collect::<Vec<_>>()
            .join(", ")
    ));

    r.push_str(
        "| write | logical writes | acknowledged (replayed; after the load) | refused | \
         unknown after the load → after all tries | unknown: applied / not | missing | \
         applied twice |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (kind, tally) in &f.counted.kinds {
        let label = KINDS
            .iter()
            .find(|(k, _, _)| k == kind)
            .map_or("?", |(_, l, _)| *l);
        r.push_str(&format!(
            "| {label} | {} | {} ({}; {}) | {} | {} → {} | {} / {} | {} | **{}** |\n",
            tally.logical,
            tally.acked,
            tally.replayed,
            tally.acked_late,
            tally.refused,
            tally.unknown_after_load,
            tally.unknown,
            tally.unknown_applied,
            tally.unknown_not_applied,
            tally.missing,
            tally.doubled,
        ));
    }
    let sum = |field: fn(&super::check::Tally) -> usize| -> usize {
        f.counted.kinds.iter().map(|(_, t)| field(t)).sum()
    };
    r.push_str(&format!(
        "| all | {} | {} ({}; {}) | {} | {} → {} | {} / {} | {} | **{}** |\n",
        sum(|t| t.logical),
        sum(|t| t.acked),
        sum(|t| t.replayed),
        sum(|t| t.acked_late),
        sum(|t| t.refused),
        sum(|t| t.unknown_after_load),
        sum(|t| t.unknown),
        sum(|t| t.unknown_applied),
        sum(|t| t.unknown_not_applied),
        sum(|t| t.missing),
        sum(|t| t.doubled),
    ));
    r.push_str(
        "\nAn adjustment leaves only its item's amount: \"applied twice\" counts the amount \
         above acknowledged + unknown adjusts of the item, \"missing\" the acknowledged ones \
         above the amount; its unknown ones are split by the amount.\n",
    );
    let refused_applied = sum(|t| t.refused_applied);
    if refused_applied > 0 {
        r.push_str(&format!(
            "\n**{refused_applied} writes refused with a 4xx were applied all the same.**\n"
        ));
    }
    for (kind, tally) in &f.counted.kinds {
        if tally.examples.is_empty() {
            continue;
        }
        let label = KINDS
            .iter()
            .find(|(k, _, _)| k == kind)
            .map_or("?", |(_, l, _)| *l);
        r.push_str(&format!(
            "\n{label}, examples (tries: each try's status, ↺ replayed, — no answer):\n\n"
        ));
        for example in &tally.examples {
            r.push_str(&format!("- {example}\n"));
        }
    }

    r.push_str(&format!(
        "\nwort's memory: peak RSS {:.1} MiB (VmHWM). The run took {:.0} s from the cluster's \
         start to the count.\n",
        f.peak_kib as f64 / 1024.0,
        f.took.as_secs_f64()
    ));
    r.push_str(&log_summary(f.log, f.log_path));

    let missing = sum(|t| t.missing);
    let doubled = sum(|t| t.doubled);
    let verdict = match f.died {
        Some(why) => format!("FAIL: {why}"),
        None if missing > 0 || doubled > 0 || refused_applied > 0 => format!(
            "FAIL: {doubled} extra applications, {missing} acknowledged writes missing, \
             {refused_applied} refused writes applied"
        ),
        None => {
            "PASS: every write applied at most once, and every acknowledged one is there".to_owned()
        }
    };
    r.push_str(&format!("\n**Verdict: {verdict}.**\n"));
    r
}
