//! BeerXML 1.0 → wort: `RECIPES/RECIPE` records and their `FERMENTABLES`, `HOPS`, `YEASTS`,
//! `MISCS` and `MASH/MASH_STEPS`, in BeerXML's fixed units (kg, litres, minutes, °C, percent).

use super::tree::{self, Node};
use crate::domain::{
    DEFAULT_BOIL_TIME_MINUTES, DEFAULT_EFFICIENCY, DEFAULT_MISC_TIME_MINUTES, EquipmentProfile,
    FermentableAddition, FermentableType, HopUse, MashStepType, MiscType, MiscUse, NewFermentable,
    NewHop, NewMashStep, NewMisc, NewRecipe, NewYeast, RecipeType, YeastType,
};
use crate::enums;
use crate::limits::{self, MAX_RECIPES, NAME_MAX, NOTES_MAX, SHORT_TEXT_MAX};
use crate::report::{Path, Report, at, check_children, invalid_file, quoted, too_many_recipes};
use crate::{
    Estimates, FermentableColor, Import, ImportError, ImportOptions, ImportedRecipe, Warning,
    colours, decode, equipment, estimates, units, water_agents,
};

pub(crate) fn import(bytes: &[u8], options: ImportOptions) -> Result<Import, ImportError> {
    let decoded = decode::xml(bytes)?;
    let root = tree::parse(&decoded.text)?;
    let (base, records): (Path, Vec<&Node>) = match root.name.as_str() {
        "RECIPES" => (
            vec!["RECIPES".into(), "RECIPE".into()],
            root.all("RECIPE").collect(),
        ),
        "RECIPE" => (Vec::new(), vec![&root]),
        other => {
            return Err(invalid_file(
                "invalid_type",
                &[other.to_owned()],
                "Not a recipe file: the root element must be RECIPES",
            ));
        }
    };
    if records.is_empty() {
        return Err(invalid_file(
            "invalid_type",
            &["RECIPES".into()],
            "No RECIPE in the file",
        ));
    }
    if records.len() > MAX_RECIPES {
        return Err(too_many_recipes(&at(&base, MAX_RECIPES)));
    }
    let mut report = Report::default();
    if let Some(message) = decoded.warning {
        report.warn(&[], message);
    }
    let mut profiles = equipment::Profiles::default();
    let recipes = records
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let path = if base.is_empty() {
                vec!["RECIPE".to_owned()]
            } else {
                at(&base, i)
            };
            let mut imported = recipe(node, &path, options.fermentable_color, &mut report);
            imported.equipment = node.child("EQUIPMENT").and_then(|e| {
                let profile = equipment_record(
                    &Record {
                        node: e,
                        path: &at(&path, "EQUIPMENT"),
                    },
                    imported.recipe.batch_size_liters,
                    &mut report,
                )?;
                Some(profiles.add(profile))
            });
            estimates::compare(
                &imported,
                profiles.get(imported.equipment),
                &path,
                &estimates::BEERXML,
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

/// One record and the path to it: the field readers report against `path + [FIELD]`.
struct Record<'a> {
    node: &'a Node,
    path: &'a [String],
}

impl Record<'_> {
    fn path(&self, field: &str) -> Path {
        at(self.path, field)
    }

    fn text(&self, r: &mut Report, field: &str, max: usize) -> Option<String> {
        let t = self.node.text_of(field)?;
        Some(r.cap(&self.path(field), t.to_owned(), max))
    }

    fn required_text(&self, r: &mut Report, field: &str, max: usize) -> Option<String> {
        let t = self.text(r, field, max);
        if t.is_none() {
            r.missing(&self.path(field), "string");
        }
        t
    }

    fn number(&self, r: &mut Report, field: &str) -> Option<f64> {
        let t = self.node.text_of(field)?;
        match t.parse::<f64>() {
            Ok(x) if x.is_finite() => Some(x),
            _ => {
                r.wrong_type(&self.path(field), "number", "string");
                None
            }
        }
    }

    fn required_number(&self, r: &mut Report, field: &str) -> Option<f64> {
        let x = self.number(r, field);
        if x.is_none() && self.node.text_of(field).is_none() {
            r.missing(&self.path(field), "number");
        }
        x
    }

    /// A bounded number that must be there.
    fn bounded(&self, r: &mut Report, field: &str, scale: f64, bound: limits::Bound) -> f64 {
        self.required_number(r, field)
            .map(|x| r.clamp(&self.path(field), x * scale, bound))
            .unwrap_or_default()
    }

    fn optional_bounded(
        &self,
        r: &mut Report,
        field: &str,
        scale: f64,
        bound: limits::Bound,
    ) -> Option<f64> {
        self.number(r, field)
            .map(|x| r.clamp(&self.path(field), x * scale, bound))
    }

    /// One of BeerXML's display temperatures (`INFUSE_TEMP`): programs write a bare number of
    /// °C (`81.7`), or a number with its unit (`98.5 C`, `210 F`); °F is converted.
    fn display_temperature(
        &self,
        r: &mut Report,
        field: &str,
        bound: limits::Bound,
    ) -> Option<f64> {
        let t = self.node.text_of(field)?.trim();
        let (number, fahrenheit) = match t.strip_suffix(['F', 'f']) {
            Some(n) => (n.trim_end().trim_end_matches('°').trim_end(), true),
            None => (
                t.strip_suffix(['C', 'c'])
                    .map_or(t, |n| n.trim_end().trim_end_matches('°').trim_end()),
                false,
            ),
        };
        match number.parse::<f64>() {
            Ok(x) if x.is_finite() => {
                let c = if fahrenheit { (x - 32.0) / 1.8 } else { x };
                Some(r.clamp(&self.path(field), c, bound))
            }
            _ => {
                r.warn(
                    &self.path(field),
                    format!("{} is not a temperature: ignored", quoted(t)),
                );
                None
            }
        }
    }

    /// BeerXML booleans are `TRUE`/`FALSE`; exporters write any case.
    fn flag(&self, r: &mut Report, field: &str) -> Option<bool> {
        let t = self.node.text_of(field)?;
        match t.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => {
                r.warn(
                    &self.path(field),
                    format!("{} is not TRUE or FALSE: ignored", quoted(t)),
                );
                None
            }
        }
    }

    /// An enum word mapped by `map`, or `default` with a warning when absent or unknown.
    fn word<T: Copy>(
        &self,
        r: &mut Report,
        field: &str,
        map: fn(&str) -> Option<T>,
        default: T,
        default_name: &str,
    ) -> T {
        let word = self.node.text_of(field);
        r.word(&self.path(field), word, map, (default, default_name))
    }
}

fn recipe(
    node: &Node,
    path: &[String],
    colour: FermentableColor,
    r: &mut Report,
) -> ImportedRecipe {
    let rec = Record { node, path };
    r.reading(node.text_of("NAME").unwrap_or_default());
    let name = rec.required_text(r, "NAME", NAME_MAX).unwrap_or_default();
    let kind = rec.word(
        r,
        "TYPE",
        enums::recipe_type,
        RecipeType::AllGrain,
        "all grain",
    );
    let style = node
        .child("STYLE")
        .and_then(|s| s.text_of("NAME"))
        .map(|s| {
            r.cap(
                &at(&at(path, "STYLE"), "NAME"),
                s.to_owned(),
                SHORT_TEXT_MAX,
            )
        })
        .unwrap_or_default();
    let batch_size_liters = rec.bounded(r, "BATCH_SIZE", 1.0, limits::BATCH_SIZE_LITERS);
    let boil_time_minutes = rec
        .optional_bounded(r, "BOIL_TIME", 1.0, limits::BOIL_TIME_MINUTES)
        .unwrap_or_else(|| {
            r.warn(&rec.path("BOIL_TIME"), "no BOIL_TIME: 60 minutes assumed");
            DEFAULT_BOIL_TIME_MINUTES
        });
    let efficiency = rec
        .optional_bounded(r, "EFFICIENCY", 0.01, limits::EFFICIENCY)
        .unwrap_or_else(|| {
            r.warn(&rec.path("EFFICIENCY"), "no EFFICIENCY: 72 % assumed");
            DEFAULT_EFFICIENCY
        });
    let notes = rec.text(r, "NOTES", NOTES_MAX);
    not_kept(node, path, r);
    let estimates = estimates(node);
    let mut fermentables = children(node, path, "FERMENTABLES", "FERMENTABLE", r, fermentable);
    colours::read(
        &mut fermentables,
        batch_size_liters,
        estimates.color_srm,
        colour,
        &at(path, "FERMENTABLES"),
        r,
    );
    let miscs_base = at(&at(path, "MISCS"), "MISC");
    let (miscs, water_additions) = water_agents::split(
        children(node, path, "MISCS", "MISC", r, misc),
        |i| at(&miscs_base, i),
        r,
    );

    ImportedRecipe {
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
        fermentables,
        hops: children(node, path, "HOPS", "HOP", r, hop),
        yeasts: children(node, path, "YEASTS", "YEAST", r, yeast),
        miscs,
        water_additions,
        equipment: None,
        mash_steps: node
            .child("MASH")
            .map(|mash| {
                children(
                    mash,
                    &at(path, "MASH"),
                    "MASH_STEPS",
                    "MASH_STEP",
                    r,
                    mash_step,
                )
            })
            .unwrap_or_default(),
        fermentation_steps: fermentation_stages(&rec, r),
        estimates,
    }
}

/// BeerXML's up to three fermentation stages (`PRIMARY_AGE` days at `PRIMARY_TEMP` °C, then
/// secondary and tertiary), as many as `FERMENTATION_STAGES` says (all that have an age when it
/// is missing). A stage without an age is skipped; without a temperature, 20 °C is assumed.
fn fermentation_stages(
    rec: &Record<'_>,
    r: &mut Report,
) -> Vec<crate::domain::NewFermentationStep> {
    let stages = rec
        .number(r, "FERMENTATION_STAGES")
        .map_or(3, |n| n.clamp(0.0, 3.0) as usize);
    let mut steps = Vec::new();
    for (prefix, name) in [
        ("PRIMARY", "Primary"),
        ("SECONDARY", "Secondary"),
        ("TERTIARY", "Tertiary"),
    ]
    .into_iter()
    .take(stages)
    {
        let Some(days) =
            rec.optional_bounded(r, &format!("{prefix}_AGE"), 1.0, limits::FERMENTATION_DAYS)
        else {
            continue;
        };
        if days <= 0.0 {
            continue;
        }
        let temperature_c = rec
            .optional_bounded(r, &format!("{prefix}_TEMP"), 1.0, limits::TEMPERATURE_C)
            .unwrap_or(20.0);
        steps.push(crate::domain::NewFermentationStep {
            name: name.to_owned(),
            temperature_c,
            days: Some(days),
            min_days: None,
            until_gravity: None,
            until_attenuation_percent: None,
            sort_order: Some(sort_order(steps.len())),
        });
    }
    steps
}

/// Records wort has no place for yet are named in a warning, once each.
fn not_kept(node: &Node, path: &[String], r: &mut Report) {
    if node.child("WATERS").is_some_and(|w| !w.children.is_empty()) {
        r.warn(&at(path, "WATERS"), "water profiles not kept");
    }
}

fn children<T>(
    parent: &Node,
    path: &[String],
    list: &str,
    item: &str,
    r: &mut Report,
    read: fn(&Record<'_>, &mut Report, i32) -> T,
) -> Vec<T> {
    let Some(list_node) = parent.child(list) else {
        return Vec::new();
    };
    let base = at(&at(path, list), item);
    let items: Vec<&Node> = list_node.all(item).collect();
    check_children(r, &at(path, list), items.len());
    items
        .into_iter()
        .enumerate()
        .map(|(i, node)| {
            let p = at(&base, i);
            read(&Record { node, path: &p }, r, sort_order(i))
        })
        .collect()
}

fn sort_order(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}

fn fermentable(rec: &Record<'_>, r: &mut Report, order: i32) -> NewFermentable {
    let kind = rec.word(
        r,
        "TYPE",
        enums::fermentable_type,
        FermentableType::Grain,
        "grain",
    );
    // wort's own `ADDED` (written where BeerXML has no word: a late boil addition, a sugar in
    // the mash) wins; then `ADD_AFTER_BOIL`; else the type's default.
    let added = match rec
        .node
        .text_of("ADDED")
        .and_then(FermentableAddition::parse)
    {
        Some(added) => added,
        None if rec.flag(r, "ADD_AFTER_BOIL") == Some(true) => FermentableAddition::Fermenter,
        None => FermentableAddition::default_for(kind),
    };
    NewFermentable {
        catalog_id: None,
        name: rec.required_text(r, "NAME", NAME_MAX).unwrap_or_default(),
        kind,
        added,
        amount_kg: rec.bounded(r, "AMOUNT", 1.0, limits::AMOUNT_KG),
        // °Lovibond taken as SRM, as Brewtarget does.
        color_srm: rec.bounded(r, "COLOR", 1.0, limits::COLOR_SRM),
        yield_percent: rec.bounded(r, "YIELD", 1.0, limits::PERCENT),
        origin: rec.text(r, "ORIGIN", SHORT_TEXT_MAX),
        notes: rec.text(r, "NOTES", NOTES_MAX),
        sort_order: Some(order),
    }
}

fn hop(rec: &Record<'_>, r: &mut Report, order: i32) -> NewHop {
    let hop_use = rec.word(r, "USE", enums::hop_use, HopUse::Boil, "boil");
    // A steep's temperature: Brewfather writes `TEMPERATURE` and `HOP_TEMP` on its `Aroma` hops.
    // It means something only for a hop stand; on another use wort would refuse it, so it is
    // left out, and said so.
    let temperature_c = if hop_use == HopUse::Whirlpool {
        let field = if rec.node.text_of("TEMPERATURE").is_some() {
            "TEMPERATURE"
        } else {
            "HOP_TEMP"
        };
        rec.optional_bounded(r, field, 1.0, limits::HOP_STAND_TEMPERATURE_C)
    } else {
        for field in ["TEMPERATURE", "HOP_TEMP"] {
            if rec.node.text_of(field).is_some() {
                r.warn(
                    &rec.path(field),
                    format!(
                        "{field} left out: only a hop stand (Aroma, Whirlpool, Hop Stand) has a temperature, not a {} hop",
                        hop_use.as_str()
                    ),
                );
                break;
            }
        }
        None
    };
    NewHop {
        temperature_c,
        catalog_id: None,
        name: rec.required_text(r, "NAME", NAME_MAX).unwrap_or_default(),
        alpha_acid: rec.bounded(r, "ALPHA", 1.0, limits::PERCENT),
        // BeerXML weighs hops in kilograms.
        amount_grams: rec.bounded(r, "AMOUNT", 1_000.0, limits::AMOUNT_GRAMS),
        // Real exporters leave TIME empty on whirlpool and aroma hops (IPL_COMET.xml).
        time_minutes: rec
            .optional_bounded(r, "TIME", 1.0, limits::TIME_MINUTES)
            .unwrap_or_else(|| {
                r.warn(&rec.path("TIME"), "no TIME: 0 minutes assumed");
                0.0
            }),
        hop_use,
        form: rec.node.text_of("FORM").and_then(|word| {
            let form = enums::hop_form(word);
            if form.is_none() {
                r.warn(
                    &rec.path("FORM"),
                    format!("unknown FORM {}: not kept", quoted(word)),
                );
            }
            form
        }),
        sort_order: Some(order),
    }
}

fn yeast(rec: &Record<'_>, r: &mut Report, order: i32) -> NewYeast {
    let form = rec.node.text_of("FORM").and_then(|word| {
        let form = enums::yeast_form(word);
        if form.is_none() {
            r.warn(
                &rec.path("FORM"),
                format!("unknown FORM {}: not kept", quoted(word)),
            );
        }
        form
    });
    let (amount, amount_unit) = weight_or_volume(rec, r);
    NewYeast {
        catalog_id: None,
        name: rec.required_text(r, "NAME", NAME_MAX).unwrap_or_default(),
        lab: rec.text(r, "LABORATORY", SHORT_TEXT_MAX),
        product_id: rec.text(r, "PRODUCT_ID", SHORT_TEXT_MAX),
        kind: rec.word(r, "TYPE", enums::yeast_type, YeastType::Ale, "ale"),
        form,
        attenuation: rec.optional_bounded(r, "ATTENUATION", 1.0, limits::PERCENT),
        min_temp_c: rec.optional_bounded(r, "MIN_TEMPERATURE", 1.0, limits::TEMPERATURE_C),
        max_temp_c: rec.optional_bounded(r, "MAX_TEMPERATURE", 1.0, limits::TEMPERATURE_C),
        amount,
        amount_unit,
        notes: rec.text(r, "NOTES", NOTES_MAX),
        sort_order: Some(order),
    }
}

/// BeerXML `AMOUNT` is kilograms when `AMOUNT_IS_WEIGHT` is true, litres otherwise; wort keeps
/// the handier grams or millilitres. Where the file's `DISPLAY_AMOUNT` (the amount as the brewer
/// entered it) is in a unit of their own, that is kept instead: Brewfather writes a dry yeast as
/// `AMOUNT` 1 (a litre, read literally) with `DISPLAY_AMOUNT` "1 pkg", and a fining as 4.93 mL
/// with "1 tsp"; the brewer meant the packet and the teaspoon.
fn weight_or_volume(rec: &Record<'_>, r: &mut Report) -> (Option<f64>, Option<String>) {
    let amount = rec.optional_bounded(r, "AMOUNT", 1_000.0, limits::AMOUNT);
    let is_weight = rec.flag(r, "AMOUNT_IS_WEIGHT").unwrap_or(false);
    if let Some((shown, unit)) = rec.node.text_of("DISPLAY_AMOUNT").and_then(display_amount)
        && agrees_with(amount, is_weight, shown, &unit)
    {
        return (Some(shown), Some(unit));
    }
    let Some(amount) = amount else {
        return (None, None);
    };
    let unit = if is_weight { "g" } else { "ml" };
    (Some(amount), Some(unit.to_owned()))
}

/// `DISPLAY_AMOUNT` as a number and a unit of the brewer's own ("1 pkg", "0,5 tsp", "2 tablets",
/// "0.5 oz"). Metric units give nothing: `AMOUNT` already says the same in grams or millilitres.
fn display_amount(text: &str) -> Option<(f64, String)> {
    let (number, unit) = text.trim().split_once(char::is_whitespace)?;
    let unit = unit.trim();
    let value: f64 = number.replace(',', ".").parse().ok()?;
    let metric = ["mg", "g", "kg", "ml", "l"].contains(&unit.to_lowercase().as_str());
    let fits = limits::AMOUNT.check(&[], value).is_ok()
        && wort_domain::recipe::rules::AMOUNT_UNIT
            .check(&[], unit)
            .is_ok();
    (value.is_finite() && value > 0.0 && fits && !metric).then(|| (value, unit.to_owned()))
}

/// A display amount in a mass or volume unit must say what `AMOUNT` says (within 5 %: displays
/// are rounded); a count ("pkg", "tablets") cannot be checked against a mass and is taken as
/// the brewer's word, as is any display when the file has no `AMOUNT`.
fn agrees_with(amount: Option<f64>, is_weight: bool, shown: f64, unit: &str) -> bool {
    let Some(amount) = amount else { return true };
    // `amount` is already in grams or millilitres.
    let as_si = if is_weight {
        units::kilograms(shown, unit)
    } else {
        units::liters(shown, unit)
    };
    match as_si.map(|si| si * 1_000.0) {
        Some(si) => (si - amount).abs() <= 0.05 * amount.max(si),
        // A mass shown for a volume (or the other way round): the two cannot be compared.
        None => units::kilograms(shown, unit).is_none() && units::liters(shown, unit).is_none(),
    }
}

fn misc(rec: &Record<'_>, r: &mut Report, order: i32) -> NewMisc {
    let (amount, amount_unit) = weight_or_volume(rec, r);
    if amount.is_none() && rec.node.text_of("AMOUNT").is_none() {
        r.missing(&rec.path("AMOUNT"), "number");
    }
    NewMisc {
        catalog_id: None,
        name: rec.required_text(r, "NAME", NAME_MAX).unwrap_or_default(),
        kind: rec.word(r, "TYPE", enums::misc_type, MiscType::Other, "other"),
        misc_use: rec.word(r, "USE", enums::misc_use, MiscUse::Boil, "boil"),
        amount: amount.unwrap_or_default(),
        amount_unit: amount_unit.unwrap_or_default(),
        time_minutes: rec
            .optional_bounded(r, "TIME", 1.0, limits::TIME_MINUTES)
            .unwrap_or(DEFAULT_MISC_TIME_MINUTES),
        notes: rec.text(r, "NOTES", NOTES_MAX),
        sort_order: Some(order),
    }
}

fn mash_step(rec: &Record<'_>, r: &mut Report, order: i32) -> NewMashStep {
    NewMashStep {
        name: rec.required_text(r, "NAME", NAME_MAX).unwrap_or_default(),
        kind: rec.word(
            r,
            "TYPE",
            enums::mash_step_type,
            MashStepType::Infusion,
            "infusion",
        ),
        temperature_c: rec.bounded(r, "STEP_TEMP", 1.0, limits::TEMPERATURE_C),
        duration_minutes: rec.bounded(r, "STEP_TIME", 1.0, limits::MASH_MINUTES),
        infuse_amount_liters: rec.optional_bounded(r, "INFUSE_AMOUNT", 1.0, limits::LITERS),
        infuse_temperature_c: rec.display_temperature(
            r,
            "INFUSE_TEMP",
            limits::INFUSE_TEMPERATURE_C,
        ),
        ramp_minutes: rec.optional_bounded(r, "RAMP_TIME", 1.0, limits::MASH_MINUTES),
        sort_order: Some(order),
    }
}

/// A recipe's `EQUIPMENT` as an equipment profile (litres, litres per hour):
///
/// * boil-off per hour: `BOIL_OFF_RATE` (L/h: what wort, BeerSmith and Brewtarget write beside
///   the standard field) when present, else BeerXML's `EVAP_RATE` (% of `BOIL_SIZE` per hour)
///   × `BOIL_SIZE`, else Brewtarget's `REAL_EVAP_RATE` (L/h), else 0 with a warning;
/// * `TRUB_CHILLER_LOSS`, `LAUTER_DEADSPACE` (the mash tun's dead space), `TOP_UP_WATER`,
///   `HOP_UTILIZATION` (0, which Brewtarget 1.x writes for "not set", is read as 100 with a
///   warning), Brewtarget's `ABSORPTION` (L/kg, else wort's default 1.0), `NOTES`;
/// * `BATCH_SIZE` (the recipe's when missing); no fermenter loss (BeerXML has none).
///
/// A profile the equipment rules refuse (a loss larger than its batch) is not kept, with a
/// warning naming the rule.
fn equipment_record(
    rec: &Record<'_>,
    recipe_batch_liters: f64,
    r: &mut Report,
) -> Option<EquipmentProfile> {
    use crate::domain::equipment_rules as rules;
    let number = |r: &mut Report, field: &str, bound: limits::Bound| {
        rec.optional_bounded(r, field, 1.0, bound)
    };
    let name = rec
        .text(r, "NAME", NAME_MAX)
        .unwrap_or_else(|| "Imported equipment".to_owned());
    let batch_size_liters =
        number(r, "BATCH_SIZE", rules::BATCH_SIZE_LITERS).unwrap_or(recipe_batch_liters);
    let boil_size = number(r, "BOIL_SIZE", rules::VOLUME_LITERS).filter(|v| *v > 0.0);
    let per_cent = number(r, "EVAP_RATE", limits::PERCENT);
    let boil_off_liters_per_hour = number(r, "BOIL_OFF_RATE", rules::VOLUME_LITERS)
        .or_else(|| {
            boil_size
                .zip(per_cent)
                .map(|(size, pct)| size * pct / 100.0)
        })
        .or_else(|| number(r, "REAL_EVAP_RATE", rules::VOLUME_LITERS))
        .unwrap_or_else(|| {
            r.warn(
                &rec.path("EVAP_RATE"),
                "no EVAP_RATE with a BOIL_SIZE, nor BOIL_OFF_RATE: no boil-off assumed",
            );
            0.0
        });
    let hop_utilization_percent = match number(r, "HOP_UTILIZATION", rules::HOP_UTILIZATION_PERCENT)
    {
        Some(u) if u > 0.0 => u,
        Some(_) => {
            r.warn(
                &rec.path("HOP_UTILIZATION"),
                "HOP_UTILIZATION 0 read as not set: 100 % assumed",
            );
            crate::domain::DEFAULT_HOP_UTILIZATION_PERCENT
        }
        None => crate::domain::DEFAULT_HOP_UTILIZATION_PERCENT,
    };
    let base = EquipmentProfile::lossless(name, batch_size_liters);
    let profile = EquipmentProfile {
        boil_off_liters_per_hour: r.clamp(
            &rec.path("EVAP_RATE"),
            boil_off_liters_per_hour,
            rules::VOLUME_LITERS,
        ),
        trub_chiller_loss_liters: number(r, "TRUB_CHILLER_LOSS", rules::VOLUME_LITERS)
            .unwrap_or_default(),
        mash_tun_deadspace_liters: number(r, "LAUTER_DEADSPACE", rules::VOLUME_LITERS)
            .unwrap_or_default(),
        grain_absorption_liters_per_kg: number(
            r,
            "ABSORPTION",
            rules::GRAIN_ABSORPTION_LITERS_PER_KG,
        )
        .unwrap_or(base.grain_absorption_liters_per_kg),
        top_up_water_liters: number(r, "TOP_UP_WATER", rules::VOLUME_LITERS).unwrap_or_default(),
        // The mash tun's capacity, in litres; 0 is what programs write when it is not said.
        mash_tun_volume_liters: number(r, "TUN_VOLUME", rules::VOLUME_LITERS).filter(|v| *v > 0.0),
        hop_utilization_percent,
        notes: rec.text(r, "NOTES", NOTES_MAX),
        ..base
    };
    equipment::possible(profile, rec.path, r)
}

/// The exporter's own OG, IBU and colour. These are display values in practice (`1.04 SG`,
/// `28.0 IBUs`, `1053.0`), so only the leading number is read, and an OG above 2 is taken as
/// thousandths (`1053.0` = 1.053).
fn estimates(node: &Node) -> Estimates {
    let og = node
        .text_of("EST_OG")
        .or_else(|| node.text_of("OG"))
        .and_then(leading_number)
        .map(|og| if og > 2.0 { og / 1_000.0 } else { og });
    let ibu = node.text_of("IBU").and_then(leading_number);
    let color_srm = node.text_of("EST_COLOR").and_then(|t| {
        let x = leading_number(t)?;
        Some(if t.to_ascii_uppercase().contains("EBC") {
            x / 1.97
        } else {
            x
        })
    });
    Estimates { og, ibu, color_srm }
}

fn leading_number(text: &str) -> Option<f64> {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .unwrap_or(text.len());
    text.get(..end)?
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_numbers_of_display_values() {
        assert_eq!(leading_number("1.04 SG"), Some(1.04));
        assert_eq!(leading_number("28.0 IBUs"), Some(28.0));
        assert_eq!(leading_number("9.00000e+01"), Some(90.0));
        assert_eq!(leading_number("SG"), None);
    }
}
