//! The `wort` binary's library half: configuration, wiring of adapters into the HTTP app, and the
//! operator commands. Black-box tests start the real server through [`start`].

pub mod cli;
pub mod config;
pub mod database;

use std::net::SocketAddr;
use std::sync::Arc;

use actix_web::{HttpServer, web};
use wort_db::pool::PgHealth;
use wort_db::{
    PgAccounts, PgIngredients, PgInventory, PgRecipes, PgSessions, PoolSettings, build_pool,
};
use wort_domain::ports::Clock;
use wort_http::{AppState, Origins};

/// Everything needed to run the HTTP service on a database that is already migrated.
pub struct ServerSettings {
    pub database_url: String,
    pub addr: SocketAddr,
    pub public_origin: Option<String>,
    pub cors_origins: Vec<String>,
    pub pool: PoolSettings,
    pub clock: Arc<dyn Clock>,
    /// actix worker threads (the default is one per core).
    pub workers: Option<usize>,
    /// How long in-flight requests may take to finish after SIGTERM.
    pub shutdown_grace_secs: u64,
}

/// A started server: where it listens, and the handle to stop it.
pub struct Started {
    pub addr: SocketAddr,
    pub server: actix_web::dev::Server,
}

/// Builds the pool (lazily: the database may still be down), wires the adapters and binds.
pub fn start(settings: ServerSettings) -> Result<Started, String> {
    let pool = build_pool(&settings.database_url, &settings.pool)?;
    let http_server = {
        let listener = std::net::TcpListener::bind(settings.addr)
            .map_err(|e| format!("cannot listen on {}: {e}", settings.addr))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let public_origin = settings
            .public_origin
            .unwrap_or_else(|| format!("http://{addr}"));
        let state = web::Data::new(AppState {
            accounts: Arc::new(PgAccounts::new(pool.clone())),
            recipes: Arc::new(PgRecipes::new(pool.clone())),
            ingredients: Arc::new(PgIngredients::new(pool.clone())),
            inventory: Arc::new(PgInventory::new(pool.clone())),
            sessions: Arc::new(PgSessions::new(pool.clone())),
            health: Arc::new(PgHealth(pool.clone())),
            clock: settings.clock,
            origins: Origins::new(&public_origin, &settings.cors_origins),
        });
        let mut server = HttpServer::new(move || wort_http::app(state.clone()))
            .shutdown_timeout(settings.shutdown_grace_secs);
        if let Some(workers) = settings.workers {
            server = server.workers(workers);
        }
        let server = server.listen(listener).map_err(|e| e.to_string())?.run();
        Started { addr, server }
    };
    Ok(http_server)
}
