//! Recipe checks: what a careful brewer would point out about a recipe before brewing it (a
//! 90-minute hop in a 60-minute boil, a kilogram of hops in 25 L, a mash that does not fit the
//! tun). Advice, never a refusal: every recipe can be saved; `GET /v1/recipes/{id}/checks` and
//! every import report list what these functions find.
//!
//! Each check names where it applies as a path into the recipe, a child by its id, not its
//! position (`["hops", "<id>", "time_minutes"]`), so a client can show it beside that field; its
//! message is written in the reader's units ("2.14 oz/gal" or "16 g/L"). The thresholds are
//! [`super::rules`]'s `CHECK_*` constants (docs/calculations.md, "Recipe checks").

use serde::{Deserialize, Serialize};

use super::model::{RecipeDetail, RecipeType};
use super::rules::{
    CHECK_CALCIUM_MAX, CHECK_CHLORIDE_MAX, CHECK_EFFICIENCY_MAX, CHECK_EFFICIENCY_MIN,
    CHECK_GRAIN_DISPLACEMENT_LITERS_PER_KG, CHECK_HOP_GRAMS_PER_LITER_MAX, CHECK_MAGNESIUM_MAX,
    CHECK_SODIUM_MAX, CHECK_SULFATE_MAX,
};
use crate::account::{AmountUnits, Preferences};
use crate::brewing::water::Ions;
use crate::brewing::{amount_text, mash, round_to, volumes};
use crate::equipment::EquipmentProfile;
use crate::quantities::{GRAMS_PER_OUNCE, LITERS_PER_GALLON, Quantity, QuantityKind};
use crate::recipe_children::{HopUse, MashStep, text_enum};

text_enum! {
    /// How much a check matters: `error` (the recipe cannot be brewed as written), `warning`
    /// (it can, but probably not as meant), `info` (unusual, worth a look).
    Severity {
        Error => "error",
        Warning => "warning",
        Info => "info",
    }
}

text_enum! {
    /// What a check is about; stable codes a client can act on.
    CheckCode {
        HopTimeExceedsBoil => "hop_time_exceeds_boil",
        HopRateHigh => "hop_rate_high",
        NoFermentables => "no_fermentables",
        NoYeast => "no_yeast",
        NoMashSteps => "no_mash_steps",
        EfficiencyUnusual => "efficiency_unusual",
        MashExceedsCapacity => "mash_exceeds_capacity",
        WaterIonHigh => "water_ion_high",
        InfusionImpossible => "infusion_impossible",
    }
}

impl CheckCode {
    pub fn severity(self) -> Severity {
        match self {
            Self::NoFermentables | Self::MashExceedsCapacity | Self::InfusionImpossible => {
                Severity::Error
            }
            Self::HopTimeExceedsBoil
            | Self::HopRateHigh
            | Self::NoYeast
            | Self::NoMashSteps
            | Self::WaterIonHigh => Severity::Warning,
            Self::EfficiencyUnusual => Severity::Info,
        }
    }
}

/// One thing worth pointing out about a recipe.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Check {
    pub code: CheckCode,
    pub severity: Severity,
    /// Where it applies: a recipe field (`["efficiency"]`), a list (`["yeasts"]`), or a child's
    /// field named by the child's id (`["hops", "<id>", "time_minutes"]`).
    pub path: Vec<String>,
    /// For a person, in their display units.
    pub message: String,
}

impl Check {
    fn new(code: CheckCode, path: &[&str], message: String) -> Self {
        Check {
            code,
            severity: code.severity(),
            path: path.iter().map(|s| (*s).to_owned()).collect(),
            message,
        }
    }
}

/// `GET /v1/recipes/{id}/checks`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecipeChecks {
    pub checks: Vec<Check>,
}

/// A recipe as `GET /v1/recipes/{id}` gives it, with its checks: each recipe of an import report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckedRecipe {
    #[serde(flatten)]
    pub recipe: RecipeDetail,
    /// As `GET /v1/recipes/{id}/checks` gives them.
    pub checks: Vec<Check>,
}

/// What the checks read besides the recipe.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckContext<'a> {
    /// The equipment profile the recipe names, if any (its volumes and mash tun).
    pub equipment: Option<&'a EquipmentProfile>,
    /// The mash water after the mash additions, as `/water` computes it (`water::recipe_water`).
    pub mash_water: Option<Ions>,
}

/// Every check `recipe` gives rise to, in a stable order: the recipe's own fields, then its
/// lists, hop by hop in recipe order, then the mash tun and the water.
pub fn check_recipe(
    recipe: &RecipeDetail,
    context: &CheckContext<'_>,
    prefs: &Preferences,
) -> Vec<Check> {
    let mut out = Vec::new();
    let r = &recipe.recipe;
    if recipe.fermentables.is_empty() {
        out.push(Check::new(
            CheckCode::NoFermentables,
            &["fermentables"],
            "No fermentables: there is nothing to make wort from.".to_owned(),
        ));
    }
    if recipe.yeasts.is_empty() {
        out.push(Check::new(
            CheckCode::NoYeast,
            &["yeasts"],
            "No yeast: nothing ferments, so the final gravity stays at the original gravity."
                .to_owned(),
        ));
    }
    if r.kind == RecipeType::AllGrain && recipe.mash_steps.is_empty() {
        out.push(Check::new(
            CheckCode::NoMashSteps,
            &["mash_steps"],
            "An all-grain recipe without mash steps: add the rest (or rests) the grain is mashed at."
                .to_owned(),
        ));
    }
    if r.efficiency < CHECK_EFFICIENCY_MIN || r.efficiency > CHECK_EFFICIENCY_MAX {
        let side = if r.efficiency < CHECK_EFFICIENCY_MIN {
            "low"
        } else {
            "high"
        };
        out.push(Check::new(
            CheckCode::EfficiencyUnusual,
            &["efficiency"],
            format!(
                "An efficiency of {} % is unusually {side}: brewhouses get {} to {} %.",
                amount_text(round_to(r.efficiency * 100.0, 1)),
                amount_text(CHECK_EFFICIENCY_MIN * 100.0),
                amount_text(CHECK_EFFICIENCY_MAX * 100.0),
            ),
        ));
    }
    hop_checks(recipe, prefs, &mut out);
    if let Some(profile) = context.equipment {
        mash_capacity(recipe, profile, prefs, &mut out);
    }
    infusions(recipe, context.equipment, prefs, &mut out);
    if let Some(ions) = context.mash_water {
        water_ions(ions, &mut out);
    }
    out
}

/// A boil or first-wort hop longer than the boil (each), and the hot-side hop rate.
fn hop_checks(recipe: &RecipeDetail, prefs: &Preferences, out: &mut Vec<Check>) {
    let r = &recipe.recipe;
    let minutes = |m: f64| Quantity::new(QuantityKind::Duration, m).display(prefs);
    for hop in &recipe.hops {
        if matches!(hop.hop_use, HopUse::Boil | HopUse::FirstWort)
            && hop.time_minutes > r.boil_time_minutes
        {
            let id = hop.id.to_string();
            out.push(Check::new(
                CheckCode::HopTimeExceedsBoil,
                &["hops", &id, "time_minutes"],
                format!(
                    "{}: {} is longer than the {} boil; it is counted, and added, at {}.",
                    short_name(&hop.name),
                    minutes(hop.time_minutes),
                    minutes(r.boil_time_minutes),
                    minutes(r.boil_time_minutes),
                ),
            ));
        }
    }
    // The hops that meet hot wort: everything but mash hops and dry hops.
    let hot_grams: f64 = recipe
        .hops
        .iter()
        .filter(|h| {
            matches!(
                h.hop_use,
                HopUse::Boil | HopUse::FirstWort | HopUse::Aroma | HopUse::Whirlpool
            )
        })
        .map(|h| h.amount_grams.max(0.0))
        .sum();
    if r.batch_size_liters > 0.0 {
        let rate = hot_grams / r.batch_size_liters;
        if rate > CHECK_HOP_GRAMS_PER_LITER_MAX {
            out.push(Check::new(
                CheckCode::HopRateHigh,
                &["hops"],
                format!(
                    "{} of hops in the boil and whirlpool is {} of batch, more than {}: the \
                     hops soak up wort and the bitterness saturates well below the estimate.",
                    Quantity::new(QuantityKind::Mass, hot_grams).display(prefs),
                    hop_rate_text(rate, prefs),
                    hop_rate_text(CHECK_HOP_GRAMS_PER_LITER_MAX, prefs),
                ),
            ));
        }
    }
}

/// The longest ingredient name a message quotes: an import of many recipes with many hops keeps
/// its answer in proportion to the recipes, whatever their names.
pub const MESSAGE_NAME_MAX_CHARS: usize = 40;

/// `name`, cut to [`MESSAGE_NAME_MAX_CHARS`] with an ellipsis.
fn short_name(name: &str) -> String {
    if name.chars().count() <= MESSAGE_NAME_MAX_CHARS {
        return name.to_owned();
    }
    let mut cut: String = name.chars().take(MESSAGE_NAME_MAX_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// A hop rate in the reader's units: "40 g/L" or "5.34 oz/gal".
fn hop_rate_text(grams_per_liter: f64, prefs: &Preferences) -> String {
    match prefs.amounts {
        AmountUnits::Us => format!(
            "{:.2} oz/gal",
            grams_per_liter * LITERS_PER_GALLON / GRAMS_PER_OUNCE
        ),
        AmountUnits::Metric => format!("{} g/L", amount_text(round_to(grams_per_liter, 1))),
    }
}

/// Strike water plus the grain's own volume against what the mash tun holds.
fn mash_capacity(
    recipe: &RecipeDetail,
    profile: &EquipmentProfile,
    prefs: &Preferences,
    out: &mut Vec<Check>,
) {
    let Some(capacity) = profile.mash_tun_volume_liters else {
        return;
    };
    let input = recipe.stats_input();
    let grain_kg = volumes::mashed_grain_kg(&input);
    let water = volumes::volumes(profile, &input).strike_water_liters;
    let grain = CHECK_GRAIN_DISPLACEMENT_LITERS_PER_KG * grain_kg;
    let needed = water + grain;
    if grain_kg > 0.0 && needed > capacity {
        let volume = |l: f64| Quantity::new(QuantityKind::Volume, l).display(prefs);
        out.push(Check::new(
            CheckCode::MashExceedsCapacity,
            &["equipment_id"],
            format!(
                "The mash takes {} ({} of strike water and {} of grain) but the mash tun holds {}.",
                volume(needed),
                volume(water),
                volume(grain),
                volume(capacity),
            ),
        ));
    }
}

/// Each step-mash infusion no water can do (`brewing::mash`): water not hotter than the rest, a
/// rest below the one before, or a set volume that would need water above boiling.
fn infusions(
    recipe: &RecipeDetail,
    profile: Option<&EquipmentProfile>,
    prefs: &Preferences,
    out: &mut Vec<Check>,
) {
    let water = mash::recipe_mash_water(&recipe.stats_input(), profile, &recipe.mash_steps);
    let celsius = |c: f64| Quantity::new(QuantityKind::Temperature, c).display(prefs);
    let mut previous: Option<&MashStep> = None;
    for (step, w) in recipe.mash_steps.iter().zip(&water) {
        if w.impossible {
            let id = step.id.to_string();
            let from = previous.map_or(step.temperature_c, |p| p.temperature_c);
            let why = match w.infusion_temperature_c {
                _ if step.temperature_c < from => format!(
                    "the rest is cooler than the {} before it, and hot water cannot cool a mash",
                    celsius(from)
                ),
                Some(t) if t > mash::BOILING_C => format!(
                    "its {} of water would have to be at {}, above boiling",
                    Quantity::new(
                        QuantityKind::Volume,
                        step.infuse_amount_liters.unwrap_or(0.0)
                    )
                    .display(prefs),
                    celsius(t)
                ),
                Some(t) => format!("water at {} is not hotter than the rest", celsius(t)),
                None => "no water can reach it".to_owned(),
            };
            let field = if step.infuse_temperature_c.is_some() {
                "infuse_temperature_c"
            } else if step.infuse_amount_liters.is_some() && step.temperature_c >= from {
                "infuse_amount_liters"
            } else {
                "temperature_c"
            };
            out.push(Check::new(
                CheckCode::InfusionImpossible,
                &["mash_steps", &id, field],
                format!(
                    "{}: an infusion cannot bring the mash to {}: {why}. Heat the mash directly (a temperature step) or change the water.",
                    short_name(&step.name),
                    celsius(step.temperature_c),
                ),
            ));
        }
        previous = Some(step);
    }
}

/// Each ion of the mash water above its limit.
fn water_ions(ions: Ions, out: &mut Vec<Check>) {
    let limits = [
        ("Calcium", ions.calcium, CHECK_CALCIUM_MAX),
        ("Magnesium", ions.magnesium, CHECK_MAGNESIUM_MAX),
        ("Sodium", ions.sodium, CHECK_SODIUM_MAX),
        ("Sulfate", ions.sulfate, CHECK_SULFATE_MAX),
        ("Chloride", ions.chloride, CHECK_CHLORIDE_MAX),
    ];
    for (ion, value, max) in limits {
        // Judged as `/water` shows it, to 0.1 mg/L.
        let shown = round_to(value, 1);
        if shown > max {
            out.push(Check::new(
                CheckCode::WaterIonHigh,
                &["water_additions"],
                format!(
                    "{ion} in the mash water is {} mg/L after the additions, above {} mg/L.",
                    amount_text(round_to(shown, 0)),
                    amount_text(max),
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;
    use uuid::Uuid;

    use super::*;
    use crate::account::TemperatureDisplay;
    use crate::brewing::fixtures::{fermentable, hop, yeast};
    use crate::equipment::MashMethod;
    use crate::recipe::Recipe;
    use crate::recipe_children::FermentableType::{Grain, Sugar};
    use crate::recipe_children::{MashStep, MashStepType};

    fn mash_step() -> MashStep {
        MashStep {
            id: Uuid::new_v4(),
            recipe_id: Uuid::nil(),
            name: "Saccharification".into(),
            kind: MashStepType::Infusion,
            temperature_c: 66.0,
            duration_minutes: 60.0,
            infuse_amount_liters: None,
            infuse_temperature_c: None,
            ramp_minutes: None,
            sort_order: 0,
            created_at: datetime!(2026-11-22 09:30:00 UTC),
        }
    }

    /// A 25 L all-grain pale ale with nothing to point out.
    fn sound() -> RecipeDetail {
        RecipeDetail {
            recipe: Recipe {
                id: Uuid::new_v4(),
                user_id: Uuid::nil().to_string(),
                name: "Pale".into(),
                style: String::new(),
                kind: RecipeType::AllGrain,
                batch_size_liters: 25.0,
                boil_time_minutes: 60.0,
                efficiency: 0.72,
                notes: None,
                equipment_id: None,
                style_id: None,
                water_profile_id: None,
                target_water_profile_id: None,
                parent_recipe_id: None,
                parent_version: None,
                source_url: None,
                est_color_srm: 0.0,
                created_at: datetime!(2026-11-22 09:30:00 UTC),
                updated_at: datetime!(2026-11-22 09:30:00 UTC),
            },
            fermentables: vec![fermentable(Grain, 5.0, 3.0, 80.0)],
            hops: vec![
                hop(HopUse::Boil, 10.0, 30.0, 60.0),
                hop(HopUse::Whirlpool, 10.0, 50.0, 20.0),
                hop(HopUse::DryHop, 10.0, 100.0, 4320.0),
            ],
            yeasts: vec![yeast(Some(78.0))],
            miscs: vec![],
            mash_steps: vec![mash_step()],
            water_additions: vec![],
            fermentation_steps: vec![],
        }
    }

    fn metric() -> Preferences {
        Preferences::default()
    }

    fn us() -> Preferences {
        Preferences {
            amounts: AmountUnits::Us,
            temperature: TemperatureDisplay::F,
            ..Preferences::default()
        }
    }

    fn run(recipe: &RecipeDetail, context: &CheckContext<'_>) -> Vec<Check> {
        check_recipe(recipe, context, &metric())
    }

    fn codes(checks: &[Check]) -> Vec<&'static str> {
        checks.iter().map(|c| c.code.as_str()).collect()
    }

    fn has(checks: &[Check], code: CheckCode) -> bool {
        checks.iter().any(|c| c.code == code)
    }

    fn only(checks: &[Check], code: CheckCode) -> &Check {
        let found: Vec<_> = checks.iter().filter(|c| c.code == code).collect();
        assert_eq!(found.len(), 1, "{checks:?}");
        found[0]
    }

    #[test]
    fn a_sound_recipe_has_no_checks() {
        assert_eq!(codes(&run(&sound(), &CheckContext::default())), [""; 0]);
    }

    #[test]
    fn hop_time_exceeds_boil_appears_for_boil_and_first_wort_hops() {
        // The case: a 90-minute hop in a 60-minute boil.
        let mut r = sound();
        r.hops[0].time_minutes = 90.0;
        r.hops[0].name = "Magnum".into();
        let checks = run(&r, &CheckContext::default());
        let c = only(&checks, CheckCode::HopTimeExceedsBoil);
        assert_eq!(
            c.path,
            [
                "hops".to_owned(),
                r.hops[0].id.to_string(),
                "time_minutes".to_owned()
            ]
        );
        assert_eq!(c.severity, Severity::Warning);
        assert_eq!(
            c.message,
            "Magnum: 90 min is longer than the 60 min boil; it is counted, and added, at 60 min."
        );
        // A long name is cut in the message (the path names the hop whole).
        let mut named = sound();
        named.hops[0].time_minutes = 90.0;
        named.hops[0].name = "H".repeat(300);
        let found = run(&named, &CheckContext::default());
        let message = &only(&found, CheckCode::HopTimeExceedsBoil).message;
        assert!(
            message.starts_with(&format!("{}…: 90 min", "H".repeat(39))),
            "{message}"
        );
        let mut fwh = sound();
        fwh.hops[0].hop_use = HopUse::FirstWort;
        fwh.hops[0].time_minutes = 75.0;
        assert!(has(
            &run(&fwh, &CheckContext::default()),
            CheckCode::HopTimeExceedsBoil
        ));
    }

    #[test]
    fn hop_time_exceeds_boil_stays_away_at_the_boil_and_for_other_uses() {
        let mut r = sound();
        r.hops[0].time_minutes = 60.0;
        // A whirlpool, aroma, mash or dry hop may be longer than the boil: it is not boiled.
        r.hops[1].time_minutes = 90.0;
        r.hops.push(hop(HopUse::Mash, 5.0, 10.0, 75.0));
        r.hops.push(hop(HopUse::Aroma, 5.0, 10.0, 80.0));
        assert!(!has(
            &run(&r, &CheckContext::default()),
            CheckCode::HopTimeExceedsBoil
        ));
    }

    #[test]
    fn hop_rate_high_appears_over_25_grams_per_litre_hot_side() {
        // The case: 1 kg of hops at 30 minutes in 25 L (40 g/L).
        let mut r = sound();
        r.hops = vec![hop(HopUse::Boil, 5.0, 1000.0, 30.0)];
        let checks = run(&r, &CheckContext::default());
        let c = only(&checks, CheckCode::HopRateHigh);
        assert_eq!(c.path, ["hops"]);
        assert!(c.message.starts_with("1 kg of hops"), "{}", c.message);
        assert!(
            c.message.contains("is 40 g/L of batch, more than 25 g/L"),
            "{}",
            c.message
        );
        // In US units: 40 g/L = 40 × 3.785411784 / 28.349523125 = 5.34 oz/gal; 25 g/L = 3.34.
        let us = check_recipe(&r, &CheckContext::default(), &us());
        let c = only(&us, CheckCode::HopRateHigh);
        assert!(c.message.starts_with("2.20 lb of hops"), "{}", c.message);
        assert!(
            c.message
                .contains("5.34 oz/gal of batch, more than 3.34 oz/gal"),
            "{}",
            c.message
        );
        // Boil, first wort and whirlpool count together: 300 + 200 + 150 g = 650 g = 26 g/L.
        let mut split = sound();
        split.hops = vec![
            hop(HopUse::Boil, 5.0, 300.0, 60.0),
            hop(HopUse::FirstWort, 5.0, 200.0, 60.0),
            hop(HopUse::Whirlpool, 5.0, 150.0, 20.0),
        ];
        assert!(has(
            &run(&split, &CheckContext::default()),
            CheckCode::HopRateHigh
        ));
    }

    #[test]
    fn hop_rate_high_stays_away_at_25_grams_per_litre_and_for_dry_hops() {
        // Exactly 25 g/L (625 g in 25 L) is not over; 2 kg of dry hops never count.
        let mut r = sound();
        r.hops = vec![
            hop(HopUse::Boil, 5.0, 400.0, 60.0),
            hop(HopUse::Whirlpool, 5.0, 225.0, 20.0),
            hop(HopUse::DryHop, 5.0, 2000.0, 4320.0),
            hop(HopUse::Mash, 5.0, 500.0, 60.0),
        ];
        assert!(!has(
            &run(&r, &CheckContext::default()),
            CheckCode::HopRateHigh
        ));
    }

    #[test]
    fn no_fermentables_appears_and_stays_away() {
        let mut r = sound();
        r.fermentables.clear();
        let checks = run(&r, &CheckContext::default());
        let c = only(&checks, CheckCode::NoFermentables);
        assert_eq!(
            (c.severity, c.path.clone()),
            (Severity::Error, vec!["fermentables".to_owned()])
        );
        // Sugar alone is a fermentable too.
        let mut sugar = sound();
        sugar.fermentables = vec![fermentable(Sugar, 1.0, 0.0, 100.0)];
        assert!(!has(
            &run(&sugar, &CheckContext::default()),
            CheckCode::NoFermentables
        ));
    }

    #[test]
    fn no_yeast_appears_and_stays_away() {
        let mut r = sound();
        r.yeasts.clear();
        let c = only(&run(&r, &CheckContext::default()), CheckCode::NoYeast).clone();
        assert_eq!(c.path, ["yeasts"]);
        assert!(!has(
            &run(&sound(), &CheckContext::default()),
            CheckCode::NoYeast
        ));
    }

    #[test]
    fn no_mash_steps_appears_only_for_all_grain() {
        let mut r = sound();
        r.mash_steps.clear();
        let c = only(&run(&r, &CheckContext::default()), CheckCode::NoMashSteps).clone();
        assert_eq!(c.path, ["mash_steps"]);
        // An extract or partial-mash recipe without mash steps is fine; so is all-grain with one.
        for kind in [RecipeType::Extract, RecipeType::PartialMash] {
            r.recipe.kind = kind;
            assert!(!has(
                &run(&r, &CheckContext::default()),
                CheckCode::NoMashSteps
            ));
        }
        assert!(!has(
            &run(&sound(), &CheckContext::default()),
            CheckCode::NoMashSteps
        ));
    }

    #[test]
    fn efficiency_unusual_appears_below_half_and_above_95_percent() {
        for (efficiency, side) in [(0.45, "low"), (0.96, "high"), (0.0, "low"), (1.0, "high")] {
            let mut r = sound();
            r.recipe.efficiency = efficiency;
            let checks = run(&r, &CheckContext::default());
            let c = only(&checks, CheckCode::EfficiencyUnusual);
            assert_eq!(
                (c.severity, c.path.clone()),
                (Severity::Info, vec!["efficiency".to_owned()])
            );
            assert!(
                c.message.contains(&format!("unusually {side}")),
                "{}",
                c.message
            );
        }
        let mut r = sound();
        r.recipe.efficiency = 0.45;
        assert!(
            only(
                &run(&r, &CheckContext::default()),
                CheckCode::EfficiencyUnusual
            )
            .message
            .starts_with("An efficiency of 45 %")
        );
    }

    #[test]
    fn efficiency_unusual_stays_away_within_the_bounds() {
        for efficiency in [0.5, 0.72, 0.95] {
            let mut r = sound();
            r.recipe.efficiency = efficiency;
            assert!(
                !has(
                    &run(&r, &CheckContext::default()),
                    CheckCode::EfficiencyUnusual
                ),
                "{efficiency}"
            );
        }
    }

    fn kit(method: MashMethod, tun: Option<f64>) -> EquipmentProfile {
        EquipmentProfile {
            boil_off_liters_per_hour: 3.0,
            trub_chiller_loss_liters: 1.5,
            mash_tun_deadspace_liters: 1.0,
            mash_method: method,
            mash_tun_volume_liters: tun,
            ..EquipmentProfile::lossless("Kit", 25.0)
        }
    }

    #[test]
    fn mash_exceeds_capacity_appears_when_water_and_grain_overflow_the_tun() {
        // 25 L, 5 kg: post-boil 26.5, pre-boil 29.5, mash water 29.5 + 1 + 5 = 35.5 L.
        // Full volume: 35.5 L of water + 0.67 × 5 = 3.35 L of grain = 38.85 L > 35 L.
        let r = sound();
        let biab = kit(MashMethod::FullVolume, Some(35.0));
        let context = CheckContext {
            equipment: Some(&biab),
            mash_water: None,
        };
        let checks = run(&r, &context);
        let c = only(&checks, CheckCode::MashExceedsCapacity);
        assert_eq!(
            (c.severity, c.path.clone()),
            (Severity::Error, vec!["equipment_id".to_owned()])
        );
        assert_eq!(
            c.message,
            "The mash takes 38.85 L (35.5 L of strike water and 3.35 L of grain) but the mash tun holds 35 L."
        );
        let us = check_recipe(&r, &context, &us());
        assert_eq!(
            only(&us, CheckCode::MashExceedsCapacity).message,
            "The mash takes 10.26 gal (9.38 gal of strike water and 0.88 gal of grain) but the mash tun holds 9.25 gal."
        );
    }

    #[test]
    fn mash_exceeds_capacity_stays_away_when_it_fits_or_nothing_is_said() {
        let r = sound();
        // With a sparge the strike is 2.7 × 5 + 1 = 14.5 L, + 3.35 L of grain = 17.85 L.
        for profile in [
            kit(MashMethod::Sparge, Some(35.0)),
            kit(MashMethod::FullVolume, Some(38.9)),
            kit(MashMethod::FullVolume, None),
        ] {
            let context = CheckContext {
                equipment: Some(&profile),
                mash_water: None,
            };
            assert!(
                !has(&run(&r, &context), CheckCode::MashExceedsCapacity),
                "{profile:?}"
            );
        }
        let small = kit(MashMethod::Sparge, Some(17.0));
        let context = CheckContext {
            equipment: Some(&small),
            mash_water: None,
        };
        assert!(has(&run(&r, &context), CheckCode::MashExceedsCapacity));
    }

    #[test]
    fn water_ion_high_appears_per_ion_over_its_limit() {
        let ions = Ions {
            calcium: 250.04,
            magnesium: 41.0,
            sodium: 151.0,
            sulfate: 620.0,
            chloride: 301.0,
            bicarbonate: 900.0,
        };
        let context = CheckContext {
            equipment: None,
            mash_water: Some(ions),
        };
        let checks = run(&sound(), &context);
        let messages: Vec<_> = checks
            .iter()
            .filter(|c| c.code == CheckCode::WaterIonHigh)
            .map(|c| c.message.as_str())
            .collect();
        // Calcium 250.04 shows as 250.0: not over. Bicarbonate has no limit.
        assert_eq!(
            messages,
            [
                "Magnesium in the mash water is 41 mg/L after the additions, above 40 mg/L.",
                "Sodium in the mash water is 151 mg/L after the additions, above 150 mg/L.",
                "Sulfate in the mash water is 620 mg/L after the additions, above 500 mg/L.",
                "Chloride in the mash water is 301 mg/L after the additions, above 300 mg/L.",
            ]
        );
        assert!(
            checks
                .iter()
                .filter(|c| c.code == CheckCode::WaterIonHigh)
                .all(|c| c.path == ["water_additions"] && c.severity == Severity::Warning)
        );
        let calcium = CheckContext {
            equipment: None,
            mash_water: Some(Ions {
                calcium: 251.0,
                ..Ions::default()
            }),
        };
        assert!(has(&run(&sound(), &calcium), CheckCode::WaterIonHigh));
    }

    #[test]
    fn water_ion_high_stays_away_at_the_limits() {
        let ions = Ions {
            calcium: 250.0,
            magnesium: 40.0,
            sodium: 150.0,
            sulfate: 500.0,
            chloride: 300.0,
            bicarbonate: 1000.0,
        };
        let context = CheckContext {
            equipment: None,
            mash_water: Some(ions),
        };
        assert!(!has(&run(&sound(), &context), CheckCode::WaterIonHigh));
    }

    fn rest(name: &str, temperature_c: f64) -> MashStep {
        MashStep {
            name: name.into(),
            temperature_c,
            ..mash_step()
        }
    }

    #[test]
    fn infusion_impossible_appears_for_water_no_hotter_than_the_rest() {
        // 5 kg struck with 13.5 L at 40 °C, then 63 °C with water at 60 °C.
        let mut r = sound();
        let mut step = rest("Saccharification", 63.0);
        step.infuse_temperature_c = Some(60.0);
        r.mash_steps = vec![rest("Ferulic", 40.0), step];
        let checks = check_recipe(&r, &CheckContext::default(), &us());
        let c = only(&checks, CheckCode::InfusionImpossible);
        assert_eq!(c.severity, Severity::Error);
        let id = r.mash_steps[1].id.to_string();
        assert_eq!(c.path, ["mash_steps", id.as_str(), "infuse_temperature_c"]);
        assert_eq!(
            c.message,
            "Saccharification: an infusion cannot bring the mash to 145 °F: water at 140 °F is not \
             hotter than the rest. Heat the mash directly (a temperature step) or change the water."
        );
        // A rest cooler than the one before, and a set volume too small for boiling water.
        r.mash_steps[1].infuse_temperature_c = None;
        r.mash_steps[1].temperature_c = 35.0;
        let c = only(
            &run(&r, &CheckContext::default()),
            CheckCode::InfusionImpossible,
        )
        .clone();
        assert_eq!(c.path[2], "temperature_c");
        assert!(c.message.contains("cooler than the 40 °C"), "{}", c.message);
        r.mash_steps[1].temperature_c = 63.0;
        r.mash_steps[1].infuse_amount_liters = Some(2.0);
        let c = only(
            &run(&r, &CheckContext::default()),
            CheckCode::InfusionImpossible,
        )
        .clone();
        assert_eq!(c.path[2], "infuse_amount_liters");
        assert!(c.message.contains("above boiling"), "{}", c.message);
    }

    #[test]
    fn infusion_impossible_stays_away_for_boiling_water_decoctions_and_direct_heat() {
        let mut r = sound();
        let mut decoction = rest("Decoction", 72.0);
        decoction.kind = MashStepType::Decoction;
        let mut heated = rest("Mash out", 78.0);
        heated.kind = MashStepType::Temperature;
        let mut hot = rest("Hot liquor", 67.0);
        hot.infuse_temperature_c = Some(85.0);
        r.mash_steps = vec![
            rest("Protein", 52.0),
            rest("Beta", 63.0),
            hot,
            decoction,
            heated,
        ];
        assert!(!has(
            &run(&r, &CheckContext::default()),
            CheckCode::InfusionImpossible
        ));
    }

    #[test]
    fn codes_and_severities_serialize_as_the_api_says() {
        let mut r = sound();
        r.yeasts.clear();
        let v = serde_json::to_value(RecipeChecks {
            checks: run(&r, &CheckContext::default()),
        })
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"checks": [{
                "code": "no_yeast",
                "severity": "warning",
                "path": ["yeasts"],
                "message": "No yeast: nothing ferments, so the final gravity stays at the original gravity."
            }]})
        );
    }
}
