//! wort's PostgreSQL adapter: implements the domain's repository ports with diesel-async.
//!
//! * [`pool`]: the connection pool (timeouts, `statement_timeout`, lazy connect, multi-host URLs)
//!   over sockets that enforce a client-side deadline on every answer (`deadline`).
//! * [`migrate`]: embedded migrations, applied under an advisory lock, behind the schema fence
//!   (`schema_fence`) that stops older instances serving a schema they do not know.
//! * [`accounts`], [`recipes`], [`equipment`], [`inventory`], [`brew_sessions`],
//!   [`session_notes`]: the repositories.
//! * [`ai`], [`chats`]: AI metering (one guarded upsert per reservation) and chat threads.
//! * [`credential_cache`]: credentials remembered per process, forgotten on PostgreSQL's word.
//! * [`schema`]: diesel's view of the tables in `migrations/`.
//! * `outbox`, `fermentation_schedule`: webhook events and scheduled steps, written in the
//!   transaction of the change; `brew_sessions::effects` carries out what the domain decided a change
//!   to a brew session sets off.

pub mod accounts;
pub mod ai;
pub mod alerts;
pub mod brew_sessions;
pub mod catalog;
pub mod chats;
pub mod credential_cache;
mod deadline;
pub mod devices;
pub mod equipment;
mod error;
mod fermentation_schedule;
pub mod idempotency;
pub mod inventory;
mod kept_sql;
pub mod migrate;
pub mod mqtt;
mod outbox;
pub mod pool;
pub(crate) mod prepared;
mod recipe_children;
pub mod recipe_history;
mod recipe_rows;
mod recipe_versions;
pub mod recipes;
mod request_transaction;
pub mod schema;
mod schema_fence;
pub mod session_notes;
pub mod water;
pub mod webhooks;

pub use accounts::PgAccounts;
pub use ai::PgAiUsage;
pub use alerts::PgAlerts;
pub use brew_sessions::PgBrewSessions;
pub use chats::PgChats;
pub use credential_cache::{CredentialListener, PgCredentialCache};
pub use devices::PgDevices;
pub use equipment::PgEquipment;
pub use idempotency::PgIdempotency;
pub use inventory::PgInventory;
pub use mqtt::PgMqtt;
pub use pool::{DbPool, PoolSettings, PoolStatus, build_pool};
pub use recipe_children::PgRecipeChildren;
pub use recipe_history::PgRecipeHistory;
pub use recipes::PgRecipes;
pub use session_notes::PgNotes;
pub use water::PgWater;
pub use webhooks::PgWebhooks;
