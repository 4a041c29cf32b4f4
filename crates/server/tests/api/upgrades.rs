//! Upgrades and the way back: a wort refuses a database that a newer wort has migrated, whether
//! it is asked to migrate it or only to serve it.

use std::process::Command;

use crate::backup::pg_tool;
use crate::database::isolated_database_url;

/// What `wort` answers on a database whose schema has a migration newer than its own.
fn run_wort(database_url: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wort"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .env("WORT_ADDR", "127.0.0.1:0")
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[tokio::test]
async fn a_database_migrated_by_a_newer_wort_is_refused_with_the_way_back() {
    let url = isolated_database_url("newer_schema");
    // As it is after an upgrade: every migration of this build applied.
    let (ok, said) = run_wort(&url, &["migrate"]);
    assert!(ok, "{said}");
    // And one more, of a release after this one.
    let inserted = Command::new(pg_tool("psql"))
        .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", &url, "-c"])
        .arg("INSERT INTO __diesel_schema_migrations (version) VALUES ('29991231000000')")
        .status()
        .unwrap();
    assert!(inserted.success());
    for args in [&["migrate"][..], &["serve", "--no-migrate"][..]] {
        let (ok, said) = run_wort(&url, args);
        assert!(!ok, "{args:?} ran on a newer schema: {said}");
        assert!(
            said.contains("29991231000000"),
            "names the database's version: {said}"
        );
        let ours = wort_db::migrate::newest_known_version().unwrap();
        assert!(
            said.contains(&ours),
            "names this build's version {ours}: {said}"
        );
        assert!(said.contains("Rolling back"), "says the way back: {said}");
    }
    let err = wort_db::migrate::run_migrations(&url).await.unwrap_err();
    assert!(err.contains("newer wort"), "{err}");
}

/// The migration a later release adds in the rolling-upgrade test: a column the later release
/// fills on every row it writes and that this build knows nothing of. Its pause keeps the schema
/// change open long enough for the older instance's writers to run into it.
const LATER_RELEASE_MIGRATION: &str = "ALTER TABLE recipes ADD COLUMN upgrade_probe integer;\n\
     UPDATE recipes SET upgrade_probe = 1;\n\
     SELECT pg_sleep(0.5);\n";
const LATER_RELEASE_VERSION: &str = "29991231000000";

/// This build's migrations and one more, in a folder, as a later release would ship them.
fn later_release_migrations() -> std::path::PathBuf {
    let ours = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
    let dir = std::env::temp_dir().join(format!(
        "wort-later-release-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4()
    ));
    for entry in std::fs::read_dir(&ours).unwrap() {
        let entry = entry.unwrap();
        if !entry.file_type().unwrap().is_dir() {
            continue;
        }
        let to = dir.join(entry.file_name());
        std::fs::create_dir_all(&to).unwrap();
        for file in std::fs::read_dir(entry.path()).unwrap() {
            let file = file.unwrap();
            std::fs::copy(file.path(), to.join(file.file_name())).unwrap();
        }
    }
    let probe = dir.join("2999-12-31-000000_upgrade_probe");
    std::fs::create_dir_all(&probe).unwrap();
    std::fs::write(probe.join("up.sql"), LATER_RELEASE_MIGRATION).unwrap();
    std::fs::write(
        probe.join("down.sql"),
        "ALTER TABLE recipes DROP COLUMN upgrade_probe;\n",
    )
    .unwrap();
    dir
}

fn psql_value(url: &str, sql: &str) -> String {
    let out = Command::new(pg_tool("psql"))
        .args([
            "-X",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            url,
            "-c",
            sql,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{sql}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// One write the older instance answered: when it was sent and answered, relative to the
/// migration's end, and the id it acknowledged.
struct Answered {
    sent_after_migration: bool,
    status: reqwest::StatusCode,
    id: Option<String>,
}

/// A rolling upgrade from this release to a later one: while this build (the older instance)
/// keeps taking writes, the later release migrates the same database. The older instance is
/// fenced off: no row it writes lacks what the later release needs, every write it acknowledged
/// is there, and from the migration on it answers 503 (its `/readyz` too) until it is stopped;
/// the later release's connections are admitted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_later_release_migrating_fences_off_the_older_instance() {
    use crate::support::{Options, TestApp, call};
    use reqwest::Method;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use wort_domain::ports::HealthCheck;

    let url = isolated_database_url("rolling_upgrade");
    let older = Arc::new(
        TestApp::spawn_with(Options {
            database: Some(url.clone()),
            ..Default::default()
        })
        .await,
    );
    let account = older.account().await;
    let migrated = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..4)
        .map(|w| {
            let (older, key) = (older.clone(), account.key.clone());
            let (migrated, stop) = (migrated.clone(), stop.clone());
            tokio::spawn(async move {
                let mut answered = Vec::new();
                let mut n = 0;
                while !stop.load(Ordering::SeqCst) {
                    n += 1;
                    let sent_after_migration = migrated.load(Ordering::SeqCst);
                    let request = older
                        .with_key(Method::POST, "/v1/recipes", &key)
                        .json(&serde_json::json!({"name": format!("Writer {w} batch {n}")}));
                    let (status, body) = call(request).await;
                    answered.push(Answered {
                        sent_after_migration,
                        status,
                        id: body["id"].as_str().map(str::to_owned),
                    });
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                }
                answered
            })
        })
        .collect();

    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let later =
        diesel_migrations::FileBasedMigrations::from_path(later_release_migrations()).unwrap();
    let applied = wort_db::migrate::run_migrations_from(&url, later)
        .await
        .unwrap();
    assert_eq!(applied, 1, "the later release's one migration");
    migrated.store(true, Ordering::SeqCst);
    tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
    stop.store(true, Ordering::SeqCst);
    let mut answered = Vec::new();
    for writer in writers {
        answered.extend(writer.await.unwrap());
    }

    let before: Vec<_> = answered
        .iter()
        .filter(|a| !a.sent_after_migration)
        .collect();
    let after: Vec<_> = answered.iter().filter(|a| a.sent_after_migration).collect();
    assert!(
        before.iter().any(|a| a.status == 201),
        "the older instance served before the upgrade"
    );
    assert!(!after.is_empty(), "the writers ran on after the migration");
    for a in &after {
        assert_eq!(
            a.status, 503,
            "after the migration the older instance refuses (it answered {})",
            a.status
        );
    }
    // No row in the old shape: every row has what the later release needs.
    assert_eq!(
        psql_value(
            &url,
            "SELECT count(*) FROM recipes WHERE upgrade_probe IS NULL"
        ),
        "0"
    );
    // Every write the older instance acknowledged is there.
    for id in answered
        .iter()
        .filter(|a| a.status == 201)
        .filter_map(|a| a.id.as_deref())
    {
        assert_eq!(
            psql_value(
                &url,
                &format!("SELECT count(*) FROM recipes WHERE id = '{id}'")
            ),
            "1",
            "acknowledged recipe {id}"
        );
    }
    let (ready, _) = call(older.request(Method::GET, "/readyz")).await;
    assert_eq!(ready, 503, "the fenced instance is not ready");

    // The later release's own connections are admitted; this build's are refused.
    let later_pool = wort_db::build_pool(
        &url,
        &wort_db::PoolSettings {
            newest_migration: LATER_RELEASE_VERSION.to_owned(),
            ..Default::default()
        },
    )
    .unwrap();
    wort_db::pool::PgHealth(later_pool).ping().await.unwrap();
    let this_pool = wort_db::build_pool(&url, &wort_db::PoolSettings::default()).unwrap();
    assert!(wort_db::pool::PgHealth(this_pool).ping().await.is_err());
    // And a restart of this build on that database is refused as before.
    let (ok, said) = run_wort(&url, &["serve", "--no-migrate"]);
    assert!(!ok, "{said}");
}
