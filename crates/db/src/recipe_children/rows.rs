//! The child tables as diesel sees them: one row struct per kind, with its conversions to the
//! domain entity, from an existing entity (a copy) and from a new one.

use diesel::prelude::*;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::recipe_children::{
    Fermentable, FermentableAddition, FermentableType, FermentationStep, Hop, HopForm, HopUse,
    MashStep, MashStepType, Misc, MiscType, MiscUse, NewFermentable, NewFermentationStep, NewHop,
    NewMashStep, NewMisc, NewWaterAddition, NewYeast, WaterAddition, WaterAgent, WaterStep, Yeast,
    YeastForm, YeastType,
};
use wort_domain::{DomainError, DomainResult, UserId};

use crate::schema::{
    fermentables, fermentation_steps, hops, mash_steps, miscs, water_additions, yeasts,
};

fn parse_enum<T>(value: &str, parse: impl Fn(&str) -> Option<T>) -> DomainResult<T> {
    parse(value).ok_or_else(|| DomainError::Internal(format!("unexpected stored value {value:?}")))
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
// Also read from a recipe read's nested JSON lists, each row an array of its columns in
// this order (`super::nested`).
#[derive(serde::Deserialize)]
#[diesel(table_name = fermentables, treat_none_as_null = true)]
pub(crate) struct FermentableRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) recipe_id: Uuid,
    pub(super) name: String,
    pub(super) kind: String,
    pub(super) amount_kg: f64,
    pub(super) color_srm: f64,
    pub(super) yield_percent: f64,
    pub(super) origin: Option<String>,
    pub(super) notes: Option<String>,
    pub(super) sort_order: i32,
    #[serde(deserialize_with = "super::nested::instant")]
    pub(super) created_at: OffsetDateTime,
    pub(super) catalog_id: Option<Uuid>,
    /// NULL on rows written before fermentables said when they go in: the type's default.
    pub(super) added: Option<String>,
}

impl FermentableRow {
    pub(crate) fn of(e: &Fermentable, user: UserId) -> Self {
        FermentableRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            kind: e.kind.as_str().to_owned(),
            amount_kg: e.amount_kg,
            color_srm: e.color_srm,
            yield_percent: e.yield_percent,
            origin: e.origin.clone(),
            notes: e.notes.clone(),
            sort_order: e.sort_order,
            created_at: e.created_at,
            catalog_id: e.catalog_id,
            added: Some(e.added.as_str().to_owned()),
        }
    }

    pub(super) fn entity(self) -> DomainResult<Fermentable> {
        let kind = parse_enum(&self.kind, FermentableType::parse)?;
        let added = match &self.added {
            Some(word) => parse_enum(word, FermentableAddition::parse)?,
            None => FermentableAddition::default_for(kind),
        };
        Ok(Fermentable {
            catalog_id: self.catalog_id,
            kind,
            added,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            amount_kg: self.amount_kg,
            color_srm: self.color_srm,
            yield_percent: self.yield_percent,
            origin: self.origin,
            notes: self.notes,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
// Also read from a recipe read's nested JSON lists, each row an array of its columns in
// this order (`super::nested`).
#[derive(serde::Deserialize)]
#[diesel(table_name = hops, treat_none_as_null = true)]
pub(crate) struct HopRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) recipe_id: Uuid,
    pub(super) name: String,
    pub(super) alpha_acid: f64,
    pub(super) amount_grams: f64,
    pub(super) time_minutes: f64,
    pub(super) hop_use: String,
    pub(super) sort_order: i32,
    #[serde(deserialize_with = "super::nested::instant")]
    pub(super) created_at: OffsetDateTime,
    pub(super) catalog_id: Option<Uuid>,
    pub(super) form: Option<String>,
    pub(super) temperature_c: Option<f64>,
}

impl HopRow {
    pub(crate) fn of(e: &Hop, user: UserId) -> Self {
        HopRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            alpha_acid: e.alpha_acid,
            amount_grams: e.amount_grams,
            time_minutes: e.time_minutes,
            hop_use: e.hop_use.as_str().to_owned(),
            sort_order: e.sort_order,
            created_at: e.created_at,
            catalog_id: e.catalog_id,
            form: e.form.map(|f| f.as_str().to_owned()),
            temperature_c: e.temperature_c,
        }
    }

    pub(super) fn entity(self) -> DomainResult<Hop> {
        Ok(Hop {
            catalog_id: self.catalog_id,
            hop_use: parse_enum(&self.hop_use, HopUse::parse)?,
            form: self
                .form
                .as_deref()
                .map(|f| parse_enum(f, HopForm::parse))
                .transpose()?,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            alpha_acid: self.alpha_acid,
            amount_grams: self.amount_grams,
            time_minutes: self.time_minutes,
            temperature_c: self.temperature_c,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
// Also read from a recipe read's nested JSON lists, each row an array of its columns in
// this order (`super::nested`).
#[derive(serde::Deserialize)]
#[diesel(table_name = yeasts, treat_none_as_null = true)]
pub(crate) struct YeastRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) recipe_id: Uuid,
    pub(super) name: String,
    pub(super) lab: Option<String>,
    pub(super) product_id: Option<String>,
    pub(super) kind: String,
    pub(super) form: Option<String>,
    pub(super) attenuation: Option<f64>,
    pub(super) min_temp_c: Option<f64>,
    pub(super) max_temp_c: Option<f64>,
    pub(super) amount: Option<f64>,
    pub(super) amount_unit: Option<String>,
    pub(super) notes: Option<String>,
    pub(super) sort_order: i32,
    #[serde(deserialize_with = "super::nested::instant")]
    pub(super) created_at: OffsetDateTime,
    pub(super) catalog_id: Option<Uuid>,
}

impl YeastRow {
    pub(crate) fn of(e: &Yeast, user: UserId) -> Self {
        YeastRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            lab: e.lab.clone(),
            product_id: e.product_id.clone(),
            kind: e.kind.as_str().to_owned(),
            form: e.form.map(|f| f.as_str().to_owned()),
            attenuation: e.attenuation,
            min_temp_c: e.min_temp_c,
            max_temp_c: e.max_temp_c,
            amount: e.amount,
            amount_unit: e.amount_unit.clone(),
            notes: e.notes.clone(),
            sort_order: e.sort_order,
            created_at: e.created_at,
            catalog_id: e.catalog_id,
        }
    }

    pub(super) fn entity(self) -> DomainResult<Yeast> {
        Ok(Yeast {
            catalog_id: self.catalog_id,
            kind: parse_enum(&self.kind, YeastType::parse)?,
            form: self
                .form
                .as_deref()
                .map(|f| parse_enum(f, YeastForm::parse))
                .transpose()?,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            lab: self.lab,
            product_id: self.product_id,
            attenuation: self.attenuation,
            min_temp_c: self.min_temp_c,
            max_temp_c: self.max_temp_c,
            amount: self.amount,
            amount_unit: self.amount_unit,
            notes: self.notes,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
// Also read from a recipe read's nested JSON lists, each row an array of its columns in
// this order (`super::nested`).
#[derive(serde::Deserialize)]
#[diesel(table_name = miscs, treat_none_as_null = true)]
pub(crate) struct MiscRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) recipe_id: Uuid,
    pub(super) name: String,
    pub(super) kind: String,
    pub(super) misc_use: String,
    pub(super) amount: f64,
    pub(super) amount_unit: String,
    pub(super) time_minutes: f64,
    pub(super) notes: Option<String>,
    pub(super) sort_order: i32,
    #[serde(deserialize_with = "super::nested::instant")]
    pub(super) created_at: OffsetDateTime,
    pub(super) catalog_id: Option<Uuid>,
}

impl MiscRow {
    pub(crate) fn of(e: &Misc, user: UserId) -> Self {
        MiscRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            kind: e.kind.as_str().to_owned(),
            misc_use: e.misc_use.as_str().to_owned(),
            amount: e.amount,
            amount_unit: e.amount_unit.clone(),
            time_minutes: e.time_minutes,
            notes: e.notes.clone(),
            sort_order: e.sort_order,
            created_at: e.created_at,
            catalog_id: e.catalog_id,
        }
    }

    pub(super) fn entity(self) -> DomainResult<Misc> {
        Ok(Misc {
            catalog_id: self.catalog_id,
            kind: parse_enum(&self.kind, MiscType::parse)?,
            misc_use: parse_enum(&self.misc_use, MiscUse::parse)?,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            amount: self.amount,
            amount_unit: self.amount_unit,
            time_minutes: self.time_minutes,
            notes: self.notes,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
// Also read from a recipe read's nested JSON lists, each row an array of its columns in
// this order (`super::nested`).
#[derive(serde::Deserialize)]
#[diesel(table_name = mash_steps, treat_none_as_null = true)]
pub(crate) struct MashStepRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) recipe_id: Uuid,
    pub(super) name: String,
    pub(super) kind: String,
    pub(super) temperature_c: f64,
    pub(super) duration_minutes: f64,
    pub(super) infuse_amount_liters: Option<f64>,
    pub(super) infuse_temperature_c: Option<f64>,
    pub(super) ramp_minutes: Option<f64>,
    pub(super) sort_order: i32,
    #[serde(deserialize_with = "super::nested::instant")]
    pub(super) created_at: OffsetDateTime,
}

impl MashStepRow {
    pub(crate) fn of(e: &MashStep, user: UserId) -> Self {
        MashStepRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            kind: e.kind.as_str().to_owned(),
            temperature_c: e.temperature_c,
            duration_minutes: e.duration_minutes,
            infuse_amount_liters: e.infuse_amount_liters,
            infuse_temperature_c: e.infuse_temperature_c,
            ramp_minutes: e.ramp_minutes,
            sort_order: e.sort_order,
            created_at: e.created_at,
        }
    }

    pub(super) fn entity(self) -> DomainResult<MashStep> {
        Ok(MashStep {
            kind: parse_enum(&self.kind, MashStepType::parse)?,
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            temperature_c: self.temperature_c,
            duration_minutes: self.duration_minutes,
            infuse_amount_liters: self.infuse_amount_liters,
            infuse_temperature_c: self.infuse_temperature_c,
            ramp_minutes: self.ramp_minutes,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }
}

// ---- New rows -----------------------------------------------------------------------------------

/// Where a new child row goes: its id, owner, recipe and creation time.
pub(crate) struct RowPlace {
    pub id: Uuid,
    pub user: UserId,
    pub recipe_id: Uuid,
    pub now: OffsetDateTime,
}

impl FermentableRow {
    /// The row of a new fermentable; `append_at` is its `sort_order` when it names none.
    pub(crate) fn new(n: NewFermentable, at: &RowPlace, append_at: i32) -> Self {
        FermentableRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            kind: n.kind.as_str().to_owned(),
            amount_kg: n.amount_kg,
            color_srm: n.color_srm,
            yield_percent: n.yield_percent,
            origin: n.origin,
            notes: n.notes,
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
            catalog_id: n.catalog_id,
            added: Some(n.added.as_str().to_owned()),
        }
    }
}

impl HopRow {
    pub(crate) fn new(n: NewHop, at: &RowPlace, append_at: i32) -> Self {
        HopRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            alpha_acid: n.alpha_acid,
            amount_grams: n.amount_grams,
            time_minutes: n.time_minutes,
            hop_use: n.hop_use.as_str().to_owned(),
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
            catalog_id: n.catalog_id,
            form: n.form.map(|f| f.as_str().to_owned()),
            temperature_c: n.temperature_c,
        }
    }
}

impl YeastRow {
    pub(crate) fn new(n: NewYeast, at: &RowPlace, append_at: i32) -> Self {
        YeastRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            lab: n.lab,
            product_id: n.product_id,
            kind: n.kind.as_str().to_owned(),
            form: n.form.map(|f| f.as_str().to_owned()),
            attenuation: n.attenuation,
            min_temp_c: n.min_temp_c,
            max_temp_c: n.max_temp_c,
            amount: n.amount,
            amount_unit: n.amount_unit,
            notes: n.notes,
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
            catalog_id: n.catalog_id,
        }
    }
}

impl MiscRow {
    pub(crate) fn new(n: NewMisc, at: &RowPlace, append_at: i32) -> Self {
        MiscRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            kind: n.kind.as_str().to_owned(),
            misc_use: n.misc_use.as_str().to_owned(),
            amount: n.amount,
            amount_unit: n.amount_unit,
            time_minutes: n.time_minutes,
            notes: n.notes,
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
            catalog_id: n.catalog_id,
        }
    }
}

impl MashStepRow {
    pub(crate) fn new(n: NewMashStep, at: &RowPlace, append_at: i32) -> Self {
        MashStepRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            kind: n.kind.as_str().to_owned(),
            temperature_c: n.temperature_c,
            duration_minutes: n.duration_minutes,
            infuse_amount_liters: n.infuse_amount_liters,
            infuse_temperature_c: n.infuse_temperature_c,
            ramp_minutes: n.ramp_minutes,
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
        }
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
// Also read from a recipe read's nested JSON lists, each row an array of its columns in
// this order (`super::nested`).
#[derive(serde::Deserialize)]
#[diesel(table_name = water_additions, treat_none_as_null = true)]
pub(crate) struct WaterAdditionRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) recipe_id: Uuid,
    pub(super) agent: String,
    pub(super) amount: f64,
    pub(super) strength_percent: Option<f64>,
    pub(super) acid_percent: Option<f64>,
    pub(super) step: String,
    pub(super) sort_order: i32,
    #[serde(deserialize_with = "super::nested::instant")]
    pub(super) created_at: OffsetDateTime,
}

impl WaterAdditionRow {
    pub(crate) fn of(e: &WaterAddition, user: UserId) -> Self {
        WaterAdditionRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            agent: e.agent.as_str().to_owned(),
            amount: e.amount,
            strength_percent: e.strength_percent,
            acid_percent: e.acid_percent,
            step: e.step.as_str().to_owned(),
            sort_order: e.sort_order,
            created_at: e.created_at,
        }
    }

    pub(super) fn entity(self) -> DomainResult<WaterAddition> {
        let agent = parse_enum(&self.agent, WaterAgent::parse)?;
        Ok(WaterAddition {
            unit: agent.unit(),
            agent,
            step: parse_enum(&self.step, WaterStep::parse)?,
            id: self.id,
            recipe_id: self.recipe_id,
            amount: self.amount,
            strength_percent: self.strength_percent,
            acid_percent: self.acid_percent,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }

    pub(crate) fn new(n: NewWaterAddition, at: &RowPlace, append_at: i32) -> Self {
        WaterAdditionRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            agent: n.agent.as_str().to_owned(),
            amount: n.amount,
            strength_percent: wort_domain::recipe_children::normal_strength(
                n.agent,
                n.strength_percent,
            ),
            acid_percent: wort_domain::recipe_children::normal_acid(n.agent, n.acid_percent),
            step: n.step.as_str().to_owned(),
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
        }
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Identifiable, Clone)]
// Also read from a recipe read's nested JSON lists, each row an array of its columns in
// this order (`super::nested`).
#[derive(serde::Deserialize)]
#[diesel(table_name = fermentation_steps, treat_none_as_null = true)]
pub(crate) struct FermentationStepRow {
    pub(super) id: Uuid,
    pub(super) user_id: Uuid,
    pub(super) recipe_id: Uuid,
    pub(super) name: String,
    pub(super) temperature_c: f64,
    pub(super) days: Option<f64>,
    pub(super) min_days: Option<f64>,
    pub(super) until_gravity: Option<f64>,
    pub(super) until_attenuation_percent: Option<f64>,
    pub(super) sort_order: i32,
    #[serde(deserialize_with = "super::nested::instant")]
    pub(super) created_at: OffsetDateTime,
}

impl FermentationStepRow {
    pub(crate) fn of(e: &FermentationStep, user: UserId) -> Self {
        FermentationStepRow {
            id: e.id,
            user_id: user.0,
            recipe_id: e.recipe_id,
            name: e.name.clone(),
            temperature_c: e.temperature_c,
            days: e.days,
            min_days: e.min_days,
            until_gravity: e.until_gravity,
            until_attenuation_percent: e.until_attenuation_percent,
            sort_order: e.sort_order,
            created_at: e.created_at,
        }
    }

    pub(super) fn entity(self) -> DomainResult<FermentationStep> {
        Ok(FermentationStep {
            id: self.id,
            recipe_id: self.recipe_id,
            name: self.name,
            temperature_c: self.temperature_c,
            days: self.days,
            min_days: self.min_days,
            until_gravity: self.until_gravity,
            until_attenuation_percent: self.until_attenuation_percent,
            sort_order: self.sort_order,
            created_at: self.created_at,
        })
    }

    pub(crate) fn new(n: NewFermentationStep, at: &RowPlace, append_at: i32) -> Self {
        FermentationStepRow {
            id: at.id,
            user_id: at.user.0,
            recipe_id: at.recipe_id,
            name: n.name,
            temperature_c: n.temperature_c,
            days: n.days,
            min_days: n.min_days,
            until_gravity: n.until_gravity,
            until_attenuation_percent: n.until_attenuation_percent,
            sort_order: n.sort_order.unwrap_or(append_at),
            created_at: at.now,
        }
    }
}
