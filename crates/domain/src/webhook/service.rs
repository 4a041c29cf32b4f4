//! The webhook use cases: managing endpoints, the test ping, and delivering what the outbox holds.

use std::sync::Arc;

use time::Duration;
use uuid::Uuid;

use super::model::{
    AfterAttempt, AttemptOutcome, ClaimedDelivery, CreatedWebhook, DeliveryAttempt, Event,
    NewWebhook, Webhook, WebhookPatch,
};
use super::ports::{WebhookRepository, WebhookSender};
use super::rules::{
    ATTEMPT_TIMEOUT, MAX_IN_FLIGHT_PER_ACCOUNT, RETRY_BASE, RETRY_FOR, TEST_INTERVAL,
    after_attempt, check_events, check_url, refused_target,
};
use super::signing::{generate_secret, sign};
use crate::page::{Page, PageRequest};
use crate::ports::Clock;
use crate::{DomainError, DomainResult, UserId};

/// How failed deliveries are retried: exponential backoff for 24 h. Tests and
/// the benchmark shorten it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    pub base: Duration,
    pub retry_for: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            base: RETRY_BASE,
            retry_for: RETRY_FOR,
        }
    }
}

/// A claimed delivery is the worker's for this long: the attempt's timeout and room to record it.
const LEASE: Duration = Duration::seconds(60);
const _: () = assert!(ATTEMPT_TIMEOUT.as_secs() * 3 < 60);

pub struct WebhookService {
    webhooks: Arc<dyn WebhookRepository>,
    sender: Arc<dyn WebhookSender>,
    clock: Arc<dyn Clock>,
    retry: RetryPolicy,
}

impl WebhookService {
    pub fn new(
        webhooks: Arc<dyn WebhookRepository>,
        sender: Arc<dyn WebhookSender>,
        clock: Arc<dyn Clock>,
        retry: RetryPolicy,
    ) -> Self {
        WebhookService {
            webhooks,
            sender,
            clock,
            retry,
        }
    }

    pub async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<Webhook>> {
        self.webhooks.list(user, page).await
    }

    /// Creates the endpoint with a fresh secret, returned this once. The target must be an
    /// http(s) URL whose host resolves to public addresses only.
    pub async fn create(&self, user: UserId, new: NewWebhook) -> DomainResult<CreatedWebhook> {
        let new = NewWebhook {
            events: check_events(new.events).map_err(DomainError::invalid)?,
            ..new
        };
        self.check_target(&new.url).await?;
        let secret = generate_secret()?;
        let webhook = self
            .webhooks
            .create(user, new, secret.clone(), self.clock.now())
            .await?;
        Ok(CreatedWebhook { webhook, secret })
    }

    pub async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Webhook> {
        self.webhooks.get(user, id).await
    }

    pub async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: WebhookPatch,
    ) -> DomainResult<Webhook> {
        if patch.is_empty() {
            return self.webhooks.get(user, id).await;
        }
        let events = match patch.events {
            Some(events) => Some(check_events(events).map_err(DomainError::invalid)?),
            None => None,
        };
        if let Some(url) = &patch.url {
            // Not found before a slow name lookup, and before saying anything about the URL.
            self.webhooks.get(user, id).await?;
            self.check_target(url).await?;
        }
        let patch = WebhookPatch { events, ..patch };
        self.webhooks
            .update(user, id, patch, self.clock.now())
            .await
    }

    pub async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.webhooks.delete(user, id).await
    }

    pub async fn list_attempts(
        &self,
        user: UserId,
        id: Uuid,
        page: PageRequest,
    ) -> DomainResult<Page<DeliveryAttempt>> {
        self.webhooks.list_attempts(user, id, page).await
    }

    /// Sends a `ping` to the endpoint now and answers with the attempt, which also joins its
    /// log. Not retried, and not counted towards deactivation. At most one per endpoint per
    /// [`TEST_INTERVAL`], over every instance (`WebhookTestTooSoon` otherwise).
    pub async fn test(&self, user: UserId, id: Uuid) -> DomainResult<DeliveryAttempt> {
        let event = Event::ping(id, self.clock.now());
        let claimed = self
            .webhooks
            .claim_ping(user, id, event, LEASE, TEST_INTERVAL)
            .await?;
        self.deliver(&claimed).await
    }

    /// Claims up to `limit` due deliveries, fairly between accounts (at most
    /// [`MAX_IN_FLIGHT_PER_ACCOUNT`] of one account's in flight); the worker then calls
    /// [`deliver`](Self::deliver) on each.
    pub async fn claim_due(&self, limit: i64) -> DomainResult<Vec<ClaimedDelivery>> {
        self.webhooks
            .claim_due(limit, MAX_IN_FLIGHT_PER_ACCOUNT, LEASE)
            .await
    }

    /// Forgets events older than [`KEEP_EVENTS_FOR`](super::rules::KEEP_EVENTS_FOR) whose
    /// deliveries have ended, with their log.
    pub async fn prune(&self) -> DomainResult<u64> {
        let before = self.clock.now() - super::rules::KEEP_EVENTS_FOR;
        self.webhooks.prune(before).await
    }

    /// One attempt: sign, send, record what came of it.
    pub async fn deliver(&self, delivery: &ClaimedDelivery) -> DomainResult<DeliveryAttempt> {
        let msg_id = delivery.event_id.to_string();
        let timestamp = self.clock.now().unix_timestamp();
        let signature = sign(&delivery.secret, &msg_id, timestamp, &delivery.body)?;
        let headers = [
            ("content-type", "application/json".to_owned()),
            ("webhook-id", msg_id),
            ("webhook-timestamp", timestamp.to_string()),
            ("webhook-signature", signature),
            (
                "user-agent",
                concat!("wort/", env!("CARGO_PKG_VERSION")).to_owned(),
            ),
        ];
        let result = self
            .sender
            .send(&delivery.url, &headers, &delivery.body)
            .await;
        let now = self.clock.now();
        let after = if delivery.event_type == super::model::EventType::Ping {
            // A ping answers the person who pressed "Send test"; it is not retried.
            if result.delivered() {
                AfterAttempt::Delivered
            } else {
                AfterAttempt::GiveUp
            }
        } else {
            after_attempt(
                result.delivered(),
                delivery.attempt,
                delivery.event_created_at,
                now,
                self.retry.base,
                self.retry.retry_for,
            )
        };
        self.webhooks
            .record_attempt(delivery, &result, after, now)
            .await
    }

    async fn check_target(&self, raw: &str) -> DomainResult<()> {
        let url = check_url(raw).map_err(DomainError::invalid)?;
        self.sender
            .check_target(&url)
            .await
            .map_err(|why| DomainError::invalid(refused_target(why)))
    }
}

impl AfterAttempt {
    /// How the attempt shows in the log.
    pub fn outcome(&self) -> AttemptOutcome {
        match self {
            AfterAttempt::Delivered => AttemptOutcome::Delivered,
            AfterAttempt::RetryAt(_) => AttemptOutcome::Retrying,
            AfterAttempt::GiveUp => AttemptOutcome::Failed,
        }
    }
}
