//! Request bodies: read up to the size cap, checked for content type and JSON syntax.
//!
//! The extractor never fails by itself: it only records what it found, and the handler asks for
//! the body after the credential and the path have been checked, so errors come in the
//! API's order of checks (docs/api-rules.md: 401, then 400 for the path, then 413/400/422 for
//! the body).
//!
//! Every read stops at the body read deadline (`middleware::body_deadline`): a body still
//! arriving then is `408`.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest};
use futures_util::StreamExt;
use serde_json::Value;

use crate::error::{ApiError, ApiResult};

/// Bodies above this are `413`.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

pub enum JsonBody {
    Read {
        content_type_ok: bool,
        bytes: Vec<u8>,
    },
    TooLarge,
    /// The body read deadline passed before the body was complete.
    TimedOut,
    Failed(String),
}

impl JsonBody {
    /// The body as JSON: `413` over the cap, `400` without a JSON content type or with bad JSON.
    pub fn json(&self) -> ApiResult<Value> {
        self.optional_json()?
            .ok_or_else(|| ApiError::bad_request("Request body is required"))
    }

    /// Like [`json`](Self::json), but an empty body is `None` (endpoints whose body is optional).
    /// Only a body of zero bytes is absent: whitespace alone is not a JSON document, so it is `400`
    /// like any other malformed body (the fuzzing run sends a lone tab and expects the refusal).
    pub fn optional_json(&self) -> ApiResult<Option<Value>> {
        match self {
            JsonBody::TooLarge => Err(ApiError::PayloadTooLarge),
            JsonBody::TimedOut => Err(ApiError::BodyTimeout),
            JsonBody::Failed(e) => Err(ApiError::bad_request(format!("Could not read body: {e}"))),
            JsonBody::Read { bytes, .. } if bytes.is_empty() => Ok(None),
            JsonBody::Read {
                content_type_ok: false,
                ..
            } => Err(ApiError::bad_request(
                "Content-Type must be application/json",
            )),
            JsonBody::Read { bytes, .. } => serde_json::from_slice(bytes)
                .map(Some)
                .map_err(|e| ApiError::bad_request(format!("Malformed JSON: {e}"))),
        }
    }
}

fn is_json_content_type(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

impl JsonBody {
    /// Reads a body with its own size cap (`POST /v1/chat` has a smaller one than the rest).
    pub fn read(
        req: &HttpRequest,
        payload: Payload,
        max_bytes: usize,
    ) -> impl Future<Output = JsonBody> + 'static {
        let content_type_ok = is_json_content_type(req);
        let raw = RawBody::read(req, payload, max_bytes);
        async move {
            match raw.await {
                RawBody::Read(bytes) => JsonBody::Read {
                    content_type_ok,
                    bytes,
                },
                RawBody::TooLarge => JsonBody::TooLarge,
                RawBody::TimedOut => JsonBody::TimedOut,
                RawBody::Failed(e) => JsonBody::Failed(e),
            }
        }
    }
}

/// A body as bytes, read up to a cap; the caller checks its content type (an imported file may
/// be XML or JSON).
pub enum RawBody {
    Read(Vec<u8>),
    TooLarge,
    /// The body read deadline passed before the body was complete.
    TimedOut,
    Failed(String),
}

impl RawBody {
    /// Reads the body, stopping as soon as it passes `max_bytes` (or declares it will).
    pub fn read(
        req: &HttpRequest,
        mut payload: Payload,
        max_bytes: usize,
    ) -> impl Future<Output = RawBody> + 'static {
        let declared_len = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        async move {
            if declared_len.is_some_and(|n| n > max_bytes) {
                return RawBody::TooLarge;
            }
            let mut bytes = Vec::with_capacity(declared_len.unwrap_or(0).min(max_bytes));
            while let Some(chunk) = payload.next().await {
                match chunk {
                    Ok(chunk) if bytes.len() + chunk.len() > max_bytes => {
                        return RawBody::TooLarge;
                    }
                    Ok(chunk) => bytes.extend_from_slice(&chunk),
                    Err(e) if crate::middleware::is_body_timeout(&e) => return RawBody::TimedOut,
                    Err(e) => return RawBody::Failed(e.to_string()),
                }
            }
            RawBody::Read(bytes)
        }
    }

    /// The bytes: `413` over the cap, `408` past the deadline, `400` when the body could not be
    /// read.
    pub fn bytes(self) -> ApiResult<Vec<u8>> {
        match self {
            RawBody::Read(bytes) => Ok(bytes),
            RawBody::TooLarge => Err(ApiError::PayloadTooLarge),
            RawBody::TimedOut => Err(ApiError::BodyTimeout),
            RawBody::Failed(e) => Err(ApiError::bad_request(format!("Could not read body: {e}"))),
        }
    }
}

impl FromRequest for JsonBody {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = JsonBody::read(req, payload.take(), MAX_BODY_BYTES);
        Box::pin(async move { Ok(body.await) })
    }
}
