//! Running a keyed write with its key's record in its own transaction; for the requests that wait
//! on the AI provider, reserving the key before and keeping the answer after.

use std::sync::Arc;

use super::model::{Answer, Begin, Fingerprint, IdempotencyKey, KeyRecord, Keyed, Reservation};
use super::ports::{IdempotencyStore, KeyTransaction, Opened, Reserve, Work};
use super::rules::{self, Seen};
use crate::ports::Clock;
use crate::{DomainResult, UserId};

pub struct IdempotencyService {
    store: Arc<dyn IdempotencyStore>,
    clock: Arc<dyn Clock>,
}

impl IdempotencyService {
    pub fn new(store: Arc<dyn IdempotencyStore>, clock: Arc<dyn Clock>) -> Self {
        IdempotencyService { store, clock }
    }

    /// Opens the transaction a write sent with `key` runs in ([`KeyedWrite::run`]), so that it is
    /// applied exactly once whatever happens to its answer on the way back:
    ///
    /// * the transaction takes the key's lock first; a try that finds it held is told
    ///   [`Keyed::InProgress`] (the first is running, or its commit's outcome is open);
    /// * under the lock, a key already answered for the same request replays that answer, one
    ///   used for another request is [`Keyed::Reused`];
    /// * otherwise the request is to run in the transaction.
    pub async fn open_keyed(
        &self,
        user: UserId,
        key: IdempotencyKey,
        fingerprint: Fingerprint,
    ) -> DomainResult<Result<KeyedWrite, Keyed>> {
        let transaction = match self.store.open(user, &key).await? {
            Opened::Busy => return Ok(Err(Keyed::InProgress)),
            Opened::Open(transaction) => transaction,
        };
        let now = self.clock.now();
        let told =
            transaction
                .stored()
                .and_then(|stored| match rules::seen(stored, fingerprint, now) {
                    Seen::Answered => stored.answer.clone().map(Keyed::Replay),
                    Seen::AnsweredNotKept => Some(Keyed::AppliedNotKept),
                    // A reservation of a request that waits on the AI provider, still running.
                    Seen::InProgress => Some(Keyed::InProgress),
                    Seen::Reused => Some(Keyed::Reused),
                    Seen::TakeOver => None,
                });
        if let Some(told) = told {
            transaction.rollback().await;
            return Ok(Err(told));
        }
        Ok(Ok(KeyedWrite {
            transaction,
            record: (user, key, fingerprint, now),
        }))
    }

    /// For a request that waits on the AI provider (it cannot hold a transaction across the
    /// provider's answer): what it is to do: run (the key is now reserved for it, in a row
    /// committed on its own), replay the first answer, or be refused.
    pub async fn begin(
        &self,
        user: UserId,
        key: IdempotencyKey,
        fingerprint: Fingerprint,
    ) -> DomainResult<Begin> {
        // A take-over lost to another try means the key changed under us: look again, once.
        for _ in 0..2 {
            let token = crate::new_id();
            let now = self.clock.now();
            let stored = match self
                .store
                .reserve(user, &key, fingerprint, token, now)
                .await?
            {
                Reserve::Reserved => return Ok(Begin::Run(Reservation { user, key, token })),
                Reserve::Busy => return Ok(Begin::InProgress),
                Reserve::Stored(stored) => stored,
            };
            match rules::seen(&stored, fingerprint, now) {
                Seen::Answered => {
                    if let Some(answer) = stored.answer {
                        return Ok(Begin::Replay(answer));
                    }
                }
                Seen::AnsweredNotKept => return Ok(Begin::AppliedNotKept),
                Seen::InProgress => return Ok(Begin::InProgress),
                Seen::Reused => return Ok(Begin::Reused),
                Seen::TakeOver => {
                    let taken = self
                        .store
                        .take_over(user, &key, stored.token, fingerprint, token, now)
                        .await?;
                    if taken {
                        return Ok(Begin::Run(Reservation { user, key, token }));
                    }
                }
            }
        }
        Ok(Begin::InProgress)
    }

    /// Keeps the answer for replay, or releases the key when the answer is one a retry may
    /// change ([`rules::answer_is_kept`]).
    pub async fn finish(&self, reservation: Reservation, answer: Answer) -> DomainResult<()> {
        if rules::answer_is_kept(answer.status) {
            self.store
                .complete(
                    reservation.user,
                    &reservation.key,
                    reservation.token,
                    &answer,
                )
                .await
        } else {
            self.release(reservation).await
        }
    }

    /// Frees the key without an answer: the next try with it runs the request.
    pub async fn release(&self, reservation: Reservation) -> DomainResult<()> {
        self.store
            .release(reservation.user, &reservation.key, reservation.token)
            .await
    }

    /// Forgets keys reserved more than [`KEEP_KEYS_FOR`](rules::KEEP_KEYS_FOR) ago.
    pub async fn prune(&self) -> DomainResult<u64> {
        self.store
            .prune(self.clock.now() - rules::KEEP_KEYS_FOR)
            .await
    }
}

/// A keyed write whose transaction is open and holds its key: run it once.
#[must_use = "a keyed write's transaction is rolled back unless it runs"]
pub struct KeyedWrite {
    transaction: Box<dyn KeyTransaction>,
    record: (UserId, IdempotencyKey, Fingerprint, time::OffsetDateTime),
}

impl KeyedWrite {
    /// Runs `work` inside the transaction; its answer decides what commits: a `2xx` the writes
    /// with the key's record, a `4xx` the record alone, anything else
    /// ([`rules::answer_is_kept`]) nothing. A commit whose answer is lost (the database froze,
    /// the deadline passed) has written both or neither: the retry replays or runs, never
    /// applies twice.
    pub async fn run(mut self, work: Work<'_>) -> DomainResult<()> {
        let answer = self.transaction.run(work).await;
        if !rules::answer_is_kept(answer.status) {
            self.transaction.rollback().await;
            return Ok(());
        }
        let keep_work = rules::work_is_kept(answer.status);
        let (user, key, fingerprint, reserved_at) = self.record;
        let record = KeyRecord {
            user,
            key,
            fingerprint,
            token: crate::new_id(),
            reserved_at,
            answer,
        };
        self.transaction.commit(record, keep_work).await
    }
}
