//! Brewhouse numbers of a brew day: the mash efficiency it reached, from the gravity and volume
//! measured into the fermenter, and the real attenuation of its fermentation.

use super::calories::{plato, real_extract};
use super::gravity::POINTS_PER_POUND_GALLON;
use super::{gallons, pounds};
use crate::recipe_children::FermentableType;

/// One fermentable of the grist as the efficiency needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GristItem {
    pub kind: FermentableType,
    pub amount_kg: f64,
    pub yield_percent: f64,
}

/// Gravity points × US gallons the item holds if all its extract is won:
/// `lb × 46.21 × yield_percent/100`.
fn potential(item: &GristItem) -> f64 {
    pounds(item.amount_kg) * POINTS_PER_POUND_GALLON * item.yield_percent / 100.0
}

/// The mash efficiency (%) a brew day reached: the points measured in the fermenter
/// (`(OG − 1) × 1000 × gal`), less those of the fermentables that are not mashed (sugars,
/// extracts: all their extract counts, as the recipe's OG assumes), over the mashed grist's
/// potential. It is the figure the recipe's `efficiency` plans, so the two compare directly.
/// `None` without mashed grist (an extract brew has no mash efficiency).
///
/// Worked example: 5 kg of pale malt (80 % yield) gives 407.5 point-gallons; 20 L (5.283 gal)
/// at 1.040 holds 211.3, so 51.9 %.
pub fn mash_efficiency_percent(og: f64, liters: f64, grist: &[GristItem]) -> Option<f64> {
    let mashed: f64 = grist
        .iter()
        .filter(|i| i.kind.is_mashed())
        .map(potential)
        .sum();
    let fixed: f64 = grist
        .iter()
        .filter(|i| !i.kind.is_mashed())
        .map(potential)
        .sum();
    let measured = (og - 1.0) * 1000.0 * gallons(liters);
    let efficiency = (measured - fixed) / mashed * 100.0;
    (mashed > 0.0 && efficiency.is_finite()).then_some(efficiency)
}

/// Real attenuation (%): the share of the original extract fermented, with the real extract
/// from Balling's relation `RE = 0.1808 OE + 0.8192 AE` (°Plato, ASBC conversion).
/// `None` when the OG is not above 1 (no extract to ferment).
///
/// Worked example: 1.050 (12.39 °P) to 1.010 (2.56 °P): RE 4.34 °P, 65.0 %.
pub fn real_attenuation_percent(og: f64, fg: f64) -> Option<f64> {
    let oe = plato(og);
    let re = real_extract(oe, plato(fg));
    (og > 1.0 && oe > 0.0).then(|| (oe - re) / oe * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn malt(kg: f64) -> GristItem {
        GristItem {
            kind: FermentableType::Grain,
            amount_kg: kg,
            yield_percent: 80.0,
        }
    }

    #[test]
    fn efficiency_worked_examples() {
        let e = mash_efficiency_percent(1.040, 20.0, &[malt(5.0)]).unwrap();
        assert!((e - 51.86).abs() < 0.01, "{e}");
        // Half a kilo of sugar counts whole, and only the malt's share is the mash's.
        let sugar = GristItem {
            kind: FermentableType::Sugar,
            amount_kg: 0.5,
            yield_percent: 100.0,
        };
        let e = mash_efficiency_percent(1.045, 20.0, &[malt(5.0), sugar]).unwrap();
        assert!((e - 45.84).abs() < 0.01, "{e}");
        assert_eq!(mash_efficiency_percent(1.045, 20.0, &[sugar]), None);
    }

    #[test]
    fn efficiency_undoes_the_recipe_gravity() {
        // The recipe's OG at 72 %: 1 + 0.72 × 407.5 / 5.283 / 1000 = 1.0555.
        let og = 1.0 + 0.72 * potential(&malt(5.0)) / gallons(20.0) / 1000.0;
        let e = mash_efficiency_percent(og, 20.0, &[malt(5.0)]).unwrap();
        assert!((e - 72.0).abs() < 1e-9);
    }

    #[test]
    fn real_attenuation_worked_example() {
        let ra = real_attenuation_percent(1.050, 1.010).unwrap();
        assert!((ra - 64.99).abs() < 0.01, "{ra}");
        assert_eq!(real_attenuation_percent(1.0, 1.0), None);
    }
}
