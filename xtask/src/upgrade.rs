//! `cargo xtask upgrade`: an upgrade from an earlier release with data in it, checked field by
//! field through the public API.
//!
//! 1. `--from` names the old commit: a version of docs/releases.md or any commit (default: the
//!    newest release listed). Its `wort` is built from a `git worktree` into
//!    `target/upgrade-builds` (debug: this is a correctness check), once per commit; this
//!    checkout's `wort` is built too.
//! 2. On a private PostgreSQL cluster the old wort migrates and serves; the fill signs up
//!    accounts and writes, through the old build's public HTTP API, everything its OpenAPI
//!    document offers ([`fill`]): routes the old build lacks are skipped and listed.
//! 3. Every resource of every account is read back from the old wort ([`snapshot`]).
//! 4. The old wort stops; the current one starts on the same database (it migrates), the same
//!    reads are made and compared field by field ([`compare`]). Then every API key must still
//!    authenticate, every password sign in, and every device token ingest a reading.
//! 5. The report (stdout and `target/upgrade/<from>.md`) counts what was compared, and lists
//!    what is missing or changed (the first examples), the new fields and the expected
//!    differences; the exit code is non-zero when anything is missing or changed or a check failed.
//!
//! `--time-migrations` is the other program of this module ([`migration_time`]): how long each
//! migration that rewrites rows takes on a large data set.

mod builds;
mod compare;
mod fill;
mod http;
mod json;
mod migration_time;
mod snapshot;

use std::{
    fs,
    io::Write as _,
    net::SocketAddr,
    path::{Path, PathBuf},
    process::ExitCode,
    time::Instant,
};

use wort_pgcluster::ClusterOptions;

use crate::cluster::{TestCluster, sweep_orphans};
use crate::process::{Process, free_local_addr, wait_until_ready, wort_command};
use crate::target_dir;
use fill::{Account, Routes};
use http::Auth;
use json::Json;

const DIR_PREFIX: &str = "wort-upgrade-";
const DATABASE: &str = "wort";

const USAGE: &str = "usage: cargo xtask upgrade [-- options]

  --from NAME       the release (a version of docs/releases.md) or commit to upgrade from;
                    default: the newest release of docs/releases.md
  --accounts N      accounts to fill (default 20)
  --recipes N       recipes written per account, besides the imported, copied and scaled
                    ones (default 6)
  --wort PATH       the new wort binary to test (default: this checkout's, built now)
  --time-migrations instead: time each migration that rewrites rows on a large data set
                    (`--time-migrations --help` for its options)";

struct Options {
    from: Option<String>,
    accounts: usize,
    recipes: usize,
    wort: Option<PathBuf>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            from: None,
            accounts: 20,
            recipes: 6,
            wort: None,
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .cloned()
                    .ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"))
            };
            match arg.as_str() {
                "--from" => options.from = Some(value("--from")?),
                "--accounts" => options.accounts = number(&value("--accounts")?)?,
                "--recipes" => options.recipes = number(&value("--recipes")?)?,
                "--wort" => options.wort = Some(PathBuf::from(value("--wort")?)),
                "-h" | "--help" => return Err(USAGE.to_owned()),
                other => return Err(format!("unknown option {other}\n\n{USAGE}")),
            }
        }
        Ok(options)
    }
}

fn number(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("`{text}` is not a positive number\n\n{USAGE}"))
}

fn step(what: &str) {
    eprintln!("==> {what}");
}

pub fn run(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--time-migrations") {
        let rest: Vec<String> = args
            .iter()
            .filter(|a| *a != "--time-migrations")
            .cloned()
            .collect();
        return migration_time::run(&rest);
    }
    let options = match Options::parse(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    match upgrade(&options) {
        Ok((report, passed)) => {
            let _ = std::io::stdout().write_all(report.as_bytes());
            eprintln!(
                "xtask upgrade: {} in {:.0} s",
                if passed { "passed" } else { "FAILED" },
                started.elapsed().as_secs_f64()
            );
            if passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            eprintln!("xtask upgrade: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The output directory: snapshots, logs and reports of the last runs.
fn out_dir() -> PathBuf {
    target_dir().join("upgrade")
}

fn upgrade(options: &Options) -> Result<(String, bool), String> {
    sweep_orphans(DIR_PREFIX);
    let from = builds::resolve(options.from.as_deref())?;
    step(&format!(
        "build the old wort: {} ({})",
        from.label,
        from.commit.get(..12).unwrap_or(&from.commit)
    ));
    let old_wort = builds::old_wort(&from.commit)?;
    let new_wort = match &options.wort {
        Some(path) => path.clone(),
        None => {
            step("build this checkout's wort");
            builds::current_wort()?
        }
    };
    let out = out_dir();
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;

    step("postgres");
    let cluster = TestCluster::start(
        DIR_PREFIX,
        DATABASE,
        ClusterOptions {
            ephemeral: true,
            max_connections: Some(100),
        },
    )?;
    let result = upgrade_on(options, &from, &cluster.url, &old_wort, &new_wort, &out);
    let finished = cluster.finish();
    let result = result?;
    finished?;
    Ok(result)
}

/// A wort serving `database_url` (migrating it first), its log in `log`.
fn serve(
    wort: &Path,
    work: &Path,
    database_url: &str,
    log: &Path,
) -> Result<(Process, SocketAddr), String> {
    let addr = free_local_addr()?;
    let file = fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let file_err = file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let child = wort_command(wort, work, database_url)
        .arg("serve")
        .env("WORT_ADDR", addr.to_string())
        // Webhooks are written and read back, never delivered (no retries changing them).
        .env("WORT_WEBHOOK_DELIVERY", "off")
        .env("WORT_WEBHOOK_ALLOW_PRIVATE", "1")
        // Every device post stores its reading (the checks post again soon after the fill).
        .env("WORT_DEVICE_READING_INTERVAL_SECS", "0")
        .stdout(file)
        .stderr(file_err)
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", wort.display()))?;
    let mut server = Process::new("wort", child);
    wait_until_ready(addr, &mut server, log)?;
    Ok((server, addr))
}

fn upgrade_on(
    options: &Options,
    from: &builds::From,
    database_url: &str,
    old_wort: &Path,
    new_wort: &Path,
    out: &Path,
) -> Result<(String, bool), String> {
    let work = out.join("work");
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;

    step(&format!(
        "the old wort ({}) migrates and serves",
        from.label
    ));
    let (old, addr) = serve(old_wort, &work, database_url, &out.join("old.log"))?;
    let document = http::json(addr, "GET", "/v1/openapi.json", Auth::None, None)?;
    let routes = Routes::from_openapi(&document)?;
    eprintln!("    its OpenAPI document has {} operations", routes.len());

    step(&format!(
        "fill {} accounts through its API ({} written recipes each, plus imports, a copy and a scaled one)",
        options.accounts, options.recipes
    ));
    let filled = Instant::now();
    let (accounts, tally) = fill::fill(addr, &routes, options.accounts, options.recipes)?;
    eprintln!(
        "    {} writes in {:.0} s",
        tally.written.values().sum::<usize>(),
        filled.elapsed().as_secs_f64()
    );

    step("read everything back from the old wort");
    let before = snapshot::discover(addr, &routes, &accounts)?;
    write_snapshot(&out.join(format!("{}-before.json", from.label)), &before)?;
    old.stop()?;

    step("this wort starts on the same database (it migrates)");
    let migrating = Instant::now();
    let (new, addr) = serve(new_wort, &work, database_url, &out.join("new.log"))?;
    let migrated_in = migrating.elapsed();

    step("read everything back from this wort and compare");
    let reads: Vec<snapshot::Read> = before.values().map(|(read, _)| read.clone()).collect();
    let after = snapshot::read(addr, &accounts, &reads);
    write_snapshot(&out.join(format!("{}-after.json", from.label)), &after)?;
    let report = compare::compare(&before, &after);

    step("old credentials and device tokens");
    let checks = credential_checks(addr, &accounts);
    new.stop()?;

    let text = render(
        from,
        options,
        &tally,
        &report,
        &checks,
        migrated_in.as_secs_f64(),
    );
    let file = out.join(format!("{}.md", from.label));
    fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
    eprintln!("    the report is in {}", file.display());
    let passed = report.passed() && checks.failures.is_empty();
    Ok((text, passed))
}

fn write_snapshot(path: &Path, snapshot: &snapshot::Snapshot) -> Result<(), String> {
    let members = snapshot
        .iter()
        .map(|(label, (_, answer))| {
            let value = match answer {
                snapshot::Answer::Json(json) => json.clone(),
                snapshot::Answer::Failed(status, body) => Json::Object(vec![
                    ("failed".into(), Json::Number(status.to_string())),
                    ("body".into(), Json::String(body.clone())),
                ]),
            };
            (label.clone(), value)
        })
        .collect();
    fs::write(path, Json::Object(members).to_text()).map_err(|e| format!("{}: {e}", path.display()))
}

#[derive(Default)]
struct Checks {
    keys: usize,
    passwords: usize,
    devices: usize,
    failures: Vec<String>,
}

/// Every API key reads `/v1/me` as its account, every password signs in, every device token
/// stores a reading (the one with a session) or is refused only for having none (`409`).
fn credential_checks(addr: SocketAddr, accounts: &[Account]) -> Checks {
    let mut checks = Checks::default();
    for account in accounts {
        let who = format!("brewer-{}", account.index);
        let me = http::json(
            addr,
            "GET",
            "/v1/me",
            Auth::Key(account.keys.first().map_or("", String::as_str)),
            None,
        )
        .ok()
        .and_then(|me| me.str_field("id").map(str::to_owned));
        for (n, key) in account.keys.iter().enumerate() {
            checks.keys += 1;
            match http::json(addr, "GET", "/v1/me", Auth::Key(key), None) {
                Ok(answer) if answer.str_field("id").map(str::to_owned) == me && me.is_some() => {}
                Ok(answer) => checks.failures.push(format!(
                    "{who}: API key {n} reads another account: {}",
                    answer.to_text()
                )),
                Err(e) => checks.failures.push(format!("{who}: API key {n}: {e}")),
            }
        }
        checks.passwords += 1;
        let body = format!(
            r#"{{"email":{},"password":{}}}"#,
            json::quote(&account.email),
            json::quote(&account.password)
        );
        match http::request(
            addr,
            "POST",
            "/api/auth/sign-in/email",
            Auth::None,
            Some(&body),
        ) {
            Ok(reply) if reply.ok() => {}
            Ok(reply) => checks
                .failures
                .push(format!("{who}: sign-in {} {}", reply.status, reply.body)),
            Err(e) => checks.failures.push(format!("{who}: sign-in: {e}")),
        }
        for (device, token) in &account.devices {
            checks.devices += 1;
            let posted = http::request(
                addr,
                "POST",
                &format!("/ingest/{token}"),
                Auth::None,
                Some(
                    r#"{"name":"iSpindel001","angle":40.1,"temperature":18.25,"temp_units":"C","gravity":1.0187}"#,
                ),
            );
            let device_now = http::json(
                addr,
                "GET",
                &format!("/v1/devices/{device}"),
                Auth::Key(account.keys.first().map_or("", String::as_str)),
                None,
            );
            let has_session = device_now
                .as_ref()
                .ok()
                .and_then(|d| d.get("session_id"))
                .is_some_and(|s| *s != Json::Null);
            match (posted, has_session) {
                (Ok(reply), true) if reply.ok() => {
                    // The reading is stored on the device's session.
                    let session = device_now
                        .as_ref()
                        .ok()
                        .and_then(|d| d.str_field("session_id"))
                        .unwrap_or_default()
                        .to_owned();
                    let latest = http::json(
                        addr,
                        "GET",
                        &format!("/v1/sessions/{session}/fermentation-logs/latest"),
                        Auth::Key(account.keys.first().map_or("", String::as_str)),
                        None,
                    );
                    let gravity = latest.as_ref().ok().and_then(|l| match l.get("gravity") {
                        Some(Json::Number(n)) => n.parse::<f64>().ok(),
                        _ => None,
                    });
                    if gravity.is_none_or(|g| (g - 1.0187).abs() > 1e-6) {
                        checks.failures.push(format!(
                            "{who}: device {device}'s post was accepted but the latest reading is {:?}",
                            latest.map(|l| l.to_text())
                        ));
                    }
                }
                (Ok(reply), false) if reply.status == 409 => {}
                (Ok(reply), _) => checks.failures.push(format!(
                    "{who}: device {device}'s token: {} {}",
                    reply.status, reply.body
                )),
                (Err(e), _) => checks.failures.push(format!("{who}: device {device}: {e}")),
            }
        }
    }
    checks
}

const EXAMPLES: usize = 15;

fn render(
    from: &builds::From,
    options: &Options,
    tally: &fill::Tally,
    report: &compare::Report,
    checks: &Checks,
    migrated_secs: f64,
) -> String {
    let mut s = String::new();
    let mut line = |text: String| {
        s.push_str(&text);
        s.push('\n');
    };
    line(format!(
        "# Upgrade from {} ({}) to this build\n",
        from.label,
        from.commit.get(..12).unwrap_or(&from.commit)
    ));
    line(format!(
        "{} accounts; written through the old API: {}",
        options.accounts,
        tally
            .written
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if !tally.skipped.is_empty() {
        line(format!(
            "left out (the old build lacks the route or refused the file): {}",
            tally.skipped.iter().cloned().collect::<Vec<_>>().join("; ")
        ));
    }
    line(format!(
        "\nthis wort migrated and got ready in {migrated_secs:.1} s\n"
    ));
    line(format!(
        "compared: {} resources, {} fields; missing: {}; changed: {}; new fields: {} kinds",
        report.resources,
        report.fields,
        report.missing.len(),
        report.changed.len(),
        report.new_fields.len()
    ));
    line(format!(
        "credentials after the upgrade: {} API keys, {} passwords, {} device tokens checked; {} failed",
        checks.keys,
        checks.passwords,
        checks.devices,
        checks.failures.len()
    ));
    for (title, list) in [
        ("missing", &report.missing),
        ("changed", &report.changed),
        ("failed checks", &checks.failures),
    ] {
        if list.is_empty() {
            continue;
        }
        line(format!(
            "\n## {title} (first {} of {})\n",
            EXAMPLES.min(list.len()),
            list.len()
        ));
        for item in list.iter().take(EXAMPLES) {
            line(format!("- {item}"));
        }
    }
    if !report.changed_kinds.is_empty() {
        line("\n## changed, by route and field\n".into());
        for (field, count) in &report.changed_kinds {
            line(format!("- {field} ({count})"));
        }
    }
    if !report.expected.is_empty() {
        line("\n## expected differences (intended by the new version)\n".into());
        for (reason, count) in &report.expected {
            line(format!("- {count} × {reason}"));
        }
    }
    if !report.new_fields.is_empty() {
        line("\n## new fields (present after, absent before)\n".into());
        for (field, count) in &report.new_fields {
            line(format!("- {field} ({count})"));
        }
    }
    s
}
