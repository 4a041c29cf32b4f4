//! Brew sessions, their checklist steps and fermentation readings.

use async_trait::async_trait;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use time::{Date, OffsetDateTime};
use uuid::Uuid;
use wort_domain::brew_session::check_step_room;
use wort_domain::brew_session::ports::SessionPlanner;
use wort_domain::brew_session::{
    BrewSession, BrewSessionFilter, BrewSessionPatch, BrewSessionPlan, BrewStep, FermentationLog,
    FermentationSoFar, GravityUnit, HomeParts, LogPatch, LogRange, NewLog, NewStep, SessionStatus,
    StepPatch, StepTimer, TimerAction, TimerState, measured_abv,
};
use wort_domain::page::{Page, PageRequest};
use wort_domain::ports::BrewSessionRepository;
use wort_domain::quantities::{Quantity, QuantityKind};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::TxError;
use crate::error::db_error;
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

// ---- Rows ---------------------------------------------------------------------------------------

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable)]
#[diesel(table_name = sessions, treat_none_as_null = true)]
struct SessionRow {
    id: Uuid,
    user_id: Uuid,
    recipe_id: Option<Uuid>,
    name: String,
    brew_date: Date,
    status: String,
    measured_og: Option<f64>,
    measured_fg: Option<f64>,
    measured_batch_size_liters: Option<f64>,
    notes: Option<String>,
    recipe_snapshot: Value,
    brewing_started_at: Option<OffsetDateTime>,
    fermenting_started_at: Option<OffsetDateTime>,
    conditioning_started_at: Option<OffsetDateTime>,
    completed_at: Option<OffsetDateTime>,
    abandoned_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    measured_mash_ph: Option<f64>,
    predicted_mash_ph: Option<f64>,
}

impl SessionRow {
    fn of(s: &BrewSession, user: UserId) -> Self {
        SessionRow {
            id: s.id,
            user_id: user.0,
            recipe_id: s.recipe_id,
            name: s.name.clone(),
            brew_date: s.brew_date,
            status: s.status.as_str().to_owned(),
            measured_og: s.measured_og,
            measured_fg: s.measured_fg,
            measured_batch_size_liters: s.measured_batch_size_liters,
            notes: s.notes.clone(),
            recipe_snapshot: s.recipe_snapshot.clone(),
            brewing_started_at: s.brewing_started_at,
            fermenting_started_at: s.fermenting_started_at,
            conditioning_started_at: s.conditioning_started_at,
            completed_at: s.completed_at,
            abandoned_at: s.abandoned_at,
            created_at: s.created_at,
            updated_at: s.updated_at,
            measured_mash_ph: s.measured_mash_ph,
            predicted_mash_ph: s.predicted_mash_ph,
        }
    }

    /// The session, its fermentation figures computed against `latest_gravity` (see
    /// [`latest_gravity`]).
    fn entity(self, latest_gravity: Option<f64>) -> DomainResult<BrewSession> {
        let status = SessionStatus::parse(&self.status)
            .ok_or_else(|| DomainError::Internal(format!("unknown status {}", self.status)))?;
        Ok(BrewSession {
            measured_abv: measured_abv(self.measured_og, self.measured_fg),
            // Computed by `with_latest_gravity` below, which needs the snapshot in place; so is
            // `brewhouse`.
            fermentation: FermentationSoFar::default(),
            brewhouse: Default::default(),
            id: self.id,
            user_id: self.user_id.to_string(),
            recipe_id: self.recipe_id,
            name: self.name,
            brew_date: self.brew_date,
            next_statuses: status.next_statuses(),
            status,
            measured_og: self.measured_og,
            measured_fg: self.measured_fg,
            measured_batch_size_liters: self.measured_batch_size_liters,
            measured_mash_ph: self.measured_mash_ph,
            predicted_mash_ph: self.predicted_mash_ph,
            notes: self.notes,
            recipe_snapshot: self.recipe_snapshot,
            brewing_started_at: self.brewing_started_at,
            fermenting_started_at: self.fermenting_started_at,
            conditioning_started_at: self.conditioning_started_at,
            completed_at: self.completed_at,
            abandoned_at: self.abandoned_at,
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
        .with_latest_gravity(latest_gravity))
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable)]
#[diesel(table_name = steps, treat_none_as_null = true)]
struct StepRow {
    id: Uuid,
    user_id: Uuid,
    session_id: Uuid,
    title: String,
    description: Option<String>,
    sort_order: i32,
    duration_minutes: Option<f64>,
    completed: bool,
    completed_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    boil: bool,
    boil_addition_at: Option<f64>,
    timer_state: String,
    timer_started_at: Option<OffsetDateTime>,
    timer_ends_at: Option<OffsetDateTime>,
    timer_remaining_seconds: Option<f64>,
    quantities: Value,
}

/// `[{"kind":"volume","value":15.08}, …]`: the unit follows from the kind.
fn quantities_json(quantities: &[Quantity]) -> Value {
    Value::Array(
        quantities
            .iter()
            .map(|q| serde_json::json!({"kind": q.kind.as_str(), "value": q.value}))
            .collect(),
    )
}

/// The stored quantities; an entry this version does not know is dropped (the text then shows
/// its placeholder rather than a wrong number).
fn quantities_of(value: &Value) -> Vec<Quantity> {
    let Some(items) = value.as_array() else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let kind = QuantityKind::parse(item.get("kind")?.as_str()?)?;
            Some(Quantity::new(kind, item.get("value")?.as_f64()?))
        })
        .collect()
}

impl StepRow {
    fn of(s: &BrewStep, user: UserId) -> Self {
        let timer = s.timer;
        StepRow {
            id: s.id,
            user_id: user.0,
            session_id: s.session_id,
            title: s.title.clone(),
            description: s.description.clone(),
            sort_order: s.sort_order,
            duration_minutes: s.duration_minutes,
            completed: s.completed,
            completed_at: s.completed_at,
            created_at: s.created_at,
            boil: s.boil,
            boil_addition_at: s.boil_addition_at,
            timer_state: timer
                .map_or(TimerState::Idle, |t| t.state)
                .as_str()
                .to_owned(),
            timer_started_at: timer.and_then(|t| t.started_at),
            timer_ends_at: timer.and_then(|t| t.ends_at),
            timer_remaining_seconds: timer.and_then(|t| t.paused_remaining()),
            quantities: quantities_json(&s.quantities),
        }
    }

    fn new(
        user: UserId,
        session_id: Uuid,
        step: NewStep,
        sort_order: i32,
        now: OffsetDateTime,
    ) -> Self {
        StepRow {
            id: new_id(),
            user_id: user.0,
            session_id,
            title: step.title,
            description: step.description,
            sort_order: step.sort_order.unwrap_or(sort_order),
            duration_minutes: step.duration_minutes,
            completed: false,
            completed_at: None,
            created_at: now,
            boil: step.boil,
            boil_addition_at: step.boil_addition_at,
            timer_state: TimerState::Idle.as_str().to_owned(),
            timer_started_at: None,
            timer_ends_at: None,
            timer_remaining_seconds: None,
            quantities: quantities_json(&step.quantities),
        }
    }

    /// The step with its timer seen at `now` (a running timer past its end reads `done`).
    fn entity(self, now: OffsetDateTime) -> BrewStep {
        BrewStep {
            timer: StepTimer::at(
                TimerState::parse(&self.timer_state).unwrap_or_default(),
                self.timer_started_at,
                self.timer_ends_at,
                self.timer_remaining_seconds,
                self.duration_minutes,
                now,
            ),
            id: self.id,
            session_id: self.session_id,
            title: self.title,
            description: self.description,
            sort_order: self.sort_order,
            duration_minutes: self.duration_minutes,
            boil: self.boil,
            boil_addition_at: self.boil_addition_at,
            quantities: quantities_of(&self.quantities),
            completed: self.completed,
            completed_at: self.completed_at,
            created_at: self.created_at,
        }
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable)]
#[diesel(table_name = logs, treat_none_as_null = true)]
struct LogRow {
    id: Uuid,
    user_id: Uuid,
    session_id: Uuid,
    logged_at: OffsetDateTime,
    gravity: Option<f64>,
    gravity_unit: String,
    temperature_c: Option<f64>,
    ph: Option<f64>,
    notes: Option<String>,
    created_at: OffsetDateTime,
    device_id: Option<Uuid>,
}

impl LogRow {
    fn of(l: &FermentationLog, user: UserId) -> Self {
        LogRow {
            id: l.id,
            user_id: user.0,
            session_id: l.session_id,
            logged_at: l.logged_at,
            gravity: l.gravity,
            gravity_unit: l.gravity_unit.as_str().to_owned(),
            temperature_c: l.temperature_c,
            ph: l.ph,
            notes: l.notes.clone(),
            created_at: l.created_at,
            device_id: l.device_id,
        }
    }

    fn entity(self) -> DomainResult<FermentationLog> {
        let gravity_unit = GravityUnit::parse(&self.gravity_unit)
            .ok_or_else(|| DomainError::Internal(format!("unknown unit {}", self.gravity_unit)))?;
        Ok(FermentationLog {
            id: self.id,
            session_id: self.session_id,
            logged_at: self.logged_at,
            gravity: self.gravity,
            gravity_unit,
            temperature_c: self.temperature_c,
            ph: self.ph,
            notes: self.notes,
            device_id: self.device_id,
            created_at: self.created_at,
        })
    }
}

// ---- Shared pieces ----------------------------------------------------------------------------

/// The gravity of the session's latest reading that has one, as a column selected beside the
/// session row, so a page of sessions takes no query per session. It walks
/// `fermentation_logs_session_time_idx` backwards from the newest reading.
fn latest_gravity()
-> diesel::expression::SqlLiteral<diesel::sql_types::Nullable<diesel::sql_types::Double>> {
    diesel::dsl::sql(
        "(SELECT l.gravity FROM fermentation_logs l \
         WHERE l.session_id = brew_sessions.id AND l.user_id = brew_sessions.user_id \
         AND l.gravity IS NOT NULL \
         ORDER BY l.logged_at DESC, l.id DESC LIMIT 1)",
    )
}

fn session_filtered(user: UserId, filter: &BrewSessionFilter) -> sessions::BoxedQuery<'static, Pg> {
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

fn logs_in_range(user: UserId, session_id: Uuid, range: LogRange) -> logs::BoxedQuery<'static, Pg> {
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

fn session_exists(
    user: UserId,
    id: Uuid,
) -> sessions::BoxedQuery<'static, Pg, diesel::sql_types::BigInt> {
    sessions::table
        .filter(sessions::id.eq(id))
        .filter(sessions::user_id.eq(user.0))
        .count()
        .into_boxed()
}

async fn find_session(
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
async fn touch_session(
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
async fn find_step(
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

async fn find_log(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
) -> Result<FermentationLog, TxError> {
    let row: LogRow = logs::table
        .filter(logs::id.eq(id))
        .filter(logs::user_id.eq(user.0))
        .select(LogRow::as_select())
        .for_update()
        .first(conn)
        .await?;
    Ok(row.entity()?)
}

fn unwrap_tx<T>(r: Result<T, TxError>) -> DomainResult<T> {
    r.map_err(|TxError(e)| e)
}

/// Adds a reading and bumps its session's `updated_at` in one statement, so it is atomic without
/// a transaction; the `UPDATE` also checks that the session is the caller's, and no row is
/// inserted when it is not. Readings are the one write that devices make continuously: one
/// statement is one round trip, where a diesel transaction takes several (BEGIN; UPDATE and
/// INSERT, which diesel prepares anew every time; COMMIT); docs/benchmarks-log.md, "Fixed: a
/// fermentation reading took 7 round trips".
///
/// Written as a diesel query with a static query id rather than `diesel::sql_query`, so that
/// diesel prepares it once per connection and caches it like its own statements.
#[derive(diesel::query_builder::QueryId)]
pub(crate) struct AddLogTouchingSession(LogRow);

impl diesel::query_builder::QueryFragment<Pg> for AddLogTouchingSession {
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, Pg>,
    ) -> QueryResult<()> {
        use diesel::sql_types::{Double, Nullable, Text, Timestamptz, Uuid as SqlUuid};
        let row = &self.0;
        out.push_sql("WITH touched AS (UPDATE brew_sessions SET updated_at = ");
        out.push_bind_param::<Timestamptz, _>(&row.created_at)?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<SqlUuid, _>(&row.session_id)?;
        out.push_sql(" AND user_id = ");
        out.push_bind_param::<SqlUuid, _>(&row.user_id)?;
        out.push_sql(
            " RETURNING id) INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, \
             gravity, gravity_unit, temperature_c, ph, notes, created_at, device_id) SELECT ",
        );
        out.push_bind_param::<SqlUuid, _>(&row.id)?;
        out.push_sql(", ");
        out.push_bind_param::<SqlUuid, _>(&row.user_id)?;
        out.push_sql(", touched.id, ");
        out.push_bind_param::<Timestamptz, _>(&row.logged_at)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Double>, _>(&row.gravity)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&row.gravity_unit)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Double>, _>(&row.temperature_c)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Double>, _>(&row.ph)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Text>, _>(&row.notes)?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamptz, _>(&row.created_at)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<SqlUuid>, _>(&row.device_id)?;
        // The last column says whether a step of the session's fermentation schedule still
        // waits on a gravity or attenuation condition: the reading may make it due. Asked here
        // so that the usual case (none waits) costs no further round trip.
        out.push_sql(
            " FROM touched RETURNING id, user_id, session_id, logged_at, gravity, gravity_unit, \
             temperature_c, ph, notes, created_at, device_id, EXISTS (SELECT 1 \
             FROM session_fermentation_steps waiting \
             WHERE waiting.session_id = fermentation_logs.session_id \
             AND waiting.user_id = fermentation_logs.user_id \
             AND waiting.became_due_at IS NULL \
             AND (waiting.due_at_gravity IS NOT NULL \
             OR waiting.due_at_attenuation_percent IS NOT NULL))",
        );
        Ok(())
    }
}

impl diesel::query_builder::Query for AddLogTouchingSession {
    /// The columns of `LogRow`, in its field order, then whether a scheduled step waits on the
    /// reading's gravity.
    type SqlType = (LogColumns, diesel::sql_types::Bool);
}

/// The SQL types of `LogRow`'s columns, in its field order.
type LogColumns = (
    diesel::sql_types::Uuid,
    diesel::sql_types::Uuid,
    diesel::sql_types::Uuid,
    diesel::sql_types::Timestamptz,
    diesel::sql_types::Nullable<diesel::sql_types::Double>,
    diesel::sql_types::Text,
    diesel::sql_types::Nullable<diesel::sql_types::Double>,
    diesel::sql_types::Nullable<diesel::sql_types::Double>,
    diesel::sql_types::Nullable<diesel::sql_types::Text>,
    diesel::sql_types::Timestamptz,
    diesel::sql_types::Nullable<diesel::sql_types::Uuid>,
);

/// The statement that stores a reading (by hand, or from `device_id`) and touches its session.
pub(crate) fn add_log_statement(
    user: UserId,
    session_id: Uuid,
    device_id: Option<Uuid>,
    new: NewLog,
    now: OffsetDateTime,
) -> AddLogTouchingSession {
    AddLogTouchingSession(LogRow {
        id: new_id(),
        user_id: user.0,
        session_id,
        logged_at: new.logged_at.unwrap_or(now),
        gravity: new.gravity,
        gravity_unit: new.gravity_unit.as_str().to_owned(),
        temperature_c: new.temperature_c,
        ph: new.ph,
        notes: new.notes,
        created_at: now,
        device_id,
    })
}

/// A reading just inserted, and whether a step of its session's schedule waits on a gravity.
pub(crate) struct InsertedLog {
    reading: FermentationLog,
    schedule_waiting: bool,
}

/// Runs [`add_log_statement`] on a shared connection, so that a caller may pipeline it with its
/// own statements. `None` when the session is not the caller's.
pub(crate) async fn run_add_log(
    conn: &mut &AsyncPgConnection,
    statement: AddLogTouchingSession,
) -> Result<Option<InsertedLog>, TxError> {
    let Some((row, schedule_waiting)) = statement
        .get_result::<(LogRow, bool)>(conn)
        .await
        .optional()?
    else {
        return Ok(None);
    };
    Ok(Some(InsertedLog {
        reading: row.entity()?,
        schedule_waiting,
    }))
}

/// What follows a stored reading, on the caller's connection (inside its transaction when
/// `subscribed` names events to write): the webhook events, and the scheduled steps its gravity
/// makes due.
pub(crate) async fn after_reading_stored(
    conn: &mut AsyncPgConnection,
    user: UserId,
    inserted: InsertedLog,
    subscribed: &[wort_domain::webhook::EventType],
    now: OffsetDateTime,
) -> Result<FermentationLog, TxError> {
    let reading = inserted.reading;
    crate::outbox::reading_created(conn, user, &reading, subscribed, now).await?;
    if let (Some(gravity), true) = (reading.gravity, inserted.schedule_waiting) {
        crate::fermentation_schedule::reading_stored(conn, user, reading.session_id, gravity, now)
            .await?;
    }
    Ok(reading)
}

/// Stores a reading by hand with the webhook events `subscribed` asks for, on the caller's
/// connection: inside its transaction when there are events to write, on its own (one atomic
/// statement) when there are none. `None` when the session is not the caller's.
async fn insert_reading(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
    new: NewLog,
    subscribed: &[wort_domain::webhook::EventType],
    now: OffsetDateTime,
) -> Result<Option<FermentationLog>, TxError> {
    let statement = add_log_statement(user, session_id, None, new, now);
    let shared: &AsyncPgConnection = conn;
    let Some(inserted) = run_add_log(&mut &*shared, statement).await? else {
        return Ok(None);
    };
    Ok(Some(
        after_reading_stored(conn, user, inserted, subscribed, now).await?,
    ))
}

/// Whether the session is fermenting, and its OG (measured, else planned): what a reading's
/// check of the fermentation schedule needs.
pub(crate) async fn session_for_schedule(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
) -> Result<(bool, Option<f64>), TxError> {
    let session = find_session(conn, user, id, false).await?;
    Ok((
        session.status == SessionStatus::Fermenting,
        session.original_gravity(),
    ))
}

// ---- Transactions -------------------------------------------------------------------------------

async fn create_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    new: BrewSessionPlan,
    now: OffsetDateTime,
) -> Result<BrewSession, TxError> {
    let row = SessionRow {
        id: new_id(),
        user_id: user.0,
        recipe_id: Some(new.recipe_id),
        name: new.name,
        brew_date: new.brew_date,
        status: new.status.as_str().to_owned(),
        measured_og: None,
        measured_fg: None,
        measured_batch_size_liters: None,
        measured_mash_ph: None,
        predicted_mash_ph: None,
        notes: new.notes,
        recipe_snapshot: new.recipe_snapshot,
        brewing_started_at: new.phases.brewing_started_at,
        fermenting_started_at: new.phases.fermenting_started_at,
        conditioning_started_at: new.phases.conditioning_started_at,
        completed_at: new.phases.completed_at,
        abandoned_at: new.phases.abandoned_at,
        created_at: now,
        updated_at: now,
    };
    let inserted = diesel::insert_into(sessions::table)
        .values(&row)
        .returning(SessionRow::as_returning())
        .get_result(conn)
        .await;
    let session = match inserted {
        // A new session has no readings yet.
        Ok(row) => row.entity(None)?,
        // The recipe was deleted between reading it and now.
        Err(DieselError::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, _)) => {
            return Err(TxError(DomainError::NotFound));
        }
        Err(e) => return Err(e.into()),
    };
    if let Some(start) = session.fermenting_started_at {
        crate::fermentation_schedule::plan(
            conn,
            user,
            session.id,
            &session.recipe_snapshot,
            start,
            now,
        )
        .await?;
    }
    let step_rows: Vec<StepRow> = new
        .steps
        .into_iter()
        .zip(0..)
        .map(|(step, order)| StepRow::new(user, session.id, step, order, now))
        .collect();
    diesel::insert_into(steps::table)
        .values(&step_rows)
        .execute(conn)
        .await?;
    Ok(session)
}

async fn update_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    patch: BrewSessionPatch,
    now: OffsetDateTime,
) -> Result<BrewSession, TxError> {
    let mut session = find_session(conn, user, id, true).await?;
    let from = session.status;
    // Nothing to write: an empty patch, or one that re-sends what is already there.
    if patch.is_empty() || !patch.apply(&mut session, now)? {
        return Ok(session);
    }
    let saved: SessionRow = diesel::update(
        sessions::table
            .filter(sessions::id.eq(id))
            .filter(sessions::user_id.eq(user.0)),
    )
    .set(&SessionRow::of(&session, user))
    .returning(SessionRow::as_returning())
    .get_result(conn)
    .await?;
    // The readings are untouched by a session update: the latest is the one read above.
    let saved = saved.entity(session.fermentation.latest_gravity)?;
    if saved.status != from {
        crate::outbox::session_status_changed(conn, user, &saved, from, now).await?;
        if saved.status == SessionStatus::Fermenting {
            let start = saved.fermenting_started_at.unwrap_or(now);
            crate::fermentation_schedule::plan(conn, user, id, &saved.recipe_snapshot, start, now)
                .await?;
        }
    }
    Ok(saved)
}

async fn add_step_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
    new: NewStep,
    now: OffsetDateTime,
) -> Result<BrewStep, TxError> {
    touch_session(conn, user, session_id, now).await?;
    let (count, last): (i64, Option<i32>) = steps::table
        .filter(steps::session_id.eq(session_id))
        .filter(steps::user_id.eq(user.0))
        .select((
            diesel::dsl::count_star(),
            diesel::dsl::max(steps::sort_order),
        ))
        .first(conn)
        .await?;
    check_step_room(count).map_err(TxError)?;
    let row = StepRow::new(
        user,
        session_id,
        new,
        last.map_or(0, |l| l.saturating_add(1)),
        now,
    );
    let row: StepRow = diesel::insert_into(steps::table)
        .values(&row)
        .returning(StepRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(row.entity(now))
}

async fn update_step_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    patch: StepPatch,
    now: OffsetDateTime,
) -> Result<BrewStep, TxError> {
    let mut step = find_step(conn, user, id, now).await?;
    if patch.is_empty() {
        return Ok(step);
    }
    patch.apply(&mut step, now);
    let saved: StepRow = diesel::update(
        steps::table
            .filter(steps::id.eq(id))
            .filter(steps::user_id.eq(user.0)),
    )
    .set(&StepRow::of(&step, user))
    .returning(StepRow::as_returning())
    .get_result(conn)
    .await?;
    touch_session(conn, user, step.session_id, now).await?;
    Ok(saved.entity(now))
}

async fn step_timer_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    action: TimerAction,
    now: OffsetDateTime,
) -> Result<BrewStep, TxError> {
    let mut step = find_step(conn, user, id, now).await?;
    step.act_on_timer(action, now)?;
    let saved: StepRow = diesel::update(
        steps::table
            .filter(steps::id.eq(id))
            .filter(steps::user_id.eq(user.0)),
    )
    .set(&StepRow::of(&step, user))
    .returning(StepRow::as_returning())
    .get_result(conn)
    .await?;
    touch_session(conn, user, step.session_id, now).await?;
    Ok(saved.entity(now))
}

async fn delete_step_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let session_id: Option<Uuid> = diesel::delete(
        steps::table
            .filter(steps::id.eq(id))
            .filter(steps::user_id.eq(user.0)),
    )
    .returning(steps::session_id)
    .get_result(conn)
    .await
    .optional()?;
    touch_session(
        conn,
        user,
        session_id.ok_or(TxError(DomainError::NotFound))?,
        now,
    )
    .await
}

async fn update_log_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    patch: LogPatch,
    now: OffsetDateTime,
) -> Result<FermentationLog, TxError> {
    let mut log = find_log(conn, user, id).await?;
    if patch.is_empty() {
        return Ok(log);
    }
    patch.apply(&mut log)?;
    let saved: LogRow = diesel::update(
        logs::table
            .filter(logs::id.eq(id))
            .filter(logs::user_id.eq(user.0)),
    )
    .set(&LogRow::of(&log, user))
    .returning(LogRow::as_returning())
    .get_result(conn)
    .await?;
    touch_session(conn, user, log.session_id, now).await?;
    Ok(saved.entity()?)
}

async fn delete_log_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let session_id: Option<Uuid> = diesel::delete(
        logs::table
            .filter(logs::id.eq(id))
            .filter(logs::user_id.eq(user.0)),
    )
    .returning(logs::session_id)
    .get_result(conn)
    .await
    .optional()?;
    touch_session(
        conn,
        user,
        session_id.ok_or(TxError(DomainError::NotFound))?,
        now,
    )
    .await
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

    async fn announce_due_fermentation_steps(&self, now: OffsetDateTime) -> DomainResult<usize> {
        crate::fermentation_schedule::announce_due_steps(&self.pool, now).await
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
                let recipe = crate::recipes::load_detail(conn, user, recipe_id, true).await?;
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
        // Steps and readings go with it (ON DELETE CASCADE).
        let deleted = diesel::delete(
            sessions::table
                .filter(sessions::id.eq(id))
                .filter(sessions::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        if deleted == 0 {
            Err(DomainError::NotFound)
        } else {
            Ok(())
        }
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

    async fn add_log(
        &self,
        user: UserId,
        session_id: Uuid,
        new: NewLog,
        now: OffsetDateTime,
    ) -> DomainResult<FermentationLog> {
        let mut conn = checkout(&self.pool).await?;
        // Which events to write is read first, outside any transaction. Under READ COMMITTED a
        // transaction would not see a webhook created after this read either, so it adds no
        // guarantee; without events the insert is one statement, and the session's row is
        // locked only for that statement (readings are the write devices make all day:
        // docs/benchmarks-log.md, "Devices and webhooks").
        let subscribed = crate::outbox::subscriptions(&mut conn, user)
            .await
            .map_err(db_error)?;
        let inserted = if subscribed.is_empty() {
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

    async fn list_logs(
        &self,
        user: UserId,
        session_id: Uuid,
        range: LogRange,
        page: PageRequest,
    ) -> DomainResult<Page<FermentationLog>> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let page_query = logs_in_range(user, session_id, range)
            .order((logs::logged_at.asc(), logs::id.asc()))
            .select(Columns::<LogRow>::new())
            .limit(page.limit)
            .offset(page.offset);
        let count_query = logs_in_range(user, session_id, range).count();
        // Existence, page and count: three queries, one round trip. (The total as a subquery
        // column of the page's statement saves two statements but costs more than it saves:
        // the column is decoded once per row; measured in docs/benchmarks-log.md, "Speed to the
        // ceiling: fewer round trips for readings".)
        let (exists, rows, total) = futures_util::try_join!(
            session_exists(user, session_id).get_result::<i64>(&mut &*conn_ref),
            page_query.load::<LogRow>(&mut &*conn_ref),
            count_query.get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        if exists == 0 {
            return Err(DomainError::NotFound);
        }
        let items = rows
            .into_iter()
            .map(LogRow::entity)
            .collect::<DomainResult<_>>()?;
        Ok(Page { items, total })
    }

    async fn latest_log(&self, user: UserId, session_id: Uuid) -> DomainResult<FermentationLog> {
        let mut conn = checkout(&self.pool).await?;
        let row: LogRow = logs_in_range(user, session_id, LogRange::default())
            .order((logs::logged_at.desc(), logs::id.desc()))
            .select(LogRow::as_select())
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        row.entity()
    }

    async fn get_log(&self, user: UserId, id: Uuid) -> DomainResult<FermentationLog> {
        let mut conn = checkout(&self.pool).await?;
        let row: LogRow = logs::table
            .filter(logs::id.eq(id))
            .filter(logs::user_id.eq(user.0))
            .select(LogRow::as_select())
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        row.entity()
    }

    async fn update_log(
        &self,
        user: UserId,
        id: Uuid,
        patch: LogPatch,
        now: OffsetDateTime,
    ) -> DomainResult<FermentationLog> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| update_log_in_tx(conn, user, id, patch, now).await)
                .await,
        )
    }

    async fn delete_log(&self, user: UserId, id: Uuid, now: OffsetDateTime) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        unwrap_tx(
            conn.transaction(async |conn| delete_log_in_tx(conn, user, id, now).await)
                .await,
        )
    }
}
