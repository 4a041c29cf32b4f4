//! wort's domain: the rules and the brewing maths, free of HTTP and SQL.
//!
//! One folder per aggregate, each the same shape: `model.rs` (entities), `rules.rs` (bounds,
//! limits and the violations they produce), `ports.rs` (what it needs from outside, as traits),
//! `service.rs` (the use cases, written against the ports).
//!
//! * [`account`]: users, sign-in sessions, API keys, display preferences.
//! * [`recipe`]: recipes and their children (ingredients, mash and fermentation steps, water
//!   additions).
//! * [`brew_session`]: brew days, their state machine, checklist and fermentation readings.
//! * [`session_note`]: notes on a brew session's fermentation chart.
//! * [`inventory`]: ingredients on hand.
//! * [`catalog`]: the ingredient catalogue (built-in items and each account's own), its search.
//! * [`equipment`]: equipment profiles (the kettle's losses and utilisation).
//! * [`device`]: hydrometers that post readings by themselves, with their ingest tokens.
//! * [`alert`]: the fermentation autopilot's alert rules and the alerts they raise and clear.
//! * [`mqtt`]: the MQTT broker of an account (Home Assistant), and the messages published to it.
//! * [`webhook`]: webhook endpoints, the events they receive, signing and the retry policy.
//! * [`idempotency`]: `Idempotency-Key`: a write retried with its key is applied once.
//! * [`ai`]: the AI assistant: daily limits and metering, prompts, chat threads.
//! * [`brewing`]: pure brewing calculations (OG, FG, ABV, IBU, colour, calories…).
//! * [`tools`]: the brewer's tools (priming, keg pressure, refractometer, hydrometer correction,
//!   dilution, pitch rate): their inputs' bounds and answers, over `brewing`'s formulas.
//! * [`rules`]: the bound types every `rules.rs` is written with; [`error`]: the errors every use
//!   case can end in, and the API's 422 details (docs/api-rules.md); [`ports`]: the shared ports
//!   (clock, health) and every aggregate's, re-exported.

pub mod account;
pub mod ai;
pub mod alert;
pub mod brew_session;
pub mod brewing;
pub mod catalog;
pub mod device;
pub mod equipment;
pub mod error;
pub mod idempotency;
pub mod inventory;
pub mod mqtt;
pub mod page;
pub mod ports;
pub mod quantities;
pub mod recipe;
pub mod rules;
pub mod session_note;
pub mod timestamp;
pub mod tools;
pub mod water;
pub mod webhook;

/// Each kind of recipe child's fields and enums, by a short path.
pub use recipe::children as recipe_children;

pub use error::{DomainError, DomainResult};

/// The account that owns a piece of data. Every repository call takes one, so no query can be
/// written that forgets whose data it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UserId(pub uuid::Uuid);

/// A new time-ordered id (UUID v7: index locality for B-trees).
pub fn new_id() -> uuid::Uuid {
    uuid::Uuid::now_v7()
}
