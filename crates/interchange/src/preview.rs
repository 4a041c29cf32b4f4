//! An imported recipe as the database would hold it (ids and timestamps made up), so wort's
//! statistics can be computed for it before it is stored: the import report compares them with
//! the file's own estimates, and the tests export and re-import it.

use time::OffsetDateTime;
use uuid::Uuid;

use crate::ImportedRecipe;
use crate::domain::{Fermentable, Hop, MashStep, Misc, Recipe, RecipeDetail, Yeast};

/// The recipe as stored after the import, every id made up (the recipe's is 1, its children's
/// count up from 2) and every timestamp the Unix epoch.
pub fn preview(r: &ImportedRecipe) -> RecipeDetail {
    let id = Uuid::from_u128(1);
    let at = OffsetDateTime::UNIX_EPOCH;
    let order = |o: Option<i32>| o.unwrap_or_default();
    let mut n = 1u128;
    let mut next = || {
        n += 1;
        Uuid::from_u128(n)
    };
    RecipeDetail {
        recipe: Recipe {
            equipment_id: None,
            style_id: None,
            water_profile_id: None,
            target_water_profile_id: None,
            parent_recipe_id: None,
            parent_version: None,
            source_url: None,
            id,
            user_id: Uuid::nil().to_string(),
            name: r.recipe.name.clone(),
            style: r.recipe.style.clone(),
            kind: r.recipe.kind,
            batch_size_liters: r.recipe.batch_size_liters,
            boil_time_minutes: r.recipe.boil_time_minutes,
            efficiency: r.recipe.efficiency,
            notes: r.recipe.notes.clone(),
            est_color_srm: 0.0,
            created_at: at,
            updated_at: at,
        },
        fermentables: r
            .fermentables
            .iter()
            .map(|f| Fermentable {
                catalog_id: None,
                id: next(),
                recipe_id: id,
                name: f.name.clone(),
                kind: f.kind,
                amount_kg: f.amount_kg,
                color_srm: f.color_srm,
                yield_percent: f.yield_percent,
                added: f.added,
                origin: f.origin.clone(),
                notes: f.notes.clone(),
                sort_order: order(f.sort_order),
                created_at: at,
            })
            .collect(),
        hops: r
            .hops
            .iter()
            .map(|h| Hop {
                temperature_c: h.temperature_c,
                catalog_id: None,
                form: h.form,
                id: next(),
                recipe_id: id,
                name: h.name.clone(),
                alpha_acid: h.alpha_acid,
                amount_grams: h.amount_grams,
                time_minutes: h.time_minutes,
                hop_use: h.hop_use,
                sort_order: order(h.sort_order),
                created_at: at,
            })
            .collect(),
        yeasts: r
            .yeasts
            .iter()
            .map(|y| Yeast {
                catalog_id: None,
                id: next(),
                recipe_id: id,
                name: y.name.clone(),
                lab: y.lab.clone(),
                product_id: y.product_id.clone(),
                kind: y.kind,
                form: y.form,
                attenuation: y.attenuation,
                min_temp_c: y.min_temp_c,
                max_temp_c: y.max_temp_c,
                amount: y.amount,
                amount_unit: y.amount_unit.clone(),
                notes: y.notes.clone(),
                sort_order: order(y.sort_order),
                created_at: at,
            })
            .collect(),
        miscs: r
            .miscs
            .iter()
            .map(|m| Misc {
                catalog_id: None,
                id: next(),
                recipe_id: id,
                name: m.name.clone(),
                kind: m.kind,
                misc_use: m.misc_use,
                amount: m.amount,
                amount_unit: m.amount_unit.clone(),
                time_minutes: m.time_minutes,
                notes: m.notes.clone(),
                sort_order: order(m.sort_order),
                created_at: at,
            })
            .collect(),
        mash_steps: r
            .mash_steps
            .iter()
            .map(|s| MashStep {
                id: next(),
                recipe_id: id,
                name: s.name.clone(),
                kind: s.kind,
                temperature_c: s.temperature_c,
                duration_minutes: s.duration_minutes,
                infuse_amount_liters: s.infuse_amount_liters,
                infuse_temperature_c: s.infuse_temperature_c,
                ramp_minutes: s.ramp_minutes,
                sort_order: order(s.sort_order),
                created_at: at,
            })
            .collect(),
        water_additions: r
            .water_additions
            .iter()
            .map(|a| crate::domain::WaterAddition {
                id: next(),
                recipe_id: id,
                agent: a.agent,
                amount: a.amount,
                unit: a.agent.unit(),
                strength_percent: a.strength_percent,
                acid_percent: a.acid_percent,
                step: a.step,
                sort_order: order(a.sort_order),
                created_at: at,
            })
            .collect(),
        fermentation_steps: r
            .fermentation_steps
            .iter()
            .map(|s| crate::domain::FermentationStep {
                id: next(),
                recipe_id: id,
                name: s.name.clone(),
                temperature_c: s.temperature_c,
                days: s.days,
                min_days: s.min_days,
                until_gravity: s.until_gravity,
                until_attenuation_percent: s.until_attenuation_percent,
                sort_order: order(s.sort_order),
                created_at: at,
            })
            .collect(),
    }
}
