//! Hop stand (whirlpool) below boiling: how much slower alpha acids isomerise in cooler wort
//! (docs/calculations.md, "Hop stand below boiling").
//!
//! Model: the rate constant of alpha-acid isomerisation measured by Malowicki and Shellhammer
//! (M. G. Malowicki and T. H. Shellhammer, "Isomerization and degradation kinetics of hop
//! (Humulus lupulus) acids in a model wort-boiling system", J. Agric. Food Chem. 53 (2005)
//! 4434–4439), an Arrhenius law fitted between 90 and 130 °C:
//!
//! ```text
//! k1(T) = 7.9 × 10^11 · e^(−11858 / T)   per minute, T in kelvin
//! ```
//!
//! A stand at `θ` °C runs the isomerisation at `k1(θ)/k1(100 °C)` of the boil's pace, so a stand of
//! `t` minutes counts as `t · k1(θ)/k1(100 °C)` minutes of boiling in Tinseth's time curve. This is
//! how John-Paul Hosom's mIBU method ("An Analysis of Sub-Boiling Hop Utilization", alchemyoverlord
//! blog, 2016) and the temperature-aware whirlpool calculators of brewing programs carry the
//! boil's utilisation below boiling.
//!
//! At or below 60 °C the factor is 0: Malowicki's fit gives 2.2 % of the boiling rate at 60 °C, an
//! extrapolation well below the 90 °C his measurements start at, and Hosom's hop stand at 63.6 °C
//! (19 minutes, "Four Experiments on Alpha-Acid Utilization and IBUs", 2017) came out at an
//! estimated 1.2 ppm of iso-alpha acids, about 1 IBU of the 25 measured: negligible over a brew
//! day. The clamp is a deliberate step from 0.022 to 0 at 60 °C. Above 100 °C the factor stays 1
//! (an open kettle does not get hotter than boiling; altitude is not modelled).

use super::bitterness::tinseth_ibu;
use super::finite_or_zero;

/// Malowicki and Shellhammer's pre-exponential factor of `k1`, per minute.
pub const MALOWICKI_K1_PREFACTOR_PER_MINUTE: f64 = 7.9e11;
/// Malowicki and Shellhammer's activation temperature of `k1` (Ea/R), in kelvin.
pub const MALOWICKI_K1_ACTIVATION_KELVIN: f64 = 11858.0;
/// 0 °C in kelvin.
pub const ZERO_CELSIUS_KELVIN: f64 = 273.15;
/// Boiling wort, the reference temperature of Tinseth's curve (factor exactly 1).
pub const BOILING_C: f64 = 100.0;
/// At or below this temperature a stand counts nothing (see the module documentation).
pub const NO_ISOMERISATION_AT_OR_BELOW_C: f64 = 60.0;

/// Malowicki and Shellhammer's isomerisation rate constant `k1` at `temperature_c`, per minute:
/// `7.9e11 · e^(−11858 / (θ + 273.15))`. At 100 °C: 0.012490.
pub fn isomerisation_rate_per_minute(temperature_c: f64) -> f64 {
    finite_or_zero(
        MALOWICKI_K1_PREFACTOR_PER_MINUTE
            * (-MALOWICKI_K1_ACTIVATION_KELVIN / (temperature_c + ZERO_CELSIUS_KELVIN)).exp(),
    )
}

/// Isomerisation at `temperature_c` relative to boiling, `k1(θ)/k1(100 °C)`, in `0..=1`:
/// `e^(−11858 · (1/(θ + 273.15) − 1/373.15))`, exactly 1 at 100 °C and above, 0 at or below 60 °C
/// and for a non-finite temperature.
///
/// 90 °C: 0.4168, 80 °C: 0.1653, 70 °C: 0.0622.
pub fn hop_stand_factor(temperature_c: f64) -> f64 {
    if !temperature_c.is_finite() || temperature_c <= NO_ISOMERISATION_AT_OR_BELOW_C {
        return 0.0;
    }
    if temperature_c >= BOILING_C {
        return 1.0;
    }
    let inverse_gap =
        1.0 / (temperature_c + ZERO_CELSIUS_KELVIN) - 1.0 / (BOILING_C + ZERO_CELSIUS_KELVIN);
    finite_or_zero((-MALOWICKI_K1_ACTIVATION_KELVIN * inverse_gap).exp()).clamp(0.0, 1.0)
}

/// Minutes of boiling that a stand of `minutes` at `temperature_c` counts for:
/// `minutes × hop_stand_factor(temperature_c)`; negative times count as 0.
pub fn hop_stand_minutes(minutes: f64, temperature_c: f64) -> f64 {
    finite_or_zero(minutes.max(0.0) * hop_stand_factor(temperature_c))
}

/// Minutes of boiling that a temperature profile counts for: the sum of
/// [`hop_stand_minutes`] over its `(minutes, temperature_c)` steps. A cooling curve is passed as
/// short steps (say 0.1 minute each) at the temperature in the middle of each step.
pub fn profile_boil_minutes(steps: impl IntoIterator<Item = (f64, f64)>) -> f64 {
    steps
        .into_iter()
        .map(|(minutes, temperature_c)| hop_stand_minutes(minutes, temperature_c))
        .sum()
}

/// The IBU of a hop steeped `minutes` at `temperature_c` in wort of `gravity`: Tinseth's T(t)
/// ([`tinseth_ibu`]) with `t = minutes × hop_stand_factor(temperature_c)`; never negative or
/// non-finite.
///
/// Example: 20 g of 10 % hops in 20 L (100 mg/L) at gravity 1.000, 60 minutes at 80 °C:
/// t = 60 × 0.165349 = 9.9210 min, 1.65 × (1 − e^(−0.04 × 9.9210)) / 4.15 × 100 = 13.0234 IBU
/// (the fixed quarter of the time, T(15), would give 17.9388).
pub fn hop_stand_ibu(
    gravity: f64,
    minutes: f64,
    temperature_c: f64,
    alpha_acid_percent: f64,
    grams: f64,
    batch_size_liters: f64,
) -> f64 {
    let boil_minutes = hop_stand_minutes(minutes, temperature_c);
    finite_or_zero(tinseth_ibu(
        gravity,
        boil_minutes,
        alpha_acid_percent,
        grams,
        batch_size_liters,
    ))
    .max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn rate_constant_at_boiling() {
        // 7.9e11 × e^(−11858 / 373.15) = 7.9e11 × 1.581045e−14 = 0.012490
        assert!(close(isomerisation_rate_per_minute(100.0), 0.012490));
        // 90 °C: 7.9e11 × e^(−11858 / 363.15) = 0.0052064
        assert!((isomerisation_rate_per_minute(90.0) - 0.0052064).abs() < 1e-6);
    }

    #[test]
    fn hop_stand_factor_worked_values() {
        // Exactly 1 at boiling: e^(−11858 × 0) = 1.
        assert_eq!(hop_stand_factor(100.0), 1.0);
        // 95 °C: 1/368.15 − 1/373.15 = 3.639668e−5; × 11858 = 0.431592; e^(−0.431592) = 0.649474
        assert!(close(hop_stand_factor(95.0), 0.649474));
        // 90 °C: 1/363.15 − 1/373.15 = 7.379561e−5; × 11858 = 0.875068; e^(−0.875068) = 0.416834
        assert!(close(hop_stand_factor(90.0), 0.416834));
        // 80 °C: 1/353.15 − 1/373.15 = 1.517705e−4; × 11858 = 1.799694; e^(−1.799694) = 0.165349
        assert!(close(hop_stand_factor(80.0), 0.165349));
        // 70 °C: 1/343.15 − 1/373.15 = 2.342900e−4; × 11858 = 2.778211; e^(−2.778211) = 0.062150
        assert!(close(hop_stand_factor(70.0), 0.062150));
        // 60 °C: the fit would give 1/333.15 − 1/373.15 = 3.217635e−4; × 11858 = 3.815471;
        // e^(−3.815471) = 0.022027, clamped to 0.
        assert_eq!(hop_stand_factor(60.0), 0.0);
        assert!(hop_stand_factor(60.001) > 0.022);
        assert_eq!(hop_stand_factor(20.0), 0.0);
        assert_eq!(hop_stand_factor(-5.0), 0.0);
    }

    #[test]
    fn hop_stand_factor_bounds() {
        assert_eq!(hop_stand_factor(104.0), 1.0, "no faster than boiling");
        assert_eq!(hop_stand_factor(f64::NAN), 0.0);
        assert_eq!(hop_stand_factor(f64::INFINITY), 0.0);
        assert_eq!(hop_stand_factor(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn hop_stand_factor_falls_with_temperature() {
        let mut previous = hop_stand_factor(100.0);
        let mut t = 99.5;
        while t > 60.0 {
            let f = hop_stand_factor(t);
            assert!(f < previous, "{t} °C: {f} not below {previous}");
            assert!((0.0..=1.0).contains(&f));
            previous = f;
            t -= 0.5;
        }
    }

    #[test]
    fn stand_minutes_and_profiles() {
        // 30 minutes at 90 °C: 30 × 0.416834 = 12.5050 minutes of boiling.
        assert!(close(hop_stand_minutes(30.0, 90.0), 12.5050));
        assert_eq!(hop_stand_minutes(-10.0, 90.0), 0.0);
        assert_eq!(hop_stand_minutes(30.0, 100.0), 30.0);
        // 10 min at 90 °C then 20 min at 80 °C: 4.16834 + 3.30698 = 7.47532.
        assert!(close(
            profile_boil_minutes([(10.0, 90.0), (20.0, 80.0)]),
            7.47532
        ));
        assert_eq!(profile_boil_minutes([]), 0.0);
    }

    #[test]
    fn hop_stand_ibu_worked_example() {
        // 60 min at 80 °C → 9.92096 min: 1.65 × (1 − e^(−0.396839)) / 4.15 × 100
        //   = 1.65 × 0.327557 / 4.15 × 100 = 13.0234
        let ibu = hop_stand_ibu(1.0, 60.0, 80.0, 10.0, 20.0, 20.0);
        assert!(close(ibu, 13.0234), "{ibu}");
        // At 100 °C a stand is a boil: T(60) = 36.1522, bitterness.rs's worked value.
        assert!(close(
            hop_stand_ibu(1.0, 60.0, 100.0, 10.0, 20.0, 20.0),
            36.1522
        ));
        assert_eq!(
            hop_stand_ibu(1.0, 60.0, 100.0, 10.0, 20.0, 20.0),
            tinseth_ibu(1.0, 60.0, 10.0, 20.0, 20.0),
            "factor exactly 1 at boiling"
        );
        assert_eq!(hop_stand_ibu(1.0, 60.0, 55.0, 10.0, 20.0, 20.0), 0.0);
        assert_eq!(hop_stand_ibu(1.0, 60.0, 80.0, 10.0, 20.0, 0.0), 0.0);
    }
}
