//! Equipment profiles: a brewer's kettle, mash tun and fermenter, as the numbers the
//! volume and gravity calculations need.
//!
//! * [`model`]: the profile itself, with BeerJSON's names, and the stored entity.
//! * [`rules`]: the bounds and defaults, and the check that refuses physically impossible profiles.
//! * [`ports`], [`service`]: storing them.
//!
//! The calculations that read a profile are in `crate::brewing::volumes` and
//! `crate::brewing::stats` (OG and IBU with losses and utilisation).

pub mod model;
pub mod ports;
pub mod rules;
pub mod service;

pub use model::{Equipment, EquipmentPatch, EquipmentProfile, MashMethod};
pub use ports::EquipmentRepository;
pub use rules::check_profile;
pub use service::EquipmentService;
