//! Credentials remembered in this process, forgotten when PostgreSQL announces a change.
//!
//! Authenticating a request used to cost a round trip to the database of its own. The account
//! service now remembers what the database confirmed (see `CredentialCache` in the domain) in
//! [`PgCredentialCache`], and [`CredentialListener`] keeps it honest: triggers on `users`,
//! `api_keys` and `auth_sessions` `NOTIFY wort_credentials` with the user's id when a row that
//! stands for a credential is deleted or changed, in the transaction of the change, so every
//! instance on the database hears of it once it commits and forgets that user's credentials.
//!
//! Without its listener the cache remembers nothing: it starts empty and unused, and empties
//! itself the moment the listener's connection fails or stops answering its ping, until it has
//! listened again. The memory is bounded ([`CAPACITY`] credentials).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use tokio_postgres::{AsyncMessage, NoTls};
use uuid::Uuid;
use wort_domain::UserId;
use wort_domain::account::RememberedCredential;
use wort_domain::ports::CredentialCache;

/// The channel the triggers notify (the migration that creates them names it too).
pub const CHANNEL: &str = "wort_credentials";

/// At most this many credentials are remembered (a few hundred bytes each).
pub const CAPACITY: usize = 10_000;

/// How often the listener checks that its connection still answers: a connection lost without
/// a word (a network partition) would otherwise leave the cache trusted and deaf.
const PING_EVERY: Duration = Duration::from_secs(5);
const PING_TIMEOUT: Duration = Duration::from_secs(5);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const RETRY_AFTER: Duration = Duration::from_secs(1);

#[derive(Default)]
pub struct PgCredentialCache {
    entries: Mutex<HashMap<Vec<u8>, RememberedCredential>>,
    /// Moves on every forget, so a credential read from the database before a revocation
    /// arrived is not remembered after it.
    generation: AtomicU64,
    /// Whether the listener is listening.
    live: AtomicBool,
}

impl PgCredentialCache {
    pub fn new() -> Self {
        Self::default()
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u8>, RememberedCredential>> {
        // A panic while holding the lock leaves a map that is still a valid map.
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn forget_all(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries().clear();
    }

    fn set_live(&self, live: bool) {
        if live {
            self.live.store(true, Ordering::SeqCst);
        } else {
            self.live.store(false, Ordering::SeqCst);
            self.forget_all();
        }
    }

    /// How many credentials are remembered now.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Applies one notification: a user's id, or anything else (forget everything).
    fn announced(&self, payload: &str) {
        match Uuid::parse_str(payload) {
            Ok(id) => self.forget_user(UserId(id)),
            Err(_) => self.forget_all(),
        }
    }
}

impl CredentialCache for PgCredentialCache {
    fn get(&self, digest: &[u8]) -> Option<RememberedCredential> {
        if !self.live.load(Ordering::SeqCst) {
            return None;
        }
        self.entries().get(digest).cloned()
    }

    fn stamp(&self) -> Option<u64> {
        self.live
            .load(Ordering::SeqCst)
            .then(|| self.generation.load(Ordering::SeqCst))
    }

    fn remember(&self, stamp: u64, digest: Vec<u8>, credential: RememberedCredential) {
        let mut entries = self.entries();
        // Checked under the lock that every forget takes after moving the generation.
        if !self.live.load(Ordering::SeqCst) || self.generation.load(Ordering::SeqCst) != stamp {
            return;
        }
        if entries.len() >= CAPACITY && !entries.contains_key(&digest) {
            let oldest = entries
                .iter()
                .min_by_key(|(_, c)| c.checked_at)
                .map(|(d, _)| d.clone());
            if let Some(oldest) = oldest {
                entries.remove(&oldest);
            }
        }
        entries.insert(digest, credential);
    }

    fn forget(&self, digest: &[u8]) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries().remove(digest);
    }

    fn forget_user(&self, user: UserId) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries().retain(|_, c| c.user.id != user);
    }
}

/// Listens on [`CHANNEL`] for the cache, reconnecting (to the first suitable host of a
/// multi-host URL, as the pool does) whenever the connection is lost.
pub struct CredentialListener {
    url: String,
    cache: std::sync::Arc<PgCredentialCache>,
}

impl CredentialListener {
    pub fn new(url: &str, cache: std::sync::Arc<PgCredentialCache>) -> Self {
        CredentialListener {
            url: url.to_owned(),
            cache,
        }
    }

    /// Runs until the task is aborted.
    pub async fn run(self) {
        loop {
            match self.listen_once().await {
                Ok(()) => tracing::warn!("credential notifications stopped; reconnecting"),
                Err(error) => {
                    tracing::warn!(%error, "cannot listen for credential changes; retrying");
                }
            }
            self.cache.set_live(false);
            tokio::time::sleep(RETRY_AFTER).await;
        }
    }

    /// One connection's life: listen, apply notifications, ping; returns when it ends.
    async fn listen_once(&self) -> Result<(), String> {
        let config: tokio_postgres::Config = self.url.parse().map_err(|e| format!("{e}"))?;
        let (client, mut connection) = tokio::time::timeout(CONNECT_TIMEOUT, config.connect(NoTls))
            .await
            .map_err(|_| "connecting timed out".to_owned())?
            .map_err(|e| e.to_string())?;
        let (sender, mut received) = tokio::sync::mpsc::unbounded_channel::<String>();
        // The connection's I/O: every message the server sends, notifications passed on.
        let io = tokio::spawn(async move {
            loop {
                match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                    Some(Ok(AsyncMessage::Notification(n))) => {
                        if sender.send(n.payload().to_owned()).is_err() {
                            break;
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(error)) => {
                        tracing::warn!(%error, "credential listener connection failed");
                        break;
                    }
                    None => break,
                }
            }
        });
        let result = self.serve(&client, &mut received).await;
        drop(client);
        io.abort();
        result
    }

    async fn serve(
        &self,
        client: &tokio_postgres::Client,
        received: &mut tokio::sync::mpsc::UnboundedReceiver<String>,
    ) -> Result<(), String> {
        let read_only = client
            .simple_query("SHOW transaction_read_only")
            .await
            .map_err(|e| e.to_string())?;
        // A standby hears no notifications: its primary's triggers notify the primary only.
        let standby = read_only.iter().any(|m| {
            matches!(m, tokio_postgres::SimpleQueryMessage::Row(row) if row.get(0) == Some("on"))
        });
        if standby {
            return Err("the server is a standby".to_owned());
        }
        client
            .batch_execute(&format!("LISTEN {CHANNEL}"))
            .await
            .map_err(|e| e.to_string())?;
        // Listening from here on: whatever changes now is announced.
        self.cache.set_live(true);
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.tick().await;
        loop {
            tokio::select! {
                payload = received.recv() => match payload {
                    Some(payload) => self.cache.announced(&payload),
                    None => return Ok(()),
                },
                _ = ping.tick() => {
                    tokio::time::timeout(PING_TIMEOUT, client.simple_query("SELECT 1"))
                        .await
                        .map_err(|_| "the ping went unanswered".to_owned())?
                        .map_err(|e| e.to_string())?;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;
    use wort_domain::account::User;

    use super::*;

    fn credential(user: Uuid, checked_at: OffsetDateTime) -> RememberedCredential {
        RememberedCredential {
            user: User {
                id: UserId(user),
                email: "a@example.com".to_owned(),
                name: "A".to_owned(),
                created_at: checked_at,
            },
            session: None,
            expires_at: None,
            checked_at,
        }
    }

    #[test]
    fn remembers_only_while_live_and_not_across_a_forget() {
        let cache = PgCredentialCache::new();
        let now = OffsetDateTime::UNIX_EPOCH;
        let user = Uuid::now_v7();
        assert_eq!(cache.stamp(), None, "not listening yet");
        cache.set_live(true);
        let stamp = cache.stamp().unwrap();
        cache.remember(stamp, b"a".to_vec(), credential(user, now));
        assert!(cache.get(b"a").is_some());
        // A read that started before a forget is not remembered after it.
        let stale = cache.stamp().unwrap();
        cache.forget_user(UserId(Uuid::now_v7()));
        cache.remember(stale, b"b".to_vec(), credential(user, now));
        assert!(cache.get(b"b").is_none());
        cache.announced(&user.to_string());
        assert!(cache.get(b"a").is_none());
        // Losing the listener empties the cache and stops it.
        let stamp = cache.stamp().unwrap();
        cache.remember(stamp, b"c".to_vec(), credential(user, now));
        cache.set_live(false);
        assert!(cache.is_empty());
        assert_eq!(cache.stamp(), None);
    }

    #[test]
    fn memory_is_bounded_and_the_oldest_goes_first() {
        let cache = PgCredentialCache::new();
        cache.set_live(true);
        let start = OffsetDateTime::UNIX_EPOCH;
        for i in 0..=CAPACITY {
            let stamp = cache.stamp().unwrap();
            let at = start + time::Duration::seconds(i as i64);
            cache.remember(
                stamp,
                i.to_le_bytes().to_vec(),
                credential(Uuid::now_v7(), at),
            );
        }
        assert_eq!(cache.len(), CAPACITY);
        assert!(
            cache.get(&0usize.to_le_bytes()).is_none(),
            "the oldest went"
        );
        assert!(cache.get(&CAPACITY.to_le_bytes()).is_some());
    }
}
