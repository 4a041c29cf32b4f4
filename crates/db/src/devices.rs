//! The device repository: devices, their tokens, and the readings they post.

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::AstPass;
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brew_session::{Reading, SessionStatus};
use wort_domain::device::ports::DevicePost;
use wort_domain::device::rules::{
    check_device_room, session_takes_readings, unknown_session, wait_before_next_reading,
};
use wort_domain::device::{Device, DeviceKind, DevicePatch, DeviceRepository, NewDevice};
use wort_domain::page::{Page, PageRequest};
use wort_domain::webhook::EventType;
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::brew_sessions::{add_reading_statement, after_reading_stored, run_add_reading};
use crate::error::{TxError, db_error, is_foreign_key_violation};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::devices;

pub struct PgDevices {
    pool: DbPool,
}

impl PgDevices {
    pub fn new(pool: DbPool) -> Self {
        PgDevices { pool }
    }
}

#[derive(Queryable, Selectable, Insertable, Debug)]
#[diesel(table_name = devices)]
struct DeviceRow {
    id: Uuid,
    user_id: Uuid,
    name: String,
    kind: String,
    session_id: Option<Uuid>,
    token_hash: Vec<u8>,
    last_seen_at: Option<OffsetDateTime>,
    last_payload: Option<Value>,
    last_reading_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl DeviceRow {
    fn entity(self) -> DomainResult<Device> {
        let kind = DeviceKind::parse(&self.kind)
            .ok_or_else(|| DomainError::Internal(format!("unknown device kind {}", self.kind)))?;
        Ok(Device {
            id: self.id,
            name: self.name,
            kind,
            session_id: self.session_id,
            last_seen_at: self.last_seen_at,
            last_payload: self.last_payload,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

#[derive(AsChangeset)]
#[diesel(table_name = devices)]
struct DeviceChanges {
    name: Option<String>,
    kind: Option<&'static str>,
    session_id: Option<Option<Uuid>>,
    updated_at: OffsetDateTime,
}

/// The foreign key from a device's `(session_id, user_id)` to its account's sessions.
const SESSION_FKEY: &str = "devices_session_fkey";

/// Naming a session that is not the account's is the caller's mistake (`422` at `session_id`).
fn device_write_error(e: diesel::result::Error) -> DomainError {
    if is_foreign_key_violation(&e, SESSION_FKEY) {
        DomainError::invalid(unknown_session())
    } else {
        db_error(e)
    }
}

fn mine(user: UserId) -> devices::BoxedQuery<'static, diesel::pg::Pg> {
    devices::table
        .filter(devices::user_id.eq(user.0))
        .into_boxed()
}

async fn find(conn: &mut AsyncPgConnection, user: UserId, id: Uuid) -> DomainResult<Device> {
    mine(user)
        .filter(devices::id.eq(id))
        .select(DeviceRow::as_select())
        .first(conn)
        .await
        .map_err(db_error)?
        .entity()
}

/// How a post ended, decided inside the transaction; the refusals are returned after it
/// commits, so that `last_seen_at` and the payload are kept even when nothing is stored.
enum PostOutcome {
    Stored(Reading),
    Refused(DomainError),
}

/// The first statement of a device's post: records that the device was seen (its payload and
/// the time) and, in the same round trip, reads what deciding the post needs: the device, the
/// status of its session, and the webhook events its account subscribes to. The `UPDATE` locks
/// the device's row until the commit, so two posts of one device take turns and the second sees
/// the first's `last_reading_at`. No row: no device has the token.
///
/// A diesel query with a static query id (not `diesel::sql_query`), so that it is prepared once
/// per connection.
struct RecordDevicePost<'a> {
    token_hash: &'a [u8],
    payload: &'a Value,
    now: OffsetDateTime,
}

impl diesel::query_builder::QueryId for RecordDevicePost<'_> {
    type QueryId = RecordDevicePost<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl diesel::query_builder::QueryFragment<Pg> for RecordDevicePost<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        use diesel::sql_types::{Bytea, Jsonb, Timestamptz};
        out.push_sql("WITH device AS (UPDATE devices SET last_seen_at = ");
        out.push_bind_param::<Timestamptz, _>(&self.now)?;
        out.push_sql(", last_payload = ");
        out.push_bind_param::<Jsonb, _>(self.payload)?;
        out.push_sql(" WHERE token_hash = ");
        out.push_bind_param::<Bytea, _>(self.token_hash)?;
        out.push_sql(
            " RETURNING id, user_id, session_id, last_reading_at) \
             SELECT device.id, device.user_id, device.session_id, device.last_reading_at, \
             (SELECT status FROM brew_sessions \
              WHERE brew_sessions.id = device.session_id \
              AND brew_sessions.user_id = device.user_id), \
             ARRAY(SELECT DISTINCT unnest(events) FROM webhook_endpoints \
              WHERE webhook_endpoints.user_id = device.user_id AND webhook_endpoints.active) \
             FROM device",
        );
        Ok(())
    }
}

impl diesel::query_builder::Query for RecordDevicePost<'_> {
    /// The columns of [`RecordedPost`], in its field order.
    type SqlType = (
        diesel::sql_types::Uuid,
        diesel::sql_types::Uuid,
        diesel::sql_types::Nullable<diesel::sql_types::Uuid>,
        diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>,
        diesel::sql_types::Nullable<diesel::sql_types::Text>,
        diesel::sql_types::Array<diesel::sql_types::Text>,
    );
}

/// What [`RecordDevicePost`] read.
#[derive(Queryable)]
struct RecordedPost {
    device_id: Uuid,
    user_id: Uuid,
    session_id: Option<Uuid>,
    last_reading_at: Option<OffsetDateTime>,
    /// The assigned session's status (`None` when no session is assigned).
    session_status: Option<String>,
    /// The event types the account's active webhook endpoints subscribe to.
    subscribed: Vec<String>,
}

/// A post in one transaction of at most four round trips when no webhook or scheduled step
/// asks for more: `BEGIN`; [`RecordDevicePost`]; the reading's insert pipelined with the
/// device's `last_reading_at`; `COMMIT`. A refused post stops after the first statement, so
/// that `last_seen_at` and the payload are kept even when nothing is stored.
async fn ingest_in_tx(
    conn: &mut AsyncPgConnection,
    post: DevicePost,
    interval: time::Duration,
    now: OffsetDateTime,
) -> Result<PostOutcome, TxError> {
    let recorded: Option<RecordedPost> = RecordDevicePost {
        token_hash: &post.token_hash,
        payload: &post.payload,
        now,
    }
    .get_result(conn)
    .await
    .optional()?;
    let Some(device) = recorded else {
        return Err(TxError(DomainError::Unauthorized));
    };
    let user = UserId(device.user_id);
    let reading = match post.reading {
        Ok(reading) => reading,
        Err(e) => return Ok(PostOutcome::Refused(e)),
    };
    let Some(session_id) = device.session_id else {
        return Ok(PostOutcome::Refused(DomainError::Conflict(
            "No brew session is assigned to this device; assign one in wort first".into(),
        )));
    };
    // The foreign key keeps an assigned session the account's; gone only if deleted meanwhile.
    let status = device.session_status.ok_or(DomainError::NotFound)?;
    let status = SessionStatus::parse(&status)
        .ok_or_else(|| DomainError::Internal(format!("unknown status {status}")))?;
    if !session_takes_readings(status) {
        return Ok(PostOutcome::Refused(DomainError::Conflict(format!(
            "The brew session assigned to this device is {}; assign an open one",
            status.as_str()
        ))));
    }
    if let Some(retry_after_secs) = wait_before_next_reading(device.last_reading_at, interval, now)
    {
        return Ok(PostOutcome::Refused(DomainError::DeviceTooSoon {
            retry_after_secs,
        }));
    }
    let subscribed: Vec<EventType> = device
        .subscribed
        .iter()
        .filter_map(|e| EventType::parse(e))
        .collect();
    let insert = add_reading_statement(user, session_id, Some(device.device_id), reading, now);
    let touch_device = Prepared(
        diesel::update(
            devices::table
                .filter(devices::id.eq(device.device_id))
                .filter(devices::user_id.eq(user.0)),
        )
        .set(devices::last_reading_at.eq(now)),
    );
    // Two statements, one round trip: they are independent, and the transaction makes them one.
    let shared: &AsyncPgConnection = conn;
    let (mut first, mut second) = (shared, shared);
    let (_, inserted) = futures_util::try_join!(
        async {
            touch_device
                .execute(&mut first)
                .await
                .map_err(TxError::from)
        },
        run_add_reading(&mut second, insert),
    )?;
    let inserted = inserted.ok_or(DomainError::NotFound)?;
    let stored = after_reading_stored(conn, user, inserted, &subscribed, now).await?;
    Ok(PostOutcome::Stored(stored))
}

#[async_trait]
impl DeviceRepository for PgDevices {
    async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<Device>> {
        let conn = checkout(&self.pool).await?;
        let page_query = mine(user)
            .order((sql::<Text>("lower(devices.name)").asc(), devices::id.asc()))
            .select(DeviceRow::as_select())
            .limit(page.limit)
            .offset(page.offset);
        let count_query = mine(user).count();
        let conn_ref: &AsyncPgConnection = &conn;
        let (rows, total) = futures_util::try_join!(
            Prepared(page_query).load::<DeviceRow>(&mut &*conn_ref),
            count_query.get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        let items = rows
            .into_iter()
            .map(DeviceRow::entity)
            .collect::<DomainResult<_>>()?;
        Ok(Page { items, total })
    }

    async fn create(
        &self,
        user: UserId,
        new: NewDevice,
        token_hash: Vec<u8>,
        now: OffsetDateTime,
    ) -> DomainResult<Device> {
        let mut conn = checkout(&self.pool).await?;
        let row = DeviceRow {
            id: new_id(),
            user_id: user.0,
            name: new.name,
            kind: new.kind.as_str().to_owned(),
            session_id: new.session_id,
            token_hash,
            last_seen_at: None,
            last_payload: None,
            last_reading_at: None,
            created_at: now,
            updated_at: now,
        };
        conn.transaction(async |conn| {
            // The account row is locked so two concurrent creates cannot both pass the count.
            crate::accounts::lock_account(conn, user).await?;
            let count: i64 = mine(user).count().get_result(conn).await?;
            check_device_room(count).map_err(TxError)?;
            let saved: DeviceRow = diesel::insert_into(devices::table)
                .values(&row)
                .returning(DeviceRow::as_returning())
                .get_result(conn)
                .await
                .map_err(|e| TxError(device_write_error(e)))?;
            Ok(saved.entity()?)
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Device> {
        let mut conn = checkout(&self.pool).await?;
        find(&mut conn, user, id).await
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: DevicePatch,
        now: OffsetDateTime,
    ) -> DomainResult<Device> {
        let mut conn = checkout(&self.pool).await?;
        let changes = DeviceChanges {
            name: patch.name,
            kind: patch.kind.map(|k| k.as_str()),
            session_id: patch.session_id,
            updated_at: now,
        };
        let saved: DeviceRow = diesel::update(
            devices::table
                .filter(devices::id.eq(id))
                .filter(devices::user_id.eq(user.0)),
        )
        .set(&changes)
        .returning(DeviceRow::as_returning())
        .get_result(&mut conn)
        .await
        .map_err(device_write_error)?;
        saved.entity()
    }

    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let deleted = diesel::delete(
            devices::table
                .filter(devices::id.eq(id))
                .filter(devices::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        if deleted == 0 {
            return Err(DomainError::NotFound);
        }
        Ok(())
    }

    async fn replace_token(
        &self,
        user: UserId,
        id: Uuid,
        token_hash: Vec<u8>,
        now: OffsetDateTime,
    ) -> DomainResult<Device> {
        let mut conn = checkout(&self.pool).await?;
        let saved: DeviceRow = diesel::update(
            devices::table
                .filter(devices::id.eq(id))
                .filter(devices::user_id.eq(user.0)),
        )
        .set((
            devices::token_hash.eq(token_hash),
            devices::updated_at.eq(now),
        ))
        .returning(DeviceRow::as_returning())
        .get_result(&mut conn)
        .await
        .map_err(db_error)?;
        saved.entity()
    }

    async fn token_exists(&self, token_hash: &[u8]) -> DomainResult<bool> {
        let mut conn = checkout(&self.pool).await?;
        diesel::select(diesel::dsl::exists(
            devices::table.filter(devices::token_hash.eq(token_hash)),
        ))
        .get_result(&mut conn)
        .await
        .map_err(db_error)
    }

    async fn ingest(
        &self,
        post: DevicePost,
        interval: time::Duration,
        now: OffsetDateTime,
    ) -> DomainResult<Reading> {
        let mut conn = checkout(&self.pool).await?;
        let outcome = conn
            .transaction(async |conn| ingest_in_tx(conn, post, interval, now).await)
            .await
            .map_err(|TxError(e)| e)?;
        match outcome {
            PostOutcome::Stored(reading) => Ok(reading),
            PostOutcome::Refused(e) => Err(e),
        }
    }
}
