//! `wort`: see `wort --help`.

use clap::Parser;
use wort_server::cli::{self, Cli};
use wort_server::config::Config;

fn main() -> std::process::ExitCode {
    // Before the runtime starts any thread.
    wort_server::memory::give_large_blocks_back();
    actix_web::rt::System::new().block_on(run())
}

async fn run() -> std::process::ExitCode {
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
    wort_server::logging::init(config.reading_json);
    match cli::run(cli, config).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            eprintln!("wort: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
