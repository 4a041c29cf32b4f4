//! The integration's settings and the messages of its outbox.

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::UserId;

/// An account's MQTT broker and what wort publishes to it. The password is never shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MqttIntegration {
    /// `mqtt://host[:port]` or `mqtts://host[:port]` (1883 and 8883 by default).
    pub url: String,
    pub username: Option<String>,
    /// Whether a password is set (the password itself is write-only).
    pub has_password: bool,
    /// Readings go to `<topic_prefix>/sessions/<id>/reading`, alerts to `<topic_prefix>/alerts`.
    pub topic_prefix: String,
    /// Home Assistant's discovery prefix (`homeassistant` unless changed there).
    pub discovery_prefix: String,
    pub enabled: bool,
    /// Why the last attempt to publish failed (cannot connect, refused credentials…); null once
    /// a later one succeeds.
    pub last_error: Option<String>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub last_error_at: Option<OffsetDateTime>,
    /// When the broker last acknowledged a message.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub last_published_at: Option<OffsetDateTime>,
    /// Messages waiting for the broker.
    pub pending_messages: i64,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// `PATCH /v1/integrations/mqtt`: only the fields sent change; creating needs `url`.
/// `username`/`password`: `Some(None)` clears them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MqttPatch {
    pub url: Option<String>,
    pub username: Option<Option<String>>,
    pub password: Option<Option<String>>,
    pub topic_prefix: Option<String>,
    pub discovery_prefix: Option<String>,
    pub enabled: Option<bool>,
}

/// The settings after a patch, checked, as the store writes them.
#[derive(Debug, Clone, PartialEq)]
pub struct MqttSettings {
    pub url: String,
    pub username: Option<String>,
    pub password: Option<String>,
    pub topic_prefix: String,
    pub discovery_prefix: String,
    pub enabled: bool,
}

/// What a message is, which decides what the outbox's cap may drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    /// A reading: dropped oldest first when the account's outbox is full (a newer reading of the
    /// session says more than an old one).
    Reading,
    Alert,
    /// A Home Assistant discovery config, or its removal (empty payload): never dropped, or a
    /// sensor would stay in Home Assistant after its fermentation ended.
    Discovery,
}

impl MessageKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Reading => "reading",
            Self::Alert => "alert",
            Self::Discovery => "discovery",
        }
    }
}

/// One message to publish (QoS 1).
#[derive(Debug, Clone, PartialEq)]
pub struct MqttMessage {
    pub kind: MessageKind,
    pub topic: String,
    /// JSON, or empty (removes a retained message).
    pub payload: String,
    pub retain: bool,
}

/// Where to connect and as whom.
#[derive(Debug, Clone, PartialEq)]
pub struct Broker {
    pub url: String,
    pub username: Option<String>,
    pub password: Option<String>,
}

/// A message leased to one publisher.
#[derive(Debug, Clone, PartialEq)]
pub struct OutgoingMessage {
    pub id: Uuid,
    pub topic: String,
    pub payload: String,
    pub retain: bool,
}

/// One account's due messages, oldest first, leased to one publisher: no other publisher (of
/// this instance or another) sends the account's messages while the lease lasts, so they reach
/// the broker in the order they were written and the retained one is the latest.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimedBatch {
    pub user: UserId,
    pub broker: Broker,
    /// How many failed attempts in a row came before this one (0: the last one succeeded).
    pub failures: i32,
    pub messages: Vec<OutgoingMessage>,
}

/// What came of publishing a batch: the ids the broker acknowledged (`PUBACK`), and the error
/// that stopped the rest, if any.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PublishResult {
    pub acknowledged: Vec<Uuid>,
    pub error: Option<String>,
}
