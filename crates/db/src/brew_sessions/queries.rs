//! Query pieces the repository and its transactions share: filters, the latest gravity beside a
//! session, finding a row of the caller's and touching a session's `updated_at`.

use diesel::pg::Pg;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brew_session::{BrewSession, BrewSessionFilter, BrewStep, Reading, ReadingRange};
use wort_domain::{DomainError, DomainResult, UserId};

use super::rows::{ReadingRow, SessionRow, StepRow};
use crate::error::TxError;
use crate::schema::{brew_sessions as sessions, brew_steps as steps, fermentation_logs as logs};

/// The gravity of the session's latest reading that has one, as a column selected beside the
/// session row, so a page of sessions takes no query per session. It walks
/// `fermentation_logs_session_time_idx` backwards from the newest reading.
pub(super) fn latest_gravity()
-> diesel::expression::SqlLiteral<diesel::sql_types::Nullable<diesel::sql_types::Double>> {
    diesel::dsl::sql(
        "(SELECT l.gravity FROM fermentation_logs l \
         WHERE l.session_id = brew_sessions.id AND l.user_id = brew_sessions.user_id \
         AND l.gravity IS NOT NULL \
         ORDER BY l.logged_at DESC, l.id DESC LIMIT 1)",
    )
}

pub(super) fn session_filtered(
    user: UserId,
    filter: &BrewSessionFilter,
) -> sessions::BoxedQuery<'static, Pg> {
    let mut query = sessions::table
        .filter(sessions::user_id.eq(user.0))
        .into_boxed();
    if let Some(status) = filter.status {
        query = query.filter(sessions::status.eq(status.as_str()));
    }
    if let Some(recipe_id) = filter.recipe_id {
        query = query.filter(sessions::recipe_id.eq(recipe_id));
    }
    query
}

pub(super) fn readings_in_range(
    user: UserId,
    session_id: Uuid,
    range: ReadingRange,
) -> logs::BoxedQuery<'static, Pg> {
    let mut query = logs::table
        .filter(logs::session_id.eq(session_id))
        .filter(logs::user_id.eq(user.0))
        .into_boxed();
    if let Some(from) = range.from {
        query = query.filter(logs::logged_at.ge(from));
    }
    if let Some(to) = range.to {
        query = query.filter(logs::logged_at.lt(to));
    }
    query
}

pub(super) fn session_exists(
    user: UserId,
    id: Uuid,
) -> sessions::BoxedQuery<'static, Pg, diesel::sql_types::BigInt> {
    sessions::table
        .filter(sessions::id.eq(id))
        .filter(sessions::user_id.eq(user.0))
        .count()
        .into_boxed()
}

pub(super) async fn find_session(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    lock: bool,
) -> Result<BrewSession, TxError> {
    let query = sessions::table
        .filter(sessions::id.eq(id))
        .filter(sessions::user_id.eq(user.0))
        .select((SessionRow::as_select(), latest_gravity()));
    let (row, latest): (SessionRow, Option<f64>) = if lock {
        query.for_update().first(conn).await?
    } else {
        query.first(conn).await?
    };
    Ok(row.entity(latest)?)
}

/// Bumps the session's `updated_at` (locking its row); `NotFound` when it is not the caller's.
pub(super) async fn touch_session(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let updated = diesel::update(
        sessions::table
            .filter(sessions::id.eq(id))
            .filter(sessions::user_id.eq(user.0)),
    )
    .set(sessions::updated_at.eq(now))
    .execute(conn)
    .await?;
    if updated == 0 {
        Err(TxError(DomainError::NotFound))
    } else {
        Ok(())
    }
}

/// The step, locked for the transaction, its timer seen at `now`.
pub(super) async fn find_step(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    now: OffsetDateTime,
) -> Result<BrewStep, TxError> {
    let row: StepRow = steps::table
        .filter(steps::id.eq(id))
        .filter(steps::user_id.eq(user.0))
        .select(StepRow::as_select())
        .for_update()
        .first(conn)
        .await?;
    Ok(row.entity(now))
}

pub(super) async fn find_reading(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
) -> Result<Reading, TxError> {
    let row: ReadingRow = logs::table
        .filter(logs::id.eq(id))
        .filter(logs::user_id.eq(user.0))
        .select(ReadingRow::as_select())
        .for_update()
        .first(conn)
        .await?;
    Ok(row.entity()?)
}

pub(super) fn unwrap_tx<T>(r: Result<T, TxError>) -> DomainResult<T> {
    r.map_err(|TxError(e)| e)
}
