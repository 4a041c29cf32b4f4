//! Webhooks (docs/webhooks.md): endpoints that are told what happened, signed as the Standard
//! Webhooks specification says, delivered from an outbox with retries.
//!
//! * [`model`]: endpoints, event types, events, deliveries and their attempts.
//! * [`rules`]: bounds, which target addresses are refused, the retry policy.
//! * [`signing`]: secrets and signatures.
//! * [`ports`]: the store (outbox, claims) and the sender (HTTP, in `wort-webhooks`).
//! * [`service`]: the use cases, the delivery of one claimed event among them.
//!
//! The events are written by the stores of the changes that cause them, in the same transaction
//! (`wort-db`'s outbox), so an event exists exactly when its change does.

pub mod model;
pub mod ports;
pub mod rules;
pub mod service;
pub mod signing;

pub use model::{Event, EventType, NewWebhook, Webhook, WebhookPatch};
pub use ports::{WebhookRepository, WebhookSender};
pub use service::{RetryPolicy, WebhookService};
