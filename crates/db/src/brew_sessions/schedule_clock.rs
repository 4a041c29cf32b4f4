//! The fermentation schedule's clock: the periodic check that marks the steps whose time has
//! come. Here, beside the sessions, because it reads a session's gravities; the schedule's own
//! rows and their marking stay in `crate::fermentation_schedule`.

use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brew_session::schedule::{clock_needs_gravity, on_clock};
use wort_domain::{DomainResult, UserId};

use super::effects::schedule_gravities;
use crate::error::{TxError, db_error};
use crate::fermentation_schedule::{carry_out, load};
use crate::pool::{DbPool, checkout};
use crate::schema::{brew_sessions as sessions, session_fermentation_steps as sched};

/// Steps the periodic check marks due at most per run (the rest wait for the next run).
const DUE_PER_RUN: i64 = 500;

/// The periodic check: marks every step of a fermenting session whose time has come due (and
/// every step whose condition a reading met before its minimum, now that the minimum is over,
/// if the session's latest gravity still meets it) and announces it, one transaction per
/// session. Returns how many became due. Safe on several instances at once: the session row is
/// locked, and a step is marked only while still unmarked.
pub(crate) async fn announce_due_steps(pool: &DbPool, now: OffsetDateTime) -> DomainResult<usize> {
    let mut conn = checkout(pool).await?;
    let waiting: Vec<(Uuid, Uuid)> = sched::table
        .inner_join(sessions::table.on(sessions::id.eq(sched::session_id)))
        .filter(sched::became_due_at.is_null())
        .filter(
            sched::due_at
                .le(now)
                .or(sched::condition_met_early.and(sched::due_at_gravity_from.le(now))),
        )
        .filter(sessions::status.eq("fermenting"))
        .select((sched::user_id, sched::session_id))
        .distinct()
        .limit(DUE_PER_RUN)
        .load(&mut conn)
        .await
        .map_err(db_error)?;
    let mut count = 0;
    for (user, session_id) in waiting {
        let user = UserId(user);
        let marked = conn
            .transaction(async |conn| -> Result<usize, TxError> {
                // The session row is the lock the reading path takes too.
                let _: Uuid = sessions::table
                    .filter(sessions::id.eq(session_id))
                    .filter(sessions::user_id.eq(user.0))
                    .select(sessions::id)
                    .for_update()
                    .first(conn)
                    .await?;
                let steps = load(conn, user, session_id).await?;
                // The gravities only when a condition met early now counts (rarely).
                let (og, latest) = if clock_needs_gravity(&steps, now) {
                    schedule_gravities(conn, user, session_id).await?
                } else {
                    (None, None)
                };
                let advance = on_clock(&steps, latest, og, now);
                Ok(carry_out(conn, user, &steps, advance, now).await?)
            })
            .await
            .map_err(|TxError(e)| e)?;
        count += marked;
    }
    Ok(count)
}
