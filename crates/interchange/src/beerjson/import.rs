//! BeerJSON 1.0 → wort: `beerjson.recipes[]` with their `ingredients`, `mash.mash_steps` and
//! `fermentation.fermentation_steps`.
//! Every quantity is a `{unit, value}` pair, converted with [`crate::units`].

use serde_json::Value;
use wort_domain::error::json_type_name as type_name;

use crate::domain::{
    DEFAULT_BOIL_TIME_MINUTES, DEFAULT_MISC_TIME_MINUTES, EquipmentProfile, FermentableAddition,
    FermentableType, HopUse, MashStepType, MiscType, MiscUse, NewFermentable, NewHop, NewMashStep,
    NewMisc, NewRecipe, NewYeast, RecipeType, YeastType, equipment_rules,
};
use crate::limits::{
    self, Bound, MAX_RECIPES, NAME_MAX, NOTES_MAX, QUOTE_MAX_CHARS, SHORT_TEXT_MAX,
};
use crate::report::{
    Path, Report, at, check_children, invalid_file, quoted, shortened, too_many_recipes, violation,
};
use crate::{
    Estimates, Import, ImportError, ImportedRecipe, Warning, decode, enums, equipment, estimates,
    units, water_agents,
};

pub(crate) fn import(bytes: &[u8]) -> Result<Import, ImportError> {
    let text = decode::json(bytes)?;
    let doc: Value = serde_json::from_str(&text)
        .map_err(|e| ImportError::Unparseable(format!("malformed JSON: {e}")))?;
    let root: Path = vec!["beerjson".into()];
    let Some(beerjson) = doc.get("beerjson").filter(|b| b.is_object()) else {
        return Err(invalid_file(
            "invalid_type",
            &root,
            "Not a BeerJSON document: no \"beerjson\" object",
        ));
    };
    let list_path = at(&root, "recipes");
    let recipes = match beerjson.get("recipes") {
        Some(Value::Array(list)) if !list.is_empty() => list,
        _ => {
            return Err(invalid_file(
                "invalid_type",
                &list_path,
                "No recipe in the file",
            ));
        }
    };
    if recipes.len() > MAX_RECIPES {
        return Err(too_many_recipes(&at(&list_path, MAX_RECIPES)));
    }
    let mut report = Report::default();
    let root_obj = Obj::new(beerjson, root.clone());
    let first_batch = recipes
        .first()
        .map(|v| Obj::new(v, at(&list_path, 0)))
        .and_then(|r| r.measure(&mut Report::default(), "batch_size", VOLUME_L));
    let mut profiles = equipment::Profiles::default();
    let mut read_profiles = 0;
    for e in root_obj.list(&mut report, "equipments") {
        read_profiles += 1;
        if let Some(p) = equipment_record(&e, first_batch, &mut report) {
            profiles.add(p);
        }
    }
    // BeerJSON recipes do not name their equipment: a recipe is brewed on the file's profile
    // only when the file holds exactly one recipe and one profile.
    let link = (recipes.len() == 1 && read_profiles == 1 && profiles.len() == 1).then_some(0);
    let recipes = recipes
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let path = at(&list_path, i);
            let mut imported = recipe(&Obj::new(v, path.clone()), &mut report);
            imported.equipment = link;
            estimates::compare(
                &imported,
                profiles.get(link),
                &path,
                &estimates::BEERJSON,
                &mut report,
            );
            imported
        })
        .collect();
    let (recipes, warnings): (Vec<ImportedRecipe>, Vec<Warning>) = report.into_result(recipes)?;
    Ok(Import {
        recipes,
        equipment: profiles.into_vec(),
        warnings,
    })
}

/// A BeerJSON equipment set as one profile: the mash tun's (or lauter tun's) `loss` is the dead
/// space and its `grain_absorption_rate` the absorption; the kettle's `loss` the trub and
/// chiller loss and its `boil_rate_per_hour` the boil-off; the fermenter's `loss` the fermenter
/// loss and its `maximum_volume` the profile's batch (else the first recipe's batch). No top-up
/// water, 100 % hop utilisation (BeerJSON has neither).
fn equipment_record(
    e: &Obj<'_>,
    first_batch: Option<f64>,
    r: &mut Report,
) -> Option<EquipmentProfile> {
    let name = e
        .required_text(r, "name", NAME_MAX)
        .unwrap_or_else(|| "Imported equipment".to_owned());
    let items = e.list(r, "equipment_items");
    let form = |o: &Obj<'_>| o.get("form").and_then(Value::as_str).map(enums::fold);
    let vessel = |names: &[&str]| {
        items
            .iter()
            .find(|o| form(o).is_some_and(|f| names.contains(&f.as_str())))
    };
    let mut profile = EquipmentProfile::lossless(name, 0.0);
    let volume = equipment_rules::VOLUME_LITERS;
    if let Some(tun) = vessel(&["mashtun", "lautertun"]) {
        profile.mash_tun_deadspace_liters = tun
            .optional_bounded(r, "loss", VOLUME_L, volume)
            .unwrap_or_default();
        if let Some(rate) = tun.get("grain_absorption_rate") {
            let liters_per_kg = rate
                .get("value")
                .and_then(Value::as_f64)
                .zip(rate.get("unit").and_then(Value::as_str))
                .and_then(|(v, unit)| units::liters_per_kg(v, unit));
            match liters_per_kg {
                Some(x) => {
                    profile.grain_absorption_liters_per_kg = r.clamp(
                        &tun.path("grain_absorption_rate"),
                        x,
                        equipment_rules::GRAIN_ABSORPTION_LITERS_PER_KG,
                    );
                }
                None => r.warn(
                    &tun.path("grain_absorption_rate"),
                    "not a grain absorption wort reads: the default assumed",
                ),
            }
        }
    }
    if let Some(kettle) = vessel(&["brewkettle"]) {
        profile.trub_chiller_loss_liters = kettle
            .optional_bounded(r, "loss", VOLUME_L, volume)
            .unwrap_or_default();
        profile.boil_off_liters_per_hour = kettle
            .optional_bounded(r, "boil_rate_per_hour", VOLUME_L, volume)
            .unwrap_or_default();
        profile.notes = kettle.text(r, "notes", NOTES_MAX);
    }
    let fermenter = vessel(&["fermenter"]);
    if let Some(f) = fermenter {
        profile.fermenter_loss_liters = f
            .optional_bounded(r, "loss", VOLUME_L, volume)
            .unwrap_or_default();
    }
    profile.batch_size_liters = fermenter
        .and_then(|f| {
            f.optional_bounded(
                r,
                "maximum_volume",
                VOLUME_L,
                equipment_rules::BATCH_SIZE_LITERS,
            )
        })
        .filter(|v| *v > 0.0)
        .or(first_batch)
        .unwrap_or(crate::domain::DEFAULT_BATCH_SIZE_LITERS);
    equipment::possible(profile, &e.path, r)
}

/// A JSON object and the path to it. A value that is not an object reads as one with no fields
/// (its absence is then reported field by field).
struct Obj<'a> {
    v: &'a Value,
    path: Path,
}

/// How a `{unit, value}` pair converts: the converter and the kind of quantity, for messages.
type Convert = (fn(f64, &str) -> Option<f64>, &'static str);
const MASS_KG: Convert = (units::kilograms, "mass");
const VOLUME_L: Convert = (units::liters, "volume");
const TEMPERATURE_C: Convert = (units::celsius, "temperature");
const TIME_MIN: Convert = (units::minutes, "time");
const TIME_DAYS: Convert = (days, "time");
const COLOR_SRM: Convert = (units::srm, "color");
const GRAVITY_SG: Convert = (units::specific_gravity, "gravity");
const PERCENT: Convert = (percent, "percent");

fn days(value: f64, unit: &str) -> Option<f64> {
    units::minutes(value, unit).map(|m| m / 1_440.0)
}

fn percent(value: f64, unit: &str) -> Option<f64> {
    (unit == "%").then_some(value)
}

impl<'a> Obj<'a> {
    fn new(v: &'a Value, path: Path) -> Self {
        Obj { v, path }
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.v.get(key).filter(|v| !v.is_null())
    }

    fn child(&self, key: &str) -> Obj<'a> {
        Obj::new(self.get(key).unwrap_or(&Value::Null), at(&self.path, key))
    }

    fn path(&self, key: &str) -> Path {
        at(&self.path, key)
    }

    fn text(&self, r: &mut Report, key: &str, max: usize) -> Option<String> {
        match self.get(key)? {
            Value::String(s) if s.is_empty() => None,
            Value::String(s) => Some(r.cap(&self.path(key), s.clone(), max)),
            other => {
                r.wrong_type(&self.path(key), "string", type_name(other));
                None
            }
        }
    }

    fn required_text(&self, r: &mut Report, key: &str, max: usize) -> Option<String> {
        let t = self.text(r, key, max);
        if t.is_none() && self.get(key).is_none_or(|v| v.as_str() == Some("")) {
            r.missing(&self.path(key), "string");
        }
        t
    }

    /// A `{unit, value}` pair at `key`, converted; wrong shapes and unknown units are refused.
    fn measure(&self, r: &mut Report, key: &str, (convert, kind): Convert) -> Option<f64> {
        let v = self.get(key)?;
        let path = self.path(key);
        let (Some(unit), Some(value)) = (
            v.get("unit").and_then(Value::as_str),
            v.get("value").and_then(Value::as_f64),
        ) else {
            r.wrong_type(&path, &format!("{{unit, value}} {kind}"), type_name(v));
            return None;
        };
        let converted = convert(value, unit).filter(|x| x.is_finite());
        if converted.is_none() {
            r.refuse(
                violation(
                    "invalid_enum_value",
                    &at(&path, "unit"),
                    format!("{} is not a {kind} unit of BeerJSON 1.0", quoted(unit)),
                )
                .with("received", shortened(unit, QUOTE_MAX_CHARS)),
            );
        }
        converted
    }

    fn required_measure(&self, r: &mut Report, key: &str, convert: Convert) -> Option<f64> {
        let x = self.measure(r, key, convert);
        if self.get(key).is_none() {
            r.missing(&self.path(key), "object");
        }
        x
    }

    fn bounded(&self, r: &mut Report, key: &str, convert: Convert, bound: Bound) -> f64 {
        self.required_measure(r, key, convert)
            .map(|x| r.clamp(&self.path(key), x, bound))
            .unwrap_or_default()
    }

    fn optional_bounded(
        &self,
        r: &mut Report,
        key: &str,
        convert: Convert,
        bound: Bound,
    ) -> Option<f64> {
        self.measure(r, key, convert)
            .map(|x| r.clamp(&self.path(key), x, bound))
    }

    fn word<T: Copy>(
        &self,
        r: &mut Report,
        field: &str,
        map: fn(&str) -> Option<T>,
        default: T,
        default_name: &str,
    ) -> T {
        let word = self.get(field).and_then(Value::as_str);
        r.word(&self.path(field), word, map, (default, default_name))
    }

    /// An array of objects at `key` (absent = empty), bounded like any recipe child list.
    fn list(&self, r: &mut Report, key: &str) -> Vec<Obj<'a>> {
        let path = self.path(key);
        match self.get(key) {
            None => Vec::new(),
            Some(Value::Array(items)) => {
                check_children(r, &path, items.len());
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Obj::new(v, at(&path, i)))
                    .collect()
            }
            Some(other) => {
                r.wrong_type(&path, "array", type_name(other));
                Vec::new()
            }
        }
    }
}

fn recipe(rec: &Obj<'_>, r: &mut Report) -> ImportedRecipe {
    r.reading(rec.get("name").and_then(Value::as_str).unwrap_or_default());
    let name = rec.required_text(r, "name", NAME_MAX).unwrap_or_default();
    let kind = rec.word(
        r,
        "type",
        enums::recipe_type,
        RecipeType::AllGrain,
        "all grain",
    );
    let style = rec
        .child("style")
        .text(r, "name", SHORT_TEXT_MAX)
        .unwrap_or_default();
    let batch_size_liters = rec.bounded(r, "batch_size", VOLUME_L, limits::BATCH_SIZE_LITERS);
    let efficiency = rec
        .child("efficiency")
        .bounded(r, "brewhouse", PERCENT, limits::PERCENT)
        / 100.0;
    let boil = rec.child("boil");
    let boil_time_minutes = boil
        .optional_bounded(r, "boil_time", TIME_MIN, limits::BOIL_TIME_MINUTES)
        .unwrap_or_else(|| {
            r.warn(&boil.path("boil_time"), "no boil time: 60 minutes assumed");
            DEFAULT_BOIL_TIME_MINUTES
        });
    let notes = rec.text(r, "notes", NOTES_MAX);
    let ingredients = rec.child("ingredients");
    if ingredients.get("water_additions").is_some() {
        r.warn(
            &ingredients.path("water_additions"),
            "water profiles not kept",
        );
    }
    let order = |i: usize| Some(i32::try_from(i).unwrap_or(i32::MAX));
    let fermentables = ingredients.list(r, "fermentable_additions");
    let hops = ingredients.list(r, "hop_additions");
    let cultures = ingredients.list(r, "culture_additions");
    let miscs = ingredients.list(r, "miscellaneous_additions");
    let steps = rec.child("mash").list(r, "mash_steps");
    let fermentation = rec.child("fermentation").list(r, "fermentation_steps");
    let miscs_path = ingredients.path("miscellaneous_additions");
    let (miscs, water_additions) = water_agents::split(
        (miscs.iter().enumerate())
            .map(|(i, m)| misc(m, r, order(i)))
            .collect(),
        |i| at(&miscs_path, i),
        r,
    );
    ImportedRecipe {
        fermentation_steps: (fermentation.iter().enumerate())
            .map(|(i, s)| fermentation_step(s, r, order(i)))
            .collect(),
        recipe: NewRecipe {
            equipment_id: None,
            style_id: None,
            water_profile_id: None,
            target_water_profile_id: None,
            lineage: Default::default(),
            name,
            style,
            kind,
            batch_size_liters,
            boil_time_minutes,
            efficiency,
            notes,
        },
        fermentables: (fermentables.iter().enumerate())
            .map(|(i, f)| fermentable(f, r, order(i)))
            .collect(),
        hops: (hops.iter().enumerate())
            .map(|(i, h)| hop(h, r, order(i)))
            .collect(),
        yeasts: (cultures.iter().enumerate())
            .map(|(i, c)| culture(c, r, order(i)))
            .collect(),
        miscs,
        water_additions,
        equipment: None,
        mash_steps: (steps.iter().enumerate())
            .map(|(i, s)| mash_step(s, r, order(i)))
            .collect(),
        estimates: estimates(rec),
    }
}

fn fermentable(f: &Obj<'_>, r: &mut Report, sort_order: Option<i32>) -> NewFermentable {
    let mut kind = f.word(
        r,
        "type",
        enums::fermentable_type,
        FermentableType::Grain,
        "grain",
    );
    // BeerJSON has no adjunct type: an adjunct is a grain of the adjunct group.
    if kind == FermentableType::Grain
        && f.get("grain_group").and_then(Value::as_str) == Some("adjunct")
    {
        kind = FermentableType::Adjunct;
    }
    // wort's `added` extension (a late boil addition, which BeerJSON has no word for) wins;
    // then `timing.use`; else the type's default.
    let added = f
        .get("added")
        .and_then(Value::as_str)
        .and_then(FermentableAddition::parse)
        .or_else(|| {
            let stage = f.child("timing").get("use").and_then(Value::as_str);
            match stage {
                Some("add_to_mash") => Some(FermentableAddition::Mash),
                Some("add_to_boil") => Some(FermentableAddition::Boil),
                Some("add_to_fermentation" | "add_to_package") => {
                    Some(FermentableAddition::Fermenter)
                }
                _ => None,
            }
        })
        .unwrap_or_else(|| FermentableAddition::default_for(kind));
    NewFermentable {
        catalog_id: None,
        name: f.required_text(r, "name", NAME_MAX).unwrap_or_default(),
        kind,
        added,
        amount_kg: amount_kg(f, r, limits::AMOUNT_KG, 1.0),
        color_srm: f.bounded(r, "color", COLOR_SRM, limits::COLOR_SRM),
        yield_percent: yield_percent(f, r),
        origin: f.text(r, "origin", SHORT_TEXT_MAX),
        notes: f.text(r, "notes", NOTES_MAX),
        sort_order,
    }
}

/// A required mass (or, failing that, a volume read at the density of water, with a warning),
/// times `scale`, bounded.
fn amount_kg(o: &Obj<'_>, r: &mut Report, bound: Bound, scale: f64) -> f64 {
    let path = o.path("amount");
    let unit = o.child("amount").get("unit").and_then(Value::as_str);
    let kg = if unit.is_some_and(|u| units::liters(1.0, u).is_some()) {
        let litres = o.required_measure(r, "amount", VOLUME_L);
        r.warn(&path, "a volume: read as kilograms at the density of water");
        litres
    } else {
        o.required_measure(r, "amount", MASS_KG)
    };
    kg.map(|kg| r.clamp(&path, kg * scale, bound))
        .unwrap_or_default()
}

/// `yield.fine_grind` (%), else `yield.potential` (a gravity). Some writers put thousandths
/// (`1037`) where a gravity belongs (`1.037`): read as such, with a warning.
fn yield_percent(f: &Obj<'_>, r: &mut Report) -> f64 {
    let y = f.child("yield");
    if y.get("fine_grind").is_some() {
        return y.bounded(r, "fine_grind", PERCENT, limits::PERCENT);
    }
    if y.get("potential").is_some() {
        let path = y.path("potential");
        return y
            .measure(r, "potential", GRAVITY_SG)
            .map(|sg| {
                let sg = if sg > 2.0 {
                    r.warn(&path, format!("{sg} read as {}", sg / 1_000.0));
                    sg / 1_000.0
                } else {
                    sg
                };
                r.clamp(
                    &path,
                    units::yield_percent_from_potential(sg),
                    limits::PERCENT,
                )
            })
            .unwrap_or_default();
    }
    r.missing(&y.path, "object");
    0.0
}

/// Where and for how long an addition goes: `timing.use`, and `time` or `duration` in minutes.
/// Boil and mash additions are written with `time` by real exporters (and `duration` by some);
/// fermentation and package additions last `duration`, BeerXML's `TIME`.
fn timing(o: &Obj<'_>, r: &mut Report) -> (Option<&'static str>, Option<f64>) {
    let t = o.child("timing");
    let stage = t.get("use").and_then(Value::as_str).and_then(|u| match u {
        "add_to_mash" => Some("mash"),
        "add_to_boil" => Some("boil"),
        "add_to_fermentation" => Some("fermentation"),
        "add_to_package" => Some("package"),
        _ => None,
    });
    let (first, second) = match stage {
        Some("fermentation" | "package") => ("duration", "time"),
        _ => ("time", "duration"),
    };
    let key = if t.get(first).is_some() {
        first
    } else {
        second
    };
    let minutes = t.optional_bounded(r, key, TIME_MIN, limits::TIME_MINUTES);
    (stage, minutes)
}

fn hop(h: &Obj<'_>, r: &mut Report, sort_order: Option<i32>) -> NewHop {
    let (stage, minutes) = timing(h, r);
    // The `use` extension (BeerXML's words, as beerjson's own converter and wort write it)
    // says more than `timing.use`: first wort, aroma and whirlpool are all boil-stage.
    let hop_use = h
        .get("use")
        .and_then(Value::as_str)
        .and_then(enums::hop_use)
        .unwrap_or_else(|| match stage {
            Some("mash") => HopUse::Mash,
            Some("fermentation" | "package") => HopUse::DryHop,
            Some(_) => HopUse::Boil,
            None => {
                r.warn(&h.path("timing"), "no timing.use: boil assumed");
                HopUse::Boil
            }
        });
    // BeerJSON 1.0 has no word for a hop stand's temperature: wort writes it as a `temperature`
    // extension on the addition (as it does `use`), and reads it back for a whirlpool.
    let temperature_c = if hop_use == HopUse::Whirlpool {
        h.optional_bounded(
            r,
            "temperature",
            TEMPERATURE_C,
            limits::HOP_STAND_TEMPERATURE_C,
        )
    } else {
        if h.get("temperature").is_some() {
            r.warn(
                &h.path("temperature"),
                format!(
                    "temperature left out: only a hop stand (aroma, whirlpool) has a temperature, not a {} hop",
                    hop_use.as_str()
                ),
            );
        }
        None
    };
    NewHop {
        temperature_c,
        catalog_id: None,
        name: h.required_text(r, "name", NAME_MAX).unwrap_or_default(),
        alpha_acid: h.bounded(r, "alpha_acid", PERCENT, limits::PERCENT),
        amount_grams: amount_kg(h, r, limits::AMOUNT_GRAMS, 1_000.0),
        time_minutes: minutes.unwrap_or_else(|| {
            r.warn(&h.path("timing"), "no time: 0 minutes assumed");
            0.0
        }),
        hop_use,
        form: h.get("form").and_then(Value::as_str).and_then(|word| {
            let form = enums::hop_form(word);
            if form.is_none() {
                r.warn(
                    &h.path("form"),
                    format!("unknown form {}: not kept", quoted(word)),
                );
            }
            form
        }),
        sort_order,
    }
}

/// An amount kept in the unit the file gives (wort's yeast and misc amounts carry their unit).
fn amount_as_given(o: &Obj<'_>, r: &mut Report) -> Option<(f64, String)> {
    let a = o.child("amount");
    let v = o.get("amount")?;
    let (Some(unit), Some(value)) = (
        v.get("unit").and_then(Value::as_str),
        v.get("value").and_then(Value::as_f64),
    ) else {
        r.wrong_type(&a.path, "{unit, value}", type_name(v));
        return None;
    };
    let value = r.clamp(&a.path, value, limits::AMOUNT);
    let unit = r.cap(&a.path("unit"), unit.to_owned(), SHORT_TEXT_MAX);
    Some((value, unit))
}

fn culture(c: &Obj<'_>, r: &mut Report, sort_order: Option<i32>) -> NewYeast {
    let form = c.get("form").and_then(Value::as_str).and_then(|word| {
        let form = enums::yeast_form(word);
        if form.is_none() {
            r.warn(
                &c.path("form"),
                format!("unknown form {}: not kept", quoted(word)),
            );
        }
        form
    });
    let range = c.child("temperature_range");
    let amount = amount_as_given(c, r);
    NewYeast {
        catalog_id: None,
        name: c.required_text(r, "name", NAME_MAX).unwrap_or_default(),
        lab: c.text(r, "producer", SHORT_TEXT_MAX),
        product_id: c.text(r, "product_id", SHORT_TEXT_MAX),
        kind: c.word(r, "type", enums::yeast_type, YeastType::Ale, "ale"),
        form,
        attenuation: c.optional_bounded(r, "attenuation", PERCENT, limits::PERCENT),
        min_temp_c: range.optional_bounded(r, "minimum", TEMPERATURE_C, limits::TEMPERATURE_C),
        max_temp_c: range.optional_bounded(r, "maximum", TEMPERATURE_C, limits::TEMPERATURE_C),
        amount: amount.as_ref().map(|(v, _)| *v),
        amount_unit: amount.map(|(_, u)| u),
        notes: c.text(r, "notes", NOTES_MAX),
        sort_order,
    }
}

fn misc(m: &Obj<'_>, r: &mut Report, sort_order: Option<i32>) -> NewMisc {
    let (stage, minutes) = timing(m, r);
    let misc_use = m
        .get("use")
        .and_then(Value::as_str)
        .and_then(enums::misc_use)
        .unwrap_or_else(|| match stage {
            Some("mash") => MiscUse::Mash,
            Some("fermentation") => MiscUse::Primary,
            Some("package") => MiscUse::Bottling,
            Some(_) => MiscUse::Boil,
            None => {
                r.warn(&m.path("timing"), "no timing.use: boil assumed");
                MiscUse::Boil
            }
        });
    let amount = amount_as_given(m, r);
    if amount.is_none() && m.get("amount").is_none() {
        r.missing(&m.path("amount"), "object");
    }
    let (amount, amount_unit) = amount.unwrap_or_default();
    NewMisc {
        catalog_id: None,
        name: m.required_text(r, "name", NAME_MAX).unwrap_or_default(),
        kind: m.word(r, "type", enums::misc_type, MiscType::Other, "other"),
        misc_use,
        amount,
        amount_unit,
        time_minutes: minutes.unwrap_or(DEFAULT_MISC_TIME_MINUTES),
        notes: m.text(r, "notes", NOTES_MAX),
        sort_order,
    }
}

/// A step of `fermentation.fermentation_steps`: its start temperature (20 °C when missing), its
/// time in days and its end gravity as the gravity it runs until. BeerJSON has no minimum time
/// before the end gravity counts: `min_days` stays null.
fn fermentation_step(
    s: &Obj<'_>,
    r: &mut Report,
    sort_order: Option<i32>,
) -> crate::domain::NewFermentationStep {
    crate::domain::NewFermentationStep {
        name: s.required_text(r, "name", NAME_MAX).unwrap_or_default(),
        temperature_c: s
            .optional_bounded(r, "start_temperature", TEMPERATURE_C, limits::TEMPERATURE_C)
            .unwrap_or(20.0),
        days: s.optional_bounded(r, "step_time", TIME_DAYS, limits::FERMENTATION_DAYS),
        min_days: None,
        until_gravity: s.optional_bounded(r, "end_gravity", GRAVITY_SG, limits::UNTIL_GRAVITY),
        until_attenuation_percent: None,
        sort_order,
    }
}

fn mash_step(s: &Obj<'_>, r: &mut Report, sort_order: Option<i32>) -> NewMashStep {
    NewMashStep {
        name: s.required_text(r, "name", NAME_MAX).unwrap_or_default(),
        kind: s.word(
            r,
            "type",
            enums::mash_step_type,
            MashStepType::Infusion,
            "infusion",
        ),
        temperature_c: s.bounded(r, "step_temperature", TEMPERATURE_C, limits::TEMPERATURE_C),
        duration_minutes: s.bounded(r, "step_time", TIME_MIN, limits::MASH_MINUTES),
        infuse_amount_liters: s.optional_bounded(r, "amount", VOLUME_L, limits::LITERS),
        infuse_temperature_c: s.optional_bounded(
            r,
            "infuse_temperature",
            TEMPERATURE_C,
            limits::INFUSE_TEMPERATURE_C,
        ),
        ramp_minutes: s.optional_bounded(r, "ramp_time", TIME_MIN, limits::MASH_MINUTES),
        sort_order,
    }
}

/// The writer's own numbers: BeerJSON carries OG and colour estimates, and names the IBU
/// method without a value. Read quietly: a malformed estimate is no reason to refuse a recipe.
fn estimates(rec: &Obj<'_>) -> Estimates {
    let pair = |key: &str, (convert, _): Convert| {
        let v = rec.get(key)?;
        convert(v.get("value")?.as_f64()?, v.get("unit")?.as_str()?)
    };
    Estimates {
        og: pair("original_gravity", GRAVITY_SG),
        ibu: None,
        color_srm: pair("color_estimate", COLOR_SRM),
    }
}
