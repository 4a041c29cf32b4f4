//! Recipe children: created and listed under their recipe, read/updated/deleted by their own id.
//!
//! `POST|GET /v1/recipes/{recipe_id}/<kind>` and `GET|PATCH|DELETE /v1/<kind>/{id}` for
//! fermentables, hops, yeasts, miscs and mash-steps. Each kind has one reader that parses a body
//! with PATCH semantics; creating adds "required" checks and defaults on top.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::ingredients::{
    DEFAULT_MISC_AMOUNT_UNIT, DEFAULT_MISC_TIME_MINUTES, Fermentable, FermentablePatch,
    FermentableType, Hop, HopForm, HopPatch, HopUse, MashStep, MashStepPatch, MashStepType, Misc,
    MiscPatch, MiscType, MiscUse, NewFermentable, NewHop, NewMashStep, NewMisc, NewYeast, Yeast,
    YeastForm, YeastPatch, YeastType,
};
use wort_domain::recipe::{IngredientKind, IngredientPatch, NewIngredient};

use super::{created, resource};
use crate::body::JsonBody;
use crate::credentials::Authenticated;
use crate::error::ApiResult;
use crate::params::path_id;
use crate::state::AppState;
use crate::validation::{Fields, Sent, invalid_type};
use wort_domain::recipe::rules;
use wort_domain::rules::{NumberRule, TextRule};

// Field caps (CONTRACT §1.2).

/// Reads fields with PATCH semantics, remembering which required ones a create still lacks.
struct Reader<'a> {
    f: Fields<'a>,
    body: &'a Value,
}

impl<'a> Reader<'a> {
    fn of(body: &'a Value) -> ApiResult<Self> {
        Ok(Reader {
            f: Fields::of(body)?,
            body,
        })
    }

    fn text(&mut self, name: &str, rule: TextRule) -> Option<String> {
        let sent = self.f.text(name, rule);
        self.f.optional(name, "string", sent)
    }

    fn nullable_text(&mut self, name: &str, rule: TextRule) -> Option<Option<String>> {
        Fields::nullable(self.f.text(name, rule))
    }

    fn number(&mut self, name: &str, r: NumberRule) -> Option<f64> {
        let sent = self.f.number(name, r);
        self.f.optional(name, "number", sent)
    }

    fn nullable_number(&mut self, name: &str, r: NumberRule) -> Option<Option<f64>> {
        Fields::nullable(self.f.number(name, r))
    }

    fn choice<T>(
        &mut self,
        name: &str,
        all: &[T],
        as_str: fn(&T) -> &'static str,
        parse: fn(&str) -> Option<T>,
    ) -> Sent<T> {
        let options: Vec<&str> = all.iter().map(as_str).collect();
        self.f.enumeration(name, &options, parse)
    }

    fn sort_order(&mut self) -> Option<i32> {
        let sent = self.f.integer("sort_order", rules::SORT_ORDER);
        #[allow(clippy::cast_possible_truncation)]
        self.f
            .optional("sort_order", "number", sent)
            .map(|n| n as i32)
    }

    /// On create: a required field that was not sent at all is `Required`.
    fn require(&mut self, name: &str, expected: &str) {
        if self.body.get(name).is_none() {
            self.f.report(invalid_type(&[name], expected, "undefined"));
        }
    }

    fn finish<T>(self, value: T) -> ApiResult<T> {
        self.f.finish(value)
    }
}

fn read_fermentable(r: &mut Reader) -> FermentablePatch {
    let kind = r.choice(
        "type",
        FermentableType::ALL,
        FermentableType::as_str,
        FermentableType::parse,
    );
    FermentablePatch {
        name: r.text("name", rules::NAME),
        kind: r.f.optional("type", "string", kind),
        amount_kg: r.number("amount_kg", rules::AMOUNT_KG),
        color_srm: r.number("color_srm", rules::COLOR_SRM),
        yield_percent: r.number("yield_percent", rules::PERCENT),
        origin: r.nullable_text("origin", rules::SHORT_TEXT),
        notes: r.nullable_text("notes", rules::NOTES),
        sort_order: r.sort_order(),
    }
}

fn read_hop(r: &mut Reader) -> HopPatch {
    let name = r.text("name", rules::NAME);
    let alpha_acid = r.number("alpha_acid", rules::PERCENT);
    let amount_grams = r.number("amount_grams", rules::AMOUNT_GRAMS);
    let time_minutes = r.number("time_minutes", rules::TIME_MINUTES);
    let hop_use = r.choice("use", HopUse::ALL, HopUse::as_str, HopUse::parse);
    let hop_use = r.f.optional("use", "string", hop_use);
    let form = r.choice("form", HopForm::ALL, HopForm::as_str, HopForm::parse);
    HopPatch {
        name,
        alpha_acid,
        amount_grams,
        time_minutes,
        hop_use,
        form: Fields::nullable(form),
        sort_order: r.sort_order(),
    }
}

fn read_yeast(r: &mut Reader) -> YeastPatch {
    let name = r.text("name", rules::NAME);
    let lab = r.nullable_text("lab", rules::SHORT_TEXT);
    let product_id = r.nullable_text("product_id", rules::SHORT_TEXT);
    let kind = r.choice("type", YeastType::ALL, YeastType::as_str, YeastType::parse);
    let kind = r.f.optional("type", "string", kind);
    let form = r.choice("form", YeastForm::ALL, YeastForm::as_str, YeastForm::parse);
    YeastPatch {
        name,
        lab,
        product_id,
        kind,
        form: Fields::nullable(form),
        attenuation: r.nullable_number("attenuation", rules::PERCENT),
        min_temp_c: r.nullable_number("min_temp_c", rules::TEMPERATURE_C),
        max_temp_c: r.nullable_number("max_temp_c", rules::TEMPERATURE_C),
        amount: r.nullable_number("amount", rules::AMOUNT),
        amount_unit: r.nullable_text("amount_unit", rules::AMOUNT_UNIT),
        notes: r.nullable_text("notes", rules::NOTES),
        sort_order: r.sort_order(),
    }
}

fn read_misc(r: &mut Reader) -> MiscPatch {
    let name = r.text("name", rules::NAME);
    let kind = r.choice("type", MiscType::ALL, MiscType::as_str, MiscType::parse);
    let kind = r.f.optional("type", "string", kind);
    let misc_use = r.choice("use", MiscUse::ALL, MiscUse::as_str, MiscUse::parse);
    let misc_use = r.f.optional("use", "string", misc_use);
    MiscPatch {
        name,
        kind,
        misc_use,
        amount: r.number("amount", rules::AMOUNT),
        amount_unit: r.text("amount_unit", rules::AMOUNT_UNIT),
        time_minutes: r.number("time_minutes", rules::TIME_MINUTES),
        notes: r.nullable_text("notes", rules::NOTES),
        sort_order: r.sort_order(),
    }
}

fn read_mash_step(r: &mut Reader) -> MashStepPatch {
    let name = r.text("name", rules::NAME);
    let kind = r.choice(
        "type",
        MashStepType::ALL,
        MashStepType::as_str,
        MashStepType::parse,
    );
    MashStepPatch {
        name,
        kind: r.f.optional("type", "string", kind),
        temperature_c: r.number("temperature_c", rules::TEMPERATURE_C),
        duration_minutes: r.number("duration_minutes", rules::MASH_MINUTES),
        infuse_amount_liters: r
            .nullable_number("infuse_amount_liters", rules::INFUSE_AMOUNT_LITERS),
        ramp_minutes: r.nullable_number("ramp_minutes", rules::MASH_MINUTES),
        sort_order: r.sort_order(),
    }
}

/// A create body of `kind`: the PATCH reading, required fields checked, defaults applied.
pub fn read_new_ingredient(kind: IngredientKind, body: &Value) -> ApiResult<NewIngredient> {
    let mut r = Reader::of(body)?;
    let new = match kind {
        IngredientKind::Fermentable => {
            let p = read_fermentable(&mut r);
            for (name, expected) in [
                ("name", "string"),
                ("amount_kg", "number"),
                ("color_srm", "number"),
                ("yield_percent", "number"),
            ] {
                r.require(name, expected);
            }
            NewIngredient::Fermentable(NewFermentable {
                name: p.name.unwrap_or_default(),
                kind: p.kind.unwrap_or_default(),
                amount_kg: p.amount_kg.unwrap_or_default(),
                color_srm: p.color_srm.unwrap_or_default(),
                yield_percent: p.yield_percent.unwrap_or_default(),
                origin: p.origin.flatten(),
                notes: p.notes.flatten(),
                sort_order: p.sort_order,
            })
        }
        IngredientKind::Hop => {
            let p = read_hop(&mut r);
            for (name, expected) in [
                ("name", "string"),
                ("alpha_acid", "number"),
                ("amount_grams", "number"),
                ("time_minutes", "number"),
            ] {
                r.require(name, expected);
            }
            NewIngredient::Hop(NewHop {
                name: p.name.unwrap_or_default(),
                alpha_acid: p.alpha_acid.unwrap_or_default(),
                amount_grams: p.amount_grams.unwrap_or_default(),
                time_minutes: p.time_minutes.unwrap_or_default(),
                hop_use: p.hop_use.unwrap_or_default(),
                form: p.form.flatten(),
                sort_order: p.sort_order,
            })
        }
        IngredientKind::Yeast => {
            let p = read_yeast(&mut r);
            r.require("name", "string");
            NewIngredient::Yeast(NewYeast {
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
        IngredientKind::Misc => {
            let p = read_misc(&mut r);
            r.require("name", "string");
            r.require("amount", "number");
            NewIngredient::Misc(NewMisc {
                name: p.name.unwrap_or_default(),
                kind: p.kind.unwrap_or_default(),
                misc_use: p.misc_use.unwrap_or_default(),
                amount: p.amount.unwrap_or_default(),
                amount_unit: p
                    .amount_unit
                    .unwrap_or_else(|| DEFAULT_MISC_AMOUNT_UNIT.to_owned()),
                time_minutes: p.time_minutes.unwrap_or(DEFAULT_MISC_TIME_MINUTES),
                notes: p.notes.flatten(),
                sort_order: p.sort_order,
            })
        }
        IngredientKind::MashStep => {
            let p = read_mash_step(&mut r);
            for (name, expected) in [
                ("name", "string"),
                ("temperature_c", "number"),
                ("duration_minutes", "number"),
            ] {
                r.require(name, expected);
            }
            NewIngredient::MashStep(NewMashStep {
                name: p.name.unwrap_or_default(),
                kind: p.kind.unwrap_or_default(),
                temperature_c: p.temperature_c.unwrap_or_default(),
                duration_minutes: p.duration_minutes.unwrap_or_default(),
                infuse_amount_liters: p.infuse_amount_liters.flatten(),
                ramp_minutes: p.ramp_minutes.flatten(),
                sort_order: p.sort_order,
            })
        }
    };
    r.finish(new)
}

/// A PATCH body of `kind` (`recipe_id` and other read-only fields are ignored).
pub fn read_ingredient_patch(kind: IngredientKind, body: &Value) -> ApiResult<IngredientPatch> {
    let mut r = Reader::of(body)?;
    let patch = match kind {
        IngredientKind::Fermentable => IngredientPatch::Fermentable(read_fermentable(&mut r)),
        IngredientKind::Hop => IngredientPatch::Hop(read_hop(&mut r)),
        IngredientKind::Yeast => IngredientPatch::Yeast(read_yeast(&mut r)),
        IngredientKind::Misc => IngredientPatch::Misc(read_misc(&mut r)),
        IngredientKind::MashStep => IngredientPatch::MashStep(read_mash_step(&mut r)),
    };
    r.finish(patch)
}

async fn create_ingredient(
    kind: IngredientKind,
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let recipe_id = path_id(&req, "recipe_id")?;
    let new = read_new_ingredient(kind, &body.json()?)?;
    let child = state
        .recipes
        .add_ingredient(auth.0.user.id, recipe_id, new)
        .await?;
    Ok(created(&child))
}

async fn list_ingredients(
    kind: IngredientKind,
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let recipe_id = path_id(&req, "recipe_id")?;
    Ok(HttpResponse::Ok().json(
        state
            .recipes
            .list_ingredients(auth.0.user.id, recipe_id, kind)
            .await?,
    ))
}

async fn get_ingredient(
    kind: IngredientKind,
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    Ok(HttpResponse::Ok().json(
        state
            .recipes
            .get_ingredient(auth.0.user.id, kind, id)
            .await?,
    ))
}

async fn update_ingredient(
    kind: IngredientKind,
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    let patch = read_ingredient_patch(kind, &body.json()?)?;
    Ok(HttpResponse::Ok().json(
        state
            .recipes
            .update_ingredient(auth.0.user.id, id, patch)
            .await?,
    ))
}

async fn delete_ingredient(
    kind: IngredientKind,
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    state
        .recipes
        .delete_ingredient(auth.0.user.id, kind, id)
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// One module of documented handlers per kind (utoipa needs a function per path and method).
macro_rules! ingredient_routes {
    ($module:ident, $kind:expr, $entity:ty, $create_body:ty, $update_body:ty, $tag:literal,
     $collection:literal, $item:literal, $list_in_recipe:literal, $item_scope:literal) => {
        pub mod $module {
            use super::*;

            /// Add to a recipe (appended unless `sort_order` is given).
            #[utoipa::path(post, path = $collection, operation_id = concat!("create_", stringify!($module)), tag = $tag,
                params(("recipe_id" = uuid::Uuid, Path, description = "Recipe id")), request_body = $create_body,
                responses((status = 201, body = $entity),
                    (status = 422, body = crate::error::ValidationErrorBody, description = "Invalid body, or the recipe already holds 200 of this kind")))]
            pub async fn create(auth: Authenticated, req: HttpRequest, state: web::Data<AppState>, body: JsonBody) -> ApiResult<HttpResponse> {
                create_ingredient($kind, auth, req, state, body).await
            }

            #[doc = "All of a recipe's ingredients of this kind, in order."]
            #[utoipa::path(get, path = $collection, operation_id = concat!("list_", stringify!($module)), tag = $tag,
                params(("recipe_id" = uuid::Uuid, Path, description = "Recipe id")),
                responses((status = 200, body = [$entity])))]
            pub async fn list(auth: Authenticated, req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
                list_ingredients($kind, auth, req, state).await
            }

            #[doc = "One ingredient by id."]
            #[utoipa::path(get, path = $item, operation_id = concat!("get_", stringify!($module)), tag = $tag,
                params(("id" = uuid::Uuid, Path, description = "Ingredient id")),
                responses((status = 200, body = $entity)))]
            pub async fn get(auth: Authenticated, req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
                get_ingredient($kind, auth, req, state).await
            }

            #[doc = "Change some fields; `recipe_id` cannot be changed; `{}` changes nothing."]
            #[utoipa::path(patch, path = $item, operation_id = concat!("update_", stringify!($module)), tag = $tag,
                params(("id" = uuid::Uuid, Path, description = "Ingredient id")), request_body = $update_body,
                responses((status = 200, body = $entity)))]
            pub async fn update(auth: Authenticated, req: HttpRequest, state: web::Data<AppState>, body: JsonBody) -> ApiResult<HttpResponse> {
                update_ingredient($kind, auth, req, state, body).await
            }

            #[doc = "Delete an ingredient."]
            #[utoipa::path(delete, path = $item, operation_id = concat!("delete_", stringify!($module)), tag = $tag,
                params(("id" = uuid::Uuid, Path, description = "Ingredient id")),
                responses((status = 204, description = "Deleted")))]
            pub async fn delete(auth: Authenticated, req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
                delete_ingredient($kind, auth, req, state).await
            }

            /// The list under its recipe, inside the `/v1/recipes` scope.
            pub fn configure_list(cfg: &mut web::ServiceConfig) {
                cfg.service(resource($list_in_recipe, "GET, POST").route(web::get().to(list)).route(web::post().to(create)));
            }

            /// The ingredient's own path, as a scope of its own.
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

ingredient_routes!(
    fermentables,
    IngredientKind::Fermentable,
    Fermentable,
    schema::CreateFermentable,
    schema::UpdateFermentable,
    "fermentables",
    "/v1/recipes/{recipe_id}/fermentables",
    "/v1/fermentables/{id}",
    "/{recipe_id}/fermentables",
    "/v1/fermentables"
);
ingredient_routes!(
    hops,
    IngredientKind::Hop,
    Hop,
    schema::CreateHop,
    schema::UpdateHop,
    "hops",
    "/v1/recipes/{recipe_id}/hops",
    "/v1/hops/{id}",
    "/{recipe_id}/hops",
    "/v1/hops"
);
ingredient_routes!(
    yeasts,
    IngredientKind::Yeast,
    Yeast,
    schema::CreateYeast,
    schema::UpdateYeast,
    "yeasts",
    "/v1/recipes/{recipe_id}/yeasts",
    "/v1/yeasts/{id}",
    "/{recipe_id}/yeasts",
    "/v1/yeasts"
);
ingredient_routes!(
    miscs,
    IngredientKind::Misc,
    Misc,
    schema::CreateMisc,
    schema::UpdateMisc,
    "miscs",
    "/v1/recipes/{recipe_id}/miscs",
    "/v1/miscs/{id}",
    "/{recipe_id}/miscs",
    "/v1/miscs"
);
ingredient_routes!(
    mash_steps,
    IngredientKind::MashStep,
    MashStep,
    schema::CreateMashStep,
    schema::UpdateMashStep,
    "mash steps",
    "/v1/recipes/{recipe_id}/mash-steps",
    "/v1/mash-steps/{id}",
    "/{recipe_id}/mash-steps",
    "/v1/mash-steps"
);

/// The names of a kind's request bodies in the OpenAPI document (whose bounds the document
/// takes from the domain's rules).
pub fn create_schema_name(kind: IngredientKind) -> &'static str {
    match kind {
        IngredientKind::Fermentable => "CreateFermentable",
        IngredientKind::Hop => "CreateHop",
        IngredientKind::Yeast => "CreateYeast",
        IngredientKind::Misc => "CreateMisc",
        IngredientKind::MashStep => "CreateMashStep",
    }
}

pub fn update_schema_name(kind: IngredientKind) -> &'static str {
    match kind {
        IngredientKind::Fermentable => "UpdateFermentable",
        IngredientKind::Hop => "UpdateHop",
        IngredientKind::Yeast => "UpdateYeast",
        IngredientKind::Misc => "UpdateMisc",
        IngredientKind::MashStep => "UpdateMashStep",
    }
}

/// The five lists, inside the `/v1/recipes` scope.
pub fn configure_lists(cfg: &mut web::ServiceConfig) {
    fermentables::configure_list(cfg);
    hops::configure_list(cfg);
    yeasts::configure_list(cfg);
    miscs::configure_list(cfg);
    mash_steps::configure_list(cfg);
}

/// The five item scopes (`/v1/fermentables/{id}`, …).
pub fn configure_items(cfg: &mut web::ServiceConfig) {
    fermentables::configure_item(cfg);
    hops::configure_item(cfg);
    yeasts::configure_item(cfg);
    miscs::configure_item(cfg);
    mash_steps::configure_item(cfg);
}

/// Request bodies as the OpenAPI document shows them (parsing is by the readers above).
#[allow(dead_code)]
pub mod schema {
    use utoipa::ToSchema;
    use wort_domain::ingredients::{
        FermentableType, HopForm, HopUse, MashStepType, MiscType, MiscUse, YeastForm, YeastType,
    };

    #[derive(ToSchema)]
    pub struct CreateFermentable {
        name: String,
        #[serde(rename = "type")]
        #[schema(inline, default = "grain", nullable = false)]
        kind: Option<FermentableType>,
        amount_kg: f64,
        color_srm: f64,
        yield_percent: f64,
        #[schema(nullable)]
        origin: Option<String>,
        #[schema(nullable)]
        notes: Option<String>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }

    #[derive(ToSchema)]
    pub struct UpdateFermentable {
        #[schema(nullable = false)]
        name: Option<String>,
        #[serde(rename = "type")]
        #[schema(inline, nullable = false)]
        kind: Option<FermentableType>,
        #[schema(nullable = false)]
        amount_kg: Option<f64>,
        #[schema(nullable = false)]
        color_srm: Option<f64>,
        #[schema(nullable = false)]
        yield_percent: Option<f64>,
        #[schema(nullable)]
        origin: Option<String>,
        #[schema(nullable)]
        notes: Option<String>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }

    #[derive(ToSchema)]
    pub struct CreateHop {
        name: String,
        alpha_acid: f64,
        amount_grams: f64,
        time_minutes: f64,
        #[serde(rename = "use")]
        #[schema(inline, default = "boil", nullable = false)]
        hop_use: Option<HopUse>,
        /// Pellet 1.10, plug 1.02, leaf/extract/null 1.0 × Tinseth's utilisation.
        #[schema(inline, nullable)]
        form: Option<HopForm>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }

    #[derive(ToSchema)]
    pub struct UpdateHop {
        #[schema(nullable = false)]
        name: Option<String>,
        #[schema(nullable = false)]
        alpha_acid: Option<f64>,
        #[schema(nullable = false)]
        amount_grams: Option<f64>,
        #[schema(nullable = false)]
        time_minutes: Option<f64>,
        #[serde(rename = "use")]
        #[schema(inline, nullable = false)]
        hop_use: Option<HopUse>,
        #[schema(inline, nullable)]
        form: Option<HopForm>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }

    #[derive(ToSchema)]
    pub struct CreateYeast {
        name: String,
        #[schema(nullable)]
        lab: Option<String>,
        #[schema(nullable)]
        product_id: Option<String>,
        #[serde(rename = "type")]
        #[schema(inline, default = "ale", nullable = false)]
        kind: Option<YeastType>,
        #[schema(inline, nullable)]
        form: Option<YeastForm>,
        #[schema(nullable)]
        attenuation: Option<f64>,
        #[schema(nullable)]
        min_temp_c: Option<f64>,
        #[schema(nullable)]
        max_temp_c: Option<f64>,
        #[schema(nullable)]
        amount: Option<f64>,
        #[schema(nullable)]
        amount_unit: Option<String>,
        #[schema(nullable)]
        notes: Option<String>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }

    #[derive(ToSchema)]
    pub struct UpdateYeast {
        #[schema(nullable = false)]
        name: Option<String>,
        #[schema(nullable)]
        lab: Option<String>,
        #[schema(nullable)]
        product_id: Option<String>,
        #[serde(rename = "type")]
        #[schema(inline, nullable = false)]
        kind: Option<YeastType>,
        #[schema(inline, nullable)]
        form: Option<YeastForm>,
        #[schema(nullable)]
        attenuation: Option<f64>,
        #[schema(nullable)]
        min_temp_c: Option<f64>,
        #[schema(nullable)]
        max_temp_c: Option<f64>,
        #[schema(nullable)]
        amount: Option<f64>,
        #[schema(nullable)]
        amount_unit: Option<String>,
        #[schema(nullable)]
        notes: Option<String>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }

    #[derive(ToSchema)]
    pub struct CreateMisc {
        name: String,
        #[serde(rename = "type")]
        #[schema(inline, default = "other", nullable = false)]
        kind: Option<MiscType>,
        #[serde(rename = "use")]
        #[schema(inline, default = "boil", nullable = false)]
        misc_use: Option<MiscUse>,
        amount: f64,
        #[schema(default = "g", nullable = false)]
        amount_unit: Option<String>,
        #[schema(default = 0, nullable = false)]
        time_minutes: Option<f64>,
        #[schema(nullable)]
        notes: Option<String>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }

    #[derive(ToSchema)]
    pub struct UpdateMisc {
        #[schema(nullable = false)]
        name: Option<String>,
        #[serde(rename = "type")]
        #[schema(inline, nullable = false)]
        kind: Option<MiscType>,
        #[serde(rename = "use")]
        #[schema(inline, nullable = false)]
        misc_use: Option<MiscUse>,
        #[schema(nullable = false)]
        amount: Option<f64>,
        #[schema(nullable = false)]
        amount_unit: Option<String>,
        #[schema(nullable = false)]
        time_minutes: Option<f64>,
        #[schema(nullable)]
        notes: Option<String>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }

    #[derive(ToSchema)]
    pub struct CreateMashStep {
        name: String,
        #[serde(rename = "type")]
        #[schema(inline, default = "infusion", nullable = false)]
        kind: Option<MashStepType>,
        temperature_c: f64,
        duration_minutes: f64,
        #[schema(nullable)]
        infuse_amount_liters: Option<f64>,
        #[schema(nullable)]
        ramp_minutes: Option<f64>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }

    #[derive(ToSchema)]
    pub struct UpdateMashStep {
        #[schema(nullable = false)]
        name: Option<String>,
        #[serde(rename = "type")]
        #[schema(inline, nullable = false)]
        kind: Option<MashStepType>,
        #[schema(nullable = false)]
        temperature_c: Option<f64>,
        #[schema(nullable = false)]
        duration_minutes: Option<f64>,
        #[schema(nullable)]
        infuse_amount_liters: Option<f64>,
        #[schema(nullable)]
        ramp_minutes: Option<f64>,
        #[schema(nullable = false)]
        sort_order: Option<i32>,
    }
}
