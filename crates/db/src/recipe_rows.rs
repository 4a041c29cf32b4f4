//! A recipe's row and the reads every store makes of it: one recipe (`find_row`), and the recipe
//! with its seven child lists in one statement (`load_detail`). Kept apart from the recipe
//! repository so that the stores that write versions, sessions and inventory read recipes
//! without depending on it.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brewing::{self, MaltColour};
use wort_domain::recipe::{Recipe, RecipeDetail, RecipeType};
use wort_domain::{DomainError, DomainResult, UserId};

use crate::error::db_error;
use crate::kept_sql::Columns;
use crate::recipe_children::{self, Children, WithNested};
use crate::schema::recipes;

#[derive(Queryable, Selectable, Insertable, Debug)]
#[diesel(table_name = recipes)]
pub(crate) struct RecipeRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub name: String,
    pub style: String,
    pub kind: String,
    pub batch_size_liters: f64,
    pub boil_time_minutes: f64,
    pub efficiency: f64,
    pub notes: Option<String>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    pub equipment_id: Option<Uuid>,
    pub style_id: Option<String>,
    pub water_profile_id: Option<Uuid>,
    pub target_water_profile_id: Option<Uuid>,
    pub parent_recipe_id: Option<Uuid>,
    pub parent_version: Option<i32>,
    pub source_url: Option<String>,
}

impl RecipeRow {
    /// The domain recipe, with its colour computed from these fermentables.
    /// The recipe, its colour from its fermentables' weights and colours (`malts`).
    pub(crate) fn into_recipe(self, malts: &[MaltColour]) -> DomainResult<Recipe> {
        let kind = RecipeType::parse(&self.kind)
            .ok_or_else(|| DomainError::Internal(format!("unknown recipe type {}", self.kind)))?;
        Ok(Recipe {
            est_color_srm: brewing::est_color_srm_of_malts(self.batch_size_liters, malts),
            id: self.id,
            user_id: self.user_id.to_string(),
            name: self.name,
            style: self.style,
            kind,
            batch_size_liters: self.batch_size_liters,
            boil_time_minutes: self.boil_time_minutes,
            efficiency: self.efficiency,
            notes: self.notes,
            equipment_id: self.equipment_id,
            style_id: self.style_id,
            water_profile_id: self.water_profile_id,
            target_water_profile_id: self.target_water_profile_id,
            parent_recipe_id: self.parent_recipe_id,
            parent_version: self.parent_version,
            source_url: self.source_url,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

pub(crate) async fn find_row(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
) -> DomainResult<RecipeRow> {
    recipes::table
        .filter(recipes::id.eq(id))
        .filter(recipes::user_id.eq(user.0))
        .select(Columns::<RecipeRow>::new())
        .first(conn)
        .await
        .map_err(db_error)
}

/// The recipe and its seven child lists in one statement (the lists are array columns of the
/// recipe's row: `recipe_children::nested_columns`). With `for_share`, the recipe row stays locked
/// against edits (every ingredient write bumps it) until the caller's transaction ends, so a
/// snapshot taken from it cannot race a change.
pub(crate) async fn load_detail(
    conn: &AsyncPgConnection,
    user: UserId,
    id: Uuid,
    for_share: bool,
) -> DomainResult<RecipeDetail> {
    let (f, h, y, m, s, w, fs) = recipe_children::nested_columns();
    let query = recipes::table
        .filter(recipes::id.eq(id))
        .filter(recipes::user_id.eq(user.0))
        .select((Columns::<RecipeRow>::new(), f, h, y, m, s, w, fs));
    let row = if for_share {
        query
            .for_share()
            .first::<WithNested<RecipeRow>>(&mut &*conn)
            .await
    } else {
        query.first::<WithNested<RecipeRow>>(&mut &*conn).await
    }
    .map_err(db_error)?;
    let (row, children) = recipe_children::split_nested(row)?;
    detail(row, children)
}

pub(crate) fn detail(row: RecipeRow, children: Children) -> DomainResult<RecipeDetail> {
    let malts: Vec<MaltColour> = children.fermentables.iter().map(MaltColour::from).collect();
    let recipe = row.into_recipe(&malts)?;
    Ok(RecipeDetail {
        recipe,
        fermentables: children.fermentables,
        hops: children.hops,
        yeasts: children.yeasts,
        miscs: children.miscs,
        mash_steps: children.mash_steps,
        water_additions: children.water_additions,
        fermentation_steps: children.fermentation_steps,
    })
}
