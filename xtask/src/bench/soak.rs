//! `cargo xtask soak`: faults under load (issue 17). A fresh release `wort` on a private
//! PostgreSQL cluster serves mixed reads and writes from 32 clients (each with its own account and
//! API key) and AI calls from 2 more, for `--seconds N` (default 120), while the timeline below
//! restarts PostgreSQL (fast and immediate), stalls it (SIGSTOP to the postmaster and all its
//! processes, then SIGCONT), stops it for a while, and switches the fake AI provider
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

use std::collections::BTreeMap;
use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use wort_pgcluster::{Cluster, ClusterOptions, RunningCluster};

use super::load::{Connection, Request, percentile};
use super::{Wort, step, target_dir};
use crate::fuzz::FakeProvider;
use crate::process::{Process, free_local_addr, wait_until_ready, wort_command, wort_migrate};

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
                of every acknowledged write follows";

pub fn run(args: &[String]) -> ExitCode {
    let seconds = match parse(args) {
        Ok(seconds) => seconds,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match soak(seconds) {
        Ok(outcome) => {
            eprintln!("\n{}", outcome.report);
            let file = target_dir().join("soak").join("report.md");
            if fs::write(&file, &outcome.report).is_ok() {
                eprintln!("xtask soak: the report is in {}", file.display());
            }
            if outcome.failed {
                eprintln!("xtask soak: FAILED (see the verdict above)");
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("xtask soak: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse(args: &[String]) -> Result<u64, String> {
    let mut seconds = DEFAULT_SECONDS;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                seconds = args
                    .next()
                    .and_then(|v| v.parse::<u64>().ok())
                    .filter(|n| (MIN_SECONDS..=MAX_SECONDS).contains(n))
                    .ok_or_else(|| {
                        format!("--seconds needs {MIN_SECONDS} to {MAX_SECONDS}\n\n{USAGE}")
                    })?;
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
    let setups = thread::scope(|scope| {
        let handles: Vec<_> = (0..CLIENTS + AI_CLIENTS)
            .map(|i| scope.spawn(move || Setup::create(addr, i)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().map_err(|_| "a setup thread panicked".to_owned())?)
            .collect::<Result<Vec<_>, String>>()
    })?;
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
    let end_kib = rss_kib(&server).unwrap_or(0);
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

// ---- The cluster and its faults ----------------------------------------------------------------

const PG_OPTIONS: ClusterOptions = ClusterOptions {
    ephemeral: false,
    max_connections: Some(100),
};

/// This run's cluster in `$TMPDIR/wort-soak-<pid>-<nanos>`, stopped and deleted however the run
/// ends. Unlike `TestCluster` it can be stopped and started again.
struct Db {
    dir: PathBuf,
    cluster: Option<RunningCluster>,
    url: String,
}

impl Db {
    fn start() -> Result<Db, String> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("{DIR_PREFIX}{}-{nanos}", std::process::id()));
        let mut db = Db {
            dir,
            cluster: None,
            url: String::new(),
        };
        db.up()?;
        let pg = db.running()?;
        pg.create_database(DATABASE).map_err(|e| e.to_string())?;
        db.url = pg.database_url(DATABASE);
        Ok(db)
    }

    fn running(&self) -> Result<&RunningCluster, String> {
        self.cluster
            .as_ref()
            .ok_or_else(|| "the cluster is stopped".to_owned())
    }

    /// Starts the server (after a crash: with recovery; `Cluster::start` waits for it).
    fn up(&mut self) -> Result<(), String> {
        if self.cluster.is_none() {
            self.cluster = Some(Cluster::start(&self.dir, PG_OPTIONS).map_err(|e| e.to_string())?);
        }
        Ok(())
    }

    /// `pg_ctl stop -m fast`: open transactions are rolled back, backends end, a checkpoint.
    fn down_fast(&mut self) -> Result<(), String> {
        match self.cluster.take() {
            Some(pg) => pg.stop().map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }

    /// `pg_ctl stop -m immediate`: SIGQUIT to the postmaster, no checkpoint; the next start
    /// recovers from the WAL.
    fn down_immediate(&mut self) -> Result<(), String> {
        let pid = self.postmaster_pid()?;
        signal("QUIT", &[pid])?;
        let gone_by = Instant::now() + Duration::from_secs(30);
        while Path::new(&format!("/proc/{pid}")).exists() {
            if Instant::now() > gone_by {
                return Err(format!("the postmaster ({pid}) did not exit within 30 s"));
            }
            thread::sleep(Duration::from_millis(20));
        }
        // Its server is gone: nothing left for the handle to stop.
        std::mem::forget(self.cluster.take());
        Ok(())
    }

    /// SIGSTOP to the postmaster and every process it started (backends, checkpointer, WAL
    /// writer…), SIGCONT after `pause`: the server is there but answers nothing.
    fn stall(&self, pause: Duration) -> Result<usize, String> {
        let postmaster = self.postmaster_pid()?;
        let mut pids = vec![postmaster];
        pids.extend(children(postmaster));
        // kill fails when one of them has just exited, but signals the others: continue them
        // whatever it says.
        let stopped = signal("STOP", &pids);
        thread::sleep(pause);
        let continued = signal("CONT", &pids);
        stopped.and(continued).map(|()| pids.len())
    }

    fn postmaster_pid(&self) -> Result<u32, String> {
        let file = self.running()?.data_dir().join("postmaster.pid");
        fs::read_to_string(&file)
            .map_err(|e| format!("{}: {e}", file.display()))?
            .lines()
            .next()
            .and_then(|l| l.trim().parse().ok())
            .ok_or_else(|| format!("{}: no pid", file.display()))
    }

    fn finish(mut self) -> Result<(), String> {
        let stopped = self.down_fast();
        let removed = match fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() != ErrorKind::NotFound => {
                Err(format!("could not remove {}: {e}", self.dir.display()))
            }
            _ => Ok(()),
        };
        stopped.and(removed)
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        drop(self.cluster.take());
        let _ = fs::remove_dir_all(&self.dir);
    }
}

pub(super) fn signal(name: &str, pids: &[u32]) -> Result<(), String> {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .args(pids.iter().map(u32::to_string))
        .status()
        .map_err(|e| format!("could not run kill: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("kill -{name} {pids:?} failed ({status})"))
    }
}

/// The processes whose parent is `parent` (from `/proc/<pid>/stat`).
pub(super) fn children(parent: u32) -> Vec<u32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| {
                    // "pid (comm) state ppid …"; comm may hold spaces and parentheses.
                    let after = stat.get(stat.rfind(')')? + 1..)?;
                    after.split_whitespace().nth(1)?.parse::<u32>().ok()
                })
                == Some(parent)
        })
        .collect()
}

/// One step of the timeline.
#[derive(Clone, Copy, Debug)]
enum Fault {
    RestartFast,
    RestartImmediate,
    Stall(Duration),
    Outage(Duration),
    Provider(&'static str, Option<f64>),
}

/// The faults, at fractions of the run (so `--seconds` scales them).
fn schedule(total: Duration) -> Vec<(Duration, Fault)> {
    let secs = total.as_secs_f64();
    let at = |fraction: f64| Duration::from_secs_f64(secs * fraction);
    let stall = Duration::from_secs_f64((secs * 0.05).clamp(2.0, 6.0));
    let outage = Duration::from_secs_f64((secs * 0.085).clamp(3.0, 10.0));
    vec![
        (at(0.10), Fault::RestartFast),
        (at(0.15), Fault::Provider("error", None)),
        (at(0.25), Fault::RestartImmediate),
        (at(0.30), Fault::Provider("slow", Some(2.0))),
        (at(0.40), Fault::Stall(stall)),
        (at(0.45), Fault::Provider("broken", None)),
        (at(0.55), Fault::Outage(outage)),
        (at(0.60), Fault::Provider("hang", Some(HANG_SECS))),
        (at(0.75), Fault::Provider("ok", None)),
        (at(0.80), Fault::RestartImmediate),
    ]
}

impl Fault {
    fn describe(self) -> String {
        match self {
            Fault::RestartFast => "PostgreSQL restart, fast (pg_ctl stop -m fast, start)".into(),
            Fault::RestartImmediate => {
                "PostgreSQL restart, immediate (SIGQUIT to the postmaster, start with crash \
                 recovery)"
                    .into()
            }
            Fault::Stall(d) => format!(
                "PostgreSQL stalled {:.0} s (SIGSTOP postmaster and all its processes, then \
                 SIGCONT)",
                d.as_secs_f64()
            ),
            Fault::Outage(d) => format!(
                "PostgreSQL stopped (fast) for {:.0} s, then started",
                d.as_secs_f64()
            ),
            Fault::Provider("error", _) => {
                "AI provider: refuses every call (500, 429, 503 in turn)".into()
            }
            Fault::Provider("slow", s) => format!(
                "AI provider: slow ({:.0} s before the headers and between streamed events)",
                s.unwrap_or(0.0)
            ),
            Fault::Provider("broken", _) => {
                "AI provider: broken answers (200 with a truncated body or stream)".into()
            }
            Fault::Provider("hang", s) => format!(
                "AI provider: hangs {:.0} s before answering (wort's timeout is 60 s)",
                s.unwrap_or(0.0)
            ),
            Fault::Provider(mode, _) => format!("AI provider: {mode}"),
        }
    }
}

/// One line of the timeline: when a fault began, how long it took, what it was.
struct Mark {
    at: Duration,
    took: Duration,
    what: String,
    /// A database fault (a phase boundary of the report); provider modes are listed only.
    database: bool,
}

/// Runs the timeline; stops early when wort dies (the reason is the second value).
fn faults(
    db: &mut Db,
    provider: &FakeProvider,
    server: &mut Wort,
    started: Instant,
    total: Duration,
) -> (Vec<Mark>, Option<String>) {
    let mut marks = Vec::new();
    let elapsed = |started: Instant| started.elapsed().as_secs_f64();
    for (at, fault) in schedule(total)
        .into_iter()
        .chain([(total, Fault::Provider("end", None))])
    {
        while started.elapsed() < at {
            if let Some(status) = server.process.exited() {
                let why = format!("wort exited ({status}) at {:.1} s", elapsed(started));
                eprintln!("    {:6.1} s  {why}", elapsed(started));
                return (marks, Some(why));
            }
            thread::sleep(Duration::from_millis(50).min(at.saturating_sub(started.elapsed())));
        }
        if let Fault::Provider("end", _) = fault {
            break;
        }
        let began = started.elapsed();
        let what = fault.describe();
        eprintln!("    {:6.1} s  {what}", began.as_secs_f64());
        let result = match fault {
            Fault::RestartFast => db.down_fast().and_then(|()| db.up()).map(|()| None),
            Fault::RestartImmediate => db.down_immediate().and_then(|()| db.up()).map(|()| None),
            Fault::Stall(pause) => db
                .stall(pause)
                .map(|n| Some(format!("{n} processes stopped and continued"))),
            Fault::Outage(pause) => db.down_fast().and_then(|()| {
                eprintln!("    {:6.1} s  PostgreSQL is down", elapsed(started));
                thread::sleep(pause);
                eprintln!("    {:6.1} s  starting PostgreSQL", elapsed(started));
                db.up().map(|()| None)
            }),
            Fault::Provider(mode, seconds) => provider.set_mode(mode, seconds).map(|()| None),
        };
        let took = started.elapsed().saturating_sub(began);
        match result {
            Ok(note) => eprintln!(
                "    {:6.1} s  done in {:.1} s{}",
                elapsed(started),
                took.as_secs_f64(),
                note.map_or_else(String::new, |n| format!(" ({n})"))
            ),
            Err(e) => {
                eprintln!("    {:6.1} s  the fault failed: {e}", elapsed(started));
                // The read-back needs the database: make sure it runs.
                if let Err(e) = db.up() {
                    eprintln!("    could not start PostgreSQL again: {e}");
                }
            }
        }
        marks.push(Mark {
            at: began,
            took,
            what,
            database: !matches!(fault, Fault::Provider(..)),
        });
    }
    (marks, None)
}

// ---- Processes: wort, the fake provider ---------------------------------------------------------

fn start_wort(
    wort_bin: &Path,
    work: &Path,
    database_url: &str,
    provider: SocketAddr,
    log: &Path,
) -> Result<Wort, String> {
    let addr = free_local_addr()?;
    let log_file = fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let log_err = log_file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let child = wort_command(wort_bin, work, database_url)
        .args(["serve", "--no-migrate"])
        .env("WORT_ADDR", addr.to_string())
        .env("WORT_AI_BASE_URL", format!("http://{provider}/v1"))
        .env("WORT_AI_MODEL", "soak-model")
        .env("WORT_AI_API_KEY", "sk-soak-not-a-real-key")
        .stdout(log_file)
        .stderr(log_err)
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", wort_bin.display()))?;
    let mut process = Process::new("wort", child);
    wait_until_ready(addr, &mut process, log)?;
    Ok(Wort { process, addr })
}

/// VmRSS: resident memory now.
fn rss_kib(server: &Wort) -> Option<u64> {
    let pid = server.process.id()?;
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn wait_ready(addr: SocketAddr) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let reply = exchange_close(addr, "GET", "/readyz", &[], None, Duration::from_secs(5));
        if reply.is_ok_and(|r| r.status == 200) {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err("wort was not ready (GET /readyz) within 60 s after the load".into());
        }
        thread::sleep(Duration::from_millis(200));
    }
}

// ---- Accounts -----------------------------------------------------------------------------------

/// One client's account and the rows it writes under.
struct Setup {
    key: String,
    recipe: String,
    session: String,
    item: String,
}

impl Setup {
    fn create(addr: SocketAddr, i: usize) -> Result<Setup, String> {
        let key = api_key(addr, i)?;
        let mut connection = Connection::new(addr);
        let mut post = |path: &str, body: String| -> Result<String, String> {
            let request = Request {
                method: "POST",
                path: path.to_owned(),
                api_key: Some(key.clone()),
                body: Some(body),
            };
            let response = connection
                .send(&request.to_bytes(addr))
                .map_err(|e| format!("POST {path}: {e}"))?;
            let body = String::from_utf8_lossy(&response.body).into_owned();
            if (200..300).contains(&response.status) {
                json_string_field(&body, "id").ok_or_else(|| format!("POST {path}: no id: {body}"))
            } else {
                Err(format!("POST {path}: {} {body}", response.status))
            }
        };
        let recipe = post(
            "/v1/recipes",
            format!(r#"{{"name":"Soak IPA {i}","style":"American IPA","batch_size_liters":23}}"#),
        )?;
        let session = post(
            "/v1/sessions",
            format!(r#"{{"recipe_id":"{recipe}","brew_date":"2026-11-28"}}"#),
        )?;
        let item = post(
            "/v1/inventory",
            format!(r#"{{"category":"fermentable","name":"Soak malt {i}","amount":0}}"#),
        )?;
        Ok(Setup {
            key,
            recipe,
            session,
            item,
        })
    }
}

/// Signs up `soak-<i>@example.com` and creates an API key with the session cookie.
fn api_key(addr: SocketAddr, i: usize) -> Result<String, String> {
    let timeout = Duration::from_secs(30);
    let body =
        format!(r#"{{"name":"Soak {i}","email":"soak-{i}@example.com","password":"{PASSWORD}"}}"#);
    let sign_up = exchange_close(
        addr,
        "POST",
        "/api/auth/sign-up/email",
        &[],
        Some(&body),
        timeout,
    )
    .map_err(|e| format!("sign-up: {e}"))?;
    if sign_up.status != 200 {
        return Err(format!("sign-up: {} {}", sign_up.status, sign_up.body));
    }
    let cookie = sign_up
        .headers
        .iter()
        .filter(|(name, _)| name == "set-cookie")
        .filter_map(|(_, value)| value.split(';').next())
        .find(|pair| pair.starts_with("wort_session="))
        .ok_or("sign-up set no wort_session cookie")?
        .to_owned();
    let origin = format!("http://{addr}");
    let created = exchange_close(
        addr,
        "POST",
        "/api/auth/api-key/create",
        &[("Cookie", &cookie), ("Origin", &origin)],
        Some(r#"{"name":"soak"}"#),
        timeout,
    )
    .map_err(|e| format!("api-key create: {e}"))?;
    if created.status != 200 {
        return Err(format!(
            "api-key create: {} {}",
            created.status, created.body
        ));
    }
    json_string_field(&created.body, "key").ok_or_else(|| "api-key create: no key".to_owned())
}

/// The value of `"name":"…"` in JSON whose strings need no unescaping (ids, keys).
fn json_string_field(json: &str, name: &str) -> Option<String> {
    let start = json.find(&format!("\"{name}\":\""))? + name.len() + 4;
    let rest = json.get(start..)?;
    let end = rest.find('"')?;
    Some(rest.get(..end)?.to_owned())
}

/// The number after `"name":` in JSON.
fn json_number_field(json: &str, name: &str) -> Option<f64> {
    let start = json.find(&format!("\"{name}\":"))? + name.len() + 3;
    let rest = json.get(start..)?;
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest.get(..end)?.trim().parse().ok()
}

// ---- One-shot HTTP with timing (sign-up, AI calls, the provider's switch) ------------------------

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
    /// The longest wait between two reads, the first read included.
    longest_silence: Duration,
}

/// One request on its own connection (`Connection: close`, so the body ends with the stream);
/// `timeout` bounds each read and the whole exchange.
fn exchange_close(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
    timeout: Duration,
) -> std::io::Result<Reply> {
    let began = Instant::now();
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    match body {
        Some(body) => request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )),
        None => request.push_str("Content-Length: 0\r\n\r\n"),
    }
    stream.write_all(request.as_bytes())?;
    let mut raw = Vec::new();
    let mut buffer = [0u8; 4096];
    let mut last = Instant::now();
    let mut longest_silence = Duration::ZERO;
    loop {
        let n = stream.read(&mut buffer)?;
        longest_silence = longest_silence.max(last.elapsed());
        last = Instant::now();
        if n == 0 {
            break;
        }
        raw.extend_from_slice(buffer.get(..n).unwrap_or_default());
        if began.elapsed() > timeout + Duration::from_secs(60) {
            return Err(std::io::Error::new(ErrorKind::TimedOut, "endless answer"));
        }
    }
    let text = String::from_utf8_lossy(&raw);
    let invalid = |what: &str| std::io::Error::new(ErrorKind::InvalidData, what.to_owned());
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| invalid("no complete response"))?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| invalid("no status line"))?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Ok(Reply {
        status,
        headers,
        body: body.to_owned(),
        longest_silence,
    })
}

// ---- The load -----------------------------------------------------------------------------------

/// Outcomes that are not HTTP statuses.
const REFUSED: u16 = 1;
const TIMED_OUT: u16 = 2;
const BROKEN: u16 = 3;

fn outcome_name(outcome: u16) -> String {
    match outcome {
        REFUSED => "connection refused".into(),
        TIMED_OUT => "client timeout".into(),
        BROKEN => "connection reset/closed".into(),
        status => status.to_string(),
    }
}

fn io_outcome(e: &std::io::Error) -> u16 {
    match e.kind() {
        ErrorKind::ConnectionRefused => REFUSED,
        ErrorKind::WouldBlock | ErrorKind::TimedOut => TIMED_OUT,
        _ => BROKEN,
    }
}

/// One request: when it was sent (ms from the start of the load), how long it took, what it
/// was (index into [`OPS`] or [`AI_OPS`]) and how it ended (a status or one of the above).
#[derive(Clone, Copy)]
struct Sample {
    at_ms: u32,
    micros: u32,
    op: u8,
    outcome: u16,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    ListRecipes,
    GetRecipe,
    Stats,
    LatestLog,
    AiUsage,
    PostLog,
    PostRecipe,
    Adjust,
}

/// The mix: what, its label, its weight (of 100).
const OPS: [(Op, &str, u32); 8] = [
    (Op::ListRecipes, "GET /v1/recipes?limit=20", 22),
    (Op::GetRecipe, "GET /v1/recipes/{id}", 14),
    (Op::Stats, "GET /v1/recipes/{id}/stats", 10),
    (
        Op::LatestLog,
        "GET /v1/sessions/{id}/fermentation-logs/latest",
        6,
    ),
    (Op::AiUsage, "GET /v1/ai/usage", 6),
    (
        Op::PostLog,
        "POST /v1/sessions/{id}/fermentation-logs (recorded)",
        22,
    ),
    (Op::PostRecipe, "POST /v1/recipes (recorded)", 10),
    (
        Op::Adjust,
        "POST /v1/inventory/{id}/adjust +1 (counted)",
        10,
    ),
];

const AI_OPS: [&str; 2] = ["POST /v1/recipes/{id}/analysis", "POST /v1/chat (streamed)"];

/// A small xorshift: the mix needs no quality, only no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// What one client saw and wrote.
struct ClientRun {
    samples: Vec<Sample>,
    /// Fermentation readings and recipes answered 2xx, by id.
    logs: Vec<String>,
    recipes: Vec<String>,
    /// Adjustments answered 2xx, and those whose outcome is unknown (5xx, no answer).
    adjusts_acked: u64,
    adjusts_unknown: u64,
    /// Writes answered 5xx or not at all: maybe applied, maybe not.
    writes_unknown: u64,
    /// 2xx writes whose answer held no id (cannot be read back).
    acked_without_id: u64,
}

fn millis_since(started: Instant, at: Instant) -> u32 {
    u32::try_from(at.saturating_duration_since(started).as_millis()).unwrap_or(u32::MAX)
}

fn client(
    addr: SocketAddr,
    setup: &Setup,
    index: usize,
    started: Instant,
    deadline: Instant,
    stop: &AtomicBool,
) -> ClientRun {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ ((index as u64 + 1) * 0x1000_0001));
    let mut run = ClientRun {
        samples: Vec::with_capacity(8192),
        logs: Vec::new(),
        recipes: Vec::new(),
        adjusts_acked: 0,
        adjusts_unknown: 0,
        writes_unknown: 0,
        acked_without_id: 0,
    };
    let mut connection = Connection::new(addr);
    let total_weight: u32 = OPS.iter().map(|(_, _, w)| w).sum();
    let mut n = 0u64;
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        n += 1;
        let mut pick = (rng.next() % u64::from(total_weight)) as u32;
        let mut chosen = 0usize;
        for (i, (_, _, weight)) in OPS.iter().enumerate() {
            if pick < *weight {
                chosen = i;
                break;
            }
            pick -= weight;
        }
        let op = OPS.get(chosen).map_or(Op::ListRecipes, |(op, _, _)| *op);
        let (method, path, body) = match op {
            Op::ListRecipes => ("GET", "/v1/recipes?limit=20".to_owned(), None),
            Op::GetRecipe => ("GET", format!("/v1/recipes/{}", setup.recipe), None),
            Op::Stats => ("GET", format!("/v1/recipes/{}/stats", setup.recipe), None),
            Op::LatestLog => (
                "GET",
                format!("/v1/sessions/{}/fermentation-logs/latest", setup.session),
                None,
            ),
            Op::AiUsage => ("GET", "/v1/ai/usage".to_owned(), None),
            Op::PostLog => (
                "POST",
                format!("/v1/sessions/{}/fermentation-logs", setup.session),
                Some(format!(
                    r#"{{"gravity":1.0{:02},"temperature_c":18.5,"notes":"soak {index}-{n}"}}"#,
                    10 + n % 50
                )),
            ),
            Op::PostRecipe => (
                "POST",
                "/v1/recipes".to_owned(),
                Some(format!(
                    r#"{{"name":"Soak {index}-{n}","style":"Pale Ale","batch_size_liters":20}}"#
                )),
            ),
            Op::Adjust => (
                "POST",
                format!("/v1/inventory/{}/adjust", setup.item),
                Some(r#"{"delta":1}"#.to_owned()),
            ),
        };
        let request = Request {
            method,
            path,
            api_key: Some(setup.key.clone()),
            body,
        };
        let sent = Instant::now();
        let result = connection.send(&request.to_bytes(addr));
        let micros = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
        let outcome = match &result {
            Ok(response) => response.status,
            Err(e) => io_outcome(e),
        };
        run.samples.push(Sample {
            at_ms: millis_since(started, sent),
            micros,
            op: chosen as u8,
            outcome,
        });
        let acked = (200..300).contains(&outcome);
        let unknown = !acked && !(400..500).contains(&outcome);
        match op {
            Op::PostLog | Op::PostRecipe if acked => {
                let id = result
                    .ok()
                    .and_then(|r| json_string_field(&String::from_utf8_lossy(&r.body), "id"));
                match (id, op) {
                    (Some(id), Op::PostLog) => run.logs.push(id),
                    (Some(id), _) => run.recipes.push(id),
                    (None, _) => run.acked_without_id += 1,
                }
            }
            Op::Adjust if acked => run.adjusts_acked += 1,
            Op::Adjust if unknown => {
                run.adjusts_unknown += 1;
                run.writes_unknown += 1;
            }
            Op::PostLog | Op::PostRecipe if unknown => run.writes_unknown += 1,
            _ => {}
        }
        thread::sleep(THINK);
    }
    run
}

/// What one AI client saw.
struct AiRun {
    samples: Vec<Sample>,
    /// Chat streams by how they ended: `event: done`, `event: error`, neither.
    chats_done: u64,
    chats_error: u64,
    chats_cut: u64,
    keepalives: u64,
    /// The longest silence inside a 200 chat stream.
    longest_chat_silence: Duration,
}

fn ai_client(
    addr: SocketAddr,
    setup: &Setup,
    index: usize,
    started: Instant,
    deadline: Instant,
    stop: &AtomicBool,
) -> AiRun {
    let mut run = AiRun {
        samples: Vec::new(),
        chats_done: 0,
        chats_error: 0,
        chats_cut: 0,
        keepalives: 0,
        longest_chat_silence: Duration::ZERO,
    };
    let chat_body = format!(
        r#"{{"message":"How can I make this beer drier?","recipe_id":"{}"}}"#,
        setup.recipe
    );
    let analysis = format!("/v1/recipes/{}/analysis", setup.recipe);
    let headers = [("X-API-Key", setup.key.as_str())];
    // Even clients ask for analyses, odd ones chat: both kinds meet every provider mode.
    let chat = index % 2 == 1;
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        let sent = Instant::now();
        let result = if chat {
            exchange_close(
                addr,
                "POST",
                "/v1/chat",
                &headers,
                Some(&chat_body),
                AI_TIMEOUT,
            )
        } else {
            exchange_close(addr, "POST", &analysis, &headers, None, AI_TIMEOUT)
        };
        let micros = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
        let outcome = match &result {
            Ok(reply) => reply.status,
            Err(e) => io_outcome(e),
        };
        run.samples.push(Sample {
            at_ms: millis_since(started, sent),
            micros,
            op: u8::from(chat),
            outcome,
        });
        if let (true, Ok(reply)) = (chat, &result)
            && reply.status == 200
        {
            run.keepalives += reply.body.matches(": keepalive").count() as u64;
            run.longest_chat_silence = run.longest_chat_silence.max(reply.longest_silence);
            if reply.body.contains("event: done") {
                run.chats_done += 1;
            } else if reply.body.contains("event: error") {
                run.chats_error += 1;
            } else {
                run.chats_cut += 1;
            }
        }
        thread::sleep(AI_PAUSE);
    }
    run
}

/// One analysis and one chat turn: how each ended.
fn ai_probe(addr: SocketAddr, setup: &Setup) -> String {
    let headers = [("X-API-Key", setup.key.as_str())];
    let analysis = exchange_close(
        addr,
        "POST",
        &format!("/v1/recipes/{}/analysis", setup.recipe),
        &headers,
        None,
        AI_TIMEOUT,
    );
    let body = format!(r#"{{"message":"And now?","recipe_id":"{}"}}"#, setup.recipe);
    let chat = exchange_close(addr, "POST", "/v1/chat", &headers, Some(&body), AI_TIMEOUT);
    let analysis = match analysis {
        Ok(reply) => format!("analysis {}", reply.status),
        Err(e) => format!("analysis failed ({e})"),
    };
    let chat = match chat {
        Ok(reply) if reply.body.contains("event: done") => {
            format!("chat {} ending with `event: done`", reply.status)
        }
        Ok(reply) => format!("chat {} without `event: done`", reply.status),
        Err(e) => format!("chat failed ({e})"),
    };
    format!("{analysis}, {chat}")
}

// ---- The read-back ------------------------------------------------------------------------------

struct Verified {
    logs: Check,
    recipes: Check,
    /// Per client: (acknowledged, unknown, amount read back).
    adjusts: Vec<(u64, u64, Option<f64>)>,
    acked_without_id: u64,
}

#[derive(Default)]
struct Check {
    acked: usize,
    found: usize,
    /// Answered 404: the write is gone.
    missing: Vec<String>,
    /// Never answered 200 or 404 (after retries).
    unreadable: Vec<String>,
}

impl Verified {
    fn adjusts_missing(&self) -> u64 {
        self.adjusts
            .iter()
            .map(|(acked, _, amount)| match amount {
                Some(amount) => acked.saturating_sub(amount.round() as u64),
                None => 0,
            })
            .sum()
    }

    fn adjusts_unreadable(&self) -> usize {
        self.adjusts.iter().filter(|(_, _, a)| a.is_none()).count()
    }

    fn failed(&self) -> bool {
        !self.logs.missing.is_empty()
            || !self.recipes.missing.is_empty()
            || !self.logs.unreadable.is_empty()
            || !self.recipes.unreadable.is_empty()
            || self.adjusts_missing() > 0
            || self.adjusts_unreadable() > 0
            || self.acked_without_id > 0
    }
}

/// GET with retries: `Some(body)` on 200, `None` on 404, `Err` when it never got either.
fn read_back(
    connection: &mut Connection,
    addr: SocketAddr,
    request: &Request,
) -> Result<Option<String>, String> {
    let bytes = request.to_bytes(addr);
    let mut last = String::new();
    for attempt in 0..5u64 {
        match connection.send(&bytes) {
            Ok(r) if r.status == 200 => {
                return Ok(Some(String::from_utf8_lossy(&r.body).into_owned()));
            }
            Ok(r) if r.status == 404 => return Ok(None),
            Ok(r) => last = format!("status {}", r.status),
            Err(e) => last = e.to_string(),
        }
        thread::sleep(Duration::from_millis(200 * (attempt + 1)));
    }
    Err(last)
}

fn verify(addr: SocketAddr, setups: &[Setup], clients: &[ClientRun]) -> Verified {
    // (kind, key, path): kind 0 = reading, 1 = recipe.
    let mut jobs: Vec<(usize, &str, String)> = Vec::new();
    for (setup, run) in setups.iter().zip(clients) {
        jobs.extend(
            run.logs
                .iter()
                .map(|id| (0, setup.key.as_str(), format!("/v1/fermentation-logs/{id}"))),
        );
        jobs.extend(
            run.recipes
                .iter()
                .map(|id| (1, setup.key.as_str(), format!("/v1/recipes/{id}"))),
        );
    }
    let chunk = jobs.len().div_ceil(VERIFY_THREADS).max(1);
    let results: Vec<(usize, String, Result<Option<String>, String>)> = thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut connection = Connection::new(addr);
                    part.iter()
                        .map(|(kind, key, path)| {
                            let request = Request {
                                method: "GET",
                                path: path.clone(),
                                api_key: Some((*key).to_owned()),
                                body: None,
                            };
                            let found = read_back(&mut connection, addr, &request);
                            (*kind, path.clone(), found)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut logs = Check::default();
    let mut recipes = Check::default();
    logs.acked = clients.iter().map(|c| c.logs.len()).sum();
    recipes.acked = clients.iter().map(|c| c.recipes.len()).sum();
    for (kind, path, found) in results {
        let check = if kind == 0 { &mut logs } else { &mut recipes };
        match found {
            Ok(Some(_)) => check.found += 1,
            Ok(None) => check.missing.push(path),
            Err(e) => check.unreadable.push(format!("{path} ({e})")),
        }
    }
    let mut connection = Connection::new(addr);
    let adjusts = setups
        .iter()
        .zip(clients)
        .map(|(setup, run)| {
            let request = Request {
                method: "GET",
                path: format!("/v1/inventory/{}", setup.item),
                api_key: Some(setup.key.clone()),
                body: None,
            };
            let amount = read_back(&mut connection, addr, &request)
                .ok()
                .flatten()
                .and_then(|body| json_number_field(&body, "amount"));
            (run.adjusts_acked, run.adjusts_unknown, amount)
        })
        .collect();
    Verified {
        logs,
        recipes,
        adjusts,
        acked_without_id: clients.iter().map(|c| c.acked_without_id).sum(),
    }
}

// ---- The report ---------------------------------------------------------------------------------

struct Findings<'a> {
    total: Duration,
    load_took: Duration,
    timeline: &'a [Mark],
    clients: &'a [ClientRun],
    ai: &'a [AiRun],
    verified: Option<&'a Verified>,
    /// One analysis and one chat after the load, the provider back to normal.
    ai_after: &'a str,
    peak_kib: u64,
    end_kib: u64,
    died: Option<&'a str>,
    log: &'a str,
    log_path: &'a Path,
}

/// Nearest-rank quantile of sorted microseconds, in milliseconds.
/// Requests, a `status × n` list, connection errors, p50/p90/p99/max of some samples.
struct Summary {
    requests: usize,
    ok: usize,
    statuses: BTreeMap<u16, usize>,
    latencies: Vec<u32>,
}

impl Summary {
    fn of<'s>(samples: impl Iterator<Item = &'s Sample>) -> Summary {
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
    fn errors(&self) -> String {
        let text = self
            .statuses
            .iter()
            .filter(|(outcome, _)| !(200..300).contains(*outcome))
            .map(|(outcome, n)| format!("{} × {n}", outcome_name(*outcome)))
            .collect::<Vec<_>>()
            .join(", ");
        if text.is_empty() { "none".into() } else { text }
    }

    fn answered(&self) -> usize {
        self.statuses
            .iter()
            .filter(|(outcome, _)| **outcome >= 100)
            .map(|(_, n)| n)
            .sum()
    }

    fn ms(&self, q: f64) -> String {
        format!("{:.1}", percentile(&self.latencies, q))
    }

    fn percentiles(&self) -> String {
        format!(
            "{} / {} / {} / {}",
            self.ms(0.50),
            self.ms(0.90),
            self.ms(0.99),
            self.ms(1.0)
        )
    }
}

fn report(f: &Findings) -> String {
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
fn log_summary(log: &str, path: &Path) -> String {
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

/// Switching the fake provider's behaviour (its `POST /_fake/mode`).
impl FakeProvider {
    fn set_mode(&self, mode: &str, seconds: Option<f64>) -> Result<(), String> {
        let body = match seconds {
            Some(s) => format!(r#"{{"mode":"{mode}","seconds":{s}}}"#),
            None => format!(r#"{{"mode":"{mode}"}}"#),
        };
        let reply = exchange_close(
            self.addr,
            "POST",
            "/_fake/mode",
            &[],
            Some(&body),
            Duration::from_secs(5),
        )
        .map_err(|e| format!("switching the fake provider to {mode}: {e}"))?;
        if reply.status == 200 {
            Ok(())
        } else {
            Err(format!(
                "the fake provider refused mode {mode}: {} {}",
                reply.status, reply.body
            ))
        }
    }
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

    #[test]
    fn the_timeline_fits_and_leaves_time_to_recover() {
        for secs in [MIN_SECONDS, DEFAULT_SECONDS, 600] {
            let total = Duration::from_secs(secs);
            let plan = schedule(total);
            for pair in plan.windows(2) {
                assert!(pair.first().unwrap().0 < pair.get(1).unwrap().0);
            }
            // The outage ends before the next database fault.
            let outage = plan
                .iter()
                .find_map(|(at, f)| match f {
                    Fault::Outage(d) => Some(*at + *d),
                    _ => None,
                })
                .unwrap();
            assert!(outage < total * 4 / 5);
            assert!(plan.last().unwrap().0 < total);
        }
    }

    #[test]
    fn fields_and_numbers() {
        let body = r#"{"id":"abc","amount":12.5,"name":"x"}"#;
        assert_eq!(json_string_field(body, "id").unwrap(), "abc");
        assert_eq!(json_number_field(body, "amount").unwrap(), 12.5);
        assert_eq!(json_number_field(r#"{"amount":3}"#, "amount").unwrap(), 3.0);
    }

    #[test]
    fn log_lines_lose_their_colours() {
        let line = "\u{1b}[2m2026-11-24T02:06:24Z\u{1b}[0m \u{1b}[33m WARN\u{1b}[0m x: y";
        assert_eq!(strip_ansi(line), "2026-11-24T02:06:24Z  WARN x: y");
        let summary = log_summary(line, Path::new("wort.log"));
        assert!(summary.contains("1 WARN and 0 ERROR"), "{summary}");
        assert!(summary.contains("- 1 × `WARN x: y`"), "{summary}");
    }
}
