//! Bounds of a water profile and the violations of the water routes.

use crate::DomainError;
use crate::error::Violation;
use crate::rules::{FieldRules, NumberRule, Rule, TextRule, caps};

pub const NAME: TextRule = caps::NAME;
pub const SOURCE: TextRule = caps::NOTES;
/// An ion in mg/L: 0 up to 10 g/L (far saltier than any brewing water).
pub const ION_MG_L: NumberRule = NumberRule::range(0.0, 10_000.0);
pub const PH: NumberRule = NumberRule::range(0.0, 14.0);
/// A target mash pH (`?target_ph=`).
pub const TARGET_PH: NumberRule = NumberRule::range(4.0, 7.0);
pub const DEFAULT_TARGET_PH: f64 = 5.4;
/// A measured mash pH on a brew session.
pub const MASH_PH: NumberRule = NumberRule::range(3.0, 8.0);
/// An account holds at most this many water profiles of its own.
pub const MAX_OWN_PROFILES: i64 = 200;

pub const WATER_PROFILE_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("calcium", Rule::Number(ION_MG_L)),
    ("magnesium", Rule::Number(ION_MG_L)),
    ("sodium", Rule::Number(ION_MG_L)),
    ("sulfate", Rule::Number(ION_MG_L)),
    ("chloride", Rule::Number(ION_MG_L)),
    ("bicarbonate", Rule::Number(ION_MG_L)),
    ("ph", Rule::Number(PH)),
    ("source", Rule::Text(SOURCE)),
];

/// A `water_profile_id` / `target_water_profile_id` that names no profile the account can see.
pub fn unknown_profile(field: &str) -> Violation {
    Violation::new(
        "custom",
        &[field],
        "No such water profile: see GET /v1/water-profiles",
    )
}

/// What a built-in profile answers to a change or a delete.
pub fn builtin_is_read_only() -> DomainError {
    DomainError::Conflict(
        "Built-in water profiles are read-only; create your own profile instead".to_owned(),
    )
}

/// The 201st profile of an account.
pub fn too_many_profiles() -> Violation {
    Violation::too_many(
        &[],
        MAX_OWN_PROFILES,
        format!("An account holds at most {MAX_OWN_PROFILES} water profiles"),
    )
}

/// An account holding `held` own water profiles may save one more only below
/// [`MAX_OWN_PROFILES`].
pub fn check_profile_room(held: i64) -> Result<(), crate::DomainError> {
    crate::rules::check_room(held, MAX_OWN_PROFILES, too_many_profiles)
}
