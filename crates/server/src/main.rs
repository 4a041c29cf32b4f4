//! `wort`: see `wort --help`.

use clap::Parser;
use tracing_subscriber::EnvFilter;
use wort_server::cli::{self, Cli};
use wort_server::config::Config;

fn init_logging(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if json {
        builder.json().init()
    } else {
        builder.init()
    }
}

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    // A .env file is a development convenience; real deployments set the environment.
    let _ = dotenvy::dotenv();
    let cli = Cli::parse();
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("wort: configuration error: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    init_logging(config.log_json);
    match cli::run(cli, config).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            eprintln!("wort: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
