//! The inventory aggregate: ingredients on hand.
//!
//! * [`model`]: the item. [`rules`]: bounds and the adjust rule. [`ports`]: storage.
//! * [`service`]: the use cases.

pub mod model;
pub mod ports;
pub mod rules;
pub mod service;

pub use model::*;
pub use rules::*;
pub use service::InventoryService;
