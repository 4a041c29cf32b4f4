//! The one place where failures become HTTP statuses and the contract's JSON bodies.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, ResponseError};
use serde_json::json;
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
    #[error("Invalid email or password")]
    InvalidCredentials,
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after_secs: u64,
    },
    #[error("Service unavailable")]
    Unavailable,
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
            DomainError::SignInThrottled { retry_after_secs } => ApiError::TooManyRequests {
                message: "Too many sign-in attempts; try again later".into(),
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
                tracing::warn!(%detail, "database unavailable");
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
            ApiError::Unauthorized | ApiError::InvalidCredentials => StatusCode::UNAUTHORIZED,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::PayloadTooLarge | ApiError::ChatMessageTooLong => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable | ApiError::AiNotConfigured => StatusCode::SERVICE_UNAVAILABLE,
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
            ApiError::Unavailable => {
                response.insert_header((header::RETRY_AFTER, "5"));
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
