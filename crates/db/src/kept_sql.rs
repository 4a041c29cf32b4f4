//! SQL text that never changes, built once per process.
//!
//! diesel-async writes every statement's SQL text on every call, even for a statement its cache
//! has already prepared (it looks the prepared statement up by that text's query id afterwards).
//! A row struct's column list is the longest part of most statements, ~40 quoted
//! `"table"."column"` names for a recipe, and it has no binds: the same text every time. Built
//! once and kept, each read saves that work (measured in docs/benchmarks-log.md, "The recipe
//! read's SQL text, built once" and "Long answers written by hand, column lists kept").
//!
//! Only bind-less fragments may be kept: the text is written into every pass of diesel's
//! `walk_ast` (where passes other than the SQL writer ignore it), so a fragment with binds would
//! lose them.

use std::any::TypeId;
use std::marker::PhantomData;
use std::sync::{OnceLock, RwLock};

use diesel::dsl::SqlTypeOf;
use diesel::expression::{AppearsOnTable, Expression, SelectableExpression, ValidGrouping};
use diesel::pg::{Pg, PgQueryBuilder};
use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryBuilder, QueryFragment, QueryId};
use rustc_hash::FxHashMap;

/// The text of fragment kind `K` (with `part` telling apart fragments of one kind, such as a
/// nested list's table), built by `build` the first time it is asked for and kept for the life
/// of the process: one small string per kind (a race between two first requests may build and
/// keep one twice; nothing more).
pub(crate) fn kept_text<K: 'static>(
    part: &'static str,
    build: impl FnOnce(&mut PgQueryBuilder) -> QueryResult<()>,
) -> QueryResult<&'static str> {
    type Texts = RwLock<FxHashMap<(TypeId, &'static str), &'static str>>;
    static TEXTS: OnceLock<Texts> = OnceLock::new();
    let texts = TEXTS.get_or_init(Texts::default);
    let key = (TypeId::of::<K>(), part);
    if let Some(text) = texts.read().ok().and_then(|t| t.get(&key).copied()) {
        return Ok(text);
    }
    let mut builder = PgQueryBuilder::default();
    build(&mut builder)?;
    let text: &'static str = Box::leak(builder.finish().into_boxed_str());
    if let Ok(mut kept) = texts.write() {
        kept.entry(key).or_insert(text);
    }
    Ok(text)
}

/// Row struct `R`'s columns, as `R::as_select()` selects them, with their text kept: use
/// `.select(Columns::<R>::new())` and load `R` itself (its derived `Queryable` reads the columns
/// in the same, declared order).
pub(crate) struct Columns<R>(PhantomData<R>);

impl<R> Columns<R> {
    pub(crate) fn new() -> Self {
        Columns(PhantomData)
    }
}

impl<R> Expression for Columns<R>
where
    R: Selectable<Pg>,
{
    type SqlType = SqlTypeOf<R::SelectExpression>;
}

impl<R: 'static> QueryId for Columns<R> {
    type QueryId = Self;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<R> QueryFragment<Pg> for Columns<R>
where
    R: Selectable<Pg> + 'static,
    R::SelectExpression: QueryFragment<Pg>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(kept_text::<R>("columns", |builder| {
            R::construct_selection().to_sql(builder, &Pg)
        })?);
        Ok(())
    }
}

impl<R, QS> SelectableExpression<QS> for Columns<R>
where
    R: Selectable<Pg>,
    R::SelectExpression: SelectableExpression<QS>,
{
}

impl<R, QS> AppearsOnTable<QS> for Columns<R>
where
    R: Selectable<Pg>,
    R::SelectExpression: AppearsOnTable<QS>,
{
}

impl<R, G> ValidGrouping<G> for Columns<R>
where
    R: Selectable<Pg>,
    R::SelectExpression: ValidGrouping<G>,
{
    type IsAggregate = <R::SelectExpression as ValidGrouping<G>>::IsAggregate;
}

#[cfg(test)]
mod tests {
    use diesel::debug_query;
    use diesel::pg::Pg;
    use diesel::prelude::*;

    use super::Columns;
    use crate::schema::devices;

    #[derive(Queryable, Selectable)]
    #[diesel(table_name = devices)]
    #[allow(dead_code)]
    struct DeviceName {
        id: uuid::Uuid,
        name: String,
    }

    /// The kept column list is the text diesel writes for the row's own selection, the first
    /// time (built) and every time after (kept).
    #[test]
    fn kept_columns_are_the_columns_diesel_selects() {
        let plain =
            debug_query::<Pg, _>(&devices::table.select(DeviceName::as_select())).to_string();
        for _ in 0..2 {
            let kept = devices::table.select(Columns::<DeviceName>::new());
            assert_eq!(debug_query::<Pg, _>(&kept).to_string(), plain);
        }
    }
}
