//! Calories, from the ASBC / Balling-based formula brewing programs commonly use.
//!
//! Gravities become degrees Plato, the real extract is estimated from the original and apparent
//! extracts (Balling's 0.1808 / 0.8192 split), alcohol by weight from the extract consumed, and
//! energy from alcohol (6.9 kcal/g) and residual carbohydrate (4.0 kcal/g, less 0.1 g of
//! non-carbohydrate extract), scaled by the beer's density.

use super::finite_or_zero;

/// A US 12 fl oz serving is about 355 mL: 3.55 × 100 mL.
pub const SERVING_PER_100ML: f64 = 3.55;
/// One litre is 10 × 100 mL.
pub const LITER_PER_100ML: f64 = 10.0;

/// Degrees Plato of a specific gravity: `−463.37 + 668.72 sg − 205.35 sg²`.
pub fn plato(sg: f64) -> f64 {
    -463.37 + 668.72 * sg - 205.35 * sg * sg
}

/// Real extract (°P) from original (OE) and apparent (AE) extract: `0.1808 OE + 0.8192 AE`.
pub fn real_extract(original_extract: f64, apparent_extract: f64) -> f64 {
    0.1808 * original_extract + 0.8192 * apparent_extract
}

/// Alcohol by weight (%): `(OE − RE) / (2.0665 − 0.010665 OE)`.
pub fn alcohol_by_weight(original_extract: f64, real_extract: f64) -> f64 {
    finite_or_zero((original_extract - real_extract) / (2.0665 - 0.010665 * original_extract))
}

/// kcal per 100 mL: `(6.9 ABW + 4.0 (RE − 0.1)) × FG`, floored at 0 (an unfermented "wort" of
/// plain water would otherwise come out at −0.4).
pub fn kcal_per_100ml(og: f64, fg: f64) -> f64 {
    let oe = plato(og);
    let re = real_extract(oe, plato(fg));
    let abw = alcohol_by_weight(oe, re);
    finite_or_zero((6.9 * abw + 4.0 * (re - 0.1)) * fg).max(0.0)
}

/// kcal in a 355 mL (12 US fl oz) serving.
pub fn kcal_per_serving(kcal_per_100ml: f64) -> f64 {
    kcal_per_100ml * SERVING_PER_100ML
}

/// kcal in a litre.
pub fn kcal_per_liter(kcal_per_100ml: f64) -> f64 {
    kcal_per_100ml * LITER_PER_100ML
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn plato_of_common_gravities() {
        // −463.37 + 668.72 × 1.05 − 205.35 × 1.1025 = −463.37 + 702.156 − 226.398375 = 12.387625
        assert!(close(plato(1.05), 12.387625));
        // −463.37 + 675.4072 − 205.35 × 1.0201 = −463.37 + 675.4072 − 209.477535 = 2.559665
        assert!(close(plato(1.01), 2.559665));
        assert!(close(plato(1.0), 0.0), "water is 0 °P");
    }

    #[test]
    fn a_five_percent_beer() {
        // OG 1.050, FG 1.010: OE = 12.387625, AE = 2.559665
        // RE = 0.1808 × 12.387625 + 0.8192 × 2.559665 = 2.239683 + 2.096877 = 4.336560
        assert!(close(real_extract(12.387625, 2.559665), 4.336560));
        // ABW = (12.387625 − 4.336560) / (2.0665 − 0.010665 × 12.387625)
        //     = 8.051065 / 1.934386 = 4.162078
        assert!(close(alcohol_by_weight(12.387625, 4.336560), 4.162078));
        // kcal/100 mL = (6.9 × 4.162078 + 4.0 × (4.336560 − 0.1)) × 1.010
        //             = (28.718338 + 16.946241) × 1.010 = 46.121225
        let k = kcal_per_100ml(1.05, 1.01);
        assert!(close(k, 46.121225), "{k}");
        // 355 mL: 46.121225 × 3.55 = 163.73; 1 L: 461.21
        assert!(close(kcal_per_serving(k), 163.730349));
        assert!(close(kcal_per_liter(k), 461.21225));
    }

    #[test]
    fn contract_example() {
        // A worked example: OG 1.0521, FG 1.0128 → 172 kcal per 355 mL, 484 per litre.
        let k = kcal_per_100ml(1.0521, 1.0128);
        assert_eq!(kcal_per_serving(k).round(), 172.0);
        assert_eq!(kcal_per_liter(k).round(), 484.0);
    }

    #[test]
    fn water_is_floored_at_zero() {
        // OG = FG = 1: RE = 0, ABW = 0, (0 + 4.0 × (0 − 0.1)) × 1 = −0.4 → 0
        assert_eq!(kcal_per_100ml(1.0, 1.0), 0.0);
    }

    #[test]
    fn unfermented_wort_is_all_carbohydrate() {
        // OG = FG = 1.050: RE = OE = 12.387625, ABW = 0
        // (4.0 × 12.287625) × 1.05 = 51.608025
        assert!(close(kcal_per_100ml(1.05, 1.05), 51.608025));
    }
}
