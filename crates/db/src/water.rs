//! The water repository: profiles (built-in rows have no `user_id`) and the measured mash pH of
//! brew sessions with the prediction it is compared against.

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{Bool, Text};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::error::Violation;
use wort_domain::page::{Page, PageRequest};
use wort_domain::water::rules::check_profile_room;
use wort_domain::water::{
    CalibrationPair, WaterProfile, WaterProfileInput, WaterProfileKind, WaterRepository,
};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error, found};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::{brew_sessions, users, water_profiles as profiles};

pub struct PgWater {
    pool: DbPool,
}

impl PgWater {
    pub fn new(pool: DbPool) -> Self {
        PgWater { pool }
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Debug)]
#[diesel(table_name = profiles, treat_none_as_null = true)]
struct ProfileRow {
    id: Uuid,
    user_id: Option<Uuid>,
    kind: String,
    name: String,
    calcium: f64,
    magnesium: f64,
    sodium: f64,
    sulfate: f64,
    chloride: f64,
    bicarbonate: f64,
    ph: Option<f64>,
    source: Option<String>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl ProfileRow {
    fn new(
        id: Uuid,
        user: UserId,
        p: WaterProfileInput,
        created: OffsetDateTime,
        now: OffsetDateTime,
    ) -> Self {
        ProfileRow {
            id,
            user_id: Some(user.0),
            kind: p.kind.as_str().to_owned(),
            name: p.name,
            calcium: p.calcium,
            magnesium: p.magnesium,
            sodium: p.sodium,
            sulfate: p.sulfate,
            chloride: p.chloride,
            bicarbonate: p.bicarbonate,
            ph: p.ph,
            source: p.source,
            created_at: created,
            updated_at: now,
        }
    }

    fn entity(self) -> WaterProfile {
        WaterProfile {
            id: self.id,
            builtin: self.user_id.is_none(),
            // The column's CHECK holds it to the two kinds.
            kind: WaterProfileKind::parse(&self.kind).unwrap_or_default(),
            name: self.name,
            calcium: self.calcium,
            magnesium: self.magnesium,
            sodium: self.sodium,
            sulfate: self.sulfate,
            chloride: self.chloride,
            bicarbonate: self.bicarbonate,
            ph: self.ph,
            source: self.source,
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }
}

/// Built-in rows and the account's own.
fn visible(user: UserId) -> profiles::BoxedQuery<'static, diesel::pg::Pg> {
    profiles::table
        .filter(profiles::user_id.is_null().or(profiles::user_id.eq(user.0)))
        .into_boxed()
}

/// Which of these profile ids the account can see (its own and the built-in ones).
pub(crate) async fn visible_ids(
    conn: &mut AsyncPgConnection,
    user: UserId,
    ids: [Option<Uuid>; 2],
) -> Result<Vec<Uuid>, diesel::result::Error> {
    let ids: Vec<Uuid> = ids.into_iter().flatten().collect();
    if ids.is_empty() {
        return Ok(ids);
    }
    visible(user)
        .filter(profiles::id.eq_any(ids))
        .select(profiles::id)
        .load(conn)
        .await
}

/// Refuses (`422` at the field) a recipe's `water_profile_id` or `target_water_profile_id` that
/// names no profile the account can see: the foreign key alone would accept another account's.
pub(crate) async fn check_visible(
    conn: &mut AsyncPgConnection,
    user: UserId,
    source: Option<Uuid>,
    target: Option<Uuid>,
) -> DomainResult<()> {
    let mut violations: Vec<Violation> = Vec::new();
    for (field, id) in [
        ("water_profile_id", source),
        ("target_water_profile_id", target),
    ] {
        if let Some(id) = id {
            let seen: i64 = visible(user)
                .filter(profiles::id.eq(id))
                .count()
                .get_result(conn)
                .await
                .map_err(db_error)?;
            if seen == 0 {
                violations.push(unknown_profile(field));
            }
        }
    }
    if violations.is_empty() {
        Ok(())
    } else {
        Err(DomainError::Invalid(violations))
    }
}

pub(crate) fn unknown_profile(field: &str) -> Violation {
    wort_domain::water::rules::unknown_profile(field)
}

#[async_trait]
impl WaterRepository for PgWater {
    async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<WaterProfile>> {
        let conn = checkout(&self.pool).await?;
        let page_query = visible(user)
            .order((
                sql::<Bool>("water_profiles.user_id IS NOT NULL").asc(),
                sql::<Bool>("water_profiles.kind <> 'target'").asc(),
                sql::<Text>("lower(water_profiles.name)").asc(),
                profiles::id.asc(),
            ))
            .select(ProfileRow::as_select())
            .limit(page.limit)
            .offset(page.offset);
        let count_query = visible(user).count();
        let conn_ref: &AsyncPgConnection = &conn;
        let (rows, total) = futures_util::try_join!(
            Prepared(page_query).load::<ProfileRow>(&mut &*conn_ref),
            count_query.get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        Ok(Page {
            items: rows.into_iter().map(ProfileRow::entity).collect(),
            total,
        })
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<WaterProfile> {
        let mut conn = checkout(&self.pool).await?;
        visible(user)
            .filter(profiles::id.eq(id))
            .select(ProfileRow::as_select())
            .first(&mut conn)
            .await
            .map(ProfileRow::entity)
            .map_err(db_error)
    }

    async fn create(
        &self,
        user: UserId,
        input: WaterProfileInput,
        now: OffsetDateTime,
    ) -> DomainResult<WaterProfile> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            // The account row is locked so the cap holds under concurrent creates.
            users::table
                .filter(users::id.eq(user.0))
                .select(users::id)
                .for_update()
                .first::<Uuid>(conn)
                .await?;
            let held: i64 = profiles::table
                .filter(profiles::user_id.eq(user.0))
                .count()
                .get_result(conn)
                .await?;
            check_profile_room(held).map_err(TxError)?;
            let row = ProfileRow::new(new_id(), user, input, now, now);
            let saved = diesel::insert_into(profiles::table)
                .values(&row)
                .returning(ProfileRow::as_returning())
                .get_result(conn)
                .await?;
            Ok::<_, TxError>(saved.entity())
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn replace(
        &self,
        user: UserId,
        id: Uuid,
        input: WaterProfileInput,
        now: OffsetDateTime,
    ) -> DomainResult<WaterProfile> {
        let mut conn = checkout(&self.pool).await?;
        #[derive(AsChangeset)]
        #[diesel(table_name = profiles, treat_none_as_null = true)]
        struct Changes {
            kind: String,
            name: String,
            calcium: f64,
            magnesium: f64,
            sodium: f64,
            sulfate: f64,
            chloride: f64,
            bicarbonate: f64,
            ph: Option<f64>,
            source: Option<String>,
            updated_at: OffsetDateTime,
        }
        diesel::update(
            profiles::table
                .filter(profiles::id.eq(id))
                .filter(profiles::user_id.eq(user.0)),
        )
        .set(Changes {
            kind: input.kind.as_str().to_owned(),
            name: input.name,
            calcium: input.calcium,
            magnesium: input.magnesium,
            sodium: input.sodium,
            sulfate: input.sulfate,
            chloride: input.chloride,
            bicarbonate: input.bicarbonate,
            ph: input.ph,
            source: input.source,
            updated_at: now,
        })
        .returning(ProfileRow::as_returning())
        .get_result(&mut conn)
        .await
        .map(ProfileRow::entity)
        .map_err(db_error)
    }

    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        // Recipes naming it stop naming it (ON DELETE SET NULL).
        let deleted = diesel::delete(
            profiles::table
                .filter(profiles::id.eq(id))
                .filter(profiles::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        found(deleted)
    }

    async fn calibration_pairs(&self, user: UserId) -> DomainResult<Vec<CalibrationPair>> {
        let mut conn = checkout(&self.pool).await?;
        let rows: Vec<(Uuid, String, time::Date, Option<f64>, Option<f64>)> = brew_sessions::table
            .filter(brew_sessions::user_id.eq(user.0))
            .filter(brew_sessions::measured_mash_ph.is_not_null())
            .filter(brew_sessions::predicted_mash_ph.is_not_null())
            .order((brew_sessions::brew_date.asc(), brew_sessions::id.asc()))
            .select((
                brew_sessions::id,
                brew_sessions::name,
                brew_sessions::brew_date,
                brew_sessions::predicted_mash_ph,
                brew_sessions::measured_mash_ph,
            ))
            .load(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, name, date, predicted, measured)| {
                Some(CalibrationPair {
                    session_id: id,
                    name,
                    brew_date: date.to_string(),
                    predicted: predicted?,
                    measured: measured?,
                })
            })
            .collect())
    }

    async fn session_recipe(&self, user: UserId, session_id: Uuid) -> DomainResult<Option<Uuid>> {
        let mut conn = checkout(&self.pool).await?;
        brew_sessions::table
            .filter(brew_sessions::id.eq(session_id))
            .filter(brew_sessions::user_id.eq(user.0))
            .select(brew_sessions::recipe_id)
            .first(&mut conn)
            .await
            .map_err(db_error)
    }
}
