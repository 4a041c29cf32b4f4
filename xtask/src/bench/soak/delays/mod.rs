//! `cargo xtask soak --delays`: exactly once under delayed answers. A release `wort` reaches
//! its private PostgreSQL cluster through a [`proxy`] on 127.0.0.1 that, on a schedule, holds
//! back PostgreSQL's answers (and now and then wort's requests) for longer than wort's database
//! deadline (`WORT_DB_DEADLINE_MS`, 1 s here): a write can then be durable in PostgreSQL while
//! wort gives up on it and answers `503`. 16 [`writers`] send keyed writes (each logical write a
//! fresh `Idempotency-Key`, retried with the same key and body until a definite answer), and
//! afterwards [`check`] counts in PostgreSQL itself how many times each write was applied:
//! acknowledged and missing, applied more than once, outcome unknown. Exits non-zero when a write
//! is missing or applied twice, or wort died.
//!
//! [`pgwire`]: how the proxy tells a commit point in the protocol. [`report`](mod@report): the
//! report and its verdict.

mod check;
mod pgwire;
mod proxy;
mod report;
mod writers;

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::super::{step, target_dir};
use super::accounts::Setup;
use super::clients::Rng;
use super::faults::Db;
use super::processes::start_wort_with;
use super::{DIR_PREFIX, number, run_mode, wort_binary};
use crate::bench::Wort;
use crate::process::wort_migrate;

use check::count;
use proxy::{Proxy, Window, WindowKind};
use report::{Findings, report};
use writers::{Writer, settle, writer};

const DATABASE: &str = "wort";
const CLIENTS: usize = 16;
const DEFAULT_SECONDS: u64 = 60;
const MIN_SECONDS: u64 = 20;
const MAX_SECONDS: u64 = 600;
const DEFAULT_DEADLINE_MS: u64 = 1000;
const MIN_DEADLINE_MS: u64 = 200;
const MAX_DEADLINE_MS: u64 = 10_000;
/// Nothing listens there: this run makes no AI call.
const NO_PROVIDER: &str = "127.0.0.1:9";
/// How long the writes still unknown after the load are tried again: past wort's 120 s after
/// which a reservation without an answer counts as abandoned.
const SETTLE_FOR: Duration = Duration::from_secs(140);
/// The pause between two windows, at least (a random 0–2 s more).
const GAP: Duration = Duration::from_secs(2);
/// The longest hold (unless the deadline asks for more).
const LONGEST_HOLD: Duration = Duration::from_secs(4);
/// The order the windows come in: most catch a commit point, the others stall everything.
const CYCLE: [Cycle; 6] = [
    Cycle::AfterCommit,
    Cycle::AfterCommit,
    Cycle::AllAnswers,
    Cycle::AfterCommit,
    Cycle::AfterCommit,
    Cycle::AllRequests,
];
/// A commit-point window is armed this long and catches up to this many connections.
const ARM_FOR: Duration = Duration::from_secs(1);
const CATCH: u32 = 2;

#[derive(Clone, Copy)]
enum Cycle {
    AfterCommit,
    AllAnswers,
    AllRequests,
}

const USAGE: &str = "usage: cargo xtask soak --delays [--seconds N] [--deadline-ms M]
                                [--no-build | --wort PATH]

  --delays      exactly once under delayed answers: wort reaches PostgreSQL through a proxy on
                127.0.0.1 that holds back PostgreSQL's answers (after a COMMIT or an autocommit
                write, or all of them) and now and then wort's requests, for longer than wort's
                database deadline; 16 clients send keyed writes (readings, inventory +1, recipes,
                hops), each retried with its Idempotency-Key until a definite answer; afterwards
                PostgreSQL is asked how many times each write was applied
  --seconds N   how long the writes and holds run (default 60, 20 to 600); writes still unknown
                are then tried again for up to 140 s with the proxy quiet
  --deadline-ms M
                wort's WORT_DB_DEADLINE_MS (default 1000, 200 to 10000); holds last from M + 500
                ms to max(4000, M + 1500) ms
  --no-build    use target/release/wort as it is instead of building it first
  --wort PATH   use that wort binary as it is (another build to compare with)";

#[derive(Debug, PartialEq)]
struct Options {
    seconds: u64,
    deadline_ms: u64,
    /// `None`: build the release wort first.
    wort: Option<PathBuf>,
}

/// `args` without `--delays`.
pub(super) fn run(args: &[String]) -> ExitCode {
    run_mode(args, "xtask soak --delays", "delays", parse, delays)
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        seconds: DEFAULT_SECONDS,
        deadline_ms: DEFAULT_DEADLINE_MS,
        wort: None,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                let range = MIN_SECONDS..=MAX_SECONDS;
                options.seconds = number(args.next(), "--seconds", range, USAGE)?;
            }
            "--deadline-ms" => {
                let range = MIN_DEADLINE_MS..=MAX_DEADLINE_MS;
                options.deadline_ms = number(args.next(), "--deadline-ms", range, USAGE)?;
            }
            "--no-build" => options.wort = Some(target_dir().join("release").join("wort")),
            "--wort" => {
                let path = args
                    .next()
                    .ok_or_else(|| format!("--wort needs a path\n\n{USAGE}"))?;
                options.wort = Some(PathBuf::from(path));
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown option {other}\n\n{USAGE}")),
        }
    }
    Ok(options)
}

/// The shortest and longest hold for a deadline: always past it, so wort gives up first.
fn hold_range(deadline: Duration) -> (Duration, Duration) {
    let shortest = deadline + Duration::from_millis(500);
    let longest = LONGEST_HOLD.max(deadline + Duration::from_millis(1500));
    (shortest, longest)
}

fn delays(options: &Options) -> Result<(String, bool), String> {
    let wort_bin = wort_binary(options.wort.as_deref())?;
    let out = target_dir().join("soak").join("delays");
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    step("postgres (durable: fsync and synchronous_commit on)");
    let began = Instant::now();
    crate::cluster::sweep_orphans(DIR_PREFIX);
    let mut db = Db::start()?;
    let result = run_on(&mut db, &wort_bin, &out, options, began);
    if let Ok(pg) = db.running() {
        let _ = fs::copy(pg.log_file(), out.join("postgres.log"));
    }
    let finished = db.finish();
    result.and_then(|outcome| finished.map(|()| outcome))
}

fn run_on(
    db: &mut Db,
    wort_bin: &Path,
    out: &Path,
    options: &Options,
    began: Instant,
) -> Result<(String, bool), String> {
    let total = Duration::from_secs(options.seconds);
    let deadline_ms = Duration::from_millis(options.deadline_ms);
    let work = db.dir.join("delays");
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    wort_migrate(wort_bin, &work, &db.url)?;
    let pg = db.running()?;
    let socket = pg.socket_dir().join(format!(".s.PGSQL.{}", pg.port()));
    let proxy = Proxy::start(socket)?;
    let url = format!("postgres://postgres@{}/{DATABASE}", proxy.addr);
    step(&format!(
        "wort serve (release, pool 16) on {url} (the proxy), WORT_DB_DEADLINE_MS={}",
        options.deadline_ms
    ));
    let log = out.join("wort.log");
    let provider: SocketAddr = NO_PROVIDER
        .parse()
        .map_err(|e| format!("{NO_PROVIDER}: {e}"))?;
    let deadline_env = options.deadline_ms.to_string();
    let mut server = start_wort_with(
        wort_bin,
        &work,
        &url,
        provider,
        &log,
        &[("WORT_DB_DEADLINE_MS", &deadline_env)],
    )?;
    let addr = server.addr;

    step(&format!(
        "{CLIENTS} accounts with a recipe, a brew session and an inventory item"
    ));
    let setups = Setup::create_all(addr, CLIENTS)?;

    let (shortest, longest) = hold_range(deadline_ms);
    step(&format!(
        "keyed writes and holds ({:.1}–{:.1} s) for {} s (times from the start of the load)",
        shortest.as_secs_f64(),
        longest.as_secs_f64(),
        total.as_secs()
    ));
    let started = Instant::now();
    let deadline = started + total;
    let stop = AtomicBool::new(false);
    let (mut writers, died) = thread::scope(|scope| {
        let handles: Vec<_> = setups
            .iter()
            .enumerate()
            .map(|(i, setup)| {
                let stop = &stop;
                scope.spawn(move || writer(addr, setup, i, deadline, stop))
            })
            .collect();
        let died = holds(&proxy, &mut server, started, deadline, deadline_ms);
        if died.is_some() {
            stop.store(true, Ordering::Relaxed);
        }
        proxy.quiet();
        let writers: Vec<Writer> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
        (writers, died)
    });
    let load_took = started.elapsed();
    eprintln!("    writes over after {:.1} s", load_took.as_secs_f64());

    let unknown = |writers: &[Writer]| {
        writers
            .iter()
            .flat_map(|w| &w.writes)
            .filter(|w| w.outcome == writers::Outcome::Unknown)
            .count()
    };
    let unknown_after_load = unknown(&writers);
    let settle_began = Instant::now();
    if unknown_after_load > 0 && died.is_none() {
        step(&format!(
            "{unknown_after_load} writes without a definite answer: tried again with the proxy \
             quiet, for up to {} s",
            SETTLE_FOR.as_secs()
        ));
        // Let the last holds run out first.
        thread::sleep(longest);
        settle(addr, &mut writers, Instant::now() + SETTLE_FOR);
        eprintln!(
            "    {} still unknown after {:.1} s",
            unknown(&writers),
            settle_began.elapsed().as_secs_f64()
        );
    }
    let settle_took = settle_began.elapsed();

    step("count every write in PostgreSQL (psql on the cluster's socket, not through the proxy)");
    let counted = count(db.running()?, &setups, &writers);
    let died = died.or_else(|| exited(&mut server));
    let peak_kib = server.peak_rss_kib().unwrap_or(0);
    let stopped = server.stop();
    let windows: Vec<Window> = proxy.windows();
    let connections = proxy.connections_opened();
    proxy.stop();
    let log_text = fs::read_to_string(&log).unwrap_or_default();
    let counted = counted?;
    let text = report(&Findings {
        wort_bin,
        total,
        deadline_ms: options.deadline_ms,
        hold_range: (shortest, longest),
        load_took,
        settle_took,
        windows: &windows,
        connections,
        writers: &writers,
        counted: &counted,
        peak_kib,
        took: began.elapsed(),
        died: died.as_deref(),
        log: &log_text,
        log_path: &log,
    });
    stopped?;
    let failed = died.is_some() || counted.failed();
    Ok((text, failed))
}

fn exited(server: &mut Wort) -> Option<String> {
    server
        .process
        .exited()
        .map(|status| format!("wort exited ({status})"))
}

/// The schedule: a window every few seconds, in the order of [`CYCLE`], each hold a random
/// length between the shortest and longest for the deadline; windows never overlap. Stops at
/// `deadline`, or early when wort dies (the reason is returned).
fn holds(
    proxy: &Proxy,
    server: &mut Wort,
    started: Instant,
    deadline: Instant,
    db_deadline: Duration,
) -> Option<String> {
    let (shortest, longest) = hold_range(db_deadline);
    let spread = u64::try_from((longest - shortest).as_millis()).unwrap_or(0) / 100 + 1;
    let mut rng = Rng(0x6A09_E667_F3BC_C909);
    let mut next = started + GAP;
    for turn in 0.. {
        while Instant::now() < next {
            if let Some(why) = exited(server) {
                eprintln!("    {:6.1} s  {why}", started.elapsed().as_secs_f64());
                return Some(why);
            }
            thread::sleep(Duration::from_millis(20));
        }
        let hold = shortest + Duration::from_millis(100 * (rng.next() % spread));
        if Instant::now() + hold > deadline {
            break;
        }
        let kind = match CYCLE.get(turn % CYCLE.len()) {
            Some(Cycle::AllAnswers) => WindowKind::AllAnswers,
            Some(Cycle::AllRequests) => WindowKind::AllRequests,
            _ => WindowKind::AfterCommit {
                arm: ARM_FOR,
                connections: CATCH,
            },
        };
        proxy.open(kind, hold, started);
        eprintln!(
            "    {:6.1} s  hold {:.1} s: {}",
            started.elapsed().as_secs_f64(),
            hold.as_secs_f64(),
            report::describe(kind)
        );
        let gap = GAP + Duration::from_millis(rng.next() % 2000);
        next = Instant::now() + hold + gap;
    }
    exited(server)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn options() {
        assert_eq!(
            parse(&[]).unwrap(),
            Options {
                seconds: DEFAULT_SECONDS,
                deadline_ms: DEFAULT_DEADLINE_MS,
                wort: None
            }
        );
        let given = parse(&[
            "--seconds".into(),
            "30".into(),
            "--deadline-ms".into(),
            "1500".into(),
            "--wort".into(),
            "/tmp/wort".into(),
        ])
        .unwrap();
        assert_eq!(
            given,
            Options {
                seconds: 30,
                deadline_ms: 1500,
                wort: Some(PathBuf::from("/tmp/wort"))
            }
        );
        assert!(parse(&["--wort".into()]).is_err());
        assert!(parse(&["--seconds".into(), "5".into()]).is_err());
        assert!(parse(&["--deadline-ms".into(), "50".into()]).is_err());
        assert!(parse(&["--other".into()]).is_err());
    }

    #[test]
    fn every_hold_outlasts_the_deadline() {
        for ms in [MIN_DEADLINE_MS, DEFAULT_DEADLINE_MS, 2000, MAX_DEADLINE_MS] {
            let deadline = Duration::from_millis(ms);
            let (shortest, longest) = hold_range(deadline);
            assert!(shortest > deadline);
            assert!(longest >= shortest);
        }
    }
}
