//! The tools' inputs (metric, SG) and answers. Every answer repeats its inputs under `inputs`.

use serde::Serialize;
use time::Date;

/// A priming sugar, by how much of its weight ferments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Sugar {
    /// Sucrose: all of it ferments.
    Table,
    /// Dextrose monohydrate: 91 % glucose, 9 % water.
    Corn,
    /// Dry malt extract: about 95 % solids of which about 72 % ferments.
    Dme,
    /// Honey: about 82 % sugars, about 95 % of them fermentable.
    Honey,
}

impl Sugar {
    pub const ALL: [Sugar; 4] = [Sugar::Table, Sugar::Corn, Sugar::Dme, Sugar::Honey];

    pub fn as_str(self) -> &'static str {
        match self {
            Sugar::Table => "table",
            Sugar::Corn => "corn",
            Sugar::Dme => "dme",
            Sugar::Honey => "honey",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// The share of its weight that ferments to alcohol and CO₂.
    pub fn fermentable_fraction(self) -> f64 {
        match self {
            Sugar::Table => 1.0,
            Sugar::Corn => 0.91,
            Sugar::Dme => 0.68,
            Sugar::Honey => 0.78,
        }
    }
}

/// Ale or lager: lagers are pitched at twice the ale rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BeerKind {
    Ale,
    Lager,
}

impl BeerKind {
    pub const ALL: [BeerKind; 2] = [BeerKind::Ale, BeerKind::Lager];

    pub fn as_str(self) -> &'static str {
        match self {
            BeerKind::Ale => "ale",
            BeerKind::Lager => "lager",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PrimingInputs {
    pub volume_liters: f64,
    /// The beer's warmest temperature since fermentation ended.
    pub temperature_c: f64,
    /// The carbonation wanted, in volumes of CO₂.
    pub co2_volumes: f64,
    pub sugar: Sugar,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Priming {
    pub inputs: PrimingInputs,
    /// Volumes of CO₂ the beer already holds at its temperature (2 decimals).
    pub residual_co2_volumes: f64,
    /// Volumes the sugar must add: the target less the residual, never negative (2 decimals).
    pub co2_to_add_volumes: f64,
    /// Grams of the sugar for the whole volume (1 decimal); 0 when the beer already holds the
    /// target.
    pub sugar_grams: f64,
    /// Grams per litre, for bottle-by-bottle priming (2 decimals).
    pub sugar_grams_per_liter: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KegPressureInputs {
    /// The beer's temperature in the keg.
    pub temperature_c: f64,
    pub co2_volumes: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KegPressure {
    pub inputs: KegPressureInputs,
    /// Regulator (gauge) pressure in kPa (1 decimal); 0 when the beer holds that much CO₂ at
    /// that temperature without pressure.
    pub pressure_kpa: f64,
    /// The same in psi (1 decimal).
    pub pressure_psi: f64,
}

/// How a fermenting beer's refractometer reading becomes a gravity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RefractometerMethod {
    /// Sean Terrill's cubic (2011).
    #[default]
    Terrill,
    /// Petr Novotný's quadratic (2017).
    Novotny,
}

impl RefractometerMethod {
    pub const ALL: [RefractometerMethod; 2] =
        [RefractometerMethod::Terrill, RefractometerMethod::Novotny];

    pub fn as_str(self) -> &'static str {
        match self {
            RefractometerMethod::Terrill => "terrill",
            RefractometerMethod::Novotny => "novotny",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RefractometerInputs {
    /// The wort's reading before fermentation, °Brix.
    pub original_brix: f64,
    /// The reading now, °Brix (alcohol makes it read high; the cubic accounts for it).
    pub current_brix: f64,
    /// Wort reads this many times its true Brix on a sucrose-calibrated refractometer
    /// (typically 1.02–1.06; 1.04 is common).
    pub wort_correction_factor: f64,
    /// The correction for alcohol: `terrill` (default) or `novotny`.
    pub method: RefractometerMethod,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Refractometer {
    pub inputs: RefractometerInputs,
    /// SG (4 decimals).
    pub original_gravity: f64,
    /// SG now, by the method's correction for alcohol (4 decimals).
    pub current_gravity: f64,
    /// (OG − SG) × 131.25, never below 0 (2 decimals).
    pub abv_percent: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HydrometerInputs {
    /// The reading, SG.
    pub gravity: f64,
    pub sample_temperature_c: f64,
    /// The temperature the hydrometer is calibrated at (often 15.56 °C / 60 °F or 20 °C).
    pub calibration_temperature_c: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HydrometerCorrection {
    pub inputs: HydrometerInputs,
    /// SG at the calibration temperature (4 decimals).
    pub corrected_gravity: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DilutionInputs {
    pub volume_liters: f64,
    /// SG now.
    pub gravity: f64,
    /// SG wanted: above 1 and below `gravity`.
    pub target_gravity: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Dilution {
    pub inputs: DilutionInputs,
    /// Litres of water to add (2 decimals).
    pub water_liters: f64,
    /// The volume after adding it (2 decimals).
    pub final_volume_liters: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PitchRateInputs {
    pub volume_liters: f64,
    pub og: f64,
    pub kind: BeerKind,
    /// Cells in a fresh pack or vial, in billions (100 for most liquid yeast).
    pub cells_per_pack_billion: f64,
    /// Share of those cells alive now, as given; null when it follows from `production_date`.
    pub viability_percent: Option<f64>,
    /// When the pack was made; its viability then follows from its age at `as_of`.
    #[serde(serialize_with = "crate::timestamp::serialize_opt_date")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = Date))]
    pub production_date: Option<Date>,
    /// The day the yeast is pitched (today unless given).
    #[serde(serialize_with = "crate::timestamp::serialize_date")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = Date))]
    pub as_of: Date,
}

/// One step of a stir-plate starter, decanted before the next.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StarterStepAnswer {
    /// Litres of starter wort (2 decimals).
    pub liters: f64,
    /// Its gravity: 1.036.
    pub gravity: f64,
    /// Grams of extract in it (°P × SG × 10 per litre; dry malt extract weighs about 5 % more).
    pub extract_grams: f64,
    /// Billion cells pitched into it (1 decimal).
    pub cells_before_billion: f64,
    /// Billion cells it grows to (1 decimal).
    pub cells_after_billion: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PitchRate {
    pub inputs: PitchRateInputs,
    /// Million cells per mL per °Plato: 0.75 for an ale, 1.5 for a lager.
    pub rate_million_per_ml_per_plato: f64,
    /// The wort's extract, °Plato (1 decimal).
    pub plato: f64,
    /// Billion cells to pitch (1 decimal).
    pub cells_needed_billion: f64,
    /// The pack's viability used (%, 1 decimal): as given, or from its age (Brewer's Friend's
    /// linear model: 100 − 0.7 × days since production, never below 0).
    pub viability_percent: f64,
    /// Days from `production_date` to `as_of`; null when the viability was given.
    pub age_days: Option<i64>,
    /// Billion living cells in one pack (1 decimal).
    pub viable_cells_per_pack_billion: f64,
    /// Packs to pitch without a starter (whole packs, rounded up).
    pub packs: u32,
    /// Litres of 1.036 starter wort, all steps together, that grow one pack to the count on a
    /// stir plate (2 decimals); `null` when one pack is enough.
    pub starter_liters: Option<f64>,
    /// The starter wort's gravity the litres assume: 1.036.
    pub starter_gravity: f64,
    /// The starter's steps: one when it fits a 4 L step, else 4 L steps, at most three (the
    /// last holds the rest). Empty when one pack is enough.
    pub starter_steps: Vec<StarterStepAnswer>,
}
