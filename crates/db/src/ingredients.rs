//! Recipe children: fermentables, hops, yeasts, miscs and mash steps.
//!
//! Each kind has a row struct (the table as diesel sees it) with conversions to and from the
//! domain entity; the queries, the same for every kind, are written once in `child_queries!`.
//! Every write runs in a transaction that also bumps the parent recipe's `updated_at` (which
//! locks the recipe row, so concurrent appends get distinct `sort_order`s).

use std::collections::HashMap;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::ingredients::{
    Fermentable, FermentableType, Hop, HopForm, HopUse, MashStep, MashStepType, Misc, MiscType,
    MiscUse, NewFermentable, NewHop, NewMashStep, NewMisc, NewYeast, Yeast, YeastForm, YeastType,
};
use wort_domain::ports::IngredientRepository;
use wort_domain::recipe::{
    Ingredient, IngredientKind, IngredientPatch, NewIngredient, NewRecipeWithIngredients,
    check_ingredient_room,
};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error};
use crate::pool::{DbPool, checkout};
use crate::schema::{fermentables, hops, mash_steps, miscs, recipes, yeasts};

fn parse_enum<T>(value: &str, parse: impl Fn(&str) -> Option<T>) -> DomainResult<T> {
    parse(value).ok_or_else(|| DomainError::Internal(format!("unexpected stored value {value:?}")))
}

// ---- Rows ---------------------------------------------------------------------------------------

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
#[diesel(table_name = fermentables, treat_none_as_null = true)]
pub(crate) struct FermentableRow {
    id: Uuid,
    user_id: Uuid,
    recipe_id: Uuid,
    name: String,
    kind: String,
    amount_kg: f64,
    color_srm: f64,
    yield_percent: f64,
    origin: Option<String>,
    notes: Option<String>,
    sort_order: i32,
    created_at: OffsetDateTime,
}

impl FermentableRow {
    fn of(e: &Fermentable, user: UserId) -> Self {
        FermentableRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            kind: e.kind.as_str().to_owned(),
            amount_kg: e.amount_kg,
            color_srm: e.color_srm,
            yield_percent: e.yield_percent,
            origin: e.origin.clone(),
            notes: e.notes.clone(),
            sort_order: e.sort_order,
            created_at: e.created_at,
        }
    }

    fn entity(self) -> DomainResult<Fermentable> {
        Ok(Fermentable {
            kind: parse_enum(&self.kind, FermentableType::parse)?,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            amount_kg: self.amount_kg,
            color_srm: self.color_srm,
            yield_percent: self.yield_percent,
            origin: self.origin,
            notes: self.notes,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
#[diesel(table_name = hops, treat_none_as_null = true)]
pub(crate) struct HopRow {
    id: Uuid,
    user_id: Uuid,
    recipe_id: Uuid,
    name: String,
    alpha_acid: f64,
    amount_grams: f64,
    time_minutes: f64,
    hop_use: String,
    sort_order: i32,
    created_at: OffsetDateTime,
    form: Option<String>,
}

impl HopRow {
    fn of(e: &Hop, user: UserId) -> Self {
        HopRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            alpha_acid: e.alpha_acid,
            amount_grams: e.amount_grams,
            time_minutes: e.time_minutes,
            hop_use: e.hop_use.as_str().to_owned(),
            sort_order: e.sort_order,
            created_at: e.created_at,
            form: e.form.map(|f| f.as_str().to_owned()),
        }
    }

    fn entity(self) -> DomainResult<Hop> {
        Ok(Hop {
            hop_use: parse_enum(&self.hop_use, HopUse::parse)?,
            form: self
                .form
                .as_deref()
                .map(|f| parse_enum(f, HopForm::parse))
                .transpose()?,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            alpha_acid: self.alpha_acid,
            amount_grams: self.amount_grams,
            time_minutes: self.time_minutes,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
#[diesel(table_name = yeasts, treat_none_as_null = true)]
pub(crate) struct YeastRow {
    id: Uuid,
    user_id: Uuid,
    recipe_id: Uuid,
    name: String,
    lab: Option<String>,
    product_id: Option<String>,
    kind: String,
    form: Option<String>,
    attenuation: Option<f64>,
    min_temp_c: Option<f64>,
    max_temp_c: Option<f64>,
    amount: Option<f64>,
    amount_unit: Option<String>,
    notes: Option<String>,
    sort_order: i32,
    created_at: OffsetDateTime,
}

impl YeastRow {
    fn of(e: &Yeast, user: UserId) -> Self {
        YeastRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            lab: e.lab.clone(),
            product_id: e.product_id.clone(),
            kind: e.kind.as_str().to_owned(),
            form: e.form.map(|f| f.as_str().to_owned()),
            attenuation: e.attenuation,
            min_temp_c: e.min_temp_c,
            max_temp_c: e.max_temp_c,
            amount: e.amount,
            amount_unit: e.amount_unit.clone(),
            notes: e.notes.clone(),
            sort_order: e.sort_order,
            created_at: e.created_at,
        }
    }

    fn entity(self) -> DomainResult<Yeast> {
        Ok(Yeast {
            kind: parse_enum(&self.kind, YeastType::parse)?,
            form: self
                .form
                .as_deref()
                .map(|f| parse_enum(f, YeastForm::parse))
                .transpose()?,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            lab: self.lab,
            product_id: self.product_id,
            attenuation: self.attenuation,
            min_temp_c: self.min_temp_c,
            max_temp_c: self.max_temp_c,
            amount: self.amount,
            amount_unit: self.amount_unit,
            notes: self.notes,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
#[diesel(table_name = miscs, treat_none_as_null = true)]
pub(crate) struct MiscRow {
    id: Uuid,
    user_id: Uuid,
    recipe_id: Uuid,
    name: String,
    kind: String,
    misc_use: String,
    amount: f64,
    amount_unit: String,
    time_minutes: f64,
    notes: Option<String>,
    sort_order: i32,
    created_at: OffsetDateTime,
}

impl MiscRow {
    fn of(e: &Misc, user: UserId) -> Self {
        MiscRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            kind: e.kind.as_str().to_owned(),
            misc_use: e.misc_use.as_str().to_owned(),
            amount: e.amount,
            amount_unit: e.amount_unit.clone(),
            time_minutes: e.time_minutes,
            notes: e.notes.clone(),
            sort_order: e.sort_order,
            created_at: e.created_at,
        }
    }

    fn entity(self) -> DomainResult<Misc> {
        Ok(Misc {
            kind: parse_enum(&self.kind, MiscType::parse)?,
            misc_use: parse_enum(&self.misc_use, MiscUse::parse)?,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            amount: self.amount,
            amount_unit: self.amount_unit,
            time_minutes: self.time_minutes,
            notes: self.notes,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
#[diesel(table_name = mash_steps, treat_none_as_null = true)]
pub(crate) struct MashStepRow {
    id: Uuid,
    user_id: Uuid,
    recipe_id: Uuid,
    name: String,
    kind: String,
    temperature_c: f64,
    duration_minutes: f64,
    infuse_amount_liters: Option<f64>,
    ramp_minutes: Option<f64>,
    sort_order: i32,
    created_at: OffsetDateTime,
}

impl MashStepRow {
    fn of(e: &MashStep, user: UserId) -> Self {
        MashStepRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            kind: e.kind.as_str().to_owned(),
            temperature_c: e.temperature_c,
            duration_minutes: e.duration_minutes,
            infuse_amount_liters: e.infuse_amount_liters,
            ramp_minutes: e.ramp_minutes,
            sort_order: e.sort_order,
            created_at: e.created_at,
        }
    }

    fn entity(self) -> DomainResult<MashStep> {
        Ok(MashStep {
            kind: parse_enum(&self.kind, MashStepType::parse)?,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            temperature_c: self.temperature_c,
            duration_minutes: self.duration_minutes,
            infuse_amount_liters: self.infuse_amount_liters,
            ramp_minutes: self.ramp_minutes,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

// ---- New rows -----------------------------------------------------------------------------------

/// Where a new child row goes: its id, owner, recipe and creation time.
pub(crate) struct RowPlace {
    pub id: Uuid,
    pub user: UserId,
    pub recipe_id: Uuid,
    pub now: OffsetDateTime,
}

impl FermentableRow {
    /// The row of a new fermentable; `append_at` is its `sort_order` when it names none.
    pub(crate) fn new(n: NewFermentable, at: &RowPlace, append_at: i32) -> Self {
        FermentableRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            kind: n.kind.as_str().to_owned(),
            amount_kg: n.amount_kg,
            color_srm: n.color_srm,
            yield_percent: n.yield_percent,
            origin: n.origin,
            notes: n.notes,
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
        }
    }
}

impl HopRow {
    pub(crate) fn new(n: NewHop, at: &RowPlace, append_at: i32) -> Self {
        HopRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            alpha_acid: n.alpha_acid,
            amount_grams: n.amount_grams,
            time_minutes: n.time_minutes,
            hop_use: n.hop_use.as_str().to_owned(),
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
            form: n.form.map(|f| f.as_str().to_owned()),
        }
    }
}

impl YeastRow {
    pub(crate) fn new(n: NewYeast, at: &RowPlace, append_at: i32) -> Self {
        YeastRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            lab: n.lab,
            product_id: n.product_id,
            kind: n.kind.as_str().to_owned(),
            form: n.form.map(|f| f.as_str().to_owned()),
            attenuation: n.attenuation,
            min_temp_c: n.min_temp_c,
            max_temp_c: n.max_temp_c,
            amount: n.amount,
            amount_unit: n.amount_unit,
            notes: n.notes,
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
        }
    }
}

impl MiscRow {
    pub(crate) fn new(n: NewMisc, at: &RowPlace, append_at: i32) -> Self {
        MiscRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            kind: n.kind.as_str().to_owned(),
            misc_use: n.misc_use.as_str().to_owned(),
            amount: n.amount,
            amount_unit: n.amount_unit,
            time_minutes: n.time_minutes,
            notes: n.notes,
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
        }
    }
}

impl MashStepRow {
    pub(crate) fn new(n: NewMashStep, at: &RowPlace, append_at: i32) -> Self {
        MashStepRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            kind: n.kind.as_str().to_owned(),
            temperature_c: n.temperature_c,
            duration_minutes: n.duration_minutes,
            infuse_amount_liters: n.infuse_amount_liters,
            ramp_minutes: n.ramp_minutes,
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
        }
    }
}

// ---- The same queries for every kind --------------------------------------------------------

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
                diesel::update(
                    $table::table
                        .filter($table::id.eq(row.id))
                        .filter($table::user_id.eq(row.user_id)),
                )
                .set(row)
                .returning($row::as_returning())
                .get_result(conn)
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

/// Rows per multi-row insert: the widest child row has 16 columns, and PostgreSQL takes at most
/// 65,535 bind parameters in one statement.
const ROWS_PER_INSERT: usize = 2_000;

child_queries!(fermentable_q, fermentables, FermentableRow);
child_queries!(hop_q, hops, HopRow);
child_queries!(yeast_q, yeasts, YeastRow);
child_queries!(misc_q, miscs, MiscRow);
child_queries!(mash_step_q, mash_steps, MashStepRow);

fn entities<R>(
    rows: Vec<R>,
    to_entity: impl Fn(R) -> DomainResult<Ingredient>,
) -> DomainResult<Vec<Ingredient>> {
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
}

fn all_entities<R, E>(
    rows: Vec<R>,
    to_entity: impl Fn(R) -> DomainResult<E>,
) -> DomainResult<Vec<E>> {
    rows.into_iter().map(to_entity).collect()
}

/// The five lists, pipelined: five queries, one round trip.
pub(crate) async fn load_ingredients(
    conn: &AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
) -> DomainResult<Children> {
    let ids = [recipe_id];
    let (f, h, y, m, s) = futures_util::try_join!(
        fermentable_q::of_recipes(conn, user, &ids),
        hop_q::of_recipes(conn, user, &ids),
        yeast_q::of_recipes(conn, user, &ids),
        misc_q::of_recipes(conn, user, &ids),
        mash_step_q::of_recipes(conn, user, &ids),
    )
    .map_err(db_error)?;
    Ok(Children {
        fermentables: all_entities(f, FermentableRow::entity)?,
        hops: all_entities(h, HopRow::entity)?,
        yeasts: all_entities(y, YeastRow::entity)?,
        miscs: all_entities(m, MiscRow::entity)?,
        mash_steps: all_entities(s, MashStepRow::entity)?,
    })
}

/// Fermentables of several recipes at once (for the colour of a page of recipes).
pub(crate) async fn fermentables_by_recipe(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_ids: &[Uuid],
) -> DomainResult<HashMap<Uuid, Vec<Fermentable>>> {
    let mut by_recipe: HashMap<Uuid, Vec<Fermentable>> = HashMap::new();
    if recipe_ids.is_empty() {
        return Ok(by_recipe);
    }
    for row in fermentable_q::of_recipes(conn, user, recipe_ids)
        .await
        .map_err(db_error)?
    {
        let f = row.entity()?;
        by_recipe.entry(f.recipe_id).or_default().push(f);
    }
    Ok(by_recipe)
}

/// Inserts copies of `children` under `new_recipe_id`: new ids and timestamps, same order.
pub(crate) async fn copy_ingredients(
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
    Ok(Children {
        fermentables: all_entities(
            fermentable_q::insert(conn, &f).await?,
            FermentableRow::entity,
        )?,
        hops: all_entities(hop_q::insert(conn, &h).await?, HopRow::entity)?,
        yeasts: all_entities(yeast_q::insert(conn, &y).await?, YeastRow::entity)?,
        miscs: all_entities(misc_q::insert(conn, &m).await?, MiscRow::entity)?,
        mash_steps: all_entities(mash_step_q::insert(conn, &s).await?, MashStepRow::entity)?,
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
}

impl ChildrenByRecipe {
    fn of(f: Vec<Fermentable>, h: Vec<Hop>, y: Vec<Yeast>, m: Vec<Misc>, s: Vec<MashStep>) -> Self {
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
    for (id, r) in recipes {
        f.push((id, r.fermentables));
        h.push((id, r.hops));
        y.push((id, r.yeasts));
        m.push((id, r.miscs));
        s.push((id, r.mash_steps));
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
    Ok(ChildrenByRecipe::of(
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
    ))
}

/// The children of several recipes: each table queried once (`recipe_id = ANY(ids)`, filtered by
/// `user_id`), the five queries pipelined in one round trip.
pub(crate) async fn load_children_of(
    conn: &AsyncPgConnection,
    user: UserId,
    recipe_ids: &[Uuid],
) -> DomainResult<ChildrenByRecipe> {
    let (f, h, y, m, s) = futures_util::try_join!(
        fermentable_q::of_recipes(conn, user, recipe_ids),
        hop_q::of_recipes(conn, user, recipe_ids),
        yeast_q::of_recipes(conn, user, recipe_ids),
        misc_q::of_recipes(conn, user, recipe_ids),
        mash_step_q::of_recipes(conn, user, recipe_ids),
    )
    .map_err(db_error)?;
    Ok(ChildrenByRecipe::of(
        all_entities(f, FermentableRow::entity)?,
        all_entities(h, HopRow::entity)?,
        all_entities(y, YeastRow::entity)?,
        all_entities(m, MiscRow::entity)?,
        all_entities(s, MashStepRow::entity)?,
    ))
}

// ---- The repository -----------------------------------------------------------------------------

pub struct PgIngredients {
    pool: DbPool,
}

impl PgIngredients {
    pub fn new(pool: DbPool) -> Self {
        PgIngredients { pool }
    }
}

/// Bumps the recipe's `updated_at` (and locks its row until the transaction ends); `NotFound`
/// when the recipe is not the caller's.
async fn touch_recipe(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let updated = diesel::update(
        recipes::table
            .filter(recipes::id.eq(recipe_id))
            .filter(recipes::user_id.eq(user.0)),
    )
    .set(recipes::updated_at.eq(now))
    .execute(conn)
    .await?;
    if updated == 0 {
        Err(TxError(DomainError::NotFound))
    } else {
        Ok(())
    }
}

async fn add_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    new: NewIngredient,
    now: OffsetDateTime,
) -> Result<Ingredient, TxError> {
    touch_recipe(conn, user, recipe_id, now).await?;
    let (count, last) = match new.kind() {
        IngredientKind::Fermentable => fermentable_q::count_and_last(conn, user, recipe_id).await?,
        IngredientKind::Hop => hop_q::count_and_last(conn, user, recipe_id).await?,
        IngredientKind::Yeast => yeast_q::count_and_last(conn, user, recipe_id).await?,
        IngredientKind::Misc => misc_q::count_and_last(conn, user, recipe_id).await?,
        IngredientKind::MashStep => mash_step_q::count_and_last(conn, user, recipe_id).await?,
    };
    check_ingredient_room(new.kind(), count).map_err(TxError)?;
    let append_at = last.map_or(0, |l| l.saturating_add(1));
    let at = RowPlace {
        id: new_id(),
        user,
        recipe_id,
        now,
    };
    let inserted = match new {
        NewIngredient::Fermentable(n) => {
            let row = FermentableRow::new(n, &at, append_at);
            entities(fermentable_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(Ingredient::Fermentable)
            })?
        }
        NewIngredient::Hop(n) => {
            let row = HopRow::new(n, &at, append_at);
            entities(hop_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(Ingredient::Hop)
            })?
        }
        NewIngredient::Yeast(n) => {
            let row = YeastRow::new(n, &at, append_at);
            entities(yeast_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(Ingredient::Yeast)
            })?
        }
        NewIngredient::Misc(n) => {
            let row = MiscRow::new(n, &at, append_at);
            entities(misc_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(Ingredient::Misc)
            })?
        }
        NewIngredient::MashStep(n) => {
            let row = MashStepRow::new(n, &at, append_at);
            entities(mash_step_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(Ingredient::MashStep)
            })?
        }
    };
    inserted
        .into_iter()
        .next()
        .ok_or_else(|| TxError(DomainError::Internal("insert returned no row".into())))
}

async fn find_ingredient(
    conn: &mut AsyncPgConnection,
    user: UserId,
    kind: IngredientKind,
    id: Uuid,
) -> Result<Ingredient, TxError> {
    Ok(match kind {
        IngredientKind::Fermentable => {
            Ingredient::Fermentable(fermentable_q::find(conn, user, id).await?.entity()?)
        }
        IngredientKind::Hop => Ingredient::Hop(hop_q::find(conn, user, id).await?.entity()?),
        IngredientKind::Yeast => Ingredient::Yeast(yeast_q::find(conn, user, id).await?.entity()?),
        IngredientKind::Misc => Ingredient::Misc(misc_q::find(conn, user, id).await?.entity()?),
        IngredientKind::MashStep => {
            Ingredient::MashStep(mash_step_q::find(conn, user, id).await?.entity()?)
        }
    })
}

async fn update_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    patch: IngredientPatch,
    now: OffsetDateTime,
) -> Result<Ingredient, TxError> {
    let current = find_ingredient(conn, user, patch.kind(), id).await?;
    let (recipe_id, saved) = match (current, patch) {
        (Ingredient::Fermentable(mut e), IngredientPatch::Fermentable(p)) if !p.is_empty() => {
            p.apply(&mut e);
            (
                e.recipe_id,
                Ingredient::Fermentable(
                    fermentable_q::save(conn, &FermentableRow::of(&e, user))
                        .await?
                        .entity()?,
                ),
            )
        }
        (Ingredient::Hop(mut e), IngredientPatch::Hop(p)) if !p.is_empty() => {
            p.apply(&mut e);
            (
                e.recipe_id,
                Ingredient::Hop(hop_q::save(conn, &HopRow::of(&e, user)).await?.entity()?),
            )
        }
        (Ingredient::Yeast(mut e), IngredientPatch::Yeast(p)) if !p.is_empty() => {
            p.apply(&mut e);
            (
                e.recipe_id,
                Ingredient::Yeast(
                    yeast_q::save(conn, &YeastRow::of(&e, user))
                        .await?
                        .entity()?,
                ),
            )
        }
        (Ingredient::Misc(mut e), IngredientPatch::Misc(p)) if !p.is_empty() => {
            p.apply(&mut e);
            (
                e.recipe_id,
                Ingredient::Misc(misc_q::save(conn, &MiscRow::of(&e, user)).await?.entity()?),
            )
        }
        (Ingredient::MashStep(mut e), IngredientPatch::MashStep(p)) if !p.is_empty() => {
            p.apply(&mut e);
            (
                e.recipe_id,
                Ingredient::MashStep(
                    mash_step_q::save(conn, &MashStepRow::of(&e, user))
                        .await?
                        .entity()?,
                ),
            )
        }
        // An empty patch changes nothing, the recipe's updated_at included.
        (unchanged, _) => return Ok(unchanged),
    };
    touch_recipe(conn, user, recipe_id, now).await?;
    Ok(saved)
}

async fn delete_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    kind: IngredientKind,
    id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let recipe_id = match kind {
        IngredientKind::Fermentable => fermentable_q::delete(conn, user, id).await?,
        IngredientKind::Hop => hop_q::delete(conn, user, id).await?,
        IngredientKind::Yeast => yeast_q::delete(conn, user, id).await?,
        IngredientKind::Misc => misc_q::delete(conn, user, id).await?,
        IngredientKind::MashStep => mash_step_q::delete(conn, user, id).await?,
    };
    let recipe_id = recipe_id.ok_or(TxError(DomainError::NotFound))?;
    touch_recipe(conn, user, recipe_id, now).await
}

#[async_trait]
impl IngredientRepository for PgIngredients {
    async fn add(
        &self,
        user: UserId,
        recipe_id: Uuid,
        new: NewIngredient,
        now: OffsetDateTime,
    ) -> DomainResult<Ingredient> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| add_in_tx(conn, user, recipe_id, new, now).await)
            .await
            .map_err(|TxError(e)| e)
    }

    async fn list(
        &self,
        user: UserId,
        recipe_id: Uuid,
        kind: IngredientKind,
    ) -> DomainResult<Vec<Ingredient>> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let ids = [recipe_id];
        let exists = recipes::table
            .filter(recipes::id.eq(recipe_id))
            .filter(recipes::user_id.eq(user.0))
            .count()
            .get_result::<i64>(&mut &*conn_ref);
        // Existence and the list travel together in one round trip.
        let (count, children) = match kind {
            IngredientKind::Fermentable => {
                let (c, rows) = futures_util::try_join!(
                    exists,
                    fermentable_q::of_recipes(conn_ref, user, &ids)
                )
                .map_err(db_error)?;
                (
                    c,
                    entities(rows, |r| r.entity().map(Ingredient::Fermentable))?,
                )
            }
            IngredientKind::Hop => {
                let (c, rows) =
                    futures_util::try_join!(exists, hop_q::of_recipes(conn_ref, user, &ids))
                        .map_err(db_error)?;
                (c, entities(rows, |r| r.entity().map(Ingredient::Hop))?)
            }
            IngredientKind::Yeast => {
                let (c, rows) =
                    futures_util::try_join!(exists, yeast_q::of_recipes(conn_ref, user, &ids))
                        .map_err(db_error)?;
                (c, entities(rows, |r| r.entity().map(Ingredient::Yeast))?)
            }
            IngredientKind::Misc => {
                let (c, rows) =
                    futures_util::try_join!(exists, misc_q::of_recipes(conn_ref, user, &ids))
                        .map_err(db_error)?;
                (c, entities(rows, |r| r.entity().map(Ingredient::Misc))?)
            }
            IngredientKind::MashStep => {
                let (c, rows) =
                    futures_util::try_join!(exists, mash_step_q::of_recipes(conn_ref, user, &ids))
                        .map_err(db_error)?;
                (c, entities(rows, |r| r.entity().map(Ingredient::MashStep))?)
            }
        };
        if count == 0 {
            Err(DomainError::NotFound)
        } else {
            Ok(children)
        }
    }

    async fn get(&self, user: UserId, kind: IngredientKind, id: Uuid) -> DomainResult<Ingredient> {
        let mut conn = checkout(&self.pool).await?;
        // FOR UPDATE outside a transaction locks nothing for long; one query, one shape.
        find_ingredient(&mut conn, user, kind, id)
            .await
            .map_err(|TxError(e)| e)
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: IngredientPatch,
        now: OffsetDateTime,
    ) -> DomainResult<Ingredient> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| update_in_tx(conn, user, id, patch, now).await)
            .await
            .map_err(|TxError(e)| e)
    }

    async fn delete(
        &self,
        user: UserId,
        kind: IngredientKind,
        id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| delete_in_tx(conn, user, kind, id, now).await)
            .await
            .map_err(|TxError(e)| e)
    }
}
