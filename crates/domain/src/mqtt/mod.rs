//! MQTT and Home Assistant (docs/mqtt.md): one broker per account, told of every stored reading,
//! every alert raised or cleared, and of the fermenting sessions' sensors through Home
//! Assistant's MQTT discovery.
//!
//! * [`model`]: the integration's settings, a message, what a publisher claims.
//! * [`rules`]: bounds, which broker addresses are refused, the outbox's cap, the retry policy.
//! * [`messages`]: the topics and payloads, as pure functions.
//! * [`ports`]: the store (settings, outbox, claims) and the publisher (in `wort-mqtt`).
//! * [`service`]: the use cases, the publishing of one claimed batch among them.
//!
//! The messages are written by the stores of the changes that cause them, in the same
//! transaction (`wort-db`'s `mqtt.rs`), so a message exists exactly when its change does, and
//! only while the account's integration is enabled.

pub mod messages;
pub mod model;
pub mod ports;
pub mod rules;
pub mod service;

pub use model::{MqttIntegration, MqttPatch};
pub use ports::{MqttPublisher, MqttRepository};
pub use service::MqttService;
