//! The built-in ingredient catalogue in `data/catalog/*.json` (produced by
//! `data/catalog/derive.py`, provenance in `data/catalog/NOTICE.md`).
//!
//! Checks coverage, uniqueness, the enum vocabularies, numeric ranges, and pins a dozen
//! well-known values so that regenerating the data cannot silently break them.

// A test that meets malformed catalogue data should fail loudly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::HashSet;

use serde_json::{Map, Value};
use uuid::Uuid;

const HOPS: &str = include_str!("../data/catalog/hops.json");
const FERMENTABLES: &str = include_str!("../data/catalog/fermentables.json");
const YEASTS: &str = include_str!("../data/catalog/yeasts.json");
const MISCS: &str = include_str!("../data/catalog/miscs.json");

const COMMON_KEYS: &[&str] = &["id", "name", "aliases", "data_source", "notes"];
const DATA_SOURCES: &[&str] = &[
    "kasperg3-hopdatabase",
    "wallbrew-common-beer-data",
    "beermaker",
    "manufacturer-spec",
];

type Row = Map<String, Value>;

fn rows(json: &str) -> Vec<Row> {
    let value: Value = serde_json::from_str(json).unwrap();
    value
        .as_array()
        .expect("a JSON array")
        .iter()
        .map(|v| v.as_object().expect("an object").clone())
        .collect()
}

fn name(row: &Row) -> &str {
    row["name"].as_str().unwrap()
}

fn find<'a>(rows: &'a [Row], wanted: &str) -> &'a Row {
    rows.iter()
        .find(|r| name(r) == wanted)
        .unwrap_or_else(|| panic!("{wanted} missing from the catalogue"))
}

fn num(row: &Row, key: &str) -> Option<f64> {
    match &row[key] {
        Value::Null => None,
        v => Some(
            v.as_f64()
                .unwrap_or_else(|| panic!("{key} of {} is not a number", name(row))),
        ),
    }
}

fn string<'a>(row: &'a Row, key: &str) -> Option<&'a str> {
    match &row[key] {
        Value::Null => None,
        v => Some(
            v.as_str()
                .unwrap_or_else(|| panic!("{key} of {} is not a string", name(row))),
        ),
    }
}

fn check_in(row: &Row, key: &str, allowed: &[&str], nullable: bool) {
    match string(row, key) {
        None => assert!(nullable, "{key} of {} is null", name(row)),
        Some(v) => assert!(
            allowed.contains(&v),
            "{key} of {} is {v:?}, not one of {allowed:?}",
            name(row)
        ),
    }
}

fn check_range(row: &Row, key: &str, lo: f64, hi: f64) {
    if let Some(v) = num(row, key) {
        assert!(
            (lo..=hi).contains(&v),
            "{key} of {} is {v}, outside {lo}..={hi}",
            name(row)
        );
    }
}

/// Shape, uniqueness and the fields every kind shares.
fn check_common(rows: &[Row], kind_keys: &[&str], min_count: usize) {
    assert!(
        rows.len() >= min_count,
        "{} rows, want at least {min_count}",
        rows.len()
    );
    let mut ids = HashSet::new();
    let mut names = HashSet::new();
    let mut previous = String::new();
    for row in rows {
        let mut keys: Vec<&str> = row.keys().map(String::as_str).collect();
        keys.sort_unstable();
        let mut want: Vec<&str> = COMMON_KEYS.iter().chain(kind_keys).copied().collect();
        want.sort_unstable();
        assert_eq!(keys, want, "keys of {}", name(row));

        let id = row["id"].as_str().unwrap();
        Uuid::parse_str(id).unwrap();
        assert!(ids.insert(id.to_owned()), "duplicate id {id}");

        let n = name(row);
        assert!(!n.trim().is_empty());
        assert!(names.insert(n.to_lowercase()), "duplicate name {n}");
        assert!(n.to_lowercase() >= previous, "not sorted by name at {n}");
        previous = n.to_lowercase();

        assert!(row["notes"].is_null(), "notes of {n} must be null");
        check_in(row, "data_source", DATA_SOURCES, false);
        for alias in row["aliases"].as_array().unwrap() {
            let alias = alias.as_str().unwrap();
            assert!(!alias.trim().is_empty());
            assert_ne!(alias.to_lowercase(), n.to_lowercase(), "alias repeats {n}");
        }
    }
}

fn aliases(row: &Row) -> Vec<&str> {
    row["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect()
}

#[test]
fn hops() {
    let hops = rows(HOPS);
    check_common(
        &hops,
        &["alpha_acid", "beta_acid", "origin", "purpose"],
        150,
    );
    for hop in &hops {
        check_in(hop, "purpose", &["bittering", "aroma", "dual"], true);
        check_range(hop, "alpha_acid", 0.0, 30.0);
        check_range(hop, "beta_acid", 0.0, 30.0);
        assert!(
            num(hop, "alpha_acid").is_some(),
            "{} has no alpha",
            name(hop)
        );
    }
    for wanted in [
        "Citra",
        "Cascade",
        "Centennial",
        "Chinook",
        "Columbus",
        "Simcoe",
        "Mosaic",
        "Amarillo",
        "Saaz",
        "Magnum",
        "Hallertauer Mittelfrüh",
        "East Kent Goldings",
        "Fuggle",
        "Northern Brewer",
        "Nelson Sauvin",
        "Galaxy",
        "Tettnanger",
        "Perle",
        "Warrior",
    ] {
        find(&hops, wanted);
    }

    let citra = num(find(&hops, "Citra"), "alpha_acid").unwrap();
    assert!((11.0..=13.0).contains(&citra), "Citra alpha {citra}");
    let cascade = num(find(&hops, "Cascade"), "alpha_acid").unwrap();
    assert!((4.5..=7.0).contains(&cascade), "Cascade alpha {cascade}");
    let magnum = num(find(&hops, "Magnum"), "alpha_acid").unwrap();
    assert!((12.0..=15.0).contains(&magnum), "Magnum alpha {magnum}");

    let saaz = find(&hops, "Saaz");
    assert_eq!(string(saaz, "origin"), Some("Czech Republic"));
    assert_eq!(string(saaz, "purpose"), Some("aroma"));
    assert!(aliases(saaz).contains(&"Žatec"));
    let saaz_alpha = num(saaz, "alpha_acid").unwrap();
    assert!((2.5..=4.5).contains(&saaz_alpha), "Saaz alpha {saaz_alpha}");

    for aroma in ["Fuggle", "Hallertauer Mittelfrüh"] {
        assert_eq!(string(find(&hops, aroma), "purpose"), Some("aroma"));
    }
    for bittering in ["Magnum", "Warrior"] {
        assert_eq!(string(find(&hops, bittering), "purpose"), Some("bittering"));
    }
    for not_bittering in ["Mosaic", "Nelson Sauvin", "Citra"] {
        assert_ne!(
            string(find(&hops, not_bittering), "purpose"),
            Some("bittering")
        );
    }
    let columbus = aliases(find(&hops, "Columbus"));
    assert!(columbus.contains(&"Tomahawk") && columbus.contains(&"Zeus"));
    assert_eq!(
        string(find(&hops, "East Kent Goldings"), "origin"),
        Some("United Kingdom")
    );
    // blends and merged duplicates are gone
    for gone in [
        "Aged Hops Blend",
        "Columbus / Tomahawk",
        "East Kent Golding",
        "Zeus",
    ] {
        assert!(hops.iter().all(|h| name(h) != gone), "{gone} still listed");
    }
}

#[test]
fn fermentables() {
    let fermentables = rows(FERMENTABLES);
    check_common(
        &fermentables,
        &[
            "type",
            "color_srm",
            "yield_percent",
            "origin",
            "supplier",
            "diastatic_power_lintner",
        ],
        150,
    );
    for f in &fermentables {
        check_in(
            f,
            "type",
            &[
                "grain",
                "adjunct",
                "sugar",
                "extract",
                "dry_extract",
                "fruit",
                "juice",
                "honey",
                "other",
            ],
            false,
        );
        // Weyermann Carafa III / Carafa Special III are 1300–1500 EBC, about 711 SRM.
        check_range(f, "color_srm", 0.0, 800.0);
        check_range(f, "yield_percent", 0.0, 100.0);
        check_range(f, "diastatic_power_lintner", 0.0, 250.0);
        assert!(num(f, "color_srm").is_some(), "{} has no colour", name(f));
        assert!(
            num(f, "yield_percent").is_some(),
            "{} has no yield",
            name(f)
        );
    }
    for wanted in [
        "Maris Otter",
        "Pilsner Malt",
        "Pale 2-Row",
        "Munich Malt",
        "Vienna Malt",
        "Wheat Malt",
        "Crystal 10L",
        "Crystal 20L",
        "Crystal 40L",
        "Crystal 60L",
        "Crystal 80L",
        "Crystal 120L",
        "CaraMunich",
        "Carapils",
        "Carafoam",
        "Chocolate Malt",
        "Black Patent Malt",
        "Roasted Barley",
        "Flaked Oats",
        "Flaked Barley",
        "Acidulated Malt",
        "Biscuit Malt",
        "Special B",
        "Table Sugar",
        "Corn Sugar",
        "Light Dry Malt Extract",
        "Pale Liquid Malt Extract",
        "Honey",
        "Belgian Candi Syrup D-180",
        "Lactose",
    ] {
        find(&fermentables, wanted);
    }

    let maris = find(&fermentables, "Maris Otter");
    let maris_colour = num(maris, "color_srm").unwrap();
    assert!(
        (2.5..=4.0).contains(&maris_colour),
        "Maris Otter colour {maris_colour}"
    );
    assert_eq!(string(maris, "origin"), Some("United Kingdom"));
    assert!(num(find(&fermentables, "Chocolate Malt"), "color_srm").unwrap() > 300.0);
    let sugar = find(&fermentables, "Table Sugar");
    assert_eq!(string(sugar, "type"), Some("sugar"));
    assert!((num(sugar, "yield_percent").unwrap() - 100.0).abs() < 1e-9);
    assert_eq!(
        string(find(&fermentables, "Lactose"), "type"),
        Some("sugar")
    );
    assert_eq!(string(find(&fermentables, "Honey"), "type"), Some("honey"));
    let dme = num(
        find(&fermentables, "Light Dry Malt Extract"),
        "yield_percent",
    )
    .unwrap();
    assert!((90.0..=97.0).contains(&dme), "DME yield {dme}");
    let two_row = find(&fermentables, "Pale 2-Row");
    assert!((78.0..=82.0).contains(&num(two_row, "yield_percent").unwrap()));
    assert!(num(two_row, "diastatic_power_lintner").unwrap() > 100.0);
    assert_eq!(
        string(find(&fermentables, "Crystal 60L"), "type"),
        Some("grain")
    );
    assert!((num(find(&fermentables, "Crystal 60L"), "color_srm").unwrap() - 60.0).abs() < 1e-9);
    assert_eq!(
        num(
            find(&fermentables, "Belgian Candi Syrup D-180"),
            "color_srm"
        ),
        Some(180.0)
    );
}

#[test]
fn yeasts() {
    let yeasts = rows(YEASTS);
    check_common(
        &yeasts,
        &[
            "lab",
            "product_id",
            "type",
            "form",
            "attenuation",
            "attenuation_min",
            "attenuation_max",
            "min_temp_c",
            "max_temp_c",
            "flocculation",
        ],
        80,
    );
    let mut products = HashSet::new();
    for y in &yeasts {
        check_in(
            y,
            "type",
            &[
                "ale",
                "lager",
                "hybrid",
                "wheat",
                "wine",
                "champagne",
                "kveik",
                "brett",
                "lacto",
                "other",
            ],
            false,
        );
        check_in(y, "form", &["liquid", "dry", "slant", "culture"], true);
        check_in(
            y,
            "flocculation",
            &[
                "low",
                "medium_low",
                "medium",
                "medium_high",
                "high",
                "very_high",
            ],
            true,
        );
        for key in ["attenuation", "attenuation_min", "attenuation_max"] {
            check_range(y, key, 0.0, 100.0);
            // never the Wall Brew placeholder (0.765 as a fraction, 76.5 as a percentage is
            // legitimate only as a midpoint)
            assert_ne!(num(y, key), Some(0.765), "{key} of {}", name(y));
        }
        if let (Some(lo), Some(hi)) = (num(y, "attenuation_min"), num(y, "attenuation_max")) {
            assert!(lo <= hi, "attenuation range of {}", name(y));
            let mid = num(y, "attenuation").unwrap();
            assert!(lo <= mid && mid <= hi, "attenuation of {}", name(y));
        }
        check_range(y, "min_temp_c", -5.0, 45.0);
        check_range(y, "max_temp_c", -5.0, 45.0);
        if let (Some(lo), Some(hi)) = (num(y, "min_temp_c"), num(y, "max_temp_c")) {
            assert!(lo <= hi, "temperature range of {}", name(y));
        }
        let lab = string(y, "lab").unwrap();
        assert_ne!(lab, "Brewtek", "discontinued Brewtek strain {}", name(y));
        let product = string(y, "product_id").unwrap();
        assert!(
            products.insert((lab.to_owned(), product.to_owned())),
            "duplicate product {lab} {product}"
        );
    }

    let by_product = |lab: &str, product: &str| -> &Row {
        yeasts
            .iter()
            .find(|y| string(y, "lab") == Some(lab) && string(y, "product_id") == Some(product))
            .unwrap_or_else(|| panic!("{lab} {product} missing from the catalogue"))
    };
    for (lab, products) in [
        (
            "Fermentis",
            &["US-05", "S-04", "W-34/70", "S-23", "T-58", "BE-256"][..],
        ),
        (
            "White Labs",
            &["WLP001", "WLP002", "WLP007", "WLP300", "WLP830", "WLP500"][..],
        ),
        (
            "Wyeast",
            &["1056", "1968", "1084", "3068", "2124", "3787", "1318"][..],
        ),
        (
            "Lallemand",
            &[
                "Nottingham",
                "Verdant IPA",
                "Voss",
                "BRY-97",
                "Munich Classic",
            ][..],
        ),
    ] {
        for product in products {
            by_product(lab, product);
        }
    }

    let us05 = by_product("Fermentis", "US-05");
    assert_eq!(name(us05), "SafAle US-05");
    assert_eq!(string(us05, "form"), Some("dry"));
    assert_eq!(string(us05, "type"), Some("ale"));
    assert_eq!(num(us05, "attenuation_min"), Some(78.0));
    assert_eq!(num(us05, "attenuation_max"), Some(82.0));
    assert_eq!(
        string(by_product("Fermentis", "W-34/70"), "type"),
        Some("lager")
    );
    let wlp001 = by_product("White Labs", "WLP001");
    assert_eq!(name(wlp001), "California Ale");
    assert_eq!(string(wlp001, "form"), Some("liquid"));
    let wy1056 = by_product("Wyeast", "1056");
    assert_eq!(name(wy1056), "American Ale");
    assert!(num(wy1056, "attenuation").is_some());
    assert_eq!(string(by_product("Wyeast", "3068"), "type"), Some("wheat"));
    assert_eq!(
        string(by_product("Lallemand", "Voss"), "type"),
        Some("kveik")
    );
    assert_eq!(name(by_product("Lallemand", "Nottingham")), "Nottingham");
}

#[test]
fn miscs() {
    let miscs = rows(MISCS);
    check_common(&miscs, &["type", "use", "amount_unit"], 30);
    for m in &miscs {
        check_in(
            m,
            "type",
            &[
                "spice",
                "fining",
                "water_agent",
                "herb",
                "flavor",
                "wood",
                "other",
            ],
            false,
        );
        check_in(
            m,
            "use",
            &[
                "mash",
                "sparge",
                "boil",
                "whirlpool",
                "primary",
                "secondary",
                "bottling",
            ],
            false,
        );
        assert!(string(m, "amount_unit").is_some_and(|u| !u.is_empty()));
    }
    for wanted in [
        "Irish Moss",
        "Whirlfloc",
        "Gypsum",
        "Calcium Chloride",
        "Epsom Salt",
        "Table Salt",
        "Baking Soda",
        "Chalk",
        "Lactic Acid 88%",
        "Phosphoric Acid 10%",
        "Campden Tablets",
        "Yeast Nutrient",
        "Gelatin",
        "Coriander Seed",
        "Sweet Orange Peel",
        "Bitter Orange Peel",
        "Vanilla Bean",
        "Oak Chips",
        "Cinnamon",
        "Cacao Nibs",
    ] {
        find(&miscs, wanted);
    }
    assert_eq!(string(find(&miscs, "Gypsum"), "type"), Some("water_agent"));
    assert_eq!(string(find(&miscs, "Irish Moss"), "type"), Some("fining"));
    assert_eq!(string(find(&miscs, "Irish Moss"), "use"), Some("boil"));
    assert_eq!(string(find(&miscs, "Oak Chips"), "type"), Some("wood"));
}
