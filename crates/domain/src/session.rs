//! Brew sessions: a brew day made from a recipe, its state machine, the brew-day checklist
//! generated from the recipe, and the fermentation readings that follow.

use serde::Serialize;
use serde_json::Value;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use crate::error::Violation;
use crate::ingredients::{HopUse, MiscUse};
use crate::recipe::RecipeDetail;
use crate::{DomainError, DomainResult};

// ---- The state machine ---------------------------------------------------------------------------

/// planned → brewing → fermenting → conditioning → completed, plus abandoned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SessionStatus {
    Planned,
    Brewing,
    Fermenting,
    Conditioning,
    Completed,
    Abandoned,
}

impl SessionStatus {
    pub const ALL: &[Self] = &[
        Self::Planned,
        Self::Brewing,
        Self::Fermenting,
        Self::Conditioning,
        Self::Completed,
        Self::Abandoned,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Planned => "planned",
            Self::Brewing => "brewing",
            Self::Fermenting => "fermenting",
            Self::Conditioning => "conditioning",
            Self::Completed => "completed",
            Self::Abandoned => "abandoned",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == s)
    }

    /// Position on the forward path; `abandoned` is off it.
    fn rank(&self) -> Option<u8> {
        match self {
            Self::Planned => Some(0),
            Self::Brewing => Some(1),
            Self::Fermenting => Some(2),
            Self::Conditioning => Some(3),
            Self::Completed => Some(4),
            Self::Abandoned => None,
        }
    }

    /// `completed` and `abandoned` are final.
    pub fn is_final(&self) -> bool {
        matches!(self, Self::Completed | Self::Abandoned)
    }

    /// Any forward move (skipping allowed), any non-final state to `abandoned`, and staying put.
    pub fn can_move_to(&self, to: SessionStatus) -> bool {
        if *self == to {
            return true;
        }
        if self.is_final() {
            return false;
        }
        match (self.rank(), to.rank()) {
            (_, None) => true,
            (Some(from), Some(to)) => to > from,
            (None, Some(_)) => false,
        }
    }

    /// The transition as a rule check: `422 invalid_transition` with `from`/`to` when forbidden.
    pub fn check_move_to(&self, to: SessionStatus) -> DomainResult<()> {
        if self.can_move_to(to) {
            Ok(())
        } else {
            Err(DomainError::invalid(
                Violation::new(
                    "invalid_transition",
                    &["status"],
                    format!("A {} session cannot become {}", self.as_str(), to.as_str()),
                )
                .with("from", self.as_str())
                .with("to", to.as_str()),
            ))
        }
    }
}

// ---- The session -------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct BrewSession {
    pub id: Uuid,
    #[schema(format = Uuid)]
    pub user_id: String,
    /// The recipe it was made from; `null` once that recipe is deleted (the snapshot remains).
    pub recipe_id: Option<Uuid>,
    pub name: String,
    #[serde(serialize_with = "crate::timestamp::serialize_date")]
    #[schema(value_type = String, format = Date)]
    pub brew_date: Date,
    pub status: SessionStatus,
    pub measured_og: Option<f64>,
    pub measured_fg: Option<f64>,
    pub measured_batch_size_liters: Option<f64>,
    /// (OG − FG) × 131.25, rounded to 2 decimals; null unless both gravities are measured.
    pub measured_abv: Option<f64>,
    pub notes: Option<String>,
    /// The recipe exactly as `GET /v1/recipes/{id}` returned it when the session was created,
    /// plus a `stats` member; later recipe edits do not change it.
    #[schema(value_type = Object)]
    pub recipe_snapshot: Value,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub brewing_started_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub fermenting_started_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub conditioning_started_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub completed_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub abandoned_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[schema(value_type = String, format = DateTime)]
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

/// A validated create request.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRequest {
    pub recipe_id: Uuid,
    pub brew_date: Date,
    pub name: Option<String>,
    pub status: Option<SessionStatus>,
    pub notes: Option<String>,
}

/// Everything the store needs to create a session: the snapshot and the checklist are made here.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSession {
    pub recipe_id: Uuid,
    pub name: String,
    pub brew_date: Date,
    pub status: SessionStatus,
    pub phases: PhaseTimes,
    pub notes: Option<String>,
    pub recipe_snapshot: Value,
    pub steps: Vec<NewStep>,
}

/// Plans a session from the recipe as it is now: snapshot (recipe + stats), the status given on
/// create entered at once, and the brew-day checklist.
pub fn plan_session(
    request: SessionRequest,
    recipe: &RecipeDetail,
    now: OffsetDateTime,
) -> DomainResult<NewSession> {
    let stats = crate::brewing::compute_stats(&recipe.stats_input());
    let mut snapshot = serde_json::to_value(recipe)
        .map_err(|e| DomainError::Internal(format!("snapshot: {e}")))?;
    let stats =
        serde_json::to_value(stats).map_err(|e| DomainError::Internal(format!("stats: {e}")))?;
    if let Value::Object(map) = &mut snapshot {
        map.insert("stats".to_owned(), stats);
    }
    let status = request.status.unwrap_or(SessionStatus::Planned);
    let mut phases = PhaseTimes::default();
    phases.enter(status, now);
    Ok(NewSession {
        recipe_id: request.recipe_id,
        name: request.name.unwrap_or_else(|| recipe.recipe.name.clone()),
        brew_date: request.brew_date,
        status,
        phases,
        notes: request.notes,
        recipe_snapshot: snapshot,
        steps: checklist(recipe),
    })
}

/// A validated partial update of a session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionPatch {
    pub name: Option<String>,
    pub brew_date: Option<Date>,
    pub status: Option<SessionStatus>,
    pub measured_og: Option<Option<f64>>,
    pub measured_fg: Option<Option<f64>>,
    pub measured_batch_size_liters: Option<Option<f64>>,
    pub notes: Option<Option<String>>,
}

impl SessionPatch {
    pub fn is_empty(&self) -> bool {
        *self == SessionPatch::default()
    }

    /// Applies the patch to a session (checking the transition first). Re-sending the current
    /// status is a no-op that keeps its timestamp.
    pub fn apply(&self, session: &mut BrewSession, now: OffsetDateTime) -> DomainResult<()> {
        if let Some(to) = self.status {
            session.status.check_move_to(to)?;
            if to != session.status {
                let mut phases = session.phases();
                phases.enter(to, now);
                session.set_phases(phases);
                session.status = to;
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
        session.measured_abv = measured_abv(session.measured_og, session.measured_fg);
        Ok(())
    }
}

impl BrewSession {
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
pub struct SessionFilter {
    pub status: Option<SessionStatus>,
    pub recipe_id: Option<Uuid>,
}

// ---- The brew-day checklist ----------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct BrewStep {
    pub id: Uuid,
    pub session_id: Uuid,
    pub title: String,
    pub description: Option<String>,
    pub sort_order: i32,
    pub duration_minutes: Option<f64>,
    pub completed: bool,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub completed_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

/// A step to create; `sort_order: None` appends.
#[derive(Debug, Clone, PartialEq)]
pub struct NewStep {
    pub title: String,
    pub description: Option<String>,
    pub sort_order: Option<i32>,
    pub duration_minutes: Option<f64>,
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
    pub fn apply(&self, step: &mut BrewStep, now: OffsetDateTime) {
        if let Some(title) = &self.title {
            step.title.clone_from(title);
        }
        if let Some(description) = &self.description {
            step.description.clone_from(description);
        }
        if let Some(order) = self.sort_order {
            step.sort_order = order;
        }
        if let Some(duration) = self.duration_minutes {
            step.duration_minutes = duration;
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

/// Numbers as a brewer writes them: `28`, `28.35`, `0.5`.
fn amount(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn step(title: String, description: Option<String>, duration_minutes: Option<f64>) -> NewStep {
    NewStep {
        title,
        description,
        sort_order: None,
        duration_minutes,
    }
}

/// One addition during the boil, ordered by the time left in the boil (first wort first).
struct BoilAddition {
    minutes_left: f64,
    first_wort: bool,
    title: String,
}

/// The brew-day checklist, in brewing order: strike water, mash steps, sparge, boil, boil
/// additions (first wort first, then by time left), flame-out and whirlpool additions, chill,
/// transfer, pitch. Mash and sparge water agents join their stage; fermenter-side miscs
/// (primary, secondary, bottling) are not brew-day steps.
pub fn checklist(recipe: &RecipeDetail) -> Vec<NewStep> {
    let boil_time = recipe.recipe.boil_time_minutes;
    let mut steps = Vec::new();

    let strike = recipe
        .mash_steps
        .first()
        .map(|first| match first.infuse_amount_liters {
            Some(liters) => format!(
                "Heat {} L of strike water for a {} °C rest.",
                amount(liters),
                amount(first.temperature_c)
            ),
            None => format!(
                "Heat the strike water for a {} °C rest.",
                amount(first.temperature_c)
            ),
        });
    steps.push(step("Heat strike water".to_owned(), strike, None));
    for misc in recipe.miscs.iter().filter(|m| m.misc_use == MiscUse::Mash) {
        steps.push(step(
            format!(
                "Add {} {} {} to the mash",
                amount(misc.amount),
                misc.amount_unit,
                misc.name
            ),
            misc.notes.clone(),
            None,
        ));
    }
    for mash in &recipe.mash_steps {
        steps.push(step(
            format!(
                "Mash: {} at {} °C for {} min",
                mash.name,
                amount(mash.temperature_c),
                amount(mash.duration_minutes)
            ),
            None,
            Some(mash.duration_minutes),
        ));
    }
    for misc in recipe
        .miscs
        .iter()
        .filter(|m| m.misc_use == MiscUse::Sparge)
    {
        steps.push(step(
            format!(
                "Add {} {} {} to the sparge water",
                amount(misc.amount),
                misc.amount_unit,
                misc.name
            ),
            misc.notes.clone(),
            None,
        ));
    }
    steps.push(step("Sparge and lauter".to_owned(), None, None));

    let mut boil: Vec<BoilAddition> = Vec::new();
    let mut flame_out: Vec<String> = Vec::new();
    for hop in &recipe.hops {
        let what = format!("{} g {}", amount(hop.amount_grams), hop.name);
        let at = hop.time_minutes.min(boil_time).max(0.0);
        match hop.hop_use {
            HopUse::FirstWort => boil.push(BoilAddition {
                minutes_left: boil_time,
                first_wort: true,
                title: format!("Add {what} as a first-wort addition"),
            }),
            HopUse::Boil | HopUse::Aroma if at > 0.0 => boil.push(BoilAddition {
                minutes_left: at,
                first_wort: false,
                title: format!("Add {what} at {} min", amount(at)),
            }),
            HopUse::Boil | HopUse::Aroma => flame_out.push(format!("At flame-out: add {what}")),
            HopUse::Whirlpool => flame_out.push(format!(
                "Whirlpool: add {what} for {} min",
                amount(hop.time_minutes)
            )),
            // Mash hops go in with the grain; dry hops come days later, not on brew day.
            HopUse::Mash | HopUse::DryHop => {}
        }
    }
    for misc in &recipe.miscs {
        let what = format!("{} {} {}", amount(misc.amount), misc.amount_unit, misc.name);
        match misc.misc_use {
            MiscUse::Boil if misc.time_minutes > 0.0 => {
                let at = misc.time_minutes.min(boil_time);
                boil.push(BoilAddition {
                    minutes_left: at,
                    first_wort: false,
                    title: format!("Add {what} at {} min", amount(at)),
                });
            }
            MiscUse::Boil => flame_out.push(format!("At flame-out: add {what}")),
            MiscUse::Whirlpool => flame_out.push(format!("Whirlpool: add {what}")),
            _ => {}
        }
    }
    for hop in recipe.hops.iter().filter(|h| h.hop_use == HopUse::Mash) {
        // Mash hops belong with the mash steps, right after the strike water.
        let at = steps
            .iter()
            .position(|s| s.title.starts_with("Mash:"))
            .unwrap_or(1);
        steps.insert(
            at,
            step(
                format!(
                    "Add {} g {} to the mash",
                    amount(hop.amount_grams),
                    hop.name
                ),
                None,
                None,
            ),
        );
    }
    // First wort first, then the longest remaining boil time; ties keep recipe order.
    boil.sort_by(|a, b| {
        b.first_wort
            .cmp(&a.first_wort)
            .then(b.minutes_left.total_cmp(&a.minutes_left))
    });
    let (first_wort, in_boil): (Vec<_>, Vec<_>) = boil.into_iter().partition(|a| a.first_wort);
    steps.extend(first_wort.into_iter().map(|a| step(a.title, None, None)));
    steps.push(step(
        "Bring to a boil".to_owned(),
        Some(format!("Boil for {} min.", amount(boil_time))),
        Some(boil_time),
    ));
    steps.extend(in_boil.into_iter().map(|a| step(a.title, None, None)));
    steps.extend(flame_out.into_iter().map(|t| step(t, None, None)));
    steps.push(step("Chill the wort".to_owned(), None, None));
    steps.push(step("Transfer to the fermenter".to_owned(), None, None));
    let yeasts: Vec<&str> = recipe.yeasts.iter().map(|y| y.name.as_str()).collect();
    let pitch = if yeasts.is_empty() {
        None
    } else {
        Some(yeasts.join(", "))
    };
    steps.push(step("Pitch yeast".to_owned(), pitch, None));
    steps
}

// ---- Fermentation readings -----------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema, Default)]
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

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct FermentationLog {
    pub id: Uuid,
    pub session_id: Uuid,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[schema(value_type = String, format = DateTime)]
    pub logged_at: OffsetDateTime,
    /// Specific gravity (always SG; `gravity_unit` is the unit it was entered in, for display).
    pub gravity: Option<f64>,
    pub gravity_unit: GravityUnit,
    pub temperature_c: Option<f64>,
    pub ph: Option<f64>,
    pub notes: Option<String>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

impl FermentationLog {
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

pub fn has_measurement(
    gravity: Option<f64>,
    temperature_c: Option<f64>,
    ph: Option<f64>,
    notes: Option<&str>,
) -> DomainResult<()> {
    if gravity.is_some() || temperature_c.is_some() || ph.is_some() || notes.is_some() {
        Ok(())
    } else {
        Err(DomainError::invalid(Violation::new(
            "custom",
            &[],
            "A reading needs at least one of gravity, temperature_c, ph or notes",
        )))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewLog {
    pub logged_at: Option<OffsetDateTime>,
    pub gravity: Option<f64>,
    pub gravity_unit: GravityUnit,
    pub temperature_c: Option<f64>,
    pub ph: Option<f64>,
    pub notes: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogPatch {
    pub logged_at: Option<OffsetDateTime>,
    pub gravity: Option<Option<f64>>,
    pub gravity_unit: Option<GravityUnit>,
    pub temperature_c: Option<Option<f64>>,
    pub ph: Option<Option<f64>>,
    pub notes: Option<Option<String>>,
}

impl LogPatch {
    pub fn is_empty(&self) -> bool {
        *self == LogPatch::default()
    }

    /// Applies the patch; the result must still hold a measurement.
    pub fn apply(&self, log: &mut FermentationLog) -> DomainResult<()> {
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
pub struct LogRange {
    pub from: Option<OffsetDateTime>,
    pub to: Option<OffsetDateTime>,
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn amounts_print_like_a_brewer_writes_them() {
        assert_eq!(amount(28.0), "28");
        assert_eq!(amount(28.35), "28.35");
        assert_eq!(amount(0.5), "0.5");
    }
}
