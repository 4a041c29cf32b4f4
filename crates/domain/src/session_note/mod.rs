//! Notes on a brew session's fermentation chart: a line of text at an instant ("dry hopped",
//! "krausen fell", "moved to the cellar"), drawn on the chart beside the readings.
//!
//! * [`model`]: the note, a new one, a change to one.
//! * [`rules`]: the text's bounds, how far ahead of the clock a note may be, the list's paging.
//! * [`ports`], [`service`]: storing them, every write bumping the session's `updated_at`.

pub mod model;
pub mod ports;
pub mod rules;
pub mod service;

pub use model::{NewNote, Note, NotePatch};
pub use ports::NoteRepository;
pub use service::NoteService;
