//! Property tests: relations that must hold for every valid recipe, not just the hand-checked ones.

use proptest::prelude::*;

use super::fixtures::{fermentable, hop, yeast};
use super::hop_form::HopForm;
use super::scaling::{ScaleTarget, scale};
use super::stats::{RecipeStats, unrounded};
use super::volumes::volumes;
use super::{
    BrewingContext, StatsInput, bitterness, calories, colour, compute_stats, compute_stats_with,
    gravity, round_to,
};
use crate::equipment::EquipmentProfile;
use crate::recipe_children::{Fermentable, FermentableType, Hop, HopUse, Yeast};

fn fermentable_type() -> impl Strategy<Value = FermentableType> {
    prop::sample::select(FermentableType::ALL)
}

fn hop_use() -> impl Strategy<Value = HopUse> {
    prop::sample::select(HopUse::ALL)
}

/// Any fermentable within the API's field caps (docs/api-rules.md).
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

    #[test]
    fn no_profile_and_no_forms_is_the_plain_calculation(
        bill in prop::collection::vec(any_fermentable(), 0..6),
        hops in prop::collection::vec(any_hop(), 0..6),
        yeasts in prop::collection::vec(any_yeast(), 0..4),
        volume in VOLUME,
        boil in 0.0..=1_440.0f64,
        efficiency in 0.0..=1.0f64,
    ) {
        let input = StatsInput {
            batch_size_liters: volume,
            boil_time_minutes: boil,
            efficiency,
            fermentables: &bill,
            hops: &hops,
            yeasts: &yeasts,
        };
        let forms = vec![None; hops.len()];
        let expected = plain_stats(&input);
        prop_assert_eq!(&compute_stats(&input), &expected);
        let no_forms = BrewingContext { equipment: None, hop_forms: &forms };
        prop_assert_eq!(&compute_stats_with(&input, &no_forms), &expected);
        // A kit that loses nothing at 100 % utilisation is the same as no kit.
        let pot = EquipmentProfile::lossless("Pot", volume);
        let lossless = BrewingContext { equipment: Some(&pot), hop_forms: &forms };
        prop_assert_eq!(&compute_stats_with(&input, &lossless), &expected);
    }
}

/// A recipe a brewer could scale: something fermentable, sensible amounts (so the scaled amounts
/// stay within the field caps), any hop use.
fn brewable_fermentable() -> impl Strategy<Value = Fermentable> {
    (
        fermentable_type(),
        0.01..=2.0f64,
        0.0..=500.0f64,
        1.0..=100.0f64,
    )
        .prop_map(|(kind, kg, srm, yield_percent)| fermentable(kind, kg, srm, yield_percent))
}

fn brewable_hop() -> impl Strategy<Value = (Hop, Option<HopForm>)> {
    (
        hop_use(),
        1.0..=20.0f64,
        0.0..=100.0f64,
        0.0..=120.0f64,
        prop::option::of(prop::sample::select(HopForm::ALL)),
    )
        .prop_map(|(u, alpha, grams, minutes, form)| (hop(u, alpha, grams, minutes), form))
}

fn kit() -> impl Strategy<Value = Option<EquipmentProfile>> {
    prop::option::of(
        (0.0..=3.0f64, 50.0..=150.0f64).prop_map(|(trub, utilisation)| EquipmentProfile {
            trub_chiller_loss_liters: trub,
            hop_utilization_percent: utilisation,
            ..EquipmentProfile::lossless("Kit", 20.0)
        }),
    )
}

proptest! {
    #[test]
    fn scaling_keeps_og_and_ibu(
        bill in prop::collection::vec(brewable_fermentable(), 1..6),
        hops_and_forms in prop::collection::vec(brewable_hop(), 0..6),
        yeasts in prop::collection::vec(any_yeast(), 0..3),
        volume in 5.0..=100.0f64,
        boil in 0.0..=120.0f64,
        efficiency in 0.3..=1.0f64,
        new_volume in 1.0..=1_000.0f64,
        new_efficiency in prop::option::of(0.3..=1.0f64),
        profile in kit(),
    ) {
        let (hops, forms): (Vec<Hop>, Vec<Option<HopForm>>) = hops_and_forms.into_iter().unzip();
        let input = StatsInput {
            batch_size_liters: volume,
            boil_time_minutes: boil,
            efficiency,
            fermentables: &bill,
            hops: &hops,
            yeasts: &yeasts,
        };
        let context = BrewingContext { equipment: profile.as_ref(), hop_forms: &forms };
        let target = ScaleTarget { batch_size_liters: new_volume, efficiency: new_efficiency };
        let scaled = scale(&input, &context, &target);
        prop_assert!(scaled.is_ok(), "{scaled:?}");
        let Ok(scaled) = scaled else { return Ok(()) };

        let new_bill: Vec<Fermentable> = bill.iter().zip(&scaled.fermentable_amounts_kg)
            .map(|(f, kg)| Fermentable { amount_kg: *kg, ..f.clone() }).collect();
        let new_hops: Vec<Hop> = hops.iter().zip(&scaled.hop_amounts_grams)
            .map(|(h, g)| Hop { amount_grams: *g, ..h.clone() }).collect();
        let new_input = StatsInput {
            batch_size_liters: new_volume,
            efficiency: scaled.efficiency,
            fermentables: &new_bill,
            hops: &new_hops,
            ..input
        };
        let before = unrounded(&input, &context);
        let after = unrounded(&new_input, &context);
        // The tolerances docs/calculations.md ("Scaling") states: OG within 0.001, IBU within 1 %.
        prop_assert!((after.og - before.og).abs() < 0.001, "{before:?} → {after:?}");
        prop_assert!(
            (after.ibu - before.ibu).abs() <= 0.01 * before.ibu,
            "{before:?} → {after:?}"
        );
        // And the rounded statistics agree as closely.
        let (s0, s1) = (compute_stats_with(&input, &context), compute_stats_with(&new_input, &context));
        prop_assert!((s1.og - s0.og).abs() < 0.001, "{s0:?} → {s1:?}");
        // Every amount is a real quantity.
        for x in scaled.fermentable_amounts_kg.iter().chain(&scaled.hop_amounts_grams) {
            prop_assert!(x.is_finite() && *x >= 0.0, "{scaled:?}");
        }
    }
}

fn any_kit() -> impl Strategy<Value = EquipmentProfile> {
    (
        0.0..=10.0f64,
        0.0..=5.0f64,
        0.0..=5.0f64,
        0.0..=2.0f64,
        0.0..=10.0f64,
    )
        .prop_map(
            |(boil_off, trub, deadspace, absorption, top_up)| EquipmentProfile {
                boil_off_liters_per_hour: boil_off,
                trub_chiller_loss_liters: trub,
                mash_tun_deadspace_liters: deadspace,
                grain_absorption_liters_per_kg: absorption,
                top_up_water_liters: top_up,
                ..EquipmentProfile::lossless("Kit", 20.0)
            },
        )
}

proptest! {
    #[test]
    fn volumes_add_up(
        bill in prop::collection::vec(brewable_fermentable(), 0..6),
        kit in any_kit(),
        volume in 10.0..=1_000.0f64,
        boil in 0.0..=180.0f64,
        efficiency in 0.3..=1.0f64,
    ) {
        let input = StatsInput {
            batch_size_liters: volume,
            boil_time_minutes: boil,
            efficiency,
            fermentables: &bill,
            hops: &[],
            yeasts: &[],
        };
        let v = volumes(&kit, &input);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + b.abs());
        // Backwards from the fermenter: every loss and the boil-off accounted for once.
        prop_assert!(close(v.into_fermenter_liters, volume));
        prop_assert!(close(
            v.post_boil_liters - kit.trub_chiller_loss_liters + kit.top_up_water_liters,
            volume
        ));
        prop_assert!(close(v.pre_boil_liters - v.post_boil_liters, kit.boil_off_liters_per_hour * boil / 60.0));
        let grain: f64 = bill.iter().filter(|f| f.kind.is_mashed()).map(|f| f.amount_kg).sum();
        if grain > 0.0 {
            // All the water heated leaves the tun as pre-boil wort, or stays in grain and tun.
            prop_assert!(close(
                v.strike_water_liters + v.sparge_water_liters,
                v.pre_boil_liters + kit.mash_tun_deadspace_liters
                    + kit.grain_absorption_liters_per_kg * grain
            ));
            prop_assert!(v.sparge_water_liters >= 0.0);
        } else {
            prop_assert_eq!((v.strike_water_liters, v.sparge_water_liters), (0.0, 0.0));
        }
        // The same sugar before the boil as in the fermenter (OG's volume is V + trub loss).
        let og = unrounded(&input, &BrewingContext { equipment: Some(&kit), hop_forms: &[] }).og;
        if v.pre_boil_liters > 0.0 {
            prop_assert!(close(
                (v.pre_boil_gravity - 1.0) * v.pre_boil_liters,
                (og - 1.0) * (volume + kit.trub_chiller_loss_liters)
            ));
        }
    }
}

/// The statistics without equipment or hop forms, written out from their building blocks, as
/// `compute_stats` was before those came: the oracle the property above holds today's code to.
fn plain_stats(input: &StatsInput<'_>) -> RecipeStats {
    let v = input.batch_size_liters;
    let points = gravity::gravity_points(v, input.efficiency, input.fermentables);
    let og = gravity::original_gravity(points);
    let attenuation = gravity::apparent_attenuation(input.yeasts);
    let fg = gravity::final_gravity(points, attenuation);
    let ibus: Vec<f64> = input
        .hops
        .iter()
        .map(|h| bitterness::hop_ibu(h, og, v, input.boil_time_minutes))
        .collect();
    let ibu: f64 = ibus.iter().sum();
    let srm = colour::srm_of(v, input.fermentables);
    let kcal = calories::kcal_per_100ml(og, fg);
    RecipeStats {
        og: round_to(og, 4),
        fg: round_to(fg, 4),
        abv: round_to(gravity::abv(og, fg), 2),
        ibu: round_to(ibu, 1),
        srm: round_to(srm, 1),
        ebc: round_to(colour::ebc(srm), 1),
        attenuation: round_to(attenuation, 1),
        calories: round_to(calories::kcal_per_serving(kcal), 0),
        calories_per_liter: round_to(calories::kcal_per_liter(kcal), 0),
        bu_gu: bitterness::bu_gu(ibu, points).map(|r| round_to(r, 2)),
        ibu_by_hop: input
            .hops
            .iter()
            .zip(ibus)
            .map(|(h, ibu)| super::HopIbu {
                hop_id: h.id,
                ibu: round_to(ibu, 1),
            })
            .collect(),
    }
}
