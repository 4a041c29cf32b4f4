//! Devices (docs/devices.md): hydrometers and controllers that post fermentation readings by
//! themselves, each with its own ingest token.
//!
//! * [`model`]: the device, its kind and the one-time token.
//! * [`rules`]: bounds, and the one-reading-per-interval limit.
//!
//! Reading what the devices post (iSpindel, GravityMon, Tilt, Brewfather's and Brewer's Friend's
//! streams) into one fermentation reading is the `wort-hydrometers` crate's: vendor formats, like
//! BeerXML's, are an adapter's concern.
//! * [`ports`], [`service`]: storing devices and taking their readings.

pub mod model;
pub mod ports;
pub mod rules;
pub mod service;

pub use model::{Device, DeviceKind, DevicePatch, GeneratedDevice, NewDevice};
pub use ports::DeviceRepository;
pub use service::DeviceService;
