//! The `wort` binary's library half: configuration, wiring of adapters into the HTTP app, and the
//! operator commands. Black-box tests start the real server through [`start`].

pub mod cli;
pub mod config;
pub mod database;

use std::net::SocketAddr;
use std::sync::Arc;

use actix_web::{HttpServer, web};
use wort_ai::{AiSettings, OpenAiCompatible};
use wort_db::pool::PgHealth;
use wort_db::{
    PgAccounts, PgIngredients, PgInventory, PgRecipes, PgSessions, PoolSettings, build_pool,
};
use wort_db::{PgAiUsage, PgChats};
use wort_domain::ports::{AiProvider, Clock};
use wort_http::{AppState, Origins};

/// Everything needed to run the HTTP service on a database that is already migrated.
pub struct ServerSettings {
    pub database_url: String,
    pub addr: SocketAddr,
    pub public_origin: Option<String>,
    pub cors_origins: Vec<String>,
    /// `WORT_CLIENT_IP_HEADER`: where a trusted reverse proxy puts the client's address.
    pub client_ip_header: Option<String>,
    pub pool: PoolSettings,
    pub clock: Arc<dyn Clock>,
    /// The OpenAI-compatible provider; `None`: AI is not configured (analysis and chat are 503).
    pub ai: Option<AiSettings>,
    /// actix worker threads (the default is one per core).
    pub workers: Option<usize>,
    /// How long in-flight requests may take to finish after SIGTERM.
    pub shutdown_grace_secs: u64,
    /// Also serve the benchmark routes (`GET /bench/hello`); see `WORT_BENCH_ROUTES`.
    pub bench_routes: bool,
}

impl ServerSettings {
    /// Settings for a local server on `database_url`: an ephemeral port on 127.0.0.1, the real
    /// clock, default pool, no extra origins, no AI, no benchmark routes. Tests and tools start
    /// from this and change what they need.
    pub fn local(database_url: &str) -> ServerSettings {
        ServerSettings {
            database_url: database_url.to_owned(),
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            public_origin: None,
            cors_origins: Vec::new(),
            client_ip_header: None,
            pool: PoolSettings::default(),
            clock: Arc::new(wort_domain::ports::SystemClock),
            workers: Some(1),
            shutdown_grace_secs: 1,
            bench_routes: false,
            ai: None,
        }
    }
}

/// A started server: where it listens, and the handle to stop it.
pub struct Started {
    pub addr: SocketAddr,
    pub server: actix_web::dev::Server,
}

/// Builds the pool (lazily: the database may still be down), wires the adapters and binds.
pub fn start(settings: ServerSettings) -> Result<Started, String> {
    let pool = build_pool(&settings.database_url, &settings.pool)?;
    let ai_provider = match &settings.ai {
        Some(ai) => {
            let provider = OpenAiCompatible::new(ai)?;
            tracing::info!(endpoint = provider.endpoint(), model = %ai.model, "AI assistant enabled");
            Some(Arc::new(provider) as Arc<dyn AiProvider>)
        }
        None => None,
    };
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
            ai_provider,
            ai_usage: Arc::new(PgAiUsage::new(pool.clone())),
            chats: Arc::new(PgChats::new(pool.clone())),
            sessions: Arc::new(PgSessions::new(pool.clone())),
            health: Arc::new(PgHealth(pool.clone())),
            clock: settings.clock,
            origins: Origins::new(&public_origin, &settings.cors_origins),
            client_ip_header: settings.client_ip_header,
        });
        let bench_routes = settings.bench_routes;
        let mut server = HttpServer::new(move || {
            wort_http::app(state.clone()).configure(|cfg| {
                if bench_routes {
                    wort_http::routes::bench::configure(cfg);
                }
            })
        })
        .shutdown_timeout(settings.shutdown_grace_secs);
        if let Some(workers) = settings.workers {
            server = server.workers(workers);
        }
        let server = server.listen(listener).map_err(|e| e.to_string())?.run();
        Started { addr, server }
    };
    Ok(http_server)
}
