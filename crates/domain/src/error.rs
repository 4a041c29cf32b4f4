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
    /// The current password given to a password change is wrong.
    #[error("invalid password")]
    InvalidPassword,
    /// Too many failed sign-ins for one email; retry after this many seconds.
    #[error("too many sign-in attempts")]
    SignInThrottled { retry_after_secs: u64 },
    /// Too many sign-ups from one client address (`WORT_SIGNUP_PER_HOUR`).
    #[error("too many sign-ups")]
    SignUpThrottled { retry_after_secs: u64 },
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
    /// The request is well-formed but the state of things refuses it (`409 {"error"}`), e.g. a
    /// device posting while no open brew session is assigned to it.
    #[error("conflict: {0}")]
    Conflict(String),
    /// A device posted again before its interval was over (one reading a minute by default).
    #[error("device posted too soon")]
    DeviceTooSoon { retry_after_secs: u64 },
    /// A webhook's test ping was sent moments ago; the next may go after this many seconds.
    #[error("webhook tested too soon")]
    WebhookTestTooSoon { retry_after_secs: u64 },
    /// A call to the AI provider was cut short because the server is shutting down (a streamed
    /// answer is stored as far as it got, marked as interrupted).
    #[error("interrupted by shutdown")]
    Interrupted,
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

/// The JSON type name a `422`'s `received` reports (as Zod names them).
pub fn json_type_name(v: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The Zod issues of a `422`'s `details` (docs/api-rules.md), worded as Zod words them. Every 422
/// detail in wort is made here, so the shapes cannot drift between aggregates or layers.
impl Violation {
    /// Wrong JSON type, `null` for a non-nullable field, or (`received: "undefined"`) missing.
    pub fn invalid_type(path: &[&str], expected: &str, received: &str) -> Self {
        let message = if received == "undefined" {
            "Required".to_owned()
        } else {
            format!("Expected {expected}, received {received}")
        };
        Violation::new("invalid_type", path, message)
            .with("expected", expected)
            .with("received", received)
    }

    pub fn too_small_text(path: &[&str], min: usize) -> Self {
        Violation::new(
            "too_small",
            path,
            format!("String must contain at least {min} character(s)"),
        )
        .with("minimum", min)
        .with("inclusive", true)
        .with("type", "string")
    }

    pub fn too_big_text(path: &[&str], max: usize) -> Self {
        Violation::new(
            "too_big",
            path,
            format!("String must contain at most {max} character(s)"),
        )
        .with("maximum", max)
        .with("inclusive", true)
        .with("type", "string")
    }

    pub fn too_small_number(path: &[&str], min: f64, inclusive: bool) -> Self {
        let relation = if inclusive {
            "greater than or equal to"
        } else {
            "greater than"
        };
        Violation::new(
            "too_small",
            path,
            format!("Number must be {relation} {min}"),
        )
        .with("minimum", json_number(min))
        .with("inclusive", inclusive)
        .with("type", "number")
    }

    pub fn too_big_number(path: &[&str], max: f64) -> Self {
        Violation::new(
            "too_big",
            path,
            format!("Number must be less than or equal to {max}"),
        )
        .with("maximum", json_number(max))
        .with("inclusive", true)
        .with("type", "number")
    }

    /// More items than a list may hold (`type: "array"`), e.g. a recipe's 201st hop.
    pub fn too_many(path: &[&str], max: i64, message: impl Into<String>) -> Self {
        Violation::new("too_big", path, message)
            .with("maximum", max)
            .with("inclusive", true)
            .with("type", "array")
    }

    pub fn not_integer(path: &[&str]) -> Self {
        Violation::new("not_integer", path, "Expected integer, received float")
    }

    pub fn invalid_enum(path: &[&str], options: &[&str], received: &str) -> Self {
        let expected = options
            .iter()
            .map(|o| format!("'{o}'"))
            .collect::<Vec<_>>()
            .join(" | ");
        Violation::new(
            "invalid_enum_value",
            path,
            format!("Invalid enum value. Expected {expected}, received '{received}'"),
        )
        .with("options", options.to_vec())
        .with("received", received)
    }

    /// A malformed uuid, date, date-time or email (`validation` names which).
    pub fn invalid_string(path: &[&str], validation: &str) -> Self {
        Violation::new("invalid_string", path, format!("Invalid {validation}"))
            .with("validation", validation)
    }

    /// A string holding U+0000, which PostgreSQL `text` cannot store: refused like a Zod regex
    /// check (docs/decisions/0024-strings-cannot-contain-nul.md).
    pub fn nul_in_string(path: &[&str]) -> Self {
        Violation::new(
            "invalid_string",
            path,
            "String must not contain the NUL character (U+0000)",
        )
        .with("validation", "regex")
    }
}

/// Whole bounds print as integers (`1`, not `1.0`), as they would in JavaScript.
pub fn json_number(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation)]
        serde_json::Value::from(n as i64)
    } else {
        serde_json::Value::from(n)
    }
}

impl DomainError {
    pub fn invalid(v: Violation) -> Self {
        DomainError::Invalid(vec![v])
    }
}
