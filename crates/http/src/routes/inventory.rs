//! `/v1/inventory`: ingredients on hand, with an atomic `adjust`.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::inventory::{
    DEFAULT_AMOUNT, DEFAULT_AMOUNT_UNIT, InventoryCategory, InventoryFilter, InventoryItem,
    InventoryPatch, NewInventoryItem, rules,
};

use super::catalog::{check_link, fill_from_catalog};
use super::{created, page_response, resource};
use wort_domain::catalog::{CatalogItem, CatalogKind};
use wort_domain::error::Violation;

use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, DefaultValue, FieldSpec, Kind, Missing, Mode, OnCreate, Reader, request_body_schema,
};
use crate::caller::{Caller, CallerAndId};
use crate::error::ApiResult;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

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

/// An item's fields: any of them can change, `category` included.
static ITEM: BodySpec = BodySpec {
    rules: rules::ITEM_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::new("category", Kind::Enum(categories), OnCreate::Required),
        FieldSpec::new("name", Kind::Text, OnCreate::Required),
        FieldSpec::new(
            "amount",
            Kind::Number,
            OnCreate::Default(DefaultValue::Number(DEFAULT_AMOUNT)),
        ),
        FieldSpec::new(
            "amount_unit",
            Kind::Text,
            OnCreate::Default(DefaultValue::Text(DEFAULT_AMOUNT_UNIT)),
        ),
        FieldSpec::clearable("type", Kind::Text),
        FieldSpec::clearable("form", Kind::Text),
        FieldSpec::clearable("origin", Kind::Text),
        FieldSpec::clearable("alpha_acid", Kind::Number),
        FieldSpec::clearable("color_srm", Kind::Number),
        FieldSpec::clearable("yield_percent", Kind::Number),
        FieldSpec::clearable("attenuation", Kind::Number),
        FieldSpec::clearable("year", Kind::Integer),
        FieldSpec::clearable("notes", Kind::Text),
        FieldSpec::clearable("catalog_id", Kind::Uuid),
        FieldSpec::clearable("price_per_unit", Kind::Number),
        FieldSpec::clearable("best_before", Kind::Date),
    ],
};

static ADJUST: BodySpec = BodySpec {
    rules: rules::ADJUST_FIELDS,
    missing: Missing::Last,
    fields: &[FieldSpec::required("delta", Kind::Number)
        .described("Added to `amount` (negative to use up stock; 0 allowed).")],
};

request_body_schema!(
    /// `POST /v1/inventory`.
    CreateInventoryRequest,
    ITEM,
    Mode::Create,
    "Request body of `POST /v1/inventory`.",
    field_descriptions = false
);

request_body_schema!(
    /// `PATCH /v1/inventory/{id}`.
    UpdateInventoryRequest,
    ITEM,
    Mode::Update,
    "Request body of `PATCH /v1/inventory/{id}`: any writable field, `category` included.",
    field_descriptions = false
);

request_body_schema!(
    /// `POST /v1/inventory/{id}/adjust`.
    AdjustInventoryRequest,
    ADJUST,
    Mode::Create,
    "`POST /v1/inventory/{id}/adjust`.",
    field_descriptions = true
);

/// The fields sent: every one on create (defaults filled in), only those sent on update.
fn read_patch(f: &mut Reader) -> InventoryPatch {
    InventoryPatch {
        category: f.enumeration("category", InventoryCategory::parse),
        name: f.text("name"),
        amount: f.number("amount"),
        amount_unit: f.text("amount_unit"),
        kind: f.nullable_text("type"),
        form: f.nullable_text("form"),
        origin: f.nullable_text("origin"),
        alpha_acid: f.nullable_number("alpha_acid"),
        color_srm: f.nullable_number("color_srm"),
        yield_percent: f.nullable_number("yield_percent"),
        attenuation: f.nullable_number("attenuation"),
        #[allow(clippy::cast_possible_truncation)]
        year: f.nullable_integer("year").map(|y| y.map(|y| y as i32)),
        notes: f.nullable_text("notes"),
        catalog_id: f.nullable_uuid("catalog_id"),
        price_per_unit: f.nullable_number("price_per_unit"),
        best_before: f.nullable_date("best_before"),
    }
}

pub fn read_new_item(body: &Value, link: Option<Violation>) -> ApiResult<NewInventoryItem> {
    let mut f = Reader::new(body, &ITEM, Mode::Create)?;
    let p = read_patch(&mut f);
    // Each `None` left is a required field not sent, which `finish` reports.
    let fields = NewInventoryItem {
        category: p.category.unwrap_or(InventoryCategory::Misc),
        name: p.name.unwrap_or_default(),
        amount: p.amount.unwrap_or_default(),
        amount_unit: p.amount_unit.unwrap_or_default(),
        kind: p.kind.flatten(),
        form: p.form.flatten(),
        origin: p.origin.flatten(),
        alpha_acid: p.alpha_acid.flatten(),
        color_srm: p.color_srm.flatten(),
        yield_percent: p.yield_percent.flatten(),
        attenuation: p.attenuation.flatten(),
        year: p.year.flatten(),
        notes: p.notes.flatten(),
        catalog_id: p.catalog_id.flatten(),
        price_per_unit: p.price_per_unit.flatten(),
        best_before: p.best_before.flatten(),
    };
    if let Some(violation) = link {
        f.report(violation);
    }
    f.finish(fields)
}

fn read_update(body: &Value) -> ApiResult<InventoryPatch> {
    let mut f = Reader::new(body, &ITEM, Mode::Update)?;
    let patch = read_patch(&mut f);
    f.finish(patch)
}

fn read_delta(body: &Value) -> ApiResult<f64> {
    let mut f = Reader::new(body, &ADJUST, Mode::Create)?;
    let delta = f.number("delta");
    f.finish(delta.unwrap_or_default())
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
    Caller(user): Caller,
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
    let items = state.inventory.list(user, &filter, page).await?;
    Ok(page_response(&req, &query, page, &items))
}

/// Add an ingredient on hand (`amount` 0 and `amount_unit` `kg` unless given).
#[utoipa::path(post, path = "/v1/inventory", tag = "inventory",
    request_body = CreateInventoryRequest,
    responses((status = 201, body = InventoryItem)))]
pub async fn create_item(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let body = body.json()?;
    // The category, when sent, is the kind of catalogue item the link must name.
    let kind = body
        .get("category")
        .and_then(Value::as_str)
        .and_then(InventoryCategory::parse)
        .map(CatalogKind::of_category);
    let (body, link) =
        fill_from_catalog(&state, user, kind, body, CatalogItem::inventory_fields).await?;
    let fields = read_new_item(&body, link)?;
    let item = state.inventory.create(user, fields).await?;
    Ok(created(&item))
}

/// One inventory item.
#[utoipa::path(get, path = "/v1/inventory/{id}", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Inventory item id")),
    responses((status = 200, body = InventoryItem)))]
pub async fn get_item(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.inventory.get(user, id).await?))
}

/// Change any writable field of an item, `category` included.
#[utoipa::path(patch, path = "/v1/inventory/{id}", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Inventory item id")), request_body = UpdateInventoryRequest,
    responses((status = 200, body = InventoryItem)))]
pub async fn update_item(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_update(&body.json()?)?;
    if matches!(patch.catalog_id, Some(Some(_))) {
        // The link must name an item of the item's category (the new one, when it changes).
        let category = match patch.category {
            Some(category) => category,
            None => state.inventory.get(user, id).await?.category,
        };
        check_link(
            &state,
            user,
            Some(CatalogKind::of_category(category)),
            patch.catalog_id,
        )
        .await?;
    }
    Ok(HttpResponse::Ok().json(state.inventory.update(user, id, patch).await?))
}

/// Delete an item.
#[utoipa::path(delete, path = "/v1/inventory/{id}", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Inventory item id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_item(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.inventory.delete(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Add `delta` to the amount atomically; a result below 0 is refused and nothing changes.
#[utoipa::path(post, path = "/v1/inventory/{id}/adjust", tag = "inventory",
    params(("id" = uuid::Uuid, Path, description = "Inventory item id")), request_body = AdjustInventoryRequest,
    responses((status = 200, body = InventoryItem),
        (status = 422, body = crate::error::ValidationErrorBody, description = "Invalid delta, or the amount would leave 0–100,000")))]
pub async fn adjust_item(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let delta = read_delta(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.inventory.adjust(user, id, delta).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_tables_is_read() {
        assert_whole(&ITEM, |body| read_new_item(body, None).map(|_| ()));
        assert_whole(&ITEM, |body| read_update(body).map(|_| ()));
        assert_whole(&ADJUST, |body| read_delta(body).map(|_| ()));
    }
}
