//! `cargo xtask flood -- --attacks`: the attacks of an adversarial probe of the release build,
//! replayed against a fresh release `wort` each, on a private PostgreSQL cluster (one database
//! per scenario, so no scenario sees another's accounts, counters or queued events).
//!
//! For every scenario (or part of one) the report gives the answers by status, wort's peak
//! resident memory (VmHWM, reset when the part begins), `/healthz` latency from a probe that asks
//! every 20 ms meanwhile, the scenario's own figure, the figure the probe saw before the fixes,
//! and whether the fix holds by the criterion written next to the scenario.
//!
//! All traffic goes to 127.0.0.1; every loop is bounded in count and in time.

mod exports;
mod scenarios;
mod tools;

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use wort_pgcluster::{ClusterOptions, RunningCluster};

use super::load::{self, Request};
use super::{Wort, seed, step, thousands};
use crate::cluster::TestCluster;
use crate::process::{free_local_addr, wort_migrate};
use crate::target_dir;

const DIR_PREFIX: &str = "wort-attacks-";
/// wort's pool in every scenario (the flood's and the bench's size).
const POOL: usize = 16;
/// Any string will do as a password hash: the accounts made by SQL only ever use API keys.
const NO_PASSWORD: &str = "$argon2id$v=19$m=19456,t=2,p=1$YXR0YWNrcw$attacks";

const USAGE: &str = "usage: cargo xtask flood -- --attacks [options]

  --only N[,N…]      run only these scenarios (1 to 8)
  --slow-bodies N    trickling connections in scenario 5 (default: the open-file limit less
                     1,000, at most 19,800)
  --no-build         use target/release/wort as it is";

struct Options {
    only: Option<Vec<u8>>,
    slow_bodies: Option<usize>,
    build: bool,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            only: None,
            slow_bodies: None,
            build: true,
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--only" => {
                    let list = args
                        .next()
                        .ok_or_else(|| format!("--only needs a list\n\n{USAGE}"))?;
                    let numbers = list
                        .split(',')
                        .map(|n| n.trim().parse::<u8>().ok().filter(|n| (1..=8).contains(n)))
                        .collect::<Option<Vec<u8>>>()
                        .ok_or_else(|| format!("--only takes numbers 1 to 8\n\n{USAGE}"))?;
                    options.only = Some(numbers);
                }
                "--slow-bodies" => {
                    let n = args
                        .next()
                        .and_then(|v| v.parse::<usize>().ok())
                        .filter(|n| *n > 0)
                        .ok_or_else(|| {
                            format!("--slow-bodies needs a positive number\n\n{USAGE}")
                        })?;
                    options.slow_bodies = Some(n);
                }
                "--no-build" => options.build = false,
                "-h" | "--help" => return Err(USAGE.to_owned()),
                other => return Err(format!("unknown option {other}\n\n{USAGE}")),
            }
        }
        Ok(options)
    }
}

/// The entry point (`args` are those after `--attacks`).
pub fn run(args: &[String]) -> ExitCode {
    let options = match Options::parse(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    match attacks(&options) {
        Ok(report) => {
            let _ = std::io::stdout().write_all(report.as_bytes());
            eprintln!(
                "xtask flood --attacks: done in {:.0} s; the table is in {}",
                started.elapsed().as_secs_f64(),
                results_file().display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("xtask flood --attacks: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `target/bench/attacks.md`.
fn results_file() -> PathBuf {
    target_dir().join("bench").join("attacks.md")
}

fn attacks(options: &Options) -> Result<String, String> {
    let wort_bin = if options.build {
        super::build_release_wort()?
    } else {
        let bin = target_dir().join("release").join("wort");
        if !bin.exists() {
            return Err(format!("{} does not exist: build it first", bin.display()));
        }
        bin
    };
    step("postgres");
    crate::cluster::sweep_orphans(DIR_PREFIX);
    let cluster = TestCluster::start(
        DIR_PREFIX,
        "wort",
        ClusterOptions {
            ephemeral: true,
            max_connections: Some(100),
        },
    )?;
    let rows = run_scenarios(&cluster, &wort_bin, options);
    let finished = cluster.finish();
    let report = report(&rows?);
    finished?;
    let file = results_file();
    if let Some(dir) = file.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    fs::write(&file, &report).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(report)
}

/// One scenario: how its wort is started and what it does to it.
struct Scenario {
    number: u8,
    title: &'static str,
    /// Extra settings of its wort.
    env: &'static [(&'static str, &'static str)],
    /// Whether its wort serves `/metrics` on a second listener.
    metrics: bool,
    run: fn(&Stage, &Options) -> Result<Vec<Row>, String>,
}

fn run_scenarios(
    cluster: &TestCluster,
    wort_bin: &Path,
    options: &Options,
) -> Result<Vec<Row>, String> {
    let pg = cluster.running()?;
    let mut rows = Vec::new();
    for (index, scenario) in scenarios::ALL.iter().enumerate() {
        if options
            .only
            .as_ref()
            .is_some_and(|only| !only.contains(&scenario.number))
        {
            continue;
        }
        step(&format!("{}. {}", scenario.number, scenario.title));
        match run_one(index, scenario, cluster, pg, wort_bin, options) {
            Ok(mut got) => rows.append(&mut got),
            Err(e) => {
                eprintln!("    scenario {} could not run: {e}", scenario.number);
                rows.push(Row::could_not_run(scenario, &e));
            }
        }
    }
    Ok(rows)
}

/// A fresh database and a fresh wort for one scenario; the wort is stopped however it ends.
fn run_one(
    index: usize,
    scenario: &Scenario,
    cluster: &TestCluster,
    pg: &RunningCluster,
    wort_bin: &Path,
    options: &Options,
) -> Result<Vec<Row>, String> {
    let db = format!("attack{index}");
    pg.create_database(&db).map_err(|e| e.to_string())?;
    let url = pg.database_url(&db);
    let work = cluster.dir.join(&db);
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    wort_migrate(wort_bin, &work, &url)?;
    let metrics = scenario.metrics.then(free_local_addr).transpose()?;
    let metrics_text = metrics.map(|a| a.to_string());
    let mut env: Vec<(&str, &str)> = scenario.env.to_vec();
    if let Some(text) = &metrics_text {
        env.push(("WORT_METRICS_ADDR", text));
    }
    let server = Wort::start_with(wort_bin, &work, &url, POOL, &work.join("wort.log"), &env)?;
    let stage = Stage {
        server: &server,
        pg,
        db,
        metrics,
    };
    let rows = (scenario.run)(&stage, options);
    let stopped = server.stop();
    let rows = rows?;
    if let Err(e) = stopped {
        eprintln!("    {e}");
    }
    Ok(rows)
}

/// What a scenario works with: its wort, its database.
struct Stage<'a> {
    server: &'a Wort,
    pg: &'a RunningCluster,
    db: String,
    /// The metrics listener, when the scenario asked for one.
    metrics: Option<SocketAddr>,
}

/// An account made by SQL: its id and API key.
struct Account {
    id: String,
    key: String,
}

impl Stage<'_> {
    fn addr(&self) -> SocketAddr {
        self.server.addr
    }

    /// An account named `name` with an API key (no usable password).
    fn account(&self, name: &str) -> Result<Account, String> {
        let id = self.sql_value(&format!(
            "INSERT INTO users (id, email, name, password_hash, created_at, updated_at) \
             VALUES (gen_random_uuid(), '{name}@attacks.example', '{name}', '{NO_PASSWORD}', \
             now(), now()) RETURNING id"
        ))?;
        let key = seed::api_key(&format!("attacks{name}"));
        self.sql_value(&format!(
            "INSERT INTO api_keys (id, user_id, name, key_hash, start, prefix, enabled, \
             expires_at, created_at, updated_at, last_used_at) \
             VALUES (gen_random_uuid(), '{id}', 'attacks', sha256(convert_to('{key}', 'UTF8')), \
             left('{key}', 9), 'wort_', true, NULL, now(), now(), NULL) RETURNING id"
        ))?;
        Ok(Account { id, key })
    }

    /// The first line of what `sql` returns (through the cluster's psql, unaligned).
    fn sql_value(&self, sql: &str) -> Result<String, String> {
        let output = self
            .pg
            .psql(&self.db)
            .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("could not run psql: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "psql failed on {sql:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&output.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_owned())
    }

    /// Every line `sql` returns.
    fn sql_lines(&self, sql: &str) -> Result<Vec<String>, String> {
        let output = self
            .pg
            .psql(&self.db)
            .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("could not run psql: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "psql failed on {sql:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|l| l.trim().to_owned())
            .filter(|l| !l.is_empty())
            .collect())
    }

    /// Runs `attack` while a probe asks `/healthz` every 20 ms, with wort's peak RSS reset when
    /// it begins; what the attack returned and what the probe and the peak were.
    fn watch<T>(&self, attack: impl FnOnce() -> Result<T, String>) -> Result<(T, Watched), String> {
        self.reset_peak_rss();
        let pid = self.server.process.id().unwrap_or(0);
        let fds_before = open_files(pid);
        let done = Arc::new(AtomicBool::new(false));
        let probe = {
            let done = done.clone();
            let addr = self.addr();
            thread::spawn(move || probe_health(addr, &done))
        };
        let descriptors = {
            let done = done.clone();
            thread::spawn(move || most_open_files(pid, &done))
        };
        let result = attack();
        done.store(true, Ordering::Relaxed);
        let most_fds = descriptors.join().unwrap_or(0);
        let (mut ms, failed) = probe
            .join()
            .map_err(|_| "the probe thread panicked".to_owned())?;
        ms.sort_by(f64::total_cmp);
        let peak_kib = self.server.peak_rss_kib().unwrap_or(0);
        Ok((
            result?,
            Watched {
                probe_ms: ms,
                probe_failed: failed,
                peak_kib,
                fds_before,
                most_fds,
            },
        ))
    }

    /// VmRSS: wort's resident memory now.
    fn rss_kib(&self) -> Option<u64> {
        self.server.rss_kib()
    }

    /// Sets VmHWM back to the present RSS (`5` to `/proc/<pid>/clear_refs`), so each part of a
    /// scenario gets its own peak. Where the kernel refuses, the peak is the process's so far.
    fn reset_peak_rss(&self) {
        if let Some(pid) = self.server.process.id() {
            let _ = fs::write(format!("/proc/{pid}/clear_refs"), "5");
        }
    }

    /// The bytes `GET path` answered with on the metrics listener.
    fn metrics_text(&self) -> Result<Vec<u8>, String> {
        let addr = self
            .metrics
            .ok_or_else(|| "this scenario's wort serves no metrics".to_owned())?;
        let response = load::once(
            addr,
            &Request {
                method: "GET",
                path: "/metrics".into(),
                api_key: None,
                body: None,
            },
        )?;
        if response.status != 200 {
            return Err(format!("GET /metrics answered {}", response.status));
        }
        Ok(response.body)
    }
}

/// `/healthz` every 20 ms until `done` (at most 10 minutes): each answer's latency in ms (a
/// failure counts with the time it took to fail), and how many failed.
fn probe_health(addr: SocketAddr, done: &AtomicBool) -> (Vec<f64>, usize) {
    let health = Request {
        method: "GET",
        path: "/healthz".into(),
        api_key: None,
        body: None,
    };
    let until = Instant::now() + Duration::from_secs(600);
    let mut ms = Vec::new();
    let mut failed = 0;
    while !done.load(Ordering::Relaxed) && Instant::now() < until {
        let started = Instant::now();
        if !load::once(addr, &health).is_ok_and(|r| r.status == 200) {
            failed += 1;
        }
        ms.push(started.elapsed().as_secs_f64() * 1000.0);
        thread::sleep(Duration::from_millis(20));
    }
    (ms, failed)
}

/// What the probe and the gauges saw during one part of a scenario.
struct Watched {
    /// Sorted, in milliseconds.
    probe_ms: Vec<f64>,
    probe_failed: usize,
    peak_kib: u64,
    /// wort's open file descriptors when the part began, and the most seen during it.
    fds_before: usize,
    most_fds: usize,
}

/// How many file descriptors `pid` has open (`/proc/<pid>/fd`).
fn open_files(pid: u32) -> usize {
    fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

/// The most descriptors `pid` had open, sampled every 100 ms until `done` (at most 10 minutes).
fn most_open_files(pid: u32, done: &AtomicBool) -> usize {
    let until = Instant::now() + Duration::from_secs(600);
    let mut most = 0;
    while !done.load(Ordering::Relaxed) && Instant::now() < until {
        most = most.max(open_files(pid));
        thread::sleep(Duration::from_millis(100));
    }
    most
}

impl Watched {
    fn probe_quantile(&self, q: f64) -> f64 {
        if self.probe_ms.is_empty() {
            return f64::NAN;
        }
        let rank =
            ((self.probe_ms.len() as f64 * q).ceil() as usize).clamp(1, self.probe_ms.len()) - 1;
        self.probe_ms.get(rank).copied().unwrap_or(f64::NAN)
    }
}

/// Answers by status; 0 stands for "no answer" (the connection failed or timed out).
#[derive(Default)]
struct Statuses(BTreeMap<u16, usize>);

impl Statuses {
    fn of(statuses: impl IntoIterator<Item = u16>) -> Statuses {
        let mut tally = Statuses::default();
        for status in statuses {
            tally.add(status);
        }
        tally
    }

    fn add(&mut self, status: u16) {
        *self.0.entry(status).or_insert(0) += 1;
    }

    fn count(&self, status: u16) -> usize {
        self.0.get(&status).copied().unwrap_or(0)
    }
}

impl std::fmt::Display for Statuses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(status, n)| match status {
                0 => format!("{} × no answer", thousands(*n)),
                s => format!("{} × {s}", thousands(*n)),
            })
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// One line of the report.
struct Row {
    scenario: String,
    answers: String,
    watched: Option<Watched>,
    figure: String,
    before: &'static str,
    /// `None` when the scenario could not run.
    holds: Option<bool>,
}

impl Row {
    fn could_not_run(scenario: &Scenario, error: &str) -> Row {
        let short: String = error.chars().take(300).collect();
        Row {
            scenario: format!("{}. {}", scenario.number, scenario.title),
            answers: "–".into(),
            watched: None,
            figure: format!("could not run: {}", short.replace(['\n', '|'], " ")),
            before: "",
            holds: None,
        }
    }
}

fn report(rows: &[Row]) -> String {
    let mut out = String::from(
        "| scenario | answers | wort peak RSS | `/healthz` p99 / max | figure | \
         before the fixes | holds |\n|---|---|---|---|---|---|---|\n",
    );
    for row in rows {
        let (rss, probe) = match &row.watched {
            Some(w) => (
                format!("{:.0} MiB", w.peak_kib as f64 / 1024.0),
                format!(
                    "{} / {} ({} probes, {} failed)",
                    format_ms(w.probe_quantile(0.99)),
                    format_ms(w.probe_quantile(1.0)),
                    w.probe_ms.len(),
                    w.probe_failed
                ),
            ),
            None => ("–".into(), "–".into()),
        };
        let holds = match row.holds {
            Some(true) => "yes",
            Some(false) => "**no**",
            None => "not run",
        };
        out.push_str(&format!(
            "| {} | {} | {rss} | {probe} | {} | {} | {holds} |\n",
            row.scenario, row.answers, row.figure, row.before
        ));
    }
    out
}

fn format_ms(ms: f64) -> String {
    if ms.is_nan() {
        "–".into()
    } else if ms >= 1000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else {
        format!("{ms:.1} ms")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn options_parse() {
        let o = Options::parse(&["--only".into(), "2,5".into(), "--no-build".into()]).unwrap();
        assert_eq!(o.only, Some(vec![2, 5]));
        assert!(!o.build);
        assert!(Options::parse(&["--only".into(), "9".into()]).is_err());
        assert!(Options::parse(&["--slow-bodies".into(), "0".into()]).is_err());
        assert!(Options::parse(&["--nope".into()]).is_err());
    }

    #[test]
    fn statuses_read_as_counts() {
        let s = Statuses::of([429, 401, 429, 0]);
        assert_eq!(s.to_string(), "1 × no answer, 1 × 401, 2 × 429");
        assert_eq!(s.count(429), 2);
        assert_eq!(Statuses::default().to_string(), "none");
    }

    #[test]
    fn probe_quantiles_are_nearest_rank() {
        let w = Watched {
            probe_ms: (1..=100).map(f64::from).collect(),
            probe_failed: 0,
            peak_kib: 0,
            fds_before: 0,
            most_fds: 0,
        };
        assert_eq!(w.probe_quantile(0.99), 99.0);
        assert_eq!(w.probe_quantile(1.0), 100.0);
    }
}
