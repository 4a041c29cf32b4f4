//! Liveness and readiness probes (no credential).

use actix_web::{HttpResponse, web};
use serde_json::json;
use utoipa::ToSchema;

use super::resource;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/healthz", "GET").route(web::get().to(healthz)))
        .service(resource("/readyz", "GET").route(web::get().to(readyz)));
}

/// The process is alive (no database involved).
#[utoipa::path(get, path = "/healthz", tag = "health",
    responses((status = 200, description = "Alive", body = Status)))]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(json!({"status": "ok"}))
}

/// The database answers.
#[utoipa::path(get, path = "/readyz", tag = "health", responses(
    (status = 200, description = "Ready", body = Status),
    (status = 503, description = "Database unreachable", body = crate::error::ErrorBody)))]
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

/// `{"status":"ok"}`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct Status {
    status: String,
}
