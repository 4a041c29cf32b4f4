//! The `wort` binary's library half: configuration, wiring of adapters into the HTTP app, and the
//! operator commands. Black-box tests start the real server through [`start`].

pub mod cli;
pub mod config;
pub mod database;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use actix_web::{HttpServer, web};
use wort_ai::{AiSettings, OpenAiCompatible};
use wort_db::pool::{DbPool, PgHealth};
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

/// Builds the pools (lazily: the database may still be down), wires the adapters and binds.
///
/// Each actix worker gets a pool of its own, `WORT_DB_POOL_SIZE` split evenly between them (at
/// least one connection each). A connection's I/O task runs on the worker thread that opened it,
/// so with one shared pool a request on worker B using a connection opened on worker A wakes A
/// to send and is woken by A for the answer: two cross-thread wake-ups per query, about a third
/// of wort's CPU under load (docs/benchmarks.md). With per-worker pools every query stays on
/// the thread that serves the request.
pub fn start(settings: ServerSettings) -> Result<Started, String> {
    let workers = settings.workers.unwrap_or_else(default_workers).max(1);
    let worker_pool = PoolSettings {
        max_size: (settings.pool.max_size / workers).max(1),
        ..settings.pool.clone()
    };
    let first_pool = build_pool(&settings.database_url, &worker_pool)?;
    let other_pools = (1..workers)
        .map(|_| build_pool(&settings.database_url, &worker_pool))
        .collect::<Result<Vec<DbPool>, String>>()?;
    let ai_provider = match &settings.ai {
        Some(ai) => {
            let provider = OpenAiCompatible::new(ai)?;
            tracing::info!(endpoint = provider.endpoint(), model = %ai.model, "AI assistant enabled");
            Some(Arc::new(provider) as Arc<dyn AiProvider>)
        }
        None => None,
    };
    let listener = std::net::TcpListener::bind(settings.addr)
        .map_err(|e| format!("cannot listen on {}: {e}", settings.addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let public_origin = settings
        .public_origin
        .unwrap_or_else(|| format!("http://{addr}"));
    let shared = SharedParts {
        ai_provider,
        clock: settings.clock,
        origins: Origins::new(&public_origin, &settings.cors_origins),
        client_ip_header: settings.client_ip_header,
    };
    let bench_routes = settings.bench_routes;
    // actix calls the factory once per worker, on that worker's thread (and again for a worker
    // it restarts, which then takes over the pool of the one it replaces).
    let next_pool = Arc::new(AtomicUsize::new(0));
    let server = HttpServer::new(move || {
        let index = next_pool.fetch_add(1, Ordering::Relaxed) % workers;
        let pool = match index.checked_sub(1) {
            Some(other) => other_pools.get(other).unwrap_or(&first_pool).clone(),
            None => first_pool.clone(),
        };
        wort_http::app(shared.state(pool)).configure(|cfg| {
            if bench_routes {
                wort_http::routes::bench::configure(cfg);
            }
        })
    })
    .workers(workers)
    .shutdown_timeout(settings.shutdown_grace_secs)
    .listen(listener)
    .map_err(|e| e.to_string())?
    .run();
    Ok(Started { addr, server })
}

/// actix's own default: one worker per core.
fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
}

/// What every worker's state shares; the database adapters are per worker (see [`start`]).
#[derive(Clone)]
struct SharedParts {
    ai_provider: Option<Arc<dyn AiProvider>>,
    clock: Arc<dyn Clock>,
    origins: Origins,
    client_ip_header: Option<String>,
}

impl SharedParts {
    fn state(&self, pool: DbPool) -> web::Data<AppState> {
        web::Data::new(AppState {
            accounts: Arc::new(PgAccounts::new(pool.clone())),
            recipes: Arc::new(PgRecipes::new(pool.clone())),
            ingredients: Arc::new(PgIngredients::new(pool.clone())),
            inventory: Arc::new(PgInventory::new(pool.clone())),
            ai_provider: self.ai_provider.clone(),
            ai_usage: Arc::new(PgAiUsage::new(pool.clone())),
            chats: Arc::new(PgChats::new(pool.clone())),
            sessions: Arc::new(PgSessions::new(pool.clone())),
            health: Arc::new(PgHealth(pool)),
            clock: self.clock.clone(),
            origins: self.origins.clone(),
            client_ip_header: self.client_ip_header.clone(),
        })
    }
}
