//! Bounds and defaults of an equipment profile, written once: the HTTP validation and the OpenAPI
//! schema read them from here ([`EQUIPMENT_FIELDS`]). [`check_profile`] reports every physically
//! impossible field of a whole profile as a Zod-style [`Violation`] (docs/api-rules.md), so one
//! `422` names them all, including the rules between fields (a loss larger than the batch).

use super::EquipmentProfile;
use crate::error::Violation;
use crate::rules::{FieldRules, NumberRule, Rule, TextRule, caps};

/// Litres of water a kilogram of mashed grain keeps when none is given. Published
/// figures run from about 0.8 (squeezed bag) to 1.1 L/kg (Brewtarget ships 1.085).
pub const DEFAULT_GRAIN_ABSORPTION_LITERS_PER_KG: f64 = 1.0;
/// Hop utilisation relative to Tinseth's curve when none is given: the curve as published.
pub const DEFAULT_HOP_UTILIZATION_PERCENT: f64 = 100.0;

pub const NAME: TextRule = caps::NAME;
pub const NOTES: TextRule = caps::NOTES;
/// The recipe's batch cap, so any recipe can have a profile of its size.
pub const BATCH_SIZE_LITERS: NumberRule = caps::BATCH_SIZE_LITERS;
/// Losses, boil-off per hour and top-up water: never negative (a negative loss would create
/// wort), never more than the largest batch.
pub const VOLUME_LITERS: NumberRule = NumberRule::range(0.0, caps::BATCH_SIZE_LITERS.max);
/// Grain soaks up about 1 L/kg; ten times that is no longer grain.
pub const GRAIN_ABSORPTION_LITERS_PER_KG: NumberRule = NumberRule::range(0.0, 10.0);
/// Utilisation above twice Tinseth's curve is not a kettle, it is a typing error
/// (0–200 %).
pub const HOP_UTILIZATION_PERCENT: NumberRule = NumberRule::range(0.0, 200.0);

/// What a mash tun holds: more than nothing, at most the largest batch.
pub const MASH_TUN_VOLUME_LITERS: NumberRule = NumberRule::above(0.0, caps::BATCH_SIZE_LITERS.max);

/// The bounded fields of a profile, by their JSON names.
pub const EQUIPMENT_FIELDS: FieldRules = &[
    ("name", Rule::Text(NAME)),
    ("batch_size_liters", Rule::Number(BATCH_SIZE_LITERS)),
    ("boil_off_liters_per_hour", Rule::Number(VOLUME_LITERS)),
    ("trub_chiller_loss_liters", Rule::Number(VOLUME_LITERS)),
    ("mash_tun_deadspace_liters", Rule::Number(VOLUME_LITERS)),
    (
        "grain_absorption_liters_per_kg",
        Rule::Number(GRAIN_ABSORPTION_LITERS_PER_KG),
    ),
    ("top_up_water_liters", Rule::Number(VOLUME_LITERS)),
    ("fermenter_loss_liters", Rule::Number(VOLUME_LITERS)),
    (
        "hop_utilization_percent",
        Rule::Number(HOP_UTILIZATION_PERCENT),
    ),
    (
        "mash_tun_volume_liters",
        Rule::Number(MASH_TUN_VOLUME_LITERS),
    ),
    ("notes", Rule::Text(NOTES)),
];

/// Every rule the profile breaks, in field order; empty when the profile is possible.
///
/// * each field within its bound of [`EQUIPMENT_FIELDS`] (every number finite);
/// * the trub/chiller loss, the fermenter loss and the top-up water no larger than the batch: a
///   loss larger than the batch leaves nothing to ferment or package, and top-up water larger than
///   the batch would need a negative volume out of the kettle.
pub fn check_profile(p: &EquipmentProfile) -> Vec<Violation> {
    let mut out = Vec::new();
    if let Err(v) = NAME.check(&["name"], &p.name) {
        out.push(v);
    }
    let batch_ok = number(
        &mut out,
        "batch_size_liters",
        p.batch_size_liters,
        BATCH_SIZE_LITERS,
    );
    let batch = p.batch_size_liters;
    // (field, value, rule, whether the batch caps it)
    let numbers = [
        (
            "boil_off_liters_per_hour",
            p.boil_off_liters_per_hour,
            VOLUME_LITERS,
            false,
        ),
        (
            "trub_chiller_loss_liters",
            p.trub_chiller_loss_liters,
            VOLUME_LITERS,
            true,
        ),
        (
            "mash_tun_deadspace_liters",
            p.mash_tun_deadspace_liters,
            VOLUME_LITERS,
            false,
        ),
        (
            "grain_absorption_liters_per_kg",
            p.grain_absorption_liters_per_kg,
            GRAIN_ABSORPTION_LITERS_PER_KG,
            false,
        ),
        (
            "top_up_water_liters",
            p.top_up_water_liters,
            VOLUME_LITERS,
            true,
        ),
        (
            "fermenter_loss_liters",
            p.fermenter_loss_liters,
            VOLUME_LITERS,
            true,
        ),
        (
            "hop_utilization_percent",
            p.hop_utilization_percent,
            HOP_UTILIZATION_PERCENT,
            false,
        ),
    ];
    for (field, value, rule, capped_by_batch) in numbers {
        if number(&mut out, field, value, rule) && capped_by_batch && batch_ok && value > batch {
            // `custom`, not `too_big`: the field's own bound is the document's; this one is a rule
            // between two fields, which Zod reports as a refinement.
            out.push(
                Violation::new(
                    "custom",
                    &[field],
                    format!("Must not be larger than the batch ({batch} L)"),
                )
                .with("maximum", crate::error::json_number(batch)),
            );
        }
    }
    if let Some(volume) = p.mash_tun_volume_liters {
        number(
            &mut out,
            "mash_tun_volume_liters",
            volume,
            MASH_TUN_VOLUME_LITERS,
        );
    }
    if let Some(notes) = &p.notes
        && let Err(v) = NOTES.check(&["notes"], notes)
    {
        out.push(v);
    }
    out
}

/// Deleting a profile that `recipes` recipes still name.
pub fn profile_in_use(recipes: i64) -> Violation {
    Violation::new(
        "custom",
        &[],
        format!(
            "This equipment profile is used by {recipes} recipe(s); choose another profile for them first"
        ),
    )
}

/// A recipe's `equipment_id` that is not one of the account's profiles.
pub fn unknown_profile() -> Violation {
    Violation::new(
        "custom",
        &["equipment_id"],
        "No equipment profile with this id",
    )
}

/// Checks one number against its rule; false (and a violation) when it breaks it.
fn number(out: &mut Vec<Violation>, field: &str, value: f64, rule: NumberRule) -> bool {
    let result = if value.is_finite() {
        rule.check(&[field], value)
    } else {
        Err(Violation::invalid_type(&[field], "number", "nan"))
    };
    match result {
        Ok(()) => true,
        Err(v) => {
            out.push(v);
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kit() -> EquipmentProfile {
        EquipmentProfile {
            boil_off_liters_per_hour: 3.0,
            trub_chiller_loss_liters: 1.5,
            mash_tun_deadspace_liters: 1.0,
            fermenter_loss_liters: 1.0,
            ..EquipmentProfile::lossless("Kit", 20.0)
        }
    }

    fn codes(p: &EquipmentProfile) -> Vec<(String, &'static str)> {
        check_profile(p)
            .into_iter()
            .map(|v| (v.path.join("."), v.code))
            .collect()
    }

    #[test]
    fn a_real_kit_passes() {
        assert!(check_profile(&kit()).is_empty());
        assert!(check_profile(&EquipmentProfile::lossless("Pot", 0.5)).is_empty());
    }

    #[test]
    fn negative_losses_are_refused_with_the_field_named() {
        let p = EquipmentProfile {
            trub_chiller_loss_liters: -0.1,
            boil_off_liters_per_hour: -2.0,
            ..kit()
        };
        let v = check_profile(&p);
        assert_eq!(
            codes(&p),
            [
                ("boil_off_liters_per_hour".to_owned(), "too_small"),
                ("trub_chiller_loss_liters".to_owned(), "too_small"),
            ]
        );
        assert_eq!(v[0].extra["minimum"], serde_json::json!(0));
        assert_eq!(v[0].extra["inclusive"], serde_json::json!(true));
    }

    #[test]
    fn utilisation_is_zero_to_two_hundred_percent() {
        for ok in [0.0, 100.0, 200.0] {
            let p = EquipmentProfile {
                hop_utilization_percent: ok,
                ..kit()
            };
            assert!(check_profile(&p).is_empty(), "{ok}");
        }
        let over = EquipmentProfile {
            hop_utilization_percent: 200.5,
            ..kit()
        };
        assert_eq!(
            codes(&over),
            [("hop_utilization_percent".to_owned(), "too_big")]
        );
        let under = EquipmentProfile {
            hop_utilization_percent: -1.0,
            ..kit()
        };
        assert_eq!(
            codes(&under),
            [("hop_utilization_percent".to_owned(), "too_small")]
        );
    }

    #[test]
    fn losses_larger_than_the_batch_are_refused() {
        let p = EquipmentProfile {
            trub_chiller_loss_liters: 20.5,
            fermenter_loss_liters: 21.0,
            top_up_water_liters: 25.0,
            ..kit()
        };
        assert_eq!(
            codes(&p),
            [
                ("trub_chiller_loss_liters".to_owned(), "custom"),
                ("top_up_water_liters".to_owned(), "custom"),
                ("fermenter_loss_liters".to_owned(), "custom"),
            ]
        );
        let v = check_profile(&p);
        assert_eq!(v[0].extra["maximum"], serde_json::json!(20));
        assert!(
            v[0].message.contains("larger than the batch"),
            "{}",
            v[0].message
        );
        // Exactly the batch is possible (if silly): the bound is inclusive.
        let edge = EquipmentProfile {
            fermenter_loss_liters: 20.0,
            ..kit()
        };
        assert!(check_profile(&edge).is_empty());
    }

    #[test]
    fn batch_must_be_positive_and_capped() {
        for (batch, code) in [
            (0.0, "too_small"),
            (-5.0, "too_small"),
            (100_001.0, "too_big"),
        ] {
            let p = EquipmentProfile::lossless("Kit", batch);
            assert_eq!(
                codes(&p),
                [("batch_size_liters".to_owned(), code)],
                "{batch}"
            );
        }
    }

    #[test]
    fn a_mash_tun_holds_more_than_nothing() {
        for ok in [None, Some(0.1), Some(35.0)] {
            let p = EquipmentProfile {
                mash_tun_volume_liters: ok,
                ..kit()
            };
            assert!(check_profile(&p).is_empty(), "{ok:?}");
        }
        for bad in [0.0, -1.0] {
            let p = EquipmentProfile {
                mash_tun_volume_liters: Some(bad),
                ..kit()
            };
            assert_eq!(
                codes(&p),
                [("mash_tun_volume_liters".to_owned(), "too_small")],
                "{bad}"
            );
            assert_eq!(
                check_profile(&p)[0].extra["inclusive"],
                serde_json::json!(false)
            );
        }
    }

    #[test]
    fn non_finite_numbers_and_bad_strings() {
        let p = EquipmentProfile {
            name: String::new(),
            grain_absorption_liters_per_kg: f64::NAN,
            notes: Some("x".repeat(NOTES.max + 1)),
            ..kit()
        };
        assert_eq!(
            codes(&p),
            [
                ("name".to_owned(), "too_small"),
                ("grain_absorption_liters_per_kg".to_owned(), "invalid_type"),
                ("notes".to_owned(), "too_big"),
            ]
        );
    }
}
