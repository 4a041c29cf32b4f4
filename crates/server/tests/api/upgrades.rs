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
