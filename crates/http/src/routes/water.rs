//! Water chemistry: `/v1/water-profiles` (built-in classics, read-only, and the account's own),
//! `GET /v1/recipes/{recipe_id}/water` (the recipe's water report) and
//! `GET /v1/me/water-calibration` (predicted against measured mash pH).

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::water::rules::{self, DEFAULT_TARGET_PH, TARGET_PH};
use wort_domain::water::{
    WaterCalibration, WaterProfile, WaterProfileInput, WaterProfileKind, WaterProfilePatch,
    WaterReport,
};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, Choice, DefaultValue, FieldSpec, Kind, Missing, Mode, OnCreate, Reader,
    request_body_schema,
};
use crate::caller::{Caller, CallerAndId, CallerAndRecipeId};
use crate::error::{ApiError, ApiResult};
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

/// Inside the `/v1/water-profiles` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_profiles))
            .route(web::post().to(create_profile)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_profile))
            .route(web::patch().to(update_profile))
            .route(web::delete().to(delete_profile)),
    );
}

/// Inside the `/v1/recipes` scope.
pub fn configure_report(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/{recipe_id}/water", "GET").route(web::get().to(recipe_water)));
}

/// A fixed path beside `/v1/me`.
pub fn configure_calibration(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/v1/me/water-calibration", "GET").route(web::get().to(calibration)));
}

const fn ion(name: &'static str) -> FieldSpec {
    FieldSpec {
        name,
        kind: Kind::Number,
        on_create: OnCreate::Required,
        nullable: false,
        description: None,
    }
}

/// A profile's fields; ions in mg/L (ppm).
static WATER_PROFILE: BodySpec = BodySpec {
    rules: rules::WATER_PROFILE_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("name", Kind::Text),
        FieldSpec::new(
            "kind",
            Kind::Choice(Choice::inline::<WaterProfileKind>(WaterProfileKind::names)),
            OnCreate::Default(DefaultValue::Text("water")),
        ),
        ion("calcium"),
        ion("magnesium"),
        ion("sodium"),
        ion("sulfate"),
        ion("chloride"),
        FieldSpec {
            name: "bicarbonate",
            kind: Kind::Number,
            on_create: OnCreate::Required,
            nullable: false,
            description: Some("Alkalinity as HCO3⁻, mg/L (ppm as CaCO3 × 1.22)."),
        },
        FieldSpec::clearable("ph", Kind::Number)
            .described("The water's pH; null: unknown (7.0 is assumed)."),
        FieldSpec::clearable("source", Kind::Text)
            .described("Where the figures come from (a water report, a book)."),
    ],
};

request_body_schema!(
    /// `POST /v1/water-profiles`.
    CreateWaterProfileRequest,
    WATER_PROFILE,
    Mode::Create,
    "Request body of `POST /v1/water-profiles`: ions in mg/L.",
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/water-profiles/{id}`.
    UpdateWaterProfileRequest,
    WATER_PROFILE,
    Mode::Update,
    "Request body of `PATCH /v1/water-profiles/{id}`: only the fields sent change.",
    field_descriptions = false
);

fn read_patch(f: &mut Reader) -> WaterProfilePatch {
    WaterProfilePatch {
        name: f.text("name"),
        kind: f.enumeration("kind", WaterProfileKind::parse),
        calcium: f.number("calcium"),
        magnesium: f.number("magnesium"),
        sodium: f.number("sodium"),
        sulfate: f.number("sulfate"),
        chloride: f.number("chloride"),
        bicarbonate: f.number("bicarbonate"),
        ph: f.nullable_number("ph"),
        source: f.nullable_text("source"),
    }
}

fn read_new_profile(body: &Value) -> ApiResult<WaterProfileInput> {
    let mut f = Reader::new(body, &WATER_PROFILE, Mode::Create)?;
    let p = read_patch(&mut f);
    // Each `None` left is a required field not sent, which `finish` reports.
    let input = WaterProfileInput {
        kind: p.kind.unwrap_or_default(),
        name: p.name.unwrap_or_default(),
        calcium: p.calcium.unwrap_or_default(),
        magnesium: p.magnesium.unwrap_or_default(),
        sodium: p.sodium.unwrap_or_default(),
        sulfate: p.sulfate.unwrap_or_default(),
        chloride: p.chloride.unwrap_or_default(),
        bicarbonate: p.bicarbonate.unwrap_or_default(),
        ph: p.ph.flatten(),
        source: p.source.flatten(),
    };
    f.finish(input)
}

/// The built-in profiles (`builtin: true`, each with the `source` of its figures): first the
/// targets by beer (`kind: target`), then the classic waters (`kind: water`); then the
/// account's own, targets first; each group by name.
#[utoipa::path(get, path = "/v1/water-profiles", tag = "water",
    params(
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [WaterProfile], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_profiles(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let profiles = state.water.list(user, page).await?;
    Ok(page_response(&req, &query, page, &profiles))
}

/// Create a profile of the account's (at most 200).
#[utoipa::path(post, path = "/v1/water-profiles", tag = "water",
    request_body = CreateWaterProfileRequest,
    responses((status = 201, body = WaterProfile)))]
pub async fn create_profile(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let input = read_new_profile(&body.json()?)?;
    Ok(created(&state.water.create(user, input).await?))
}

/// One profile, built-in or the account's.
#[utoipa::path(get, path = "/v1/water-profiles/{id}", tag = "water",
    params(("id" = uuid::Uuid, Path, description = "Water profile id")),
    responses((status = 200, body = WaterProfile)))]
pub async fn get_profile(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.water.get(user, id).await?))
}

/// Change some fields of one of the account's profiles; a built-in one is read-only (`409`).
#[utoipa::path(patch, path = "/v1/water-profiles/{id}", tag = "water",
    params(("id" = uuid::Uuid, Path, description = "Water profile id")),
    request_body = UpdateWaterProfileRequest,
    responses((status = 200, body = WaterProfile),
        (status = 409, body = crate::error::ErrorBody, description = "A built-in profile")))]
pub async fn update_profile(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let body = body.json()?;
    let mut f = Reader::new(&body, &WATER_PROFILE, Mode::Update)?;
    let patch = read_patch(&mut f);
    let patch = f.finish(patch)?;
    Ok(HttpResponse::Ok().json(state.water.update(user, id, patch).await?))
}

/// Delete one of the account's profiles (recipes naming it stop naming it); a built-in one is
/// read-only (`409`).
#[utoipa::path(delete, path = "/v1/water-profiles/{id}", tag = "water",
    params(("id" = uuid::Uuid, Path, description = "Water profile id")),
    responses((status = 204, description = "Deleted"),
        (status = 409, body = crate::error::ErrorBody, description = "A built-in profile")))]
pub async fn delete_profile(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.water.delete(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The recipe's water: the mash (strike) water and all the water after the additions (mg/L),
/// residual alkalinity, SO4:Cl, the predicted mash pH at room temperature with the model's name
/// and the account's correction, and the acid (or base) that reaches `target_ph`.
#[utoipa::path(get, path = "/v1/recipes/{recipe_id}/water", tag = "water",
    params(("recipe_id" = uuid::Uuid, Path, description = "Recipe id"),
        ("target_ph" = Option<f64>, Query, minimum = 4.0, maximum = 7.0, description = "The mash pH aimed at, 4.0–7.0 (default 5.4)")),
    responses((status = 200, body = WaterReport)))]
pub async fn recipe_water(
    CallerAndRecipeId { user, recipe_id }: CallerAndRecipeId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let target_ph = match query.get("target_ph") {
        None => DEFAULT_TARGET_PH,
        Some(raw) => match raw.parse::<f64>() {
            Ok(ph) if (TARGET_PH.min..=TARGET_PH.max).contains(&ph) => ph,
            _ => {
                return Err(ApiError::bad_request(format!(
                    "Invalid query parameter target_ph: expected a number from {} to {}",
                    TARGET_PH.min, TARGET_PH.max
                )));
            }
        },
    };
    Ok(HttpResponse::Ok().json(state.water.report(user, recipe_id, target_ph).await?))
}

/// The account's brews with a measured mash pH beside the model's prediction, their mean error
/// (measured − predicted) and the correction added to every prediction once there are 3.
#[utoipa::path(get, path = "/v1/me/water-calibration", tag = "water",
    responses((status = 200, body = WaterCalibration)))]
pub async fn calibration(
    Caller(user): Caller,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.water.calibration(user).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_of_the_table_is_read() {
        crate::body::spec::assert_whole(&WATER_PROFILE, |body| read_new_profile(body).map(|_| ()));
    }
}
