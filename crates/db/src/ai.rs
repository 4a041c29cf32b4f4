//! AI metering: one row per account and UTC day.
//!
//! Every write is a single statement, so the limits hold however many requests (and wort
//! instances) race for the last message: PostgreSQL locks the day's row for the upsert and
//! evaluates the guard against the latest committed counts.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Integer};
use diesel_async::RunQueryDsl;
use wort_domain::ai::Usage;
use wort_domain::ports::AiUsageRepository;
use wort_domain::{DomainResult, UserId};

use crate::error::db_error;
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::ai_usage;

pub struct PgAiUsage {
    pool: DbPool,
}

impl PgAiUsage {
    pub fn new(pool: DbPool) -> Self {
        PgAiUsage { pool }
    }
}

#[derive(QueryableByName)]
struct Counts {
    #[diesel(sql_type = Integer)]
    #[allow(dead_code)]
    messages: i32,
}

/// Admits a message while the day's counts are under both limits. A first message of the day
/// inserts the row (the limits are far above zero, so it is always admitted); later ones update
/// it only when the guard holds, and return no row when refused.
const RESERVE: &str = "\
INSERT INTO ai_usage AS u (user_id, day, messages, tokens) VALUES ($1, $2, 1, 0) \
ON CONFLICT (user_id, day) DO UPDATE SET messages = u.messages + 1 \
WHERE u.messages < $3 AND u.tokens < $4 \
RETURNING u.messages";

#[async_trait]
impl AiUsageRepository for PgAiUsage {
    async fn usage(&self, user: UserId, day: time::Date) -> DomainResult<Usage> {
        let mut conn = checkout(&self.pool).await?;
        let row: Option<(i32, i64)> = ai_usage::table
            .filter(ai_usage::user_id.eq(user.0))
            .filter(ai_usage::day.eq(day))
            .select((ai_usage::messages, ai_usage::tokens))
            .first(&mut conn)
            .await
            .optional()
            .map_err(db_error)?;
        Ok(row.map_or_else(Usage::default, |(messages, tokens)| Usage {
            messages: i64::from(messages),
            tokens,
        }))
    }

    async fn reserve(&self, user: UserId, day: time::Date, limits: Usage) -> DomainResult<bool> {
        let mut conn = checkout(&self.pool).await?;
        let admitted: Option<Counts> = Prepared(
            diesel::sql_query(RESERVE)
                .bind::<diesel::sql_types::Uuid, _>(user.0)
                .bind::<Date, _>(day)
                .bind::<Integer, _>(i32::try_from(limits.messages).unwrap_or(i32::MAX))
                .bind::<BigInt, _>(limits.tokens),
        )
        .get_result(&mut conn)
        .await
        .optional()
        .map_err(db_error)?;
        Ok(admitted.is_some())
    }

    async fn settle(&self, user: UserId, day: time::Date, tokens: i64) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        diesel::update(
            ai_usage::table
                .filter(ai_usage::user_id.eq(user.0))
                .filter(ai_usage::day.eq(day)),
        )
        .set(ai_usage::tokens.eq(ai_usage::tokens + tokens.max(0)))
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        Ok(())
    }

    async fn release(&self, user: UserId, day: time::Date) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        diesel::update(
            ai_usage::table
                .filter(ai_usage::user_id.eq(user.0))
                .filter(ai_usage::day.eq(day))
                .filter(ai_usage::messages.gt(0)),
        )
        .set(ai_usage::messages.eq(ai_usage::messages - 1))
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        Ok(())
    }
}
