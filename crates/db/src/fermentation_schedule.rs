//! A brew session's fermentation schedule (`session_fermentation_steps`): planned by the domain
//! (`brew_session::schedule`) when the session enters `fermenting`, each step marked due once
//! (by the periodic check for times and for conditions met before their minimum, by a reading
//! for gravity conditions) and announced with a `fermentation.step_due` webhook event in the
//! same transaction. The domain decides what becomes due ([`Advance`]); this adapter loads the
//! steps and carries the decision out.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brew_session::schedule::{
    Advance, BecameDue, EndCondition, PlannedStep, ScheduledStep, ScheduledStepKind, on_clock,
    on_reading, plan_schedule, with_ends,
};
use wort_domain::webhook::Event;
use wort_domain::{DomainResult, UserId, new_id};

use crate::error::{TxError, db_error};
use crate::pool::{DbPool, checkout};
use crate::schema::{brew_sessions as sessions, session_fermentation_steps as sched};

#[derive(Queryable, Selectable, Insertable, Clone)]
#[diesel(table_name = sched)]
struct ScheduledRow {
    id: Uuid,
    user_id: Uuid,
    session_id: Uuid,
    kind: String,
    name: String,
    temperature_c: Option<f64>,
    amount_grams: Option<f64>,
    due_at: Option<OffsetDateTime>,
    due_at_gravity: Option<f64>,
    due_at_attenuation_percent: Option<f64>,
    days_after_previous: Option<f64>,
    became_due_at: Option<OffsetDateTime>,
    sort_order: i32,
    created_at: OffsetDateTime,
    min_days_after_previous: Option<f64>,
    due_at_gravity_from: Option<OffsetDateTime>,
    condition_met_early: bool,
    due_by: Option<String>,
    due_gravity: Option<f64>,
}

impl ScheduledRow {
    fn new(
        p: PlannedStep,
        user: UserId,
        session_id: Uuid,
        order: i32,
        now: OffsetDateTime,
    ) -> Self {
        ScheduledRow {
            id: new_id(),
            user_id: user.0,
            session_id,
            kind: p.kind.as_str().to_owned(),
            name: p.name,
            temperature_c: p.temperature_c,
            amount_grams: p.amount_grams,
            due_at: p.due_at,
            due_at_gravity: p.due_at_gravity,
            due_at_attenuation_percent: p.due_at_attenuation_percent,
            days_after_previous: p.days_after_previous,
            became_due_at: None,
            sort_order: order,
            created_at: now,
            min_days_after_previous: p.min_days_after_previous,
            due_at_gravity_from: p.due_at_gravity_from,
            condition_met_early: false,
            due_by: None,
            due_gravity: None,
        }
    }

    fn entity(self) -> ScheduledStep {
        ScheduledStep {
            id: self.id,
            session_id: self.session_id,
            kind: ScheduledStepKind::parse_or_rest(&self.kind),
            name: self.name,
            temperature_c: self.temperature_c,
            amount_grams: self.amount_grams,
            due_at: self.due_at,
            due_at_gravity: self.due_at_gravity,
            due_at_attenuation_percent: self.due_at_attenuation_percent,
            due_at_gravity_from: self.due_at_gravity_from,
            days_after_previous: self.days_after_previous,
            min_days_after_previous: self.min_days_after_previous,
            due: self.became_due_at.is_some(),
            became_due_at: self.became_due_at,
            // Rows due before the reason was stored: inferred where certain.
            due_by: self
                .due_by
                .as_deref()
                .and_then(EndCondition::parse)
                .or_else(|| {
                    self.became_due_at.and_then(|_| {
                        EndCondition::inferred(
                            self.due_at,
                            self.due_at_gravity,
                            self.due_at_attenuation_percent,
                        )
                    })
                }),
            ended_at: None,
            ended_by: None,
            ended_gravity: None,
            sort_order: self.sort_order,
            due_gravity: self.due_gravity,
            condition_met_early: self.condition_met_early,
        }
    }
}

pub(crate) async fn load(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
) -> QueryResult<Vec<ScheduledStep>> {
    let rows: Vec<ScheduledRow> = sched::table
        .filter(sched::session_id.eq(session_id))
        .filter(sched::user_id.eq(user.0))
        .order((sched::sort_order.asc(), sched::id.asc()))
        .select(ScheduledRow::as_select())
        .load(conn)
        .await?;
    Ok(with_ends(
        rows.into_iter().map(ScheduledRow::entity).collect(),
    ))
}

/// Marks `step` due at `at` for the reason `due` gives (once: `false` when it already was),
/// announces it, and writes the times it gives the rest after it.
async fn mark_due(
    conn: &mut AsyncPgConnection,
    user: UserId,
    step: &ScheduledStep,
    due: &BecameDue,
    at: OffsetDateTime,
) -> QueryResult<bool> {
    let marked = diesel::update(
        sched::table
            .filter(sched::id.eq(step.id))
            .filter(sched::user_id.eq(user.0))
            .filter(sched::became_due_at.is_null()),
    )
    .set((
        sched::became_due_at.eq(at),
        sched::due_by.eq(due.by.as_str()),
        sched::due_gravity.eq(due.gravity),
        sched::condition_met_early.eq(false),
    ))
    .execute(conn)
    .await?;
    if marked == 0 {
        return Ok(false);
    }
    let mut announced = step.clone();
    announced.due = true;
    announced.became_due_at = Some(at);
    announced.due_by = Some(due.by);
    announced.due_gravity = due.gravity;
    announced.condition_met_early = false;
    crate::outbox::enqueue(conn, user, &Event::fermentation_step_due(&announced, at)).await?;
    Ok(true)
}

/// Carries out what the domain decided for the session's `steps`, in order. Returns how many
/// steps this call made due. A step someone else marked first stops it: what follows from that
/// step was decided (and carried out) by whoever marked it.
pub(crate) async fn carry_out(
    conn: &mut AsyncPgConnection,
    user: UserId,
    steps: &[ScheduledStep],
    advance: Advance,
    now: OffsetDateTime,
) -> QueryResult<usize> {
    set_met_early(conn, user, steps, &advance.met_early, true).await?;
    set_met_early(conn, user, steps, &advance.no_longer_met, false).await?;
    let mut marked = 0;
    for due in &advance.due {
        let Some(step) = steps.get(due.index) else {
            continue;
        };
        if !mark_due(conn, user, step, due, now).await? {
            break;
        }
        marked += 1;
        if let Some(next) = &due.next
            && let Some(rest) = steps.get(next.index)
        {
            diesel::update(
                sched::table
                    .filter(sched::id.eq(rest.id))
                    .filter(sched::user_id.eq(user.0))
                    .filter(sched::became_due_at.is_null()),
            )
            .set((
                sched::due_at.eq(next.due_at),
                sched::due_at_gravity_from.eq(next.due_at_gravity_from),
            ))
            .execute(conn)
            .await?;
        }
    }
    Ok(marked)
}

/// Notes (or forgets) that a reading met these steps' conditions before they counted.
async fn set_met_early(
    conn: &mut AsyncPgConnection,
    user: UserId,
    steps: &[ScheduledStep],
    indexes: &[usize],
    met: bool,
) -> QueryResult<()> {
    let ids: Vec<Uuid> = indexes
        .iter()
        .filter_map(|&i| steps.get(i).map(|s| s.id))
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    diesel::update(
        sched::table
            .filter(sched::id.eq_any(ids))
            .filter(sched::user_id.eq(user.0))
            .filter(sched::became_due_at.is_null()),
    )
    .set(sched::condition_met_early.eq(met))
    .execute(conn)
    .await?;
    Ok(())
}

/// The session entered `fermenting` at `start` (inside the transaction of the change): plans
/// its schedule from the snapshot unless it has one, and marks what is due already.
pub(crate) async fn plan(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
    snapshot: &Value,
    start: OffsetDateTime,
    now: OffsetDateTime,
) -> QueryResult<()> {
    let existing: i64 = sched::table
        .filter(sched::session_id.eq(session_id))
        .filter(sched::user_id.eq(user.0))
        .count()
        .get_result(conn)
        .await?;
    if existing > 0 {
        return Ok(());
    }
    let rows: Vec<ScheduledRow> = plan_schedule(snapshot, start)
        .into_iter()
        .zip(0..)
        .map(|(p, order)| ScheduledRow::new(p, user, session_id, order, now))
        .collect();
    if rows.is_empty() {
        return Ok(());
    }
    diesel::insert_into(sched::table)
        .values(&rows)
        .execute(conn)
        .await?;
    // What is due already: the first rest, and more when fermentation started in the past.
    let steps = load(conn, user, session_id).await?;
    let advance = on_clock(&steps, None, None, now);
    carry_out(conn, user, &steps, advance, now).await?;
    Ok(())
}

/// A reading of `gravity` was stored (inside its transaction when there is one) in a fermenting
/// session whose original gravity is `og`, where a step waits on a gravity or attenuation
/// condition (the reading's insert tells): the steps whose condition it meets become due, or,
/// before their `min_days`, are noted for the clock.
pub(crate) async fn reading_stored(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
    gravity: f64,
    og: Option<f64>,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let steps = load(conn, user, session_id).await?;
    let advance = on_reading(&steps, gravity, og, now);
    if !advance.is_empty() {
        carry_out(conn, user, &steps, advance, now).await?;
    }
    Ok(())
}

/// The steps of these sessions' schedules that have not become due yet, in schedule order. Takes
/// a shared connection, so it can be pipelined with other reads.
pub(crate) async fn waiting_steps(
    mut conn: &AsyncPgConnection,
    user: UserId,
    session_ids: &[Uuid],
) -> QueryResult<Vec<ScheduledStep>> {
    let rows: Vec<ScheduledRow> = sched::table
        .filter(sched::user_id.eq(user.0))
        .filter(sched::session_id.eq_any(session_ids))
        .filter(sched::became_due_at.is_null())
        .order((sched::session_id, sched::sort_order, sched::id))
        .select(ScheduledRow::as_select())
        .load(&mut conn)
        .await?;
    Ok(rows.into_iter().map(ScheduledRow::entity).collect())
}

/// The session's schedule in order; `None` when the session is not the caller's.
pub(crate) async fn schedule_of(
    pool: &DbPool,
    user: UserId,
    session_id: Uuid,
) -> DomainResult<Option<Vec<ScheduledStep>>> {
    let mut conn = checkout(pool).await?;
    let exists: i64 = sessions::table
        .filter(sessions::id.eq(session_id))
        .filter(sessions::user_id.eq(user.0))
        .count()
        .get_result(&mut conn)
        .await
        .map_err(db_error)?;
    if exists == 0 {
        return Ok(None);
    }
    Ok(Some(
        load(&mut conn, user, session_id).await.map_err(db_error)?,
    ))
}
