//! One deadline per request: a request that needs the database is answered within
//! `WORT_DB_DEADLINE_MS` of its body's last byte, whatever the database does.
//!
//! Each database call is bounded on its own already (the pool's wait, the connect timeout, the
//! socket deadline in `wort_db`), but the bounds add up: a request that waited for a pooled
//! connection, then for a new one to open, then for a frozen statement could answer after two or
//! three times the setting. Here the whole request is one budget. The clock starts when the
//! request reaches its handler and starts again when its body has been read to the end (so a
//! slow upload, which has a read deadline of its own, does not eat the database's time); when it
//! runs out the handler is dropped, and with it any connection still inside a transaction, which
//! PostgreSQL then rolls back. The answer is `503` with `Retry-After`; for a write it says the
//! write may or may not have been applied (its `COMMIT` may have been on the way), and a retry
//! with the same `Idempotency-Key` learns which (`crate::idempotency`).
//!
//! The requests that wait on the AI provider (an analysis, a chat turn) are not bounded here:
//! the provider's minute is not the database's time. Their database calls keep the per-call
//! bounds.

use std::cell::Cell;
use std::pin::{Pin, pin};
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes};
use actix_web::{HttpMessage, HttpResponse, ResponseError};
use futures_util::Stream;
use futures_util::future::{Either, select};
use tokio::time::Instant;

use crate::error::ApiError;

/// `WORT_DB_DEADLINE_MS`: how long a request may spend on the database, from its body's last byte
/// to its answer.
#[derive(Debug, Clone, Copy)]
pub struct DbDeadline(pub Duration);

impl Default for DbDeadline {
    fn default() -> Self {
        DbDeadline(Duration::from_secs(5))
    }
}

/// The requests that wait on the AI provider, which the deadline leaves alone.
pub fn waits_for_ai_provider(method: &Method, path: &str) -> bool {
    *method == Method::POST
        && (path == "/v1/chat"
            || path
                .strip_prefix("/v1/recipes/")
                .is_some_and(|rest| rest.ends_with("/analysis")))
}

/// Whether an answer to this request may have followed a write (its `503` then says so).
pub fn is_write(method: &Method) -> bool {
    matches!(
        *method,
        Method::POST | Method::PATCH | Method::PUT | Method::DELETE
    )
}

/// Bounds the request (see the module's comment). The outermost layer: the answer it makes when
/// time runs out cannot go back through the inner layers (they went with the request), so it
/// carries their headers itself ([`OutOfTime`]).
pub async fn request_deadline(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if waits_for_ai_provider(req.method(), req.path()) {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let limit = req
        .app_data::<web::Data<DbDeadline>>()
        .map_or_else(DbDeadline::default, |d| *d.get_ref())
        .0;
    let out_of_time = OutOfTime::for_request(&mut req);
    let ends_at = Rc::new(Cell::new(Instant::now() + limit));
    let payload = req.take_payload();
    req.set_payload(Payload::Stream {
        payload: Box::pin(RestartAtEnd {
            inner: payload,
            ends_at: ends_at.clone(),
            limit,
        }),
    });
    let started = std::time::Instant::now();
    let mut call = pin!(next.call(req));
    loop {
        let at = ends_at.get();
        let timer = pin!(tokio::time::sleep_until(at));
        match select(call.as_mut(), timer).await {
            Either::Left((result, _)) => {
                return result.map(ServiceResponse::map_into_boxed_body);
            }
            // The body's end moved the clock on: wait for the new end.
            Either::Right(((), _)) if ends_at.get() > at => {}
            Either::Right(((), _)) => {
                out_of_time.log(started.elapsed());
                return Err(out_of_time.into());
            }
        }
    }
}

/// The `503` of a request that ran out of time, with every header the inner layers would have
/// added: the request id, the security headers, CORS for an allowed origin, and
/// `Cache-Control`.
#[derive(Debug)]
pub struct OutOfTime {
    write: bool,
    request_id: String,
    method: Method,
    path: String,
    allowed_origin: Option<HeaderValue>,
}

impl OutOfTime {
    /// Read off the request before it runs; gives it the request id the access log then uses.
    fn for_request(req: &mut ServiceRequest) -> Self {
        let request_id = crate::middleware::request_id(req);
        if let Ok(value) = HeaderValue::from_str(&request_id) {
            req.headers_mut()
                .insert(crate::middleware::REQUEST_ID, value);
        }
        let allowed_origin = req
            .headers()
            .get(header::ORIGIN)
            .filter(|origin| {
                let state = req.app_data::<web::Data<crate::state::AppState>>();
                match (origin.to_str(), state) {
                    (Ok(o), Some(state)) => state.origins.allows(o),
                    _ => false,
                }
            })
            .cloned();
        OutOfTime {
            write: is_write(req.method()),
            request_id,
            method: req.method().clone(),
            path: crate::middleware::loggable_path(req.path()),
            allowed_origin,
        }
    }

    fn log(&self, took: Duration) {
        let span = tracing::info_span!("request", request_id = %self.request_id);
        span.in_scope(|| {
            tracing::warn!(
                method = crate::metrics::method_label(self.method.as_str()),
                path = %self.path,
                status = 503,
                ms = took.as_secs_f64() * 1000.0,
                "request ran out of its database deadline"
            );
        });
    }
}

impl std::fmt::Display for OutOfTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("request ran out of its database deadline")
    }
}

impl ResponseError for OutOfTime {
    fn status_code(&self) -> StatusCode {
        StatusCode::SERVICE_UNAVAILABLE
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = if self.write {
            ApiError::WriteUnavailable.error_response()
        } else {
            ApiError::Unavailable.error_response()
        };
        let headers = response.headers_mut();
        if let Ok(value) = HeaderValue::from_str(&self.request_id) {
            headers.insert(crate::middleware::REQUEST_ID, value);
        }
        crate::web_app::add_security_headers(headers);
        // Nothing of one account, but never worth keeping either.
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(crate::caching::NO_STORE),
        );
        if let Some(origin) = &self.allowed_origin
            && let Ok(origin) = origin.to_str()
        {
            crate::middleware::add_allow_origin(headers, origin);
        }
        response
    }
}

/// A write's error: an unavailable database is [`ApiError::WriteUnavailable`].
pub fn write_error(error: ApiError) -> ApiError {
    match error {
        ApiError::Unavailable => ApiError::WriteUnavailable,
        other => other,
    }
}

/// A write's `503` from an unavailable database says that the write may have been applied
/// (its `COMMIT` may have reached the database before the connection failed). The innermost
/// layer, so the answer it rewrites is still the handler's plain JSON.
pub async fn writes_may_be_applied(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let response = next.call(req).await?.map_into_boxed_body();
    let unavailable = response
        .response()
        .error()
        .and_then(|e| e.as_error::<ApiError>())
        .is_some_and(|e| matches!(e, ApiError::Unavailable));
    if unavailable && is_write(response.request().method()) {
        let (request, _) = response.into_parts();
        return Ok(ServiceResponse::new(
            request,
            ApiError::WriteUnavailable.error_response(),
        ));
    }
    Ok(response)
}

/// The request's payload, which moves the deadline to `limit` after its last byte.
struct RestartAtEnd {
    inner: Payload,
    ends_at: Rc<Cell<Instant>>,
    limit: Duration,
}

impl Stream for RestartAtEnd {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_next(cx);
        if let Poll::Ready(None) = polled {
            this.ends_at.set(Instant::now() + this.limit);
        }
        polled
    }
}
