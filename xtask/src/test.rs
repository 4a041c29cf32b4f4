//! `cargo xtask test`: fmt check, clippy, then every test against a private, throwaway PostgreSQL,
//! then the bounded API fuzzing run (`cargo xtask fuzz-api --quick`).

use std::{
    env, fs,
    path::{Path, PathBuf},
    process::{ExitCode, Stdio},
    time::{SystemTime, UNIX_EPOCH},
};

use wort_pgcluster::{Cluster, ClusterOptions, RunningCluster};

use crate::{cargo, steps::Steps};

/// The database the tests share; `WORT_TEST_DATABASE_URL` points at it.
const TEST_DATABASE: &str = "wort_test";
/// Test clusters live in `$TMPDIR/wort-xtask-<pid>-<nanos>`; the pid tells orphans apart.
const DIR_PREFIX: &str = "wort-xtask-";
/// Parallel test processes each hold a small pool.
const MAX_CONNECTIONS: u32 = 500;

/// Every step runs even when an earlier one failed, so one run shows every problem; the tests
/// are skipped only when there is no database for them.
pub fn run(runner_args: &[String]) -> ExitCode {
    sweep_orphans(DIR_PREFIX);
    let mut steps = Steps::default();
    steps.command("fmt", cargo().args(["fmt", "--all", "--", "--check"]));
    steps.command(
        "clippy",
        cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    );
    let options = ClusterOptions {
        ephemeral: true,
        max_connections: Some(MAX_CONNECTIONS),
    };
    let start = || TestCluster::start(DIR_PREFIX, TEST_DATABASE, options);
    if let Some(cluster) = steps.timed("postgres", start) {
        if let Ok(running) = cluster.running() {
            eprintln!(
                "WORT_TEST_DATABASE_URL={} (server log: {})",
                cluster.url,
                running.log_file().display()
            );
        }
        run_tests(&mut steps, &cluster.url, runner_args);
        steps.timed("cleanup", || cluster.finish());
    }
    // The bounded Schemathesis run (its own cluster and server); a filtered run skips it.
    if runner_args.is_empty() {
        steps.timed("fuzz-api", crate::fuzz::quick);
    }
    steps.print_summary();
    if steps.all_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn run_tests(steps: &mut Steps, database_url: &str, runner_args: &[String]) {
    let nextest = cargo()
        .args(["nextest", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let mut tests = cargo();
    if nextest {
        tests.args(["nextest", "run", "--workspace"]);
    } else {
        eprintln!("(cargo-nextest not installed: using cargo test)");
        tests.args(["test", "--workspace"]);
    }
    if in_ci() {
        tests.arg("--no-fail-fast");
    }
    tests
        .args(runner_args)
        .env("WORT_TEST_DATABASE_URL", database_url);
    steps.command("tests", &mut tests);
    // nextest does not run doctests; with a filter given, the caller wants only what matches.
    if nextest && runner_args.is_empty() {
        let mut doctests = cargo();
        doctests
            .args(["test", "--workspace", "--doc"])
            .env("WORT_TEST_DATABASE_URL", database_url);
        steps.command("doctests", &mut doctests);
    }
}

fn in_ci() -> bool {
    env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// A run's private cluster (tests, bench) in `$TMPDIR/<prefix><pid>-<nanos>`; stopped and
/// deleted even if xtask panics.
pub(crate) struct TestCluster {
    pub dir: PathBuf,
    cluster: Option<RunningCluster>,
    /// The URL of the cluster's `database`.
    pub url: String,
}

impl TestCluster {
    pub fn start(
        prefix: &str,
        database: &str,
        options: ClusterOptions,
    ) -> Result<TestCluster, String> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = env::temp_dir().join(format!("{prefix}{}-{nanos}", std::process::id()));
        let mut guard = TestCluster {
            dir,
            cluster: None,
            url: String::new(),
        };
        let cluster = Cluster::start(&guard.dir, options).map_err(|e| e.to_string())?;
        cluster
            .create_database(database)
            .map_err(|e| e.to_string())?;
        guard.url = cluster.database_url(database);
        guard.cluster = Some(cluster);
        Ok(guard)
    }

    /// The running server (always there until `finish`).
    pub fn running(&self) -> Result<&RunningCluster, String> {
        self.cluster
            .as_ref()
            .ok_or_else(|| "the cluster is stopped".to_owned())
    }

    pub fn finish(mut self) -> Result<(), String> {
        let stopped = self.cluster.take().map_or(Ok(()), RunningCluster::stop);
        let removed = remove_dir(&self.dir);
        stopped.map_err(|e| e.to_string())?;
        removed
    }
}

impl Drop for TestCluster {
    fn drop(&mut self) {
        drop(self.cluster.take());
        let _ = remove_dir(&self.dir);
    }
}

fn remove_dir(dir: &Path) -> Result<(), String> {
    match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("could not remove {}: {e}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// Clusters of earlier runs that were killed (Ctrl-C ends xtask before it can clean up; the
/// server, detached by pg_ctl, lives on): stop them and delete their directories.
pub(crate) fn sweep_orphans(prefix: &str) {
    if !Path::new("/proc/self").exists() {
        return; // cannot tell which runs are dead
    }
    let Ok(entries) = fs::read_dir(env::temp_dir()) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if Path::new("/proc").join(pid.to_string()).exists() {
            continue; // still running (or the pid was reused; we leave it be)
        }
        let dir = entry.path();
        eprintln!(
            "xtask: removing the cluster of an interrupted run: {}",
            dir.display()
        );
        if let Err(error) = Cluster::stop_in(&dir) {
            eprintln!("xtask: could not stop it ({error}); removing its directory anyway");
        }
        let _ = remove_dir(&dir);
    }
}
