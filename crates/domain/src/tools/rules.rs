//! The tools' input bounds, written once: the HTTP reader checks with them and the OpenAPI
//! document shows them ([`TOOL_PARAMETERS`]). A value outside them is physically impossible or
//! outside what its formula was fitted on, and is a `422` naming the parameter; a parameter
//! missing, not a number or not one of an enum's values is a `400`, like every malformed query.

use crate::rules::{FieldRules, NumberRule, Rule, caps};

/// Any batch the service keeps a recipe for: more than 0, at most 100,000 L.
pub const VOLUME_LITERS: NumberRule = caps::BATCH_SIZE_LITERS;
/// Beer temperatures for carbonation: liquid beer, within the range the carbonation fits were
/// made on (0–35 °C).
pub const BEER_TEMPERATURE_C: NumberRule = NumberRule::range(0.0, 35.0);
/// Volumes of CO₂: 0 (flat) to 6 (more than any bottle is made for).
pub const CO2_VOLUMES: NumberRule = NumberRule::range(0.0, 6.0);
/// A wort's refractometer reading: more than 0, at most 40 °Brix (about 1.18).
pub const ORIGINAL_BRIX: NumberRule = NumberRule::above(0.0, 40.0);
/// A fermenting beer's refractometer reading: 0–40 °Brix, and never above the original.
pub const CURRENT_BRIX: NumberRule = NumberRule::range(0.0, 40.0);
/// Wort correction factors: published ones run from about 1.00 to 1.10.
pub const WORT_CORRECTION_FACTOR: NumberRule = NumberRule::range(0.8, 1.2);
/// A hydrometer reading: the measured gravities' bounds (0.9–1.2).
pub const GRAVITY: NumberRule = caps::GRAVITY;
/// A wort's gravity for dilution or pitching: above water's, at most 1.2.
pub const WORT_GRAVITY: NumberRule = NumberRule::above(1.0, 1.2);
/// A sample's temperature: from freezing to boiling.
pub const SAMPLE_TEMPERATURE_C: NumberRule = NumberRule::range(0.0, 100.0);
/// Hydrometers are calibrated at room or cellar temperature (15–20 °C); 0–40 °C covers all.
pub const CALIBRATION_TEMPERATURE_C: NumberRule = NumberRule::range(0.0, 40.0);
/// Cells in a pack, in billions: more than 0, at most 2,000.
pub const CELLS_PER_PACK_BILLION: NumberRule = NumberRule::above(0.0, 2000.0);
/// Living cells as a share of the pack: more than 0, at most 100 %.
pub const VIABILITY_PERCENT: NumberRule = NumberRule::above(0.0, 100.0);

pub const PRIMING: FieldRules = &[
    ("volume_liters", Rule::Number(VOLUME_LITERS)),
    ("temperature_c", Rule::Number(BEER_TEMPERATURE_C)),
    ("co2_volumes", Rule::Number(CO2_VOLUMES)),
];
pub const KEG_PRESSURE: FieldRules = &[
    ("temperature_c", Rule::Number(BEER_TEMPERATURE_C)),
    ("co2_volumes", Rule::Number(CO2_VOLUMES)),
];
pub const REFRACTOMETER: FieldRules = &[
    ("original_brix", Rule::Number(ORIGINAL_BRIX)),
    ("current_brix", Rule::Number(CURRENT_BRIX)),
    (
        "wort_correction_factor",
        Rule::Number(WORT_CORRECTION_FACTOR),
    ),
];
pub const HYDROMETER_CORRECTION: FieldRules = &[
    ("gravity", Rule::Number(GRAVITY)),
    ("sample_temperature_c", Rule::Number(SAMPLE_TEMPERATURE_C)),
    (
        "calibration_temperature_c",
        Rule::Number(CALIBRATION_TEMPERATURE_C),
    ),
];
pub const DILUTION: FieldRules = &[
    ("volume_liters", Rule::Number(VOLUME_LITERS)),
    ("gravity", Rule::Number(WORT_GRAVITY)),
    ("target_gravity", Rule::Number(WORT_GRAVITY)),
];
pub const PITCH_RATE: FieldRules = &[
    ("volume_liters", Rule::Number(VOLUME_LITERS)),
    ("og", Rule::Number(WORT_GRAVITY)),
    (
        "cells_per_pack_billion",
        Rule::Number(CELLS_PER_PACK_BILLION),
    ),
    ("viability_percent", Rule::Number(VIABILITY_PERCENT)),
];

/// Each tool's name (its path segment) and the bounds of its numeric query parameters.
pub const TOOL_PARAMETERS: &[(&str, FieldRules)] = &[
    ("priming", PRIMING),
    ("keg-pressure", KEG_PRESSURE),
    ("refractometer", REFRACTOMETER),
    ("hydrometer-correction", HYDROMETER_CORRECTION),
    ("dilution", DILUTION),
    ("pitch-rate", PITCH_RATE),
];
