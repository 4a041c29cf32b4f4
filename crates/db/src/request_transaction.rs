//! A keyed write's transaction: the request's writes and its `Idempotency-Key` record commit
//! together, or not at all.
//!
//! [`open`] takes a connection from the pool, begins a transaction and takes the key's lock in it
//! with `pg_try_advisory_xact_lock`, which PostgreSQL holds until that transaction ends, on
//! whichever wort instance it runs. While the request runs ([`KeyTransaction::run`]), every
//! repository call of its task borrows that connection instead of taking one from a pool
//! ([`lend`]), so everything it writes lands in the one transaction; the adapters' own
//! transactions become savepoints inside it. The record is written last, just before `COMMIT`.
//!
//! Why an advisory lock and not the record's row: the lock says "a try with this key is running or
//! its outcome is open" without anything committed first, and it vanishes with the transaction
//! however the transaction ends (committed, rolled back, its connection closed by the deadline or
//! by a killed process). A retry that cannot take it is told so (`409`); one that can sees the
//! truth in the table: the record, if the first committed, or nothing, if it did not.

use std::sync::Arc;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool};
use diesel::upsert::on_constraint;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, TransactionManager};
use sha2::{Digest, Sha256};
use tokio::sync::Mutex;
use wort_domain::idempotency::{
    Answer, IdempotencyKey, KeyRecord, KeyTransaction, StoredKey, Work,
};
use wort_domain::{DomainError, DomainResult, UserId};

use crate::error::{db_error, pool_error};
use crate::idempotency::rows::{KEY_COLUMNS, KeyRow};
use crate::pool::LENT;
use crate::pool::{DbPool, PooledConn};
use crate::prepared::Prepared;
use crate::schema::idempotency_keys as keys;

type Manager = <AsyncPgConnection as AsyncConnection>::TransactionManager;

/// The advisory lock's 64-bit number for an account's key: the first 8 bytes of SHA-256 over
/// both. Two different keys that share a number only make one wait for the other.
pub(crate) fn lock_number(user: UserId, key: &IdempotencyKey) -> i64 {
    let mut hash = Sha256::new();
    hash.update(b"idempotency-key\0");
    hash.update(user.0.as_bytes());
    hash.update(key.as_str().as_bytes());
    let digest = hash.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(digest.get(..8).unwrap_or(&[0; 8]));
    i64::from_be_bytes(first)
}

#[derive(QueryableByName)]
struct Locked {
    #[diesel(sql_type = Bool)]
    locked: bool,
}

const TRY_LOCK: &str = "SELECT pg_try_advisory_xact_lock($1) AS locked";
const SAVEPOINT: &str = "SAVEPOINT keyed_write_start";

/// Takes the key's lock inside a transaction diesel already opened (the AI requests' reservation
/// of a key, `crate::idempotency`): whether it was free.
pub(crate) async fn try_lock(
    conn: &mut AsyncPgConnection,
    user: UserId,
    key: &IdempotencyKey,
) -> QueryResult<bool> {
    Prepared(diesel::sql_query(TRY_LOCK).bind::<BigInt, _>(lock_number(user, key)))
        .get_result::<Locked>(conn)
        .await
        .map(|l| l.locked)
}

/// Begins the transaction and takes the key's lock in it; `None` when another transaction holds
/// the lock (the transaction is rolled back and the connection kept). The stored key is read
/// in the same round trip, after the lock.
pub(crate) async fn open(
    pool: &DbPool,
    user: UserId,
    key: &IdempotencyKey,
) -> DomainResult<Option<PgKeyTransaction>> {
    // Closed rather than pooled if it is dropped inside the transaction (`PooledConn`).
    let mut conn = PooledConn::Own(Some(pool.get().await.map_err(pool_error)?));
    Manager::begin_transaction(&mut *conn)
        .await
        .map_err(db_error)?;
    let shared: &AsyncPgConnection = &conn;
    let (mut first, mut second) = (shared, shared);
    let lock = diesel::sql_query(TRY_LOCK).bind::<BigInt, _>(lock_number(user, key));
    let read = keys::table
        .filter(keys::user_id.eq(user.0))
        .filter(keys::key.eq(key.as_str()))
        .select(KEY_COLUMNS);
    let mut third = shared;
    // The savepoint marks the start of the request's own writes, for an answer that undoes them.
    let (locked, row, _) = futures_util::try_join!(
        Prepared(lock).get_result::<Locked>(&mut first),
        async { read.first::<KeyRow>(&mut second).await.optional() },
        diesel::sql_query(SAVEPOINT).execute(&mut third),
    )
    .map_err(db_error)?;
    if !locked.locked {
        rollback(conn).await;
        return Ok(None);
    }
    let stored = row.map(KeyRow::entity).transpose()?;
    Ok(Some(PgKeyTransaction {
        conn: Arc::new(Mutex::new(conn)),
        stored,
    }))
}

/// Rolls back and returns the connection to the pool (or closes it, if the rollback failed).
async fn rollback(mut conn: PooledConn) {
    if let Err(error) = Manager::rollback_transaction(&mut *conn).await {
        tracing::debug!(%error, "rolling back a keyed write");
    }
}

/// Dropped without a commit or a rollback (the deadline passed, the client hung up), its
/// connection is still inside the transaction and is closed when its last holder lets go
/// (`PooledConn`'s drop), so PostgreSQL rolls back.
pub(crate) struct PgKeyTransaction {
    conn: Arc<Mutex<PooledConn>>,
    stored: Option<StoredKey>,
}

impl PgKeyTransaction {
    /// The connection back from every lender. Each repository call's borrow ended with the call,
    /// and `run` has returned, so nobody else holds it.
    fn into_connection(self) -> DomainResult<PooledConn> {
        Arc::try_unwrap(self.conn)
            .map(Mutex::into_inner)
            .map_err(|_| DomainError::Internal("a keyed write's connection is still lent".into()))
    }
}

#[async_trait(?Send)]
impl KeyTransaction for PgKeyTransaction {
    fn stored(&self) -> Option<&StoredKey> {
        self.stored.as_ref()
    }

    async fn run(&mut self, work: Work<'_>) -> Answer {
        LENT.scope(self.conn.clone(), work).await
    }

    async fn commit(self: Box<Self>, record: KeyRecord, keep_work: bool) -> DomainResult<()> {
        let mut conn = self.into_connection()?;
        commit_on(&mut conn, &record, keep_work).await
    }

    async fn rollback(self: Box<Self>) {
        match self.into_connection() {
            Ok(conn) => rollback(conn).await,
            Err(error) => tracing::error!(%error, "rolling back a keyed write"),
        }
    }
}

async fn commit_on(
    conn: &mut AsyncPgConnection,
    record: &KeyRecord,
    keep_work: bool,
) -> DomainResult<()> {
    if !keep_work {
        // Undo the request's writes and keep the lock.
        diesel::sql_query("ROLLBACK TO SAVEPOINT keyed_write_start")
            .execute(conn)
            .await
            .map_err(db_error)?;
    }
    let answer = &record.answer;
    let status = i16::try_from(answer.status)
        .map_err(|_| DomainError::Internal("HTTP status out of range".into()))?;
    // Every column, for a new key or over an expired one (or an AI request's abandoned
    // reservation) that the domain let this try take over.
    let record_row = (
        keys::user_id.eq(record.user.0),
        keys::key.eq(record.key.as_str()),
        keys::fingerprint.eq(record.fingerprint.0.as_slice()),
        keys::token.eq(record.token),
        keys::reserved_at.eq(record.reserved_at),
        keys::status.eq(Some(status)),
        keys::content_type.eq(answer.content_type.as_deref()),
        keys::location.eq(answer.location.as_deref()),
        keys::body.eq(answer.body.as_deref()),
    );
    Prepared(
        diesel::insert_into(keys::table)
            .values(record_row)
            .on_conflict(on_constraint("idempotency_keys_pkey"))
            .do_update()
            .set(record_row),
    )
    .execute(conn)
    .await
    .map_err(db_error)?;
    Manager::commit_transaction(conn).await.map_err(db_error)
}
