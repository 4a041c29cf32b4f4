//! The web app in `web/`: `build_if_changed` (`npm ci` from the lock file when `node_modules`
//! is missing or older than `package-lock.json`, then `npm run build` when a source is newer than `web/dist`), and `check`
//! (type check, lint, format check, Vitest, then the Playwright suite against a running wort).
//!
//! `cargo xtask web-check --url URL` checks against a wort that already serves the app at URL;
//! without `--url` it starts a private PostgreSQL and `target/debug/wort` (or `$WORT_BIN`) that
//! serves the embedded app, and stops both afterwards.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, ExitCode},
    time::SystemTime,
};

use wort_pgcluster::ClusterOptions;

use crate::{
    cluster::TestCluster,
    process::{Process, free_local_addr, wait_until_ready, wort_command, wort_migrate},
    workspace_root,
};

const DIR_PREFIX: &str = "wort-web-check-";

pub fn web_dir() -> PathBuf {
    workspace_root().join("web")
}

fn npm(args: &[&str]) -> Command {
    let mut command = Command::new("npm");
    command
        .args(args)
        .current_dir(web_dir())
        // Playwright drives Debian's Chromium; never download its own browsers.
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        // Redocly CLI (the OpenAPI lint) sends usage telemetry and checks for updates unless told
        // not to; our checks talk to nothing.
        .env("REDOCLY_TELEMETRY", "off")
        .env("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true");
    command
}

fn run_npm(args: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    let mut command = npm(args);
    for (key, value) in env {
        command.env(key, value);
    }
    let status = command
        .status()
        .map_err(|e| format!("could not run npm (install Node.js 20 and npm): {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`npm {}` exited with {status}", args.join(" ")))
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The newest modification time of the files under `path` (a file or a directory).
fn newest(path: &Path) -> Option<SystemTime> {
    let meta = fs::metadata(path).ok()?;
    if meta.is_file() {
        return meta.modified().ok();
    }
    let mut best = None;
    for entry in fs::read_dir(path).ok()?.flatten() {
        if let Some(t) = newest(&entry.path()) {
            best = best.max(Some(t));
        }
    }
    best
}

/// Installs `node_modules` from the lock file when it is missing or older than `package-lock.json`.
///
/// `npm ci`: it installs exactly what the lock file names and never rewrites it, so the install
/// does not depend on what the registry lists today. The lock file is complete: it names every
/// platform's optional binaries (rollup's and esbuild's), of which npm fetches only this
/// platform's. When `package.json` and the lock disagree, `npm ci` refuses; the fix is a
/// deliberate `npm install` in `web/` and a reviewed commit of the lock file
/// (docs/decisions/0027-npm-ci-from-complete-lock-file.md).
pub fn install_if_needed() -> Result<(), String> {
    let web = web_dir();
    let lock_path = web.join("package-lock.json");
    let lock = modified(&lock_path);
    let installed = modified(&web.join("node_modules").join(".package-lock.json"));
    if installed.is_none() || installed < lock {
        eprintln!("xtask: npm ci (web/node_modules missing or older than the lock file)");
        let before = fs::read(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
        run_npm(&["ci", "--no-audit", "--no-fund"], &[]).map_err(|e| {
            format!(
                "{e}: if npm said the lock file is out of sync, web/package-lock.json does not \
                 match web/package.json; run `npm install` in web/, review the new lock file \
                 and commit it"
            )
        })?;
        let after = fs::read(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
        if before != after {
            return Err(
                "npm rewrote web/package-lock.json during `npm ci`; restore it with \
                 `git checkout web/package-lock.json`, then run `npm install` in web/, review \
                 the new lock file and commit it"
                    .to_owned(),
            );
        }
    }
    Ok(())
}

/// Installs the app's dependencies when needed, then builds `web/dist` when a source is newer.
pub fn build_if_changed() -> Result<(), String> {
    install_if_needed()?;
    let web = web_dir();
    let built = modified(&web.join("dist").join("index.html"));
    let sources = [
        "src",
        "index.html",
        "package.json",
        "package-lock.json",
        "vite.config.ts",
        "tsconfig.json",
    ]
    .iter()
    .filter_map(|p| newest(&web.join(p)))
    .max();
    if built.is_none() || sources > built {
        eprintln!("xtask: building the web app (npm run build)");
        run_npm(&["run", "build"], &[])?;
    }
    Ok(())
}

/// Type check, lint (the app's code and the OpenAPI document), format check, unit tests, then the browser tests against `wort_url` (a wort serving the
/// app and the API on one origin; its sign-up limit must be off: `WORT_SIGNUP_PER_HOUR=0`, which
/// `wort_command` sets).
pub fn check(wort_url: &str) -> Result<(), String> {
    install_if_needed()?;
    let mut failed = Vec::new();
    for (name, args) in [
        ("typecheck", &["run", "typecheck"][..]),
        ("lint", &["run", "lint"][..]),
        // The layout Prettier gives (web/.prettierrc.json); `npm run format` fixes it.
        ("format", &["run", "format:check"][..]),
        // The OpenAPI document against Redocly's recommended rules, with no error.
        ("lint-api", &["run", "lint:api"][..]),
        ("vitest", &["test"][..]),
    ] {
        eprintln!("\n==> web {name}");
        if let Err(e) = run_npm(args, &[]) {
            eprintln!("xtask: web {name} failed: {e}");
            failed.push(name);
        }
    }
    eprintln!("\n==> web browser tests against {wort_url}");
    if let Err(e) = run_npm(
        &["exec", "--", "playwright", "test"],
        &[("WORT_BASE_URL", wort_url), ("CI", "1")],
    ) {
        eprintln!("xtask: web browser tests failed: {e}");
        failed.push("playwright");
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("web checks failed: {}", failed.join(", ")))
    }
}

/// `cargo xtask web-check [--url URL]`.
pub fn run(args: &[String]) -> ExitCode {
    let result = match args {
        [flag, url] if flag == "--url" => check(url),
        [] => check_on_private_server(),
        _ => Err("usage: cargo xtask web-check [--url http://127.0.0.1:8080]".to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask web-check: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Builds the app, starts a private cluster and a wort that serves it, and checks against that.
pub fn check_on_private_server() -> Result<(), String> {
    crate::cluster::sweep_orphans(DIR_PREFIX);
    build_if_changed()?;
    let wort_bin = match std::env::var_os("WORT_BIN") {
        Some(path) => PathBuf::from(path),
        None => {
            let status = crate::cargo()
                .args(["build", "-p", "wort-server", "--bin", "wort"])
                .status()
                .map_err(|e| format!("could not run cargo: {e}"))?;
            if !status.success() {
                return Err(format!("cargo build of wort exited with {status}"));
            }
            workspace_root().join("target").join("debug").join("wort")
        }
    };
    let cluster = TestCluster::start(
        DIR_PREFIX,
        "wort_web",
        ClusterOptions {
            ephemeral: true,
            max_connections: Some(60),
        },
    )?;
    let result = check_with_server(&wort_bin, &cluster.dir, &cluster.url);
    let finished = cluster.finish();
    result.and(finished)
}

fn check_with_server(wort_bin: &Path, work: &Path, database_url: &str) -> Result<(), String> {
    wort_migrate(wort_bin, work, database_url)?;
    let addr = free_local_addr()?;
    let origin = format!("http://{addr}");
    let log_path = work.join("wort-web.log");
    let log = fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let log_err = log
        .try_clone()
        .map_err(|e| format!("{}: {e}", log_path.display()))?;
    let child = wort_command(wort_bin, work, database_url)
        .args(["serve", "--no-migrate"])
        .env("WORT_ADDR", addr.to_string())
        .env("WORT_PUBLIC_ORIGIN", &origin)
        // The webhook pages' browser tests send their test pings to 127.0.0.1.
        .env("WORT_WEBHOOK_ALLOW_PRIVATE", "1")
        .stdout(log)
        .stderr(log_err)
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", wort_bin.display()))?;
    let mut server = Process::new("wort", child);
    wait_until_ready(addr, &mut server, &log_path)?;
    let result = check(&origin);
    let stopped = server.stop();
    result.and(stopped)
}
