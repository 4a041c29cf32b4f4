//! The AI assistant's rules (docs/ai.md): the daily allowance and its UTC day, the wording of
//! the two 429s, the provider-facing message types, and the use cases that meter every call.
//!
//! * [`chat`]: chat threads and their stored messages.
//! * [`prompt`]: exactly what is sent to the provider (recipe analysis, chat context).
//! * [`service`]: recipe analysis and the chat turn's checks and reservation, in the order
//!   docs/ai.md ("Errors and their order") gives. [`turn`]: the chat turn's state machine, from
//!   the provider's first piece to the stored answer.
//! * [`model`]: the allowance, the metering day, provider messages. [`rules`]: bounds.
//! * [`ports`]: metering and chat storage, the provider.

pub mod chat;
pub mod model;
pub mod ports;
pub mod prompt;
pub mod rules;
pub mod service;
pub mod turn;

pub use model::*;
pub use rules::{DAILY_LIMITS, DAILY_MESSAGE_LIMIT, DAILY_TOKEN_LIMIT, MAX_CHAT_MESSAGE_CHARS};
