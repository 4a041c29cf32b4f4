//! The `wort` command line: `serve`, `migrate`, and operator bootstrap for headless installs.

use std::io::BufRead;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use wort_db::{PgAccounts, build_pool, migrate};
use wort_domain::account::{self, NewUser};
use wort_domain::ports::{AccountRepository, Clock, SystemClock};

use crate::config::Config;
use crate::database::Database;
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
            if !no_migrate {
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
        client_ip_header: config.client_ip_header.clone(),
        pool: config.pool.clone(),
        clock: Arc::new(SystemClock),
        ai: config.ai.clone(),
        workers: None,
        shutdown_grace_secs: 30,
        bench_routes: config.bench_routes,
    })?;
    tracing::info!(addr = %started.addr, origin = %config.public_origin, "wort is listening");
    // actix stops on SIGTERM/SIGINT, letting in-flight requests finish within the grace period.
    started.server.await.map_err(|e| e.to_string())?;
    tracing::info!("wort stopped");
    Ok(())
}

fn accounts(config: &Config, url: &str) -> Result<PgAccounts, String> {
    Ok(PgAccounts::new(build_pool(url, &config.pool)?))
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
    let password = password.trim_end_matches(['\n', '\r']).to_owned();
    let length = password.chars().count();
    if !(8..=128).contains(&length) {
        return Err("the password must be 8 to 128 characters".into());
    }
    if !(1..=200).contains(&name.chars().count()) {
        return Err("the name must be 1 to 200 characters".into());
    }
    let password_hash = tokio::task::spawn_blocking(move || account::hash_password(&password))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    let new = NewUser {
        email: email.to_lowercase(),
        name,
        password_hash,
    };
    let user = accounts(config, url)?
        .create_user(new, SystemClock.now())
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
    if !(1..=64).contains(&name.chars().count()) {
        return Err("the key name must be 1 to 64 characters".into());
    }
    let accounts = accounts(config, url)?;
    let user = accounts
        .find_credentials(&email.to_lowercase())
        .await
        .map_err(|e| describe(&e))?
        .ok_or_else(|| format!("no user with email {email}"))?
        .user;
    let generated = account::generate_api_key(name, None).map_err(|e| describe(&e))?;
    accounts
        .create_api_key(user.id, generated.record, SystemClock.now())
        .await
        .map_err(|e| describe(&e))?;
    write_line(&generated.secret)
}

fn describe(e: &wort_domain::DomainError) -> String {
    match e {
        wort_domain::DomainError::Invalid(v) => v
            .iter()
            .map(|i| i.message.clone())
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

/// Command output for the operator (stdout; logs go to stderr).
fn write_line(line: &str) -> Result<(), String> {
    use std::io::Write;
    writeln!(std::io::stdout(), "{line}").map_err(|e| e.to_string())
}
