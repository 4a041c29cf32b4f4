//! `Idempotency-Key`s: one row per account and key.
//!
//! A keyed write runs in a transaction of its own that writes the key's record with its answer
//! (`crate::request_transaction`). The calls here serve the requests that wait on the AI
//! provider and so cannot: each is committed on its own, the reservation visible to every wort
//! instance before the request it guards runs, and the primary key `(user_id, key)` with the
//! key's advisory lock lets exactly one of two racing reservations in. Which stored keys a new try may take over is the domain's
//! decision (`wort_domain::idempotency::rules`); the take-over here only makes sure it replaces
//! the reservation that was looked at and not a newer one.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::upsert::on_constraint;
use diesel_async::AsyncConnection;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::idempotency::{Answer, Fingerprint, IdempotencyKey, Opened, Reserve};
use wort_domain::ports::IdempotencyStore;
use wort_domain::{DomainError, DomainResult, UserId};

use crate::error::db_error;
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::idempotency_keys as keys;

pub(crate) mod rows;

use rows::{KEY_COLUMNS, KeyRow};

pub struct PgIdempotency {
    pool: DbPool,
}

impl PgIdempotency {
    pub fn new(pool: DbPool) -> Self {
        PgIdempotency { pool }
    }
}

#[async_trait]
impl IdempotencyStore for PgIdempotency {
    async fn open(&self, user: UserId, key: &IdempotencyKey) -> DomainResult<Opened> {
        Ok(
            match crate::request_transaction::open(&self.pool, user, key).await? {
                Some(transaction) => Opened::Open(Box::new(transaction)),
                None => Opened::Busy,
            },
        )
    }

    async fn reserve(
        &self,
        user: UserId,
        key: &IdempotencyKey,
        fingerprint: Fingerprint,
        token: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<Reserve> {
        let mut conn = checkout(&self.pool).await?;
        let row = conn
            .transaction(async |conn| {
                // A keyed write's transaction holding the key: that write runs, or its outcome is
                // open (`crate::request_transaction`).
                if !crate::request_transaction::try_lock(conn, user, key).await? {
                    return Ok::<_, diesel::result::Error>(None);
                }
                let inserted = diesel::insert_into(keys::table)
                    .values((
                        keys::user_id.eq(user.0),
                        keys::key.eq(key.as_str()),
                        keys::fingerprint.eq(fingerprint.0.as_slice()),
                        keys::token.eq(token),
                        keys::reserved_at.eq(now),
                    ))
                    .on_conflict(on_constraint("idempotency_keys_pkey"))
                    .do_nothing()
                    .execute(conn)
                    .await?;
                if inserted == 1 {
                    return Ok(Some(None));
                }
                // Under the lock, and only released or pruned inside it, the row is still there.
                let row: KeyRow = keys::table
                    .filter(keys::user_id.eq(user.0))
                    .filter(keys::key.eq(key.as_str()))
                    .select(KEY_COLUMNS)
                    .first(conn)
                    .await?;
                Ok(Some(Some(row)))
            })
            .await
            .map_err(db_error)?;
        match row {
            None => Ok(Reserve::Busy),
            Some(None) => Ok(Reserve::Reserved),
            Some(Some(row)) => row.entity().map(Reserve::Stored),
        }
    }

    async fn take_over(
        &self,
        user: UserId,
        key: &IdempotencyKey,
        seen_token: Uuid,
        fingerprint: Fingerprint,
        token: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<bool> {
        let mut conn = checkout(&self.pool).await?;
        let updated = Prepared(
            diesel::update(
                keys::table
                    .filter(keys::user_id.eq(user.0))
                    .filter(keys::key.eq(key.as_str()))
                    .filter(keys::token.eq(seen_token)),
            )
            .set((
                keys::fingerprint.eq(fingerprint.0.as_slice()),
                keys::token.eq(token),
                keys::reserved_at.eq(now),
                keys::status.eq(None::<i16>),
                keys::content_type.eq(None::<String>),
                keys::location.eq(None::<String>),
                keys::body.eq(None::<Vec<u8>>),
            )),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        Ok(updated == 1)
    }

    async fn complete(
        &self,
        user: UserId,
        key: &IdempotencyKey,
        token: Uuid,
        answer: &Answer,
    ) -> DomainResult<()> {
        let status = i16::try_from(answer.status)
            .map_err(|_| DomainError::Internal("HTTP status out of range".into()))?;
        let mut conn = checkout(&self.pool).await?;
        Prepared(
            diesel::update(
                keys::table
                    .filter(keys::user_id.eq(user.0))
                    .filter(keys::key.eq(key.as_str()))
                    .filter(keys::token.eq(token)),
            )
            .set((
                keys::status.eq(Some(status)),
                keys::content_type.eq(answer.content_type.as_deref()),
                keys::location.eq(answer.location.as_deref()),
                keys::body.eq(answer.body.as_deref()),
            )),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        Ok(())
    }

    async fn release(&self, user: UserId, key: &IdempotencyKey, token: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        diesel::delete(
            keys::table
                .filter(keys::user_id.eq(user.0))
                .filter(keys::key.eq(key.as_str()))
                .filter(keys::token.eq(token))
                .filter(keys::status.is_null()),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        Ok(())
    }

    async fn prune(&self, before: OffsetDateTime) -> DomainResult<u64> {
        let mut conn = checkout(&self.pool).await?;
        let deleted = diesel::delete(keys::table.filter(keys::reserved_at.lt(before)))
            .execute(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(u64::try_from(deleted).unwrap_or(0))
    }
}
