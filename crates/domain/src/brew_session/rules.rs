//! The brew session's rules: the state machine of its status, what a reading must hold, the
//! bounds of its fields and the limits on its lists.

use super::model::SessionStatus;
use crate::error::Violation;
use crate::rules::{FieldRules, NumberRule, Rule, TextRule, caps, check_room};
use crate::{DomainError, DomainResult};

/// A session holds at most this many steps added by hand (the generated checklist is not capped).
pub const MAX_STEPS: i64 = 200;
/// A page of fermentation readings holds at most this many (default [`DEFAULT_LOG_PAGE`]).
pub const MAX_LOG_PAGE: i64 = 5_000;
pub const DEFAULT_LOG_PAGE: i64 = 1_000;

/// A reading may be logged at most this far ahead of the server's clock (a phone's clock a little
/// fast is fine; "tomorrow" is a mistake). Any time in the past is allowed: yesterday's reading
/// entered today.
pub const MAX_READING_AHEAD: time::Duration = time::Duration::minutes(5);

pub const NAME: TextRule = caps::NAME;
pub const NOTES: TextRule = caps::NOTES;
pub const STEP_TITLE: TextRule = caps::NAME;
pub const STEP_DESCRIPTION: TextRule = caps::NOTES;
pub const STEP_DURATION_MINUTES: NumberRule = NumberRule::range(0.0, 100_000.0);
pub const MEASURED_GRAVITY: NumberRule = caps::GRAVITY;
pub const MEASURED_BATCH_SIZE_LITERS: NumberRule = caps::BATCH_SIZE_LITERS;
pub const READING_GRAVITY: NumberRule = caps::GRAVITY;
pub const READING_TEMPERATURE_C: NumberRule = caps::TEMPERATURE_C;
pub const READING_PH: NumberRule = NumberRule::range(0.0, 14.0);

/// The bounded fields a new session takes (the measurements come later, by update).
pub const NEW_SESSION_FIELDS: FieldRules =
    &[("name", Rule::Text(NAME)), ("notes", Rule::Text(NOTES))];
/// The bounded fields of a session.
pub const SESSION_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("notes", Rule::Text(NOTES)),
    ("measured_og", Rule::Number(MEASURED_GRAVITY)),
    ("measured_fg", Rule::Number(MEASURED_GRAVITY)),
    (
        "measured_batch_size_liters",
        Rule::Number(MEASURED_BATCH_SIZE_LITERS),
    ),
    (
        "measured_mash_ph",
        Rule::Number(crate::water::rules::MASH_PH),
    ),
];
pub const STEP_FIELDS: FieldRules = &[
    ("title", Rule::Text(STEP_TITLE)),
    ("description", Rule::Text(STEP_DESCRIPTION)),
    ("sort_order", Rule::Number(caps::SORT_ORDER)),
    ("duration_minutes", Rule::Number(STEP_DURATION_MINUTES)),
];
/// A timer action has no bounded field (`action` is one of four words).
pub const TIMER_FIELDS: FieldRules = &[];
pub const READING_FIELDS: FieldRules = &[
    ("gravity", Rule::Number(READING_GRAVITY)),
    ("temperature_c", Rule::Number(READING_TEMPERATURE_C)),
    ("ph", Rule::Number(READING_PH)),
    ("notes", Rule::Text(NOTES)),
];

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
    pub(crate) fn rank(&self) -> Option<u8> {
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

    /// The statuses a session in this one may move to now, in the order a client offers them:
    /// the later forward states, then `abandoned`; none from a final state. Staying put is
    /// allowed by [`Self::can_move_to`] but is no move, so it is left out.
    pub fn next_statuses(&self) -> Vec<SessionStatus> {
        Self::ALL
            .iter()
            .copied()
            .filter(|to| to != self && self.can_move_to(*to))
            .collect()
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
                    format!(
                        "{} {} session cannot become {}",
                        if self.as_str().starts_with(['a', 'e', 'i', 'o', 'u']) {
                            "An"
                        } else {
                            "A"
                        },
                        self.as_str(),
                        to.as_str()
                    ),
                )
                .with("from", self.as_str())
                .with("to", to.as_str()),
            ))
        }
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

/// `logged_at` no later than [`MAX_READING_AHEAD`] past `now`: `422 too_big` (`type: "date"`,
/// `maximum` the latest instant allowed, in milliseconds since the epoch) otherwise.
pub fn check_logged_at(
    logged_at: Option<time::OffsetDateTime>,
    now: time::OffsetDateTime,
) -> DomainResult<()> {
    let latest = now + MAX_READING_AHEAD;
    match logged_at {
        Some(at) if at > latest => Err(DomainError::invalid(
            Violation::new(
                "too_big",
                &["logged_at"],
                "A reading cannot be logged more than 5 minutes in the future",
            )
            .with(
                "maximum",
                i64::try_from(latest.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX),
            )
            .with("inclusive", true)
            .with("type", "date"),
        )),
        _ => Ok(()),
    }
}

pub fn too_many_steps() -> Violation {
    Violation::too_many(
        &["steps"],
        MAX_STEPS,
        format!("A session holds at most {MAX_STEPS} steps"),
    )
}

/// A session holding `count` checklist steps may take one more only below [`MAX_STEPS`].
pub fn check_step_room(count: i64) -> Result<(), DomainError> {
    check_room(count, MAX_STEPS, too_many_steps)
}

/// The most sessions `GET /v1/home` lists (brewing or fermenting; a brewer has a handful).
pub const HOME_MAX_SESSIONS: i64 = 50;
/// The most timers `GET /v1/home` lists (running or paused).
pub const HOME_MAX_TIMERS: i64 = 50;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn next_statuses_are_the_later_forward_states_then_abandoned() {
        use SessionStatus::*;
        assert_eq!(
            Planned.next_statuses(),
            [Brewing, Fermenting, Conditioning, Completed, Abandoned]
        );
        assert_eq!(
            Fermenting.next_statuses(),
            [Conditioning, Completed, Abandoned]
        );
        assert_eq!(Conditioning.next_statuses(), [Completed, Abandoned]);
        assert!(Completed.next_statuses().is_empty());
        assert!(Abandoned.next_statuses().is_empty());
        // Every status offered is a move the state machine accepts.
        for from in SessionStatus::ALL {
            for to in from.next_statuses() {
                assert!(from.check_move_to(to).is_ok(), "{from:?} -> {to:?}");
            }
        }
    }

    #[test]
    fn a_reading_may_be_logged_in_the_past_but_at_most_five_minutes_ahead() {
        let now = time::macros::datetime!(2026-11-28 12:00:00 UTC);
        assert!(check_logged_at(None, now).is_ok());
        assert!(check_logged_at(Some(now - time::Duration::days(1)), now).is_ok());
        assert!(check_logged_at(Some(now + MAX_READING_AHEAD), now).is_ok());
        let Err(DomainError::Invalid(v)) =
            check_logged_at(Some(now + MAX_READING_AHEAD + time::Duration::SECOND), now)
        else {
            panic!()
        };
        assert_eq!(v[0].code, "too_big");
        assert_eq!(v[0].path, ["logged_at"]);
        assert_eq!(v[0].extra["type"], "date");
    }

    #[test]
    fn the_step_cap_refuses_the_one_past_it() {
        assert!(check_step_room(MAX_STEPS - 1).is_ok());
        let refused = check_step_room(MAX_STEPS).unwrap_err();
        assert!(
            matches!(&refused, DomainError::Invalid(v) if v[0] == too_many_steps()),
            "{refused:?}"
        );
    }
}
