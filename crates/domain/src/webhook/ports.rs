//! What the webhook service needs: a store (endpoints, the outbox's claims, the attempts log)
//! and a sender (HTTP).

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{
    AfterAttempt, ClaimedDelivery, DeliveryAttempt, Event, NewWebhook, SendResult, Webhook,
    WebhookPatch,
};
use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

#[async_trait]
pub trait WebhookRepository: Send + Sync {
    /// The account's endpoints, oldest first.
    async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<Webhook>>;
    /// Refused (`422`) past [`MAX_WEBHOOKS`](super::rules::MAX_WEBHOOKS).
    async fn create(
        &self,
        user: UserId,
        new: NewWebhook,
        secret: String,
        now: OffsetDateTime,
    ) -> DomainResult<Webhook>;
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Webhook>;
    /// Re-activating an endpoint also resets its failure count.
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: WebhookPatch,
        now: OffsetDateTime,
    ) -> DomainResult<Webhook>;
    /// Deletes the endpoint with its pending deliveries and its log.
    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()>;
    /// The endpoint's attempts, newest first.
    async fn list_attempts(
        &self,
        user: UserId,
        id: Uuid,
        page: PageRequest,
    ) -> DomainResult<Page<DeliveryAttempt>>;

    /// Writes a `ping` event for this one endpoint (active or not) and claims its delivery,
    /// unless the endpoint was tested less than `interval` ago by any instance:
    /// `WebhookTestTooSoon` then, with the wait from
    /// [`wait_before_next_test`](super::rules::wait_before_next_test). The check and the new
    /// test's time are one atomic write, on the database's clock.
    async fn claim_ping(
        &self,
        user: UserId,
        id: Uuid,
        event: Event,
        lease: time::Duration,
        interval: time::Duration,
    ) -> DomainResult<ClaimedDelivery>;
    /// Claims up to `limit` due deliveries of active endpoints with `FOR UPDATE SKIP LOCKED`
    /// (no two workers, in this instance or another, claim the same one) and leases them for
    /// `lease`: a worker that dies mid-attempt leaves it to be retried when the lease ends.
    /// Fair between accounts: in the order of [`claim_turn`](super::rules::claim_turn), and
    /// never more than `per_account` of one account's attempts leased at once.
    async fn claim_due(
        &self,
        limit: i64,
        per_account: i64,
        lease: time::Duration,
    ) -> DomainResult<Vec<ClaimedDelivery>>;
    /// Deletes events written before `before` whose deliveries are all finished, with their
    /// deliveries and attempts; returns how many events went.
    async fn prune(&self, before: OffsetDateTime) -> DomainResult<u64>;
    /// Logs the attempt and applies `after`; counts the endpoint's consecutive failures (pings
    /// aside) and deactivates it at [`MAX_CONSECUTIVE_FAILURES`](super::rules::MAX_CONSECUTIVE_FAILURES).
    async fn record_attempt(
        &self,
        delivery: &ClaimedDelivery,
        result: &SendResult,
        after: AfterAttempt,
        now: OffsetDateTime,
    ) -> DomainResult<DeliveryAttempt>;
}

/// Sends one signed request, never to an address that is not public (unless the operator
/// allowed private targets).
#[async_trait]
pub trait WebhookSender: Send + Sync {
    /// Resolves the URL's host and refuses it (`Err` with the reason) when any address it
    /// resolves to is not public.
    async fn check_target(&self, url: &url::Url) -> Result<(), String>;
    /// POSTs `body` with `headers`; no redirect is followed, the answer is awaited at most
    /// [`ATTEMPT_TIMEOUT`](super::rules::ATTEMPT_TIMEOUT), and the address connected to is
    /// checked again (a name that resolved to a public address at creation may not now).
    async fn send(&self, url: &str, headers: &[(&str, String)], body: &str) -> SendResult;
}
