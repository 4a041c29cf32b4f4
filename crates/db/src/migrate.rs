//! Embedded migrations, applied under a PostgreSQL advisory lock so several instances can start
//! at once: the first migrates, the others wait and then find nothing pending. Under the same
//! lock the built-in ingredient catalogue is seeded ([`seed_catalog`]).
//!
//! Before applying anything, the migrating wort closes the schema fence (`crate::schema_fence`):
//! the running instances' connections are ended and none of an older build is admitted again,
//! so during a rolling upgrade no older instance writes a row in the old shape.

use diesel::migration::{Migration, MigrationSource};
use diesel::pg::Pg;
use diesel::sql_types::{BigInt, Jsonb, Text};
use diesel::{Connection, OptionalExtension, QueryDsl, RunQueryDsl};
use diesel_async::AsyncPgConnection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations");

/// Arbitrary constant naming wort's migration lock ("wort" in ASCII).
const MIGRATION_LOCK_ID: i64 = 0x776f_7274;

/// Applies every pending migration of this build; returns how many were applied.
pub async fn run_migrations(database_url: &str) -> Result<usize, String> {
    run_migrations_from(database_url, MIGRATIONS).await
}

/// Applies every pending migration of `source`: this build's ([`MIGRATIONS`]), or in the
/// rolling-upgrade test a later release's (this build's and one more).
pub async fn run_migrations_from<S>(database_url: &str, source: S) -> Result<usize, String>
where
    S: MigrationSource<Pg> + Send + 'static,
{
    let url = database_url.to_owned();
    // diesel's migration API is synchronous. On a plain thread (no runtime context) the
    // connection wrapper drives its own small runtime, whatever runtime the caller uses.
    let worker = std::thread::spawn(move || migrate_blocking(&url, &source));
    tokio::task::spawn_blocking(move || worker.join())
        .await
        .map_err(|e| format!("migration task: {e}"))?
        .map_err(|_| "migration thread panicked".to_owned())?
}

/// For `wort serve --no-migrate`: refuses a database a newer wort has migrated
/// ([`refuse_unknown_schema`]), and applies nothing.
pub async fn check_schema(database_url: &str) -> Result<(), String> {
    let url = database_url.to_owned();
    let worker = std::thread::spawn(move || {
        let mut conn = AsyncConnectionWrapper::<AsyncPgConnection>::establish(&url)
            .map_err(|e| format!("connect: {e}"))?;
        refuse_unknown_schema(&mut conn, &MIGRATIONS)
    });
    tokio::task::spawn_blocking(move || worker.join())
        .await
        .map_err(|e| format!("schema check task: {e}"))?
        .map_err(|_| "schema check thread panicked".to_owned())?
}

fn migrate_blocking(url: &str, source: &impl MigrationSource<Pg>) -> Result<usize, String> {
    let mut conn = AsyncConnectionWrapper::<AsyncPgConnection>::establish(url)
        .map_err(|e| format!("connect: {e}"))?;
    diesel::sql_query("SELECT pg_advisory_lock($1)")
        .bind::<BigInt, _>(MIGRATION_LOCK_ID)
        .execute(&mut conn)
        .map_err(|e| format!("advisory lock: {e}"))?;
    let applied = refuse_unknown_schema(&mut conn, source)
        .and_then(|()| apply_pending(&mut conn, source))
        .and_then(|applied| seed_catalog(&mut conn).map(|_| applied));
    let unlocked = diesel::sql_query("SELECT pg_advisory_unlock($1)")
        .bind::<BigInt, _>(MIGRATION_LOCK_ID)
        .execute(&mut conn);
    let applied = applied?;
    unlocked.map_err(|e| format!("advisory unlock: {e}"))?;
    Ok(applied)
}

/// Applies `source`'s pending migrations behind the closed schema fence; nothing pending, nothing
/// fenced (a restart of the same release ends no one's connections).
fn apply_pending(
    conn: &mut AsyncConnectionWrapper<AsyncPgConnection>,
    source: &impl MigrationSource<Pg>,
) -> Result<usize, String> {
    let pending = conn
        .has_pending_migration(Borrowed(source))
        .map_err(|e| format!("reading the pending migrations: {e}"))?;
    if !pending {
        return Ok(0);
    }
    crate::schema_fence::close(conn)?;
    let applied = conn
        .run_pending_migrations(Borrowed(source))
        .map(|v| v.len())
        .map_err(|e| format!("migration failed: {e}"));
    let opened = crate::schema_fence::open(conn);
    let applied = applied?;
    opened?;
    Ok(applied)
}

/// A borrowed source: diesel's harness takes its source by value, and this one is asked twice.
struct Borrowed<'a, S>(&'a S);

impl<S: MigrationSource<Pg>> MigrationSource<Pg> for Borrowed<'_, S> {
    fn migrations(&self) -> diesel::migration::Result<Vec<Box<dyn Migration<Pg>>>> {
        self.0.migrations()
    }
}

/// Refuses a database that a newer wort has migrated: this build does not know what those
/// migrations changed, and would read and write the new schema wrongly (an older build ignored a
/// hop stand's temperature and dropped new children on copy). The way back is the backup taken
/// before the upgrade, restored as docs/operations.md says ("Rolling back").
fn refuse_unknown_schema(
    conn: &mut AsyncConnectionWrapper<AsyncPgConnection>,
    source: &impl MigrationSource<Pg>,
) -> Result<(), String> {
    let applied = conn
        .applied_migrations()
        .map_err(|e| format!("reading the applied migrations: {e}"))?;
    let known = known_versions(source)?;
    let unknown = unknown_versions(applied.iter().map(ToString::to_string).collect(), &known);
    match (unknown.last(), known.last()) {
        (Some(newest), Some(ours)) => Err(format!(
            "the database was migrated by a newer wort: it has {} migration(s) this build does \
             not know, the newest {newest}, while this build's newest is {ours}. Run the wort \
             that migrated it, or to go back to this version restore the backup taken before \
             the upgrade into a new database and point DATABASE_URL at it (docs/operations.md, \
             \"Rolling back\")",
            unknown.len()
        )),
        _ => Ok(()),
    }
}

/// This build's newest migration version.
pub fn newest_known_version() -> Result<String, String> {
    known_versions(&MIGRATIONS)?
        .pop()
        .ok_or_else(|| "this build has no migrations".to_owned())
}

/// The versions of this build's migrations, oldest first (diesel's version: the folder name's
/// digits, e.g. `20261127000610`).
fn known_versions(source: &impl MigrationSource<Pg>) -> Result<Vec<String>, String> {
    let mut known: Vec<String> = source
        .migrations()
        .map_err(|e| format!("this build's migrations: {e}"))?
        .iter()
        .map(|m| m.name().version().to_string())
        .collect();
    known.sort();
    Ok(known)
}

/// The applied versions this build does not have, oldest first.
fn unknown_versions(mut applied: Vec<String>, known: &[String]) -> Vec<String> {
    applied.retain(|v| !known.contains(v));
    applied.sort();
    applied
}

/// Writes the built-in catalogue shipped with this build into `catalog_items` (inserting new
/// items, updating changed ones, deleting those no longer shipped: links to them become null),
/// in one transaction. Skipped when the stored fingerprint of the data is this build's, so a
/// restart costs one small read. Returns whether it wrote.
pub fn seed_catalog(
    conn: &mut impl diesel::connection::LoadConnection<Backend = diesel::pg::Pg>,
) -> Result<bool, String> {
    use crate::schema::catalog_seed;
    use wort_domain::catalog::builtin;

    let fingerprint = builtin::fingerprint();
    let stored: Option<String> = catalog_seed::table
        .select(catalog_seed::fingerprint)
        .first(conn)
        .optional()
        .map_err(|e| format!("catalogue seed: {e}"))?;
    if stored.as_deref() == Some(fingerprint.as_str()) {
        return Ok(false);
    }
    let items = builtin::items()?;
    let rows: Vec<serde_json::Value> = items
        .iter()
        .map(|item| {
            serde_json::json!({
                "id": item.id,
                "kind": item.kind().as_str(),
                "name": item.name,
                "aliases": item.aliases,
                "details": item.details.to_json(),
                "notes": item.notes,
                "folded_name": wort_domain::catalog::search::fold(&item.name),
                "folded_names": item.folded_names(),
                "search_text": item.search_text(),
            })
        })
        .collect();
    let rows = serde_json::Value::Array(rows);
    conn.transaction(|conn| {
        diesel::sql_query(
            "INSERT INTO catalog_items (id, user_id, kind, name, aliases, details, notes, \
                 folded_name, folded_names, search_text, created_at, updated_at) \
             SELECT r.id, NULL, r.kind, r.name, r.aliases, r.details, r.notes, r.folded_name, \
                 r.folded_names, r.search_text, now(), now() \
             FROM jsonb_to_recordset($1) AS r(id uuid, kind text, name text, aliases text[], \
                 details jsonb, notes text, folded_name text, folded_names text[], search_text text) \
             ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name, \
                 aliases = EXCLUDED.aliases, details = EXCLUDED.details, notes = EXCLUDED.notes, \
                 folded_name = EXCLUDED.folded_name, folded_names = EXCLUDED.folded_names, \
                 search_text = EXCLUDED.search_text, updated_at = now() \
             WHERE catalog_items.user_id IS NULL",
        )
        .bind::<Jsonb, _>(&rows)
        .execute(conn)?;
        diesel::sql_query(
            "DELETE FROM catalog_items WHERE user_id IS NULL AND id NOT IN \
             (SELECT (r ->> 'id')::uuid FROM jsonb_array_elements($1) AS r)",
        )
        .bind::<Jsonb, _>(&rows)
        .execute(conn)?;
        diesel::sql_query(
            "INSERT INTO catalog_seed (singleton, fingerprint, seeded_at) VALUES (true, $1, now()) \
             ON CONFLICT (singleton) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, \
                 seeded_at = now()",
        )
        .bind::<Text, _>(&fingerprint)
        .execute(conn)?;
        Ok::<_, diesel::result::Error>(())
    })
    .map_err(|e| format!("catalogue seed: {e}"))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn this_builds_versions_are_its_migration_folders() {
        let known = known_versions(&MIGRATIONS).unwrap();
        assert!(known.len() > 20, "{known:?}");
        assert!(known.windows(2).all(|w| w[0] < w[1]));
        assert!(known.iter().all(|v| v.chars().all(|c| c.is_ascii_digit())));
    }

    #[test]
    fn only_versions_this_build_lacks_are_unknown() {
        let known = vec!["1".to_owned(), "2".to_owned()];
        assert!(unknown_versions(vec!["1".into(), "2".into()], &known).is_empty());
        assert!(unknown_versions(vec!["1".into()], &known).is_empty());
        assert_eq!(
            unknown_versions(vec!["9".into(), "1".into(), "3".into()], &known),
            ["3", "9"]
        );
    }
}
