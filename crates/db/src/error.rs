//! Translating database failures into domain errors, in one place. Depends on no other module
//! of this crate (the pool and the repositories use it, not the other way round).
//!
//! A failure that may pass if the request is simply tried again later (the database restarting,
//! unreachable or full, a statement past `statement_timeout`, a deadlock or serialization
//! failure) becomes [`DomainError::Unavailable`]: `503` with `Retry-After`. Anything else is a
//! bug or an unexpected state: [`DomainError::Internal`], `500`, details only in the log.
//!
//! Transient failures are told apart by SQLSTATE ([`is_transient_sqlstate`]). diesel 2.3 has no
//! SQLSTATE accessor (`DatabaseErrorInformation` offers message, details, hint, table, column,
//! constraint and position; diesel-rs/diesel#5232 proposes one), and diesel-async 0.9 keeps the
//! code only as the [`DatabaseErrorKind`] of eight codes (23505, 23503, 23001, 23P01, 40001,
//! 25006, 23502, 23514); every other code becomes `Unknown`, and tokio-postgres' `DbError`,
//! which has the code, sits in a private wrapper that cannot be downcast. So:
//!
//! * 40001 arrives as `SerializationFailure`.
//! * A connection that cannot be made (08xxx, 53300 too many connections, 57P03 starting up or
//!   shutting down, and every PostgreSQL error at startup) is a pool error: always transient.
//! * A connection lost mid-request (08xxx detected by the client: reset, closed, broken pipe)
//!   has no SQLSTATE at all; diesel-async reports it as `UnableToSendCommand` (or diesel as
//!   `ClosedConnection`).
//! * An immediate shutdown or the crash of another backend (57P01/57P02 from `quickdie`) is sent
//!   as a warning before the socket closes, so it too arrives as `UnableToSendCommand`.
//! * 57014 (statement timeout), 40P01 (deadlock) and 57P01 as an error (a fast shutdown or
//!   restart, `pg_terminate_backend`) arrive as `Unknown`. For these, and only under `Unknown`,
//!   the SQLSTATE is recovered from PostgreSQL's exact primary message ([`HIDDEN_SQLSTATES`]),
//!   the one thing diesel-async passes on. This is the stopgap until
//!   diesel exposes SQLSTATE: then `sqlstate` reads it and the table goes. It assumes the
//!   server's `lc_messages` is English (the default; changing it needs a superuser), and a
//!   translated message only turns a 503 into a 500, never the reverse.

use diesel::result::{DatabaseErrorInformation, DatabaseErrorKind, Error as DieselError};
use diesel_async::pooled_connection::deadpool::PoolError;
use wort_domain::{DomainError, DomainResult};

/// Any diesel error the caller has not handled itself.
/// A write of the caller's row that touched `rows` rows: none means the row is not theirs (or is
/// gone), which the API answers as "not found".
pub(crate) fn found(rows: usize) -> DomainResult<()> {
    if rows == 0 {
        Err(DomainError::NotFound)
    } else {
        Ok(())
    }
}

pub(crate) fn db_error(e: DieselError) -> DomainError {
    match e {
        DieselError::NotFound => DomainError::NotFound,
        DieselError::DatabaseError(kind, info) if is_transient(kind, info.as_ref()) => {
            DomainError::Unavailable(describe(kind, info.as_ref()))
        }
        other => DomainError::Internal(other.to_string()),
    }
}

/// Every pool error means "no connection now" (a timeout, or the database refusing or failing
/// to connect): transient.
pub(crate) fn pool_error(e: PoolError) -> DomainError {
    DomainError::Unavailable(e.to_string())
}

fn is_transient(
    kind: DatabaseErrorKind,
    info: &(dyn DatabaseErrorInformation + Send + Sync),
) -> bool {
    match kind {
        // The connection failed before or without an answer: no SQLSTATE exists.
        DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand => true,
        _ => sqlstate(kind, info).is_some_and(is_transient_sqlstate),
    }
}

/// The SQLSTATE of a database error, as far as diesel lets us know it (see the module docs).
fn sqlstate(
    kind: DatabaseErrorKind,
    info: &(dyn DatabaseErrorInformation + Send + Sync),
) -> Option<&'static str> {
    match kind {
        DatabaseErrorKind::SerializationFailure => Some("40001"),
        DatabaseErrorKind::UniqueViolation => Some("23505"),
        DatabaseErrorKind::ForeignKeyViolation => Some("23503"),
        DatabaseErrorKind::RestrictViolation => Some("23001"),
        DatabaseErrorKind::ExclusionViolation => Some("23P01"),
        DatabaseErrorKind::ReadOnlyTransaction => Some("25006"),
        DatabaseErrorKind::NotNullViolation => Some("23502"),
        DatabaseErrorKind::CheckViolation => Some("23514"),
        _ => HIDDEN_SQLSTATES
            .iter()
            .find(|(_, message)| *message == info.message())
            .map(|(code, _)| *code),
    }
}

/// The transient SQLSTATEs that diesel-async reports as `Unknown`, with PostgreSQL's primary
/// message for each (the only part of the error it passes on).
const HIDDEN_SQLSTATES: &[(&str, &str)] = &[
    ("57014", "canceling statement due to statement timeout"),
    ("40P01", "deadlock detected"),
    (
        "57P01",
        "terminating connection due to administrator command",
    ),
    (
        "57P01",
        "terminating connection due to unexpected postmaster exit",
    ),
];

/// SQLSTATEs that mean "not now" rather than "never": trying again later can succeed.
fn is_transient_sqlstate(code: &str) -> bool {
    // Class 08: connection exception (cannot connect, connection lost, …).
    code.starts_with("08")
        || matches!(
            code,
            "40001" // serialization_failure
                | "40P01" // deadlock_detected
                | "57014" // query_canceled (statement_timeout)
                | "57P01" // admin_shutdown
                | "57P02" // crash_shutdown
                | "57P03" // cannot_connect_now
                | "53300" // too_many_connections
        )
}

fn describe(
    kind: DatabaseErrorKind,
    info: &(dyn DatabaseErrorInformation + Send + Sync),
) -> String {
    match sqlstate(kind, info) {
        Some(code) => format!("{code}: {}", info.message()),
        None => info.message().to_owned(),
    }
}

/// Whether a diesel error is a unique-constraint violation (e.g. an email already taken).
pub(crate) fn is_unique_violation(e: &DieselError) -> bool {
    matches!(
        e,
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)
    )
}

/// Whether a diesel error is a violation of the foreign key `constraint` (a recipe naming an
/// equipment profile that is not its account's, a profile deleted while a recipe names it).
pub(crate) fn is_foreign_key_violation(e: &DieselError, constraint: &str) -> bool {
    matches!(
        e,
        DieselError::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, info)
            if info.constraint_name() == Some(constraint)
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn database_error(kind: DatabaseErrorKind, message: &str) -> DieselError {
        // diesel implements `DatabaseErrorInformation` for `String`: the message, nothing else.
        DieselError::DatabaseError(kind, Box::new(message.to_owned()))
    }

    fn is_unavailable(e: DieselError) -> bool {
        matches!(db_error(e), DomainError::Unavailable(_))
    }

    #[test]
    fn transient_sqlstates_are_the_retryable_ones() {
        for code in [
            "40001", "40P01", "57014", "57P01", "57P02", "57P03", "53300", "08000", "08003",
            "08006", "08001", "08004", "08P01",
        ] {
            assert!(is_transient_sqlstate(code), "{code}");
        }
        for code in [
            "23505", "23503", "23514", "42601", "42P01", "22P02", "25006", "53100", "57000",
            "40000", "XX000",
        ] {
            assert!(!is_transient_sqlstate(code), "{code}");
        }
    }

    #[test]
    fn a_serialization_failure_is_unavailable_whatever_its_message() {
        let e = database_error(DatabaseErrorKind::SerializationFailure, "anything at all");
        assert_eq!(
            db_error(e).to_string(),
            "service unavailable: 40001: anything at all"
        );
    }

    #[test]
    fn a_lost_connection_is_unavailable_whatever_its_message() {
        for kind in [
            DatabaseErrorKind::ClosedConnection,
            DatabaseErrorKind::UnableToSendCommand,
        ] {
            assert!(is_unavailable(database_error(kind, "anything at all")));
        }
    }

    #[test]
    fn the_codes_diesel_async_hides_are_recognised_by_their_exact_message() {
        for (code, message) in HIDDEN_SQLSTATES {
            let e = db_error(database_error(DatabaseErrorKind::Unknown, message));
            assert_eq!(
                e.to_string(),
                format!("service unavailable: {code}: {message}")
            );
        }
    }

    #[test]
    fn messages_count_only_when_diesel_has_no_code_and_only_exactly() {
        // A unique violation whose message happens to read like a timeout is still no timeout.
        let e = database_error(
            DatabaseErrorKind::UniqueViolation,
            "canceling statement due to statement timeout",
        );
        assert!(matches!(db_error(e), DomainError::Internal(_)));
        // A longer message that merely contains a transient one (user text in an error, say).
        let e = database_error(
            DatabaseErrorKind::Unknown,
            "invalid input syntax for type uuid: \"deadlock detected\"",
        );
        assert!(matches!(db_error(e), DomainError::Internal(_)));
    }

    #[test]
    fn other_database_errors_are_internal_and_not_found_stays_not_found() {
        for kind in [
            DatabaseErrorKind::UniqueViolation,
            DatabaseErrorKind::CheckViolation,
            DatabaseErrorKind::Unknown,
        ] {
            assert!(matches!(
                db_error(database_error(kind, "relation \"x\" does not exist")),
                DomainError::Internal(_)
            ));
        }
        assert!(matches!(
            db_error(DieselError::NotFound),
            DomainError::NotFound
        ));
    }
}
