//! The fermentation autopilot's alerts (docs/alerts.md): rules a brewer sets on a fermenting
//! session (gravity below or above a mark, temperature outside a band, a stalled fermentation, a
//! silent device), and the alerts they raise and clear.
//!
//! * [`model`]: the rule, the alert, and what a rule is judged against.
//! * [`rules`]: bounds, which fields each kind takes, the account's limit.
//! * [`judge`]: the decision, pure: raise, clear, or leave an alert as it is.
//! * [`ports`], [`service`]: storing rules and alerts, and the clock's pass.

pub mod judge;
pub mod model;
pub mod ports;
pub mod rules;
pub mod service;

pub use model::{Alert, AlertKind, AlertRule, AlertRulePatch, AlertState, NewAlertRule};
pub use ports::AlertRepository;
pub use service::AlertService;
