//! `cargo xtask soak --failover`: the primary killed under load. A pg_auto_failover formation
//! (a monitor, a primary and a synchronous standby, see [`formation`]) serves one release `wort`
//! through the multi-host URL
//! `postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/wort?target_session_attrs=read-write`;
//! 16 of the soak's clients (mixed reads and writes, every acknowledged write recorded) load it
//! for `--seconds N` (default 75); a third of the way in, the primary's keeper, its PostgreSQL
//! server and every one of that server's processes get SIGKILL at once. pg_auto_failover's
//! monitor notices and promotes the standby; the same `wort` process, never restarted, must find
//! the new primary by itself. Afterwards every acknowledged write is read back.
//!
//! Reported: statuses, the window of 503s (first sent to last answered) and of errors of any
//! kind, the first success after the kill, when the standby began to accept writes, and the
//! acknowledged writes missing. Exits non-zero when one is missing or unreadable, when the
//! standby was never promoted, or when wort died.

mod formation;
mod report;

use std::fs;
use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::super::{step, target_dir};
use super::accounts::Setup;
use super::clients::{ClientRun, Sample, client};
use super::processes::{start_wort, wait_ready};
use super::verify::{Verified, verify};
use super::{number, run_mode, wort_binary};
use crate::bench::Wort;
use crate::process::wort_migrate;

use formation::{Formation, INSTALL, Role, tuning};
use report::{Findings, report};

const DATABASE: &str = "wort";
const CLIENTS: usize = 16;
const DEFAULT_SECONDS: u64 = 75;
/// With pg_auto_failover's own timings the failover alone takes about 50 s.
const DEFAULT_SECONDS_DEFAULT_TIMINGS: u64 = 150;
const MIN_SECONDS: u64 = 45;
const MAX_SECONDS: u64 = 600;
/// Nothing listens there: this run makes no AI call.
const NO_PROVIDER: &str = "127.0.0.1:9";

const USAGE: &str =
    "usage: cargo xtask soak --failover [--seconds N] [--default-timings] [--freeze]
                                  [--no-build]

  --failover    a pg_auto_failover formation (monitor, primary, synchronous standby) on
                127.0.0.1; 16 clients load one wort through a multi-host DATABASE_URL; the
                primary is killed (SIGKILL, keeper included) a third of the way in; every
                acknowledged write is read back afterwards. Needs pg_auto_failover:";
const OPTIONS_HELP: &str =
    "  --seconds N   how long the load runs (default 75, 45 to 600; 150 with --default-timings)
  --default-timings
                pg_auto_failover's own timings (unhealthy after 20 s, 30 s demote timeout)
                instead of the shortened ones (3 s, 5 s)
  --freeze      SIGSTOP the primary (keeper included) instead of killing it: it accepts TCP
                connections but answers nothing, as a hung machine or a lossy network does
  --no-build    use target/release/wort as it is instead of building it first";

fn usage() -> String {
    format!("{USAGE}\n                {INSTALL}\n{OPTIONS_HELP}")
}

#[derive(Debug, PartialEq)]
struct Options {
    seconds: u64,
    build: bool,
    default_timings: bool,
    freeze: bool,
}

/// `args` without `--failover`.
pub(super) fn run(args: &[String]) -> ExitCode {
    run_mode(args, "xtask soak --failover", "failover", parse, failover)
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        seconds: 0,
        build: true,
        default_timings: false,
        freeze: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                let range = MIN_SECONDS..=MAX_SECONDS;
                options.seconds = number(args.next(), "--seconds", range, &usage())?;
            }
            "--no-build" => options.build = false,
            "--default-timings" => options.default_timings = true,
            "--freeze" => options.freeze = true,
            "-h" | "--help" => return Err(usage()),
            other => return Err(format!("unknown option {other}\n\n{}", usage())),
        }
    }
    if options.seconds == 0 {
        options.seconds = if options.default_timings {
            DEFAULT_SECONDS_DEFAULT_TIMINGS
        } else {
            DEFAULT_SECONDS
        };
    }
    Ok(options)
}

fn failover(options: &Options) -> Result<(String, bool), String> {
    let release = target_dir().join("release").join("wort");
    let wort_bin = wort_binary((!options.build).then_some(release.as_path()))?;
    let out = target_dir().join("soak").join("failover");
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    step("pg_auto_failover: monitor, primary, synchronous standby (127.0.0.1, free ports)");
    let began = Instant::now();
    let mut formation = Formation::start(&out, DATABASE, !options.default_timings)?;
    eprintln!(
        "    formation ready in {:.1} s",
        began.elapsed().as_secs_f64()
    );
    let result = run_on(&mut formation, &wort_bin, &out, options);
    let finished = formation.finish();
    result.and_then(|outcome| finished.map(|()| outcome))
}

fn run_on(
    formation: &mut Formation,
    wort_bin: &Path,
    out: &Path,
    options: &Options,
) -> Result<(String, bool), String> {
    let total = Duration::from_secs(options.seconds);
    let url = formation.url(DATABASE);
    let (primary, standby) = match &formation.nodes {
        [a, b] => ((a.name, a.port), (b.name, b.port)),
    };
    if formation.role(primary.1) != Some(Role::Writable)
        || formation.role(standby.1) != Some(Role::Standby)
    {
        return Err(format!(
            "expected {} to be the primary and {} the standby",
            primary.0, standby.0
        ));
    }
    let sync_names = formation.synchronous_standby_names(primary.1)?;
    let work = out.join("work");
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    step(&format!("wort migrate, wort serve on {url}"));
    wort_migrate(wort_bin, &work, &url)?;
    let log = out.join("wort.log");
    let provider: SocketAddr = NO_PROVIDER
        .parse()
        .map_err(|e| format!("{NO_PROVIDER}: {e}"))?;
    let mut server = start_wort(wort_bin, &work, &url, provider, &log)?;
    let addr = server.addr;
    let wort_pid = server.process.id();

    step(&format!(
        "{CLIENTS} accounts with a recipe, a brew session and an inventory item"
    ));
    let setups = Setup::create_all(addr, CLIENTS)?;

    let kill_after = total / 3;
    step(&format!(
        "load for {} s; {} {} at {} s (times from the start of the load)",
        total.as_secs(),
        primary.0,
        if options.freeze { "frozen" } else { "killed" },
        kill_after.as_secs()
    ));
    let started = Instant::now();
    let deadline = started + total;
    let stop = AtomicBool::new(false);
    let (clients, timeline) = thread::scope(|scope| {
        let clients: Vec<_> = setups
            .iter()
            .enumerate()
            .map(|(i, setup)| {
                let stop = &stop;
                scope.spawn(move || client(addr, setup, i, started, deadline, stop))
            })
            .collect();
        let timeline = kill_and_watch(
            formation,
            &mut server,
            started,
            kill_after,
            deadline,
            options.freeze,
        );
        if timeline.died.is_some() || timeline.kill.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        let clients: Vec<ClientRun> = clients.into_iter().filter_map(|h| h.join().ok()).collect();
        (clients, timeline)
    });
    eprintln!(
        "    load over after {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let killed = timeline.kill.clone()?;
    if options.freeze {
        step("SIGKILL to the frozen node1 (continuing it would bring back a second primary)");
        formation.kill_frozen();
    }

    step("read back every acknowledged write (same wort process)");
    let died = timeline.died.clone().or_else(|| exited(&mut server));
    let verified = match died {
        None => {
            wait_ready(addr)?;
            Some(verify(addr, &setups, &clients))
        }
        Some(_) => None,
    };
    let died = died.or_else(|| exited(&mut server));
    let same_process = server.process.id() == wort_pid && died.is_none();
    let stopped = server.stop();

    let samples: Vec<Sample> = clients
        .iter()
        .flat_map(|c| c.samples.iter().copied())
        .collect();
    let setup = vec![
        format!(
            "pg_auto_failover {}: monitor and two nodes (PostgreSQL 15) on 127.0.0.1, \
             `synchronous_standby_names = '{sync_names}'`, `synchronous_commit = on`",
            pg_autoctl_version()
        ),
        if options.default_timings {
            "pg_auto_failover's default timings".to_owned()
        } else {
            format!(
                "monitor timings: {}; nodes: `timeout.network_partition_timeout = 3` \
                 (default 20 s)",
                tuning().join(", ")
            )
        },
        format!(
            "`DATABASE_URL=postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/wort?target_session_attrs=read-write` \
             ({} first)",
            primary.0
        ),
        format!(
            "one release wort, pool 16 (the default), `WORT_DB_DEADLINE_MS` default (5 s); \
             {CLIENTS} soak clients (58 % reads, 42 % writes, 20 ms pause), each with its own \
             API key"
        ),
        format!(
            "wort process: {} throughout",
            if same_process {
                "the same"
            } else {
                "NOT the same"
            }
        ),
    ];
    let text = report(&Findings {
        setup: &setup,
        total_s: total.as_secs_f64(),
        kill_ms: timeline.kill_ms,
        killed: &killed,
        promoted_ms: timeline.promoted_ms,
        writable_ms: timeline.writable_ms,
        timeline: &timeline.events,
        samples: &samples,
        verified: verified.as_ref(),
        died: died.as_deref(),
    });
    stopped?;
    let failed = died.is_some()
        || timeline.writable_ms.is_none()
        || verified.as_ref().is_none_or(Verified::failed);
    Ok((text, failed))
}

fn exited(server: &mut Wort) -> Option<String> {
    server
        .process
        .exited()
        .map(|status| format!("wort exited ({status})"))
}

/// What happened to the formation, in milliseconds from the start of the load.
struct Timeline {
    kill_ms: u32,
    kill: Result<String, String>,
    /// node2 out of recovery, then accepting writes.
    promoted_ms: Option<u32>,
    writable_ms: Option<u32>,
    events: Vec<(u32, String)>,
    died: Option<String>,
}

fn millis(started: Instant) -> u32 {
    u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX)
}

/// Waits for `kill_after`, kills the primary, then watches the monitor's view of the nodes and
/// the standby's `pg_is_in_recovery()` until `deadline`.
fn kill_and_watch(
    formation: &mut Formation,
    server: &mut Wort,
    started: Instant,
    kill_after: Duration,
    deadline: Instant,
    freeze: bool,
) -> Timeline {
    let mut timeline = Timeline {
        kill_ms: 0,
        kill: Err("not killed".to_owned()),
        promoted_ms: None,
        writable_ms: None,
        events: Vec::new(),
        died: None,
    };
    while started.elapsed() < kill_after {
        if let Some(why) = exited(server) {
            timeline.died = Some(why);
            return timeline;
        }
        thread::sleep(Duration::from_millis(50));
    }
    let standby_port = formation.nodes.get(1).map_or(0, |n| n.port);
    let mut kill_ms = millis(started);
    timeline.kill = if freeze {
        formation
            .freeze_node(0, || kill_ms = millis(started))
            .map(|n| format!("SIGSTOP to node1's keeper and PostgreSQL, {n} processes"))
    } else {
        formation
            .kill_node(0, || kill_ms = millis(started))
            .map(|n| format!("SIGKILL to node1's keeper and PostgreSQL, {n} processes"))
    };
    timeline.kill_ms = kill_ms;
    let what = match &timeline.kill {
        Ok(what) => what.clone(),
        Err(e) => format!("the kill failed: {e}"),
    };
    eprintln!("    {:6.1} s  {what}", f64::from(timeline.kill_ms) / 1000.0);
    timeline.events.push((timeline.kill_ms, what));
    if timeline.kill.is_err() {
        return timeline;
    }
    let mut last_states = String::new();
    while Instant::now() < deadline {
        if let Some(why) = exited(server) {
            timeline.died = Some(why);
            break;
        }
        let states = formation.states().map_or_else(
            |e| format!("monitor unreachable: {e}"),
            |s| {
                s.iter()
                    .map(|(name, reported, goal)| format!("{name} {reported} → {goal}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        );
        if states != last_states {
            let at = millis(started);
            eprintln!("    {:6.1} s  monitor: {states}", f64::from(at) / 1000.0);
            timeline.events.push((at, format!("monitor: {states}")));
            last_states = states;
        }
        if timeline.writable_ms.is_none() {
            let role = formation.role(standby_port);
            let at = millis(started);
            let mut note = |what: &str| {
                eprintln!("    {:6.1} s  node2 {what}", f64::from(at) / 1000.0);
                timeline.events.push((at, format!("node2 {what}")));
            };
            if timeline.promoted_ms.is_none()
                && matches!(role, Some(Role::ReadOnly | Role::Writable))
            {
                note("out of recovery (`pg_is_in_recovery()` false)");
                timeline.promoted_ms = Some(at);
            }
            if role == Some(Role::Writable) {
                note("accepts writes (`transaction_read_only` off)");
                timeline.writable_ms = Some(at);
            }
        }
        thread::sleep(Duration::from_millis(100));
    }
    timeline
}

fn pg_autoctl_version() -> String {
    std::process::Command::new("pg_autoctl")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .and_then(|l| l.split_whitespace().last())
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "(version unknown)".to_owned())
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
                build: true,
                default_timings: false,
                freeze: false
            }
        );
        let given = parse(&["--seconds".into(), "60".into(), "--no-build".into()]).unwrap();
        assert_eq!(
            given,
            Options {
                seconds: 60,
                build: false,
                default_timings: false,
                freeze: false
            }
        );
        let stock = parse(&["--default-timings".into()]).unwrap();
        assert_eq!(stock.seconds, DEFAULT_SECONDS_DEFAULT_TIMINGS);
        assert!(parse(&["--seconds".into(), "10".into()]).is_err());
        assert!(parse(&["--other".into()]).is_err());
    }
}
