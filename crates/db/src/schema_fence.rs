//! The schema fence: during a rolling upgrade, an older wort stops serving the moment a newer
//! wort migrates the database, so it never writes (or reads) rows in the old shape.
//!
//! Why a fence rather than expand-only migrations: what a new release needs in a row is often a
//! rule of the domain (a brew session's boil step and hop addition times, the children a copy
//! must carry), which a column default or a trigger cannot reproduce; and "every migration is
//! writable by the previous release's code" is a discipline no test can check in general. The
//! fence is exact and costs nothing per request (decision record "Rolling upgrades: the new
//! release fences the old off", docs/decisions/0063-rolling-upgrades-fence.md).
//!
//! How it works, with two PostgreSQL advisory locks on one key in this database:
//! - every pooled connection takes the fence key SHARED when it opens and holds it for its life,
//!   then reads the newest applied migration; a connection of a build that does not know that
//!   migration is refused ([`admit`]), so that instance answers 503 and `/readyz` 503;
//! - a wort about to apply migrations ([`close`]) ends the connections that hold the key (those
//!   of the running, older instances: their open transactions roll back) and takes it
//!   EXCLUSIVELY before migrating. A connection opening meanwhile waits for the key, and after
//!   the migration it finds the newer version and is refused. Nothing of the old instance's can
//!   slip in between the check and the schema change.
//!
//! The fence holds from the release that introduced it onwards: a release before it has no
//! fence, so upgrading from one still means stopping the old instances first
//! (docs/operations.md, "Upgrading").

use diesel::sql_types::{BigInt, Nullable, Text};
use diesel::{ConnectionError, ConnectionResult, QueryableByName};
use diesel_async::AsyncPgConnection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;

// The fence's advisory-lock key is (2003792500, 1717923427), "wort" and "fenc" in ASCII, in
// PostgreSQL's two-integer form: that key space is apart from the single-bigint one the migration
// lock and the keyed writes' locks use, so no hash can collide with it. Written out in the SQL
// below so that each statement reads whole.

/// Taken by every serving connection when it opens, held until it closes.
pub(crate) const HOLD_SHARED: &str = "SELECT pg_advisory_lock_shared(2003792500, 1717923427)";

/// The newest applied migration, or NULL on a database nothing has migrated yet (the table is
/// then absent: `to_regclass` tells without an error).
pub(crate) const NEWEST_APPLIED: &str = "SELECT CASE WHEN to_regclass('__diesel_schema_migrations') IS NULL THEN NULL \
     ELSE (SELECT max(version) FROM __diesel_schema_migrations) END AS version";

/// The other sessions of this database holding the fence (the serving connections of every
/// running instance), ended: PostgreSQL rolls their transactions back and releases their locks.
pub(crate) const END_HOLDERS: &str = "SELECT count(pg_terminate_backend(pid)) AS ended \
     FROM pg_locks \
     WHERE locktype = 'advisory' AND classid = 2003792500::oid AND objid = 1717923427::oid \
       AND objsubid = 2 AND pid <> pg_backend_pid() \
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())";

/// Taken by the migrating wort; waits at most `lock_timeout` (set around it by [`close`]).
pub(crate) const TAKE_EXCLUSIVE: &str = "SELECT pg_advisory_lock(2003792500, 1717923427)";

pub(crate) const RELEASE_EXCLUSIVE: &str = "SELECT pg_advisory_unlock(2003792500, 1717923427)";

/// How many times [`close`] ends the holders and tries for the key before it gives up: an
/// instance reconnecting between the two may take the key again, and is ended on the next round.
pub(crate) const ATTEMPTS: u32 = 10;

/// How long each attempt waits for the ended sessions to exit.
pub(crate) const WAIT_PER_ATTEMPT: &str = "SET lock_timeout = '2s'";
pub(crate) const WAIT_RESET: &str = "RESET lock_timeout";

/// Admits a freshly opened serving connection: takes the fence key shared (waiting while a
/// migration holds it) and refuses the connection when the database has a migration newer than
/// this build's `newest_known`.
pub(crate) async fn admit(
    conn: &mut AsyncPgConnection,
    newest_known: &str,
) -> ConnectionResult<()> {
    use diesel_async::RunQueryDsl;
    let bad = |e: diesel::result::Error| ConnectionError::BadConnection(e.to_string());
    diesel::sql_query(HOLD_SHARED)
        .execute(conn)
        .await
        .map_err(bad)?;
    let applied: NewestApplied = diesel::sql_query(NEWEST_APPLIED)
        .get_result(conn)
        .await
        .map_err(bad)?;
    match applied.version {
        Some(applied) if !admits(newest_known, Some(&applied)) => {
            let why = refusal(newest_known, &applied);
            tracing::error!("{why}");
            Err(ConnectionError::BadConnection(why))
        }
        _ => Ok(()),
    }
}

#[derive(QueryableByName)]
struct NewestApplied {
    #[diesel(sql_type = Nullable<Text>)]
    version: Option<String>,
}

/// Closes the fence before migrating: ends the serving connections of the running instances and
/// takes the key exclusively, so none serves while the schema changes and, being older, none is
/// admitted after. Release it with [`open`] once the migrations are applied.
pub(crate) fn close(conn: &mut AsyncConnectionWrapper<AsyncPgConnection>) -> Result<(), String> {
    use diesel::RunQueryDsl;
    let mut last_error = String::new();
    for _ in 0..ATTEMPTS {
        let ended: Ended = diesel::sql_query(END_HOLDERS)
            .get_result(conn)
            .map_err(|e| format!("ending the older instances' connections: {e}"))?;
        if ended.ended > 0 {
            tracing::warn!(
                connections = ended.ended,
                "a migration is due: the running instances' connections were ended; an older \
                 instance answers 503 from now on and should be stopped"
            );
        }
        diesel::sql_query(WAIT_PER_ATTEMPT)
            .execute(conn)
            .map_err(|e| format!("lock timeout: {e}"))?;
        let taken = diesel::sql_query(TAKE_EXCLUSIVE).execute(conn);
        diesel::sql_query(WAIT_RESET)
            .execute(conn)
            .map_err(|e| format!("lock timeout: {e}"))?;
        match taken {
            Ok(_) => return Ok(()),
            Err(e) => last_error = e.to_string(),
        }
    }
    Err(format!(
        "could not fence off the running instances before migrating ({last_error}): stop them, \
         then start this wort again"
    ))
}

/// Opens the fence after migrating: serving connections are admitted again (those of a build
/// that knows the new schema).
pub(crate) fn open(conn: &mut AsyncConnectionWrapper<AsyncPgConnection>) -> Result<(), String> {
    use diesel::RunQueryDsl;
    diesel::sql_query(RELEASE_EXCLUSIVE)
        .execute(conn)
        .map(|_| ())
        .map_err(|e| format!("releasing the schema fence: {e}"))
}

#[derive(QueryableByName)]
struct Ended {
    #[diesel(sql_type = BigInt)]
    ended: i64,
}

/// Whether a build whose newest migration is `newest_known` may serve a database whose newest
/// applied migration is `applied`: not when the database has one the build lacks. Versions are
/// the digits of a migration folder's date and number, compared as numbers (by length first).
pub(crate) fn admits(newest_known: &str, applied: Option<&str>) -> bool {
    match applied {
        None => true,
        Some(applied) => (applied.len(), applied) <= (newest_known.len(), newest_known),
    }
}

/// Why a connection was refused, for the log and the pool's error.
pub(crate) fn refusal(newest_known: &str, applied: &str) -> String {
    format!(
        "the database was migrated by a newer wort (its newest migration is {applied}, this \
         build's is {newest_known}): this instance no longer serves it; stop it, or run the \
         newer wort here"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_serves_its_own_schema_and_older_ones_only() {
        assert!(admits("20261127000610", None));
        assert!(admits("20261127000610", Some("20261127000610")));
        assert!(admits("20261127000610", Some("20261101000100")));
        assert!(!admits("20261127000610", Some("20261127000611")));
        assert!(!admits("20261127000610", Some("120261127000610")));
        // A build without migrations (never shipped) serves nothing migrated.
        assert!(!admits("", Some("1")));
    }

    #[test]
    fn the_sql_names_the_key_it_documents() {
        let (class, object) = (u32::from_be_bytes(*b"wort"), u32::from_be_bytes(*b"fenc"));
        for sql in [HOLD_SHARED, END_HOLDERS, TAKE_EXCLUSIVE, RELEASE_EXCLUSIVE] {
            assert!(sql.contains(&class.to_string()), "{sql}");
            assert!(sql.contains(&object.to_string()), "{sql}");
        }
    }
}
