//! `GET /v1/recipes/{id}/stats`: every statistic of docs/calculations.md in one pass.

use serde::Serialize;
use uuid::Uuid;

use super::hop_form::{HopForm, form_factor};
use super::{bitterness, calories, colour, gravity, round_to};
use crate::equipment::EquipmentProfile;
use crate::recipe_children::{Fermentable, Hop, Yeast};

/// What the calculator reads from a recipe.
#[derive(Debug, Clone, Copy)]
pub struct StatsInput<'a> {
    pub batch_size_liters: f64,
    pub boil_time_minutes: f64,
    /// Mash efficiency, 0–1; applies to `grain` and `adjunct` only.
    pub efficiency: f64,
    pub fermentables: &'a [Fermentable],
    pub hops: &'a [Hop],
    pub yeasts: &'a [Yeast],
}

/// The bitterness one hop addition contributes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HopIbu {
    pub hop_id: Uuid,
    /// Rounded to 1 decimal.
    pub ibu: f64,
}

/// A recipe's computed statistics, each rounded as its field's description says. Never stored.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecipeStats {
    /// Original gravity (SG), 4 decimals.
    pub og: f64,
    /// Final gravity (SG), 4 decimals.
    pub fg: f64,
    /// Alcohol by volume (%), 2 decimals.
    pub abv: f64,
    /// Tinseth IBU, 1 decimal.
    pub ibu: f64,
    /// Morey SRM, 1 decimal.
    pub srm: f64,
    /// EBC (1.97 × SRM), 1 decimal.
    pub ebc: f64,
    /// Apparent attenuation (%) used for FG, 1 decimal.
    pub attenuation: f64,
    /// kcal per 355 mL, whole number.
    #[serde(serialize_with = "whole_number")]
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub calories: f64,
    /// kcal per litre, whole number.
    #[serde(serialize_with = "whole_number")]
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub calories_per_liter: f64,
    /// IBU / gravity points, 2 decimals; null when OG = 1.
    pub bu_gu: Option<f64>,
    /// Every hop of the recipe, in the recipe's hop order, zero-IBU hops included.
    pub ibu_by_hop: Vec<HopIbu>,
}

/// What the brewing model adds to a recipe's own input: its equipment profile and its hops'
/// forms. The default (no profile, no forms) gives exactly the plain statistics.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrewingContext<'a> {
    pub equipment: Option<&'a EquipmentProfile>,
    /// The form of each hop of [`StatsInput::hops`], in the same order; a hop without an entry
    /// counts as `None` (factor 1).
    pub hop_forms: &'a [Option<HopForm>],
}

impl BrewingContext<'_> {
    /// The volume OG and IBU are computed over. Without a profile: the batch. With a profile, the
    /// batch plus the trub/chiller loss: the wort at the end of the boil (plus any top-up water)
    /// carries the trub loss away at the same gravity, so the sugar is spread over that whole
    /// volume. This is Brewtarget's `batchSizeNoLosses_l()` (batch + `trubChillerLoss_l`), which
    /// its `recalcOgFg` and `ibuFromHop` both divide by.
    ///
    /// Example: 20 L batch, 1.5 L trub/chiller loss → 21.5 L.
    pub fn gravity_volume_liters(&self, batch_size_liters: f64) -> f64 {
        match self.equipment {
            Some(e) => batch_size_liters + e.trub_chiller_loss_liters,
            None => batch_size_liters,
        }
    }

    /// Tinseth's utilisation multiplier for hop `index`: the kettle's `hop_utilization_percent`/100
    /// (1 without a profile) times the hop form's factor. Example: 90 % kettle, pellets →
    /// 0.90 × 1.10 = 0.99.
    pub fn utilisation_factor(&self, index: usize) -> f64 {
        let kettle = self
            .equipment
            .map_or(1.0, |e| e.hop_utilization_percent / 100.0);
        let form = self.hop_forms.get(index).copied().flatten();
        kettle * form_factor(form)
    }
}

/// The unrounded core of the statistics, for callers that compare or solve (scaling, tests).
#[derive(Debug, Clone, PartialEq)]
pub struct Unrounded {
    /// The OG's points: every fermentable but the `fermenter` additions.
    pub points: f64,
    /// The points added in the fermenter, fermented completely (ABV only).
    pub fermenter_points: f64,
    pub og: f64,
    pub fg: f64,
    pub attenuation: f64,
    /// One per hop, in the recipe's hop order.
    pub hop_ibus: Vec<f64>,
    pub ibu: f64,
}

/// OG, FG and IBU before rounding, with the equipment profile and hop forms.
pub fn unrounded(input: &StatsInput<'_>, context: &BrewingContext<'_>) -> Unrounded {
    let volume = context.gravity_volume_liters(input.batch_size_liters);
    let points = gravity::gravity_points(volume, input.efficiency, input.fermentables);
    let fermenter_points = gravity::fermenter_points(volume, input.efficiency, input.fermentables);
    let og = gravity::original_gravity(points);
    let attenuation = gravity::apparent_attenuation(input.yeasts);
    let fg = gravity::final_gravity(points, attenuation);
    let hop_ibus: Vec<f64> = input
        .hops
        .iter()
        .enumerate()
        .map(|(i, hop)| {
            bitterness::hop_ibu_with_utilisation(
                hop,
                og,
                volume,
                input.boil_time_minutes,
                context.utilisation_factor(i),
            )
        })
        .collect();
    let ibu = hop_ibus.iter().sum();
    Unrounded {
        points,
        fermenter_points,
        og,
        fg,
        attenuation,
        hop_ibus,
        ibu,
    }
}

/// Computes the statistics, without equipment or hop forms, from unrounded intermediates, rounding
/// only the results.
pub fn compute_stats(input: &StatsInput<'_>) -> RecipeStats {
    compute_stats_with(input, &BrewingContext::default())
}

/// [`compute_stats`] with an equipment profile and hop forms: OG over the batch
/// plus the trub/chiller loss, IBU with the kettle's utilisation and the forms' factors. Colour
/// stays over the batch (its Morey fit was made on finished beer). With the default context the
/// numbers are exactly [`compute_stats`]'s.
pub fn compute_stats_with(input: &StatsInput<'_>, context: &BrewingContext<'_>) -> RecipeStats {
    let volume = input.batch_size_liters;
    let Unrounded {
        points,
        fermenter_points,
        og,
        fg,
        attenuation,
        hop_ibus,
        ibu,
    } = unrounded(input, context);
    let hop_ibus: Vec<(Uuid, f64)> = input.hops.iter().map(|hop| hop.id).zip(hop_ibus).collect();

    let srm = colour::srm_of(volume, input.fermentables);
    // A fermenter addition's sugar becomes alcohol (and its calories) as the wort's does: the
    // beer is as if it had started at OG + P_fermenter/1000.
    let fermented_from = og + fermenter_points / 1000.0;
    let kcal_per_100ml = calories::kcal_per_100ml(fermented_from, fg);

    RecipeStats {
        og: round_to(og, 4),
        fg: round_to(fg, 4),
        abv: round_to(gravity::abv_with_fermenter(og, fermenter_points, fg), 2),
        ibu: round_to(ibu, 1),
        srm: round_to(srm, 1),
        ebc: round_to(colour::ebc(srm), 1),
        attenuation: round_to(attenuation, 1),
        calories: round_to(calories::kcal_per_serving(kcal_per_100ml), 0),
        calories_per_liter: round_to(calories::kcal_per_liter(kcal_per_100ml), 0),
        bu_gu: bitterness::bu_gu(ibu, points).map(|r| round_to(r, 2)),
        ibu_by_hop: hop_ibus
            .into_iter()
            .map(|(hop_id, ibu)| HopIbu {
                hop_id,
                ibu: round_to(ibu, 1),
            })
            .collect(),
    }
}

/// Calories are whole numbers (rounded to 0 decimals), so they print as `172`, not `172.0`.
fn whole_number<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    #[allow(clippy::cast_possible_truncation)]
    s.serialize_i64(x.round() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brewing::fixtures::{fermentable, hop, twenty_liters, yeast};
    use crate::brewing::hop_form::HopForm;
    use crate::recipe_children::FermentableType::{Grain, Sugar};
    use crate::recipe_children::HopUse::{Boil, DryHop, FirstWort, Whirlpool};

    #[test]
    fn a_whole_recipe() {
        // 20 L = 5.28344 gal; 5 kg grain (80 %, 3 SRM) = 11.0231 lb, 1 kg sugar (100 %, 0 SRM).
        // points = 11.0231 × 46.21 × 0.8 × 0.72 / 5.28344 + 2.20462 × 46.21 / 5.28344
        //        = 55.5323 + 19.2820 = 74.8143          → OG 1.0748
        // attenuation max(70, null→75) = 75             → FG = 1 + 74.8143 × 0.25/1000 = 1.0187
        // ABV = 74.8143 × 0.75 / 1000 × 131.25 = 7.3645 → 7.36
        // Hop 1: 28 g 5 % boil 60; bigness 1.65 × 0.000125^0.0748143 = 1.65 × e^(−0.672371)
        //   = 0.842320, time (1 − e^(−2.4))/4.15 = 0.219104, mg/L = 0.05 × 28 × 1000/20 = 70
        //   → 0.842320 × 0.219104 × 70 = 12.9189       → 12.9
        // Hop 2: 50 g dry hop                            → 0
        // IBU 12.9189 → 12.9; BU:GU = 12.9189 / 74.8143 = 0.1727 → 0.17
        // MCU = 11.0231 × 3 / 5.28344 = 6.2590; SRM = 1.4922 × 6.2590^0.6859 = 5.2499 → 5.2
        // EBC = 1.97 × 5.2499 = 10.342 → 10.3
        let bill = [
            fermentable(Grain, 5.0, 3.0, 80.0),
            fermentable(Sugar, 1.0, 0.0, 100.0),
        ];
        let hops = [hop(Boil, 5.0, 28.0, 60.0), hop(DryHop, 12.0, 50.0, 4320.0)];
        let yeasts = [yeast(Some(70.0)), yeast(None)];
        let s = compute_stats(&twenty_liters(&bill, &hops, &yeasts));
        assert_eq!(s.og, 1.0748);
        assert_eq!(s.fg, 1.0187);
        assert_eq!(s.abv, 7.36);
        assert_eq!(s.attenuation, 75.0);
        assert_eq!(s.ibu, 12.9);
        assert_eq!(s.bu_gu, Some(0.17));
        assert_eq!(s.srm, 5.2);
        assert_eq!(s.ebc, 10.3);
        assert_eq!(s.ibu_by_hop.len(), 2);
        assert_eq!(
            s.ibu_by_hop[0],
            HopIbu {
                hop_id: hops[0].id,
                ibu: 12.9
            }
        );
        assert_eq!(
            s.ibu_by_hop[1],
            HopIbu {
                hop_id: hops[1].id,
                ibu: 0.0
            }
        );
        // Calories from the unrounded OG/FG, checked against the calories module directly.
        let k = calories::kcal_per_100ml(1.0 + 74.8143 / 1000.0, 1.0 + 74.8143 * 0.25 / 1000.0);
        assert_eq!(s.calories, (k * 3.55).round());
        assert_eq!(s.calories_per_liter, (k * 10.0).round());
    }

    #[test]
    fn a_profile_and_pellets() {
        // The whole recipe above on a kit losing 1.5 L to trub, at 90 % utilisation, hop 1 pellets.
        // OG volume 21.5 L: points = 74.8143 × 20/21.5 = 69.5947 → OG 1.0696.
        // Hop 1: bigness 1.65 × 0.000125^0.0695947 = 0.882774, × 0.219104 × (0.05 × 28000/21.5
        //   = 65.1163 mg/L) = 12.5948, × 0.90 × 1.10 = 12.4688 → 12.5.
        let bill = [
            fermentable(Grain, 5.0, 3.0, 80.0),
            fermentable(Sugar, 1.0, 0.0, 100.0),
        ];
        let hops = [hop(Boil, 5.0, 28.0, 60.0), hop(DryHop, 12.0, 50.0, 4320.0)];
        let yeasts = [yeast(Some(70.0)), yeast(None)];
        let kit = EquipmentProfile {
            trub_chiller_loss_liters: 1.5,
            hop_utilization_percent: 90.0,
            ..EquipmentProfile::lossless("Kit", 20.0)
        };
        let forms = [Some(HopForm::Pellet)];
        let context = BrewingContext {
            equipment: Some(&kit),
            hop_forms: &forms,
        };
        let u = unrounded(&twenty_liters(&bill, &hops, &yeasts), &context);
        assert!((u.points - 69.5947).abs() < 1e-4, "{}", u.points);
        assert!((u.hop_ibus[0] - 12.4688).abs() < 1e-3, "{:?}", u.hop_ibus);
        let s = compute_stats_with(&twenty_liters(&bill, &hops, &yeasts), &context);
        assert_eq!(s.og, 1.0696);
        assert_eq!(s.ibu, 12.5);
        // Colour stays over the batch.
        assert_eq!(s.srm, 5.2);
        // FG from the same points: 1 + 69.5947 × 0.25/1000 = 1.0174.
        assert_eq!(s.fg, 1.0174);
    }

    #[test]
    fn a_lossless_profile_and_leaf_hops_change_nothing() {
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        let hops = [hop(Boil, 5.0, 28.0, 60.0), hop(FirstWort, 7.0, 10.0, 0.0)];
        let yeasts = [yeast(None)];
        let kit = EquipmentProfile::lossless("Pot", 20.0);
        let forms = [Some(HopForm::Leaf), Some(HopForm::Extract)];
        let i = twenty_liters(&bill, &hops, &yeasts);
        let with = compute_stats_with(
            &i,
            &BrewingContext {
                equipment: Some(&kit),
                hop_forms: &forms,
            },
        );
        assert_eq!(with, compute_stats(&i));
    }

    #[test]
    fn a_late_sugar_counts_in_the_og_and_a_fermenter_one_in_the_abv_only() {
        use crate::recipe_children::FermentableAddition::{Fermenter, LateBoil};
        // The whole recipe above (5 kg grain, 1 kg sugar: 74.8143 points, OG 1.0748, FG 1.0187,
        // ABV 7.36) with the sugar late in the boil: nothing changes here (pre-boil gravity
        // is the volumes' concern).
        let late = [
            fermentable(Grain, 5.0, 3.0, 80.0),
            Fermentable {
                added: LateBoil,
                ..fermentable(Sugar, 1.0, 0.0, 100.0)
            },
        ];
        let hops = [hop(Boil, 5.0, 28.0, 60.0)];
        let yeasts = [yeast(Some(70.0)), yeast(None)];
        let s = compute_stats(&twenty_liters(&late, &hops, &yeasts));
        assert_eq!((s.og, s.fg, s.abv), (1.0748, 1.0187, 7.36));
        // The sugar in the fermenter instead: OG from the grain's 55.5323 points = 1.0555;
        // FG = 1 + 55.5323 × 0.25/1000 = 1.0139; the sugar's 19.2820 points ferment fully:
        // ABV = (1.0555323 + 0.0192820 − 1.0138831) × 131.25 = 0.0609312 × 131.25 = 7.9972
        // → 8.00 (more than 7.36: the fermenter sugar leaves no residual gravity).
        // IBU follows the lower OG (Tinseth's bigness factor grows as the gravity falls).
        let fermenter = [
            fermentable(Grain, 5.0, 3.0, 80.0),
            Fermentable {
                added: Fermenter,
                ..fermentable(Sugar, 1.0, 0.0, 100.0)
            },
        ];
        let f = compute_stats(&twenty_liters(&fermenter, &hops, &yeasts));
        assert_eq!(f.og, 1.0555);
        assert_eq!(f.fg, 1.0139);
        assert_eq!(f.abv, 8.0);
        assert!(f.ibu > s.ibu, "a lower boil gravity bitters more");
        // Colour counts every fermentable wherever it goes in.
        assert_eq!(f.srm, s.srm);
        let u = unrounded(
            &twenty_liters(&fermenter, &hops, &yeasts),
            &BrewingContext::default(),
        );
        assert!((u.points - 55.5323).abs() < 1e-4, "{}", u.points);
        assert!(
            (u.fermenter_points - 19.2820).abs() < 1e-4,
            "{}",
            u.fermenter_points
        );
    }

    #[test]
    fn empty_recipe_is_all_zero_and_bu_gu_null() {
        let s = compute_stats(&twenty_liters(&[], &[], &[]));
        assert_eq!(
            s,
            RecipeStats {
                og: 1.0,
                fg: 1.0,
                abv: 0.0,
                ibu: 0.0,
                srm: 0.0,
                ebc: 0.0,
                attenuation: 0.0,
                calories: 0.0,
                calories_per_liter: 0.0,
                bu_gu: None,
                ibu_by_hop: vec![],
            }
        );
    }

    #[test]
    fn hops_without_fermentables_still_bitter_but_bu_gu_null() {
        // OG 1 → bigness 1.65; 10 % × 20 g in 20 L = 100 mg/L; T(60) = 36.1522 → 36.2
        let hops = [hop(Boil, 10.0, 20.0, 60.0)];
        let s = compute_stats(&twenty_liters(&[], &hops, &[]));
        assert_eq!(s.ibu, 36.2);
        assert_eq!(s.bu_gu, None);
    }

    #[test]
    fn no_yeast_means_nothing_ferments() {
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        let s = compute_stats(&twenty_liters(&bill, &[], &[]));
        assert_eq!(s.fg, s.og);
        assert_eq!(s.attenuation, 0.0);
        assert_eq!(s.abv, 0.0);
        assert!(s.calories > 0.0, "sugar still has calories");
    }

    #[test]
    fn total_ibu_sums_unrounded_values() {
        // Three additions of 0.04 IBU each: each rounds to 0.0, but the total 0.12 → 0.1.
        // OG 1: 1.65 × 0.219104 × mg/L = 0.04 → mg/L = 0.110646 → grams = 0.110646 × 20/(0.1·1000)
        let grams = 0.04 / (1.65 * bitterness::boil_time_factor(60.0)) * 20.0 / 100.0;
        let hops = [
            hop(Boil, 10.0, grams, 60.0),
            hop(Boil, 10.0, grams, 60.0),
            hop(Boil, 10.0, grams, 60.0),
        ];
        let s = compute_stats(&twenty_liters(&[], &hops, &[]));
        assert!(s.ibu_by_hop.iter().all(|h| h.ibu == 0.0));
        assert_eq!(s.ibu, 0.1);
    }

    #[test]
    fn hop_order_is_kept() {
        let hops = [
            hop(Whirlpool, 12.0, 30.0, 20.0),
            hop(FirstWort, 4.0, 15.0, 0.0),
            hop(Boil, 8.0, 10.0, 10.0),
        ];
        let s = compute_stats(&twenty_liters(&[], &hops, &[]));
        let ids: Vec<_> = s.ibu_by_hop.iter().map(|h| h.hop_id).collect();
        assert_eq!(ids, hops.iter().map(|h| h.id).collect::<Vec<_>>());
    }

    #[test]
    fn degenerate_volume_never_yields_nan() {
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        let hops = [hop(Boil, 10.0, 20.0, 60.0)];
        let yeasts = [yeast(None)];
        for v in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let s = compute_stats(&StatsInput {
                batch_size_liters: v,
                ..twenty_liters(&bill, &hops, &yeasts)
            });
            for x in [
                s.og,
                s.fg,
                s.abv,
                s.ibu,
                s.srm,
                s.ebc,
                s.calories,
                s.calories_per_liter,
            ] {
                assert!(x.is_finite(), "{v}: {s:?}");
            }
        }
    }

    #[test]
    fn serializes_as_the_contract_shows() {
        let hops = [hop(Boil, 10.0, 20.0, 60.0)];
        let s = compute_stats(&twenty_liters(
            &[fermentable(Grain, 5.0, 3.0, 80.0)],
            &hops,
            &[yeast(None)],
        ));
        let v = serde_json::to_value(&s).unwrap();
        let mut keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "abv",
                "attenuation",
                "bu_gu",
                "calories",
                "calories_per_liter",
                "ebc",
                "fg",
                "ibu",
                "ibu_by_hop",
                "og",
                "srm"
            ]
        );
        assert_eq!(
            v["ibu_by_hop"][0]["hop_id"],
            serde_json::json!(hops[0].id.to_string())
        );
    }
}
