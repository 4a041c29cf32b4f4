//! Embedded migrations, applied under a PostgreSQL advisory lock so several instances can start
//! at once: the first migrates, the others wait and then find nothing pending. Under the same
//! lock the built-in ingredient catalogue is seeded ([`seed_catalog`]).

use diesel::sql_types::{BigInt, Jsonb, Text};
use diesel::{Connection, OptionalExtension, QueryDsl, RunQueryDsl};
use diesel_async::AsyncPgConnection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations");

/// Arbitrary constant naming wort's migration lock ("wort" in ASCII).
const MIGRATION_LOCK_ID: i64 = 0x776f_7274;

/// Applies every pending migration; returns how many were applied.
pub async fn run_migrations(database_url: &str) -> Result<usize, String> {
    let url = database_url.to_owned();
    // diesel's migration API is synchronous. On a plain thread (no runtime context) the
    // connection wrapper drives its own small runtime, whatever runtime the caller uses.
    let worker = std::thread::spawn(move || migrate_blocking(&url));
    tokio::task::spawn_blocking(move || worker.join())
        .await
        .map_err(|e| format!("migration task: {e}"))?
        .map_err(|_| "migration thread panicked".to_owned())?
}

fn migrate_blocking(url: &str) -> Result<usize, String> {
    let mut conn = AsyncConnectionWrapper::<AsyncPgConnection>::establish(url)
        .map_err(|e| format!("connect: {e}"))?;
    diesel::sql_query("SELECT pg_advisory_lock($1)")
        .bind::<BigInt, _>(MIGRATION_LOCK_ID)
        .execute(&mut conn)
        .map_err(|e| format!("advisory lock: {e}"))?;
    let applied = conn
        .run_pending_migrations(MIGRATIONS)
        .map(|v| v.len())
        .map_err(|e| format!("migration failed: {e}"))
        .and_then(|applied| seed_catalog(&mut conn).map(|_| applied));
    let unlocked = diesel::sql_query("SELECT pg_advisory_unlock($1)")
        .bind::<BigInt, _>(MIGRATION_LOCK_ID)
        .execute(&mut conn);
    let applied = applied?;
    unlocked.map_err(|e| format!("advisory unlock: {e}"))?;
    Ok(applied)
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
