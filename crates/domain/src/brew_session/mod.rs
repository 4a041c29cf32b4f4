//! The brew-session aggregate: a brew day made from a recipe, never to be confused
//! with a sign-in session (the account's browser cookie).
//!
//! * [`model`]: the session, its steps and fermentation readings.
//! * [`rules`]: the state machine, bounds and limits. [`checklist`]: the brew-day steps
//!   generated from the recipe. [`effects`]: what a change sets off (events, the schedule). [`timer`]: a step's shared countdown. [`ports`]: storage.
//!   [`service`]: the use cases. [`home`]: what is happening now (`GET /v1/home`).
//!   [`retention`]: thinning old readings (`WORT_READINGS_RETENTION_DAYS`). [`forecast`]: where
//!   the gravity is heading (`GET /v1/sessions/{id}/forecast`).

pub mod brewhouse;
pub mod checklist;
pub mod effects;
pub mod forecast;
pub mod home;
pub mod model;
pub mod ports;
pub mod retention;
pub mod rules;
pub mod schedule;
pub mod service;
pub mod timer;

pub use brewhouse::BrewhouseNumbers;
pub use checklist::checklist;
pub use forecast::{Forecast, ForecastSeries};
pub use home::{ActiveSession, Home, HomeParts, HomeTimer};
pub use model::*;
pub use rules::*;
pub use service::BrewSessionService;
pub use timer::{StepTimer, TimerAction, TimerState, invalid_timer_action};
