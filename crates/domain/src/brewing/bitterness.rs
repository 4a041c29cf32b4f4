//! Bitterness: Tinseth IBU per hop addition, and BU:GU (docs/calculations.md).
//!
//! Glenn Tinseth's model: IBU = utilisation × mg/L of alpha acid added, where utilisation is a
//! "bigness" factor (less isomerised alpha acid survives in denser wort) times a boil-time factor.
//! We use the wort's OG as the bigness gravity, the batch volume as the volume, and no hop-form
//! (pellet) bonus. An equipment profile's kettle utilisation and the hop-form factor multiply
//! Tinseth's utilisation through [`hop_ibu_with_utilisation`].

use super::finite_or_zero;
use crate::recipe_children::{Hop, HopUse};

/// The boil-time curve's rate constant (per minute).
const TIME_RATE: f64 = -0.04;
/// The boil-time curve's asymptote divisor: the maximum utilisation is 1/4.15.
const TIME_MAX_DIVISOR: f64 = 4.15;
/// Minutes a `mash` hop counts for.
pub const MASH_HOP_MINUTES: f64 = 5.0;
/// Share of a `whirlpool` addition's stand time that counts as boiling (hop stand at ~90 °C).
pub const WHIRLPOOL_TIME_SHARE: f64 = 0.25;
/// Bonus of a `first_wort` addition over a plain full-length boil addition.
pub const FIRST_WORT_FACTOR: f64 = 1.10;

/// Tinseth's bigness factor: `1.65 × 0.000125^(gravity − 1)`.
pub fn bigness_factor(gravity: f64) -> f64 {
    1.65 * 0.000125_f64.powf(gravity - 1.0)
}

/// Tinseth's boil-time factor: `(1 − e^(−0.04 t)) / 4.15`; negative times count as 0.
pub fn boil_time_factor(minutes: f64) -> f64 {
    (1.0 - (TIME_RATE * minutes.max(0.0)).exp()) / TIME_MAX_DIVISOR
}

/// Tinseth utilisation: bigness × boil-time factor.
pub fn utilisation(gravity: f64, minutes: f64) -> f64 {
    bigness_factor(gravity) * boil_time_factor(minutes)
}

/// Alpha acid added, in mg per litre of batch: `alpha_acid/100 × grams × 1000 / V`.
/// 0 when the volume is not positive.
pub fn alpha_acid_mg_per_liter(alpha_acid_percent: f64, grams: f64, batch_size_liters: f64) -> f64 {
    if batch_size_liters <= 0.0 {
        return 0.0;
    }
    finite_or_zero(alpha_acid_percent / 100.0 * grams * 1000.0 / batch_size_liters)
}

/// Tinseth's T(t): the IBU a hop would give after `minutes` of boiling in wort of `gravity`.
pub fn tinseth_ibu(
    gravity: f64,
    minutes: f64,
    alpha_acid_percent: f64,
    grams: f64,
    batch_size_liters: f64,
) -> f64 {
    utilisation(gravity, minutes)
        * alpha_acid_mg_per_liter(alpha_acid_percent, grams, batch_size_liters)
}

/// How a hop use maps onto Tinseth's boil: `(minutes that count, multiplier)`.
///
/// * `boil`, `aroma`: their time, capped at the recipe's boil time.
/// * `first_wort`: the whole boil, × 1.10.
/// * `mash`: 5 minutes.
/// * `whirlpool`: a quarter of the stand time (the wort is below boiling).
/// * `dry_hop`: nothing (never boiled).
pub fn boil_equivalent(hop_use: HopUse, time_minutes: f64, boil_time_minutes: f64) -> (f64, f64) {
    match hop_use {
        HopUse::Boil | HopUse::Aroma => (time_minutes.min(boil_time_minutes), 1.0),
        HopUse::FirstWort => (boil_time_minutes, FIRST_WORT_FACTOR),
        HopUse::Mash => (MASH_HOP_MINUTES, 1.0),
        HopUse::Whirlpool => (WHIRLPOOL_TIME_SHARE * time_minutes, 1.0),
        HopUse::DryHop => (0.0, 0.0),
    }
}

/// [`boil_equivalent`] for a hop stand whose temperature is known: a `whirlpool` or `aroma`
/// addition with a temperature steeps after flame-out for its time, which counts
/// `time × hop_stand_factor(temperature_c)` minutes of boiling (Malowicki and Shellhammer's
/// isomerisation rate relative to boiling, `hop_stand.rs`) instead of the fixed quarter of a
/// whirlpool or the late-boil minutes of an aroma hop. Every other use, and either of the two
/// without a temperature, gives exactly [`boil_equivalent`]'s answer (no other use can hold a
/// temperature: `recipe::rules::hop_temperature_violation`).
///
/// Example: a 60-minute stand at 90 °C counts 60 × 0.416834 = 25.0100 minutes (the fixed quarter:
/// 15); at 100 °C all 60; at 60 °C or below none.
pub fn boil_equivalent_at(
    hop_use: HopUse,
    time_minutes: f64,
    boil_time_minutes: f64,
    temperature_c: Option<f64>,
) -> (f64, f64) {
    match (hop_use, temperature_c) {
        (HopUse::Whirlpool | HopUse::Aroma, Some(temperature_c)) => (
            super::hop_stand::hop_stand_minutes(time_minutes, temperature_c),
            1.0,
        ),
        _ => boil_equivalent(hop_use, time_minutes, boil_time_minutes),
    }
}

/// One hop addition's IBU in a wort of original gravity `og`; never negative or non-finite.
pub fn hop_ibu(hop: &Hop, og: f64, batch_size_liters: f64, boil_time_minutes: f64) -> f64 {
    hop_ibu_with_utilisation(hop, og, batch_size_liters, boil_time_minutes, 1.0)
}

/// [`hop_ibu`] with Tinseth's utilisation multiplied by `utilisation_factor`: the equipment's
/// `hop_utilization_percent`/100 times the hop form's factor (`hop_form.rs`). With a factor of
/// exactly 1 the result is bit for bit [`hop_ibu`]'s.
///
/// Example: 20 g of 10 % pellets boiled 60 min in 20 L at OG 1.000, kettle at 90 %:
/// 36.1522 × 0.90 × 1.10 = 35.7907 IBU.
pub fn hop_ibu_with_utilisation(
    hop: &Hop,
    og: f64,
    batch_size_liters: f64,
    boil_time_minutes: f64,
    utilisation_factor: f64,
) -> f64 {
    let (minutes, factor) = boil_equivalent_at(
        hop.hop_use,
        hop.time_minutes,
        boil_time_minutes,
        hop.temperature_c,
    );
    let ibu = factor
        * tinseth_ibu(
            og,
            minutes,
            hop.alpha_acid,
            hop.amount_grams,
            batch_size_liters,
        )
        * utilisation_factor;
    finite_or_zero(ibu).max(0.0)
}

/// BU:GU = IBU / gravity points; `None` when there are no gravity points (OG = 1).
pub fn bu_gu(ibu: f64, points: f64) -> Option<f64> {
    (points > 0.0).then(|| finite_or_zero(ibu / points))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brewing::fixtures::hop;
    use HopUse::{Aroma, Boil, DryHop, FirstWort, Mash, Whirlpool};

    // Throughout: OG 1.000 (bigness = 1.65 × 0.000125^0 = 1.65), 10 % alpha, 20 g in 20 L:
    // 0.10 × 20 g × 1000 / 20 L = 100 mg/L of alpha acid.
    const OG: f64 = 1.0;
    const V: f64 = 20.0;
    const BOIL: f64 = 60.0;

    fn ibu(hop_use: HopUse, minutes: f64) -> f64 {
        hop_ibu(&hop(hop_use, 10.0, 20.0, minutes), OG, V, BOIL)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn factors() {
        assert_eq!(bigness_factor(1.0), 1.65);
        // 1.65 × 0.000125^0.05 = 1.65 × e^(0.05 × ln 0.000125) = 1.65 × e^(−0.449360) = 1.052760
        assert!(close(bigness_factor(1.05), 1.052760));
        // (1 − e^(−2.4)) / 4.15 = (1 − 0.090718) / 4.15 = 0.219104
        assert!(close(boil_time_factor(60.0), 0.219104));
        assert_eq!(boil_time_factor(0.0), 0.0);
        assert_eq!(boil_time_factor(-10.0), 0.0);
        assert!(close(alpha_acid_mg_per_liter(10.0, 20.0, 20.0), 100.0));
        assert_eq!(alpha_acid_mg_per_liter(10.0, 20.0, 0.0), 0.0);
    }

    #[test]
    fn sixty_minute_boil() {
        // 1.65 × 0.219104 × 100 = 36.1522
        assert!(close(ibu(Boil, 60.0), 36.1522), "{}", ibu(Boil, 60.0));
        // In 1.050 wort: 1.052760 × 0.219104 × 100 = 23.0664
        let h = hop(Boil, 10.0, 20.0, 60.0);
        assert!(close(hop_ibu(&h, 1.05, V, BOIL), 23.0664));
    }

    #[test]
    fn boil_and_aroma_longer_than_the_boil_are_capped() {
        // A 90-minute addition in a 60-minute boil counts 60 minutes: 36.1522, not
        // 1.65 × (1 − e^(−3.6))/4.15 × 100 = 38.6727.
        assert!(close(ibu(Boil, 90.0), 36.1522));
        assert!(close(ibu(Aroma, 90.0), 36.1522));
        // A 30-minute addition: 1.65 × (1 − e^(−1.2))/4.15 × 100 = 1.65 × 0.698806/4.15 × 100
        //   = 27.7838
        assert!(close(ibu(Aroma, 30.0), 27.7838));
        assert_eq!(
            ibu(Boil, 0.0),
            0.0,
            "flame-out in a boil addition gives nothing"
        );
    }

    #[test]
    fn first_wort_is_ten_percent_over_the_full_boil() {
        // 1.10 × T(60) = 1.10 × 36.1522 = 39.7674, whatever its own time says
        assert!(close(ibu(FirstWort, 0.0), 39.7674));
        assert!(close(ibu(FirstWort, 75.0), 39.7674));
    }

    #[test]
    fn mash_hops_count_five_minutes() {
        // T(5) = 1.65 × (1 − e^(−0.2))/4.15 × 100 = 1.65 × 0.181269/4.15 × 100 = 7.2071
        assert!(close(ibu(Mash, 60.0), 7.2071));
    }

    #[test]
    fn whirlpool_counts_a_quarter_of_its_time() {
        // 60 min stand → T(15) = 1.65 × (1 − e^(−0.6))/4.15 × 100 = 1.65 × 0.451188/4.15 × 100
        //   = 17.9388
        assert!(close(ibu(Whirlpool, 60.0), 17.9388));
        // Not capped by the boil time: a 240-minute stand counts 60 minutes.
        assert!(close(ibu(Whirlpool, 240.0), 36.1522));
    }

    #[test]
    fn whirlpool_with_a_temperature_follows_the_hop_stand_model() {
        // 60 × e^(−11858 × (1/363.15 − 1/373.15)) = 60 × 0.416834 = 25.0100
        let (minutes, factor) = boil_equivalent_at(Whirlpool, 60.0, BOIL, Some(90.0));
        assert!(close(minutes, 25.0100), "{minutes}");
        assert_eq!(factor, 1.0);
        assert_eq!(
            boil_equivalent_at(Whirlpool, 60.0, BOIL, Some(100.0)),
            (60.0, 1.0)
        );
        assert_eq!(
            boil_equivalent_at(Whirlpool, 60.0, BOIL, Some(60.0)),
            (0.0, 1.0)
        );
        // An aroma hop with a temperature is a stand of its time too: not its late-boil
        // minutes (which would count all 20 of them).
        let (aroma, _) = boil_equivalent_at(Aroma, 20.0, BOIL, Some(80.0));
        assert!(close(aroma, 20.0 * 0.165349), "{aroma}");
        assert_eq!(boil_equivalent(Aroma, 20.0, BOIL), (20.0, 1.0));
        // Without a temperature, and for every other use, nothing changes.
        for hop_use in [Boil, Aroma, FirstWort, Mash, Whirlpool, DryHop] {
            for temperature in [None, Some(80.0)] {
                if matches!(hop_use, Whirlpool | Aroma) && temperature.is_some() {
                    continue;
                }
                assert_eq!(
                    boil_equivalent_at(hop_use, 45.0, BOIL, temperature),
                    boil_equivalent(hop_use, 45.0, BOIL)
                );
            }
        }
    }

    #[test]
    fn dry_hops_give_no_bitterness() {
        assert_eq!(ibu(DryHop, 4320.0), 0.0);
    }

    #[test]
    fn no_volume_no_bitterness() {
        assert_eq!(hop_ibu(&hop(Boil, 10.0, 20.0, 60.0), OG, 0.0, BOIL), 0.0);
    }

    #[test]
    fn utilisation_factor_multiplies() {
        let h = hop(Boil, 10.0, 20.0, 60.0);
        // 36.1522 × 0.90 × 1.10 = 35.7907
        let ibu = hop_ibu_with_utilisation(&h, OG, V, BOIL, 0.90 * 1.10);
        assert!(close(ibu, 35.7907), "{ibu}");
        assert_eq!(
            hop_ibu_with_utilisation(&h, OG, V, BOIL, 1.0),
            hop_ibu(&h, OG, V, BOIL)
        );
        assert_eq!(hop_ibu_with_utilisation(&h, OG, V, BOIL, 0.0), 0.0);
    }

    #[test]
    fn bu_gu_ratio() {
        // 35.2 IBU / 52.1 points = 0.6756
        assert!(close(bu_gu(35.2, 52.1).unwrap_or_default(), 0.675624));
        assert_eq!(bu_gu(35.2, 0.0), None);
        assert_eq!(bu_gu(0.0, 0.0), None);
        assert_eq!(bu_gu(0.0, 40.0), Some(0.0));
    }
}
