//! The equipment-profile repository.

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::equipment::ports::ProfileChange;
use wort_domain::equipment::rules::profile_in_use;
use wort_domain::equipment::{Equipment, EquipmentProfile, EquipmentRepository, MashMethod};
use wort_domain::page::{Page, PageRequest};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error, is_foreign_key_violation};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::{equipment_profiles as profiles, recipes};

pub struct PgEquipment {
    pool: DbPool,
}

impl PgEquipment {
    pub fn new(pool: DbPool) -> Self {
        PgEquipment { pool }
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Debug)]
#[diesel(table_name = profiles, treat_none_as_null = true)]
struct ProfileRow {
    id: Uuid,
    user_id: Uuid,
    name: String,
    batch_size_liters: f64,
    boil_off_liters_per_hour: f64,
    trub_chiller_loss_liters: f64,
    mash_tun_deadspace_liters: f64,
    grain_absorption_liters_per_kg: f64,
    top_up_water_liters: f64,
    fermenter_loss_liters: f64,
    hop_utilization_percent: f64,
    notes: Option<String>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    mash_method: String,
    mash_tun_volume_liters: Option<f64>,
}

impl ProfileRow {
    fn new(
        id: Uuid,
        user: UserId,
        p: EquipmentProfile,
        created_at: OffsetDateTime,
        now: OffsetDateTime,
    ) -> Self {
        ProfileRow {
            id,
            user_id: user.0,
            name: p.name,
            batch_size_liters: p.batch_size_liters,
            boil_off_liters_per_hour: p.boil_off_liters_per_hour,
            trub_chiller_loss_liters: p.trub_chiller_loss_liters,
            mash_tun_deadspace_liters: p.mash_tun_deadspace_liters,
            grain_absorption_liters_per_kg: p.grain_absorption_liters_per_kg,
            top_up_water_liters: p.top_up_water_liters,
            fermenter_loss_liters: p.fermenter_loss_liters,
            hop_utilization_percent: p.hop_utilization_percent,
            notes: p.notes,
            created_at,
            updated_at: now,
            mash_method: p.mash_method.as_str().to_owned(),
            mash_tun_volume_liters: p.mash_tun_volume_liters,
        }
    }

    fn entity(self) -> Equipment {
        Equipment {
            id: self.id,
            user_id: self.user_id.to_string(),
            profile: EquipmentProfile {
                name: self.name,
                batch_size_liters: self.batch_size_liters,
                boil_off_liters_per_hour: self.boil_off_liters_per_hour,
                trub_chiller_loss_liters: self.trub_chiller_loss_liters,
                mash_tun_deadspace_liters: self.mash_tun_deadspace_liters,
                grain_absorption_liters_per_kg: self.grain_absorption_liters_per_kg,
                top_up_water_liters: self.top_up_water_liters,
                fermenter_loss_liters: self.fermenter_loss_liters,
                hop_utilization_percent: self.hop_utilization_percent,
                // The column's CHECK allows only the two names.
                mash_method: MashMethod::parse(&self.mash_method).unwrap_or_default(),
                mash_tun_volume_liters: self.mash_tun_volume_liters,
                notes: self.notes,
            },
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }
}

/// The caller's profile `id`, locked for update with `for_update` (inside a transaction).
async fn find(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
    for_update: bool,
) -> Result<ProfileRow, diesel::result::Error> {
    let query = profiles::table
        .filter(profiles::id.eq(id))
        .filter(profiles::user_id.eq(user.0))
        .select(ProfileRow::as_select());
    if for_update {
        query.for_update().first(conn).await
    } else {
        query.first(conn).await
    }
}

/// The profile a recipe names, read on the caller's connection (inside the brew-session creating
/// transaction); `None` when the recipe names none.
pub(crate) async fn profile_of(
    conn: &mut AsyncPgConnection,
    user: UserId,
    equipment_id: Option<Uuid>,
) -> DomainResult<Option<EquipmentProfile>> {
    match equipment_id {
        Some(id) => Ok(Some(
            find(conn, user, id, false)
                .await
                .map_err(db_error)?
                .entity()
                .profile,
        )),
        None => Ok(None),
    }
}

/// The id of the account's profile identical to `profile` (every field equal, as the domain's
/// `EquipmentProfile` compares them), or of a new one made from it: how an import brings its
/// equipment along without duplicating a kit the brewer already has. Run inside the import's
/// transaction; the candidates are the account's profiles of the same name.
pub(crate) async fn find_or_create_identical(
    conn: &mut AsyncPgConnection,
    user: UserId,
    profile: &EquipmentProfile,
    now: OffsetDateTime,
) -> Result<Uuid, diesel::result::Error> {
    let candidates: Vec<ProfileRow> = profiles::table
        .filter(profiles::user_id.eq(user.0))
        .filter(profiles::name.eq(&profile.name))
        .order(profiles::id.asc())
        .select(ProfileRow::as_select())
        .load(conn)
        .await?;
    if let Some(same) = candidates
        .into_iter()
        .map(ProfileRow::entity)
        .find(|stored| stored.profile == *profile)
    {
        return Ok(same.id);
    }
    let row = ProfileRow::new(new_id(), user, profile.clone(), now, now);
    diesel::insert_into(profiles::table)
        .values(&row)
        .execute(conn)
        .await?;
    Ok(row.id)
}

/// The foreign key from recipes to profiles (migration 000011).
const RECIPES_FKEY: &str = "recipes_equipment_fkey";

#[async_trait]
impl EquipmentRepository for PgEquipment {
    async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<Equipment>> {
        let conn = checkout(&self.pool).await?;
        let mine = || profiles::table.filter(profiles::user_id.eq(user.0));
        let page_query = mine()
            .order((
                sql::<Text>("lower(equipment_profiles.name)").asc(),
                profiles::id.asc(),
            ))
            .select(ProfileRow::as_select())
            .limit(page.limit)
            .offset(page.offset);
        let count_query = mine().count();
        let conn_ref: &AsyncPgConnection = &conn;
        // Pipelined: both queries travel in one round trip.
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

    async fn create(
        &self,
        user: UserId,
        profile: EquipmentProfile,
        now: OffsetDateTime,
    ) -> DomainResult<Equipment> {
        let mut conn = checkout(&self.pool).await?;
        let row = ProfileRow::new(new_id(), user, profile, now, now);
        diesel::insert_into(profiles::table)
            .values(&row)
            .returning(ProfileRow::as_returning())
            .get_result(&mut conn)
            .await
            .map(ProfileRow::entity)
            .map_err(db_error)
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Equipment> {
        let mut conn = checkout(&self.pool).await?;
        find(&mut conn, user, id, false)
            .await
            .map(ProfileRow::entity)
            .map_err(db_error)
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        change: ProfileChange<'_>,
        now: OffsetDateTime,
    ) -> DomainResult<Equipment> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            let stored = find(conn, user, id, true).await?;
            let created_at = stored.created_at;
            let profile = change(&stored.entity().profile)?;
            let row = ProfileRow::new(id, user, profile, created_at, now);
            let saved = diesel::update(
                profiles::table
                    .filter(profiles::id.eq(id))
                    .filter(profiles::user_id.eq(user.0)),
            )
            .set(&row)
            .returning(ProfileRow::as_returning())
            .get_result(conn)
            .await?;
            Ok::<_, TxError>(saved.entity())
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let deleted = diesel::delete(
            profiles::table
                .filter(profiles::id.eq(id))
                .filter(profiles::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await;
        match deleted {
            Ok(0) => Err(DomainError::NotFound),
            Ok(_) => Ok(()),
            // A recipe still names it: say how many, so the brewer knows what to change.
            Err(e) if is_foreign_key_violation(&e, RECIPES_FKEY) => {
                let using = recipes::table
                    .filter(recipes::equipment_id.eq(id))
                    .filter(recipes::user_id.eq(user.0))
                    .count()
                    .get_result::<i64>(&mut conn)
                    .await
                    .map_err(db_error)?;
                Err(DomainError::Invalid(vec![profile_in_use(using)]))
            }
            Err(e) => Err(db_error(e)),
        }
    }
}
