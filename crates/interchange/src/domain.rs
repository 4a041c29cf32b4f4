//! Every domain type this crate uses, imported in this one place: when the domain's modules move,
//! only these lines change.

pub use wort_domain::brewing::agreement::{
    FileEstimates, RecipeTraits, colour_agrees, disagreements,
};
pub use wort_domain::brewing::colour::{MaltColour, SRM_PER_EBC, est_color_srm_of_malts};
pub use wort_domain::brewing::styles::Range;
pub use wort_domain::brewing::{
    BrewingContext, RecipeStats, Style, Volumes, compute_stats, compute_stats_with, style,
};
pub use wort_domain::equipment::rules::{
    self as equipment_rules, DEFAULT_HOP_UTILIZATION_PERCENT, check_profile,
};
pub use wort_domain::equipment::{Equipment, EquipmentProfile};
pub use wort_domain::error::Violation;
pub use wort_domain::recipe::{
    DEFAULT_BATCH_SIZE_LITERS, DEFAULT_BOIL_TIME_MINUTES, DEFAULT_EFFICIENCY,
    MAX_INGREDIENTS_PER_KIND, NewImport, NewRecipe, NewRecipeWithIngredients, Recipe, RecipeDetail,
    RecipeForExport, RecipeType,
};
pub use wort_domain::recipe_children::{
    DEFAULT_MISC_AMOUNT_UNIT, DEFAULT_MISC_TIME_MINUTES, Fermentable, FermentableAddition,
    FermentableType, FermentationStep, Hop, HopForm, HopUse, MashStep, MashStepType, Misc,
    MiscType, MiscUse, NewFermentable, NewFermentationStep, NewHop, NewMashStep, NewMisc,
    NewWaterAddition, NewYeast, WaterAddition, WaterAgent, WaterStep, Yeast, YeastForm, YeastType,
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
            water_additions: imported.water_additions,
            fermentation_steps: imported.fermentation_steps,
        }
    }
}

impl crate::Import {
    /// What is stored of a whole file: its equipment profiles and its recipes, each linked to
    /// its profile; and the report's warnings.
    pub fn into_new_import(self) -> (NewImport, Vec<crate::Warning>) {
        let recipe_equipment = self.recipes.iter().map(|r| r.equipment).collect();
        let import = NewImport {
            equipment: self.equipment,
            recipes: self.recipes.into_iter().map(Into::into).collect(),
            recipe_equipment,
        };
        (import, self.warnings)
    }
}
