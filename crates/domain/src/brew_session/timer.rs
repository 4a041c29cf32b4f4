//! A checklist step's timer, kept on the server so every device shows the same countdown.
//!
//! A step with a duration has a timer; its state machine:
//!
//! ```text
//!   idle ──start──▶ running ──(ends_at passes)──▶ done
//!    ▲               │  ▲
//!    │             pause resume
//!    │               ▼  │
//!    └──reset─── paused (reset also from running and done)
//! ```
//!
//! * `start` only from `idle`: a second device (or a reload) pressing start on a running timer
//!   is refused, never a restart.
//! * `pause` only while running and not yet done; `resume` only when paused.
//! * `reset` from any state, idle included (a no-op there), so two devices resetting together
//!   both succeed.
//! * `done` is never written by an action: it is computed when the step is read, from `ends_at`
//!   and the clock then. A stored running timer whose `ends_at` has passed reads as `done` with 0
//!   seconds left.
//!
//! Any other action is `422 invalid_transition` naming the state it came `from` and the `action`.

use serde::Serialize;
use time::{Duration, OffsetDateTime};

use crate::error::Violation;
use crate::{DomainError, DomainResult};

/// Where a step's timer is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TimerState {
    #[default]
    Idle,
    Running,
    Paused,
    /// Computed when read: a running timer whose `ends_at` has passed.
    Done,
}

impl TimerState {
    pub const ALL: &[Self] = &[Self::Idle, Self::Running, Self::Paused, Self::Done];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Idle => "idle",
            Self::Running => "running",
            Self::Paused => "paused",
            Self::Done => "done",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == s)
    }
}

/// What a client asks a timer to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TimerAction {
    Start,
    Pause,
    Resume,
    Reset,
}

impl TimerAction {
    pub const ALL: &[Self] = &[Self::Start, Self::Pause, Self::Resume, Self::Reset];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Start => "start",
            Self::Pause => "pause",
            Self::Resume => "resume",
            Self::Reset => "reset",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == s)
    }
}

/// A step's timer as every device sees it at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StepTimer {
    pub state: TimerState,
    /// When it was first started (kept through pauses); null while idle.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub started_at: Option<OffsetDateTime>,
    /// When it reaches zero while running (or reached it, once done); null while idle or
    /// paused. A client counts down from this instant locally.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub ends_at: Option<OffsetDateTime>,
    /// Seconds left at the moment of the answer: the whole duration while idle, what was left
    /// when paused, 0 once done.
    pub remaining_seconds: f64,
}

/// A duration in seconds from the step's minutes; a step without a positive duration has no
/// timer.
fn total_seconds(duration_minutes: Option<f64>) -> Option<f64> {
    duration_minutes
        .filter(|m| m.is_finite() && *m > 0.0)
        .map(|m| m * 60.0)
}

fn seconds(d: Duration) -> f64 {
    (d.as_seconds_f64() * 1000.0).round() / 1000.0
}

/// `secs` after `at`, to the microsecond the database keeps.
fn after(at: OffsetDateTime, secs: f64) -> OffsetDateTime {
    crate::timestamp::to_db_precision(at + Duration::seconds_f64(secs))
}

impl StepTimer {
    /// The timer as stored (`state`, the two instants, the seconds left when paused) seen at
    /// `now`; `None` for a step without a duration. An unknown or inconsistent stored state
    /// reads as idle.
    pub fn at(
        state: TimerState,
        started_at: Option<OffsetDateTime>,
        ends_at: Option<OffsetDateTime>,
        paused_remaining: Option<f64>,
        duration_minutes: Option<f64>,
        now: OffsetDateTime,
    ) -> Option<StepTimer> {
        let total = total_seconds(duration_minutes)?;
        let idle = StepTimer {
            state: TimerState::Idle,
            started_at: None,
            ends_at: None,
            remaining_seconds: total,
        };
        Some(match (state, ends_at, paused_remaining) {
            (TimerState::Running | TimerState::Done, Some(end), _) => {
                if end <= now {
                    StepTimer {
                        state: TimerState::Done,
                        started_at,
                        ends_at: Some(end),
                        remaining_seconds: 0.0,
                    }
                } else {
                    StepTimer {
                        state: TimerState::Running,
                        started_at,
                        ends_at: Some(end),
                        remaining_seconds: seconds(end - now),
                    }
                }
            }
            (TimerState::Paused, _, Some(left)) => StepTimer {
                state: TimerState::Paused,
                started_at,
                ends_at: None,
                remaining_seconds: left.max(0.0),
            },
            _ => idle,
        })
    }

    /// The seconds left to store: only a paused timer keeps them (a running one counts from
    /// `ends_at`, an idle one from the duration).
    pub fn paused_remaining(&self) -> Option<f64> {
        (self.state == TimerState::Paused).then_some(self.remaining_seconds)
    }

    /// The timer after `action` at `now` (`self` seen at `now`, as [`StepTimer::at`] gives it),
    /// or `422 invalid_transition`. `duration_minutes` is the step's, for a reset.
    pub fn act(
        self,
        action: TimerAction,
        duration_minutes: Option<f64>,
        now: OffsetDateTime,
    ) -> DomainResult<StepTimer> {
        use TimerAction as A;
        use TimerState as S;
        match (self.state, action) {
            (S::Idle, A::Start) => Ok(StepTimer {
                state: S::Running,
                started_at: Some(now),
                ends_at: Some(after(now, self.remaining_seconds)),
                remaining_seconds: self.remaining_seconds,
            }),
            (S::Running, A::Pause) => Ok(StepTimer {
                state: S::Paused,
                started_at: self.started_at,
                ends_at: None,
                remaining_seconds: self.remaining_seconds,
            }),
            (S::Paused, A::Resume) => Ok(StepTimer {
                state: S::Running,
                started_at: self.started_at,
                ends_at: Some(after(now, self.remaining_seconds)),
                remaining_seconds: self.remaining_seconds,
            }),
            (_, A::Reset) => Ok(StepTimer {
                state: S::Idle,
                started_at: None,
                ends_at: None,
                remaining_seconds: total_seconds(duration_minutes).unwrap_or(0.0),
            }),
            (from, action) => Err(invalid_timer_action(Some(from), action)),
        }
    }
}

/// `422 invalid_transition` for an action the timer cannot take now; `from: None` is a step
/// without a duration, which has no timer at all.
pub fn invalid_timer_action(from: Option<TimerState>, action: TimerAction) -> DomainError {
    let message = match from {
        Some(from) => format!("A {} timer cannot {}", from.as_str(), action.as_str()),
        None => "This step has no duration, so it has no timer".to_owned(),
    };
    DomainError::invalid(
        Violation::new("invalid_transition", &["action"], message)
            .with("from", from.map_or("none", |s| s.as_str()))
            .with("action", action.as_str()),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use TimerAction as A;
    use TimerState as S;
    use time::macros::datetime;

    const T0: OffsetDateTime = datetime!(2026-11-28 09:00:00 UTC);
    const HOUR: Option<f64> = Some(60.0);

    fn idle() -> StepTimer {
        StepTimer::at(S::Idle, None, None, None, HOUR, T0).unwrap()
    }

    fn secs(n: i64) -> Duration {
        Duration::seconds(n)
    }

    /// Seen again at `now` the way a read would see what was stored.
    fn reread(t: StepTimer, now: OffsetDateTime) -> StepTimer {
        StepTimer::at(
            t.state,
            t.started_at,
            t.ends_at,
            t.paused_remaining(),
            HOUR,
            now,
        )
        .unwrap()
    }

    #[test]
    fn a_step_without_a_positive_duration_has_no_timer() {
        assert_eq!(StepTimer::at(S::Idle, None, None, None, None, T0), None);
        assert_eq!(
            StepTimer::at(S::Idle, None, None, None, Some(0.0), T0),
            None
        );
    }

    #[test]
    fn an_idle_timer_shows_the_whole_duration() {
        let t = idle();
        assert_eq!(t.state, S::Idle);
        assert_eq!(t.remaining_seconds, 3600.0);
        assert_eq!((t.started_at, t.ends_at), (None, None));
    }

    #[test]
    fn start_runs_it_to_now_plus_the_duration() {
        let t = idle().act(A::Start, HOUR, T0).unwrap();
        assert_eq!(t.state, S::Running);
        assert_eq!(t.started_at, Some(T0));
        assert_eq!(t.ends_at, Some(T0 + secs(3600)));
        // Another device reading 10 minutes later sees the same countdown, not a fresh one.
        let later = reread(t, T0 + secs(600));
        assert_eq!(later.state, S::Running);
        assert_eq!(later.remaining_seconds, 3000.0);
        assert_eq!(later.ends_at, t.ends_at);
    }

    #[test]
    fn done_is_computed_when_ends_at_has_passed() {
        let t = idle().act(A::Start, HOUR, T0).unwrap();
        let at_end = reread(t, T0 + secs(3600));
        assert_eq!(at_end.state, S::Done);
        assert_eq!(at_end.remaining_seconds, 0.0);
        assert_eq!(at_end.ends_at, Some(T0 + secs(3600)));
        let just_before = reread(t, T0 + secs(3599));
        assert_eq!(just_before.state, S::Running);
        assert_eq!(just_before.remaining_seconds, 1.0);
    }

    #[test]
    fn pause_keeps_what_is_left_and_resume_counts_on_from_it() {
        let running = idle().act(A::Start, HOUR, T0).unwrap();
        let paused = reread(running, T0 + secs(900))
            .act(A::Pause, HOUR, T0 + secs(900))
            .unwrap();
        assert_eq!(paused.state, S::Paused);
        assert_eq!(paused.remaining_seconds, 2700.0);
        assert_eq!(paused.ends_at, None);
        assert_eq!(paused.started_at, Some(T0));
        // A paused timer does not move, however long it waits.
        let much_later = reread(paused, T0 + secs(86_400));
        assert_eq!(much_later, paused);
        let resumed = much_later.act(A::Resume, HOUR, T0 + secs(86_400)).unwrap();
        assert_eq!(resumed.state, S::Running);
        assert_eq!(resumed.ends_at, Some(T0 + secs(86_400 + 2700)));
        assert_eq!(resumed.started_at, Some(T0));
    }

    #[test]
    fn reset_from_every_state_is_idle_with_the_whole_duration() {
        let running = idle().act(A::Start, HOUR, T0).unwrap();
        let paused = running.act(A::Pause, HOUR, T0).unwrap();
        let done = reread(running, T0 + secs(7200));
        for t in [idle(), running, paused, done] {
            let r = t.act(A::Reset, HOUR, T0).unwrap();
            assert_eq!(r, idle(), "{:?}", t.state);
        }
    }

    #[test]
    fn every_impossible_action_is_an_invalid_transition_naming_from_and_action() {
        let running = idle().act(A::Start, HOUR, T0).unwrap();
        let paused = running.act(A::Pause, HOUR, T0).unwrap();
        let done = reread(running, T0 + secs(3600));
        let refused = [
            (idle(), A::Pause),
            (idle(), A::Resume),
            (running, A::Start),
            (running, A::Resume),
            (paused, A::Start),
            (paused, A::Pause),
            (done, A::Start),
            (done, A::Pause),
            (done, A::Resume),
        ];
        for (t, action) in refused {
            let Err(DomainError::Invalid(v)) = t.act(action, HOUR, T0) else {
                panic!("{:?} {action:?} was allowed", t.state)
            };
            assert_eq!(v[0].code, "invalid_transition");
            assert_eq!(v[0].extra["from"], t.state.as_str());
            assert_eq!(v[0].extra["action"], action.as_str());
        }
        // And the allowed ones are exactly the rest: 4 states × 4 actions = 9 refused + 7 allowed.
        let mut allowed = 0;
        for t in [idle(), running, paused, done] {
            for action in TimerAction::ALL {
                allowed += usize::from(t.act(*action, HOUR, T0).is_ok());
            }
        }
        assert_eq!(allowed, 7);
    }

    #[test]
    fn a_timer_less_step_refuses_with_from_none() {
        let Err(DomainError::Invalid(v)) = Err::<(), _>(invalid_timer_action(None, A::Start))
        else {
            panic!()
        };
        assert_eq!(v[0].extra["from"], "none");
    }

    #[test]
    fn states_and_actions_round_trip_their_names() {
        for s in TimerState::ALL {
            assert_eq!(TimerState::parse(s.as_str()), Some(*s));
        }
        for a in TimerAction::ALL {
            assert_eq!(TimerAction::parse(a.as_str()), Some(*a));
        }
        assert_eq!(TimerAction::parse("restart"), None);
    }
}
