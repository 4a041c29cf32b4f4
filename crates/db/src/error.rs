//! Translating database failures into domain errors, in one place.

use diesel::result::{DatabaseErrorKind, Error as DieselError};
use wort_domain::DomainError;

use crate::pool::PoolError;

/// Any diesel error the caller has not handled itself: a lost connection means "try again later"
/// (503); anything else is a bug or an unexpected state (500, details only in the log).
pub(crate) fn db_error(e: DieselError) -> DomainError {
    match e {
        DieselError::NotFound => DomainError::NotFound,
        DieselError::DatabaseError(
            DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
            info,
        ) => DomainError::Unavailable(info.message().to_owned()),
        DieselError::DatabaseError(_, info) if is_unavailable_message(info.message()) => {
            DomainError::Unavailable(info.message().to_owned())
        }
        other => DomainError::Internal(other.to_string()),
    }
}

/// Messages of the PostgreSQL errors that mean "not now" rather than "never": statement timeout,
/// administrator shutdown, too many connections, a connection that broke mid-query.
fn is_unavailable_message(message: &str) -> bool {
    const TRANSIENT: &[&str] = &[
        "canceling statement due to statement timeout",
        "terminating connection",
        "the database system is",
        "too many clients",
        "connection closed",
        "Connection reset",
        "broken pipe",
        "error communicating with the server",
    ];
    TRANSIENT.iter().any(|t| message.contains(t))
}

pub(crate) fn pool_error(e: PoolError) -> DomainError {
    DomainError::Unavailable(e.to_string())
}

/// Whether a diesel error is a unique-constraint violation (e.g. an email already taken).
pub(crate) fn is_unique_violation(e: &DieselError) -> bool {
    matches!(
        e,
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)
    )
}

/// Errors inside a transaction: diesel's (which roll it back) or the domain's.
pub(crate) struct TxError(pub DomainError);

impl From<diesel::result::Error> for TxError {
    fn from(e: diesel::result::Error) -> Self {
        TxError(db_error(e))
    }
}

impl From<DomainError> for TxError {
    fn from(e: DomainError) -> Self {
        TxError(e)
    }
}
