//! Beer colour: Morey's SRM from malt colour units, and EBC (docs/calculations.md).

use super::{finite_or_zero, gallons, pounds, round_to};
use crate::recipe_children::Fermentable;

/// EBC per SRM (the usual linear conversion).
pub const EBC_PER_SRM: f64 = 1.97;

/// SRM per EBC as a fermentable's colour is converted when a file gives it in EBC where its
/// format wants SRM (BeerXML from BeerSmith): the rounded inverse of [`EBC_PER_SRM`], as
/// brewers and the programs' own tables write it (SRM = EBC × 0.508).
pub const SRM_PER_EBC: f64 = 0.508;

/// All a fermentable gives a beer's colour: its weight and its own colour. A page of the recipe
/// list reads only these two columns of each fermentable, not the whole row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaltColour {
    pub amount_kg: f64,
    pub color_srm: f64,
}

impl From<&Fermentable> for MaltColour {
    fn from(f: &Fermentable) -> Self {
        MaltColour {
            amount_kg: f.amount_kg,
            color_srm: f.color_srm,
        }
    }
}

/// Malt colour units: `Σ lb × color_srm / gal` (°L·lb/gal). 0 when the volume is not positive.
pub fn malt_colour_units(batch_size_liters: f64, fermentables: &[Fermentable]) -> f64 {
    mcu_of(batch_size_liters, fermentables.iter().map(MaltColour::from))
}

/// [`malt_colour_units`] of the malts in the order given (the sum's order is the bill's, so
/// both forms give the same bits).
fn mcu_of(batch_size_liters: f64, malts: impl Iterator<Item = MaltColour>) -> f64 {
    let gal = gallons(batch_size_liters);
    if gal <= 0.0 {
        return 0.0;
    }
    let total: f64 = malts.map(|m| pounds(m.amount_kg) * m.color_srm).sum();
    finite_or_zero(total / gal)
}

/// Morey's equation: `SRM = 1.4922 × MCU^0.6859`; 0 when MCU is 0 (or, invalidly, negative).
pub fn morey_srm(mcu: f64) -> f64 {
    if mcu > 0.0 {
        finite_or_zero(1.4922 * mcu.powf(0.6859))
    } else {
        0.0
    }
}

/// The unrounded Morey SRM of a set of fermentables in a batch.
pub fn srm_of(batch_size_liters: f64, fermentables: &[Fermentable]) -> f64 {
    morey_srm(malt_colour_units(batch_size_liters, fermentables))
}

/// A recipe's `est_color_srm`: [`srm_of`] rounded to one decimal (0 with no fermentables).
pub fn est_color_srm(batch_size_liters: f64, fermentables: &[Fermentable]) -> f64 {
    round_to(srm_of(batch_size_liters, fermentables), 1)
}

/// [`est_color_srm`] from the malts' weights and colours alone.
pub fn est_color_srm_of_malts(batch_size_liters: f64, malts: &[MaltColour]) -> f64 {
    round_to(
        morey_srm(mcu_of(batch_size_liters, malts.iter().copied())),
        1,
    )
}

/// EBC = 1.97 × SRM.
pub fn ebc(srm: f64) -> f64 {
    EBC_PER_SRM * srm
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brewing::fixtures::fermentable;
    use crate::recipe_children::FermentableType::{Grain, Sugar};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn morey_of_ten_mcu() {
        // 10^0.6859 = e^(0.6859 × 2.302585) = e^1.579343 = 4.85168; × 1.4922 = 7.2398
        assert!(close(morey_srm(10.0), 7.2398, 1e-4));
        // EBC = 1.97 × 7.2398 = 14.2624
        assert!(close(ebc(morey_srm(10.0)), 14.2624, 1e-4));
        assert_eq!(morey_srm(0.0), 0.0);
        assert_eq!(morey_srm(-3.0), 0.0);
    }

    #[test]
    fn malt_colour_units_of_a_bill() {
        // 20 L = 5.28344 gal. 5 kg = 11.0231 lb at 3 SRM, 1 kg = 2.20462 lb at 300 SRM:
        //   (11.0231 × 3 + 2.20462 × 300) / 5.28344 = (33.0693 + 661.386) / 5.28344 = 131.4400
        // SRM = 1.4922 × 131.44^0.6859 = 42.3704
        let bill = [
            fermentable(Grain, 5.0, 3.0, 80.0),
            fermentable(Grain, 1.0, 300.0, 60.0),
        ];
        assert!(close(malt_colour_units(20.0, &bill), 131.4400, 1e-3));
        assert!(close(srm_of(20.0, &bill), 42.3704, 1e-3));
        assert_eq!(est_color_srm(20.0, &bill), 42.4);
        // The two columns alone give the same colour.
        let malts: Vec<MaltColour> = bill.iter().map(MaltColour::from).collect();
        assert_eq!(est_color_srm_of_malts(20.0, &malts), 42.4);
    }

    #[test]
    fn colour_ignores_type_and_efficiency() {
        // Colour counts every fermentable by weight, mashed or not.
        let a = [fermentable(Grain, 2.0, 10.0, 80.0)];
        let b = [fermentable(Sugar, 2.0, 10.0, 100.0)];
        assert_eq!(srm_of(20.0, &a), srm_of(20.0, &b));
    }

    #[test]
    fn no_fermentables_no_colour() {
        assert_eq!(srm_of(20.0, &[]), 0.0);
        assert_eq!(est_color_srm(20.0, &[]), 0.0);
        assert_eq!(est_color_srm_of_malts(20.0, &[]), 0.0);
        assert_eq!(srm_of(0.0, &[fermentable(Grain, 2.0, 10.0, 80.0)]), 0.0);
    }
}
