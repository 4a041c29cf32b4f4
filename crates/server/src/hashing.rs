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
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|e| DomainError::Internal(format!("hashing permits: {e}")))?;
        tokio::task::spawn_blocking(work)
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
