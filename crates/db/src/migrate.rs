//! Embedded migrations, applied under a PostgreSQL advisory lock so several instances can start
//! at once: the first migrates, the others wait and then find nothing pending.

use diesel::sql_types::BigInt;
use diesel::{Connection, RunQueryDsl};
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
    let applied = conn.run_pending_migrations(MIGRATIONS).map(|v| v.len());
    let unlocked = diesel::sql_query("SELECT pg_advisory_unlock($1)")
        .bind::<BigInt, _>(MIGRATION_LOCK_ID)
        .execute(&mut conn);
    let applied = applied.map_err(|e| format!("migration failed: {e}"))?;
    unlocked.map_err(|e| format!("advisory unlock: {e}"))?;
    Ok(applied)
}
