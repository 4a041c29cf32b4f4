//! Keys, fingerprints and the answers kept for them.

use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::UserId;

/// A well-formed `Idempotency-Key` value (see [`rules::parse_key`](super::rules::parse_key)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey(pub(super) String);

impl IdempotencyKey {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// SHA-256 over the request's method, target (path and query) and body bytes: two tries are
/// "the same request" exactly when their fingerprints are equal. Only the digest is stored, so
/// the request's body (which may hold anything) is not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    pub fn of(method: &str, target: &str, body: &[u8]) -> Self {
        let mut hash = Sha256::new();
        // Lengths first, so no two different (method, target, body) triples hash the same bytes.
        for part in [method.as_bytes(), target.as_bytes()] {
            hash.update((part.len() as u64).to_be_bytes());
            hash.update(part);
        }
        hash.update(body);
        Fingerprint(hash.finalize().into())
    }
}

/// The first answer to a request with a key, as replayed: the status, the headers a client needs
/// to read it, and the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub content_type: Option<String>,
    pub location: Option<String>,
    /// `None`: the body was over [`MAX_KEPT_BODY_BYTES`](super::rules::MAX_KEPT_BODY_BYTES) and
    /// was not kept; the request was applied all the same.
    pub body: Option<Vec<u8>>,
}

/// A key as stored: who reserved it for which request, when, and the answer once there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredKey {
    pub fingerprint: Fingerprint,
    /// Tells reservations apart: only the holder of this token may store the answer or release
    /// the key, so a slow first try cannot overwrite the answer of the try that took it over.
    pub token: Uuid,
    pub reserved_at: OffsetDateTime,
    /// `None` while the request is running (or its process died).
    pub answer: Option<Answer>,
}

/// A key this request holds while it runs: store its answer or release it.
#[must_use = "a reservation is completed or released, else it blocks retries until abandoned"]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reservation {
    pub user: UserId,
    pub key: IdempotencyKey,
    pub token: Uuid,
}

/// What a request with a key is to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Begin {
    /// Run the request; the key is reserved for it.
    Run(Reservation),
    /// The same request was answered before: send this answer again.
    Replay(Answer),
    /// The same request was applied, but its answer was too large to keep (`409`).
    AppliedNotKept,
    /// The same request is still running (`409`).
    InProgress,
    /// The key was used for a different request (`422 idempotency_key_reused`).
    Reused,
}

/// What a write with a key is told instead of running
/// ([`IdempotencyService::open_keyed`](super::IdempotencyService::open_keyed)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keyed {
    /// The same request was answered before: send this answer again.
    Replay(Answer),
    /// The same request was applied, but its answer was too large to keep (`409`).
    AppliedNotKept,
    /// The same request is running now, or its outcome is not known yet (`409` with
    /// `Retry-After`): its transaction still holds the key.
    InProgress,
    /// The key was used for a different request (`422 idempotency_key_reused`).
    Reused,
}

/// The key's record as a keyed write commits it: which request it was, and its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    pub user: UserId,
    pub key: IdempotencyKey,
    pub fingerprint: Fingerprint,
    pub token: Uuid,
    pub reserved_at: OffsetDateTime,
    pub answer: Answer,
}
