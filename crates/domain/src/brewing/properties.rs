//! Property tests: relations that must hold for every valid recipe, not just the hand-checked ones.

use proptest::prelude::*;

use super::fixtures::{fermentable, hop, yeast};
use super::{StatsInput, bitterness, colour, compute_stats, gravity};
use crate::ingredients::{Fermentable, FermentableType, Hop, HopUse, Yeast};

fn fermentable_type() -> impl Strategy<Value = FermentableType> {
    prop::sample::select(FermentableType::ALL)
}

fn hop_use() -> impl Strategy<Value = HopUse> {
    prop::sample::select(HopUse::ALL)
}

/// Any fermentable within the contract's field caps.
fn any_fermentable() -> impl Strategy<Value = Fermentable> {
    (
        fermentable_type(),
        0.0..=10_000.0f64,
        0.0..=2_000.0f64,
        0.0..=100.0f64,
    )
        .prop_map(|(kind, kg, srm, yield_percent)| fermentable(kind, kg, srm, yield_percent))
}

fn any_hop() -> impl Strategy<Value = Hop> {
    (
        hop_use(),
        0.0..=100.0f64,
        0.0..=100_000.0f64,
        0.0..=100_000.0f64,
    )
        .prop_map(|(u, alpha, grams, minutes)| hop(u, alpha, grams, minutes))
}

fn any_yeast() -> impl Strategy<Value = Yeast> {
    prop::option::of(0.0..=100.0f64).prop_map(yeast)
}

const VOLUME: std::ops::RangeInclusive<f64> = 0.001..=100_000.0;

proptest! {
    #[test]
    fn more_grain_raises_og(
        bill in prop::collection::vec(any_fermentable(), 0..8),
        volume in VOLUME,
        efficiency in 0.05..=1.0f64,
        extra_kg in 0.1..=100.0f64,
        yield_percent in 1.0..=100.0f64,
    ) {
        let before = gravity::gravity_points(volume, efficiency, &bill);
        let mut more = bill.clone();
        more.push(fermentable(FermentableType::Grain, extra_kg, 2.0, yield_percent));
        let after = gravity::gravity_points(volume, efficiency, &more);
        prop_assert!(after > before, "{before} → {after}");
    }

    #[test]
    fn ibu_is_never_negative(
        h in any_hop(),
        og in 1.0..=1.2f64,
        volume in VOLUME,
        boil in 0.0..=1_440.0f64,
    ) {
        let ibu = bitterness::hop_ibu(&h, og, volume, boil);
        prop_assert!(ibu.is_finite() && ibu >= 0.0, "{ibu}");
    }

    #[test]
    fn fg_never_above_og_and_abv_never_negative(
        bill in prop::collection::vec(any_fermentable(), 0..6),
        hops in prop::collection::vec(any_hop(), 0..6),
        yeasts in prop::collection::vec(any_yeast(), 0..4),
        volume in VOLUME,
        boil in 0.0..=1_440.0f64,
        efficiency in 0.0..=1.0f64,
    ) {
        let s = compute_stats(&StatsInput {
            batch_size_liters: volume,
            boil_time_minutes: boil,
            efficiency,
            fermentables: &bill,
            hops: &hops,
            yeasts: &yeasts,
        });
        prop_assert!(s.fg <= s.og, "{s:?}");
        prop_assert!(s.fg >= 1.0, "{s:?}");
        prop_assert!(s.abv >= 0.0, "{s:?}");
        prop_assert!(s.ibu >= 0.0 && s.calories >= 0.0 && s.srm >= 0.0, "{s:?}");
        for x in [s.og, s.fg, s.abv, s.ibu, s.srm, s.ebc, s.attenuation, s.calories, s.calories_per_liter] {
            prop_assert!(x.is_finite(), "{s:?}");
        }
        prop_assert_eq!(s.ibu_by_hop.len(), hops.len());
    }

    #[test]
    fn srm_is_monotone_in_colour(
        bill in prop::collection::vec(any_fermentable(), 1..6),
        volume in VOLUME,
        which in any::<prop::sample::Index>(),
        darker_by in 0.0..=500.0f64,
    ) {
        let mut darker = bill.clone();
        if let Some(f) = darker.get_mut(which.index(bill.len())) {
            f.color_srm += darker_by;
        }
        prop_assert!(colour::srm_of(volume, &darker) >= colour::srm_of(volume, &bill));
    }
}
