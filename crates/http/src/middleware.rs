//! Cross-cutting request handling: request ids and access logs, and CORS.

use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, web};
use tracing::Instrument;

use crate::state::AppState;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The request's own id when it is 1–128 characters of `[A-Za-z0-9._-]`, else a fresh one.
fn request_id(req: &ServiceRequest) -> String {
    req.headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|id| {
            (1..=128).contains(&id.len())
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        })
        .map_or_else(|| uuid::Uuid::new_v4().simple().to_string(), str::to_owned)
}

/// Tags every response with `X-Request-Id` and logs one line per request, inside a span that
/// carries the id (so errors logged by handlers can be matched to the request). Never logs
/// headers, bodies or query strings: they may hold keys, passwords or cookies.
pub async fn request_id_and_log(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = request_id(&req);
    let span = tracing::info_span!("request", request_id = %id);
    let method = req.method().clone();
    let path = loggable_path(req.path());
    let started = Instant::now();
    let result = next.call(req).instrument(span.clone()).await;
    // Handler and extractor errors arrive here already turned into responses; an `Err` is an
    // actix-internal failure and is passed on as it is.
    let mut response = result?;
    let status = response.status();
    // The route's pattern, never the raw path: ids stay out of the metrics' labels.
    if let Some(state) = response.request().app_data::<web::Data<AppState>>() {
        let route = response
            .request()
            .match_pattern()
            .unwrap_or_else(|| crate::metrics::UNMATCHED.to_owned());
        state
            .metrics
            .observe(&route, method.as_str(), status.as_u16(), started.elapsed());
    }
    span.in_scope(|| {
        tracing::info!(
            %method,
            %path,
            status = status.as_u16(),
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "request"
        );
    });
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    crate::web_app::add_security_headers(response.headers_mut());
    Ok(response)
}

/// The path as logged: a device's ingest token is its only credential, so it is cut out
/// (`/ingest/wortd_…` becomes `/ingest/…`).
fn loggable_path(path: &str) -> String {
    match path.strip_prefix("/ingest/") {
        Some(_) => "/ingest/…".to_owned(),
        None => path.to_owned(),
    }
}

/// CORS for the configured origins only. Requests from other origins are served as usual,
/// just without CORS headers (the browser then withholds the answer); never a 403.
pub async fn cors(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let allowed = match (&origin, req.app_data::<web::Data<AppState>>()) {
        (Some(o), Some(state)) => state.origins.allows(o),
        _ => false,
    };
    let is_preflight = req.method() == Method::OPTIONS
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if is_preflight {
        let mut response = HttpResponse::build(StatusCode::NO_CONTENT);
        if allowed {
            response
                .insert_header((
                    header::ACCESS_CONTROL_ALLOW_METHODS,
                    "GET, POST, PATCH, DELETE, OPTIONS",
                ))
                .insert_header((
                    header::ACCESS_CONTROL_ALLOW_HEADERS,
                    "Content-Type, X-API-Key",
                ))
                .insert_header((header::ACCESS_CONTROL_MAX_AGE, "600"));
        }
        let mut response = req.into_response(response.finish());
        if let (true, Some(o)) = (allowed, origin) {
            add_allow_origin(response.headers_mut(), &o);
        }
        return Ok(response);
    }
    let mut response = next.call(req).await?.map_into_boxed_body();
    if let (true, Some(o)) = (allowed, origin) {
        add_allow_origin(response.headers_mut(), &o);
    }
    Ok(response)
}

fn add_allow_origin(headers: &mut actix_web::http::header::HeaderMap, origin: &str) {
    if let Ok(value) = HeaderValue::from_str(origin) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
            HeaderValue::from_static("true"),
        );
        headers.append(header::VARY, HeaderValue::from_static("Origin"));
        // Without this a cross-origin caller cannot read paging, retry and request-id headers.
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("X-Total-Count, Link, Retry-After, X-Request-Id"),
        );
    }
}
