//! Cross-cutting request handling: request ids and access logs, CORS, `HEAD` on `GET` routes,
//! the limits on request heads, and the deadline on reading request bodies.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpResponse, ResponseError, web};
use futures_util::Stream;
use tracing::Instrument;

use crate::error::ApiError;

use crate::state::AppState;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The request's own id when it is 1–128 characters of `[A-Za-z0-9._-]`, else a fresh one.
pub(crate) fn request_id(req: &ServiceRequest) -> String {
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
            method = crate::metrics::method_label(method.as_str()),
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
    if path.starts_with("/shared/") {
        crate::caching::shared_recipe_headers(response.headers_mut());
    }
    Ok(response)
}

/// The longest path logged whole: a request head may hold 100 KiB of path, and one request
/// must not be able to write that much into the log.
const MAX_LOGGED_PATH_CHARS: usize = 256;

/// The path as logged: a device's ingest token is its only credential, and a share token opens
/// a recipe, so both are cut out (`/ingest/wortd_…` becomes `/ingest/…`, `/shared/Ab3…/recipe.json`
/// `/shared/…`); a very long path is cut short.
pub(crate) fn loggable_path(path: &str) -> String {
    if path.starts_with("/shared/") || path.starts_with("/v1/shared/") {
        let prefix = if path.starts_with("/v1/") {
            "/v1/shared/…"
        } else {
            "/shared/…"
        };
        return prefix.to_owned();
    }
    match path.strip_prefix("/ingest/") {
        Some(_) => "/ingest/…".to_owned(),
        None if path.chars().count() > MAX_LOGGED_PATH_CHARS => {
            let cut: String = path.chars().take(MAX_LOGGED_PATH_CHARS).collect();
            format!("{cut}…")
        }
        None => path.to_owned(),
    }
}

/// `HEAD` is `GET` without the body (RFC 9110 §9.3.2): the request is routed as a `GET`, so
/// every `GET` route answers `HEAD` with the same status and headers. The connection still knows
/// the request was a `HEAD` (actix's HTTP/1 codec records it while parsing), and writes the
/// headers, `Content-Length` included, and no body. Runs inside the access log, which records
/// the method as sent.
pub async fn head_as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    next.call(req).await
}

/// Request heads the app answers `431` itself, with the JSON error body and the usual headers.
/// actix-http refuses heads over 96 header fields or 128 KiB on its own, with a bare `431`
/// written before any application code runs; these limits sit below that, so that almost every
/// oversized head is refused by the app instead.
pub const MAX_HEADER_FIELDS: usize = 64;
/// The sum of the header fields' names and values, in bytes.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// `431` for a request whose head passes actix's limits but not [`MAX_HEADER_FIELDS`] or
/// [`MAX_HEADER_BYTES`].
pub async fn head_limits(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let headers = req.headers();
    let bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if headers.len() > MAX_HEADER_FIELDS || bytes > MAX_HEADER_BYTES {
        let response = ApiError::HeadersTooLarge.error_response();
        return Ok(req.into_response(response));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// How long reading one request body may take, from its first byte asked for to its last
/// (`WORT_BODY_READ_TIMEOUT_SECS`). actix cuts a slow request *head* (5 s) but not a slow body:
/// without this a client trickling bodies holds a connection, a file descriptor and a buffer
/// for as long as it likes.
#[derive(Debug, Clone, Copy)]
pub struct BodyReadTimeout(pub Duration);

impl Default for BodyReadTimeout {
    fn default() -> Self {
        BodyReadTimeout(Duration::from_secs(30))
    }
}

/// Puts the [`BodyReadTimeout`] on the request's payload, so every reader of the body (the
/// JSON and raw extractors in `body`, and anything added later) stops at the same deadline.
/// What the reader then sees is a [`body_timed_out`] error, which `body` answers with `408`.
pub async fn body_deadline(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let limit = req
        .app_data::<web::Data<BodyReadTimeout>>()
        .map_or_else(BodyReadTimeout::default, |t| *t.get_ref());
    let payload = req.take_payload();
    let deadline = Deadline {
        inner: payload,
        limit: limit.0,
        timer: None,
        expired: false,
    };
    req.set_payload(Payload::Stream {
        payload: Box::pin(deadline),
    });
    next.call(req).await
}

/// The error a body read gets once its deadline has passed.
fn body_timed_out() -> PayloadError {
    PayloadError::Io(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        "request body not received in time",
    ))
}

/// Whether a body read failed because its deadline passed.
pub fn is_body_timeout(error: &PayloadError) -> bool {
    matches!(error, PayloadError::Io(e) if e.kind() == std::io::ErrorKind::TimedOut)
}

/// A payload that fails once `limit` has passed since it was first polled.
struct Deadline {
    inner: Payload,
    limit: Duration,
    /// Started on the first poll: the time counted is the time spent reading the body.
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    expired: bool,
}

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(None);
        }
        let limit = this.limit;
        let timer = this
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        if timer.as_mut().poll(cx).is_ready() {
            this.expired = true;
            return Poll::Ready(Some(Err(body_timed_out())));
        }
        Pin::new(&mut this.inner).poll_next(cx)
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
                    "Content-Type, X-API-Key, Idempotency-Key",
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

pub(crate) fn add_allow_origin(headers: &mut actix_web::http::header::HeaderMap, origin: &str) {
    if let Ok(value) = HeaderValue::from_str(origin) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
            HeaderValue::from_static("true"),
        );
        headers.append(header::VARY, HeaderValue::from_static("Origin"));
        // Without this a cross-origin caller cannot read paging, retry, request-id and replay
        // headers.
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static(
                "X-Total-Count, Link, Retry-After, X-Request-Id, Idempotent-Replayed",
            ),
        );
    }
}
