//! What is happening now for one brewer (`GET /v1/home`): the sessions brewing or fermenting,
//! each with the day of its phase, how far fermentation has gone and the next step of its
//! schedule, and the checklist timers that run or wait paused.
//!
//! The rules:
//! * A session is shown while it is `brewing` or `fermenting`, fermenting first, then by the
//!   newest phase start.
//! * `day` counts the phase's elapsed 24-hour periods from the moment the session entered it,
//!   the first being day 1: a session that started fermenting on Monday at 20:00 is on day 2
//!   from Tuesday 20:00. A time zone–free count: the server does not know the brewer's clock.
//! * `next_step` is the first step of the fermentation schedule that has not become due yet (a
//!   rest or a dry hop), with when it is due or the gravity or attenuation it waits for.
//! * A timer is shown while it is running (before its end) or paused, in a session that is
//!   not final; running ones first, the soonest to end first, then paused ones.

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{BrewSession, BrewStep, FermentationSoFar, SessionStatus};
use super::schedule::ScheduledStep;
use super::timer::TimerState;

const SECONDS_PER_DAY: i64 = 86_400;

/// What the store reads for the home page; [`Home::of`] decides what of it is shown and how.
#[derive(Debug, Clone, Default)]
pub struct HomeParts {
    /// The caller's sessions that are `brewing` or `fermenting`.
    pub sessions: Vec<BrewSession>,
    /// Their fermentation schedules' steps that have not become due, in schedule order.
    pub waiting_steps: Vec<ScheduledStep>,
    /// `(session id, step done)` for every checklist step of those sessions.
    pub checklist: Vec<(Uuid, bool)>,
    /// Checklist steps whose stored timer is running or paused, in sessions that are not final,
    /// each with its session's name; their timers already seen at `now`.
    pub timers: Vec<(BrewStep, String)>,
}

/// `GET /v1/home`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Home {
    /// Sessions brewing or fermenting: fermenting first, then the newest phase first.
    pub sessions: Vec<ActiveSession>,
    /// Timers running (soonest end first), then paused ones.
    pub timers: Vec<HomeTimer>,
}

/// A session brewing or fermenting, as the home page shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ActiveSession {
    pub id: Uuid,
    pub name: String,
    pub status: SessionStatus,
    pub recipe_id: Option<Uuid>,
    #[serde(serialize_with = "crate::timestamp::serialize_date")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = Date))]
    pub brew_date: time::Date,
    /// When the session entered its current status.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub phase_started_at: Option<OffsetDateTime>,
    /// The day of the current status: 1 in its first 24 hours, 2 in the next, and so on.
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub day: Option<i64>,
    /// Original and latest gravity, apparent attenuation and ABV so far (as on the session).
    pub fermentation: FermentationSoFar,
    /// Checklist steps ticked, of how many.
    pub checklist_done: i64,
    pub checklist_total: i64,
    /// The first step of the fermentation schedule not due yet; null when none waits.
    pub next_step: Option<ScheduledStep>,
}

/// A checklist step whose timer runs or is paused.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HomeTimer {
    pub session_id: Uuid,
    pub session_name: String,
    /// The step, its text in the caller's units, its `timer` seen now.
    pub step: BrewStep,
}

/// The day of a phase that started at `start`, seen at `now`: 1 during the first 24 hours.
pub fn phase_day(start: OffsetDateTime, now: OffsetDateTime) -> i64 {
    let elapsed = (now - start).whole_seconds().max(0);
    elapsed / SECONDS_PER_DAY + 1
}

impl Home {
    pub fn of(parts: HomeParts, now: OffsetDateTime) -> Home {
        let HomeParts {
            sessions,
            waiting_steps,
            checklist,
            timers,
        } = parts;
        let mut shown: Vec<ActiveSession> = sessions
            .into_iter()
            .filter(|s| matches!(s.status, SessionStatus::Brewing | SessionStatus::Fermenting))
            .map(|s| {
                let phase_started_at = match s.status {
                    SessionStatus::Fermenting => s.fermenting_started_at,
                    _ => s.brewing_started_at,
                };
                let steps = checklist.iter().filter(|(id, _)| *id == s.id);
                let next_step = waiting_steps
                    .iter()
                    .filter(|w| w.session_id == s.id && !w.due)
                    .min_by_key(|w| w.sort_order)
                    .cloned();
                ActiveSession {
                    day: phase_started_at.map(|start| phase_day(start, now)),
                    checklist_done: steps.clone().filter(|(_, done)| *done).count() as i64,
                    checklist_total: steps.count() as i64,
                    next_step,
                    phase_started_at,
                    fermentation: s.fermentation,
                    id: s.id,
                    name: s.name,
                    status: s.status,
                    recipe_id: s.recipe_id,
                    brew_date: s.brew_date,
                }
            })
            .collect();
        shown.sort_by(|a, b| {
            let rank = |s: &ActiveSession| u8::from(s.status != SessionStatus::Fermenting);
            rank(a)
                .cmp(&rank(b))
                .then(b.phase_started_at.cmp(&a.phase_started_at))
                .then(a.id.cmp(&b.id))
        });
        let mut timers: Vec<HomeTimer> = timers
            .into_iter()
            .filter(|(step, _)| {
                step.timer
                    .is_some_and(|t| matches!(t.state, TimerState::Running | TimerState::Paused))
            })
            .map(|(step, session_name)| HomeTimer {
                session_id: step.session_id,
                session_name,
                step,
            })
            .collect();
        timers.sort_by(|a, b| {
            let key = |t: &HomeTimer| {
                let timer = t.step.timer;
                (
                    u8::from(timer.is_none_or(|t| t.state != TimerState::Running)),
                    timer.and_then(|t| t.ends_at),
                    timer.map(|t| t.remaining_seconds.to_bits()),
                )
            };
            key(a).cmp(&key(b)).then(a.step.id.cmp(&b.step.id))
        });
        Home {
            sessions: shown,
            timers,
        }
    }
}

#[cfg(test)]
mod tests {
    use time::Duration;
    use time::macros::datetime;

    use super::*;
    use crate::brew_session::schedule::ScheduledStepKind;
    use crate::brew_session::timer::StepTimer;

    const NOW: OffsetDateTime = datetime!(2026-11-29 12:00 UTC);

    fn session(name: &str, status: SessionStatus, started: Option<OffsetDateTime>) -> BrewSession {
        let fermenting = status == SessionStatus::Fermenting;
        BrewSession {
            id: Uuid::new_v4(),
            user_id: Uuid::nil().to_string(),
            recipe_id: None,
            recipe_version: None,
            name: name.into(),
            brew_date: NOW.date(),
            status,
            next_statuses: status.next_statuses(),
            measured_og: None,
            measured_fg: None,
            measured_batch_size_liters: None,
            measured_abv: None,
            fermentation: FermentationSoFar::of(Some(1.05), Some(1.02)),
            brewhouse: Default::default(),
            measured_mash_ph: None,
            predicted_mash_ph: None,
            notes: None,
            recipe_snapshot: serde_json::Value::Null,
            brewing_started_at: if fermenting { None } else { started },
            fermenting_started_at: if fermenting { started } else { None },
            conditioning_started_at: None,
            completed_at: None,
            abandoned_at: None,
            created_at: NOW,
            updated_at: NOW,
        }
    }

    fn scheduled(session_id: Uuid, name: &str, order: i32, due: bool) -> ScheduledStep {
        ScheduledStep {
            id: Uuid::new_v4(),
            session_id,
            kind: ScheduledStepKind::Rest,
            name: name.into(),
            temperature_c: Some(19.0),
            amount_grams: None,
            due_at: Some(NOW + Duration::days(2)),
            due_at_gravity: None,
            due_at_attenuation_percent: None,
            due_at_gravity_from: None,
            days_after_previous: None,
            min_days_after_previous: None,
            due,
            became_due_at: None,
            due_by: None,
            ended_at: None,
            ended_by: None,
            ended_gravity: None,
            sort_order: order,
            due_gravity: None,
            condition_met_early: false,
        }
    }

    fn step(session_id: Uuid, title: &str, state: TimerState, ends_in: Option<i64>) -> BrewStep {
        BrewStep {
            id: Uuid::new_v4(),
            session_id,
            title: title.into(),
            description: None,
            sort_order: 0,
            duration_minutes: Some(60.0),
            boil: false,
            boil_addition_at: None,
            quantities: Vec::new(),
            timer: Some(StepTimer {
                state,
                started_at: Some(NOW - Duration::minutes(10)),
                ends_at: ends_in.map(|m| NOW + Duration::minutes(m)),
                remaining_seconds: ends_in.map_or(600.0, |m| (m * 60) as f64),
            }),
            completed: false,
            completed_at: None,
            created_at: NOW,
        }
    }

    #[test]
    fn the_day_of_a_phase_counts_whole_days_from_its_start() {
        let start = datetime!(2026-11-23 20:00 UTC);
        assert_eq!(phase_day(start, start), 1);
        assert_eq!(phase_day(start, datetime!(2026-11-24 19:59 UTC)), 1);
        assert_eq!(phase_day(start, datetime!(2026-11-24 20:00 UTC)), 2);
        assert_eq!(phase_day(start, NOW), 6);
        // A clock behind the start (another instance's) still says day 1.
        assert_eq!(phase_day(start, start - Duration::hours(1)), 1);
    }

    #[test]
    fn sessions_show_their_day_checklist_and_next_waiting_step() {
        let fermenting = session(
            "Pale",
            SessionStatus::Fermenting,
            Some(datetime!(2026-11-25 08:00 UTC)),
        );
        let brewing = session(
            "Stout",
            SessionStatus::Brewing,
            Some(NOW - Duration::hours(3)),
        );
        let done = scheduled(fermenting.id, "Primary", 0, true);
        let rest = scheduled(fermenting.id, "Diacetyl rest", 2, false);
        let dry_hop = scheduled(fermenting.id, "Citra", 1, false);
        let parts = HomeParts {
            sessions: vec![brewing.clone(), fermenting.clone()],
            waiting_steps: vec![done, rest, dry_hop.clone()],
            checklist: vec![(brewing.id, true), (brewing.id, false), (brewing.id, true)],
            timers: Vec::new(),
        };
        let home = Home::of(parts, NOW);
        let names: Vec<_> = home.sessions.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Pale", "Stout"], "fermenting first");
        let pale = &home.sessions[0];
        assert_eq!(pale.day, Some(5));
        assert_eq!(
            pale.next_step.as_ref().map(|s| s.name.as_str()),
            Some("Citra")
        );
        assert_eq!((pale.checklist_done, pale.checklist_total), (0, 0));
        let stout = &home.sessions[1];
        assert_eq!(stout.day, Some(1));
        assert_eq!(stout.next_step, None);
        assert_eq!((stout.checklist_done, stout.checklist_total), (2, 3));
    }

    #[test]
    fn other_statuses_are_not_shown() {
        let parts = HomeParts {
            sessions: vec![
                session("Planned", SessionStatus::Planned, None),
                session("Done", SessionStatus::Completed, None),
            ],
            ..HomeParts::default()
        };
        assert!(Home::of(parts, NOW).sessions.is_empty());
    }

    #[test]
    fn running_timers_come_first_soonest_end_first_then_paused_ones() {
        let id = Uuid::new_v4();
        let parts = HomeParts {
            timers: vec![
                (step(id, "Paused", TimerState::Paused, None), "A".into()),
                (step(id, "Boil", TimerState::Running, Some(50)), "A".into()),
                (step(id, "Mash", TimerState::Running, Some(5)), "A".into()),
                (step(id, "Over", TimerState::Done, Some(-1)), "A".into()),
                (step(id, "Idle", TimerState::Idle, None), "A".into()),
            ],
            ..HomeParts::default()
        };
        let home = Home::of(parts, NOW);
        let titles: Vec<_> = home.timers.iter().map(|t| t.step.title.as_str()).collect();
        assert_eq!(titles, ["Mash", "Boil", "Paused"]);
        assert_eq!(home.timers[0].session_name, "A");
    }
}
