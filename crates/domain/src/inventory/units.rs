//! The units wort recognises in an `amount_unit`, and conversion between units of one dimension.
//!
//! `amount_unit` is free text, stored exactly as typed and never rewritten. Wherever wort compares
//! or adds amounts (a deduction, the shopping list, a cost, the display in the person's units) it
//! *recognises* these units, in any case and in the common spellings:
//!
//! | dimension | units (base amount) |
//! |---|---|
//! | mass | `g` (1 g), `kg` (1,000 g), `oz` (28.349523125 g), `lb` (453.59237 g) |
//! | volume | `ml` (1 ml), `l` (1,000 ml), `gal` (US, 3,785.411784 ml), `tsp` (4.92892159375 ml), `tbsp` (14.78676478125 ml) |
//! | count | `pkg`, `each` (one is one: a packet counts as one item) |
//!
//! Two amounts whose units are not both recognised compare only when their unit strings are the
//! same (ignoring case and surrounding spaces); otherwise they are "not convertible".

use serde::Serialize;

/// What a unit measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    Mass,
    Volume,
    Count,
}

/// A recognised unit: its canonical symbol and how many base units (g, ml, items) one of it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    pub symbol: &'static str,
    pub dimension: Dimension,
    pub base: f64,
}

pub const GRAM: Unit = Unit {
    symbol: "g",
    dimension: Dimension::Mass,
    base: 1.0,
};
pub const KILOGRAM: Unit = Unit {
    symbol: "kg",
    dimension: Dimension::Mass,
    base: 1_000.0,
};
pub const OUNCE: Unit = Unit {
    symbol: "oz",
    dimension: Dimension::Mass,
    base: 28.349_523_125,
};
pub const POUND: Unit = Unit {
    symbol: "lb",
    dimension: Dimension::Mass,
    base: 453.592_37,
};
pub const MILLILITRE: Unit = Unit {
    symbol: "ml",
    dimension: Dimension::Volume,
    base: 1.0,
};
pub const LITRE: Unit = Unit {
    symbol: "l",
    dimension: Dimension::Volume,
    base: 1_000.0,
};
pub const GALLON: Unit = Unit {
    symbol: "gal",
    dimension: Dimension::Volume,
    base: 3_785.411_784,
};
pub const TEASPOON: Unit = Unit {
    symbol: "tsp",
    dimension: Dimension::Volume,
    base: 4.928_921_593_75,
};
pub const TABLESPOON: Unit = Unit {
    symbol: "tbsp",
    dimension: Dimension::Volume,
    base: 14.786_764_781_25,
};
pub const PACKAGE: Unit = Unit {
    symbol: "pkg",
    dimension: Dimension::Count,
    base: 1.0,
};
pub const EACH: Unit = Unit {
    symbol: "each",
    dimension: Dimension::Count,
    base: 1.0,
};

/// Every spelling recognised (compared after lower-casing and trimming; a trailing `.` is
/// dropped, so `oz.` and `lbs.` are recognised too).
const SPELLINGS: &[(&str, Unit)] = &[
    ("g", GRAM),
    ("gr", GRAM),
    ("gram", GRAM),
    ("grams", GRAM),
    ("gramme", GRAM),
    ("grammes", GRAM),
    ("kg", KILOGRAM),
    ("kgs", KILOGRAM),
    ("kilo", KILOGRAM),
    ("kilos", KILOGRAM),
    ("kilogram", KILOGRAM),
    ("kilograms", KILOGRAM),
    ("kilogramme", KILOGRAM),
    ("kilogrammes", KILOGRAM),
    ("oz", OUNCE),
    ("ounce", OUNCE),
    ("ounces", OUNCE),
    ("lb", POUND),
    ("lbs", POUND),
    ("pound", POUND),
    ("pounds", POUND),
    ("ml", MILLILITRE),
    ("millilitre", MILLILITRE),
    ("millilitres", MILLILITRE),
    ("milliliter", MILLILITRE),
    ("milliliters", MILLILITRE),
    ("l", LITRE),
    ("litre", LITRE),
    ("litres", LITRE),
    ("liter", LITRE),
    ("liters", LITRE),
    ("gal", GALLON),
    ("gals", GALLON),
    ("gallon", GALLON),
    ("gallons", GALLON),
    ("tsp", TEASPOON),
    ("teaspoon", TEASPOON),
    ("teaspoons", TEASPOON),
    ("tbsp", TABLESPOON),
    ("tablespoon", TABLESPOON),
    ("tablespoons", TABLESPOON),
    ("pkg", PACKAGE),
    ("pkgs", PACKAGE),
    ("pack", PACKAGE),
    ("packs", PACKAGE),
    ("package", PACKAGE),
    ("packages", PACKAGE),
    ("packet", PACKAGE),
    ("packets", PACKAGE),
    ("sachet", PACKAGE),
    ("sachets", PACKAGE),
    ("each", EACH),
    ("ea", EACH),
    ("item", EACH),
    ("items", EACH),
    ("unit", EACH),
    ("units", EACH),
    ("pc", EACH),
    ("pcs", EACH),
    ("piece", EACH),
    ("pieces", EACH),
];

/// The unit an `amount_unit` names, if wort recognises it.
pub fn recognise(text: &str) -> Option<Unit> {
    let key = text.trim().to_lowercase();
    let key = key.strip_suffix('.').unwrap_or(&key).trim_end();
    SPELLINGS
        .iter()
        .find(|(spelling, _)| *spelling == key)
        .map(|(_, unit)| *unit)
}

/// Two unit strings that are the same text, ignoring case and surrounding spaces.
pub fn same_text(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// `amount` given in `from`, expressed in `to`: through the base unit when both are recognised
/// and measure the same thing, unchanged when the two strings are the same text, else `None`
/// (not convertible).
pub fn convert(amount: f64, from: &str, to: &str) -> Option<f64> {
    match (recognise(from), recognise(to)) {
        (Some(f), Some(t)) if f.dimension == t.dimension => Some(amount * f.base / t.base),
        (Some(_), Some(_)) => None,
        _ if same_text(from, to) => Some(amount),
        _ => None,
    }
}

/// An amount in its base unit (g, ml or items) with its dimension, when the unit is recognised.
pub fn to_base(amount: f64, unit: &str) -> Option<(f64, Dimension)> {
    recognise(unit).map(|u| (amount * u.base, u.dimension))
}

/// The metric unit an amount of this dimension is shown in: kg from 1,000 g up, else g; l from
/// 1,000 ml up, else ml; items as `each`.
pub fn metric_display(base: f64, dimension: Dimension) -> (f64, &'static str) {
    match dimension {
        Dimension::Mass if base >= 1_000.0 => (base / 1_000.0, "kg"),
        Dimension::Mass => (base, "g"),
        Dimension::Volume if base >= 1_000.0 => (base / 1_000.0, "l"),
        Dimension::Volume => (base, "ml"),
        Dimension::Count => (base, "each"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn every_listed_unit_is_recognised_in_any_case() {
        for symbol in [
            "g", "kg", "oz", "lb", "ml", "l", "gal", "tsp", "tbsp", "pkg", "each",
        ] {
            assert_eq!(recognise(symbol).map(|u| u.symbol), Some(symbol));
            assert_eq!(
                recognise(&symbol.to_uppercase()).map(|u| u.symbol),
                Some(symbol)
            );
        }
        assert_eq!(recognise(" Grams ").map(|u| u.symbol), Some("g"));
        assert_eq!(recognise("packets").map(|u| u.symbol), Some("pkg"));
        assert_eq!(recognise("Litres").map(|u| u.symbol), Some("l"));
        assert_eq!(recognise("liters").map(|u| u.symbol), Some("l"));
        assert_eq!(recognise("LBS.").map(|u| u.symbol), Some("lb"));
        assert_eq!(recognise("oz.").map(|u| u.symbol), Some("oz"));
    }

    #[test]
    fn free_text_is_not_recognised() {
        for text in [
            "",
            "handful",
            "vials",
            "sacks of 25 kg",
            "k g",
            "smack pack",
        ] {
            assert_eq!(recognise(text), None, "{text:?}");
        }
    }

    #[test]
    fn conversions_within_a_dimension() {
        assert!(close(convert(2.0, "kg", "g").unwrap(), 2_000.0));
        assert!(close(convert(1.0, "lb", "oz").unwrap(), 16.0));
        assert!(close(convert(1.0, "lb", "kg").unwrap(), 0.453_592_37));
        assert!(close(convert(1.0, "gal", "l").unwrap(), 3.785_411_784));
        assert!(close(convert(1.0, "tbsp", "tsp").unwrap(), 3.0));
        assert!(close(convert(3.0, "packets", "each").unwrap(), 3.0));
        assert!(close(convert(500.0, "grams", "KG").unwrap(), 0.5));
    }

    #[test]
    fn across_dimensions_nothing_converts() {
        assert_eq!(convert(1.0, "kg", "l"), None);
        assert_eq!(convert(1.0, "tsp", "g"), None);
        assert_eq!(convert(1.0, "pkg", "g"), None);
    }

    #[test]
    fn unrecognised_units_compare_only_as_the_same_text() {
        assert_eq!(convert(2.0, "vials", "Vials "), Some(2.0));
        assert_eq!(convert(2.0, "vials", "smack pack"), None);
        assert_eq!(convert(2.0, "vials", "g"), None);
        assert_eq!(convert(2.0, "g", "vials"), None);
    }

    #[test]
    fn metric_display_picks_the_larger_unit_from_one_thousand() {
        assert_eq!(metric_display(999.0, Dimension::Mass), (999.0, "g"));
        assert_eq!(metric_display(2_500.0, Dimension::Mass), (2.5, "kg"));
        assert_eq!(metric_display(1_500.0, Dimension::Volume), (1.5, "l"));
        assert_eq!(metric_display(2.0, Dimension::Count), (2.0, "each"));
    }
}
