//! The one JSON form of instants: RFC 3339, UTC, millisecond precision, `Z` suffix
//! (`2026-11-22T09:30:00.123Z`), and of calendar dates: `YYYY-MM-DD`.

use serde::Serializer;
use time::{OffsetDateTime, UtcOffset, format_description::FormatItem, macros::format_description};

const INSTANT: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");

/// Formats an instant the way every wort response does.
pub fn format(at: OffsetDateTime) -> String {
    match instant_ascii(at) {
        Some(buf) => buf.iter().map(|&b| char::from(b)).collect(),
        None => format_slow(at),
    }
}

/// The same through `time`'s format description: for years outside 0–9999 only.
fn format_slow(at: OffsetDateTime) -> String {
    at.to_offset(UtcOffset::UTC)
        .format(INSTANT)
        .unwrap_or_else(|_| at.unix_timestamp().to_string())
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` written digit by digit. Every row of every list carries one or
/// two instants, and `time`'s format-description machinery is a visible share of the server's
/// CPU on long lists (measured in docs/benchmarks-log.md, "Fixed: formatting timestamps").
fn instant_ascii(at: OffsetDateTime) -> Option<[u8; 24]> {
    let at = at.to_offset(UtcOffset::UTC);
    let year = u32::try_from(at.year()).ok().filter(|y| *y <= 9999)?;
    let mut buf = *b"0000-00-00T00:00:00.000Z";
    let (hour, minute, second, milli) = at.to_hms_milli();
    for (start, width, value) in [
        (0, 4, year),
        (5, 2, u32::from(u8::from(at.month()))),
        (8, 2, u32::from(at.day())),
        (11, 2, u32::from(hour)),
        (14, 2, u32::from(minute)),
        (17, 2, u32::from(second)),
        (20, 3, u32::from(milli)),
    ] {
        let mut rest = value;
        for i in (start..start + width).rev() {
            if let Some(digit) = buf.get_mut(i) {
                *digit = b'0' + (rest % 10) as u8;
            }
            rest /= 10;
        }
    }
    Some(buf)
}

/// Appends the instant's JSON form, without its quotes, to `out`: for writers of long lists that
/// build their JSON by hand (the characters are digits, `-`, `:`, `.`, `T`, `Z` and, past year
/// 9999, `+`: nothing JSON would escape).
pub fn write(at: OffsetDateTime, out: &mut Vec<u8>) {
    match instant_ascii(at) {
        Some(buf) => out.extend_from_slice(&buf),
        None => out.extend_from_slice(format_slow(at).as_bytes()),
    }
}

/// Truncates to whole microseconds, PostgreSQL's precision, so a value returned from a write equals
/// the value read back later.
pub fn to_db_precision(at: OffsetDateTime) -> OffsetDateTime {
    let micros = at.microsecond();
    at.replace_microsecond(micros).unwrap_or(at)
}

/// `#[serde(serialize_with = "timestamp::serialize")]`
pub fn serialize<S: Serializer>(at: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
    // From a stack buffer: no String per instant.
    match instant_ascii(*at)
        .as_ref()
        .and_then(|b| std::str::from_utf8(b).ok())
    {
        Some(text) => s.serialize_str(text),
        None => s.serialize_str(&format_slow(*at)),
    }
}

/// Reads back what [`serialize`] wrote (any RFC 3339 instant): stored snapshots of a recipe's
/// versions are read with it.
pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<OffsetDateTime, D::Error> {
    let text: String = serde::Deserialize::deserialize(d)?;
    OffsetDateTime::parse(&text, &time::format_description::well_known::Rfc3339)
        .map_err(serde::de::Error::custom)
}

/// `#[serde(serialize_with = "timestamp::serialize_opt")]`
pub fn serialize_opt<S: Serializer>(at: &Option<OffsetDateTime>, s: S) -> Result<S::Ok, S::Error> {
    match at {
        Some(at) => serialize(at, s),
        None => s.serialize_none(),
    }
}

const DATE: &[FormatItem<'static>] = format_description!("[year]-[month]-[day]");

/// `#[serde(serialize_with = "timestamp::serialize_date")]`: `YYYY-MM-DD`.
pub fn serialize_date<S: Serializer>(date: &time::Date, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&date.format(DATE).unwrap_or_default())
}

/// `#[serde(serialize_with = "timestamp::serialize_opt_date")]`: `YYYY-MM-DD` or `null`.
pub fn serialize_opt_date<S: Serializer>(
    date: &Option<time::Date>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match date {
        Some(date) => serialize_date(date, s),
        None => s.serialize_none(),
    }
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

    #[test]
    fn the_fast_path_agrees_with_the_format_description() {
        let start = datetime!(1999-12-31 23:59:59.999 UTC).unix_timestamp_nanos();
        // Odd steps through years, leap days, month ends and every millisecond digit.
        for i in 0..20_000i128 {
            let nanos = start + i * 1_987_654_321_987;
            let at = OffsetDateTime::from_unix_timestamp_nanos(nanos).unwrap();
            assert_eq!(format(at), format_slow(at), "{at}");
        }
        let east = datetime!(2024-03-01 00:30:00.5 +02:00);
        assert_eq!(format(east), "2024-02-29T22:30:00.500Z");
        assert_eq!(
            format(datetime!(0000-01-01 00:00:00 UTC)),
            "0000-01-01T00:00:00.000Z"
        );
    }
}
