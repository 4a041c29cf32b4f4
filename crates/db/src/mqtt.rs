//! The MQTT integration's store (docs/mqtt.md): the account's broker settings, the outbox of
//! messages written in the transaction of the change that causes them (a stored reading, an
//! alert raised or cleared, a session entering or leaving fermentation), and the publishers'
//! claims: one publisher per account at a time (`FOR UPDATE SKIP LOCKED` and a lease on the
//! integration row), so an account's messages reach its broker in the order they were written.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::{
    Array, BigInt, Bool, Double, Integer, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid,
};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::alert::Alert;
use wort_domain::brew_session::Reading;
use wort_domain::mqtt::messages::{
    alert_message, discovery_configs, discovery_removals, reading_message,
};
use wort_domain::mqtt::model::{
    Broker, ClaimedBatch, MqttMessage, MqttSettings, OutgoingMessage, PublishResult,
};
use wort_domain::mqtt::rules::{BATCH, MAX_PENDING_PER_ACCOUNT};
use wort_domain::mqtt::{MqttIntegration, MqttRepository};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;

pub struct PgMqtt {
    pool: DbPool,
}

impl PgMqtt {
    pub fn new(pool: DbPool) -> Self {
        PgMqtt { pool }
    }
}

#[derive(QueryableByName, Debug)]
struct IntegrationRow {
    #[diesel(sql_type = Text)]
    url: String,
    #[diesel(sql_type = Nullable<Text>)]
    username: Option<String>,
    #[diesel(sql_type = Bool)]
    has_password: bool,
    #[diesel(sql_type = Text)]
    topic_prefix: String,
    #[diesel(sql_type = Text)]
    discovery_prefix: String,
    #[diesel(sql_type = Bool)]
    enabled: bool,
    #[diesel(sql_type = Nullable<Text>)]
    last_error: Option<String>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    last_error_at: Option<OffsetDateTime>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    last_published_at: Option<OffsetDateTime>,
    #[diesel(sql_type = BigInt)]
    pending_messages: i64,
    #[diesel(sql_type = Timestamptz)]
    created_at: OffsetDateTime,
    #[diesel(sql_type = Timestamptz)]
    updated_at: OffsetDateTime,
}

impl IntegrationRow {
    fn entity(self) -> MqttIntegration {
        MqttIntegration {
            url: self.url,
            username: self.username,
            has_password: self.has_password,
            topic_prefix: self.topic_prefix,
            discovery_prefix: self.discovery_prefix,
            enabled: self.enabled,
            last_error: self.last_error,
            last_error_at: self.last_error_at,
            last_published_at: self.last_published_at,
            pending_messages: self.pending_messages,
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }
}

const SELECT_INTEGRATION: &str = "SELECT url, username, password IS NOT NULL AS has_password, \
     topic_prefix, discovery_prefix, enabled, last_error, last_error_at, last_published_at, \
     (SELECT count(*) FROM mqtt_messages m WHERE m.user_id = i.user_id) AS pending_messages, \
     created_at, updated_at FROM mqtt_integrations i WHERE i.user_id = $1";

#[derive(QueryableByName, Debug)]
struct SettingsRow {
    #[diesel(sql_type = Text)]
    url: String,
    #[diesel(sql_type = Nullable<Text>)]
    username: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    password: Option<String>,
    #[diesel(sql_type = Text)]
    topic_prefix: String,
    #[diesel(sql_type = Text)]
    discovery_prefix: String,
    #[diesel(sql_type = Bool)]
    enabled: bool,
}

impl SettingsRow {
    fn settings(self) -> MqttSettings {
        MqttSettings {
            url: self.url,
            username: self.username,
            password: self.password,
            topic_prefix: self.topic_prefix,
            discovery_prefix: self.discovery_prefix,
            enabled: self.enabled,
        }
    }
}

async fn load_settings(
    conn: &mut AsyncPgConnection,
    user: UserId,
    lock: bool,
) -> QueryResult<Option<MqttSettings>> {
    let sql = if lock {
        "SELECT url, username, password, topic_prefix, discovery_prefix, enabled \
         FROM mqtt_integrations WHERE user_id = $1 FOR UPDATE"
    } else {
        "SELECT url, username, password, topic_prefix, discovery_prefix, enabled \
         FROM mqtt_integrations WHERE user_id = $1"
    };
    let row: Option<SettingsRow> = Prepared(diesel::sql_query(sql).bind::<SqlUuid, _>(user.0))
        .get_result(conn)
        .await
        .optional()?;
    Ok(row.map(SettingsRow::settings))
}

/// What a message needs of the account's enabled integration, and of a session when it is about
/// one.
#[derive(QueryableByName, Debug)]
struct Target {
    #[diesel(sql_type = Text)]
    topic_prefix: String,
    #[diesel(sql_type = Text)]
    discovery_prefix: String,
    #[diesel(sql_type = Nullable<Text>)]
    session_name: Option<String>,
    #[diesel(sql_type = Nullable<Double>)]
    measured_og: Option<f64>,
    /// The recipe snapshot's planned OG (`stats.og`).
    #[diesel(sql_type = Nullable<Jsonb>)]
    planned_og: Option<serde_json::Value>,
}

impl Target {
    /// The measured OG, else the planned one (as `BrewSession::original_gravity` says).
    fn og(&self) -> Option<f64> {
        self.measured_og.or_else(|| {
            self.planned_og
                .as_ref()
                .and_then(serde_json::Value::as_f64)
                .filter(|og| og.is_finite())
        })
    }
}

/// The account's enabled integration's prefixes, with the session's name and OG; `None` when the
/// account has no enabled integration.
async fn target(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Option<Uuid>,
) -> QueryResult<Option<Target>> {
    Prepared(
        diesel::sql_query(
            "SELECT i.topic_prefix, i.discovery_prefix, s.name AS session_name, \
             s.measured_og, s.recipe_snapshot -> 'stats' -> 'og' AS planned_og \
             FROM mqtt_integrations i \
             LEFT JOIN brew_sessions s ON s.user_id = i.user_id AND s.id = $2 \
             WHERE i.user_id = $1 AND i.enabled",
        )
        .bind::<SqlUuid, _>(user.0)
        .bind::<Nullable<SqlUuid>, _>(session_id),
    )
    .get_result(conn)
    .await
    .optional()
}

/// Writes the messages to the account's outbox, at the database's `now()` order-wise after
/// everything written before them.
async fn insert(
    conn: &mut AsyncPgConnection,
    user: UserId,
    messages: &[MqttMessage],
    now: OffsetDateTime,
) -> QueryResult<()> {
    if messages.is_empty() {
        return Ok(());
    }
    let ids: Vec<Uuid> = messages.iter().map(|_| new_id()).collect();
    let kinds: Vec<&str> = messages.iter().map(|m| m.kind.as_str()).collect();
    let topics: Vec<&str> = messages.iter().map(|m| m.topic.as_str()).collect();
    let payloads: Vec<&str> = messages.iter().map(|m| m.payload.as_str()).collect();
    let retains: Vec<bool> = messages.iter().map(|m| m.retain).collect();
    // One statement whatever the count; `ord` keeps the order given (the ids are time-ordered
    // too, and break ties of `created_at`).
    Prepared(
        diesel::sql_query(
            "INSERT INTO mqtt_messages (id, user_id, kind, topic, payload, retain, created_at) \
             SELECT m.id, $1, m.kind, m.topic, m.payload, m.retain, $7 \
             FROM unnest($2, $3, $4, $5, $6) WITH ORDINALITY \
                  AS m (id, kind, topic, payload, retain, ord) \
             ORDER BY m.ord",
        )
        .bind::<SqlUuid, _>(user.0)
        .bind::<Array<SqlUuid>, _>(&ids)
        .bind::<Array<Text>, _>(&kinds)
        .bind::<Array<Text>, _>(&topics)
        .bind::<Array<Text>, _>(&payloads)
        .bind::<Array<Bool>, _>(&retains)
        .bind::<Timestamptz, _>(now),
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Drops the account's oldest readings that no publisher holds, past
/// [`MAX_PENDING_PER_ACCOUNT`] messages: a broker down for weeks cannot fill the disk.
async fn keep_within_cap(conn: &mut AsyncPgConnection, user: UserId) -> QueryResult<usize> {
    Prepared(
        diesel::sql_query(
            "DELETE FROM mqtt_messages WHERE user_id = $1 AND id IN ( \
                 SELECT id FROM mqtt_messages \
                 WHERE user_id = $1 AND kind = 'reading' AND leased_until IS NULL \
                 ORDER BY created_at, id \
                 LIMIT GREATEST(0, (SELECT count(*) FROM mqtt_messages WHERE user_id = $1) - $2))",
        )
        .bind::<SqlUuid, _>(user.0)
        .bind::<BigInt, _>(MAX_PENDING_PER_ACCOUNT),
    )
    .execute(conn)
    .await
}

/// A stored reading's message, when the account's integration is enabled. On the reading's
/// connection, inside its transaction.
pub(crate) async fn reading_stored(
    conn: &mut AsyncPgConnection,
    user: UserId,
    reading: &Reading,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let Some(target) = target(conn, user, Some(reading.session_id)).await? else {
        return Ok(());
    };
    let message = reading_message(&target.topic_prefix, reading, target.og());
    insert(conn, user, &[message], now).await?;
    keep_within_cap(conn, user).await?;
    Ok(())
}

/// An alert raised or cleared, when the account's integration is enabled.
pub(crate) async fn alert_changed(
    conn: &mut AsyncPgConnection,
    user: UserId,
    alert: &Alert,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let Some(target) = target(conn, user, None).await? else {
        return Ok(());
    };
    insert(
        conn,
        user,
        &[alert_message(&target.topic_prefix, alert)],
        now,
    )
    .await?;
    Ok(())
}

/// A session entered (`fermenting`) or left fermentation: its discovery configs or their
/// removal, when the account's integration is enabled.
pub(crate) async fn fermentation_changed(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
    fermenting: bool,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let Some(target) = target(conn, user, Some(session_id)).await? else {
        return Ok(());
    };
    let messages = if fermenting {
        discovery_configs(
            &target.topic_prefix,
            &target.discovery_prefix,
            session_id,
            target.session_name.as_deref().unwrap_or("Brew session"),
        )
    } else {
        discovery_removals(&target.discovery_prefix, session_id)
    };
    insert(conn, user, &messages, now).await?;
    Ok(())
}

#[derive(QueryableByName, Debug)]
struct FermentingRow {
    #[diesel(sql_type = SqlUuid)]
    id: Uuid,
    #[diesel(sql_type = Text)]
    name: String,
}

async fn fermenting_sessions(
    conn: &mut AsyncPgConnection,
    user: UserId,
) -> QueryResult<Vec<FermentingRow>> {
    Prepared(
        diesel::sql_query(
            "SELECT id, name FROM brew_sessions \
             WHERE user_id = $1 AND status = 'fermenting' ORDER BY id",
        )
        .bind::<SqlUuid, _>(user.0),
    )
    .load(conn)
    .await
}

/// The discovery messages a change of settings calls for: enabling the integration (or
/// creating it enabled) announces every fermenting session; moving a prefix while enabled
/// removes the configs under the old discovery prefix and announces them under the new one.
async fn rediscover(
    conn: &mut AsyncPgConnection,
    user: UserId,
    before: Option<&MqttSettings>,
    after: &MqttSettings,
    now: OffsetDateTime,
) -> QueryResult<()> {
    if !after.enabled {
        return Ok(());
    }
    let was_on = before.filter(|b| b.enabled);
    let moved = was_on.is_some_and(|b| {
        b.topic_prefix != after.topic_prefix || b.discovery_prefix != after.discovery_prefix
    });
    if was_on.is_some() && !moved {
        return Ok(());
    }
    let sessions = fermenting_sessions(conn, user).await?;
    let mut messages = Vec::new();
    for session in &sessions {
        if let Some(before) = was_on.filter(|b| b.discovery_prefix != after.discovery_prefix) {
            messages.extend(discovery_removals(&before.discovery_prefix, session.id));
        }
        messages.extend(discovery_configs(
            &after.topic_prefix,
            &after.discovery_prefix,
            session.id,
            &session.name,
        ));
    }
    insert(conn, user, &messages, now).await
}

#[derive(QueryableByName, Debug)]
struct ClaimRow {
    #[diesel(sql_type = SqlUuid)]
    id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    user_id: Uuid,
    #[diesel(sql_type = Text)]
    topic: String,
    #[diesel(sql_type = Text)]
    payload: String,
    #[diesel(sql_type = Bool)]
    retain: bool,
    #[diesel(sql_type = Text)]
    url: String,
    #[diesel(sql_type = Nullable<Text>)]
    username: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    password: Option<String>,
    #[diesel(sql_type = Integer)]
    failures: i32,
}

/// Leases the messages of up to `$1` accounts, up to `$2` each, for `$3` seconds. `accounts`
/// picks enabled integrations that are not waiting out a retry delay and that no publisher
/// holds, oldest waiting message first (so every account gets its turn), locking them with
/// `SKIP LOCKED`: publishers of every instance claim at once without waiting on or
/// double-claiming each other's. The lease on the integration row (checked again on the locked
/// row) keeps the account theirs after this statement ends.
const CLAIM_DUE: &str = "\
    WITH accounts AS ( \
        SELECT i.user_id FROM mqtt_integrations i \
        WHERE i.enabled AND (i.retry_at IS NULL OR i.retry_at <= now()) \
          AND (i.leased_until IS NULL OR i.leased_until <= now()) \
          AND EXISTS (SELECT 1 FROM mqtt_messages w WHERE w.user_id = i.user_id) \
        ORDER BY (SELECT min(w.created_at) FROM mqtt_messages w WHERE w.user_id = i.user_id) \
        LIMIT $1 \
        FOR UPDATE OF i SKIP LOCKED), \
    leased AS ( \
        UPDATE mqtt_integrations i \
        SET leased_until = now() + make_interval(secs => $3) \
        FROM accounts a WHERE i.user_id = a.user_id \
        RETURNING i.user_id, i.url, i.username, i.password, i.failures), \
    picked AS ( \
        SELECT p.id FROM leased l CROSS JOIN LATERAL ( \
            SELECT w.id FROM mqtt_messages w WHERE w.user_id = l.user_id \
            ORDER BY w.created_at, w.id LIMIT $2) p), \
    messages AS ( \
        UPDATE mqtt_messages m \
        SET leased_until = now() + make_interval(secs => $3), attempts = m.attempts + 1 \
        FROM picked p WHERE m.id = p.id \
        RETURNING m.id, m.user_id, m.topic, m.payload, m.retain, m.created_at) \
    SELECT m.id, m.user_id, m.topic, m.payload, m.retain, \
           l.url, l.username, l.password, l.failures \
    FROM messages m JOIN leased l ON l.user_id = m.user_id \
    ORDER BY m.user_id, m.created_at, m.id";

#[async_trait]
impl MqttRepository for PgMqtt {
    async fn get(&self, user: UserId) -> DomainResult<MqttIntegration> {
        let mut conn = checkout(&self.pool).await?;
        let row: Option<IntegrationRow> =
            Prepared(diesel::sql_query(SELECT_INTEGRATION).bind::<SqlUuid, _>(user.0))
                .get_result(&mut conn)
                .await
                .optional()
                .map_err(db_error)?;
        row.map(IntegrationRow::entity).ok_or(DomainError::NotFound)
    }

    async fn settings(&self, user: UserId) -> DomainResult<Option<MqttSettings>> {
        let mut conn = checkout(&self.pool).await?;
        load_settings(&mut conn, user, false)
            .await
            .map_err(db_error)
    }

    async fn save(
        &self,
        user: UserId,
        settings: MqttSettings,
        now: OffsetDateTime,
    ) -> DomainResult<MqttIntegration> {
        let mut conn = checkout(&self.pool).await?;
        let result: Result<(), TxError> = conn
            .transaction(async |conn| {
                let before = load_settings(conn, user, true).await?;
                // A new broker, or new credentials, start with a clean record and are tried at
                // once.
                let new_broker = before.as_ref().is_none_or(|b| {
                    b.url != settings.url
                        || b.username != settings.username
                        || b.password != settings.password
                        || !b.enabled
                });
                Prepared(
                    diesel::sql_query(
                        "INSERT INTO mqtt_integrations (user_id, url, username, password, \
                         topic_prefix, discovery_prefix, enabled, created_at, updated_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) \
                         ON CONFLICT (user_id) DO UPDATE SET url = EXCLUDED.url, \
                         username = EXCLUDED.username, password = EXCLUDED.password, \
                         topic_prefix = EXCLUDED.topic_prefix, \
                         discovery_prefix = EXCLUDED.discovery_prefix, \
                         enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at, \
                         failures = CASE WHEN $9 THEN 0 ELSE mqtt_integrations.failures END, \
                         retry_at = CASE WHEN $9 THEN NULL ELSE mqtt_integrations.retry_at END, \
                         last_error = CASE WHEN $9 THEN NULL ELSE mqtt_integrations.last_error END, \
                         last_error_at = CASE WHEN $9 THEN NULL \
                                              ELSE mqtt_integrations.last_error_at END",
                    )
                    .bind::<SqlUuid, _>(user.0)
                    .bind::<Text, _>(&settings.url)
                    .bind::<Nullable<Text>, _>(&settings.username)
                    .bind::<Nullable<Text>, _>(&settings.password)
                    .bind::<Text, _>(&settings.topic_prefix)
                    .bind::<Text, _>(&settings.discovery_prefix)
                    .bind::<Bool, _>(settings.enabled)
                    .bind::<Timestamptz, _>(now)
                    .bind::<Bool, _>(new_broker),
                )
                .execute(conn)
                .await?;
                if settings.enabled {
                    rediscover(conn, user, before.as_ref(), &settings, now).await?;
                } else {
                    // Switched off: nothing more is published, and nothing waits.
                    Prepared(
                        diesel::sql_query("DELETE FROM mqtt_messages WHERE user_id = $1")
                            .bind::<SqlUuid, _>(user.0),
                    )
                    .execute(conn)
                    .await?;
                }
                Ok(())
            })
            .await;
        result.map_err(|TxError(e)| e)?;
        drop(conn);
        self.get(user).await
    }

    async fn delete(&self, user: UserId) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        // The messages go with it (their foreign key cascades).
        let deleted = Prepared(
            diesel::sql_query("DELETE FROM mqtt_integrations WHERE user_id = $1")
                .bind::<SqlUuid, _>(user.0),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        crate::error::found(deleted)
    }

    async fn claim_due(
        &self,
        accounts: i64,
        lease: time::Duration,
    ) -> DomainResult<Vec<ClaimedBatch>> {
        let mut conn = checkout(&self.pool).await?;
        let rows: Vec<ClaimRow> = Prepared(
            diesel::sql_query(CLAIM_DUE)
                .bind::<BigInt, _>(accounts)
                .bind::<BigInt, _>(BATCH)
                .bind::<Double, _>(lease.as_seconds_f64()),
        )
        .load(&mut conn)
        .await
        .map_err(db_error)?;
        let mut batches: Vec<ClaimedBatch> = Vec::new();
        for row in rows {
            let message = OutgoingMessage {
                id: row.id,
                topic: row.topic,
                payload: row.payload,
                retain: row.retain,
            };
            match batches.last_mut() {
                Some(batch) if batch.user.0 == row.user_id => batch.messages.push(message),
                _ => batches.push(ClaimedBatch {
                    user: UserId(row.user_id),
                    broker: Broker {
                        url: row.url,
                        username: row.username,
                        password: row.password,
                    },
                    failures: row.failures,
                    messages: vec![message],
                }),
            }
        }
        Ok(batches)
    }

    async fn record(
        &self,
        batch: &ClaimedBatch,
        result: &PublishResult,
        retry_at: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let user = batch.user;
        let all: Vec<Uuid> = batch.messages.iter().map(|m| m.id).collect();
        let published = !result.acknowledged.is_empty();
        let outcome: Result<(), TxError> = conn
            .transaction(async |conn| {
                // The acknowledged are done; the others wait for the next attempt.
                Prepared(
                    diesel::sql_query(
                        "DELETE FROM mqtt_messages WHERE user_id = $1 AND id = ANY ($2)",
                    )
                    .bind::<SqlUuid, _>(user.0)
                    .bind::<Array<SqlUuid>, _>(&result.acknowledged),
                )
                .execute(conn)
                .await?;
                Prepared(
                    diesel::sql_query(
                        "UPDATE mqtt_messages SET leased_until = NULL \
                         WHERE user_id = $1 AND id = ANY ($2)",
                    )
                    .bind::<SqlUuid, _>(user.0)
                    .bind::<Array<SqlUuid>, _>(&all),
                )
                .execute(conn)
                .await?;
                Prepared(
                    diesel::sql_query(
                        "UPDATE mqtt_integrations SET leased_until = NULL, \
                         failures = CASE WHEN $2::text IS NULL THEN 0 ELSE failures + 1 END, \
                         retry_at = $3, \
                         last_error = CASE WHEN $2::text IS NULL THEN NULL ELSE $2 END, \
                         last_error_at = CASE WHEN $2::text IS NULL THEN NULL ELSE $4 END, \
                         last_published_at = CASE WHEN $5 THEN $4 ELSE last_published_at END \
                         WHERE user_id = $1",
                    )
                    .bind::<SqlUuid, _>(user.0)
                    .bind::<Nullable<Text>, _>(&result.error)
                    .bind::<Nullable<Timestamptz>, _>(retry_at)
                    .bind::<Timestamptz, _>(now)
                    .bind::<Bool, _>(published),
                )
                .execute(conn)
                .await?;
                Ok(())
            })
            .await;
        outcome.map_err(|TxError(e)| e)
    }
}
