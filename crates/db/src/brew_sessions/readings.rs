//! Storing a reading: one hand-written statement that inserts it and touches its session, and
//! what follows a stored reading.

use diesel::pg::Pg;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brew_session::effects;
use wort_domain::brew_session::{NewReading, Reading};
use wort_domain::{UserId, new_id};

use super::effects::{Subject, carry_out};
use super::rows::ReadingRow;
use crate::error::TxError;

/// Adds a reading and bumps its session's `updated_at` in one statement, so it is atomic without
/// a transaction; the `UPDATE` also checks that the session is the caller's, and no row is
/// inserted when it is not. Readings are the one write that devices make continuously: one
/// statement is one round trip, where a diesel transaction takes several (BEGIN; UPDATE and
/// INSERT, which diesel prepares anew every time; COMMIT); docs/benchmarks-log.md, "Fixed: a
/// fermentation reading took 7 round trips".
///
/// Written as a diesel query with a static query id rather than `diesel::sql_query`, so that
/// diesel prepares it once per connection and caches it like its own statements.
#[derive(diesel::query_builder::QueryId)]
pub(crate) struct AddReadingTouchingSession(ReadingRow);

impl diesel::query_builder::QueryFragment<Pg> for AddReadingTouchingSession {
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, Pg>,
    ) -> QueryResult<()> {
        use diesel::sql_types::{Double, Nullable, Text, Timestamptz, Uuid as SqlUuid};
        let row = &self.0;
        out.push_sql("WITH touched AS (UPDATE brew_sessions SET updated_at = ");
        out.push_bind_param::<Timestamptz, _>(&row.created_at)?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<SqlUuid, _>(&row.session_id)?;
        out.push_sql(" AND user_id = ");
        out.push_bind_param::<SqlUuid, _>(&row.user_id)?;
        out.push_sql(
            " RETURNING id) INSERT INTO fermentation_logs (id, user_id, session_id, logged_at, \
             gravity, gravity_unit, temperature_c, ph, notes, created_at, device_id) SELECT ",
        );
        out.push_bind_param::<SqlUuid, _>(&row.id)?;
        out.push_sql(", ");
        out.push_bind_param::<SqlUuid, _>(&row.user_id)?;
        out.push_sql(", touched.id, ");
        out.push_bind_param::<Timestamptz, _>(&row.logged_at)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Double>, _>(&row.gravity)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&row.gravity_unit)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Double>, _>(&row.temperature_c)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Double>, _>(&row.ph)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Text>, _>(&row.notes)?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamptz, _>(&row.created_at)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<SqlUuid>, _>(&row.device_id)?;
        // The last three columns say whether a step of the session's fermentation schedule still
        // waits on a gravity or attenuation condition (the reading may make it due), whether
        // an alert rule watches the session's gravity or temperature (the reading may raise or
        // clear an alert), and whether the account's MQTT integration is enabled (the reading is
        // published). Asked here so that the usual case (none) costs no further round trip.
        out.push_sql(
            " FROM touched RETURNING id, user_id, session_id, logged_at, gravity, gravity_unit, \
             temperature_c, ph, notes, created_at, device_id, EXISTS (SELECT 1 \
             FROM session_fermentation_steps waiting \
             WHERE waiting.session_id = fermentation_logs.session_id \
             AND waiting.user_id = fermentation_logs.user_id \
             AND waiting.became_due_at IS NULL \
             AND (waiting.due_at_gravity IS NOT NULL \
             OR waiting.due_at_attenuation_percent IS NOT NULL)), \
             EXISTS (SELECT 1 FROM alert_rules watching \
             WHERE watching.user_id = fermentation_logs.user_id AND watching.enabled \
             AND (watching.session_id IS NULL OR watching.session_id = fermentation_logs.session_id) \
             AND watching.kind IN ('gravity_below', 'gravity_above', 'temperature_outside')), \
             EXISTS (SELECT 1 FROM mqtt_integrations publishing \
             WHERE publishing.user_id = fermentation_logs.user_id AND publishing.enabled)",
        );
        Ok(())
    }
}

impl diesel::query_builder::Query for AddReadingTouchingSession {
    /// The columns of `ReadingRow`, in its field order, then whether a scheduled step waits on the
    /// reading's gravity, whether an alert rule watches the reading's values, and whether the
    /// account publishes its readings to MQTT.
    type SqlType = (
        LogColumns,
        diesel::sql_types::Bool,
        diesel::sql_types::Bool,
        diesel::sql_types::Bool,
    );
}

/// The SQL types of `ReadingRow`'s columns, in its field order.
pub(super) type LogColumns = (
    diesel::sql_types::Uuid,
    diesel::sql_types::Uuid,
    diesel::sql_types::Uuid,
    diesel::sql_types::Timestamptz,
    diesel::sql_types::Nullable<diesel::sql_types::Double>,
    diesel::sql_types::Text,
    diesel::sql_types::Nullable<diesel::sql_types::Double>,
    diesel::sql_types::Nullable<diesel::sql_types::Double>,
    diesel::sql_types::Nullable<diesel::sql_types::Text>,
    diesel::sql_types::Timestamptz,
    diesel::sql_types::Nullable<diesel::sql_types::Uuid>,
);

/// The statement that stores a reading (by hand, or from `device_id`) and touches its session.
pub(crate) fn add_reading_statement(
    user: UserId,
    session_id: Uuid,
    device_id: Option<Uuid>,
    new: NewReading,
    now: OffsetDateTime,
) -> AddReadingTouchingSession {
    AddReadingTouchingSession(ReadingRow {
        id: new_id(),
        user_id: user.0,
        session_id,
        logged_at: new.logged_at.unwrap_or(now),
        gravity: new.gravity,
        gravity_unit: new.gravity_unit.as_str().to_owned(),
        temperature_c: new.temperature_c,
        ph: new.ph,
        notes: new.notes,
        created_at: now,
        device_id,
    })
}

/// A reading just inserted, whether a step of its session's schedule waits on a gravity,
/// whether an alert rule watches its values, and whether it is published to MQTT.
pub(crate) struct InsertedReading {
    pub(super) reading: Reading,
    pub(super) schedule_waiting: bool,
    pub(super) alerts_watching: bool,
    pub(super) mqtt: bool,
}

/// Runs [`add_reading_statement`] on a shared connection, so that a caller may pipeline it with its
/// own statements. `None` when the session is not the caller's.
pub(crate) async fn run_add_reading(
    conn: &mut &AsyncPgConnection,
    statement: AddReadingTouchingSession,
) -> Result<Option<InsertedReading>, TxError> {
    let Some((row, schedule_waiting, alerts_watching, mqtt)) = statement
        .get_result::<(ReadingRow, bool, bool, bool)>(conn)
        .await
        .optional()?
    else {
        return Ok(None);
    };
    Ok(Some(InsertedReading {
        reading: row.entity()?,
        schedule_waiting,
        alerts_watching,
        mqtt,
    }))
}

/// What follows a stored reading, on the caller's connection (inside its transaction when
/// `subscribed` names events to write): the webhook events, the scheduled steps its gravity
/// makes due, and the alerts its values raise or clear.
pub(crate) async fn after_reading_stored(
    conn: &mut AsyncPgConnection,
    user: UserId,
    inserted: InsertedReading,
    subscribed: &[wort_domain::webhook::EventType],
    now: OffsetDateTime,
) -> Result<Reading, TxError> {
    let reading = inserted.reading;
    let effects = effects::after_reading(
        &reading,
        subscribed,
        inserted.schedule_waiting,
        inserted.alerts_watching,
        inserted.mqtt,
        now,
    );
    let subject = Subject {
        user,
        session_id: reading.session_id,
        recipe_snapshot: None,
    };
    carry_out(conn, subject, effects, now).await?;
    Ok(reading)
}

/// Stores a reading by hand with the webhook events `subscribed` asks for, on the caller's
/// connection: inside its transaction when there are events to write, on its own (one atomic
/// statement) when there are none. `None` when the session is not the caller's.
pub(super) async fn insert_reading(
    conn: &mut AsyncPgConnection,
    user: UserId,
    session_id: Uuid,
    new: NewReading,
    subscribed: &[wort_domain::webhook::EventType],
    now: OffsetDateTime,
) -> Result<Option<Reading>, TxError> {
    let statement = add_reading_statement(user, session_id, None, new, now);
    let shared: &AsyncPgConnection = conn;
    let Some(inserted) = run_add_reading(&mut &*shared, statement).await? else {
        return Ok(None);
    };
    Ok(Some(
        after_reading_stored(conn, user, inserted, subscribed, now).await?,
    ))
}
