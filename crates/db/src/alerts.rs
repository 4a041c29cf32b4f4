//! The alert repository: rules, alerts, the facts a rule is judged against, and carrying out the
//! raises and clears the domain decided (`wort_domain::alert::judge`), each once.
//!
//! Once, however many instances judge at the same moment:
//! * a raise is an `INSERT … ON CONFLICT DO NOTHING` against the unique index of active alerts of
//!   a watch (`alerts_one_active_idx`), and writes its `alert.raised` event only when it inserted;
//! * a clear is an `UPDATE … WHERE cleared_at IS NULL`, and writes `alert.cleared` only when it
//!   updated.
//!
//! Each raise or clear commits with its event, in the transaction of the reading that caused it
//! or in a short transaction of its own for the clock's pass.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::{Array, Double, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::alert::judge::{ActiveAlert, AlertChange, Coverage, changes};
use wort_domain::alert::model::{Facts, StallWindow, Thresholds, Watch, WatchKey};
use wort_domain::alert::ports::{RuleWrite, SweepBatch};
use wort_domain::alert::rules::{check_rule_room, unknown_session};
use wort_domain::alert::{Alert, AlertKind, AlertRepository, AlertRule, AlertState, NewAlertRule};
use wort_domain::page::{Page, PageRequest};
use wort_domain::webhook::Event;
use wort_domain::{DomainError, DomainResult, UserId, new_id};

use crate::error::{TxError, db_error, is_foreign_key_violation};
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;
use crate::schema::{alert_rules as rules, alerts};

/// Accounts judged per batch of the clock's pass.
const SWEEP_ACCOUNTS: i64 = 200;

pub struct PgAlerts {
    pool: DbPool,
}

impl PgAlerts {
    pub fn new(pool: DbPool) -> Self {
        PgAlerts { pool }
    }
}

#[derive(Queryable, Selectable, Insertable, Debug)]
#[diesel(table_name = rules)]
struct RuleRow {
    id: Uuid,
    user_id: Uuid,
    kind: String,
    session_id: Option<Uuid>,
    enabled: bool,
    gravity: Option<f64>,
    min_c: Option<f64>,
    max_c: Option<f64>,
    points: Option<f64>,
    hours: Option<f64>,
    minutes: Option<i32>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

fn kind_of(s: &str) -> Result<AlertKind, DomainError> {
    AlertKind::parse(s).ok_or_else(|| DomainError::Internal(format!("unknown alert kind {s}")))
}

/// A rule's minutes fit in `i32`: the rules bound them to a week.
fn minutes_column(minutes: Option<i64>) -> Option<i32> {
    minutes.and_then(|m| i32::try_from(m).ok())
}

impl RuleRow {
    fn entity(self) -> DomainResult<AlertRule> {
        Ok(AlertRule {
            id: self.id,
            kind: kind_of(&self.kind)?,
            session_id: self.session_id,
            enabled: self.enabled,
            gravity: self.gravity,
            min_c: self.min_c,
            max_c: self.max_c,
            points: self.points,
            hours: self.hours,
            minutes: self.minutes.map(i64::from),
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

#[derive(Queryable, Selectable, QueryableByName, Insertable, Debug)]
#[diesel(table_name = alerts)]
struct AlertRow {
    id: Uuid,
    user_id: Uuid,
    rule_id: Option<Uuid>,
    kind: String,
    session_id: Uuid,
    device_id: Option<Uuid>,
    raised_at: OffsetDateTime,
    cleared_at: Option<OffsetDateTime>,
    acknowledged_at: Option<OffsetDateTime>,
    value: f64,
    message: String,
}

impl AlertRow {
    fn entity(self) -> DomainResult<Alert> {
        Ok(Alert {
            id: self.id,
            rule_id: self.rule_id,
            kind: kind_of(&self.kind)?,
            session_id: self.session_id,
            device_id: self.device_id,
            raised_at: self.raised_at,
            cleared_at: self.cleared_at,
            acknowledged_at: self.acknowledged_at,
            value: self.value,
            message: self.message,
        })
    }
}

/// The foreign key from a rule's `(session_id, user_id)` to its account's sessions.
const SESSION_FKEY: &str = "alert_rules_session_fkey";

/// Naming a session that is not the account's is the caller's mistake (`422` at `session_id`).
fn rule_write_error(e: diesel::result::Error) -> DomainError {
    if is_foreign_key_violation(&e, SESSION_FKEY) {
        DomainError::invalid(unknown_session())
    } else {
        db_error(e)
    }
}

fn my_rules(user: UserId) -> rules::BoxedQuery<'static, diesel::pg::Pg> {
    rules::table.filter(rules::user_id.eq(user.0)).into_boxed()
}

fn my_alerts(
    user: UserId,
    state: AlertState,
    session: Option<Uuid>,
) -> alerts::BoxedQuery<'static, diesel::pg::Pg> {
    let mut query = alerts::table
        .filter(alerts::user_id.eq(user.0))
        .into_boxed();
    if state == AlertState::Active {
        query = query.filter(alerts::cleared_at.is_null());
    }
    if let Some(session) = session {
        query = query.filter(alerts::session_id.eq(session));
    }
    query
}

#[async_trait]
impl AlertRepository for PgAlerts {
    async fn list_rules(&self, user: UserId, page: PageRequest) -> DomainResult<Page<AlertRule>> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let page_query = my_rules(user)
            .order((rules::created_at.asc(), rules::id.asc()))
            .select(RuleRow::as_select())
            .limit(page.limit)
            .offset(page.offset);
        let (rows, total) = futures_util::try_join!(
            page_query.load::<RuleRow>(&mut &*conn_ref),
            my_rules(user).count().get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        let items = rows
            .into_iter()
            .map(RuleRow::entity)
            .collect::<DomainResult<_>>()?;
        Ok(Page { items, total })
    }

    async fn create_rule(
        &self,
        user: UserId,
        new: NewAlertRule,
        now: OffsetDateTime,
    ) -> DomainResult<AlertRule> {
        let mut conn = checkout(&self.pool).await?;
        let t = new.thresholds;
        let row = RuleRow {
            id: new_id(),
            user_id: user.0,
            kind: new.kind.as_str().to_owned(),
            session_id: new.session_id,
            enabled: new.enabled,
            gravity: t.gravity,
            min_c: t.min_c,
            max_c: t.max_c,
            points: t.points,
            hours: t.hours,
            minutes: minutes_column(t.minutes),
            created_at: now,
            updated_at: now,
        };
        conn.transaction(async |conn| {
            // The account row is locked so two concurrent creates cannot both pass the count.
            crate::accounts::lock_account(conn, user).await?;
            let count: i64 = my_rules(user).count().get_result(conn).await?;
            check_rule_room(count).map_err(TxError)?;
            let saved: RuleRow = diesel::insert_into(rules::table)
                .values(&row)
                .returning(RuleRow::as_returning())
                .get_result(conn)
                .await
                .map_err(|e| TxError(rule_write_error(e)))?;
            Ok(saved.entity()?)
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn get_rule(&self, user: UserId, id: Uuid) -> DomainResult<AlertRule> {
        let mut conn = checkout(&self.pool).await?;
        my_rules(user)
            .filter(rules::id.eq(id))
            .select(RuleRow::as_select())
            .first(&mut conn)
            .await
            .map_err(db_error)?
            .entity()
    }

    async fn write_rule(
        &self,
        user: UserId,
        id: Uuid,
        write: RuleWrite,
        now: OffsetDateTime,
    ) -> DomainResult<Option<AlertRule>> {
        let mut conn = checkout(&self.pool).await?;
        let t = write.thresholds;
        let saved: Option<RuleRow> = diesel::update(
            rules::table
                .filter(rules::id.eq(id))
                .filter(rules::user_id.eq(user.0))
                .filter(rules::updated_at.eq(write.read_at)),
        )
        .set((
            rules::session_id.eq(write.session_id),
            rules::enabled.eq(write.enabled),
            rules::gravity.eq(t.gravity),
            rules::min_c.eq(t.min_c),
            rules::max_c.eq(t.max_c),
            rules::points.eq(t.points),
            rules::hours.eq(t.hours),
            rules::minutes.eq(minutes_column(t.minutes)),
            // Strictly later than the version read, so that a second patch within the same
            // microsecond still sees the rule changed.
            rules::updated_at.eq(now.max(write.read_at + time::Duration::microseconds(1))),
        ))
        .returning(RuleRow::as_returning())
        .get_result(&mut conn)
        .await
        .optional()
        .map_err(rule_write_error)?;
        saved.map(RuleRow::entity).transpose()
    }

    async fn delete_rule(&self, user: UserId, id: Uuid, now: OffsetDateTime) -> DomainResult<()> {
        let mut conn = checkout(&self.pool).await?;
        conn.transaction(async |conn| {
            let deleting: Vec<Uuid> = rules::table
                .filter(rules::id.eq(id))
                .filter(rules::user_id.eq(user.0))
                .select(rules::id)
                .for_update()
                .load(conn)
                .await?;
            if deleting.is_empty() {
                return Err(TxError(DomainError::NotFound));
            }
            let active: Vec<Uuid> = alerts::table
                .filter(alerts::user_id.eq(user.0))
                .filter(alerts::rule_id.eq(id))
                .filter(alerts::cleared_at.is_null())
                .select(alerts::id)
                .load(conn)
                .await?;
            for alert_id in active {
                clear(conn, user.0, alert_id, now).await?;
            }
            diesel::delete(
                rules::table
                    .filter(rules::id.eq(id))
                    .filter(rules::user_id.eq(user.0)),
            )
            .execute(conn)
            .await?;
            Ok(())
        })
        .await
        .map_err(|TxError(e)| e)
    }

    async fn list_alerts(
        &self,
        user: UserId,
        state: AlertState,
        session: Option<Uuid>,
        page: PageRequest,
    ) -> DomainResult<Page<Alert>> {
        let conn = checkout(&self.pool).await?;
        let conn_ref: &AsyncPgConnection = &conn;
        let page_query = my_alerts(user, state, session)
            .order((alerts::raised_at.desc(), alerts::id.desc()))
            .select(AlertRow::as_select())
            .limit(page.limit)
            .offset(page.offset);
        let (rows, total) = futures_util::try_join!(
            page_query.load::<AlertRow>(&mut &*conn_ref),
            my_alerts(user, state, session)
                .count()
                .get_result::<i64>(&mut &*conn_ref),
        )
        .map_err(db_error)?;
        let items = rows
            .into_iter()
            .map(AlertRow::entity)
            .collect::<DomainResult<_>>()?;
        Ok(Page { items, total })
    }

    async fn acknowledge(
        &self,
        user: UserId,
        id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<Alert> {
        let mut conn = checkout(&self.pool).await?;
        let row: AlertRow = diesel::update(
            alerts::table
                .filter(alerts::id.eq(id))
                .filter(alerts::user_id.eq(user.0)),
        )
        .set(
            alerts::acknowledged_at.eq(diesel::dsl::sql::<Nullable<Timestamptz>>(
                "COALESCE(acknowledged_at, ",
            )
            .bind::<Timestamptz, _>(now)
            .sql(")")),
        )
        .returning(AlertRow::as_returning())
        .get_result(&mut conn)
        .await
        .map_err(db_error)?;
        row.entity()
    }

    async fn sweep_batch(
        &self,
        after: Option<Uuid>,
        now: OffsetDateTime,
    ) -> DomainResult<SweepBatch> {
        let mut conn = checkout(&self.pool).await?;
        // Every account with an enabled rule or an active alert, a batch at a time: the clock's
        // pass is the one reader that crosses accounts here.
        let users: Vec<Uuid> = Prepared(
            diesel::sql_query(
                "SELECT user_id FROM ( \
                 SELECT user_id FROM alert_rules WHERE enabled \
                 UNION SELECT user_id FROM alerts WHERE cleared_at IS NULL) watching \
                 WHERE $1::uuid IS NULL OR user_id > $1 ORDER BY user_id LIMIT $2",
            )
            .bind::<Nullable<SqlUuid>, _>(after)
            .bind::<diesel::sql_types::BigInt, _>(SWEEP_ACCOUNTS),
        )
        .load::<UserIdRow>(&mut conn)
        .await
        .map_err(db_error)?
        .into_iter()
        .map(|r| r.user_id)
        .collect();
        if users.is_empty() {
            return Ok(SweepBatch::default());
        }
        let watches = load_watches(&mut conn, Scope::Accounts(&users), now)
            .await
            .map_err(|TxError(e)| e)?;
        let active = load_active(&mut conn, Scope::Accounts(&users))
            .await
            .map_err(|TxError(e)| e)?;
        let full = i64::try_from(users.len()).unwrap_or(i64::MAX) == SWEEP_ACCOUNTS;
        Ok(SweepBatch {
            watches,
            active,
            last_user: if full { users.last().copied() } else { None },
        })
    }

    async fn apply(&self, changes: Vec<AlertChange>, now: OffsetDateTime) -> DomainResult<u64> {
        let mut conn = checkout(&self.pool).await?;
        let mut applied = 0;
        for change in changes {
            let took = conn
                .transaction(async |conn| apply_one(conn, change, now).await)
                .await
                .map_err(|TxError(e)| e)?;
            applied += u64::from(took);
        }
        Ok(applied)
    }
}

#[derive(QueryableByName)]
struct UserIdRow {
    #[diesel(sql_type = SqlUuid)]
    user_id: Uuid,
}

/// Whose watches to read: a batch of accounts (the clock), or one session's rules about a
/// reading's values (a stored reading).
enum Scope<'a> {
    Accounts(&'a [Uuid]),
    ReadingOf { user: Uuid, session: Uuid },
}

/// One watch as read: a rule, a session it applies to, a device for `device_silent`, and the facts.
#[derive(QueryableByName)]
struct WatchRow {
    #[diesel(sql_type = SqlUuid)]
    user_id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    rule_id: Uuid,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = Nullable<Double>)]
    gravity: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    min_c: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    max_c: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    points: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    hours: Option<f64>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Integer>)]
    minutes: Option<i32>,
    #[diesel(sql_type = SqlUuid)]
    session_id: Uuid,
    #[diesel(sql_type = Nullable<SqlUuid>)]
    device_id: Option<Uuid>,
    #[diesel(sql_type = Nullable<Double>)]
    predicted_fg: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    gravity_now: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    temperature_now: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    earlier_gravity: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    recent_gravity: Option<f64>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    device_heard_at: Option<OffsetDateTime>,
}

impl WatchRow {
    /// `None` for a `device_silent` rule on a session no device feeds: nothing to watch.
    fn watch(self) -> Option<DomainResult<Watch>> {
        let kind = match kind_of(&self.kind) {
            Ok(kind) => kind,
            Err(e) => return Some(Err(e)),
        };
        if kind == AlertKind::DeviceSilent && self.device_id.is_none() {
            return None;
        }
        let window = match (self.earlier_gravity, self.recent_gravity) {
            (Some(earlier_gravity), Some(recent_gravity)) => Some(StallWindow {
                earlier_gravity,
                recent_gravity,
            }),
            _ => None,
        };
        Some(Ok(Watch {
            user_id: self.user_id,
            rule_id: self.rule_id,
            kind,
            thresholds: Thresholds {
                gravity: self.gravity,
                min_c: self.min_c,
                max_c: self.max_c,
                points: self.points,
                hours: self.hours,
                minutes: self.minutes.map(i64::from),
            },
            session_id: self.session_id,
            device_id: self.device_id,
            facts: Facts {
                gravity: self.gravity_now,
                temperature_c: self.temperature_now,
                window,
                predicted_fg: self.predicted_fg,
                device_heard_at: self.device_heard_at,
            },
        }))
    }
}

/// The watches: each enabled rule with each session it applies to (a rule naming a session
/// applies while that session is fermenting or conditioning; a rule naming none, to every
/// fermenting session of the account), and the facts its kind needs, each read only for the
/// kinds that need it. Every fact is one short walk of an index: the latest reading with a
/// gravity or a temperature, an hour of readings at each end of a stall's window.
const WATCHES_SQL: &str = "\
SELECT r.user_id, r.id AS rule_id, r.kind, r.gravity, r.min_c, r.max_c, r.points, r.hours, \
       r.minutes, s.id AS session_id, d.id AS device_id, \
       CASE WHEN jsonb_typeof(s.recipe_snapshot -> 'stats' -> 'fg') = 'number' \
            THEN (s.recipe_snapshot -> 'stats' ->> 'fg')::float8 END AS predicted_fg, \
       CASE WHEN r.kind IN ('gravity_below', 'gravity_above') THEN ( \
            SELECT l.gravity FROM fermentation_logs l \
            WHERE l.session_id = s.id AND l.user_id = s.user_id AND l.gravity IS NOT NULL \
            ORDER BY l.logged_at DESC, l.id DESC LIMIT 1) END AS gravity_now, \
       CASE WHEN r.kind = 'temperature_outside' THEN ( \
            SELECT l.temperature_c FROM fermentation_logs l \
            WHERE l.session_id = s.id AND l.user_id = s.user_id AND l.temperature_c IS NOT NULL \
            ORDER BY l.logged_at DESC, l.id DESC LIMIT 1) END AS temperature_now, \
       CASE WHEN r.kind = 'stalled' THEN ( \
            SELECT avg(l.gravity) FROM fermentation_logs l \
            WHERE l.session_id = s.id AND l.user_id = s.user_id AND l.gravity IS NOT NULL \
            AND l.logged_at > $1 - make_interval(secs => r.hours * 3600) - interval '1 hour' \
            AND l.logged_at <= $1 - make_interval(secs => r.hours * 3600)) END AS earlier_gravity, \
       CASE WHEN r.kind = 'stalled' THEN ( \
            SELECT avg(l.gravity) FROM fermentation_logs l \
            WHERE l.session_id = s.id AND l.user_id = s.user_id AND l.gravity IS NOT NULL \
            AND l.logged_at > $1 - interval '1 hour' AND l.logged_at <= $1) END AS recent_gravity, \
       COALESCE(d.last_seen_at, d.created_at) AS device_heard_at \
FROM alert_rules r \
JOIN brew_sessions s ON s.user_id = r.user_id \
     AND ((r.session_id IS NULL AND s.status = 'fermenting') \
          OR (r.session_id = s.id AND s.status IN ('fermenting', 'conditioning'))) \
LEFT JOIN devices d ON r.kind = 'device_silent' AND d.session_id = s.id AND d.user_id = s.user_id \
WHERE r.enabled";

async fn load_watches(
    conn: &mut AsyncPgConnection,
    scope: Scope<'_>,
    now: OffsetDateTime,
) -> Result<Vec<Watch>, TxError> {
    let rows: Vec<WatchRow> = match scope {
        Scope::Accounts(users) => {
            Prepared(
                diesel::sql_query(format!("{WATCHES_SQL} AND r.user_id = ANY ($2)"))
                    .bind::<Timestamptz, _>(now)
                    .bind::<Array<SqlUuid>, _>(users),
            )
            .load(conn)
            .await?
        }
        Scope::ReadingOf { user, session } => {
            Prepared(
                diesel::sql_query(format!(
                    "{WATCHES_SQL} AND r.user_id = $2 AND s.id = $3 \
                     AND r.kind IN ('gravity_below', 'gravity_above', 'temperature_outside')"
                ))
                .bind::<Timestamptz, _>(now)
                .bind::<SqlUuid, _>(user)
                .bind::<SqlUuid, _>(session),
            )
            .load(conn)
            .await?
        }
    };
    Ok(rows
        .into_iter()
        .filter_map(WatchRow::watch)
        .collect::<DomainResult<_>>()?)
}

#[derive(Queryable)]
struct ActiveRow {
    id: Uuid,
    user_id: Uuid,
    rule_id: Option<Uuid>,
    session_id: Uuid,
    device_id: Option<Uuid>,
}

async fn load_active(
    conn: &mut AsyncPgConnection,
    scope: Scope<'_>,
) -> Result<Vec<ActiveAlert>, TxError> {
    let base = alerts::table
        .filter(alerts::cleared_at.is_null())
        .select((
            alerts::id,
            alerts::user_id,
            alerts::rule_id,
            alerts::session_id,
            alerts::device_id,
        ))
        .into_boxed();
    let query = match scope {
        Scope::Accounts(users) => base.filter(alerts::user_id.eq_any(users.to_vec())),
        Scope::ReadingOf { user, session } => base
            .filter(alerts::user_id.eq(user))
            .filter(alerts::session_id.eq(session)),
    };
    let rows: Vec<ActiveRow> = query.load(conn).await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            Some(ActiveAlert {
                id: r.id,
                user_id: r.user_id,
                key: WatchKey {
                    rule_id: r.rule_id?,
                    session_id: r.session_id,
                    device_id: r.device_id,
                },
            })
        })
        .collect())
}

/// Judges the session's rules about a reading's values (gravity marks, the temperature band)
/// against its latest readings, and carries out the changes, on the reading's connection: inside
/// its transaction when it has one (a savepoint), else in one of their own.
pub(crate) async fn judge_after_reading(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    conn.transaction(async |conn| {
        let scope = || Scope::ReadingOf {
            user: user.0,
            session: session_id,
        };
        let watches = load_watches(conn, scope(), now).await?;
        let active = load_active(conn, scope()).await?;
        for change in changes(&watches, &active, Coverage::These, now) {
            apply_one(conn, change, now).await?;
        }
        Ok(())
    })
    .await
}

/// Carries out one change with its webhook event; `false` when another judge already did.
async fn apply_one(
    conn: &mut AsyncPgConnection,
    change: AlertChange,
    now: OffsetDateTime,
) -> Result<bool, TxError> {
    match change {
        AlertChange::Raise {
            user_id,
            kind,
            key,
            value,
            message,
        } => {
            // Raised only while the rule is still enabled and no alert of the watch is active.
            let raised: Option<AlertRow> = Prepared(
                diesel::sql_query(
                    "INSERT INTO alerts (id, user_id, rule_id, kind, session_id, device_id, \
                     raised_at, value, message) \
                     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 \
                     WHERE EXISTS (SELECT 1 FROM alert_rules \
                                   WHERE id = $3 AND user_id = $2 AND enabled) \
                     ON CONFLICT DO NOTHING \
                     RETURNING id, user_id, rule_id, kind, session_id, device_id, raised_at, \
                     cleared_at, acknowledged_at, value, message",
                )
                .bind::<SqlUuid, _>(new_id())
                .bind::<SqlUuid, _>(user_id)
                .bind::<SqlUuid, _>(key.rule_id)
                .bind::<Text, _>(kind.as_str())
                .bind::<SqlUuid, _>(key.session_id)
                .bind::<Nullable<SqlUuid>, _>(key.device_id)
                .bind::<Timestamptz, _>(now)
                .bind::<Double, _>(value)
                .bind::<Text, _>(message),
            )
            .get_result(conn)
            .await
            .optional()?;
            let Some(row) = raised else {
                return Ok(false);
            };
            let alert = row.entity()?;
            crate::outbox::enqueue(conn, UserId(user_id), &Event::alert_raised(&alert, now))
                .await?;
            crate::mqtt::alert_changed(conn, UserId(user_id), &alert, now).await?;
            Ok(true)
        }
        AlertChange::Clear { user_id, alert_id } => clear(conn, user_id, alert_id, now).await,
    }
}

/// Clears the alert unless it is cleared already, with its `alert.cleared` event.
async fn clear(
    conn: &mut AsyncPgConnection,
    user_id: Uuid,
    alert_id: Uuid,
    now: OffsetDateTime,
) -> Result<bool, TxError> {
    let cleared: Option<AlertRow> = diesel::update(
        alerts::table
            .filter(alerts::id.eq(alert_id))
            .filter(alerts::user_id.eq(user_id))
            .filter(alerts::cleared_at.is_null()),
    )
    .set(alerts::cleared_at.eq(now))
    .returning(AlertRow::as_returning())
    .get_result(conn)
    .await
    .optional()?;
    let Some(row) = cleared else {
        return Ok(false);
    };
    let alert = row.entity()?;
    crate::outbox::enqueue(conn, UserId(user_id), &Event::alert_cleared(&alert, now)).await?;
    crate::mqtt::alert_changed(conn, UserId(user_id), &alert, now).await?;
    Ok(true)
}
