//! The `wort` command line: `serve`, `migrate`, and operator bootstrap for headless installs.

use std::io::BufRead;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use wort_db::{PgAccounts, build_pool, migrate};
use wort_domain::account::{self, AccountService};
use wort_domain::ports::SystemClock;

use crate::config::Config;
use crate::database::Database;
use crate::hashing::BlockingHasher;
use crate::{ServerSettings, start};

#[derive(Parser)]
#[command(
    name = "wort",
    version,
    about = "wort: a self-hostable homebrewing data service"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Apply pending migrations, then serve HTTP.
    Serve {
        /// Do not apply migrations (another instance or a deploy step does it).
        #[arg(long)]
        no_migrate: bool,
    },
    /// Apply pending migrations and exit.
    Migrate,
    /// Manage users.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Manage API keys.
    ApiKey {
        #[command(subcommand)]
        command: ApiKeyCommand,
    },
}

#[derive(Subcommand)]
pub enum UserCommand {
    /// Create a user; the password is read from standard input (one line).
    Create {
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
    },
}

#[derive(Subcommand)]
pub enum ApiKeyCommand {
    /// Create an API key for an existing user and print it (shown once).
    Create {
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
    },
}

/// Runs a command to completion. The database (and the embedded cluster, if any) is opened
/// first and closed last, whatever happens in between.
pub async fn run(cli: Cli, config: Config) -> Result<(), String> {
    let database = tokio::task::spawn_blocking({
        let config = config.clone();
        move || Database::open(&config)
    })
    .await
    .map_err(|e| e.to_string())??;
    let result = run_with_database(cli.command, &config, &database.url).await;
    let _ = tokio::task::spawn_blocking(move || database.close()).await;
    result
}

async fn run_with_database(command: Command, config: &Config, url: &str) -> Result<(), String> {
    match command {
        Command::Serve { no_migrate } => {
            if no_migrate {
                migrate::check_schema(url).await?;
            } else {
                migrate_now(url).await?;
            }
            serve(config, url).await
        }
        Command::Migrate => migrate_now(url).await,
        Command::User {
            command: UserCommand::Create { email, name },
        } => create_user(config, url, email, name).await,
        Command::ApiKey {
            command: ApiKeyCommand::Create { email, name },
        } => create_api_key(config, url, email, name).await,
    }
}

async fn migrate_now(url: &str) -> Result<(), String> {
    let applied = migrate::run_migrations(url).await?;
    tracing::info!(applied, "migrations up to date");
    Ok(())
}

async fn serve(config: &Config, url: &str) -> Result<(), String> {
    if let Some(missing) = config.ai_missing {
        tracing::warn!("AI is not configured: {missing} is not set");
    }
    let started = start(ServerSettings {
        database_url: url.to_owned(),
        addr: config.addr,
        public_origin: Some(config.public_origin.clone()),
        cors_origins: config.cors_origins.clone(),
        client_address: config.client_address.clone(),
        account_limits: config.account_limits,
        pool: config.pool.clone(),
        clock: Arc::new(SystemClock),
        ai: config.ai.clone(),
        workers: None,
        shutdown_grace_secs: config.shutdown_grace_secs,
        bench_routes: config.bench_routes,
        metrics_addr: config.metrics_addr,
        webhooks: config.webhooks.clone(),
        mqtt: config.mqtt.clone(),
        device_reading_interval: config.device_reading_interval,
        body_read_timeout: config.body_read_timeout,
        max_connections_per_address: config.max_connections_per_address,
        // One per core, each waiting up to the database deadline.
        heavy_answers: Default::default(),
        readings_retention: config.readings_retention,
        alert_check_every: crate::alert_clock::CHECK_EVERY,
    })?;
    tracing::info!(addr = %started.addr, origin = %config.public_origin, "wort is listening");
    // actix stops on SIGTERM/SIGINT, letting in-flight requests finish within the grace period.
    started.run().await.map_err(|e| e.to_string())?;
    tracing::info!("wort stopped");
    Ok(())
}

/// The same account service the HTTP adapter uses, so the CLI checks what sign-up checks.
fn accounts(config: &Config, url: &str) -> Result<AccountService, String> {
    let pool = build_pool(url, &config.pool)?;
    Ok(AccountService::new(
        Arc::new(PgAccounts::new(pool)),
        Arc::new(BlockingHasher::new(1)),
        Arc::new(SystemClock),
        // The operator's own commands: no per-address limits, and "closed" closes only the route.
        wort_domain::account::AccountLimits::default(),
    ))
}

async fn create_user(
    config: &Config,
    url: &str,
    email: String,
    name: String,
) -> Result<(), String> {
    migrate_now(url).await?;
    let mut password = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut password)
        .map_err(|e| format!("reading password: {e}"))?;
    let password = password.trim_end_matches(['\n', '\r']);
    let fields = account::check_sign_up(&name, &email, password)
        .map_err(|issues| format!("cannot create user: {}", describe_all(&issues)))?;
    let user = accounts(config, url)?
        .create_user(fields)
        .await
        .map_err(|e| format!("cannot create user: {}", describe(&e)))?;
    tracing::info!(user_id = %user.id.0, "user created");
    write_line(&format!("created user {} <{}>", user.id.0, user.email))
}

async fn create_api_key(
    config: &Config,
    url: &str,
    email: String,
    name: String,
) -> Result<(), String> {
    migrate_now(url).await?;
    account::KEY_NAME
        .check(&["name"], &name)
        .map_err(|v| format!("cannot create key: {}", describe_all(&[v])))?;
    let created = accounts(config, url)?
        .create_api_key_for(&email, name)
        .await
        .map_err(|e| match e {
            wort_domain::DomainError::NotFound => format!("no user with email {email}"),
            other => describe(&other),
        })?;
    write_line(&created.secret)
}

fn describe_all(issues: &[wort_domain::error::Violation]) -> String {
    issues
        .iter()
        .map(|i| format!("{}: {}", i.path.join("."), i.message))
        .collect::<Vec<_>>()
        .join("; ")
}

fn describe(e: &wort_domain::DomainError) -> String {
    match e {
        wort_domain::DomainError::Invalid(v) => describe_all(v),
        other => other.to_string(),
    }
}

/// Command output for the operator (stdout; logs go to stderr).
fn write_line(line: &str) -> Result<(), String> {
    use std::io::Write;
    writeln!(std::io::stdout(), "{line}").map_err(|e| e.to_string())
}
