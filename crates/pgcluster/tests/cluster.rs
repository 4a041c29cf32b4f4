//! Real clusters from the machine's PostgreSQL binaries, each in its own directory under /tmp.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::{
    fs,
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::Command,
    time::{Instant, SystemTime, UNIX_EPOCH},
};

use wort_pgcluster::{Cluster, ClusterOptions, RunningCluster};

const EPHEMERAL: ClusterOptions = ClusterOptions {
    ephemeral: true,
    max_connections: None,
};

/// A fresh directory that is stopped and removed however the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        Scratch(std::env::temp_dir().join(format!(
            "wort-pgcluster-{name}-{}-{nanos}",
            std::process::id()
        )))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = Cluster::stop_in(&self.0);
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn psql(cluster: &RunningCluster, db: &str, sql: &str) -> String {
    let output = cluster.psql(db).args(["-At", "-c", sql]).output().unwrap();
    assert!(
        output.status.success(),
        "psql -c {sql:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

#[test]
fn a_cluster_starts_serves_stops_and_keeps_its_data() {
    let scratch = Scratch::new("reuse");
    let started = Instant::now();
    let cluster = Cluster::start(scratch.path(), EPHEMERAL).unwrap();
    eprintln!("initdb + start: {:?}", started.elapsed());
    assert!(cluster.owns_server());
    assert_eq!(
        cluster.socket_dir(),
        scratch.path().join("run").canonicalize().unwrap()
    );

    cluster.create_database("brew").unwrap();
    cluster.create_database("brew").unwrap(); // idempotent
    assert_eq!(psql(&cluster, "brew", "select 1"), "1");
    psql(
        &cluster,
        "brew",
        "create table hops (name text); insert into hops values ('Citra')",
    );
    let port = cluster.port();
    cluster.stop().unwrap();
    assert!(!scratch.path().join("data/postmaster.pid").exists());

    let started = Instant::now();
    let again = Cluster::start(scratch.path(), EPHEMERAL).unwrap();
    eprintln!("restart: {:?}", started.elapsed());
    assert_eq!(again.port(), port);
    assert!(again.database_exists("brew").unwrap());
    assert!(!again.database_exists("nope").unwrap());
    assert_eq!(psql(&again, "brew", "select name from hops"), "Citra");
    again.stop().unwrap();
}

#[test]
fn the_url_works_with_libpq() {
    let scratch = Scratch::new("url");
    let cluster = Cluster::start(scratch.path(), EPHEMERAL).unwrap();
    cluster.create_database("wort_test").unwrap();
    let url = cluster.database_url("wort_test");
    assert!(
        url.starts_with("postgresql://postgres@/wort_test?host=/"),
        "{url}"
    );
    // psql as ourselves, through the URL alone (root may enter the postgres-owned socket dir).
    let output = Command::new(cluster.psql("postgres").get_program())
        .args([
            "-X",
            "-At",
            &url,
            "-c",
            "select current_database(), current_user",
        ])
        .env_remove("PGHOST")
        .env_remove("PGPORT")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        "wort_test|postgres"
    );
}

#[test]
fn a_second_start_attaches_to_the_running_server_without_owning_it() {
    let scratch = Scratch::new("attach");
    let first = Cluster::start(scratch.path(), EPHEMERAL).unwrap();
    let second = Cluster::start(scratch.path(), EPHEMERAL).unwrap();
    assert!(
        !second.owns_server(),
        "the first handle's process is alive and owns it"
    );
    assert_eq!(
        (second.port(), second.socket_dir()),
        (first.port(), first.socket_dir())
    );
    drop(second);
    assert_eq!(
        psql(&first, "postgres", "select 1"),
        "1",
        "dropping the attached handle stops nothing"
    );
    first.stop().unwrap();
}

#[test]
fn a_stale_pid_file_does_not_prevent_a_start() {
    let scratch = Scratch::new("stale");
    Cluster::start(scratch.path(), EPHEMERAL)
        .unwrap()
        .stop()
        .unwrap();
    let pid_file = scratch.path().join("data/postmaster.pid");

    // A crashed server's pid, now free...
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    // ...and a pid reused by a process that is not PostgreSQL (this test).
    for pid in [dead, std::process::id()] {
        fs::write(
            &pid_file,
            format!("{pid}\n/x\n0\n1\n/nowhere\n\n0 0\nready   \n"),
        )
        .unwrap();
        let cluster = Cluster::start(scratch.path(), EPHEMERAL).unwrap();
        assert!(cluster.owns_server());
        assert_eq!(psql(&cluster, "postgres", "select 1"), "1");
        cluster.stop().unwrap();
    }
}

#[test]
fn a_long_directory_gets_a_short_socket_dir_that_is_cleaned_up() {
    let scratch = Scratch::new("long");
    let deep = scratch.path().join("a".repeat(60)).join("b".repeat(60));
    let cluster = Cluster::start(&deep, EPHEMERAL).unwrap();
    let socket_dir = cluster.socket_dir().to_path_buf();
    assert!(
        socket_dir.to_string_lossy().starts_with("/tmp/wort-pg-"),
        "{}",
        socket_dir.display()
    );
    assert_eq!(psql(&cluster, "postgres", "select 1"), "1");
    cluster.stop().unwrap();
    assert!(!socket_dir.exists());
}

#[test]
fn dropping_the_handle_stops_the_server() {
    let scratch = Scratch::new("drop");
    let cluster = Cluster::start(scratch.path(), ClusterOptions::default()).unwrap();
    assert_eq!(
        psql(&cluster, "postgres", "show fsync"),
        "on",
        "durable unless ephemeral"
    );
    drop(cluster);
    assert!(!scratch.path().join("data/postmaster.pid").exists());
}

/// A new cluster there would be relocated (unit-tested in src/cluster.rs, so that no test writes to
/// /var/lib/wort); one that exists is never hidden, so it is refused.
#[test]
fn as_root_an_existing_cluster_postgres_cannot_reach_is_refused_clearly() {
    if fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .all(|l| !l.starts_with("Uid:\t0\t"))
    {
        return; // only root hands the cluster to another user
    }
    let scratch = Scratch::new("locked");
    fs::create_dir_all(scratch.path().join("pg/data")).unwrap();
    fs::set_permissions(scratch.path(), fs::Permissions::from_mode(0o700)).unwrap();
    let error = Cluster::start(&scratch.path().join("pg"), EPHEMERAL)
        .unwrap_err()
        .to_string();
    assert!(error.contains("cannot reach"), "{error}");
    assert!(
        error.contains(&scratch.path().display().to_string()),
        "{error}"
    );
}

#[test]
fn a_pid_file_naming_another_clusters_server_is_stale() {
    let other_dir = Scratch::new("other");
    let other = Cluster::start(other_dir.path(), EPHEMERAL).unwrap();
    let other_pid = fs::read_to_string(other.data_dir().join("postmaster.pid")).unwrap();
    let scratch = Scratch::new("mine");
    Cluster::start(scratch.path(), EPHEMERAL)
        .unwrap()
        .stop()
        .unwrap();

    // As after a container restart, when the pid went to another PostgreSQL.
    fs::write(scratch.path().join("data/postmaster.pid"), other_pid).unwrap();
    let mine = Cluster::start(scratch.path(), EPHEMERAL).unwrap();
    assert!(mine.owns_server());
    assert_ne!(mine.port(), other.port());
    assert_eq!(psql(&mine, "postgres", "select 1"), "1");
    assert_eq!(
        psql(&other, "postgres", "select 1"),
        "1",
        "the other cluster is untouched"
    );
}
