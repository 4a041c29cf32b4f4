//! `cargo xtask soak`: faults under load. A fresh release `wort` on a private PostgreSQL
//! cluster serves mixed reads and writes from 32 clients (each with its own account and API key)
//! and AI calls from 2 more, for `--seconds N` (default 120), while the timeline below restarts
//! PostgreSQL (fast and immediate), stalls it (SIGSTOP to the postmaster and all its processes,
//! then SIGCONT), stops it for a while, and switches the fake AI provider
//! (`xtask/fuzz/fake_provider.py`) to refusing, hanging, streaming slowly and answering garbage.
//!
//! Every write answered 2xx is recorded with its id (fermentation readings, recipes) or counted
//! (inventory adjustments of +1); after the run, with the database back, each is read back through
//! the API. Reported: requests served, errors by status and connection errors, latency
//! percentiles (overall, per phase of the timeline, per endpoint), wort's peak RSS (VmHWM), and the
//! acknowledged writes missing afterwards. Exits non-zero only when an acknowledged write is
//! missing (or cannot be read back) or wort died: a 503 while the database is down is the
//! contract, not a failure.
//!
//! The cluster is durable (fsync and synchronous_commit on, unlike the throwaway clusters of the
//! tests): with `synchronous_commit = off` an immediate shutdown may lose commits PostgreSQL has
//! already acknowledged, and that would be PostgreSQL's loss, not wort's.
//!
//! Everything listens on 127.0.0.1 or a Unix socket; every wait is bounded.
//!
//! This file is the run and its timeline. [`faults`](mod@faults): the cluster and the faults injected into
//! it. [`processes`]: wort and the fake AI provider's switch. [`accounts`]: one account per
//! client. [`http`]: one-shot requests with timing. [`clients`]: the load. [`verify`](mod@verify): the
//! read-back. [`report`](mod@report): the report and its verdict. [`failover`]: `--failover`,
//! the primary of a replicated pair killed under load. [`delays`]: `--delays`, exactly once
//! while PostgreSQL's answers are held back past wort's deadline.

mod accounts;
mod clients;
mod delays;
mod failover;
mod faults;
mod http;
mod processes;
mod report;
mod verify;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::{step, target_dir};
use crate::fuzz::FakeProvider;
use crate::process::wort_migrate;

use accounts::Setup;
use clients::{AiRun, ClientRun, ai_client, ai_probe, client};
use faults::{Db, faults};
pub(super) use faults::{children, signal};
use processes::{start_wort, wait_ready};
use report::{Findings, report};
use verify::{Verified, verify};

const DIR_PREFIX: &str = "wort-soak-";
const DATABASE: &str = "wort";
const CLIENTS: usize = 32;
const AI_CLIENTS: usize = 2;
/// Each client's pause between two requests: about 1,600 req/s offered by 32 clients, roughly half
/// of what this machine serves for this mix, so that faults, not saturation, shape the latencies.
const THINK: Duration = Duration::from_millis(20);
const AI_PAUSE: Duration = Duration::from_millis(500);
const DEFAULT_SECONDS: u64 = 120;
const MIN_SECONDS: u64 = 30;
const MAX_SECONDS: u64 = 3600;
/// How long an AI call may take on our side: past wort's own 60 s provider timeout.
const AI_TIMEOUT: Duration = Duration::from_secs(90);
/// How long the fake provider hangs in `hang` mode: past wort's 60 s provider timeout.
const HANG_SECS: f64 = 75.0;
const PASSWORD: &str = "correct horse battery";
const VERIFY_THREADS: usize = 8;

const USAGE: &str = "usage: cargo xtask soak [-- --seconds N]

  --seconds N   how long the load and the faults run (default 120, at least 30); the AI calls
                still waiting on the hanging provider then get up to 60 s more, and the read-back
                of every acknowledged write follows

   or: cargo xtask soak --failover [--seconds N]   (`--failover --help` for more)
   or: cargo xtask soak --delays [--seconds N]     (`--delays --help` for more)";

pub fn run(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--delays") {
        let rest: Vec<String> = args.iter().filter(|a| *a != "--delays").cloned().collect();
        return delays::run(&rest);
    }
    if args.iter().any(|a| a == "--failover") {
        let rest: Vec<String> = args
            .iter()
            .filter(|a| *a != "--failover")
            .cloned()
            .collect();
        return failover::run(&rest);
    }
    let seconds = match parse(args) {
        Ok(seconds) => seconds,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let result = soak(seconds).map(|outcome| (outcome.report, outcome.failed));
    conclude("xtask soak", &target_dir().join("soak"), result)
}

/// One mode of the soak: its options read from `args` by `parse` (a usage error exits 2), then
/// `mode` run and concluded in `target/soak/<folder>`.
fn run_mode<O>(
    args: &[String],
    command: &str,
    folder: &str,
    parse: fn(&[String]) -> Result<O, String>,
    mode: fn(&O) -> Result<(String, bool), String>,
) -> ExitCode {
    let options = match parse(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let dir = target_dir().join("soak").join(folder);
    conclude(command, &dir, mode(&options))
}

/// Prints a run's report and keeps it as `report.md` in `dir`; the exit code from its verdict
/// (`Ok((report, failed))`), or its error.
fn conclude(command: &str, dir: &Path, result: Result<(String, bool), String>) -> ExitCode {
    match result {
        Ok((text, failed)) => {
            eprintln!("\n{text}");
            let file = dir.join("report.md");
            if fs::write(&file, &text).is_ok() {
                eprintln!("{command}: the report is in {}", file.display());
            }
            if failed {
                eprintln!("{command}: FAILED (see the verdict above)");
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("{command}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The number after an option, within `range`; else the usage.
fn number(
    value: Option<&String>,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
    usage: &str,
) -> Result<u64, String> {
    value
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "{name} needs {} to {}\n\n{usage}",
                range.start(),
                range.end()
            )
        })
}

/// The wort to run: `given` as it is (it must exist), else the release build, built first.
fn wort_binary(given: Option<&Path>) -> Result<PathBuf, String> {
    match given {
        None => super::build_release_wort(),
        Some(bin) if bin.exists() => Ok(bin.to_path_buf()),
        Some(bin) => Err(format!("{} does not exist: build it first", bin.display())),
    }
}

fn parse(args: &[String]) -> Result<u64, String> {
    let mut seconds = DEFAULT_SECONDS;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                seconds = number(args.next(), "--seconds", MIN_SECONDS..=MAX_SECONDS, USAGE)?;
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown option {other}\n\n{USAGE}")),
        }
    }
    Ok(seconds)
}

struct Outcome {
    report: String,
    failed: bool,
}

fn soak(seconds: u64) -> Result<Outcome, String> {
    let wort_bin = super::build_release_wort()?;
    let out = target_dir().join("soak");
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    step("postgres (durable: fsync and synchronous_commit on)");
    crate::cluster::sweep_orphans(DIR_PREFIX);
    let mut db = Db::start()?;
    let result = soak_on(&mut db, &wort_bin, &out, Duration::from_secs(seconds));
    if let Ok(pg) = db.running() {
        let _ = fs::copy(pg.log_file(), out.join("postgres.log"));
    }
    let finished = db.finish();
    result.and_then(|outcome| finished.map(|()| outcome))
}

fn soak_on(db: &mut Db, wort_bin: &Path, out: &Path, total: Duration) -> Result<Outcome, String> {
    let work = db.dir.join("soak");
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    wort_migrate(wort_bin, &work, &db.url)?;
    step("fake AI provider");
    let provider = FakeProvider::start(out, Path::new("python3"))?;
    step("wort serve (release, pool 16 = default)");
    let log = out.join("wort.log");
    let mut server = start_wort(wort_bin, &work, &db.url, provider.addr, &log)?;
    let addr = server.addr;

    step(&format!(
        "{CLIENTS} accounts with a recipe, a brew session and an inventory item; {AI_CLIENTS} \
         AI accounts"
    ));
    let setups = Setup::create_all(addr, CLIENTS + AI_CLIENTS)?;
    let (ai_setups, setups) = (
        setups.get(CLIENTS..).unwrap_or_default(),
        setups.get(..CLIENTS).unwrap_or_default(),
    );

    step(&format!(
        "load and faults for {} s (times from the start of the load)",
        total.as_secs()
    ));
    let started = Instant::now();
    let deadline = started + total;
    let stop = AtomicBool::new(false);
    let (clients, ai, timeline, died) = thread::scope(|scope| {
        let clients: Vec<_> = setups
            .iter()
            .enumerate()
            .map(|(i, setup)| {
                let stop = &stop;
                scope.spawn(move || client(addr, setup, i, started, deadline, stop))
            })
            .collect();
        let ai: Vec<_> = ai_setups
            .iter()
            .enumerate()
            .map(|(i, setup)| {
                let stop = &stop;
                scope.spawn(move || ai_client(addr, setup, i, started, deadline, stop))
            })
            .collect();
        let (timeline, died) = faults(db, &provider, &mut server, started, total);
        if died.is_some() {
            stop.store(true, Ordering::Relaxed);
        }
        let clients: Vec<ClientRun> = clients.into_iter().filter_map(|h| h.join().ok()).collect();
        let ai: Vec<AiRun> = ai.into_iter().filter_map(|h| h.join().ok()).collect();
        (clients, ai, timeline, died)
    });
    let load_took = started.elapsed();
    eprintln!("    load over after {:.1} s", load_took.as_secs_f64());
    let _ = provider.set_mode("ok", None);
    let ai_after = match ai_setups.first() {
        Some(setup) if died.is_none() => {
            step("AI after the faults: one analysis, one chat");
            ai_probe(addr, setup)
        }
        _ => "not tried".to_owned(),
    };

    step("read back every acknowledged write");
    let died = died.or_else(|| {
        server
            .process
            .exited()
            .map(|status| format!("wort exited ({status})"))
    });
    let verified = if died.is_none() {
        wait_ready(addr)?;
        Some(verify(addr, setups, &clients))
    } else {
        None
    };
    let peak_kib = server.peak_rss_kib().unwrap_or(0);
    let end_kib = server.rss_kib().unwrap_or(0);
    let died = died.or_else(|| {
        server
            .process
            .exited()
            .map(|status| format!("wort exited ({status})"))
    });
    let stopped = server.stop();
    let log_text = fs::read_to_string(&log).unwrap_or_default();
    let report = report(&Findings {
        total,
        load_took,
        timeline: &timeline,
        clients: &clients,
        ai: &ai,
        verified: verified.as_ref(),
        ai_after: &ai_after,
        peak_kib,
        end_kib,
        died: died.as_deref(),
        log: &log_text,
        log_path: &log,
    });
    stopped?;
    let failed = died.is_some() || verified.as_ref().is_none_or(Verified::failed);
    Ok(Outcome { report, failed })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn options() {
        assert_eq!(parse(&[]).unwrap(), DEFAULT_SECONDS);
        assert_eq!(parse(&["--seconds".into(), "45".into()]).unwrap(), 45);
        assert!(parse(&["--seconds".into(), "5".into()]).is_err());
        assert!(parse(&["--bogus".into()]).is_err());
    }
}
