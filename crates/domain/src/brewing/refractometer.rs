//! Refractometer readings: Brix to gravity before fermentation, and Sean Terrill's cubic for the
//! gravity of a fermenting beer, whose alcohol bends light too.

use super::gravity::sg_from_plato;

/// The wort's original gravity from its refractometer reading: the Brix divided by the wort
/// correction factor (refractometers are calibrated on sucrose; wort reads about 4 % high),
/// taken as °Plato and converted with the ASBC approximation [`sg_from_plato`].
pub fn original_gravity(original_brix: f64, wort_correction_factor: f64) -> f64 {
    sg_from_plato(original_brix / wort_correction_factor)
}

/// The gravity now of a beer whose wort read `original_brix` and which reads `current_brix`:
/// Sean Terrill's cubic ("Refractometer FG results", seanterrill.com, 2011), fitted to 1,000+
/// hydrometer/refractometer pairs, with both readings divided by the wort correction factor:
///
/// `FG = 1.0000 − 0.0044993 Ri + 0.011774 Rf + 0.00027581 Ri² − 0.0012717 Rf²
///       − 0.0000072800 Ri³ + 0.000063293 Rf³`
///
/// Worked example: 12.5 °Bx down to 6.5 °Bx with a factor of 1.04 → 1.0125.
pub fn current_gravity(original_brix: f64, current_brix: f64, wort_correction_factor: f64) -> f64 {
    let ri = original_brix / wort_correction_factor;
    let rf = current_brix / wort_correction_factor;
    1.0 - 0.004_499_3 * ri + 0.011_774 * rf + 0.000_275_81 * ri * ri
        - 0.001_271_7 * rf * rf
        - 0.000_007_28 * ri * ri * ri
        + 0.000_063_293 * rf * rf * rf
}

/// The gravity now by Petr Novotný's quadratic ("Počítáme: Nová korekce refraktometru",
/// diversity.beer, 2017), fitted to newer hydrometer/refractometer pairs than Terrill's and
/// closer for strong and highly attenuated beers, with both readings divided by the wort
/// correction factor (as the Refracto app and aschet/refractometer apply it):
///
/// `FG = 1 + 0.00001335 Ri² − 0.00003239 Ri Rf + 0.00002916 Rf² − 0.002421 Ri + 0.006219 Rf`
///
/// Worked example: 12.5 °Bx down to 6.5 °Bx with a factor of 1.04 → 1.0104 (Terrill: 1.0125).
pub fn current_gravity_novotny(
    original_brix: f64,
    current_brix: f64,
    wort_correction_factor: f64,
) -> f64 {
    let ri = original_brix / wort_correction_factor;
    let rf = current_brix / wort_correction_factor;
    1.0 + 0.000_013_35 * ri * ri - 0.000_032_39 * ri * rf + 0.000_029_16 * rf * rf - 0.002_421 * ri
        + 0.006_219 * rf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn novotnys_quadratic() {
        // Ri = 12.0192, Rf = 6.25: 1 + 0.0019286 − 0.0024333 + 0.0011391 − 0.0290986 + 0.0388688
        //   = 1.0104.
        let fg = current_gravity_novotny(12.5, 6.5, 1.04);
        assert!((fg - 1.0104).abs() < 0.0001, "{fg}");
        // Unfermented wort reads back close to its own gravity (1.0485 by the ASBC curve).
        let unfermented = current_gravity_novotny(12.5, 12.5, 1.04);
        assert!((unfermented - 1.0485).abs() < 0.002, "{unfermented}");
        // Falling readings, falling gravity.
        assert!(
            current_gravity_novotny(14.0, 6.0, 1.04) < current_gravity_novotny(14.0, 8.0, 1.04)
        );
    }

    #[test]
    fn terrills_cubic_worked_examples() {
        let og = original_gravity(12.5, 1.04);
        assert!((og - 1.0485).abs() < 0.0001, "{og}");
        let fg = current_gravity(12.5, 6.5, 1.04);
        assert!((fg - 1.0125).abs() < 0.0001, "{fg}");
        // A stronger wort: 20 °Bx to 10 °Bx → OG 1.0796, FG 1.0156.
        assert!((original_gravity(20.0, 1.04) - 1.0796).abs() < 0.0001);
        assert!((current_gravity(20.0, 10.0, 1.04) - 1.0156).abs() < 0.0001);
    }

    #[test]
    fn a_falling_reading_means_a_falling_gravity() {
        let mut last = f64::MAX;
        for current in [12.0, 10.0, 8.0, 6.0, 5.0] {
            let fg = current_gravity(14.0, current, 1.04);
            assert!(fg < last);
            last = fg;
        }
    }
}
