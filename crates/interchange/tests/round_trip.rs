//! Export → import gives back every field the format carries; import → export → import is
//! stable; the statistics of the round-tripped recipe equal the original's.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::{IMPORTABLE, detail, for_export, import_ok, usable};
use wort_interchange::domain::{
    FermentableAddition, FermentableType, HopForm, HopUse, MashStepType, MiscType, MiscUse,
    NewFermentable, NewFermentationStep, NewHop, NewMashStep, NewMisc, NewRecipe, NewWaterAddition,
    NewYeast, RecipeType, WaterAgent, WaterStep, YeastForm, YeastType, compute_stats,
};
use wort_interchange::{
    Estimates, Format, ImportedRecipe, export_beerjson, export_beerxml, import,
};

fn reimport(format: Format, recipes: &[ImportedRecipe]) -> Vec<ImportedRecipe> {
    let details: Vec<_> = recipes.iter().map(detail).collect();
    let bytes = match format {
        Format::BeerJson => export_beerjson(&for_export(details))
            .to_string()
            .into_bytes(),
        Format::BeerXml => export_beerxml(&for_export(details)).into_bytes(),
    };
    import(&bytes, format)
        .unwrap_or_else(|e| panic!("{format:?} export did not import: {e:?}"))
        .recipes
}

/// Nine significant digits: unit conversions (g → kg → g) may move the last bit of a double.
fn sig(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(8 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

fn comparable(r: &ImportedRecipe) -> ImportedRecipe {
    let mut r = r.clone();
    r.estimates = Estimates::default();
    let o = |x: Option<f64>| x.map(sig);
    let n = &mut r.recipe;
    (n.batch_size_liters, n.boil_time_minutes, n.efficiency) = (
        sig(n.batch_size_liters),
        sig(n.boil_time_minutes),
        sig(n.efficiency),
    );
    for f in &mut r.fermentables {
        (f.amount_kg, f.color_srm, f.yield_percent) =
            (sig(f.amount_kg), sig(f.color_srm), sig(f.yield_percent));
    }
    for h in &mut r.hops {
        (h.alpha_acid, h.amount_grams, h.time_minutes) =
            (sig(h.alpha_acid), sig(h.amount_grams), sig(h.time_minutes));
    }
    for y in &mut r.yeasts {
        (y.attenuation, y.min_temp_c, y.max_temp_c, y.amount) = (
            o(y.attenuation),
            o(y.min_temp_c),
            o(y.max_temp_c),
            o(y.amount),
        );
    }
    for m in &mut r.miscs {
        (m.amount, m.time_minutes) = (sig(m.amount), sig(m.time_minutes));
    }
    for a in &mut r.water_additions {
        a.amount = sig(a.amount);
    }
    for s in &mut r.mash_steps {
        (s.temperature_c, s.duration_minutes) = (sig(s.temperature_c), sig(s.duration_minutes));
        (s.infuse_amount_liters, s.ramp_minutes) = (o(s.infuse_amount_liters), o(s.ramp_minutes));
        s.infuse_temperature_c = o(s.infuse_temperature_c);
    }
    r
}

/// What survives a trip through `format`: the documented losses (docs/interchange.md).
fn carried(format: Format, r: &ImportedRecipe) -> ImportedRecipe {
    let mut r = r.clone();
    // These exports are written without the recipes' equipment profiles (`for_export`).
    r.equipment = None;
    // wort's `aroma` is a late boil addition; both formats call it a boil addition (their
    // `Aroma` is a steep after flame-out, wort's `whirlpool`).
    for h in &mut r.hops {
        if h.hop_use == HopUse::Aroma {
            h.hop_use = HopUse::Boil;
        }
    }
    match format {
        Format::BeerJson => {
            for y in &mut r.yeasts {
                if matches!(y.kind, YeastType::Hybrid | YeastType::Wheat) {
                    y.kind = YeastType::Ale;
                }
                y.form = y.form.or(Some(YeastForm::Liquid));
                if y.min_temp_c.is_none() || y.max_temp_c.is_none() {
                    (y.min_temp_c, y.max_temp_c) = (None, None);
                }
                if !y.amount_unit.as_deref().is_some_and(beerjson_unit) || y.amount.is_none() {
                    // BeerJSON requires an amount: an unknown one is written as one package.
                    (y.amount, y.amount_unit) = (Some(1.0), Some("pkg".into()));
                }
            }
            for m in &mut r.miscs {
                if !beerjson_unit(&m.amount_unit) {
                    m.amount_unit = "unit".into();
                }
            }
            // An attenuation target and a minimum time have no BeerJSON field.
            for s in &mut r.fermentation_steps {
                s.until_attenuation_percent = None;
                s.min_days = None;
            }
        }
        Format::BeerXml => {
            // A metric amount comes back from AMOUNT in grams or millilitres; any other unit
            // (a packet, a teaspoon, ounces) from DISPLAY_AMOUNT as it was.
            for y in &mut r.yeasts {
                let converted = y
                    .amount
                    .zip(y.amount_unit.as_deref())
                    .filter(|(_, u)| is_metric(u))
                    .and_then(|(a, u)| metric(a, u));
                if let Some((a, u)) = converted {
                    (y.amount, y.amount_unit) = (Some(a), Some(u.into()));
                }
                // A unit without an amount is not written.
                if y.amount.is_none() {
                    y.amount_unit = None;
                }
            }
            for m in &mut r.miscs {
                if is_metric(&m.amount_unit) {
                    let (a, u) = metric(m.amount, &m.amount_unit).expect("a metric unit");
                    (m.amount, m.amount_unit) = (a, u.into());
                }
            }
            // Three stages named by their place, days at a temperature; a stage with no age is
            // not one.
            let names = ["Primary", "Secondary", "Tertiary"];
            r.fermentation_steps = (r.fermentation_steps.iter().take(3).enumerate())
                .filter(|(_, s)| s.days.is_some_and(|d| d > 0.0))
                .zip(0..)
                .map(|((i, s), order)| NewFermentationStep {
                    name: names[i].into(),
                    min_days: None,
                    until_gravity: None,
                    until_attenuation_percent: None,
                    sort_order: Some(order),
                    ..s.clone()
                })
                .collect();
        }
    }
    r
}

fn beerjson_unit(u: &str) -> bool {
    [
        "mg",
        "g",
        "kg",
        "lb",
        "oz",
        "ml",
        "l",
        "tsp",
        "tbsp",
        "floz",
        "cup",
        "pt",
        "qt",
        "gal",
        "bbl",
        "ifloz",
        "ipt",
        "iqt",
        "igal",
        "ibbl",
        "1",
        "unit",
        "each",
        "dimensionless",
        "pkg",
    ]
    .contains(&u)
}

/// BeerXML's kilograms or litres, read back as grams or millilitres.
/// The units BeerXML's `AMOUNT` carries as they are (the import then leaves `DISPLAY_AMOUNT` aside).
fn is_metric(unit: &str) -> bool {
    ["mg", "g", "kg", "ml", "l"].contains(&unit)
}

fn metric(amount: f64, unit: &str) -> Option<(f64, &'static str)> {
    let grams = |k: f64| Some((amount * k, "g"));
    let ml = |k: f64| Some((amount * k, "ml"));
    match unit {
        "mg" => grams(0.001),
        "g" => grams(1.0),
        "kg" => grams(1000.0),
        "oz" => grams(28.349523125),
        "lb" => grams(453.59237),
        "ml" => ml(1.0),
        "l" => ml(1000.0),
        "tsp" => ml(3785.411784 / 768.0),
        _ => None,
    }
}

/// A recipe that uses every enum value and every optional field, set and unset.
fn everything() -> ImportedRecipe {
    let text = |s: &str| Some(s.to_owned());
    ImportedRecipe {
        recipe: NewRecipe {
            equipment_id: None,
            style_id: None,
            water_profile_id: None,
            target_water_profile_id: None,
            lineage: Default::default(),
            name: "Everything & <more> – ÄÖÜ “quoted”".into(),
            style: "Best Bitter".into(),
            kind: RecipeType::PartialMash,
            batch_size_liters: 23.5,
            boil_time_minutes: 75.0,
            efficiency: 0.705,
            notes: text("Line one\nline two\r\nand a tab\there"),
        },
        fermentables: FermentableType::ALL
            .iter()
            .enumerate()
            .map(|(i, &kind)| NewFermentable {
                catalog_id: None,
                name: format!("F{i}"),
                kind,
                amount_kg: 0.1 + i as f64 * 0.37,
                color_srm: 1.5 + i as f64 * 11.0,
                yield_percent: 60.0 + i as f64 * 3.3,
                added: FermentableAddition::ALL[i % FermentableAddition::ALL.len()],
                origin: (i % 2 == 0).then(|| "UK".to_owned()),
                notes: (i % 3 == 0).then(|| format!("note {i}")),
                sort_order: Some(i as i32),
            })
            .collect(),
        hops: HopUse::ALL
            .iter()
            .enumerate()
            .map(|(i, &hop_use)| NewHop {
                catalog_id: None,
                // Every form BeerXML 1.0 has a word for, and none (an extract has no BeerXML word).
                form: [
                    Some(HopForm::Pellet),
                    Some(HopForm::Plug),
                    Some(HopForm::Leaf),
                    None,
                ][i % 4],
                name: format!("H{i}"),
                alpha_acid: 3.1 + i as f64,
                amount_grams: 7.3 * (i + 1) as f64,
                time_minutes: [60.0, 4320.0, 45.0, 75.0, 20.0, 5.0][i],
                hop_use,
                // A hop stand's temperature travels with it (an extension in both formats).
                temperature_c: (hop_use == HopUse::Whirlpool).then_some(82.5),
                sort_order: Some(i as i32),
            })
            .collect(),
        yeasts: YeastType::ALL
            .iter()
            .enumerate()
            .map(|(i, &kind)| NewYeast {
                catalog_id: None,
                name: format!("Y{i}"),
                lab: (i % 2 == 0).then(|| "Lab".to_owned()),
                product_id: (i % 3 == 0).then(|| format!("P-{i}")),
                kind,
                form: [
                    None,
                    Some(YeastForm::Liquid),
                    Some(YeastForm::Dry),
                    Some(YeastForm::Slant),
                    Some(YeastForm::Culture),
                ][i % 5],
                attenuation: (i % 2 == 1).then_some(70.0 + i as f64),
                min_temp_c: (i % 3 != 2).then_some(15.5),
                max_temp_c: (i % 4 != 3).then_some(22.0),
                amount: (i % 5 != 4).then_some(11.5 + i as f64),
                amount_unit: Some(["g", "ml", "pkg", "oz", "g"][i % 5].to_owned()),
                notes: (i == 0).then(|| "pitch cool".to_owned()),
                sort_order: Some(i as i32),
            })
            .collect(),
        miscs: MiscUse::ALL
            .iter()
            .enumerate()
            .map(|(i, &misc_use)| NewMisc {
                catalog_id: None,
                name: format!("M{i}"),
                kind: MiscType::ALL[i % MiscType::ALL.len()],
                misc_use,
                amount: 2.5 + i as f64,
                amount_unit: ["g", "ml", "tsp", "pkg", "oz", "items", "kg"][i].to_owned(),
                time_minutes: i as f64 * 5.0,
                notes: (i == 1).then(|| "whirlfloc".to_owned()),
                sort_order: Some(i as i32),
            })
            .collect(),
        // Every agent wort's water model knows, into the mash and the sparge: both formats carry
        // them as water-agent miscs, which are read back as water additions.
        water_additions: WaterAgent::ALL
            .iter()
            .enumerate()
            .map(|(i, &agent)| NewWaterAddition {
                agent,
                amount: 0.5 + i as f64 * 1.25,
                strength_percent: match agent {
                    WaterAgent::LacticAcid => Some(80.0),
                    WaterAgent::PhosphoricAcid => Some(10.0),
                    _ => None,
                },
                acid_percent: (agent == WaterAgent::AcidulatedMalt).then_some(3.0),
                step: [WaterStep::Mash, WaterStep::Sparge][i % 2],
                sort_order: Some(i as i32),
            })
            .collect(),
        equipment: None,
        mash_steps: MashStepType::ALL
            .iter()
            .enumerate()
            .map(|(i, &kind)| NewMashStep {
                name: format!("S{i}"),
                kind,
                temperature_c: 50.0 + i as f64 * 8.25,
                duration_minutes: 15.0 + i as f64 * 20.0,
                infuse_amount_liters: (i == 0).then_some(14.2),
                infuse_temperature_c: (i == 1).then_some(85.5),
                ramp_minutes: (i > 0).then_some(10.0),
                sort_order: Some(i as i32),
            })
            .collect(),
        fermentation_steps: [("Primary", 19.0, 10.0), ("Secondary", 4.0, 14.0)]
            .into_iter()
            .zip(0..)
            .map(|((name, temperature_c, days), i)| NewFermentationStep {
                name: name.to_owned(),
                temperature_c,
                days: Some(days),
                min_days: (i == 1).then_some(3.0),
                until_gravity: (i == 1).then_some(1.010),
                until_attenuation_percent: None,
                sort_order: Some(i),
            })
            .collect(),
        estimates: Estimates::default(),
    }
}

#[test]
fn export_then_import_gives_back_every_carried_field() {
    let original = everything();
    for format in [Format::BeerJson, Format::BeerXml] {
        let back = reimport(format, std::slice::from_ref(&original));
        assert_eq!(back.len(), 1);
        assert_eq!(
            comparable(&back[0]),
            comparable(&carried(format, &original)),
            "{format:?}"
        );
    }
}

#[test]
fn carried_is_not_the_identity_where_formats_lose_something() {
    // Guards the test above: the losses it allows are real, and few.
    let original = everything();
    assert_ne!(carried(Format::BeerJson, &original), original);
    assert_ne!(carried(Format::BeerXml, &original), original);
    let back = reimport(Format::BeerJson, std::slice::from_ref(&original));
    assert_eq!(
        comparable(&back[0]).fermentables,
        comparable(&original).fermentables
    );
    assert_eq!(
        comparable(&back[0]).hops,
        comparable(&carried(Format::BeerJson, &original)).hops,
        "hops lose only wort's `aroma` word (a boil addition in both formats)"
    );
    assert_eq!(
        comparable(&back[0]).mash_steps,
        comparable(&original).mash_steps
    );
}

#[test]
fn real_files_are_stable_through_both_formats() {
    for name in usable("real_files_are_stable_through_both_formats", IMPORTABLE) {
        let first = import_ok(name).recipes;
        for format in [Format::BeerJson, Format::BeerXml] {
            let second = reimport(format, &first);
            let third = reimport(format, &second);
            assert_eq!(second.len(), first.len(), "{name} {format:?}");
            for ((a, b), c) in first.iter().zip(&second).zip(&third) {
                let what = format!("{name} {format:?} {}", a.recipe.name);
                assert_eq!(comparable(b), comparable(&carried(format, a)), "{what}");
                assert_eq!(comparable(c), comparable(b), "{what}: not stable");
                let (sa, sb) = (detail(a), detail(b));
                assert_eq!(
                    compute_stats(&sa.stats_input()),
                    compute_stats(&sb.stats_input()),
                    "{what}: statistics"
                );
            }
        }
    }
}

#[test]
fn exports_carry_wort_statistics_as_the_writers_estimates() {
    let a = &import_ok("bx_brewersfriend_tubbs_ii.xml").recipes[0];
    let stats = compute_stats(&detail(a).stats_input());
    for format in [Format::BeerJson, Format::BeerXml] {
        let e = reimport(format, std::slice::from_ref(a))[0].estimates;
        assert_eq!(e.og, Some(stats.og), "{format:?}");
        assert_eq!(e.color_srm, Some(stats.srm), "{format:?}");
    }
    assert_eq!(
        reimport(Format::BeerXml, std::slice::from_ref(a))[0]
            .estimates
            .ibu,
        Some(stats.ibu)
    );
}
