//! `/v1/styles`: the BJCP 2021 styles, names and numeric ranges only (docs/styles-source.md). Read-only
//! and the same for every account; any credential may read them.

use actix_web::{HttpRequest, HttpResponse, web};
use wort_domain::brewing::{Style, style, styles};
use wort_domain::recipe::STYLE_ID;

use super::resource;
use crate::credentials::Authenticated;
use crate::error::{ApiError, ApiResult};

/// Inside the `/v1/styles` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("", "GET").route(web::get().to(list_styles)))
        // `style_id`, not `id`: a style's id is a BJCP code, never one of the UUIDs every other
        // `{id}` of the API takes (API fuzzers infer links between operations by these names).
        .service(resource("/{style_id}", "GET").route(web::get().to(get_style)));
}

/// Every BJCP 2021 style, in guideline order (about 120; not paged). A range is `null` where the
/// guidelines give none.
#[utoipa::path(get, path = "/v1/styles", tag = "styles",
    responses((status = 200, body = [Style])))]
pub async fn list_styles(_auth: Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(styles())
}

/// One style by its BJCP id (`21A`, `X5`…), matched exactly. An id that cannot be a style id
/// (not 1–10 ASCII letters and digits) is `400`, as a malformed UUID is elsewhere.
#[utoipa::path(get, path = "/v1/styles/{style_id}", tag = "styles",
    params(("style_id" = String, Path, description = "BJCP style id, e.g. 21A")),
    responses((status = 200, body = Style)))]
pub async fn get_style(_auth: Authenticated, req: HttpRequest) -> ApiResult<HttpResponse> {
    let id = req.match_info().get("style_id").unwrap_or_default();
    let well_formed =
        (1..=STYLE_ID.max).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric());
    if !well_formed {
        return Err(ApiError::bad_request(
            "Invalid path parameter style_id: expected a BJCP style id such as 21A",
        ));
    }
    let style = style(id).ok_or(ApiError::NotFound)?;
    Ok(HttpResponse::Ok().json(style))
}
