//! Every domain type this crate uses, imported in this one place: when the domain's modules move,
//! only these lines change.

pub use wort_domain::brewing::agreement::{FileEstimates, RecipeTraits, disagreements};
pub use wort_domain::brewing::styles::Range;
pub use wort_domain::brewing::{
    BrewingContext, RecipeStats, Style, Volumes, compute_stats, compute_stats_with, style,
};
pub use wort_domain::equipment::Equipment;
pub use wort_domain::error::Violation;
pub use wort_domain::ingredients::{
    DEFAULT_MISC_AMOUNT_UNIT, DEFAULT_MISC_TIME_MINUTES, Fermentable, FermentableType,
    FermentationStep, Hop, HopForm, HopUse, MashStep, MashStepType, Misc, MiscType, MiscUse,
    NewFermentable, NewFermentationStep, NewHop, NewMashStep, NewMisc, NewYeast, Yeast, YeastForm,
    YeastType,
};
pub use wort_domain::recipe::{
    DEFAULT_BATCH_SIZE_LITERS, DEFAULT_BOIL_TIME_MINUTES, DEFAULT_EFFICIENCY,
    MAX_INGREDIENTS_PER_KIND, NewRecipe, NewRecipeWithIngredients, Recipe, RecipeDetail,
    RecipeForExport, RecipeType,
};

impl From<crate::ImportedRecipe> for NewRecipeWithIngredients {
    /// What is stored of an imported recipe (the exporting program's estimates are not).
    fn from(imported: crate::ImportedRecipe) -> Self {
        NewRecipeWithIngredients {
            recipe: imported.recipe,
            fermentables: imported.fermentables,
            hops: imported.hops,
            yeasts: imported.yeasts,
            miscs: imported.miscs,
            mash_steps: imported.mash_steps,
            // Files carry water agents as miscs; wort's water additions are not read back.
            water_additions: vec![],
            fermentation_steps: imported.fermentation_steps,
        }
    }
}
