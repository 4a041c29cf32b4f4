//! Scaling a recipe to a new batch size: new amounts that keep the OG and the IBU,
//! solved rather than multiplied.
//!
//! Multiplying every amount by new/old batch is right only when nothing else changes. It is wrong
//! as soon as the efficiency changes (mashed grain must make up for it, sugar must not), or with
//! an equipment profile (the trub loss is a fixed number of litres, so OG's volume, batch + loss,
//! does not grow with the batch), and IBU follows Tinseth's bigness factor of the *new* OG. So:
//!
//! 1. **Fermentables** keep their gravity points each: points are `kg × yield × e / gal(Vg)`, so
//!    `kg' = kg × Vg'/Vg × e/e'`, with `Vg` the gravity volume (the batch, plus the trub loss with
//!    a profile) and `e` the extract efficiency (the recipe's for mashed types, 1 otherwise). The
//!    OG is then the same by construction; we recompute it from the new amounts all the same.
//! 2. **Hops** with bitterness get the grams that give their own IBU again in the new wort: IBU is
//!    linear in grams, so `g' = IBU / (IBU of 1 g at the new OG, volume and utilisation)`.
//! 3. **Dry hops** (no IBU), **yeasts and miscs** follow the batch: × V'/V.
//!
//! Worked example (test `efficiency_and_a_profile_are_solved_not_multiplied`): 20 L → 40 L on a
//! kit losing 2 L to trub, efficiency 0.72 → 0.80. Grain: × 42/22 × 0.72/0.80 = × 1.71818 (not
//! × 2); sugar: × 42/22 = × 1.90909.

use serde::Serialize;

use super::bitterness::hop_ibu_with_utilisation;
use super::gravity::extract_efficiency;
use super::stats::{BrewingContext, StatsInput, unrounded};
use super::{finite_or_zero, round_to};
use crate::error::Violation;
use crate::recipe::rules;
use crate::recipe_children::Fermentable;

/// The smallest batch a recipe can be scaled to is anything above 0 L (exclusive), as for a
/// recipe's own batch.
pub const MIN_SCALED_BATCH_LITERS: f64 = 0.0;
/// The largest batch a recipe can be scaled to: 1,000 L (10 hL). wort is a homebrewing service;
/// 10 hL is already a large pilot or nano-brewery kit, and a scale to 10,000 L must be a
/// `422`. The bound is on what the solver is asked to make, not on recipes: a recipe may still be
/// written up to 100,000 L by hand. The scaled amounts must also stay within the
/// ingredient field caps below, which a large scale-up of a small recipe can reach first.
pub const MAX_SCALED_BATCH_LITERS: f64 = 1_000.0;
/// A fermentable's `amount_kg` cap.
const MAX_FERMENTABLE_KG: f64 = rules::AMOUNT_KG.max;
/// A hop's `amount_grams` cap.
const MAX_HOP_GRAMS: f64 = rules::AMOUNT_GRAMS.max;

/// What the brewer asks for: `POST /v1/recipes/{id}/scale` without the name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScaleTarget {
    pub batch_size_liters: f64,
    /// The new mash efficiency (0–1); `None` keeps the recipe's.
    pub efficiency: Option<f64>,
}

/// The new recipe's amounts, in the order of the original's children.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scaled {
    pub batch_size_liters: f64,
    pub efficiency: f64,
    pub fermentable_amounts_kg: Vec<f64>,
    pub hop_amounts_grams: Vec<f64>,
    /// New batch / old batch: what yeast and misc amounts are multiplied by.
    pub volume_factor: f64,
}

impl Scaled {
    /// A yeast or misc amount in the new recipe (amounts are optional on yeasts).
    pub fn by_volume(&self, amount: Option<f64>) -> Option<f64> {
        amount.map(|a| finite_or_zero(a * self.volume_factor))
    }
}

/// Every rule the request breaks, with the bounds of `POST /v1/recipes/{id}/scale` (the recipe's
/// `SCALED_BATCH_SIZE_LITERS` and `EFFICIENCY`, the numbers the OpenAPI document shows).
pub fn check_target(target: &ScaleTarget) -> Vec<Violation> {
    let fields = [
        (
            "batch_size_liters",
            Some(target.batch_size_liters),
            rules::SCALED_BATCH_SIZE_LITERS,
        ),
        ("efficiency", target.efficiency, rules::EFFICIENCY),
    ];
    fields
        .into_iter()
        .filter_map(|(field, value, rule)| {
            let value = value?;
            if value.is_finite() {
                rule.check(&[field], value).err()
            } else {
                Some(Violation::invalid_type(&[field], "number", "nan"))
            }
        })
        .collect()
}

/// Solves the new amounts; the violations say which request field (or which scaled amount) is
/// impossible.
pub fn scale(
    input: &StatsInput<'_>,
    context: &BrewingContext<'_>,
    target: &ScaleTarget,
) -> Result<Scaled, Vec<Violation>> {
    let mut violations = check_target(target);
    let old_volume = input.batch_size_liters;
    if !(old_volume.is_finite() && old_volume > 0.0) {
        violations.push(Violation::new(
            "custom",
            &["batch_size_liters"],
            "The recipe has no batch size to scale from",
        ));
    }
    if !violations.is_empty() {
        return Err(violations);
    }
    let new_volume = target.batch_size_liters;
    let efficiency = target.efficiency.unwrap_or(input.efficiency);
    let gravity_ratio =
        context.gravity_volume_liters(new_volume) / context.gravity_volume_liters(old_volume);
    let volume_factor = new_volume / old_volume;

    let mut fermentable_amounts_kg = Vec::with_capacity(input.fermentables.len());
    for (i, f) in input.fermentables.iter().enumerate() {
        let old_e = extract_efficiency(f.kind, input.efficiency);
        let new_e = extract_efficiency(f.kind, efficiency);
        let gives_points = f.amount_kg * f.yield_percent * old_e > 0.0;
        let kg = if new_e > 0.0 {
            f.amount_kg * gravity_ratio * old_e / new_e
        } else if gives_points {
            violations.push(Violation::new(
                "custom",
                &["efficiency"],
                "An efficiency of 0 cannot keep the gravity of a mashed fermentable",
            ));
            0.0
        } else {
            // It gave no points and will give none: it is there for another reason (colour).
            f.amount_kg * gravity_ratio
        };
        if kg > MAX_FERMENTABLE_KG {
            violations.push(amount_too_big(
                "fermentables",
                i,
                "amount_kg",
                MAX_FERMENTABLE_KG,
            ));
        }
        fermentable_amounts_kg.push(finite_or_zero(kg));
    }
    if !violations.is_empty() {
        return Err(violations);
    }

    let old = unrounded(input, context);
    let new_fermentables: Vec<Fermentable> = input
        .fermentables
        .iter()
        .zip(&fermentable_amounts_kg)
        .map(|(f, kg)| Fermentable {
            amount_kg: *kg,
            ..f.clone()
        })
        .collect();
    let new_input = StatsInput {
        batch_size_liters: new_volume,
        efficiency,
        fermentables: &new_fermentables,
        ..*input
    };
    let new_og = unrounded(&new_input, context).og;
    let new_gravity_volume = context.gravity_volume_liters(new_volume);

    let mut hop_amounts_grams = Vec::with_capacity(input.hops.len());
    for (i, (hop, ibu)) in input.hops.iter().zip(&old.hop_ibus).enumerate() {
        let one_gram = crate::recipe_children::Hop {
            amount_grams: 1.0,
            ..hop.clone()
        };
        let ibu_per_gram = hop_ibu_with_utilisation(
            &one_gram,
            new_og,
            new_gravity_volume,
            input.boil_time_minutes,
            context.utilisation_factor(i),
        );
        let grams = if *ibu > 0.0 && ibu_per_gram > 0.0 {
            ibu / ibu_per_gram
        } else {
            hop.amount_grams * volume_factor
        };
        if grams > MAX_HOP_GRAMS {
            violations.push(amount_too_big("hops", i, "amount_grams", MAX_HOP_GRAMS));
        }
        hop_amounts_grams.push(finite_or_zero(grams));
    }
    if !violations.is_empty() {
        return Err(violations);
    }

    Ok(Scaled {
        batch_size_liters: new_volume,
        efficiency,
        fermentable_amounts_kg,
        hop_amounts_grams,
        volume_factor,
    })
}

/// Amounts as a new recipe stores them: kilograms to the gram, grams to a tenth.
pub fn rounded_amounts(scaled: &Scaled) -> (Vec<f64>, Vec<f64>) {
    (
        scaled
            .fermentable_amounts_kg
            .iter()
            .map(|kg| round_to(*kg, 3))
            .collect(),
        scaled
            .hop_amounts_grams
            .iter()
            .map(|g| round_to(*g, 1))
            .collect(),
    )
}

/// A scaled amount past its field's cap, named by its place in the recipe.
fn amount_too_big(kind: &str, index: usize, field: &str, max: f64) -> Violation {
    let index = index.to_string();
    Violation::too_big_number(&[kind, &index, field], max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brewing::fixtures::{fermentable, hop, yeast};
    use crate::brewing::hop_form::HopForm;
    use crate::equipment::EquipmentProfile;
    use crate::recipe_children::FermentableType::{Grain, Sugar};
    use crate::recipe_children::HopUse::{Boil, DryHop, Whirlpool};
    use crate::recipe_children::{Hop, Yeast};

    struct Recipe {
        fermentables: Vec<Fermentable>,
        hops: Vec<Hop>,
        yeasts: Vec<Yeast>,
    }

    fn recipe() -> Recipe {
        Recipe {
            fermentables: vec![
                fermentable(Grain, 5.0, 3.0, 80.0),
                fermentable(Sugar, 0.5, 0.0, 100.0),
            ],
            hops: vec![
                hop(Boil, 12.0, 25.0, 60.0),
                hop(Whirlpool, 8.0, 40.0, 20.0),
                hop(DryHop, 10.0, 60.0, 4320.0),
            ],
            yeasts: vec![yeast(Some(78.0))],
        }
    }

    fn input(r: &Recipe) -> StatsInput<'_> {
        StatsInput {
            batch_size_liters: 20.0,
            boil_time_minutes: 60.0,
            efficiency: 0.72,
            fermentables: &r.fermentables,
            hops: &r.hops,
            yeasts: &r.yeasts,
        }
    }

    fn scaled_input<'a>(
        original: &StatsInput<'a>,
        s: &Scaled,
        fermentables: &'a [Fermentable],
        hops: &'a [Hop],
    ) -> StatsInput<'a> {
        StatsInput {
            batch_size_liters: s.batch_size_liters,
            efficiency: s.efficiency,
            fermentables,
            hops,
            ..*original
        }
    }

    fn apply(r: &Recipe, s: &Scaled) -> (Vec<Fermentable>, Vec<Hop>) {
        let f = r
            .fermentables
            .iter()
            .zip(&s.fermentable_amounts_kg)
            .map(|(f, kg)| Fermentable {
                amount_kg: *kg,
                ..f.clone()
            })
            .collect();
        let h = r
            .hops
            .iter()
            .zip(&s.hop_amounts_grams)
            .map(|(h, g)| Hop {
                amount_grams: *g,
                ..h.clone()
            })
            .collect();
        (f, h)
    }

    #[test]
    fn doubling_without_a_profile_doubles() {
        let r = recipe();
        let s = scale(
            &input(&r),
            &BrewingContext::default(),
            &ScaleTarget {
                batch_size_liters: 40.0,
                efficiency: None,
            },
        )
        .unwrap();
        // Same efficiency, no fixed losses: the solution is the plain multiplication.
        for (new, old) in s.fermentable_amounts_kg.iter().zip(&r.fermentables) {
            assert!((new - 2.0 * old.amount_kg).abs() < 1e-9);
        }
        for (new, old) in s.hop_amounts_grams.iter().zip(&r.hops) {
            assert!((new - 2.0 * old.amount_grams).abs() < 1e-9, "{new}");
        }
        assert_eq!(s.volume_factor, 2.0);
        assert_eq!(s.by_volume(Some(11.5)), Some(23.0));
        assert_eq!(s.by_volume(None), None);
    }

    #[test]
    fn efficiency_and_a_profile_are_solved_not_multiplied() {
        let r = recipe();
        let kit = EquipmentProfile {
            trub_chiller_loss_liters: 2.0,
            hop_utilization_percent: 85.0,
            ..EquipmentProfile::lossless("Kit", 20.0)
        };
        let forms = [Some(HopForm::Pellet), None, None];
        let context = BrewingContext {
            equipment: Some(&kit),
            hop_forms: &forms,
        };
        let original = input(&r);
        let s = scale(
            &original,
            &context,
            &ScaleTarget {
                batch_size_liters: 40.0,
                efficiency: Some(0.80),
            },
        )
        .unwrap();
        // Grain: 5 × 42/22 × 0.72/0.80 = 8.59091 kg; sugar: 0.5 × 42/22 = 0.954545 kg.
        assert!((s.fermentable_amounts_kg[0] - 8.590_909).abs() < 1e-5);
        assert!((s.fermentable_amounts_kg[1] - 0.954_545).abs() < 1e-5);
        // Dry hop by volume: 60 × 2 = 120 g.
        assert!((s.hop_amounts_grams[2] - 120.0).abs() < 1e-9);
        // The boil hop: OG is kept, so its grams follow the gravity volume, 25 × 42/22 = 47.7273.
        assert!((s.hop_amounts_grams[0] - 47.727_27).abs() < 1e-4);

        let (f, h) = apply(&r, &s);
        let before = unrounded(&original, &context);
        let after = unrounded(&scaled_input(&original, &s, &f, &h), &context);
        assert!((after.og - before.og).abs() < 1e-12);
        assert!((after.ibu / before.ibu - 1.0).abs() < 1e-9);
    }

    #[test]
    fn bounds_of_the_request() {
        let r = recipe();
        let c = BrewingContext::default();
        let cases = [
            (0.0, None, "batch_size_liters", "too_small"),
            (-3.0, None, "batch_size_liters", "too_small"),
            (10_000.0, None, "batch_size_liters", "too_big"),
            (1_000.1, None, "batch_size_liters", "too_big"),
            (20.0, Some(1.2), "efficiency", "too_big"),
            (20.0, Some(-0.1), "efficiency", "too_small"),
        ];
        for (batch, efficiency, field, code) in cases {
            let t = ScaleTarget {
                batch_size_liters: batch,
                efficiency,
            };
            let v = scale(&input(&r), &c, &t).unwrap_err();
            assert_eq!(v.len(), 1, "{v:?}");
            assert_eq!((v[0].path.join("."), v[0].code), (field.to_owned(), code));
        }
        let edge = ScaleTarget {
            batch_size_liters: MAX_SCALED_BATCH_LITERS,
            efficiency: None,
        };
        assert!(scale(&input(&r), &c, &edge).is_ok());
    }

    #[test]
    fn zero_efficiency_cannot_keep_a_mashed_gravity() {
        let r = recipe();
        let v = scale(
            &input(&r),
            &BrewingContext::default(),
            &ScaleTarget {
                batch_size_liters: 20.0,
                efficiency: Some(0.0),
            },
        )
        .unwrap_err();
        assert_eq!(v[0].path, ["efficiency"]);
    }

    #[test]
    fn amounts_beyond_the_field_caps_are_named() {
        // 0.1 L of a 5 kg recipe to 1,000 L: 50,000 kg of grain.
        let r = recipe();
        let tiny = StatsInput {
            batch_size_liters: 0.1,
            ..input(&r)
        };
        let v = scale(
            &tiny,
            &BrewingContext::default(),
            &ScaleTarget {
                batch_size_liters: 1_000.0,
                efficiency: None,
            },
        )
        .unwrap_err();
        assert_eq!(v[0].path, ["fermentables", "0", "amount_kg"]);
        assert_eq!(v[0].code, "too_big");
    }
}
