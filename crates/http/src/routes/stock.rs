//! Inventory that follows the brewing: a brew session's deduction from the stock
//! (`/v1/sessions/{id}/inventory-deduction`), the shopping list (`/v1/shopping-list`) and a
//! recipe's cost (`/v1/recipes/{id}/cost`). The matching, units and sums are the domain's
//! (`wort_domain::inventory::stock`); these handlers read the request and answer.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use uuid::Uuid;
use wort_domain::inventory::stock::{InventoryDeduction, RecipeCost, ShoppingLine, shopping_text};

use super::resource;
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, DefaultValue, FieldSpec, Kind, Missing, Mode, OnCreate, Reader, request_body_schema,
};
use crate::caller::{Caller, CallerAndId};
use crate::error::{ApiError, ApiResult};
use crate::params::{Query, parse_canonical_uuid};
use crate::state::AppState;

/// The most `recipe_id`s, and the most `session_id`s, one shopping list may be asked for
/// (`400` beyond), counted as sent: the document shows it as each parameter's `maxItems`, which
/// counts repeats too.
pub const MAX_SHOPPING_BREWS: usize = 50;

/// Inside the `/v1/sessions` scope.
pub fn configure_deduction(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("/{id}/inventory-deduction", "POST, DELETE")
            .route(web::post().to(deduct))
            .route(web::delete().to(undo_deduction)),
    );
}

/// Inside the `/v1/recipes` scope.
pub fn configure_cost(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/{id}/cost", "GET").route(web::get().to(recipe_cost)));
}

/// `/v1/shopping-list`.
pub fn configure_shopping(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/v1/shopping-list", "GET").route(web::get().to(shopping_list)));
}

static DEDUCTION: BodySpec = BodySpec {
    rules: &[],
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("preview", Kind::Boolean).described(
            "true: the lines only, nothing changes. false: take them from the stock in one \
             transaction (once per session; a shortfall refuses it all unless `partial`).",
        ),
        FieldSpec::new(
            "partial",
            Kind::Boolean,
            OnCreate::Default(DefaultValue::Bool(false)),
        )
        .described(
            "With `preview: false`: a short line takes what is on hand (its item ends at 0) \
             and keeps its `short`, the amount still missing, which the shopping list then \
             lists; the other lines are taken whole. Changes nothing in a preview.",
        ),
    ],
};

request_body_schema!(
    /// `POST /v1/sessions/{id}/inventory-deduction`.
    InventoryDeductionRequest,
    DEDUCTION,
    Mode::Create,
    "Request body of `POST /v1/sessions/{id}/inventory-deduction`.",
    field_descriptions = true
);

/// `(preview, partial)`.
fn read_deduction(body: &Value) -> ApiResult<(bool, bool)> {
    let mut f = Reader::new(body, &DEDUCTION, Mode::Create)?;
    let preview = f.boolean("preview");
    let partial = f.boolean("partial");
    f.finish((preview.unwrap_or(true), partial.unwrap_or(false)))
}

/// A session's recipe ingredients against the stock: each matched to an item (by `catalog_id`,
/// else by kind and name ignoring case), the amount needed in the item's unit, on hand, short.
/// With `preview: false` the lines are taken from the stock in one transaction, once per session:
/// all or nothing, or with `partial: true` what is on hand for a short line (its shortfall is
/// recorded, and the shopping list of the session lists it).
#[utoipa::path(post, path = "/v1/sessions/{id}/inventory-deduction", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Brew session id")),
    request_body = InventoryDeductionRequest,
    responses((status = 200, body = InventoryDeduction),
        (status = 409, body = crate::error::ErrorBody, description = "Already applied for this session"),
        (status = 422, body = crate::error::ValidationErrorBody, description = "Invalid body, or (without `partial`) a line is short (one detail per short line at `[\"lines\", i]`); nothing changed")))]
pub async fn deduct(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let (preview, partial) = read_deduction(&body.json()?)?;
    let deduction = state
        .inventory
        .deduction(user, id, preview, partial)
        .await?;
    Ok(HttpResponse::Ok().json(deduction))
}

/// Undo a session's deduction: exactly what was taken goes back to its item (for a partial
/// deduction, what was on hand, not what was needed).
#[utoipa::path(delete, path = "/v1/sessions/{id}/inventory-deduction", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Brew session id")),
    responses((status = 204, description = "Put back"),
        (status = 404, body = crate::error::ErrorBody, description = "No such session, or no deduction applied")))]
pub async fn undo_deduction(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.inventory.undo_deduction(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The repeated `recipe_id` and `session_id` parameters, in order.
fn brew_ids(req: &HttpRequest) -> ApiResult<(Vec<Uuid>, Vec<Uuid>)> {
    // Refuses a malformed query string, U+0000 or another parameter sent twice, as every list
    // does; these two are meant to repeat.
    Query::with_repeatable(req, &["recipe_id", "session_id"])?;
    let pairs = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map_err(|_| ApiError::bad_request("Malformed query string"))?
        .into_inner();
    let (mut recipes, mut sessions) = (Vec::new(), Vec::new());
    let (mut recipes_sent, mut sessions_sent) = (0, 0);
    for (key, value) in pairs {
        let (list, sent) = match key.as_str() {
            "recipe_id" => (&mut recipes, &mut recipes_sent),
            "session_id" => (&mut sessions, &mut sessions_sent),
            _ => continue,
        };
        *sent += 1;
        if *sent > MAX_SHOPPING_BREWS {
            return Err(ApiError::bad_request(format!(
                "Invalid query parameter {key}: at most {MAX_SHOPPING_BREWS} in one shopping list"
            )));
        }
        let id = parse_canonical_uuid(&value).ok_or_else(|| {
            ApiError::bad_request(format!("Invalid query parameter {key}: expected a UUID"))
        })?;
        if !list.contains(&id) {
            list.push(id);
        }
    }
    Ok((recipes, sessions))
}

/// The document's `maxItems` of `recipe_id` and `session_id`: [`MAX_SHOPPING_BREWS`], the bound
/// [`brew_ids`] applies, written once.
pub struct ShoppingListBounds;

impl utoipa::Modify for ShoppingListBounds {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::Schema;
        let Some(get) = openapi
            .paths
            .paths
            .get_mut("/v1/shopping-list")
            .and_then(|item| item.get.as_mut())
        else {
            return;
        };
        for parameter in get.parameters.iter_mut().flatten() {
            if !matches!(parameter.name.as_str(), "recipe_id" | "session_id") {
                continue;
            }
            if let Some(RefOr::T(Schema::Array(array))) = parameter.schema.as_mut() {
                array.max_items = Some(MAX_SHOPPING_BREWS);
            }
        }
    }
}

fn wants_text(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| {
            accept
                .split(',')
                .any(|part| part.trim().to_ascii_lowercase().starts_with("text/plain"))
        })
}

/// What the chosen recipes and sessions need beyond what is on hand, by kind then name, in each
/// item's unit (metric for ingredients no item matches). A session whose deduction is applied
/// needs only what a partial deduction left missing. `Accept: text/plain` answers a list to
/// paste.
#[utoipa::path(get, path = "/v1/shopping-list", tag = "inventory",
    params(
        ("recipe_id" = Option<Vec<uuid::Uuid>>, Query, description = "A recipe to brew (repeatable; `maxItems` times at most)"),
        ("session_id" = Option<Vec<uuid::Uuid>>, Query, description = "A planned brew session (repeatable; `maxItems` times at most)"),
    ),
    responses((status = 200, description = "The things to buy",
        content((Vec<ShoppingLine> = "application/json"), (String = "text/plain"))),
        (status = 404, body = crate::error::ErrorBody, description = "A recipe or session that is not the caller's"),
        (status = 503, description = "Too many exports, shopping lists and costs being made at once (no free slot within the database deadline), or the database unavailable; retry after `Retry-After` seconds",
            body = crate::error::ErrorBody, headers(("Retry-After" = u64)))))]
pub async fn shopping_list(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let (recipes, sessions) = brew_ids(&req)?;
    // Matched against the whole inventory, however large: one of the few heavy answers at once.
    state.heavy.admit(&req).await?;
    let lines = state
        .inventory
        .shopping_list(user, &recipes, &sessions)
        .await?;
    if wants_text(&req) {
        return Ok(HttpResponse::Ok()
            .content_type("text/plain; charset=utf-8")
            .body(shopping_text(&lines)));
    }
    Ok(HttpResponse::Ok().json(lines))
}

/// A recipe's cost from the prices of the items its ingredients match (per ingredient, the
/// batch, per litre, and the ingredients without a price), with how the stock covers each.
#[utoipa::path(get, path = "/v1/recipes/{id}/cost", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    responses((status = 200, body = RecipeCost),
        (status = 503, description = "Too many exports, shopping lists and costs being made at once (no free slot within the database deadline), or the database unavailable; retry after `Retry-After` seconds",
            body = crate::error::ErrorBody, headers(("Retry-After" = u64)))))]
pub async fn recipe_cost(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    // Matched against the whole inventory, however large: one of the few heavy answers at once.
    state.heavy.admit(&req).await?;
    Ok(HttpResponse::Ok().json(state.inventory.recipe_cost(user, id).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_table_is_read() {
        assert_whole(&DEDUCTION, |body| read_deduction(body).map(|_| ()));
    }
}
