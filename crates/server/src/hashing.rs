//! The password-hashing port: argon2id on tokio's blocking threads, at most one hash per core at
//! a time. Passwords are stored as argon2id hashes in PHC string form. Each argon2id hash holds 19 MiB for tens of milliseconds; without a bound, a flood of
//! sign-ups runs hundreds at once (gigabytes of memory, every other request starved).

use std::sync::{Arc, LazyLock};

use argon2::{
    Algorithm, Argon2, Params, PasswordHash, PasswordHasher as _, PasswordVerifier, Version,
};

use async_trait::async_trait;
use tokio::sync::Semaphore;
use wort_domain::account::random_bytes;
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

fn argon2() -> DomainResult<Argon2<'static>> {
    // OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane.
    let params = Params::new(19 * 1024, 2, 1, None)
        .map_err(|e| DomainError::Internal(format!("argon2 params: {e}")))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// argon2id hash in PHC string form, with a 16-byte salt from the OS. CPU-heavy: call it off the
/// async workers.
fn hash_password(password: &str) -> DomainResult<String> {
    let salt = random_bytes::<16>()?;
    argon2()?
        .hash_password_with_salt(password.as_bytes(), &salt)
        .map(|h: PasswordHash| h.to_string())
        .map_err(|e| DomainError::Internal(format!("hash: {e}")))
}

/// Checks a password against a stored hash. CPU-heavy: call it off the async workers.
fn verify_password(stored_hash: &str, password: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored_hash) else {
        return false;
    };
    argon2()
        .map(|a| a.verify_password(password.as_bytes(), &parsed).is_ok())
        .unwrap_or(false)
}

/// Verifies against a throw-away hash so an unknown email costs as much time as a known one.
fn verify_dummy_password(password: &str) {
    static DUMMY: LazyLock<String> =
        LazyLock::new(|| hash_password("not a real password").unwrap_or_default());
    let _ = verify_password(&DUMMY, password);
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

    #[test]
    fn passwords_verify_only_with_the_right_password() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify_password(&h, "correct horse"));
        assert!(!verify_password(&h, "wrong horse"));
        assert!(!verify_password("garbage", "correct horse"));
    }

    #[test]
    fn hashes_stored_before_the_argon2_upgrade_still_verify() {
        // Made by wort with argon2 0.5 (password "correct horse battery"); 0.6 must read it.
        let stored = "$argon2id$v=19$m=19456,t=2,p=1$9YNNVuUDlaNOfyhY/ASSkg$\
                      K17W+xEheB6SGIVOzROTWjxd0X/xdxNO16hpvMbQYwo";
        assert!(verify_password(stored, "correct horse battery"));
        assert!(!verify_password(stored, "correct horse"));
    }
}
