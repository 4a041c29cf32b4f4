//! The four BeerSmith 1.x example recipes of `data/stats-reference.json` through
//! `compute_stats`.
//!
//! Two kinds of assertion:
//! * agreement with the other program within the tolerances of the file's `note` (OG ±0.5 points,
//!   FG ±1 point, SRM ±1 %, IBU ±5 %); ABV has no stated tolerance, so we allow what the OG and
//!   FG tolerances imply, (0.5 + 1) points × 131.25 ≈ 0.2 %, the reference being given to 0.1.
//! * our exact results, the numbers in the table of `docs/calculations.md`, so that table cannot
//!   silently go stale and any change in the formulas shows up here.
//!
//! All four recipes meet every tolerance under wort's formulas (docs/calculations.md), so nothing
//! is loosened.
//! The closest calls: Burton Ale IBU is 4.3 % below the reference (31.0 against 32.4) and Wit SRM
//! is 0.93 % below before rounding (3.96 against 4.0). The reference program's own conventions
//! (bigness on the boil gravity of a larger boil volume, hop-form bonuses, its own utilisation
//! curves) are not recorded in the file; docs/calculations.md lists the likely causes.

// A test helper that meets a malformed reference file should fail loudly.
#![allow(clippy::unwrap_used)]

use serde::Deserialize;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brewing::{RecipeStats, StatsInput, compute_stats, srm_of};
use wort_domain::recipe_children::{Fermentable, FermentableType, Hop, HopUse, Yeast, YeastType};

const REFERENCE: &str = include_str!("data/stats-reference.json");

#[derive(Deserialize)]
struct File {
    note: String,
    recipes: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    recipe: RecipeIn,
    fermentables: Vec<FermentableIn>,
    hops: Vec<HopIn>,
    yeasts: Vec<YeastIn>,
    reference: Reference,
}

#[derive(Deserialize)]
struct RecipeIn {
    batch_size_liters: f64,
    boil_time_minutes: f64,
    efficiency: f64,
}

#[derive(Deserialize)]
struct FermentableIn {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    amount_kg: f64,
    color_srm: f64,
    yield_percent: f64,
}

#[derive(Deserialize)]
struct HopIn {
    name: String,
    alpha_acid: f64,
    amount_grams: f64,
    time_minutes: f64,
    #[serde(rename = "use")]
    hop_use: String,
}

#[derive(Deserialize)]
struct YeastIn {
    name: String,
    attenuation: Option<f64>,
}

#[derive(Deserialize)]
struct Reference {
    og: f64,
    fg: f64,
    abv: f64,
    ibu: f64,
    color_srm: f64,
}

/// Our own results for one case, exactly as `compute_stats` rounds them.
struct Ours {
    id: &'static str,
    og: f64,
    fg: f64,
    abv: f64,
    ibu: f64,
    srm: f64,
    ebc: f64,
    attenuation: f64,
    calories: f64,
    calories_per_liter: f64,
    bu_gu: f64,
    ibu_by_hop: &'static [f64],
}

// The Wit's OG 1.0471 happens to look like π/3 to clippy.
#[allow(clippy::approx_constant)]
const OURS: &[Ours] = &[
    Ours {
        id: "beersmith1_burton_ale",
        og: 1.0558,
        fg: 1.0156,
        abv: 5.27,
        ibu: 31.0,
        srm: 7.0,
        ebc: 13.9,
        attenuation: 72.0,
        calories: 185.0,
        calories_per_liter: 521.0,
        bu_gu: 0.56,
        ibu_by_hop: &[18.0, 12.3, 0.7, 0.0],
    },
    Ours {
        id: "beersmith1_dry_stout",
        og: 1.0389,
        fg: 1.0105,
        abv: 3.73,
        ibu: 42.9,
        srm: 35.9,
        ebc: 70.7,
        attenuation: 73.0,
        calories: 128.0,
        calories_per_liter: 361.0,
        bu_gu: 1.1,
        ibu_by_hop: &[42.9],
    },
    Ours {
        id: "beersmith1_porter",
        og: 1.0558,
        fg: 1.0187,
        abv: 4.87,
        ibu: 29.5,
        srm: 44.9,
        ebc: 88.5,
        attenuation: 66.5,
        calories: 187.0,
        calories_per_liter: 526.0,
        bu_gu: 0.53,
        ibu_by_hop: &[29.5],
    },
    Ours {
        id: "beersmith1_wit",
        og: 1.0471,
        fg: 1.0113,
        abv: 4.70,
        ibu: 17.1,
        srm: 4.0,
        ebc: 7.8,
        attenuation: 76.0,
        calories: 155.0,
        calories_per_liter: 436.0,
        bu_gu: 0.36,
        ibu_by_hop: &[17.1],
    },
];

struct Built {
    fermentables: Vec<Fermentable>,
    hops: Vec<Hop>,
    yeasts: Vec<Yeast>,
}

fn build(case: &Case) -> Built {
    let recipe_id = Uuid::new_v4();
    let at = OffsetDateTime::UNIX_EPOCH;
    let fermentables = case
        .fermentables
        .iter()
        .zip(0..)
        .map(|(f, i)| Fermentable {
            catalog_id: None,
            id: Uuid::new_v4(),
            recipe_id,
            name: f.name.clone(),
            kind: FermentableType::parse(&f.kind).unwrap(),
            amount_kg: f.amount_kg,
            color_srm: f.color_srm,
            yield_percent: f.yield_percent,
            added: wort_domain::recipe_children::FermentableAddition::default_for(
                FermentableType::parse(&f.kind).unwrap(),
            ),
            origin: None,
            notes: None,
            sort_order: i,
            created_at: at,
        })
        .collect();
    let hops = case
        .hops
        .iter()
        .zip(0..)
        .map(|(h, i)| Hop {
            temperature_c: None,
            catalog_id: None,
            form: None,
            id: Uuid::new_v4(),
            recipe_id,
            name: h.name.clone(),
            alpha_acid: h.alpha_acid,
            amount_grams: h.amount_grams,
            time_minutes: h.time_minutes,
            hop_use: HopUse::parse(&h.hop_use).unwrap(),
            sort_order: i,
            created_at: at,
        })
        .collect();
    let yeasts = case
        .yeasts
        .iter()
        .zip(0..)
        .map(|(y, i)| Yeast {
            catalog_id: None,
            id: Uuid::new_v4(),
            recipe_id,
            name: y.name.clone(),
            lab: None,
            product_id: None,
            kind: YeastType::Ale,
            form: None,
            attenuation: y.attenuation,
            min_temp_c: None,
            max_temp_c: None,
            amount: None,
            amount_unit: None,
            notes: None,
            sort_order: i,
            created_at: at,
        })
        .collect();
    Built {
        fermentables,
        hops,
        yeasts,
    }
}

fn stats(case: &Case, built: &Built) -> RecipeStats {
    compute_stats(&StatsInput {
        batch_size_liters: case.recipe.batch_size_liters,
        boil_time_minutes: case.recipe.boil_time_minutes,
        efficiency: case.recipe.efficiency,
        fermentables: &built.fermentables,
        hops: &built.hops,
        yeasts: &built.yeasts,
    })
}

fn cases() -> Vec<Case> {
    let file: File = serde_json::from_str(REFERENCE).unwrap();
    // The tolerances below are the ones this note states; fail loudly if the file changes them.
    assert!(
        file.note.contains("OG within ~0.5 gravity points"),
        "{}",
        file.note
    );
    assert!(file.note.contains("SRM within ~1%"), "{}", file.note);
    assert!(file.note.contains("IBU within ~5%"), "{}", file.note);
    assert!(file.note.contains("FG within ~1 point"), "{}", file.note);
    assert_eq!(file.recipes.len(), 4);
    file.recipes
}

#[test]
fn reference_recipes_agree_within_the_stated_tolerances() {
    let mut failures = Vec::new();
    for case in cases() {
        let built = build(&case);
        let s = stats(&case, &built);
        let r = &case.reference;
        let unrounded_srm = srm_of(case.recipe.batch_size_liters, &built.fermentables);
        let checks = [
            ("og ±0.0005", (s.og - r.og).abs() <= 0.0005),
            ("fg ±0.001", (s.fg - r.fg).abs() <= 0.001),
            ("abv ±0.2", (s.abv - r.abv).abs() <= 0.2),
            ("ibu ±5 %", (s.ibu - r.ibu).abs() <= 0.05 * r.ibu),
            (
                "srm ±1 %",
                (s.srm - r.color_srm).abs() <= 0.01 * r.color_srm,
            ),
            (
                "unrounded srm ±1 %",
                (unrounded_srm - r.color_srm).abs() <= 0.01 * r.color_srm,
            ),
        ];
        for (what, ok) in checks {
            if !ok {
                failures.push(format!(
                    "{}: {what}: ours og {} fg {} abv {} ibu {} srm {} ({unrounded_srm}) vs \
                     reference og {} fg {} abv {} ibu {} srm {}",
                    case.id, s.og, s.fg, s.abv, s.ibu, s.srm, r.og, r.fg, r.abv, r.ibu, r.color_srm
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn reference_recipes_give_our_documented_results() {
    let cases = cases();
    assert_eq!(cases.len(), OURS.len());
    for (case, ours) in cases.iter().zip(OURS) {
        assert_eq!(case.id, ours.id);
        let built = build(case);
        let s = stats(case, &built);
        let per_hop: Vec<f64> = s.ibu_by_hop.iter().map(|h| h.ibu).collect();
        let hop_ids: Vec<Uuid> = s.ibu_by_hop.iter().map(|h| h.hop_id).collect();
        assert_eq!(
            s,
            RecipeStats {
                og: ours.og,
                fg: ours.fg,
                abv: ours.abv,
                ibu: ours.ibu,
                srm: ours.srm,
                ebc: ours.ebc,
                attenuation: ours.attenuation,
                calories: ours.calories,
                calories_per_liter: ours.calories_per_liter,
                bu_gu: Some(ours.bu_gu),
                ibu_by_hop: s.ibu_by_hop.clone(),
            },
            "{}",
            ours.id
        );
        assert_eq!(per_hop, ours.ibu_by_hop, "{}", ours.id);
        assert_eq!(
            hop_ids,
            built.hops.iter().map(|h| h.id).collect::<Vec<_>>(),
            "hop order"
        );
    }
}

#[test]
fn dry_hop_in_the_burton_ale_adds_no_bitterness() {
    let cases = cases();
    let case = cases
        .iter()
        .find(|c| c.id == "beersmith1_burton_ale")
        .unwrap();
    let built = build(case);
    let s = stats(case, &built);
    let dry = built
        .hops
        .iter()
        .position(|h| h.hop_use == HopUse::DryHop)
        .unwrap();
    assert_eq!(s.ibu_by_hop[dry].ibu, 0.0);
    assert_eq!(s.ibu_by_hop[dry].hop_id, built.hops[dry].id);
}
