//! Carries out what the domain decided a change to a brew session sets off
//! (`wort_domain::brew_session::effects`), on the change's own connection, so the change and
//! its consequences commit together.

use diesel_async::AsyncPgConnection;
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brew_session::SessionStatus;
use wort_domain::brew_session::effects::SessionEffect;
use wort_domain::{DomainError, UserId};

use super::queries::find_session;
use crate::error::TxError;

/// The session the effects are about: its id, and its recipe snapshot when a schedule may be
/// planned from it (a created or updated session; a reading has none at hand).
pub(crate) struct Subject<'a> {
    pub user: UserId,
    pub session_id: Uuid,
    pub recipe_snapshot: Option<&'a Value>,
}

pub(crate) async fn carry_out(
    conn: &mut AsyncPgConnection,
    subject: Subject<'_>,
    effects: Vec<SessionEffect>,
    now: OffsetDateTime,
) -> Result<(), TxError> {
    let Subject {
        user,
        session_id,
        recipe_snapshot,
    } = subject;
    for effect in effects {
        match effect {
            SessionEffect::Announce(event) => crate::outbox::enqueue(conn, user, &event).await?,
            SessionEffect::PlanSchedule { start } => {
                let snapshot = recipe_snapshot.ok_or_else(|| {
                    TxError(DomainError::Internal(
                        "a schedule was to be planned without the session's recipe".into(),
                    ))
                })?;
                crate::fermentation_schedule::plan(conn, user, session_id, snapshot, start, now)
                    .await?;
            }
            SessionEffect::CheckStability => {
                crate::outbox::check_stability(conn, user, session_id, now).await?;
            }
            SessionEffect::AdvanceSchedule { gravity } => {
                let (fermenting, og) = session_for_schedule(conn, user, session_id).await?;
                if fermenting {
                    crate::fermentation_schedule::reading_stored(
                        conn, user, session_id, gravity, og, now,
                    )
                    .await?;
                }
            }
            SessionEffect::JudgeAlerts => {
                crate::alerts::judge_after_reading(conn, user, session_id, now).await?;
            }
            SessionEffect::PublishReading(reading) => {
                crate::mqtt::reading_stored(conn, user, &reading, now).await?;
            }
            SessionEffect::MqttDiscovery { fermenting } => {
                crate::mqtt::fermentation_changed(conn, user, session_id, fermenting, now).await?;
            }
        }
    }
    Ok(())
}

/// Whether the session is fermenting, and its OG (measured, else planned): what a reading's
/// check of the fermentation schedule needs.
async fn session_for_schedule(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
) -> Result<(bool, Option<f64>), TxError> {
    let session = find_session(conn, user, id, false).await?;
    Ok((
        session.status == SessionStatus::Fermenting,
        session.original_gravity(),
    ))
}

/// The session's OG (measured, else planned) and its latest gravity (by `logged_at`): what the
/// periodic check of the schedule needs for a condition met before its minimum.
pub(super) async fn schedule_gravities(
    conn: &mut AsyncPgConnection,
    user: UserId,
    id: Uuid,
) -> Result<(Option<f64>, Option<f64>), TxError> {
    let session = find_session(conn, user, id, false).await?;
    Ok((
        session.fermentation.original_gravity,
        session.fermentation.latest_gravity,
    ))
}
