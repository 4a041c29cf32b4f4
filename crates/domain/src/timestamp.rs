//! The one JSON form of instants: RFC 3339, UTC, millisecond precision, `Z` suffix
//! (`2026-11-22T09:30:00.123Z`), and of calendar dates: `YYYY-MM-DD`.

use serde::Serializer;
use time::{OffsetDateTime, UtcOffset, format_description::FormatItem, macros::format_description};

const INSTANT: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");

/// Formats an instant the way every wort response does.
pub fn format(at: OffsetDateTime) -> String {
    at.to_offset(UtcOffset::UTC)
        .format(INSTANT)
        .unwrap_or_else(|_| at.unix_timestamp().to_string())
}

/// Truncates to whole microseconds, PostgreSQL's precision, so a value returned from a write equals
/// the value read back later.
pub fn to_db_precision(at: OffsetDateTime) -> OffsetDateTime {
    let micros = at.microsecond();
    at.replace_microsecond(micros).unwrap_or(at)
}

/// `#[serde(serialize_with = "timestamp::serialize")]`
pub fn serialize<S: Serializer>(at: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format(*at))
}

/// `#[serde(serialize_with = "timestamp::serialize_opt")]`
pub fn serialize_opt<S: Serializer>(at: &Option<OffsetDateTime>, s: S) -> Result<S::Ok, S::Error> {
    match at {
        Some(at) => s.serialize_str(&format(*at)),
        None => s.serialize_none(),
    }
}

const DATE: &[FormatItem<'static>] = format_description!("[year]-[month]-[day]");

/// `#[serde(serialize_with = "timestamp::serialize_date")]`: `YYYY-MM-DD`.
pub fn serialize_date<S: Serializer>(date: &time::Date, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&date.format(DATE).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn formats_utc_with_millis_and_z() {
        assert_eq!(
            format(datetime!(2026-11-22 09:30:00.123456 UTC)),
            "2026-11-22T09:30:00.123Z"
        );
        assert_eq!(
            format(datetime!(2026-11-22 10:30:00 +01:00)),
            "2026-11-22T09:30:00.000Z"
        );
    }
}
