//! Original and final gravity, attenuation and alcohol (docs/calculations.md).
//!
//! Gravities are handled as "points": (SG − 1) × 1000, so 1.050 is 50 points.

use super::{finite_or_zero, gallons, pounds};
use crate::recipe_children::{Fermentable, FermentableAddition, FermentableType, Yeast};

/// Gravity points one pound of fully available extract gives in one US gallon (the usual
/// sucrose-based ppg; a fermentable's `yield_percent` scales it).
pub const POINTS_PER_POUND_GALLON: f64 = 46.21;

/// Apparent attenuation (%) assumed for a yeast whose `attenuation` is null.
pub const DEFAULT_YEAST_ATTENUATION: f64 = 75.0;

/// ABV per unit of (OG − FG): the common homebrew approximation `ABV = (OG − FG) × 131.25`.
pub const ABV_FACTOR: f64 = 131.25;

/// The share of a fermentable's extract that reaches the wort: the recipe's mash efficiency for
/// mashed types (`grain`, `adjunct`), all of it for everything else (sugar, extract, fruit…).
pub fn extract_efficiency(kind: FermentableType, recipe_efficiency: f64) -> f64 {
    if kind.is_mashed() {
        recipe_efficiency
    } else {
        1.0
    }
}

/// One fermentable's gravity points in `gal` US gallons:
/// `lb × 46.21 × yield_percent/100 × e / gal`. 0 when the volume is not positive.
pub fn fermentable_points(fermentable: &Fermentable, gal: f64, recipe_efficiency: f64) -> f64 {
    if gal <= 0.0 {
        return 0.0;
    }
    let e = extract_efficiency(fermentable.kind, recipe_efficiency);
    finite_or_zero(
        pounds(fermentable.amount_kg) * POINTS_PER_POUND_GALLON * fermentable.yield_percent / 100.0
            * e
            / gal,
    )
}

/// The points of the fermentables `counts` admits, in `batch_size_liters`.
fn points_where(
    batch_size_liters: f64,
    recipe_efficiency: f64,
    fermentables: &[Fermentable],
    counts: impl Fn(FermentableAddition) -> bool,
) -> f64 {
    let gal = gallons(batch_size_liters);
    fermentables
        .iter()
        .filter(|f| counts(f.added))
        .map(|f| fermentable_points(f, gal, recipe_efficiency))
        .sum()
}

/// The recipe's gravity points, the OG's: the sum over its fermentables that are in the wort by
/// the end of the boil (every one but the `fermenter` additions).
pub fn gravity_points(
    batch_size_liters: f64,
    recipe_efficiency: f64,
    fermentables: &[Fermentable],
) -> f64 {
    points_where(batch_size_liters, recipe_efficiency, fermentables, |a| {
        a.in_the_wort()
    })
}

/// The points in the kettle before the boil: `mash` and `boil` additions only (a `late_boil`
/// sugar goes in after the pre-boil gravity is taken), over the same volume as
/// [`gravity_points`] (the caller spreads them over the pre-boil volume).
pub fn pre_boil_points(
    batch_size_liters: f64,
    recipe_efficiency: f64,
    fermentables: &[Fermentable],
) -> f64 {
    points_where(batch_size_liters, recipe_efficiency, fermentables, |a| {
        a.before_the_boil()
    })
}

/// The points added in the fermenter (fruit, sugar for a second fermentation): not in the OG,
/// fermented completely, so they add to the alcohol and not to the FG.
pub fn fermenter_points(
    batch_size_liters: f64,
    recipe_efficiency: f64,
    fermentables: &[Fermentable],
) -> f64 {
    points_where(batch_size_liters, recipe_efficiency, fermentables, |a| {
        !a.in_the_wort()
    })
}

/// OG = 1 + points/1000.
pub fn original_gravity(points: f64) -> f64 {
    1.0 + points / 1000.0
}

/// The attenuation (%) a yeast is expected to reach: its own, or 75 when unknown. Kept within
/// 0–100 (validation already guarantees it) so FG can never exceed OG or drop below 1.
pub fn yeast_attenuation(yeast: &Yeast) -> f64 {
    match yeast.attenuation {
        Some(a) if a.is_finite() => a.clamp(0.0, 100.0),
        _ => DEFAULT_YEAST_ATTENUATION,
    }
}

/// The recipe's apparent attenuation (%): the largest of its yeasts' (the strongest fermenter
/// decides how far the beer goes); 0 with no yeast at all (nothing ferments).
pub fn apparent_attenuation(yeasts: &[Yeast]) -> f64 {
    yeasts.iter().map(yeast_attenuation).fold(0.0, f64::max)
}

/// FG = 1 + points × (1 − attenuation/100)/1000.
pub fn final_gravity(points: f64, attenuation_percent: f64) -> f64 {
    1.0 + points * (1.0 - attenuation_percent / 100.0) / 1000.0
}

/// ABV (%) = (OG − FG) × 131.25.
pub fn abv(og: f64, fg: f64) -> f64 {
    (og - fg) * ABV_FACTOR
}

/// ABV (%) with `fermenter_points` added after the boil and fermented completely:
/// (OG + P_fermenter/1000 − FG) × 131.25. With no fermenter addition it is [`abv`].
pub fn abv_with_fermenter(og: f64, fermenter_points: f64, fg: f64) -> f64 {
    abv(og + fermenter_points / 1000.0, fg)
}

/// Apparent attenuation (%) of a beer now at `sg` that started at `og`:
/// (OG − SG)/(OG − 1) × 100. `None` when OG ≤ 1, where there was no sugar to ferment.
///
/// Worked example: 1.050 down to 1.012 is 38 of 50 points, 76 %.
pub fn attenuation_so_far(og: f64, sg: f64) -> Option<f64> {
    (og > 1.0).then(|| (og - sg) / (og - 1.0) * 100.0)
}

/// Specific gravity of a wort measured in degrees Plato, by the usual ASBC approximation
/// `SG = 1 + P / (258.6 − (P / 258.2 × 227.1))`; it undoes [`super::calories::plato`] to within
/// 0.0004 SG up to 1.120. Devices and hydrometers may report in °P; readings are stored as SG.
pub fn sg_from_plato(plato: f64) -> f64 {
    1.0 + plato / (258.6 - (plato / 258.2 * 227.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attenuation_so_far_is_the_share_of_points_gone() {
        let a = attenuation_so_far(1.050, 1.012).unwrap_or(f64::NAN);
        assert!((a - 76.0).abs() < 1e-9, "{a}");
        assert_eq!(attenuation_so_far(1.0, 1.0), None);
        assert_eq!(attenuation_so_far(0.998, 0.990), None);
    }
    use crate::brewing::fixtures::{fermentable, yeast};
    use crate::recipe_children::FermentableType::{Adjunct, DryExtract, Grain, Honey, Sugar};

    /// A batch of exactly one US gallon and a weight of exactly one pound, so the hand arithmetic
    /// is just the ppg times yield times efficiency.
    const ONE_GALLON_L: f64 = 1.0 / 0.264172;
    const ONE_POUND_KG: f64 = 1.0 / 2.20462;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn efficiency_only_for_mashed_types() {
        assert_eq!(extract_efficiency(Grain, 0.7), 0.7);
        assert_eq!(extract_efficiency(Adjunct, 0.7), 0.7);
        assert_eq!(extract_efficiency(Sugar, 0.7), 1.0);
        assert_eq!(extract_efficiency(DryExtract, 0.7), 1.0);
        assert_eq!(extract_efficiency(Honey, 0.7), 1.0);
    }

    #[test]
    fn one_pound_of_grain_in_one_gallon() {
        // 1 lb × 46.21 × 80/100 × 0.75 / 1 gal = 27.726 points
        let f = fermentable(Grain, ONE_POUND_KG, 2.0, 80.0);
        let points = gravity_points(ONE_GALLON_L, 0.75, &[f]);
        assert!(close(points, 27.726, 1e-9), "{points}");
        assert!(close(original_gravity(points), 1.027726, 1e-12));
    }

    #[test]
    fn sugar_ignores_efficiency() {
        // 1 lb × 46.21 × 100/100 × 1 / 1 gal = 46.21 points, whatever the mash efficiency
        let f = fermentable(Sugar, ONE_POUND_KG, 0.0, 100.0);
        assert!(close(gravity_points(ONE_GALLON_L, 0.5, &[f]), 46.21, 1e-9));
    }

    #[test]
    fn realistic_grain_and_sugar_bill() {
        // 20 L = 5.28344 gal. 5 kg = 11.0231 lb grain at 80 %, eff 0.72:
        //   11.0231 × 46.21 × 0.80 × 0.72 / 5.28344 = 55.5323 points
        // 1 kg = 2.20462 lb sugar at 100 %: 2.20462 × 46.21 / 5.28344 = 19.2820 points
        // total 74.8143 → OG 1.0748
        let bill = [
            fermentable(Grain, 5.0, 3.0, 80.0),
            fermentable(Sugar, 1.0, 0.0, 100.0),
        ];
        let points = gravity_points(20.0, 0.72, &bill);
        assert!(close(points, 74.8143, 1e-4), "{points}");
    }

    #[test]
    fn each_gravity_counts_the_additions_in_the_wort_by_then() {
        use crate::recipe_children::FermentableAddition::{Boil, Fermenter, LateBoil, Mash};
        // One gallon; 1 lb of grain at 80 %, eff 0.75 = 27.726 points (mash);
        // 1 lb of sugar = 46.21 points, once at each of boil, late boil and fermenter.
        let at = |kind, added| Fermentable {
            added,
            ..fermentable(
                kind,
                ONE_POUND_KG,
                0.0,
                if kind == Grain { 80.0 } else { 100.0 },
            )
        };
        let bill = [
            at(Grain, Mash),
            at(Sugar, Boil),
            at(Sugar, LateBoil),
            at(Sugar, Fermenter),
        ];
        // Pre-boil: 27.726 + 46.21 = 73.936; OG: + 46.21 = 120.146; fermenter: 46.21.
        assert!(close(
            pre_boil_points(ONE_GALLON_L, 0.75, &bill),
            73.936,
            1e-9
        ));
        assert!(close(
            gravity_points(ONE_GALLON_L, 0.75, &bill),
            120.146,
            1e-9
        ));
        assert!(close(
            fermenter_points(ONE_GALLON_L, 0.75, &bill),
            46.21,
            1e-9
        ));
        // FG from the OG's points at 75 %: 1 + 120.146 × 0.25/1000 = 1.0300365.
        // ABV = (1.120146 + 0.04621 − 1.0300365) × 131.25 = 0.1363195 × 131.25 = 17.89194.
        let fg = final_gravity(120.146, 75.0);
        assert!(close(fg, 1.0300365, 1e-9));
        assert!(close(
            abv_with_fermenter(1.120146, 46.21, fg),
            17.891934375,
            1e-6
        ));
        assert_eq!(abv_with_fermenter(1.05, 0.0, 1.0125), abv(1.05, 1.0125));
    }

    #[test]
    fn no_fermentables_or_no_volume_is_zero_points() {
        assert_eq!(gravity_points(20.0, 0.72, &[]), 0.0);
        assert_eq!(original_gravity(0.0), 1.0);
        let f = fermentable(Grain, 5.0, 3.0, 80.0);
        assert_eq!(gravity_points(0.0, 0.72, std::slice::from_ref(&f)), 0.0);
        assert_eq!(gravity_points(f64::NAN, 0.72, &[f]), 0.0);
    }

    #[test]
    fn attenuation_choice() {
        assert_eq!(apparent_attenuation(&[]), 0.0, "no yeast: nothing ferments");
        assert_eq!(
            apparent_attenuation(&[yeast(None)]),
            75.0,
            "null counts as 75"
        );
        assert_eq!(
            apparent_attenuation(&[yeast(Some(70.0)), yeast(None)]),
            75.0
        );
        assert_eq!(
            apparent_attenuation(&[yeast(Some(70.0)), yeast(None), yeast(Some(82.5))]),
            82.5,
            "the largest wins"
        );
        assert_eq!(apparent_attenuation(&[yeast(Some(0.0))]), 0.0);
        assert_eq!(apparent_attenuation(&[yeast(Some(f64::NAN))]), 75.0);
        assert_eq!(apparent_attenuation(&[yeast(Some(140.0))]), 100.0);
    }

    #[test]
    fn final_gravity_and_abv() {
        // FG = 1 + 50 × (1 − 0.75)/1000 = 1.0125; ABV = (1.050 − 1.0125) × 131.25 = 4.921875
        let fg = final_gravity(50.0, 75.0);
        assert!(close(fg, 1.0125, 1e-12));
        assert!(close(abv(1.05, fg), 4.921875, 1e-9));
        // No yeast: attenuation 0, FG = OG, ABV 0.
        assert_eq!(final_gravity(50.0, 0.0), original_gravity(50.0));
        assert_eq!(abv(1.05, 1.05), 0.0);
    }

    #[test]
    fn sg_from_plato_worked_values() {
        // 10 °P: 1 + 10 / (258.6 − 10/258.2 × 227.1) = 1 + 10 / 249.804493 = 1.0400313
        assert!(close(sg_from_plato(10.0), 1.0400313, 1e-7));
        assert_eq!(sg_from_plato(0.0), 1.0, "water is 0 °P");
        // Round trip through the forward formula (calories.rs): 1.050 → 12.3876 °P → 1.05001.
        let back = sg_from_plato(crate::brewing::calories::plato(1.05));
        assert!(close(back, 1.05, 1e-4), "{back}");
    }
}
