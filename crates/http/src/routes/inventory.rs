//! `/v1/inventory`: ingredients on hand, with an atomic `adjust`.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use utoipa::ToSchema;
use wort_domain::inventory::{
    DEFAULT_AMOUNT, DEFAULT_AMOUNT_UNIT, InventoryCategory, InventoryFields, InventoryFilter,
    InventoryItem, InventoryPatch, rules,
};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::credentials::Authenticated;
use crate::error::ApiResult;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query, path_id};
use crate::state::AppState;
use crate::validation::{Fields, invalid_type};

/// Inside the `/v1/inventory` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_items))
            .route(web::post().to(create_item)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_item))
            .route(web::patch().to(update_item))
            .route(web::delete().to(delete_item)),
    )
    .service(resource("/{id}/adjust", "POST").route(web::post().to(adjust_item)));
}

fn categories() -> Vec<&'static str> {
    InventoryCategory::ALL
        .iter()
        .map(InventoryCategory::as_str)
        .collect()
}

/// Request body of `POST /v1/inventory` (for the OpenAPI document; parsing is by [`Fields`]).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct CreateInventoryRequest {
    #[schema(inline)]
    category: InventoryCategory,
    name: String,
    #[schema(default = 0, nullable = false)]
    amount: Option<f64>,
    #[schema(default = "kg", nullable = false)]
    amount_unit: Option<String>,
    #[serde(rename = "type")]
    #[schema(nullable)]
    kind: Option<String>,
    #[schema(nullable)]
    form: Option<String>,
    #[schema(nullable)]
    origin: Option<String>,
    #[schema(nullable)]
    alpha_acid: Option<f64>,
    #[schema(nullable)]
    color_srm: Option<f64>,
    #[schema(nullable)]
    yield_percent: Option<f64>,
    #[schema(nullable)]
    attenuation: Option<f64>,
    #[schema(nullable)]
    year: Option<i32>,
    #[schema(nullable)]
    notes: Option<String>,
}

/// Request body of `PATCH /v1/inventory/{id}`: any writable field, `category` included.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct UpdateInventoryRequest {
    #[schema(inline, nullable = false)]
    category: Option<InventoryCategory>,
    #[schema(nullable = false)]
    name: Option<String>,
    #[schema(nullable = false)]
    amount: Option<f64>,
    #[schema(nullable = false)]
    amount_unit: Option<String>,
    #[serde(rename = "type")]
    #[schema(nullable)]
    kind: Option<String>,
    #[schema(nullable)]
    form: Option<String>,
    #[schema(nullable)]
    origin: Option<String>,
    #[schema(nullable)]
    alpha_acid: Option<f64>,
    #[schema(nullable)]
    color_srm: Option<f64>,
    #[schema(nullable)]
    yield_percent: Option<f64>,
    #[schema(nullable)]
    attenuation: Option<f64>,
    #[schema(nullable)]
    year: Option<i32>,
    #[schema(nullable)]
    notes: Option<String>,
}

/// `POST /v1/inventory/{id}/adjust`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct AdjustInventoryRequest {
    /// Added to `amount` (negative to use up stock; 0 allowed).
    delta: f64,
}

/// Every field read with PATCH semantics; create then requires and defaults on top.
fn read_patch(f: &mut Fields) -> InventoryPatch {
    let options = categories();
    let category = f.enumeration("category", &options, InventoryCategory::parse);
    let category = f.optional("category", "string", category);
    let name = f.text("name", rules::NAME);
    let name = f.optional("name", "string", name);
    let amount = f.number("amount", rules::AMOUNT);
    let amount = f.optional("amount", "number", amount);
    let amount_unit = f.text("amount_unit", rules::AMOUNT_UNIT);
    let amount_unit = f.optional("amount_unit", "string", amount_unit);
    InventoryPatch {
        category,
        name,
        amount,
        amount_unit,
        kind: Fields::nullable(f.text("type", rules::SHORT_TEXT)),
        form: Fields::nullable(f.text("form", rules::SHORT_TEXT)),
        origin: Fields::nullable(f.text("origin", rules::SHORT_TEXT)),
        alpha_acid: Fields::nullable(f.number("alpha_acid", rules::PERCENT)),
        color_srm: Fields::nullable(f.number("color_srm", rules::COLOR_SRM)),
        yield_percent: Fields::nullable(f.number("yield_percent", rules::PERCENT)),
        attenuation: Fields::nullable(f.number("attenuation", rules::PERCENT)),
        #[allow(clippy::cast_possible_truncation)]
        year: Fields::nullable(f.integer("year", rules::YEAR)).map(|y| y.map(|y| y as i32)),
        notes: Fields::nullable(f.text("notes", rules::NOTES)),
    }
}

pub fn read_new_item(body: &Value) -> ApiResult<InventoryFields> {
    let mut f = Fields::of(body)?;
    let p = read_patch(&mut f);
    // Required on create: report "missing" only for fields that were not already wrong.
    if p.category.is_none() && body.get("category").is_none() {
        f.report(invalid_type(
            &["category"],
            &categories().join(" | "),
            "undefined",
        ));
    }
    if p.name.is_none() && body.get("name").is_none() {
        f.report(invalid_type(&["name"], "string", "undefined"));
    }
    let fields = InventoryFields {
        category: p.category.unwrap_or(InventoryCategory::Misc),
        name: p.name.unwrap_or_default(),
        amount: p.amount.unwrap_or(DEFAULT_AMOUNT),
        amount_unit: p
            .amount_unit
            .unwrap_or_else(|| DEFAULT_AMOUNT_UNIT.to_owned()),
        kind: p.kind.flatten(),
        form: p.form.flatten(),
        origin: p.origin.flatten(),
        alpha_acid: p.alpha_acid.flatten(),
        color_srm: p.color_srm.flatten(),
        yield_percent: p.yield_percent.flatten(),
        attenuation: p.attenuation.flatten(),
        year: p.year.flatten(),
        notes: p.notes.flatten(),
    };
    f.finish(fields)
}

/// The account's inventory, by category then name.
#[utoipa::path(get, path = "/v1/inventory", tag = "inventory",
    params(
        ("category" = Option<InventoryCategory>, Query, description = "Only items of this category"),
        ("q" = Option<String>, Query, description = "Case-insensitive literal substring of the name"),
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [InventoryItem], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_items(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let category = query.one_of("category", &categories(), InventoryCategory::parse)?;
    let filter = InventoryFilter {
        category,
        q: query.get("q").map(str::to_owned),
    };
    let items = state.inventory.list(auth.0.user.id, &filter, page).await?;
    Ok(page_response(&req, &query, page, &items))
}

/// Add an ingredient on hand (`amount` 0 and `amount_unit` `kg` unless given).
#[utoipa::path(post, path = "/v1/inventory", tag = "inventory",
    request_body = CreateInventoryRequest,
    responses((status = 201, body = InventoryItem)))]
pub async fn create_item(
    auth: Authenticated,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let fields = read_new_item(&body.json()?)?;
    let item = state.inventory.create(auth.0.user.id, fields).await?;
    Ok(created(&item))
}

/// One inventory item.
#[utoipa::path(get, path = "/v1/inventory/{id}", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Inventory item id")),
    responses((status = 200, body = InventoryItem)))]
pub async fn get_item(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    Ok(HttpResponse::Ok().json(state.inventory.get(auth.0.user.id, id).await?))
}

/// Change any writable field of an item, `category` included.
#[utoipa::path(patch, path = "/v1/inventory/{id}", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Inventory item id")), request_body = UpdateInventoryRequest,
    responses((status = 200, body = InventoryItem)))]
pub async fn update_item(
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
    Ok(HttpResponse::Ok().json(state.inventory.update(auth.0.user.id, id, patch).await?))
}

/// Delete an item.
#[utoipa::path(delete, path = "/v1/inventory/{id}", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Inventory item id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_item(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    state.inventory.delete(auth.0.user.id, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Add `delta` to the amount atomically; a result below 0 is refused and nothing changes.
#[utoipa::path(post, path = "/v1/inventory/{id}/adjust", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Inventory item id")), request_body = AdjustInventoryRequest,
    responses((status = 200, body = InventoryItem),
        (status = 422, body = crate::error::ValidationErrorBody, description = "Invalid delta, or the amount would leave 0–100,000")))]
pub async fn adjust_item(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    let body = body.json()?;
    let mut f = Fields::of(&body)?;
    let delta = f.number("delta", rules::DELTA);
    let delta = f.required("delta", "number", delta);
    let delta = f.finish(delta)?.unwrap_or(0.0);
    Ok(HttpResponse::Ok().json(state.inventory.adjust(auth.0.user.id, id, delta).await?))
}
