//! Brewing calculations (docs/calculations.md): pure functions of a recipe's ingredients, no I/O.
//!
//! [`compute_stats`] gives everything `GET /v1/recipes/{id}/stats` returns; the submodules hold one
//! small named function per formula. Everything is computed from unrounded intermediates and only
//! [`compute_stats`] (and [`est_color_srm`]) round, as docs/calculations.md
//! ("Rounding and undefined values") says.
//!
//! Units inside the formulas are the American ones the formulas were fitted in (pounds, US
//! gallons); [`pounds`] and [`gallons`] convert from the service's metric units.
//! See `docs/calculations.md` for sources and conventions.

pub mod agreement;
pub mod bitterness;
pub mod brewhouse;
pub mod calories;
pub mod carbonation;
pub mod colour;
pub mod explain;
pub mod fermentation;
pub mod forecast;
pub mod gravity;
pub mod hop_form;
pub mod hop_stand;
pub mod hydrometer;
pub mod mash;
pub mod pitching;
pub mod refractometer;
pub mod report;
pub mod scaling;
pub mod stats;
pub mod styles;
pub mod volumes;
pub mod water;

#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod forecast_check;
#[cfg(test)]
mod properties;
#[cfg(test)]
mod published;

pub use colour::{MaltColour, est_color_srm, est_color_srm_of_malts, srm_of};
pub use hop_form::HopForm;
pub use report::{ReportOptions, StatsReport, stats_report};
pub use stats::{
    BrewingContext, HopIbu, RecipeStats, StatsInput, compute_stats, compute_stats_with,
};
pub use styles::{Style, StyleFit, style, style_fit, styles};
pub use volumes::{Volumes, volumes};

/// US gallons in one litre (the constant docs/calculations.md uses).
pub const GALLONS_PER_LITER: f64 = 0.264172;
/// Pounds in one kilogram (the constant docs/calculations.md uses).
pub const POUNDS_PER_KG: f64 = 2.20462;

/// Litres to US gallons.
pub fn gallons(liters: f64) -> f64 {
    liters * GALLONS_PER_LITER
}

/// Kilograms to pounds.
pub fn pounds(kg: f64) -> f64 {
    kg * POUNDS_PER_KG
}

/// `x` when it is a finite number, else 0: where a quantity is undefined (a zero volume, say) the
/// calculator reports 0 rather than NaN or infinity, which JSON cannot even carry.
pub fn finite_or_zero(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

/// Numbers as a brewer writes them, for text (checklist steps, names): `28`, `28.35`, `0.5`.
pub fn amount_text(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Rounds half away from zero to `decimals` places; never returns NaN, infinity or `-0`.
pub fn round_to(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    // `+ 0.0` turns a negative zero (from rounding -0.00001, say) into 0.
    finite_or_zero((x * scale).round() / scale) + 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_conversions() {
        assert_eq!(gallons(1.0), 0.264172);
        assert_eq!(pounds(1.0), 2.20462);
        // 20 L × 0.264172 = 5.28344 gal
        assert!((gallons(20.0) - 5.28344).abs() < 1e-12);
    }

    #[test]
    fn rounding() {
        assert_eq!(round_to(1.052_149, 4), 1.0521);
        assert_eq!(round_to(1.052_151, 4), 1.0522);
        assert_eq!(round_to(35.25, 1), 35.3);
        assert_eq!(round_to(171.6, 0), 172.0);
        assert_eq!(round_to(f64::NAN, 2), 0.0);
        assert_eq!(round_to(f64::INFINITY, 2), 0.0);
        let r = round_to(-0.00001, 2);
        assert_eq!(r, 0.0);
        assert!(r.is_sign_positive(), "no negative zero in the output");
    }

    #[test]
    fn finite_or_zero_keeps_numbers() {
        assert_eq!(finite_or_zero(-3.5), -3.5);
        assert_eq!(finite_or_zero(f64::NEG_INFINITY), 0.0);
    }
}
