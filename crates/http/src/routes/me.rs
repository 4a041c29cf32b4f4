//! `GET /v1/me`: who the credential belongs to; `/v1/me/preferences`: how the web app shows
//! numbers to them (CONTRACT §8).

use actix_web::{HttpResponse, web};
use utoipa::ToSchema;
use wort_domain::account::{
    AmountUnits, ColorDisplay, GravityDisplay, Me, Preferences, PreferencesPatch,
    TemperatureDisplay,
};

use super::resource;
use crate::body::JsonBody;
use crate::credentials::Authenticated;
use crate::error::ApiResult;
use crate::state::AppState;
use crate::validation::Fields;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/v1/me", "GET").route(web::get().to(me)))
        .service(
            resource("/v1/me/preferences", "GET, PATCH")
                .route(web::get().to(get_preferences))
                .route(web::patch().to(update_preferences)),
        );
}

/// The account behind the credential (also the way to check a key).
#[utoipa::path(get, path = "/v1/me", tag = "account",
    responses((status = 200, body = Me)))]
pub async fn me(auth: Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(Me::from(&auth.0.user))
}

/// Request body of `PATCH /v1/me/preferences`: any of the four; the others stay.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct UpdatePreferencesRequest {
    #[schema(inline, nullable = false)]
    amounts: Option<AmountUnits>,
    #[schema(inline, nullable = false)]
    gravity: Option<GravityDisplay>,
    #[schema(inline, nullable = false)]
    color: Option<ColorDisplay>,
    #[schema(inline, nullable = false)]
    temperature: Option<TemperatureDisplay>,
}

/// The account's display preferences (the API itself is always metric and SG).
#[utoipa::path(get, path = "/v1/me/preferences", tag = "account",
    responses((status = 200, body = Preferences)))]
pub async fn get_preferences(
    auth: Authenticated,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let preferences = state.accounts.preferences(auth.0.user.id).await?;
    Ok(HttpResponse::Ok().json(preferences))
}

/// Change some display preferences; answers the whole set.
#[utoipa::path(patch, path = "/v1/me/preferences", tag = "account",
    request_body = UpdatePreferencesRequest,
    responses((status = 200, body = Preferences)))]
pub async fn update_preferences(
    auth: Authenticated,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let body = body.json()?;
    let mut f = Fields::of(&body)?;
    let amounts = f.enumeration("amounts", &AmountUnits::names(), AmountUnits::parse);
    let gravity = f.enumeration("gravity", &GravityDisplay::names(), GravityDisplay::parse);
    let color = f.enumeration("color", &ColorDisplay::names(), ColorDisplay::parse);
    let temperature = f.enumeration(
        "temperature",
        &TemperatureDisplay::names(),
        TemperatureDisplay::parse,
    );
    let patch = PreferencesPatch {
        amounts: f.optional("amounts", "string", amounts),
        gravity: f.optional("gravity", "string", gravity),
        color: f.optional("color", "string", color),
        temperature: f.optional("temperature", "string", temperature),
    };
    let patch = f.finish(patch)?;
    let preferences = state
        .accounts
        .update_preferences(auth.0.user.id, patch)
        .await?;
    Ok(HttpResponse::Ok().json(preferences))
}
