//! The webhook repository: endpoints, and the delivery side of the outbox
//! (`outbox.rs` writes it): claims with `FOR UPDATE SKIP LOCKED`, fair between accounts,
//! leases, the attempts log, and the test ping's limit.

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Integer, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::page::{Page, PageRequest};
use wort_domain::webhook::model::{
    AfterAttempt, AttemptOutcome, ClaimedDelivery, DeliveryAttempt, Event, SendResult,
};
use wort_domain::webhook::rules::{
    MAX_CONSECUTIVE_FAILURES, check_webhook_room, counts_towards_deactivation,
    failures_after_update, wait_before_next_test,
};
use wort_domain::webhook::{EventType, NewWebhook, Webhook, WebhookPatch, WebhookRepository};
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::{
    webhook_attempts as attempts, webhook_deliveries as deliveries, webhook_endpoints as endpoints,
    webhook_events as events,
};

pub struct PgWebhooks {
    pool: DbPool,
}

impl PgWebhooks {
    pub fn new(pool: DbPool) -> Self {
        PgWebhooks { pool }
    }
}

#[derive(Queryable, Selectable, Debug)]
#[diesel(table_name = endpoints)]
struct EndpointRow {
    id: Uuid,
    url: String,
    events: Vec<String>,
    active: bool,
    consecutive_failures: i32,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

fn event_type(s: &str) -> DomainResult<EventType> {
    EventType::parse(s).ok_or_else(|| DomainError::Internal(format!("unknown event type {s}")))
}

impl EndpointRow {
    fn entity(self) -> DomainResult<Webhook> {
        Ok(Webhook {
            id: self.id,
            url: self.url,
            events: self
                .events
                .iter()
                .map(|e| event_type(e))
                .collect::<DomainResult<_>>()?,
            active: self.active,
            consecutive_failures: self.consecutive_failures,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

fn names(events: &[EventType]) -> Vec<String> {
    events.iter().map(|e| e.as_str().to_owned()).collect()
}

fn mine(user: UserId) -> endpoints::BoxedQuery<'static, diesel::pg::Pg> {
    endpoints::table
        .filter(endpoints::user_id.eq(user.0))
        .into_boxed()
}

#[derive(Queryable, Debug)]
struct AttemptRow {
    id: Uuid,
    event_id: Uuid,
    event_type: String,
    attempt: i32,
    outcome: String,
    response_status: Option<i32>,
    duration_ms: i32,
    error: Option<String>,
    attempted_at: OffsetDateTime,
}

impl AttemptRow {
    fn entity(self) -> DomainResult<DeliveryAttempt> {
        Ok(DeliveryAttempt {
            id: self.id,
            event_id: self.event_id,
            event_type: event_type(&self.event_type)?,
            attempt: self.attempt,
            status: AttemptOutcome::parse(&self.outcome).ok_or_else(|| {
                DomainError::Internal(format!("unknown outcome {}", self.outcome))
            })?,
            response_status: self.response_status,
            duration_ms: self.duration_ms,
            error: self.error,
            attempted_at: self.attempted_at,
        })
    }
}

/// A claimed delivery as the claim query returns it.
#[derive(QueryableByName, Debug)]
struct ClaimRow {
    #[diesel(sql_type = SqlUuid)]
    user_id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    delivery_id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    endpoint_id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    event_id: Uuid,
    #[diesel(sql_type = Text)]
    event_type: String,
    #[diesel(sql_type = Timestamptz)]
    event_created_at: OffsetDateTime,
    #[diesel(sql_type = Text)]
    url: String,
    #[diesel(sql_type = Text)]
    secret: String,
    #[diesel(sql_type = Text)]
    body: String,
    #[diesel(sql_type = Integer)]
    attempt: i32,
}

impl ClaimRow {
    fn entity(self) -> DomainResult<ClaimedDelivery> {
        Ok(ClaimedDelivery {
            user: UserId(self.user_id),
            delivery_id: self.delivery_id,
            endpoint_id: self.endpoint_id,
            event_id: self.event_id,
            event_type: event_type(&self.event_type)?,
            event_created_at: self.event_created_at,
            url: self.url,
            secret: self.secret,
            body: self.body,
            attempt: self.attempt,
        })
    }
}

/// Claims due deliveries of active endpoints, fairly between accounts (the domain's
/// `claim_turn`): an account's `n`th oldest due delivery gets turn "its attempts in flight + n",
/// none past `$3`, and lower turns are claimed first. Within an account the endpoints take turns
/// too (each one's oldest first, then each one's second…).
///
/// `waiting` is a skip scan over the pending index: one probe per endpoint with pending
/// deliveries, however long its backlog, so the claim costs the same with 10 or 100,000 due.
/// `heads` takes at most `$3` due deliveries per active endpoint (an account never gets more
/// turns than that). `SKIP LOCKED` lets every instance's workers run this at once without
/// waiting on or double-claiming each other's rows, and the conditions on `d` are checked again
/// on the locked row; the lease then keeps the delivery theirs after this short transaction
/// ends, while the request is in flight.
const CLAIM_DUE: &str = "\
    WITH RECURSIVE waiting (endpoint_id) AS ( \
        (SELECT endpoint_id FROM webhook_deliveries WHERE state = 'pending' \
         ORDER BY endpoint_id LIMIT 1) \
        UNION ALL \
        SELECT (SELECT d.endpoint_id FROM webhook_deliveries d \
                WHERE d.state = 'pending' AND d.endpoint_id > w.endpoint_id \
                ORDER BY d.endpoint_id LIMIT 1) \
        FROM waiting w WHERE w.endpoint_id IS NOT NULL), \
    in_flight AS ( \
        SELECT e.user_id, count(*) AS n \
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id \
        WHERE d.state = 'pending' AND d.leased_until IS NOT NULL AND d.leased_until > now() \
        GROUP BY e.user_id), \
    heads AS ( \
        SELECT e.user_id, h.id, h.next_attempt_at, \
               row_number() OVER (PARTITION BY e.id ORDER BY h.next_attempt_at, h.id) AS nth \
        FROM waiting w \
        JOIN webhook_endpoints e ON e.id = w.endpoint_id AND e.active \
        CROSS JOIN LATERAL ( \
            SELECT d.id, d.next_attempt_at FROM webhook_deliveries d \
            WHERE d.endpoint_id = e.id AND d.state = 'pending' AND d.next_attempt_at <= now() \
              AND (d.leased_until IS NULL OR d.leased_until <= now()) \
            ORDER BY d.next_attempt_at \
            LIMIT $3) h), \
    turns AS MATERIALIZED ( \
        SELECT h.id, h.next_attempt_at, coalesce(f.n, 0) + row_number() OVER ( \
                   PARTITION BY h.user_id ORDER BY h.nth, h.next_attempt_at, h.id) AS turn \
        FROM heads h LEFT JOIN in_flight f ON f.user_id = h.user_id), \
    due AS ( \
        SELECT d.id FROM turns t JOIN webhook_deliveries d ON d.id = t.id \
        WHERE t.turn <= $3 AND d.state = 'pending' \
          AND (d.leased_until IS NULL OR d.leased_until <= now()) \
        ORDER BY t.turn, t.next_attempt_at, t.id \
        LIMIT $1 \
        FOR UPDATE OF d SKIP LOCKED) \
    UPDATE webhook_deliveries d \
    SET attempts = d.attempts + 1, leased_until = now() + make_interval(secs => $2) \
    FROM due, webhook_events ev, webhook_endpoints e \
    WHERE d.id = due.id AND ev.id = d.event_id AND e.id = d.endpoint_id \
    RETURNING d.user_id, d.id AS delivery_id, d.endpoint_id, d.event_id, ev.type AS event_type, \
              ev.created_at AS event_created_at, e.url, e.secret, ev.body, d.attempts AS attempt";

/// Stamps the endpoint's test time unless it was tested less than `$3` seconds ago, by any
/// instance: of two tests at once, the second waits for the first's row lock and then finds its
/// time. The database's clock, so that instances whose clocks differ agree.
const STAMP_TEST: &str = "\
    UPDATE webhook_endpoints SET last_test_at = now() \
    WHERE id = $1 AND user_id = $2 \
      AND (last_test_at IS NULL OR last_test_at <= now() - make_interval(secs => $3)) \
    RETURNING url, secret";

#[derive(QueryableByName, Debug)]
struct TestTarget {
    #[diesel(sql_type = Text)]
    url: String,
    #[diesel(sql_type = Text)]
    secret: String,
}

async fn record_in_tx(
    conn: &mut AsyncPgConnection,
    delivery: &ClaimedDelivery,
    result: &SendResult,
    after: AfterAttempt,
    now: OffsetDateTime,
) -> Result<DeliveryAttempt, TxError> {
    let outcome = after.outcome();
    let user = delivery.user.0;
    let row = (
        attempts::id.eq(new_id()),
        attempts::user_id.eq(user),
        attempts::delivery_id.eq(delivery.delivery_id),
        attempts::endpoint_id.eq(delivery.endpoint_id),
        attempts::attempt.eq(delivery.attempt),
        attempts::outcome.eq(outcome.as_str()),
        attempts::response_status.eq(result.response_status.map(i32::from)),
        attempts::duration_ms.eq(i32::try_from(result.duration_ms).unwrap_or(i32::MAX)),
        attempts::error.eq(result.error.as_deref()),
        attempts::attempted_at.eq(now),
    );
    let (id, attempted_at): (Uuid, OffsetDateTime) = diesel::insert_into(attempts::table)
        .values(row)
        .returning((attempts::id, attempts::attempted_at))
        .get_result(conn)
        .await?;
    // Only while the claim is still this worker's (same attempt number): a lease that ran out
    // and was claimed again belongs to the newer attempt.
    let this = deliveries::table
        .filter(deliveries::id.eq(delivery.delivery_id))
        .filter(deliveries::user_id.eq(user))
        .filter(deliveries::attempts.eq(delivery.attempt));
    match after {
        AfterAttempt::Delivered => {
            Prepared(diesel::update(this).set((
                deliveries::state.eq("delivered"),
                deliveries::leased_until.eq(None::<OffsetDateTime>),
            )))
            .execute(conn)
            .await?;
        }
        AfterAttempt::RetryAt(at) => {
            Prepared(diesel::update(this).set((
                deliveries::next_attempt_at.eq(at),
                deliveries::leased_until.eq(None::<OffsetDateTime>),
            )))
            .execute(conn)
            .await?;
        }
        AfterAttempt::GiveUp => {
            Prepared(diesel::update(this).set((
                deliveries::state.eq("failed"),
                deliveries::leased_until.eq(None::<OffsetDateTime>),
            )))
            .execute(conn)
            .await?;
        }
    }
    if counts_towards_deactivation(delivery.event_type) {
        let endpoint = endpoints::table
            .filter(endpoints::id.eq(delivery.endpoint_id))
            .filter(endpoints::user_id.eq(user));
        if outcome == AttemptOutcome::Delivered {
            Prepared(
                diesel::update(endpoint.filter(endpoints::consecutive_failures.ne(0)))
                    .set(endpoints::consecutive_failures.eq(0)),
            )
            .execute(conn)
            .await?;
        } else {
            Prepared(
                diesel::update(endpoint).set((
                    endpoints::consecutive_failures.eq(endpoints::consecutive_failures + 1),
                    endpoints::active.eq(endpoints::active
                        .and(endpoints::consecutive_failures.lt(MAX_CONSECUTIVE_FAILURES - 1))),
                )),
            )
            .execute(conn)
            .await?;
        }
    }
    Ok(DeliveryAttempt {
        id,
        event_id: delivery.event_id,
        event_type: delivery.event_type,
        attempt: delivery.attempt,
        status: outcome,
        response_status: result.response_status.map(i32::from),
        duration_ms: i32::try_from(result.duration_ms).unwrap_or(i32::MAX),
        error: result.error.clone(),
        attempted_at,
    })
}

#[async_trait]
impl WebhookRepository for PgWebhooks {
    async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<Webhook>> {
        let conn = checkout(&self.pool).await?;
        let page_query = mine(user)
            .order((endpoints::created_at.asc(), endpoints::id.asc()))
            .select(EndpointRow::as_select())
            .limit(page.limit)
            .offset(page.offset);
        let count_query = mine(user).count();
        let conn_ref: &AsyncPgConnection = &conn;
        let (rows, total) = futures_util::try_join!(
            page_query.load::<EndpointRow>(&mut &*conn_ref),
            count_query.get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        let items = rows
            .into_iter()
            .map(EndpointRow::entity)
            .collect::<DomainResult<_>>()?;
        Ok(Page { items, total })
    }

    async fn create(
        &self,
        user: UserId,
        new: NewWebhook,
        secret: String,
        now: OffsetDateTime,
    ) -> DomainResult<Webhook> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            crate::accounts::lock_account(conn, user).await?;
            let count: i64 = mine(user).count().get_result(conn).await?;
            check_webhook_room(count).map_err(TxError)?;
            let saved: EndpointRow = diesel::insert_into(endpoints::table)
                .values((
                    endpoints::id.eq(new_id()),
                    endpoints::user_id.eq(user.0),
                    endpoints::url.eq(&new.url),
                    endpoints::events.eq(names(&new.events)),
                    endpoints::active.eq(new.active),
                    endpoints::secret.eq(&secret),
                    endpoints::consecutive_failures.eq(0),
                    endpoints::created_at.eq(now),
                    endpoints::updated_at.eq(now),
                ))
                .returning(EndpointRow::as_returning())
                .get_result(conn)
                .await?;
            Ok(saved.entity()?)
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Webhook> {
        let mut conn = checkout(&self.pool).await?;
        mine(user)
            .filter(endpoints::id.eq(id))
            .select(EndpointRow::as_select())
            .first::<EndpointRow>(&mut conn)
            .await
            .map_err(db_error)?
            .entity()
    }

    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: WebhookPatch,
        now: OffsetDateTime,
    ) -> DomainResult<Webhook> {
        #[derive(AsChangeset)]
        #[diesel(table_name = endpoints)]
        struct Changes {
            url: Option<String>,
            events: Option<Vec<String>>,
            active: Option<bool>,
            consecutive_failures: Option<i32>,
            updated_at: OffsetDateTime,
        }
        let changes = Changes {
            url: patch.url,
            events: patch.events.as_deref().map(names),
            active: patch.active,
            consecutive_failures: failures_after_update(patch.active),
            updated_at: now,
        };
        let mut conn = checkout(&self.pool).await?;
        let saved: EndpointRow = diesel::update(
            endpoints::table
                .filter(endpoints::id.eq(id))
                .filter(endpoints::user_id.eq(user.0)),
        )
        .set(&changes)
        .returning(EndpointRow::as_returning())
        .get_result(&mut conn)
        .await
        .map_err(db_error)?;
        saved.entity()
    }

    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        let deleted = diesel::delete(
            endpoints::table
                .filter(endpoints::id.eq(id))
                .filter(endpoints::user_id.eq(user.0)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        if deleted == 0 {
            return Err(DomainError::NotFound);
        }
        Ok(())
    }

    async fn list_attempts(
        &self,
        user: UserId,
        id: Uuid,
        page: PageRequest,
    ) -> DomainResult<Page<DeliveryAttempt>> {
        let mut conn = checkout(&self.pool).await?;
        // Not found for another account's endpoint, never an empty list.
        mine(user)
            .filter(endpoints::id.eq(id))
            .select(endpoints::id)
            .first::<Uuid>(&mut conn)
            .await
            .map_err(db_error)?;
        let of_endpoint = || {
            attempts::table
                .filter(attempts::endpoint_id.eq(id))
                .filter(attempts::user_id.eq(user.0))
        };
        // The joined rows are the account's too; saying so keeps the join on one account's
        // rows wherever they are stored (docs/decisions/0084-past-one-primary.md).
        let rows: Vec<AttemptRow> = of_endpoint()
            .inner_join(deliveries::table.inner_join(events::table))
            .filter(deliveries::user_id.eq(user.0))
            .filter(events::user_id.eq(user.0))
            .order((attempts::attempted_at.desc(), attempts::id.desc()))
            .select((
                attempts::id,
                deliveries::event_id,
                events::event_type,
                attempts::attempt,
                attempts::outcome,
                attempts::response_status,
                attempts::duration_ms,
                attempts::error,
                attempts::attempted_at,
            ))
            .limit(page.limit)
            .offset(page.offset)
            .load(&mut conn)
            .await
            .map_err(db_error)?;
        let total: i64 = of_endpoint()
            .count()
            .get_result(&mut conn)
            .await
            .map_err(db_error)?;
        let items = rows
            .into_iter()
            .map(AttemptRow::entity)
            .collect::<DomainResult<_>>()?;
        Ok(Page { items, total })
    }

    async fn claim_ping(
        &self,
        user: UserId,
        id: Uuid,
        event: Event,
        lease: time::Duration,
        interval: time::Duration,
    ) -> DomainResult<ClaimedDelivery> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            let stamped: Option<TestTarget> = diesel::sql_query(STAMP_TEST)
                .bind::<SqlUuid, _>(id)
                .bind::<SqlUuid, _>(user.0)
                .bind::<Double, _>(interval.as_seconds_f64())
                .get_result(conn)
                .await
                .optional()?;
            let Some(TestTarget { url, secret }) = stamped else {
                // Not this account's endpoint (404), or tested moments ago (429).
                let (last, now): (Option<OffsetDateTime>, OffsetDateTime) = mine(user)
                    .filter(endpoints::id.eq(id))
                    .select((endpoints::last_test_at, sql::<Timestamptz>("now()")))
                    .first(conn)
                    .await?;
                let retry_after_secs = last.map_or(1, |last| wait_before_next_test(last, now));
                return Err(TxError(DomainError::WebhookTestTooSoon {
                    retry_after_secs,
                }));
            };
            diesel::insert_into(events::table)
                .values((
                    events::id.eq(event.id),
                    events::user_id.eq(user.0),
                    events::event_type.eq(event.event_type.as_str()),
                    events::body.eq(&event.body),
                    events::created_at.eq(event.created_at),
                ))
                .execute(conn)
                .await?;
            let delivery_id = new_id();
            diesel::insert_into(deliveries::table)
                .values((
                    deliveries::id.eq(delivery_id),
                    deliveries::user_id.eq(user.0),
                    deliveries::event_id.eq(event.id),
                    deliveries::endpoint_id.eq(id),
                    deliveries::state.eq("pending"),
                    deliveries::attempts.eq(1),
                    deliveries::next_attempt_at.eq(event.created_at),
                    deliveries::leased_until.eq(event.created_at + lease),
                    deliveries::created_at.eq(event.created_at),
                ))
                .execute(conn)
                .await?;
            Ok::<_, TxError>(ClaimedDelivery {
                user,
                delivery_id,
                endpoint_id: id,
                event_id: event.id,
                event_type: event.event_type,
                event_created_at: event.created_at,
                url,
                secret,
                body: event.body.clone(),
                attempt: 1,
            })
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn claim_due(
        &self,
        limit: i64,
        per_account: i64,
        lease: time::Duration,
    ) -> DomainResult<Vec<ClaimedDelivery>> {
        let mut conn = checkout(&self.pool).await?;
        let rows: Vec<ClaimRow> = Prepared(
            diesel::sql_query(CLAIM_DUE)
                .bind::<BigInt, _>(limit)
                .bind::<Double, _>(lease.as_seconds_f64())
                .bind::<BigInt, _>(per_account),
        )
        .load(&mut conn)
        .await
        .map_err(db_error)?;
        rows.into_iter().map(ClaimRow::entity).collect()
    }

    async fn prune(&self, before: OffsetDateTime) -> DomainResult<u64> {
        let mut conn = checkout(&self.pool).await?;
        let pending = deliveries::table
            .filter(deliveries::state.eq("pending"))
            .select(deliveries::event_id);
        let deleted = diesel::delete(
            events::table
                .filter(events::created_at.lt(before))
                .filter(events::id.ne_all(pending)),
        )
        .execute(&mut conn)
        .await
        .map_err(db_error)?;
        Ok(u64::try_from(deleted).unwrap_or(0))
    }

    async fn record_attempt(
        &self,
        delivery: &ClaimedDelivery,
        result: &SendResult,
        after: AfterAttempt,
        now: OffsetDateTime,
    ) -> DomainResult<DeliveryAttempt> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| record_in_tx(conn, delivery, result, after, now).await)
            .await
            .map_err(|TxError(e)| e)
    }
}
