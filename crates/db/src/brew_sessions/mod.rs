//! Brew sessions, their checklist steps and fermentation readings: the PostgreSQL side of
//! `BrewSessionRepository`.
//!
//! * [`rows`]: the table rows and their mapping to the domain's types.
//! * [`queries`]: filters and lookups shared by the reads and the writes.
//! * [`readings`]: the one-statement insert of a reading, and what follows it.
//! * [`transactions`]: the multi-step writes, each in one transaction.
//! * [`retention`]: thinning old readings in batches (`WORT_READINGS_RETENTION_DAYS`).
//! * [`effects`]: carries out what the domain decided a change sets off.
//! * [`forecast`]: the bucketed readings the fermentation forecast is fitted to.
//! * this file: the repository, which opens the connections and transactions.

mod effects;
mod forecast;
mod queries;
mod readings;
pub mod retention;
mod rows;
mod schedule_clock;
mod transactions;

pub(crate) use readings::{add_reading_statement, after_reading_stored, run_add_reading};

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brew_session::ports::SessionPlanner;
use wort_domain::brew_session::{
    BrewSession, BrewSessionFilter, BrewSessionPatch, BrewStep, HomeParts, NewReading, NewStep,
    Reading, ReadingPatch, ReadingRange, SessionStatus, StepPatch, TimerAction, TimerState,
};
use wort_domain::page::{Page, PageRequest};
use wort_domain::ports::BrewSessionRepository;
use wort_domain::{DomainError, DomainResult, UserId};

use self::queries::{
    find_session, latest_gravity, readings_in_range, session_exists, session_filtered, unwrap_tx,
};
use self::readings::insert_reading;
use self::rows::{ReadingRow, SessionRow, StepRow};
use self::transactions::{
    add_step_in_tx, create_in_tx, delete_reading_in_tx, delete_step_in_tx, step_timer_in_tx,
    update_in_tx, update_reading_in_tx, update_step_in_tx,
};
use crate::error::{TxError, db_error};
use crate::kept_sql::Columns;
use crate::pool::{DbPool, checkout};
use crate::schema::{brew_sessions as sessions, brew_steps as steps, fermentation_logs as logs};

pub struct PgBrewSessions {
    pool: DbPool,
}

impl PgBrewSessions {
    pub fn new(pool: DbPool) -> Self {
        PgBrewSessions { pool }
    }
}

// ---- The repository -----------------------------------------------------------------------------

#[async_trait]
impl BrewSessionRepository for PgBrewSessions {
    async fn fermentation_schedule(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<Vec<wort_domain::brew_session::schedule::ScheduledStep>> {
        crate::fermentation_schedule::schedule_of(&self.pool, user, session_id)
            .await?
            .ok_or(DomainError::NotFound)
    }

    async fn forecast_series(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<wort_domain::brew_session::ForecastSeries> {
        forecast::forecast_series(&self.pool, user, session_id).await
    }

    async fn announce_due_fermentation_steps(&self, now: OffsetDateTime) -> DomainResult<usize> {
        schedule_clock::announce_due_steps(&self.pool, now).await
    }

    async fn home(&self, user: UserId, now: OffsetDateTime) -> DomainResult<HomeParts> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let active = [SessionStatus::Brewing, SessionStatus::Fermenting].map(|s| s.as_str());
        let finished = [SessionStatus::Completed, SessionStatus::Abandoned].map(|s| s.as_str());
        let timing = [TimerState::Running, TimerState::Paused].map(|s| s.as_str());
        let session_query = sessions::table
            .filter(sessions::user_id.eq(user.0))
            .filter(sessions::status.eq_any(active))
            .order((sessions::updated_at.desc(), sessions::id))
            .limit(wort_domain::brew_session::rules::HOME_MAX_SESSIONS)
            .select((SessionRow::as_select(), latest_gravity()));
        let timer_query = steps::table
            .inner_join(
                sessions::table.on(sessions::id
                    .eq(steps::session_id)
                    .and(sessions::user_id.eq(steps::user_id))),
            )
            .filter(steps::user_id.eq(user.0))
            .filter(steps::timer_state.eq_any(timing))
            .filter(sessions::status.ne_all(finished))
            .order((steps::timer_ends_at.asc(), steps::id))
            .limit(wort_domain::brew_session::rules::HOME_MAX_TIMERS)
            .select((StepRow::as_select(), sessions::name));
        let (rows, timer_rows) = futures_util::try_join!(
            session_query.load::<(SessionRow, Option<f64>)>(&mut &*conn_ref),
            timer_query.load::<(StepRow, String)>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        let sessions = rows
            .into_iter()
            .map(|(row, latest)| row.entity(latest))
            .collect::<DomainResult<Vec<_>>>()?;
        let ids: Vec<Uuid> = sessions.iter().map(|s| s.id).collect();
        let checklist_query = steps::table
            .filter(steps::user_id.eq(user.0))
            .filter(steps::session_id.eq_any(&ids))
            .select((steps::session_id, steps::completed));
        let (checklist, waiting_steps) = futures_util::try_join!(
            checklist_query.load::<(Uuid, bool)>(&mut &*conn_ref),
            crate::fermentation_schedule::waiting_steps(conn_ref, user, &ids),
        )
        .map_err(db_error)?;
        Ok(HomeParts {
            sessions,
            waiting_steps,
            checklist,
            timers: timer_rows
                .into_iter()
                .map(|(row, name)| (row.entity(now), name))
                .collect(),
        })
    }

    async fn create(
        &self,
        user: UserId,
        recipe_id: Uuid,
        plan: &SessionPlanner,
        now: OffsetDateTime,
    ) -> DomainResult<BrewSession> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| {
                let recipe = crate::recipe_rows::load_detail(conn, user, recipe_id, true).await?;
                // The recipe row is locked FOR SHARE and its foreign key holds the profile: the
                // profile cannot be deleted until this transaction ends.
                let equipment =
                    crate::equipment::profile_of(conn, user, recipe.recipe.equipment_id).await?;
                let new = plan(&recipe, equipment.as_ref())?;
                create_in_tx(conn, user, new, now).await
            })
            .await,
        )
    }

    async fn list(
        &self,
        user: UserId,
        filter: &BrewSessionFilter,
        page: PageRequest,
    ) -> DomainResult<Page<BrewSession>> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let page_query = session_filtered(user, filter)
            .order((
                sessions::brew_date.desc(),
                sessions::created_at.desc(),
                sessions::id.desc(),
            ))
            .select((SessionRow::as_select(), latest_gravity()))
            .limit(page.limit)
            .offset(page.offset);
        let count_query = session_filtered(user, filter).count();
        let (rows, total) = futures_util::try_join!(
            page_query.load::<(SessionRow, Option<f64>)>(&mut &*conn_ref),
            count_query.get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        let items = rows
            .into_iter()
            .map(|(row, latest)| row.entity(latest))
            .collect::<DomainResult<_>>()?;
        Ok(Page { items, total })
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<BrewSession> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(find_session(&mut conn, user, id, false).await)
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: BrewSessionPatch,
        now: OffsetDateTime,
    ) -> DomainResult<BrewSession> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| update_in_tx(conn, user, id, patch, now).await)
                .await,
        )
    }

    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let now = wort_domain::timestamp::to_db_precision(OffsetDateTime::now_utc());
        // Steps and readings go with it (ON DELETE CASCADE). A fermenting session's sensors are
        // removed from Home Assistant in the same transaction, as when fermentation ends.
        unwrap_tx(
            conn.transaction(async |conn| {
                let status: Option<String> = diesel::delete(
                    sessions::table
                        .filter(sessions::id.eq(id))
                        .filter(sessions::user_id.eq(user.0)),
                )
                .returning(sessions::status)
                .get_result(conn)
                .await
                .optional()?;
                let Some(status) = status else {
                    return Err(TxError(DomainError::NotFound));
                };
                if status == SessionStatus::Fermenting.as_str() {
                    crate::mqtt::fermentation_changed(conn, user, id, false, now).await?;
                }
                Ok(())
            })
            .await,
        )
    }

    async fn list_steps(
        &self,
        user: UserId,
        session_id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<Vec<BrewStep>> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let list = steps::table
            .filter(steps::session_id.eq(session_id))
            .filter(steps::user_id.eq(user.0))
            .order((steps::sort_order, steps::created_at, steps::id))
            .select(StepRow::as_select());
        let (exists, rows) = futures_util::try_join!(
            session_exists(user, session_id).get_result::<i64>(&mut &*conn_ref),
            list.load::<StepRow>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        if exists == 0 {
            return Err(DomainError::NotFound);
        }
        Ok(rows.into_iter().map(|row| row.entity(now)).collect())
    }

    async fn add_step(
        &self,
        user: UserId,
        session_id: Uuid,
        new: NewStep,
        now: OffsetDateTime,
    ) -> DomainResult<BrewStep> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| add_step_in_tx(conn, user, session_id, new, now).await)
                .await,
        )
    }

    async fn get_step(
        &self,
        user: UserId,
        id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<BrewStep> {
        let mut conn = checkout(&self.pool).await?;
        let row: StepRow = steps::table
            .filter(steps::id.eq(id))
            .filter(steps::user_id.eq(user.0))
            .select(StepRow::as_select())
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(row.entity(now))
    }

    async fn step_timer(
        &self,
        user: UserId,
        id: Uuid,
        action: TimerAction,
        now: OffsetDateTime,
    ) -> DomainResult<BrewStep> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| step_timer_in_tx(conn, user, id, action, now).await)
                .await,
        )
    }

    async fn update_step(
        &self,
        user: UserId,
        id: Uuid,
        patch: StepPatch,
        now: OffsetDateTime,
    ) -> DomainResult<BrewStep> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| update_step_in_tx(conn, user, id, patch, now).await)
                .await,
        )
    }

    async fn delete_step(&self, user: UserId, id: Uuid, now: OffsetDateTime) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| delete_step_in_tx(conn, user, id, now).await)
                .await,
        )
    }

    async fn add_reading(
        &self,
        user: UserId,
        session_id: Uuid,
        new: NewReading,
        now: OffsetDateTime,
    ) -> DomainResult<Reading> {
        let mut conn = checkout(&self.pool).await?;
        // Which events to write is read first, outside any transaction. Under READ COMMITTED a
        // transaction would not see a webhook created after this read either, so it adds no
        // guarantee; without events the insert is one statement, and the session's row is
        // locked only for that statement (readings are the write devices make all day:
        // docs/benchmarks-log.md, "Devices and webhooks").
        let followers = crate::outbox::followers(&mut conn, user)
            .await
            .map_err(db_error)?;
        let subscribed = followers.events();
        // An MQTT message is written with its reading, in one transaction: published at least
        // once, and never for a reading that was not stored.
        let inserted = if !followers.any() {
            unwrap_tx(insert_reading(&mut conn, user, session_id, new, &[], now).await)?
        } else {
            unwrap_tx(
                conn.transaction(async |conn| {
                    insert_reading(conn, user, session_id, new, &subscribed, now).await
                })
                .await,
            )?
        };
        inserted.ok_or(DomainError::NotFound)
    }

    async fn list_readings(
        &self,
        user: UserId,
        session_id: Uuid,
        range: ReadingRange,
        page: PageRequest,
    ) -> DomainResult<Page<Reading>> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let page_query = readings_in_range(user, session_id, range)
            .order((logs::logged_at.asc(), logs::id.asc()))
            .select(Columns::<ReadingRow>::new())
            .limit(page.limit)
            .offset(page.offset);
        let count_query = readings_in_range(user, session_id, range).count();
        // Existence, page and count: three queries, one round trip. (The total as a subquery
        // column of the page's statement saves two statements but costs more than it saves:
        // the column is decoded once per row; measured in docs/benchmarks-log.md, "Speed to the
        // ceiling: fewer round trips for readings".)
        let (exists, rows, total) = futures_util::try_join!(
            session_exists(user, session_id).get_result::<i64>(&mut &*conn_ref),
            page_query.load::<ReadingRow>(&mut &*conn_ref),
            count_query.get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        if exists == 0 {
            return Err(DomainError::NotFound);
        }
        let items = rows
            .into_iter()
            .map(ReadingRow::entity)
            .collect::<DomainResult<_>>()?;
        Ok(Page { items, total })
    }

    async fn latest_reading(&self, user: UserId, session_id: Uuid) -> DomainResult<Reading> {
        let mut conn = checkout(&self.pool).await?;
        let row: ReadingRow = readings_in_range(user, session_id, ReadingRange::default())
            .order((logs::logged_at.desc(), logs::id.desc()))
            .select(ReadingRow::as_select())
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        row.entity()
    }

    async fn get_reading(&self, user: UserId, id: Uuid) -> DomainResult<Reading> {
        let mut conn = checkout(&self.pool).await?;
        let row: ReadingRow = logs::table
            .filter(logs::id.eq(id))
            .filter(logs::user_id.eq(user.0))
            .select(ReadingRow::as_select())
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        row.entity()
    }

    async fn update_reading(
        &self,
        user: UserId,
        id: Uuid,
        patch: ReadingPatch,
        now: OffsetDateTime,
    ) -> DomainResult<Reading> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| update_reading_in_tx(conn, user, id, patch, now).await)
                .await,
        )
    }

    async fn delete_reading(
        &self,
        user: UserId,
        id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| delete_reading_in_tx(conn, user, id, now).await)
                .await,
        )
    }
}
