//! The recipe aggregate root.

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::ingredients::{Fermentable, Hop, MashStep, Misc, Yeast};

/// Brewing method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecipeType {
    AllGrain,
    Extract,
    PartialMash,
}

impl RecipeType {
    pub const ALL: &[Self] = &[Self::AllGrain, Self::Extract, Self::PartialMash];

    pub fn as_str(&self) -> &'static str {
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

/// Create defaults (CONTRACT §3).
pub const DEFAULT_BATCH_SIZE_LITERS: f64 = 20.0;
pub const DEFAULT_BOIL_TIME_MINUTES: f64 = 60.0;
pub const DEFAULT_EFFICIENCY: f64 = 0.72;

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Recipe {
    pub id: Uuid,
    #[schema(format = Uuid)]
    pub user_id: String,
    pub name: String,
    pub style: String,
    #[serde(rename = "type")]
    pub kind: RecipeType,
    pub batch_size_liters: f64,
    pub boil_time_minutes: f64,
    pub efficiency: f64,
    pub notes: Option<String>,
    /// Morey SRM of the current fermentables, computed on every read (never stored).
    pub est_color_srm: f64,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: OffsetDateTime,
}

/// A recipe with all its children, each list in display order.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct RecipeDetail {
    #[serde(flatten)]
    pub recipe: Recipe,
    pub fermentables: Vec<Fermentable>,
    pub hops: Vec<Hop>,
    pub yeasts: Vec<Yeast>,
    pub miscs: Vec<Misc>,
    pub mash_steps: Vec<MashStep>,
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

/// The five kinds of recipe children. Each is created under its recipe
/// (`POST /v1/recipes/{id}/<path>`) and read, updated and deleted by its own id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChildKind {
    Fermentable,
    Hop,
    Yeast,
    Misc,
    MashStep,
}

impl ChildKind {
    pub const ALL: [ChildKind; 5] = [
        Self::Fermentable,
        Self::Hop,
        Self::Yeast,
        Self::Misc,
        Self::MashStep,
    ];

    /// The path segment and the recipe's array name of this kind (`mash-steps` / `mash_steps`).
    pub fn path(&self) -> &'static str {
        match self {
            Self::Fermentable => "fermentables",
            Self::Hop => "hops",
            Self::Yeast => "yeasts",
            Self::Misc => "miscs",
            Self::MashStep => "mash-steps",
        }
    }

    pub fn array_name(&self) -> &'static str {
        match self {
            Self::MashStep => "mash_steps",
            other => other.path(),
        }
    }
}

/// A recipe holds at most this many children of each kind.
pub const MAX_CHILDREN_PER_KIND: i64 = 200;

/// Any one recipe child.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Child {
    Fermentable(Fermentable),
    Hop(Hop),
    Yeast(Yeast),
    Misc(Misc),
    MashStep(MashStep),
}

/// A validated create request for any kind of child.
#[derive(Debug, Clone, PartialEq)]
pub enum NewChild {
    Fermentable(crate::ingredients::NewFermentable),
    Hop(crate::ingredients::NewHop),
    Yeast(crate::ingredients::NewYeast),
    Misc(crate::ingredients::NewMisc),
    MashStep(crate::ingredients::NewMashStep),
}

/// A validated partial update for any kind of child.
#[derive(Debug, Clone, PartialEq)]
pub enum ChildPatch {
    Fermentable(crate::ingredients::FermentablePatch),
    Hop(crate::ingredients::HopPatch),
    Yeast(crate::ingredients::YeastPatch),
    Misc(crate::ingredients::MiscPatch),
    MashStep(crate::ingredients::MashStepPatch),
}

impl ChildPatch {
    pub fn kind(&self) -> ChildKind {
        match self {
            Self::Fermentable(_) => ChildKind::Fermentable,
            Self::Hop(_) => ChildKind::Hop,
            Self::Yeast(_) => ChildKind::Yeast,
            Self::Misc(_) => ChildKind::Misc,
            Self::MashStep(_) => ChildKind::MashStep,
        }
    }
}

impl NewChild {
    pub fn kind(&self) -> ChildKind {
        match self {
            Self::Fermentable(_) => ChildKind::Fermentable,
            Self::Hop(_) => ChildKind::Hop,
            Self::Yeast(_) => ChildKind::Yeast,
            Self::Misc(_) => ChildKind::Misc,
            Self::MashStep(_) => ChildKind::MashStep,
        }
    }
}

impl RecipeDetail {
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
