//! The rules of a note: its text's bounds, how far ahead of the clock it may be placed, and
//! how its list pages.

use crate::error::Violation;
use crate::rules::{FieldRules, Rule, TextRule};
use crate::{DomainError, DomainResult};

/// A note says something, and no more than a session's own notes may hold (characters, not
/// bytes).
pub const TEXT: TextRule = TextRule::new(1, 10_000);

/// The bounded fields of a note (`at` is an instant, bounded by [`check_at`]).
pub const NOTE_FIELDS: FieldRules = &[("text", Rule::Text(TEXT))];

/// A note may be placed at most this far ahead of the server's clock, like a reading: a phone's
/// clock a little fast is fine, "tomorrow" is a typo that would draw the note past the end of
/// the chart. Any past instant is allowed (yesterday's observation written down today). What is
/// planned for later belongs to the fermentation schedule, which the chart draws too.
pub const MAX_AHEAD: time::Duration = time::Duration::minutes(5);

/// A session's notes are a top-level-sized list: pages of at most this many (default
/// [`DEFAULT_PAGE`]), oldest `at` first, so a chart reads them in the order it draws them.
pub const MAX_PAGE: i64 = crate::page::MAX_PAGE_SIZE;
pub const DEFAULT_PAGE: i64 = crate::page::DEFAULT_PAGE_SIZE;

/// `at` no later than [`MAX_AHEAD`] past `now`: `422 too_big` (`type: "date"`, `maximum` the
/// latest instant allowed, in milliseconds since the epoch) otherwise.
pub fn check_at(at: Option<time::OffsetDateTime>, now: time::OffsetDateTime) -> DomainResult<()> {
    let latest = now + MAX_AHEAD;
    match at {
        Some(at) if at > latest => Err(DomainError::invalid(
            Violation::new(
                "too_big",
                &["at"],
                "A note cannot be placed more than 5 minutes in the future",
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

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_note_may_be_in_the_past_but_at_most_five_minutes_ahead() {
        let now = datetime!(2026-12-08 10:00 UTC);
        assert!(check_at(None, now).is_ok());
        assert!(check_at(Some(datetime!(2020-01-01 0:00 UTC)), now).is_ok());
        assert!(check_at(Some(now + MAX_AHEAD), now).is_ok());
        let Err(DomainError::Invalid(v)) =
            check_at(Some(now + MAX_AHEAD + time::Duration::SECOND), now)
        else {
            panic!("a note six minutes ahead was accepted");
        };
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].code, "too_big");
        assert_eq!(v[0].path, vec!["at".to_owned()]);
    }
}
