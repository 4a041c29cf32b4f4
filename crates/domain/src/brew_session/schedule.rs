//! A brew session's fermentation schedule: planned from the recipe snapshot when the session
//! enters `fermenting`, then each step becomes due once (by its time, or by a reading meeting
//! its gravity condition) and is announced by the `fermentation.step_due` webhook event.
//!
//! The rule:
//! * The recipe's fermentation steps run one after the other from `fermenting_started_at`. The
//!   first is due at once; each next one is due when the one before it ends. A step ends at
//!   whichever comes first of:
//!   - its `days` elapsed since it became due (its most time; the clock ends it), and
//!   - a reading meeting its `until_gravity` (gravity at or below) or its
//!     `until_attenuation_percent` (apparent attenuation from the session's OG at or above),
//!     counted only once `min_days` have passed since it became due.
//!
//!   A step with a condition and no `days` waits for the condition; a step with neither ends by
//!   hand (the steps after it have no trigger).
//! * A reading that meets the condition before `min_days` does not end the step, but is kept in
//!   mind: when `min_days` have passed, the clock ends the step if the session's latest gravity
//!   still meets the condition (a brewer whose beer reached its gravity early expects the step to
//!   end as soon as the minimum is over, not at the next reading). If the latest gravity no
//!   longer meets it, the next reading that does ends the step.
//! * Each step's end is written on the row of the step after it (that row becoming due is the
//!   same moment): `due_at` is the latest time (from the chain of `days`),
//!   `due_at_gravity` / `due_at_attenuation_percent` the condition that may come first,
//!   `due_at_gravity_from` when the condition starts to count. When a rest becomes due, the
//!   rest after it is timed again from that moment, so a step ended early by gravity moves the
//!   whole chain earlier. A step says which condition ended it (`ended_by`): `time`, `gravity`
//!   or `attenuation` (gravity first when a reading meets both).
//! * Dry hops (`use: dry_hop`, their `time_minutes` being the contact time) are due at the end
//!   of primary (the first step) by its days minus their contact time, never before
//!   fermentation starts; when primary has a gravity condition, a dry hop is due at the latest
//!   when that condition ends primary (it cannot come after primary's end). A recipe without
//!   fermentation steps has a primary of [`DEFAULT_PRIMARY_DAYS`].
//! * The last rest has no step after it: nothing in the schedule ends it (the brewer does, by
//!   moving the session on), so its `ended_by` stays null.

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

text_enum! {
    /// Which condition ended a step (and so made the step after it due).
    EndCondition {
        /// Its `days` elapsed (or, for the first rest, fermentation started).
        Time => "time",
        /// A reading's gravity reached its `until_gravity`.
        Gravity => "gravity",
        /// A reading's apparent attenuation reached its `until_attenuation_percent`.
        Attenuation => "attenuation",
    }
}

impl EndCondition {
    /// Why a step of a schedule planned before steps said so became due, where the old rule
    /// leaves no doubt: a step with a time (the old rule gave no time to one with a condition),
    /// or with one condition. `None` for one with both conditions.
    pub fn inferred(
        due_at: Option<OffsetDateTime>,
        gravity: Option<f64>,
        attenuation: Option<f64>,
    ) -> Option<Self> {
        match (due_at, gravity, attenuation) {
            (Some(_), _, _) => Some(Self::Time),
            (None, Some(_), None) => Some(Self::Gravity),
            (None, None, Some(_)) => Some(Self::Attenuation),
            _ => None,
        }
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
    /// When the step is due at the latest (the step before it has run its `days`); a gravity
    /// condition may make it due earlier. Null while it waits only for a gravity condition, or
    /// for the step before to start.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub due_at: Option<OffsetDateTime>,
    /// Due when a reading's gravity is at or below this.
    pub due_at_gravity: Option<f64>,
    /// Due when the apparent attenuation (from the session's OG) reaches this.
    pub due_at_attenuation_percent: Option<f64>,
    /// The gravity or attenuation condition counts only from this time (the step before's start
    /// plus its `min_days`); null when it counts as soon as the step before is due, or while
    /// that start is not known yet.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub due_at_gravity_from: Option<OffsetDateTime>,
    /// Due this many days after the step before it became due, at the latest.
    pub days_after_previous: Option<f64>,
    /// The gravity or attenuation condition counts only this many days after the step before
    /// it became due (that step's `min_days`).
    pub min_days_after_previous: Option<f64>,
    /// Whether it has become due.
    pub due: bool,
    /// When it was found due: the start of a rest.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub became_due_at: Option<OffsetDateTime>,
    /// Why it became due (for a rest after another: the condition that ended the one before).
    pub due_by: Option<EndCondition>,
    /// When the rest ended: the moment the rest after it became due. Null while it runs, for
    /// the last rest, and for dry hops.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub ended_at: Option<OffsetDateTime>,
    /// Which condition ended the rest: `time`, `gravity` or `attenuation`; null like `ended_at`.
    pub ended_by: Option<EndCondition>,
    /// The gravity of the reading that ended the rest (ended by gravity or attenuation).
    pub ended_gravity: Option<f64>,
    pub sort_order: i32,
    /// The gravity that made this step due (by gravity or attenuation): kept for the step
    /// before's `ended_gravity`.
    #[serde(skip)]
    pub due_gravity: Option<f64>,
    /// A reading met the condition before it counted: the clock looks again once it counts.
    #[serde(skip)]
    pub condition_met_early: bool,
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
    pub due_at_gravity_from: Option<OffsetDateTime>,
    pub days_after_previous: Option<f64>,
    pub min_days_after_previous: Option<f64>,
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

/// How a recipe step ends, as the row of the step after it carries it.
#[derive(Clone, Copy, Default)]
struct StepEnd {
    days: Option<f64>,
    min_days: Option<f64>,
    gravity: Option<f64>,
    attenuation: Option<f64>,
}

impl StepEnd {
    fn of(step: &Value) -> Self {
        StepEnd {
            days: number(step, "days"),
            min_days: number(step, "min_days"),
            gravity: number(step, "until_gravity"),
            attenuation: number(step, "until_attenuation_percent"),
        }
    }

    fn has_condition(&self) -> bool {
        self.gravity.is_some() || self.attenuation.is_some()
    }

    /// The condition's minimum, only where there is a condition for it to hold back.
    fn min_days(&self) -> Option<f64> {
        self.min_days.filter(|_| self.has_condition())
    }
}

/// The schedule of a session whose fermentation started at `start`, from its recipe snapshot
/// (the recipe's `fermentation_steps` and `hops`, as `GET /v1/recipes/{id}` shows them).
pub fn plan_schedule(snapshot: &Value, start: OffsetDateTime) -> Vec<PlannedStep> {
    let mut planned = Vec::new();
    // The step before: how it ends, and when it starts as far as the chain of days tells.
    let mut previous: Option<(StepEnd, Option<OffsetDateTime>)> = None;
    let steps = list(snapshot, "fermentation_steps");
    for step in steps {
        let (due_at, end) = match previous {
            None => (Some(start), StepEnd::default()),
            Some((end, started)) => (started.zip(end.days).map(|(t, d)| t + days(d)), end),
        };
        let min_days = end.min_days();
        planned.push(PlannedStep {
            kind: ScheduledStepKind::Rest,
            name: name(step),
            temperature_c: number(step, "temperature_c"),
            amount_grams: None,
            due_at,
            due_at_gravity: end.gravity,
            due_at_attenuation_percent: end.attenuation,
            due_at_gravity_from: previous
                .and_then(|(_, started)| started)
                .zip(min_days)
                .map(|(t, m)| t + days(m)),
            days_after_previous: end.days,
            min_days_after_previous: min_days,
        });
        previous = Some((StepEnd::of(step), due_at));
    }
    let primary = steps.first().map(StepEnd::of).unwrap_or(StepEnd {
        days: Some(DEFAULT_PRIMARY_DAYS),
        ..StepEnd::default()
    });
    let primary_end = primary.days.map(|d| start + days(d));
    for hop in list(snapshot, "hops") {
        if hop.get("use").and_then(Value::as_str) != Some("dry_hop") {
            continue;
        }
        let contact_minutes = number(hop, "time_minutes").unwrap_or(0.0);
        let min_days = primary.min_days();
        planned.push(PlannedStep {
            kind: ScheduledStepKind::DryHop,
            name: name(hop),
            temperature_c: None,
            amount_grams: number(hop, "amount_grams"),
            due_at: primary_end
                .map(|end| (end - Duration::seconds_f64(contact_minutes * 60.0)).max(start)),
            due_at_gravity: primary.gravity,
            due_at_attenuation_percent: primary.attenuation,
            due_at_gravity_from: min_days.map(|m| start + days(m)),
            days_after_previous: None,
            min_days_after_previous: min_days,
        });
    }
    planned
}

fn name(v: &Value) -> String {
    v.get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Which of the step's conditions a reading of `gravity` meets (`og` for attenuation); gravity
/// first when it meets both.
pub fn condition_met(step: &ScheduledStep, gravity: f64, og: Option<f64>) -> Option<EndCondition> {
    if step.due_at_gravity.is_some_and(|g| gravity <= g) {
        return Some(EndCondition::Gravity);
    }
    let by_attenuation = step.due_at_attenuation_percent.is_some_and(|want| {
        og.and_then(|og| attenuation_so_far(og, gravity))
            .is_some_and(|a| a >= want)
    });
    by_attenuation.then_some(EndCondition::Attenuation)
}

/// Whether the step's condition counts at `now` (its `min_days_after_previous` are over).
fn condition_counts(step: &ScheduledStep, now: OffsetDateTime) -> bool {
    match step.min_days_after_previous {
        None => true,
        Some(_) => step.due_at_gravity_from.is_some_and(|from| now >= from),
    }
}

/// A step that becomes due, and what that changes.
#[derive(Debug, Clone, PartialEq)]
pub struct BecameDue {
    /// Its index in the schedule.
    pub index: usize,
    pub by: EndCondition,
    /// The gravity that made it due (by gravity or attenuation).
    pub gravity: Option<f64>,
    /// The rest after it, timed again from this one's start, when its times change.
    pub next: Option<Retimed>,
}

/// New times for a rest whose step before has just started.
#[derive(Debug, Clone, PartialEq)]
pub struct Retimed {
    pub index: usize,
    pub due_at: Option<OffsetDateTime>,
    pub due_at_gravity_from: Option<OffsetDateTime>,
}

/// What a reading or the clock decides for a schedule: to be carried out in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Advance {
    /// The steps that become due, in schedule order.
    pub due: Vec<BecameDue>,
    /// Steps whose condition a reading met before it counted: the clock looks again at their
    /// `due_at_gravity_from`.
    pub met_early: Vec<usize>,
    /// Steps the clock looked at again whose condition the latest gravity no longer meets: the
    /// next reading that meets it ends the step.
    pub no_longer_met: Vec<usize>,
}

impl Advance {
    pub fn is_empty(&self) -> bool {
        self.due.is_empty() && self.met_early.is_empty() && self.no_longer_met.is_empty()
    }
}

#[derive(Clone, Copy)]
enum Trigger {
    /// A reading of this gravity was stored now.
    Reading { gravity: f64, og: Option<f64> },
    /// The periodic check, knowing the session's latest gravity.
    Clock {
        latest: Option<f64>,
        og: Option<f64>,
    },
}

/// A reading of `gravity` was stored at `now` in a session whose OG is `og`: the steps whose
/// condition it meets and counts become due (a rest only once the rest before it is due); the
/// ones whose condition it meets too early are noted for the clock.
pub fn on_reading(
    steps: &[ScheduledStep],
    gravity: f64,
    og: Option<f64>,
    now: OffsetDateTime,
) -> Advance {
    advance(steps, Trigger::Reading { gravity, og }, now)
}

/// The periodic check at `now`: steps whose time has come become due by time, and steps whose
/// condition was met early become due by it once it counts, if the session's `latest` gravity
/// still meets it.
pub fn on_clock(
    steps: &[ScheduledStep],
    latest: Option<f64>,
    og: Option<f64>,
    now: OffsetDateTime,
) -> Advance {
    advance(steps, Trigger::Clock { latest, og }, now)
}

/// Whether the clock must look at the session's latest gravity for these steps (a step whose
/// condition was met early now counts).
pub fn clock_needs_gravity(steps: &[ScheduledStep], now: OffsetDateTime) -> bool {
    steps
        .iter()
        .any(|s| !s.due && s.condition_met_early && condition_counts(s, now))
}

fn advance(steps: &[ScheduledStep], trigger: Trigger, now: OffsetDateTime) -> Advance {
    // A working copy, so that a step made due here lets the ones after it follow at once.
    let mut work = steps.to_vec();
    let mut out = Advance::default();
    let mut previous_rest_due = true;
    for i in 0..work.len() {
        let Some(s) = work.get(i) else { break };
        let ready = s.kind == ScheduledStepKind::DryHop || previous_rest_due;
        if !s.due && ready {
            let decided = match trigger {
                Trigger::Reading { gravity, og } => match condition_met(s, gravity, og) {
                    Some(by) if condition_counts(s, now) => Some((by, Some(gravity))),
                    Some(_) => {
                        if !s.condition_met_early {
                            out.met_early.push(i);
                        }
                        None
                    }
                    None => None,
                },
                Trigger::Clock { latest, og } => {
                    let by_condition = if s.condition_met_early && condition_counts(s, now) {
                        let met = latest.and_then(|g| condition_met(s, g, og).map(|by| (by, g)));
                        if met.is_none() {
                            out.no_longer_met.push(i);
                        }
                        met.map(|(by, g)| (by, Some(g)))
                    } else {
                        None
                    };
                    by_condition.or_else(|| {
                        s.due_at
                            .is_some_and(|t| t <= now)
                            .then_some((EndCondition::Time, None))
                    })
                }
            };
            if let Some((by, gravity)) = decided {
                // A step due by its time started at that time (the clock may find it a little
                // late, or a back-dated start long after); one due by a reading, now.
                let started = match by {
                    EndCondition::Time => s.due_at.unwrap_or(now),
                    _ => now,
                };
                let is_rest = s.kind == ScheduledStepKind::Rest;
                if let Some(w) = work.get_mut(i) {
                    w.due = true;
                    w.became_due_at = Some(now);
                    w.due_by = Some(by);
                }
                let next = if is_rest {
                    retime(&mut work, i + 1, started)
                } else {
                    None
                };
                out.due.push(BecameDue {
                    index: i,
                    by,
                    gravity,
                    next,
                });
            }
        }
        if let Some(s) = work.get(i)
            && s.kind == ScheduledStepKind::Rest
        {
            previous_rest_due = s.due;
        }
    }
    out
}

/// Times the rest at `index` from its step before's start, in the working copy; what changed.
fn retime(work: &mut [ScheduledStep], index: usize, started: OffsetDateTime) -> Option<Retimed> {
    let next = work
        .get_mut(index)
        .filter(|s| s.kind == ScheduledStepKind::Rest && !s.due)?;
    let due_at = next
        .days_after_previous
        .map(|d| started + days(d))
        .or(next.due_at);
    let from = next
        .min_days_after_previous
        .map(|m| started + days(m))
        .or(next.due_at_gravity_from);
    if due_at == next.due_at && from == next.due_at_gravity_from {
        return None;
    }
    next.due_at = due_at;
    next.due_at_gravity_from = from;
    Some(Retimed {
        index,
        due_at,
        due_at_gravity_from: from,
    })
}

/// Fills each rest's `ended_at`, `ended_by` and `ended_gravity` from the rest after it (its
/// becoming due is the rest's end). `steps` in schedule order.
pub fn with_ends(mut steps: Vec<ScheduledStep>) -> Vec<ScheduledStep> {
    let ends: Vec<_> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let next = steps
                .get(i + 1)
                .filter(|n| n.kind == ScheduledStepKind::Rest && n.due);
            match (s.kind, next) {
                (ScheduledStepKind::Rest, Some(n)) => (n.became_due_at, n.due_by, n.due_gravity),
                _ => (None, None, None),
            }
        })
        .collect();
    for (s, (at, by, gravity)) in steps.iter_mut().zip(ends) {
        s.ended_at = at;
        s.ended_by = by;
        s.ended_gravity = gravity;
    }
    steps
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
            due_at_gravity_from: p.due_at_gravity_from,
            days_after_previous: p.days_after_previous,
            min_days_after_previous: p.min_days_after_previous,
            due,
            became_due_at: due.then_some(START),
            due_by: due.then_some(EndCondition::Time),
            ended_at: None,
            ended_by: None,
            ended_gravity: None,
            sort_order: 0,
            due_gravity: None,
            condition_met_early: false,
        }
    }

    /// The schedule of `snapshot` as stored, its first `due` steps already due.
    fn schedule(snapshot: &Value, due: usize) -> Vec<ScheduledStep> {
        plan_schedule(snapshot, START)
            .iter()
            .enumerate()
            .map(|(i, p)| stored(p, i < due))
            .collect()
    }

    /// Carries an advance out on the steps, as the store does.
    fn carry_out(steps: &mut [ScheduledStep], advance: &Advance, now: OffsetDateTime) {
        for d in &advance.due {
            let s = &mut steps[d.index];
            s.due = true;
            s.became_due_at = Some(now);
            s.due_by = Some(d.by);
            s.due_gravity = d.gravity;
            if let Some(r) = &d.next {
                steps[r.index].due_at = r.due_at;
                steps[r.index].due_at_gravity_from = r.due_at_gravity_from;
            }
        }
        for &i in &advance.met_early {
            steps[i].condition_met_early = true;
        }
        for &i in &advance.no_longer_met {
            steps[i].condition_met_early = false;
        }
    }

    fn indexes(a: &Advance) -> Vec<(usize, EndCondition)> {
        a.due.iter().map(|d| (d.index, d.by)).collect()
    }

    fn day(n: f64) -> OffsetDateTime {
        START + days(n)
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
        assert_eq!(plan[1].days_after_previous, Some(10.0));
        assert_eq!(plan[2].due_at, Some(START + Duration::days(12)));
        // Four days of contact before the end of a ten-day primary.
        assert_eq!(plan[3].kind, ScheduledStepKind::DryHop);
        assert_eq!(plan[3].due_at, Some(START + Duration::days(6)));
        assert_eq!(plan[3].amount_grams, Some(100.0));
        assert_eq!(plan[3].due_at_gravity, None);
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
        assert_eq!(plan[1].due_at_gravity_from, None);
        assert_eq!(plan[2].due_at, None);
        assert_eq!(plan[2].days_after_previous, Some(3.0));
        // The dry hop waits for primary's condition.
        assert_eq!(plan[3].due_at, None);
        assert_eq!(plan[3].due_at_gravity, Some(1.015));

        let mut steps = schedule(&snapshot, 1);
        let now = day(5.0);
        assert!(on_reading(&steps, 1.020, Some(1.050), now).is_empty());
        let advance = on_reading(&steps, 1.015, Some(1.050), now);
        assert_eq!(
            indexes(&advance),
            [(1, EndCondition::Gravity), (3, EndCondition::Gravity)]
        );
        // Free rise started now: the crash is due three days later.
        assert_eq!(
            advance.due[0].next,
            Some(Retimed {
                index: 2,
                due_at: Some(now + Duration::days(3)),
                due_at_gravity_from: None,
            })
        );
        carry_out(&mut steps, &advance, now);
        let shown = with_ends(steps);
        assert_eq!(shown[0].ended_by, Some(EndCondition::Gravity));
        assert_eq!(shown[0].ended_at, Some(now));
        assert_eq!(shown[0].ended_gravity, Some(1.015));
        assert_eq!(shown[1].ended_by, None, "free rise is running");
        assert_eq!(shown[3].ended_by, None, "a dry hop does not end");
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
        let steps = schedule(&snapshot, 1);
        let now = day(4.0);
        // 1.050 → 1.016 is 68 %: not yet; 1.015 is 70 %.
        assert!(on_reading(&steps, 1.016, Some(1.050), now).is_empty());
        assert_eq!(
            indexes(&on_reading(&steps, 1.015, Some(1.050), now)),
            [(1, EndCondition::Attenuation)]
        );
        // Without an OG attenuation is unknown.
        assert!(on_reading(&steps, 1.015, None, now).is_empty());
        // A reading meeting the third step's condition first makes the second due too.
        assert_eq!(
            indexes(&on_reading(&steps, 1.008, Some(1.050), now)),
            [(1, EndCondition::Attenuation), (2, EndCondition::Gravity)]
        );
    }

    /// Primary: 14 days at most, ended by 1.012 from day 3 on; then a 2-day crash.
    fn gravity_with_fallback() -> Value {
        json!({
            "fermentation_steps": [
                {"name": "Primary", "temperature_c": 18.0, "days": 14.0, "min_days": 3.0,
                 "until_gravity": 1.012},
                {"name": "Crash", "temperature_c": 1.0, "days": 2.0},
            ],
            "hops": [{"name": "Citra", "use": "dry_hop", "time_minutes": 4.0 * 1440.0}],
        })
    }

    #[test]
    fn a_step_with_days_and_a_condition_plans_both() {
        let plan = plan_schedule(&gravity_with_fallback(), START);
        assert_eq!(plan[1].due_at, Some(day(14.0)), "its most time");
        assert_eq!(plan[1].due_at_gravity, Some(1.012));
        assert_eq!(plan[1].min_days_after_previous, Some(3.0));
        assert_eq!(plan[1].due_at_gravity_from, Some(day(3.0)));
        // The dry hop: 4 days before primary's end by days, or with primary's gravity.
        assert_eq!(plan[2].due_at, Some(day(10.0)));
        assert_eq!(plan[2].due_at_gravity, Some(1.012));
        assert_eq!(plan[2].due_at_gravity_from, Some(day(3.0)));
        // A minimum without a condition holds nothing back.
        let plain = json!({"fermentation_steps": [
            {"name": "P", "temperature_c": 18.0, "days": 7.0, "min_days": 3.0},
            {"name": "C", "temperature_c": 1.0},
        ]});
        assert_eq!(
            plan_schedule(&plain, START)[1].min_days_after_previous,
            None
        );
    }

    #[test]
    fn gravity_before_min_days_does_not_end_the_step_but_the_clock_does_at_min_days() {
        let mut steps = schedule(&gravity_with_fallback(), 1);
        let early = on_reading(&steps, 1.011, Some(1.050), day(2.0));
        assert!(early.due.is_empty());
        assert_eq!(early.met_early, [1, 2]);
        carry_out(&mut steps, &early, day(2.0));
        // Noted once: the next early reading notes nothing again.
        assert!(on_reading(&steps, 1.010, Some(1.050), day(2.5)).is_empty());
        // Before day 3 the clock waits; at day 3 it ends primary as the latest gravity is there.
        assert!(!clock_needs_gravity(&steps, day(2.9)));
        assert!(on_clock(&steps, Some(1.010), Some(1.050), day(2.9)).is_empty());
        assert!(clock_needs_gravity(&steps, day(3.0)));
        let at_min = on_clock(&steps, Some(1.010), Some(1.050), day(3.0));
        assert_eq!(
            indexes(&at_min),
            [(1, EndCondition::Gravity), (2, EndCondition::Gravity)]
        );
        assert_eq!(at_min.due[0].gravity, Some(1.010));
        // The crash (the last rest, its days planned as a fallback) has no times to change.
        assert_eq!(at_min.due[0].next, None);
        carry_out(&mut steps, &at_min, day(3.0));
        assert_eq!(with_ends(steps)[0].ended_by, Some(EndCondition::Gravity));
    }

    #[test]
    fn an_early_gravity_that_rose_again_waits_for_the_next_reading() {
        let mut steps = schedule(&gravity_with_fallback(), 1);
        let early = on_reading(&steps, 1.012, Some(1.050), day(1.0));
        carry_out(&mut steps, &early, day(1.0));
        // The latest reading is above 1.012 again (a noisy hydrometer): nothing ends.
        let clock = on_clock(&steps, Some(1.013), Some(1.050), day(3.0));
        assert!(clock.due.is_empty());
        assert_eq!(clock.no_longer_met, [1, 2]);
        carry_out(&mut steps, &clock, day(3.0));
        assert!(!clock_needs_gravity(&steps, day(3.1)));
        // A reading after the minimum that meets the condition ends it at once.
        let later = on_reading(&steps, 1.011, Some(1.050), day(4.0));
        assert_eq!(
            indexes(&later),
            [(1, EndCondition::Gravity), (2, EndCondition::Gravity)]
        );
    }

    #[test]
    fn days_elapsed_end_the_step_by_time_when_gravity_never_came() {
        let mut steps = schedule(&gravity_with_fallback(), 1);
        assert!(on_clock(&steps, Some(1.020), Some(1.050), day(9.9)).is_empty());
        let dry_hop = on_clock(&steps, Some(1.020), Some(1.050), day(10.0));
        assert_eq!(indexes(&dry_hop), [(2, EndCondition::Time)]);
        carry_out(&mut steps, &dry_hop, day(10.0));
        let end = on_clock(&steps, Some(1.020), Some(1.050), day(14.0));
        assert_eq!(indexes(&end), [(1, EndCondition::Time)]);
        assert_eq!(end.due[0].gravity, None);
        carry_out(&mut steps, &end, day(14.0));
        let shown = with_ends(steps);
        assert_eq!(shown[0].ended_by, Some(EndCondition::Time));
        assert_eq!(shown[0].ended_at, Some(day(14.0)));
        assert_eq!(shown[1].due_by, Some(EndCondition::Time));
    }

    #[test]
    fn a_step_ended_early_moves_the_chain_after_it() {
        let snapshot = json!({
            "fermentation_steps": [
                {"name": "Primary", "temperature_c": 18.0, "days": 10.0, "until_gravity": 1.012},
                {"name": "Diacetyl", "temperature_c": 21.0, "days": 3.0, "min_days": 1.0,
                 "until_gravity": 1.008},
                {"name": "Crash", "temperature_c": 1.0, "days": 2.0},
            ],
        });
        let mut steps = schedule(&snapshot, 1);
        assert_eq!(steps[2].due_at, Some(day(13.0)));
        let advance = on_reading(&steps, 1.011, Some(1.050), day(4.0));
        assert_eq!(indexes(&advance), [(1, EndCondition::Gravity)]);
        assert_eq!(
            advance.due[0].next,
            Some(Retimed {
                index: 2,
                due_at: Some(day(7.0)),
                due_at_gravity_from: Some(day(5.0)),
            })
        );
        carry_out(&mut steps, &advance, day(4.0));
        // The same reading's gravity would not end the diacetyl rest before its minimum.
        assert!(
            on_reading(&steps, 1.007, Some(1.050), day(4.5))
                .due
                .is_empty()
        );
        assert_eq!(
            indexes(&on_clock(&steps, None, Some(1.050), day(7.0))),
            [(2, EndCondition::Time)]
        );
    }

    #[test]
    fn the_clock_never_makes_a_rest_due_before_the_one_before_it() {
        let snapshot = json!({
            "fermentation_steps": [
                {"name": "Primary", "temperature_c": 18.0, "until_gravity": 1.012},
                {"name": "Warm", "temperature_c": 21.0, "until_gravity": 1.008},
                {"name": "Crash", "temperature_c": 1.0, "days": 2.0},
            ],
        });
        let mut steps = schedule(&snapshot, 1);
        // A time on the crash while the warm rest still waits (as a stale row may have) is not
        // enough.
        steps[2].due_at = Some(day(1.0));
        assert!(on_clock(&steps, None, None, day(2.0)).due.is_empty());
    }

    #[test]
    fn an_older_schedules_reason_is_inferred_only_where_it_is_certain() {
        let at = Some(START);
        assert_eq!(
            EndCondition::inferred(at, None, None),
            Some(EndCondition::Time)
        );
        assert_eq!(
            EndCondition::inferred(None, Some(1.012), None),
            Some(EndCondition::Gravity)
        );
        assert_eq!(
            EndCondition::inferred(None, None, Some(75.0)),
            Some(EndCondition::Attenuation)
        );
        assert_eq!(EndCondition::inferred(None, Some(1.012), Some(75.0)), None);
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
