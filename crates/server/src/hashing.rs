//! The password-hashing port: argon2 on tokio's blocking threads, at most one hash per core at a
//! time. Each argon2id hash holds 19 MiB for tens of milliseconds; without a bound, a flood of
//! sign-ups runs hundreds at once (gigabytes of memory, every other request starved).

use std::sync::Arc;

use async_trait::async_trait;
use tokio::sync::Semaphore;
use wort_domain::account::{hash_password, verify_dummy_password, verify_password};
use wort_domain::ports::PasswordHasher;
use wort_domain::{DomainError, DomainResult};

pub struct BlockingHasher {
    permits: Arc<Semaphore>,
}

impl BlockingHasher {
    /// At most `concurrency` hashes at once; the rest wait their turn.
    pub fn new(concurrency: usize) -> Self {
        BlockingHasher {
            permits: Arc::new(Semaphore::new(concurrency.max(1))),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> DomainResult<T> {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| DomainError::Internal(format!("hashing permits: {e}")))?;
        // The permit goes with the job: a blocking job cannot be stopped, so when the client
        // hangs up (and this future is dropped) the hash still runs, and must still count.
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| DomainError::Internal(format!("hashing task: {e}")))
    }
}

#[async_trait]
impl PasswordHasher for BlockingHasher {
    async fn hash(&self, password: String) -> DomainResult<String> {
        self.run(move || hash_password(&password)).await?
    }

    async fn verify(&self, stored: Option<String>, password: String) -> DomainResult<bool> {
        self.run(move || match stored {
            Some(hash) => verify_password(&hash, &password),
            None => {
                verify_dummy_password(&password);
                false
            }
        })
        .await
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    /// A request dropped while its hash runs (the client hung up) must not free the slot: the
    /// hash goes on, and without the bound a flood of hang-ups would run unbounded hashes.
    #[tokio::test]
    async fn a_dropped_request_keeps_its_slot_until_the_hash_ends() {
        let hasher = Arc::new(BlockingHasher::new(1));
        let (release, held) = mpsc::channel::<()>();
        let (started_tx, started) = tokio::sync::oneshot::channel::<()>();
        let request = tokio::spawn({
            let hasher = hasher.clone();
            async move {
                hasher
                    .run(move || {
                        let _ = started_tx.send(());
                        let _ = held.recv();
                    })
                    .await
            }
        });
        started.await.unwrap();
        request.abort();
        let _ = request.await;
        // The job still runs: the slot is still taken.
        assert_eq!(hasher.permits.available_permits(), 0);
        release.send(()).unwrap();
        for _ in 0..200 {
            if hasher.permits.available_permits() == 1 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the slot was never given back");
    }
}
