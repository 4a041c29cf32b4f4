//! The vocabulary every aggregate's `rules.rs` is written in: a bound on a text's length or on a
//! number, each able to check a value and say what is wrong in the Zod shape of the API's
//! `422` details (docs/api-rules.md, "Validation").
//!
//! A bound is written once, as a constant in its aggregate's `rules.rs`. The HTTP adapter checks
//! request fields with it, the OpenAPI document shows it (the adapter reads the aggregate's
//! [`FieldRules`] table), and the CLI checks its arguments with it: three readers, one number.

use crate::error::{DomainError, Violation};

/// Length bounds of a string, in Unicode scalar values (lengths count chars, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRule {
    pub min: usize,
    pub max: usize,
}

impl TextRule {
    pub const fn new(min: usize, max: usize) -> Self {
        TextRule { min, max }
    }

    /// Too short, too long, or holding U+0000 (which PostgreSQL `text` cannot store).
    pub fn check(&self, path: &[&str], text: &str) -> Result<(), Violation> {
        let len = text.chars().count();
        if len < self.min {
            Err(Violation::too_small_text(path, self.min))
        } else if len > self.max {
            Err(Violation::too_big_text(path, self.max))
        } else if text.contains('\0') {
            Err(Violation::nul_in_string(path))
        } else {
            Ok(())
        }
    }
}

/// Bounds of a finite number; `exclusive_min` makes `min` a "greater than" bound, `integer`
/// refuses fractions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumberRule {
    pub min: f64,
    pub max: f64,
    pub exclusive_min: bool,
    pub integer: bool,
}

impl NumberRule {
    /// `min..=max`.
    pub const fn range(min: f64, max: f64) -> Self {
        NumberRule {
            min,
            max,
            exclusive_min: false,
            integer: false,
        }
    }

    /// `(min, max]`: strictly greater than `min`.
    pub const fn above(min: f64, max: f64) -> Self {
        NumberRule {
            min,
            max,
            exclusive_min: true,
            integer: false,
        }
    }

    /// Whole numbers in `min..=max` (`2.0` counts as whole, as in JavaScript).
    pub const fn integer(min: i64, max: i64) -> Self {
        #[allow(clippy::cast_precision_loss)]
        NumberRule {
            min: min as f64,
            max: max as f64,
            exclusive_min: false,
            integer: true,
        }
    }

    /// Out of range (checked on the number exactly as sent), or a fraction where a whole number
    /// is wanted. The caller has already refused NaN and infinities as the wrong type.
    pub fn check(&self, path: &[&str], x: f64) -> Result<(), Violation> {
        let below = if self.exclusive_min {
            x <= self.min
        } else {
            x < self.min
        };
        if below {
            Err(Violation::too_small_number(
                path,
                self.min,
                !self.exclusive_min,
            ))
        } else if x > self.max {
            Err(Violation::too_big_number(path, self.max))
        } else if self.integer && x.fract() != 0.0 {
            Err(Violation::not_integer(path))
        } else {
            Ok(())
        }
    }
}

/// One bounded field of a request body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    Text(TextRule),
    Number(NumberRule),
}

/// The bounded fields of a request body, by their JSON names: what the OpenAPI document shows as
/// `minLength`/`maxLength`/`minimum`/`exclusiveMinimum`/`maximum`.
pub type FieldRules = &'static [(&'static str, Rule)];

/// Whether a capped collection that holds `count` items may take one more: refused with the
/// aggregate's `full` violation once it holds `max`, so the cap is reached and never passed.
///
/// The caller counts inside the transaction that inserts, with the owner's row locked, so two
/// concurrent requests cannot both see room for the last item.
pub fn check_room(
    count: i64,
    max: i64,
    full: impl FnOnce() -> Violation,
) -> Result<(), DomainError> {
    if count < max {
        Ok(())
    } else {
        Err(DomainError::invalid(full()))
    }
}

/// Caps shared by every aggregate (docs/api-rules.md "Field caps").
pub mod caps {
    use super::{NumberRule, TextRule};

    /// Names and titles.
    pub const NAME: TextRule = TextRule::new(1, 200);
    /// `style`, `lab`, `product_id`, `origin`, `form`, free-text `type`, `amount_unit`.
    pub const SHORT_TEXT: TextRule = TextRule::new(0, 100);
    /// `notes`, `description`.
    pub const NOTES: TextRule = TextRule::new(0, 10_000);
    /// `sort_order` of a recipe ingredient or a checklist step.
    pub const SORT_ORDER: NumberRule = NumberRule::integer(0, 1_000_000);
    /// Temperatures in °C.
    pub const TEMPERATURE_C: NumberRule = NumberRule::range(-20.0, 120.0);
    /// Measured gravities (SG).
    pub const GRAVITY: NumberRule = NumberRule::range(0.9, 1.2);
    /// Batch volumes in litres.
    pub const BATCH_SIZE_LITERS: NumberRule = NumberRule::above(0.0, 100_000.0);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn text_bounds_count_chars_and_refuse_nul() {
        let rule = TextRule::new(1, 3);
        assert!(rule.check(&["n"], "äöü").is_ok());
        assert_eq!(rule.check(&["n"], "").unwrap_err().code, "too_small");
        assert_eq!(rule.check(&["n"], "abcd").unwrap_err().code, "too_big");
        assert_eq!(
            rule.check(&["n"], "a\0").unwrap_err().code,
            "invalid_string"
        );
    }

    #[test]
    fn a_cap_allows_up_to_max_and_refuses_at_it() {
        let full = || Violation::too_many(&["things"], 3, "at most 3");
        assert!(check_room(0, 3, full).is_ok());
        assert!(check_room(2, 3, full).is_ok());
        for held in [3, 4, i64::MAX] {
            match check_room(held, 3, full) {
                Err(DomainError::Invalid(v)) => assert_eq!(v[0].path, ["things"]),
                other => panic!("{held} held: {other:?}"),
            }
        }
    }

    #[test]
    fn number_bounds_inclusive_exclusive_and_integer() {
        let above = NumberRule::above(0.0, 10.0);
        let v = above.check(&["v"], 0.0).unwrap_err();
        assert_eq!(
            (v.code, &v.extra["inclusive"]),
            ("too_small", &false.into())
        );
        assert!(above.check(&["v"], 10.0).is_ok());
        assert_eq!(above.check(&["v"], 10.5).unwrap_err().code, "too_big");
        let whole = NumberRule::integer(0, 5);
        assert_eq!(whole.check(&["v"], 2.5).unwrap_err().code, "not_integer");
        assert!(whole.check(&["v"], 2.0).is_ok());
    }
}
