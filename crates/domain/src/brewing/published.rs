//! Published worked examples, each reproduced with wort's own functions: the table "Published
//! worked examples" in docs/calculations.md names these tests. Where a publication rounds its
//! inputs or its constants, the test says so and allows for it; a test here never restates wort's
//! own answer as if it were the publication's.

use super::fixtures::fermentable;
use super::{
    bitterness, carbonation, colour, gallons, gravity, hydrometer, pitching, pounds, volumes,
};
use crate::recipe_children::FermentableType::Grain;

const LITERS_PER_US_GALLON: f64 = 3.785_411_784;
const KG_PER_POUND: f64 = 0.453_592_37;
const GRAMS_PER_OUNCE: f64 = 28.349_523_125;
const LITERS_PER_US_QUART: f64 = LITERS_PER_US_GALLON / 4.0;

fn celsius(f: f64) -> f64 {
    (f - 32.0) / 1.8
}

/// John Palmer, *How to Brew*, ch. 12.6 "Planning Malt Quantities": 6.5 lb 2-row (31 ppg at
/// 85 %), 0.5 lb each of chocolate (24), crystal 60 (29), dextrin (28) and roast barley (22) in
/// 5 gal: "50.6 points total". Each malt's yield is its table ppg ÷ (46.21 × 0.85).
#[test]
fn palmer_original_gravity() {
    let bill: Vec<_> = [
        (6.5, 31.0),
        (0.5, 24.0),
        (0.5, 29.0),
        (0.5, 28.0),
        (0.5, 22.0),
    ]
    .into_iter()
    .map(|(lb, ppg)| {
        let yield_percent = ppg / (gravity::POINTS_PER_POUND_GALLON * 0.85) * 100.0;
        fermentable(Grain, lb * KG_PER_POUND, 0.0, yield_percent)
    })
    .collect();
    let points = gravity::gravity_points(5.0 * LITERS_PER_US_GALLON, 0.85, &bill);
    assert!((points - 50.6).abs() < 0.05, "{points}");
    // The pounds and gallons round-trip through wort's metric units.
    assert!((pounds(bill[0].amount_kg) - 6.5).abs() < 1e-4);
    assert!((gallons(5.0 * LITERS_PER_US_GALLON) - 5.0).abs() < 1e-4);
}

/// Palmer, *How to Brew*, ch. 5 (Tinseth's utilisation table): 1.5 oz Perle 6.4 % at 60 min and
/// 1 oz Liberty 4.6 % at 15 min in 5 gal, boil gravity 1.080: "IBU(60) = 9.6 x .176 x 75 / 5 =
/// 25 … IBU(15) = 4.6 x .087 x 75 / 5 = 6 Giving a grand total of 31 IBUs".
#[test]
fn palmer_tinseth_bitterness() {
    let liters = 5.0 * LITERS_PER_US_GALLON;
    assert!((bitterness::utilisation(1.080, 60.0) - 0.176).abs() < 0.0005);
    assert!((bitterness::utilisation(1.080, 15.0) - 0.087).abs() < 0.0005);
    let sixty = bitterness::tinseth_ibu(1.080, 60.0, 6.4, 1.5 * GRAMS_PER_OUNCE, liters);
    let fifteen = bitterness::tinseth_ibu(1.080, 15.0, 4.6, GRAMS_PER_OUNCE, liters);
    assert_eq!((sixty.round(), fifteen.round()), (25.0, 6.0));
    assert_eq!((sixty + fifteen).round(), 31.0);
}

/// straighttothepint.com, "SRM calculator": 3 lb of 23 °L malt in 5.5 gal, "MCU = 12.55",
/// "SRM = 8.46". Brad Smith (BeerSmith forum, topic 6244): 5 lb at 2 SRM and 2 lb at 23 SRM in
/// 7.02 gal, MCU summed first, "about 6.3" (BeerSmith shows 6.4).
#[test]
fn morey_colour() {
    let liters = 5.5 * LITERS_PER_US_GALLON;
    let malt = [fermentable(Grain, 3.0 * KG_PER_POUND, 23.0, 75.0)];
    let mcu = colour::malt_colour_units(liters, &malt);
    assert!((mcu - 12.55).abs() < 0.01, "{mcu}");
    assert!((colour::morey_srm(mcu) - 8.46).abs() < 0.005);
    let two = [
        fermentable(Grain, 5.0 * KG_PER_POUND, 2.0, 75.0),
        fermentable(Grain, 2.0 * KG_PER_POUND, 23.0, 75.0),
    ];
    let srm = colour::srm_of(7.02 * LITERS_PER_US_GALLON, &two);
    assert!((srm - 6.3).abs() < 0.15, "{srm}");
}

/// The (OG − FG) × 131.25 approximation as calculators publish it: OG 1.050, FG 1.010 → 5.25 %.
#[test]
fn abv_approximation() {
    assert!((gravity::abv(1.050, 1.010) - 5.25).abs() < 1e-9);
}

/// Palmer's strike-water formula as worked at freshbrewlog.blogspot.com (2009): 1 qt/lb, grain
/// at 65 °F, a 130 °F rest: "our first infusion is 14qt at 143F".
#[test]
fn palmer_strike_temperature() {
    let liters_per_kg = LITERS_PER_US_QUART / KG_PER_POUND;
    let t = volumes::strike_temperature_c(celsius(130.0), celsius(65.0), liters_per_kg);
    let f = t * 1.8 + 32.0;
    assert!((f - 143.0).abs() < 0.5, "{f}");
}

/// The AHA's hydrometer correction table (calibrated at 59 °F): 1.040 read at 95 °F is 1.0451.
#[test]
fn hydrometer_temperature_correction() {
    let g = hydrometer::corrected_gravity(1.040, 95.0, 59.0);
    assert!((g - 1.0451).abs() < 0.00005, "{g}");
}

/// Ray Daniels, *Designing Great Beers*, ch. 6 (as topdownbrew.com quotes it): 5 gal of 1.055,
/// target 1.050: "adding a half gallon of water to five gallons will yield 5.5 gallons".
#[test]
fn daniels_dilution() {
    let v = hydrometer::diluted_volume(5.0 * LITERS_PER_US_GALLON, 1.055, 1.050);
    assert!((v / LITERS_PER_US_GALLON - 5.5).abs() < 1e-9);
}

/// Zymurgy's priming formula (homebrewacademy.com): 5 gal at 65 °F to 2.5 volumes, "121.13
/// grams (corn sugar)". Its 15.195 g per gallon and volume is 4.01 g/L: the sucrose amount.
/// wort gives 120.7 g of table sugar, and 132.6 g of corn sugar, which is 9 % water (dextrose
/// monohydrate): the publication's label, not its arithmetic, is where the two part.
#[test]
fn zymurgy_priming_sugar() {
    let residual = carbonation::residual_co2_volumes(65.0);
    let liters = 5.0 * LITERS_PER_US_GALLON;
    let table = carbonation::priming_sugar_grams(liters, 2.5 - residual, 1.0);
    assert!((table - 121.13).abs() < 0.5, "{table}");
    let corn = carbonation::priming_sugar_grams(liters, 2.5 - residual, 0.91);
    assert!((corn - 132.6).abs() < 0.1, "{corn}");
}

/// The Zahm & Nagel carbonation chart: 38 °F at 2.5 volumes is 11–12 psi.
#[test]
fn zahm_nagel_keg_pressure() {
    let psi = carbonation::keg_pressure_psi(38.0, 2.5);
    assert!((11.0..=12.0).contains(&psi.round()), "{psi}");
}

/// Jamil Zainasheff, mrmalty.com "Pitching rate": "for a 1.048 wort pitching into 5.25 gallons
/// you need about 180 billion cells. (750,000) X (20,000) X (12)". With his rounded inputs (20 L,
/// 12 °P) exactly 180; with the exact ones (19.87 L, 11.9 °P) 177.
#[test]
fn mr_malty_pitch_rate() {
    let rounded = pitching::cells_needed_billion(pitching::ALE_RATE, 20.0, 12.0);
    assert!((rounded - 180.0).abs() < 1e-9);
    let exact = pitching::cells_needed_billion(
        pitching::ALE_RATE,
        5.25 * LITERS_PER_US_GALLON,
        super::calories::plato(1.048),
    );
    assert!((exact - 177.4).abs() < 0.5, "{exact}");
}

/// Brewer's Friend's viability model: "drops 21 % each month, or 0.7 % each day … In 4.75 months
/// or 143 days, this calculator assumes the yeast is 100 % dead (100 / 0.7 = ~143)".
#[test]
fn brewers_friend_viability() {
    assert!((pitching::viability_percent(30.0) - 79.0).abs() < 1e-9);
    assert!(pitching::viability_percent(143.0) < 0.2);
    assert_eq!(pitching::viability_percent(144.0), 0.0);
}
