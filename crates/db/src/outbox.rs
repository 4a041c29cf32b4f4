//! The webhook outbox: events written in the transaction of the change that causes them
//! (docs/webhooks.md), one delivery row per subscribed endpoint, and the `fermentation.stable`
//! detector's bookkeeping. Which events a change sets off is the domain's decision
//! (`wort_domain::brew_session::effects`); `crate::brew_sessions::effects` carries it out here. Delivered later by the workers (`webhooks.rs`).

use diesel::prelude::*;
use diesel::sql_types::{Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::UserId;
use wort_domain::brewing::fermentation::{STABLE_WINDOW, stability};
use wort_domain::webhook::rules::{StableAnnouncement, stable_announcement};
use wort_domain::webhook::{Event, EventType};

use crate::error::TxError;
use crate::prepared::Prepared;
use crate::schema::{brew_sessions as sessions, fermentation_logs as logs};

/// Readings the detector reads at most (48 hours of a device posting every minute is 2,880).
const MAX_WINDOW_READINGS: i64 = 20_000;

/// What follows a change in the account: the event types its active webhook endpoints
/// subscribe to, and whether its MQTT integration is enabled.
#[derive(QueryableByName)]
pub(crate) struct Followers {
    #[diesel(sql_type = diesel::sql_types::Array<Text>)]
    events: Vec<String>,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    pub mqtt: bool,
}

impl Followers {
    pub fn events(&self) -> Vec<EventType> {
        self.events
            .iter()
            .filter_map(|e| EventType::parse(e))
            .collect()
    }

    /// Whether the change's consequences must be written in its transaction.
    pub fn any(&self) -> bool {
        !self.events.is_empty() || self.mqtt
    }
}

/// The account's [`Followers`], in one statement.
pub(crate) async fn followers(
    conn: &mut AsyncPgConnection,
    user: UserId,
) -> QueryResult<Followers> {
    Prepared(
        diesel::sql_query(
            "SELECT ARRAY(SELECT DISTINCT unnest(events) FROM webhook_endpoints \
                          WHERE user_id = $1 AND active) AS events, \
                    EXISTS (SELECT 1 FROM mqtt_integrations \
                            WHERE user_id = $1 AND enabled) AS mqtt",
        )
        .bind::<SqlUuid, _>(user.0),
    )
    .get_result(conn)
    .await
}

/// Writes the event with one pending delivery per active endpoint subscribed to its type, in
/// one statement; nothing at all when no endpoint is subscribed. The deliveries are due at the
/// database's `now()`, the clock the workers' claims compare with (an application host whose
/// clock runs ahead would otherwise delay them).
pub(crate) async fn enqueue(
    conn: &mut AsyncPgConnection,
    user: UserId,
    event: &Event,
) -> QueryResult<()> {
    Prepared(
        diesel::sql_query(
            "WITH targets AS ( \
             SELECT id FROM webhook_endpoints \
             WHERE user_id = $1 AND active AND $3 = ANY (events)), \
         event AS ( \
             INSERT INTO webhook_events (id, user_id, type, body, created_at) \
             SELECT $2, $1, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM targets) RETURNING id) \
         INSERT INTO webhook_deliveries \
             (id, user_id, event_id, endpoint_id, state, attempts, next_attempt_at, created_at) \
         SELECT gen_random_uuid(), $1, event.id, targets.id, 'pending', 0, now(), $5 \
         FROM event CROSS JOIN targets",
        )
        .bind::<SqlUuid, _>(user.0)
        .bind::<SqlUuid, _>(event.id)
        .bind::<Text, _>(event.event_type.as_str())
        .bind::<Text, _>(&event.body)
        .bind::<Timestamptz, _>(event.created_at),
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Reads what the detector needs and the session's announcement, and runs the writes
/// [`stable_announcement`] asks for. Runs inside the transaction that stored a reading: the
/// session row is already locked by that insert (it bumps `updated_at`), so concurrent readings
/// of one session take turns here.
pub(crate) async fn check_stability(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let gravity_readings = || {
        logs::table
            .filter(logs::session_id.eq(session_id))
            .filter(logs::user_id.eq(user.0))
            .filter(logs::gravity.is_not_null())
    };
    let latest: Option<OffsetDateTime> = gravity_readings()
        .select(diesel::dsl::max(logs::logged_at))
        .first(conn)
        .await?;
    let Some(latest) = latest else {
        return Ok(());
    };
    let start = latest - STABLE_WINDOW;
    let anchor: Option<(OffsetDateTime, Option<f64>)> = gravity_readings()
        .filter(logs::logged_at.le(start))
        .order((logs::logged_at.desc(), logs::id.desc()))
        .select((logs::logged_at, logs::gravity))
        .first(conn)
        .await
        .optional()?;
    let window: Vec<(OffsetDateTime, Option<f64>)> = gravity_readings()
        .filter(logs::logged_at.gt(start))
        .order((logs::logged_at.asc(), logs::id.asc()))
        .select((logs::logged_at, logs::gravity))
        .limit(MAX_WINDOW_READINGS)
        .load(conn)
        .await?;
    let point = |(at, g): (OffsetDateTime, Option<f64>)| g.map(|g| (at, g));
    let window: Vec<_> = window.into_iter().filter_map(point).collect();
    let finding = stability(anchor.and_then(point), &window);

    let announced: Option<OffsetDateTime> = sessions::table
        .filter(sessions::id.eq(session_id))
        .filter(sessions::user_id.eq(user.0))
        .select(sessions::stable_announced_at)
        .first(conn)
        .await?;
    let mark = |at: Option<OffsetDateTime>| {
        Prepared(
            diesel::update(
                sessions::table
                    .filter(sessions::id.eq(session_id))
                    .filter(sessions::user_id.eq(user.0)),
            )
            .set(sessions::stable_announced_at.eq(at)),
        )
    };
    match stable_announcement(finding, announced.is_some()) {
        StableAnnouncement::Announce(finding) => {
            enqueue(
                conn,
                user,
                &Event::fermentation_stable(session_id, &finding, now),
            )
            .await?;
            mark(Some(now)).execute(conn).await?;
        }
        StableAnnouncement::Forget => {
            mark(None).execute(conn).await?;
        }
        StableAnnouncement::Keep => {}
    }
    Ok(())
}
