//! docs/operations.md, "Backups", done for real: `pg_dump -Fc` of a running wort's database,
//! `pg_restore --no-owner` into a new empty database, and a second server on it answers exactly
//! as the first did, to the same API key.

use std::{
    env,
    path::PathBuf,
    process::{Command, Output},
};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use wort_server::{ServerSettings, start};

use crate::database::{admin_url, isolated_database_url, with_database};
use crate::support::{Account, Options, TestApp, call, database_url};

/// Where Debian/Ubuntu put each installed major version's binaries.
const VERSIONED_ROOT: &str = "/usr/lib/postgresql";

/// A PostgreSQL client tool, found as wort-pgcluster finds the server binaries: on `PATH`, then
/// under `/usr/lib/postgresql/*/bin`, highest version first. Its absence fails the test.
pub(crate) fn pg_tool(name: &str) -> PathBuf {
    find_pg_tool(name).unwrap_or_else(|| {
        panic!(
            "{name} was found neither on PATH nor under {VERSIONED_ROOT}/*/bin: the backup \
             test needs PostgreSQL's client tools (Debian: apt-get install postgresql-client)"
        )
    })
}

fn find_pg_tool(name: &str) -> Option<PathBuf> {
    let on_path = env::var_os("PATH")
        .map(|path| env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    let mut versioned: Vec<(Vec<u32>, PathBuf)> = std::fs::read_dir(VERSIONED_ROOT)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| {
                    let version = entry.file_name().into_string().ok()?;
                    let key = version
                        .split('.')
                        .map(str::parse)
                        .collect::<Result<Vec<u32>, _>>()
                        .ok()?;
                    Some((key, entry.path().join("bin")))
                })
                .collect()
        })
        .unwrap_or_default();
    versioned.sort_by(|a, b| b.0.cmp(&a.0));
    on_path
        .into_iter()
        .chain(versioned.into_iter().map(|(_, dir)| dir))
        .map(|dir| dir.join(name))
        .find(|tool| tool.is_file())
}

fn run(command: &mut Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("could not run {what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// One administration statement, through `psql` on the `WORT_TEST_DATABASE_URL` server.
fn admin(sql: &str) {
    run(
        Command::new(pg_tool("psql"))
            .args([&admin_url(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
            .env_remove("PGDATABASE"),
        &format!("psql -c {sql:?}"),
    );
}

/// The restored database and the dump file, removed however the test ends. `WITH (FORCE)`: a
/// stopped server's pool may not have closed its connections yet.
struct Scratch {
    database: String,
    dump: PathBuf,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.dump);
        let drop = format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.database);
        // Never panics: this may run while a failed assertion unwinds.
        let psql = find_pg_tool("psql").unwrap_or_else(|| PathBuf::from("psql"));
        let _ = Command::new(psql)
            .args([&admin_url(), "-X", "-q", "-c", &drop])
            .output();
    }
}

/// A server of our own on `database_url`: `TestApp` always uses this process's database.
async fn server_on(database_url: &str) -> (String, actix_web::dev::ServerHandle) {
    let started = start(ServerSettings::local(database_url)).expect("server starts");
    let handle = started.server.handle();
    tokio::spawn(started.server);
    (format!("http://{}", started.addr), handle)
}

async fn created(app: &TestApp, acct: &Account, path: &str, body: Value) -> Value {
    let (status, value) = call(app.with_key(Method::POST, path, &acct.key).json(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{path}: {value}");
    value
}

/// An equipment profile, a recipe on it with ingredients, a session with a reading, an inventory
/// item; returns the GETs whose answers must survive the round trip.
async fn brew_something(app: &TestApp, acct: &Account) -> Vec<String> {
    let kettle = created(
        app,
        acct,
        "/v1/equipment",
        json!({"name": "Kettle", "batch_size_liters": 20}),
    )
    .await;
    let recipe = created(
        app,
        acct,
        "/v1/recipes",
        json!({
            "name": "Backup Bitter",
            "batch_size_liters": 20,
            "boil_time_minutes": 60,
            "equipment_id": kettle["id"],
        }),
    )
    .await;
    let rid = recipe["id"].as_str().unwrap();
    for (kind, body) in [
        (
            "fermentables",
            json!({"name": "Maris Otter", "amount_kg": 4.2, "color_srm": 3, "yield_percent": 81}),
        ),
        (
            "mash-steps",
            json!({"name": "Saccharification", "temperature_c": 66, "duration_minutes": 60}),
        ),
        (
            "hops",
            json!({"name": "Fuggle", "alpha_acid": 4.5, "amount_grams": 40, "time_minutes": 60}),
        ),
        ("yeasts", json!({"name": "S-04", "attenuation": 75})),
    ] {
        created(app, acct, &format!("/v1/recipes/{rid}/{kind}"), body).await;
    }
    let session = created(
        app,
        acct,
        "/v1/sessions",
        json!({"recipe_id": rid, "brew_date": "2026-11-20", "status": "fermenting"}),
    )
    .await;
    let sid = session["id"].as_str().unwrap();
    created(
        app,
        acct,
        &format!("/v1/sessions/{sid}/fermentation-logs"),
        json!({"gravity": 1.046, "temperature_c": 19.5}),
    )
    .await;
    created(
        app,
        acct,
        &format!("/v1/sessions/{sid}/notes"),
        json!({"at": "2026-11-21T08:00:00Z", "text": "Krausen up"}),
    )
    .await;
    created(
        app,
        acct,
        "/v1/inventory",
        json!({"category": "hop", "name": "Fuggle", "amount": 0.5, "alpha_acid": 4.5}),
    )
    .await;
    let eid = kettle["id"].as_str().unwrap();
    vec![
        format!("/v1/recipes/{rid}"),
        format!("/v1/recipes/{rid}/stats"),
        format!("/v1/equipment/{eid}"),
        format!("/v1/sessions/{sid}"),
        format!("/v1/sessions/{sid}/steps"),
        format!("/v1/sessions/{sid}/fermentation-logs"),
        format!("/v1/sessions/{sid}/notes"),
        "/v1/inventory".to_owned(),
        "/v1/me".to_owned(),
    ]
}

async fn answers(base: &str, key: &str, paths: &[String]) -> Vec<(String, StatusCode, Value)> {
    let client = reqwest::Client::new();
    let mut out = Vec::new();
    for path in paths {
        let (status, body) =
            call(client.get(format!("{base}{path}")).header("X-API-Key", key)).await;
        out.push((path.clone(), status, body));
    }
    out
}

#[tokio::test]
async fn a_pg_dump_restored_into_a_new_database_serves_the_same_answers() {
    let (pg_dump, pg_restore) = (pg_tool("pg_dump"), pg_tool("pg_restore"));
    let app = TestApp::spawn().await;
    let acct = app.account().await;
    let paths = brew_something(&app, &acct).await;
    let before = answers(&app.base, &acct.key, &paths).await;
    for (path, status, body) in &before {
        assert_eq!(*status, StatusCode::OK, "{path}: {body}");
    }

    // The documented commands, while the first server runs.
    let scratch = Scratch {
        database: format!("wort_restore_{}", std::process::id()),
        dump: env::temp_dir().join(format!("wort-backup-test-{}.dump", std::process::id())),
    };
    run(
        Command::new(&pg_dump)
            .arg("-Fc")
            .arg("--file")
            .arg(&scratch.dump)
            .arg(database_url()),
        "pg_dump -Fc",
    );
    admin(&format!("DROP DATABASE IF EXISTS \"{}\"", scratch.database));
    admin(&format!("CREATE DATABASE \"{}\"", scratch.database));
    let restored = with_database(&admin_url(), &scratch.database);
    run(
        Command::new(&pg_restore)
            .args(["--no-owner", "--exit-on-error", "--dbname", &restored])
            .arg(&scratch.dump),
        "pg_restore --no-owner",
    );
    app.stop().await;

    // A second server on the restored database, with nothing but the dump behind it.
    let (base, handle) = server_on(&restored).await;
    assert_same(&answers(&base, &acct.key, &paths).await, &before, &acct);
    // A change made after the backup...
    let (status, _) = call(
        reqwest::Client::new()
            .post(format!("{base}/v1/inventory"))
            .header("X-API-Key", &acct.key)
            .json(&json!({"category": "yeast", "name": "After the backup"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_ne!(answers(&base, &acct.key, &paths).await, before);
    handle.stop(true).await;

    // ...is undone by restoring over the database (the documented `--clean --if-exists`).
    run(
        Command::new(&pg_restore)
            .args(["--clean", "--if-exists", "--no-owner", "--exit-on-error"])
            .args(["--dbname", &restored])
            .arg(&scratch.dump),
        "pg_restore --clean --if-exists --no-owner",
    );
    let (base, handle) = server_on(&restored).await;
    assert_same(&answers(&base, &acct.key, &paths).await, &before, &acct);
    handle.stop(true).await;
    drop(scratch);
}

/// The same statuses and JSON (ids included), and `/v1/me` is still the key's own account.
fn assert_same(
    after: &[(String, StatusCode, Value)],
    before: &[(String, StatusCode, Value)],
    acct: &Account,
) {
    assert_eq!(after.len(), before.len());
    for ((path, status, body), (_, old_status, old_body)) in after.iter().zip(before) {
        assert_eq!(status, old_status, "{path}: {body}");
        assert_eq!(body, old_body, "{path} answers as before the restore");
    }
    let me = &after.last().unwrap().2;
    assert_eq!(
        (&me["id"], &me["email"]),
        (&json!(acct.id), &json!(acct.email))
    );
}

/// Every constraint and index of `database_url`'s tables, as PostgreSQL defines them, sorted:
/// two databases with the same lines have the same schema's guarantees.
fn constraints_and_indexes(database_url: &str) -> String {
    let sql = "SELECT c.conrelid::regclass || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) \
               FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace \
               WHERE n.nspname = 'public' \
               UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' \
               ORDER BY 1";
    let out = run(
        Command::new(pg_tool("psql"))
            .args([
                database_url,
                "-X",
                "-q",
                "-t",
                "-A",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                sql,
            ])
            .env_remove("PGDATABASE"),
        "psql: constraints and indexes",
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// docs/operations.md, "Rolling back", done for real: a backup taken before an upgrade, the
/// upgrade (a newer release's migration, as a later wort would apply it), then the way back: the
/// backup restored into a new, empty database, which this wort accepts and serves exactly as
/// before, with every constraint and index of the original. The upgraded database itself is
/// refused by this wort, so nothing serves it by mistake.
#[tokio::test]
async fn rolling_back_restores_the_pre_upgrade_backup_into_a_new_database() {
    let (pg_dump, pg_restore) = (pg_tool("pg_dump"), pg_tool("pg_restore"));
    // A database of its own: the upgrade below changes its schema.
    let original = isolated_database_url("rollback");
    let app = TestApp::spawn_with(Options {
        database: Some(original.clone()),
        ..Options::default()
    })
    .await;
    let acct = app.account().await;
    let paths = brew_something(&app, &acct).await;
    let before = answers(&app.base, &acct.key, &paths).await;
    let schema_before = constraints_and_indexes(&original);
    assert!(schema_before.lines().count() > 80, "{schema_before}");

    let scratch = Scratch {
        database: format!("wort_rollback_{}", std::process::id()),
        dump: env::temp_dir().join(format!("wort-rollback-test-{}.dump", std::process::id())),
    };
    // 1. The backup before the upgrade.
    run(
        Command::new(&pg_dump)
            .arg("-Fc")
            .arg("--file")
            .arg(&scratch.dump)
            .arg(&original),
        "pg_dump -Fc",
    );
    app.stop().await;
    // 2. The upgrade: what a newer release's migration does (a table that depends on ours, a
    //    column, an index) and its row in diesel's table.
    run(
        Command::new(pg_tool("psql"))
            .args([&original, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c"])
            .arg(
                "CREATE TABLE recipe_ratings (id uuid PRIMARY KEY, \
                   user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE, \
                   recipe_id uuid NOT NULL REFERENCES recipes(id) ON DELETE CASCADE); \
                 ALTER TABLE recipes ADD COLUMN rating_id uuid REFERENCES recipe_ratings(id); \
                 CREATE INDEX recipe_ratings_recipe ON recipe_ratings (recipe_id); \
                 INSERT INTO __diesel_schema_migrations (version) VALUES ('29991231000000')",
            )
            .env_remove("PGDATABASE"),
        "the newer release's migration",
    );
    let refused = wort_db::migrate::check_schema(&original).await.unwrap_err();
    assert!(refused.contains("29991231000000"), "{refused}");

    // 3. The way back, as documented: a new, empty database, the backup restored into it.
    admin(&format!("DROP DATABASE IF EXISTS \"{}\"", scratch.database));
    admin(&format!("CREATE DATABASE \"{}\"", scratch.database));
    let restored = with_database(&admin_url(), &scratch.database);
    run(
        Command::new(&pg_restore)
            .args(["--no-owner", "--exit-on-error", "--dbname", &restored])
            .arg(&scratch.dump),
        "pg_restore --no-owner into a new database",
    );
    wort_db::migrate::check_schema(&restored)
        .await
        .expect("this wort accepts the restored database");
    assert_eq!(
        constraints_and_indexes(&restored),
        schema_before,
        "every constraint and index of the pre-upgrade database"
    );
    let (base, handle) = server_on(&restored).await;
    assert_same(&answers(&base, &acct.key, &paths).await, &before, &acct);
    handle.stop(true).await;
    drop(scratch);
}
