//! Errors a use case can end in. The HTTP adapter maps each to one status and body, in one place.

use thiserror::Error;

pub type DomainResult<T> = Result<T, DomainError>;

#[derive(Debug, Error)]
pub enum DomainError {
    /// The thing does not exist, or belongs to another account: the two are never told apart.
    #[error("not found")]
    NotFound,
    /// A rule of the domain refused the input (after the request itself was well-formed).
    #[error("validation failed")]
    Invalid(Vec<Violation>),
    /// Credentials missing, wrong, expired or revoked.
    #[error("unauthorized")]
    Unauthorized,
    /// Wrong email or password at sign-in.
    #[error("invalid email or password")]
    InvalidCredentials,
    /// Too many failed sign-ins for one email; retry after this many seconds.
    #[error("too many sign-in attempts")]
    SignInThrottled { retry_after_secs: u64 },
    /// No AI provider is configured on this deployment.
    #[error("AI is not configured")]
    AiNotConfigured,
    /// A daily AI allowance is used up; it resets after this many seconds (at midnight UTC).
    #[error("daily AI limit reached")]
    AiLimitReached {
        limit: crate::ai::AiLimit,
        retry_after_secs: u64,
    },
    /// The AI provider failed or timed out; the detail goes to the log, never to the client.
    #[error("AI provider error: {0}")]
    AiProvider(String),
    /// The database is unreachable or the pool is exhausted: retry later.
    #[error("service unavailable: {0}")]
    Unavailable(String),
    /// Anything unexpected; the message goes to the log, never to the client.
    #[error("internal error: {0}")]
    Internal(String),
}

/// One failed rule, in the shape of a Zod issue (`code`, `path`, `message` plus rule-specific
/// fields such as `minimum` or `from`/`to`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Violation {
    pub code: &'static str,
    pub path: Vec<String>,
    pub message: String,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl Violation {
    pub fn new(code: &'static str, path: &[&str], message: impl Into<String>) -> Self {
        Violation {
            code,
            path: path.iter().map(|p| (*p).to_owned()).collect(),
            message: message.into(),
            extra: serde_json::Map::new(),
        }
    }

    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> Self {
        self.extra.insert(key.to_owned(), value.into());
        self
    }
}

impl DomainError {
    pub fn invalid(v: Violation) -> Self {
        DomainError::Invalid(vec![v])
    }
}
