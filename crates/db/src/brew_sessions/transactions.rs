//! The multi-step writes, each run inside one transaction by the repository.

use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brew_session::check_step_room;
use wort_domain::brew_session::effects;
use wort_domain::brew_session::{
    BrewSession, BrewSessionPatch, BrewSessionPlan, BrewStep, NewStep, Reading, ReadingPatch,
    StepPatch, TimerAction,
};
use wort_domain::{DomainError, UserId, new_id};

use super::effects::{Subject, carry_out};
use super::queries::{find_reading, find_session, find_step, touch_session};
use super::rows::{ReadingRow, SessionRow, StepRow};
use crate::error::TxError;
use crate::schema::{brew_sessions as sessions, brew_steps as steps, fermentation_logs as logs};

pub(super) async fn create_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    new: BrewSessionPlan,
    now: OffsetDateTime,
) -> Result<BrewSession, TxError> {
    // The version brewed is frozen, so it stays what was brewed whatever the recipe's later edits.
    let recipe_version =
        Some(crate::recipe_versions::freeze_current(conn, user, new.recipe_id).await?);
    let row = SessionRow {
        recipe_version,
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
    let subject = Subject {
        user,
        session_id: session.id,
        recipe_snapshot: Some(&session.recipe_snapshot),
    };
    carry_out(conn, subject, effects::after_create(&session), now).await?;
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

pub(super) async fn update_in_tx(
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
    let subject = Subject {
        user,
        session_id: id,
        recipe_snapshot: Some(&saved.recipe_snapshot),
    };
    carry_out(conn, subject, effects::after_update(&saved, from, now), now).await?;
    Ok(saved)
}

pub(super) async fn add_step_in_tx(
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

pub(super) async fn update_step_in_tx(
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

pub(super) async fn step_timer_in_tx(
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

pub(super) async fn delete_step_in_tx(
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

pub(super) async fn update_reading_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    patch: ReadingPatch,
    now: OffsetDateTime,
) -> Result<Reading, TxError> {
    let mut log = find_reading(conn, user, id).await?;
    if patch.is_empty() {
        return Ok(log);
    }
    patch.apply(&mut log)?;
    let saved: ReadingRow = diesel::update(
        logs::table
            .filter(logs::id.eq(id))
            .filter(logs::user_id.eq(user.0)),
    )
    .set(&ReadingRow::of(&log, user))
    .returning(ReadingRow::as_returning())
    .get_result(conn)
    .await?;
    touch_session(conn, user, log.session_id, now).await?;
    Ok(saved.entity()?)
}

pub(super) async fn delete_reading_in_tx(
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
