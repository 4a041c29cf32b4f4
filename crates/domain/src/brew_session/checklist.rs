//! The brew-day checklist, generated once from the recipe when a brew session is created.

use super::model::NewStep;
use crate::brewing::Volumes;
use crate::brewing::mash::{BOILING_C, MashStepWater};
use crate::brewing::volumes::{
    ASSUMED_GRAIN_TEMPERATURE_C, DEFAULT_MASH_THICKNESS_LITERS_PER_KG, strike_temperature_c,
};
use crate::quantities::{StepText, literal};
use crate::recipe::RecipeDetail;
use crate::recipe_children::{HopUse, MiscUse};

/// A generated step: its title and description are templates over `text`'s quantities (numbers
/// are read in each caller's units; see `quantities`).
fn step(
    text: StepText,
    title: String,
    description: Option<String>,
    duration_minutes: Option<f64>,
) -> NewStep {
    NewStep {
        title,
        description,
        sort_order: None,
        duration_minutes,
        boil: false,
        boil_addition_at: None,
        quantities: text.quantities,
    }
}

/// A step whose text has no numbers.
fn plain(title: &str, description: Option<String>) -> NewStep {
    step(StepText::default(), title.to_owned(), description, None)
}

/// A step that goes into the boil `minutes_left` minutes before its end (0 at flame-out).
fn boil_addition(text: StepText, title: String, minutes_left: f64) -> NewStep {
    NewStep {
        boil_addition_at: Some(minutes_left),
        ..step(text, title, None, None)
    }
}

/// One addition during the boil, ordered by the time left in the boil (first wort first).
struct BoilAddition {
    minutes_left: f64,
    first_wort: bool,
    text: StepText,
    title: String,
}

/// What a later rest of a step mash adds, in words with the reader's units.
fn step_water_text(t: &mut StepText, w: &MashStepWater, rest_c: f64) -> Option<String> {
    if w.impossible {
        return Some(match w.infusion_temperature_c {
            Some(water) if water > BOILING_C => format!(
                "Infusion impossible: the volume set would need water at {}; heat the mash directly or add more water.",
                t.celsius(water)
            ),
            Some(water) => format!(
                "Infusion impossible: water at {} cannot bring the mash to {}; heat the mash directly.",
                t.celsius(water),
                t.celsius(rest_c)
            ),
            None => "Infusion impossible: heat the mash directly.".to_owned(),
        });
    }
    if let (Some(liters), Some(water)) = (w.infusion_volume_liters, w.infusion_temperature_c) {
        let water_text = if water >= BOILING_C {
            "boiling water".to_owned()
        } else {
            format!("water at {}", t.celsius(water))
        };
        return Some(format!(
            "Add {} of {water_text} to bring the mash to {}.",
            t.liters(liters),
            t.celsius(rest_c)
        ));
    }
    w.decoction_volume_liters.map(|liters| {
        format!(
            "Pull {} of thick mash, bring it to a boil and stir it back in to reach {}.",
            t.liters(liters),
            t.celsius(rest_c)
        )
    })
}

/// The brew-day checklist, in brewing order: strike water, mash steps, sparge, boil, boil
/// additions (first wort first, then by time left), flame-out and whirlpool additions, chill,
/// transfer, pitch. Mash and sparge water agents join their stage; fermenter-side miscs
/// (primary, secondary, bottling) are not brew-day steps.
///
/// With an equipment profile's `volumes` (as `/stats` gives them) the steps say how much: the
/// strike water and its temperature, the sparge water, the pre-boil volume and gravity to check
/// before the boil, and the volume into the fermenter. Without, the steps are as they always were.
///
/// A step mash's later rests say what to add: the infusion's water and its temperature, or the
/// thick mash a decoction pulls (`mash_water`, as `/stats` gives it as `mash_steps`).
pub fn checklist(
    recipe: &RecipeDetail,
    volumes: Option<&Volumes>,
    mash_water: &[MashStepWater],
) -> Vec<NewStep> {
    let boil_time = recipe.recipe.boil_time_minutes;
    let mut steps = Vec::new();

    let first_rest = recipe.mash_steps.first();
    let mut t = StepText::default();
    let strike = match (volumes, first_rest) {
        (Some(v), Some(first)) if v.strike_water_liters > 0.0 => {
            // The strike temperature follows the water-to-grain ratio: a full-volume mash is
            // thinner, so its water needs less heat above the rest.
            let temperature = strike_temperature_c(
                first.temperature_c,
                ASSUMED_GRAIN_TEMPERATURE_C,
                v.mash_thickness_liters_per_kg
                    .unwrap_or(DEFAULT_MASH_THICKNESS_LITERS_PER_KG),
            );
            Some(format!(
                "Heat {} of strike water to {} for a {} rest (grain at {}).",
                t.liters(v.strike_water_liters),
                t.celsius(temperature),
                t.celsius(first.temperature_c),
                t.celsius(ASSUMED_GRAIN_TEMPERATURE_C)
            ))
        }
        (Some(v), None) if v.strike_water_liters > 0.0 => Some(format!(
            "Heat {} of strike water.",
            t.liters(v.strike_water_liters)
        )),
        (_, Some(first)) => Some(match first.infuse_amount_liters {
            Some(liters) => format!(
                "Heat {} of strike water for a {} rest.",
                t.liters(liters),
                t.celsius(first.temperature_c)
            ),
            None => format!(
                "Heat the strike water for a {} rest.",
                t.celsius(first.temperature_c)
            ),
        }),
        (_, None) => None,
    };
    steps.push(step(t, "Heat strike water".to_owned(), strike, None));
    for misc in recipe.miscs.iter().filter(|m| m.misc_use == MiscUse::Mash) {
        let mut t = StepText::default();
        let title = format!(
            "Add {} {} to the mash",
            t.amount_with_unit(misc.amount, &misc.amount_unit),
            literal(&misc.name)
        );
        steps.push(step(t, title, misc.notes.as_deref().map(literal), None));
    }
    for mash in &recipe.mash_steps {
        let mut t = StepText::default();
        let title = format!(
            "Mash: {} at {} for {}",
            literal(&mash.name),
            t.celsius(mash.temperature_c),
            t.minutes(mash.duration_minutes)
        );
        let water = mash_water.iter().find(|w| w.mash_step_id == mash.id);
        let description = water.and_then(|w| step_water_text(&mut t, w, mash.temperature_c));
        steps.push(step(t, title, description, Some(mash.duration_minutes)));
    }
    for misc in recipe
        .miscs
        .iter()
        .filter(|m| m.misc_use == MiscUse::Sparge)
    {
        let mut t = StepText::default();
        let title = format!(
            "Add {} {} to the sparge water",
            t.amount_with_unit(misc.amount, &misc.amount_unit),
            literal(&misc.name)
        );
        steps.push(step(t, title, misc.notes.as_deref().map(literal), None));
    }
    let mut t = StepText::default();
    match volumes {
        // A full-volume mash (all-in-one, brew in a bag) has all its water already: no sparge.
        Some(v) if v.strike_water_liters > 0.0 && v.sparge_water_liters <= 0.0 => {
            let drain = format!(
                "All the water is in the mash: lift the grain out or drain the tun; collect {} of wort.",
                t.liters(v.pre_boil_liters)
            );
            steps.push(step(
                t,
                "Drain the mash (no sparge)".to_owned(),
                Some(drain),
                None,
            ));
        }
        _ => {
            let sparge = volumes.map(|v| {
                format!(
                    "Sparge with {} of water; collect {} of wort.",
                    t.liters(v.sparge_water_liters),
                    t.liters(v.pre_boil_liters)
                )
            });
            steps.push(step(t, "Sparge and lauter".to_owned(), sparge, None));
        }
    }
    if let Some(v) = volumes {
        let mut t = StepText::default();
        let expect = format!(
            "Expect {} at {} before the boil; {} after it.",
            t.liters(v.pre_boil_liters),
            t.gravity(v.pre_boil_gravity),
            t.liters(v.post_boil_liters)
        );
        steps.push(step(
            t,
            "Check the pre-boil volume and gravity".to_owned(),
            Some(expect),
            None,
        ));
    }

    let mut boil: Vec<BoilAddition> = Vec::new();
    // Flame-out additions are due when the boil's countdown ends; whirlpool ones come after it.
    let mut flame_out: Vec<NewStep> = Vec::new();
    for hop in &recipe.hops {
        let mut t = StepText::default();
        let what = format!("{} {}", t.grams(hop.amount_grams), literal(&hop.name));
        let at = hop.time_minutes.min(boil_time).max(0.0);
        // A hop stand at a temperature (a `whirlpool`, or an `aroma` hop given one) steeps
        // after flame-out, as the bitterness counts it.
        if let (HopUse::Whirlpool | HopUse::Aroma, Some(stand_c)) = (hop.hop_use, hop.temperature_c)
        {
            let title = format!(
                "Whirlpool: add {what} for {} at {}",
                t.minutes(hop.time_minutes),
                t.celsius(stand_c)
            );
            flame_out.push(step(t, title, None, None));
            continue;
        }
        match hop.hop_use {
            HopUse::FirstWort => boil.push(BoilAddition {
                minutes_left: boil_time,
                first_wort: true,
                title: format!("Add {what} as a first-wort addition"),
                text: t,
            }),
            HopUse::Boil | HopUse::Aroma if at > 0.0 => boil.push(BoilAddition {
                minutes_left: at,
                first_wort: false,
                title: format!("Add {what} at {}", t.minutes(at)),
                text: t,
            }),
            HopUse::Boil | HopUse::Aroma => {
                flame_out.push(boil_addition(t, format!("At flame-out: add {what}"), 0.0));
            }
            HopUse::Whirlpool => {
                let title = format!("Whirlpool: add {what} for {}", t.minutes(hop.time_minutes));
                flame_out.push(step(t, title, None, None))
            }
            // Mash hops go in with the grain; dry hops come days later, not on brew day.
            HopUse::Mash | HopUse::DryHop => {}
        }
    }
    for misc in &recipe.miscs {
        let mut t = StepText::default();
        let what = format!(
            "{} {}",
            t.amount_with_unit(misc.amount, &misc.amount_unit),
            literal(&misc.name)
        );
        match misc.misc_use {
            MiscUse::Boil if misc.time_minutes > 0.0 => {
                let at = misc.time_minutes.min(boil_time);
                boil.push(BoilAddition {
                    minutes_left: at,
                    first_wort: false,
                    title: format!("Add {what} at {}", t.minutes(at)),
                    text: t,
                });
            }
            MiscUse::Boil => {
                flame_out.push(boil_addition(t, format!("At flame-out: add {what}"), 0.0));
            }
            MiscUse::Whirlpool => {
                flame_out.push(step(t, format!("Whirlpool: add {what}"), None, None))
            }
            _ => {}
        }
    }
    for hop in recipe.hops.iter().filter(|h| h.hop_use == HopUse::Mash) {
        // Mash hops belong with the mash steps, right after the strike water.
        let at = steps
            .iter()
            .position(|s| s.title.starts_with("Mash:"))
            .unwrap_or(1);
        let mut t = StepText::default();
        let title = format!(
            "Add {} {} to the mash",
            t.grams(hop.amount_grams),
            literal(&hop.name)
        );
        steps.insert(at, step(t, title, None, None));
    }
    // First wort first, then the longest remaining boil time; ties keep recipe order.
    boil.sort_by(|a, b| {
        b.first_wort
            .cmp(&a.first_wort)
            .then(b.minutes_left.total_cmp(&a.minutes_left))
    });
    let (first_wort, in_boil): (Vec<_>, Vec<_>) = boil.into_iter().partition(|a| a.first_wort);
    // First-wort hops go in while the wort is collected, before the boil's countdown starts.
    steps.extend(
        first_wort
            .into_iter()
            .map(|a| step(a.text, a.title, None, None)),
    );
    let mut t = StepText::default();
    let boil_for = format!("Boil for {}.", t.minutes(boil_time));
    steps.push(NewStep {
        boil: true,
        ..step(
            t,
            "Bring to a boil".to_owned(),
            Some(boil_for),
            Some(boil_time),
        )
    });
    steps.extend(
        in_boil
            .into_iter()
            .map(|a| boil_addition(a.text, a.title, a.minutes_left)),
    );
    steps.extend(flame_out);
    steps.push(plain("Chill the wort", None));
    let mut t = StepText::default();
    let transfer =
        volumes.map(|v| format!("{} into the fermenter.", t.liters(v.into_fermenter_liters)));
    steps.push(step(
        t,
        "Transfer to the fermenter".to_owned(),
        transfer,
        None,
    ));
    let yeasts: Vec<String> = recipe.yeasts.iter().map(|y| literal(&y.name)).collect();
    let pitch = if yeasts.is_empty() {
        None
    } else {
        Some(yeasts.join(", "))
    };
    steps.push(plain("Pitch yeast", pitch));
    steps
}
