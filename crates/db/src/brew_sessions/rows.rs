//! The rows of `brew_sessions`, `brew_steps` and `fermentation_logs`, and their mapping to the
//! domain's types (JSON columns included).

use diesel::prelude::*;
use serde_json::Value;
use time::{Date, OffsetDateTime};
use uuid::Uuid;
use wort_domain::brew_session::{
    BrewSession, BrewStep, FermentationSoFar, GravityUnit, NewStep, Reading, SessionStatus,
    StepTimer, TimerState, measured_abv,
};
use wort_domain::quantities::{Quantity, QuantityKind};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::schema::{brew_sessions as sessions, brew_steps as steps, fermentation_logs as logs};

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable)]
#[diesel(table_name = sessions, treat_none_as_null = true)]
pub(super) struct SessionRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) recipe_id: Option<Uuid>,
    pub(super) name: String,
    pub(super) brew_date: Date,
    pub(super) status: String,
    pub(super) measured_og: Option<f64>,
    pub(super) measured_fg: Option<f64>,
    pub(super) measured_batch_size_liters: Option<f64>,
    pub(super) notes: Option<String>,
    pub(super) recipe_snapshot: Value,
    pub(super) brewing_started_at: Option<OffsetDateTime>,
    pub(super) fermenting_started_at: Option<OffsetDateTime>,
    pub(super) conditioning_started_at: Option<OffsetDateTime>,
    pub(super) completed_at: Option<OffsetDateTime>,
    pub(super) abandoned_at: Option<OffsetDateTime>,
    pub(super) created_at: OffsetDateTime,
    pub(super) updated_at: OffsetDateTime,
    pub(super) measured_mash_ph: Option<f64>,
    pub(super) predicted_mash_ph: Option<f64>,
    pub(super) recipe_version: Option<i32>,
}

impl SessionRow {
    pub(super) fn of(s: &BrewSession, user: UserId) -> Self {
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
            recipe_version: s.recipe_version,
        }
    }

    /// The session, its fermentation figures computed against `latest_gravity` (see
    /// [`latest_gravity`]).
    pub(super) fn entity(self, latest_gravity: Option<f64>) -> DomainResult<BrewSession> {
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
            recipe_version: self.recipe_version,
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
pub(super) struct StepRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) session_id: Uuid,
    pub(super) title: String,
    pub(super) description: Option<String>,
    pub(super) sort_order: i32,
    pub(super) duration_minutes: Option<f64>,
    pub(super) completed: bool,
    pub(super) completed_at: Option<OffsetDateTime>,
    pub(super) created_at: OffsetDateTime,
    pub(super) boil: bool,
    pub(super) boil_addition_at: Option<f64>,
    pub(super) timer_state: String,
    pub(super) timer_started_at: Option<OffsetDateTime>,
    pub(super) timer_ends_at: Option<OffsetDateTime>,
    pub(super) timer_remaining_seconds: Option<f64>,
    pub(super) quantities: Value,
}

/// `[{"kind":"volume","value":15.08}, …]`: the unit follows from the kind.
pub(super) fn quantities_json(quantities: &[Quantity]) -> Value {
    Value::Array(
        quantities
            .iter()
            .map(|q| serde_json::json!({"kind": q.kind.as_str(), "value": q.value}))
            .collect(),
    )
}

/// The stored quantities; an entry this version does not know is dropped (the text then shows
/// its placeholder rather than a wrong number).
pub(super) fn quantities_of(value: &Value) -> Vec<Quantity> {
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
    pub(super) fn of(s: &BrewStep, user: UserId) -> Self {
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

    pub(super) fn new(
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
    pub(super) fn entity(self, now: OffsetDateTime) -> BrewStep {
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
pub(super) struct ReadingRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) session_id: Uuid,
    pub(super) logged_at: OffsetDateTime,
    pub(super) gravity: Option<f64>,
    pub(super) gravity_unit: String,
    pub(super) temperature_c: Option<f64>,
    pub(super) ph: Option<f64>,
    pub(super) notes: Option<String>,
    pub(super) created_at: OffsetDateTime,
    pub(super) device_id: Option<Uuid>,
}

impl ReadingRow {
    pub(super) fn of(l: &Reading, user: UserId) -> Self {
        ReadingRow {
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

    pub(super) fn entity(self) -> DomainResult<Reading> {
        let gravity_unit = GravityUnit::parse(&self.gravity_unit)
            .ok_or_else(|| DomainError::Internal(format!("unknown unit {}", self.gravity_unit)))?;
        Ok(Reading {
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
