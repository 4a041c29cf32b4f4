//! Whether a rule's condition holds, and what that means for its alert: raise it (once, while
//! none is active), clear it (once the condition is false again), or leave it as it is. Pure, so
//! the decisions are tested without a database; the store carries them out so that each raise and
//! each clear happens once however many instances judge at the same time.
//!
//! The conditions:
//! * `gravity_below` / `gravity_above`: the latest gravity is below / above the mark.
//! * `temperature_outside`: the latest temperature is below `min_c` or above `max_c`; the alert
//!   clears only once it is back within `[min_c + 0.5, max_c - 0.5]` (hysteresis).
//! * `stalled`: the mean gravity of the last hour is less than `points` below the mean of the hour
//!   that ended `hours` ago, while the gravity is still above the recipe's predicted FG (by more
//!   than 0.001, the same closeness the forecast calls finished). Means of an hour rather than
//!   single readings, so a hydrometer's noise of a point or two neither hides nor fakes a stall.
//!   Without a predicted FG the stall is judged on the change alone.
//! * `device_silent`: the device last posted (or was registered, never having posted) more than
//!   `minutes` ago.
//!
//! A fact that is not known (no reading with a temperature, a window the readings do not cover
//! yet) raises nothing and clears nothing.

use std::collections::HashSet;

use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{AlertKind, Facts, Thresholds, Watch, WatchKey};
use super::rules::TEMPERATURE_HYSTERESIS_C;

/// What judging one watch says.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The condition holds: an alert with this value and message, unless one is active.
    Raise { value: f64, message: String },
    /// The condition no longer holds: the active alert, if any, clears.
    Clear,
    /// Not known, or within the hysteresis: nothing changes.
    Keep,
}

/// The gravity closer than this to the predicted FG counts as there.
const AT_FG: f64 = 0.001;

fn sg(g: f64) -> String {
    format!("{g:.3}")
}

fn celsius(c: f64) -> String {
    let rounded = (c * 10.0).round() / 10.0;
    format!("{rounded} °C")
}

/// Judges one rule against the facts, knowing whether its alert is `active`.
pub fn judge(
    kind: AlertKind,
    t: &Thresholds,
    facts: &Facts,
    active: bool,
    now: OffsetDateTime,
) -> Verdict {
    let raise = |value: f64, message: String| Verdict::Raise { value, message };
    match kind {
        AlertKind::GravityBelow => match (facts.gravity, t.gravity) {
            (Some(g), Some(mark)) if g < mark => {
                raise(g, format!("Gravity {} is below {}", sg(g), sg(mark)))
            }
            (Some(_), Some(_)) => Verdict::Clear,
            _ => Verdict::Keep,
        },
        AlertKind::GravityAbove => match (facts.gravity, t.gravity) {
            (Some(g), Some(mark)) if g > mark => {
                raise(g, format!("Gravity {} is above {}", sg(g), sg(mark)))
            }
            (Some(_), Some(_)) => Verdict::Clear,
            _ => Verdict::Keep,
        },
        AlertKind::TemperatureOutside => {
            let (Some(c), Some(min), Some(max)) = (facts.temperature_c, t.min_c, t.max_c) else {
                return Verdict::Keep;
            };
            if c < min {
                raise(
                    c,
                    format!("Temperature {} is below {}", celsius(c), celsius(min)),
                )
            } else if c > max {
                raise(
                    c,
                    format!("Temperature {} is above {}", celsius(c), celsius(max)),
                )
            } else if !active
                || (min + TEMPERATURE_HYSTERESIS_C..=max - TEMPERATURE_HYSTERESIS_C).contains(&c)
            {
                Verdict::Clear
            } else {
                Verdict::Keep
            }
        }
        AlertKind::Stalled => {
            let (Some(w), Some(points), Some(hours)) = (facts.window, t.points, t.hours) else {
                return Verdict::Keep;
            };
            let moved = (w.earlier_gravity - w.recent_gravity) * 1000.0;
            let above_fg = facts
                .predicted_fg
                .is_none_or(|fg| w.recent_gravity > fg + AT_FG);
            if moved < points && above_fg {
                let moved = (moved * 10.0).round() / 10.0;
                let fg = facts
                    .predicted_fg
                    .map(|fg| format!(", above the predicted FG {}", sg(fg)))
                    .unwrap_or_default();
                raise(
                    moved,
                    format!(
                        "Gravity moved {moved} points in {hours} hours ({} to {}){fg}",
                        sg(w.earlier_gravity),
                        sg(w.recent_gravity)
                    ),
                )
            } else {
                Verdict::Clear
            }
        }
        AlertKind::DeviceSilent => {
            let (Some(heard), Some(minutes)) = (facts.device_heard_at, t.minutes) else {
                return Verdict::Keep;
            };
            let quiet = (now - heard).whole_minutes();
            if quiet > minutes {
                raise(
                    quiet as f64,
                    format!("The device has not posted for {quiet} minutes"),
                )
            } else {
                Verdict::Clear
            }
        }
    }
}

/// An alert that is active, as the judge needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActiveAlert {
    pub id: Uuid,
    pub user_id: Uuid,
    pub key: WatchKey,
}

/// A change to carry out. The store makes each happen once: a raise inserts only while no alert
/// of its watch is active, a clear updates only an alert not yet cleared, and each writes its
/// webhook event only when it did.
#[derive(Debug, Clone, PartialEq)]
pub enum AlertChange {
    Raise {
        user_id: Uuid,
        kind: AlertKind,
        key: WatchKey,
        value: f64,
        message: String,
    },
    Clear {
        user_id: Uuid,
        alert_id: Uuid,
    },
}

/// How much of the account's watching a pass saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// Every watch there is (the clock's pass): an active alert whose watch is gone (its rule
    /// disabled, its session no longer fermenting, its device moved) clears.
    Everything,
    /// Only some watches (a reading's, of one session): other alerts are left alone.
    These,
}

/// The changes that judging `watches` against the `active` alerts calls for.
pub fn changes(
    watches: &[Watch],
    active: &[ActiveAlert],
    coverage: Coverage,
    now: OffsetDateTime,
) -> Vec<AlertChange> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for watch in watches {
        let key = watch.key();
        seen.insert(key);
        let current = active.iter().find(|a| a.key == key);
        match (
            judge(
                watch.kind,
                &watch.thresholds,
                &watch.facts,
                current.is_some(),
                now,
            ),
            current,
        ) {
            (Verdict::Raise { value, message }, None) => out.push(AlertChange::Raise {
                user_id: watch.user_id,
                kind: watch.kind,
                key,
                value,
                message,
            }),
            (Verdict::Clear, Some(alert)) => out.push(AlertChange::Clear {
                user_id: alert.user_id,
                alert_id: alert.id,
            }),
            _ => {}
        }
    }
    if coverage == Coverage::Everything {
        for alert in active.iter().filter(|a| !seen.contains(&a.key)) {
            out.push(AlertChange::Clear {
                user_id: alert.user_id,
                alert_id: alert.id,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::alert::model::StallWindow;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-12-07 12:00 UTC);

    fn band() -> Thresholds {
        Thresholds {
            min_c: Some(18.0),
            max_c: Some(21.0),
            ..Thresholds::default()
        }
    }

    fn temperature(c: f64) -> Facts {
        Facts {
            temperature_c: Some(c),
            ..Facts::default()
        }
    }

    #[test]
    fn temperature_raises_outside_the_band_and_clears_half_a_degree_inside() {
        let judge_at = |c, active| {
            judge(
                AlertKind::TemperatureOutside,
                &band(),
                &temperature(c),
                active,
                NOW,
            )
        };
        assert!(matches!(judge_at(21.2, false), Verdict::Raise { value, .. } if value == 21.2));
        assert!(matches!(judge_at(17.9, false), Verdict::Raise { .. }));
        // Back inside but within the hysteresis: an active alert stays.
        assert_eq!(judge_at(20.8, true), Verdict::Keep);
        assert_eq!(judge_at(18.3, true), Verdict::Keep);
        assert_eq!(judge_at(20.5, true), Verdict::Clear);
        assert_eq!(judge_at(18.5, true), Verdict::Clear);
        // Without an alert, inside is simply fine.
        assert_eq!(judge_at(20.8, false), Verdict::Clear);
        let message = match judge_at(23.44, false) {
            Verdict::Raise { message, .. } => message,
            other => panic!("{other:?}"),
        };
        assert_eq!(message, "Temperature 23.4 °C is above 21 °C");
    }

    #[test]
    fn gravity_marks_are_strict() {
        let mark = Thresholds {
            gravity: Some(1.016),
            ..Thresholds::default()
        };
        let at = |g| Facts {
            gravity: Some(g),
            ..Facts::default()
        };
        assert!(matches!(
            judge(AlertKind::GravityBelow, &mark, &at(1.015), false, NOW),
            Verdict::Raise { .. }
        ));
        assert_eq!(
            judge(AlertKind::GravityBelow, &mark, &at(1.016), true, NOW),
            Verdict::Clear
        );
        assert!(matches!(
            judge(AlertKind::GravityAbove, &mark, &at(1.017), false, NOW),
            Verdict::Raise { .. }
        ));
        assert_eq!(
            judge(AlertKind::GravityAbove, &mark, &Facts::default(), true, NOW),
            Verdict::Keep
        );
    }

    #[test]
    fn a_stall_is_little_change_above_the_predicted_fg() {
        let rule = Thresholds {
            points: Some(2.0),
            hours: Some(48.0),
            ..Thresholds::default()
        };
        let facts = |earlier, recent, fg| Facts {
            window: Some(StallWindow {
                earlier_gravity: earlier,
                recent_gravity: recent,
            }),
            predicted_fg: fg,
            ..Facts::default()
        };
        let stalled = judge(
            AlertKind::Stalled,
            &rule,
            &facts(1.0306, 1.0300, Some(1.012)),
            false,
            NOW,
        );
        match stalled {
            Verdict::Raise { value, message } => {
                assert_eq!(value, 0.6);
                assert_eq!(
                    message,
                    "Gravity moved 0.6 points in 48 hours (1.031 to 1.030), above the predicted FG 1.012"
                );
            }
            other => panic!("{other:?}"),
        }
        // Moving enough: no stall.
        assert_eq!(
            judge(
                AlertKind::Stalled,
                &rule,
                &facts(1.035, 1.030, Some(1.012)),
                true,
                NOW
            ),
            Verdict::Clear
        );
        // Still, but at the predicted FG: finished, not stalled.
        assert_eq!(
            judge(
                AlertKind::Stalled,
                &rule,
                &facts(1.0125, 1.0125, Some(1.012)),
                false,
                NOW
            ),
            Verdict::Clear
        );
        // No predicted FG: the change alone.
        assert!(matches!(
            judge(
                AlertKind::Stalled,
                &rule,
                &facts(1.0125, 1.0125, None),
                false,
                NOW
            ),
            Verdict::Raise { .. }
        ));
        // Readings not covering the window yet: unknown.
        assert_eq!(
            judge(AlertKind::Stalled, &rule, &Facts::default(), true, NOW),
            Verdict::Keep
        );
    }

    #[test]
    fn a_device_is_silent_past_its_minutes() {
        let rule = Thresholds {
            minutes: Some(60),
            ..Thresholds::default()
        };
        let heard = |at| Facts {
            device_heard_at: Some(at),
            ..Facts::default()
        };
        assert_eq!(
            judge(
                AlertKind::DeviceSilent,
                &rule,
                &heard(NOW - time::Duration::minutes(60)),
                false,
                NOW
            ),
            Verdict::Clear
        );
        assert_eq!(
            judge(
                AlertKind::DeviceSilent,
                &rule,
                &heard(NOW - time::Duration::minutes(95)),
                false,
                NOW
            ),
            Verdict::Raise {
                value: 95.0,
                message: "The device has not posted for 95 minutes".into()
            }
        );
    }

    fn watch(rule: u128, session: u128, c: f64) -> Watch {
        Watch {
            user_id: Uuid::from_u128(1),
            rule_id: Uuid::from_u128(rule),
            kind: AlertKind::TemperatureOutside,
            thresholds: band(),
            session_id: Uuid::from_u128(session),
            device_id: None,
            facts: temperature(c),
        }
    }

    #[test]
    fn an_active_alert_is_never_raised_again_and_a_gone_watch_clears_only_in_a_full_pass() {
        let hot = watch(10, 20, 25.0);
        let active = ActiveAlert {
            id: Uuid::from_u128(99),
            user_id: Uuid::from_u128(1),
            key: hot.key(),
        };
        assert!(changes(std::slice::from_ref(&hot), &[active], Coverage::These, NOW).is_empty());
        let raised = changes(std::slice::from_ref(&hot), &[], Coverage::These, NOW);
        assert!(matches!(raised[..], [AlertChange::Raise { .. }]));

        // The watch is gone (its rule disabled, its session no longer fermenting).
        let other = watch(11, 20, 19.0);
        assert!(
            changes(
                std::slice::from_ref(&other),
                &[active],
                Coverage::These,
                NOW
            )
            .is_empty()
        );
        assert_eq!(
            changes(&[other], &[active], Coverage::Everything, NOW),
            vec![AlertChange::Clear {
                user_id: Uuid::from_u128(1),
                alert_id: Uuid::from_u128(99)
            }]
        );
    }
}
