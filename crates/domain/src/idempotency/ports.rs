//! What the idempotency service needs stored: one row per account and key.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{Answer, Fingerprint, IdempotencyKey, StoredKey};
use crate::{DomainResult, UserId};

#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// Reserves the key for a request with `fingerprint` under `token`, in one statement of its
    /// own (committed before the request runs, so every instance sees it). `None`: reserved;
    /// otherwise the key as it is already stored, untouched.
    async fn reserve(
        &self,
        user: UserId,
        key: &IdempotencyKey,
        fingerprint: Fingerprint,
        token: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<Option<StoredKey>>;

    /// Replaces the stored key with a fresh reservation, only if it is still the one reserved
    /// under `seen_token` (two tries racing to take over an abandoned key: one wins). Whether it
    /// was replaced.
    async fn take_over(
        &self,
        user: UserId,
        key: &IdempotencyKey,
        seen_token: Uuid,
        fingerprint: Fingerprint,
        token: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<bool>;

    /// Stores the answer of the reservation `token` (nothing, if another try has taken it over).
    async fn complete(
        &self,
        user: UserId,
        key: &IdempotencyKey,
        token: Uuid,
        answer: &Answer,
    ) -> DomainResult<()>;

    /// Deletes the reservation `token` without an answer, so a retry runs the request.
    async fn release(&self, user: UserId, key: &IdempotencyKey, token: Uuid) -> DomainResult<()>;

    /// Deletes every key reserved before `before`; how many.
    async fn prune(&self, before: OffsetDateTime) -> DomainResult<u64>;
}
