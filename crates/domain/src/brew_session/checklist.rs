//! The brew-day checklist, generated once from the recipe when a brew session is created.

use super::model::NewStep;
use crate::brewing::Volumes;
use crate::brewing::volumes::{
    ASSUMED_GRAIN_TEMPERATURE_C, DEFAULT_MASH_THICKNESS_LITERS_PER_KG, strike_temperature_c,
};
use crate::ingredients::{HopUse, MiscUse};
use crate::recipe::RecipeDetail;

pub(crate) use crate::brewing::amount_text as amount;

fn step(title: String, description: Option<String>, duration_minutes: Option<f64>) -> NewStep {
    NewStep {
        title,
        description,
        sort_order: None,
        duration_minutes,
        boil: false,
        boil_addition_at: None,
    }
}

/// A step that goes into the boil `minutes_left` minutes before its end (0 at flame-out).
fn boil_addition(title: String, minutes_left: f64) -> NewStep {
    NewStep {
        boil_addition_at: Some(minutes_left),
        ..step(title, None, None)
    }
}

/// One addition during the boil, ordered by the time left in the boil (first wort first).
struct BoilAddition {
    minutes_left: f64,
    first_wort: bool,
    title: String,
}

/// The brew-day checklist, in brewing order: strike water, mash steps, sparge, boil, boil
/// additions (first wort first, then by time left), flame-out and whirlpool additions, chill,
/// transfer, pitch. Mash and sparge water agents join their stage; fermenter-side miscs
/// (primary, secondary, bottling) are not brew-day steps.
///
/// With an equipment profile's `volumes` (as `/stats` gives them) the steps say how much: the
/// strike water and its temperature, the sparge water, the pre-boil volume and gravity to check
/// before the boil, and the volume into the fermenter. Without, the steps are as they always were.
pub fn checklist(recipe: &RecipeDetail, volumes: Option<&Volumes>) -> Vec<NewStep> {
    let boil_time = recipe.recipe.boil_time_minutes;
    let mut steps = Vec::new();

    let first_rest = recipe.mash_steps.first();
    let strike = match (volumes, first_rest) {
        (Some(v), Some(first)) if v.strike_water_liters > 0.0 => {
            let temperature = strike_temperature_c(
                first.temperature_c,
                ASSUMED_GRAIN_TEMPERATURE_C,
                DEFAULT_MASH_THICKNESS_LITERS_PER_KG,
            );
            Some(format!(
                "Heat {} L of strike water to {} °C for a {} °C rest (grain at {} °C).",
                amount(v.strike_water_liters),
                amount(temperature),
                amount(first.temperature_c),
                amount(ASSUMED_GRAIN_TEMPERATURE_C)
            ))
        }
        (Some(v), None) if v.strike_water_liters > 0.0 => Some(format!(
            "Heat {} L of strike water.",
            amount(v.strike_water_liters)
        )),
        (_, Some(first)) => Some(match first.infuse_amount_liters {
            Some(liters) => format!(
                "Heat {} L of strike water for a {} °C rest.",
                amount(liters),
                amount(first.temperature_c)
            ),
            None => format!(
                "Heat the strike water for a {} °C rest.",
                amount(first.temperature_c)
            ),
        }),
        (_, None) => None,
    };
    steps.push(step("Heat strike water".to_owned(), strike, None));
    for misc in recipe.miscs.iter().filter(|m| m.misc_use == MiscUse::Mash) {
        steps.push(step(
            format!(
                "Add {} {} {} to the mash",
                amount(misc.amount),
                misc.amount_unit,
                misc.name
            ),
            misc.notes.clone(),
            None,
        ));
    }
    for mash in &recipe.mash_steps {
        steps.push(step(
            format!(
                "Mash: {} at {} °C for {} min",
                mash.name,
                amount(mash.temperature_c),
                amount(mash.duration_minutes)
            ),
            None,
            Some(mash.duration_minutes),
        ));
    }
    for misc in recipe
        .miscs
        .iter()
        .filter(|m| m.misc_use == MiscUse::Sparge)
    {
        steps.push(step(
            format!(
                "Add {} {} {} to the sparge water",
                amount(misc.amount),
                misc.amount_unit,
                misc.name
            ),
            misc.notes.clone(),
            None,
        ));
    }
    let sparge = volumes.map(|v| {
        format!(
            "Sparge with {} L of water; collect {} L of wort.",
            amount(v.sparge_water_liters),
            amount(v.pre_boil_liters)
        )
    });
    steps.push(step("Sparge and lauter".to_owned(), sparge, None));
    if let Some(v) = volumes {
        steps.push(step(
            "Check the pre-boil volume and gravity".to_owned(),
            Some(format!(
                "Expect {} L at {:.3} before the boil; {} L after it.",
                amount(v.pre_boil_liters),
                v.pre_boil_gravity,
                amount(v.post_boil_liters)
            )),
            None,
        ));
    }

    let mut boil: Vec<BoilAddition> = Vec::new();
    // Flame-out additions are due when the boil's countdown ends; whirlpool ones come after it.
    let mut flame_out: Vec<NewStep> = Vec::new();
    for hop in &recipe.hops {
        let what = format!("{} g {}", amount(hop.amount_grams), hop.name);
        let at = hop.time_minutes.min(boil_time).max(0.0);
        match hop.hop_use {
            HopUse::FirstWort => boil.push(BoilAddition {
                minutes_left: boil_time,
                first_wort: true,
                title: format!("Add {what} as a first-wort addition"),
            }),
            HopUse::Boil | HopUse::Aroma if at > 0.0 => boil.push(BoilAddition {
                minutes_left: at,
                first_wort: false,
                title: format!("Add {what} at {} min", amount(at)),
            }),
            HopUse::Boil | HopUse::Aroma => {
                flame_out.push(boil_addition(format!("At flame-out: add {what}"), 0.0));
            }
            HopUse::Whirlpool => flame_out.push(step(
                format!("Whirlpool: add {what} for {} min", amount(hop.time_minutes)),
                None,
                None,
            )),
            // Mash hops go in with the grain; dry hops come days later, not on brew day.
            HopUse::Mash | HopUse::DryHop => {}
        }
    }
    for misc in &recipe.miscs {
        let what = format!("{} {} {}", amount(misc.amount), misc.amount_unit, misc.name);
        match misc.misc_use {
            MiscUse::Boil if misc.time_minutes > 0.0 => {
                let at = misc.time_minutes.min(boil_time);
                boil.push(BoilAddition {
                    minutes_left: at,
                    first_wort: false,
                    title: format!("Add {what} at {} min", amount(at)),
                });
            }
            MiscUse::Boil => {
                flame_out.push(boil_addition(format!("At flame-out: add {what}"), 0.0));
            }
            MiscUse::Whirlpool => {
                flame_out.push(step(format!("Whirlpool: add {what}"), None, None))
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
        steps.insert(
            at,
            step(
                format!(
                    "Add {} g {} to the mash",
                    amount(hop.amount_grams),
                    hop.name
                ),
                None,
                None,
            ),
        );
    }
    // First wort first, then the longest remaining boil time; ties keep recipe order.
    boil.sort_by(|a, b| {
        b.first_wort
            .cmp(&a.first_wort)
            .then(b.minutes_left.total_cmp(&a.minutes_left))
    });
    let (first_wort, in_boil): (Vec<_>, Vec<_>) = boil.into_iter().partition(|a| a.first_wort);
    // First-wort hops go in while the wort is collected, before the boil's countdown starts.
    steps.extend(first_wort.into_iter().map(|a| step(a.title, None, None)));
    steps.push(NewStep {
        boil: true,
        ..step(
            "Bring to a boil".to_owned(),
            Some(format!("Boil for {} min.", amount(boil_time))),
            Some(boil_time),
        )
    });
    steps.extend(
        in_boil
            .into_iter()
            .map(|a| boil_addition(a.title, a.minutes_left)),
    );
    steps.extend(flame_out);
    steps.push(step("Chill the wort".to_owned(), None, None));
    let transfer =
        volumes.map(|v| format!("{} L into the fermenter.", amount(v.into_fermenter_liters)));
    steps.push(step("Transfer to the fermenter".to_owned(), transfer, None));
    let yeasts: Vec<&str> = recipe.yeasts.iter().map(|y| y.name.as_str()).collect();
    let pitch = if yeasts.is_empty() {
        None
    } else {
        Some(yeasts.join(", "))
    };
    steps.push(step("Pitch yeast".to_owned(), pitch, None));
    steps
}
