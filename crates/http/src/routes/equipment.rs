//! `/v1/equipment`: a brewer's equipment profiles (CONTRACT §10).

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use utoipa::ToSchema;
use wort_domain::equipment::rules::{
    self, DEFAULT_GRAIN_ABSORPTION_LITERS_PER_KG, DEFAULT_HOP_UTILIZATION_PERCENT,
};
use wort_domain::equipment::{Equipment, EquipmentPatch, EquipmentProfile};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::credentials::Authenticated;
use crate::error::ApiResult;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query, path_id};
use crate::state::AppState;
use crate::validation::{Fields, invalid_type};

/// Inside the `/v1/equipment` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_equipment))
            .route(web::post().to(create_equipment)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_equipment))
            .route(web::patch().to(update_equipment))
            .route(web::delete().to(delete_equipment)),
    );
}

/// Request body of `POST /v1/equipment` (for the OpenAPI document; parsing is by [`Fields`]).
/// Volumes in litres; the recipe's own batch size is what goes into the fermenter, the profile
/// adds its losses around it.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct CreateEquipmentRequest {
    name: String,
    /// The kit's usual volume into the fermenter.
    batch_size_liters: f64,
    #[schema(default = 0, nullable = false)]
    boil_off_liters_per_hour: Option<f64>,
    /// Wort left with the hops and trub in the kettle and in the chiller; at most the batch.
    #[schema(default = 0, nullable = false)]
    trub_chiller_loss_liters: Option<f64>,
    #[schema(default = 0, nullable = false)]
    mash_tun_deadspace_liters: Option<f64>,
    #[schema(default = 1.0, nullable = false)]
    grain_absorption_liters_per_kg: Option<f64>,
    /// Water added in the fermenter after the boil; at most the batch.
    #[schema(default = 0, nullable = false)]
    top_up_water_liters: Option<f64>,
    /// Beer left on the yeast cake; at most the batch.
    #[schema(default = 0, nullable = false)]
    fermenter_loss_liters: Option<f64>,
    /// Multiplies Tinseth's utilisation (100 = the curve as published).
    #[schema(default = 100, nullable = false)]
    hop_utilization_percent: Option<f64>,
    #[schema(nullable)]
    notes: Option<String>,
}

/// Request body of `PATCH /v1/equipment/{id}`: only the fields sent change; the result is
/// checked whole (a batch lowered below a loss is refused).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct UpdateEquipmentRequest {
    #[schema(nullable = false)]
    name: Option<String>,
    #[schema(nullable = false)]
    batch_size_liters: Option<f64>,
    #[schema(nullable = false)]
    boil_off_liters_per_hour: Option<f64>,
    #[schema(nullable = false)]
    trub_chiller_loss_liters: Option<f64>,
    #[schema(nullable = false)]
    mash_tun_deadspace_liters: Option<f64>,
    #[schema(nullable = false)]
    grain_absorption_liters_per_kg: Option<f64>,
    #[schema(nullable = false)]
    top_up_water_liters: Option<f64>,
    #[schema(nullable = false)]
    fermenter_loss_liters: Option<f64>,
    #[schema(nullable = false)]
    hop_utilization_percent: Option<f64>,
    #[schema(nullable)]
    notes: Option<String>,
}

/// Every field read with PATCH semantics; create then requires and defaults on top.
fn read_patch(f: &mut Fields) -> EquipmentPatch {
    let number = |f: &mut Fields, name: &str, rule| {
        let sent = f.number(name, rule);
        f.optional(name, "number", sent)
    };
    let name = f.text("name", rules::NAME);
    EquipmentPatch {
        name: f.optional("name", "string", name),
        batch_size_liters: number(f, "batch_size_liters", rules::BATCH_SIZE_LITERS),
        boil_off_liters_per_hour: number(f, "boil_off_liters_per_hour", rules::VOLUME_LITERS),
        trub_chiller_loss_liters: number(f, "trub_chiller_loss_liters", rules::VOLUME_LITERS),
        mash_tun_deadspace_liters: number(f, "mash_tun_deadspace_liters", rules::VOLUME_LITERS),
        grain_absorption_liters_per_kg: number(
            f,
            "grain_absorption_liters_per_kg",
            rules::GRAIN_ABSORPTION_LITERS_PER_KG,
        ),
        top_up_water_liters: number(f, "top_up_water_liters", rules::VOLUME_LITERS),
        fermenter_loss_liters: number(f, "fermenter_loss_liters", rules::VOLUME_LITERS),
        hop_utilization_percent: number(
            f,
            "hop_utilization_percent",
            rules::HOP_UTILIZATION_PERCENT,
        ),
        notes: Fields::nullable(f.text("notes", rules::NOTES)),
    }
}

fn read_new_profile(body: &Value) -> ApiResult<EquipmentProfile> {
    let mut f = Fields::of(body)?;
    let p = read_patch(&mut f);
    // Required on create: report "missing" only for fields that were not already wrong.
    for (name, expected) in [("name", "string"), ("batch_size_liters", "number")] {
        if body.get(name).is_none() {
            f.report(invalid_type(&[name], expected, "undefined"));
        }
    }
    let profile = EquipmentProfile {
        name: p.name.unwrap_or_default(),
        batch_size_liters: p.batch_size_liters.unwrap_or_default(),
        boil_off_liters_per_hour: p.boil_off_liters_per_hour.unwrap_or(0.0),
        trub_chiller_loss_liters: p.trub_chiller_loss_liters.unwrap_or(0.0),
        mash_tun_deadspace_liters: p.mash_tun_deadspace_liters.unwrap_or(0.0),
        grain_absorption_liters_per_kg: p
            .grain_absorption_liters_per_kg
            .unwrap_or(DEFAULT_GRAIN_ABSORPTION_LITERS_PER_KG),
        top_up_water_liters: p.top_up_water_liters.unwrap_or(0.0),
        fermenter_loss_liters: p.fermenter_loss_liters.unwrap_or(0.0),
        hop_utilization_percent: p
            .hop_utilization_percent
            .unwrap_or(DEFAULT_HOP_UTILIZATION_PERCENT),
        notes: p.notes.flatten(),
    };
    f.finish(profile)
}

/// The account's equipment profiles by name.
#[utoipa::path(get, path = "/v1/equipment", tag = "equipment",
    params(
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [Equipment], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_equipment(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let profiles = state.equipment.list(auth.0.user.id, page).await?;
    Ok(page_response(&req, &query, page, &profiles))
}

/// Create a profile (`name` and `batch_size_liters` required). A physically impossible one
/// (negative losses, utilisation outside 0–200 %, a loss larger than the batch) is a `422`
/// naming every such field.
#[utoipa::path(post, path = "/v1/equipment", tag = "equipment",
    request_body = CreateEquipmentRequest,
    responses((status = 201, body = Equipment)))]
pub async fn create_equipment(
    auth: Authenticated,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let profile = read_new_profile(&body.json()?)?;
    let saved = state.equipment.create(auth.0.user.id, profile).await?;
    Ok(created(&saved))
}

/// One equipment profile.
#[utoipa::path(get, path = "/v1/equipment/{id}", tag = "equipment",
    params(("id" = uuid::Uuid, Path, description = "Equipment profile id")),
    responses((status = 200, body = Equipment)))]
pub async fn get_equipment(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    Ok(HttpResponse::Ok().json(state.equipment.get(auth.0.user.id, id).await?))
}

/// Change some fields of a profile; `{}` changes nothing. Recipes that use it see the change in
/// their next `/stats`.
#[utoipa::path(patch, path = "/v1/equipment/{id}", tag = "equipment",
    params(("id" = uuid::Uuid, Path, description = "Equipment profile id")), request_body = UpdateEquipmentRequest,
    responses((status = 200, body = Equipment)))]
pub async fn update_equipment(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    let body = body.json()?;
    let mut f = Fields::of(&body)?;
    let patch = read_patch(&mut f);
    let patch = f.finish(patch)?;
    Ok(HttpResponse::Ok().json(state.equipment.update(auth.0.user.id, id, patch).await?))
}

/// Delete a profile; refused (`422`) while a recipe uses it.
#[utoipa::path(delete, path = "/v1/equipment/{id}", tag = "equipment",
    params(("id" = uuid::Uuid, Path, description = "Equipment profile id")),
    responses((status = 204, description = "Deleted"),
        (status = 422, body = crate::error::ValidationErrorBody, description = "A recipe still uses the profile")))]
pub async fn delete_equipment(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    state.equipment.delete(auth.0.user.id, id).await?;
    Ok(HttpResponse::NoContent().finish())
}
