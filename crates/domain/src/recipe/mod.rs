//! The recipe aggregate: a recipe and its children (the ingredients, mash and fermentation steps
//! and water additions it lists).
//!
//! "RecipeChild" is the one word for the five lists a recipe holds (fermentables, hops, yeasts,
//! miscs and mash steps; docs/api-rules.md calls them the recipe's children). Adding a sixth kind
//! means one more variant of [`RecipeChildKind`] and its entry in each layer's table.
//!
//! * [`model`]: the recipe and the ingredient enums. [`children`]: each kind of recipe child's fields.
//! * [`checks`]: what a careful brewer would point out about a recipe (advice, never refused).
//! * [`rules`]: bounds, defaults and limits. [`ports`]: storage. [`service`]: the use cases.

pub mod checks;
pub mod children;
pub mod history;
pub mod model;
pub mod ports;
pub mod rules;
pub mod service;
pub mod share;

pub use model::*;
pub use rules::*;
pub use service::{RecipeForExport, RecipeService, RecipeStores, SharedRecipe, VersionDetail};
