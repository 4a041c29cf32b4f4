//! wort's domain: the rules and the brewing maths, free of HTTP and SQL.
//!
//! * [`recipe`], [`ingredients`]: the recipe aggregate and its five kinds of children.
//! * [`brewing`]: pure brewing calculations (OG, FG, ABV, IBU, colour, calories…).
//! * [`session`]: brew sessions, their state machine, the brew-day checklist, fermentation logs.
//! * [`inventory`]: ingredients on hand.
//! * [`ai`]: the AI assistant: daily limits and metering, prompts, chat threads, use cases.
//! * [`account`]: users, sign-in sessions and API keys, and how credentials are made and checked.
//! * [`ports`]: the traits the adapters (PostgreSQL, the AI provider, the clock) implement.
//! * [`error`]: the errors every use case can end in.

pub mod account;
pub mod ai;
pub mod brewing;
pub mod error;
pub mod ingredients;
pub mod inventory;
pub mod page;
pub mod ports;
pub mod recipe;
pub mod session;
pub mod timestamp;

pub use error::{DomainError, DomainResult};

/// The account that owns a piece of data. Every repository call takes one, so no query can be
/// written that forgets whose data it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UserId(pub uuid::Uuid);

/// A new time-ordered id (UUID v7: index locality for B-trees).
pub fn new_id() -> uuid::Uuid {
    uuid::Uuid::now_v7()
}
