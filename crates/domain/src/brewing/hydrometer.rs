//! Hydrometer readings away from the calibration temperature, and diluting a wort to a gravity.

/// The density-of-water polynomial (°F) behind the usual hydrometer correction, published in the
/// Homebrew Digest and used by Brewer's Friend and Brewfather:
/// `1.00130346 − 0.000134722124 T + 0.00000204052596 T² − 0.00000000232820948 T³`.
fn water_factor(temp_f: f64) -> f64 {
    1.001_303_46 - 0.000_134_722_124 * temp_f + 0.000_002_040_525_96 * temp_f * temp_f
        - 0.000_000_002_328_209_48 * temp_f * temp_f * temp_f
}

/// The gravity a reading taken at `sample_f` would show at the hydrometer's calibration
/// temperature `calibration_f`: `reading × factor(sample) / factor(calibration)`.
///
/// Worked value: 1.050 read at 100 °F on a 60 °F hydrometer → 1.0561 (tables: add 0.006).
pub fn corrected_gravity(reading: f64, sample_f: f64, calibration_f: f64) -> f64 {
    reading * water_factor(sample_f) / water_factor(calibration_f)
}

/// The volume a wort of `gravity` reaches at `target_gravity` when water is added: its sugar
/// (gravity points × volume) stays, so `V₂ = V₁ × (G₁ − 1)/(G₂ − 1)`. The caller makes sure the
/// target is above 1 and below the gravity.
///
/// Worked example: 20 L at 1.060 diluted to 1.050 → 24 L, 4 L of water.
pub fn diluted_volume(liters: f64, gravity: f64, target_gravity: f64) -> f64 {
    liters * (gravity - 1.0) / (target_gravity - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn correction_matches_the_tables() {
        assert!((corrected_gravity(1.050, 100.0, 60.0) - 1.0561).abs() < 0.0001);
        // 68 °F on a 60 °F hydrometer: about +0.001.
        assert!((corrected_gravity(1.050, 68.0, 60.0) - 1.0508).abs() < 0.0001);
        // At the calibration temperature nothing changes.
        assert!((corrected_gravity(1.042, 68.0, 68.0) - 1.042).abs() < 1e-12);
        // Colder than calibration reads high: the correction lowers it.
        assert!(corrected_gravity(1.050, 40.0, 60.0) < 1.050);
    }

    #[test]
    fn dilution_keeps_the_sugar() {
        assert!((diluted_volume(20.0, 1.060, 1.050) - 24.0).abs() < 1e-9);
        assert!((diluted_volume(10.0, 1.080, 1.040) - 20.0).abs() < 1e-9);
    }
}
