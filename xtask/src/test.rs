//! `cargo xtask test`: the web app's build, the check that nothing tracked needs the
//! project's `shared/` folder, fmt check, clippy, the compose file's check (where Docker is),
//! then every test against a private, throwaway PostgreSQL, then the round-trip guard (`cargo
//! xtask round-trips`), the bounded API fuzzing run (`cargo xtask fuzz-api --quick`) and the web
//! app's checks and browser tests (`cargo xtask web-check`).

use std::{
    env,
    process::{Command, ExitCode, Stdio},
};

use wort_pgcluster::ClusterOptions;

use crate::cluster::{TestCluster, sweep_orphans};
use crate::{cargo, steps::Steps};

/// `WORT_TEST_DATABASE_URL` points at it. The tests only administer through it: each test
/// process clones a database of its own from a template that the first one migrates
/// (`crates/server/tests/api/database.rs`); all of them go with the cluster at the end.
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
    // First, so that everything compiled after it embeds the app as it is now.
    steps.timed("web-build", crate::web::build_if_changed);
    // Nothing tracked may need the project's shared/ folder (a user's clone has none).
    steps.timed("self-contained", crate::self_contained::check);
    // The committed lock file must be the one the build uses.
    steps.timed("lock", crate::self_contained::lock_is_current);
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
    steps.timed("compose", check_compose_file);
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
    // The round-trip guard and the bounded Schemathesis run (each its own cluster and server);
    // a filtered run skips them.
    if runner_args.is_empty() {
        steps.timed("round-trips", crate::round_trips::check);
        steps.timed("fuzz-api", crate::fuzz::quick);
        // The app's type check, lint, unit tests and browser tests (its own cluster and server).
        steps.timed("web", crate::web::check_on_private_server);
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
    crate::self_contained::reset_corpus_report();
    steps.command("tests", &mut tests);
    eprintln!("{}", crate::self_contained::corpus_report());
    // The API tests again with a fresh `Idempotency-Key` on every write, so each write path also
    // runs inside its key's transaction (docs/testing.md); the key's own tests already do.
    if runner_args.is_empty() {
        let mut keyed = cargo();
        if nextest {
            keyed.args([
                "nextest",
                "run",
                "-p",
                "wort-server",
                "--test",
                "api",
                "-E",
                "not test(idempotency)",
            ]);
        } else {
            keyed.args([
                "test",
                "-p",
                "wort-server",
                "--test",
                "api",
                "--",
                "--skip",
                "idempotency",
            ]);
        }
        keyed
            .env("WORT_TEST_DATABASE_URL", database_url)
            .env("WORT_TEST_KEYED_WRITES", "1");
        steps.command("keyed-tests", &mut keyed);
    }
    // nextest does not run doctests; with a filter given, the caller wants only what matches.
    if nextest && runner_args.is_empty() {
        let mut doctests = cargo();
        doctests
            .args(["test", "--workspace", "--doc"])
            .env("WORT_TEST_DATABASE_URL", database_url);
        steps.command("doctests", &mut doctests);
    }
}

/// `docker compose config --quiet`: the compose file's syntax and references (needs no Docker
/// daemon). Skipped, with a note, where Docker or its compose plugin is not installed.
fn check_compose_file() -> Result<(), String> {
    let root = crate::workspace_root();
    let plugin = Command::new("docker")
        .args(["compose", "version"])
        .current_dir(&root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !plugin {
        eprintln!("(skipped: no `docker` with the compose plugin; docker-compose.yml not checked)");
        return Ok(());
    }
    let output = Command::new("docker")
        .args([
            "compose",
            "--file",
            "docker-compose.yml",
            "config",
            "--quiet",
        ])
        .current_dir(&root)
        .output()
        .map_err(|e| format!("could not run docker compose: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`docker compose config --quiet` rejects docker-compose.yml:\n{}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

fn in_ci() -> bool {
    env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}
