//! Imports keep the file's meaning: water agents become water additions, EBC colours written
//! where BeerXML wants SRM are converted when the file's own estimate says so, equipment comes
//! along, fermentables say when they go in; BeerXML exports carry `BOIL_SIZE` and a complete
//! `STYLE`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::{detail, file, for_export, import_ok};
use wort_interchange::domain::{
    FermentableAddition, MiscType, RecipeForExport, WaterAgent, WaterStep, compute_stats,
};
use wort_interchange::{
    FermentableColor, Format, ImportOptions, export_beerjson, export_beerxml, import, import_with,
};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn water_agents_become_water_additions_with_their_step() {
    let file = import_ok("constructed_water_agents.xml");
    let r = &file.recipes[0];
    let got: Vec<_> = (r.water_additions.iter())
        .map(|a| (a.agent, a.step, a.amount, a.strength_percent))
        .collect();
    assert_eq!(
        got,
        [
            (WaterAgent::CalciumChloride, WaterStep::Mash, 1.24, None),
            (WaterAgent::EpsomSalt, WaterStep::Mash, 2.38, None),
            (WaterAgent::Gypsum, WaterStep::Mash, 4.47, None),
            (WaterAgent::CalciumChloride, WaterStep::Sparge, 1.36, None),
            (WaterAgent::EpsomSalt, WaterStep::Sparge, 2.62, None),
            (WaterAgent::Gypsum, WaterStep::Sparge, 4.93, None),
            // No strength named: 88 % assumed, with a warning.
            (WaterAgent::LacticAcid, WaterStep::Mash, 2.0, Some(88.0)),
            // In the boil: counted with the sparge water (the overall profile), with a warning.
            (WaterAgent::TableSalt, WaterStep::Sparge, 1.0, None),
        ]
    );
    let orders: Vec<_> = r.water_additions.iter().map(|a| a.sort_order).collect();
    assert_eq!(orders, (0..8).map(Some).collect::<Vec<_>>());
    // An agent wort does not know stays an ingredient; the fining stays too.
    let miscs: Vec<_> = r.miscs.iter().map(|m| (m.name.as_str(), m.kind)).collect();
    assert_eq!(
        miscs,
        [
            ("Burton Salts", MiscType::WaterAgent),
            ("Polyclar Brewbrite", MiscType::Fining)
        ]
    );
    let says = |needle: &str| file.warnings.iter().any(|w| w.message.contains(needle));
    assert!(says("\"Lactic Acid\" names no strength: 88 % assumed"));
    assert!(says(
        "\"Salt\" added to the boil: kept as a sparge addition"
    ));
    assert!(says("\"Burton Salts\" is not one wort's water model knows"));
}

#[test]
fn an_acid_strength_in_the_name_is_kept_and_phosphoric_defaults_to_ten() {
    let j = import_ok("constructed_equipment.json");
    let r = &j.recipes[0];
    let got: Vec<_> = (r.water_additions.iter())
        .map(|a| (a.agent, a.step, a.strength_percent))
        .collect();
    assert_eq!(
        got,
        [
            (WaterAgent::Gypsum, WaterStep::Mash, None),
            (WaterAgent::CalciumChloride, WaterStep::Sparge, None),
            (WaterAgent::PhosphoricAcid, WaterStep::Mash, Some(10.0)),
        ]
    );
    // 0.1 oz = 2.8349523125 g.
    assert!((r.water_additions[1].amount - 2.834952313).abs() < 1e-9);
    assert!(
        j.warnings
            .iter()
            .any(|w| w.message.contains("names no strength: 10 % assumed"))
    );
    assert!(r.miscs.is_empty());
}

#[test]
fn beersmith_ebc_colours_are_converted_when_the_files_estimate_says_so() {
    // Aussie Ale: EST_COLOR 16.8 EBC = 8.5 SRM. Read as SRM its grist gives 14.7 SRM; as EBC,
    // about 9: the colours are EBC.
    let auto = import_ok("bx_beersmith_aussie_ale.xml");
    let r = &auto.recipes[0];
    assert!(close(r.fermentables[0].color_srm, 4.925 * 0.508));
    assert!(close(r.fermentables[3].color_srm, 591.0 * 0.508));
    let srm = compute_stats(&detail(r).stats_input()).srm;
    assert!((srm - 8.5).abs() <= 2.0, "{srm}");
    let warning = auto
        .warnings
        .iter()
        .find(|w| w.message.starts_with("fermentable colours read as EBC"))
        .expect("the conversion is said");
    assert_eq!(warning.path, ["RECIPES", "RECIPE", "0", "FERMENTABLES"]);
    assert!(warning.message.contains("?fermentable_color=srm"));
    // No colour disagreement is left to report.
    assert!(
        !auto
            .warnings
            .iter()
            .any(|w| w.message.starts_with("colour"))
    );

    // Forced readings.
    let bytes = file("bx_beersmith_aussie_ale.xml");
    let read = |color| {
        import_with(
            &bytes,
            Format::BeerXml,
            ImportOptions {
                fermentable_color: color,
            },
        )
        .unwrap()
    };
    let as_srm = read(FermentableColor::Srm);
    assert!(close(as_srm.recipes[0].fermentables[0].color_srm, 4.925));
    let stats = compute_stats(&detail(&as_srm.recipes[0]).stats_input());
    assert_eq!(stats.srm, 14.7, "the issue's 14.7 SRM");
    assert!(
        as_srm
            .warnings
            .iter()
            .any(|w| w.message.starts_with("colour (SRM): the file says 8.5"))
    );
    let as_ebc = read(FermentableColor::Ebc);
    assert_eq!(as_ebc.recipes[0].fermentables, r.fermentables);
}

#[test]
fn colours_that_agree_as_srm_are_left_alone() {
    // Tubbs II's colours are SRM and its estimate agrees with them.
    let t = import_ok("bx_brewersfriend_tubbs_ii.xml");
    assert!(!t.warnings.iter().any(|w| w.message.contains("read as EBC")));
    let plain = import(&file("bx_brewersfriend_tubbs_ii.xml"), Format::BeerXml).unwrap();
    let forced = import_with(
        &file("bx_brewersfriend_tubbs_ii.xml"),
        Format::BeerXml,
        ImportOptions {
            fermentable_color: FermentableColor::Srm,
        },
    )
    .unwrap();
    assert_eq!(plain.recipes, forced.recipes);
}

#[test]
fn beerxml_equipment_becomes_a_profile_linked_to_its_recipe() {
    let a = import_ok("bx_beersmith_aussie_ale.xml");
    assert_eq!(a.recipes[0].equipment, Some(0));
    let kit = &a.equipment[0];
    assert_eq!(
        kit.name,
        "Pot (18.5 Gal/70 L) and Cooler (9.5 Gal/40 L)  - All Grain"
    );
    // EVAP_RATE is % of BOIL_SIZE per hour: 18.3078324 % × 37.08 L = 6.7885 L/h.
    assert!((kit.boil_off_liters_per_hour - 37.08 * 0.183078324).abs() < 1e-9);
    assert!(close(kit.trub_chiller_loss_liters, 2.84));
    assert!(close(kit.mash_tun_deadspace_liters, 3.03));
    // TUN_VOLUME is the mash tun's capacity (the recipe checks weigh the mash against it).
    assert_eq!(kit.mash_tun_volume_liters, Some(37.85));
    assert!(close(kit.batch_size_liters, 23.02));
    assert!(close(kit.hop_utilization_percent, 100.0));
    assert!(
        !a.warnings
            .iter()
            .any(|w| w.message.contains("equipment profile not kept"))
    );

    // Brewtarget's ten recipes repeat one "Ideal" profile: kept once, named by each.
    let ten = import_ok("bx_brewtarget_2011_ten_recipes.xml");
    let names: Vec<_> = ten.equipment.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Ideal",
            "5 gal extract - half boil",
            "5 gal extract - full boil"
        ]
    );
    let ideal = ten
        .recipes
        .iter()
        .filter(|r| r.equipment == Some(0))
        .count();
    assert_eq!(ideal, 7);
    // Its HOP_UTILIZATION 0 means "not set": read as 100 %, with a warning; its ABSORPTION
    // (L/kg) is the grain absorption.
    assert!(close(ten.equipment[0].hop_utilization_percent, 100.0));
    assert!(close(
        ten.equipment[0].grain_absorption_liters_per_kg,
        1.0849
    ));
    assert!(
        ten.warnings
            .iter()
            .any(|w| w.message.contains("HOP_UTILIZATION 0"))
    );
}

#[test]
fn beerjson_equipment_links_only_a_lone_recipe() {
    let j = import_ok("constructed_equipment.json");
    assert_eq!(j.recipes[0].equipment, Some(0));
    let kit = &j.equipment[0];
    assert_eq!(kit.name, "Made-by-hand kit");
    assert!(close(kit.mash_tun_deadspace_liters, 1.5));
    assert!(close(kit.grain_absorption_liters_per_kg, 0.9));
    assert!(close(kit.trub_chiller_loss_liters, 2.0));
    assert!(close(kit.boil_off_liters_per_hour, 4.0));
    assert!(close(kit.fermenter_loss_liters, 1.0));
    assert!(close(kit.batch_size_liters, 23.0));

    // Two recipes and one profile: the profile is kept, neither recipe names it.
    let mut doc: serde_json::Value =
        serde_json::from_slice(&file("constructed_equipment.json")).unwrap();
    let recipe = doc["beerjson"]["recipes"][0].clone();
    doc["beerjson"]["recipes"]
        .as_array_mut()
        .unwrap()
        .push(recipe);
    let two = import(doc.to_string().as_bytes(), Format::BeerJson).unwrap();
    assert_eq!(two.equipment.len(), 1);
    assert!(two.recipes.iter().all(|r| r.equipment.is_none()));
}

#[test]
fn fermentables_say_when_they_go_in() {
    use FermentableAddition::{Boil, Fermenter, LateBoil, Mash};
    let j = import_ok("constructed_equipment.json");
    let added: Vec<_> = j.recipes[0].fermentables.iter().map(|f| f.added).collect();
    // add_to_mash, add_to_boil + wort's late_boil, add_to_fermentation, add_to_package, and
    // no timing (the type's default: an extract boils).
    assert_eq!(added, [Mash, LateBoil, Fermenter, Fermenter, Boil]);
    // BeerXML: ADD_AFTER_BOIL TRUE is the fermenter; else the type's default.
    let x = import_ok("constructed_water_agents.xml");
    let added: Vec<_> = x.recipes[0].fermentables.iter().map(|f| f.added).collect();
    assert_eq!(added, [Mash, Fermenter]);
    let tubbs = import_ok("bx_brewersfriend_tubbs_ii.xml");
    let honey = &tubbs.recipes[0].fermentables[3];
    assert_eq!((honey.name.as_str(), honey.added), ("Honey", Fermenter));
}

#[test]
fn additions_travel_both_ways() {
    let original = import_ok("constructed_equipment.json").recipes;
    for format in [Format::BeerJson, Format::BeerXml] {
        let details = original.iter().map(detail).collect();
        let bytes = match format {
            Format::BeerJson => export_beerjson(&for_export(details))
                .to_string()
                .into_bytes(),
            Format::BeerXml => export_beerxml(&for_export(details)).into_bytes(),
        };
        let back = import(&bytes, format).unwrap().recipes;
        let added = |r: &[wort_interchange::ImportedRecipe]| {
            r[0].fermentables
                .iter()
                .map(|f| f.added)
                .collect::<Vec<_>>()
        };
        assert_eq!(added(&back), added(&original), "{format:?}");
    }
}

/// The elements of `record` (its direct children) in a written BeerXML document.
fn children_of<'a>(xml: &'a str, record: &str) -> Vec<&'a str> {
    let open = format!("<{record}>");
    let start = xml.find(&open).expect(record) + open.len();
    let end = xml[start..].find(&format!("</{record}>")).unwrap() + start;
    let mut names = Vec::new();
    let mut rest = &xml[start..end];
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        if rest.starts_with('/') || rest.starts_with('!') {
            continue;
        }
        let name_end = rest.find(['>', ' ', '/']).unwrap();
        let name = &rest[..name_end];
        names.push(name);
        // Skip the element's content.
        let close = format!("</{name}>");
        if let Some(j) = rest.find(&close) {
            rest = &rest[j + close.len()..];
        }
    }
    names
}

/// BeerXML 1.0's required fields of a `STYLE` record.
const STYLE_REQUIRED: &[&str] = &[
    "NAME",
    "VERSION",
    "CATEGORY",
    "CATEGORY_NUMBER",
    "STYLE_LETTER",
    "STYLE_GUIDE",
    "TYPE",
    "OG_MIN",
    "OG_MAX",
    "FG_MIN",
    "FG_MAX",
    "IBU_MIN",
    "IBU_MAX",
    "COLOR_MIN",
    "COLOR_MAX",
];

fn exported(style_id: Option<&str>, style: &str) -> (RecipeForExport, String) {
    let mut r = import_ok("bx_brewersfriend_tubbs_ii.xml").recipes[0].clone();
    r.recipe.style = style.to_owned();
    let mut d = detail(&r);
    d.recipe.style_id = style_id.map(str::to_owned);
    let export = for_export(vec![d]).remove(0);
    let xml = export_beerxml(std::slice::from_ref(&export));
    (export, xml)
}

#[test]
fn beerxml_exports_carry_boil_size_and_a_complete_style() {
    for (id, name, kind) in [
        (Some("21A"), "", "Ale"),
        (Some("5D"), "", "Lager"),
        (Some("10A"), "", "Wheat"),
        (Some("5B"), "", "Mixed"),
        // A specialty style: the guidelines leave its ranges open; written 0, said in a comment.
        (Some("28A"), "", "Mixed"),
        // No BJCP style: placeholders, said in a comment.
        (None, "House ale", "Ale"),
    ] {
        let (export, xml) = exported(id, name);
        let style = children_of(&xml, "STYLE");
        for field in STYLE_REQUIRED {
            assert!(
                style.contains(field),
                "{id:?}: STYLE lacks {field}: {style:?}"
            );
        }
        assert!(xml.contains(&format!("<TYPE>{kind}</TYPE>")), "{id:?}");
        let recipe = children_of(&xml, "RECIPE");
        assert!(recipe.contains(&"BOIL_SIZE"), "{recipe:?}");
        // Without a profile the kettle holds the batch.
        assert!(export.equipment.is_none());
        assert!(xml.contains(&format!(
            "<BOIL_SIZE>{}</BOIL_SIZE>",
            export.detail.recipe.batch_size_liters
        )));
        if id == Some("28A") {
            assert!(xml.contains("<OG_MIN>0</OG_MIN>"));
            assert!(xml.contains("<!-- wort: the BJCP 2021 guidelines give no OG range for 28A"));
        }
        if id.is_none() {
            assert!(xml.contains("<!-- wort: the recipe names no BJCP style"));
        }
        // A round trip reads the file and keeps the style's name (the guidelines' when the
        // recipe has none of its own).
        let back = import(xml.as_bytes(), Format::BeerXml).unwrap();
        let expected = match id.and_then(wort_interchange::domain::style) {
            Some(s) if name.is_empty() => s.name.as_str(),
            _ => name,
        };
        assert_eq!(back.recipes[0].recipe.style, expected);
    }
}

#[test]
fn beerxml_boil_size_is_the_profiles_pre_boil_volume() {
    let a = import_ok("bx_beersmith_aussie_ale.xml");
    let r = &a.recipes[0];
    let mut d = detail(r);
    let kit = wort_interchange::domain::Equipment {
        id: uuid::Uuid::from_u128(9),
        user_id: String::new(),
        profile: a.equipment[0].clone(),
        created_at: d.recipe.created_at,
        updated_at: d.recipe.created_at,
    };
    d.recipe.equipment_id = Some(kit.id);
    let export = RecipeForExport::new(d, Some(kit));
    let pre_boil = export.stats.volumes.as_ref().unwrap().pre_boil_liters;
    let xml = export_beerxml(std::slice::from_ref(&export));
    assert!(xml.contains(&format!("<BOIL_SIZE>{pre_boil}</BOIL_SIZE>")));
    // 23.02 + 2.84 trub + 1.5 h × 6.7885 L/h = 36.04 L.
    assert_eq!(pre_boil, 36.04);
    // And the profile comes back as it was, named again by the recipe.
    let back = import(xml.as_bytes(), Format::BeerXml).unwrap();
    assert_eq!(back.recipes[0].equipment, Some(0));
    let p = &back.equipment[0];
    assert!((p.boil_off_liters_per_hour - a.equipment[0].boil_off_liters_per_hour).abs() < 1e-9);
    assert_eq!(p.name, a.equipment[0].name);
}

/// A minimal BeerXML recipe holding these yeasts and miscs.
fn with_children(yeasts: &str, miscs: &str) -> Vec<u8> {
    format!(
        "<?xml version=\"1.0\"?><RECIPES><RECIPE><NAME>Display</NAME><VERSION>1</VERSION>\
         <TYPE>All Grain</TYPE><BATCH_SIZE>20</BATCH_SIZE><BOIL_TIME>60</BOIL_TIME>\
         <EFFICIENCY>72</EFFICIENCY><FERMENTABLES><FERMENTABLE><NAME>Pale</NAME><VERSION>1</VERSION>\
         <TYPE>Grain</TYPE><AMOUNT>4</AMOUNT><YIELD>80</YIELD><COLOR>3</COLOR></FERMENTABLE>\
         </FERMENTABLES><YEASTS>{yeasts}</YEASTS><MISCS>{miscs}</MISCS></RECIPE></RECIPES>"
    )
    .into_bytes()
}

fn misc_xml(amount: &str, is_weight: &str, display: &str) -> String {
    format!(
        "<MISC><NAME>M</NAME><VERSION>1</VERSION><TYPE>Fining</TYPE><USE>Boil</USE><TIME>15</TIME>\
         <AMOUNT>{amount}</AMOUNT><AMOUNT_IS_WEIGHT>{is_weight}</AMOUNT_IS_WEIGHT>\
         <DISPLAY_AMOUNT>{display}</DISPLAY_AMOUNT></MISC>"
    )
}

#[test]
fn display_amounts_in_the_brewers_own_units_are_kept() {
    // Brewfather's dry yeast: AMOUNT 1 (a litre, read literally) shown as one packet.
    let yeast = "<YEAST><NAME>Safale American</NAME><VERSION>1</VERSION><TYPE>Ale</TYPE>\
                 <FORM>Dry</FORM><AMOUNT>1</AMOUNT><DISPLAY_AMOUNT>1 pkg</DISPLAY_AMOUNT></YEAST>";
    let miscs = [
        // Brewfather's fining: 4.93 mL that the brewer measured as a teaspoon.
        misc_xml("0.0049289216", "false", "1 tsp"),
        // A decimal comma.
        misc_xml("0.0024644608", "false", "0,5 tsp"),
        // Ounces of a weighed spice.
        misc_xml("0.0141747616", "true", "0.5 oz"),
        // A display in grams says what AMOUNT says: AMOUNT is kept.
        misc_xml("0.00124", "true", "1.24 g"),
        // A display that disagrees with AMOUNT (stale): AMOUNT wins.
        misc_xml("0.0049289216", "false", "5 tsp"),
        // Nonsense: AMOUNT wins.
        misc_xml("0.002", "true", "a pinch"),
    ]
    .concat();
    let got = import(&with_children(yeast, &miscs), Format::BeerXml).unwrap();
    let r = &got.recipes[0];
    assert_eq!(
        (r.yeasts[0].amount, r.yeasts[0].amount_unit.as_deref()),
        (Some(1.0), Some("pkg"))
    );
    let miscs: Vec<_> = (r.miscs.iter())
        .map(|m| (m.amount, m.amount_unit.as_str()))
        .collect();
    assert_eq!(miscs[0], (1.0, "tsp"));
    assert_eq!(miscs[1], (0.5, "tsp"));
    assert_eq!(miscs[2], (0.5, "oz"));
    assert!(close(miscs[3].0, 1.24) && miscs[3].1 == "g");
    assert!(close(miscs[4].0, 4.9289216) && miscs[4].1 == "ml");
    assert!(close(miscs[5].0, 2.0) && miscs[5].1 == "g");
}
