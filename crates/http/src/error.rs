//! The one place where failures become HTTP statuses and the API's JSON error bodies
//! (`{"error": …}`, docs/api-rules.md).

use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, ResponseError};
use serde_json::json;
use utoipa::ToSchema;
use wort_domain::DomainError;
use wort_domain::error::Violation;

/// Every way a request can fail, as the client sees it.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("Unauthorized")]
    Unauthorized,
    /// Malformed request: bad path parameter, query, content type or JSON syntax.
    #[error("{0}")]
    BadRequest(String),
    #[error("Validation failed")]
    Validation(Vec<Violation>),
    #[error("Not found")]
    NotFound,
    #[error("Method not allowed")]
    MethodNotAllowed { allow: &'static str },
    #[error("Payload too large")]
    PayloadTooLarge,
    /// The request body did not arrive within the body read deadline (`408`).
    #[error("Request body not received in time")]
    BodyTimeout,
    /// Too many header fields, or too many bytes of them (`431`).
    #[error("Request header fields too large")]
    HeadersTooLarge,
    #[error("Invalid email or password")]
    InvalidCredentials,
    /// A password change with the wrong current password.
    #[error("Invalid password")]
    InvalidPassword,
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after_secs: u64,
    },
    #[error("Service unavailable")]
    Unavailable,
    /// A write that met an unavailable database (`503`): it may have been applied before the
    /// answer was lost, so the message does not say it was not. A retry with the same
    /// `Idempotency-Key` learns which.
    #[error("Service unavailable: the write may or may not have been applied")]
    WriteUnavailable,
    /// The server is shutting down; an AI answer was cut short (`503`).
    #[error(
        "The server is restarting; the answer was cut short and what had arrived is saved. Try again in a moment"
    )]
    Interrupted,
    /// The state of things refuses a well-formed request (`409`).
    #[error("{0}")]
    Conflict(String),
    /// `POST /v1/chat` with a `message` over 8,000 characters (or a body too large to hold one).
    #[error("Chat message exceeds 8000 characters")]
    ChatMessageTooLong,
    /// Analysis and chat when no AI provider is configured.
    #[error("AI is not configured on this deployment")]
    AiNotConfigured,
    /// The AI provider failed or timed out.
    #[error("AI provider error")]
    AiProvider,
    #[error("Internal server error")]
    Internal,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::BadRequest(message.into())
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        match e {
            DomainError::NotFound => ApiError::NotFound,
            DomainError::Invalid(violations) => ApiError::Validation(violations),
            DomainError::Unauthorized => ApiError::Unauthorized,
            DomainError::InvalidCredentials => ApiError::InvalidCredentials,
            DomainError::InvalidPassword => ApiError::InvalidPassword,
            DomainError::SignInThrottled { retry_after_secs } => ApiError::TooManyRequests {
                message: "Too many sign-in attempts; try again later".into(),
                retry_after_secs,
            },
            DomainError::SignUpThrottled { retry_after_secs } => ApiError::TooManyRequests {
                message: "Too many sign-ups from this address; try again later".into(),
                retry_after_secs,
            },
            DomainError::Conflict(message) => ApiError::Conflict(message),
            DomainError::Interrupted => ApiError::Interrupted,
            DomainError::DeviceTooSoon { retry_after_secs } => ApiError::TooManyRequests {
                message: format!(
                    "This device stored a reading moments ago; try again in {retry_after_secs} s"
                ),
                retry_after_secs,
            },
            DomainError::WebhookTestTooSoon { retry_after_secs } => ApiError::TooManyRequests {
                message: format!(
                    "This webhook was sent a test moments ago; try again in {retry_after_secs} s"
                ),
                retry_after_secs,
            },
            DomainError::AiNotConfigured => ApiError::AiNotConfigured,
            DomainError::AiLimitReached {
                limit,
                retry_after_secs,
            } => ApiError::TooManyRequests {
                message: limit.message(),
                retry_after_secs,
            },
            DomainError::AiProvider(detail) => {
                tracing::warn!(%detail, "AI provider error");
                ApiError::AiProvider
            }
            DomainError::Unavailable(detail) => {
                // An outage fails every request: one line a second says so, with how many
                // answers it stands for, instead of thousands (found by the soak benchmark).
                if let Some(answers) = OUTAGE_LOG.admit(std::time::Instant::now()) {
                    tracing::warn!(%detail, answers_503 = answers, "database unavailable");
                }
                ApiError::Unavailable
            }
            DomainError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                ApiError::Internal
            }
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(e: actix_web::error::BlockingError) -> Self {
        tracing::error!(detail = %e, "blocking task failed");
        ApiError::Internal
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Unauthorized | ApiError::InvalidCredentials | ApiError::InvalidPassword => {
                StatusCode::UNAUTHORIZED
            }
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::PayloadTooLarge | ApiError::ChatMessageTooLong => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            ApiError::HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::Unavailable
            | ApiError::WriteUnavailable
            | ApiError::AiNotConfigured
            | ApiError::Interrupted => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::AiProvider => StatusCode::BAD_GATEWAY,
            ApiError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        match self {
            ApiError::MethodNotAllowed { allow } => {
                response.insert_header((header::ALLOW, *allow));
            }
            ApiError::TooManyRequests {
                retry_after_secs, ..
            } => {
                response.insert_header((header::RETRY_AFTER, retry_after_secs.to_string()));
            }
            ApiError::Unavailable | ApiError::WriteUnavailable | ApiError::Interrupted => {
                response.insert_header((header::RETRY_AFTER, "5"));
            }
            // The rest of the body may still be on its way: the connection is not reusable.
            ApiError::BodyTimeout => {
                response.force_close();
            }
            _ => {}
        }
        let body = match self {
            ApiError::Validation(details) => {
                json!({ "error": "Validation failed", "details": details })
            }
            other => json!({ "error": other.to_string() }),
        };
        response.json(body)
    }
}

/// Shorthand for a single validation failure.
pub fn invalid(violation: Violation) -> ApiError {
    ApiError::Validation(vec![violation])
}

/// `{"error": "..."}`: every error response.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ErrorBody {
    error: String,
}

/// The "database unavailable" warnings: at most one a second.
static OUTAGE_LOG: LogLimiter = LogLimiter::new(std::time::Duration::from_secs(1));

/// Lets one log line through per interval and counts the events it stands for.
pub struct LogLimiter {
    interval: std::time::Duration,
    /// The last line's time and the events since it (the one it logged included).
    state: std::sync::Mutex<Option<(std::time::Instant, u64)>>,
}

impl LogLimiter {
    pub const fn new(interval: std::time::Duration) -> Self {
        LogLimiter {
            interval,
            state: std::sync::Mutex::new(None),
        }
    }

    /// `Some(n)` when a line should be logged now, `n` being the events it stands for (this one
    /// and those held back since the last line); `None` to stay quiet.
    pub fn admit(&self, now: std::time::Instant) -> Option<u64> {
        let mut state = self.state.lock().ok()?;
        match *state {
            Some((last, held)) if now.duration_since(last) < self.interval => {
                *state = Some((last, held + 1));
                None
            }
            Some((_, held)) => {
                *state = Some((now, 0));
                Some(held + 1)
            }
            None => {
                *state = Some((now, 0));
                Some(1)
            }
        }
    }
}

/// One failed rule of a `422` (Zod-style issue): `code`, `path` and `message` always, and the
/// fields of its code.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ValidationIssue {
    /// too_small, too_big, invalid_type, invalid_enum_value, invalid_string, not_integer,
    /// invalid_transition, already_exists
    code: String,
    /// Path to the field; array indices as decimal strings.
    path: Vec<String>,
    message: String,
    /// `too_small`: the bound (a length for strings, a count for arrays).
    #[schema(nullable = false)]
    minimum: Option<f64>,
    /// `too_big`: the bound (a length for strings, a count for arrays).
    #[schema(nullable = false)]
    maximum: Option<f64>,
    /// `too_small`/`too_big`: whether the bound itself is allowed.
    #[schema(nullable = false)]
    inclusive: Option<bool>,
    /// `too_small`/`too_big`: `string`, `number` or `array`.
    #[serde(rename = "type")]
    #[schema(nullable = false)]
    kind: Option<String>,
    /// `invalid_type`: the type wanted and the type sent (`undefined` when missing).
    #[schema(nullable = false)]
    expected: Option<String>,
    #[schema(nullable = false)]
    received: Option<String>,
    /// `invalid_enum_value`: the values allowed.
    #[schema(nullable = false)]
    options: Option<Vec<String>>,
    /// `invalid_string`: what the string failed (`email`, `uuid`, `datetime`…).
    #[schema(nullable = false)]
    validation: Option<String>,
    /// `invalid_transition`: the status now and the one asked for.
    #[schema(nullable = false)]
    from: Option<String>,
    #[schema(nullable = false)]
    to: Option<String>,
}

/// `422`: `{"error":"Validation failed","details":[...]}`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ValidationErrorBody {
    /// Always `Validation failed`.
    error: String,
    details: Vec<ValidationIssue>,
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::LogLimiter;

    #[test]
    fn one_line_a_second_counting_what_it_stands_for() {
        let limiter = LogLimiter::new(Duration::from_secs(1));
        let t0 = Instant::now();
        assert_eq!(limiter.admit(t0), Some(1));
        for ms in [1, 200, 999] {
            assert_eq!(limiter.admit(t0 + Duration::from_millis(ms)), None);
        }
        // The next line stands for the three held back and itself.
        assert_eq!(limiter.admit(t0 + Duration::from_millis(1_000)), Some(4));
        assert_eq!(limiter.admit(t0 + Duration::from_millis(1_500)), None);
        assert_eq!(limiter.admit(t0 + Duration::from_secs(5)), Some(2));
    }
}
