//! [`PgIngredients`]: adding, changing and deleting one child of a recipe, each in a transaction
//! that also bumps the recipe's `updated_at`.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::ports::IngredientRepository;
use wort_domain::recipe::{
    Ingredient, IngredientKind, IngredientPatch, NewIngredient, check_ingredient_room,
};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use super::queries::{entities, fermentable_q, hop_q, mash_step_q, misc_q, yeast_q};
use super::rows::{FermentableRow, HopRow, MashStepRow, MiscRow, RowPlace, YeastRow};
use crate::error::{TxError, db_error};
use crate::pool::{DbPool, checkout};
use crate::schema::recipes;

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
