//! `cargo xtask fuzz-api [--quick]`: Schemathesis against a live wort.
//!
//! 1. Installs Schemathesis (pinned) into a virtualenv under `target/fuzz-venv` (reused when it
//!    already holds that version).
//! 2. Builds `wort` (debug), starts a private PostgreSQL cluster, `wort migrate`, the fake
//!    OpenAI-compatible provider (`xtask/fuzz/fake_provider.py`) and `wort serve` on 127.0.0.1
//!    with its AI routes pointed at the fake.
//! 3. Signs up an account and creates an API key through the API.
//! 4. Runs `st run` on `/v1/openapi.json` with the key, every check, a fixed seed and a bounded
//!    number of examples per operation (`xtask/fuzz/schemathesis.toml` holds the settings that
//!    are not flags; docs/testing.md explains each).
//! 5. Stops everything (also on failure or panic) and fails when Schemathesis found anything.
//!
//! Logs and reports go to `target/fuzz/` (wort's log, the provider's, Schemathesis' JUnit and
//! NDJSON reports); they stay after the run.

use std::{
    env, fs,
    io::{Read, Write},
    net::{SocketAddr, TcpStream},
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
    thread,
    time::{Duration, Instant},
};

use wort_pgcluster::ClusterOptions;

use crate::cluster::TestCluster;
use crate::process::{
    Process, build_debug_wort, free_local_addr, wait_until_ready, wort_command, wort_migrate,
};
use crate::{target_dir, workspace_root};

/// The Schemathesis release the run is pinned to (its CLI and checks change between releases).
pub const SCHEMATHESIS_VERSION: &str = "4.32.5";
/// Fuzz clusters live in `$TMPDIR/wort-fuzz-<pid>-<nanos>`.
const DIR_PREFIX: &str = "wort-fuzz-";
const DATABASE: &str = "wort";
/// Fixed, so a run can be repeated exactly (`--seed` overrides it).
const DEFAULT_SEED: u64 = 20_261_122;
/// The model name wort sends to the fake provider.
const FAKE_MODEL: &str = "fake-brewer-1";

const USAGE: &str = "usage: cargo xtask fuzz-api [-- options]

  --quick              the bounded run of `cargo xtask test`: 25 examples per operation and a
                       150 s budget (about 3 minutes in all), stopped after 6 minutes at most
  --seed N             Schemathesis' seed (default 20261122)
  --max-examples N     examples per operation in each pass (default 100; 25 with --quick)
  --max-time SECS      Schemathesis' time budget: after one pass of every phase, fuzzing and
                       stateful testing repeat until it is spent (default 900; 150 with --quick)

Logs and reports: target/fuzz/ (wort.log, provider.log, report/).";

#[derive(Clone, Debug)]
pub struct Options {
    seed: u64,
    max_examples: u32,
    /// Schemathesis' own budget (`--max-time`); `None`: one pass of every phase.
    max_time: Option<u32>,
    /// xtask kills Schemathesis (and fails) after this long.
    deadline: Duration,
}

impl Options {
    pub fn quick() -> Options {
        Options {
            seed: DEFAULT_SEED,
            max_examples: 25,
            max_time: Some(150),
            deadline: Duration::from_secs(360),
        }
    }

    fn full() -> Options {
        Options {
            seed: DEFAULT_SEED,
            max_examples: 100,
            max_time: Some(900),
            deadline: Duration::from_secs(1_500),
        }
    }

    fn parse(args: &[String]) -> Result<Options, String> {
        let quick = args.iter().any(|a| a == "--quick");
        let mut options = if quick {
            Options::quick()
        } else {
            Options::full()
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let mut number = |name: &str| -> Result<u64, String> {
                args.next()
                    .and_then(|v| v.parse::<u64>().ok())
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("{name} needs a positive number\n\n{USAGE}"))
            };
            match arg.as_str() {
                "--quick" => {}
                "--seed" => options.seed = number("--seed")?,
                "--max-examples" => {
                    options.max_examples = u32::try_from(number("--max-examples")?)
                        .map_err(|_| "--max-examples is too large".to_owned())?;
                }
                "--max-time" => {
                    let secs = u32::try_from(number("--max-time")?)
                        .map_err(|_| "--max-time is too large".to_owned())?;
                    options.max_time = Some(secs);
                    options.deadline = Duration::from_secs(u64::from(secs) * 3 / 2 + 300);
                }
                "-h" | "--help" => return Err(USAGE.to_owned()),
                other => return Err(format!("unknown option {other}\n\n{USAGE}")),
            }
        }
        Ok(options)
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
    crate::cluster::sweep_orphans(DIR_PREFIX);
    let result = build_wort().and_then(|wort| fuzz(&options, &wort));
    let took = started.elapsed().as_secs_f64();
    match result {
        Ok(()) => {
            eprintln!("xtask fuzz-api: no failures ({took:.0} s)");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!(
                "xtask fuzz-api: {error} ({took:.0} s; logs in {})",
                fuzz_dir().display()
            );
            ExitCode::FAILURE
        }
    }
}

fn step(what: &str) {
    eprintln!("==> fuzz-api: {what}");
}

/// Logs and reports of the last run.
fn fuzz_dir() -> PathBuf {
    target_dir().join("fuzz")
}

fn venv_dir() -> PathBuf {
    target_dir().join("fuzz-venv")
}

fn build_wort() -> Result<PathBuf, String> {
    step("build wort");
    build_debug_wort()
}

/// The bounded run of `cargo xtask test`: build, then [`fuzz`] with [`Options::quick`].
pub fn quick() -> Result<(), String> {
    crate::cluster::sweep_orphans(DIR_PREFIX);
    let wort = build_wort()?;
    fuzz(&Options::quick(), &wort)
}

/// The whole run after the build: the private cluster and the servers are stopped on every way
/// out (guards).
pub fn fuzz(options: &Options, wort_bin: &Path) -> Result<(), String> {
    let st = ensure_schemathesis()?;
    let out = fuzz_dir();
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
    let result = fuzz_on(options, &cluster.url, wort_bin, &st, &out);
    let finished = cluster.finish();
    result.and(finished)
}

fn fuzz_on(
    options: &Options,
    database_url: &str,
    wort_bin: &Path,
    st: &Path,
    out: &Path,
) -> Result<(), String> {
    step("wort migrate");
    wort_migrate(wort_bin, out, database_url)?;

    step("fake AI provider");
    let provider = FakeProvider::start(out, &venv_dir().join("bin").join("python"))?;

    step("wort serve");
    let addr = free_local_addr()?;
    let log_path = out.join("wort.log");
    let log = fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let log_err = log
        .try_clone()
        .map_err(|e| format!("{}: {e}", log_path.display()))?;
    let child = wort_command(wort_bin, out, database_url)
        .args(["serve", "--no-migrate"])
        .env("WORT_ADDR", addr.to_string())
        .env("WORT_AI_BASE_URL", format!("http://{}/v1", provider.addr))
        .env("WORT_AI_MODEL", FAKE_MODEL)
        .env("WORT_AI_API_KEY", "sk-fuzz-not-a-real-key")
        .stdout(log)
        .stderr(log_err)
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", wort_bin.display()))?;
    let mut server = Process::new("wort", child);
    wait_until_ready(addr, &mut server, &log_path)?;

    step("account and API key");
    let key = create_api_key(addr)?;

    step(&format!(
        "schemathesis {SCHEMATHESIS_VERSION} (seed {}, {} examples per operation{})",
        options.seed,
        options.max_examples,
        options
            .max_time
            .map_or_else(String::new, |s| format!(", {s} s budget"))
    ));
    let fuzz_files = workspace_root().join("xtask").join("fuzz");
    let report_dir = out.join("report");
    let _ = fs::remove_dir_all(&report_dir);
    let mut command = Command::new(st);
    command
        .current_dir(out)
        .env("SCHEMATHESIS_HOOKS", fuzz_files.join("hooks.py"))
        .arg("--config-file")
        .arg(fuzz_files.join("schemathesis.toml"))
        .arg("run")
        .arg(format!("http://{addr}/v1/openapi.json"))
        .args(["--header", &format!("X-API-Key: {key}")])
        .args(["--checks", "all"])
        .args(["--seed", &options.seed.to_string()])
        .args(["--max-examples", &options.max_examples.to_string()])
        // Examples found by earlier runs would be replayed first: the run would depend on history.
        .args(["--generation-database", "none"])
        .args(["--request-timeout", "30"])
        .args(["--report", "junit,ndjson"])
        .arg("--report-dir")
        .arg(&report_dir)
        .stdin(Stdio::null());
    if let Some(secs) = options.max_time {
        command.args(["--max-time", &secs.to_string()]);
    }
    if env::var_os("NO_COLOR").is_some() || env::var_os("CI").is_some() {
        command.arg("--no-color");
    }
    let started = Instant::now();
    let child = command
        .spawn()
        .map_err(|e| format!("could not run {}: {e}", st.display()))?;
    let mut schemathesis = Process::new("schemathesis", child);
    let status = schemathesis.wait_until(started + options.deadline)?;
    eprintln!(
        "    schemathesis took {:.0} s",
        started.elapsed().as_secs_f64()
    );

    step("stop wort");
    let stopped = server.stop();
    drop(provider);
    match status {
        None => Err(format!(
            "schemathesis did not finish within {} s; stopped it",
            options.deadline.as_secs()
        )),
        Some(status) if !status.success() => Err(format!(
            "schemathesis reported failures ({status}); wort's log: {}",
            log_path.display()
        )),
        Some(_) => stopped,
    }
}

// ---- Schemathesis ------------------------------------------------------------------------------

/// `target/fuzz-venv/bin/st` at the pinned version: reused when there, else installed with pip.
fn ensure_schemathesis() -> Result<PathBuf, String> {
    let venv = venv_dir();
    let bin = venv.join("bin");
    let st = bin.join("st");
    if installed_version(&st).as_deref() == Some(SCHEMATHESIS_VERSION) {
        return Ok(st);
    }
    step(&format!(
        "install schemathesis {SCHEMATHESIS_VERSION} into {}",
        venv.display()
    ));
    if !bin.join("python").exists() {
        let output = Command::new("python3")
            .arg("-m")
            .arg("venv")
            .arg(&venv)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("could not run python3 (needed for Schemathesis): {e}"))?;
        if !output.status.success() {
            let _ = fs::remove_dir_all(&venv);
            return Err(format!(
                "python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv): {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
    }
    let status = Command::new(bin.join("python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            &format!("schemathesis=={SCHEMATHESIS_VERSION}"),
        ])
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("could not run pip: {e}"))?;
    if !status.success() {
        return Err(format!(
            "pip install schemathesis=={SCHEMATHESIS_VERSION} failed"
        ));
    }
    match installed_version(&st) {
        Some(v) if v == SCHEMATHESIS_VERSION => Ok(st),
        other => Err(format!(
            "{} reports version {other:?} after the install",
            st.display()
        )),
    }
}

/// `st, version 4.32.5` → `4.32.5`.
fn installed_version(st: &Path) -> Option<String> {
    let output = Command::new(st)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    output
        .status
        .success()
        .then(|| text.trim().rsplit(' ').next().map(str::to_owned))
        .flatten()
}

// ---- Processes ---------------------------------------------------------------------------------

/// `xtask/fuzz/fake_provider.py` on a port of its choosing (it writes the port to a file). It
/// needs only Python's standard library; `cargo xtask soak` runs it too.
pub(crate) struct FakeProvider {
    _process: Process,
    pub(crate) addr: SocketAddr,
}

impl FakeProvider {
    /// Starts the fake with `python`, its log and port file in `out`.
    pub(crate) fn start(out: &Path, python: &Path) -> Result<FakeProvider, String> {
        let script = workspace_root()
            .join("xtask")
            .join("fuzz")
            .join("fake_provider.py");
        let port_file = out.join("provider.port");
        let _ = fs::remove_file(&port_file);
        let log_path = out.join("provider.log");
        let log =
            fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
        let log_err = log
            .try_clone()
            .map_err(|e| format!("{}: {e}", log_path.display()))?;
        let child = Command::new(python)
            .arg(&script)
            .arg(&port_file)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_err)
            .spawn()
            .map_err(|e| format!("could not start {}: {e}", script.display()))?;
        let mut process = Process::new("fake provider", child);
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Some(port) = fs::read_to_string(&port_file)
                .ok()
                .and_then(|p| p.trim().parse::<u16>().ok())
            {
                return Ok(FakeProvider {
                    _process: process,
                    addr: SocketAddr::from(([127, 0, 0, 1], port)),
                });
            }
            if let Some(status) = process.exited() {
                let text = fs::read_to_string(&log_path).unwrap_or_default();
                return Err(format!("the fake provider exited ({status}):\n{text}"));
            }
            if Instant::now() > deadline {
                return Err("the fake provider did not start within 15 s".into());
            }
            thread::sleep(Duration::from_millis(50));
        }
    }
}

// ---- Just enough HTTP/1.1 to sign up -----------------------------------------------------------

struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

/// One request on its own connection (`Connection: close`, so the body ends with the stream).
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Result<Response, String> {
    let fail = |e: std::io::Error| format!("{method} {path}: {e}");
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).map_err(fail)?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(fail)?;
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    request.push_str("\r\n");
    request.push_str(body.unwrap_or_default());
    stream.write_all(request.as_bytes()).map_err(fail)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).map_err(fail)?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("{method} {path}: no complete response"))?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{method} {path}: no status line"))?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Ok(Response {
        status,
        headers,
        body: body.to_owned(),
    })
}

/// Signs up (keeping the session cookie) and creates an API key with it.
fn create_api_key(addr: SocketAddr) -> Result<String, String> {
    let sign_up = http(
        addr,
        "POST",
        "/api/auth/sign-up/email",
        &[],
        Some(
            r#"{"name":"Fuzz","email":"fuzz@example.com","password":"correct horse battery staple"}"#,
        ),
    )?;
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
    let created = http(
        addr,
        "POST",
        "/api/auth/api-key/create",
        &[("Cookie", &cookie), ("Origin", &origin)],
        Some(r#"{"name":"schemathesis"}"#),
    )?;
    if created.status != 200 {
        return Err(format!(
            "api-key create: {} {}",
            created.status, created.body
        ));
    }
    json_string_field(&created.body, "key").ok_or_else(|| "api-key create: no key".to_owned())
}

/// The value of `"name":"…"` in a flat JSON object whose strings need no unescaping (an API key
/// is `wort_` and base62).
fn json_string_field(json: &str, name: &str) -> Option<String> {
    let start = json.find(&format!("\"{name}\":\""))? + name.len() + 4;
    let rest = json.get(start..)?;
    let end = rest.find('"')?;
    Some(rest.get(..end)?.to_owned())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn finds_the_key_in_the_create_answer() {
        let body = r#"{"id":"x","name":"schemathesis","key":"wort_abc123","start":"wort_abc1"}"#;
        assert_eq!(json_string_field(body, "key").unwrap(), "wort_abc123");
        assert_eq!(json_string_field(body, "name").unwrap(), "schemathesis");
        assert_eq!(json_string_field(body, "missing"), None);
    }

    #[test]
    fn quick_is_bounded() {
        let quick = Options::parse(&["--quick".to_owned()]).unwrap();
        assert!(quick.max_time.is_some_and(|secs| secs <= 240));
        assert!(quick.deadline <= Duration::from_secs(600));
        let seeded = Options::parse(&["--seed".to_owned(), "7".to_owned()]).unwrap();
        assert_eq!(seeded.seed, 7);
        assert!(Options::parse(&["--bogus".to_owned()]).is_err());
    }
}
