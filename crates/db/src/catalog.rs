//! The ingredient catalogue: built-in rows (`user_id` NULL) and each account's own. Every query
//! reads built-in rows or the caller's own; every write is to the caller's own.
//!
//! The search compares the folded query with the stored `search_text` by trigrams (pg_trgm,
//! a GIN index): best match first, the way the domain's `search` module describes.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::catalog::ports::CatalogRepository;
use wort_domain::catalog::{
    self, CatalogDetails, CatalogItem, CatalogKind, CatalogQuery, NewCatalogItem,
};
use wort_domain::page::{Page, PageRequest};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::accounts::lock_account;
use crate::error::{TxError, db_error};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::catalog_items as items;

pub struct PgCatalog {
    pool: DbPool,
}

impl PgCatalog {
    pub fn new(pool: DbPool) -> Self {
        PgCatalog { pool }
    }
}

#[derive(Queryable, Selectable, QueryableByName)]
#[diesel(table_name = items)]
struct ItemRow {
    id: Uuid,
    user_id: Option<Uuid>,
    kind: String,
    name: String,
    aliases: Vec<String>,
    details: serde_json::Value,
    notes: Option<String>,
}

impl TryFrom<ItemRow> for CatalogItem {
    type Error = DomainError;

    fn try_from(r: ItemRow) -> DomainResult<Self> {
        let kind = CatalogKind::parse(&r.kind)
            .ok_or_else(|| DomainError::Internal(format!("unknown catalogue kind {}", r.kind)))?;
        Ok(CatalogItem {
            id: r.id,
            owner: r.user_id.map(UserId),
            name: r.name,
            aliases: r.aliases,
            details: CatalogDetails::from_json(kind, r.details).map_err(DomainError::Internal)?,
            notes: r.notes,
        })
    }
}

/// The columns an item's content decides, for an insert or an update.
#[derive(Insertable, AsChangeset)]
#[diesel(table_name = items, treat_none_as_null = true)]
struct ContentRow {
    name: String,
    aliases: Vec<String>,
    details: serde_json::Value,
    notes: Option<String>,
    folded_name: String,
    folded_names: Vec<String>,
    search_text: String,
    updated_at: OffsetDateTime,
}

fn content(item: &CatalogItem, search_text: String, now: OffsetDateTime) -> ContentRow {
    ContentRow {
        name: item.name.clone(),
        aliases: item.aliases.clone(),
        details: item.details.to_json(),
        notes: item.notes.clone(),
        folded_name: catalog::search::fold(&item.name),
        folded_names: item.folded_names(),
        search_text,
        updated_at: now,
    }
}

const COLUMNS: &str = "id, user_id, kind, name, aliases, details, notes";
const VISIBLE: &str = "kind = $1 AND (user_id IS NULL OR user_id = $2)";
/// The source asked for (`$6`): '' both, 'builtin' the shipped items, 'mine' the account's own.
const OF_SOURCE: &str = "($6 = '' OR ($6 = 'builtin') = (user_id IS NULL))";
/// A word of the text starts with the query, or the query is in it, or close to a part of it:
/// found through the trigram index by `catalog_search_ids` (its migration says why a function).
const MATCHES: &str = "id IN (SELECT catalog_search_ids($1, $2, $3))";
/// Best match first: the query as a whole word (or words), as the start of one, anything else;
/// then how close it is to a part of the text, then to the item's own name; then the account's
/// own items before built-in ones; then alphabetical.
const BEST_FIRST: &str = "CASE WHEN (' ' || search_text || ' ') LIKE '% ' || $3 || ' %' THEN 0 \
     WHEN (' ' || search_text) LIKE '% ' || $3 || '%' THEN 1 ELSE 2 END, \
     word_similarity($3, search_text) DESC, similarity($3, folded_name) DESC, \
     (user_id IS NULL), lower(name), id";

#[async_trait]
impl CatalogRepository for PgCatalog {
    async fn list(
        &self,
        user: UserId,
        query: &CatalogQuery,
        page: PageRequest,
    ) -> DomainResult<Page<CatalogItem>> {
        let conn = checkout(&self.pool).await?;
        let kind = query.kind.as_str();
        let source = query.source.map(|s| s.as_str()).unwrap_or_default();
        let (page_sql, count_sql) = if query.search.is_empty() {
            (
                format!(
                    "SELECT {COLUMNS} FROM catalog_items WHERE {VISIBLE} AND {OF_SOURCE} \
                     AND $3 = '' ORDER BY lower(name), id LIMIT $4 OFFSET $5"
                ),
                format!(
                    "SELECT count(*) AS total FROM catalog_items WHERE {VISIBLE} AND {OF_SOURCE} \
                     AND $3 = '' AND $4 >= 0 AND $5 >= 0"
                ),
            )
        } else {
            (
                format!(
                    "SELECT {COLUMNS} FROM catalog_items WHERE {VISIBLE} AND {OF_SOURCE} \
                     AND {MATCHES} ORDER BY {BEST_FIRST} LIMIT $4 OFFSET $5"
                ),
                format!(
                    "SELECT count(*) AS total FROM catalog_items WHERE {VISIBLE} AND {OF_SOURCE} \
                     AND {MATCHES} AND $4 >= 0 AND $5 >= 0"
                ),
            )
        };
        let page_query = diesel::sql_query(page_sql)
            .bind::<Text, _>(kind)
            .bind::<SqlUuid, _>(user.0)
            .bind::<Text, _>(&query.search)
            .bind::<BigInt, _>(page.limit)
            .bind::<BigInt, _>(page.offset)
            .bind::<Text, _>(source);
        // The same parameters as the page (the limit and offset only so that `$6` is `$6`).
        let count_query = diesel::sql_query(count_sql)
            .bind::<Text, _>(kind)
            .bind::<SqlUuid, _>(user.0)
            .bind::<Text, _>(&query.search)
            .bind::<BigInt, _>(page.limit)
            .bind::<BigInt, _>(page.offset)
            .bind::<Text, _>(source);
        // Both sent together: one round trip (pipelined).
        let conn_ref: &AsyncPgConnection = &conn;
        let (rows, total) = futures_util::try_join!(
            Prepared(page_query).load::<ItemRow>(&mut &*conn_ref),
            Prepared(count_query).get_result::<Total>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        let items = rows
            .into_iter()
            .map(CatalogItem::try_from)
            .collect::<DomainResult<_>>()?;
        Ok(Page {
            items,
            total: total.total,
        })
    }

    async fn get(&self, user: UserId, kind: CatalogKind, id: Uuid) -> DomainResult<CatalogItem> {
        let mut conn = checkout(&self.pool).await?;
        let row: ItemRow = items::table
            .filter(items::id.eq(id))
            .filter(items::kind.eq(kind.as_str()))
            .filter(items::user_id.is_null().or(items::user_id.eq(user.0)))
            .select(ItemRow::as_select())
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        row.try_into()
    }

    async fn get_any(&self, user: UserId, id: Uuid) -> DomainResult<CatalogItem> {
        let mut conn = checkout(&self.pool).await?;
        let row: ItemRow = items::table
            .filter(items::id.eq(id))
            .filter(items::user_id.is_null().or(items::user_id.eq(user.0)))
            .select(ItemRow::as_select())
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        row.try_into()
    }

    async fn create(
        &self,
        user: UserId,
        new: NewCatalogItem,
        search_text: String,
        now: OffsetDateTime,
    ) -> DomainResult<CatalogItem> {
        let item = CatalogItem {
            id: new_id(),
            owner: Some(user),
            name: new.name,
            aliases: new.aliases,
            details: new.details,
            notes: new.notes,
        };
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            lock_account(conn, user).await?;
            let held: i64 = items::table
                .filter(items::user_id.eq(user.0))
                .count()
                .get_result(conn)
                .await?;
            catalog::check_item_room(held)?;
            diesel::insert_into(items::table)
                .values((
                    items::id.eq(item.id),
                    items::user_id.eq(user.0),
                    items::kind.eq(item.kind().as_str()),
                    items::created_at.eq(now),
                    content(&item, search_text, now),
                ))
                .execute(conn)
                .await?;
            Ok::<_, TxError>(())
        })
        .await
        .map_err(|TxError(e)| e)?;
        Ok(item)
    }

    async fn replace(
        &self,
        user: UserId,
        item: &CatalogItem,
        search_text: String,
        now: OffsetDateTime,
    ) -> DomainResult<CatalogItem> {
        let mut conn = checkout(&self.pool).await?;
        let row: ItemRow = diesel::update(
            items::table
                .filter(items::id.eq(item.id))
                .filter(items::kind.eq(item.kind().as_str()))
                .filter(items::user_id.eq(user.0)),
        )
        .set(content(item, search_text, now))
        .returning(ItemRow::as_returning())
        .get_result(&mut conn)
        .await
        .map_err(db_error)?;
        row.try_into()
    }

    async fn delete(&self, user: UserId, kind: CatalogKind, id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let deleted = diesel::delete(
            items::table
                .filter(items::id.eq(id))
                .filter(items::kind.eq(kind.as_str()))
                .filter(items::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        if deleted == 0 {
            return Err(DomainError::NotFound);
        }
        Ok(())
    }

    async fn named(
        &self,
        user: UserId,
        kind: CatalogKind,
        names: &[String],
    ) -> DomainResult<Vec<CatalogItem>> {
        let mut conn = checkout(&self.pool).await?;
        let rows: Vec<ItemRow> = items::table
            .filter(items::kind.eq(kind.as_str()))
            .filter(items::user_id.is_null().or(items::user_id.eq(user.0)))
            .filter(items::folded_names.overlaps_with(names))
            .select(ItemRow::as_select())
            .load(&mut conn)
            .await
            .map_err(db_error)?;
        rows.into_iter().map(CatalogItem::try_from).collect()
    }
}

#[derive(QueryableByName)]
struct Total {
    #[diesel(sql_type = BigInt)]
    total: i64,
}
