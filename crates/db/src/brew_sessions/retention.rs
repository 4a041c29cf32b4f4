//! The readings retention in SQL: `wort_domain::brew_session::retention`'s rule, applied to a
//! bounded batch of old readings per transaction.
//!
//! A batch takes the next [`BATCH`] readings that the rule may remove at all (a device's, without
//! a note, logged before the cutoff) in (`logged_at`, id) order after the cursor, which the
//! partial index `fermentation_logs_thinning_idx` hands out in that order, and deletes those of
//! them that are neither the first reading of their device in their clock hour (UTC) in their
//! session, nor their session's last. Both checks are a short walk of the session's
//! `(session_id, logged_at, id)` index. The rule never removes a reading that another one is
//! kept for, so the checks read the same answer before and after the batch's own deletes, and a
//! reading kept once is kept on every later pass.

use async_trait::async_trait;
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Bool, Nullable, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::DomainResult;
use wort_domain::brew_session::ports::{ReadingThinning, ThinningBatch, ThinningCursor};

use super::PgBrewSessions;
use crate::error::TxError;
use crate::pool::checkout;

/// Readings looked at (so at most deleted) by one statement: a batch takes about 0.1 s and
/// writes about 10,000 rows' worth of WAL, well inside the database deadline, and holds the
/// row locks of its deletes only that long (docs/decisions/0085-readings-retention.md).
pub const BATCH: i64 = 10_000;

/// The advisory lock a batch takes for its transaction ("wortthin" in ASCII): one instance
/// thins at a time. It is tried, never waited for: a pass that finds it held leaves the work to
/// the instance holding it.
pub const THINNING_LOCK: i64 = 0x776f_7274_7468_696e;

/// One batch, after the lock is taken. `$1` the cutoff, `$2`/`$3` the cursor (`NULL`: from the
/// oldest). The batch size is written into the text, not bound: the pool's connections plan
/// generically, and a bound `LIMIT` would be planned for an unknown row count.
///
/// `IS NOT DISTINCT FROM` for the device (never null here, so the same as `=`): with `=` the
/// planner intersects the device index with the session's, reading every reading of the device,
/// where walking the session's time index from the hour's start finds the first in a row or two.
fn statement() -> String {
    format!(
        "WITH chunk AS MATERIALIZED (
           SELECT r.id, r.session_id, r.device_id, r.logged_at
           FROM fermentation_logs r
           WHERE r.device_id IS NOT NULL AND coalesce(r.notes, '') = ''
             AND r.logged_at < $1
             AND (r.logged_at, r.id) > (coalesce($2, '-infinity'),
                                        coalesce($3, '00000000-0000-0000-0000-000000000000'))
           ORDER BY r.logged_at, r.id
           LIMIT {BATCH}
         ),
         gone AS (
           DELETE FROM fermentation_logs f USING chunk c
           WHERE f.id = c.id
             AND c.id <> (SELECT e.id FROM fermentation_logs e
                          WHERE e.session_id = c.session_id
                            AND e.logged_at >= date_trunc('hour', c.logged_at, 'UTC')
                            AND (e.logged_at, e.id) <= (c.logged_at, c.id)
                            AND e.device_id IS NOT DISTINCT FROM c.device_id
                          ORDER BY e.logged_at, e.id
                          LIMIT 1)
             AND EXISTS (SELECT FROM fermentation_logs l
                         WHERE l.session_id = c.session_id
                           AND (l.logged_at, l.id) > (c.logged_at, c.id))
           RETURNING f.id
         )
         SELECT (SELECT count(*) FROM gone) AS removed,
                (SELECT count(*) FROM chunk) AS looked_at,
                last.logged_at, last.id
         FROM (SELECT) one
         LEFT JOIN (SELECT logged_at, id FROM chunk ORDER BY logged_at DESC, id DESC LIMIT 1) last
           ON true"
    )
}

#[derive(QueryableByName)]
struct Locked {
    #[diesel(sql_type = Bool)]
    locked: bool,
}

#[derive(QueryableByName)]
struct BatchRow {
    #[diesel(sql_type = BigInt)]
    removed: i64,
    #[diesel(sql_type = BigInt)]
    looked_at: i64,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    logged_at: Option<OffsetDateTime>,
    #[diesel(sql_type = Nullable<SqlUuid>)]
    id: Option<Uuid>,
}

#[async_trait]
impl ReadingThinning for PgBrewSessions {
    async fn thin_batch(
        &self,
        older_than: OffsetDateTime,
        after: Option<ThinningCursor>,
    ) -> DomainResult<ThinningBatch> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| -> Result<ThinningBatch, TxError> {
            let locked = diesel::sql_query("SELECT pg_try_advisory_xact_lock($1) AS locked")
                .bind::<BigInt, _>(THINNING_LOCK)
                .get_result::<Locked>(conn)
                .await?
                .locked;
            if !locked {
                return Ok(ThinningBatch::Busy);
            }
            // The planner prices the per-row checks of the whole index range (it cannot know
            // they stop at the first row), and JIT-compiling the plan would cost more than
            // running it.
            diesel::sql_query("SET LOCAL jit = off")
                .execute(conn)
                .await?;
            let row = diesel::sql_query(statement())
                .bind::<Timestamptz, _>(older_than)
                .bind::<Nullable<Timestamptz>, _>(after.map(|a| a.logged_at))
                .bind::<Nullable<SqlUuid>, _>(after.map(|a| a.id))
                .get_result::<BatchRow>(conn)
                .await?;
            let next = match (row.looked_at < BATCH, row.logged_at, row.id) {
                (false, Some(logged_at), Some(id)) => Some(ThinningCursor { logged_at, id }),
                _ => None,
            };
            Ok(ThinningBatch::Done {
                removed: u64::try_from(row.removed).unwrap_or(0),
                next,
            })
        })
        .await
        .map_err(|TxError(e)| e)
    }
}
