//! The catalogue's bounds and its cap. The descriptive fields take the same bounds as the recipe
//! child's field of the same name.

use super::model::CatalogKind;
use crate::DomainError;
use crate::error::Violation;
use crate::recipe::rules as recipe;
use crate::rules::{FieldRules, NumberRule, Rule, TextRule, caps, check_room};

/// An account keeps at most this many catalogue items of its own (all kinds together).
pub const MAX_OWN_ITEMS: i64 = 2_000;
/// Other names of one item.
pub const MAX_ALIASES: usize = 20;

/// `limit` of a catalogue list when none is given, and the largest allowed: a picker shows a
/// short list of the best matches.
pub const DEFAULT_PAGE_SIZE: i64 = 20;
pub const MAX_PAGE_SIZE: i64 = 50;

pub const NAME: TextRule = caps::NAME;
/// Each alias, like a name.
pub const ALIAS: TextRule = caps::NAME;
pub const SHORT_TEXT: TextRule = caps::SHORT_TEXT;
pub const NOTES: TextRule = caps::NOTES;
pub const PERCENT: NumberRule = recipe::PERCENT;
pub const COLOR_SRM: NumberRule = recipe::COLOR_SRM;
pub const TEMPERATURE_C: NumberRule = recipe::TEMPERATURE_C;
pub const AMOUNT_UNIT: TextRule = recipe::AMOUNT_UNIT;
/// Degrees Lintner: pale malts about 30–160, the strongest enzymes below 1,000.
pub const DIASTATIC_POWER_LINTNER: NumberRule = NumberRule::range(0.0, 1_000.0);

const COMMON: [(&str, Rule); 3] = [
    ("name", Rule::Text(NAME)),
    ("aliases", Rule::Text(ALIAS)),
    ("notes", Rule::Text(NOTES)),
];

pub const FERMENTABLE_FIELDS: FieldRules = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    ("color_srm", Rule::Number(COLOR_SRM)),
    ("yield_percent", Rule::Number(PERCENT)),
    ("origin", Rule::Text(SHORT_TEXT)),
    ("supplier", Rule::Text(SHORT_TEXT)),
    (
        "diastatic_power_lintner",
        Rule::Number(DIASTATIC_POWER_LINTNER),
    ),
];
pub const HOP_FIELDS: FieldRules = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    ("alpha_acid", Rule::Number(PERCENT)),
    ("beta_acid", Rule::Number(PERCENT)),
    ("origin", Rule::Text(SHORT_TEXT)),
];
pub const YEAST_FIELDS: FieldRules = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    ("lab", Rule::Text(SHORT_TEXT)),
    ("product_id", Rule::Text(SHORT_TEXT)),
    ("attenuation", Rule::Number(PERCENT)),
    ("attenuation_min", Rule::Number(PERCENT)),
    ("attenuation_max", Rule::Number(PERCENT)),
    ("min_temp_c", Rule::Number(TEMPERATURE_C)),
    ("max_temp_c", Rule::Number(TEMPERATURE_C)),
];
pub const MISC_FIELDS: FieldRules = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    ("amount_unit", Rule::Text(AMOUNT_UNIT)),
];

/// The bounded fields of each kind's body.
pub fn item_fields(kind: CatalogKind) -> FieldRules {
    match kind {
        CatalogKind::Fermentable => FERMENTABLE_FIELDS,
        CatalogKind::Hop => HOP_FIELDS,
        CatalogKind::Yeast => YEAST_FIELDS,
        CatalogKind::Misc => MISC_FIELDS,
    }
}

/// The item past [`MAX_OWN_ITEMS`].
pub fn too_many_items() -> Violation {
    Violation::too_many(
        &["catalog"],
        MAX_OWN_ITEMS,
        format!(
            "An account keeps at most {MAX_OWN_ITEMS} catalogue items of its own; delete one first"
        ),
    )
}

/// An account holding `held` items of its own may create one more only below [`MAX_OWN_ITEMS`].
pub fn check_item_room(held: i64) -> Result<(), DomainError> {
    check_room(held, MAX_OWN_ITEMS, too_many_items)
}

/// What a built-in item answers to a change or a delete (`409`: it exists, but is not the
/// account's to change).
pub fn builtin_is_read_only() -> DomainError {
    DomainError::Conflict(
        "Built-in catalogue items are read-only; create your own item instead".to_owned(),
    )
}

/// A `catalog_id` that names no item of the right kind the account can see.
pub fn unknown_catalog_id(kind: Option<CatalogKind>) -> Violation {
    let what = kind.map_or("item", |k| k.as_str());
    Violation::new(
        "custom",
        &["catalog_id"],
        format!("No {what} of the ingredient catalogue has this id"),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn the_item_cap_refuses_the_one_past_it() {
        assert!(check_item_room(MAX_OWN_ITEMS - 1).is_ok());
        let refused = check_item_room(MAX_OWN_ITEMS).unwrap_err();
        assert!(
            matches!(&refused, DomainError::Invalid(v) if v[0] == too_many_items()),
            "{refused:?}"
        );
    }

    #[test]
    fn every_kind_bounds_the_common_fields() {
        for kind in CatalogKind::ALL {
            let names: Vec<_> = item_fields(kind).iter().map(|(n, _)| *n).collect();
            assert!(names.starts_with(&["name", "aliases", "notes"]), "{kind:?}");
        }
    }
}
