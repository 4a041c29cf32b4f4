//! Ownership is a fact of the SQL: every account-owned table carries the account's id, and every
//! statement wort sends about an account's rows says which account (docs/architecture.md,
//! "Data"). That is what makes another account's id "not found", and what would let the data be
//! spread over several database nodes by account (docs/decisions/0084-past-one-primary.md).
//!
//! * **Tables.** The migrated database's `information_schema` is read: every table is the
//!   accounts table, or account-owned (a `NOT NULL user_id` referencing `users`), or on
//!   [`SHARED_TABLES`] with its reason.
//! * **Statements.** diesel's instrumentation, which diesel-async's connection takes from
//!   `diesel::connection::set_default_instrumentation` when it is made, records the text of every
//!   statement this process's servers send. The test drives every route of the OpenAPI document
//!   as the owner and as another account, the flows outside it (sign-in, keys, devices, shares,
//!   a keyed write, the assistant) and the background work (webhook deliveries, the fermentation
//!   schedule's clock, the pruners); then every distinct statement that names an account-owned
//!   table must compare `user_id` with a parameter in a condition or insert it, unless it is on
//!   [`CROSS_ACCOUNT`] with its reason. How a statement is read: `account_scope/sql.rs`.
//!
//! The recording holds the whole process's statements. Under nextest (`cargo xtask test`) a test
//! is a process of its own; under `cargo test` other tests' servers are recorded too, which
//! only checks more of the same code.

mod sql;
mod walk;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use diesel::connection::InstrumentationEvent;

use crate::database::Psql;
use crate::support::{Options, TestApp, database_url};

/// Tables that belong to no account, each with its reason. A new table goes here only when its
/// rows are nobody's; a table of an account's rows gets `user_id uuid NOT NULL REFERENCES users
/// (id) ON DELETE CASCADE` instead.
///
/// The BJCP styles are no table: they are compiled in (`crates/domain/src/brewing/styles.rs`).
const SHARED_TABLES: &[(&str, Shared, &str)] = &[
    (
        "__diesel_schema_migrations",
        Shared::Whole,
        "diesel's list of applied migrations: the schema's, not an account's",
    ),
    (
        "catalog_seed",
        Shared::Whole,
        "one row: which built-in catalogue the database was seeded with",
    ),
    (
        "sign_in_failures",
        Shared::Whole,
        "sign-in throttling by subject (an email or a client address), counted before any \
         account is known and for emails that are no account",
    ),
    (
        "catalog_items",
        Shared::WithOwnRows,
        "the built-in ingredient catalogue (user_id NULL), read by every account, beside each \
         account's own items (user_id set)",
    ),
    (
        "water_profiles",
        Shared::WithOwnRows,
        "the built-in water profiles and style targets (user_id NULL), read by every account, \
         beside each account's own profiles (user_id set)",
    ),
];

/// What a shared table holds.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Shared {
    /// Nobody's rows only.
    Whole,
    /// Shared rows (`user_id` NULL) and accounts' own rows (`user_id` set, referencing `users`):
    /// its statements are checked like an account-owned table's, since own rows must be asked
    /// for by account (`user_id IS NULL OR user_id = $1`).
    WithOwnRows,
}

/// Statements that cross accounts by design, each recognised by a piece of its SQL text, with
/// the reason. Each must be met by the walk, so that the list never keeps a statement that is
/// gone (a new diesel that writes the text otherwise fails here too: update the piece).
const CROSS_ACCOUNT: &[(&str, &str)] = &[
    // Finding the account: before these, nobody is known.
    (
        r#"FROM "users" WHERE ("users"."email" = $1)"#,
        "sign-in by email (`PgAccounts::find_credentials`): the email is how the account is found",
    ),
    (
        r#"FROM ("auth_sessions" INNER JOIN "users""#,
        "a cookie's sign-in session, looked up by its token's hash (`PgAccounts::find_sign_in`)",
    ),
    (
        r#"DELETE FROM "auth_sessions" WHERE ("auth_sessions"."token_hash" = $1)"#,
        "sign-out ends the session its cookie names, by the token's hash (`PgAccounts::delete_sign_in`)",
    ),
    (
        r#"FROM ("api_keys" INNER JOIN "users""#,
        "an API key, looked up by its hash (`PgAccounts::authenticate_api_key`)",
    ),
    (
        "WITH device AS (UPDATE devices",
        "a device's post, looked up by its token's hash (`RecordDevicePost`); what it reads \
         after is joined on the device's own user_id",
    ),
    (
        r#"FROM "devices" WHERE ("devices"."token_hash" = $1)"#,
        "a device's post whose body cannot be read is refused for its token first \
         (`DeviceService::check_token`): is it any device's?",
    ),
    (
        r#"FROM "recipe_shares" WHERE ("recipe_shares"."token" = $1)"#,
        "a share link's token, which anybody holding it may use; the recipe is then read with \
         the share's user_id",
    ),
    // Background work over every account's rows.
    (
        "WITH RECURSIVE waiting (endpoint_id)",
        "the webhook workers' claim of due deliveries, fair between accounts (`CLAIM_DUE`)",
    ),
    (
        r#"DELETE FROM "webhook_events" WHERE (("webhook_events"."created_at" < $1)"#,
        "the webhook workers forget delivered events past their age, whoever's",
    ),
    (
        r#"SELECT DISTINCT "session_fermentation_steps"."user_id", "session_fermentation_steps"."session_id" FROM"#,
        "the fermentation schedule's clock finds the steps of every account whose time has \
         come; each session's steps are then marked with its user_id",
    ),
    (
        "SELECT user_id FROM ( SELECT user_id FROM alert_rules WHERE enabled UNION",
        "the alert clock lists the accounts with an enabled rule or an active alert, a batch at \
         a time; each batch's rules and alerts are then read by those accounts' user_id",
    ),
    (
        "WITH accounts AS ( SELECT i.user_id FROM mqtt_integrations i WHERE i.enabled",
        "the MQTT publishers' claim of the accounts with messages waiting (`CLAIM_DUE` in \
         crates/db/src/mqtt.rs), one publisher per account; what comes of each batch is then \
         recorded by its user_id",
    ),
    (
        r#"DELETE FROM "idempotency_keys" WHERE ("idempotency_keys"."reserved_at" < $1)"#,
        "the pruner forgets every account's Idempotency-Keys past their 24 hours",
    ),
];

/// One table as `information_schema` describes it.
#[derive(Debug)]
struct TableRow {
    name: String,
    /// `Some(nullable)` when it has a `user_id` column.
    user_id: Option<bool>,
    /// Its `user_id` references `users (id)`.
    references_users: bool,
}

/// Every table of the migrated database's `public` schema.
fn tables() -> Vec<TableRow> {
    let mut psql = Psql::start(&database_url()).unwrap();
    let lines = psql
        .run(
            "SELECT t.table_name || '|' || coalesce(c.is_nullable, '') || '|' || (EXISTS ( \
               SELECT 1 FROM information_schema.referential_constraints r \
               JOIN information_schema.key_column_usage k \
                 ON k.constraint_schema = r.constraint_schema \
                AND k.constraint_name = r.constraint_name \
               JOIN information_schema.key_column_usage p \
                 ON p.constraint_schema = r.unique_constraint_schema \
                AND p.constraint_name = r.unique_constraint_name \
                AND p.ordinal_position = k.position_in_unique_constraint \
               WHERE k.table_schema = t.table_schema AND k.table_name = t.table_name \
                 AND k.column_name = 'user_id' AND p.table_name = 'users' \
                 AND p.column_name = 'id'))::text \
             FROM information_schema.tables t \
             LEFT JOIN information_schema.columns c ON c.table_schema = t.table_schema \
                   AND c.table_name = t.table_name AND c.column_name = 'user_id' \
             WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' \
             ORDER BY 1",
        )
        .unwrap();
    psql.finish().unwrap();
    lines
        .iter()
        .map(|line| {
            let mut parts = line.split('|');
            let (name, nullable, references) = (
                parts.next().unwrap(),
                parts.next().unwrap(),
                parts.next().unwrap(),
            );
            TableRow {
                name: name.to_owned(),
                user_id: (!nullable.is_empty()).then_some(nullable == "YES"),
                references_users: references == "true",
            }
        })
        .collect()
}

/// The tables whose statements must say their account: every table but the wholly shared ones
/// (`users` says it by its `id`).
fn account_scoped(tables: &[TableRow]) -> BTreeSet<String> {
    tables
        .iter()
        .filter(|t| {
            !SHARED_TABLES
                .iter()
                .any(|(name, kind, _)| *name == t.name && *kind == Shared::Whole)
        })
        .map(|t| t.name.clone())
        .collect()
}

#[test]
fn every_table_is_an_accounts_or_listed_as_shared() {
    let tables = tables();
    assert!(
        tables.iter().any(|t| t.name == "recipes"),
        "the migrated tables were read: {tables:?}"
    );
    let mut wrong = Vec::new();
    for t in &tables {
        let shared = SHARED_TABLES.iter().find(|(name, ..)| *name == t.name);
        let fine = match (t.name.as_str(), shared) {
            ("users", _) => true,
            (_, Some((_, Shared::Whole, _))) => true,
            (_, Some((_, Shared::WithOwnRows, _))) => t.user_id.is_some() && t.references_users,
            (_, None) => t.user_id == Some(false) && t.references_users,
        };
        if !fine {
            wrong.push(format!(
                "{} (user_id: {}, references users: {})",
                t.name,
                match t.user_id {
                    None => "none",
                    Some(true) => "nullable",
                    Some(false) => "NOT NULL",
                },
                t.references_users
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "tables that are neither an account's nor listed as shared: {wrong:#?}\n\
         An account's table needs `user_id uuid NOT NULL REFERENCES users (id) ON DELETE \
         CASCADE` (and its queries must filter by it); a table of nobody's rows goes on \
         SHARED_TABLES in crates/server/tests/api/account_scope.rs, with the reason."
    );
    for (name, ..) in SHARED_TABLES {
        assert!(
            tables.iter().any(|t| t.name == *name),
            "SHARED_TABLES lists {name}, which the database does not have: remove it"
        );
    }
}

static RECORDING: AtomicBool = AtomicBool::new(false);
static STATEMENTS: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Keeps the text of every statement that ran while [`RECORDING`] is on.
fn record(event: InstrumentationEvent<'_>) {
    if let InstrumentationEvent::FinishQuery { query, .. } = event
        && RECORDING.load(Ordering::SeqCst)
    {
        STATEMENTS.lock().unwrap().insert(query.to_string());
    }
}

/// Every connection made from here on reports to [`record`].
fn install_recorder() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        diesel::connection::set_default_instrumentation(|| Some(Box::new(record))).unwrap();
    });
}

/// The SQL text, shortened for a message.
fn short(sql: &str) -> String {
    const MAX: usize = 600;
    match sql.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &sql[..at]),
        None => sql.to_owned(),
    }
}

#[tokio::test]
async fn every_statement_on_an_accounts_rows_says_which_account() {
    let tables = tables(); // the database exists (and is migrated) before recording starts
    let scoped = account_scoped(&tables);
    install_recorder();
    RECORDING.store(true, Ordering::SeqCst);

    let provider = crate::ai::FakeProvider::start().await;
    let app = TestApp::spawn_with(Options {
        ai: Some(provider.settings(std::time::Duration::from_secs(10))),
        ..Options::default()
    })
    .await;
    walk::everything(&app).await;
    app.stop().await;
    provider.stop().await;
    RECORDING.store(false, Ordering::SeqCst);

    let statements = std::mem::take(&mut *STATEMENTS.lock().unwrap());
    let mut touched: BTreeSet<String> = BTreeSet::new();
    let mut met: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unscoped = Vec::new();
    for statement in statements.iter().filter(|s| sql::is_data_statement(s)) {
        let scope = sql::scope(statement);
        let owned: BTreeSet<&String> = scope
            .tables
            .iter()
            .filter(|t| scoped.contains(*t))
            .collect();
        if owned.is_empty() {
            continue;
        }
        touched.extend(owned.iter().map(|t| (*t).clone()));
        let says_account = scope.filters_user_id
            || (scope.filters_id && owned.iter().all(|t| t.as_str() == "users"));
        if let Some((piece, _)) = CROSS_ACCOUNT.iter().find(|(p, _)| statement.contains(p)) {
            *met.entry(piece).or_default() += 1;
        } else if !says_account {
            unscoped.push(short(statement));
        }
    }

    let untouched: Vec<&String> = scoped.iter().filter(|t| !touched.contains(*t)).collect();
    assert!(
        untouched.is_empty(),
        "no recorded statement named {untouched:?} ({} statements recorded): drive a request \
         that reads or writes it in account_scope/walk.rs",
        statements.len()
    );
    assert!(
        unscoped.is_empty(),
        "{} statements on an account's rows do not say which account:\n\n{}\n\n\
         Compare the table's `user_id` with the caller's id in the statement's WHERE (or ON), \
         or insert it. A statement that must cross accounts goes on CROSS_ACCOUNT in \
         crates/server/tests/api/account_scope.rs, with the reason.",
        unscoped.len(),
        unscoped.join("\n\n")
    );
    let unmet: Vec<&str> = CROSS_ACCOUNT
        .iter()
        .map(|(piece, _)| *piece)
        .filter(|piece| !met.contains_key(piece))
        .collect();
    assert!(
        unmet.is_empty(),
        "CROSS_ACCOUNT lists statements no request sent: {unmet:?}. Drive them in \
         account_scope/walk.rs, or remove them if wort no longer sends them."
    );
}
