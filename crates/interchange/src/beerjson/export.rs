//! wort → BeerJSON 1.0: `{"beerjson":{"version":1.0,"recipes":[…]}}` in metric units, valid
//! against the 1.0 schema (a test checks every export against the vendored schema).
//!
//! Where BeerJSON has fewer words than wort (hop use, misc use), the addition also carries a
//! `use` extension in BeerXML's words, as beerjson's own converter does, so wort reads its own
//! exports back exactly; other readers use `timing`.

use serde_json::{Map, Value, json};

use crate::domain::{
    Equipment, Fermentable, FermentableAddition, FermentableType, Hop, HopUse, MashStep, Misc,
    MiscUse, RecipeForExport, Volumes, Yeast, YeastForm, YeastType, style,
};
use crate::{enums, units};

/// The document as a tree of values (what the tests check against the schema).
pub fn export_beerjson(recipes: &[RecipeForExport]) -> Value {
    let mut root = Map::new();
    root.insert("version".into(), json!(1.0));
    root.insert(
        "recipes".into(),
        recipes.iter().map(recipe).collect::<Vec<_>>().into(),
    );
    let equipments = equipments(recipes);
    if !equipments.is_empty() {
        root.insert("equipments".into(), equipments.into());
    }
    json!({ "beerjson": root })
}

/// The same document as [`export_beerjson`], written straight to bytes one recipe at a time: a
/// recipe's tree of values lives only while it is written, never the whole file's (for 200
/// recipes the tree took several times the bytes it is written as).
pub fn export_beerjson_bytes(recipes: &[RecipeForExport]) -> serde_json::Result<Vec<u8>> {
    // About 5 KiB a recipe of ordinary size, so the buffer seldom grows more than once.
    let mut out = Vec::with_capacity(4096 + recipes.len() * 5 * 1024);
    out.extend_from_slice(br#"{"beerjson":{"version":1.0,"recipes":["#);
    for (i, r) in recipes.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, &recipe(r))?;
    }
    out.push(b']');
    let equipments = equipments(recipes);
    if !equipments.is_empty() {
        out.extend_from_slice(br#","equipments":"#);
        serde_json::to_writer(&mut out, &equipments)?;
    }
    out.extend_from_slice(b"}}");
    Ok(out)
}

/// BeerJSON keeps equipment beside the recipes, not inside one: each profile the recipes use,
/// once, by name.
fn equipments(recipes: &[RecipeForExport]) -> Vec<Value> {
    let mut equipments: Vec<Value> = Vec::new();
    let mut seen = Vec::new();
    for r in recipes {
        if let (Some(e), Some(v)) = (&r.equipment, &r.stats.volumes)
            && !seen.contains(&e.id)
        {
            seen.push(e.id);
            equipments.push(equipment(e, v));
        }
    }
    equipments
}

/// A profile as BeerJSON's equipment set: the mash tun (dead space, grain absorption), the kettle
/// (boil-off, trub and chiller loss) and the fermenter (its loss). BeerJSON requires each vessel's
/// `maximum_volume`, which wort does not record: the volume this recipe puts in it is written.
fn equipment(e: &Equipment, v: &Volumes) -> Value {
    let p = &e.profile;
    let mut kettle = json!({
        "name": format!("{} kettle", p.name),
        "form": "Brew Kettle",
        "maximum_volume": measure("l", v.pre_boil_liters),
        "loss": measure("l", p.trub_chiller_loss_liters),
        "boil_rate_per_hour": measure("l", p.boil_off_liters_per_hour),
    });
    if let (Some(notes), Some(o)) = (&p.notes, kettle.as_object_mut()) {
        o.insert("notes".into(), json!(notes));
    }
    json!({
        "name": p.name,
        "equipment_items": [
            {
                "name": format!("{} mash tun", p.name),
                "form": "Mash Tun",
                "maximum_volume": measure("l", v.strike_water_liters),
                "loss": measure("l", p.mash_tun_deadspace_liters),
                "grain_absorption_rate": measure("l/kg", p.grain_absorption_liters_per_kg),
            },
            kettle,
            {
                "name": format!("{} fermenter", p.name),
                "form": "Fermenter",
                "maximum_volume": measure("l", v.into_fermenter_liters),
                "loss": measure("l", p.fermenter_loss_liters),
            },
        ],
    })
}

fn measure(unit: &str, value: f64) -> Value {
    json!({ "unit": unit, "value": value })
}

/// Inserts `key` only when there is a value.
fn put(o: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(v) = value {
        o.insert(key.to_owned(), v);
    }
}

fn text(s: Option<&String>) -> Option<Value> {
    s.map(|s| Value::String(s.clone()))
}

fn recipe(export: &RecipeForExport) -> Value {
    let d = &export.detail;
    let r = &d.recipe;
    // The numbers the recipe page shows: with the recipe's equipment profile.
    let stats = &export.stats.stats;
    let mut o = Map::new();
    o.insert("name".into(), json!(r.name));
    o.insert("type".into(), json!(enums::beerjson_recipe_type(r.kind)));
    // Required by BeerJSON. wort keeps no author of its own: files say they come from wort.
    o.insert("author".into(), json!("wort"));
    o.insert("batch_size".into(), measure("l", r.batch_size_liters));
    o.insert(
        "efficiency".into(),
        json!({ "brewhouse": measure("%", r.efficiency * 100.0) }),
    );
    if let Some(bjcp) = r.style_id.as_deref().and_then(style) {
        let number: String = bjcp.id.chars().take_while(char::is_ascii_digit).collect();
        let letter: String = bjcp.id.chars().skip_while(char::is_ascii_digit).collect();
        let name = if r.style.is_empty() {
            &bjcp.name
        } else {
            &r.style
        };
        let mut s = json!({
            "name": name,
            "category": bjcp.category,
            "style_guide": "BJCP 2021",
            "type": "beer",
        });
        if let Some(o) = s.as_object_mut() {
            if let Ok(n) = number.parse::<u32>() {
                o.insert("category_number".into(), json!(n));
            }
            // BeerJSON's letter is one character; the local styles (X1…) have none.
            if letter.len() == 1 {
                o.insert("style_letter".into(), json!(letter));
            }
        }
        o.insert("style".into(), s);
    } else if !r.style.is_empty() {
        // A recipe's style is free text in wort; BeerJSON's style record wants a category and
        // guide it does not have, left empty.
        o.insert(
            "style".into(),
            json!({ "name": r.style, "category": "", "style_guide": "", "type": "beer" }),
        );
    }
    let mut ingredients = Map::new();
    ingredients.insert(
        "fermentable_additions".into(),
        d.fermentables.iter().map(fermentable).collect(),
    );
    let lists: [(&str, Vec<Value>); 3] = [
        ("hop_additions", d.hops.iter().map(hop).collect()),
        ("culture_additions", d.yeasts.iter().map(culture).collect()),
        (
            "miscellaneous_additions",
            // Water additions travel as water-agent miscs.
            (d.miscs.iter().map(misc))
                .chain(d.water_additions.iter().map(|a| misc(&a.as_misc())))
                .collect(),
        ),
    ];
    for (key, items) in lists {
        if !items.is_empty() {
            ingredients.insert(key.into(), Value::Array(items));
        }
    }
    o.insert("ingredients".into(), Value::Object(ingredients));
    if !d.mash_steps.is_empty() {
        o.insert(
            "mash".into(),
            json!({
                "name": "Mash",
                // Required by BeerJSON; wort does not record it, so room temperature is written.
                "grain_temperature": measure("C", 20.0),
                "mash_steps": d.mash_steps.iter().map(mash_step).collect::<Vec<_>>(),
            }),
        );
    }
    if !d.fermentation_steps.is_empty() {
        o.insert(
            "fermentation".into(),
            json!({
                "name": "Fermentation",
                "fermentation_steps": d.fermentation_steps.iter().map(fermentation_step).collect::<Vec<_>>(),
            }),
        );
    }
    put(&mut o, "notes", text(r.notes.as_ref()));
    o.insert(
        "boil".into(),
        json!({ "boil_time": measure("min", r.boil_time_minutes) }),
    );
    o.insert("original_gravity".into(), measure("sg", stats.og));
    o.insert("final_gravity".into(), measure("sg", stats.fg));
    o.insert("alcohol_by_volume".into(), measure("%", stats.abv));
    o.insert("ibu_estimate".into(), json!({ "method": "Tinseth" }));
    o.insert("color_estimate".into(), measure("SRM", stats.srm));
    Value::Object(o)
}

fn fermentable(f: &Fermentable) -> Value {
    let (kind, group) = match f.kind {
        FermentableType::Grain => ("grain", None),
        FermentableType::Adjunct => ("grain", Some("adjunct")),
        FermentableType::Sugar => ("sugar", None),
        FermentableType::Extract => ("extract", None),
        FermentableType::DryExtract => ("dry extract", None),
        FermentableType::Fruit => ("fruit", None),
        FermentableType::Juice => ("juice", None),
        FermentableType::Honey => ("honey", None),
        FermentableType::Other => ("other", None),
    };
    let mut o = Map::new();
    o.insert("name".into(), json!(f.name));
    o.insert("type".into(), json!(kind));
    put(&mut o, "grain_group", group.map(|g| json!(g)));
    put(&mut o, "origin", text(f.origin.as_ref()));
    o.insert(
        "yield".into(),
        json!({ "fine_grind": measure("%", f.yield_percent) }),
    );
    o.insert("color".into(), measure("SRM", f.color_srm));
    put(&mut o, "notes", text(f.notes.as_ref()));
    o.insert("amount".into(), measure("kg", f.amount_kg));
    let stage = match f.added {
        FermentableAddition::Mash => "add_to_mash",
        FermentableAddition::Boil | FermentableAddition::LateBoil => "add_to_boil",
        FermentableAddition::Fermenter => "add_to_fermentation",
    };
    o.insert("timing".into(), json!({ "use": stage }));
    // BeerJSON has no word for a late boil addition: an `added` extension on the addition
    // (allowed by the schema, like the hops' `use`) carries it.
    if f.added == FermentableAddition::LateBoil {
        o.insert("added".into(), json!(f.added.as_str()));
    }
    Value::Object(o)
}

fn hop(h: &Hop) -> Value {
    let timing = match h.hop_use {
        HopUse::Mash => json!({ "use": "add_to_mash", "time": measure("min", h.time_minutes) }),
        HopUse::DryHop => json!({
            "use": "add_to_fermentation",
            "duration": measure("min", h.time_minutes),
        }),
        HopUse::Boil | HopUse::FirstWort | HopUse::Aroma | HopUse::Whirlpool => {
            json!({ "use": "add_to_boil", "time": measure("min", h.time_minutes) })
        }
    };
    let mut hop = json!({
        "name": h.name,
        "alpha_acid": measure("%", h.alpha_acid),
        "amount": measure("g", h.amount_grams),
        "timing": timing,
        "use": enums::beerxml_hop_use(h.hop_use),
    });
    if let (Some(form), Some(o)) = (h.form, hop.as_object_mut()) {
        o.insert("form".into(), json!(form.as_str()));
    }
    // BeerJSON 1.0 has no hop-stand temperature: an extension, as `use` is.
    if let (HopUse::Whirlpool, Some(t), Some(o)) = (h.hop_use, h.temperature_c, hop.as_object_mut())
    {
        o.insert("temperature".into(), measure("C", t));
    }
    hop
}

/// An amount in its own unit when BeerJSON knows the unit, as a mass, volume or count.
fn amount(value: f64, unit: &str) -> Option<Value> {
    let known = units::kilograms(1.0, unit).is_some()
        || units::liters(1.0, unit).is_some()
        || matches!(unit, "1" | "unit" | "each" | "dimensionless" | "pkg");
    known.then(|| measure(unit, value))
}

fn culture(y: &Yeast) -> Value {
    let kind = match y.kind {
        YeastType::Ale | YeastType::Hybrid | YeastType::Wheat => "ale",
        YeastType::Lager => "lager",
        YeastType::Wine => "wine",
        YeastType::Champagne => "champagne",
        YeastType::Kveik => "kveik",
        YeastType::Brett => "brett",
        YeastType::Lacto => "lacto",
        YeastType::Other => "other",
    };
    // BeerJSON requires a form; wort's "unknown" is written as the commonest.
    let form = y.form.unwrap_or(YeastForm::Liquid).as_str();
    let mut o = Map::new();
    o.insert("name".into(), json!(y.name));
    o.insert("type".into(), json!(kind));
    o.insert("form".into(), json!(form));
    put(&mut o, "producer", text(y.lab.as_ref()));
    put(&mut o, "product_id", text(y.product_id.as_ref()));
    put(
        &mut o,
        "attenuation",
        y.attenuation.map(|a| measure("%", a)),
    );
    if let (Some(min), Some(max)) = (y.min_temp_c, y.max_temp_c) {
        o.insert(
            "temperature_range".into(),
            json!({ "minimum": measure("C", min), "maximum": measure("C", max) }),
        );
    }
    put(&mut o, "notes", text(y.notes.as_ref()));
    // BeerJSON requires an amount; a yeast without one (or in a unit BeerJSON does not know) is
    // one package, which is what a recipe that names a yeast and no amount means.
    let a = y
        .amount
        .zip(y.amount_unit.as_deref())
        .and_then(|(v, u)| amount(v, u))
        .unwrap_or_else(|| measure("pkg", 1.0));
    o.insert("amount".into(), a);
    Value::Object(o)
}

fn misc(m: &Misc) -> Value {
    let stage = match m.misc_use {
        MiscUse::Mash | MiscUse::Sparge => "add_to_mash",
        MiscUse::Boil | MiscUse::Whirlpool => "add_to_boil",
        MiscUse::Primary | MiscUse::Secondary => "add_to_fermentation",
        MiscUse::Bottling => "add_to_package",
    };
    let mut o = Map::new();
    o.insert("name".into(), json!(m.name));
    o.insert("type".into(), json!(m.kind.as_str().replace('_', " ")));
    o.insert(
        "timing".into(),
        json!({ "use": stage, "time": measure("min", m.time_minutes) }),
    );
    o.insert("use".into(), json!(enums::beerxml_misc_use(m.misc_use)));
    // `amount` is required: a unit BeerJSON does not know is written as a count.
    o.insert(
        "amount".into(),
        amount(m.amount, &m.amount_unit).unwrap_or_else(|| measure("unit", m.amount)),
    );
    put(&mut o, "notes", text(m.notes.as_ref()));
    Value::Object(o)
}

/// A fermentation step: its temperature held from start to end, its days, the gravity it runs
/// until (an attenuation target and a `min_days` have no BeerJSON field and are not written).
fn fermentation_step(s: &crate::domain::FermentationStep) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), json!(s.name));
    o.insert("start_temperature".into(), measure("C", s.temperature_c));
    o.insert("end_temperature".into(), measure("C", s.temperature_c));
    put(&mut o, "step_time", s.days.map(|d| measure("day", d)));
    put(
        &mut o,
        "end_gravity",
        s.until_gravity.map(|g| measure("sg", g)),
    );
    Value::Object(o)
}

fn mash_step(s: &MashStep) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), json!(s.name));
    o.insert("type".into(), json!(s.kind.as_str()));
    put(
        &mut o,
        "amount",
        s.infuse_amount_liters.map(|l| measure("l", l)),
    );
    put(
        &mut o,
        "infuse_temperature",
        s.infuse_temperature_c.map(|t| measure("C", t)),
    );
    o.insert("step_temperature".into(), measure("C", s.temperature_c));
    o.insert("step_time".into(), measure("min", s.duration_minutes));
    put(
        &mut o,
        "ramp_time",
        s.ramp_minutes.map(|m| measure("min", m)),
    );
    Value::Object(o)
}
