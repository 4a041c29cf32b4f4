//! What the MQTT service needs: a store (the settings, the outbox's claims) and a publisher.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::model::{
    Broker, ClaimedBatch, MqttIntegration, MqttSettings, OutgoingMessage, PublishResult,
};
use crate::{DomainResult, UserId};

#[async_trait]
pub trait MqttRepository: Send + Sync {
    /// `NotFound` when the account has none.
    async fn get(&self, user: UserId) -> DomainResult<MqttIntegration>;
    /// The stored settings, password included (`None`: no integration).
    async fn settings(&self, user: UserId) -> DomainResult<Option<MqttSettings>>;
    /// Creates or replaces the account's integration. Enabling it (creating it enabled, or
    /// switching it on), or moving its prefixes while enabled, writes the discovery configs of
    /// every fermenting session to the outbox in the same transaction; moving the discovery
    /// prefix first removes the configs under the old one. Switching it off drops what waits.
    async fn save(
        &self,
        user: UserId,
        settings: MqttSettings,
        now: OffsetDateTime,
    ) -> DomainResult<MqttIntegration>;
    /// Deletes the integration with its waiting messages; `NotFound` when there was none.
    async fn delete(&self, user: UserId) -> DomainResult<()>;
    /// Leases the due messages of up to `accounts` accounts (at most
    /// [`BATCH`](super::rules::BATCH) each, oldest first) whose integration is enabled, whose
    /// broker is not waiting out a retry delay, and none of whose messages is leased already
    /// (by this instance or another: `FOR UPDATE SKIP LOCKED` on the integration row).
    async fn claim_due(
        &self,
        accounts: i64,
        lease: time::Duration,
    ) -> DomainResult<Vec<ClaimedBatch>>;
    /// Deletes the acknowledged messages, lets go of the others, and records the outcome on the
    /// integration: on an error the next attempt waits until `retry_at`.
    async fn record(
        &self,
        batch: &ClaimedBatch,
        result: &PublishResult,
        retry_at: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> DomainResult<()>;
}

/// Connects to a broker and publishes.
#[async_trait]
pub trait MqttPublisher: Send + Sync {
    /// Resolves the URL's host and refuses it (`Err` with the reason) when an address it
    /// resolves to is refused by the address policy.
    async fn check_broker(&self, url: &url::Url) -> Result<(), String>;
    /// Connects (checking the address again), publishes the messages in order with QoS 1, and
    /// answers which the broker acknowledged, within
    /// [`ATTEMPT_TIMEOUT`](super::rules::ATTEMPT_TIMEOUT).
    async fn publish(&self, broker: &Broker, messages: &[OutgoingMessage]) -> PublishResult;
}
