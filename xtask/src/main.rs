//! Developer and CI entry points: `cargo xtask dev | test | bench | flood | soak | fuzz-api |
//! round-trips | upgrade | web-check`.
//!
//! std only (plus wort-pgcluster), so it builds in seconds. Output goes to stderr, like cargo's.

mod bench;
mod cluster;
mod dev;
mod fuzz;
mod process;
mod round_trips;
mod self_contained;
mod steps;
mod test;
mod upgrade;
mod web;

use std::{
    env,
    path::{Path, PathBuf},
    process::ExitCode,
};

const USAGE: &str = "usage: cargo xtask <command> [-- <args>]

commands:
  dev        build and run the server in the foreground (wort serve; args after -- go to it)
  test       fmt check, clippy (warnings denied), then every test on a private PostgreSQL,
             then `round-trips` and `fuzz-api --quick` (args after -- go to the test runner
             and skip both)
  bench      throughput and latency of the main endpoints against PostgreSQL and HTTP
             baselines, on a private cluster (args after -- : see `cargo xtask bench -- --help`)
  flood      500 sign-ups then 500 sign-ins at once against a fresh release wort: peak memory,
             /healthz latency meanwhile, memory afterwards. `-- --attacks` replays the attacks
             of an adversarial probe instead (sign-in and sign-up bursts, a giant import report,
             junk metrics labels, concurrent imports, slow bodies, webhook fairness and test
             pings, a frozen database), each against a fresh wort, into
             target/bench/attacks.md (`-- --attacks --help` for its options)
  soak       32 clients of mixed reads and writes against a release wort for 120 s while
             PostgreSQL is restarted, stalled and stopped and the fake AI provider misbehaves;
             every acknowledged write is read back (`-- --seconds N`). `--failover`: a
             pg_auto_failover primary and synchronous standby, the primary killed under load.
             `--delays`: keyed writes through a proxy that holds PostgreSQL's answers past
             wort's database deadline; PostgreSQL then counts each write: applied once, or
             missing, or twice (`-- --delays --help`)
  fuzz-api   Schemathesis against a live wort with a fake AI provider, every check
             (`-- --quick` for the bounded run that `test` includes; `-- --help`)
  round-trips
             the SQL statements and round trips of one warm request to each main endpoint,
             on the bench's data set, against xtask/round-trips.txt: fails when any grew or
             an endpoint is missing (`-- --update` writes the measured counts instead)
  upgrade    an upgrade with data: the previous release (docs/releases.md; `-- --from NAME` for
             another release or commit) is built, filled through its API on a private
             PostgreSQL, then this build starts on its database; every resource is read back
             before and after and compared field by field, old API keys, passwords and device
             tokens checked. `-- --time-migrations`: each migration timed on a large data set
  web-check  the web app: type check, lint, format check, Vitest, Playwright (`-- --url URL`
             for a running wort serving the app; without it a private PostgreSQL and
             target/debug/wort)";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = rest.strip_prefix(&["--".to_owned()]).unwrap_or(rest);
    match command.as_str() {
        "dev" => dev::run(rest),
        "test" => test::run(rest),
        "bench" => bench::run(rest),
        "flood" => bench::flood::run(rest),
        "soak" => bench::soak::run(rest),
        "fuzz-api" => fuzz::run(rest),
        "round-trips" => round_trips::run(rest),
        "web-check" => web::run(rest),
        "upgrade" => upgrade::run(rest),
        "help" | "-h" | "--help" => {
            eprintln!("{USAGE}");
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("xtask: unknown command `{other}`\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `target/` (or `CARGO_TARGET_DIR`, relative to the workspace root when relative).
fn target_dir() -> PathBuf {
    let root = workspace_root();
    env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|dir| {
            if dir.is_absolute() {
                dir
            } else {
                root.join(dir)
            }
        })
        .unwrap_or_else(|| root.join("target"))
}

/// The workspace root (xtask lives one level below it).
fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// The cargo that runs us (`cargo xtask` sets `CARGO`), so toolchain overrides carry through.
fn cargo() -> std::process::Command {
    let mut command =
        std::process::Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(workspace_root());
    command
}
