//! Webhook endpoints, the events they subscribe to, and the log of delivery attempts.

use serde::Serialize;
use serde_json::{Value, json};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::UserId;
use crate::brew_session::model::{BrewSession, Reading, SessionStatus};

/// What happened. `ping` is sent only by `POST /v1/webhooks/{id}/test` and cannot be subscribed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum EventType {
    #[serde(rename = "session.status_changed")]
    SessionStatusChanged,
    #[serde(rename = "reading.created")]
    ReadingCreated,
    #[serde(rename = "fermentation.stable")]
    FermentationStable,
    #[serde(rename = "fermentation.step_due")]
    FermentationStepDue,
    #[serde(rename = "alert.raised")]
    AlertRaised,
    #[serde(rename = "alert.cleared")]
    AlertCleared,
    #[serde(rename = "ping")]
    Ping,
}

impl EventType {
    /// The events an endpoint can subscribe to.
    pub const SUBSCRIBABLE: &[Self] = &[
        Self::SessionStatusChanged,
        Self::ReadingCreated,
        Self::FermentationStable,
        Self::FermentationStepDue,
        Self::AlertRaised,
        Self::AlertCleared,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::SessionStatusChanged => "session.status_changed",
            Self::ReadingCreated => "reading.created",
            Self::FermentationStable => "fermentation.stable",
            Self::FermentationStepDue => "fermentation.step_due",
            Self::AlertRaised => "alert.raised",
            Self::AlertCleared => "alert.cleared",
            Self::Ping => "ping",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [
            Self::SessionStatusChanged,
            Self::ReadingCreated,
            Self::FermentationStable,
            Self::FermentationStepDue,
            Self::AlertRaised,
            Self::AlertCleared,
            Self::Ping,
        ]
        .into_iter()
        .find(|t| t.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Webhook {
    pub id: Uuid,
    pub url: String,
    /// The events sent to it, in the order given.
    pub events: Vec<EventType>,
    /// Whether events are delivered; set false after 50 consecutive failed attempts.
    pub active: bool,
    /// Failed attempts since the last successful one.
    pub consecutive_failures: i32,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// An endpoint with its signing secret: the answer to create, the only time the secret is shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedWebhook {
    #[serde(flatten)]
    pub webhook: Webhook,
    /// `whsec_` + base64 of 32 random bytes: verify `webhook-signature` with it.
    pub secret: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewWebhook {
    pub url: String,
    pub events: Vec<EventType>,
    pub active: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct WebhookPatch {
    pub url: Option<String>,
    pub events: Option<Vec<EventType>>,
    pub active: Option<bool>,
}

impl WebhookPatch {
    pub fn is_empty(&self) -> bool {
        *self == WebhookPatch::default()
    }
}

/// An event as it is written to the outbox: its id (the `webhook-id` of every delivery of it)
/// and the exact body sent, `{"type","timestamp","data"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub id: Uuid,
    pub event_type: EventType,
    pub created_at: OffsetDateTime,
    pub body: String,
}

impl Event {
    fn new(event_type: EventType, data: Value, at: OffsetDateTime) -> Event {
        let body = json!({
            "type": event_type.as_str(),
            "timestamp": crate::timestamp::format(at),
            "data": data,
        });
        Event {
            id: crate::new_id(),
            event_type,
            created_at: at,
            body: body.to_string(),
        }
    }

    /// A brew session moved from `from` to its current status.
    pub fn session_status_changed(
        session: &BrewSession,
        from: SessionStatus,
        at: OffsetDateTime,
    ) -> Event {
        Event::new(
            EventType::SessionStatusChanged,
            json!({
                "session_id": session.id,
                "recipe_id": session.recipe_id,
                "name": session.name,
                "from": from,
                "to": session.status,
            }),
            at,
        )
    }

    /// A reading was stored, by hand or by a device: `data` is the reading as the API shows it.
    pub fn reading_created(reading: &Reading, at: OffsetDateTime) -> Event {
        Event::new(
            EventType::ReadingCreated,
            serde_json::to_value(reading).unwrap_or(Value::Null),
            at,
        )
    }

    /// The session's gravity held still over the detector's window.
    pub fn fermentation_stable(
        session_id: Uuid,
        finding: &crate::brewing::fermentation::Stable,
        at: OffsetDateTime,
    ) -> Event {
        Event::new(
            EventType::FermentationStable,
            json!({
                "session_id": session_id,
                "gravity": finding.gravity,
                "since": crate::timestamp::format(finding.since),
                "readings": finding.readings,
            }),
            at,
        )
    }

    /// A step of a session's fermentation schedule became due: `data` is the step as
    /// `GET /v1/sessions/{id}/fermentation-schedule` shows it.
    pub fn fermentation_step_due(
        step: &crate::brew_session::schedule::ScheduledStep,
        at: OffsetDateTime,
    ) -> Event {
        Event::new(
            EventType::FermentationStepDue,
            serde_json::to_value(step).unwrap_or(Value::Null),
            at,
        )
    }

    /// An alert was raised: `data` is the alert as `GET /v1/alerts` shows it.
    pub fn alert_raised(alert: &crate::alert::Alert, at: OffsetDateTime) -> Event {
        Event::new(
            EventType::AlertRaised,
            serde_json::to_value(alert).unwrap_or(Value::Null),
            at,
        )
    }

    /// An alert cleared (its condition is false again, its watch is gone, or its rule was
    /// deleted): `data` is the alert, `cleared_at` set.
    pub fn alert_cleared(alert: &crate::alert::Alert, at: OffsetDateTime) -> Event {
        Event::new(
            EventType::AlertCleared,
            serde_json::to_value(alert).unwrap_or(Value::Null),
            at,
        )
    }

    /// The test event of `POST /v1/webhooks/{id}/test`.
    pub fn ping(webhook_id: Uuid, at: OffsetDateTime) -> Event {
        Event::new(
            EventType::Ping,
            json!({ "webhook_id": webhook_id, "message": "A test event from wort" }),
            at,
        )
    }
}

/// How one attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AttemptOutcome {
    /// The endpoint answered 2xx.
    Delivered,
    /// It failed and will be tried again.
    Retrying,
    /// It failed and will not be tried again (24 h of retries are over, or it was a ping).
    Failed,
}

impl AttemptOutcome {
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Delivered => "delivered",
            Self::Retrying => "retrying",
            Self::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Self::Delivered, Self::Retrying, Self::Failed]
            .into_iter()
            .find(|o| o.as_str() == s)
    }
}

/// One line of `GET /v1/webhooks/{id}/deliveries`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeliveryAttempt {
    pub id: Uuid,
    /// The event's id, sent as `webhook-id` (the same on every attempt).
    pub event_id: Uuid,
    pub event_type: EventType,
    /// 1 for the first attempt at this event, 2 for the first retry…
    pub attempt: i32,
    pub status: AttemptOutcome,
    /// The endpoint's HTTP status; `null` when no answer came (refused, timed out…).
    pub response_status: Option<i32>,
    pub duration_ms: i32,
    /// Why it failed, when it did.
    pub error: Option<String>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub attempted_at: OffsetDateTime,
}

/// A delivery a worker claimed: everything needed to send it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimedDelivery {
    /// The account whose endpoint it is.
    pub user: UserId,
    pub delivery_id: Uuid,
    pub endpoint_id: Uuid,
    pub event_id: Uuid,
    pub event_type: EventType,
    pub event_created_at: OffsetDateTime,
    pub url: String,
    pub secret: String,
    pub body: String,
    /// This attempt's number (1 for the first).
    pub attempt: i32,
}

/// What the endpoint did with one attempt.
#[derive(Debug, Clone, PartialEq)]
pub struct SendResult {
    pub response_status: Option<u16>,
    pub error: Option<String>,
    pub duration_ms: u32,
}

impl SendResult {
    pub fn delivered(&self) -> bool {
        self.error.is_none()
            && self
                .response_status
                .is_some_and(|s| (200..300).contains(&s))
    }
}

/// What becomes of a delivery after an attempt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AfterAttempt {
    Delivered,
    RetryAt(OffsetDateTime),
    GiveUp,
}
