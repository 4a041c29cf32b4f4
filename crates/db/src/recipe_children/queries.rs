//! The queries over the child tables: the same for every kind, written once in
//! `child_queries!`, and the whole-recipe reads and writes the recipe repository uses.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brewing::MaltColour;
use wort_domain::recipe::{NewRecipeWithIngredients, RecipeChild};
use wort_domain::recipe_children::{
    Fermentable, FermentationStep, Hop, MashStep, Misc, WaterAddition, Yeast,
};
use wort_domain::{DomainResult, UserId, new_id};

use super::nested::{NestedChildren, RowsOf};
use super::rows::{
    FermentableRow, FermentationStepRow, HopRow, MashStepRow, MiscRow, RowPlace, WaterAdditionRow,
    YeastRow,
};
use crate::error::{TxError, db_error};
use crate::prepared::Prepared;
use crate::schema::{
    fermentables, fermentation_steps, hops, mash_steps, miscs, water_additions, yeasts,
};

/// Generates a module of queries over one child table. Every query filters by `user_id`.
macro_rules! child_queries {
    ($module:ident, $table:ident, $row:ident) => {
        pub(crate) mod $module {
            use super::*;

            /// The children of these recipes, in display order.
            pub async fn of_recipes(
                conn: &AsyncPgConnection,
                user: UserId,
                recipe_ids: &[Uuid],
            ) -> QueryResult<Vec<$row>> {
                $table::table
                    .filter($table::user_id.eq(user.0))
                    .filter($table::recipe_id.eq_any(recipe_ids))
                    .order(($table::sort_order, $table::created_at, $table::id))
                    .select($row::as_select())
                    .load(&mut &*conn)
                    .await
            }

            pub async fn find(
                conn: &mut AsyncPgConnection,
                user: UserId,
                id: Uuid,
            ) -> QueryResult<$row> {
                $table::table
                    .filter($table::id.eq(id))
                    .filter($table::user_id.eq(user.0))
                    .select($row::as_select())
                    .for_update()
                    .first(conn)
                    .await
            }

            /// How many children the recipe has of this kind, and the largest `sort_order`.
            pub async fn count_and_last(
                conn: &mut AsyncPgConnection,
                user: UserId,
                recipe_id: Uuid,
            ) -> QueryResult<(i64, Option<i32>)> {
                $table::table
                    .filter($table::recipe_id.eq(recipe_id))
                    .filter($table::user_id.eq(user.0))
                    .select((
                        diesel::dsl::count_star(),
                        diesel::dsl::max($table::sort_order),
                    ))
                    .first(conn)
                    .await
            }

            pub async fn insert(
                conn: &mut AsyncPgConnection,
                rows: &[$row],
            ) -> QueryResult<Vec<$row>> {
                diesel::insert_into($table::table)
                    .values(rows)
                    .returning($row::as_returning())
                    .get_results(conn)
                    .await
            }

            /// Like [`insert`], in statements small enough for PostgreSQL's bind limit.
            pub async fn insert_many(
                conn: &mut AsyncPgConnection,
                rows: &[$row],
            ) -> QueryResult<Vec<$row>> {
                let mut inserted = Vec::with_capacity(rows.len());
                for chunk in rows.chunks(ROWS_PER_INSERT) {
                    inserted.extend(insert(conn, chunk).await?);
                }
                Ok(inserted)
            }

            pub async fn save(conn: &mut AsyncPgConnection, row: &$row) -> QueryResult<$row> {
                Prepared(
                    diesel::update(
                        $table::table
                            .filter($table::id.eq(row.id))
                            .filter($table::user_id.eq(row.user_id)),
                    )
                    .set(row)
                    .returning($row::as_returning()),
                )
                .get_result(conn)
                .await
            }

            /// Deletes every child of this kind of the recipe (a restore writes them again).
            pub async fn delete_of_recipe(
                conn: &mut AsyncPgConnection,
                user: UserId,
                recipe_id: Uuid,
            ) -> QueryResult<usize> {
                diesel::delete(
                    $table::table
                        .filter($table::recipe_id.eq(recipe_id))
                        .filter($table::user_id.eq(user.0)),
                )
                .execute(conn)
                .await
            }

            /// Deletes the child; returns its recipe's id, or `None` when there was no such child.
            pub async fn delete(
                conn: &mut AsyncPgConnection,
                user: UserId,
                id: Uuid,
            ) -> QueryResult<Option<Uuid>> {
                diesel::delete(
                    $table::table
                        .filter($table::id.eq(id))
                        .filter($table::user_id.eq(user.0)),
                )
                .returning($table::recipe_id)
                .get_result(conn)
                .await
                .optional()
            }
        }
    };
}

/// Rows per multi-row insert: the widest child row has 17 columns, and PostgreSQL takes at most
/// 65,535 bind parameters in one statement.
const ROWS_PER_INSERT: usize = 2_000;

child_queries!(fermentable_q, fermentables, FermentableRow);
child_queries!(hop_q, hops, HopRow);
child_queries!(yeast_q, yeasts, YeastRow);
child_queries!(misc_q, miscs, MiscRow);
child_queries!(mash_step_q, mash_steps, MashStepRow);
child_queries!(water_addition_q, water_additions, WaterAdditionRow);
child_queries!(fermentation_step_q, fermentation_steps, FermentationStepRow);

pub(super) fn entities<R>(
    rows: Vec<R>,
    to_entity: impl Fn(R) -> DomainResult<RecipeChild>,
) -> DomainResult<Vec<RecipeChild>> {
    rows.into_iter().map(to_entity).collect()
}

// ---- Reads used by the recipe repository ------------------------------------------------------

/// All five child lists of a recipe, in display order.
pub(crate) struct Children {
    pub fermentables: Vec<Fermentable>,
    pub hops: Vec<Hop>,
    pub yeasts: Vec<Yeast>,
    pub miscs: Vec<Misc>,
    pub mash_steps: Vec<MashStep>,
    pub water_additions: Vec<WaterAddition>,
    pub fermentation_steps: Vec<FermentationStep>,
}

fn all_entities<R, E>(
    rows: Vec<R>,
    to_entity: impl Fn(R) -> DomainResult<E>,
) -> DomainResult<Vec<E>> {
    rows.into_iter().map(to_entity).collect()
}

/// The seven lists, pipelined: seven queries, one round trip.
pub(crate) async fn load_children(
    conn: &AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
) -> DomainResult<Children> {
    let ids = [recipe_id];
    let (f, h, y, m, s, w, fs) = futures_util::try_join!(
        fermentable_q::of_recipes(conn, user, &ids),
        hop_q::of_recipes(conn, user, &ids),
        yeast_q::of_recipes(conn, user, &ids),
        misc_q::of_recipes(conn, user, &ids),
        mash_step_q::of_recipes(conn, user, &ids),
        water_addition_q::of_recipes(conn, user, &ids),
        fermentation_step_q::of_recipes(conn, user, &ids),
    )
    .map_err(db_error)?;
    Ok(Children {
        fermentables: all_entities(f, FermentableRow::entity)?,
        hops: all_entities(h, HopRow::entity)?,
        yeasts: all_entities(y, YeastRow::entity)?,
        miscs: all_entities(m, MiscRow::entity)?,
        mash_steps: all_entities(s, MashStepRow::entity)?,
        water_additions: all_entities(w, WaterAdditionRow::entity)?,
        fermentation_steps: all_entities(fs, FermentationStepRow::entity)?,
    })
}

/// The seven child lists as columns of a query over `recipes` (see [`super::nested`]).
pub(crate) fn nested_columns() -> NestedColumns {
    (
        NestedChildren::new("fermentables"),
        NestedChildren::new("hops"),
        NestedChildren::new("yeasts"),
        NestedChildren::new("miscs"),
        NestedChildren::new("mash_steps"),
        NestedChildren::new("water_additions"),
        NestedChildren::new("fermentation_steps"),
    )
}

pub(crate) type NestedColumns = (
    NestedChildren<FermentableRow>,
    NestedChildren<HopRow>,
    NestedChildren<YeastRow>,
    NestedChildren<MiscRow>,
    NestedChildren<MashStepRow>,
    NestedChildren<WaterAdditionRow>,
    NestedChildren<FermentationStepRow>,
);

/// A row of a query over `recipes` that selects `R` and then [`nested_columns`], decoded.
/// (Flat, not `(R, (lists…))`: diesel loads a select of nested tuples only into nested tuples of
/// SQL types, which a `SelectBy` beside them does not allow.)
pub(crate) type WithNested<R> = (
    R,
    RowsOf<FermentableRow>,
    RowsOf<HopRow>,
    RowsOf<YeastRow>,
    RowsOf<MiscRow>,
    RowsOf<MashStepRow>,
    RowsOf<WaterAdditionRow>,
    RowsOf<FermentationStepRow>,
);

/// Splits a [`WithNested`] row into the outer row and its child lists as domain entities.
pub(crate) fn split_nested<R>(row: WithNested<R>) -> DomainResult<(R, Children)> {
    let (outer, RowsOf(f), RowsOf(h), RowsOf(y), RowsOf(m), RowsOf(s), RowsOf(w), RowsOf(fs)) = row;
    let children = Children {
        fermentables: all_entities(f, FermentableRow::entity)?,
        hops: all_entities(h, HopRow::entity)?,
        yeasts: all_entities(y, YeastRow::entity)?,
        miscs: all_entities(m, MiscRow::entity)?,
        mash_steps: all_entities(s, MashStepRow::entity)?,
        water_additions: all_entities(w, WaterAdditionRow::entity)?,
        fermentation_steps: all_entities(fs, FermentationStepRow::entity)?,
    };
    Ok((outer, children))
}

/// What the colour of several recipes needs of their fermentables: each one's weight and colour,
/// by recipe, in display order (the order the recipe page sums them in). A page of the recipe
/// list reads these two columns instead of the whole rows: decoding 200 whole fermentables was
/// most of the page's work (counted in docs/benchmarks-log.md, "Instructions per request, and the
/// recipe list's colour").
pub(crate) async fn malt_colours_by_recipe(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_ids: &[Uuid],
) -> DomainResult<HashMap<Uuid, Vec<MaltColour>>> {
    let mut by_recipe: HashMap<Uuid, Vec<MaltColour>> = HashMap::new();
    if recipe_ids.is_empty() {
        return Ok(by_recipe);
    }
    let rows: Vec<(Uuid, f64, f64)> = fermentables::table
        .filter(fermentables::user_id.eq(user.0))
        .filter(fermentables::recipe_id.eq_any(recipe_ids))
        .order((
            fermentables::sort_order,
            fermentables::created_at,
            fermentables::id,
        ))
        .select((
            fermentables::recipe_id,
            fermentables::amount_kg,
            fermentables::color_srm,
        ))
        .load(conn)
        .await
        .map_err(db_error)?;
    for (recipe_id, amount_kg, color_srm) in rows {
        by_recipe.entry(recipe_id).or_default().push(MaltColour {
            amount_kg,
            color_srm,
        });
    }
    Ok(by_recipe)
}

/// Inserts copies of `children` under `new_recipe_id`: new ids and timestamps, same order.
pub(crate) async fn copy_children(
    conn: &mut AsyncPgConnection,
    user: UserId,
    children: &Children,
    new_recipe_id: Uuid,
    now: OffsetDateTime,
) -> Result<Children, TxError> {
    fn fresh<T: Clone>(items: &[T], renew: impl Fn(&mut T)) -> Vec<T> {
        items
            .iter()
            .map(|item| {
                let mut copy = item.clone();
                renew(&mut copy);
                copy
            })
            .collect()
    }
    macro_rules! renew {
        () => {
            |c| {
                c.id = new_id();
                c.recipe_id = new_recipe_id;
                c.created_at = now;
            }
        };
    }
    let f: Vec<_> = fresh(&children.fermentables, renew!())
        .iter()
        .map(|e| FermentableRow::of(e, user))
        .collect();
    let h: Vec<_> = fresh(&children.hops, renew!())
        .iter()
        .map(|e| HopRow::of(e, user))
        .collect();
    let y: Vec<_> = fresh(&children.yeasts, renew!())
        .iter()
        .map(|e| YeastRow::of(e, user))
        .collect();
    let m: Vec<_> = fresh(&children.miscs, renew!())
        .iter()
        .map(|e| MiscRow::of(e, user))
        .collect();
    let s: Vec<_> = fresh(&children.mash_steps, renew!())
        .iter()
        .map(|e| MashStepRow::of(e, user))
        .collect();
    let w: Vec<_> = fresh(&children.water_additions, renew!())
        .iter()
        .map(|e| WaterAdditionRow::of(e, user))
        .collect();
    let fs: Vec<_> = fresh(&children.fermentation_steps, renew!())
        .iter()
        .map(|e| FermentationStepRow::of(e, user))
        .collect();
    Ok(Children {
        fermentables: all_entities(
            fermentable_q::insert(conn, &f).await?,
            FermentableRow::entity,
        )?,
        hops: all_entities(hop_q::insert(conn, &h).await?, HopRow::entity)?,
        yeasts: all_entities(yeast_q::insert(conn, &y).await?, YeastRow::entity)?,
        miscs: all_entities(misc_q::insert(conn, &m).await?, MiscRow::entity)?,
        mash_steps: all_entities(mash_step_q::insert(conn, &s).await?, MashStepRow::entity)?,
        water_additions: all_entities(
            water_addition_q::insert(conn, &w).await?,
            WaterAdditionRow::entity,
        )?,
        fermentation_steps: all_entities(
            fermentation_step_q::insert(conn, &fs).await?,
            FermentationStepRow::entity,
        )?,
    })
}

/// The rows of new children of several recipes, each list's missing `sort_order`s appended
/// after the largest one before them (as a single add does).
fn new_rows<N, R>(
    lists: impl Iterator<Item = (Uuid, Vec<N>)>,
    user: UserId,
    now: OffsetDateTime,
    sort_order: impl Fn(&N) -> Option<i32>,
    row: impl Fn(N, &RowPlace, i32) -> R,
) -> Vec<R> {
    let mut rows = Vec::new();
    for (recipe_id, items) in lists {
        let mut append_at = 0_i32;
        for item in items {
            let order = sort_order(&item).unwrap_or(append_at);
            append_at = append_at.max(order.saturating_add(1));
            let at = RowPlace {
                id: new_id(),
                user,
                recipe_id,
                now,
            };
            rows.push(row(item, &at, order));
        }
    }
    rows
}

/// Entities grouped by recipe, each group in display order.
fn grouped<E>(
    entities: Vec<E>,
    recipe_of: impl Fn(&E) -> Uuid,
    order_of: impl Fn(&E) -> (i32, OffsetDateTime, Uuid),
) -> HashMap<Uuid, Vec<E>> {
    let mut by_recipe: HashMap<Uuid, Vec<E>> = HashMap::new();
    for e in entities {
        by_recipe.entry(recipe_of(&e)).or_default().push(e);
    }
    for list in by_recipe.values_mut() {
        list.sort_by_key(&order_of);
    }
    by_recipe
}

/// The children of several recipes, by recipe.
pub(crate) struct ChildrenByRecipe {
    fermentables: HashMap<Uuid, Vec<Fermentable>>,
    hops: HashMap<Uuid, Vec<Hop>>,
    yeasts: HashMap<Uuid, Vec<Yeast>>,
    miscs: HashMap<Uuid, Vec<Misc>>,
    mash_steps: HashMap<Uuid, Vec<MashStep>>,
    water_additions: HashMap<Uuid, Vec<WaterAddition>>,
    fermentation_steps: HashMap<Uuid, Vec<FermentationStep>>,
}

/// One list of each kind, as loaded or inserted.
type ChildLists = (
    Vec<Fermentable>,
    Vec<Hop>,
    Vec<Yeast>,
    Vec<Misc>,
    Vec<MashStep>,
    Vec<WaterAddition>,
    Vec<FermentationStep>,
);

impl ChildrenByRecipe {
    fn of((f, h, y, m, s, w, fs): ChildLists) -> Self {
        macro_rules! by_recipe {
            ($list:expr) => {
                grouped(
                    $list,
                    |e| e.recipe_id,
                    |e| (e.sort_order, e.created_at, e.id),
                )
            };
        }
        ChildrenByRecipe {
            fermentables: by_recipe!(f),
            hops: by_recipe!(h),
            yeasts: by_recipe!(y),
            miscs: by_recipe!(m),
            mash_steps: by_recipe!(s),
            water_additions: by_recipe!(w),
            fermentation_steps: by_recipe!(fs),
        }
    }

    /// Takes one recipe's children out (empty lists when it has none).
    pub(crate) fn take(&mut self, recipe_id: Uuid) -> Children {
        Children {
            fermentables: self.fermentables.remove(&recipe_id).unwrap_or_default(),
            hops: self.hops.remove(&recipe_id).unwrap_or_default(),
            yeasts: self.yeasts.remove(&recipe_id).unwrap_or_default(),
            miscs: self.miscs.remove(&recipe_id).unwrap_or_default(),
            mash_steps: self.mash_steps.remove(&recipe_id).unwrap_or_default(),
            water_additions: self.water_additions.remove(&recipe_id).unwrap_or_default(),
            fermentation_steps: self
                .fermentation_steps
                .remove(&recipe_id)
                .unwrap_or_default(),
        }
    }
}

/// Inserts the children of new recipes (`recipes[i].0` is the id given to the recipe): one
/// multi-row insert per kind, not one per child.
pub(crate) async fn insert_new_children(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipes: Vec<(Uuid, NewRecipeWithIngredients)>,
    now: OffsetDateTime,
) -> Result<ChildrenByRecipe, TxError> {
    let mut f = Vec::new();
    let mut h = Vec::new();
    let mut y = Vec::new();
    let mut m = Vec::new();
    let mut s = Vec::new();
    let mut w = Vec::new();
    let mut fs = Vec::new();
    for (id, r) in recipes {
        f.push((id, r.fermentables));
        h.push((id, r.hops));
        y.push((id, r.yeasts));
        m.push((id, r.miscs));
        s.push((id, r.mash_steps));
        w.push((id, r.water_additions));
        fs.push((id, r.fermentation_steps));
    }
    let f = new_rows(
        f.into_iter(),
        user,
        now,
        |n| n.sort_order,
        FermentableRow::new,
    );
    let h = new_rows(h.into_iter(), user, now, |n| n.sort_order, HopRow::new);
    let y = new_rows(y.into_iter(), user, now, |n| n.sort_order, YeastRow::new);
    let m = new_rows(m.into_iter(), user, now, |n| n.sort_order, MiscRow::new);
    let s = new_rows(s.into_iter(), user, now, |n| n.sort_order, MashStepRow::new);
    let w = new_rows(
        w.into_iter(),
        user,
        now,
        |n| n.sort_order,
        WaterAdditionRow::new,
    );
    let fs = new_rows(
        fs.into_iter(),
        user,
        now,
        |n| n.sort_order,
        FermentationStepRow::new,
    );
    Ok(ChildrenByRecipe::of((
        all_entities(
            fermentable_q::insert_many(conn, &f).await?,
            FermentableRow::entity,
        )?,
        all_entities(hop_q::insert_many(conn, &h).await?, HopRow::entity)?,
        all_entities(yeast_q::insert_many(conn, &y).await?, YeastRow::entity)?,
        all_entities(misc_q::insert_many(conn, &m).await?, MiscRow::entity)?,
        all_entities(
            mash_step_q::insert_many(conn, &s).await?,
            MashStepRow::entity,
        )?,
        all_entities(
            water_addition_q::insert_many(conn, &w).await?,
            WaterAdditionRow::entity,
        )?,
        all_entities(
            fermentation_step_q::insert_many(conn, &fs).await?,
            FermentationStepRow::entity,
        )?,
    )))
}

/// The children of several recipes: each table queried once (`recipe_id = ANY(ids)`, filtered by
/// `user_id`), the five queries pipelined in one round trip.
pub(crate) async fn load_children_of(
    conn: &AsyncPgConnection,
    user: UserId,
    recipe_ids: &[Uuid],
) -> DomainResult<ChildrenByRecipe> {
    let (f, h, y, m, s, w, fs) = futures_util::try_join!(
        fermentable_q::of_recipes(conn, user, recipe_ids),
        hop_q::of_recipes(conn, user, recipe_ids),
        yeast_q::of_recipes(conn, user, recipe_ids),
        misc_q::of_recipes(conn, user, recipe_ids),
        mash_step_q::of_recipes(conn, user, recipe_ids),
        water_addition_q::of_recipes(conn, user, recipe_ids),
        fermentation_step_q::of_recipes(conn, user, recipe_ids),
    )
    .map_err(db_error)?;
    Ok(ChildrenByRecipe::of((
        all_entities(f, FermentableRow::entity)?,
        all_entities(h, HopRow::entity)?,
        all_entities(y, YeastRow::entity)?,
        all_entities(m, MiscRow::entity)?,
        all_entities(s, MashStepRow::entity)?,
        all_entities(w, WaterAdditionRow::entity)?,
        all_entities(fs, FermentationStepRow::entity)?,
    )))
}

/// Makes the recipe's children exactly `content`'s, with their ids, orders and creation times
/// (a restored version): every child deleted, then each kind written again in one statement.
pub(crate) async fn replace_children(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    content: &wort_domain::recipe::RecipeDetail,
) -> Result<(), TxError> {
    fermentable_q::delete_of_recipe(conn, user, recipe_id).await?;
    hop_q::delete_of_recipe(conn, user, recipe_id).await?;
    yeast_q::delete_of_recipe(conn, user, recipe_id).await?;
    misc_q::delete_of_recipe(conn, user, recipe_id).await?;
    mash_step_q::delete_of_recipe(conn, user, recipe_id).await?;
    water_addition_q::delete_of_recipe(conn, user, recipe_id).await?;
    fermentation_step_q::delete_of_recipe(conn, user, recipe_id).await?;
    macro_rules! write_again {
        ($module:ident, $list:ident, $row:ident) => {
            let rows: Vec<$row> = content.$list.iter().map(|e| $row::of(e, user)).collect();
            $module::insert_many(conn, &rows).await?;
        };
    }
    write_again!(fermentable_q, fermentables, FermentableRow);
    write_again!(hop_q, hops, HopRow);
    write_again!(yeast_q, yeasts, YeastRow);
    write_again!(misc_q, miscs, MiscRow);
    write_again!(mash_step_q, mash_steps, MashStepRow);
    write_again!(water_addition_q, water_additions, WaterAdditionRow);
    write_again!(fermentation_step_q, fermentation_steps, FermentationStepRow);
    Ok(())
}
