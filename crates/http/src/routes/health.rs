//! Liveness and readiness probes (no credential).

use actix_web::{HttpResponse, web};
use serde_json::json;

use super::resource;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/healthz", "GET").route(web::get().to(healthz)))
        .service(resource("/readyz", "GET").route(web::get().to(readyz)));
}

/// The process is alive (no database involved).
#[utoipa::path(get, path = "/healthz", tag = "health",
    responses((status = 200, description = "Alive", body = crate::openapi::Status)))]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(json!({"status": "ok"}))
}

/// The database answers.
#[utoipa::path(get, path = "/readyz", tag = "health", responses(
    (status = 200, description = "Ready", body = crate::openapi::Status),
    (status = 503, description = "Database unreachable", body = crate::openapi::ErrorBody)))]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    match state.health.ping().await {
        Ok(()) => HttpResponse::Ok().json(json!({"status": "ok"})),
        Err(e) => {
            tracing::warn!(detail = %e, "not ready");
            HttpResponse::ServiceUnavailable()
                .insert_header(("Retry-After", "5"))
                .json(json!({"error": "Database unavailable"}))
        }
    }
}
