//! Reserving a key before a write runs and keeping its answer after.

use std::sync::Arc;

use super::model::{Answer, Begin, Fingerprint, IdempotencyKey, Reservation};
use super::ports::IdempotencyStore;
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

    /// What a request with `key` is to do: run (the key is now reserved for it), replay the
    /// first answer, or be refused.
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
            let Some(stored) = self
                .store
                .reserve(user, &key, fingerprint, token, now)
                .await?
            else {
                return Ok(Begin::Run(Reservation { user, key, token }));
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
