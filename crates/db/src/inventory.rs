//! The inventory repository.

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::sql_types::Integer;
use diesel_async::AsyncConnection;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::account::currency::currency;
use wort_domain::inventory::stock::{Brew, DeductionPlanner, InventoryDeduction, StockLine, takes};
use wort_domain::inventory::units;
use wort_domain::inventory::{
    InventoryCategory, InventoryFilter, InventoryItem, InventoryPatch, MAX_AMOUNT, NewInventoryItem,
};
use wort_domain::page::{Page, PageRequest};
use wort_domain::ports::InventoryRepository;
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error, found};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::recipes::contains_pattern;
use crate::schema::brew_sessions as sessions;
use crate::schema::inventory_deductions as deductions;
use crate::schema::inventory_items as items;
use crate::schema::users;

pub struct PgInventory {
    pool: DbPool,
}

impl PgInventory {
    pub fn new(pool: DbPool) -> Self {
        PgInventory { pool }
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = items)]
struct ItemRow {
    id: Uuid,
    user_id: Uuid,
    category: String,
    name: String,
    amount: f64,
    amount_unit: String,
    kind: Option<String>,
    form: Option<String>,
    origin: Option<String>,
    alpha_acid: Option<f64>,
    color_srm: Option<f64>,
    yield_percent: Option<f64>,
    attenuation: Option<f64>,
    year: Option<i32>,
    notes: Option<String>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    catalog_id: Option<Uuid>,
    price_per_unit: Option<f64>,
    best_before: Option<time::Date>,
}

impl TryFrom<ItemRow> for InventoryItem {
    type Error = DomainError;

    fn try_from(r: ItemRow) -> DomainResult<Self> {
        let category = InventoryCategory::parse(&r.category)
            .ok_or_else(|| DomainError::Internal(format!("unknown category {}", r.category)))?;
        let base = units::to_base(r.amount, &r.amount_unit);
        Ok(InventoryItem {
            id: r.id,
            user_id: r.user_id.to_string(),
            category,
            name: r.name,
            amount: r.amount,
            amount_unit: r.amount_unit,
            kind: r.kind,
            form: r.form,
            origin: r.origin,
            alpha_acid: r.alpha_acid,
            color_srm: r.color_srm,
            yield_percent: r.yield_percent,
            attenuation: r.attenuation,
            year: r.year,
            notes: r.notes,
            catalog_id: r.catalog_id,
            price_per_unit: r.price_per_unit,
            best_before: r.best_before,
            unit_dimension: base.map(|(_, d)| d),
            amount_base: base.map(|(b, _)| b),
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
    }
}

#[derive(AsChangeset)]
#[diesel(table_name = items)]
struct ItemChanges {
    category: Option<&'static str>,
    name: Option<String>,
    amount: Option<f64>,
    amount_unit: Option<String>,
    kind: Option<Option<String>>,
    form: Option<Option<String>>,
    origin: Option<Option<String>>,
    alpha_acid: Option<Option<f64>>,
    color_srm: Option<Option<f64>>,
    yield_percent: Option<Option<f64>>,
    attenuation: Option<Option<f64>>,
    year: Option<Option<i32>>,
    notes: Option<Option<String>>,
    catalog_id: Option<Option<Uuid>>,
    price_per_unit: Option<Option<f64>>,
    best_before: Option<Option<time::Date>>,
    updated_at: OffsetDateTime,
}

fn filtered(user: UserId, filter: &InventoryFilter) -> items::BoxedQuery<'static, Pg> {
    let mut query = items::table.filter(items::user_id.eq(user.0)).into_boxed();
    if let Some(category) = filter.category {
        query = query.filter(items::category.eq(category.as_str()));
    }
    if let Some(q) = &filter.q {
        query = query.filter(items::name.ilike(contains_pattern(q)));
    }
    query
}

async fn find(conn: &mut AsyncPgConnection, user: UserId, id: Uuid) -> DomainResult<InventoryItem> {
    items::table
        .filter(items::id.eq(id))
        .filter(items::user_id.eq(user.0))
        .select(ItemRow::as_select())
        .first(conn)
        .await
        .map_err(db_error)?
        .try_into()
}

fn owned(user: UserId, id: Uuid) -> items::BoxedQuery<'static, Pg> {
    items::table
        .filter(items::id.eq(id))
        .filter(items::user_id.eq(user.0))
        .into_boxed()
}

#[async_trait]
impl InventoryRepository for PgInventory {
    async fn list(
        &self,
        user: UserId,
        filter: &InventoryFilter,
        page: PageRequest,
    ) -> DomainResult<Page<InventoryItem>> {
        let conn = checkout(&self.pool).await?;
        // Category in enum order (the expression of the list index), then name ignoring case.
        let category_order = sql::<Integer>(
            "array_position(ARRAY['fermentable','hop','yeast','misc']::text[], inventory_items.category)",
        );
        let page_query = filtered(user, filter)
            .order((
                category_order.asc(),
                sql::<diesel::sql_types::Text>("lower(inventory_items.name)").asc(),
                items::id.asc(),
            ))
            .select(ItemRow::as_select())
            .limit(page.limit)
            .offset(page.offset);
        let count_query = filtered(user, filter).count();
        let conn_ref: &AsyncPgConnection = &conn;
        let (rows, total) = futures_util::try_join!(
            Prepared(page_query).load::<ItemRow>(&mut &*conn_ref),
            count_query.get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        let items = rows
            .into_iter()
            .map(InventoryItem::try_from)
            .collect::<DomainResult<_>>()?;
        Ok(Page { items, total })
    }

    async fn create(
        &self,
        user: UserId,
        f: NewInventoryItem,
        now: OffsetDateTime,
    ) -> DomainResult<InventoryItem> {
        let mut conn = checkout(&self.pool).await?;
        let row = ItemRow {
            id: new_id(),
            user_id: user.0,
            category: f.category.as_str().to_owned(),
            name: f.name,
            amount: f.amount,
            amount_unit: f.amount_unit,
            kind: f.kind,
            form: f.form,
            origin: f.origin,
            alpha_acid: f.alpha_acid,
            color_srm: f.color_srm,
            yield_percent: f.yield_percent,
            attenuation: f.attenuation,
            year: f.year,
            notes: f.notes,
            created_at: now,
            updated_at: now,
            catalog_id: f.catalog_id,
            price_per_unit: f.price_per_unit,
            best_before: f.best_before,
        };
        diesel::insert_into(items::table)
            .values(&row)
            .returning(ItemRow::as_returning())
            .get_result(&mut conn)
            .await
            .map_err(db_error)?
            .try_into()
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<InventoryItem> {
        let mut conn = checkout(&self.pool).await?;
        find(&mut conn, user, id).await
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        p: InventoryPatch,
        now: OffsetDateTime,
    ) -> DomainResult<InventoryItem> {
        let mut conn = checkout(&self.pool).await?;
        if p.is_empty() {
            return find(&mut conn, user, id).await;
        }
        let changes = ItemChanges {
            category: p.category.map(|c| c.as_str()),
            name: p.name,
            amount: p.amount,
            amount_unit: p.amount_unit,
            kind: p.kind,
            form: p.form,
            origin: p.origin,
            alpha_acid: p.alpha_acid,
            color_srm: p.color_srm,
            yield_percent: p.yield_percent,
            attenuation: p.attenuation,
            year: p.year,
            notes: p.notes,
            catalog_id: p.catalog_id,
            price_per_unit: p.price_per_unit,
            best_before: p.best_before,
            updated_at: now,
        };
        diesel::update(
            items::table
                .filter(items::id.eq(id))
                .filter(items::user_id.eq(user.0)),
        )
        .set(changes)
        .returning(ItemRow::as_returning())
        .get_result(&mut conn)
        .await
        .map_err(db_error)?
        .try_into()
    }

    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let deleted = diesel::delete(
            items::table
                .filter(items::id.eq(id))
                .filter(items::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        found(deleted)
    }

    async fn adjust(
        &self,
        user: UserId,
        id: Uuid,
        delta: f64,
        now: OffsetDateTime,
    ) -> DomainResult<InventoryItem> {
        let mut conn = checkout(&self.pool).await?;
        // One guarded UPDATE: concurrent adjusts serialise on the row and none is lost, and a
        // result out of range changes nothing.
        let updated: Option<ItemRow> = diesel::update(
            items::table
                .filter(items::id.eq(id))
                .filter(items::user_id.eq(user.0))
                .filter((items::amount + delta).ge(0.0))
                .filter((items::amount + delta).le(MAX_AMOUNT)),
        )
        .set((
            items::amount.eq(items::amount + delta),
            items::updated_at.eq(now),
        ))
        .returning(ItemRow::as_returning())
        .get_result(&mut conn)
        .await
        .optional()
        .map_err(db_error)?;
        if let Some(row) = updated {
            return row.try_into();
        }
        // Refused: say why (or that there is no such item).
        let current: f64 = owned(user, id)
            .select(items::amount)
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        let violation = wort_domain::inventory::adjust_refused(current, delta);
        Err(DomainError::invalid(violation))
    }

    async fn all(&self, user: UserId) -> DomainResult<Vec<InventoryItem>> {
        let mut conn = checkout(&self.pool).await?;
        all_items(&mut conn, user, false).await
    }

    async fn currency(&self, user: UserId) -> DomainResult<Option<&'static str>> {
        let mut conn = checkout(&self.pool).await?;
        let code: Option<String> = users::table
            .filter(users::id.eq(user.0))
            .select(users::pref_currency)
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        // Only codes the domain knows are ever stored; another would be a stored bug.
        code.map(|c| {
            currency(&c)
                .ok_or_else(|| DomainError::Internal(format!("stored currency {c:?} unknown")))
        })
        .transpose()
    }

    async fn session_stock(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<(Value, Option<InventoryDeduction>)> {
        let mut conn = checkout(&self.pool).await?;
        let snapshot: Value = sessions::table
            .filter(sessions::id.eq(session_id))
            .filter(sessions::user_id.eq(user.0))
            .select(sessions::recipe_snapshot)
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        let applied = applied_deduction(&mut conn, user, session_id).await?;
        Ok((snapshot, applied))
    }

    async fn apply_deduction(
        &self,
        user: UserId,
        session_id: Uuid,
        plan: &DeductionPlanner,
        now: OffsetDateTime,
    ) -> DomainResult<InventoryDeduction> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            // The session row lock queues a second apply of the same session behind this one;
            // it then sees the deduction recorded here and is refused.
            let snapshot: Value = sessions::table
                .filter(sessions::id.eq(session_id))
                .filter(sessions::user_id.eq(user.0))
                .select(sessions::recipe_snapshot)
                .for_update()
                .first(conn)
                .await?;
            if applied_deduction(conn, user, session_id).await?.is_some() {
                return Err(TxError(DomainError::Conflict(
                    "The inventory deduction of this session is already applied".into(),
                )));
            }
            // Locked in id order (no deadlock between two deductions); an adjust of one of
            // these items waits for this transaction, then adds to the amount left here.
            let items = all_items(conn, user, true).await?;
            let lines = plan(&snapshot, &items)?;
            for (item_id, amount) in takes(&lines) {
                diesel::update(
                    items::table
                        .filter(items::id.eq(item_id))
                        .filter(items::user_id.eq(user.0)),
                )
                .set((
                    items::amount.eq(sql::<diesel::sql_types::Double>("GREATEST(amount - ")
                        .bind::<diesel::sql_types::Double, _>(amount)
                        .sql(", 0)")),
                    items::updated_at.eq(now),
                ))
                .execute(conn)
                .await?;
            }
            let stored = serde_json::to_value(&lines)
                .map_err(|e| TxError(DomainError::Internal(format!("deduction lines: {e}"))))?;
            diesel::insert_into(deductions::table)
                .values((
                    deductions::session_id.eq(session_id),
                    deductions::user_id.eq(user.0),
                    deductions::lines.eq(stored),
                    deductions::applied_at.eq(now),
                ))
                .execute(conn)
                .await?;
            Ok(InventoryDeduction::applied(session_id, now, lines))
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn undo_deduction(
        &self,
        user: UserId,
        session_id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            sessions::table
                .filter(sessions::id.eq(session_id))
                .filter(sessions::user_id.eq(user.0))
                .select(sessions::id)
                .for_update()
                .first::<Uuid>(conn)
                .await?;
            let stored: Option<Value> = diesel::delete(
                deductions::table
                    .filter(deductions::session_id.eq(session_id))
                    .filter(deductions::user_id.eq(user.0)),
            )
            .returning(deductions::lines)
            .get_result(conn)
            .await
            .optional()?;
            let stored = stored.ok_or(TxError(DomainError::NotFound))?;
            let lines: Vec<StockLine> = serde_json::from_value(stored)
                .map_err(|e| TxError(DomainError::Internal(format!("deduction lines: {e}"))))?;
            let mut back = takes(&lines);
            // In id order, as an apply locks them.
            back.sort_by_key(|(id, _)| *id);
            for (item_id, amount) in back {
                diesel::update(
                    items::table
                        .filter(items::id.eq(item_id))
                        .filter(items::user_id.eq(user.0)),
                )
                .set((
                    items::amount.eq(sql::<diesel::sql_types::Double>("LEAST(amount + ")
                        .bind::<diesel::sql_types::Double, _>(amount)
                        .sql(", ")
                        .bind::<diesel::sql_types::Double, _>(MAX_AMOUNT)
                        .sql(")")),
                    items::updated_at.eq(now),
                ))
                .execute(conn)
                .await?;
            }
            Ok(())
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn brews(
        &self,
        user: UserId,
        recipe_ids: &[Uuid],
        session_ids: &[Uuid],
    ) -> DomainResult<Vec<Brew>> {
        let mut conn = checkout(&self.pool).await?;
        let mut out = Vec::with_capacity(recipe_ids.len() + session_ids.len());
        for id in recipe_ids {
            let detail = crate::recipe_rows::load_detail(&conn, user, *id, false).await?;
            out.push(Brew::Recipe(
                serde_json::to_value(&detail)
                    .map_err(|e| DomainError::Internal(format!("recipe: {e}")))?,
            ));
        }
        for id in session_ids {
            let snapshot: Value = sessions::table
                .filter(sessions::id.eq(*id))
                .filter(sessions::user_id.eq(user.0))
                .select(sessions::recipe_snapshot)
                .first(&mut conn)
                .await
                .map_err(db_error)?;
            out.push(match applied_deduction(&mut conn, user, *id).await? {
                None => Brew::Recipe(snapshot),
                Some(applied) => Brew::Shortfall(applied.lines),
            });
        }
        Ok(out)
    }
}

/// Every item of the account, in id order; `lock` takes them `FOR UPDATE`.
async fn all_items(
    conn: &mut AsyncPgConnection,
    user: UserId,
    lock: bool,
) -> DomainResult<Vec<InventoryItem>> {
    let query = items::table
        .filter(items::user_id.eq(user.0))
        .order(items::id.asc())
        .select(ItemRow::as_select());
    let rows: Vec<ItemRow> = if lock {
        query.for_update().load(conn).await
    } else {
        query.load(conn).await
    }
    .map_err(db_error)?;
    rows.into_iter().map(InventoryItem::try_from).collect()
}

/// The session's applied deduction, if any.
async fn applied_deduction(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
) -> DomainResult<Option<InventoryDeduction>> {
    let row: Option<(Value, OffsetDateTime)> = deductions::table
        .filter(deductions::session_id.eq(session_id))
        .filter(deductions::user_id.eq(user.0))
        .select((deductions::lines, deductions::applied_at))
        .first(conn)
        .await
        .optional()
        .map_err(db_error)?;
    row.map(|(lines, applied_at)| {
        let lines = serde_json::from_value(lines)
            .map_err(|e| DomainError::Internal(format!("deduction lines: {e}")))?;
        Ok(InventoryDeduction::applied(session_id, applied_at, lines))
    })
    .transpose()
}
