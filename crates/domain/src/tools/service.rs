//! The tools themselves: check the inputs against [`super::rules`] (every failing parameter in
//! one `422`), then compute with the formulas of [`crate::brewing`] and round the answer.

use super::model::*;
use super::rules;
use crate::brewing::calories::plato;
use crate::brewing::carbonation::{
    KPA_PER_PSI, fahrenheit, keg_pressure_psi, priming_sugar_grams, residual_co2_volumes,
};
use crate::brewing::hydrometer::{corrected_gravity, diluted_volume};
use crate::brewing::pitching::{
    ALE_RATE, LAGER_RATE, STARTER_GRAVITY, cells_needed_billion, starter_extract_grams,
};
use crate::brewing::{refractometer, round_to};
use crate::error::Violation;
use crate::rules::{FieldRules, Rule};
use crate::{DomainError, DomainResult};

/// Every parameter of `values` checked against its bound in `table`.
fn check(table: FieldRules, values: &[(&str, f64)]) -> Vec<Violation> {
    values
        .iter()
        .filter_map(|(name, value)| {
            let rule = table.iter().find(|(n, _)| n == name)?.1;
            match rule {
                Rule::Number(rule) => rule.check(&[name], *value).err(),
                Rule::Text(_) => None,
            }
        })
        .collect()
}

fn ok_or_invalid(violations: Vec<Violation>) -> DomainResult<()> {
    if violations.is_empty() {
        Ok(())
    } else {
        Err(DomainError::Invalid(violations))
    }
}

/// Grams of priming sugar for bottle conditioning.
pub fn priming(inputs: PrimingInputs) -> DomainResult<Priming> {
    ok_or_invalid(check(
        rules::PRIMING,
        &[
            ("volume_liters", inputs.volume_liters),
            ("temperature_c", inputs.temperature_c),
            ("co2_volumes", inputs.co2_volumes),
        ],
    ))?;
    let residual = residual_co2_volumes(fahrenheit(inputs.temperature_c));
    let to_add = (inputs.co2_volumes - residual).max(0.0);
    let grams = priming_sugar_grams(
        inputs.volume_liters,
        to_add,
        inputs.sugar.fermentable_fraction(),
    );
    Ok(Priming {
        inputs,
        residual_co2_volumes: round_to(residual, 2),
        co2_to_add_volumes: round_to(to_add, 2),
        sugar_grams: round_to(grams, 1),
        sugar_grams_per_liter: round_to(grams / inputs.volume_liters, 2),
    })
}

/// The regulator pressure that carbonates a keg to a level at a temperature.
pub fn keg_pressure(inputs: KegPressureInputs) -> DomainResult<KegPressure> {
    ok_or_invalid(check(
        rules::KEG_PRESSURE,
        &[
            ("temperature_c", inputs.temperature_c),
            ("co2_volumes", inputs.co2_volumes),
        ],
    ))?;
    let psi = keg_pressure_psi(fahrenheit(inputs.temperature_c), inputs.co2_volumes).max(0.0);
    Ok(KegPressure {
        inputs,
        pressure_kpa: round_to(psi * KPA_PER_PSI, 1),
        pressure_psi: round_to(psi, 1),
    })
}

/// OG, gravity now and ABV from refractometer readings.
pub fn refractometer(inputs: RefractometerInputs) -> DomainResult<Refractometer> {
    let mut violations = check(
        rules::REFRACTOMETER,
        &[
            ("original_brix", inputs.original_brix),
            ("current_brix", inputs.current_brix),
            ("wort_correction_factor", inputs.wort_correction_factor),
        ],
    );
    if violations.is_empty() && inputs.current_brix > inputs.original_brix {
        // Fermentation only lowers the reading.
        violations.push(
            Violation::too_big_number(&["current_brix"], inputs.original_brix)
                .with("message", "Must not be above original_brix"),
        );
    }
    ok_or_invalid(violations)?;
    let og = refractometer::original_gravity(inputs.original_brix, inputs.wort_correction_factor);
    let sg = refractometer::current_gravity(
        inputs.original_brix,
        inputs.current_brix,
        inputs.wort_correction_factor,
    );
    Ok(Refractometer {
        inputs,
        original_gravity: round_to(og, 4),
        current_gravity: round_to(sg, 4),
        abv_percent: round_to(crate::brewing::gravity::abv(og, sg).max(0.0), 2),
    })
}

/// A hydrometer reading corrected to the hydrometer's calibration temperature.
pub fn hydrometer_correction(inputs: HydrometerInputs) -> DomainResult<HydrometerCorrection> {
    ok_or_invalid(check(
        rules::HYDROMETER_CORRECTION,
        &[
            ("gravity", inputs.gravity),
            ("sample_temperature_c", inputs.sample_temperature_c),
            (
                "calibration_temperature_c",
                inputs.calibration_temperature_c,
            ),
        ],
    ))?;
    let corrected = corrected_gravity(
        inputs.gravity,
        fahrenheit(inputs.sample_temperature_c),
        fahrenheit(inputs.calibration_temperature_c),
    );
    Ok(HydrometerCorrection {
        inputs,
        corrected_gravity: round_to(corrected, 4),
    })
}

/// Water to add to bring a wort down to a gravity.
pub fn dilution(inputs: DilutionInputs) -> DomainResult<Dilution> {
    let mut violations = check(
        rules::DILUTION,
        &[
            ("volume_liters", inputs.volume_liters),
            ("gravity", inputs.gravity),
            ("target_gravity", inputs.target_gravity),
        ],
    );
    if violations.is_empty() && inputs.target_gravity >= inputs.gravity {
        // Water only lowers a gravity; raising one takes sugar or extract.
        violations.push(
            Violation::too_big_number(&["target_gravity"], inputs.gravity)
                .with("inclusive", false)
                .with("message", "Must be below gravity: water only lowers it"),
        );
    }
    ok_or_invalid(violations)?;
    let final_volume = diluted_volume(inputs.volume_liters, inputs.gravity, inputs.target_gravity);
    Ok(Dilution {
        inputs,
        water_liters: round_to(final_volume - inputs.volume_liters, 2),
        final_volume_liters: round_to(final_volume, 2),
    })
}

/// Cells to pitch, packs without a starter, and the starter that grows one pack to the count.
pub fn pitch_rate(inputs: PitchRateInputs) -> DomainResult<PitchRate> {
    ok_or_invalid(check(
        rules::PITCH_RATE,
        &[
            ("volume_liters", inputs.volume_liters),
            ("og", inputs.og),
            ("cells_per_pack_billion", inputs.cells_per_pack_billion),
            ("viability_percent", inputs.viability_percent),
        ],
    ))?;
    let rate = match inputs.kind {
        BeerKind::Ale => ALE_RATE,
        BeerKind::Lager => LAGER_RATE,
    };
    let degrees = plato(inputs.og).max(0.0);
    let needed = cells_needed_billion(rate, inputs.volume_liters, degrees);
    let per_pack = inputs.cells_per_pack_billion * inputs.viability_percent / 100.0;
    let packs = (needed / per_pack).ceil().max(1.0);
    let starter_liters = (needed > per_pack).then(|| {
        let extract = starter_extract_grams(per_pack, needed - per_pack);
        // Grams of extract in a litre of starter wort: °P × SG × 10.
        extract / (plato(STARTER_GRAVITY) * STARTER_GRAVITY * 10.0)
    });
    Ok(PitchRate {
        inputs,
        rate_million_per_ml_per_plato: rate,
        plato: round_to(degrees, 1),
        cells_needed_billion: round_to(needed, 1),
        viable_cells_per_pack_billion: round_to(per_pack, 1),
        // At most 100,000 L × 1.2 SG / a tiny pack: a count, capped where u32 ends.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        packs: packs.min(f64::from(u32::MAX)) as u32,
        starter_liters: starter_liters.map(|l| round_to(l, 2)),
        starter_gravity: STARTER_GRAVITY,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn details(error: DomainError) -> Vec<serde_json::Value> {
        match error {
            DomainError::Invalid(v) => v
                .into_iter()
                .map(|v| serde_json::to_value(v).unwrap_or_default())
                .collect(),
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn priming_twenty_litres_at_twenty_degrees() {
        let answer = priming(PrimingInputs {
            volume_liters: 20.0,
            temperature_c: 20.0,
            co2_volumes: 2.4,
            sugar: Sugar::Table,
        })
        .unwrap();
        // 68 °F holds 0.8615 volumes; 1.5385 × 4 g × 20 L = 123.1 g.
        assert_eq!(answer.residual_co2_volumes, 0.86);
        assert_eq!(answer.co2_to_add_volumes, 1.54);
        assert_eq!(answer.sugar_grams, 123.1);
        assert_eq!(answer.sugar_grams_per_liter, 6.15);
        let corn = priming(PrimingInputs {
            sugar: Sugar::Corn,
            ..answer.inputs
        })
        .unwrap();
        assert_eq!(corn.sugar_grams, 135.3);
    }

    #[test]
    fn priming_a_beer_that_already_holds_enough_needs_none() {
        let answer = priming(PrimingInputs {
            volume_liters: 20.0,
            temperature_c: 2.0,
            co2_volumes: 1.5,
            sugar: Sugar::Dme,
        })
        .unwrap();
        assert_eq!(answer.sugar_grams, 0.0);
        assert_eq!(answer.co2_to_add_volumes, 0.0);
    }

    #[test]
    fn priming_reports_every_out_of_range_input() {
        let error = priming(PrimingInputs {
            volume_liters: 0.0,
            temperature_c: 80.0,
            co2_volumes: 2.4,
            sugar: Sugar::Table,
        })
        .unwrap_err();
        let details = details(error);
        assert_eq!(details.len(), 2);
        assert_eq!(details[0]["path"], serde_json::json!(["volume_liters"]));
        assert_eq!(details[0]["code"], "too_small");
        assert_eq!(details[1]["path"], serde_json::json!(["temperature_c"]));
        assert_eq!(details[1]["maximum"], 35);
    }

    #[test]
    fn keg_pressure_at_three_degrees() {
        // 3 °C = 37.4 °F, 2.5 volumes → 10.93 psi, 75.4 kPa.
        let answer = keg_pressure(KegPressureInputs {
            temperature_c: 3.0,
            co2_volumes: 2.5,
        })
        .unwrap();
        assert_eq!(answer.pressure_psi, 10.9);
        assert_eq!(answer.pressure_kpa, 75.4);
        let flat = keg_pressure(KegPressureInputs {
            temperature_c: 0.0,
            co2_volumes: 1.0,
        })
        .unwrap();
        assert_eq!(flat.pressure_psi, 0.0);
    }

    #[test]
    fn refractometer_answers_and_refuses_a_rising_reading() {
        let answer = refractometer(RefractometerInputs {
            original_brix: 12.5,
            current_brix: 6.5,
            wort_correction_factor: 1.04,
        })
        .unwrap();
        assert_eq!(answer.original_gravity, 1.0485);
        assert_eq!(answer.current_gravity, 1.0125);
        assert_eq!(answer.abv_percent, 4.72);
        let error = refractometer(RefractometerInputs {
            original_brix: 12.5,
            current_brix: 13.0,
            wort_correction_factor: 1.04,
        })
        .unwrap_err();
        assert_eq!(
            details(error)[0]["path"],
            serde_json::json!(["current_brix"])
        );
    }

    #[test]
    fn hydrometer_correction_at_forty_degrees() {
        let answer = hydrometer_correction(HydrometerInputs {
            gravity: 1.050,
            sample_temperature_c: 37.78,      // 100 °F
            calibration_temperature_c: 15.56, // 60 °F
        })
        .unwrap();
        assert_eq!(answer.corrected_gravity, 1.0561);
    }

    #[test]
    fn dilution_needs_a_lower_target() {
        let answer = dilution(DilutionInputs {
            volume_liters: 20.0,
            gravity: 1.060,
            target_gravity: 1.050,
        })
        .unwrap();
        assert_eq!(answer.water_liters, 4.0);
        assert_eq!(answer.final_volume_liters, 24.0);
        let error = dilution(DilutionInputs {
            target_gravity: 1.070,
            ..answer.inputs
        })
        .unwrap_err();
        assert_eq!(
            details(error)[0]["path"],
            serde_json::json!(["target_gravity"])
        );
    }

    #[test]
    fn pitch_rate_for_an_ale_and_a_lager() {
        let ale = pitch_rate(PitchRateInputs {
            volume_liters: 20.0,
            og: 1.050,
            kind: BeerKind::Ale,
            cells_per_pack_billion: 100.0,
            viability_percent: 90.0,
        })
        .unwrap();
        // 1.050 is 12.39 °P: 0.75 × 20,000 mL × 12.39 / 1000 = 185.8 billion.
        assert_eq!(ale.plato, 12.4);
        assert_eq!(ale.cells_needed_billion, 185.8);
        assert_eq!(ale.viable_cells_per_pack_billion, 90.0);
        assert_eq!(ale.packs, 3);
        // Grow 90 → 185.8 billion: 68.4 g of extract, 93.5 g per litre of 1.036 wort.
        assert_eq!(ale.starter_liters, Some(0.73));
        let lager = pitch_rate(PitchRateInputs {
            kind: BeerKind::Lager,
            ..ale.inputs
        })
        .unwrap();
        assert_eq!(lager.cells_needed_billion, 371.6);
        assert_eq!(lager.packs, 5);
        let small = pitch_rate(PitchRateInputs {
            volume_liters: 5.0,
            ..ale.inputs
        })
        .unwrap();
        assert_eq!(small.packs, 1);
        assert_eq!(small.starter_liters, None);
    }
}
