//! Carbonation: the CO₂ a beer already holds, the priming sugar that adds the rest in the bottle,
//! and the keg pressure that holds a carbonation level at a temperature.
//!
//! Both fits are in °F and psi, the units they were published in; the callers convert.

use super::finite_or_zero;

/// Grams of CO₂ in one litre of beer carbonated to one volume (one litre of gas at 0 °C and
/// 1 atm per litre of beer): about 2 g/L, the figure Kai Troester (braukaiser.com, "Accurately
/// calculating sugar additions for carbonation") works with.
pub const CO2_GRAMS_PER_LITER_PER_VOLUME: f64 = 2.0;
/// Grams of CO₂ one gram of fermentable extract gives: fermentation splits extract into about
/// equal weights of alcohol and CO₂ (Troester, same article).
pub const CO2_GRAMS_PER_GRAM_EXTRACT: f64 = 0.5;

/// °C to °F.
pub fn fahrenheit(celsius: f64) -> f64 {
    celsius * 9.0 / 5.0 + 32.0
}

/// psi to kPa (1 psi = 6.894757 kPa).
pub const KPA_PER_PSI: f64 = 6.894_757;

/// Volumes of CO₂ a fermented, unpressurised beer still holds at `temp_f` (its warmest
/// temperature since fermentation ended): the quadratic fit of the ASBC / Zahm & Nagel
/// saturation table used by Brewer's Friend and most priming calculators,
/// `3.0378 − 0.050062 T + 0.00026555 T²`.
///
/// Worked values against the table: 32 °F → 1.71 (table 1.7), 50 °F → 1.20 (1.2),
/// 68 °F → 0.86 (0.88).
pub fn residual_co2_volumes(temp_f: f64) -> f64 {
    3.0378 - 0.050062 * temp_f + 0.000_265_55 * temp_f * temp_f
}

/// Grams of a priming sugar whose weight is `fermentable_fraction` fermentable extract, to
/// raise `liters` of beer by `volumes` of CO₂: `volumes × 2 g/L ÷ 0.5 ÷ fraction × L`, that is
/// 4 g of fully fermentable sugar per litre and volume. Never negative: a beer that already
/// holds the target needs none.
///
/// Worked example (brewery.org, "Carbonation"): 23 L from 0.9 to 2.4 volumes with white sugar is
/// 1.5 × 4 × 23 = 138 g ("140 g").
pub fn priming_sugar_grams(liters: f64, volumes: f64, fermentable_fraction: f64) -> f64 {
    let extract_per_liter = volumes * CO2_GRAMS_PER_LITER_PER_VOLUME / CO2_GRAMS_PER_GRAM_EXTRACT;
    finite_or_zero(extract_per_liter / fermentable_fraction * liters).max(0.0)
}

/// Gauge pressure (psi) that holds `volumes` of CO₂ in beer at `temp_f` once it has come to
/// equilibrium: the Henry's-law surface fitted to the Zahm & Nagel carbonation chart that
/// Brewer's Friend's keg calculator uses,
/// `−16.6999 − 0.0101059 T + 0.00116512 T² + 0.173354 T V + 4.24267 V − 0.0684226 V²`.
///
/// Worked value against the chart: 38 °F and 2.5 volumes → 11.2 psi (chart: 11–12 psi).
/// Below 0 the beer holds that much without any pressure; the caller says 0.
pub fn keg_pressure_psi(temp_f: f64, volumes: f64) -> f64 {
    let (t, v) = (temp_f, volumes);
    -16.6999 - 0.010_105_9 * t + 0.001_165_12 * t * t + 0.173_354 * t * v + 4.24267 * v
        - 0.068_422_6 * v * v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn residual_co2_follows_the_saturation_table() {
        // ASBC / Zahm & Nagel saturation at 1 atm: 0 °C 1.7, 10 °C 1.2, 20 °C 0.88 volumes.
        assert!(close(residual_co2_volumes(fahrenheit(0.0)), 1.7, 0.02));
        assert!(close(residual_co2_volumes(fahrenheit(10.0)), 1.2, 0.02));
        assert!(close(residual_co2_volumes(fahrenheit(20.0)), 0.88, 0.03));
        assert!(close(residual_co2_volumes(68.0), 0.8615, 0.0001));
    }

    #[test]
    fn priming_sugar_matches_the_published_example() {
        // 23 L, 0.9 → 2.4 volumes, white sugar: 138 g.
        assert!(close(priming_sugar_grams(23.0, 1.5, 1.0), 138.0, 1e-9));
        // Corn sugar is 91 % glucose (monohydrate): 151.6 g for the same beer.
        assert!(close(priming_sugar_grams(23.0, 1.5, 0.91), 151.65, 0.01));
        assert_eq!(priming_sugar_grams(23.0, -0.3, 1.0), 0.0);
    }

    #[test]
    fn keg_pressure_matches_the_carbonation_chart() {
        // Chart: 38 °F, 2.5 volumes → about 11 psi; 40 °F → about 12 psi.
        assert!(close(keg_pressure_psi(38.0, 2.5), 11.25, 0.01));
        assert!(close(keg_pressure_psi(40.0, 2.5), 12.27, 0.01));
        // Warmer beer needs more pressure for the same carbonation; more CO₂ needs more too.
        assert!(keg_pressure_psi(50.0, 2.5) > keg_pressure_psi(40.0, 2.5));
        assert!(keg_pressure_psi(40.0, 3.0) > keg_pressure_psi(40.0, 2.5));
        assert!(close(KPA_PER_PSI * 12.0, 82.74, 0.01));
    }
}
