//! The inventory aggregate: ingredients on hand.
//!
//! * [`model`]: the item. [`rules`]: bounds and the adjust rule. [`ports`]: storage.
//! * [`service`]: the use cases.
//! * [`units`]: the units wort recognises in `amount_unit`, and conversion.
//! * [`stock`]: a recipe's needs matched to items: deduction lines, shopping list, cost.

pub mod model;
pub mod ports;
pub mod rules;
pub mod service;
pub mod stock;
pub mod units;

pub use model::*;
pub use rules::*;
pub use service::InventoryService;
