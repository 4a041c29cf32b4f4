//! Shared helpers of the integration tests: the test files, and turning an imported recipe into
//! the stored shape (`RecipeDetail`) the exporters take, as the database would.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use time::macros::datetime;
use uuid::Uuid;
use wort_interchange::domain::{Fermentable, Hop, MashStep, Misc, Recipe, RecipeDetail, Yeast};
use wort_interchange::{Format, ImportedRecipe};

/// A file vendored under `tests/data/files` (licence allows it).
pub fn vendored(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/files")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A file of the project's corpus read in place (`../shared` beside the repository): files whose
/// licence does not allow copying them into the repository.
pub fn corpus(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/interchange/files")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the corpus lives in shared/ beside the repository)",
            p.display()
        )
    })
}

/// Vendored when it is, else from the corpus.
pub fn file(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/files")
        .join(name);
    if p.exists() {
        vendored(name)
    } else {
        corpus(name)
    }
}

pub fn format_of(name: &str) -> Format {
    if name.ends_with(".json") {
        Format::BeerJson
    } else {
        Format::BeerXml
    }
}

/// Every real or constructed file that must import (the corpus's "ok" and "either" buckets).
pub const IMPORTABLE: &[&str] = &[
    "bx_beersmith_aussie_ale.xml",
    "bx_brewersfriend_tubbs_ii.xml",
    "bx_brewersfriend_vanilla_cream_ale.xml",
    "bx_brewfather_philter_xpa.xml",
    "bx_brewtarget_2011_ten_recipes.xml",
    "bx_brewtarget_coffee_stout.xml",
    "bx_brewtarget_encoding_system.xml",
    "bx_brewtarget_smash_vienna_amarillo.xml",
    "bx_brewtlery_uneticky_vzor.xml",
    "bx_de_almtaler_weizen.xml",
    "bx_de_ipl_comet.xml",
    "bx_diydog_punk_ipa.xml",
    "bx_grainfather_rose_ipa.xml",
    "enc_iso8859_1_almtaler_weizen.xml",
    "enc_utf16_bom_uneticky_vzor.xml",
    "enc_utf8_bom_tubbs_ii.xml",
    "enc_windows1252_ipl_comet.xml",
    "enc_windows1252_zatec.xml",
    "bj_converted_generic_onehf.json",
    "bj_brett_dosed_kegs_saison.json",
    "bj_medieval_ale.json",
    "bj_units_constructed.json",
];

pub fn import_ok(name: &str) -> wort_interchange::Import {
    wort_interchange::import(&file(name), format_of(name))
        .unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// The recipe as the database would hold it after the import (ids and timestamps made up).
pub fn detail(r: &ImportedRecipe) -> RecipeDetail {
    let id = Uuid::from_u128(1);
    let at = datetime!(2026-11-23 12:00:00 UTC);
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
                id: next(),
                recipe_id: id,
                name: f.name.clone(),
                kind: f.kind,
                amount_kg: f.amount_kg,
                color_srm: f.color_srm,
                yield_percent: f.yield_percent,
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
                ramp_minutes: s.ramp_minutes,
                sort_order: order(s.sort_order),
                created_at: at,
            })
            .collect(),
    }
}
