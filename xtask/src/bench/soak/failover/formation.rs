//! A pg_auto_failover formation in a temporary directory: a monitor and two PostgreSQL nodes
//! under PostgreSQL's streaming replication, the standby synchronous (pg_auto_failover's default
//! with two nodes: `synchronous_standby_names = 'ANY 1 (…)'`, `synchronous_commit = on`).
//!
//! Everything listens on 127.0.0.1 on free ports. As root, every `pg_autoctl` (and so every
//! PostgreSQL) runs as the `postgres` system user, since PostgreSQL refuses to run as root.
//! `pg_autoctl` keeps its configuration and state under the XDG directories, pointed into the
//! temporary directory so nothing outside it is touched.

use std::env;
use std::fs::{self, File};
use std::io::ErrorKind;
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use wort_pgcluster::PgBinaries;

use crate::bench::soak::{children, signal};
use crate::process::{Process, free_local_addr};

pub(super) const DIR_PREFIX: &str = "wort-failover-";
/// The PostgreSQL major version Debian's `postgresql-15-auto-failover` is built for.
const PG_MAJOR: &str = "15";
pub(super) const INSTALL: &str = "apt-get install -y --no-install-recommends \
                                  postgresql-15-auto-failover pg-auto-failover-cli";

/// The monitor's timings, shortened so that one run takes about a minute: the node is probed
/// every second, unhealthy after 3 s without a report, and the monitor waits 5 s for a lost
/// primary to have demoted itself before it lets the standby take writes (the defaults are 5 s,
/// 20 s and 30 s). The last must stay above the nodes' own `network_partition_timeout` (a
/// primary cut off from both monitor and standby demotes itself after it), set to 3 s below.
const MONITOR_TUNING: &str = "
# cargo xtask soak --failover: shortened timings (defaults 5000, 5000, 2, 2000, 20000, 30000)
pgautofailover.health_check_period = 1000
pgautofailover.health_check_timeout = 1000
pgautofailover.health_check_max_retries = 1
pgautofailover.health_check_retry_delay = 500
pgautofailover.node_considered_unhealthy_timeout = 3000
pgautofailover.primary_demote_timeout = 5000
";
const NETWORK_PARTITION_TIMEOUT_SECS: &str = "3";

/// The tuning, one line per setting, for the report.
pub(super) fn tuning() -> Vec<&'static str> {
    MONITOR_TUNING
        .lines()
        .filter(|l| l.starts_with("pgautofailover."))
        .collect()
}

/// A node as a client sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// In recovery: a standby.
    Standby,
    /// Out of recovery but refusing writes (`transaction_read_only`): a promoted standby that
    /// pg_auto_failover still fences while the old primary may be alive.
    ReadOnly,
    Writable,
}

pub(super) struct Node {
    pub(super) name: &'static str,
    pub(super) port: u16,
    pgdata: PathBuf,
    keeper: Option<Process>,
    /// The processes SIGSTOPped by [`Formation::freeze_node`].
    frozen: Vec<u32>,
}

pub(super) struct Formation {
    pub(super) dir: PathBuf,
    logs: PathBuf,
    bin_dir: PathBuf,
    pg_autoctl: PathBuf,
    /// uid and gid of `postgres` when we are root.
    run_as: Option<(u32, u32)>,
    short_timings: bool,
    monitor_port: u16,
    monitor: Option<Process>,
    pub(super) nodes: [Node; 2],
}

impl Formation {
    /// The monitor, then the first node (it becomes the primary), then the second (it is
    /// cloned from the first with pg_basebackup and becomes the synchronous standby).
    /// `short_timings`: the monitor's and the keepers' timings above, else pg_auto_failover's
    /// defaults.
    pub(super) fn start(
        logs: &Path,
        database: &str,
        short_timings: bool,
    ) -> Result<Formation, String> {
        let pg_autoctl = find_pg_autoctl()?;
        let bin_dir = PgBinaries::locate_version(PG_MAJOR)
            .ok_or_else(|| {
                format!("PostgreSQL {PG_MAJOR}'s server binaries are not installed: {INSTALL}")
            })?
            .bin_dir()
            .to_path_buf();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = env::temp_dir().join(format!("{DIR_PREFIX}{}-{nanos}", std::process::id()));
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let run_as = postgres_account_if_root()?;
        if let Some((uid, gid)) = run_as {
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid))
                .map_err(|e| format!("could not give {} to postgres: {e}", dir.display()))?;
        }
        let port = || free_local_addr().map(|a| a.port());
        let node = |name: &'static str, port: u16| Node {
            name,
            port,
            pgdata: dir.join(name),
            keeper: None,
            frozen: Vec::new(),
        };
        let mut formation = Formation {
            logs: logs.to_path_buf(),
            bin_dir,
            pg_autoctl,
            run_as,
            short_timings,
            monitor_port: port()?,
            monitor: None,
            nodes: [node("node1", port()?), node("node2", port()?)],
            dir,
        };
        formation.start_monitor()?;
        formation.start_node(0, database)?;
        formation.start_node(1, database)?;
        formation.wait_for_states(
            &[("node1", "primary"), ("node2", "secondary")],
            Duration::from_secs(120),
        )?;
        Ok(formation)
    }

    pub(super) fn url(&self, database: &str) -> String {
        let [a, b] = &self.nodes;
        format!(
            "postgres://postgres@127.0.0.1:{},127.0.0.1:{}/{database}?target_session_attrs=read-write",
            a.port, b.port
        )
    }

    fn monitor_url(&self) -> String {
        format!(
            "postgres://autoctl_node@127.0.0.1:{}/pg_auto_failover?sslmode=disable",
            self.monitor_port
        )
    }

    fn start_monitor(&mut self) -> Result<(), String> {
        let pgdata = self.dir.join("monitor");
        let port = self.monitor_port.to_string();
        let mut create = self.pg_autoctl(&["create", "monitor"], &pgdata);
        create.args([
            "--pgport",
            &port,
            "--hostname",
            "127.0.0.1",
            "--listen",
            "127.0.0.1",
            "--auth",
            "trust",
            "--no-ssl",
        ]);
        self.run_to_end("monitor-create", create, Duration::from_secs(60))?;
        if self.short_timings {
            let conf = pgdata.join("postgresql.conf");
            let mut text =
                fs::read_to_string(&conf).map_err(|e| format!("{}: {e}", conf.display()))?;
            text.push_str(MONITOR_TUNING);
            fs::write(&conf, text).map_err(|e| format!("{}: {e}", conf.display()))?;
        }
        let run = self.pg_autoctl(&["run"], &pgdata);
        self.monitor = Some(self.spawn_logged("monitor", run)?);
        wait_for_port(self.monitor_port, Duration::from_secs(30))
            .map_err(|e| format!("the monitor: {e}"))
    }

    /// `pg_autoctl create postgres` (the second node's includes its pg_basebackup), the
    /// shortened partition timeout if asked for, then the keeper (`pg_autoctl run`).
    fn start_node(&mut self, i: usize, database: &str) -> Result<(), String> {
        let monitor = self.monitor_url();
        let (name, port, pgdata) = {
            let node = self.node(i)?;
            (node.name, node.port.to_string(), node.pgdata.clone())
        };
        let mut create = self.pg_autoctl(&["create", "postgres"], &pgdata);
        create.args([
            "--pgport",
            &port,
            "--pghost",
            "127.0.0.1",
            "--hostname",
            "127.0.0.1",
            "--listen",
            "127.0.0.1",
            "--auth",
            "trust",
            "--no-ssl",
            "--dbname",
            database,
            "--name",
            name,
            "--monitor",
            &monitor,
        ]);
        let mut creating = self.spawn_logged(&format!("{name}-create"), create)?;
        // pg_basebackup waits for a checkpoint, which PostgreSQL spreads over minutes unless
        // asked for one at once.
        let deadline = Instant::now() + Duration::from_secs(120);
        let status = loop {
            if let Some(status) = creating.exited() {
                break status;
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "pg_autoctl create postgres ({name}) took over 120 s"
                ));
            }
            if let (true, Some(first)) = (i > 0, self.nodes.first()) {
                let _ = self.psql(first.port, "postgres", "postgres", "CHECKPOINT");
            }
            thread::sleep(Duration::from_millis(500));
        };
        if !status.success() {
            return Err(format!(
                "pg_autoctl create postgres ({name}) failed ({status}); see {}",
                self.logs.join(format!("{name}-create.log")).display()
            ));
        }
        if self.short_timings {
            let mut set = self.pg_autoctl(&["config", "set"], &pgdata);
            set.args([
                "timeout.network_partition_timeout",
                NETWORK_PARTITION_TIMEOUT_SECS,
            ]);
            self.run_to_end(&format!("{name}-config"), set, Duration::from_secs(30))?;
        }
        let run = self.pg_autoctl(&["run"], &pgdata);
        let keeper = self.spawn_logged(name, run)?;
        self.nodes
            .get_mut(i)
            .ok_or("no such node")?
            .keeper
            .replace(keeper);
        Ok(())
    }

    fn node(&self, i: usize) -> Result<&Node, String> {
        self.nodes.get(i).ok_or_else(|| format!("no node {i}"))
    }

    /// Waits until every node reports its state and the monitor assigns it the same, asking the
    /// primary for a checkpoint meanwhile (a standby's clone waits for one).
    pub(super) fn wait_for_states(
        &self,
        wanted: &[(&str, &str)],
        within: Duration,
    ) -> Result<(), String> {
        let deadline = Instant::now() + within;
        loop {
            let states = self.states().unwrap_or_default();
            let reached = wanted.iter().all(|(name, state)| {
                states
                    .iter()
                    .any(|(n, reported, goal)| n == name && reported == state && goal == state)
            });
            if reached {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "the formation did not reach {wanted:?} within {} s; it is {states:?}",
                    within.as_secs()
                ));
            }
            if let Some(first) = self.nodes.first() {
                let _ = self.psql(first.port, "postgres", "postgres", "CHECKPOINT");
            }
            thread::sleep(Duration::from_millis(500));
        }
    }

    /// (name, reported state, assigned state) of each node, from the monitor.
    pub(super) fn states(&self) -> Result<Vec<(String, String, String)>, String> {
        let out = self.psql(
            self.monitor_port,
            "autoctl_node",
            "pg_auto_failover",
            "SELECT nodename || ' ' || reportedstate || ' ' || goalstate \
             FROM pgautofailover.node ORDER BY nodeid",
        )?;
        Ok(out
            .lines()
            .filter_map(|l| {
                let mut parts = l.split(' ');
                Some((
                    parts.next()?.to_owned(),
                    parts.next()?.to_owned(),
                    parts.next()?.to_owned(),
                ))
            })
            .collect())
    }

    /// What the node on `port` is now, as a client sees it; `None` when it does not answer.
    pub(super) fn role(&self, port: u16) -> Option<Role> {
        let out = self
            .psql(
                port,
                "postgres",
                "postgres",
                "SELECT pg_is_in_recovery(), current_setting('transaction_read_only')",
            )
            .ok()?;
        match out.trim() {
            "f|off" => Some(Role::Writable),
            "f|on" => Some(Role::ReadOnly),
            "t|on" => Some(Role::Standby),
            _ => None,
        }
    }

    /// `SHOW synchronous_standby_names` on the node on `port`.
    pub(super) fn synchronous_standby_names(&self, port: u16) -> Result<String, String> {
        self.psql(
            port,
            "postgres",
            "postgres",
            "SHOW synchronous_standby_names",
        )
        .map(|s| s.trim().to_owned())
    }

    /// SIGKILL to node `i`'s keeper and every process under it (its PostgreSQL server and all
    /// of that server's processes) at once: the machine is gone, and no keeper restarts it.
    /// `signaled` is called just before the signal goes out (the run's clock starts there);
    /// returns how many processes were killed.
    pub(super) fn kill_node(&mut self, i: usize, signaled: impl FnOnce()) -> Result<usize, String> {
        let node = self.nodes.get_mut(i).ok_or("no such node")?;
        let keeper = node
            .keeper
            .as_ref()
            .and_then(Process::id)
            .ok_or_else(|| format!("{}'s keeper is not running", node.name))?;
        let pids = descendants(keeper);
        signaled();
        // kill fails when one of them has just exited, but signals the others.
        let _ = signal("KILL", &pids);
        if let Some(mut process) = node.keeper.take() {
            // Reaps it; nothing is left to stop.
            let _ = process.wait_until(Instant::now() + Duration::from_secs(5));
        }
        let gone_by = Instant::now() + Duration::from_secs(5);
        while let Some(pid) = pids.iter().find(|pid| alive(**pid)) {
            if Instant::now() > gone_by {
                return Err(format!("process {pid} of {} survived SIGKILL", node.name));
            }
            thread::sleep(Duration::from_millis(10));
        }
        Ok(pids.len())
    }

    /// Stops the keepers (each stops its PostgreSQL), then the monitor; kills what is left of
    /// their process trees and removes the directory.
    pub(super) fn finish(mut self) -> Result<(), String> {
        self.stop_all();
        match fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() != ErrorKind::NotFound => {
                Err(format!("could not remove {}: {e}", self.dir.display()))
            }
            _ => Ok(()),
        }
    }

    /// SIGSTOP to node `i`'s keeper and every process under it: the server still accepts TCP
    /// connections (the kernel completes the handshake) but answers nothing, as a machine that
    /// hangs or a network that drops its packets looks to a client. `signaled` as for
    /// [`kill_node`](Self::kill_node); returns how many processes were stopped.
    pub(super) fn freeze_node(
        &mut self,
        i: usize,
        signaled: impl FnOnce(),
    ) -> Result<usize, String> {
        let node = self.nodes.get_mut(i).ok_or("no such node")?;
        let keeper = node
            .keeper
            .as_ref()
            .and_then(Process::id)
            .ok_or_else(|| format!("{}'s keeper is not running", node.name))?;
        let pids = descendants(keeper);
        signaled();
        // kill fails when one of them (a short-lived backend) has just exited, but signals the
        // others; what matters is that everything still there is stopped.
        let _ = signal("STOP", &pids);
        node.frozen = pids;
        let stopped_by = Instant::now() + Duration::from_secs(5);
        while let Some(pid) = node
            .frozen
            .iter()
            .find(|pid| state(**pid).is_some_and(|s| s != "T" && s != "Z" && s != "X"))
        {
            if Instant::now() > stopped_by {
                return Err(format!("process {pid} of {} did not stop", node.name));
            }
            thread::sleep(Duration::from_millis(10));
        }
        Ok(node.frozen.len())
    }

    /// SIGKILL to what [`freeze_node`](Self::freeze_node) stopped (a stopped process ignores
    /// SIGTERM until continued, and continuing it would bring back a second primary).
    pub(super) fn kill_frozen(&mut self) {
        for node in &mut self.nodes {
            if node.frozen.is_empty() {
                continue;
            }
            let _ = signal("KILL", &node.frozen);
            if let Some(mut process) = node.keeper.take() {
                let _ = process.wait_until(Instant::now() + Duration::from_secs(5));
            }
            node.frozen.clear();
        }
    }

    fn stop_all(&mut self) {
        self.kill_frozen();
        let keepers = self.nodes.iter_mut().filter_map(|n| n.keeper.take());
        for process in keepers.chain(self.monitor.take()) {
            let tree = process.id().map(descendants).unwrap_or_default();
            let _ = process.stop();
            let left: Vec<u32> = tree.into_iter().filter(|pid| alive(*pid)).collect();
            if !left.is_empty() {
                let _ = signal("KILL", &left);
            }
        }
    }

    /// `pg_autoctl <words> --pgdata <pgdata>` as the formation's user, with its configuration
    /// and state under the temporary directory.
    fn pg_autoctl(&self, words: &[&str], pgdata: &Path) -> Command {
        let mut command = self.command(&self.pg_autoctl);
        command.args(words).arg("--pgdata").arg(pgdata);
        if words.first() == Some(&"create") {
            command.arg("--pgctl").arg(self.bin_dir.join("pg_ctl"));
        }
        command
    }

    fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        if let Some((uid, gid)) = self.run_as {
            command.uid(uid).gid(gid);
        }
        for (key, _) in env::vars_os() {
            let key_text = key.to_string_lossy();
            if key_text.starts_with("PG") || key_text.starts_with("XDG_") {
                command.env_remove(&key);
            }
        }
        command
            .env("HOME", &self.dir)
            .env("XDG_CONFIG_HOME", self.dir.join("config"))
            .env("XDG_DATA_HOME", self.dir.join("share"))
            .env("XDG_RUNTIME_DIR", self.dir.join("run"))
            .env("PATH", format!("{}:/usr/bin:/bin", self.bin_dir.display()))
            .current_dir(&self.dir)
            .stdin(Stdio::null());
        command
    }

    /// psql over TCP (as us: a client needs no particular user), one statement, unaligned.
    fn psql(&self, port: u16, user: &str, database: &str, sql: &str) -> Result<String, String> {
        let mut command = Command::new(self.bin_dir.join("psql"));
        for (key, _) in env::vars_os() {
            if key.to_string_lossy().starts_with("PG") {
                command.env_remove(&key);
            }
        }
        let output = command
            .env("PGCONNECT_TIMEOUT", "2")
            .args(["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1"])
            .args(["-h", "127.0.0.1", "-p", &port.to_string()])
            .args(["-U", user, "-d", database, "-c", sql])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("could not run psql: {e}"))?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(String::from_utf8_lossy(&output.stderr).trim().to_owned())
        }
    }

    fn log_file(&self, name: &str) -> Result<(File, File), String> {
        let path = self.logs.join(format!("{name}.log"));
        let file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let err = file
            .try_clone()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((file, err))
    }

    fn spawn_logged(&self, name: &str, mut command: Command) -> Result<Process, String> {
        let (out, err) = self.log_file(name)?;
        let child = command
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("could not start pg_autoctl ({name}): {e}"))?;
        Ok(Process::new("pg_autoctl", child))
    }

    fn run_to_end(&self, name: &str, command: Command, within: Duration) -> Result<(), String> {
        let mut process = self.spawn_logged(name, command)?;
        match process.wait_until(Instant::now() + within)? {
            Some(status) if status.success() => Ok(()),
            Some(status) => Err(format!(
                "pg_autoctl ({name}) failed ({status}); see {}",
                self.logs.join(format!("{name}.log")).display()
            )),
            None => Err(format!(
                "pg_autoctl ({name}) took over {} s",
                within.as_secs()
            )),
        }
    }
}

impl Drop for Formation {
    fn drop(&mut self) {
        self.stop_all();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// `pid` and every process under it, parents first.
fn descendants(pid: u32) -> Vec<u32> {
    let mut all = vec![pid];
    let mut i = 0;
    while let Some(&parent) = all.get(i) {
        all.extend(children(parent));
        i += 1;
    }
    all
}

/// Running, or stopped: not gone and not a zombie waiting for its parent.
fn alive(pid: u32) -> bool {
    state(pid).is_some_and(|state| state != "Z" && state != "X")
}

/// The process's state letter (`R`, `S`, `T` for stopped, `Z`…), `None` when it is gone.
fn state(pid: u32) -> Option<String> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state …"; comm may hold spaces and parentheses.
    let after = stat.get(stat.rfind(')')? + 1..)?;
    after.split_whitespace().next().map(str::to_owned)
}

fn find_pg_autoctl() -> Result<PathBuf, String> {
    let path = env::var_os("PATH").unwrap_or_default();
    env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join("pg_autoctl"))
        .find(|p| p.is_file())
        .filter(|_| {
            Path::new(&format!(
                "/usr/lib/postgresql/{PG_MAJOR}/lib/pgautofailover.so"
            ))
            .exists()
        })
        .ok_or_else(|| {
            format!(
                "pg_auto_failover is not installed (pg_autoctl and PostgreSQL {PG_MAJOR}'s \
                 pgautofailover extension); as root: {INSTALL}"
            )
        })
}

/// The `postgres` account's uid and gid when we run as root (PostgreSQL refuses root).
fn postgres_account_if_root() -> Result<Option<(u32, u32)>, String> {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    let euid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        .and_then(|id| id.parse::<u32>().ok());
    if euid != Some(0) {
        return Ok(None);
    }
    let passwd = fs::read_to_string("/etc/passwd").map_err(|e| format!("/etc/passwd: {e}"))?;
    passwd
        .lines()
        .find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            match fields.as_slice() {
                ["postgres", _, uid, gid, ..] => Some((uid.parse().ok()?, gid.parse().ok()?)),
                _ => None,
            }
        })
        .map(Some)
        .ok_or_else(|| {
            "we run as root and PostgreSQL refuses to, but there is no `postgres` user to run \
             it as (PostgreSQL's server package creates it)"
                .to_owned()
        })
}

fn wait_for_port(port: u16, within: Duration) -> Result<(), String> {
    let deadline = Instant::now() + within;
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if Instant::now() > deadline {
            return Err(format!(
                "nothing listens on 127.0.0.1:{port} after {} s",
                within.as_secs()
            ));
        }
        thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_tree_includes_the_root() {
        let me = std::process::id();
        assert_eq!(descendants(me).first(), Some(&me));
        assert!(alive(me));
        assert!(!alive(u32::MAX));
    }

    #[test]
    fn the_tuning_keeps_the_demote_timeout_above_the_partition_timeout() {
        let value = |name: &str| -> u64 {
            tuning()
                .iter()
                .find_map(|l| {
                    l.strip_prefix(name)?
                        .trim()
                        .strip_prefix('=')?
                        .trim()
                        .parse()
                        .ok()
                })
                .unwrap()
        };
        let partition_ms: u64 = NETWORK_PARTITION_TIMEOUT_SECS.parse::<u64>().unwrap() * 1000;
        assert!(value("pgautofailover.primary_demote_timeout") > partition_ms);
        assert_eq!(tuning().len(), 6);
    }
}
