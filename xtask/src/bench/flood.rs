//! `cargo xtask flood`: a burst of password work against a fresh release `wort`. 500 sign-ups at
//! once, then 500 sign-ins at once, while a probe asks `/healthz` every 20 ms; reports peak
//! resident memory (VmHWM), the probe's latency percentiles, how long the burst took, and the
//! resident memory 30 s after it (does the memory come back?).
//!
//! Targets: peak RSS under 300 MB, other requests answered within 50 ms at p99.

use std::fs;
use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use wort_pgcluster::ClusterOptions;

use super::load::{self, Request};
use super::{Wort, step};
use crate::cluster::TestCluster;
use crate::process::wort_migrate;

const DIR_PREFIX: &str = "wort-flood-";
const CLIENTS: usize = 500;
const SETTLE: Duration = Duration::from_secs(30);

pub fn run(args: &[String]) -> ExitCode {
    if let Some(("--attacks", rest)) = args.split_first().map(|(a, rest)| (a.as_str(), rest)) {
        return super::attacks::run(rest);
    }
    if !args.is_empty() {
        eprintln!(
            "usage: cargo xtask flood [-- --attacks [--only N,…] [--slow-bodies N] [--no-build]]\n\
             (without options: the sign-up/sign-in flood; builds the release wort first)"
        );
        return ExitCode::from(2);
    }
    match flood() {
        Ok(report) => {
            eprintln!("\n{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("xtask flood: {e}");
            ExitCode::FAILURE
        }
    }
}

fn flood() -> Result<String, String> {
    let wort_bin = super::build_release_wort()?;
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
    let result = flood_on(&cluster, &wort_bin);
    let finished = cluster.finish();
    result.and_then(|report| finished.map(|()| report))
}

fn flood_on(cluster: &TestCluster, wort_bin: &Path) -> Result<String, String> {
    let work = cluster.dir.join("flood");
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    wort_migrate(wort_bin, &work, &cluster.url)?;
    step("wort serve (fresh process)");
    let server = Wort::start(wort_bin, &work, &cluster.url, 16, &work.join("wort.log"))?;
    let idle_kib = server.rss_kib().unwrap_or(0);

    step(&format!("{CLIENTS} sign-ups at once"));
    let sign_ups = burst(&server, sign_up)?;
    step(&format!("{CLIENTS} sign-ins at once"));
    let sign_ins = burst(&server, |i| sign_in(i % CLIENTS))?;
    let peak_kib = server.peak_rss_kib().unwrap_or(0);
    step(&format!("{} s to settle", SETTLE.as_secs()));
    thread::sleep(SETTLE);
    let settled_kib = server.rss_kib().unwrap_or(0);
    server.stop()?;

    let mib = |kib: u64| kib as f64 / 1024.0;
    let mut report = String::from(
        "| burst | answers | took | `/healthz` p50 / p99 / max during it |\n|---|---|---|---|\n",
    );
    for (name, b) in [("500 sign-ups", &sign_ups), ("500 sign-ins", &sign_ins)] {
        report.push_str(&format!(
            "| {name} | {} | {:.1} s | {:.1} / {:.1} / {:.1} ms |\n",
            b.statuses,
            b.took.as_secs_f64(),
            b.probe_ms(0.50),
            b.probe_ms(0.99),
            b.probe_ms(1.0),
        ));
    }
    report.push_str(&format!(
        "\nResident memory: {:.1} MiB idle, **peak {:.1} MiB** (VmHWM), {:.1} MiB {} s after the \
         bursts.\n",
        mib(idle_kib),
        mib(peak_kib),
        mib(settled_kib),
        SETTLE.as_secs()
    ));
    Ok(report)
}

fn email(i: usize) -> String {
    format!("flood-{i}@example.com")
}

fn sign_up(i: usize) -> Request {
    Request {
        method: "POST",
        path: "/api/auth/sign-up/email".into(),
        api_key: None,
        body: Some(format!(
            r#"{{"name":"Flood {i}","email":"{}","password":"correct horse battery"}}"#,
            email(i)
        )),
    }
}

fn sign_in(i: usize) -> Request {
    Request {
        method: "POST",
        path: "/api/auth/sign-in/email".into(),
        api_key: None,
        body: Some(format!(
            r#"{{"email":"{}","password":"correct horse battery"}}"#,
            email(i)
        )),
    }
}

/// What one burst saw.
struct Burst {
    /// e.g. `500 × 200`.
    statuses: String,
    took: Duration,
    /// `/healthz` latencies during the burst, sorted, in milliseconds.
    probe: Vec<f64>,
}

impl Burst {
    fn probe_ms(&self, quantile: f64) -> f64 {
        let last = self.probe.len().saturating_sub(1);
        let index = ((last as f64) * quantile).round() as usize;
        self.probe.get(index.min(last)).copied().unwrap_or(f64::NAN)
    }
}

/// `CLIENTS` requests at once, each on its own connection and thread, while a probe thread asks
/// `/healthz` every 20 ms.
fn burst(server: &Wort, request: impl Fn(usize) -> Request) -> Result<Burst, String> {
    let addr: SocketAddr = server.addr;
    let done = Arc::new(AtomicBool::new(false));
    let probe = {
        let done = done.clone();
        thread::spawn(move || {
            let health = Request {
                method: "GET",
                path: "/healthz".into(),
                api_key: None,
                body: None,
            };
            let mut ms = Vec::new();
            while !done.load(Ordering::Relaxed) {
                let started = Instant::now();
                if load::once(addr, &health).is_ok_and(|r| r.status == 200) {
                    ms.push(started.elapsed().as_secs_f64() * 1000.0);
                } else {
                    ms.push(f64::INFINITY);
                }
                thread::sleep(Duration::from_millis(20));
            }
            ms
        })
    };
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|i| {
            let request = request(i);
            thread::spawn(move || load::once(addr, &request).map(|r| r.status))
        })
        .collect();
    let mut counts = std::collections::BTreeMap::new();
    for client in clients {
        let status = client
            .join()
            .map_err(|_| "a client thread panicked".to_owned())??;
        *counts.entry(status).or_insert(0usize) += 1;
    }
    let took = started.elapsed();
    done.store(true, Ordering::Relaxed);
    let mut probe = probe
        .join()
        .map_err(|_| "the probe thread panicked".to_owned())?;
    probe.sort_by(f64::total_cmp);
    let statuses = counts
        .iter()
        .map(|(status, n)| format!("{n} × {status}"))
        .collect::<Vec<_>>()
        .join(", ");
    Ok(Burst {
        statuses,
        took,
        probe,
    })
}
