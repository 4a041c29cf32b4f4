//! The MQTT use cases: the account's settings, and publishing what the outbox holds.

use std::sync::Arc;

use time::Duration;

use super::model::{ClaimedBatch, MqttIntegration, MqttPatch};
use super::ports::{MqttPublisher, MqttRepository};
use super::rules::{LEASE, RETRY_BASE, apply_patch, check_url, refused_broker, retry_delay};
use crate::ports::Clock;
use crate::{DomainError, DomainResult, UserId};

pub struct MqttService {
    store: Arc<dyn MqttRepository>,
    publisher: Arc<dyn MqttPublisher>,
    clock: Arc<dyn Clock>,
    retry_base: Duration,
}

impl MqttService {
    pub fn new(
        store: Arc<dyn MqttRepository>,
        publisher: Arc<dyn MqttPublisher>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        MqttService {
            store,
            publisher,
            clock,
            retry_base: RETRY_BASE,
        }
    }

    /// A shorter first retry (tests).
    #[must_use]
    pub fn with_retry_base(mut self, base: Duration) -> Self {
        self.retry_base = base;
        self
    }

    pub async fn get(&self, user: UserId) -> DomainResult<MqttIntegration> {
        self.store.get(user).await
    }

    /// Creates the integration (`url` required) or changes the fields sent. A broker whose
    /// address is refused is `422` on `url`.
    pub async fn update(&self, user: UserId, patch: MqttPatch) -> DomainResult<MqttIntegration> {
        let current = self.store.settings(user).await?;
        let url_changed = patch
            .url
            .as_ref()
            .is_some_and(|url| current.as_ref().is_none_or(|c| &c.url != url));
        let settings = apply_patch(current, patch)?;
        if url_changed {
            let url = check_url(&settings.url).map_err(DomainError::invalid)?;
            self.publisher
                .check_broker(&url)
                .await
                .map_err(|why| DomainError::invalid(refused_broker(why)))?;
        }
        self.store.save(user, settings, self.clock.now()).await
    }

    pub async fn delete(&self, user: UserId) -> DomainResult<()> {
        self.store.delete(user).await
    }

    /// Leases the due messages of up to `accounts` accounts; the worker then calls
    /// [`publish`](Self::publish) on each batch.
    pub async fn claim_due(&self, accounts: i64) -> DomainResult<Vec<ClaimedBatch>> {
        self.store.claim_due(accounts, LEASE).await
    }

    /// Publishes one batch and records what came of it; `Ok(true)` when every message was
    /// acknowledged.
    pub async fn publish(&self, batch: &ClaimedBatch) -> DomainResult<bool> {
        let result = self.publisher.publish(&batch.broker, &batch.messages).await;
        let now = self.clock.now();
        let retry_at = result
            .error
            .as_ref()
            .map(|_| now + retry_delay(self.retry_base, batch.failures.saturating_add(1)));
        self.store.record(batch, &result, retry_at, now).await?;
        Ok(result.error.is_none())
    }
}
