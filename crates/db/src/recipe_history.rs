//! [`PgRecipeHistory`]: a recipe's versions read, named and restored, its lineage and its share
//! link. The versions themselves are written by `crate::recipe_versions`, which every write of a
//! recipe runs.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::page::{Page, PageRequest};
use wort_domain::ports::RecipeHistoryRepository;
use wort_domain::recipe::RecipeDetail;
use wort_domain::recipe::history::{LINEAGE_MAX, Lineage, LineageEntry, StoredVersion};
use wort_domain::recipe::share::Share;
use wort_domain::{DomainError, DomainResult, UserId};

use crate::error::{TxError, db_error};
use crate::pool::{DbPool, checkout};
use crate::recipe_versions::{freeze, freeze_current, insert_open, latest_version, read_snapshot};
use crate::schema::{catalog_items, equipment_profiles, recipe_shares, recipe_versions, recipes};

pub struct PgRecipeHistory {
    pool: DbPool,
}

impl PgRecipeHistory {
    pub fn new(pool: DbPool) -> Self {
        PgRecipeHistory { pool }
    }
}

diesel::define_sql_function! {
    /// PostgreSQL's `greatest` of two instants.
    fn greatest(a: Timestamptz, b: Timestamptz) -> Timestamptz;
}

/// A version's row without its content.
type Listing = (
    i32,
    OffsetDateTime,
    OffsetDateTime,
    Option<String>,
    Option<String>,
    bool,
);

fn listing_columns() -> (
    recipe_versions::number,
    recipe_versions::created_at,
    recipe_versions::updated_at,
    recipe_versions::message,
    recipe_versions::summary,
    diesel::dsl::IsNull<recipe_versions::snapshot>,
) {
    (
        recipe_versions::number,
        recipe_versions::created_at,
        recipe_versions::updated_at,
        recipe_versions::message,
        recipe_versions::summary,
        recipe_versions::snapshot.is_null(),
    )
}

fn stored((number, created_at, updated_at, message, summary, open): Listing) -> StoredVersion {
    StoredVersion {
        number,
        created_at,
        updated_at,
        message,
        summary,
        open,
        snapshot: None,
    }
}

/// Locks the recipe's row (`NotFound` when it is not the caller's).
async fn lock_recipe(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
) -> Result<OffsetDateTime, TxError> {
    recipes::table
        .filter(recipes::id.eq(recipe_id))
        .filter(recipes::user_id.eq(user.0))
        .select(recipes::created_at)
        .for_update()
        .first(conn)
        .await
        .map_err(|e| TxError(db_error(e)))
}

async fn version_in(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    number: i32,
) -> Result<StoredVersion, TxError> {
    let row: Option<(Listing, Option<Value>)> = recipe_versions::table
        .filter(recipe_versions::recipe_id.eq(recipe_id))
        .filter(recipe_versions::user_id.eq(user.0))
        .filter(recipe_versions::number.eq(number))
        .select((listing_columns(), recipe_versions::snapshot))
        .first(conn)
        .await
        .optional()?;
    match row {
        Some((listing, json)) => {
            let mut v = stored(listing);
            v.snapshot = json.map(read_snapshot).transpose()?;
            Ok(v)
        }
        None if number == 1 => implicit_first(conn, user, recipe_id).await,
        None => Err(TxError(DomainError::NotFound)),
    }
}

/// Version 1 of a recipe never edited: the recipe itself (`NotFound` when the recipe has
/// versions, or is not the caller's).
async fn implicit_first(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
) -> Result<StoredVersion, TxError> {
    let any = recipe_versions::table
        .filter(recipe_versions::recipe_id.eq(recipe_id))
        .filter(recipe_versions::user_id.eq(user.0))
        .count()
        .get_result::<i64>(conn)
        .await?;
    if any > 0 {
        return Err(TxError(DomainError::NotFound));
    }
    let (created_at, updated_at): (OffsetDateTime, OffsetDateTime) = recipes::table
        .filter(recipes::id.eq(recipe_id))
        .filter(recipes::user_id.eq(user.0))
        .select((recipes::created_at, recipes::updated_at))
        .first(conn)
        .await
        .map_err(|e| TxError(db_error(e)))?;
    Ok(StoredVersion {
        number: 1,
        created_at,
        updated_at,
        message: None,
        summary: None,
        open: true,
        snapshot: None,
    })
}

/// Makes the live recipe equal to `content`: its own fields, and its children deleted and
/// written again from the content with their original ids. A profile or catalogue item deleted
/// since is left out (null), as deleting it did to the recipe.
async fn write_content(
    conn: &mut AsyncPgConnection,
    user: UserId,
    recipe_id: Uuid,
    content: &RecipeDetail,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let r = &content.recipe;
    let equipment_id = match r.equipment_id {
        Some(id) => equipment_profiles::table
            .filter(equipment_profiles::id.eq(id))
            .filter(equipment_profiles::user_id.eq(user.0))
            .select(equipment_profiles::id)
            .first::<Uuid>(conn)
            .await
            .optional()?,
        None => None,
    };
    let water =
        crate::water::visible_ids(conn, user, [r.water_profile_id, r.target_water_profile_id])
            .await?;
    let keep = |id: Option<Uuid>| id.filter(|id| water.contains(id));
    diesel::update(
        recipes::table
            .filter(recipes::id.eq(recipe_id))
            .filter(recipes::user_id.eq(user.0)),
    )
    .set((
        recipes::name.eq(&r.name),
        recipes::style.eq(&r.style),
        recipes::kind.eq(r.kind.as_str()),
        recipes::batch_size_liters.eq(r.batch_size_liters),
        recipes::boil_time_minutes.eq(r.boil_time_minutes),
        recipes::efficiency.eq(r.efficiency),
        recipes::notes.eq(&r.notes),
        recipes::equipment_id.eq(equipment_id),
        recipes::style_id.eq(&r.style_id),
        recipes::water_profile_id.eq(keep(r.water_profile_id)),
        recipes::target_water_profile_id.eq(keep(r.target_water_profile_id)),
        recipes::updated_at.eq(greatest(recipes::updated_at, now)),
    ))
    .execute(conn)
    .await?;
    let mut content = content.clone();
    let wanted: Vec<Uuid> = content
        .fermentables
        .iter()
        .map(|c| c.catalog_id)
        .chain(content.hops.iter().map(|c| c.catalog_id))
        .chain(content.yeasts.iter().map(|c| c.catalog_id))
        .chain(content.miscs.iter().map(|c| c.catalog_id))
        .flatten()
        .collect();
    let present: Vec<Uuid> = if wanted.is_empty() {
        Vec::new()
    } else {
        catalog_items::table
            .filter(catalog_items::id.eq_any(&wanted))
            .filter(
                catalog_items::user_id
                    .is_null()
                    .or(catalog_items::user_id.eq(user.0)),
            )
            .select(catalog_items::id)
            .load(conn)
            .await?
    };
    let keep_item = |id: &mut Option<Uuid>| {
        if id.is_some_and(|i| !present.contains(&i)) {
            *id = None;
        }
    };
    content
        .fermentables
        .iter_mut()
        .for_each(|c| keep_item(&mut c.catalog_id));
    content
        .hops
        .iter_mut()
        .for_each(|c| keep_item(&mut c.catalog_id));
    content
        .yeasts
        .iter_mut()
        .for_each(|c| keep_item(&mut c.catalog_id));
    content
        .miscs
        .iter_mut()
        .for_each(|c| keep_item(&mut c.catalog_id));
    crate::recipe_children::replace_children(conn, user, recipe_id, &content).await
}

#[derive(QueryableByName)]
struct LineageRow {
    #[diesel(sql_type = SqlUuid)]
    id: Uuid,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Nullable<SqlUuid>)]
    parent_recipe_id: Option<Uuid>,
    #[diesel(sql_type = Nullable<Integer>)]
    parent_version: Option<i32>,
    #[diesel(sql_type = Timestamptz)]
    created_at: OffsetDateTime,
}

impl LineageRow {
    fn entry(self) -> LineageEntry {
        LineageEntry {
            id: self.id,
            name: self.name,
            parent_recipe_id: self.parent_recipe_id,
            parent_version: self.parent_version,
            created_at: self.created_at,
        }
    }
}

/// Parents up from the recipe (nearest first); each step stays in the account.
const ANCESTORS: &str = "
WITH RECURSIVE up (id, depth) AS (
    SELECT parent_recipe_id, 1 FROM recipes
     WHERE id = $1 AND user_id = $2 AND parent_recipe_id IS NOT NULL
    UNION ALL
    SELECT r.parent_recipe_id, up.depth + 1 FROM up JOIN recipes r ON r.id = up.id AND r.user_id = $2
     WHERE r.parent_recipe_id IS NOT NULL AND up.depth < $3
)
SELECT r.id, r.name, r.parent_recipe_id, r.parent_version, r.created_at
  FROM up JOIN recipes r ON r.id = up.id AND r.user_id = $2
 ORDER BY up.depth";

/// Copies down from the recipe, oldest first; each step stays in the account.
const DESCENDANTS: &str = "
WITH RECURSIVE down (id, depth) AS (
    SELECT id, 1 FROM recipes WHERE parent_recipe_id = $1 AND user_id = $2
    UNION ALL
    SELECT r.id, down.depth + 1 FROM down JOIN recipes r ON r.parent_recipe_id = down.id AND r.user_id = $2
     WHERE down.depth < $3
)
SELECT r.id, r.name, r.parent_recipe_id, r.parent_version, r.created_at
  FROM down JOIN recipes r ON r.id = down.id AND r.user_id = $2
 ORDER BY r.created_at, r.id
 LIMIT $3";

#[derive(QueryableByName)]
struct ShareRow {
    #[diesel(sql_type = Text)]
    token: String,
    #[diesel(sql_type = Bool)]
    include_notes: bool,
    #[diesel(sql_type = Timestamptz)]
    created_at: OffsetDateTime,
}

impl ShareRow {
    fn share(self) -> Share {
        Share {
            token: self.token,
            include_notes: self.include_notes,
            created_at: self.created_at,
        }
    }
}

/// The recipe's link, made when there is none (only for the owner's recipe: the insert selects
/// from the owner's row), its `include_notes` set either way.
const SHARE: &str = "
INSERT INTO recipe_shares (recipe_id, user_id, token, include_notes, created_at)
SELECT id, user_id, $3, $4, $5 FROM recipes WHERE id = $1 AND user_id = $2
ON CONFLICT (recipe_id) DO UPDATE SET include_notes = EXCLUDED.include_notes
RETURNING token, include_notes, created_at";

#[async_trait]
impl RecipeHistoryRepository for PgRecipeHistory {
    async fn list_versions(
        &self,
        user: UserId,
        recipe_id: Uuid,
        page: PageRequest,
    ) -> DomainResult<Page<StoredVersion>> {
        let mut conn = checkout(&self.pool).await?;
        let rows: Vec<Listing> = recipe_versions::table
            .filter(recipe_versions::recipe_id.eq(recipe_id))
            .filter(recipe_versions::user_id.eq(user.0))
            .order(recipe_versions::number.desc())
            .select(listing_columns())
            .limit(page.limit)
            .offset(page.offset)
            .load(&mut conn)
            .await
            .map_err(db_error)?;
        let total = if rows.is_empty() && page.offset == 0 {
            // No version row: the recipe (if it is the caller's) has its implicit first one.
            let first = implicit_first(&mut conn, user, recipe_id)
                .await
                .map_err(|TxError(e)| e)?;
            return Ok(Page {
                items: vec![first],
                total: 1,
            });
        } else {
            recipe_versions::table
                .filter(recipe_versions::recipe_id.eq(recipe_id))
                .filter(recipe_versions::user_id.eq(user.0))
                .count()
                .get_result::<i64>(&mut conn)
                .await
                .map_err(db_error)?
        };
        if total == 0 {
            // Past the end of a recipe's implicit first version, or not the caller's recipe.
            implicit_first(&mut conn, user, recipe_id)
                .await
                .map_err(|TxError(e)| e)?;
            return Ok(Page {
                items: Vec::new(),
                total: 1,
            });
        }
        Ok(Page {
            items: rows.into_iter().map(stored).collect(),
            total,
        })
    }

    async fn version(
        &self,
        user: UserId,
        recipe_id: Uuid,
        number: i32,
    ) -> DomainResult<StoredVersion> {
        let mut conn = checkout(&self.pool).await?;
        version_in(&mut conn, user, recipe_id, number)
            .await
            .map_err(|TxError(e)| e)
    }

    async fn name_version(
        &self,
        user: UserId,
        recipe_id: Uuid,
        message: String,
    ) -> DomainResult<StoredVersion> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            lock_recipe(conn, user, recipe_id).await?;
            let number = match latest_version(conn, user, recipe_id).await? {
                None => freeze(conn, user, recipe_id, 1, false, Some(message)).await?,
                Some((n, true)) => freeze(conn, user, recipe_id, n, true, Some(message)).await?,
                Some((n, false)) => {
                    diesel::update(
                        recipe_versions::table
                            .filter(recipe_versions::recipe_id.eq(recipe_id))
                            .filter(recipe_versions::user_id.eq(user.0))
                            .filter(recipe_versions::number.eq(n)),
                    )
                    .set(recipe_versions::message.eq(message))
                    .execute(conn)
                    .await?;
                    n
                }
            };
            let mut v = version_in(conn, user, recipe_id, number).await?;
            v.snapshot = None;
            Ok(v)
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn restore(
        &self,
        user: UserId,
        recipe_id: Uuid,
        number: i32,
        message: String,
        now: OffsetDateTime,
    ) -> DomainResult<StoredVersion> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            lock_recipe(conn, user, recipe_id).await?;
            let target = version_in(conn, user, recipe_id, number).await?;
            let content = match target.snapshot {
                Some(s) => s.recipe,
                // The open version: the recipe as it is.
                None => crate::recipe_rows::load_detail(conn, user, recipe_id, false).await?,
            };
            let latest = freeze_current(conn, user, recipe_id).await?;
            write_content(conn, user, recipe_id, &content, now).await?;
            insert_open(conn, user, recipe_id, latest + 1, (now, now), Some(message)).await?;
            version_in(conn, user, recipe_id, latest + 1).await
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn lineage(&self, user: UserId, recipe_id: Uuid) -> DomainResult<Lineage> {
        let mut conn = checkout(&self.pool).await?;
        // The recipe must be the caller's.
        recipes::table
            .filter(recipes::id.eq(recipe_id))
            .filter(recipes::user_id.eq(user.0))
            .select(recipes::id)
            .first::<Uuid>(&mut conn)
            .await
            .map_err(db_error)?;
        let max = i64::try_from(LINEAGE_MAX).unwrap_or(100);
        let ancestors: Vec<LineageRow> = diesel::sql_query(ANCESTORS)
            .bind::<SqlUuid, _>(recipe_id)
            .bind::<SqlUuid, _>(user.0)
            .bind::<BigInt, _>(max)
            .load(&mut conn)
            .await
            .map_err(db_error)?;
        let descendants: Vec<LineageRow> = diesel::sql_query(DESCENDANTS)
            .bind::<SqlUuid, _>(recipe_id)
            .bind::<SqlUuid, _>(user.0)
            .bind::<BigInt, _>(max)
            .load(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(Lineage {
            ancestors: ancestors.into_iter().map(LineageRow::entry).collect(),
            descendants: descendants.into_iter().map(LineageRow::entry).collect(),
        })
    }

    async fn share(
        &self,
        user: UserId,
        recipe_id: Uuid,
        include_notes: bool,
        new_token: String,
        now: OffsetDateTime,
    ) -> DomainResult<Share> {
        let mut conn = checkout(&self.pool).await?;
        let row: Option<ShareRow> = diesel::sql_query(SHARE)
            .bind::<SqlUuid, _>(recipe_id)
            .bind::<SqlUuid, _>(user.0)
            .bind::<Text, _>(new_token)
            .bind::<Bool, _>(include_notes)
            .bind::<Timestamptz, _>(now)
            .get_result(&mut conn)
            .await
            .optional()
            .map_err(db_error)?;
        row.map(ShareRow::share).ok_or(DomainError::NotFound)
    }

    async fn share_of(&self, user: UserId, recipe_id: Uuid) -> DomainResult<Share> {
        let mut conn = checkout(&self.pool).await?;
        let (token, include_notes, created_at) = recipe_shares::table
            .filter(recipe_shares::recipe_id.eq(recipe_id))
            .filter(recipe_shares::user_id.eq(user.0))
            .select((
                recipe_shares::token,
                recipe_shares::include_notes,
                recipe_shares::created_at,
            ))
            .first::<(String, bool, OffsetDateTime)>(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(Share {
            token,
            include_notes,
            created_at,
        })
    }

    async fn unshare(&self, user: UserId, recipe_id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let deleted = diesel::delete(
            recipe_shares::table
                .filter(recipe_shares::recipe_id.eq(recipe_id))
                .filter(recipe_shares::user_id.eq(user.0)),
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

    async fn shared(&self, token: &str) -> DomainResult<(UserId, RecipeDetail, Share)> {
        let conn = checkout(&self.pool).await?;
        // The one lookup not scoped by an account: the token is the credential, and the row it
        // finds names the account every later query is scoped by.
        let found: Option<(Uuid, Uuid, bool, OffsetDateTime)> = recipe_shares::table
            .filter(recipe_shares::token.eq(token))
            .select((
                recipe_shares::recipe_id,
                recipe_shares::user_id,
                recipe_shares::include_notes,
                recipe_shares::created_at,
            ))
            .first(&mut &*conn)
            .await
            .optional()
            .map_err(db_error)?;
        let (recipe_id, owner, include_notes, created_at) = found.ok_or(DomainError::NotFound)?;
        let owner = UserId(owner);
        let recipe = crate::recipe_rows::load_detail(&conn, owner, recipe_id, false).await?;
        Ok((
            owner,
            recipe,
            Share {
                token: token.to_owned(),
                include_notes,
                created_at,
            },
        ))
    }
}
