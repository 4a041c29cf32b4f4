//! What the idempotency service needs stored: one row per account and key.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use std::future::Future;
use std::pin::Pin;

use super::model::{Answer, Fingerprint, IdempotencyKey, KeyRecord, StoredKey};
use crate::{DomainResult, UserId};

/// The request a keyed write runs: it answers with what the client is to be told.
pub type Work<'a> = Pin<Box<dyn Future<Output = Answer> + 'a>>;

/// What [`IdempotencyStore::reserve`] found.
pub enum Reserve {
    /// The key is now reserved for this request.
    Reserved,
    /// The key as it was already stored, untouched.
    Stored(StoredKey),
    /// A keyed write's transaction holds the key.
    Busy,
}

/// The transaction a keyed write runs in, opened with the key locked for it.
pub enum Opened {
    /// Another try with the key holds its lock: that try is running, or its commit's outcome is
    /// not known yet.
    Busy,
    Open(Box<dyn KeyTransaction>),
}

/// One keyed write's transaction. Dropped without [`commit`](KeyTransaction::commit), it is
/// rolled back: nothing of the request is applied and the key stays free.
#[async_trait(?Send)]
pub trait KeyTransaction: Send {
    /// The key as stored, read under the lock (`None`: never used, or pruned).
    fn stored(&self) -> Option<&StoredKey>;

    /// Runs the request: every store call it makes joins this transaction.
    async fn run(&mut self, work: Work<'_>) -> Answer;

    /// Writes the key's record and commits. Without `keep_work`, what the request wrote is undone
    /// first (its answer says nothing was applied) and only the record is committed.
    async fn commit(self: Box<Self>, record: KeyRecord, keep_work: bool) -> DomainResult<()>;

    /// Rolls back: nothing of the request is kept, the key stays as it was.
    async fn rollback(self: Box<Self>);
}

#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// Begins a keyed write's transaction and takes the key's lock in it, without waiting: the
    /// lock is held until that transaction ends, on whichever instance it runs, so a second try
    /// is told [`Opened::Busy`] while the first's outcome is open.
    async fn open(&self, user: UserId, key: &IdempotencyKey) -> DomainResult<Opened>;

    /// Reserves the key for a request with `fingerprint` under `token`, committed on its own
    /// before the request runs, so every instance sees it: for requests that wait on the AI
    /// provider and so cannot run inside one transaction. `None`: reserved; otherwise the key as
    /// it is already stored, untouched; [`Reserve::Busy`] while a keyed write's transaction holds
    /// the key.
    async fn reserve(
        &self,
        user: UserId,
        key: &IdempotencyKey,
        fingerprint: Fingerprint,
        token: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<Reserve>;

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
