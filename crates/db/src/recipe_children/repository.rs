//! [`PgRecipeChildren`]: adding, changing and deleting one child of a recipe, each in a transaction
//! that also bumps the recipe's `updated_at`.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::ports::RecipeChildRepository;
use wort_domain::recipe::{
    NewRecipeChild, RecipeChild, RecipeChildKind, RecipeChildPatch, check_child_room,
};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use super::queries::{
    entities, fermentable_q, fermentation_step_q, hop_q, mash_step_q, misc_q, water_addition_q,
    yeast_q,
};
use super::rows::{
    FermentableRow, FermentationStepRow, HopRow, MashStepRow, MiscRow, RowPlace, WaterAdditionRow,
    YeastRow,
};
use crate::error::{TxError, db_error};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::recipes;

pub struct PgRecipeChildren {
    pool: DbPool,
}

impl PgRecipeChildren {
    pub fn new(pool: DbPool) -> Self {
        PgRecipeChildren { pool }
    }
}

diesel::define_sql_function! {
    /// PostgreSQL's `greatest` of two instants.
    fn greatest(a: diesel::sql_types::Timestamptz, b: diesel::sql_types::Timestamptz) -> diesel::sql_types::Timestamptz;
}

/// Bumps the recipe's `updated_at` (and locks its row until the transaction ends); `NotFound`
/// when the recipe is not the caller's. Never backwards: concurrent child writes wait for the row
/// lock in no guaranteed order, and one that took its time earlier but commits later must not
/// leave the recipe older than a child written meanwhile.
async fn touch_recipe(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let updated = Prepared(
        diesel::update(
            recipes::table
                .filter(recipes::id.eq(recipe_id))
                .filter(recipes::user_id.eq(user.0)),
        )
        .set(recipes::updated_at.eq(greatest(recipes::updated_at, now))),
    )
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
    new: NewRecipeChild,
    now: OffsetDateTime,
) -> Result<RecipeChild, TxError> {
    crate::recipe_versions::record_edit(conn, user, recipe_id, now).await?;
    touch_recipe(conn, user, recipe_id, now).await?;
    let (count, last) = match new.kind() {
        RecipeChildKind::Fermentable => {
            fermentable_q::count_and_last(conn, user, recipe_id).await?
        }
        RecipeChildKind::Hop => hop_q::count_and_last(conn, user, recipe_id).await?,
        RecipeChildKind::Yeast => yeast_q::count_and_last(conn, user, recipe_id).await?,
        RecipeChildKind::Misc => misc_q::count_and_last(conn, user, recipe_id).await?,
        RecipeChildKind::MashStep => mash_step_q::count_and_last(conn, user, recipe_id).await?,
        RecipeChildKind::WaterAddition => {
            water_addition_q::count_and_last(conn, user, recipe_id).await?
        }
        RecipeChildKind::FermentationStep => {
            fermentation_step_q::count_and_last(conn, user, recipe_id).await?
        }
    };
    check_child_room(new.kind(), count).map_err(TxError)?;
    let append_at = last.map_or(0, |l| l.saturating_add(1));
    let at = RowPlace {
        id: new_id(),
        user,
        recipe_id,
        now,
    };
    let inserted = match new {
        NewRecipeChild::Fermentable(n) => {
            let row = FermentableRow::new(n, &at, append_at);
            entities(fermentable_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(RecipeChild::Fermentable)
            })?
        }
        NewRecipeChild::Hop(n) => {
            let row = HopRow::new(n, &at, append_at);
            entities(hop_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(RecipeChild::Hop)
            })?
        }
        NewRecipeChild::Yeast(n) => {
            let row = YeastRow::new(n, &at, append_at);
            entities(yeast_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(RecipeChild::Yeast)
            })?
        }
        NewRecipeChild::Misc(n) => {
            let row = MiscRow::new(n, &at, append_at);
            entities(misc_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(RecipeChild::Misc)
            })?
        }
        NewRecipeChild::MashStep(n) => {
            let row = MashStepRow::new(n, &at, append_at);
            entities(mash_step_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(RecipeChild::MashStep)
            })?
        }
        NewRecipeChild::WaterAddition(n) => {
            let row = WaterAdditionRow::new(n, &at, append_at);
            entities(water_addition_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(RecipeChild::WaterAddition)
            })?
        }
        NewRecipeChild::FermentationStep(n) => {
            let row = FermentationStepRow::new(n, &at, append_at);
            entities(fermentation_step_q::insert(conn, &[row]).await?, |r| {
                r.entity().map(RecipeChild::FermentationStep)
            })?
        }
    };
    inserted
        .into_iter()
        .next()
        .ok_or_else(|| TxError(DomainError::Internal("insert returned no row".into())))
}

async fn find_child(
    conn: &mut AsyncPgConnection,
    user: UserId,
    kind: RecipeChildKind,
    id: Uuid,
) -> Result<RecipeChild, TxError> {
    Ok(match kind {
        RecipeChildKind::Fermentable => {
            RecipeChild::Fermentable(fermentable_q::find(conn, user, id).await?.entity()?)
        }
        RecipeChildKind::Hop => RecipeChild::Hop(hop_q::find(conn, user, id).await?.entity()?),
        RecipeChildKind::Yeast => {
            RecipeChild::Yeast(yeast_q::find(conn, user, id).await?.entity()?)
        }
        RecipeChildKind::Misc => RecipeChild::Misc(misc_q::find(conn, user, id).await?.entity()?),
        RecipeChildKind::MashStep => {
            RecipeChild::MashStep(mash_step_q::find(conn, user, id).await?.entity()?)
        }
        RecipeChildKind::WaterAddition => {
            RecipeChild::WaterAddition(water_addition_q::find(conn, user, id).await?.entity()?)
        }
        RecipeChildKind::FermentationStep => RecipeChild::FermentationStep(
            fermentation_step_q::find(conn, user, id).await?.entity()?,
        ),
    })
}

async fn update_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    patch: RecipeChildPatch,
    now: OffsetDateTime,
) -> Result<RecipeChild, TxError> {
    let current = find_child(conn, user, patch.kind(), id).await?;
    if !patch.is_empty() {
        crate::recipe_versions::record_edit(conn, user, current.recipe_id(), now).await?;
    }
    let (recipe_id, saved) = match (current, patch) {
        (RecipeChild::Fermentable(mut e), RecipeChildPatch::Fermentable(p)) if !p.is_empty() => {
            p.apply(&mut e);
            (
                e.recipe_id,
                RecipeChild::Fermentable(
                    fermentable_q::save(conn, &FermentableRow::of(&e, user))
                        .await?
                        .entity()?,
                ),
            )
        }
        (RecipeChild::Hop(mut e), RecipeChildPatch::Hop(p)) if !p.is_empty() => {
            // The domain decides what the hop's use leaves of its stand temperature.
            p.apply(&mut e).map_err(|v| DomainError::Invalid(vec![v]))?;
            (
                e.recipe_id,
                RecipeChild::Hop(hop_q::save(conn, &HopRow::of(&e, user)).await?.entity()?),
            )
        }
        (RecipeChild::Yeast(mut e), RecipeChildPatch::Yeast(p)) if !p.is_empty() => {
            p.apply(&mut e);
            (
                e.recipe_id,
                RecipeChild::Yeast(
                    yeast_q::save(conn, &YeastRow::of(&e, user))
                        .await?
                        .entity()?,
                ),
            )
        }
        (RecipeChild::Misc(mut e), RecipeChildPatch::Misc(p)) if !p.is_empty() => {
            p.apply(&mut e);
            (
                e.recipe_id,
                RecipeChild::Misc(misc_q::save(conn, &MiscRow::of(&e, user)).await?.entity()?),
            )
        }
        (RecipeChild::MashStep(mut e), RecipeChildPatch::MashStep(p)) if !p.is_empty() => {
            p.apply(&mut e);
            (
                e.recipe_id,
                RecipeChild::MashStep(
                    mash_step_q::save(conn, &MashStepRow::of(&e, user))
                        .await?
                        .entity()?,
                ),
            )
        }
        (RecipeChild::WaterAddition(mut e), RecipeChildPatch::WaterAddition(p))
            if !p.is_empty() =>
        {
            p.apply(&mut e);
            (
                e.recipe_id,
                RecipeChild::WaterAddition(
                    water_addition_q::save(conn, &WaterAdditionRow::of(&e, user))
                        .await?
                        .entity()?,
                ),
            )
        }
        (RecipeChild::FermentationStep(mut e), RecipeChildPatch::FermentationStep(p))
            if !p.is_empty() =>
        {
            // The domain refuses a minimum longer than the step's most time.
            p.apply(&mut e).map_err(|v| DomainError::Invalid(vec![v]))?;
            (
                e.recipe_id,
                RecipeChild::FermentationStep(
                    fermentation_step_q::save(conn, &FermentationStepRow::of(&e, user))
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
    kind: RecipeChildKind,
    id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    // The recipe's version is settled before the child goes (a frozen version keeps it).
    let owner = find_child(conn, user, kind, id).await?.recipe_id();
    crate::recipe_versions::record_edit(conn, user, owner, now).await?;
    let recipe_id = match kind {
        RecipeChildKind::Fermentable => fermentable_q::delete(conn, user, id).await?,
        RecipeChildKind::Hop => hop_q::delete(conn, user, id).await?,
        RecipeChildKind::Yeast => yeast_q::delete(conn, user, id).await?,
        RecipeChildKind::Misc => misc_q::delete(conn, user, id).await?,
        RecipeChildKind::MashStep => mash_step_q::delete(conn, user, id).await?,
        RecipeChildKind::WaterAddition => water_addition_q::delete(conn, user, id).await?,
        RecipeChildKind::FermentationStep => fermentation_step_q::delete(conn, user, id).await?,
    };
    let recipe_id = recipe_id.ok_or(TxError(DomainError::NotFound))?;
    touch_recipe(conn, user, recipe_id, now).await
}

#[async_trait]
impl RecipeChildRepository for PgRecipeChildren {
    async fn add(
        &self,
        user: UserId,
        recipe_id: Uuid,
        new: NewRecipeChild,
        now: OffsetDateTime,
    ) -> DomainResult<RecipeChild> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| add_in_tx(conn, user, recipe_id, new, now).await)
            .await
            .map_err(|TxError(e)| e)
    }

    async fn list(
        &self,
        user: UserId,
        recipe_id: Uuid,
        kind: RecipeChildKind,
    ) -> DomainResult<Vec<RecipeChild>> {
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
            RecipeChildKind::Fermentable => {
                let (c, rows) = futures_util::try_join!(
                    exists,
                    fermentable_q::of_recipes(conn_ref, user, &ids)
                )
                .map_err(db_error)?;
                (
                    c,
                    entities(rows, |r| r.entity().map(RecipeChild::Fermentable))?,
                )
            }
            RecipeChildKind::Hop => {
                let (c, rows) =
                    futures_util::try_join!(exists, hop_q::of_recipes(conn_ref, user, &ids))
                        .map_err(db_error)?;
                (c, entities(rows, |r| r.entity().map(RecipeChild::Hop))?)
            }
            RecipeChildKind::Yeast => {
                let (c, rows) =
                    futures_util::try_join!(exists, yeast_q::of_recipes(conn_ref, user, &ids))
                        .map_err(db_error)?;
                (c, entities(rows, |r| r.entity().map(RecipeChild::Yeast))?)
            }
            RecipeChildKind::Misc => {
                let (c, rows) =
                    futures_util::try_join!(exists, misc_q::of_recipes(conn_ref, user, &ids))
                        .map_err(db_error)?;
                (c, entities(rows, |r| r.entity().map(RecipeChild::Misc))?)
            }
            RecipeChildKind::MashStep => {
                let (c, rows) =
                    futures_util::try_join!(exists, mash_step_q::of_recipes(conn_ref, user, &ids))
                        .map_err(db_error)?;
                (
                    c,
                    entities(rows, |r| r.entity().map(RecipeChild::MashStep))?,
                )
            }
            RecipeChildKind::WaterAddition => {
                let (c, rows) = futures_util::try_join!(
                    exists,
                    water_addition_q::of_recipes(conn_ref, user, &ids)
                )
                .map_err(db_error)?;
                (
                    c,
                    entities(rows, |r| r.entity().map(RecipeChild::WaterAddition))?,
                )
            }
            RecipeChildKind::FermentationStep => {
                let (c, rows) = futures_util::try_join!(
                    exists,
                    fermentation_step_q::of_recipes(conn_ref, user, &ids)
                )
                .map_err(db_error)?;
                (
                    c,
                    entities(rows, |r| r.entity().map(RecipeChild::FermentationStep))?,
                )
            }
        };
        if count == 0 {
            Err(DomainError::NotFound)
        } else {
            Ok(children)
        }
    }

    async fn get(
        &self,
        user: UserId,
        kind: RecipeChildKind,
        id: Uuid,
    ) -> DomainResult<RecipeChild> {
        let mut conn = checkout(&self.pool).await?;
        // FOR UPDATE outside a transaction locks nothing for long; one query, one shape.
        find_child(&mut conn, user, kind, id)
            .await
            .map_err(|TxError(e)| e)
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: RecipeChildPatch,
        now: OffsetDateTime,
    ) -> DomainResult<RecipeChild> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| update_in_tx(conn, user, id, patch, now).await)
            .await
            .map_err(|TxError(e)| e)
    }

    async fn delete(
        &self,
        user: UserId,
        kind: RecipeChildKind,
        id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| delete_in_tx(conn, user, kind, id, now).await)
            .await
            .map_err(|TxError(e)| e)
    }
}
