//! `GET /v1/me`: who the credential belongs to.

use actix_web::{HttpResponse, web};
use wort_domain::account::Me;

use super::resource;
use crate::credentials::Authenticated;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/v1/me", "GET").route(web::get().to(me)));
}

/// The account behind the credential (also the way to check a key).
#[utoipa::path(get, path = "/v1/me", tag = "account", security(("api_key" = []), ("session_cookie" = [])),
    responses((status = 200, body = Me), (status = 401, body = crate::openapi::ErrorBody)))]
pub async fn me(auth: Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(Me::from(&auth.0.user))
}
