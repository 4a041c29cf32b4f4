//! BeerJSON exports validate against the vendored BeerJSON 1.0 JSON schema (v1.0.2).
//!
//! The validator is a small one written for this test: it implements exactly the draft-07
//! keywords the BeerJSON schema uses, and fails on any other keyword so it can never pass a
//! document by ignoring a rule. (The `jsonschema` crate would pull in dozens of crates — regex
//! engines, URL and IDNA handling, big-number arithmetic — for one test; see docs/interchange.md.)
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::{Value, json};

use common::{IMPORTABLE, available, detail, for_export, import_ok, usable};
use wort_interchange::{export_beerjson, export_beerjson_bytes};

struct Schemas(HashMap<String, Value>);

impl Schemas {
    fn load() -> Self {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/schema");
        let mut map = HashMap::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            map.insert(name, doc);
        }
        Schemas(map)
    }

    /// Every error of `doc` against `beer.json`.
    fn errors(&self, doc: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check("beer.json", &self.0["beer.json"], doc, "$", &mut errors);
        errors
    }

    fn resolve(&self, file: &str, reference: &str) -> (String, &Value) {
        let (target, pointer) = reference.split_once('#').unwrap();
        let file = if target.is_empty() {
            file.to_owned()
        } else {
            target.to_owned()
        };
        let schema = self.0[&file]
            .pointer(pointer)
            .unwrap_or_else(|| panic!("{reference}"));
        (file, schema)
    }

    fn check(&self, file: &str, schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
        let s = schema.as_object().unwrap();
        if let Some(r) = s.get("$ref") {
            // draft-07: a $ref's siblings are ignored.
            let (file, target) = self.resolve(file, r.as_str().unwrap());
            return self.check(&file, target, v, at, errors);
        }
        for (key, rule) in s {
            let mut fail = |m: String| errors.push(format!("{at}: {m}"));
            match key.as_str() {
                "description" | "$schema" | "$id" | "definitions" | "title" | "default"
                | "examples" | "format" => {}
                "type" => {
                    let types: Vec<&str> = match rule {
                        Value::Array(a) => a.iter().map(|t| t.as_str().unwrap()).collect(),
                        t => vec![t.as_str().unwrap()],
                    };
                    if !types.iter().any(|t| type_matches(t, v)) {
                        fail(format!("not of type {types:?}"));
                    }
                }
                "enum" => {
                    if !rule.as_array().unwrap().contains(v) {
                        fail(format!("{v} not in {rule}"));
                    }
                }
                "required" => {
                    if let Some(o) = v.as_object() {
                        for k in rule.as_array().unwrap() {
                            if !o.contains_key(k.as_str().unwrap()) {
                                fail(format!("missing {k}"));
                            }
                        }
                    }
                }
                "properties" => {
                    if let Some(o) = v.as_object() {
                        for (k, sub) in rule.as_object().unwrap() {
                            if let Some(x) = o.get(k) {
                                self.check(file, sub, x, &format!("{at}.{k}"), errors);
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    let known = s.get("properties").and_then(Value::as_object);
                    if let (Some(o), Value::Bool(false)) = (v.as_object(), rule) {
                        for k in o.keys() {
                            if !known.is_some_and(|p| p.contains_key(k)) {
                                fail(format!("property {k} not allowed"));
                            }
                        }
                    } else if rule.is_object() {
                        panic!("additionalProperties as a schema is not used by BeerJSON");
                    }
                }
                "items" => {
                    if let Some(a) = v.as_array() {
                        for (i, x) in a.iter().enumerate() {
                            self.check(file, rule, x, &format!("{at}[{i}]"), errors);
                        }
                    }
                }
                "minItems" => {
                    if v.as_array()
                        .is_some_and(|a| (a.len() as u64) < rule.as_u64().unwrap())
                    {
                        fail(format!("fewer than {rule} items"));
                    }
                }
                "minProperties" | "maxProperties" => {
                    if let Some(o) = v.as_object() {
                        let (n, bound) = (o.len() as u64, rule.as_u64().unwrap());
                        if (key == "minProperties" && n < bound)
                            || (key == "maxProperties" && n > bound)
                        {
                            fail(format!("{key} {bound}"));
                        }
                    }
                }
                "maxItems" => {
                    if v.as_array()
                        .is_some_and(|a| (a.len() as u64) > rule.as_u64().unwrap())
                    {
                        fail(format!("more than {rule} items"));
                    }
                }
                "minLength" | "maxLength" => {
                    if let Some(t) = v.as_str() {
                        let n = t.chars().count() as u64;
                        let bound = rule.as_u64().unwrap();
                        if (key == "minLength" && n < bound) || (key == "maxLength" && n > bound) {
                            fail(format!("{key} {bound}"));
                        }
                    }
                }
                "minimum" | "maximum" => {
                    if let Some(x) = v.as_f64() {
                        let bound = rule.as_f64().unwrap();
                        if (key == "minimum" && x < bound) || (key == "maximum" && x > bound) {
                            fail(format!("{x} beyond {key} {bound}"));
                        }
                    }
                }
                "pattern" => {
                    if let Some(t) = v.as_str() {
                        let re = regex_lite::Regex::new(rule.as_str().unwrap()).unwrap();
                        if !re.is_match(t) {
                            fail(format!("{t:?} does not match {rule}"));
                        }
                    }
                }
                "allOf" | "anyOf" | "oneOf" => {
                    let passing = rule
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|sub| {
                            let mut e = Vec::new();
                            self.check(file, sub, v, at, &mut e);
                            if key == "allOf" {
                                errors.extend(e.iter().cloned());
                            }
                            e.is_empty()
                        })
                        .count();
                    let n = rule.as_array().unwrap().len();
                    let ok = match key.as_str() {
                        "allOf" => passing == n,
                        "anyOf" => passing >= 1,
                        _ => passing == 1,
                    };
                    if !ok && key != "allOf" {
                        errors.push(format!("{at}: {passing} of {key} match"));
                    }
                }
                other => panic!("keyword {other} is not implemented by this test's validator"),
            }
        }
    }
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|x| x.fract() == 0.0),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => panic!("type {other}"),
    }
}

#[test]
fn every_export_of_a_real_file_validates() {
    let schemas = Schemas::load();
    for name in usable("every_export_of_a_real_file_validates", IMPORTABLE) {
        let details: Vec<_> = import_ok(name).recipes.iter().map(detail).collect();
        let recipes = for_export(details.clone());
        let doc = export_beerjson(&recipes);
        let errors = schemas.errors(&doc);
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        assert_eq!(written(&recipes), doc, "{name}");
    }
}

/// The document the server sends: written recipe by recipe, read back.
fn written(recipes: &[wort_interchange::domain::RecipeForExport]) -> Value {
    serde_json::from_slice(&export_beerjson_bytes(recipes).unwrap()).unwrap()
}

#[test]
fn a_yeast_without_an_amount_is_written_as_one_package() {
    let schemas = Schemas::load();
    let mut details: Vec<_> = import_ok("bx_brewersfriend_tubbs_ii.xml")
        .recipes
        .iter()
        .map(detail)
        .collect();
    for y in &mut details[0].yeasts {
        (y.amount, y.amount_unit) = (None, None);
    }
    assert!(!details[0].yeasts.is_empty());
    let doc = export_beerjson(&for_export(details.clone()));
    let errors = schemas.errors(&doc);
    assert!(errors.is_empty(), "{errors:#?}");
    let culture = &doc["beerjson"]["recipes"][0]["ingredients"]["culture_additions"][0];
    assert_eq!(culture["amount"], json!({"unit": "pkg", "value": 1.0}));
}

#[test]
fn the_validator_refuses_what_the_schema_refuses() {
    let schemas = Schemas::load();
    let details: Vec<_> = import_ok("bx_brewersfriend_tubbs_ii.xml")
        .recipes
        .iter()
        .map(detail)
        .collect();
    let good = export_beerjson(&for_export(details.clone()));
    assert!(schemas.errors(&good).is_empty());

    let broken = |edit: &dyn Fn(&mut Value)| {
        let mut doc = good.clone();
        edit(&mut doc);
        schemas.errors(&doc)
    };
    let r = "/beerjson/recipes/0";
    type Edit<'a> = Box<dyn Fn(&mut Value) + 'a>;
    let cases: Vec<(&str, Edit<'_>)> = vec![
        (
            "missing author",
            Box::new(|d| {
                d.pointer_mut(r)
                    .unwrap()
                    .as_object_mut()
                    .unwrap()
                    .remove("author");
            }),
        ),
        (
            "bad unit",
            Box::new(|d| {
                *d.pointer_mut(&format!("{r}/batch_size/unit")).unwrap() = json!("hogshead")
            }),
        ),
        (
            "bad enum",
            Box::new(|d| *d.pointer_mut(&format!("{r}/type")).unwrap() = json!("lager")),
        ),
        (
            "extra field",
            Box::new(|d| {
                d.pointer_mut(r)
                    .unwrap()
                    .as_object_mut()
                    .unwrap()
                    .insert("x".into(), json!(1));
            }),
        ),
        (
            "wrong type",
            Box::new(|d| {
                *d.pointer_mut(&format!(
                    "{r}/ingredients/fermentable_additions/0/amount/value"
                ))
                .unwrap() = json!("4")
            }),
        ),
        (
            "hop amount not a mass",
            Box::new(|d| {
                *d.pointer_mut(&format!("{r}/ingredients/hop_additions/0/amount/unit"))
                    .unwrap() = json!("pkg")
            }),
        ),
        (
            "culture form",
            Box::new(|d| {
                *d.pointer_mut(&format!("{r}/ingredients/culture_additions/0/form"))
                    .unwrap() = json!("powder")
            }),
        ),
    ];
    for (what, edit) in cases {
        assert!(!broken(&*edit).is_empty(), "{what} passed");
    }
    // Real files that break the schema are caught too (LinusU's omit required fields).
    if available(
        "the_validator_refuses_what_the_schema_refuses",
        "bj_linusu_bjornen.json",
    ) {
        let bjornen: Value =
            serde_json::from_slice(&common::file("bj_linusu_bjornen.json")).unwrap();
        assert!(!schemas.errors(&bjornen).is_empty());
    }
}

#[test]
fn an_export_with_an_equipment_profile_and_a_bjcp_style_validates() {
    use wort_domain::equipment::EquipmentProfile;
    use wort_interchange::domain::{Equipment, RecipeForExport};

    let schemas = Schemas::load();
    let mut details: Vec<_> = import_ok("bx_brewersfriend_tubbs_ii.xml")
        .recipes
        .iter()
        .map(detail)
        .collect();
    let profile = EquipmentProfile {
        boil_off_liters_per_hour: 3.0,
        trub_chiller_loss_liters: 1.5,
        mash_tun_deadspace_liters: 1.0,
        fermenter_loss_liters: 1.0,
        notes: Some("garage kit".into()),
        ..EquipmentProfile::lossless("Kettle 30 L", 20.0)
    };
    let equipment = Equipment {
        id: uuid::Uuid::from_u128(7),
        user_id: String::new(),
        profile,
        created_at: time::OffsetDateTime::UNIX_EPOCH,
        updated_at: time::OffsetDateTime::UNIX_EPOCH,
    };
    details[0].recipe.style_id = Some("21A".into());
    details[0].recipe.equipment_id = Some(equipment.id);
    let recipes = vec![RecipeForExport::new(details.remove(0), Some(equipment))];
    let doc = export_beerjson(&recipes);
    let errors = schemas.errors(&doc);
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(written(&recipes), doc);
    assert_eq!(
        doc["beerjson"]["equipments"][0]["equipment_items"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        doc["beerjson"]["recipes"][0]["style"]["category_number"],
        21
    );
}
