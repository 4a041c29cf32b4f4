//! Users, their sign-in sessions, API keys, display preferences and the sign-in throttle.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::{Nullable, Text, Timestamptz};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::account::currency::currency;
use wort_domain::account::{
    self, AmountUnits, ApiKey, AttemptCount, ColorDisplay, GravityDisplay, KEY_TOUCH_INTERVAL,
    NewApiKey, NewUser, Preferences, PreferencesPatch, SignInSession, SignInSubject,
    TemperatureDisplay, User, UserCredentials,
};
use wort_domain::ports::AccountRepository;
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error, found, is_unique_violation};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::{api_keys, auth_sessions, sign_in_failures, users};

pub struct PgAccounts {
    pool: DbPool,
}

impl PgAccounts {
    pub fn new(pool: DbPool) -> Self {
        PgAccounts { pool }
    }
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = users)]
struct UserRow {
    id: Uuid,
    email: String,
    name: String,
    created_at: OffsetDateTime,
}

impl From<UserRow> for User {
    fn from(r: UserRow) -> Self {
        User {
            id: UserId(r.id),
            email: r.email,
            name: r.name,
            created_at: r.created_at,
        }
    }
}

#[derive(Queryable, Selectable, QueryableByName)]
#[diesel(table_name = users)]
struct PreferencesRow {
    pref_amounts: String,
    pref_gravity: String,
    pref_color: String,
    pref_temperature: String,
    pref_currency: Option<String>,
}

impl TryFrom<PreferencesRow> for Preferences {
    type Error = DomainError;

    fn try_from(r: PreferencesRow) -> DomainResult<Self> {
        let bad = |what: &str| DomainError::Internal(format!("stored preference {what}"));
        Ok(Preferences {
            amounts: AmountUnits::parse(&r.pref_amounts).ok_or_else(|| bad("amounts"))?,
            gravity: GravityDisplay::parse(&r.pref_gravity).ok_or_else(|| bad("gravity"))?,
            color: ColorDisplay::parse(&r.pref_color).ok_or_else(|| bad("color"))?,
            temperature: TemperatureDisplay::parse(&r.pref_temperature)
                .ok_or_else(|| bad("temperature"))?,
            currency: r
                .pref_currency
                .map(|code| currency(&code).ok_or_else(|| bad("currency")))
                .transpose()?,
        })
    }
}

#[derive(QueryableByName)]
#[diesel(table_name = sign_in_failures)]
struct AttemptRow {
    failures: i32,
    window_start: OffsetDateTime,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = api_keys)]
struct ApiKeyRow {
    id: Uuid,
    user_id: Uuid,
    name: String,
    start: String,
    prefix: String,
    enabled: bool,
    expires_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    last_used_at: Option<OffsetDateTime>,
}

impl From<ApiKeyRow> for ApiKey {
    fn from(r: ApiKeyRow) -> Self {
        ApiKey {
            id: r.id,
            user_id: UserId(r.user_id),
            name: r.name,
            start: r.start,
            prefix: r.prefix,
            enabled: r.enabled,
            expires_at: r.expires_at,
            created_at: r.created_at,
            updated_at: r.updated_at,
            last_used_at: r.last_used_at,
        }
    }
}

#[async_trait]
impl AccountRepository for PgAccounts {
    async fn create_user(&self, new: NewUser, now: OffsetDateTime) -> DomainResult<User> {
        let mut conn = checkout(&self.pool).await?;
        let inserted = diesel::insert_into(users::table)
            .values((
                users::id.eq(new_id()),
                users::email.eq(&new.email),
                users::name.eq(&new.name),
                users::password_hash.eq(&new.password_hash),
                users::created_at.eq(now),
                users::updated_at.eq(now),
            ))
            .returning(UserRow::as_returning())
            .get_result(&mut conn)
            .await;
        match inserted {
            Ok(row) => Ok(row.into()),
            Err(e) if is_unique_violation(&e) => Err(DomainError::invalid(account::email_taken())),
            Err(e) => Err(db_error(e)),
        }
    }

    async fn find_credentials(&self, email: &str) -> DomainResult<Option<UserCredentials>> {
        let mut conn = checkout(&self.pool).await?;
        let found: Option<(UserRow, String)> = users::table
            .filter(users::email.eq(email))
            .select((UserRow::as_select(), users::password_hash))
            .first(&mut conn)
            .await
            .optional()
            .map_err(db_error)?;
        Ok(found.map(|(user, password_hash)| UserCredentials {
            user: user.into(),
            password_hash,
        }))
    }

    async fn password_hash(&self, user: UserId) -> DomainResult<String> {
        let mut conn = checkout(&self.pool).await?;
        users::table
            .filter(users::id.eq(user.0))
            .select(users::password_hash)
            .first(&mut conn)
            .await
            .map_err(db_error)
    }

    async fn set_password(
        &self,
        user: UserId,
        password_hash: String,
        keep_only: Option<Uuid>,
        now: OffsetDateTime,
    ) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            diesel::update(users::table.filter(users::id.eq(user.0)))
                .set((
                    users::password_hash.eq(&password_hash),
                    users::updated_at.eq(now),
                ))
                .execute(conn)
                .await?;
            if let Some(keep) = keep_only {
                diesel::delete(
                    auth_sessions::table
                        .filter(auth_sessions::user_id.eq(user.0))
                        .filter(auth_sessions::id.ne(keep)),
                )
                .execute(conn)
                .await?;
            }
            Ok::<_, TxError>(())
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn rename(&self, user: UserId, name: String, now: OffsetDateTime) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        diesel::update(users::table.filter(users::id.eq(user.0)))
            .set((users::name.eq(name), users::updated_at.eq(now)))
            .execute(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(())
    }

    async fn preferences(&self, user: UserId) -> DomainResult<Preferences> {
        let mut conn = checkout(&self.pool).await?;
        let row: PreferencesRow = users::table
            .filter(users::id.eq(user.0))
            .select(PreferencesRow::as_select())
            .first(&mut conn)
            .await
            .map_err(db_error)?;
        row.try_into()
    }

    async fn update_preferences(
        &self,
        user: UserId,
        p: PreferencesPatch,
    ) -> DomainResult<Preferences> {
        let mut conn = checkout(&self.pool).await?;
        // One UPDATE: each column keeps its value unless the patch names it, so concurrent
        // patches of different preferences cannot overwrite each other.
        let row: PreferencesRow = diesel::sql_query(
            "UPDATE users SET pref_amounts = COALESCE($2, pref_amounts), \
               pref_gravity = COALESCE($3, pref_gravity), pref_color = COALESCE($4, pref_color), \
               pref_temperature = COALESCE($5, pref_temperature), \
               pref_currency = CASE WHEN $6 THEN $7 ELSE pref_currency END \
             WHERE id = $1 \
             RETURNING pref_amounts, pref_gravity, pref_color, pref_temperature, pref_currency",
        )
        .bind::<diesel::sql_types::Uuid, _>(user.0)
        .bind::<Nullable<Text>, _>(p.amounts.map(|v| v.as_str()))
        .bind::<Nullable<Text>, _>(p.gravity.map(|v| v.as_str()))
        .bind::<Nullable<Text>, _>(p.color.map(|v| v.as_str()))
        .bind::<Nullable<Text>, _>(p.temperature.map(|v| v.as_str()))
        .bind::<diesel::sql_types::Bool, _>(p.currency.is_some())
        .bind::<Nullable<Text>, _>(p.currency.flatten())
        .get_result(&mut conn)
        .await
        .map_err(db_error)?;
        row.try_into()
    }

    async fn create_sign_in(
        &self,
        user: UserId,
        token_hash: Vec<u8>,
        now: OffsetDateTime,
        expires_at: OffsetDateTime,
    ) -> DomainResult<SignInSession> {
        let mut conn = checkout(&self.pool).await?;
        let id = new_id();
        diesel::insert_into(auth_sessions::table)
            .values((
                auth_sessions::id.eq(id),
                auth_sessions::user_id.eq(user.0),
                auth_sessions::token_hash.eq(token_hash),
                auth_sessions::expires_at.eq(expires_at),
                auth_sessions::created_at.eq(now),
            ))
            .execute(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(SignInSession {
            id,
            user_id: user,
            expires_at,
        })
    }

    async fn find_sign_in(
        &self,
        token_hash: &[u8],
        now: OffsetDateTime,
    ) -> DomainResult<Option<(SignInSession, User)>> {
        let mut conn = checkout(&self.pool).await?;
        let found: Option<(Uuid, OffsetDateTime, UserRow)> = auth_sessions::table
            .inner_join(users::table)
            .filter(auth_sessions::token_hash.eq(token_hash))
            .filter(auth_sessions::expires_at.gt(now))
            .select((
                auth_sessions::id,
                auth_sessions::expires_at,
                UserRow::as_select(),
            ))
            .first(&mut conn)
            .await
            .optional()
            .map_err(db_error)?;
        Ok(found.map(|(id, expires_at, user)| {
            let user: User = user.into();
            (
                SignInSession {
                    id,
                    user_id: user.id,
                    expires_at,
                },
                user,
            )
        }))
    }

    async fn delete_sign_in(&self, token_hash: &[u8]) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        diesel::delete(auth_sessions::table.filter(auth_sessions::token_hash.eq(token_hash)))
            .execute(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(())
    }

    async fn create_api_key(
        &self,
        user: UserId,
        new: NewApiKey,
        now: OffsetDateTime,
    ) -> DomainResult<ApiKey> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| create_key_in_tx(conn, user, new, now).await)
            .await
            .map_err(|TxError(e)| e)
    }

    async fn list_api_keys(&self, user: UserId) -> DomainResult<Vec<ApiKey>> {
        let mut conn = checkout(&self.pool).await?;
        let rows: Vec<ApiKeyRow> = api_keys::table
            .filter(api_keys::user_id.eq(user.0))
            .order((api_keys::created_at, api_keys::id))
            .select(ApiKeyRow::as_select())
            .load(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(rows.into_iter().map(ApiKey::from).collect())
    }

    async fn delete_api_key(&self, user: UserId, key_id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let deleted = diesel::delete(
            api_keys::table
                .filter(api_keys::id.eq(key_id))
                .filter(api_keys::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        found(deleted)
    }

    async fn authenticate_api_key(
        &self,
        key_hash: &[u8],
        now: OffsetDateTime,
    ) -> DomainResult<Option<(User, Option<OffsetDateTime>)>> {
        let mut conn = checkout(&self.pool).await?;
        type Found = (
            Uuid,
            Option<OffsetDateTime>,
            Option<OffsetDateTime>,
            UserRow,
        );
        let found: Option<Found> = api_keys::table
            .inner_join(users::table)
            .filter(api_keys::key_hash.eq(key_hash))
            .filter(api_keys::enabled.eq(true))
            .filter(
                api_keys::expires_at
                    .is_null()
                    .or(api_keys::expires_at.gt(now)),
            )
            .select((
                api_keys::id,
                api_keys::last_used_at,
                api_keys::expires_at,
                UserRow::as_select(),
            ))
            .first(&mut conn)
            .await
            .optional()
            .map_err(db_error)?;
        let Some((key_id, last_used_at, expires_at, user)) = found else {
            return Ok(None);
        };
        // Refreshing lastUsedAt costs a write, so at most once a minute per key.
        let stale = last_used_at.is_none_or(|at| now - at >= KEY_TOUCH_INTERVAL);
        if stale {
            diesel::update(
                api_keys::table
                    .filter(api_keys::id.eq(key_id))
                    .filter(api_keys::user_id.eq(user.id)),
            )
            .set(api_keys::last_used_at.eq(now))
            .execute(&mut conn)
            .await
            .map_err(db_error)?;
        }
        Ok(Some((user.into(), expires_at)))
    }

    async fn reserve_attempt(
        &self,
        subject: &SignInSubject,
        window: time::Duration,
        now: OffsetDateTime,
    ) -> DomainResult<AttemptCount> {
        let mut conn = checkout(&self.pool).await?;
        let window_open_since = now - window;
        // One statement: the upsert holds the subject's row from the increment to RETURNING, so
        // simultaneous attempts (from any instance on this database) are counted one after the
        // other and each reads its own count. A window that has passed starts again at 1. The
        // `failures` column counts every attempt not given back: failed sign-ins, sign-ups, and
        // attempts still being checked.
        let counted: AttemptRow = Prepared(
            diesel::sql_query(
                "INSERT INTO sign_in_failures (subject, failures, window_start) VALUES ($1, 1, $2) \
             ON CONFLICT (subject) DO UPDATE SET \
               failures = CASE WHEN sign_in_failures.window_start <= $3 THEN 1 \
                               ELSE sign_in_failures.failures + 1 END, \
               window_start = CASE WHEN sign_in_failures.window_start <= $3 THEN $2 \
                                   ELSE sign_in_failures.window_start END \
             RETURNING failures, window_start",
            )
            .bind::<Text, _>(subject.key())
            .bind::<Timestamptz, _>(now)
            .bind::<Timestamptz, _>(window_open_since),
        )
        .get_result(&mut conn)
        .await
        .map_err(db_error)?;
        Ok(AttemptCount {
            attempts: i64::from(counted.failures),
            window_start: counted.window_start,
        })
    }

    async fn release_attempt(
        &self,
        subject: &SignInSubject,
        window_start: OffsetDateTime,
    ) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        // Only within the window the attempt was counted in: once a new window has begun, its
        // count holds none of the old window's attempts.
        diesel::update(
            sign_in_failures::table
                .filter(sign_in_failures::subject.eq(subject.key()))
                .filter(sign_in_failures::window_start.eq(window_start))
                .filter(sign_in_failures::failures.gt(0)),
        )
        .set(sign_in_failures::failures.eq(sign_in_failures::failures - 1))
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        Ok(())
    }

    async fn clear_attempts(&self, subject: &SignInSubject) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        diesel::delete(sign_in_failures::table.filter(sign_in_failures::subject.eq(subject.key())))
            .execute(&mut conn)
            .await
            .map_err(db_error)?;
        Ok(())
    }
}

/// Locks the account's row until the end of the transaction: writes that check a per-account
/// cap (API keys, devices, webhooks) take turns, so concurrent creates cannot pass it together.
pub(crate) async fn lock_account(
    conn: &mut AsyncPgConnection,
    user: UserId,
) -> diesel::QueryResult<()> {
    users::table
        .filter(users::id.eq(user.0))
        .select(users::id)
        .for_update()
        .first::<Uuid>(conn)
        .await?;
    Ok(())
}

/// Inserts a key if [`account::check_key_room`] finds room; the user row is locked so concurrent
/// creates cannot pass the cap together.
async fn create_key_in_tx(
    conn: &mut AsyncPgConnection,
    user: UserId,
    new: NewApiKey,
    now: OffsetDateTime,
) -> Result<ApiKey, TxError> {
    lock_account(conn, user).await?;
    let held: i64 = api_keys::table
        .filter(api_keys::user_id.eq(user.0))
        .count()
        .get_result(conn)
        .await?;
    account::check_key_room(held).map_err(TxError)?;
    let key: ApiKeyRow = diesel::insert_into(api_keys::table)
        .values((
            api_keys::id.eq(new_id()),
            api_keys::user_id.eq(user.0),
            api_keys::name.eq(&new.name),
            api_keys::key_hash.eq(&new.key_hash),
            api_keys::start.eq(&new.start),
            api_keys::prefix.eq(account::API_KEY_PREFIX),
            api_keys::enabled.eq(true),
            api_keys::expires_at.eq(new.expires_at),
            api_keys::created_at.eq(now),
            api_keys::updated_at.eq(now),
        ))
        .returning(ApiKeyRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(key.into())
}
