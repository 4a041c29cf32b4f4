//! Recipe children: created and listed under their recipe, read/updated/deleted by their own id.
//!
//! `POST|GET /v1/recipes/{recipe_id}/<kind>` and `GET|PATCH|DELETE /v1/<kind>/{id}` for
//! fermentables, hops, yeasts, miscs, mash-steps, water-additions and fermentation-steps. Each kind
//! has one table of its body's fields and one reader, used by both create (required fields,
//! defaults) and update.

use actix_web::{HttpResponse, web};
use serde_json::Value;
use wort_domain::catalog::CatalogKind;
use wort_domain::error::Violation;
use wort_domain::recipe::{NewRecipeChild, RecipeChildKind, RecipeChildPatch};
use wort_domain::recipe_children::{
    DEFAULT_MISC_AMOUNT_UNIT, DEFAULT_MISC_TIME_MINUTES, Fermentable, FermentableAddition,
    FermentablePatch, FermentableType, FermentationStep, FermentationStepPatch, Hop, HopForm,
    HopPatch, HopUse, MashStep, MashStepPatch, MashStepType, Misc, MiscPatch, MiscType, MiscUse,
    NewFermentable, NewFermentationStep, NewHop, NewMashStep, NewMisc, NewWaterAddition, NewYeast,
    WaterAddition, WaterAdditionPatch, WaterAgent, WaterStep, Yeast, YeastForm, YeastPatch,
    YeastType, water_addition_violations,
};

use super::catalog::{check_link, fill_from_catalog};
use super::{created, resource};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, Choice, DefaultValue, FieldSpec, Kind, Missing, Mode, OnCreate, Reader,
};
use crate::caller::{CallerAndId, CallerAndRecipeId};
use crate::error::ApiResult;
use crate::state::AppState;
use wort_domain::recipe::rules;

/// Where the child sits in its list; appended when left out.
const SORT_ORDER: FieldSpec = FieldSpec::new("sort_order", Kind::Integer, OnCreate::Optional);

/// The catalogue item a child is filled from.
const CATALOG_ID: &str = "The ingredient catalogue item it is filled from: on create, every field of the item that is not sent is taken from it (name, alpha acid…); later changes of the item change nothing here.";

/// An enum shown with its domain type's schema, and its values.
macro_rules! choice {
    ($type:ty) => {
        Kind::Choice(Choice::inline::<$type>(|| {
            <$type>::ALL.iter().map(<$type>::as_str).collect()
        }))
    };
}

/// The create default of an enum: the variant the domain marks `#[default]`.
macro_rules! default_variant {
    ($type:ty) => {
        OnCreate::Default(DefaultValue::Variant(|| <$type>::default().as_str()))
    };
}

static FERMENTABLE: BodySpec = BodySpec {
    rules: rules::FERMENTABLE_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::new(
            "type",
            choice!(FermentableType),
            default_variant!(FermentableType),
        ),
        FieldSpec::required("amount_kg", Kind::Number),
        FieldSpec::required("color_srm", Kind::Number),
        FieldSpec::required("yield_percent", Kind::Number),
        FieldSpec::new("added", choice!(FermentableAddition), OnCreate::Optional).described(
            "When it goes in. Pre-boil gravity counts `mash` and `boil`; OG every one but \
             `fermenter`; a `fermenter` addition's sugar ferments completely and adds to the ABV \
             only. Default: `mash` for grain and adjunct, `boil` for every other type.",
        ),
        FieldSpec::clearable("origin", Kind::Text),
        FieldSpec::clearable("notes", Kind::Text),
        FieldSpec::clearable("catalog_id", Kind::Uuid).described(CATALOG_ID),
        SORT_ORDER,
    ],
};

static HOP: BodySpec = BodySpec {
    rules: rules::HOP_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::required("alpha_acid", Kind::Number),
        FieldSpec::required("amount_grams", Kind::Number),
        FieldSpec::required("time_minutes", Kind::Number),
        FieldSpec::new("use", choice!(HopUse), default_variant!(HopUse)),
        FieldSpec::clearable("form", choice!(HopForm))
            .described("Pellet 1.10, plug 1.02, leaf/extract/null 1.0 × Tinseth's utilisation."),
        FieldSpec::clearable("temperature_c", Kind::Number).described(
            "°C of a hop stand: a whirlpool or aroma steep after flame-out. Null: a quarter of a \
             whirlpool's minutes counts as boiling, an aroma hop counts its minutes of late boil. \
             With a temperature, the stand's minutes count by the isomerisation rate at that \
             temperature relative to boiling (Malowicki and Shellhammer 2005): all at 100 °C, \
             0.42 at 90 °C, 0.17 at 80 °C, none at 60 °C or below. Any other use: a non-null \
             value is 422, and a PATCH moving a hop to another use clears it.",
        ),
        FieldSpec::clearable("catalog_id", Kind::Uuid).described(CATALOG_ID),
        SORT_ORDER,
    ],
};

static YEAST: BodySpec = BodySpec {
    rules: rules::YEAST_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::clearable("lab", Kind::Text),
        FieldSpec::clearable("product_id", Kind::Text),
        FieldSpec::new("type", choice!(YeastType), default_variant!(YeastType)),
        FieldSpec::clearable("form", choice!(YeastForm)),
        FieldSpec::clearable("attenuation", Kind::Number),
        FieldSpec::clearable("min_temp_c", Kind::Number),
        FieldSpec::clearable("max_temp_c", Kind::Number),
        FieldSpec::clearable("amount", Kind::Number),
        FieldSpec::clearable("amount_unit", Kind::Text),
        FieldSpec::clearable("notes", Kind::Text),
        FieldSpec::clearable("catalog_id", Kind::Uuid).described(CATALOG_ID),
        SORT_ORDER,
    ],
};

static MISC: BodySpec = BodySpec {
    rules: rules::MISC_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::new("type", choice!(MiscType), default_variant!(MiscType)),
        FieldSpec::new("use", choice!(MiscUse), default_variant!(MiscUse)),
        FieldSpec::required("amount", Kind::Number),
        FieldSpec::new(
            "amount_unit",
            Kind::Text,
            OnCreate::Default(DefaultValue::Text(DEFAULT_MISC_AMOUNT_UNIT)),
        ),
        FieldSpec::new(
            "time_minutes",
            Kind::Number,
            OnCreate::Default(DefaultValue::Number(DEFAULT_MISC_TIME_MINUTES)),
        ),
        FieldSpec::clearable("notes", Kind::Text),
        FieldSpec::clearable("catalog_id", Kind::Uuid).described(CATALOG_ID),
        SORT_ORDER,
    ],
};

static MASH_STEP: BodySpec = BodySpec {
    rules: rules::MASH_STEP_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::new(
            "type",
            choice!(MashStepType),
            default_variant!(MashStepType),
        ),
        FieldSpec::required("temperature_c", Kind::Number),
        FieldSpec::required("duration_minutes", Kind::Number),
        FieldSpec::clearable("infuse_amount_liters", Kind::Number),
        FieldSpec::clearable("infuse_temperature_c", Kind::Number),
        FieldSpec::clearable("ramp_minutes", Kind::Number),
        SORT_ORDER,
    ],
};

static WATER_ADDITION: BodySpec = BodySpec {
    rules: rules::WATER_ADDITION_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("agent", choice!(WaterAgent)),
        FieldSpec::required("amount", Kind::Number).described(
            "g of a salt; ml of lactic_acid or phosphoric_acid; kg of acidulated_malt.",
        ),
        FieldSpec::clearable("strength_percent", Kind::Number).described(
            "% w/w of lactic_acid (default 88) or phosphoric_acid (default 10); refused for other agents.",
        ),
        FieldSpec::clearable("acid_percent", Kind::Number).described(
            "% lactic acid of acidulated_malt (default 2); refused for other agents.",
        ),
        FieldSpec::new("step", choice!(WaterStep), default_variant!(WaterStep))
            .described("Into the mash (strike) water or the sparge water."),
        SORT_ORDER,
    ],
};

static FERMENTATION_STEP: BodySpec = BodySpec {
    rules: rules::FERMENTATION_STEP_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::required("temperature_c", Kind::Number),
        FieldSpec::clearable("days", Kind::Number),
        FieldSpec::clearable("min_days", Kind::Number),
        FieldSpec::clearable("until_gravity", Kind::Number),
        FieldSpec::clearable("until_attenuation_percent", Kind::Number),
        SORT_ORDER,
    ],
};

fn spec(kind: RecipeChildKind) -> &'static BodySpec {
    match kind {
        RecipeChildKind::Fermentable => &FERMENTABLE,
        RecipeChildKind::Hop => &HOP,
        RecipeChildKind::Yeast => &YEAST,
        RecipeChildKind::Misc => &MISC,
        RecipeChildKind::MashStep => &MASH_STEP,
        RecipeChildKind::WaterAddition => &WATER_ADDITION,
        RecipeChildKind::FermentationStep => &FERMENTATION_STEP,
    }
}

#[allow(clippy::cast_possible_truncation)]
fn sort_order(r: &mut Reader) -> Option<i32> {
    // The domain's bound keeps it well inside `i32`.
    r.integer("sort_order").map(|n| n as i32)
}

fn read_fermentable(r: &mut Reader) -> FermentablePatch {
    FermentablePatch {
        name: r.text("name"),
        kind: r.enumeration("type", FermentableType::parse),
        amount_kg: r.number("amount_kg"),
        color_srm: r.number("color_srm"),
        yield_percent: r.number("yield_percent"),
        added: r.enumeration("added", FermentableAddition::parse),
        origin: r.nullable_text("origin"),
        notes: r.nullable_text("notes"),
        catalog_id: r.nullable_uuid("catalog_id"),
        sort_order: sort_order(r),
    }
}

fn read_hop(r: &mut Reader) -> HopPatch {
    HopPatch {
        name: r.text("name"),
        alpha_acid: r.number("alpha_acid"),
        amount_grams: r.number("amount_grams"),
        time_minutes: r.number("time_minutes"),
        hop_use: r.enumeration("use", HopUse::parse),
        form: r.nullable_enumeration("form", HopForm::parse),
        temperature_c: r.nullable_number("temperature_c"),
        catalog_id: r.nullable_uuid("catalog_id"),
        sort_order: sort_order(r),
    }
}

fn read_yeast(r: &mut Reader) -> YeastPatch {
    YeastPatch {
        name: r.text("name"),
        lab: r.nullable_text("lab"),
        product_id: r.nullable_text("product_id"),
        kind: r.enumeration("type", YeastType::parse),
        form: r.nullable_enumeration("form", YeastForm::parse),
        attenuation: r.nullable_number("attenuation"),
        min_temp_c: r.nullable_number("min_temp_c"),
        max_temp_c: r.nullable_number("max_temp_c"),
        amount: r.nullable_number("amount"),
        amount_unit: r.nullable_text("amount_unit"),
        notes: r.nullable_text("notes"),
        catalog_id: r.nullable_uuid("catalog_id"),
        sort_order: sort_order(r),
    }
}

fn read_misc(r: &mut Reader) -> MiscPatch {
    MiscPatch {
        name: r.text("name"),
        kind: r.enumeration("type", MiscType::parse),
        misc_use: r.enumeration("use", MiscUse::parse),
        amount: r.number("amount"),
        amount_unit: r.text("amount_unit"),
        time_minutes: r.number("time_minutes"),
        notes: r.nullable_text("notes"),
        catalog_id: r.nullable_uuid("catalog_id"),
        sort_order: sort_order(r),
    }
}

fn read_mash_step(r: &mut Reader) -> MashStepPatch {
    MashStepPatch {
        name: r.text("name"),
        kind: r.enumeration("type", MashStepType::parse),
        temperature_c: r.number("temperature_c"),
        duration_minutes: r.number("duration_minutes"),
        infuse_amount_liters: r.nullable_number("infuse_amount_liters"),
        infuse_temperature_c: r.nullable_number("infuse_temperature_c"),
        ramp_minutes: r.nullable_number("ramp_minutes"),
        sort_order: sort_order(r),
    }
}

fn read_water_addition(r: &mut Reader) -> WaterAdditionPatch {
    WaterAdditionPatch {
        agent: r.enumeration("agent", WaterAgent::parse),
        amount: r.number("amount"),
        strength_percent: r.nullable_number("strength_percent"),
        acid_percent: r.nullable_number("acid_percent"),
        step: r.enumeration("step", WaterStep::parse),
        sort_order: sort_order(r),
    }
}

fn read_fermentation_step(r: &mut Reader) -> FermentationStepPatch {
    FermentationStepPatch {
        name: r.text("name"),
        temperature_c: r.number("temperature_c"),
        days: r.nullable_number("days"),
        min_days: r.nullable_number("min_days"),
        until_gravity: r.nullable_number("until_gravity"),
        until_attenuation_percent: r.nullable_number("until_attenuation_percent"),
        sort_order: sort_order(r),
    }
}

/// A create body of `kind`: every field read, required ones reported when missing, defaults
/// filled in. Each `None` left is a required field not sent, which the reader reports.
pub fn read_new_child(
    kind: RecipeChildKind,
    body: &Value,
    link: Option<Violation>,
) -> ApiResult<NewRecipeChild> {
    let mut r = Reader::new(body, spec(kind), Mode::Create)?;
    let new = match kind {
        RecipeChildKind::Fermentable => {
            let p = read_fermentable(&mut r);
            let kind = p.kind.unwrap_or_default();
            NewRecipeChild::Fermentable(NewFermentable {
                catalog_id: p.catalog_id.flatten(),
                name: p.name.unwrap_or_default(),
                kind,
                added: p
                    .added
                    .unwrap_or_else(|| FermentableAddition::default_for(kind)),
                amount_kg: p.amount_kg.unwrap_or_default(),
                color_srm: p.color_srm.unwrap_or_default(),
                yield_percent: p.yield_percent.unwrap_or_default(),
                origin: p.origin.flatten(),
                notes: p.notes.flatten(),
                sort_order: p.sort_order,
            })
        }
        RecipeChildKind::Hop => {
            let p = read_hop(&mut r);
            if let Some(violation) = rules::hop_temperature_violation(
                p.hop_use.unwrap_or_default(),
                p.temperature_c.flatten(),
            ) {
                r.report(violation);
            }
            NewRecipeChild::Hop(NewHop {
                catalog_id: p.catalog_id.flatten(),
                name: p.name.unwrap_or_default(),
                alpha_acid: p.alpha_acid.unwrap_or_default(),
                amount_grams: p.amount_grams.unwrap_or_default(),
                time_minutes: p.time_minutes.unwrap_or_default(),
                hop_use: p.hop_use.unwrap_or_default(),
                form: p.form.flatten(),
                temperature_c: p.temperature_c.flatten(),
                sort_order: p.sort_order,
            })
        }
        RecipeChildKind::Yeast => {
            let p = read_yeast(&mut r);
            NewRecipeChild::Yeast(NewYeast {
                catalog_id: p.catalog_id.flatten(),
                name: p.name.unwrap_or_default(),
                lab: p.lab.flatten(),
                product_id: p.product_id.flatten(),
                kind: p.kind.unwrap_or_default(),
                form: p.form.flatten(),
                attenuation: p.attenuation.flatten(),
                min_temp_c: p.min_temp_c.flatten(),
                max_temp_c: p.max_temp_c.flatten(),
                amount: p.amount.flatten(),
                amount_unit: p.amount_unit.flatten(),
                notes: p.notes.flatten(),
                sort_order: p.sort_order,
            })
        }
        RecipeChildKind::Misc => {
            let p = read_misc(&mut r);
            NewRecipeChild::Misc(NewMisc {
                catalog_id: p.catalog_id.flatten(),
                name: p.name.unwrap_or_default(),
                kind: p.kind.unwrap_or_default(),
                misc_use: p.misc_use.unwrap_or_default(),
                amount: p.amount.unwrap_or_default(),
                amount_unit: p.amount_unit.unwrap_or_default(),
                time_minutes: p.time_minutes.unwrap_or_default(),
                notes: p.notes.flatten(),
                sort_order: p.sort_order,
            })
        }
        RecipeChildKind::MashStep => {
            let p = read_mash_step(&mut r);
            NewRecipeChild::MashStep(NewMashStep {
                name: p.name.unwrap_or_default(),
                kind: p.kind.unwrap_or_default(),
                temperature_c: p.temperature_c.unwrap_or_default(),
                duration_minutes: p.duration_minutes.unwrap_or_default(),
                infuse_amount_liters: p.infuse_amount_liters.flatten(),
                infuse_temperature_c: p.infuse_temperature_c.flatten(),
                ramp_minutes: p.ramp_minutes.flatten(),
                sort_order: p.sort_order,
            })
        }
        RecipeChildKind::WaterAddition => {
            let p = read_water_addition(&mut r);
            let strength = p.strength_percent.flatten();
            let acid = p.acid_percent.flatten();
            if let Some(agent) = p.agent {
                for violation in water_addition_violations(agent, strength, acid) {
                    r.report(violation);
                }
            }
            NewRecipeChild::WaterAddition(NewWaterAddition {
                agent: p.agent.unwrap_or(WaterAgent::Gypsum),
                amount: p.amount.unwrap_or_default(),
                strength_percent: strength,
                acid_percent: acid,
                step: p.step.unwrap_or_default(),
                sort_order: p.sort_order,
            })
        }
        RecipeChildKind::FermentationStep => {
            let p = read_fermentation_step(&mut r);
            if let Some(violation) =
                rules::min_days_violation(p.days.flatten(), p.min_days.flatten())
            {
                r.report(violation);
            }
            NewRecipeChild::FermentationStep(NewFermentationStep {
                name: p.name.unwrap_or_default(),
                temperature_c: p.temperature_c.unwrap_or_default(),
                days: p.days.flatten(),
                min_days: p.min_days.flatten(),
                until_gravity: p.until_gravity.flatten(),
                until_attenuation_percent: p.until_attenuation_percent.flatten(),
                sort_order: p.sort_order,
            })
        }
    };
    if let Some(violation) = link {
        r.report(violation);
    }
    r.finish(new)
}

/// A PATCH body of `kind` (`recipe_id` and other read-only fields are ignored).
pub fn read_child_patch(kind: RecipeChildKind, body: &Value) -> ApiResult<RecipeChildPatch> {
    let mut r = Reader::new(body, spec(kind), Mode::Update)?;
    let patch = match kind {
        RecipeChildKind::Fermentable => RecipeChildPatch::Fermentable(read_fermentable(&mut r)),
        RecipeChildKind::Hop => RecipeChildPatch::Hop(read_hop(&mut r)),
        RecipeChildKind::Yeast => RecipeChildPatch::Yeast(read_yeast(&mut r)),
        RecipeChildKind::Misc => RecipeChildPatch::Misc(read_misc(&mut r)),
        RecipeChildKind::MashStep => RecipeChildPatch::MashStep(read_mash_step(&mut r)),
        RecipeChildKind::WaterAddition => {
            RecipeChildPatch::WaterAddition(read_water_addition(&mut r))
        }
        RecipeChildKind::FermentationStep => {
            RecipeChildPatch::FermentationStep(read_fermentation_step(&mut r))
        }
    };
    r.finish(patch)
}

async fn create_child(
    kind: RecipeChildKind,
    CallerAndRecipeId { user, recipe_id }: CallerAndRecipeId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let (body, link) = match CatalogKind::of_child(kind) {
        Some(catalog_kind) => {
            fill_from_catalog(&state, user, Some(catalog_kind), body.json()?, |item| {
                item.child_fields()
            })
            .await?
        }
        None => (body.json()?, None),
    };
    let new = read_new_child(kind, &body, link)?;
    let child = state.recipes.add_child(user, recipe_id, new).await?;
    Ok(created(&child))
}

async fn list_children(
    kind: RecipeChildKind,
    CallerAndRecipeId { user, recipe_id }: CallerAndRecipeId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.recipes.list_children(user, recipe_id, kind).await?))
}

async fn get_child(
    kind: RecipeChildKind,
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.recipes.get_child(user, kind, id).await?))
}

async fn update_child(
    kind: RecipeChildKind,
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_child_patch(kind, &body.json()?)?;
    let catalog_id = match &patch {
        RecipeChildPatch::Fermentable(p) => p.catalog_id,
        RecipeChildPatch::Hop(p) => p.catalog_id,
        RecipeChildPatch::Yeast(p) => p.catalog_id,
        RecipeChildPatch::Misc(p) => p.catalog_id,
        RecipeChildPatch::MashStep(_)
        | RecipeChildPatch::WaterAddition(_)
        | RecipeChildPatch::FermentationStep(_) => None,
    };
    check_link(&state, user, CatalogKind::of_child(kind), catalog_id).await?;
    Ok(HttpResponse::Ok().json(state.recipes.update_child(user, id, patch).await?))
}

async fn delete_child(
    kind: RecipeChildKind,
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.recipes.delete_child(user, kind, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// One module of documented handlers per kind (utoipa needs a function per path and method).
macro_rules! recipe_child_routes {
    ($module:ident, $kind:expr, $entity:ty, $create_body:ty, $update_body:ty, $tag:literal,
     $collection:literal, $item:literal, $list_in_recipe:literal, $item_scope:literal) => {
        pub mod $module {
            use super::*;

            /// Add to a recipe (appended unless `sort_order` is given).
            #[utoipa::path(post, path = $collection, operation_id = concat!("create_", stringify!($module)), tag = $tag,
                params(("recipe_id" = uuid::Uuid, Path, description = "Recipe id")), request_body = $create_body,
                responses((status = 201, body = $entity),
                    (status = 422, body = crate::error::ValidationErrorBody, description = "Invalid body, or the recipe already holds 200 of this kind")))]
            pub async fn create(caller: CallerAndRecipeId, state: web::Data<AppState>, body: JsonBody) -> ApiResult<HttpResponse> {
                create_child($kind, caller, state, body).await
            }

            #[doc = "All of a recipe's items of this kind, in order."]
            #[utoipa::path(get, path = $collection, operation_id = concat!("list_", stringify!($module)), tag = $tag,
                params(("recipe_id" = uuid::Uuid, Path, description = "Recipe id")),
                responses((status = 200, body = [$entity])))]
            pub async fn list(caller: CallerAndRecipeId, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
                list_children($kind, caller, state).await
            }

            #[doc = "One item by id."]
            #[utoipa::path(get, path = $item, operation_id = concat!("get_", stringify!($module)), tag = $tag,
                params(("id" = uuid::Uuid, Path, description = "Id of the item")),
                responses((status = 200, body = $entity)))]
            pub async fn get(caller: CallerAndId, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
                get_child($kind, caller, state).await
            }

            #[doc = "Change some fields; `recipe_id` cannot be changed; `{}` changes nothing."]
            #[utoipa::path(patch, path = $item, operation_id = concat!("update_", stringify!($module)), tag = $tag,
                params(("id" = uuid::Uuid, Path, description = "Id of the item")), request_body = $update_body,
                responses((status = 200, body = $entity)))]
            pub async fn update(caller: CallerAndId, state: web::Data<AppState>, body: JsonBody) -> ApiResult<HttpResponse> {
                update_child($kind, caller, state, body).await
            }

            #[doc = "Delete the item."]
            #[utoipa::path(delete, path = $item, operation_id = concat!("delete_", stringify!($module)), tag = $tag,
                params(("id" = uuid::Uuid, Path, description = "Id of the item")),
                responses((status = 204, description = "Deleted")))]
            pub async fn delete(caller: CallerAndId, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
                delete_child($kind, caller, state).await
            }

            /// The list under its recipe, inside the `/v1/recipes` scope.
            pub fn configure_list(cfg: &mut web::ServiceConfig) {
                cfg.service(resource($list_in_recipe, "GET, POST").route(web::get().to(list)).route(web::post().to(create)));
            }

            /// The child's own path, as a scope of its own.
            pub fn configure_item(cfg: &mut web::ServiceConfig) {
                cfg.service(
                    web::scope($item_scope).service(
                        resource("/{id}", "GET, PATCH, DELETE")
                            .route(web::get().to(get))
                            .route(web::patch().to(update))
                            .route(web::delete().to(delete)),
                    ),
                );
            }
        }
    };
}

recipe_child_routes!(
    fermentables,
    RecipeChildKind::Fermentable,
    Fermentable,
    schema::CreateFermentable,
    schema::UpdateFermentable,
    "fermentables",
    "/v1/recipes/{recipe_id}/fermentables",
    "/v1/fermentables/{id}",
    "/{recipe_id}/fermentables",
    "/v1/fermentables"
);
recipe_child_routes!(
    hops,
    RecipeChildKind::Hop,
    Hop,
    schema::CreateHop,
    schema::UpdateHop,
    "hops",
    "/v1/recipes/{recipe_id}/hops",
    "/v1/hops/{id}",
    "/{recipe_id}/hops",
    "/v1/hops"
);
recipe_child_routes!(
    yeasts,
    RecipeChildKind::Yeast,
    Yeast,
    schema::CreateYeast,
    schema::UpdateYeast,
    "yeasts",
    "/v1/recipes/{recipe_id}/yeasts",
    "/v1/yeasts/{id}",
    "/{recipe_id}/yeasts",
    "/v1/yeasts"
);
recipe_child_routes!(
    miscs,
    RecipeChildKind::Misc,
    Misc,
    schema::CreateMisc,
    schema::UpdateMisc,
    "miscs",
    "/v1/recipes/{recipe_id}/miscs",
    "/v1/miscs/{id}",
    "/{recipe_id}/miscs",
    "/v1/miscs"
);
recipe_child_routes!(
    mash_steps,
    RecipeChildKind::MashStep,
    MashStep,
    schema::CreateMashStep,
    schema::UpdateMashStep,
    "mash steps",
    "/v1/recipes/{recipe_id}/mash-steps",
    "/v1/mash-steps/{id}",
    "/{recipe_id}/mash-steps",
    "/v1/mash-steps"
);

recipe_child_routes!(
    water_additions,
    RecipeChildKind::WaterAddition,
    WaterAddition,
    schema::CreateWaterAddition,
    schema::UpdateWaterAddition,
    "water additions",
    "/v1/recipes/{recipe_id}/water-additions",
    "/v1/water-additions/{id}",
    "/{recipe_id}/water-additions",
    "/v1/water-additions"
);

recipe_child_routes!(
    fermentation_steps,
    RecipeChildKind::FermentationStep,
    FermentationStep,
    schema::CreateFermentationStep,
    schema::UpdateFermentationStep,
    "fermentation steps",
    "/v1/recipes/{recipe_id}/fermentation-steps",
    "/v1/fermentation-steps/{id}",
    "/{recipe_id}/fermentation-steps",
    "/v1/fermentation-steps"
);

/// The seven lists, inside the `/v1/recipes` scope.
pub fn configure_lists(cfg: &mut web::ServiceConfig) {
    fermentables::configure_list(cfg);
    hops::configure_list(cfg);
    yeasts::configure_list(cfg);
    miscs::configure_list(cfg);
    mash_steps::configure_list(cfg);
    water_additions::configure_list(cfg);
    fermentation_steps::configure_list(cfg);
}

/// The six item scopes (`/v1/fermentables/{id}`, …).
pub fn configure_items(cfg: &mut web::ServiceConfig) {
    fermentables::configure_item(cfg);
    hops::configure_item(cfg);
    yeasts::configure_item(cfg);
    miscs::configure_item(cfg);
    mash_steps::configure_item(cfg);
    water_additions::configure_item(cfg);
    fermentation_steps::configure_item(cfg);
}

/// Request bodies of the OpenAPI document, built from the tables above.
pub mod schema {
    use super::{FERMENTABLE, FERMENTATION_STEP, HOP, MASH_STEP, MISC, WATER_ADDITION, YEAST};
    use crate::body::spec::{Mode, request_body_schema};

    request_body_schema!(
        CreateFermentable,
        FERMENTABLE,
        Mode::Create,
        field_descriptions = true
    );
    request_body_schema!(
        UpdateFermentable,
        FERMENTABLE,
        Mode::Update,
        field_descriptions = false
    );
    request_body_schema!(CreateHop, HOP, Mode::Create, field_descriptions = true);
    request_body_schema!(UpdateHop, HOP, Mode::Update, field_descriptions = false);
    request_body_schema!(CreateYeast, YEAST, Mode::Create, field_descriptions = true);
    request_body_schema!(UpdateYeast, YEAST, Mode::Update, field_descriptions = false);
    request_body_schema!(CreateMisc, MISC, Mode::Create, field_descriptions = true);
    request_body_schema!(UpdateMisc, MISC, Mode::Update, field_descriptions = false);
    request_body_schema!(
        CreateMashStep,
        MASH_STEP,
        Mode::Create,
        field_descriptions = true
    );
    request_body_schema!(
        UpdateMashStep,
        MASH_STEP,
        Mode::Update,
        field_descriptions = false
    );
    request_body_schema!(
        CreateWaterAddition,
        WATER_ADDITION,
        Mode::Create,
        field_descriptions = true
    );
    request_body_schema!(
        UpdateWaterAddition,
        WATER_ADDITION,
        Mode::Update,
        field_descriptions = false
    );
    request_body_schema!(
        CreateFermentationStep,
        FERMENTATION_STEP,
        Mode::Create,
        field_descriptions = true
    );
    request_body_schema!(
        UpdateFermentationStep,
        FERMENTATION_STEP,
        Mode::Update,
        field_descriptions = false
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_tables_is_read() {
        for kind in RecipeChildKind::ALL {
            assert_whole(spec(kind), |body| {
                read_new_child(kind, body, None).map(|_| ())
            });
            assert_whole(spec(kind), |body| read_child_patch(kind, body).map(|_| ()));
        }
    }
}
