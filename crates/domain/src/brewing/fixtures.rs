//! Ingredient builders for the calculator's tests: only the fields the formulas read matter.

use time::macros::datetime;
use uuid::Uuid;

use crate::recipe_children::{
    Fermentable, FermentableAddition, FermentableType, Hop, HopUse, Yeast, YeastType,
};

pub fn fermentable(
    kind: FermentableType,
    amount_kg: f64,
    color_srm: f64,
    yield_percent: f64,
) -> Fermentable {
    Fermentable {
        catalog_id: None,
        id: Uuid::new_v4(),
        recipe_id: Uuid::nil(),
        name: format!("{} {amount_kg} kg", kind.as_str()),
        kind,
        amount_kg,
        color_srm,
        yield_percent,
        added: FermentableAddition::default_for(kind),
        origin: None,
        notes: None,
        sort_order: 0,
        created_at: datetime!(2026-11-22 09:30:00 UTC),
    }
}

pub fn hop(hop_use: HopUse, alpha_acid: f64, amount_grams: f64, time_minutes: f64) -> Hop {
    Hop {
        temperature_c: None,
        catalog_id: None,
        form: None,
        id: Uuid::new_v4(),
        recipe_id: Uuid::nil(),
        name: format!("{} {alpha_acid} %", hop_use.as_str()),
        alpha_acid,
        amount_grams,
        time_minutes,
        hop_use,
        sort_order: 0,
        created_at: datetime!(2026-11-22 09:30:00 UTC),
    }
}

pub fn yeast(attenuation: Option<f64>) -> Yeast {
    Yeast {
        catalog_id: None,
        id: Uuid::new_v4(),
        recipe_id: Uuid::nil(),
        name: "yeast".into(),
        lab: None,
        product_id: None,
        kind: YeastType::Ale,
        form: None,
        attenuation,
        min_temp_c: None,
        max_temp_c: None,
        amount: None,
        amount_unit: None,
        notes: None,
        sort_order: 0,
        created_at: datetime!(2026-11-22 09:30:00 UTC),
    }
}

/// A 20 L, 60-minute, 72 % recipe of these ingredients: the stats tests' usual batch.
pub fn twenty_liters<'a>(
    fermentables: &'a [Fermentable],
    hops: &'a [Hop],
    yeasts: &'a [Yeast],
) -> super::StatsInput<'a> {
    super::StatsInput {
        batch_size_liters: 20.0,
        boil_time_minutes: 60.0,
        efficiency: 0.72,
        fermentables,
        hops,
        yeasts,
    }
}
