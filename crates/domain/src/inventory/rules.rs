//! The inventory's bounds and the adjust rule.

use crate::error::Violation;
use crate::rules::{FieldRules, NumberRule, Rule, TextRule, caps};

pub const DEFAULT_AMOUNT: f64 = 0.0;
pub const DEFAULT_AMOUNT_UNIT: &str = "kg";
/// Largest amount on hand (the field cap of every `amount`); also the ceiling an adjust may reach.
pub const MAX_AMOUNT: f64 = 100_000.0;

pub const NAME: TextRule = caps::NAME;
pub const SHORT_TEXT: TextRule = caps::SHORT_TEXT;
pub const AMOUNT_UNIT: TextRule = TextRule::new(1, 100);
pub const NOTES: TextRule = caps::NOTES;
pub const AMOUNT: NumberRule = NumberRule::range(0.0, MAX_AMOUNT);
pub const PERCENT: NumberRule = NumberRule::range(0.0, 100.0);
pub const COLOR_SRM: NumberRule = NumberRule::range(0.0, 2_000.0);
pub const YEAR: NumberRule = NumberRule::integer(0, 9_999);
/// Price per `amount_unit`: not negative; the ceiling only keeps sums finite.
pub const PRICE_PER_UNIT: NumberRule = NumberRule::range(0.0, 1_000_000.0);
/// `delta` of an adjust: any finite number; the result is what is bounded.
pub const DELTA: NumberRule = NumberRule::range(-f64::MAX, f64::MAX);

pub const ITEM_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("amount", Rule::Number(AMOUNT)),
    ("amount_unit", Rule::Text(AMOUNT_UNIT)),
    ("type", Rule::Text(SHORT_TEXT)),
    ("form", Rule::Text(SHORT_TEXT)),
    ("origin", Rule::Text(SHORT_TEXT)),
    ("alpha_acid", Rule::Number(PERCENT)),
    ("color_srm", Rule::Number(COLOR_SRM)),
    ("yield_percent", Rule::Number(PERCENT)),
    ("attenuation", Rule::Number(PERCENT)),
    ("year", Rule::Number(YEAR)),
    ("notes", Rule::Text(NOTES)),
    ("price_per_unit", Rule::Number(PRICE_PER_UNIT)),
];

/// The body of an adjust: only `delta`.
pub const ADJUST_FIELDS: FieldRules = &[("delta", Rule::Number(DELTA))];

/// Why an adjust was refused. The direction comes from the sign of `delta` (a negative delta can
/// only fail by going below 0, a positive one only by passing the ceiling), never from a
/// re-read amount, which concurrent adjusts may already have moved the other way.
pub fn adjust_refused(current: f64, delta: f64) -> Violation {
    let result = current + delta;
    if delta < 0.0 {
        Violation::new(
            "too_small",
            &["amount"],
            format!("Adjusting by {delta} would leave {result} (below 0)"),
        )
        .with("minimum", 0)
        .with("inclusive", true)
        .with("type", "number")
    } else {
        Violation::new(
            "too_big",
            &["amount"],
            format!("Adjusting by {delta} would leave {result} (above {MAX_AMOUNT})"),
        )
        .with("maximum", MAX_AMOUNT)
        .with("inclusive", true)
        .with("type", "number")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_negative_adjust_is_too_small_whatever_the_amount_read_later() {
        // Read back after a concurrent +1 left the item at 1: still "below 0" for a -2.
        assert_eq!(adjust_refused(1.0, -2.0).code, "too_small");
        assert_eq!(adjust_refused(MAX_AMOUNT, 1.0).code, "too_big");
    }
}
