//! Hostile and broken input: every one gets a clean error of the right kind, never a panic, and
//! the expensive ones are refused before they cost anything.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::time::{Duration, Instant};

use wort_interchange::limits::MAX_FILE_BYTES;
use wort_interchange::{Format, ImportError, import};

fn invalid_paths(bytes: &[u8], format: Format) -> Vec<Vec<String>> {
    match import(bytes, format) {
        Err(ImportError::Invalid(v)) => v.into_iter().map(|v| v.path).collect(),
        other => panic!("expected 422, got {other:?}"),
    }
}

fn path(p: &[&str]) -> Vec<String> {
    p.iter().map(|s| (*s).to_owned()).collect()
}

const BILLION_LAUGHS: &str = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<RECIPES><RECIPE><NAME>&lol9;</NAME></RECIPE></RECIPES>"#;

#[test]
fn billion_laughs_is_refused_quickly() {
    let start = Instant::now();
    let paths = invalid_paths(BILLION_LAUGHS.as_bytes(), Format::BeerXml);
    assert!(
        start.elapsed() < Duration::from_millis(100),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(paths, [Vec::<String>::new()]);
}

#[test]
fn external_entities_are_never_read() {
    let xxe = r#"<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<RECIPES><RECIPE><NAME>&x;</NAME><BATCH_SIZE>20</BATCH_SIZE></RECIPE></RECIPES>"#;
    invalid_paths(xxe.as_bytes(), Format::BeerXml);
    // Without a DOCTYPE an entity is simply undefined: malformed, not expanded.
    let undeclared = "<RECIPES><RECIPE><NAME>&x;</NAME></RECIPE></RECIPES>";
    assert!(matches!(
        import(undeclared.as_bytes(), Format::BeerXml),
        Err(ImportError::Unparseable(_))
    ));
}

#[test]
fn nesting_and_element_counts_are_bounded() {
    let deep = format!("{}{}", "<A>".repeat(100_000), "</A>".repeat(100_000));
    invalid_paths(deep.as_bytes(), Format::BeerXml);
    let many = format!("<RECIPES>{}</RECIPES>", "<X/>".repeat(300_000));
    assert!(many.len() < MAX_FILE_BYTES);
    invalid_paths(many.as_bytes(), Format::BeerXml);
    // serde_json's own recursion limit bounds JSON nesting.
    let deep_json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(matches!(
        import(deep_json.as_bytes(), Format::BeerJson),
        Err(ImportError::Unparseable(_))
    ));
}

#[test]
fn more_than_five_mebibytes_is_too_large() {
    let big = vec![b' '; MAX_FILE_BYTES + 1];
    for format in [Format::BeerXml, Format::BeerJson] {
        assert_eq!(
            import(&big, format),
            Err(ImportError::TooLarge {
                limit: MAX_FILE_BYTES
            })
        );
    }
}

fn minimal_xml_recipe(i: usize) -> String {
    format!(
        "<RECIPE><NAME>R{i}</NAME><TYPE>All Grain</TYPE><BATCH_SIZE>20</BATCH_SIZE>\
         <FERMENTABLES><FERMENTABLE><NAME>Pale</NAME><TYPE>Grain</TYPE><AMOUNT>4</AMOUNT>\
         <YIELD>80</YIELD><COLOR>3</COLOR></FERMENTABLE></FERMENTABLES></RECIPE>"
    )
}

fn minimal_json_recipe(i: usize) -> serde_json::Value {
    serde_json::json!({
        "name": format!("R{i}"), "type": "all grain", "author": "",
        "batch_size": {"unit": "l", "value": 20},
        "efficiency": {"brewhouse": {"unit": "%", "value": 72}},
        "ingredients": {"fermentable_additions": [{
            "name": "Pale", "type": "grain", "yield": {"fine_grind": {"unit": "%", "value": 80}},
            "color": {"unit": "SRM", "value": 3}, "amount": {"unit": "kg", "value": 4}}]}
    })
}

#[test]
fn at_most_a_hundred_recipes() {
    let xml = |n: usize| {
        format!(
            "<RECIPES>{}</RECIPES>",
            (0..n).map(minimal_xml_recipe).collect::<String>()
        )
    };
    assert_eq!(
        import(xml(100).as_bytes(), Format::BeerXml)
            .unwrap()
            .recipes
            .len(),
        100
    );
    assert_eq!(
        invalid_paths(xml(101).as_bytes(), Format::BeerXml),
        [path(&["RECIPES", "RECIPE", "100"])]
    );
    let json = |n: usize| {
        serde_json::json!({"beerjson": {"version": 1.0,
            "recipes": (0..n).map(minimal_json_recipe).collect::<Vec<_>>()}})
        .to_string()
    };
    assert_eq!(
        import(json(100).as_bytes(), Format::BeerJson)
            .unwrap()
            .recipes
            .len(),
        100
    );
    assert_eq!(
        invalid_paths(json(101).as_bytes(), Format::BeerJson),
        [path(&["beerjson", "recipes", "100"])]
    );
}

#[test]
fn at_most_two_hundred_children_of_a_kind() {
    let hop = "<HOP><NAME>H</NAME><ALPHA>5</ALPHA><AMOUNT>0.01</AMOUNT><USE>Boil</USE><TIME>60</TIME></HOP>";
    let doc = |n: usize| {
        minimal_xml_recipe(0).replace(
            "</RECIPE>",
            &format!("<HOPS>{}</HOPS></RECIPE>", hop.repeat(n)),
        )
    };
    assert_eq!(
        import(doc(200).as_bytes(), Format::BeerXml)
            .unwrap()
            .recipes[0]
            .hops
            .len(),
        200
    );
    assert_eq!(
        invalid_paths(doc(201).as_bytes(), Format::BeerXml),
        [path(&["RECIPE", "HOPS"])]
    );
}

#[test]
fn truncated_files_are_unparseable_never_a_panic() {
    for name in ["bx_brewersfriend_tubbs_ii.xml", "bj_units_constructed.json"] {
        let bytes = common::vendored(name);
        let format = common::format_of(name);
        for cut in (1..bytes.len()).step_by(97) {
            match import(&bytes[..cut], format) {
                Err(ImportError::Unparseable(_)) => {}
                other => panic!("{name} cut at {cut}: {other:?}"),
            }
        }
    }
}

#[test]
fn wrong_types_and_values_are_refused_at_their_path() {
    let doc = minimal_xml_recipe(0)
        .replace("<AMOUNT>4</AMOUNT>", "<AMOUNT>four</AMOUNT>")
        .replace("<BATCH_SIZE>20</BATCH_SIZE>", "<BATCH_SIZE>0</BATCH_SIZE>");
    let paths = invalid_paths(doc.as_bytes(), Format::BeerXml);
    assert!(paths.contains(&path(&[
        "RECIPE",
        "FERMENTABLES",
        "FERMENTABLE",
        "0",
        "AMOUNT"
    ])));
    assert!(paths.contains(&path(&["RECIPE", "BATCH_SIZE"])));
    // NaN and infinities are not numbers here.
    let nan = minimal_xml_recipe(0).replace("<YIELD>80</YIELD>", "<YIELD>NaN</YIELD>");
    assert_eq!(
        invalid_paths(nan.as_bytes(), Format::BeerXml),
        [path(&[
            "RECIPE",
            "FERMENTABLES",
            "FERMENTABLE",
            "0",
            "YIELD"
        ])]
    );

    let mut v = minimal_json_recipe(0);
    v["ingredients"]["fermentable_additions"][0]["amount"] = serde_json::json!("4 kg");
    v["batch_size"]["unit"] = serde_json::json!("hogshead");
    v["name"] = serde_json::json!(42);
    let doc = serde_json::json!({"beerjson": {"version": 1.0, "recipes": [v]}}).to_string();
    let paths = invalid_paths(doc.as_bytes(), Format::BeerJson);
    let r = ["beerjson", "recipes", "0"];
    assert!(paths.contains(&path(&[
        r[0],
        r[1],
        r[2],
        "ingredients",
        "fermentable_additions",
        "0",
        "amount"
    ])));
    assert!(paths.contains(&path(&[r[0], r[1], r[2], "batch_size", "unit"])));
    assert!(paths.contains(&path(&[r[0], r[1], r[2], "name"])));

    for (doc, format) in [
        ("", Format::BeerXml),
        ("", Format::BeerJson),
        ("[1,2]", Format::BeerJson),
        ("{\"beerjson\":{\"recipes\":{}}}", Format::BeerJson),
        ("<RECIPES/>", Format::BeerXml),
    ] {
        assert!(import(doc.as_bytes(), format).is_err(), "{doc:?}");
    }
}

#[test]
fn out_of_range_values_are_clamped_with_a_warning() {
    let doc = minimal_xml_recipe(0)
        .replace("<YIELD>80</YIELD>", "<YIELD>180</YIELD>")
        .replace("<COLOR>3</COLOR>", "<COLOR>-2</COLOR>");
    let i = import(doc.as_bytes(), Format::BeerXml).unwrap();
    let f = &i.recipes[0].fermentables[0];
    assert_eq!((f.yield_percent, f.color_srm), (100.0, 0.0));
    assert_eq!(
        i.warnings.len(),
        2 + 2,
        "two clamps, plus no BOIL_TIME and no EFFICIENCY: {:?}",
        i.warnings
    );
    let long = minimal_xml_recipe(0).replace(
        "<NAME>R0</NAME>",
        &format!("<NAME>{}</NAME>", "é".repeat(250)),
    );
    let i = import(long.as_bytes(), Format::BeerXml).unwrap();
    assert_eq!(i.recipes[0].recipe.name.chars().count(), 200);
}

#[test]
fn nul_characters_are_refused_like_the_api_refuses_them() {
    let mut v = minimal_json_recipe(0);
    v["notes"] = serde_json::json!("a\u{0}b");
    let doc = serde_json::json!({"beerjson": {"version": 1.0, "recipes": [v]}}).to_string();
    assert!(doc.contains("\\u0000"));
    assert_eq!(
        invalid_paths(doc.as_bytes(), Format::BeerJson),
        [path(&["beerjson", "recipes", "0", "notes"])]
    );
}

/// What the answer to an import carries of its warnings, in bytes, about as the API writes it.
fn report_bytes(i: &wort_interchange::Import) -> usize {
    i.warnings
        .iter()
        .map(|w| w.recipe.len() + w.message.len() + w.path.iter().map(String::len).sum::<usize>())
        .sum()
}

/// Every warning within the caps: at most 100, each message at most 500 characters, each
/// recipe name at most the name's own bound; the last says how many more were not shown.
fn assert_bounded_report(i: &wort_interchange::Import, found: usize) {
    use wort_interchange::limits::{MAX_WARNINGS, MESSAGE_MAX_CHARS, NAME_MAX};
    assert_eq!(i.warnings.len(), MAX_WARNINGS);
    for w in &i.warnings {
        assert!(
            w.message.chars().count() <= MESSAGE_MAX_CHARS,
            "{}",
            w.message.len()
        );
        assert!(w.recipe.chars().count() <= NAME_MAX, "{}", w.recipe.len());
    }
    let last = i.warnings.last().unwrap();
    assert_eq!(
        last.message,
        format!("{} more warnings not shown", found - (MAX_WARNINGS - 1))
    );
    assert!(report_bytes(i) < 100_000, "{} bytes", report_bytes(i));
}

/// A name of 4 MB: every warning once copied it whole, and 200 hops with three values out of
/// range each made an answer of gigabytes.
const HUGE_NAME_CHARS: usize = 2_000_000;

#[test]
fn a_huge_name_and_hundreds_of_warnings_give_a_small_report_beerxml() {
    let hops: String = (0..200)
        .map(|_| {
            format!(
                "<HOP><NAME>H</NAME><ALPHA>150</ALPHA><AMOUNT>1000</AMOUNT><TIME>1e9</TIME>\
                 <USE>Boil</USE><FORM>{}</FORM></HOP>",
                "x".repeat(2_000)
            )
        })
        .collect();
    let doc = minimal_xml_recipe(0)
        .replace(
            "<NAME>R0</NAME>",
            &format!("<NAME>{}</NAME>", "é".repeat(HUGE_NAME_CHARS)),
        )
        .replace("</RECIPE>", &format!("<HOPS>{hops}</HOPS></RECIPE>"));
    let doc = format!("<RECIPES>{doc}</RECIPES>");
    assert!(doc.len() <= MAX_FILE_BYTES);
    let i = import(doc.as_bytes(), Format::BeerXml).unwrap();
    assert_eq!(i.recipes[0].recipe.name.chars().count(), 200);
    assert_eq!(i.recipes[0].hops.len(), 200);
    // The name cut, no BOIL_TIME, no EFFICIENCY, and four per hop (alpha, amount, time, form).
    assert_bounded_report(&i, 3 + 4 * 200);
    let name_cut = &i.warnings[0];
    assert_eq!(name_cut.path, path(&["RECIPES", "RECIPE", "0", "NAME"]));
    assert_eq!(name_cut.recipe, i.recipes[0].recipe.name);
    let form = i
        .warnings
        .iter()
        .find(|w| w.message.starts_with("unknown FORM"))
        .unwrap();
    assert_eq!(
        form.message,
        format!("unknown FORM \"{}…\": not kept", "x".repeat(79))
    );
}

#[test]
fn a_huge_name_and_hundreds_of_warnings_give_a_small_report_beerjson() {
    let hop = serde_json::json!({
        "name": "H", "alpha_acid": {"unit": "%", "value": 150},
        "amount": {"unit": "kg", "value": 1000},
        "timing": {"use": "add_to_boil", "time": {"unit": "min", "value": 1e9}},
        "form": "y".repeat(2_000)
    });
    let mut v = minimal_json_recipe(0);
    v["name"] = serde_json::json!("é".repeat(HUGE_NAME_CHARS));
    v["ingredients"]["hop_additions"] = serde_json::json!(vec![hop; 200]);
    let doc = serde_json::json!({"beerjson": {"version": 1.0, "recipes": [v]}}).to_string();
    assert!(doc.len() <= MAX_FILE_BYTES);
    let i = import(doc.as_bytes(), Format::BeerJson).unwrap();
    assert_eq!(i.recipes[0].recipe.name.chars().count(), 200);
    // The name cut, no boil time, and four per hop (alpha, amount, time, form).
    assert_bounded_report(&i, 2 + 4 * 200);
}

#[test]
fn a_hundred_warnings_are_all_shown() {
    let hops: String = (0..49)
        .map(|_| {
            "<HOP><NAME>H</NAME><ALPHA>150</ALPHA><AMOUNT>1000</AMOUNT><TIME>5</TIME>\
             <USE>Boil</USE></HOP>"
        })
        .collect();
    let doc = minimal_xml_recipe(0).replace("</RECIPE>", &format!("<HOPS>{hops}</HOPS></RECIPE>"));
    let i = import(doc.as_bytes(), Format::BeerXml).unwrap();
    // No BOIL_TIME, no EFFICIENCY, two per hop: exactly the cap, none given way.
    assert_eq!(i.warnings.len(), 100);
    assert!(
        i.warnings.iter().all(|w| !w.message.contains("not shown")),
        "{:?}",
        i.warnings
    );
}

#[test]
fn an_unknown_unit_is_quoted_short_in_its_violation() {
    let mut v = minimal_json_recipe(0);
    let unit = "z".repeat(100_000);
    v["batch_size"] = serde_json::json!({"unit": unit, "value": 20});
    let doc = serde_json::json!({"beerjson": {"version": 1.0, "recipes": [v]}}).to_string();
    let Err(ImportError::Invalid(violations)) = import(doc.as_bytes(), Format::BeerJson) else {
        panic!("expected 422");
    };
    let quoted = format!("{}…", "z".repeat(79));
    assert_eq!(
        violations[0].message,
        format!("\"{quoted}\" is not a volume unit of BeerJSON 1.0")
    );
    assert_eq!(violations[0].extra["received"], serde_json::json!(quoted));
}
