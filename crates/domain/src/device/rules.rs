//! The device's rules: bounds, the token's shape, and what a post may store.

use serde_json::Value;
use time::{Duration, OffsetDateTime};

use crate::DomainError;
use crate::brew_session::model::SessionStatus;
use crate::error::Violation;
use crate::rules::{FieldRules, Rule, TextRule, caps, check_room};

pub const NAME: TextRule = caps::NAME;
pub const DEVICE_FIELDS: FieldRules = &[("name", Rule::Text(NAME))];

/// A device's post is small (an iSpindel's is about 250 bytes); a larger one is `413`.
pub const MAX_PAYLOAD_BYTES: usize = 16 * 1024;

/// An account holds at most this many devices.
pub const MAX_DEVICES: i64 = 100;

pub const TOKEN_PREFIX: &str = "wortd_";
pub(crate) const TOKEN_RANDOM_CHARS: usize = 43;

/// A device stores at most one reading per this interval: hydrometers post every
/// 15 minutes or so; a misconfigured one posting every second must not bury the session.
pub const READING_INTERVAL: Duration = Duration::seconds(60);

/// Whether a string has the shape of an ingest token (checked before touching the database).
pub fn looks_like_device_token(candidate: &str) -> bool {
    candidate.len() == TOKEN_PREFIX.len() + TOKEN_RANDOM_CHARS
        && candidate.starts_with(TOKEN_PREFIX)
        && candidate[TOKEN_PREFIX.len()..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric())
}

/// The post as kept for the brewer to read (`last_payload`): as sent, less every NUL character
/// (U+0000) in its names and values, which PostgreSQL cannot store. The post is then always
/// recorded as seen; a NUL in a field that becomes part of the reading (the note) is still
/// refused by that field's rule, as everywhere in the API.
pub fn storable_payload(payload: Value) -> Value {
    let clean = |s: String| {
        if s.contains('\0') {
            s.replace('\0', "")
        } else {
            s
        }
    };
    match payload {
        Value::String(s) => Value::String(clean(s)),
        Value::Array(items) => Value::Array(items.into_iter().map(storable_payload).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .map(|(name, value)| (clean(name), storable_payload(value)))
                .collect(),
        ),
        other => other,
    }
}

/// Seconds to wait before the device may store again, or `None` when it may store now.
pub fn wait_before_next_reading(
    last_reading_at: Option<OffsetDateTime>,
    interval: Duration,
    now: OffsetDateTime,
) -> Option<u64> {
    if interval <= Duration::ZERO {
        return None;
    }
    let next = last_reading_at? + interval;
    // `now` was read before the device's row lock was taken: a post that waited for another
    // may find that one's reading slightly "after" it. Never ask for more than the interval.
    let wait = (next - now).min(interval).as_seconds_f64().ceil();
    (wait > 0.0).then_some(wait as u64)
}

/// Readings go only into a session that is still going: a completed or abandoned one is closed.
pub fn session_takes_readings(status: SessionStatus) -> bool {
    !matches!(status, SessionStatus::Completed | SessionStatus::Abandoned)
}

/// An account may hold [`MAX_DEVICES`].
pub fn too_many_devices() -> Violation {
    Violation::too_many(
        &[],
        MAX_DEVICES,
        format!("An account holds at most {MAX_DEVICES} devices; delete one first"),
    )
}

/// An account holding `count` devices may register one more only below [`MAX_DEVICES`].
pub fn check_device_room(count: i64) -> Result<(), DomainError> {
    check_room(count, MAX_DEVICES, too_many_devices)
}

/// The session named is not one of the account's.
pub fn unknown_session() -> Violation {
    Violation::new("custom", &["session_id"], "No brew session with this id")
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn the_device_cap_refuses_the_one_past_it() {
        assert!(check_device_room(MAX_DEVICES - 1).is_ok());
        let refused = check_device_room(MAX_DEVICES).unwrap_err();
        assert!(
            matches!(&refused, DomainError::Invalid(v) if v.first() == Some(&too_many_devices())),
            "{refused:?}"
        );
    }

    #[test]
    fn one_reading_per_interval() {
        let now = datetime!(2026-11-24 12:00:00 UTC);
        assert_eq!(wait_before_next_reading(None, READING_INTERVAL, now), None);
        let last = now - Duration::seconds(15);
        assert_eq!(
            wait_before_next_reading(Some(last), READING_INTERVAL, now),
            Some(45)
        );
        let last = now - Duration::seconds(60);
        assert_eq!(
            wait_before_next_reading(Some(last), READING_INTERVAL, now),
            None
        );
        let later = now + Duration::milliseconds(3);
        assert_eq!(
            wait_before_next_reading(Some(later), READING_INTERVAL, now),
            Some(60),
            "a reading stored while this post waited for the lock"
        );
        assert_eq!(
            wait_before_next_reading(Some(later), Duration::ZERO, now),
            None,
            "no interval, no wait"
        );
        let last = now - Duration::milliseconds(59_500);
        assert_eq!(
            wait_before_next_reading(Some(last), READING_INTERVAL, now),
            Some(1),
            "a part second rounds up, never to Retry-After: 0"
        );
    }

    #[test]
    fn nul_characters_are_dropped_from_the_kept_payload() {
        let sent = serde_json::json!({
            "name": "iSpindel\u{0}", "ba\u{0}ttery": 4.1, "gravity": 1.042,
            "nested": {"list": ["a\u{0}b", 1, null, {"k\u{0}": "\u{0}"}]}
        });
        assert_eq!(
            storable_payload(sent),
            serde_json::json!({
                "name": "iSpindel", "battery": 4.1, "gravity": 1.042,
                "nested": {"list": ["ab", 1, null, {"k": ""}]}
            })
        );
    }

    #[test]
    fn token_shape() {
        let token = format!("wortd_{}", "a".repeat(43));
        assert!(looks_like_device_token(&token));
        assert!(!looks_like_device_token(&format!(
            "wort_{}",
            "a".repeat(44)
        )));
        assert!(!looks_like_device_token(&format!(
            "wortd_{}",
            "a".repeat(42)
        )));
        assert!(!looks_like_device_token(&format!(
            "wortd_{}-",
            "a".repeat(42)
        )));
    }

    #[test]
    fn closed_sessions_take_no_readings() {
        assert!(session_takes_readings(SessionStatus::Fermenting));
        assert!(session_takes_readings(SessionStatus::Planned));
        assert!(!session_takes_readings(SessionStatus::Completed));
        assert!(!session_takes_readings(SessionStatus::Abandoned));
    }
}
