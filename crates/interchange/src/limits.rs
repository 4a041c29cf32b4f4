//! The bounds an imported value must respect: the API's field caps and the file limits.
//!
//! The field bounds are the domain's (`wort_domain::recipe::rules`), re-exported under the names
//! the importers use; the file limits are this crate's own.

/// Largest file accepted.
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// Most recipes in one file.
pub const MAX_RECIPES: usize = 100;
/// Deepest element nesting accepted. BeerXML needs 5 levels (RECIPES/RECIPE/HOPS/HOP/NAME);
/// extensions add a few; anything far deeper is an attack on the parser, not a recipe.
pub const MAX_XML_DEPTH: usize = 32;
/// Most elements in one XML document: a 5 MiB file of real BeerXML holds about this many; the
/// cap keeps a file of empty elements from costing more memory than a real one.
pub const MAX_XML_ELEMENTS: usize = 200_000;
/// Most warnings one import reports. A file can give a warning for nearly every value it holds
/// (a few hundred thousand); the answer to it stays small, and when more were found the last
/// warning says how many more there were, counted within this cap.
pub const MAX_WARNINGS: usize = 100;
/// Longest message of a warning or violation, in characters (cut with an ellipsis).
pub const MESSAGE_MAX_CHARS: usize = 500;
/// Longest piece of the file's own text (a word, a unit, an encoding's label) quoted in a
/// message, in characters (cut with an ellipsis).
pub const QUOTE_MAX_CHARS: usize = 80;

// The field caps (docs/api-rules.md), as the domain writes them once
// (`wort_domain::recipe::rules`).
use wort_domain::recipe::rules;

pub const NAME_MAX: usize = rules::NAME.max;
pub const SHORT_TEXT_MAX: usize = rules::SHORT_TEXT.max;
pub const NOTES_MAX: usize = rules::NOTES.max;

/// A numeric range; `exclusive_min` for "greater than" bounds such as a batch size.
pub type Bound = wort_domain::rules::NumberRule;

pub const BATCH_SIZE_LITERS: Bound = rules::BATCH_SIZE_LITERS;
pub const BOIL_TIME_MINUTES: Bound = rules::BOIL_TIME_MINUTES;
pub const EFFICIENCY: Bound = rules::EFFICIENCY;
pub const AMOUNT_KG: Bound = rules::AMOUNT_KG;
pub const AMOUNT_GRAMS: Bound = rules::AMOUNT_GRAMS;
pub const AMOUNT: Bound = rules::AMOUNT;
pub const PERCENT: Bound = rules::PERCENT;
pub const COLOR_SRM: Bound = rules::COLOR_SRM;
pub const TIME_MINUTES: Bound = rules::TIME_MINUTES;
pub const TEMPERATURE_C: Bound = rules::TEMPERATURE_C;
pub const HOP_STAND_TEMPERATURE_C: Bound = rules::HOP_STAND_TEMPERATURE_C;
pub const INFUSE_TEMPERATURE_C: Bound = rules::INFUSE_TEMPERATURE_C;
pub const MASH_MINUTES: Bound = rules::MASH_MINUTES;
pub const FERMENTATION_DAYS: Bound = rules::FERMENTATION_DAYS;
pub const UNTIL_GRAVITY: Bound = rules::UNTIL_GRAVITY;
pub const LITERS: Bound = rules::INFUSE_AMOUNT_LITERS;
pub const WATER_AMOUNT: Bound = rules::WATER_AMOUNT;
pub const ACID_STRENGTH_PERCENT: Bound = rules::ACID_STRENGTH_PERCENT;
