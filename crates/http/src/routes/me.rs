//! `GET /v1/me`: who the credential belongs to; `/v1/me/preferences`: how the web app shows
//! numbers to them (the API itself is always metric and SG).

use actix_web::{HttpResponse, web};
use serde_json::Value;
use wort_domain::account::currency::{currency, currency_codes};
use wort_domain::account::{
    AmountUnits, ColorDisplay, GravityDisplay, Me, Preferences, PreferencesPatch,
    TemperatureDisplay,
};

use super::resource;
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, Choice, FieldSpec, Kind, Missing, Mode, OnCreate, Reader, request_body_schema,
};
use crate::caller::Caller;
use crate::credentials::Authenticated;
use crate::error::ApiResult;
use crate::state::AppState;

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

/// A preference: one of its type's values, left alone when not sent.
const fn preference(name: &'static str, choice: Choice) -> FieldSpec {
    FieldSpec {
        name,
        kind: Kind::Choice(choice),
        on_create: OnCreate::Optional,
        nullable: false,
        description: None,
    }
}

/// The display preferences; an update body only (the account starts with the defaults).
static PREFERENCES: BodySpec = BodySpec {
    rules: &[],
    missing: Missing::Last,
    fields: &[
        preference("amounts", Choice::inline::<AmountUnits>(AmountUnits::names)),
        preference(
            "gravity",
            Choice::inline::<GravityDisplay>(GravityDisplay::names),
        ),
        preference("color", Choice::inline::<ColorDisplay>(ColorDisplay::names)),
        preference(
            "temperature",
            Choice::inline::<TemperatureDisplay>(TemperatureDisplay::names),
        ),
        FieldSpec::clearable("currency", Kind::Enum(currency_codes)).described(
            "The ISO 4217 code (upper case, an active code) of the currency the account's \
             prices are in; null clears it. wort never converts: cost answers carry it so a \
             client can write amounts with its symbol.",
        ),
    ],
};

request_body_schema!(
    /// `PATCH /v1/me/preferences`.
    UpdatePreferencesRequest,
    PREFERENCES,
    Mode::Update,
    "Request body of `PATCH /v1/me/preferences`: any of the five; the others stay.",
    field_descriptions = true
);

fn read_patch(body: &Value) -> ApiResult<PreferencesPatch> {
    let mut f = Reader::new(body, &PREFERENCES, Mode::Update)?;
    let patch = PreferencesPatch {
        amounts: f.enumeration("amounts", AmountUnits::parse),
        gravity: f.enumeration("gravity", GravityDisplay::parse),
        color: f.enumeration("color", ColorDisplay::parse),
        temperature: f.enumeration("temperature", TemperatureDisplay::parse),
        currency: f.nullable_enumeration("currency", currency),
    };
    f.finish(patch)
}

/// The account's display preferences (the API itself is always metric and SG).
#[utoipa::path(get, path = "/v1/me/preferences", tag = "account",
    responses((status = 200, body = Preferences)))]
pub async fn get_preferences(
    Caller(user): Caller,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let preferences = state.accounts.preferences(user).await?;
    Ok(HttpResponse::Ok().json(preferences))
}

/// Change some display preferences; answers the whole set.
#[utoipa::path(patch, path = "/v1/me/preferences", tag = "account",
    request_body = UpdatePreferencesRequest,
    responses((status = 200, body = Preferences)))]
pub async fn update_preferences(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_patch(&body.json()?)?;
    let preferences = state.accounts.update_preferences(user, patch).await?;
    Ok(HttpResponse::Ok().json(preferences))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_table_is_read() {
        assert_whole(&PREFERENCES, |body| read_patch(body).map(|_| ()));
    }
}
