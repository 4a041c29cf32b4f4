//! Starting, attaching to, querying and stopping a cluster.

use std::{
    fs, io,
    os::unix::{fs::MetadataExt, fs::PermissionsExt, net::UnixStream},
    path::{Path, PathBuf},
    process::Output,
    thread,
    time::{Duration, Instant},
};

use crate::{
    binaries::{self, PgBinaries},
    error::ClusterError,
    identity::Identity,
    layout::Layout,
    pidfile::{self, Postmaster},
    placement, process, url,
};

/// How long `pg_ctl start -w` may take (crash recovery included).
const START_TIMEOUT_SECS: u32 = 120;
/// How long a server found starting or stopping in the directory may take to settle.
const SETTLE_TIMEOUT: Duration = Duration::from_secs(60);
/// How many lines of the server log an error message quotes.
const LOG_TAIL_LINES: usize = 20;

/// How to run the cluster.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClusterOptions {
    /// A throwaway cluster (tests): no fsync, no synchronous commit, no full-page writes. Fast,
    /// and a machine crash may corrupt it. Applies to this start only.
    pub ephemeral: bool,
    /// `max_connections`; `None` keeps PostgreSQL's default (100).
    pub max_connections: Option<u32>,
}

/// Entry point: `Cluster::start(dir, options)`.
#[derive(Debug)]
pub struct Cluster;

impl Cluster {
    /// Runs the cluster kept in `dir`, creating the directory and the cluster when needed. A
    /// server already running there is attached to (and keeps the settings it was started with:
    /// `options` apply when this call starts the server); one that died leaves a stale pid file,
    /// which is cleared.
    ///
    /// As root, a new cluster for a directory the `postgres` user cannot reach (one under a
    /// private home) is made under `/var/lib/wort/<hash of dir>/pg` instead, with a note in `dir`;
    /// that is said on stderr, and [`RunningCluster::relocated_from`] tells.
    ///
    /// Blocks: about a second on first start (initdb), a few hundred milliseconds afterwards.
    pub fn start(dir: &Path, options: ClusterOptions) -> Result<RunningCluster, ClusterError> {
        Self::start_at(dir, options, Path::new(placement::RELOCATION_BASE))
    }

    /// [`Cluster::start`], relocating to `<base>/<hash>/pg` when needed (tests use another base).
    fn start_at(
        dir: &Path,
        options: ClusterOptions,
        relocation_base: &Path,
    ) -> Result<RunningCluster, ClusterError> {
        let identity = Identity::detect()?;
        fs::create_dir_all(dir).map_err(ClusterError::io(format!(
            "could not create {}",
            dir.display()
        )))?;
        let asked = dir.canonicalize().map_err(ClusterError::io(format!(
            "could not resolve {}",
            dir.display()
        )))?;
        let root = placement::resolve(&asked, &identity, relocation_base)?;
        if let Some(from) = &root.relocated_from {
            // wort logs to stderr too; this library has no logger of its own.
            eprintln!(
                "wort-pgcluster: PostgreSQL runs as the `postgres` user, which cannot reach {}; \
                 its data lives in {} instead (see {})",
                from.display(),
                root.path.display(),
                from.join(placement::NOTE).display()
            );
        }
        let relocated_from = root.relocated_from;
        let layout = Layout::new(root.path);
        prepare_dirs(&layout, &identity)?;
        let binaries = binaries_for(&layout)?;

        match settle(&layout)? {
            State::Running(postmaster) => {
                return Ok(attach(
                    binaries,
                    identity,
                    layout,
                    relocated_from,
                    &postmaster,
                ));
            }
            State::Stale(postmaster) => clear_stale(&layout, &postmaster)?,
            State::Stopped => {}
        }
        if !initialised(&layout, &identity)? {
            initdb(&binaries, &identity, &layout, options)?;
        }
        if let Err(error) = pg_ctl_start(&binaries, &identity, &layout, options) {
            // Someone else may have started it in the meantime.
            return match settle(&layout) {
                Ok(State::Running(postmaster)) => Ok(attach(
                    binaries,
                    identity,
                    layout,
                    relocated_from,
                    &postmaster,
                )),
                _ => Err(error),
            };
        }
        write_owner(&layout)?;
        Ok(RunningCluster {
            port: layout.port,
            socket_dir: layout.socket_dir.clone(),
            binaries,
            identity,
            layout,
            relocated_from,
            owned: true,
            stopped: false,
        })
    }

    /// Stops whatever server runs in `dir` (a cluster left behind by a killed process), if any;
    /// for a relocated cluster, the one it was relocated to.
    pub fn stop_in(dir: &Path) -> Result<(), ClusterError> {
        let relocated = dir
            .canonicalize()
            .ok()
            .map(|dir| placement::relocated_root(Path::new(placement::RELOCATION_BASE), &dir))
            .filter(|relocated| !dir.join("data").exists() && relocated.exists());
        let data = relocated.as_deref().unwrap_or(dir).join("data");
        match pidfile::read(&data)? {
            Some(pm) if process::is_server_of(pm.pid, &data) => {
                let binaries = PgBinaries::locate()?;
                pg_ctl_stop(&binaries, &Identity::detect()?, &data)
            }
            _ => Ok(()),
        }
    }
}

/// A cluster that is up. Dropping it stops the server if this handle started it (or adopted it
/// from a process that died); `stop` does the same and reports errors.
#[derive(Debug)]
pub struct RunningCluster {
    binaries: PgBinaries,
    identity: Identity,
    layout: Layout,
    relocated_from: Option<PathBuf>,
    port: u16,
    socket_dir: PathBuf,
    owned: bool,
    stopped: bool,
}

impl RunningCluster {
    /// `postgresql://postgres@/<db>?host=<socket dir>&port=<port>` (libpq and tokio-postgres).
    pub fn database_url(&self, db: &str) -> String {
        url::database_url(&self.socket_dir, self.port, db)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn socket_dir(&self) -> &Path {
        &self.socket_dir
    }

    pub fn data_dir(&self) -> &Path {
        &self.layout.data
    }

    pub fn log_file(&self) -> &Path {
        &self.layout.log
    }

    /// The directory that was asked for, when the cluster lives elsewhere because the `postgres`
    /// user cannot reach it (see [`Cluster::start`]); `data_dir` is where it lives.
    pub fn relocated_from(&self) -> Option<&Path> {
        self.relocated_from.as_deref()
    }

    /// Whether dropping or stopping this handle stops the server. False when another live
    /// process started the server and still uses it.
    pub fn owns_server(&self) -> bool {
        self.owned
    }

    /// `psql` connected to `db` as `postgres`, without `~/.psqlrc`; add `-c` and friends.
    pub fn psql(&self, db: &str) -> std::process::Command {
        let mut command = self.identity.command(&self.binaries.tool("psql"));
        command
            .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h"])
            .arg(&self.socket_dir)
            .args(["-p", &self.port.to_string(), "-U", "postgres", "-d", db]);
        command
    }

    pub fn database_exists(&self, name: &str) -> Result<bool, ClusterError> {
        let sql = format!(
            "select 1 from pg_database where datname = {}",
            quote_literal(name)
        );
        let output = self.query("postgres", &sql)?;
        Ok(String::from_utf8_lossy(&output.stdout).trim() == "1")
    }

    /// Creates database `name` unless it exists.
    pub fn create_database(&self, name: &str) -> Result<(), ClusterError> {
        if name.is_empty() || name.len() > 63 || name.contains('\0') {
            return Err(ClusterError::Setup(format!(
                "{name:?} is not a usable database name (1-63 bytes)"
            )));
        }
        if self.database_exists(name)? {
            return Ok(());
        }
        match self.query(
            "postgres",
            &format!("create database {}", quote_ident(name)),
        ) {
            Ok(_) => Ok(()),
            // Lost a race with another creator: fine, it exists now.
            Err(_) if self.database_exists(name)? => Ok(()),
            Err(error) => Err(error),
        }
    }

    /// Stops the server (`pg_ctl stop -m fast`) if this handle owns it.
    pub fn stop(mut self) -> Result<(), ClusterError> {
        self.shutdown()
    }

    fn query(&self, db: &str, sql: &str) -> Result<Output, ClusterError> {
        process::run(
            self.psql(db).args(["-At", "-c", sql]),
            &format!("psql -c {sql:?}"),
        )
    }

    fn shutdown(&mut self) -> Result<(), ClusterError> {
        if std::mem::replace(&mut self.stopped, true) || !self.owned {
            return Ok(());
        }
        let result = pg_ctl_stop(&self.binaries, &self.identity, &self.layout.data);
        if result.is_ok() {
            let _ = fs::remove_file(&self.layout.owner_file);
            if self.layout.socket_in_tmp {
                // Only succeeds once empty, i.e. once the server removed its socket.
                let _ = fs::remove_dir(&self.layout.socket_dir);
            }
        }
        result
    }
}

impl Drop for RunningCluster {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

enum State {
    Stopped,
    Running(Postmaster),
    /// A pid file whose process is gone (or is no PostgreSQL: the pid was reused).
    Stale(Postmaster),
}

/// What runs in the cluster's directory, waiting out a server that is starting or stopping.
fn settle(layout: &Layout) -> Result<State, ClusterError> {
    let deadline = Instant::now() + SETTLE_TIMEOUT;
    loop {
        let Some(pm) = pidfile::read(&layout.data)? else {
            return Ok(State::Stopped);
        };
        if !process::is_server_of(pm.pid, &layout.data) {
            return Ok(State::Stale(pm));
        }
        if pm.is_ready() && accepts_connections(layout, &pm) {
            return Ok(State::Running(pm));
        }
        if Instant::now() >= deadline {
            return Err(ClusterError::Setup(format!(
                "a PostgreSQL server (pid {}) runs in {} but did not become reachable on a Unix \
                 socket within {}s (status {:?}); see {}",
                pm.pid,
                layout.data.display(),
                SETTLE_TIMEOUT.as_secs(),
                pm.status,
                layout.log.display()
            )));
        }
        thread::sleep(Duration::from_millis(100));
    }
}

fn accepts_connections(layout: &Layout, pm: &Postmaster) -> bool {
    match (&pm.socket_dir, pm.port) {
        (Some(dir), Some(port)) => UnixStream::connect(layout.socket_file(dir, port)).is_ok(),
        _ => false,
    }
}

fn attach(
    binaries: PgBinaries,
    identity: Identity,
    layout: Layout,
    relocated_from: Option<PathBuf>,
    pm: &Postmaster,
) -> RunningCluster {
    // Adopt a server whose starter died, so that it gets stopped; leave a live starter's alone.
    let owned = !owner_alive(&layout) && write_owner(&layout).is_ok();
    RunningCluster {
        port: pm.port.unwrap_or(layout.port),
        socket_dir: pm
            .socket_dir
            .clone()
            .unwrap_or_else(|| layout.socket_dir.clone()),
        binaries,
        identity,
        layout,
        relocated_from,
        owned,
        stopped: false,
    }
}

fn owner_alive(layout: &Layout) -> bool {
    fs::read_to_string(&layout.owner_file)
        .ok()
        .and_then(|text| text.trim().parse::<u32>().ok())
        .is_some_and(process::alive)
}

fn write_owner(layout: &Layout) -> Result<(), ClusterError> {
    fs::write(&layout.owner_file, format!("{}\n", std::process::id())).map_err(ClusterError::io(
        format!("could not write {}", layout.owner_file.display()),
    ))
}

fn clear_stale(layout: &Layout, pm: &Postmaster) -> Result<(), ClusterError> {
    remove_if_present(&pidfile::path(&layout.data))?;
    if let (Some(dir), Some(port)) = (&pm.socket_dir, pm.port)
        && *dir == layout.socket_dir
    {
        let socket = layout.socket_file(dir, port);
        remove_if_present(&socket)?;
        let mut lock = socket.into_os_string();
        lock.push(".lock");
        remove_if_present(Path::new(&lock))?;
    }
    Ok(())
}

fn remove_if_present(path: &Path) -> Result<(), ClusterError> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(ClusterError::Io {
            context: format!("could not remove stale {}", path.display()),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// Gives the directory (and an existing log) to the cluster's user, makes the socket dir, and
/// checks that the cluster's user can reach both.
fn prepare_dirs(layout: &Layout, identity: &Identity) -> Result<(), ClusterError> {
    identity.give(&layout.root)?;
    if layout.log.exists() {
        identity.give(&layout.log)?;
    }
    let socket_dir = &layout.socket_dir;
    fs::create_dir_all(socket_dir).map_err(ClusterError::io(format!(
        "could not create {}",
        socket_dir.display()
    )))?;
    let owner = fs::metadata(socket_dir)
        .map_err(ClusterError::io(format!(
            "could not inspect {}",
            socket_dir.display()
        )))?
        .uid();
    if owner != identity.euid && owner != identity.cluster_uid() {
        return Err(ClusterError::Setup(format!(
            "the socket directory {} belongs to uid {owner}, not to us; remove it",
            socket_dir.display()
        )));
    }
    identity.give(socket_dir)?;
    // Trust authentication: only the cluster's user (and root) may reach the socket.
    fs::set_permissions(socket_dir, fs::Permissions::from_mode(0o700)).map_err(
        ClusterError::io(format!("could not restrict {}", socket_dir.display())),
    )?;
    identity.check_reachable(&layout.root)?;
    identity.check_reachable(socket_dir)
}

/// The binaries to run this cluster with: those found, or those of the cluster's own major version
/// when it was made by another one.
fn binaries_for(layout: &Layout) -> Result<PgBinaries, ClusterError> {
    let found = PgBinaries::locate()?;
    let Ok(made_by) = fs::read_to_string(layout.data.join("PG_VERSION")) else {
        return Ok(found);
    };
    let made_by = made_by.trim();
    let version = found.version()?;
    if binaries::same_major(made_by, &version) {
        return Ok(found);
    }
    PgBinaries::locate_version(made_by).ok_or_else(|| {
        ClusterError::Setup(format!(
            "the cluster in {} was made by PostgreSQL {made_by}, but the binaries found ({}) are \
             PostgreSQL {version}. Install PostgreSQL {made_by}'s server package, upgrade the \
             cluster with pg_upgrade, or, if its data does not matter, delete {}",
            layout.data.display(),
            found.bin_dir().display(),
            layout.root.display()
        ))
    })
}

fn initialised(layout: &Layout, identity: &Identity) -> Result<bool, ClusterError> {
    let data = &layout.data;
    let Ok(meta) = fs::metadata(data) else {
        return Ok(false);
    };
    if meta.uid() != identity.cluster_uid() {
        return Err(ClusterError::Setup(format!(
            "{} belongs to uid {}, but the cluster would run as uid {}. Run as that user (or as \
             root if it is `postgres`), or use another directory",
            data.display(),
            meta.uid(),
            identity.cluster_uid()
        )));
    }
    if data.join("PG_VERSION").exists() {
        return Ok(true);
    }
    let empty = data
        .read_dir()
        .map_err(ClusterError::io(format!(
            "could not list {}",
            data.display()
        )))?
        .next()
        .is_none();
    if empty {
        Ok(false)
    } else {
        Err(ClusterError::Setup(format!(
            "{} is not empty but holds no PostgreSQL cluster (no PG_VERSION); an initdb was \
             probably interrupted. Remove the directory and start again",
            data.display()
        )))
    }
}

fn initdb(
    binaries: &PgBinaries,
    identity: &Identity,
    layout: &Layout,
    options: ClusterOptions,
) -> Result<(), ClusterError> {
    let mut command = identity.command(&binaries.initdb());
    command.arg("-D").arg(&layout.data).args([
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--locale=C",
    ]);
    if options.ephemeral {
        command.arg("--no-sync");
    }
    process::run(&mut command, "initdb").map(drop)
}

fn pg_ctl_start(
    binaries: &PgBinaries,
    identity: &Identity,
    layout: &Layout,
    options: ClusterOptions,
) -> Result<(), ClusterError> {
    let mut command = identity.command(&binaries.pg_ctl());
    command
        .args([
            "start",
            "-w",
            "-s",
            "-t",
            &START_TIMEOUT_SECS.to_string(),
            "-D",
        ])
        .arg(&layout.data)
        .arg("-l")
        .arg(&layout.log)
        .arg("-o")
        .arg(server_options(layout, options));
    process::run(&mut command, "pg_ctl start")
        .map(drop)
        .map_err(|error| match error {
            ClusterError::Command { what, detail } => ClusterError::Command {
                what,
                detail: format!(
                    "{detail}\n--- last lines of {} ---\n{}",
                    layout.log.display(),
                    log_tail(&layout.log)
                ),
            },
            other => other,
        })
}

fn pg_ctl_stop(
    binaries: &PgBinaries,
    identity: &Identity,
    data: &Path,
) -> Result<(), ClusterError> {
    let mut command = identity.command(&binaries.pg_ctl());
    command
        .args(["stop", "-w", "-s", "-m", "fast", "-t", "60", "-D"])
        .arg(data);
    match process::run(&mut command, "pg_ctl stop") {
        // Not running (any more): that is what we wanted.
        Err(_) if pidfile::read(data)?.is_none() => Ok(()),
        other => other.map(drop),
    }
}

/// `postgres` settings for this start, as one `-o` string for pg_ctl's shell.
fn server_options(layout: &Layout, options: ClusterOptions) -> String {
    let mut settings = vec![
        ("listen_addresses", String::new()),
        ("port", layout.port.to_string()),
        (
            "unix_socket_directories",
            layout.socket_dir.display().to_string(),
        ),
    ];
    if options.ephemeral {
        for name in ["fsync", "synchronous_commit", "full_page_writes"] {
            settings.push((name, "off".to_owned()));
        }
    }
    if let Some(max) = options.max_connections {
        settings.push(("max_connections", max.to_string()));
    }
    settings
        .iter()
        .map(|(name, value)| format!("-c {}", process::shell_quote(&format!("{name}={value}"))))
        .collect::<Vec<_>>()
        .join(" ")
}

fn log_tail(log: &Path) -> String {
    let text = fs::read_to_string(log).unwrap_or_default();
    let skip = text.lines().count().saturating_sub(LOG_TAIL_LINES);
    text.lines().skip(skip).collect::<Vec<_>>().join("\n")
}

/// `'it''s'`: a SQL string literal (standard_conforming_strings is on).
fn quote_literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// `"my ""db"""`: a SQL identifier.
fn quote_ident(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn server_options_are_socket_only_and_ephemeral_on_request() {
        let layout = Layout::new(PathBuf::from("/srv/pg"));
        let durable = server_options(&layout, ClusterOptions::default());
        assert!(durable.contains("-c 'listen_addresses='"));
        assert!(durable.contains("-c 'unix_socket_directories=/srv/pg/run'"));
        assert!(durable.contains(&format!("-c 'port={}'", layout.port)));
        assert!(!durable.contains("fsync"));
        let ephemeral = server_options(
            &layout,
            ClusterOptions {
                ephemeral: true,
                max_connections: Some(300),
            },
        );
        for setting in [
            "fsync=off",
            "synchronous_commit=off",
            "full_page_writes=off",
            "max_connections=300",
        ] {
            assert!(ephemeral.contains(setting), "{ephemeral}");
        }
    }

    /// Stops the cluster in `relocated` and removes `scratch`, however the test ends.
    struct Relocation {
        scratch: PathBuf,
        relocated: PathBuf,
    }

    impl Drop for Relocation {
        fn drop(&mut self) {
            let _ = Cluster::stop_in(&self.relocated);
            let _ = fs::remove_dir_all(&self.scratch);
        }
    }

    #[test]
    fn as_root_a_new_cluster_postgres_cannot_reach_is_relocated_and_stays_there() {
        let identity = Identity::detect().unwrap();
        let Some(postgres) = identity.run_as.clone() else {
            eprintln!("skipped: only root hands the cluster to another user");
            return;
        };
        let scratch = std::env::temp_dir().join(format!("wort-relocate-{}", std::process::id()));
        // Like /root: a home only its owner may enter.
        let home = scratch.join("home");
        fs::create_dir_all(&home).unwrap();
        fs::set_permissions(&home, fs::Permissions::from_mode(0o700)).unwrap();
        let dir = home.join("wort/.wort/pg");
        let base = scratch.join("var-lib-wort");
        fs::create_dir_all(&dir).unwrap();
        let asked = dir.canonicalize().unwrap();
        let guard = Relocation {
            relocated: placement::relocated_root(&base, &asked),
            scratch,
        };
        let options = ClusterOptions {
            ephemeral: true,
            max_connections: None,
        };

        let cluster = Cluster::start_at(&dir, options, &base).unwrap();
        assert_eq!(cluster.relocated_from(), Some(asked.as_path()));
        assert_eq!(cluster.data_dir(), guard.relocated.join("data"));
        let meta = fs::metadata(&guard.relocated).unwrap();
        assert_eq!(meta.uid(), postgres.uid, "the cluster's user owns it");
        assert_eq!(meta.permissions().mode() & 0o777, 0o700);
        assert_eq!(
            fs::read_to_string(asked.join(placement::NOTE)).unwrap(),
            format!("{}\n", guard.relocated.display()),
            "the note in the directory asked for says where the data is"
        );
        let psql = |cluster: &RunningCluster| {
            let output = cluster
                .psql("postgres")
                .args(["-At", "-c", "select 1"])
                .output()
                .unwrap();
            String::from_utf8(output.stdout).unwrap()
        };
        assert_eq!(psql(&cluster).trim(), "1");
        let port = cluster.port();
        cluster.stop().unwrap();

        // The next start finds it there again.
        let again = Cluster::start_at(&dir, options, &base).unwrap();
        assert_eq!(again.data_dir(), guard.relocated.join("data"));
        assert_eq!(again.port(), port);
        assert_eq!(psql(&again).trim(), "1");
        again.stop().unwrap();
    }

    #[test]
    fn sql_quoting_doubles_quotes() {
        assert_eq!(quote_literal("it's"), "'it''s'");
        assert_eq!(quote_ident("my \"db\""), "\"my \"\"db\"\"\"");
    }
}
