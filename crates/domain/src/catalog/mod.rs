//! The ingredient catalogue: fermentables, hops, yeasts and miscs a brewer picks from, the
//! built-in ones shipped with wort and each account's own.
//!
//! * [`model`]: the items and their descriptive fields. [`rules`]: bounds and the cap.
//! * [`search`]: the normalised text a search compares. [`builtin`]: the shipped data.
//! * [`ports`]: storage. [`service`]: the use cases, and what a recipe child or an inventory item
//!   takes from an item it is linked to.

pub mod builtin;
pub mod model;
pub mod ports;
pub mod rules;
pub mod search;
pub mod service;

pub use model::*;
pub use rules::*;
pub use service::CatalogService;
