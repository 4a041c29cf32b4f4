//! The private PostgreSQL cluster of one xtask run (`test`, `bench`, `fuzz-api`), in
//! `$TMPDIR/<prefix><pid>-<nanos>`, and the sweep of clusters that interrupted runs left behind.
//! Its own module, so that `fuzz` and `bench` need nothing from `test` (which runs `fuzz`).

use std::{
    env, fs,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use wort_pgcluster::{Cluster, ClusterOptions, RunningCluster};

/// A run's private cluster in `$TMPDIR/<prefix><pid>-<nanos>`; stopped and
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
