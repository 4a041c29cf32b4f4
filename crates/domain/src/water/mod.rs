//! Water: profiles (built-in classics and the account's own), a recipe's water report (ions after
//! the additions, residual alkalinity, SO4:Cl, the predicted mash pH and the acid for a target)
//! and the per-account calibration of that prediction against measured mash pH.

pub mod model;
pub mod ports;
pub mod rules;
pub mod service;

pub use model::*;
pub use ports::WaterRepository;
pub use service::WaterService;
