//! The private PostgreSQL cluster and the faults the timeline injects into it: restarts, stalls
//! (SIGSTOP/SIGCONT to every backend), a stop, and the fake provider's bad moods.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use wort_pgcluster::{Cluster, ClusterOptions, RunningCluster};

use crate::bench::Wort;
use crate::fuzz::FakeProvider;

use super::{DATABASE, DIR_PREFIX, HANG_SECS};

const PG_OPTIONS: ClusterOptions = ClusterOptions {
    ephemeral: false,
    max_connections: Some(100),
};

/// This run's cluster in `$TMPDIR/wort-soak-<pid>-<nanos>`, stopped and deleted however the run
/// ends. Unlike `TestCluster` it can be stopped and started again.
pub(super) struct Db {
    pub(super) dir: PathBuf,
    pub(super) cluster: Option<RunningCluster>,
    pub(super) url: String,
}

impl Db {
    pub(super) fn start() -> Result<Db, String> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("{DIR_PREFIX}{}-{nanos}", std::process::id()));
        let mut db = Db {
            dir,
            cluster: None,
            url: String::new(),
        };
        db.up()?;
        let pg = db.running()?;
        pg.create_database(DATABASE).map_err(|e| e.to_string())?;
        db.url = pg.database_url(DATABASE);
        Ok(db)
    }

    pub(super) fn running(&self) -> Result<&RunningCluster, String> {
        self.cluster
            .as_ref()
            .ok_or_else(|| "the cluster is stopped".to_owned())
    }

    /// Starts the server (after a crash: with recovery; `Cluster::start` waits for it).
    pub(super) fn up(&mut self) -> Result<(), String> {
        if self.cluster.is_none() {
            self.cluster = Some(Cluster::start(&self.dir, PG_OPTIONS).map_err(|e| e.to_string())?);
        }
        Ok(())
    }

    /// `pg_ctl stop -m fast`: open transactions are rolled back, backends end, a checkpoint.
    pub(super) fn down_fast(&mut self) -> Result<(), String> {
        match self.cluster.take() {
            Some(pg) => pg.stop().map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }

    /// `pg_ctl stop -m immediate`: SIGQUIT to the postmaster, no checkpoint; the next start
    /// recovers from the WAL.
    pub(super) fn down_immediate(&mut self) -> Result<(), String> {
        let pid = self.postmaster_pid()?;
        signal("QUIT", &[pid])?;
        let gone_by = Instant::now() + Duration::from_secs(30);
        while Path::new(&format!("/proc/{pid}")).exists() {
            if Instant::now() > gone_by {
                return Err(format!("the postmaster ({pid}) did not exit within 30 s"));
            }
            thread::sleep(Duration::from_millis(20));
        }
        // Its server is gone: nothing left for the handle to stop.
        std::mem::forget(self.cluster.take());
        Ok(())
    }

    /// SIGSTOP to the postmaster and every process it started (backends, checkpointer, WAL
    /// writer…), SIGCONT after `pause`: the server is there but answers nothing.
    pub(super) fn stall(&self, pause: Duration) -> Result<usize, String> {
        let postmaster = self.postmaster_pid()?;
        let mut pids = vec![postmaster];
        pids.extend(children(postmaster));
        // kill fails when one of them has just exited, but signals the others: continue them
        // whatever it says.
        let stopped = signal("STOP", &pids);
        thread::sleep(pause);
        let continued = signal("CONT", &pids);
        stopped.and(continued).map(|()| pids.len())
    }

    pub(super) fn postmaster_pid(&self) -> Result<u32, String> {
        let file = self.running()?.data_dir().join("postmaster.pid");
        fs::read_to_string(&file)
            .map_err(|e| format!("{}: {e}", file.display()))?
            .lines()
            .next()
            .and_then(|l| l.trim().parse().ok())
            .ok_or_else(|| format!("{}: no pid", file.display()))
    }

    pub(super) fn finish(mut self) -> Result<(), String> {
        let stopped = self.down_fast();
        let removed = match fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() != ErrorKind::NotFound => {
                Err(format!("could not remove {}: {e}", self.dir.display()))
            }
            _ => Ok(()),
        };
        stopped.and(removed)
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        drop(self.cluster.take());
        let _ = fs::remove_dir_all(&self.dir);
    }
}

pub(in crate::bench) fn signal(name: &str, pids: &[u32]) -> Result<(), String> {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .args(pids.iter().map(u32::to_string))
        .status()
        .map_err(|e| format!("could not run kill: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("kill -{name} {pids:?} failed ({status})"))
    }
}

/// The processes whose parent is `parent` (from `/proc/<pid>/stat`).
pub(in crate::bench) fn children(parent: u32) -> Vec<u32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| {
                    // "pid (comm) state ppid …"; comm may hold spaces and parentheses.
                    let after = stat.get(stat.rfind(')')? + 1..)?;
                    after.split_whitespace().nth(1)?.parse::<u32>().ok()
                })
                == Some(parent)
        })
        .collect()
}

/// One step of the timeline.
#[derive(Clone, Copy, Debug)]
pub(super) enum Fault {
    RestartFast,
    RestartImmediate,
    Stall(Duration),
    Outage(Duration),
    Provider(&'static str, Option<f64>),
}

/// The faults, at fractions of the run (so `--seconds` scales them).
fn schedule(total: Duration) -> Vec<(Duration, Fault)> {
    let secs = total.as_secs_f64();
    let at = |fraction: f64| Duration::from_secs_f64(secs * fraction);
    let stall = Duration::from_secs_f64((secs * 0.05).clamp(2.0, 6.0));
    let outage = Duration::from_secs_f64((secs * 0.085).clamp(3.0, 10.0));
    vec![
        (at(0.10), Fault::RestartFast),
        (at(0.15), Fault::Provider("error", None)),
        (at(0.25), Fault::RestartImmediate),
        (at(0.30), Fault::Provider("slow", Some(2.0))),
        (at(0.40), Fault::Stall(stall)),
        (at(0.45), Fault::Provider("broken", None)),
        (at(0.55), Fault::Outage(outage)),
        (at(0.60), Fault::Provider("hang", Some(HANG_SECS))),
        (at(0.75), Fault::Provider("ok", None)),
        (at(0.80), Fault::RestartImmediate),
    ]
}

impl Fault {
    pub(super) fn describe(self) -> String {
        match self {
            Fault::RestartFast => "PostgreSQL restart, fast (pg_ctl stop -m fast, start)".into(),
            Fault::RestartImmediate => {
                "PostgreSQL restart, immediate (SIGQUIT to the postmaster, start with crash \
                 recovery)"
                    .into()
            }
            Fault::Stall(d) => format!(
                "PostgreSQL stalled {:.0} s (SIGSTOP postmaster and all its processes, then \
                 SIGCONT)",
                d.as_secs_f64()
            ),
            Fault::Outage(d) => format!(
                "PostgreSQL stopped (fast) for {:.0} s, then started",
                d.as_secs_f64()
            ),
            Fault::Provider("error", _) => {
                "AI provider: refuses every call (500, 429, 503 in turn)".into()
            }
            Fault::Provider("slow", s) => format!(
                "AI provider: slow ({:.0} s before the headers and between streamed events)",
                s.unwrap_or(0.0)
            ),
            Fault::Provider("broken", _) => {
                "AI provider: broken answers (200 with a truncated body or stream)".into()
            }
            Fault::Provider("hang", s) => format!(
                "AI provider: hangs {:.0} s before answering (wort's timeout is 60 s)",
                s.unwrap_or(0.0)
            ),
            Fault::Provider(mode, _) => format!("AI provider: {mode}"),
        }
    }
}

/// One line of the timeline: when a fault began, how long it took, what it was.
pub(super) struct Mark {
    pub(super) at: Duration,
    pub(super) took: Duration,
    pub(super) what: String,
    /// A database fault (a phase boundary of the report); provider modes are listed only.
    pub(super) database: bool,
}

/// Runs the timeline; stops early when wort dies (the reason is the second value).
pub(super) fn faults(
    db: &mut Db,
    provider: &FakeProvider,
    server: &mut Wort,
    started: Instant,
    total: Duration,
) -> (Vec<Mark>, Option<String>) {
    let mut marks = Vec::new();
    let elapsed = |started: Instant| started.elapsed().as_secs_f64();
    for (at, fault) in schedule(total)
        .into_iter()
        .chain([(total, Fault::Provider("end", None))])
    {
        while started.elapsed() < at {
            if let Some(status) = server.process.exited() {
                let why = format!("wort exited ({status}) at {:.1} s", elapsed(started));
                eprintln!("    {:6.1} s  {why}", elapsed(started));
                return (marks, Some(why));
            }
            thread::sleep(Duration::from_millis(50).min(at.saturating_sub(started.elapsed())));
        }
        if let Fault::Provider("end", _) = fault {
            break;
        }
        let began = started.elapsed();
        let what = fault.describe();
        eprintln!("    {:6.1} s  {what}", began.as_secs_f64());
        let result = match fault {
            Fault::RestartFast => db.down_fast().and_then(|()| db.up()).map(|()| None),
            Fault::RestartImmediate => db.down_immediate().and_then(|()| db.up()).map(|()| None),
            Fault::Stall(pause) => db
                .stall(pause)
                .map(|n| Some(format!("{n} processes stopped and continued"))),
            Fault::Outage(pause) => db.down_fast().and_then(|()| {
                eprintln!("    {:6.1} s  PostgreSQL is down", elapsed(started));
                thread::sleep(pause);
                eprintln!("    {:6.1} s  starting PostgreSQL", elapsed(started));
                db.up().map(|()| None)
            }),
            Fault::Provider(mode, seconds) => provider.set_mode(mode, seconds).map(|()| None),
        };
        let took = started.elapsed().saturating_sub(began);
        match result {
            Ok(note) => eprintln!(
                "    {:6.1} s  done in {:.1} s{}",
                elapsed(started),
                took.as_secs_f64(),
                note.map_or_else(String::new, |n| format!(" ({n})"))
            ),
            Err(e) => {
                eprintln!("    {:6.1} s  the fault failed: {e}", elapsed(started));
                // The read-back needs the database: make sure it runs.
                if let Err(e) = db.up() {
                    eprintln!("    could not start PostgreSQL again: {e}");
                }
            }
        }
        marks.push(Mark {
            at: began,
            took,
            what,
            database: !matches!(fault, Fault::Provider(..)),
        });
    }
    (marks, None)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::{DEFAULT_SECONDS, MIN_SECONDS};
    use super::*;

    #[test]
    fn the_timeline_fits_and_leaves_time_to_recover() {
        for secs in [MIN_SECONDS, DEFAULT_SECONDS, 600] {
            let total = Duration::from_secs(secs);
            let plan = schedule(total);
            for pair in plan.windows(2) {
                assert!(pair.first().unwrap().0 < pair.get(1).unwrap().0);
            }
            // The outage ends before the next database fault.
            let outage = plan
                .iter()
                .find_map(|(at, f)| match f {
                    Fault::Outage(d) => Some(*at + *d),
                    _ => None,
                })
                .unwrap();
            assert!(outage < total * 4 / 5);
            assert!(plan.last().unwrap().0 < total);
        }
    }
}
