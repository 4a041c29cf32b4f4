//! The account aggregate: users, sign-in sessions, API keys, display preferences.
//!
//! * [`model`]: the entities. [`rules`]: bounds, limits and their violations.
//! * [`currency`]: the ISO 4217 codes a preferred currency may take.
//! * [`credentials`]: making and checking secrets (keys, tokens, password hashes).
//! * [`ports`]: what the service needs stored or computed elsewhere. [`service`]: the use cases.

pub mod credentials;
pub mod currency;
pub mod model;
pub mod ports;
pub mod rules;
pub mod service;

pub use credentials::*;
pub use model::*;
pub use rules::*;
pub use service::AccountService;
