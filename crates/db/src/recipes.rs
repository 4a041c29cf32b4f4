//! The recipe repository: recipes with their computed colour, and the whole aggregate on read.

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::page::{Page, PageRequest};
use wort_domain::ports::RecipeRepository;
use wort_domain::recipe::{
    NewImport, NewRecipe, NewRecipeWithIngredients, Recipe, RecipeDetail, RecipeFilter,
    RecipePatch, RecipeSort,
};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error, found, is_foreign_key_violation};
use crate::kept_sql::Columns;
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::recipe_children;
pub(crate) use crate::recipe_rows::{RecipeRow, detail, find_row, load_detail};
use crate::schema::{recipes, users};
use wort_domain::equipment::rules as equipment_rules;

pub struct PgRecipes {
    pool: DbPool,
}

impl PgRecipes {
    pub fn new(pool: DbPool) -> Self {
        PgRecipes { pool }
    }
}

/// The foreign key from a recipe's `(equipment_id, user_id)` to its account's profiles
/// (migration 000011).
const EQUIPMENT_FKEY: &str = "recipes_equipment_fkey";

/// A write that named a profile which is not the account's is the caller's mistake (`422` at
/// `equipment_id`), not the store's.
fn recipe_write_error(e: diesel::result::Error) -> DomainError {
    if is_foreign_key_violation(&e, EQUIPMENT_FKEY) {
        DomainError::Invalid(vec![equipment_rules::unknown_profile()])
    } else if is_foreign_key_violation(&e, "recipes_water_profile_id_fkey") {
        DomainError::Invalid(vec![crate::water::unknown_profile("water_profile_id")])
    } else if is_foreign_key_violation(&e, "recipes_target_water_profile_id_fkey") {
        DomainError::Invalid(vec![crate::water::unknown_profile(
            "target_water_profile_id",
        )])
    } else {
        db_error(e)
    }
}

#[derive(AsChangeset)]
#[diesel(table_name = recipes)]
struct RecipeChanges {
    name: Option<String>,
    style: Option<String>,
    kind: Option<&'static str>,
    batch_size_liters: Option<f64>,
    boil_time_minutes: Option<f64>,
    efficiency: Option<f64>,
    notes: Option<Option<String>>,
    equipment_id: Option<Option<Uuid>>,
    style_id: Option<Option<String>>,
    water_profile_id: Option<Option<Uuid>>,
    target_water_profile_id: Option<Option<Uuid>>,
    updated_at: OffsetDateTime,
}

/// A `LIKE` pattern matching `text` literally anywhere (`%`, `_` and `\` match themselves).
pub(crate) fn contains_pattern(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len() + 2);
    escaped.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped.push('%');
    escaped
}

type BoxedRecipes<'a> = recipes::BoxedQuery<'a, Pg>;

fn filtered(user: UserId, filter: &RecipeFilter) -> BoxedRecipes<'static> {
    let mut query = recipes::table
        .filter(recipes::user_id.eq(user.0))
        .into_boxed();
    if let Some(q) = &filter.q {
        let pattern = contains_pattern(q);
        query = query.filter(
            recipes::name
                .ilike(pattern.clone())
                .or(recipes::style.ilike(pattern)),
        );
    }
    if let Some(kind) = filter.kind {
        query = query.filter(recipes::kind.eq(kind.as_str()));
    }
    query
}

fn sorted(query: BoxedRecipes<'static>, sort: RecipeSort) -> BoxedRecipes<'static> {
    // Name sorts ignore case, as a person reading a list expects; ties always fall to the id.
    let lower_name = || sql::<Text>("lower(recipes.name)");
    match sort {
        RecipeSort::Name => query.order((lower_name().asc(), recipes::id.asc())),
        RecipeSort::NameDesc => query.order((lower_name().desc(), recipes::id.desc())),
        RecipeSort::CreatedAt => query.order((recipes::created_at.asc(), recipes::id.asc())),
        RecipeSort::CreatedAtDesc => query.order((recipes::created_at.desc(), recipes::id.desc())),
        RecipeSort::UpdatedAt => query.order((recipes::updated_at.asc(), recipes::id.asc())),
        RecipeSort::UpdatedAtDesc => query.order((recipes::updated_at.desc(), recipes::id.desc())),
    }
}

/// Attaches colours to a page of recipe rows with one query for all their fermentables.
async fn with_colours(
    conn: &mut AsyncPgConnection,
    user: UserId,
    rows: Vec<RecipeRow>,
) -> DomainResult<Vec<Recipe>> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let mut by_recipe = recipe_children::malt_colours_by_recipe(conn, user, &ids).await?;
    rows.into_iter()
        .map(|row| {
            let malts = by_recipe.remove(&row.id).unwrap_or_default();
            row.into_recipe(&malts)
        })
        .collect()
}

#[async_trait]
impl RecipeRepository for PgRecipes {
    async fn list(
        &self,
        user: UserId,
        filter: &RecipeFilter,
        page: PageRequest,
    ) -> DomainResult<Page<Recipe>> {
        let mut conn = checkout(&self.pool).await?;
        let page_query = sorted(filtered(user, filter), filter.sort)
            .select(Columns::<RecipeRow>::new())
            .limit(page.limit)
            .offset(page.offset);
        // Pipelined: both queries travel in one round trip.
        let conn_ref: &AsyncPgConnection = &conn;
        // An unfiltered list takes its total from the account's counter (kept by triggers,
        // migration 000008), so a page costs the same for 10 recipes or 10,000; a filtered one
        // counts its matches. Destructured so that a new filter cannot silently use the counter.
        let RecipeFilter { q, kind, sort: _ } = filter;
        let unfiltered = q.is_none() && kind.is_none();
        let total = async {
            if unfiltered {
                users::table
                    .filter(users::id.eq(user.0))
                    .select(users::recipe_count)
                    .get_result::<i64>(&mut &*conn_ref)
                    .await
            } else {
                filtered(user, filter)
                    .count()
                    .get_result::<i64>(&mut &*conn_ref)
                    .await
            }
        };
        let (rows, total) = futures_util::try_join!(
            Prepared(page_query).load::<RecipeRow>(&mut &*conn_ref),
            total
        )
        .map_err(db_error)?;
        let items = with_colours(&mut conn, user, rows).await?;
        Ok(Page { items, total })
    }

    async fn create(
        &self,
        user: UserId,
        new: NewRecipe,
        now: OffsetDateTime,
    ) -> DomainResult<Recipe> {
        let mut conn = checkout(&self.pool).await?;
        crate::water::check_visible(
            &mut conn,
            user,
            new.water_profile_id,
            new.target_water_profile_id,
        )
        .await?;
        let row: RecipeRow = diesel::insert_into(recipes::table)
            .values((
                recipes::id.eq(new_id()),
                recipes::user_id.eq(user.0),
                recipes::name.eq(new.name),
                recipes::style.eq(new.style),
                recipes::kind.eq(new.kind.as_str()),
                recipes::batch_size_liters.eq(new.batch_size_liters),
                recipes::boil_time_minutes.eq(new.boil_time_minutes),
                recipes::efficiency.eq(new.efficiency),
                recipes::notes.eq(new.notes),
                recipes::equipment_id.eq(new.equipment_id),
                recipes::style_id.eq(new.style_id),
                recipes::water_profile_id.eq(new.water_profile_id),
                recipes::target_water_profile_id.eq(new.target_water_profile_id),
                recipes::source_url.eq(new.lineage.source_url),
                recipes::created_at.eq(now),
                recipes::updated_at.eq(now),
            ))
            .returning(RecipeRow::as_returning())
            .get_result(&mut conn)
            .await
            .map_err(recipe_write_error)?;
        row.into_recipe(&[])
    }

    async fn create_with_children(
        &self,
        user: UserId,
        recipes: Vec<NewRecipeWithIngredients>,
        now: OffsetDateTime,
    ) -> DomainResult<Vec<RecipeDetail>> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| create_in_tx(conn, user, recipes, now).await)
            .await
            .map_err(|TxError(e)| e)
    }

    async fn create_imported(
        &self,
        user: UserId,
        import: NewImport,
        now: OffsetDateTime,
    ) -> DomainResult<Vec<RecipeDetail>> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            let mut ids = Vec::with_capacity(import.equipment.len());
            for profile in &import.equipment {
                ids.push(
                    crate::equipment::find_or_create_identical(conn, user, profile, now).await?,
                );
            }
            let mut recipes = import.recipes;
            for (recipe, link) in recipes.iter_mut().zip(&import.recipe_equipment) {
                if let Some(id) = link.and_then(|i| ids.get(i)) {
                    recipe.recipe.equipment_id = Some(*id);
                }
            }
            create_in_tx(conn, user, recipes, now).await
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<RecipeDetail> {
        let conn = checkout(&self.pool).await?;
        load_detail(&conn, user, id, false).await
    }

    async fn list_details(
        &self,
        user: UserId,
        page: PageRequest,
    ) -> DomainResult<Page<RecipeDetail>> {
        let conn = checkout(&self.pool).await?;
        let page_query = sorted(
            filtered(user, &RecipeFilter::default()),
            RecipeSort::CreatedAt,
        )
        .select(Columns::<RecipeRow>::new())
        .limit(page.limit)
        .offset(page.offset);
        let total = users::table
            .filter(users::id.eq(user.0))
            .select(users::recipe_count);
        // Pipelined: the page and the account's counter travel in one round trip.
        let (rows, total) = futures_util::try_join!(
            page_query.load::<RecipeRow>(&mut &*conn),
            total.get_result::<i64>(&mut &*conn),
        )
        .map_err(db_error)?;
        let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
        let mut children = recipe_children::load_children_of(&conn, user, &ids).await?;
        let items = rows
            .into_iter()
            .map(|row| {
                let id = row.id;
                detail(row, children.take(id))
            })
            .collect::<DomainResult<Vec<_>>>()?;
        Ok(Page { items, total })
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: RecipePatch,
        now: OffsetDateTime,
    ) -> DomainResult<Recipe> {
        let mut conn = checkout(&self.pool).await?;
        crate::water::check_visible(
            &mut conn,
            user,
            patch.water_profile_id.flatten(),
            patch.target_water_profile_id.flatten(),
        )
        .await?;
        let row = if patch.is_empty() {
            find_row(&mut conn, user, id).await?
        } else {
            // The edit and its place in the recipe's history commit together.
            conn.transaction(async |conn| {
                crate::recipe_versions::record_edit(conn, user, id, now).await?;
                let changes = RecipeChanges {
                    name: patch.name,
                    style: patch.style,
                    kind: patch.kind.map(|k| k.as_str()),
                    batch_size_liters: patch.batch_size_liters,
                    boil_time_minutes: patch.boil_time_minutes,
                    efficiency: patch.efficiency,
                    notes: patch.notes,
                    equipment_id: patch.equipment_id,
                    style_id: patch.style_id,
                    water_profile_id: patch.water_profile_id,
                    target_water_profile_id: patch.target_water_profile_id,
                    updated_at: now,
                };
                diesel::update(
                    recipes::table
                        .filter(recipes::id.eq(id))
                        .filter(recipes::user_id.eq(user.0)),
                )
                .set(changes)
                .returning(RecipeRow::as_returning())
                .get_result(conn)
                .await
                .map_err(|e| TxError(recipe_write_error(e)))
            })
            .await
            .map_err(|TxError(e)| e)?
        };
        let mut malts = recipe_children::malt_colours_by_recipe(&mut conn, user, &[id]).await?;
        row.into_recipe(&malts.remove(&id).unwrap_or_default())
    }

    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        // Children go with it (ON DELETE CASCADE); brew sessions keep their snapshot.
        let deleted = diesel::delete(
            recipes::table
                .filter(recipes::id.eq(id))
                .filter(recipes::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        found(deleted)
    }

    async fn copy(
        &self,
        user: UserId,
        id: Uuid,
        name: Option<String>,
        now: OffsetDateTime,
    ) -> DomainResult<RecipeDetail> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| copy_in_tx(conn, user, id, name, now).await)
            .await
            .map_err(|TxError(e)| e)
    }
}

/// "<name> (copy)", shortening the original so the result still fits the name cap.
fn copy_name(original: &str) -> String {
    const SUFFIX: &str = " (copy)";
    let keep = wort_domain::recipe::NAME.max - SUFFIX.chars().count();
    let base: String = original.chars().take(keep).collect();
    format!("{base}{SUFFIX}")
}

async fn copy_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    name: Option<String>,
    now: OffsetDateTime,
) -> Result<RecipeDetail, TxError> {
    let original = find_row(conn, user, id).await?;
    let children = recipe_children::load_children(conn, user, id).await?;
    // The copy is of the original's current version, frozen so that it stays what was copied.
    let version = crate::recipe_versions::freeze_current(conn, user, id).await?;
    let row: RecipeRow = diesel::insert_into(recipes::table)
        .values((
            recipes::id.eq(new_id()),
            recipes::user_id.eq(user.0),
            recipes::name.eq(name.unwrap_or_else(|| copy_name(&original.name))),
            recipes::style.eq(original.style),
            recipes::kind.eq(original.kind),
            recipes::batch_size_liters.eq(original.batch_size_liters),
            recipes::boil_time_minutes.eq(original.boil_time_minutes),
            recipes::efficiency.eq(original.efficiency),
            recipes::notes.eq(original.notes),
            recipes::equipment_id.eq(original.equipment_id),
            recipes::style_id.eq(original.style_id),
            recipes::water_profile_id.eq(original.water_profile_id),
            recipes::target_water_profile_id.eq(original.target_water_profile_id),
            recipes::parent_recipe_id.eq(id),
            recipes::parent_version.eq(version),
            recipes::created_at.eq(now),
            recipes::updated_at.eq(now),
        ))
        .returning(RecipeRow::as_returning())
        .get_result(conn)
        .await?;
    let copied = recipe_children::copy_children(conn, user, &children, row.id, now).await?;
    Ok(detail(row, copied)?)
}

/// Inserts the recipes in one statement, then each kind of child in one statement (more only
/// past the bind limit), whatever the number of recipes.
async fn create_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipes: Vec<NewRecipeWithIngredients>,
    now: OffsetDateTime,
) -> Result<Vec<RecipeDetail>, TxError> {
    let recipes: Vec<(Uuid, NewRecipeWithIngredients)> =
        recipes.into_iter().map(|r| (new_id(), r)).collect();
    // A scaled copy names its parent: the parent's current version is frozen and recorded.
    let mut parent_versions = Vec::with_capacity(recipes.len());
    for (_, r) in &recipes {
        parent_versions.push(match r.recipe.lineage.parent_recipe_id {
            Some(parent) => Some(crate::recipe_versions::freeze_current(conn, user, parent).await?),
            None => None,
        });
    }
    let rows: Vec<RecipeRow> = recipes
        .iter()
        .zip(parent_versions)
        .map(|((id, r), parent_version)| RecipeRow {
            id: *id,
            user_id: user.0,
            name: r.recipe.name.clone(),
            style: r.recipe.style.clone(),
            kind: r.recipe.kind.as_str().to_owned(),
            batch_size_liters: r.recipe.batch_size_liters,
            boil_time_minutes: r.recipe.boil_time_minutes,
            efficiency: r.recipe.efficiency,
            notes: r.recipe.notes.clone(),
            equipment_id: r.recipe.equipment_id,
            style_id: r.recipe.style_id.clone(),
            water_profile_id: r.recipe.water_profile_id,
            target_water_profile_id: r.recipe.target_water_profile_id,
            parent_recipe_id: r.recipe.lineage.parent_recipe_id,
            parent_version,
            source_url: r.recipe.lineage.source_url.clone(),
            created_at: now,
            updated_at: now,
        })
        .collect();
    // 18 columns a row: 2,000 rows stay under PostgreSQL's 65,535 bind parameters.
    for chunk in rows.chunks(2_000) {
        diesel::insert_into(recipes::table)
            .values(chunk)
            .execute(conn)
            .await
            .map_err(recipe_write_error)?;
    }
    let mut children = recipe_children::insert_new_children(conn, user, recipes, now).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let id = row.id;
            detail(row, children.take(id))
        })
        .collect::<DomainResult<Vec<_>>>()?)
}

#[cfg(test)]
mod tests {
    use super::{contains_pattern, copy_name};

    #[test]
    fn copy_names_fit_the_cap() {
        assert_eq!(copy_name("IPA"), "IPA (copy)");
        assert_eq!(copy_name(&"é".repeat(200)).chars().count(), 200);
    }

    #[test]
    fn like_patterns_match_literally() {
        assert_eq!(contains_pattern("50%_a\\b"), "%50\\%\\_a\\\\b%");
    }
}
