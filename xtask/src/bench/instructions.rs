//! `cargo xtask bench -- --instructions`: what one request costs wort, counted in instructions.
//!
//! Rates on a shared 2-core machine drift from one run to the next by more than a change worth
//! making (docs/benchmarks.md, "Reading the figures"). Valgrind's callgrind counts the
//! instructions a program executes; the count does not depend on what else the machine does, so
//! two builds compare exactly even on a busy one.
//!
//! For each endpoint, wort runs twice under callgrind on the seeded database: 20 warm-up
//! requests (the credential remembered, statements prepared), then N requests, one at a time on
//! one keep-alive connection, for N = 50 and N = 250. The difference of the two runs' totals,
//! divided by 200, is one request's cost: start-up, warm-up and shutdown are in both totals and
//! cancel out. The webhook delivery workers are off, because their poll every 100 ms would be
//! counted in proportion to the run's wall time, which valgrind stretches unevenly. Only wort's
//! own instructions are counted (its PostgreSQL client included, PostgreSQL's server not).

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use super::{Kind, Options, Target, Wort, label, load, machine, thousands};
use crate::process::wort_command_under;
use crate::target_dir;

/// Requests before the counted ones: the credential remembered, every statement prepared.
const WARM_UP: usize = 20;
/// The two run lengths whose difference is counted.
const FEW: usize = 50;
const MANY: usize = 250;
/// How long a response may take under valgrind (tens of times slower than natively).
const IO_TIMEOUT: Duration = Duration::from_secs(120);

/// `target/bench/instructions.md`.
pub fn results_file() -> PathBuf {
    target_dir().join("bench").join("instructions.md")
}

/// Where the callgrind files stay after the run, for `callgrind_annotate` (the profile of where
/// an endpoint's instructions go): `target/bench/callgrind/`.
fn profiles_dir() -> PathBuf {
    target_dir().join("bench").join("callgrind")
}

/// One endpoint's two totals.
struct Counted {
    label: String,
    few: u64,
    many: u64,
}

impl Counted {
    /// Instructions per request: the extra requests' share of the difference.
    fn per_request(&self) -> f64 {
        (self.many as f64 - self.few as f64) / (MANY - FEW) as f64
    }
}

/// Counts every endpoint `--only` leaves (the hello baseline included; the light account's
/// twins left out: they run the same code on fewer rows); the report.
pub fn measure(
    options: &Options,
    wort_bin: &Path,
    work: &Path,
    database_url: &str,
    targets: &[Target],
) -> Result<String, String> {
    let profiles = profiles_dir();
    fs::create_dir_all(&profiles).map_err(|e| format!("{}: {e}", profiles.display()))?;
    let mut counted = Vec::new();
    for (i, target) in targets.iter().enumerate() {
        if matches!(target.kind, Kind::Light { .. }) || !options.wants(target) {
            continue;
        }
        let mut totals = [0u64; 2];
        for (total, n) in totals.iter_mut().zip([FEW, MANY]) {
            let out = profiles.join(format!("{i}-{}-{n}.out", file_name(&label(target))));
            *total = count(wort_bin, work, database_url, target, n, &out)?;
        }
        let [few, many] = totals;
        let counted_now = Counted {
            label: label(target),
            few,
            many,
        };
        eprintln!(
            "    {}: {:.0} instructions per request",
            counted_now.label,
            counted_now.per_request()
        );
        counted.push(counted_now);
    }
    Ok(report(wort_bin, &counted))
}

/// Runs wort under callgrind for `WARM_UP` + `n` requests of `target`; its instruction total.
fn count(
    wort_bin: &Path,
    work: &Path,
    database_url: &str,
    target: &Target,
    n: usize,
    out: &Path,
) -> Result<u64, String> {
    let launcher = [
        "valgrind".to_owned(),
        "--tool=callgrind".to_owned(),
        "--quiet".to_owned(),
        format!("--callgrind-out-file={}", out.display()),
    ];
    let command: Command = wort_command_under(&launcher, wort_bin, work, database_url);
    let log = work.join("wort-callgrind.log");
    let server = Wort::serve(
        command,
        1,
        &log,
        &[
            ("WORT_WEBHOOK_DELIVERY", "off"),
            ("WORT_MQTT_PUBLISH", "off"),
        ],
        Duration::from_secs(180),
    )?;
    let request = target.request.to_bytes(server.addr);
    let mut connection = load::Connection::with_timeout(server.addr, IO_TIMEOUT);
    for _ in 0..WARM_UP + n {
        let response = connection
            .send(&request)
            .map_err(|e| format!("{}: {e}", label(target)))?;
        if !(200..300).contains(&response.status) {
            return Err(format!(
                "{} answered {}: {}",
                label(target),
                response.status,
                String::from_utf8_lossy(&response.body)
            ));
        }
    }
    // Closed first, so that the server's graceful shutdown has no connection to wait for.
    drop(connection);
    server.process.stop_within(Duration::from_secs(120))?;
    let text = fs::read_to_string(out).map_err(|e| format!("{}: {e}", out.display()))?;
    total_of(&text).ok_or_else(|| format!("{}: no instruction total in it", out.display()))
}

/// The `totals:` (or, in older versions, `summary:`) line of a callgrind output file: the
/// instructions executed (the first event, `Ir`, callgrind's only one by default).
fn total_of(callgrind_out: &str) -> Option<u64> {
    callgrind_out
        .lines()
        .rev()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

fn report(wort_bin: &Path, counted: &[Counted]) -> String {
    let valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let mut out = format!(
        "## Instructions per request\n\n{}wort: {}; {valgrind} (callgrind).\n\n\
         Each endpoint: wort under callgrind, {WARM_UP} warm-up requests, then N requests one \
         at a time on one keep-alive connection; N = {FEW} and N = {MANY} in two runs; one \
         request = the difference of the totals / {}. Webhook delivery workers off. wort's own \
         instructions only (its PostgreSQL client included, PostgreSQL's server not). The \
         callgrind files are in {}: `callgrind_annotate <file>` says where the instructions \
         go.\n\n\
         | endpoint | instructions per request | total, N = {FEW} | total, N = {MANY} |\n\
         |---|---|---|---|\n",
        machine(),
        wort_bin.display(),
        MANY - FEW,
        profiles_dir().display()
    );
    for c in counted {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            c.label,
            // More requests never cost fewer instructions; 0 would say a run went wrong.
            thousands(c.per_request().round().max(0.0) as u64),
            thousands(c.few),
            thousands(c.many)
        ));
    }
    out
}

/// "GET /v1/recipes/{id}" → "get-v1-recipes-id": a label as part of a file name.
fn file_name(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn reads_the_total_of_a_callgrind_file() {
        let file = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 99\n\nfn=(1) main\n3 7\ntotals: 123456789\n";
        assert_eq!(total_of(file), Some(123_456_789));
        assert_eq!(total_of("events: Ir\nsummary: 42\n"), Some(42));
        assert_eq!(total_of("events: Ir\n"), None);
    }

    #[test]
    fn one_request_is_the_difference_shared_out() {
        let c = Counted {
            label: "x".into(),
            few: 1_000_000,
            many: 3_000_000,
        };
        assert_eq!(c.per_request(), 10_000.0);
    }

    #[test]
    fn labels_become_file_names() {
        assert_eq!(file_name("GET /v1/recipes/{id}"), "get-v1-recipes-id");
        assert_eq!(
            file_name("GET /v1/sessions/{id}/fermentation-logs (one day)"),
            "get-v1-sessions-id-fermentation-logs-one-day"
        );
    }
}
