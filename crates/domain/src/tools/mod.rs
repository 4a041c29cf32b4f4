//! Brewer's tools: small calculators a brewer reaches for on brew and bottling day (priming
//! sugar, keg pressure, refractometer and hydrometer readings, dilution, pitch rate). Pure
//! functions of their inputs, the same for every account; the formulas are in
//! [`crate::brewing`] (`carbonation`, `refractometer`, `hydrometer`, `pitching`) with their
//! published sources, here are the inputs' bounds and the answers.
//!
//! Inputs and answers are metric and SG, as everywhere in the API. Each answer echoes its
//! inputs under `inputs` and names every figure with its unit (`sugar_grams`, `pressure_kpa`).

pub mod model;
pub mod rules;
pub mod service;

pub use model::*;
pub use service::*;
