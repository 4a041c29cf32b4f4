//! The recipe aggregate root.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::recipe_children::{
    Fermentable, FermentationStep, Hop, MashStep, Misc, WaterAddition, Yeast,
};

/// Brewing method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RecipeType {
    AllGrain,
    Extract,
    PartialMash,
}

impl RecipeType {
    pub const ALL: &[Self] = &[Self::AllGrain, Self::Extract, Self::PartialMash];

    /// `const` so that a body's table can show [`DEFAULT_TYPE`](super::DEFAULT_TYPE) by name.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::AllGrain => "all_grain",
            Self::Extract => "extract",
            Self::PartialMash => "partial_mash",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Recipe {
    pub id: Uuid,
    #[cfg_attr(feature = "openapi", schema(format = Uuid))]
    pub user_id: String,
    pub name: String,
    pub style: String,
    #[serde(rename = "type")]
    pub kind: RecipeType,
    pub batch_size_liters: f64,
    pub boil_time_minutes: f64,
    pub efficiency: f64,
    pub notes: Option<String>,
    /// The account's equipment profile this recipe is brewed on; null: none.
    pub equipment_id: Option<Uuid>,
    /// A BJCP 2021 style id (`GET /v1/styles`), beside the free-text `style`; null: none.
    pub style_id: Option<String>,
    /// The source water (`GET /v1/water-profiles`: a built-in or the account's); null: none.
    pub water_profile_id: Option<Uuid>,
    /// The water profile aimed at; null: none.
    pub target_water_profile_id: Option<Uuid>,
    /// The recipe of the account this one was copied or scaled from; null: none, or deleted.
    #[serde(default)]
    pub parent_recipe_id: Option<Uuid>,
    /// The version of the parent it was made from.
    #[serde(default)]
    pub parent_version: Option<i32>,
    /// The shared link it was copied from ("Copy to my recipes"); null: none.
    #[serde(default)]
    pub source_url: Option<String>,
    /// Morey SRM of the current fermentables, computed on every read (never stored).
    pub est_color_srm: f64,
    #[serde(
        serialize_with = "crate::timestamp::serialize",
        deserialize_with = "crate::timestamp::deserialize"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(
        serialize_with = "crate::timestamp::serialize",
        deserialize_with = "crate::timestamp::deserialize"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// A recipe with all its children, each list in display order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecipeDetail {
    #[serde(flatten)]
    pub recipe: Recipe,
    pub fermentables: Vec<Fermentable>,
    pub hops: Vec<Hop>,
    pub yeasts: Vec<Yeast>,
    pub miscs: Vec<Misc>,
    pub mash_steps: Vec<MashStep>,
    pub water_additions: Vec<WaterAddition>,
    /// The fermentation plan: temperature rests by days or until a gravity, in order.
    pub fermentation_steps: Vec<FermentationStep>,
}

/// A validated create request with the defaults applied.
#[derive(Debug, Clone, PartialEq)]
pub struct NewRecipe {
    pub name: String,
    pub style: String,
    pub kind: RecipeType,
    pub batch_size_liters: f64,
    pub boil_time_minutes: f64,
    pub efficiency: f64,
    pub notes: Option<String>,
    pub equipment_id: Option<Uuid>,
    pub style_id: Option<String>,
    pub water_profile_id: Option<Uuid>,
    pub target_water_profile_id: Option<Uuid>,
    /// Where it comes from: set by copies, scaled copies and copies of a shared recipe, never by
    /// a request body.
    pub lineage: Lineage,
}

/// A new recipe's origin.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lineage {
    /// The account's recipe it is made from; its current version is closed and recorded.
    pub parent_recipe_id: Option<Uuid>,
    /// The shared link it was copied from.
    pub source_url: Option<String>,
}

/// A recipe to create together with all its ingredients (an imported file holds these), each
/// list in display order; a missing `sort_order` appends, as it does for one ingredient.
#[derive(Debug, Clone, PartialEq)]
pub struct NewRecipeWithIngredients {
    pub recipe: NewRecipe,
    pub fermentables: Vec<crate::recipe_children::NewFermentable>,
    pub hops: Vec<crate::recipe_children::NewHop>,
    pub yeasts: Vec<crate::recipe_children::NewYeast>,
    pub miscs: Vec<crate::recipe_children::NewMisc>,
    pub mash_steps: Vec<crate::recipe_children::NewMashStep>,
    pub water_additions: Vec<crate::recipe_children::NewWaterAddition>,
    pub fermentation_steps: Vec<crate::recipe_children::NewFermentationStep>,
}

impl NewRecipeWithIngredients {
    /// How many ingredients of each kind it holds.
    pub fn counts(&self) -> [(RecipeChildKind, usize); 7] {
        [
            (RecipeChildKind::Fermentable, self.fermentables.len()),
            (RecipeChildKind::Hop, self.hops.len()),
            (RecipeChildKind::Yeast, self.yeasts.len()),
            (RecipeChildKind::Misc, self.miscs.len()),
            (RecipeChildKind::MashStep, self.mash_steps.len()),
            (RecipeChildKind::WaterAddition, self.water_additions.len()),
            (
                RecipeChildKind::FermentationStep,
                self.fermentation_steps.len(),
            ),
        ]
    }
}

/// A whole imported file: its recipes and the equipment profiles it carries, to be created in
/// one transaction. A profile identical to one the account already has (every field equal,
/// [`crate::equipment::EquipmentProfile`]'s `==`) is reused, not duplicated; so is a profile
/// the file repeats.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewImport {
    pub equipment: Vec<crate::equipment::EquipmentProfile>,
    pub recipes: Vec<NewRecipeWithIngredients>,
    /// One entry per recipe: the index in `equipment` of the profile the recipe is brewed on,
    /// which becomes its `equipment_id` (and overrides any the recipe names).
    pub recipe_equipment: Vec<Option<usize>>,
}

/// A validated partial update: `None` leaves a field alone; `notes: Some(None)` clears it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecipePatch {
    pub name: Option<String>,
    pub style: Option<String>,
    pub kind: Option<RecipeType>,
    pub batch_size_liters: Option<f64>,
    pub boil_time_minutes: Option<f64>,
    pub efficiency: Option<f64>,
    pub notes: Option<Option<String>>,
    pub equipment_id: Option<Option<Uuid>>,
    pub style_id: Option<Option<String>>,
    pub water_profile_id: Option<Option<Uuid>>,
    pub target_water_profile_id: Option<Option<Uuid>>,
}

impl RecipePatch {
    /// An empty patch changes nothing, `updated_at` included.
    pub fn is_empty(&self) -> bool {
        *self == RecipePatch::default()
    }
}

/// Sort orders of `GET /v1/recipes` (ties are broken by id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RecipeSort {
    Name,
    NameDesc,
    CreatedAt,
    CreatedAtDesc,
    UpdatedAt,
    #[default]
    UpdatedAtDesc,
}

impl RecipeSort {
    pub const NAMES: &[&str] = &[
        "name",
        "-name",
        "created_at",
        "-created_at",
        "updated_at",
        "-updated_at",
    ];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "name" => Self::Name,
            "-name" => Self::NameDesc,
            "created_at" => Self::CreatedAt,
            "-created_at" => Self::CreatedAtDesc,
            "updated_at" => Self::UpdatedAt,
            "-updated_at" => Self::UpdatedAtDesc,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecipeFilter {
    /// Case-insensitive literal substring of name or style.
    pub q: Option<String>,
    pub kind: Option<RecipeType>,
    pub sort: RecipeSort,
}

/// The seven kinds of recipe children (four of them ingredients). Each is created under its recipe
/// (`POST /v1/recipes/{id}/<path>`) and read, updated and deleted by its own id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RecipeChildKind {
    Fermentable,
    Hop,
    Yeast,
    Misc,
    MashStep,
    WaterAddition,
    FermentationStep,
}

impl RecipeChildKind {
    pub const ALL: [RecipeChildKind; 7] = [
        Self::Fermentable,
        Self::Hop,
        Self::Yeast,
        Self::Misc,
        Self::MashStep,
        Self::WaterAddition,
        Self::FermentationStep,
    ];

    /// The path segment and the recipe's array name of this kind (`mash-steps` / `mash_steps`).
    pub fn path(&self) -> &'static str {
        match self {
            Self::Fermentable => "fermentables",
            Self::Hop => "hops",
            Self::Yeast => "yeasts",
            Self::Misc => "miscs",
            Self::MashStep => "mash-steps",
            Self::WaterAddition => "water-additions",
            Self::FermentationStep => "fermentation-steps",
        }
    }

    /// One child's kind as JSON names it (`mash_step`).
    pub fn singular(&self) -> &'static str {
        match self {
            Self::Fermentable => "fermentable",
            Self::Hop => "hop",
            Self::Yeast => "yeast",
            Self::Misc => "misc",
            Self::MashStep => "mash_step",
            Self::WaterAddition => "water_addition",
            Self::FermentationStep => "fermentation_step",
        }
    }

    pub fn array_name(&self) -> &'static str {
        match self {
            Self::MashStep => "mash_steps",
            Self::WaterAddition => "water_additions",
            Self::FermentationStep => "fermentation_steps",
            other => other.path(),
        }
    }
}

/// Any one recipe child.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RecipeChild {
    Fermentable(Fermentable),
    Hop(Hop),
    Yeast(Yeast),
    Misc(Misc),
    MashStep(MashStep),
    WaterAddition(WaterAddition),
    FermentationStep(FermentationStep),
}

/// A validated create request for any kind of child.
#[derive(Debug, Clone, PartialEq)]
pub enum NewRecipeChild {
    Fermentable(crate::recipe_children::NewFermentable),
    Hop(crate::recipe_children::NewHop),
    Yeast(crate::recipe_children::NewYeast),
    Misc(crate::recipe_children::NewMisc),
    MashStep(crate::recipe_children::NewMashStep),
    WaterAddition(crate::recipe_children::NewWaterAddition),
    FermentationStep(crate::recipe_children::NewFermentationStep),
}

/// A validated partial update for any kind of child.
#[derive(Debug, Clone, PartialEq)]
pub enum RecipeChildPatch {
    Fermentable(crate::recipe_children::FermentablePatch),
    Hop(crate::recipe_children::HopPatch),
    Yeast(crate::recipe_children::YeastPatch),
    Misc(crate::recipe_children::MiscPatch),
    MashStep(crate::recipe_children::MashStepPatch),
    WaterAddition(crate::recipe_children::WaterAdditionPatch),
    FermentationStep(crate::recipe_children::FermentationStepPatch),
}

impl RecipeChild {
    /// The recipe it belongs to.
    pub fn recipe_id(&self) -> uuid::Uuid {
        match self {
            Self::Fermentable(c) => c.recipe_id,
            Self::Hop(c) => c.recipe_id,
            Self::Yeast(c) => c.recipe_id,
            Self::Misc(c) => c.recipe_id,
            Self::MashStep(c) => c.recipe_id,
            Self::WaterAddition(c) => c.recipe_id,
            Self::FermentationStep(c) => c.recipe_id,
        }
    }
}

impl RecipeChildPatch {
    /// Whether it changes nothing (every field absent).
    pub fn is_empty(&self) -> bool {
        match self {
            Self::Fermentable(p) => p.is_empty(),
            Self::Hop(p) => p.is_empty(),
            Self::Yeast(p) => p.is_empty(),
            Self::Misc(p) => p.is_empty(),
            Self::MashStep(p) => p.is_empty(),
            Self::WaterAddition(p) => p.is_empty(),
            Self::FermentationStep(p) => p.is_empty(),
        }
    }

    pub fn kind(&self) -> RecipeChildKind {
        match self {
            Self::Fermentable(_) => RecipeChildKind::Fermentable,
            Self::Hop(_) => RecipeChildKind::Hop,
            Self::Yeast(_) => RecipeChildKind::Yeast,
            Self::Misc(_) => RecipeChildKind::Misc,
            Self::MashStep(_) => RecipeChildKind::MashStep,
            Self::WaterAddition(_) => RecipeChildKind::WaterAddition,
            Self::FermentationStep(_) => RecipeChildKind::FermentationStep,
        }
    }
}

impl NewRecipeChild {
    pub fn kind(&self) -> RecipeChildKind {
        match self {
            Self::Fermentable(_) => RecipeChildKind::Fermentable,
            Self::Hop(_) => RecipeChildKind::Hop,
            Self::Yeast(_) => RecipeChildKind::Yeast,
            Self::Misc(_) => RecipeChildKind::Misc,
            Self::MashStep(_) => RecipeChildKind::MashStep,
            Self::WaterAddition(_) => RecipeChildKind::WaterAddition,
            Self::FermentationStep(_) => RecipeChildKind::FermentationStep,
        }
    }
}

impl RecipeDetail {
    /// Each hop's form, in hop order (the brewing context's `hop_forms`).
    pub fn hop_forms(&self) -> Vec<Option<crate::brewing::HopForm>> {
        self.hops.iter().map(|h| h.form).collect()
    }

    /// The inputs of the brewing calculator for this recipe as it is now.
    pub fn stats_input(&self) -> crate::brewing::StatsInput<'_> {
        crate::brewing::StatsInput {
            batch_size_liters: self.recipe.batch_size_liters,
            boil_time_minutes: self.recipe.boil_time_minutes,
            efficiency: self.recipe.efficiency,
            fermentables: &self.fermentables,
            hops: &self.hops,
            yeasts: &self.yeasts,
        }
    }
}
