//! The recipe's bounds, defaults and limits (docs/api-rules.md "Field caps"), and the violations
//! they produce.

use super::model::{RecipeChildKind, RecipeType};
use crate::DomainError;
use crate::error::Violation;
use crate::rules::{FieldRules, NumberRule, Rule, TextRule, caps, check_room};

pub const DEFAULT_BATCH_SIZE_LITERS: f64 = 20.0;
pub const DEFAULT_BOIL_TIME_MINUTES: f64 = 60.0;
pub const DEFAULT_EFFICIENCY: f64 = 0.72;
pub const DEFAULT_TYPE: RecipeType = RecipeType::AllGrain;
pub const DEFAULT_STYLE: &str = "";
/// A recipe holds at most this many ingredients of each kind.
pub const MAX_INGREDIENTS_PER_KIND: i64 = 200;

pub const NAME: TextRule = caps::NAME;
pub const STYLE: TextRule = caps::SHORT_TEXT;
pub const NOTES: TextRule = caps::NOTES;
pub const BATCH_SIZE_LITERS: NumberRule = caps::BATCH_SIZE_LITERS;
pub const BOIL_TIME_MINUTES: NumberRule = NumberRule::range(0.0, 1_440.0);
/// Mash efficiency as a fraction (0.72 = 72 %).
pub const EFFICIENCY: NumberRule = NumberRule::range(0.0, 1.0);

// Ingredient fields.
pub const SHORT_TEXT: TextRule = caps::SHORT_TEXT;
/// `amount_unit` of a yeast or misc: free text, but not empty.
pub const AMOUNT_UNIT: TextRule = TextRule::new(1, 100);
pub const SORT_ORDER: NumberRule = caps::SORT_ORDER;
pub const AMOUNT_KG: NumberRule = NumberRule::range(0.0, 10_000.0);
pub const AMOUNT_GRAMS: NumberRule = NumberRule::range(0.0, 100_000.0);
/// Misc and yeast `amount`, in their own unit.
pub const AMOUNT: NumberRule = NumberRule::range(0.0, 100_000.0);
pub const PERCENT: NumberRule = NumberRule::range(0.0, 100.0);
pub const COLOR_SRM: NumberRule = NumberRule::range(0.0, 2_000.0);
pub const TIME_MINUTES: NumberRule = NumberRule::range(0.0, 100_000.0);
pub const TEMPERATURE_C: NumberRule = caps::TEMPERATURE_C;
/// A hop stand's temperature: from cold (no bitterness below 60 °C) to boiling.
pub const HOP_STAND_TEMPERATURE_C: NumberRule = NumberRule::range(0.0, 100.0);
/// Mash step `duration_minutes` and `ramp_minutes`: at most a day.
pub const MASH_MINUTES: NumberRule = NumberRule::range(0.0, 1_440.0);
pub const INFUSE_AMOUNT_LITERS: NumberRule = NumberRule::range(0.0, 100_000.0);
/// An infusion's water: liquid water, not above boiling.
pub const INFUSE_TEMPERATURE_C: NumberRule = NumberRule::range(0.0, 100.0);
/// A fermentation step's `days`: at most a year (a long lager or a sour can take months).
pub const FERMENTATION_DAYS: NumberRule = NumberRule::range(0.0, 365.0);
/// A fermentation step's `until_gravity`, as specific gravity.
pub const UNTIL_GRAVITY: NumberRule = NumberRule::range(0.9, 1.2);

/// Whether a hop of this use can hold a hop-stand `temperature_c`: only a steep after flame-out,
/// a `whirlpool` or an `aroma` addition, uses one (the bitterness follows the stand model).
pub fn hop_use_takes_temperature(hop_use: crate::recipe_children::HopUse) -> bool {
    use crate::recipe_children::HopUse;
    matches!(hop_use, HopUse::Whirlpool | HopUse::Aroma)
}

/// A non-null `temperature_c` on a hop whose use has no hop stand: refused rather than stored
/// and ignored (`422` at `["temperature_c"]`).
pub fn hop_temperature_violation(
    hop_use: crate::recipe_children::HopUse,
    temperature_c: Option<f64>,
) -> Option<Violation> {
    (temperature_c.is_some() && !hop_use_takes_temperature(hop_use)).then(|| {
        Violation::new(
            "custom",
            &["temperature_c"],
            format!(
                "Only whirlpool and aroma hops take a hop-stand temperature, not a {} hop; send null",
                hop_use.as_str()
            ),
        )
    })
}

/// A fermentation step's `min_days` longer than its `days` (its most time) could never hold:
/// refused at `["min_days"]` (`too_big`, with `days` as the maximum).
pub fn min_days_violation(days: Option<f64>, min_days: Option<f64>) -> Option<Violation> {
    match (days, min_days) {
        (Some(days), Some(min)) if min > days => {
            Some(Violation::too_big_number(&["min_days"], days))
        }
        _ => None,
    }
}

// Thresholds of the recipe checks (`recipe::checks`): advice, never a refusal.
/// Hot-side hops (boil, first wort, aroma, whirlpool) above this many grams per litre of batch
/// soak up wort and saturate the bitterness: `hop_rate_high`.
pub const CHECK_HOP_GRAMS_PER_LITER_MAX: f64 = 25.0;
/// Mash efficiency outside this range is unusual for any brewhouse: `efficiency_unusual`.
pub const CHECK_EFFICIENCY_MIN: f64 = 0.5;
pub const CHECK_EFFICIENCY_MAX: f64 = 0.95;
/// The volume a kilogram of grain takes in the mash tun beside its water (`mash_exceeds_capacity`):
/// 0.67 L/kg (0.32 US qt/lb, the displacement brewing programs use).
pub const CHECK_GRAIN_DISPLACEMENT_LITERS_PER_KG: f64 = 0.67;
/// Mash water above these (mg/L, after additions) is harsh or unhealthy: `water_ion_high`.
pub const CHECK_CALCIUM_MAX: f64 = 250.0;
pub const CHECK_MAGNESIUM_MAX: f64 = 40.0;
pub const CHECK_SODIUM_MAX: f64 = 150.0;
pub const CHECK_SULFATE_MAX: f64 = 500.0;
pub const CHECK_CHLORIDE_MAX: f64 = 300.0;

/// A BJCP style id as `GET /v1/styles` lists them (`21A`, `X5`…); which ids exist is
/// [`check_style_id`]'s business.
pub const STYLE_ID: TextRule = TextRule::new(1, 10);

/// `POST /v1/recipes/{id}/scale`: the new batch, above 0 and at most
/// [`MAX_SCALED_BATCH_LITERS`](crate::brewing::scaling::MAX_SCALED_BATCH_LITERS).
pub const SCALED_BATCH_SIZE_LITERS: NumberRule = NumberRule::above(
    crate::brewing::scaling::MIN_SCALED_BATCH_LITERS,
    crate::brewing::scaling::MAX_SCALED_BATCH_LITERS,
);

pub const RECIPE_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("style", Rule::Text(STYLE)),
    ("style_id", Rule::Text(STYLE_ID)),
    ("batch_size_liters", Rule::Number(BATCH_SIZE_LITERS)),
    ("boil_time_minutes", Rule::Number(BOIL_TIME_MINUTES)),
    ("efficiency", Rule::Number(EFFICIENCY)),
    ("notes", Rule::Text(NOTES)),
];
pub const COPY_FIELDS: FieldRules = &[("name", Rule::Text(NAME))];
/// A version's name (`POST /v1/recipes/{id}/versions`).
pub const VERSION_MESSAGE: TextRule = TextRule::new(1, super::history::MESSAGE_MAX_CHARS);
pub const VERSION_FIELDS: FieldRules = &[("message", Rule::Text(VERSION_MESSAGE))];
/// `POST /v1/recipes/{id}/share` has one flag and nothing bounded.
pub const SHARE_FIELDS: FieldRules = &[];
pub const SCALE_FIELDS: FieldRules = &[
    ("batch_size_liters", Rule::Number(SCALED_BATCH_SIZE_LITERS)),
    ("efficiency", Rule::Number(EFFICIENCY)),
    ("name", Rule::Text(NAME)),
];

/// A `style_id` that is not a BJCP 2021 style of `GET /v1/styles`.
pub fn check_style_id(style_id: Option<&str>) -> Result<(), Violation> {
    match style_id {
        Some(id) if crate::brewing::style(id).is_none() => Err(Violation::new(
            "custom",
            &["style_id"],
            format!("Unknown style {id:?}: see GET /v1/styles"),
        )),
        _ => Ok(()),
    }
}

pub const FERMENTABLE_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("amount_kg", Rule::Number(AMOUNT_KG)),
    ("color_srm", Rule::Number(COLOR_SRM)),
    ("yield_percent", Rule::Number(PERCENT)),
    ("origin", Rule::Text(SHORT_TEXT)),
    ("notes", Rule::Text(NOTES)),
    ("sort_order", Rule::Number(SORT_ORDER)),
];
pub const HOP_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("alpha_acid", Rule::Number(PERCENT)),
    ("amount_grams", Rule::Number(AMOUNT_GRAMS)),
    ("time_minutes", Rule::Number(TIME_MINUTES)),
    ("temperature_c", Rule::Number(HOP_STAND_TEMPERATURE_C)),
    ("sort_order", Rule::Number(SORT_ORDER)),
];
pub const YEAST_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("lab", Rule::Text(SHORT_TEXT)),
    ("product_id", Rule::Text(SHORT_TEXT)),
    ("attenuation", Rule::Number(PERCENT)),
    ("min_temp_c", Rule::Number(TEMPERATURE_C)),
    ("max_temp_c", Rule::Number(TEMPERATURE_C)),
    ("amount", Rule::Number(AMOUNT)),
    ("amount_unit", Rule::Text(AMOUNT_UNIT)),
    ("notes", Rule::Text(NOTES)),
    ("sort_order", Rule::Number(SORT_ORDER)),
];
pub const MISC_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("amount", Rule::Number(AMOUNT)),
    ("amount_unit", Rule::Text(AMOUNT_UNIT)),
    ("time_minutes", Rule::Number(TIME_MINUTES)),
    ("notes", Rule::Text(NOTES)),
    ("sort_order", Rule::Number(SORT_ORDER)),
];
pub const MASH_STEP_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("temperature_c", Rule::Number(TEMPERATURE_C)),
    ("duration_minutes", Rule::Number(MASH_MINUTES)),
    ("infuse_amount_liters", Rule::Number(INFUSE_AMOUNT_LITERS)),
    ("infuse_temperature_c", Rule::Number(INFUSE_TEMPERATURE_C)),
    ("ramp_minutes", Rule::Number(MASH_MINUTES)),
    ("sort_order", Rule::Number(SORT_ORDER)),
];

pub const WATER_ADDITION_FIELDS: FieldRules = &[
    ("amount", Rule::Number(WATER_AMOUNT)),
    ("strength_percent", Rule::Number(ACID_STRENGTH_PERCENT)),
    ("acid_percent", Rule::Number(ACID_STRENGTH_PERCENT)),
    ("sort_order", Rule::Number(SORT_ORDER)),
];
/// A water addition's `amount` (g, ml or kg by agent).
pub const WATER_AMOUNT: NumberRule = NumberRule::range(0.0, 10_000.0);
/// An acid's strength, % w/w: above 0, at most 100.
pub const ACID_STRENGTH_PERCENT: NumberRule = NumberRule::above(0.0, 100.0);

pub const FERMENTATION_STEP_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("temperature_c", Rule::Number(TEMPERATURE_C)),
    ("days", Rule::Number(FERMENTATION_DAYS)),
    ("min_days", Rule::Number(FERMENTATION_DAYS)),
    ("until_gravity", Rule::Number(UNTIL_GRAVITY)),
    ("until_attenuation_percent", Rule::Number(PERCENT)),
    ("sort_order", Rule::Number(SORT_ORDER)),
];

/// The bounded fields of each ingredient kind.
pub fn child_fields(kind: RecipeChildKind) -> FieldRules {
    match kind {
        RecipeChildKind::Fermentable => FERMENTABLE_FIELDS,
        RecipeChildKind::Hop => HOP_FIELDS,
        RecipeChildKind::Yeast => YEAST_FIELDS,
        RecipeChildKind::Misc => MISC_FIELDS,
        RecipeChildKind::MashStep => MASH_STEP_FIELDS,
        RecipeChildKind::WaterAddition => WATER_ADDITION_FIELDS,
        RecipeChildKind::FermentationStep => FERMENTATION_STEP_FIELDS,
    }
}

/// The 201st ingredient of a kind.
pub fn too_many_children(kind: RecipeChildKind) -> Violation {
    Violation::too_many(
        &[kind.array_name()],
        MAX_INGREDIENTS_PER_KIND,
        format!(
            "A recipe holds at most {MAX_INGREDIENTS_PER_KIND} {}",
            kind.array_name()
        ),
    )
}

/// A recipe holding `count` children of `kind` may take one more only below
/// [`MAX_INGREDIENTS_PER_KIND`]; each kind is capped on its own.
pub fn check_child_room(kind: RecipeChildKind, count: i64) -> Result<(), DomainError> {
    check_room(count, MAX_INGREDIENTS_PER_KIND, || too_many_children(kind))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn each_kind_is_capped_on_its_own() {
        assert!(check_child_room(RecipeChildKind::Hop, MAX_INGREDIENTS_PER_KIND - 1).is_ok());
        let refused = check_child_room(RecipeChildKind::Hop, MAX_INGREDIENTS_PER_KIND).unwrap_err();
        assert!(
            matches!(&refused, DomainError::Invalid(v) if v[0].path == ["hops"]),
            "{refused:?}"
        );
    }
}
