//! Every real export of the corpus: what must import does, with the values the file holds;
//! what must be refused is, with a path into the file; encoding variants equal their twins.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::{IMPORTABLE, available, file, format_of, import_ok, usable, vendored};
use wort_interchange::domain::{
    FermentableType, HopUse, MashStepType, MiscType, RecipeType, WaterAgent, WaterStep, YeastForm,
    YeastType,
};
use wort_interchange::{ImportError, import};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[test]
fn every_importable_file_imports() {
    for name in usable("every_importable_file_imports", IMPORTABLE) {
        let i = import_ok(name);
        assert!(!i.recipes.is_empty(), "{name}");
        for r in &i.recipes {
            assert!(!r.recipe.name.is_empty(), "{name}");
            assert!(r.recipe.batch_size_liters > 0.0, "{name}");
            assert!(!r.fermentables.is_empty(), "{name}: {}", r.recipe.name);
        }
    }
    assert_eq!(
        import_ok("bx_brewtarget_2011_ten_recipes.xml")
            .recipes
            .len(),
        10
    );
}

fn refusal_paths(name: &str) -> Vec<Vec<String>> {
    match import(&file(name), format_of(name)) {
        Err(ImportError::Invalid(v)) => v.into_iter().map(|v| v.path).collect(),
        other => panic!("{name}: expected 422, got {other:?}"),
    }
}

#[test]
fn files_without_a_usable_recipe_are_refused_with_paths_into_the_file() {
    assert_eq!(refusal_paths("bx_beersmith_hops_only.xml"), [["HOPS"]]);
    for name in usable(
        "files_without_a_usable_recipe_are_refused",
        &["bj_linusu_bjornen.json", "bj_linusu_svartan.json"],
    ) {
        let paths = refusal_paths(name);
        let base = ["beerjson", "recipes", "0"];
        assert!(paths.iter().all(|p| p[..3] == base), "{paths:?}");
        assert!(paths.contains(&vec![
            "beerjson".into(),
            "recipes".into(),
            "0".into(),
            "efficiency".into(),
            "brewhouse".into()
        ]));
        for key in ["yield", "color"] {
            assert!(
                paths.iter().any(|p| p[3] == "ingredients"
                    && p[4] == "fermentable_additions"
                    && p[6] == key)
            );
        }
    }
}

#[test]
fn beerxml_values_arrive_in_wort_units() {
    let i = import_ok("bx_brewersfriend_tubbs_ii.xml");
    let r = &i.recipes[0];
    assert_eq!(r.recipe.name, "Tubbs II");
    assert_eq!(r.recipe.kind, RecipeType::AllGrain);
    // Spot values straight from the file.
    let text = String::from_utf8(file("bx_brewersfriend_tubbs_ii.xml")).unwrap();
    let hop_kg: f64 = text
        .split("<HOP>")
        .nth(1)
        .unwrap()
        .split("<AMOUNT>")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(close(r.hops[0].amount_grams, hop_kg * 1000.0), "hop kg → g");
    let eff: f64 = text
        .split("<EFFICIENCY>")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        close(r.recipe.efficiency, eff / 100.0),
        "percent → fraction"
    );
    assert!(
        i.warnings.iter().any(|w| w.message.contains("water")),
        "WATER named"
    );
    assert_eq!(
        r.hops.iter().map(|h| h.sort_order).collect::<Vec<_>>(),
        (0..r.hops.len() as i32).map(Some).collect::<Vec<_>>()
    );

    // IPL_COMET: the empty whirlpool TIME is read as 0 with a warning at its path.
    let c = import_ok("bx_de_ipl_comet.xml");
    assert_eq!(c.recipes[0].hops[2].time_minutes, 0.0);
    assert_eq!(c.recipes[0].hops[2].hop_use, HopUse::Whirlpool);
    let hop2_time: Vec<String> = ["RECIPES", "RECIPE", "0", "HOPS", "HOP", "2", "TIME"]
        .map(String::from)
        .to_vec();
    assert!(c.warnings.iter().any(|w| w.path == hop2_time));
}

/// The traits of real files that cannot be vendored, on files derived from vendored ones.
#[test]
fn derived_files_carry_the_corpus_only_traits() {
    let tubbs = String::from_utf8(vendored("bx_brewersfriend_tubbs_ii.xml")).unwrap();
    let import_text = |text: &str| import(text.as_bytes(), wort_interchange::Format::BeerXml);

    // Grainfather writes a whirlpool as USE `Hop Stand` and leaves a yeast's TYPE empty.
    let first_use = tubbs.find("<USE>").unwrap();
    let end = first_use + tubbs[first_use..].find("</USE>").unwrap();
    let mut stand = tubbs.clone();
    stand.replace_range(first_use + "<USE>".len()..end, "Hop Stand");
    let yeast = stand.find("<YEAST>").unwrap();
    let t = yeast + stand[yeast..].find("<TYPE>").unwrap() + "<TYPE>".len();
    let t_end = t + stand[t..].find("</TYPE>").unwrap();
    stand.replace_range(t..t_end, "");
    let g = import_text(&stand).unwrap();
    assert_eq!(g.recipes[0].hops[0].hop_use, HopUse::Whirlpool);
    assert_eq!(g.recipes[0].yeasts[0].kind, YeastType::Ale);
    assert!(g.warnings.iter().any(|w| w.path.ends_with(&[
        "YEAST".into(),
        "0".into(),
        "TYPE".into()
    ])));

    // Brewfather writes every space of a name as the character reference `&#32;`.
    let spaced = tubbs.replacen("<NAME>Tubbs II</NAME>", "<NAME>Tubbs&#32;II</NAME>", 1);
    assert_eq!(
        import_text(&spaced).unwrap().recipes[0].recipe.name,
        "Tubbs II"
    );

    // A Brewtarget bug declares `encoding="System"`: read as UTF-8, and said so.
    let system = tubbs.replacen("encoding=\"UTF-8\"", "encoding=\"System\"", 1);
    let s = import_text(&system).unwrap();
    assert!(s.warnings.iter().any(|w| w.message.contains("System")));

    // windows-1252's own characters at 0x80–0x9F (– “ ” €), and UTF-16 with a BOM.
    let name = "Tubbs – “II” 5 €";
    let win: Vec<u8> = tubbs
        .replacen("encoding=\"UTF-8\"", "encoding=\"windows-1252\"", 1)
        .replacen("<NAME>Tubbs II</NAME>", &format!("<NAME>{name}</NAME>"), 1)
        .chars()
        .map(|c| match c {
            '–' => 0x96,
            '“' => 0x93,
            '”' => 0x94,
            '€' => 0x80,
            c => u8::try_from(u32::from(c)).unwrap(),
        })
        .collect();
    let w = import(&win, wort_interchange::Format::BeerXml).unwrap();
    assert_eq!(w.recipes[0].recipe.name, name);
    let utf16_text = tubbs.replacen("encoding=\"UTF-8\"", "encoding=\"UTF-16\"", 1);
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(utf16_text.encode_utf16().flat_map(u16::to_le_bytes));
    let u = import(&utf16, wort_interchange::Format::BeerXml).unwrap();
    assert_eq!(
        u.recipes,
        import_ok("bx_brewersfriend_tubbs_ii.xml").recipes
    );
}

/// The corpus-only files themselves, where the corpus is present.
#[test]
fn corpus_only_beerxml_files_keep_their_traits() {
    const TEST: &str = "corpus_only_beerxml_files_keep_their_traits";
    // Grainfather's "Hop Stand" is a whirlpool; its empty yeast TYPE becomes ale with a warning.
    if available(TEST, "bx_grainfather_rose_ipa.xml") {
        let g = import_ok("bx_grainfather_rose_ipa.xml");
        assert!(
            g.recipes[0]
                .hops
                .iter()
                .any(|h| h.hop_use == HopUse::Whirlpool)
        );
        assert_eq!(g.recipes[0].yeasts[0].kind, YeastType::Ale);
        assert_eq!(g.recipes[0].yeasts[0].form, None);
        assert!(g.warnings.iter().any(|w| w.path.ends_with(&[
            "YEAST".into(),
            "0".into(),
            "TYPE".into()
        ])));
    }

    // Brewfather: `&#32;` references decoded, lower-case booleans, its salts in the mash and
    // (misc use Sparge) the sparge become water additions; its EQUIPMENT a profile.
    if available(TEST, "bx_brewfather_philter_xpa.xml") {
        let file = import_ok("bx_brewfather_philter_xpa.xml");
        let b = &file.recipes[0];
        assert_eq!(b.recipe.name, "Philter XPA - Clone");
        let salts: Vec<_> = (b.water_additions.iter())
            .map(|a| (a.agent, a.step, a.amount))
            .collect();
        assert_eq!(
            salts,
            [
                (WaterAgent::CalciumChloride, WaterStep::Mash, 1.24),
                (WaterAgent::EpsomSalt, WaterStep::Mash, 2.38),
                (WaterAgent::Gypsum, WaterStep::Mash, 4.47),
                (WaterAgent::CalciumChloride, WaterStep::Sparge, 1.36),
                (WaterAgent::EpsomSalt, WaterStep::Sparge, 2.62),
                (WaterAgent::Gypsum, WaterStep::Sparge, 4.93),
            ]
        );
        assert!(b.miscs.iter().all(|m| m.kind != MiscType::WaterAgent));
        assert_eq!(b.equipment, Some(0));
        let kit = &file.equipment[0];
        assert_eq!(kit.name, "Grainfather");
        // EVAP_RATE 11.574 % of BOIL_SIZE 25.92 L per hour = 3 L/h.
        assert!(close(kit.boil_off_liters_per_hour, 3.0));
        assert!(close(kit.mash_tun_deadspace_liters, 3.5));
    }

    // Brewtarget's `encoding="System"`: read as UTF-8, said so.
    if available(TEST, "bx_brewtarget_encoding_system.xml") {
        let s = import_ok("bx_brewtarget_encoding_system.xml");
        assert!(s.warnings.iter().any(|w| w.message.contains("System")));
    }
}

#[test]
fn beerjson_units_are_converted() {
    let i = import_ok("bj_units_constructed.json");
    assert!(i.warnings.is_empty(), "{:?}", i.warnings);
    let r = &i.recipes[0];
    assert_eq!(r.recipe.kind, RecipeType::PartialMash);
    assert!(close(r.recipe.batch_size_liters, 5.0 * 4.54609));
    assert!(close(r.recipe.efficiency, 0.68));
    assert!(close(r.recipe.boil_time_minutes, 75.0));
    assert_eq!(r.recipe.style, "Best Bitter");
    let f = &r.fermentables;
    assert!(close(f[0].amount_kg, 8.5 * 0.45359237));
    assert!(close(f[0].color_srm, 5.9 / 1.97), "EBC");
    assert!(close(f[0].yield_percent, 81.0));
    assert!(close(f[1].amount_kg, 12.0 * 0.028349523125), "oz");
    assert!(close(f[1].color_srm, 60.0), "°L as SRM");
    assert!(
        close(f[1].yield_percent, 34.0 / 46.21 * 100.0),
        "potential → yield"
    );
    assert_eq!(f[2].kind, FermentableType::DryExtract);
    assert!(close(f[2].amount_kg, 0.45));
    let h = &r.hops;
    assert!(close(h[0].amount_grams, 28.349523125));
    assert!(close(h[0].time_minutes, 60.0), "1 hr");
    assert_eq!(h[2].hop_use, HopUse::Mash);
    assert!(close(h[2].amount_grams, 15.0), "15000 mg");
    assert_eq!(h[3].hop_use, HopUse::DryHop);
    assert!(
        close(h[3].time_minutes, 7.0 * 1440.0),
        "dry hop lasts its duration"
    );
    assert_eq!(
        (r.miscs[0].amount, r.miscs[0].amount_unit.as_str()),
        (1.0, "tsp")
    );
    // The gypsum (a water agent, add_to_mash) is a water addition of the mash, in grams.
    assert_eq!(r.miscs.len(), 1);
    let gypsum = &r.water_additions[0];
    assert_eq!(
        (gypsum.agent, gypsum.amount, gypsum.step),
        (WaterAgent::Gypsum, 5.0, WaterStep::Mash)
    );
    let m = &r.mash_steps;
    assert!(close(m[0].temperature_c, (152.0 - 32.0) * 5.0 / 9.0));
    assert!(close(m[0].duration_minutes, 60.0));
    assert!(close(
        m[0].infuse_amount_liters.unwrap(),
        12.0 * 0.946352946
    ));
    assert_eq!(m[1].kind, MashStepType::Temperature);
    assert_eq!(r.yeasts[0].amount_unit.as_deref(), Some("ml"));
    assert_eq!(r.yeasts[0].form, Some(YeastForm::Liquid));

    // Potentials written as thousandths (1038 for 1.038) are read as such, with a warning.
    let s = import_ok("bj_brett_dosed_kegs_saison.json");
    assert!(close(
        s.recipes[0].fermentables[0].yield_percent,
        38.0 / 46.21 * 100.0
    ));
    assert_eq!(s.recipes[0].yeasts[1].kind, YeastType::Brett);
    let honey = import_ok("bj_medieval_ale.json");
    assert_eq!(
        honey.recipes[0].fermentables[0].kind,
        FermentableType::Honey
    );
}

/// Each encoding variant holds the same recipe as its UTF-8 source.
#[test]
fn encoding_variants_equal_their_twins() {
    const TEST: &str = "encoding_variants_equal_their_twins";
    for (variant, twin) in [
        (
            "enc_iso8859_1_almtaler_weizen.xml",
            "bx_de_almtaler_weizen.xml",
        ),
        (
            "enc_utf16_bom_uneticky_vzor.xml",
            "bx_brewtlery_uneticky_vzor.xml",
        ),
        ("enc_utf8_bom_tubbs_ii.xml", "bx_brewersfriend_tubbs_ii.xml"),
        ("enc_windows1252_ipl_comet.xml", "bx_de_ipl_comet.xml"),
    ] {
        if available(TEST, variant) && available(TEST, twin) {
            assert_eq!(import_ok(variant), import_ok(twin), "{variant}");
        }
    }
    let weizen = import_ok("bx_de_almtaler_weizen.xml");
    assert!(
        weizen.recipes[0]
            .fermentables
            .iter()
            .any(|f| f.name.contains("Münchner"))
    );
    if available(TEST, "bx_brewtlery_uneticky_vzor.xml") {
        assert_eq!(
            import_ok("bx_brewtlery_uneticky_vzor.xml").recipes[0]
                .recipe
                .name,
            "Únětický Vzor 10.7° (G70 30L)"
        );
    }

    // windows-1252's own characters at 0x80–0x9F.
    if !(available(TEST, "enc_windows1252_zatec.xml")
        && available(TEST, "bx_grainfather_rose_ipa.xml"))
    {
        return;
    }
    let z = import_ok("enc_windows1252_zatec.xml");
    let mut z = z.recipes[0].clone();
    assert_eq!(z.recipe.name, "Rose IPA – Žatec edition");
    assert_eq!(
        z.recipe.notes.as_deref(),
        Some("Brewer’s “test” – costs 5 €")
    );
    assert!(z.hops.iter().any(|h| h.name == "Saaz (Žatec)"));
    let mut twin = import_ok("bx_grainfather_rose_ipa.xml").recipes[0].clone();
    // Apart from the three edits the recipe is the same.
    for r in [&mut z, &mut twin] {
        r.recipe.name.clear();
        r.recipe.notes = None;
        for h in &mut r.hops {
            if h.name == "Saaz (Žatec)" || h.name == "El Dorado" {
                h.name.clear();
            }
        }
    }
    assert_eq!(z, twin);
}

/// The import report's comparisons of each file's own estimates with wort's numbers.
fn estimate_warnings(name: &str) -> Vec<(Vec<String>, String)> {
    import_ok(name)
        .warnings
        .into_iter()
        .filter(|w| w.message.contains("likely cause"))
        .map(|w| (w.path, w.message))
        .collect()
}

#[test]
fn the_report_compares_each_files_estimates_with_worts_numbers() {
    // Tubbs II's honey goes in after the boil (ADD_AFTER_BOIL): Brewer's Friend counts it in
    // the OG, wort in the ABV only. And Brewer's Friend counts the hop stand for far more than
    // wort's whirlpool rule.
    let tubbs = estimate_warnings("bx_brewersfriend_tubbs_ii.xml");
    assert_eq!(tubbs.len(), 2, "{tubbs:?}");
    assert_eq!(tubbs[0].0, ["RECIPES", "RECIPE", "0", "EST_OG"]);
    assert!(
        tubbs[0]
            .1
            .contains("likely cause: fermentables added in the fermenter"),
        "{tubbs:?}"
    );
    assert_eq!(tubbs[1].0, ["RECIPES", "RECIPE", "0", "IBU"]);
    assert!(
        tubbs[1].1.starts_with(
            "IBU: the file says 65.3, wort computes 31.5; likely cause: the hop stand"
        ),
        "{tubbs:?}"
    );
    // Punk IPA's OG: the file's program assumed a lower efficiency than the recipe states.
    let punk = estimate_warnings("bx_diydog_punk_ipa.xml");
    assert_eq!(punk.len(), 1, "{punk:?}");
    assert_eq!(punk[0].0, ["RECIPES", "RECIPE", "0", "EST_OG"]);
    assert!(punk[0].1.contains("efficiency"), "{punk:?}");
    // BeerJSON estimates are compared at their own place.
    let medieval = estimate_warnings("bj_medieval_ale.json");
    assert_eq!(
        medieval[0].0,
        ["beerjson", "recipes", "0", "original_gravity"]
    );
    // Files whose numbers agree, or that state none, get no such warning.
    // Vanilla Cream Ale's honey goes into the fermenter: the file's OG counts it, wort's not.
    let vanilla = estimate_warnings("bx_brewersfriend_vanilla_cream_ale.xml");
    assert_eq!(vanilla.len(), 1, "{vanilla:?}");
    assert!(
        vanilla[0].1.contains("added in the fermenter"),
        "{vanilla:?}"
    );
    for name in ["bj_units_constructed.json", "constructed_equipment.json"] {
        assert_eq!(estimate_warnings(name), vec![], "{name}");
    }
}
