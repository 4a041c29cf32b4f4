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
    ALE_RATE, LAGER_RATE, STARTER_GRAVITY, cells_needed_billion, extract_grams_per_liter,
    starter_plan, viability_percent,
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
    let current = match inputs.method {
        RefractometerMethod::Terrill => refractometer::current_gravity,
        RefractometerMethod::Novotny => refractometer::current_gravity_novotny,
    };
    let sg = current(
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
/// The pack's viability is given, or follows from its production date (exactly one of the two;
/// the HTTP reader refuses both or neither with a `400`).
pub fn pitch_rate(inputs: PitchRateInputs) -> DomainResult<PitchRate> {
    let mut values = vec![
        ("volume_liters", inputs.volume_liters),
        ("og", inputs.og),
        ("cells_per_pack_billion", inputs.cells_per_pack_billion),
    ];
    if let Some(v) = inputs.viability_percent {
        values.push(("viability_percent", v));
    }
    let mut violations = check(rules::PITCH_RATE, &values);
    let age_days = inputs
        .production_date
        .map(|made| (inputs.as_of - made).whole_days());
    let viability = match (inputs.viability_percent, age_days) {
        (Some(v), _) => v,
        (None, Some(days)) => {
            let v = viability_percent(days as f64);
            if days < 0 {
                violations.push(Violation::new(
                    "custom",
                    &["production_date"],
                    "Must not be after as_of: the pack is not made yet".to_owned(),
                ));
            } else if v <= 0.0 {
                violations.push(Violation::new(
                    "custom",
                    &["production_date"],
                    format!(
                        "A pack made {days} days before as_of has no living cells by the model \
                         (0.7 % a day): use a fresher pack, or give viability_percent"
                    ),
                ));
            }
            v
        }
        (None, None) => 100.0,
    };
    ok_or_invalid(violations)?;
    let rate = match inputs.kind {
        BeerKind::Ale => ALE_RATE,
        BeerKind::Lager => LAGER_RATE,
    };
    let degrees = plato(inputs.og).max(0.0);
    let needed = cells_needed_billion(rate, inputs.volume_liters, degrees);
    let per_pack = inputs.cells_per_pack_billion * viability / 100.0;
    let packs = (needed / per_pack).ceil().max(1.0);
    let steps = starter_plan(per_pack, needed);
    let per_liter = extract_grams_per_liter(STARTER_GRAVITY);
    let starter_liters = (!steps.is_empty()).then(|| steps.iter().map(|s| s.liters).sum::<f64>());
    Ok(PitchRate {
        inputs,
        rate_million_per_ml_per_plato: rate,
        plato: round_to(degrees, 1),
        cells_needed_billion: round_to(needed, 1),
        viability_percent: round_to(viability, 1),
        age_days,
        viable_cells_per_pack_billion: round_to(per_pack, 1),
        // At most 100,000 L × 1.2 SG / a tiny pack: a count, capped where u32 ends.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        packs: packs.min(f64::from(u32::MAX)) as u32,
        starter_liters: starter_liters.map(|l| round_to(l, 2)),
        starter_gravity: STARTER_GRAVITY,
        starter_steps: steps
            .iter()
            .map(|s| StarterStepAnswer {
                liters: round_to(s.liters, 2),
                gravity: STARTER_GRAVITY,
                extract_grams: round_to(s.liters * per_liter, 1),
                cells_before_billion: round_to(s.cells_before_billion, 1),
                cells_after_billion: round_to(s.cells_after_billion, 1),
            })
            .collect(),
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
            method: RefractometerMethod::Terrill,
        })
        .unwrap();
        assert_eq!(answer.original_gravity, 1.0485);
        assert_eq!(answer.current_gravity, 1.0125);
        assert_eq!(answer.abv_percent, 4.72);
        let novotny = refractometer(RefractometerInputs {
            method: RefractometerMethod::Novotny,
            ..answer.inputs
        })
        .unwrap();
        assert_eq!(novotny.original_gravity, 1.0485);
        assert_eq!(novotny.current_gravity, 1.0104);
        assert_eq!(novotny.abv_percent, 4.99);
        let error = refractometer(RefractometerInputs {
            original_brix: 12.5,
            current_brix: 13.0,
            wort_correction_factor: 1.04,
            method: RefractometerMethod::Terrill,
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
            viability_percent: Some(90.0),
            production_date: None,
            as_of: time::macros::date!(2026 - 12 - 07),
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
        assert!(small.starter_steps.is_empty());
    }

    #[test]
    fn pitch_rate_from_a_production_date() {
        let at = |made| PitchRateInputs {
            volume_liters: 20.0,
            og: 1.050,
            kind: BeerKind::Ale,
            cells_per_pack_billion: 100.0,
            viability_percent: None,
            production_date: Some(made),
            as_of: time::macros::date!(2026 - 12 - 07),
        };
        // 30 days old: 100 − 0.7 × 30 = 79 % → 79 B viable; 185.8 B needed: 3 packs, or
        // 106.8 B grown from 79 B (lean: 76.3 g, 0.82 L of 1.036) in one step.
        let a = pitch_rate(at(time::macros::date!(2026 - 11 - 07))).unwrap();
        assert_eq!(a.age_days, Some(30));
        assert_eq!(a.viability_percent, 79.0);
        assert_eq!(a.viable_cells_per_pack_billion, 79.0);
        assert_eq!(a.packs, 3);
        assert_eq!(a.starter_steps.len(), 1);
        assert_eq!(a.starter_liters, Some(0.82));
        assert_eq!(a.starter_steps[0].cells_after_billion, 185.8);
        // Made after the pitching day, or dead by the model: 422 at production_date.
        for made in [
            time::macros::date!(2026 - 12 - 08),
            time::macros::date!(2026 - 06 - 01),
        ] {
            let error = pitch_rate(at(made)).unwrap_err();
            assert_eq!(
                details(error)[0]["path"],
                serde_json::json!(["production_date"])
            );
        }
    }
}
