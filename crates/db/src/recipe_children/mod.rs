//! Recipe children: fermentables, hops, yeasts, miscs, mash steps, water additions and
//! fermentation steps.
//!
//! Each kind has a row struct (the table as diesel sees it) with conversions to and from the
//! domain entity; the queries, the same for every kind, are written once in `child_queries!`.
//! Every write runs in a transaction that also bumps the parent recipe's `updated_at` (which
//! locks the recipe row, so concurrent appends get distinct `sort_order`s).
//!
//! * [`rows`]: the row structs and their conversions.
//! * [`queries`]: the per-kind queries and the whole-recipe reads and writes of the recipe
//!   repository.
//! * [`nested`]: the child lists as array columns of the recipe's row (one statement a read).
//! * [`repository`]: [`PgRecipeChildren`], one child at a time.

mod nested;
mod queries;
mod repository;
mod rows;

pub(crate) use queries::{
    Children, WithNested, copy_children, insert_new_children, load_children, load_children_of,
    malt_colours_by_recipe, nested_columns, replace_children, split_nested,
};
pub use repository::PgRecipeChildren;
