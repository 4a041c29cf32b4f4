//! A recipe's child lists as columns of the recipe's own row, so that reading a recipe is one
//! statement instead of one per child kind.
//!
//! Each list is a `json` column, `(SELECT COALESCE(json_agg(json_build_array(<columns>) ORDER BY
//! …), '[]') FROM <child table> WHERE …)`: one array per child row, its columns in the row
//! struct's order, which serde reads into the same row structs a plain `SELECT` of the child
//! table gives. Why one statement: tokio-postgres ends every statement with its own `Sync`, so
//! eight pipelined statements cost PostgreSQL eight answers, eight flushes and eight wake-ups of
//! wort, and cost wort eight SQL texts built and looked up in its statement cache; one statement
//! costs one of each (measured in `docs/benchmarks-log.md`, "Speed to the ceiling: one statement
//! per recipe read").
//!
//! Why JSON and not an array of records (`ARRAY(SELECT ROW(…))`, the first form): tokio-postgres
//! asks for every column in PostgreSQL's binary format, and PostgreSQL writes each field of a
//! record in binary through a buffer of its own, 1 KB allocated per field: hundreds of KB per
//! recipe read, which made the backend's memory grow and shrink on every read (a large share of
//! its CPU went to page faults in a mixed load). JSON is written as text into one buffer, with the
//! same output functions a text client pays for (measured in `docs/benchmarks-log.md`, "The
//! recipe read's lists as JSON").
//!
//! The array's columns are the row struct's own `Selectable` list and serde reads them in the
//! struct's field order, so a column added to a row struct is added here too; the tests of the
//! recipe reads (every API test that reads a recipe) check the decoding. Numbers come back
//! exactly (PostgreSQL writes the shortest text that reads back to the same `float8`, and
//! serde_json's `float_roundtrip` reads it so).

use std::marker::PhantomData;

use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::{
    AppearsOnTable, Expression, SelectableExpression, ValidGrouping, is_aggregate,
};
use diesel::pg::{Pg, PgValue};
use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::Json;
use serde::de::DeserializeOwned;

use crate::kept_sql::kept_text;
use crate::schema::recipes;

/// The rows of one nested list, decoded.
pub(crate) struct RowsOf<R>(pub Vec<R>);

// A `json` value's binary form is its text.
impl<R: DeserializeOwned> FromSql<Json, Pg> for RowsOf<R> {
    fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
        Ok(RowsOf(serde_json::from_slice(value.as_bytes())?))
    }
}

// What diesel's `#[derive(FromSqlRow)]` writes for a plain type: a column of this type is
// loaded by decoding it with `FromSql`.
impl<R: DeserializeOwned> Queryable<Json, Pg> for RowsOf<R> {
    type Row = Self;

    fn build(row: Self) -> deserialize::Result<Self> {
        Ok(row)
    }
}

/// A `timestamptz` as PostgreSQL writes it in JSON (`2026-11-26T09:30:00.123456+01:00`: ISO
/// 8601, up to six digits of fraction, the session time zone's offset, with seconds when it
/// has them), in UTC like every instant wort reads.
pub(crate) fn instant<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<time::OffsetDateTime, D::Error> {
    let text: std::borrow::Cow<'de, str> = serde::Deserialize::deserialize(deserializer)?;
    parse_instant(&text)
        .ok_or_else(|| serde::de::Error::custom(format!("not a PostgreSQL instant: {text:?}")))
}

fn parse_instant(text: &str) -> Option<time::OffsetDateTime> {
    use time::{Date, Month, PrimitiveDateTime, Time, UtcOffset};
    let b = text.as_bytes();
    let number = |from: usize, len: usize| -> Option<u32> {
        let digits = b.get(from..from + len)?;
        digits.iter().try_fold(0u32, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
        })
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    // Years 1–9999 (wort's instants are the server's own clock).
    let ok = at(4, b'-') && at(7, b'-') && at(10, b'T') && at(13, b':') && at(16, b':');
    if !ok {
        return None;
    }
    let date = Date::from_calendar_date(
        i32::try_from(number(0, 4)?).ok()?,
        Month::try_from(u8::try_from(number(5, 2)?).ok()?).ok()?,
        u8::try_from(number(8, 2)?).ok()?,
    )
    .ok()?;
    let mut i = 19;
    let mut micros = 0;
    if at(i, b'.') {
        let digits = b
            .iter()
            .skip(i + 1)
            .take_while(|d| d.is_ascii_digit())
            .count();
        if !(1..=6).contains(&digits) {
            return None;
        }
        micros = number(i + 1, digits)? * 10u32.pow(6 - u32::try_from(digits).ok()?);
        i += 1 + digits;
    }
    let clock = Time::from_hms_micro(
        u8::try_from(number(11, 2)?).ok()?,
        u8::try_from(number(14, 2)?).ok()?,
        u8::try_from(number(17, 2)?).ok()?,
        micros,
    )
    .ok()?;
    let sign: i32 = match b.get(i) {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return None,
    };
    if !at(i + 3, b':') {
        return None;
    }
    let mut seconds = number(i + 1, 2)? * 3600 + number(i + 4, 2)? * 60;
    let mut end = i + 6;
    if at(end, b':') {
        seconds += number(end + 1, 2)?;
        end += 3;
    }
    if end != b.len() {
        return None;
    }
    let offset = UtcOffset::from_whole_seconds(sign * i32::try_from(seconds).ok()?).ok()?;
    Some(
        PrimitiveDateTime::new(date, clock)
            .assume_offset(offset)
            .to_offset(UtcOffset::UTC),
    )
}

/// The nested list of table `table`'s rows that belong to the outer query's `recipes` row, in
/// display order (as the one-kind queries order them): a column for a `select` over `recipes`.
///
/// Its own expression type rather than `diesel::dsl::sql`, which diesel never caches as a
/// prepared statement: with a static query id (one per row type, whose SQL never changes), the
/// recipe read is prepared once per connection like every other diesel query.
pub(crate) struct NestedChildren<R: Selectable<Pg>> {
    table: &'static str,
    /// The row struct's own column list (zero-sized: diesel's columns are types).
    columns: R::SelectExpression,
}

impl<R: Selectable<Pg>> NestedChildren<R> {
    pub(crate) fn new(table: &'static str) -> Self {
        NestedChildren {
            table,
            columns: R::construct_selection(),
        }
    }
}

impl<R: Selectable<Pg> + 'static> Expression for NestedChildren<R> {
    type SqlType = Json;
}

impl<R: Selectable<Pg> + 'static> QueryId for NestedChildren<R> {
    type QueryId = PhantomData<R>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<R> QueryFragment<Pg> for NestedChildren<R>
where
    R: Selectable<Pg> + 'static,
    R::SelectExpression: QueryFragment<Pg>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        // The text has no binds and is the same for every recipe, so it is built once per
        // process. diesel-async builds every statement's SQL text on every call, even a prepared
        // one; for the seven lists of a recipe read that was a large share of the read's
        // instructions (docs/benchmarks-log.md, "The recipe read's SQL text, built once").
        out.push_sql(kept_text::<R>(self.table, |builder| {
            Uncached(self).to_sql(builder, &Pg)
        })?);
        Ok(())
    }
}

/// The nested list's SQL text, written out (what `kept_text` keeps).
struct Uncached<'a, R: Selectable<Pg>>(&'a NestedChildren<R>);

impl<R> QueryFragment<Pg> for Uncached<'_, R>
where
    R: Selectable<Pg>,
    R::SelectExpression: QueryFragment<Pg>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let table = self.0.table;
        let column = |out: &mut AstPass<'_, 'b, Pg>, name: &str| -> QueryResult<()> {
            out.push_identifier(table)?;
            out.push_sql(".");
            out.push_identifier(name)
        };
        out.push_sql("(SELECT COALESCE(json_agg(json_build_array(");
        self.0.columns.walk_ast(out.reborrow())?;
        out.push_sql(") ORDER BY ");
        column(&mut out, "sort_order")?;
        out.push_sql(", ");
        column(&mut out, "created_at")?;
        out.push_sql(", ");
        column(&mut out, "id")?;
        out.push_sql("), '[]') FROM ");
        out.push_identifier(table)?;
        out.push_sql(" WHERE ");
        column(&mut out, "user_id")?;
        out.push_sql(" = \"recipes\".\"user_id\" AND ");
        column(&mut out, "recipe_id")?;
        out.push_sql(" = \"recipes\".\"id\"");
        out.push_sql(")");
        Ok(())
    }
}

impl<R: Selectable<Pg> + 'static> SelectableExpression<recipes::table> for NestedChildren<R> {}

impl<R: Selectable<Pg> + 'static> AppearsOnTable<recipes::table> for NestedChildren<R> {}

impl<R: Selectable<Pg>> ValidGrouping<()> for NestedChildren<R> {
    type IsAggregate = is_aggregate::Never;
}

#[cfg(test)]
mod tests {
    use super::parse_instant;
    use time::macros::datetime;

    #[test]
    fn reads_postgresql_json_instants_in_utc() {
        let cases = [
            (
                "2026-11-26T09:30:00.123456+00:00",
                datetime!(2026-11-26 09:30:00.123456 UTC),
            ),
            (
                "2026-11-26T10:30:00+01:00",
                datetime!(2026-11-26 09:30:00 UTC),
            ),
            (
                "2024-02-29T23:59:59.5-07:00",
                datetime!(2024-03-01 06:59:59.5 UTC),
            ),
            // An offset with seconds (a historical zone's local mean time).
            (
                "1890-01-01T00:00:00+00:53:28",
                datetime!(1889-12-31 23:06:32 UTC),
            ),
            (
                "0001-01-01T00:00:00.000001+00:00",
                datetime!(0001-01-01 00:00:00.000001 UTC),
            ),
        ];
        for (text, expected) in cases {
            let read = parse_instant(text).unwrap_or_else(|| panic!("{text} not read"));
            assert_eq!(read, expected, "{text}");
            assert_eq!(read.offset(), time::UtcOffset::UTC, "{text}");
        }
    }

    #[test]
    fn refuses_anything_else() {
        for text in [
            "",
            "2026-11-26",
            "2026-11-26 09:30:00+00",
            "2026-11-26T09:30:00",
            "2026-11-26T09:30:00Z",
            "2026-11-26T09:30:00.+00:00",
            "2026-11-26T09:30:00.1234567+00:00",
            "2026-13-26T09:30:00+00:00",
            "2026-11-26T25:30:00+00:00",
            "2026-11-26T09:30:00+00:00 BC",
            "2026-11-26T09:30:00+0000",
        ] {
            assert_eq!(parse_instant(text), None, "{text:?}");
        }
    }
}
