//! The recipe repository: recipes with their computed colour, and the whole aggregate on read.

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brewing;
use wort_domain::page::{Page, PageRequest};
use wort_domain::ports::RecipeRepository;
use wort_domain::recipe::{
    NewRecipe, Recipe, RecipeDetail, RecipeFilter, RecipePatch, RecipeSort, RecipeType,
};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::TxError;
use crate::error::db_error;
use crate::ingredients::{self, Children};
use crate::pool::{DbPool, checkout};
use crate::schema::{recipes, users};

pub struct PgRecipes {
    pool: DbPool,
}

impl PgRecipes {
    pub fn new(pool: DbPool) -> Self {
        PgRecipes { pool }
    }
}

#[derive(Queryable, Selectable, Debug)]
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
}

impl RecipeRow {
    /// The domain recipe, with its colour computed from these fermentables.
    pub(crate) fn into_recipe(
        self,
        fermentables: &[wort_domain::ingredients::Fermentable],
    ) -> DomainResult<Recipe> {
        let kind = RecipeType::parse(&self.kind)
            .ok_or_else(|| DomainError::Internal(format!("unknown recipe type {}", self.kind)))?;
        Ok(Recipe {
            est_color_srm: brewing::est_color_srm(self.batch_size_liters, fermentables),
            id: self.id,
            user_id: self.user_id.to_string(),
            name: self.name,
            style: self.style,
            kind,
            batch_size_liters: self.batch_size_liters,
            boil_time_minutes: self.boil_time_minutes,
            efficiency: self.efficiency,
            notes: self.notes,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
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
    let mut by_recipe = ingredients::fermentables_by_recipe(conn, user, &ids).await?;
    rows.into_iter()
        .map(|row| {
            let fermentables = by_recipe.remove(&row.id).unwrap_or_default();
            row.into_recipe(&fermentables)
        })
        .collect()
}

pub(crate) async fn find_row(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
) -> DomainResult<RecipeRow> {
    recipes::table
        .filter(recipes::id.eq(id))
        .filter(recipes::user_id.eq(user.0))
        .select(RecipeRow::as_select())
        .first(conn)
        .await
        .map_err(db_error)
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
            .select(RecipeRow::as_select())
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
        let (rows, total) =
            futures_util::try_join!(page_query.load::<RecipeRow>(&mut &*conn_ref), total)
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
                recipes::created_at.eq(now),
                recipes::updated_at.eq(now),
            ))
            .returning(RecipeRow::as_returning())
            .get_result(&mut conn)
            .await
            .map_err(db_error)?;
        row.into_recipe(&[])
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<RecipeDetail> {
        let conn = checkout(&self.pool).await?;
        // The recipe and its five child lists in one pipelined round trip.
        let conn_ref: &AsyncPgConnection = &conn;
        let recipe_query = recipes::table
            .filter(recipes::id.eq(id))
            .filter(recipes::user_id.eq(user.0))
            .select(RecipeRow::as_select());
        let (row, children) = futures_util::try_join!(
            async {
                recipe_query
                    .first::<RecipeRow>(&mut &*conn_ref)
                    .await
                    .map_err(db_error)
            },
            ingredients::load_children(conn_ref, user, id),
        )?;
        detail(row, children)
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: RecipePatch,
        now: OffsetDateTime,
    ) -> DomainResult<Recipe> {
        let mut conn = checkout(&self.pool).await?;
        let row = if patch.is_empty() {
            find_row(&mut conn, user, id).await?
        } else {
            let changes = RecipeChanges {
                name: patch.name,
                style: patch.style,
                kind: patch.kind.map(|k| k.as_str()),
                batch_size_liters: patch.batch_size_liters,
                boil_time_minutes: patch.boil_time_minutes,
                efficiency: patch.efficiency,
                notes: patch.notes,
                updated_at: now,
            };
            diesel::update(
                recipes::table
                    .filter(recipes::id.eq(id))
                    .filter(recipes::user_id.eq(user.0)),
            )
            .set(changes)
            .returning(RecipeRow::as_returning())
            .get_result(&mut conn)
            .await
            .map_err(db_error)?
        };
        let mut fermentables = ingredients::fermentables_by_recipe(&mut conn, user, &[id]).await?;
        row.into_recipe(&fermentables.remove(&id).unwrap_or_default())
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
        if deleted == 0 {
            Err(DomainError::NotFound)
        } else {
            Ok(())
        }
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

/// The longest recipe name (CONTRACT §1.2).
const NAME_MAX_CHARS: usize = 200;

/// "<name> (copy)", shortening the original so the result still fits the name cap.
fn copy_name(original: &str) -> String {
    const SUFFIX: &str = " (copy)";
    let keep = NAME_MAX_CHARS - SUFFIX.chars().count();
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
    let children = ingredients::load_children(conn, user, id).await?;
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
            recipes::created_at.eq(now),
            recipes::updated_at.eq(now),
        ))
        .returning(RecipeRow::as_returning())
        .get_result(conn)
        .await?;
    let copied = ingredients::copy_children(conn, user, &children, row.id, now).await?;
    Ok(detail(row, copied)?)
}

pub(crate) fn detail(row: RecipeRow, children: Children) -> DomainResult<RecipeDetail> {
    let recipe = row.into_recipe(&children.fermentables)?;
    Ok(RecipeDetail {
        recipe,
        fermentables: children.fermentables,
        hops: children.hops,
        yeasts: children.yeasts,
        miscs: children.miscs,
        mash_steps: children.mash_steps,
    })
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
