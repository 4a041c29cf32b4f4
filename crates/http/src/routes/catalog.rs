//! `/v1/catalog/{fermentables,hops,yeasts,miscs}`: the ingredient catalogue, built-in items and
//! the account's own, searched as a person types (docs/api-rules.md, "Ingredient catalogue").
//!
//! Each kind has one table of its body's fields; one reader reads every kind's table, the
//! descriptive fields into a JSON object the domain turns into the kind's details.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::catalog::{
    CatalogDetails, CatalogFermentable, CatalogHop, CatalogItem, CatalogKind, CatalogMisc,
    CatalogPatch, CatalogSource, CatalogYeast, Flocculation, HopPurpose, MAX_ALIASES,
    NewCatalogItem, rules,
};
use wort_domain::error::Violation;
use wort_domain::recipe_children::{FermentableType, MiscType, MiscUse, YeastForm, YeastType};
use wort_domain::{DomainError, UserId};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::body::spec::{BodySpec, Choice, FieldSpec, Kind, Missing, Mode, Reader};
use crate::caller::{Caller, CallerAndId};
use crate::error::ApiResult;
use crate::params::Query;
use crate::state::AppState;

/// An enum shown with its domain type's schema, and its values.
macro_rules! choice {
    ($type:ty) => {
        Kind::Choice(Choice::inline::<$type>(|| {
            <$type>::ALL.iter().map(<$type>::as_str).collect()
        }))
    };
}

const NAME: FieldSpec = FieldSpec::required("name", Kind::Text);
const ALIASES: FieldSpec = FieldSpec::new(
    "aliases",
    Kind::TextArray(MAX_ALIASES),
    crate::body::spec::OnCreate::Optional,
)
.described("Other names it goes by; a search finds the item by any of them. `[]` unless given.");
const NOTES: FieldSpec = FieldSpec::clearable("notes", Kind::Text);

static FERMENTABLE: BodySpec = BodySpec {
    rules: rules::FERMENTABLE_FIELDS,
    missing: Missing::Last,
    fields: &[
        NAME,
        ALIASES,
        FieldSpec::clearable("type", choice!(FermentableType)),
        FieldSpec::clearable("color_srm", Kind::Number),
        FieldSpec::clearable("yield_percent", Kind::Number),
        FieldSpec::clearable("origin", Kind::Text),
        FieldSpec::clearable("supplier", Kind::Text),
        FieldSpec::clearable("diastatic_power_lintner", Kind::Number),
        NOTES,
    ],
};

static HOP: BodySpec = BodySpec {
    rules: rules::HOP_FIELDS,
    missing: Missing::Last,
    fields: &[
        NAME,
        ALIASES,
        FieldSpec::clearable("alpha_acid", Kind::Number),
        FieldSpec::clearable("beta_acid", Kind::Number),
        FieldSpec::clearable("origin", Kind::Text),
        FieldSpec::clearable("purpose", choice!(HopPurpose)),
        NOTES,
    ],
};

static YEAST: BodySpec = BodySpec {
    rules: rules::YEAST_FIELDS,
    missing: Missing::Last,
    fields: &[
        NAME,
        ALIASES,
        FieldSpec::clearable("lab", Kind::Text),
        FieldSpec::clearable("product_id", Kind::Text),
        FieldSpec::clearable("type", choice!(YeastType)),
        FieldSpec::clearable("form", choice!(YeastForm)),
        FieldSpec::clearable("attenuation", Kind::Number),
        FieldSpec::clearable("attenuation_min", Kind::Number),
        FieldSpec::clearable("attenuation_max", Kind::Number),
        FieldSpec::clearable("min_temp_c", Kind::Number),
        FieldSpec::clearable("max_temp_c", Kind::Number),
        FieldSpec::clearable("flocculation", choice!(Flocculation)),
        NOTES,
    ],
};

static MISC: BodySpec = BodySpec {
    rules: rules::MISC_FIELDS,
    missing: Missing::Last,
    fields: &[
        NAME,
        ALIASES,
        FieldSpec::clearable("type", choice!(MiscType)),
        FieldSpec::clearable("use", choice!(MiscUse)),
        FieldSpec::clearable("amount_unit", Kind::Text),
        NOTES,
    ],
};

fn spec(kind: CatalogKind) -> &'static BodySpec {
    match kind {
        CatalogKind::Fermentable => &FERMENTABLE,
        CatalogKind::Hop => &HOP,
        CatalogKind::Yeast => &YEAST,
        CatalogKind::Misc => &MISC,
    }
}

/// Every field of the kind's table: the common ones, and the descriptive ones sent (`null`
/// included: it clears) as JSON values.
fn read_fields(kind: CatalogKind, r: &mut Reader) -> CatalogPatch {
    let mut patch = CatalogPatch::default();
    for field in spec(kind).fields {
        let name = field.name;
        let value: Option<Option<Value>> = match (name, field.kind) {
            ("name", _) => {
                patch.name = r.text(name);
                continue;
            }
            ("aliases", _) => {
                patch.aliases = r.text_array(name);
                continue;
            }
            ("notes", _) => {
                patch.notes = r.nullable_text(name);
                continue;
            }
            (_, Kind::Number) => r.nullable_number(name).map(|v| v.map(Value::from)),
            // Checked against the table's values and kept as a string: one reader, every kind.
            (_, Kind::Choice(_)) => r.nullable_choice(name).map(|v| v.map(Value::from)),
            _ => r.nullable_text(name).map(|v| v.map(Value::from)),
        };
        if let Some(value) = value {
            patch
                .details
                .insert(name.to_owned(), value.unwrap_or(Value::Null));
        }
    }
    patch
}

pub fn read_new_item(kind: CatalogKind, body: &Value) -> ApiResult<NewCatalogItem> {
    let mut r = Reader::new(body, spec(kind), Mode::Create)?;
    let p = read_fields(kind, &mut r);
    let details = match CatalogDetails::from_json(kind, Value::Object(p.details)) {
        Ok(details) => details,
        // Every value was checked against the table, so this does not happen; if it did, the
        // item would be stored with unknown fields rather than wrong ones.
        Err(_) => CatalogDetails::empty(kind),
    };
    let new = NewCatalogItem {
        name: p.name.unwrap_or_default(),
        aliases: p.aliases.unwrap_or_default(),
        details,
        notes: p.notes.flatten(),
    };
    r.finish(new)
}

pub fn read_patch(kind: CatalogKind, body: &Value) -> ApiResult<CatalogPatch> {
    let mut r = Reader::new(body, spec(kind), Mode::Update)?;
    let patch = read_fields(kind, &mut r);
    r.finish(patch)
}

async fn list_items(
    kind: CatalogKind,
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(rules::DEFAULT_PAGE_SIZE, rules::MAX_PAGE_SIZE)?;
    let source = query.one_of("source", &["builtin", "mine"], CatalogSource::parse)?;
    let items = state
        .catalog
        .list(user, kind, query.get("q"), source, page)
        .await?;
    Ok(page_response(&req, &query, page, &items))
}

async fn create_item(
    kind: CatalogKind,
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_item(kind, &body.json()?)?;
    Ok(created(&state.catalog.create(user, new).await?))
}

async fn get_item(
    kind: CatalogKind,
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.catalog.get(user, kind, id).await?))
}

async fn update_item(
    kind: CatalogKind,
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_patch(kind, &body.json()?)?;
    Ok(HttpResponse::Ok().json(state.catalog.update(user, kind, id, patch).await?))
}

async fn delete_item(
    kind: CatalogKind,
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.catalog.delete(user, kind, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A create body of something that can be filled from the catalogue (a recipe child, an
/// inventory item): with a `catalog_id` naming an item the account can see (of `kind` when
/// known), the item's fields (`fields` names them as the body does) under those sent, so what is
/// sent wins and what is required may come from the item. When the id names no such item, the
/// body as sent and the violation to report with its other failures. Without a well-formed
/// `catalog_id`, the body as sent (its reader reports a malformed one).
pub(crate) async fn fill_from_catalog(
    state: &AppState,
    user: UserId,
    kind: Option<CatalogKind>,
    body: Value,
    fields: fn(&CatalogItem) -> serde_json::Map<String, Value>,
) -> ApiResult<(Value, Option<Violation>)> {
    let Some(id) = body
        .get("catalog_id")
        .and_then(Value::as_str)
        .and_then(|id| uuid::Uuid::parse_str(id).ok())
    else {
        return Ok((body, None));
    };
    match state.catalog.link(user, kind, id).await {
        Ok(item) => {
            let mut filled = fields(&item);
            if let Value::Object(sent) = body {
                filled.extend(sent);
            }
            Ok((Value::Object(filled), None))
        }
        Err(DomainError::Invalid(mut violations)) if !violations.is_empty() => {
            Ok((body, Some(violations.remove(0))))
        }
        Err(other) => Err(other.into()),
    }
}

/// A PATCH that sets `catalog_id` must name an item the account can see, of `kind` when known.
pub(crate) async fn check_link(
    state: &AppState,
    user: UserId,
    kind: Option<CatalogKind>,
    catalog_id: Option<Option<uuid::Uuid>>,
) -> ApiResult<()> {
    if let Some(Some(id)) = catalog_id {
        state.catalog.link(user, kind, id).await?;
    }
    Ok(())
}

/// One module of documented handlers per kind (utoipa needs a function per path and method).
macro_rules! catalog_routes {
    ($module:ident, $kind:expr, $entity:ty, $create_body:ty, $update_body:ty,
     $collection:literal, $item:literal, $scope_collection:literal, $scope_item:literal) => {
        pub mod $module {
            use super::*;

            #[doc = "Built-in items and the account's own. With `q`, best match first (case, accents and punctuation ignored, prefixes and typos found; the account's own before built-in ones of equal match); without, alphabetical."]
            #[utoipa::path(get, path = $collection, operation_id = concat!("list_catalog_", stringify!($module)), tag = "catalog",
                params(
                    ("q" = Option<String>, Query, description = "Search text"),
                    ("source" = Option<CatalogSource>, Query, description = "Only `builtin` items, or only the account's own (`mine`); both without"),
                    ("limit" = Option<i64>, Query, description = "Page size (default 20)"),
                    ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
                ),
                responses((status = 200, body = [$entity], headers(("X-Total-Count" = i64), ("Link" = String)))))]
            pub async fn list(caller: Caller, req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
                list_items($kind, caller, req, state).await
            }

            #[doc = "Add an item of the account's own (`source: \"mine\"`)."]
            #[utoipa::path(post, path = $collection, operation_id = concat!("create_catalog_", stringify!($module)), tag = "catalog",
                request_body = $create_body,
                responses((status = 201, body = $entity),
                    (status = 422, body = crate::error::ValidationErrorBody, description = "Invalid body, or the account already keeps 2,000 items of its own")))]
            pub async fn create(caller: Caller, state: web::Data<AppState>, body: JsonBody) -> ApiResult<HttpResponse> {
                create_item($kind, caller, state, body).await
            }

            #[doc = "One item, built-in or the account's own."]
            #[utoipa::path(get, path = $item, operation_id = concat!("get_catalog_", stringify!($module)), tag = "catalog",
                params(("id" = uuid::Uuid, Path, description = "Catalogue item id")),
                responses((status = 200, body = $entity)))]
            pub async fn get(caller: CallerAndId, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
                get_item($kind, caller, state).await
            }

            #[doc = "Change some fields of one of the account's own items; recipes filled from it keep their values."]
            #[utoipa::path(patch, path = $item, operation_id = concat!("update_catalog_", stringify!($module)), tag = "catalog",
                params(("id" = uuid::Uuid, Path, description = "Catalogue item id")), request_body = $update_body,
                responses((status = 200, body = $entity),
                    (status = 409, body = crate::error::ErrorBody, description = "A built-in item: read-only")))]
            pub async fn update(caller: CallerAndId, state: web::Data<AppState>, body: JsonBody) -> ApiResult<HttpResponse> {
                update_item($kind, caller, state, body).await
            }

            #[doc = "Delete one of the account's own items; what was filled from it keeps its values and loses the link."]
            #[utoipa::path(delete, path = $item, operation_id = concat!("delete_catalog_", stringify!($module)), tag = "catalog",
                params(("id" = uuid::Uuid, Path, description = "Catalogue item id")),
                responses((status = 204, description = "Deleted"),
                    (status = 409, body = crate::error::ErrorBody, description = "A built-in item: read-only")))]
            pub async fn delete(caller: CallerAndId, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
                delete_item($kind, caller, state).await
            }

            /// Inside the `/v1/catalog` scope.
            pub fn configure(cfg: &mut web::ServiceConfig) {
                cfg.service(
                    resource($scope_collection, "GET, POST")
                        .route(web::get().to(list))
                        .route(web::post().to(create)),
                )
                .service(
                    resource($scope_item, "GET, PATCH, DELETE")
                        .route(web::get().to(get))
                        .route(web::patch().to(update))
                        .route(web::delete().to(delete)),
                );
            }
        }
    };
}

catalog_routes!(
    fermentables,
    CatalogKind::Fermentable,
    CatalogFermentable,
    schema::CreateCatalogFermentable,
    schema::UpdateCatalogFermentable,
    "/v1/catalog/fermentables",
    "/v1/catalog/fermentables/{id}",
    "/fermentables",
    "/fermentables/{id}"
);
catalog_routes!(
    hops,
    CatalogKind::Hop,
    CatalogHop,
    schema::CreateCatalogHop,
    schema::UpdateCatalogHop,
    "/v1/catalog/hops",
    "/v1/catalog/hops/{id}",
    "/hops",
    "/hops/{id}"
);
catalog_routes!(
    yeasts,
    CatalogKind::Yeast,
    CatalogYeast,
    schema::CreateCatalogYeast,
    schema::UpdateCatalogYeast,
    "/v1/catalog/yeasts",
    "/v1/catalog/yeasts/{id}",
    "/yeasts",
    "/yeasts/{id}"
);
catalog_routes!(
    miscs,
    CatalogKind::Misc,
    CatalogMisc,
    schema::CreateCatalogMisc,
    schema::UpdateCatalogMisc,
    "/v1/catalog/miscs",
    "/v1/catalog/miscs/{id}",
    "/miscs",
    "/miscs/{id}"
);

/// Inside the `/v1/catalog` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    fermentables::configure(cfg);
    hops::configure(cfg);
    yeasts::configure(cfg);
    miscs::configure(cfg);
}

/// Request bodies of the OpenAPI document, built from the tables above.
pub mod schema {
    use super::{FERMENTABLE, HOP, MISC, YEAST};
    use crate::body::spec::{Mode, request_body_schema};

    request_body_schema!(
        CreateCatalogFermentable,
        FERMENTABLE,
        Mode::Create,
        field_descriptions = true
    );
    request_body_schema!(
        UpdateCatalogFermentable,
        FERMENTABLE,
        Mode::Update,
        field_descriptions = false
    );
    request_body_schema!(
        CreateCatalogHop,
        HOP,
        Mode::Create,
        field_descriptions = true
    );
    request_body_schema!(
        UpdateCatalogHop,
        HOP,
        Mode::Update,
        field_descriptions = false
    );
    request_body_schema!(
        CreateCatalogYeast,
        YEAST,
        Mode::Create,
        field_descriptions = true
    );
    request_body_schema!(
        UpdateCatalogYeast,
        YEAST,
        Mode::Update,
        field_descriptions = false
    );
    request_body_schema!(
        CreateCatalogMisc,
        MISC,
        Mode::Create,
        field_descriptions = true
    );
    request_body_schema!(
        UpdateCatalogMisc,
        MISC,
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
        for kind in CatalogKind::ALL {
            assert_whole(spec(kind), |body| read_new_item(kind, body).map(|_| ()));
            assert_whole(spec(kind), |body| read_patch(kind, body).map(|_| ()));
        }
    }
}
