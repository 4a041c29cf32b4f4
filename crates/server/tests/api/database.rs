//! A database of its own for each test process, cloned from a migrated template.
//!
//! `WORT_TEST_DATABASE_URL` names a server and a database to connect to for administration
//! (`cargo xtask test` sets it to its private cluster). The first process of a run migrates a
//! template, `wort_template_<fingerprint of migrations/>`, and marks it `IS_TEMPLATE` with
//! connections disallowed; every process then makes its own `wort_test_<run>_<pid>` with
//! `CREATE DATABASE … TEMPLATE`, which copies files instead of replaying the migrations.
//! nextest runs each test in a process of its own, so there each test has a database of its own.
//!
//! * Nobody stays connected to the template (PostgreSQL refuses to clone a database that has
//!   other sessions): the migration's connection is closed before the template is marked, and
//!   afterwards the template accepts no connections at all.
//! * The template is checked and built under a PostgreSQL advisory lock, so one process builds
//!   it and the others wait. The lock goes with its session, so a crashed builder never blocks
//!   the others; a template it left half-built is not marked, and the next process rebuilds it.
//! * The name carries a fingerprint of the migrations (and of the built-in catalogue seeded with
//!   them), so a server that outlives a run (a developer's own PostgreSQL) never hands out a
//!   template from older migrations.
//! * The databases are not dropped at exit (a test process has no reliable exit hook). The
//!   throwaway cluster of `cargo xtask test` takes them with it; on a server that outlives the
//!   run, a later run drops those of earlier runs whose process is gone (never during a run:
//!   dropping costs as much as cloning).
//!
//! Administration goes through one `psql` session per process, fed through a pipe: every
//! PostgreSQL installation has psql, and the tests have no SQL client of their own.

use std::{
    hash::{DefaultHasher, Hash, Hasher},
    io::{BufRead, BufReader, Lines, Read, Write},
    path::Path,
    process::{Child, ChildStdout, Command, Stdio},
    sync::OnceLock,
};

/// Each process's database is `wort_test_<run>_<pid>`.
const CLONE_PREFIX: &str = "wort_test_";
/// Arbitrary constant naming the template's advisory lock ("wort tpl" in ASCII).
const TEMPLATE_LOCK: i64 = 0x776f_7274_2074_706c;

/// The URL of this process's own database, made on first use.
pub fn own_database_url() -> String {
    static OWN: OnceLock<String> = OnceLock::new();
    OWN.get_or_init(|| match clone_for_this_process() {
        Ok(url) => url,
        Err(error) => panic!("could not prepare the test database: {error}"),
    })
    .clone()
}

/// A further database of this process, `tag` naming it, for tests whose servers must not share
/// a database with other tests' servers. Webhook workers claim any account's due deliveries, and
/// when a test ends its runtime drops its server's attempts in flight, which then wait for their
/// lease to end (60 s) before another worker retries them: right in production (at least once,
/// never lost), but a delay another test would wait for in vain. Under nextest each test has a
/// database of its own anyway; this keeps `cargo test` (one database per binary) reliable.
pub fn isolated_database_url(tag: &str) -> String {
    own_database_url(); // the template exists from here on
    let admin = admin_url();
    let template = match migrations_fingerprint() {
        Ok(f) => format!("wort_template_{f:016x}"),
        Err(e) => panic!("{e}"),
    };
    let name = format!("{CLONE_PREFIX}{}_{}_{tag}", run_tag(), std::process::id());
    let made = Psql::start(&admin).and_then(|mut psql| {
        psql.run(&format!(
            "CREATE DATABASE \"{name}\" TEMPLATE \"{template}\""
        ))?;
        psql.finish()
    });
    if let Err(e) = made {
        panic!("could not make {name}: {e}");
    }
    with_database(&admin, &name)
}

/// The administration URL from the environment.
pub fn admin_url() -> String {
    std::env::var("WORT_TEST_DATABASE_URL").expect(
        "WORT_TEST_DATABASE_URL is not set: run the tests with `cargo xtask test`, \
         which starts a private PostgreSQL and sets it",
    )
}

fn clone_for_this_process() -> Result<String, String> {
    let admin = admin_url();
    let template = format!("wort_template_{:016x}", migrations_fingerprint()?);
    let run = run_tag();
    let own = format!("{CLONE_PREFIX}{run}_{}", std::process::id());
    let mut psql = Psql::start(&admin)?;
    psql.run(&format!("SELECT pg_advisory_lock({TEMPLATE_LOCK})"))?;
    let ready = psql.run(&format!(
        "SELECT datistemplate FROM pg_database WHERE datname = '{template}'"
    ))?;
    if ready != ["t"] {
        build_template(&mut psql, &admin, &template)?;
    }
    psql.run(&format!("SELECT pg_advisory_unlock({TEMPLATE_LOCK})"))?;
    psql.run(&format!(
        "CREATE DATABASE \"{own}\" TEMPLATE \"{template}\""
    ))?;
    drop_earlier_runs(&mut psql, &run)?;
    psql.finish()?;
    Ok(with_database(&admin, &own))
}

/// (Re)builds the template; the caller holds the lock.
fn build_template(psql: &mut Psql, admin: &str, template: &str) -> Result<(), String> {
    psql.run(&format!("DROP DATABASE IF EXISTS \"{template}\""))?;
    psql.run(&format!("CREATE DATABASE \"{template}\""))?;
    let url = with_database(admin, template);
    // `run_migrations` is async; on a thread of its own it gets a runtime of its own, whatever
    // runtime (if any) the calling test runs on.
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?
            .block_on(wort_db::migrate::run_migrations(&url))
    })
    .join()
    .map_err(|_| "the migration thread panicked".to_owned())??;
    psql.run(&format!(
        "ALTER DATABASE \"{template}\" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"
    ))?;
    Ok(())
}

/// nextest's run id, the same for every test process of one run; without nextest (one process
/// per test binary), this process's id.
fn run_tag() -> String {
    std::env::var("NEXTEST_RUN_ID")
        .map(|id| id.replace('-', ""))
        .unwrap_or_else(|_| format!("p{}", std::process::id()))
}

/// Databases of earlier runs whose process is gone (only on a server that outlives a run).
/// One still in use cannot be dropped, and is left alone.
fn drop_earlier_runs(psql: &mut Psql, run: &str) -> Result<(), String> {
    if !Path::new("/proc/self").exists() {
        return Ok(()); // cannot tell which processes are gone
    }
    let names = psql.run(&format!(
        "SELECT datname FROM pg_database WHERE starts_with(datname, '{CLONE_PREFIX}')"
    ))?;
    for name in names {
        let Some((tag, pid)) = name
            .strip_prefix(CLONE_PREFIX)
            .and_then(|rest| rest.rsplit_once('_'))
        else {
            continue;
        };
        let ours = (tag.len() == 32 && tag.bytes().all(|b| b.is_ascii_hexdigit()))
            || tag
                .strip_prefix('p')
                .is_some_and(|n| n.parse::<u32>().is_ok());
        let (true, Ok(pid)) = (ours, pid.parse::<u32>()) else {
            continue; // not made by this module
        };
        if tag != run && !Path::new("/proc").join(pid.to_string()).exists() {
            // Fails when someone is connected: then it is not an orphan after all.
            let _ = psql.run(&format!("DROP DATABASE IF EXISTS \"{name}\""));
        }
    }
    Ok(())
}

/// A fingerprint of every file under `migrations/`, names and contents.
fn migrations_fingerprint() -> Result<u64, String> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../migrations"));
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut hasher = DefaultHasher::new();
    // The built-in catalogue is seeded with the migrations: new data, new template.
    wort_domain::catalog::builtin::fingerprint().hash(&mut hasher);
    for file in files {
        file.strip_prefix(root).unwrap_or(&file).hash(&mut hasher);
        std::fs::read(&file)
            .map_err(|e| format!("{}: {e}", file.display()))?
            .hash(&mut hasher);
    }
    Ok(hasher.finish())
}

/// `url` with its database name replaced (`scheme://user@host/<db>?params`).
pub fn with_database(url: &str, database: &str) -> String {
    let (prefix, params) = url.split_once('?').unwrap_or((url, ""));
    let server = prefix.rsplit_once('/').map_or(prefix, |(server, _)| server);
    if params.is_empty() {
        format!("{server}/{database}")
    } else {
        format!("{server}/{database}?{params}")
    }
}

/// One psql session, fed statement by statement through a pipe. psql answers each statement
/// as it completes, so a statement's output is known to be complete when a marker that follows
/// it comes back. The session (and any advisory lock it holds) ends when psql reads the end of
/// its input: on [`finish`](Self::finish), on drop, or when this process dies.
pub(crate) struct Psql {
    child: Child,
    out: Lines<BufReader<ChildStdout>>,
}

const DONE: &str = "-- psql done --";

impl Psql {
    pub(crate) fn start(url: &str) -> Result<Psql, String> {
        let mut child = Command::new("psql")
            .args([url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not run psql: {e}"))?;
        let out = child.stdout.take().ok_or("psql has no stdout")?;
        Ok(Psql {
            child,
            out: BufReader::new(out).lines(),
        })
    }

    /// Runs one statement (outside a transaction block unless an earlier `BEGIN` opened one, so
    /// `CREATE DATABASE` works) and returns the lines it printed. An error ends psql (`ON_ERROR_STOP`) and is returned with its text.
    pub(crate) fn run(&mut self, statement: &str) -> Result<Vec<String>, String> {
        let stdin = self.child.stdin.as_mut().ok_or("psql has no stdin")?;
        writeln!(stdin, "{statement};\nSELECT '{DONE}';")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("psql: {e}"))?;
        let mut lines = Vec::new();
        for line in self.out.by_ref() {
            let line = line.map_err(|e| format!("psql: {e}"))?;
            if line == DONE {
                return Ok(lines);
            }
            if !line.is_empty() {
                lines.push(line);
            }
        }
        Err(format!("{statement}: {}", self.stderr()))
    }

    fn stderr(&mut self) -> String {
        let _ = self.child.wait();
        let mut text = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = err.read_to_string(&mut text);
        }
        text.trim().to_owned()
    }

    pub(crate) fn finish(mut self) -> Result<(), String> {
        drop(self.child.stdin.take());
        match self.child.wait() {
            Ok(status) if status.success() => Ok(()),
            _ => Err(format!("psql: {}", self.stderr())),
        }
    }
}

impl Drop for Psql {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}
