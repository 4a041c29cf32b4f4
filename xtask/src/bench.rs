//! `cargo xtask bench`: wort's throughput and latency, measured against the physical limit.
//!
//! 1. Builds `wort` in release mode, starts a private PostgreSQL cluster, migrates and seeds it
//!    (see [`seed`]).
//! 2. Capture ([`capture`], shared with `cargo xtask round-trips`): a wort with one pooled
//!    connection, behind a round-trip-counting proxy ([`sql::RoundTripProxy`]), serves warm
//!    requests to each endpoint while the cluster logs every statement. That gives each
//!    endpoint's SQL (replayed by pgbench as baseline (a)) and its SQL round trips.
//! 3. A wort with a fixed pool serves the load: `wrk` (fixed threads and connections) for the
//!    maximum rate R_svc; pgbench with as many clients as the pool for R_pg; `GET /bench/hello`
//!    (baseline (b), served only because of `WORT_BENCH_ROUTES=1`) for R_hello. Warm-up first,
//!    then several repetitions with the endpoints interleaved and rotated; medians and ranges.
//! 4. Latency at a fixed rate of 70 % of each endpoint's maximum ([`load::fixed_rate`]), the
//!    1-recipe account against the 10,000-recipe one, and wort's peak RSS.
//! 5. The table goes to stdout and `target/bench/results.md`; targets are checked and reported
//!    (a missed target is a finding, not a failure: the exit code is non-zero only when the
//!    bench itself could not run).
//!
//! Everything listens on 127.0.0.1 or on Unix sockets, and every loop is bounded.

mod attacks;
mod capacity;
pub(crate) mod capture;
mod catalog;
mod cpu;
pub mod flood;
mod history;
mod instructions;
mod interchange;
pub(crate) mod load;
mod readings_layout;
mod scale;
pub(crate) mod seed;
pub mod soak;
mod sql;
mod webhooks;

use std::{
    env, fs,
    io::Write,
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
    thread,
    time::{Duration, Instant},
};

use wort_pgcluster::{ClusterOptions, PgBinaries, RunningCluster};

use crate::cluster::TestCluster;
use crate::process::{Process, free_local_addr, wort_command, wort_migrate};
use crate::{cargo, target_dir};
use load::Request;

/// Bench clusters live in `$TMPDIR/wort-bench-<pid>-<nanos>`.
const DIR_PREFIX: &str = "wort-bench-";
pub(crate) const DATABASE: &str = "wort";
/// The fraction of an endpoint's maximum rate at which latency is measured.
const LATENCY_LOAD: f64 = 0.7;

// What the service must reach on a 2-core machine (docs/benchmarks.md).
const TARGET_CEIL_RATIO: f64 = 0.7;
const TARGET_P99_MS: f64 = 20.0;
const TARGET_RSS_MIB: f64 = 150.0;
const TARGET_TRIPS_AFTER_AUTH: usize = 2;

const USAGE: &str = "usage: cargo xtask bench [-- options]

  --quick           one short repetition (a smoke test, not a measurement)
  --secs N          seconds per measurement (default 5)
  --reps N          repetitions (default 3)
  --pool N          wort's pool size = pgbench's clients (default 16)
  --connections N   HTTP connections of wrk (default 32)
  --rate-connections N
                    connections (one thread each) of the fixed-rate client (default 16)
  --no-build        use target/release/wort as it is (profiling loops)
  --wort PATH       measure this wort binary, not a build (two builds compared on one machine)
  --only TEXT       measure only the endpoints whose label contains TEXT, or one of
                    TEXT's comma-separated parts (and the hello baseline); for quick looks
  --instructions    count the instructions one request costs wort (valgrind's callgrind),
                    instead of rates: exact on a busy machine, for comparing two builds
  --history         only the recipe-history section: what a version costs, a recipe
                    edited 1,000 times (also part of every full run)
  --scale           only the scale run: the data grown from 1,000 to 100,000 accounts
                    (10 million readings), every endpoint at a fixed rate at each size,
                    and the storage each table takes (target/bench/scale.md)
  --scale-sizes N   with --scale: only the first N sizes (1 to 3)
  --capacity        only the capacity run: a brewer's hour of traffic, the rate raised until
                    p99 reaches 50 ms, with one wort and with two (target/bench/capacity.md)
  --readings-layout only the readings table at 20 million rows laid out three ways (B-tree,
                    partitioned by month, BRIN), measured alike (target/bench/readings.md)";

#[derive(Clone, Debug)]
struct Options {
    secs: u64,
    reps: usize,
    warmup_secs: u64,
    pool: usize,
    connections: usize,
    /// The fixed-rate client's connections: a thread each, so fewer than wrk's, to leave the
    /// CPU to the server.
    rate_connections: usize,
    /// wrk threads; with 2 cores, more would only take CPU from the server.
    wrk_threads: usize,
    only: Option<String>,
    build: bool,
    wort: Option<PathBuf>,
    /// Instruction counts instead of rates ([`instructions`]).
    instructions: bool,
    /// Only the recipe-history section ([`history`]).
    history_only: bool,
    /// Only the scale run ([`scale`]), on its first this many sizes.
    scale: Option<usize>,
    /// Only the capacity run ([`capacity`]).
    capacity: bool,
    /// Only the readings-layout comparison ([`readings_layout`]).
    readings_layout: bool,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            secs: 5,
            reps: 3,
            warmup_secs: 2,
            pool: 16,
            connections: 32,
            rate_connections: 16,
            wrk_threads: 2,
            only: None,
            build: true,
            wort: None,
            instructions: false,
            history_only: false,
            scale: None,
            capacity: false,
            readings_layout: false,
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let mut number = |name: &str| -> Result<usize, String> {
                args.next()
                    .and_then(|v| v.parse::<usize>().ok())
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("{name} needs a positive number\n\n{USAGE}"))
            };
            match arg.as_str() {
                "--quick" => {
                    options.secs = 2;
                    options.reps = 1;
                    options.warmup_secs = 1;
                }
                "--secs" => options.secs = number("--secs")? as u64,
                "--reps" => options.reps = number("--reps")?,
                "--pool" => options.pool = number("--pool")?,
                "--connections" => options.connections = number("--connections")?,
                "--rate-connections" => {
                    options.rate_connections = number("--rate-connections")?;
                }
                "--no-build" => options.build = false,
                "--wort" => {
                    let path = args
                        .next()
                        .ok_or_else(|| format!("--wort needs a path\n\n{USAGE}"))?;
                    options.wort = Some(PathBuf::from(path));
                    options.build = false;
                }
                "--only" => {
                    let text = args
                        .next()
                        .ok_or_else(|| format!("--only needs a text\n\n{USAGE}"))?;
                    options.only = Some(text.clone());
                }
                "--instructions" => options.instructions = true,
                "--history" => options.history_only = true,
                "--scale" => options.scale = Some(options.scale.unwrap_or(scale::SIZES.len())),
                "--capacity" => options.capacity = true,
                "--readings-layout" => options.readings_layout = true,
                "--scale-sizes" => options.scale = Some(number("--scale-sizes")?),
                "-h" | "--help" => return Err(USAGE.to_owned()),
                other => return Err(format!("unknown option {other}\n\n{USAGE}")),
            }
        }
        Ok(options)
    }

    fn duration(&self) -> Duration {
        Duration::from_secs(self.secs)
    }

    /// Whether `--only` lets `target` be measured (the hello baseline always is).
    fn wants(&self, target: &Target) -> bool {
        target.kind == Kind::Hello
            || self
                .only
                .as_deref()
                .is_none_or(|only| only.split(',').any(|o| label(target).contains(o)))
    }
}

pub fn run(args: &[String]) -> ExitCode {
    let options = match Options::parse(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    match bench(&options) {
        Ok(report) => {
            let _ = std::io::stdout().write_all(report.as_bytes());
            let file = if options.instructions {
                instructions::results_file()
            } else {
                results_file()
            };
            eprintln!(
                "xtask bench: done in {:.0} s; the table is in {}",
                started.elapsed().as_secs_f64(),
                file.display()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("xtask bench: {error}");
            ExitCode::FAILURE
        }
    }
}

fn step(what: &str) {
    eprintln!("==> {what}");
}

/// `target/bench/results.md` (under `CARGO_TARGET_DIR` when set).
fn results_file() -> PathBuf {
    target_dir().join("bench").join("results.md")
}

/// The whole run; the cluster and the servers are stopped on every way out (guards).
fn bench(options: &Options) -> Result<String, String> {
    step("tools");
    if options.instructions {
        ensure_tool("valgrind", "valgrind")?;
    } else {
        ensure_tool("wrk", "wrk")?;
    }
    let pgbench = PgBinaries::locate()
        .map_err(|e| e.to_string())?
        .tool("pgbench");
    if !pgbench.exists() {
        return Err(format!(
            "{} not found (it comes with PostgreSQL's server package)",
            pgbench.display()
        ));
    }

    let wort_bin = options
        .wort
        .clone()
        .unwrap_or_else(|| target_dir().join("release").join("wort"));
    if options.build {
        build_release_wort()?;
    } else if !wort_bin.exists() {
        return Err(format!(
            "{} does not exist: build it first",
            wort_bin.display()
        ));
    }

    step("postgres");
    crate::cluster::sweep_orphans(DIR_PREFIX);
    let options_pg = ClusterOptions {
        ephemeral: true,
        max_connections: Some(200),
    };
    let cluster = TestCluster::start(DIR_PREFIX, DATABASE, options_pg)?;
    let result = bench_on(options, &cluster, &wort_bin, &pgbench);
    step("cleanup");
    let dir = cluster.dir.clone();
    let finished = cluster.finish();
    match (result, finished) {
        (Ok(report), Ok(())) => Ok(report),
        (Err(e), _) => Err(e),
        (Ok(_), Err(e)) => Err(format!("could not remove {}: {e}", dir.display())),
    }
}

/// `cargo build --release` of the `wort` binary (the measured programs run the release build);
/// its path.
fn build_release_wort() -> Result<PathBuf, String> {
    step("build wort (release)");
    let status = cargo()
        .args(["build", "--release", "-p", "wort-server", "--bin", "wort"])
        .status()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    if !status.success() {
        return Err("cargo build --release failed".into());
    }
    Ok(target_dir().join("release").join("wort"))
}

fn bench_on(
    options: &Options,
    cluster: &TestCluster,
    wort_bin: &Path,
    pgbench_bin: &Path,
) -> Result<String, String> {
    let pg = cluster.running()?;
    let work = cluster.dir.join("bench");
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;

    migrate_and_seed(cluster, wort_bin, &work)?;

    let mut targets = targets();

    if options.instructions {
        let report = instructions::measure(options, wort_bin, &work, &cluster.url, &targets)?;
        return write_results(&instructions::results_file(), report);
    }
    if options.readings_layout {
        let report = readings_layout::measure(pg, pgbench_bin, &work)?;
        return write_results(
            &target_dir().join("bench").join("readings.md"),
            format!("{}{report}", machine()),
        );
    }
    if options.capacity {
        let report = capacity::measure(pg, wort_bin, &work, &cluster.url)?;
        return write_results(
            &target_dir().join("bench").join("capacity.md"),
            format!("{}{report}", machine()),
        );
    }
    if let Some(sizes) = options.scale {
        let report = scale::measure(pg, wort_bin, &work, &cluster.url, &targets, sizes)?;
        return write_results(
            &target_dir().join("bench").join("scale.md"),
            format!("{}{report}", machine()),
        );
    }
    if options.history_only {
        let server = Wort::start(
            wort_bin,
            &work,
            &cluster.url,
            options.pool,
            &work.join("wort.log"),
        )?;
        step("recipe history: a recipe edited 1,000 times");
        let report = history::measure(server.addr, pg)?;
        server.stop()?;
        return write_results(&results_file(), format!("{}{report}", machine()));
    }

    step("capture the SQL of one request per endpoint");
    let captures = capture(pg, cluster, wort_bin, &work, &mut targets)?;

    step(&format!(
        "wort serve (pool {}, {} connections)",
        options.pool, options.connections
    ));
    let server = Wort::start(
        wort_bin,
        &work,
        &cluster.url,
        options.pool,
        &work.join("wort.log"),
    )?;
    let pgbench = sql::Pgbench {
        program: pgbench_bin,
        socket_dir: pg.socket_dir(),
        port: pg.port(),
        database: DATABASE,
        clients: options.pool,
        threads: 2,
    };
    // Other work on the machine (a build, say) takes CPU from the measurement: say so.
    let idle = idle_cpu_percent();
    if idle < 90.0 {
        eprintln!(
            "    warning: the machine is busy before the load starts (CPU {idle:.0} % idle): \
             the figures will be low and noisy"
        );
    }
    let wort_pid = server.process.id().ok_or("wort has exited")?;
    let meters = cpu::CpuMeters::new(wort_pid, pg.data_dir())?;
    let measured = measure(
        options, &server, &meters, &pgbench, &work, &targets, &captures,
    )?;
    step("interchange: export 1,000 recipes, import a 100-recipe file");
    let interchange = interchange::measure(server.addr)?;
    step("webhooks: delivery lag at 100 events/s, and a burst drained");
    let webhooks = webhooks::measure(server.addr)?;
    step("catalogue search: the shipped catalogue and 200 own items, typical queries");
    let catalog = catalog::measure(server.addr)?;
    step("recipe history: a recipe edited 1,000 times");
    let history = history::measure(server.addr, pg)?;
    let rss = server.peak_rss_kib();
    server.stop()?;
    let machine = format!(
        "{}CPU idle just before the load started: {idle:.0} % (other work on the machine \
         would lower every figure).\n",
        machine()
    );
    let mut report = report(options, &targets, &captures, &measured, rss, &machine);
    report.push_str(&interchange);
    report.push_str(&webhooks);
    report.push_str(&catalog);
    report.push_str(&history);
    write_results(&results_file(), report)
}

/// `wort migrate` on the cluster's database, then the bench's data set ([`seed`]).
pub(crate) fn migrate_and_seed(
    cluster: &TestCluster,
    wort_bin: &Path,
    work: &Path,
) -> Result<(), String> {
    step("wort migrate");
    wort_migrate(wort_bin, work, &cluster.url)?;
    step("seed");
    let seeded = Instant::now();
    psql_stdin(cluster.running()?, &seed::sql())?;
    eprintln!("    seeded in {:.1} s", seeded.elapsed().as_secs_f64());
    Ok(())
}

/// Writes the report to `file` (its folder made if needed); the report.
fn write_results(file: &Path, report: String) -> Result<String, String> {
    if let Some(dir) = file.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    fs::write(file, &report).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(report)
}

// ---- What is measured --------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `GET /bench/hello`: the ceiling.
    Hello,
    /// An endpoint on the heavy account, with a pgbench baseline.
    Endpoint,
    /// A paged route on the 1-recipe account, compared with the heavy account's `heavy`.
    Light { heavy: usize },
}

#[derive(Clone, Debug)]
struct Target {
    label: &'static str,
    kind: Kind,
    request: Request,
    /// The endpoint answered 404 at the probe: not there (yet).
    missing: bool,
}

fn targets() -> Vec<Target> {
    let heavy = Some(seed::heavy_key());
    let light = Some(seed::light_key());
    let recipe = seed::heavy_recipe(seed::HEAVY_RECIPES / 2);
    let day = format!("from={}&to={}", seed::DAY_FROM, seed::DAY_TO);
    let get = |path: String, key: &Option<String>| Request {
        method: "GET",
        path,
        api_key: key.clone(),
        body: None,
    };
    let target = |label, kind, request| Target {
        label,
        kind,
        request,
        missing: false,
    };
    vec![
        target(
            "GET /bench/hello",
            Kind::Hello,
            get("/bench/hello".into(), &None),
        ),
        target("GET /v1/me", Kind::Endpoint, get("/v1/me".into(), &heavy)),
        target(
            "GET /v1/recipes?limit=50",
            Kind::Endpoint,
            get("/v1/recipes?limit=50".into(), &heavy),
        ),
        target(
            "GET /v1/recipes/{id}",
            Kind::Endpoint,
            get(format!("/v1/recipes/{recipe}"), &heavy),
        ),
        target(
            "GET /v1/recipes/{id}/stats",
            Kind::Endpoint,
            get(format!("/v1/recipes/{recipe}/stats"), &heavy),
        ),
        target(
            "POST /v1/sessions/{id}/fermentation-logs",
            Kind::Endpoint,
            Request {
                method: "POST",
                path: format!("/v1/sessions/{}/fermentation-logs", seed::HEAVY_SESSION),
                api_key: heavy.clone(),
                body: Some(r#"{"gravity":1.012,"temperature_c":18.5}"#.into()),
            },
        ),
        target(
            "GET /v1/sessions/{id}/fermentation-logs (one day)",
            Kind::Endpoint,
            get(
                format!(
                    "/v1/sessions/{}/fermentation-logs?{day}",
                    seed::HEAVY_SESSION
                ),
                &heavy,
            ),
        ),
        target(
            "POST /ingest/{token}",
            Kind::Endpoint,
            Request {
                method: "POST",
                path: format!("/ingest/{}", seed::device_token()),
                api_key: None,
                body: Some(
                    r#"{"name":"iSpindel000","ID":1234567,"angle":22.2,"temperature":19.5,"temp_units":"C","battery":4.08,"gravity":1.0123,"interval":900,"RSSI":-76}"#
                        .into(),
                ),
            },
        ),
        target(
            "GET /v1/ai/usage",
            Kind::Endpoint,
            get("/v1/ai/usage".into(), &heavy),
        ),
        target(
            "GET /v1/recipes?limit=50",
            Kind::Light { heavy: 2 },
            get("/v1/recipes?limit=50".into(), &light),
        ),
        target(
            "GET /v1/sessions/{id}/fermentation-logs (one day)",
            Kind::Light { heavy: 6 },
            get(
                format!(
                    "/v1/sessions/{}/fermentation-logs?{day}",
                    seed::LIGHT_SESSION
                ),
                &light,
            ),
        ),
    ]
}

/// The endpoints the bench measures, each with its label and request; the hello baseline left
/// out (it sends no SQL).
pub(crate) fn endpoints() -> Vec<(String, Request)> {
    targets()
        .into_iter()
        .filter(|t| t.kind != Kind::Hello)
        .map(|t| (label(&t), t.request))
        .collect()
}

/// One endpoint's SQL, as captured.
#[derive(Clone, Debug, Default)]
struct Capture {
    statements: Vec<sql::Statement>,
    /// Statements per round trip.
    trips: Vec<usize>,
    script: Option<PathBuf>,
    /// pgbench `-M prepared` (every extended-protocol statement was a named prepared one).
    prepared: bool,
}

/// Records one (warm) request per endpoint ([`capture::Recorder`]) and writes each endpoint's
/// pgbench script. Marks endpoints that answer 404.
fn capture(
    pg: &RunningCluster,
    cluster: &TestCluster,
    wort_bin: &Path,
    work: &Path,
    targets: &mut [Target],
) -> Result<Vec<Capture>, String> {
    let recorder = capture::Recorder::start(pg, &cluster.dir, wort_bin, work)?;
    let mut captures = Vec::new();
    for target in targets.iter_mut() {
        let Some(recorded) = recorder.record(&label(target), &target.request)? else {
            if target.kind != Kind::Endpoint {
                return Err(format!("{} answered 404", label(target)));
            }
            eprintln!("    {}: 404, not implemented: skipped", target.label);
            target.missing = true;
            captures.push(Capture::default());
            continue;
        };
        let statements = recorded.statements;
        let mut capture = Capture {
            prepared: statements.iter().filter(|s| !s.simple).all(|s| s.prepared),
            ..Capture::default()
        };
        // An answer made without SQL (the credential remembered, nothing else to read) has no
        // PostgreSQL baseline: its ceiling is the HTTP one alone.
        if target.kind == Kind::Endpoint && !statements.is_empty() {
            let path = work.join(format!("pgbench-{}.sql", captures.len()));
            fs::write(&path, sql::pgbench_script(&statements, &recorded.trips))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            capture.script = Some(path);
        }
        capture.statements = statements;
        capture.trips = recorded.trips;
        captures.push(capture);
    }
    recorder.finish()?;
    Ok(captures)
}

/// Median and range of some repetitions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Series(pub(crate) Vec<f64>);

impl Series {
    pub(crate) fn median(&self) -> f64 {
        let mut v: Vec<f64> = self.0.iter().copied().filter(|x| x.is_finite()).collect();
        v.sort_by(f64::total_cmp);
        match v.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => v.get(n / 2).copied().unwrap_or(f64::NAN),
            n => {
                let a = v.get(n / 2 - 1).copied().unwrap_or(f64::NAN);
                let b = v.get(n / 2).copied().unwrap_or(f64::NAN);
                (a + b) / 2.0
            }
        }
    }

    pub(crate) fn min(&self) -> f64 {
        self.0.iter().copied().fold(f64::INFINITY, f64::min)
    }

    pub(crate) fn max(&self) -> f64 {
        self.0.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[derive(Clone, Debug, Default)]
struct Measured {
    svc: Series,
    pg: Series,
    /// CPU per request during the wrk runs (`cpu`).
    cpu_svc: CpuPerRequest,
    /// CPU per replay of the request's SQL during the pgbench runs.
    cpu_pg: CpuPerRequest,
    p50: Series,
    p99: Series,
    /// The fixed rate latency was measured at.
    rate: f64,
    errors: u64,
}

/// µs of CPU per request, one value per repetition, by meter (`cpu::CpuTimes`).
#[derive(Clone, Debug, Default)]
struct CpuPerRequest {
    wort: Series,
    postgres: Series,
    load: Series,
}

impl CpuPerRequest {
    fn push(&mut self, spent: cpu::CpuTimes, requests: f64) {
        let per_request = |seconds: f64| seconds * 1e6 / requests;
        self.wort.0.push(per_request(spent.wort));
        self.postgres.0.push(per_request(spent.postgres));
        self.load.0.push(per_request(spent.load));
    }

    fn is_empty(&self) -> bool {
        self.wort.is_empty()
    }
}

fn measure(
    options: &Options,
    server: &Wort,
    meters: &cpu::CpuMeters,
    pgbench: &sql::Pgbench,
    work: &Path,
    targets: &[Target],
    captures: &[Capture],
) -> Result<Vec<Measured>, String> {
    let mut measured = vec![Measured::default(); targets.len()];
    let mut scripts = Vec::new();
    for (i, target) in targets.iter().enumerate() {
        let path = work.join(format!("wrk-{i}.lua"));
        fs::write(&path, target.request.wrk_script())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        scripts.push(path);
    }
    let live: Vec<usize> = (0..targets.len())
        .filter(|&i| {
            targets
                .get(i)
                .is_some_and(|t| !t.missing && options.wants(t))
        })
        .collect();
    let url = |i: usize| {
        format!(
            "http://{}{}",
            server.addr,
            targets.get(i).map_or("/", |t| t.request.path.as_str())
        )
    };
    let wrk = |i: usize, duration: Duration| {
        let script = scripts.get(i).ok_or("no script")?;
        load::wrk(
            &url(i),
            script,
            options.wrk_threads,
            options.connections,
            duration,
        )
    };

    step(&format!("warm-up ({} s each)", options.warmup_secs));
    for &i in &live {
        wrk(i, Duration::from_secs(options.warmup_secs))?;
        if let Some(script) = captures.get(i).and_then(|c| c.script.as_ref()) {
            let prepared = captures.get(i).is_some_and(|c| c.prepared);
            pgbench.run(script, prepared, Duration::from_secs(1))?;
        }
    }

    // Maximum rates: wrk and pgbench alternate, endpoints rotate between repetitions.
    for rep in 0..options.reps {
        step(&format!(
            "maximum rates, repetition {}/{}",
            rep + 1,
            options.reps
        ));
        for k in 0..live.len() {
            let Some(&i) = live.get((k + rep) % live.len()) else {
                continue;
            };
            let (Some(target), Some(m)) = (targets.get(i), measured.get_mut(i)) else {
                continue;
            };
            let before = meters.read()?;
            let r = wrk(i, options.duration())?;
            m.cpu_svc.push(
                meters.read()? - before,
                r.rps * options.duration().as_secs_f64(),
            );
            m.svc.0.push(r.rps);
            m.errors += r.errors;
            let mut line = format!(
                "    {:<56} {:>9.0} req/s (p50 {:.2} ms, p99 {:.2} ms)",
                label(target),
                r.rps,
                r.p50_ms,
                r.p99_ms
            );
            if let Some(capture) = captures.get(i)
                && let Some(script) = &capture.script
            {
                let processes = meters.postgres_processes();
                let before = meters.read()?;
                let tps = pgbench.run(script, capture.prepared, options.duration())?;
                meters.settle(processes);
                m.cpu_pg.push(
                    meters.read()? - before,
                    tps * options.duration().as_secs_f64(),
                );
                m.pg.0.push(tps);
                line.push_str(&format!("   pgbench {tps:>9.0} req/s"));
            }
            if r.errors > 0 {
                line.push_str(&format!("   {} errors", r.errors));
            }
            eprintln!("{line}");
        }
    }

    // Latency at 70 % of the maximum; a light-account route runs at its heavy twin's rate, so
    // the two latencies compare like for like.
    for &i in &live {
        let rate_of = match targets.get(i).map(|t| t.kind) {
            Some(Kind::Light { heavy }) => heavy,
            _ => i,
        };
        let max = measured.get(rate_of).map_or(f64::NAN, |m| m.svc.median());
        if let Some(m) = measured.get_mut(i) {
            m.rate = (max * LATENCY_LOAD).max(1.0);
        }
    }
    // Not for the hello baseline: at its rate the fixed-rate client (a thread per connection)
    // would be the bottleneck and measure itself, and its backlog would spoil the next
    // endpoint's run (docs/benchmarks.md, "Method", step 6).
    let timed: Vec<usize> = live
        .iter()
        .copied()
        .filter(|&i| targets.get(i).is_some_and(|t| t.kind != Kind::Hello))
        .collect();
    for rep in 0..options.reps {
        step(&format!(
            "latency at {:.0} % load, repetition {}/{}",
            LATENCY_LOAD * 100.0,
            rep + 1,
            options.reps
        ));
        for k in 0..timed.len() {
            let Some(&i) = timed.get((k + rep) % timed.len()) else {
                continue;
            };
            // Let the previous run's connections close and the cores go quiet first.
            thread::sleep(Duration::from_millis(500));
            let (Some(target), Some(m)) = (targets.get(i), measured.get_mut(i)) else {
                continue;
            };
            let r = load::fixed_rate(
                server.addr,
                &target.request,
                m.rate,
                options.duration(),
                options.rate_connections,
            )?;
            m.p50.0.push(r.p50_ms);
            m.p99.0.push(r.p99_ms);
            m.errors += r.errors;
            eprintln!(
                "    {:<56} {:>7} requests, {:>7.0}/{:<7.0} req/s  p50 {:>6.2} ms  p99 {:>6.2} ms  \
                 max {:>7.2} ms{}",
                label(target),
                r.requests,
                r.achieved_rps,
                r.target_rps,
                r.p50_ms,
                r.p99_ms,
                r.max_ms,
                if r.errors > 0 {
                    format!("  {} errors", r.errors)
                } else {
                    String::new()
                }
            );
        }
    }
    Ok(measured)
}

fn label(target: &Target) -> String {
    match target.kind {
        Kind::Light { .. } => format!("{} [1-recipe account]", target.label),
        _ => target.label.to_owned(),
    }
}

// ---- The report --------------------------------------------------------------------------------

fn report(
    options: &Options,
    targets: &[Target],
    captures: &[Capture],
    measured: &[Measured],
    rss_kib: Option<u64>,
    machine: &str,
) -> String {
    let hello = targets
        .iter()
        .position(|t| t.kind == Kind::Hello)
        .and_then(|i| measured.get(i))
        .map_or(f64::NAN, |m| m.svc.median());
    let auth_trips = targets
        .iter()
        .position(|t| t.label == "GET /v1/me")
        .and_then(|i| captures.get(i))
        .map_or(0, |c| c.trips.len());
    let mut out = String::new();
    let mut verdicts: Vec<String> = Vec::new();
    out.push_str("# wort benchmark results\n\n");
    out.push_str(machine);
    out.push_str(&format!(
        "\nSettings: wort release build, pool {pool}, actix workers = cores; wrk {t} threads × \
         {c} connections; pgbench {pool} clients, 2 threads; {reps} repetitions × {secs} s after \
         a {w} s warm-up per endpoint; latency from the fixed-rate client ({rc} connections, \
         open loop) at {load:.0} % of each endpoint's median maximum.\n\n",
        rc = options.rate_connections,
        pool = options.pool,
        t = options.wrk_threads,
        c = options.connections,
        reps = options.reps,
        secs = options.secs,
        w = options.warmup_secs,
        load = LATENCY_LOAD * 100.0,
    ));
    out.push_str(
        "| endpoint | R_svc req/s (median, range) | R_pg req/s (median, range) | R_svc/R_pg | \
         R_svc/R_ceil | p50 / p99 at 70 % (ms) | SQL: statements / round trips |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for (i, target) in targets.iter().enumerate() {
        if matches!(target.kind, Kind::Light { .. }) {
            continue;
        }
        let (Some(m), Some(c)) = (measured.get(i), captures.get(i)) else {
            continue;
        };
        if target.missing {
            out.push_str(&format!(
                "| {} | missing: the route answers 404 in this build | | | | | |\n",
                target.label
            ));
            verdicts.push(format!(
                "- {}: not measured, the route does not exist yet (404).",
                target.label
            ));
            continue;
        }
        if m.svc.is_empty() {
            continue; // not measured (--only)
        }
        let svc = m.svc.median();
        let (pg_cell, ratio_pg, ratio_ceil) = if target.kind == Kind::Hello {
            ("—".to_owned(), "—".to_owned(), "—".to_owned())
        } else {
            let pg = if c.statements.is_empty() {
                f64::INFINITY
            } else {
                m.pg.median()
            };
            let ceil = 1.0 / (1.0 / pg + 1.0 / hello);
            let ratio = svc / ceil;
            verdicts.push(format!(
                "- {}: R_svc/R_ceil {:.2} {}",
                target.label,
                ratio,
                mark(ratio >= TARGET_CEIL_RATIO)
            ));
            if c.statements.is_empty() {
                ("no SQL".to_owned(), "—".to_owned(), format!("{ratio:.2}"))
            } else {
                (
                    range_cell(&m.pg, 0),
                    format!("{:.2}", svc / pg),
                    format!("{ratio:.2}"),
                )
            }
        };
        let p99 = m.p99.median();
        if target.kind != Kind::Hello && !m.p99.is_empty() {
            verdicts.push(format!(
                "- {}: p99 {:.2} ms at {:.0} req/s {}",
                target.label,
                p99,
                m.rate,
                mark(p99 < TARGET_P99_MS)
            ));
        }
        let sql_cell = if target.kind == Kind::Hello {
            "none".to_owned()
        } else {
            format!(
                "{} / {} ({} after auth)",
                c.statements.len(),
                c.trips.len(),
                c.trips.len().saturating_sub(auth_trips)
            )
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} / {} | {} |\n",
            target.label,
            range_cell(&m.svc, 0),
            pg_cell,
            ratio_pg,
            ratio_ceil,
            format_ms(m.p50.median()),
            format_ms(p99),
            sql_cell,
        ));
        if m.errors > 0 {
            verdicts.push(format!(
                "- {}: {} requests failed or were not 2xx during the run!",
                target.label, m.errors
            ));
        }
    }
    for (i, target) in targets.iter().enumerate() {
        if target.label.contains("/recipes/{id}") && !target.missing {
            let trips = captures.get(i).map_or(0, |c| c.trips.len());
            let after = trips.saturating_sub(auth_trips);
            verdicts.push(format!(
                "- {}: {after} SQL round trip(s) after authentication {}",
                target.label,
                mark(after <= TARGET_TRIPS_AFTER_AUTH)
            ));
        }
    }
    let rss_mib = rss_kib.map(|k| k as f64 / 1024.0);
    match rss_mib {
        Some(mib) => verdicts.push(format!(
            "- peak RSS of wort (VmHWM) over the whole run: {mib:.1} MiB {}",
            mark(mib < TARGET_RSS_MIB)
        )),
        None => verdicts.push("- peak RSS: could not read /proc/<pid>/status".to_owned()),
    }

    out.push_str(
        "\nR_ceil = 1 / (1/R_pg + 1/R_hello): what wort could reach if its only costs were \
         PostgreSQL running the endpoint's SQL (R_pg, pgbench replaying it) plus the HTTP \
         framework answering a constant JSON (R_hello, `GET /bench/hello` in the same app).\n",
    );
    out.push_str(&cpu_table(targets, measured));
    out.push_str(
        "\n## Account size: 1 recipe vs 10,000 recipes (paged routes)\n\n\
         Same fixed rate for both accounts (70 % of the heavy account's maximum).\n\n\
         | route | account | R_svc req/s (median, range) | rate (req/s) | p50 / p99 (ms) |\n\
         |---|---|---|---|---|\n",
    );
    for (i, target) in targets.iter().enumerate() {
        let Kind::Light { heavy } = target.kind else {
            continue;
        };
        for (j, account) in [
            (heavy, "10,000 recipes / 100,000 readings"),
            (i, "1 recipe / 288 readings"),
        ] {
            let Some(m) = measured.get(j) else { continue };
            if m.svc.is_empty() {
                continue; // not measured (--only)
            }
            out.push_str(&format!(
                "| {} | {} | {} | {:.0} | {} / {} |\n",
                target.label,
                account,
                range_cell(&m.svc, 0),
                m.rate,
                format_ms(m.p50.median()),
                format_ms(m.p99.median()),
            ));
        }
    }
    out.push_str("\n## Targets\n\n");
    for verdict in verdicts {
        out.push_str(&verdict);
        out.push('\n');
    }
    out.push_str("\n## SQL per request (captured with log_statement = all)\n\n");
    for (i, target) in targets.iter().enumerate() {
        let Some(c) = captures.get(i) else { continue };
        if target.kind != Kind::Endpoint || target.missing {
            continue;
        }
        out.push_str(&format!(
            "- {}: round trips {:?} (statements per trip), pgbench -M {}\n",
            target.label,
            c.trips,
            if c.prepared { "prepared" } else { "extended" }
        ));
        for s in &c.statements {
            let sql: String = s.sql.split_whitespace().collect::<Vec<_>>().join(" ");
            let short: String = sql.chars().take(160).collect();
            let more = if sql.chars().count() > 160 { "…" } else { "" };
            out.push_str(&format!("  - `{short}{more}`\n"));
        }
    }
    out
}

/// Where each request's CPU went during the maximum-rate runs (`cpu`): wort's, PostgreSQL's
/// and the load generator's, against the same for the ceiling's two halves.
fn cpu_table(targets: &[Target], measured: &[Measured]) -> String {
    let us = |series: &Series| {
        let median = series.median();
        if median.is_finite() {
            format!("{median:.0}")
        } else {
            "—".to_owned()
        }
    };
    let hello_wort = targets
        .iter()
        .position(|t| t.kind == Kind::Hello)
        .and_then(|i| measured.get(i))
        .map_or(f64::NAN, |m| m.cpu_svc.wort.median());
    let mut out = String::from(
        "\n## CPU per request\n\n\
         µs of CPU (user and system) per request during the maximum-rate runs, medians of the \
         repetitions, from each process's own accounting: wort; PostgreSQL (every backend); the \
         load generator (wrk). Beside them, the same for pgbench replaying the request's SQL \
         (PostgreSQL, and pgbench itself). \"cores busy\" is the total times R_svc: 2 on a \
         saturated 2-core machine, less where the run left a core idle. \"wort beyond hello\" \
         is wort's CPU per request less its CPU per constant-JSON answer: what the endpoint's own \
         work (its SQL client, its rules, its JSON) costs wort.\n\n\
         | endpoint | wort | PostgreSQL | wrk | total | cores busy | pgbench run: PostgreSQL + pgbench | wort beyond hello |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for (i, target) in targets.iter().enumerate() {
        let Some(m) = measured.get(i) else { continue };
        if m.cpu_svc.is_empty() {
            continue;
        }
        let cpu = &m.cpu_svc;
        let total = cpu.wort.median() + cpu.postgres.median() + cpu.load.median();
        let ceiling = if m.cpu_pg.is_empty() {
            "—".to_owned()
        } else {
            format!("{} + {}", us(&m.cpu_pg.postgres), us(&m.cpu_pg.load))
        };
        let beyond = if target.kind == Kind::Hello {
            "—".to_owned()
        } else {
            format!("{:.0}", cpu.wort.median() - hello_wort)
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {total:.0} | {:.2} | {ceiling} | {beyond} |\n",
            label(target),
            us(&cpu.wort),
            us(&cpu.postgres),
            us(&cpu.load),
            total * m.svc.median() / 1e6,
        ));
    }
    out
}

/// `19000` as `19,000` (of an unsigned number).
pub(crate) fn thousands(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn mark(ok: bool) -> &'static str {
    if ok { "— met" } else { "— **missed**" }
}

pub(crate) fn range_cell(series: &Series, decimals: usize) -> String {
    if series.is_empty() {
        return "—".to_owned();
    }
    format!(
        "{:.d$} ({:.d$}–{:.d$})",
        series.median(),
        series.min(),
        series.max(),
        d = decimals
    )
}

fn format_ms(ms: f64) -> String {
    if ms.is_finite() {
        format!("{ms:.2}")
    } else {
        "—".to_owned()
    }
}

/// What the numbers were measured on.
fn machine() -> String {
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")?
                .split_once(':')
                .map(|(_, v)| v.trim())
        })
        .unwrap_or("unknown CPU")
        .to_owned();
    let cores = thread::available_parallelism().map_or(0, |n| n.get());
    let memory = fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:").map(|v| v.trim().to_owned()))
        .unwrap_or_default();
    let kernel = fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let postgres =
        Command::new(PgBinaries::locate().map_or_else(|_| PathBuf::new(), |b| b.postgres()))
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_default();
    let wrk = Command::new("wrk")
        .arg("-v")
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .to_owned()
        })
        .unwrap_or_default();
    // Absent from an instruction count's run, which needs no wrk.
    let wrk = if wrk.is_empty() {
        wrk
    } else {
        format!("; {wrk}")
    };
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    format!(
        "Run {date} on {cpu}, {cores} cores, {memory} RAM, Linux {}; {postgres} (ephemeral \
         cluster: fsync, synchronous_commit and full_page_writes off){wrk}.\n",
        kernel.trim()
    )
}

/// The share of CPU time that was idle over one second (100 when /proc/stat is unreadable).
fn idle_cpu_percent() -> f64 {
    // The first line of /proc/stat: "cpu  user nice system idle iowait irq softirq steal ...".
    let sample = || -> Option<(u64, u64)> {
        let stat = fs::read_to_string("/proc/stat").ok()?;
        let fields: Vec<u64> = stat
            .lines()
            .next()?
            .split_whitespace()
            .skip(1)
            .filter_map(|f| f.parse().ok())
            .collect();
        let idle = fields.get(3)? + fields.get(4).unwrap_or(&0);
        Some((idle, fields.iter().sum()))
    };
    let Some((idle_a, total_a)) = sample() else {
        return 100.0;
    };
    thread::sleep(Duration::from_secs(1));
    let Some((idle_b, total_b)) = sample() else {
        return 100.0;
    };
    let total = total_b.saturating_sub(total_a).max(1);
    100.0 * idle_b.saturating_sub(idle_a) as f64 / total as f64
}

// ---- Processes ---------------------------------------------------------------------------------

/// A running `wort serve`; stopped (SIGTERM, then SIGKILL) when dropped.
struct Wort {
    process: Process,
    addr: SocketAddr,
}

impl Wort {
    fn start(
        wort_bin: &Path,
        work: &Path,
        database_url: &str,
        pool: usize,
        log: &Path,
    ) -> Result<Wort, String> {
        Self::start_with(wort_bin, work, database_url, pool, log, &[])
    }

    /// Like [`start`](Self::start), with extra environment variables.
    fn start_with(
        wort_bin: &Path,
        work: &Path,
        database_url: &str,
        pool: usize,
        log: &Path,
        env: &[(&str, &str)],
    ) -> Result<Wort, String> {
        let command = wort_command(wort_bin, work, database_url);
        Self::serve(command, pool, log, env, Duration::from_secs(30))
    }

    /// `command` (a `wort`, possibly under a launcher) serving with the bench's settings; ready
    /// once `/healthz` answers, within `ready_within`.
    fn serve(
        mut command: Command,
        pool: usize,
        log: &Path,
        env: &[(&str, &str)],
        ready_within: Duration,
    ) -> Result<Wort, String> {
        let addr = free_local_addr()?;
        let log_file = fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let log_err = log_file
            .try_clone()
            .map_err(|e| format!("{}: {e}", log.display()))?;
        let child = command
            .args(["serve", "--no-migrate"])
            .env("WORT_ADDR", addr.to_string())
            .env("WORT_DB_POOL_SIZE", pool.to_string())
            .env("WORT_BENCH_ROUTES", "1")
            // The hydrometer posts as fast as wrk sends (a real one posts every 15 min; the
            // production's one reading a minute would measure the 429 path instead).
            .env("WORT_DEVICE_READING_INTERVAL_SECS", "0")
            // The webhook receiver of the delivery benchmark listens on 127.0.0.1.
            .env("WORT_WEBHOOK_ALLOW_PRIVATE", "1")
            .envs(env.iter().copied())
            .stdout(log_file)
            .stderr(log_err)
            .spawn()
            .map_err(|e| format!("could not start {:?}: {e}", command.get_program()))?;
        let mut server = Wort {
            process: Process::new("wort", child),
            addr,
        };
        let health = Request {
            method: "GET",
            path: "/healthz".into(),
            api_key: None,
            body: None,
        };
        let deadline = Instant::now() + ready_within;
        loop {
            if let Some(status) = server.process.exited() {
                let text = fs::read_to_string(log).unwrap_or_default();
                return Err(format!("wort serve exited ({status}):\n{text}"));
            }
            if load::once(addr, &health).is_ok_and(|r| r.status == 200) {
                return Ok(server);
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "wort did not answer on {addr} within {} s",
                    ready_within.as_secs()
                ));
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// VmHWM: the most resident memory the process has had.
    fn peak_rss_kib(&self) -> Option<u64> {
        proc_status_kib(self.process.id()?, "VmHWM:")
    }

    /// VmRSS: the process's resident memory now.
    pub(crate) fn rss_kib(&self) -> Option<u64> {
        proc_status_kib(self.process.id()?, "VmRSS:")
    }

    fn stop(self) -> Result<(), String> {
        self.process.stop()
    }
}

/// Runs SQL through the cluster's own psql, on stdin.
fn psql_stdin(pg: &RunningCluster, sql: &str) -> Result<(), String> {
    let mut child = pg
        .psql(DATABASE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not run psql: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(sql.as_bytes())
            .map_err(|e| format!("psql: {e}"))?;
    }
    let output = child.wait_with_output().map_err(|e| format!("psql: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "psql failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// wrk must be on PATH; as root on Debian/Ubuntu we install it, otherwise we say how.
/// `program` on the PATH, installed from Debian's `package` when missing and this runs as root.
fn ensure_tool(program: &str, package: &str) -> Result<(), String> {
    if on_path(program) {
        return Ok(());
    }
    if !is_root() || !on_path("apt-get") {
        return Err(format!(
            "{program} is not installed: install it (Debian/Ubuntu: `sudo apt-get install \
             {package}`) and run the bench again"
        ));
    }
    eprintln!("    {program} is missing: apt-get install {package}");
    let install = || {
        Command::new("apt-get")
            .args(["install", "-y", "-q", package])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success())
    };
    if !install() {
        let _ = Command::new("apt-get").args(["update", "-q"]).status();
        if !install() {
            return Err(format!("could not install {package} with apt-get"));
        }
    }
    Ok(())
}

fn on_path(program: &str) -> bool {
    env::var_os("PATH")
        .is_some_and(|path| env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

fn is_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|ids| ids.split_whitespace().nth(1).map(|e| e == "0"))
        })
        .unwrap_or(false)
}

/// One `kB` figure of `/proc/<pid>/status` (`field` with its colon, e.g. `VmRSS:`).
pub(crate) fn proc_status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn medians_and_ranges() {
        let s = Series(vec![3.0, 1.0, 2.0]);
        assert_eq!(s.median(), 2.0);
        assert_eq!(range_cell(&s, 1), "2.0 (1.0–3.0)");
        assert_eq!(Series(vec![1.0, 4.0]).median(), 2.5);
        assert!(Series::default().median().is_nan());
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(19_000), "19,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn options_parse() {
        let o = Options::parse(&["--quick".into(), "--pool".into(), "8".into()]).unwrap();
        assert_eq!((o.reps, o.pool), (1, 8));
        assert!(Options::parse(&["--pool".into(), "0".into()]).is_err());
        assert!(Options::parse(&["--nope".into()]).is_err());
    }

    #[test]
    fn light_routes_point_at_their_heavy_twins() {
        let t = targets();
        for target in &t {
            if let Kind::Light { heavy } = target.kind {
                let twin = &t[heavy];
                assert_eq!(twin.kind, Kind::Endpoint);
                assert_eq!(twin.label, target.label);
            }
        }
    }
}
