//! Idempotency keys: a client that sends `Idempotency-Key` with a write can send it again when it
//! does not know whether the first try was applied (a lost connection, a `503`), and learns the
//! truth: the first answer is replayed if the write was applied, or the write runs now if it was
//! not. Nothing is applied twice, however many wort instances share the database.
//!
//! * [`model`]: a key, the request's fingerprint, a stored answer, what a new try is told.
//! * [`rules`]: which keys are well-formed, what a try with a known key gets, which answers are
//!   kept, and for how long.
//! * [`ports`]: the store (one row per account and key) and a keyed write's transaction.
//! * [`service`]: running a keyed write with its key's record in its own transaction (or, for a
//!   request that waits on the AI provider, reserving the key before and keeping the answer
//!   after).

pub mod model;
pub mod ports;
pub mod rules;
pub mod service;

pub use model::{
    Answer, Begin, Fingerprint, IdempotencyKey, KeyRecord, Keyed, Reservation, StoredKey,
};
pub use ports::{IdempotencyStore, KeyTransaction, Opened, Reserve, Work};
pub use service::{IdempotencyService, KeyedWrite};
