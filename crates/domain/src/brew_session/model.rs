//! Brew sessions: a brew day made from a recipe, its state machine, the brew-day checklist
//! generated from the recipe, and the fermentation readings that follow.

use serde::Serialize;
use serde_json::Value;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use super::checklist::checklist;
use super::rules::has_measurement;
use crate::account::Preferences;
use crate::brewing::gravity::{abv, attenuation_so_far};
use crate::brewing::round_to;
use crate::equipment::EquipmentProfile;
use crate::quantities::{Quantity, literal, render};
use crate::recipe::RecipeDetail;
use crate::{DomainError, DomainResult};

// ---- The state machine ---------------------------------------------------------------------------

/// planned → brewing → fermenting → conditioning → completed, plus abandoned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SessionStatus {
    // Where a new session starts unless told otherwise.
    #[default]
    Planned,
    Brewing,
    Fermenting,
    Conditioning,
    Completed,
    Abandoned,
}

// ---- The session -------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BrewSession {
    pub id: Uuid,
    #[cfg_attr(feature = "openapi", schema(format = Uuid))]
    pub user_id: String,
    /// The recipe it was made from; `null` once that recipe is deleted (the snapshot remains).
    pub recipe_id: Option<Uuid>,
    /// The version of that recipe it was brewed from (`GET /v1/recipes/{id}/versions/{n}`);
    /// null for sessions made before recipes kept versions.
    pub recipe_version: Option<i32>,
    pub name: String,
    #[serde(serialize_with = "crate::timestamp::serialize_date")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = Date))]
    pub brew_date: Date,
    pub status: SessionStatus,
    /// The statuses this session may move to now, in the order to offer them: the later
    /// forward states, then `abandoned`; empty once the status is final.
    pub next_statuses: Vec<SessionStatus>,
    pub measured_og: Option<f64>,
    pub measured_fg: Option<f64>,
    pub measured_batch_size_liters: Option<f64>,
    /// (OG − FG) × 131.25, rounded to 2 decimals; null unless both gravities are measured.
    pub measured_abv: Option<f64>,
    /// How far fermentation has gone, from the original gravity and the latest reading.
    pub fermentation: FermentationSoFar,
    /// Mash efficiency and real attenuation reached, next to the planned ones.
    pub brewhouse: crate::brew_session::BrewhouseNumbers,
    /// The mash pH measured at room temperature (`PATCH` it); null: not measured.
    pub measured_mash_ph: Option<f64>,
    /// The model's uncorrected prediction for the recipe when the pH was measured: the pair
    /// `GET /v1/me/water-calibration` learns from. Read-only.
    pub predicted_mash_ph: Option<f64>,
    pub notes: Option<String>,
    /// The recipe exactly as `GET /v1/recipes/{id}` returned it when the session was created,
    /// plus a `stats` member; later recipe edits do not change it.
    #[cfg_attr(feature = "openapi", schema(value_type = RecipeSnapshot))]
    pub recipe_snapshot: Value,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub brewing_started_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub fermenting_started_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub conditioning_started_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub completed_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub abandoned_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// The phase timestamps of a session.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhaseTimes {
    pub brewing_started_at: Option<OffsetDateTime>,
    pub fermenting_started_at: Option<OffsetDateTime>,
    pub conditioning_started_at: Option<OffsetDateTime>,
    pub completed_at: Option<OffsetDateTime>,
    pub abandoned_at: Option<OffsetDateTime>,
}

impl PhaseTimes {
    /// Entering a state stamps its timestamp; skipped states stay null.
    pub fn enter(&mut self, status: SessionStatus, at: OffsetDateTime) {
        let slot = match status {
            SessionStatus::Planned => return,
            SessionStatus::Brewing => &mut self.brewing_started_at,
            SessionStatus::Fermenting => &mut self.fermenting_started_at,
            SessionStatus::Conditioning => &mut self.conditioning_started_at,
            SessionStatus::Completed => &mut self.completed_at,
            SessionStatus::Abandoned => &mut self.abandoned_at,
        };
        *slot = Some(at);
    }
}

/// ABV from measured gravities, as the session shows it.
pub fn measured_abv(og: Option<f64>, fg: Option<f64>) -> Option<f64> {
    let (og, fg) = (og?, fg?);
    Some(((og - fg) * 131.25 * 100.0).round() / 100.0)
}

/// How far fermentation has gone: the original gravity against the latest reading that holds a
/// gravity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FermentationSoFar {
    /// The measured OG, else the planned OG of the recipe snapshot; null when neither is known.
    pub original_gravity: Option<f64>,
    /// The gravity of the latest reading that has one (by `logged_at`); null before any.
    pub latest_gravity: Option<f64>,
    /// (OG − SG)/(OG − 1) × 100, rounded to 1 decimal; null without both gravities or when
    /// OG ≤ 1.
    pub apparent_attenuation_percent: Option<f64>,
    /// (OG − SG) × 131.25, rounded to 2 decimals; null without both gravities.
    pub abv_percent: Option<f64>,
}

impl FermentationSoFar {
    pub fn of(original_gravity: Option<f64>, latest_gravity: Option<f64>) -> Self {
        let both = original_gravity.zip(latest_gravity);
        FermentationSoFar {
            original_gravity,
            latest_gravity,
            apparent_attenuation_percent: both
                .and_then(|(og, sg)| attenuation_so_far(og, sg))
                .map(|a| round_to(a, 1)),
            abv_percent: both.map(|(og, sg)| round_to(abv(og, sg), 2)),
        }
    }
}

/// What a session keeps of its recipe: the recipe exactly as `GET /v1/recipes/{id}` returned it
/// when the session was created, with its `stats` then. Stored as JSON, so later recipe edits
/// never change what a brew day was brewed from; a session created by an earlier version of wort
/// lacks the fields added since.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecipeSnapshot<'a> {
    #[serde(flatten)]
    pub recipe: &'a RecipeDetail,
    pub stats: crate::brewing::StatsReport,
}

/// A validated create request.
#[derive(Debug, Clone, PartialEq)]
pub struct NewBrewSession {
    pub recipe_id: Uuid,
    pub brew_date: Date,
    pub name: Option<String>,
    pub status: Option<SessionStatus>,
    pub notes: Option<String>,
}

/// Everything the store needs to create a session: the snapshot and the checklist are made here.
#[derive(Debug, Clone, PartialEq)]
pub struct BrewSessionPlan {
    pub recipe_id: Uuid,
    pub name: String,
    pub brew_date: Date,
    pub status: SessionStatus,
    pub phases: PhaseTimes,
    pub notes: Option<String>,
    pub recipe_snapshot: Value,
    pub steps: Vec<NewStep>,
}

/// Plans a session from the recipe as it is now: snapshot (recipe + the stats `/stats` gives, with
/// the profile's volumes and the style's fit), the status given on create entered at once, and
/// the brew-day checklist (with the profile's volumes to heat, collect and check).
pub fn plan_brew_session(
    request: &NewBrewSession,
    recipe: &RecipeDetail,
    equipment: Option<&EquipmentProfile>,
    now: OffsetDateTime,
) -> DomainResult<BrewSessionPlan> {
    let forms = recipe.hop_forms();
    let context = crate::brewing::BrewingContext {
        equipment,
        hop_forms: &forms,
    };
    let style = recipe
        .recipe
        .style_id
        .as_deref()
        .and_then(crate::brewing::style);
    let stats = crate::brewing::stats_report(
        &recipe.stats_input(),
        &context,
        style,
        &recipe.mash_steps,
        crate::brewing::ReportOptions::default(),
    );
    let steps = checklist(recipe, stats.volumes.as_ref(), &stats.mash_steps);
    let snapshot = serde_json::to_value(RecipeSnapshot { recipe, stats })
        .map_err(|e| DomainError::Internal(format!("snapshot: {e}")))?;
    let status = request.status.unwrap_or_default();
    let mut phases = PhaseTimes::default();
    phases.enter(status, now);
    Ok(BrewSessionPlan {
        recipe_id: request.recipe_id,
        name: request
            .name
            .clone()
            .unwrap_or_else(|| recipe.recipe.name.clone()),
        brew_date: request.brew_date,
        status,
        phases,
        notes: request.notes.clone(),
        recipe_snapshot: snapshot,
        steps,
    })
}

/// A validated partial update of a session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BrewSessionPatch {
    pub name: Option<String>,
    pub brew_date: Option<Date>,
    pub status: Option<SessionStatus>,
    pub measured_og: Option<Option<f64>>,
    pub measured_fg: Option<Option<f64>>,
    pub measured_batch_size_liters: Option<Option<f64>>,
    pub notes: Option<Option<String>>,
    /// The mash pH measured on brew day (`Some(None)` clears it).
    pub measured_mash_ph: Option<Option<f64>>,
    /// The water model's prediction stored beside a measured mash pH, to compare the two later.
    /// Not read from a request: the service fills it in whenever `measured_mash_ph` is sent.
    pub predicted_mash_ph: Option<Option<f64>>,
}

impl BrewSessionPatch {
    pub fn is_empty(&self) -> bool {
        *self == BrewSessionPatch::default()
    }

    /// Applies the patch to a session (checking the transition first) and says whether anything
    /// changed: re-sending the current status or values is a no-op that keeps every timestamp,
    /// `updated_at` included. A change is stamped no earlier than the session's last change: two
    /// transitions that race are serialised by the store's row lock, but may have read the clock
    /// in the other order, and phases must never go backwards in time.
    pub fn apply(&self, session: &mut BrewSession, now: OffsetDateTime) -> DomainResult<bool> {
        let before = session.clone();
        let now = now.max(session.updated_at);
        if let Some(to) = self.status {
            session.status.check_move_to(to)?;
            if to != session.status {
                let mut phases = session.phases();
                phases.enter(to, now);
                session.set_phases(phases);
                session.status = to;
                session.next_statuses = to.next_statuses();
            }
        }
        if let Some(name) = &self.name {
            session.name.clone_from(name);
        }
        if let Some(date) = self.brew_date {
            session.brew_date = date;
        }
        if let Some(og) = self.measured_og {
            session.measured_og = og;
        }
        if let Some(fg) = self.measured_fg {
            session.measured_fg = fg;
        }
        if let Some(size) = self.measured_batch_size_liters {
            session.measured_batch_size_liters = size;
        }
        if let Some(notes) = &self.notes {
            session.notes.clone_from(notes);
        }
        if let Some(ph) = self.measured_mash_ph {
            session.measured_mash_ph = ph;
        }
        if let Some(ph) = self.predicted_mash_ph {
            session.predicted_mash_ph = ph;
        }
        session.measured_abv = measured_abv(session.measured_og, session.measured_fg);
        session.brewhouse = crate::brew_session::BrewhouseNumbers::of(session);
        // A measured OG replaces the planned one; the latest reading is unchanged by a patch.
        session.fermentation = FermentationSoFar::of(
            session.original_gravity(),
            session.fermentation.latest_gravity,
        );
        let changed = *session != before;
        if changed {
            session.updated_at = now;
        }
        Ok(changed)
    }
}

impl BrewSession {
    /// The measured OG, else the planned one the recipe snapshot's stats hold.
    pub fn original_gravity(&self) -> Option<f64> {
        self.measured_og.or_else(|| {
            self.recipe_snapshot
                .get("stats")?
                .get("og")?
                .as_f64()
                .filter(|og| og.is_finite())
        })
    }

    /// The session with its fermentation figures computed against `latest_gravity`, the gravity
    /// of its latest reading that has one.
    #[must_use]
    pub fn with_latest_gravity(mut self, latest_gravity: Option<f64>) -> Self {
        self.fermentation = FermentationSoFar::of(self.original_gravity(), latest_gravity);
        self.brewhouse = crate::brew_session::BrewhouseNumbers::of(&self);
        self
    }

    pub fn phases(&self) -> PhaseTimes {
        PhaseTimes {
            brewing_started_at: self.brewing_started_at,
            fermenting_started_at: self.fermenting_started_at,
            conditioning_started_at: self.conditioning_started_at,
            completed_at: self.completed_at,
            abandoned_at: self.abandoned_at,
        }
    }

    pub fn set_phases(&mut self, p: PhaseTimes) {
        self.brewing_started_at = p.brewing_started_at;
        self.fermenting_started_at = p.fermenting_started_at;
        self.conditioning_started_at = p.conditioning_started_at;
        self.completed_at = p.completed_at;
        self.abandoned_at = p.abandoned_at;
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct BrewSessionFilter {
    pub status: Option<SessionStatus>,
    pub recipe_id: Option<Uuid>,
}

// ---- The brew-day checklist ----------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BrewStep {
    pub id: Uuid,
    pub session_id: Uuid,
    pub title: String,
    pub description: Option<String>,
    pub sort_order: i32,
    pub duration_minutes: Option<f64>,
    /// The step whose timer is the boil: the boil additions are due against its countdown.
    pub boil: bool,
    /// A boil addition: how many minutes before the end of the boil it goes in (0 at flame-out).
    /// Null for every other step. Both are set when the checklist is generated, never by a client.
    pub boil_addition_at: Option<f64>,
    /// The numbers of a generated step's text, metric (`L`, `g`, `°C`, `sg`, `min`); the
    /// `title` and `description` are rendered in the caller's units. Empty for a step a person
    /// added: its text stays as typed.
    pub quantities: Vec<Quantity>,
    /// The step's countdown, shared by every device (null for a step without a duration):
    /// `POST /v1/steps/{id}/timer` starts, pauses, resumes or resets it.
    pub timer: Option<super::timer::StepTimer>,
    pub completed: bool,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub completed_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

impl BrewStep {
    /// The step as this caller reads it: a generated step's text in their units.
    pub fn rendered(mut self, prefs: &Preferences) -> Self {
        if !self.quantities.is_empty() {
            self.title = render(&self.title, &self.quantities, prefs);
            self.description = self
                .description
                .map(|d| render(&d, &self.quantities, prefs));
        }
        self
    }
}

/// A step to create; `sort_order: None` appends. `boil` and `boil_addition_at` come only from
/// the generated checklist: a step a person adds is neither.
#[derive(Debug, Clone, PartialEq)]
pub struct NewStep {
    pub title: String,
    pub description: Option<String>,
    pub sort_order: Option<i32>,
    pub duration_minutes: Option<f64>,
    pub boil: bool,
    pub boil_addition_at: Option<f64>,
    /// Only the generated checklist has quantities (its text is then a template).
    pub quantities: Vec<Quantity>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepPatch {
    pub title: Option<String>,
    pub description: Option<Option<String>>,
    pub sort_order: Option<i32>,
    pub duration_minutes: Option<Option<f64>>,
    pub completed: Option<bool>,
}

impl StepPatch {
    pub fn is_empty(&self) -> bool {
        *self == StepPatch::default()
    }

    /// Completing stamps `completed_at` now (re-completing keeps the first stamp);
    /// un-completing clears it.
    ///
    /// Text a person writes into a generated step is stored escaped, so it reads as typed.
    pub fn apply(&self, step: &mut BrewStep, now: OffsetDateTime) {
        let as_typed = |text: &str| {
            if step.quantities.is_empty() {
                text.to_owned()
            } else {
                literal(text)
            }
        };
        if let Some(title) = &self.title {
            step.title = as_typed(title);
        }
        if let Some(description) = &self.description {
            step.description = description.as_deref().map(as_typed);
        }
        if let Some(order) = self.sort_order {
            step.sort_order = order;
        }
        if let Some(duration) = self.duration_minutes {
            step.duration_minutes = duration;
            step.timer = retimed(step.timer, duration, now);
        }
        match self.completed {
            Some(true) if !step.completed => {
                step.completed = true;
                step.completed_at = Some(now);
            }
            Some(false) => {
                step.completed = false;
                step.completed_at = None;
            }
            _ => {}
        }
    }
}

impl BrewStep {
    /// Applies a timer action (the step as read at `now`); a step without a duration has no
    /// timer, so every action is `422 invalid_transition` (`from: "none"`).
    pub fn act_on_timer(
        &mut self,
        action: super::timer::TimerAction,
        now: OffsetDateTime,
    ) -> DomainResult<()> {
        let timer = self
            .timer
            .ok_or_else(|| super::timer::invalid_timer_action(None, action))?;
        self.timer = Some(timer.act(action, self.duration_minutes, now)?);
        Ok(())
    }
}

/// A step's timer after its duration changed: an idle timer shows the new duration, a running or
/// paused one keeps counting what it was started with (reset picks the new one up), and a step
/// whose duration is cleared loses its timer.
fn retimed(
    timer: Option<super::timer::StepTimer>,
    duration_minutes: Option<f64>,
    now: OffsetDateTime,
) -> Option<super::timer::StepTimer> {
    use super::timer::{StepTimer, TimerState};
    match timer {
        Some(t) if t.state != TimerState::Idle => StepTimer::at(
            t.state,
            t.started_at,
            t.ends_at,
            t.paused_remaining(),
            duration_minutes,
            now,
        ),
        _ => StepTimer::at(TimerState::Idle, None, None, None, duration_minutes, now),
    }
}

// ---- Fermentation readings -----------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum GravityUnit {
    #[default]
    Sg,
    Plato,
    Brix,
}

impl GravityUnit {
    pub const ALL: &[Self] = &[Self::Sg, Self::Plato, Self::Brix];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Sg => "sg",
            Self::Plato => "plato",
            Self::Brix => "brix",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == s)
    }
}

// A fermentation reading. The API names its resource `/fermentation-logs` and its schema
// `FermentationLog` (public names kept from the first version); everything else says reading.
// (A plain comment: a doc comment would become the schema's description.)
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = FermentationLog))]
pub struct Reading {
    pub id: Uuid,
    pub session_id: Uuid,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub logged_at: OffsetDateTime,
    /// Specific gravity (always SG; `gravity_unit` is the unit it was entered in, for display).
    pub gravity: Option<f64>,
    pub gravity_unit: GravityUnit,
    pub temperature_c: Option<f64>,
    pub ph: Option<f64>,
    pub notes: Option<String>,
    /// The device that posted it; `null` for a reading entered by hand (or once its device
    /// is deleted).
    pub device_id: Option<Uuid>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

impl Reading {
    /// A reading must say something: at least one of gravity, temperature, pH or notes.
    pub fn check_has_measurement(&self) -> DomainResult<()> {
        has_measurement(
            self.gravity,
            self.temperature_c,
            self.ph,
            self.notes.as_deref(),
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewReading {
    pub logged_at: Option<OffsetDateTime>,
    pub gravity: Option<f64>,
    pub gravity_unit: GravityUnit,
    pub temperature_c: Option<f64>,
    pub ph: Option<f64>,
    pub notes: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadingPatch {
    pub logged_at: Option<OffsetDateTime>,
    pub gravity: Option<Option<f64>>,
    pub gravity_unit: Option<GravityUnit>,
    pub temperature_c: Option<Option<f64>>,
    pub ph: Option<Option<f64>>,
    pub notes: Option<Option<String>>,
}

impl ReadingPatch {
    pub fn is_empty(&self) -> bool {
        *self == ReadingPatch::default()
    }

    /// Applies the patch; the result must still hold a measurement.
    pub fn apply(&self, log: &mut Reading) -> DomainResult<()> {
        if let Some(at) = self.logged_at {
            log.logged_at = at;
        }
        if let Some(g) = self.gravity {
            log.gravity = g;
        }
        if let Some(unit) = self.gravity_unit {
            log.gravity_unit = unit;
        }
        if let Some(t) = self.temperature_c {
            log.temperature_c = t;
        }
        if let Some(ph) = self.ph {
            log.ph = ph;
        }
        if let Some(notes) = &self.notes {
            log.notes.clone_from(notes);
        }
        log.check_has_measurement()
    }
}

/// `from` ≤ `logged_at` < `to`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ReadingRange {
    pub from: Option<OffsetDateTime>,
    pub to: Option<OffsetDateTime>,
}

/// A session for tests, last changed at `updated_at`.
#[cfg(test)]
pub(crate) fn session_at(updated_at: OffsetDateTime, status: SessionStatus) -> BrewSession {
    BrewSession {
        id: Uuid::nil(),
        user_id: String::new(),
        recipe_id: None,
        recipe_version: None,
        name: "Brew".into(),
        brew_date: time::macros::date!(2026 - 11 - 28),
        status,
        measured_og: None,
        measured_fg: None,
        measured_batch_size_liters: None,
        measured_abv: None,
        fermentation: FermentationSoFar::default(),
        brewhouse: crate::brew_session::BrewhouseNumbers::default(),
        measured_mash_ph: None,
        predicted_mash_ph: None,
        next_statuses: status.next_statuses(),
        notes: None,
        recipe_snapshot: serde_json::Value::Null,
        brewing_started_at: None,
        fermenting_started_at: None,
        conditioning_started_at: Some(updated_at),
        completed_at: None,
        abandoned_at: None,
        created_at: updated_at,
        updated_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brewing::amount_text as amount;
    use SessionStatus::*;

    #[test]
    fn forward_moves_and_abandoning_are_allowed_final_states_are_final() {
        let allowed = [
            (Planned, Brewing),
            (Planned, Fermenting),
            (Planned, Completed),
            (Brewing, Conditioning),
            (Fermenting, Completed),
            (Conditioning, Completed),
            (Planned, Abandoned),
            (Fermenting, Abandoned),
            (Conditioning, Abandoned),
            (Completed, Completed),
            (Abandoned, Abandoned),
            (Brewing, Brewing),
        ];
        for (from, to) in allowed {
            assert!(from.can_move_to(to), "{from:?} → {to:?}");
        }
        for from in SessionStatus::ALL {
            for to in SessionStatus::ALL {
                let backwards = matches!((from.rank(), to.rank()), (Some(a), Some(b)) if b < a);
                let out_of_final = from.is_final() && from != to;
                assert_eq!(
                    from.can_move_to(*to),
                    !(backwards || out_of_final),
                    "{from:?} → {to:?}"
                );
            }
        }
    }

    #[test]
    fn forbidden_moves_name_from_and_to() {
        let Err(DomainError::Invalid(v)) = Completed.check_move_to(Brewing) else {
            panic!()
        };
        assert_eq!(v[0].code, "invalid_transition");
        assert_eq!(v[0].extra["from"], "completed");
        assert_eq!(v[0].extra["to"], "brewing");
    }

    #[test]
    fn measured_abv_needs_both_gravities() {
        assert_eq!(measured_abv(Some(1.050), Some(1.010)), Some(5.25));
        assert_eq!(measured_abv(Some(1.050), None), None);
    }

    #[test]
    fn fermentation_so_far_rounds_like_the_stats_and_needs_both_gravities() {
        assert_eq!(
            FermentationSoFar::of(Some(1.052), Some(1.013)),
            FermentationSoFar {
                original_gravity: Some(1.052),
                latest_gravity: Some(1.013),
                // 39 of 52 points: 75 %; (1.052 − 1.013) × 131.25 = 5.11875.
                apparent_attenuation_percent: Some(75.0),
                abv_percent: Some(5.12),
            }
        );
        let none = FermentationSoFar::of(Some(1.050), None);
        assert_eq!(
            (none.apparent_attenuation_percent, none.abv_percent),
            (None, None)
        );
        let no_og = FermentationSoFar::of(None, Some(1.010));
        assert_eq!(
            (no_og.apparent_attenuation_percent, no_og.abv_percent),
            (None, None)
        );
        // OG 1 has no points to ferment: no attenuation, while ABV still reads the difference.
        let flat = FermentationSoFar::of(Some(1.0), Some(1.0));
        assert_eq!(
            (flat.apparent_attenuation_percent, flat.abv_percent),
            (None, Some(0.0))
        );
    }

    #[test]
    fn the_original_gravity_is_the_measured_one_else_the_planned_one() {
        let mut s = session_at(OffsetDateTime::UNIX_EPOCH, Fermenting);
        assert_eq!(s.original_gravity(), None);
        s.recipe_snapshot = serde_json::json!({"stats": {"og": 1.048}});
        let s = s.with_latest_gravity(Some(1.012));
        assert_eq!(s.fermentation.original_gravity, Some(1.048));
        assert_eq!(s.fermentation.abv_percent, Some(4.73));
        // Measuring the OG replaces the planned one and keeps the latest reading.
        let mut s = s;
        let patch = BrewSessionPatch {
            measured_og: Some(Some(1.052)),
            ..BrewSessionPatch::default()
        };
        assert!(patch.apply(&mut s, OffsetDateTime::UNIX_EPOCH).unwrap());
        assert_eq!(
            s.fermentation,
            FermentationSoFar::of(Some(1.052), Some(1.012))
        );
        assert_eq!(s.fermentation.apparent_attenuation_percent, Some(76.9));
    }

    #[test]
    fn a_duration_change_retimes_an_idle_timer_only_and_clearing_it_drops_the_timer() {
        use super::super::timer::{StepTimer, TimerAction, TimerState};
        let t0 = time::macros::datetime!(2026-11-28 09:00:00 UTC);
        let idle = StepTimer::at(TimerState::Idle, None, None, None, Some(60.0), t0);
        let mut step = BrewStep {
            id: Uuid::nil(),
            session_id: Uuid::nil(),
            title: "Boil".into(),
            description: None,
            sort_order: 0,
            duration_minutes: Some(60.0),
            boil: true,
            boil_addition_at: None,
            quantities: Vec::new(),
            timer: idle,
            completed: false,
            completed_at: None,
            created_at: t0,
        };
        let to = |minutes: Option<f64>| StepPatch {
            duration_minutes: Some(minutes),
            ..StepPatch::default()
        };
        to(Some(90.0)).apply(&mut step, t0);
        assert_eq!(step.timer.unwrap().remaining_seconds, 5400.0);
        step.act_on_timer(TimerAction::Start, t0).unwrap();
        let running = step.timer.unwrap();
        to(Some(30.0)).apply(&mut step, t0);
        assert_eq!(
            step.timer.unwrap().ends_at,
            running.ends_at,
            "a running timer keeps its end"
        );
        to(None).apply(&mut step, t0);
        assert_eq!(step.timer, None);
        let Err(DomainError::Invalid(v)) = step.act_on_timer(TimerAction::Start, t0) else {
            panic!()
        };
        assert_eq!(v[0].extra["from"], "none");
    }

    #[test]
    fn amounts_print_like_a_brewer_writes_them() {
        assert_eq!(amount(28.0), "28");
        assert_eq!(amount(28.35), "28.35");
        assert_eq!(amount(0.5), "0.5");
    }

    #[test]
    fn a_transition_that_read_the_clock_early_is_stamped_after_the_last_change() {
        let last = time::macros::datetime!(2026-11-28 12:00:01 UTC);
        let mut session = session_at(last, Conditioning);
        let early = time::macros::datetime!(2026-11-28 12:00:00 UTC);
        let patch = BrewSessionPatch {
            status: Some(Completed),
            ..BrewSessionPatch::default()
        };
        assert!(patch.apply(&mut session, early).unwrap());
        assert_eq!(session.completed_at, Some(last));
        assert_eq!(session.updated_at, last);
    }

    #[test]
    fn re_sending_what_is_there_changes_nothing() {
        let last = time::macros::datetime!(2026-11-28 12:00:01 UTC);
        let mut session = session_at(last, Conditioning);
        let patch = BrewSessionPatch {
            status: Some(Conditioning),
            name: Some("Brew".into()),
            ..BrewSessionPatch::default()
        };
        let later = time::macros::datetime!(2026-11-29 08:00:00 UTC);
        assert!(!patch.apply(&mut session, later).unwrap());
        assert_eq!(session.updated_at, last);
    }
}
