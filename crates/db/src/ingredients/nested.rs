//! A recipe's child lists as columns of the recipe's own row, so that reading a recipe is one
//! statement instead of one per child kind.
//!
//! Each list is an `ARRAY(SELECT ROW(…) FROM <child table> WHERE … ORDER BY …)` column: an array
//! of records in PostgreSQL's binary format, which diesel decodes into the same row tuples a
//! plain `SELECT` of the child table gives. Why: tokio-postgres ends every statement with its own
//! `Sync`, so eight pipelined statements cost PostgreSQL eight answers, eight flushes and eight
//! wake-ups of wort, and cost wort eight SQL texts built and looked up in its statement cache;
//! one statement costs one of each (measured in `docs/benchmarks.md`, "One statement per recipe
//! read").
//!
//! The record's columns are the row struct's own `Selectable` list, so a column added to a row
//! struct is added here too; the tests of the recipe reads (every API test that reads a recipe)
//! check the decoding.

use std::marker::PhantomData;

use diesel::deserialize::{self, FromSql, Queryable};
use diesel::dsl::SqlTypeOf;
use diesel::expression::{
    AppearsOnTable, Expression, SelectableExpression, ValidGrouping, is_aggregate,
};
use diesel::pg::{Pg, PgValue};
use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{Array, Record};

use crate::kept_sql::kept_text;
use crate::schema::recipes;

/// The SQL types of the columns of row struct `R`, as a tuple.
type RowSql<R> = SqlTypeOf<<R as Selectable<Pg>>::SelectExpression>;

/// The SQL type of one nested list of rows `R`.
pub(crate) type Nested<R> = Array<Record<RowSql<R>>>;

/// The rows of one nested list, decoded.
pub(crate) struct RowsOf<R>(pub Vec<R>);

impl<R, ST> FromSql<Array<Record<ST>>, Pg> for RowsOf<R>
where
    ST: 'static,
    R: Queryable<ST, Pg>,
    R::Row: FromSql<Record<ST>, Pg>,
{
    fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
        let rows: Vec<R::Row> = FromSql::<Array<Record<ST>>, Pg>::from_sql(value)?;
        rows.into_iter()
            .map(R::build)
            .collect::<deserialize::Result<Vec<R>>>()
            .map(RowsOf)
    }
}

// What diesel's `#[derive(FromSqlRow)]` writes for a plain type: a column of this type is
// loaded by decoding it with `FromSql`.
impl<R, ST> Queryable<Array<Record<ST>>, Pg> for RowsOf<R>
where
    ST: 'static,
    Self: FromSql<Array<Record<ST>>, Pg>,
{
    type Row = Self;

    fn build(row: Self) -> deserialize::Result<Self> {
        Ok(row)
    }
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

impl<R: Selectable<Pg> + 'static> Expression for NestedChildren<R>
where
    RowSql<R>: 'static,
{
    type SqlType = Nested<R>;
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
        // one; for the seven lists of a recipe read that was over a quarter of the read's
        // instructions (docs/benchmarks.md, "The recipe read's SQL text, built once").
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
        out.push_sql("ARRAY(SELECT ROW(");
        self.0.columns.walk_ast(out.reborrow())?;
        out.push_sql(") FROM ");
        out.push_identifier(table)?;
        out.push_sql(" WHERE ");
        column(&mut out, "user_id")?;
        out.push_sql(" = \"recipes\".\"user_id\" AND ");
        column(&mut out, "recipe_id")?;
        out.push_sql(" = \"recipes\".\"id\" ORDER BY ");
        column(&mut out, "sort_order")?;
        out.push_sql(", ");
        column(&mut out, "created_at")?;
        out.push_sql(", ");
        column(&mut out, "id")?;
        out.push_sql(")");
        Ok(())
    }
}

impl<R: Selectable<Pg> + 'static> SelectableExpression<recipes::table> for NestedChildren<R> where
    RowSql<R>: 'static
{
}

impl<R: Selectable<Pg> + 'static> AppearsOnTable<recipes::table> for NestedChildren<R> where
    RowSql<R>: 'static
{
}

impl<R: Selectable<Pg>> ValidGrouping<()> for NestedChildren<R> {
    type IsAggregate = is_aggregate::Never;
}
