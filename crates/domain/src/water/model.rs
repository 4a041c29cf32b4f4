//! Water profiles, the water report and the calibration.

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::brewing::water::{AcidNeeded, Ions};

/// What a water profile describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum WaterProfileKind {
    /// A real water: a brewing city's, distilled/RO, your tap water (a recipe's source water).
    #[default]
    Water,
    /// A target for a kind of beer ("Pale and hoppy", "Malty" …): what to build the water
    /// towards with additions (a recipe's target water).
    Target,
}

impl WaterProfileKind {
    pub const ALL: &[Self] = &[Self::Water, Self::Target];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Water => "water",
            Self::Target => "target",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.as_str() == s)
    }

    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(Self::as_str).collect()
    }
}

/// A water's ions (mg/L) and pH: a built-in (`builtin`, read-only, `source` names where its
/// figures come from: a classic city water, or a target by beer) or one of the account's own.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WaterProfile {
    pub id: Uuid,
    /// True for the profiles shipped with wort (read-only).
    pub builtin: bool,
    /// `target`: a target for a kind of beer; `water`: a water to brew with (a city's, RO,
    /// your own).
    pub kind: WaterProfileKind,
    pub name: String,
    pub calcium: f64,
    pub magnesium: f64,
    pub sodium: f64,
    pub sulfate: f64,
    pub chloride: f64,
    pub bicarbonate: f64,
    /// null: not known (7.0 is assumed).
    pub ph: Option<f64>,
    /// Where the figures come from.
    pub source: Option<String>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

impl WaterProfile {
    pub fn ions(&self) -> Ions {
        Ions {
            calcium: self.calcium,
            magnesium: self.magnesium,
            sodium: self.sodium,
            sulfate: self.sulfate,
            chloride: self.chloride,
            bicarbonate: self.bicarbonate,
        }
    }
}

/// A validated profile of the account's (create, or the result of a patch).
#[derive(Debug, Clone, PartialEq)]
pub struct WaterProfileInput {
    pub kind: WaterProfileKind,
    pub name: String,
    pub calcium: f64,
    pub magnesium: f64,
    pub sodium: f64,
    pub sulfate: f64,
    pub chloride: f64,
    pub bicarbonate: f64,
    pub ph: Option<f64>,
    pub source: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct WaterProfilePatch {
    pub kind: Option<WaterProfileKind>,
    pub name: Option<String>,
    pub calcium: Option<f64>,
    pub magnesium: Option<f64>,
    pub sodium: Option<f64>,
    pub sulfate: Option<f64>,
    pub chloride: Option<f64>,
    pub bicarbonate: Option<f64>,
    pub ph: Option<Option<f64>>,
    pub source: Option<Option<String>>,
}

impl WaterProfilePatch {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    pub fn applied_to(&self, p: &WaterProfile) -> WaterProfileInput {
        WaterProfileInput {
            kind: self.kind.unwrap_or(p.kind),
            name: self.name.clone().unwrap_or_else(|| p.name.clone()),
            calcium: self.calcium.unwrap_or(p.calcium),
            magnesium: self.magnesium.unwrap_or(p.magnesium),
            sodium: self.sodium.unwrap_or(p.sodium),
            sulfate: self.sulfate.unwrap_or(p.sulfate),
            chloride: self.chloride.unwrap_or(p.chloride),
            bicarbonate: self.bicarbonate.unwrap_or(p.bicarbonate),
            ph: self.ph.unwrap_or(p.ph),
            source: self.source.clone().unwrap_or_else(|| p.source.clone()),
        }
    }
}

/// One water (mash or overall) after its additions.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WaterSummary {
    /// Litres of this water.
    pub liters: f64,
    pub ions: Ions,
    /// Kolbach's residual alkalinity, ppm as CaCO3.
    pub residual_alkalinity: f64,
    /// Sulfate to chloride by mass; null without chloride.
    pub sulfate_to_chloride: Option<f64>,
}

/// The mash pH the model predicts, and the account's correction.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MashPh {
    /// The model's name and source.
    pub model: &'static str,
    /// pH at room temperature (25 °C) as the model predicts it; null without mashed grain.
    pub predicted: Option<f64>,
    /// The account's mean error (measured − predicted) once it has at least 3 measured brews;
    /// null before.
    pub correction: Option<f64>,
    /// `predicted + correction` (or `predicted` while there is no correction).
    pub corrected: Option<f64>,
    /// How many measured brews the correction rests on.
    pub calibration_pairs: usize,
}

/// `GET /v1/recipes/{id}/water`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WaterReport {
    pub recipe_id: Uuid,
    /// The source water; null: none named (distilled water is assumed).
    pub water_profile: Option<WaterProfile>,
    /// The target; null: none named.
    pub target_water_profile: Option<WaterProfile>,
    /// The strike water with the mash additions.
    pub mash: WaterSummary,
    /// All the water (strike and sparge) with every addition.
    pub overall: WaterSummary,
    /// Sparge litres.
    pub sparge_liters: f64,
    /// Where the volumes come from: `equipment` (the recipe's profile) or `batch_size`.
    pub volumes_from: &'static str,
    pub mash_ph: MashPh,
    /// What moves the mash to the target pH; null without mashed grain.
    pub acid_needed: Option<AcidNeeded>,
}

/// A brew with both a predicted and a measured mash pH.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CalibrationPair {
    pub session_id: Uuid,
    pub name: String,
    pub brew_date: String,
    pub predicted: f64,
    pub measured: f64,
}

/// `GET /v1/me/water-calibration`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WaterCalibration {
    pub pairs: Vec<CalibrationPair>,
    /// Mean of measured − predicted; null without pairs.
    pub mean_error: Option<f64>,
    /// What is added to every prediction: the mean error once there are at least
    /// `min_pairs` pairs, else null.
    pub correction: Option<f64>,
    pub min_pairs: usize,
}
