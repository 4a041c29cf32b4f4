//! A brew session's fermentation schedule: planned from the recipe snapshot when the session
//! enters `fermenting`, then each step becomes due once (by its time, or by a reading meeting
//! its gravity condition) and is announced by the `fermentation.step_due` webhook event.
//!
//! The rule:
//! * The recipe's fermentation steps run one after the other from `fermenting_started_at`. The
//!   first is due at once; each next one is due when the one before it ends: `days` after it
//!   became due, or, when it has no `days`, when a reading meets its `until_gravity` (gravity at
//!   or below) or its `until_attenuation_percent` (apparent attenuation from the session's OG at
//!   or above). A step with neither ends by hand: the steps after it have no trigger.
//! * Times are known in advance as far as the chain of `days` goes; past a gravity condition a
//!   step keeps `days_after_previous` and gets its `due_at` when the step before it becomes due.
//! * Dry hops (`use: dry_hop`, their `time_minutes` being the contact time) are due at the end
//!   of primary (the first step) minus their contact time, never before fermentation starts.
//!   When primary ends on a gravity condition, a dry hop is due when that condition is met.
//!   A recipe without fermentation steps has a primary of [`DEFAULT_PRIMARY_DAYS`].

use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::brewing::gravity::attenuation_so_far;
use crate::recipe::children::text_enum;

/// Primary's length when the recipe plans no fermentation steps (for its dry hops' times).
pub const DEFAULT_PRIMARY_DAYS: f64 = 14.0;

text_enum! {
    /// A temperature rest of the recipe's plan, or a dry-hop addition.
    ScheduledStepKind {
        Rest => "rest",
        DryHop => "dry_hop",
    }
}

impl ScheduledStepKind {
    pub fn parse_or_rest(s: &str) -> Self {
        Self::parse(s).unwrap_or(Self::Rest)
    }
}

/// One step of a session's fermentation schedule as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScheduledStep {
    pub id: Uuid,
    pub session_id: Uuid,
    pub kind: ScheduledStepKind,
    pub name: String,
    /// The temperature to hold from this step on (rests only).
    pub temperature_c: Option<f64>,
    /// The dry hop's amount (dry hops only).
    pub amount_grams: Option<f64>,
    /// When the step is due; null while it waits for a gravity condition or the step before.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub due_at: Option<OffsetDateTime>,
    /// Due when a reading's gravity is at or below this.
    pub due_at_gravity: Option<f64>,
    /// Due when the apparent attenuation (from the session's OG) reaches this.
    pub due_at_attenuation_percent: Option<f64>,
    /// Due this many days after the step before it became due (when that time was not known
    /// in advance).
    pub days_after_previous: Option<f64>,
    /// Whether it has become due.
    pub due: bool,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub became_due_at: Option<OffsetDateTime>,
    pub sort_order: i32,
}

/// A step as planned, before it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedStep {
    pub kind: ScheduledStepKind,
    pub name: String,
    pub temperature_c: Option<f64>,
    pub amount_grams: Option<f64>,
    pub due_at: Option<OffsetDateTime>,
    pub due_at_gravity: Option<f64>,
    pub due_at_attenuation_percent: Option<f64>,
    pub days_after_previous: Option<f64>,
}

fn days(d: f64) -> Duration {
    Duration::seconds_f64(d * 86_400.0)
}

fn number(v: &Value, key: &str) -> Option<f64> {
    v.get(key)?.as_f64().filter(|n| n.is_finite())
}

fn list<'a>(snapshot: &'a Value, key: &str) -> &'a [Value] {
    snapshot
        .get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The schedule of a session whose fermentation started at `start`, from its recipe snapshot
/// (the recipe's `fermentation_steps` and `hops`, as `GET /v1/recipes/{id}` shows them).
pub fn plan_schedule(snapshot: &Value, start: OffsetDateTime) -> Vec<PlannedStep> {
    let mut planned = Vec::new();
    // When the next rest is due, or what it waits for.
    let mut next_at = Some(start);
    let mut next_gravity: Option<(Option<f64>, Option<f64>)> = None;
    let mut next_after: Option<f64> = None;
    // Primary's end: a time, or a gravity condition.
    let mut primary_end: Option<Option<OffsetDateTime>> = None;
    let mut primary_condition = (None, None);
    for (i, step) in list(snapshot, "fermentation_steps").iter().enumerate() {
        let (gravity, attenuation) = next_gravity.unwrap_or((None, None));
        planned.push(PlannedStep {
            kind: ScheduledStepKind::Rest,
            name: step
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            temperature_c: number(step, "temperature_c"),
            amount_grams: None,
            due_at: next_at,
            due_at_gravity: gravity,
            due_at_attenuation_percent: attenuation,
            days_after_previous: next_after,
        });
        let until = (
            number(step, "until_gravity"),
            number(step, "until_attenuation_percent"),
        );
        match number(step, "days") {
            Some(d) => {
                next_after = next_at.is_none().then_some(d);
                next_at = next_at.map(|t| t + days(d));
                next_gravity = None;
            }
            None => {
                next_at = None;
                next_after = None;
                next_gravity = (until.0.is_some() || until.1.is_some()).then_some(until);
            }
        }
        if i == 0 {
            primary_end = Some(next_at);
            primary_condition = until;
        }
    }
    let primary_end = primary_end.unwrap_or_else(|| Some(start + days(DEFAULT_PRIMARY_DAYS)));
    for hop in list(snapshot, "hops") {
        if hop.get("use").and_then(Value::as_str) != Some("dry_hop") {
            continue;
        }
        let contact_minutes = number(hop, "time_minutes").unwrap_or(0.0);
        let due_at =
            primary_end.map(|end| (end - Duration::seconds_f64(contact_minutes * 60.0)).max(start));
        let (gravity, attenuation) = if due_at.is_none() {
            primary_condition
        } else {
            (None, None)
        };
        planned.push(PlannedStep {
            kind: ScheduledStepKind::DryHop,
            name: hop
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            temperature_c: None,
            amount_grams: number(hop, "amount_grams"),
            due_at,
            due_at_gravity: gravity,
            due_at_attenuation_percent: attenuation,
            days_after_previous: None,
        });
    }
    planned
}

/// Whether a reading of `gravity` meets the step's gravity condition (`og` for attenuation).
pub fn gravity_condition_met(step: &ScheduledStep, gravity: f64, og: Option<f64>) -> bool {
    let by_gravity = step.due_at_gravity.is_some_and(|g| gravity <= g);
    let by_attenuation = step.due_at_attenuation_percent.is_some_and(|want| {
        og.and_then(|og| attenuation_so_far(og, gravity))
            .is_some_and(|a| a >= want)
    });
    by_gravity || by_attenuation
}

/// The steps a reading makes due, by index: not yet due, with a gravity condition met, and (a
/// rest) the rest before it already due.
pub fn due_by_reading(steps: &[ScheduledStep], gravity: f64, og: Option<f64>) -> Vec<usize> {
    let mut previous_rest_due = true;
    let mut found = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let ready = s.kind == ScheduledStepKind::DryHop || previous_rest_due;
        if !s.due && ready && gravity_condition_met(s, gravity, og) {
            found.push(i);
        }
        if s.kind == ScheduledStepKind::Rest {
            previous_rest_due = s.due || found.last() == Some(&i);
        }
    }
    found
}

/// When the step after a rest that became due at `at` is due, if it waits a number of days.
pub fn next_due_at(next: &ScheduledStep, at: OffsetDateTime) -> Option<OffsetDateTime> {
    match (next.kind, next.due_at, next.days_after_previous) {
        (ScheduledStepKind::Rest, None, Some(d)) => Some(at + days(d)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use serde_json::json;
    use time::macros::datetime;

    const START: OffsetDateTime = datetime!(2026-11-01 12:00 UTC);

    fn stored(p: &PlannedStep, due: bool) -> ScheduledStep {
        ScheduledStep {
            id: Uuid::nil(),
            session_id: Uuid::nil(),
            kind: p.kind,
            name: p.name.clone(),
            temperature_c: p.temperature_c,
            amount_grams: p.amount_grams,
            due_at: p.due_at,
            due_at_gravity: p.due_at_gravity,
            due_at_attenuation_percent: p.due_at_attenuation_percent,
            days_after_previous: p.days_after_previous,
            due,
            became_due_at: None,
            sort_order: 0,
        }
    }

    #[test]
    fn rests_follow_each_other_by_days_and_dry_hops_end_with_primary() {
        let snapshot = json!({
            "fermentation_steps": [
                {"name": "Primary", "temperature_c": 19.0, "days": 10.0},
                {"name": "Diacetyl rest", "temperature_c": 22.0, "days": 2.0},
                {"name": "Cold crash", "temperature_c": 2.0, "days": null},
            ],
            "hops": [
                {"name": "Citra", "use": "dry_hop", "time_minutes": 5760.0, "amount_grams": 100.0},
                {"name": "Magnum", "use": "boil", "time_minutes": 60.0, "amount_grams": 20.0},
            ],
        });
        let plan = plan_schedule(&snapshot, START);
        assert_eq!(plan.len(), 4);
        assert_eq!(plan[0].due_at, Some(START));
        assert_eq!(plan[1].due_at, Some(START + Duration::days(10)));
        assert_eq!(plan[2].due_at, Some(START + Duration::days(12)));
        // Four days of contact before the end of a ten-day primary.
        assert_eq!(plan[3].kind, ScheduledStepKind::DryHop);
        assert_eq!(plan[3].due_at, Some(START + Duration::days(6)));
        assert_eq!(plan[3].amount_grams, Some(100.0));
    }

    #[test]
    fn a_gravity_condition_holds_the_following_steps() {
        let snapshot = json!({
            "fermentation_steps": [
                {"name": "Primary", "temperature_c": 18.0, "until_gravity": 1.015},
                {"name": "Free rise", "temperature_c": 21.0, "days": 3.0},
                {"name": "Crash", "temperature_c": 1.0, "days": 2.0},
            ],
            "hops": [{"name": "Mosaic", "use": "dry_hop", "time_minutes": 4320.0}],
        });
        let plan = plan_schedule(&snapshot, START);
        assert_eq!(plan[1].due_at, None);
        assert_eq!(plan[1].due_at_gravity, Some(1.015));
        assert_eq!(plan[2].due_at, None);
        assert_eq!(plan[2].days_after_previous, Some(3.0));
        // The dry hop waits for primary's condition.
        assert_eq!(plan[3].due_at, None);
        assert_eq!(plan[3].due_at_gravity, Some(1.015));

        let steps: Vec<_> = plan
            .iter()
            .enumerate()
            .map(|(i, p)| stored(p, i == 0))
            .collect();
        assert!(due_by_reading(&steps, 1.020, Some(1.050)).is_empty());
        assert_eq!(due_by_reading(&steps, 1.015, Some(1.050)), [1, 3]);
        let at = START + Duration::days(5);
        assert_eq!(next_due_at(&steps[2], at), Some(at + Duration::days(3)));
    }

    #[test]
    fn attenuation_counts_from_the_og_and_never_before_the_previous_rest() {
        let snapshot = json!({
            "fermentation_steps": [
                {"name": "Primary", "temperature_c": 18.0, "until_attenuation_percent": 70.0},
                {"name": "Warm", "temperature_c": 21.0, "until_gravity": 1.010},
                {"name": "Crash", "temperature_c": 1.0, "days": 2.0},
            ],
        });
        let plan = plan_schedule(&snapshot, START);
        let steps: Vec<_> = plan
            .iter()
            .enumerate()
            .map(|(i, p)| stored(p, i == 0))
            .collect();
        // 1.050 → 1.016 is 68 %: not yet; 1.015 is 70 %.
        assert!(due_by_reading(&steps, 1.016, Some(1.050)).is_empty());
        assert_eq!(due_by_reading(&steps, 1.015, Some(1.050)), [1]);
        // Without an OG attenuation is unknown.
        assert!(due_by_reading(&steps, 1.015, None).is_empty());
        // A reading meeting the third step's condition first makes the second due too.
        assert_eq!(due_by_reading(&steps, 1.008, Some(1.050)), [1, 2]);
    }

    #[test]
    fn without_steps_dry_hops_use_the_default_primary_and_never_start_early() {
        let snapshot = json!({
            "hops": [{"name": "Long", "use": "dry_hop", "time_minutes": 30.0 * 1440.0}],
        });
        let plan = plan_schedule(&snapshot, START);
        assert_eq!(plan.len(), 1);
        assert_eq!(plan[0].due_at, Some(START));
        let short = json!({"hops": [{"name": "S", "use": "dry_hop", "time_minutes": 1440.0}]});
        assert_eq!(
            plan_schedule(&short, START)[0].due_at,
            Some(START + Duration::days(13))
        );
    }
}
