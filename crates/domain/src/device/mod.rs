//! Devices (docs/devices.md): hydrometers and controllers that post fermentation readings by
//! themselves, each with its own ingest token.
//!
//! * [`model`]: the device, its kind and the one-time token.
//! * [`rules`]: bounds, and the one-reading-per-interval limit.
//! * [`payload`]: the bodies iSpindel, GravityMon, Tilt, RAPT, Brewfather's and Brewer's Friend's
//!   streams send, read into one fermentation reading.
//! * [`ports`], [`service`]: storing devices and taking their readings.

pub mod model;
pub mod payload;
pub mod ports;
pub mod rules;
pub mod service;

pub use model::{Device, DeviceKind, DevicePatch, GeneratedDevice, NewDevice};
pub use ports::DeviceRepository;
pub use service::DeviceService;
