//! The `wort` binary's library half: configuration, wiring of adapters into the HTTP app, and the
//! operator commands. Black-box tests start the real server through [`start`].

pub mod alert_clock;
pub mod cli;
pub mod config;
pub mod cpu;
pub mod database;
pub mod fermentation_clock;
pub mod hashing;
pub mod key_pruner;
pub mod logging;
pub mod memory;
pub mod metrics;
pub mod mqtt_worker;
pub mod reading_retention;
pub mod shutdown;
pub mod webhook_worker;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use actix_web::{HttpServer, web};
use wort_ai::{AiSettings, OpenAiCompatible};
use wort_db::pool::{DbPool, PgHealth};
use wort_db::{
    PgAccounts, PgBrewSessions, PgInventory, PgRecipeChildren, PgRecipes, PoolSettings, build_pool,
};
use wort_db::{PgAiUsage, PgChats, PgDevices, PgEquipment, PgIdempotency, PgWebhooks};
use wort_domain::account::{AccountLimits, AccountService};
use wort_domain::ai::service::AiService;
use wort_domain::brew_session::BrewSessionService;
use wort_domain::brew_session::retention::{ReadingRetention, RetentionDays};
use wort_domain::device::DeviceService;
use wort_domain::equipment::EquipmentService;
use wort_domain::idempotency::IdempotencyService;
use wort_domain::inventory::InventoryService;
use wort_domain::ports::{AiProvider, Clock, PasswordHasher};
use wort_domain::recipe::RecipeService;
use wort_domain::webhook::{RetryPolicy, WebhookService};
use wort_http::client_address::ClientAddressRule;
use wort_http::state::HeavyAnswers;
use wort_http::{AppState, Origins};

use crate::hashing::BlockingHasher;
use crate::metrics::{AiCounters, CountingProvider, DeliveryCounters, MetricsSources};
use wort_http::metrics::RequestMetrics;

/// Everything needed to run the HTTP service on a database that is already migrated.
pub struct ServerSettings {
    pub database_url: String,
    pub addr: SocketAddr,
    pub public_origin: Option<String>,
    pub cors_origins: Vec<String>,
    /// `WORT_CLIENT_IP_HEADER` and `WORT_TRUSTED_PROXIES`: how the client's address is found.
    pub client_address: ClientAddressRule,
    /// Sign-up open or closed, and the per-address limits of sign-up and sign-in.
    pub account_limits: AccountLimits,
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
    /// `WORT_METRICS_ADDR`: where to serve Prometheus metrics; `None`: nowhere.
    pub metrics_addr: Option<SocketAddr>,
    pub webhooks: WebhookSettings,
    pub mqtt: MqttSettings,
    /// One stored reading per device per this long (60 s by default).
    pub device_reading_interval: std::time::Duration,
    /// `WORT_BODY_READ_TIMEOUT_SECS`: how long reading one request body may take (`408` after).
    pub body_read_timeout: std::time::Duration,
    /// `WORT_MAX_CONNECTIONS_PER_ADDRESS`: open connections one peer address may hold (`0`: no
    /// cap; trusted proxies are never capped).
    pub max_connections_per_address: usize,
    /// How many answers that grow with the account's data (exports, shopping lists, costs) are
    /// made at once, and how long a request waits for its turn.
    pub heavy_answers: HeavyAnswerSettings,
    /// `WORT_READINGS_RETENTION_DAYS`: thin readings older than this; `None`: keep every reading.
    pub readings_retention: Option<RetentionDays>,
    /// How often the clock judges the alert rules ([`alert_clock::CHECK_EVERY`]; tests judge
    /// more often).
    pub alert_check_every: std::time::Duration,
}

/// `wort_http::state::HeavyAnswers`' settings; the defaults are production's.
#[derive(Debug, Clone, Copy, Default)]
pub struct HeavyAnswerSettings {
    /// `None`: one per CPU the process may use.
    pub at_once: Option<usize>,
    /// `None`: the database deadline (`WORT_DB_DEADLINE_MS`, [`PoolSettings::deadline`]).
    pub wait: Option<std::time::Duration>,
}

/// How webhooks are delivered.
#[derive(Debug, Clone)]
pub struct WebhookSettings {
    /// `WORT_WEBHOOK_ALLOW_PRIVATE=1`: targets on private addresses are allowed.
    pub allow_private: bool,
    pub retry: RetryPolicy,
    /// Whether this instance runs delivery workers (tests that count deliveries turn them off
    /// in one instance to prove another delivers).
    pub deliver: bool,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        WebhookSettings {
            allow_private: false,
            retry: RetryPolicy::default(),
            deliver: true,
        }
    }
}

/// How MQTT messages are published.
#[derive(Debug, Clone)]
pub struct MqttSettings {
    /// `WORT_MQTT_ALLOW_PRIVATE` (on unless `0`): brokers on private LAN addresses are allowed.
    /// Loopback, link-local and reserved addresses follow `WebhookSettings::allow_private`.
    pub allow_lan: bool,
    /// The first retry's delay after a broker failed (tests shorten it).
    pub retry_base: time::Duration,
    /// Whether this instance runs publishers.
    pub publish: bool,
}

impl Default for MqttSettings {
    fn default() -> Self {
        MqttSettings {
            allow_lan: true,
            retry_base: wort_domain::mqtt::rules::RETRY_BASE,
            publish: true,
        }
    }
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
            client_address: ClientAddressRule::default(),
            account_limits: AccountLimits::default(),
            pool: PoolSettings::default(),
            clock: Arc::new(wort_domain::ports::SystemClock),
            workers: Some(1),
            shutdown_grace_secs: 1,
            bench_routes: false,
            ai: None,
            metrics_addr: None,
            webhooks: WebhookSettings::default(),
            mqtt: MqttSettings::default(),
            device_reading_interval: std::time::Duration::from_secs(60),
            body_read_timeout: wort_http::middleware::BodyReadTimeout::default().0,
            max_connections_per_address: wort_http::connections::DEFAULT_LIMIT,
            heavy_answers: HeavyAnswerSettings::default(),
            readings_retention: None,
            alert_check_every: alert_clock::CHECK_EVERY,
        }
    }
}

/// A started server: where it listens, and the handle to stop it; and the metrics listener when
/// one was asked for (it stops with the server: see [`Started::run`]).
pub struct Started {
    pub addr: SocketAddr,
    pub server: actix_web::dev::Server,
    pub metrics: Option<(SocketAddr, actix_web::dev::Server)>,
    /// Delivers webhook events from the outbox while the server runs.
    pub deliveries: Option<webhook_worker::DeliveryWorker>,
    /// Publishes the MQTT outbox's messages while the server runs.
    pub mqtt_publishers: Option<mqtt_worker::MqttWorker>,
    /// Interrupts streamed AI answers near the end of the grace period (`shutdown`).
    pub interrupt: shutdown::Interrupt,
    pub grace: std::time::Duration,
    /// Prunes expired idempotency keys while the server runs (`key_pruner`).
    pub idempotency_keys: Arc<IdempotencyService>,
    /// Announces fermentation steps whose time has come (`fermentation_clock`).
    pub fermentation_schedules: Arc<BrewSessionService>,
    /// Thins old readings while the server runs (`reading_retention`); `None`: not configured.
    pub reading_retention: Option<Arc<ReadingRetention>>,
    /// Judges the alert rules about time, every `alert_check_every` (`alert_clock`).
    pub alert_rules: Arc<wort_domain::alert::AlertService>,
    pub alert_check_every: std::time::Duration,
    /// Keeps the remembered credentials in step with the database while the server runs.
    pub credential_listener: wort_db::CredentialListener,
}

impl Started {
    /// Runs until the server stops (SIGTERM, SIGINT, or its handle), then stops the metrics
    /// listener too.
    ///
    /// The webhook delivery workers start with it; after the server has stopped they stop
    /// claiming, and the attempts in flight get the grace period to finish. An attempt cut off
    /// is not lost: its lease runs out and a worker (here after a restart, or in another
    /// instance) tries it again.
    pub async fn run(self) -> std::io::Result<()> {
        let deliveries = self.deliveries.map(webhook_worker::DeliveryWorker::spawn);
        let mqtt_publishers = self.mqtt_publishers.map(mqtt_worker::MqttWorker::spawn);
        let signals = tokio::spawn(self.interrupt.clone().on_signal(self.grace));
        let key_pruner = tokio::spawn(key_pruner::run(self.idempotency_keys.clone()));
        let fermentation_clock =
            tokio::spawn(fermentation_clock::run(self.fermentation_schedules.clone()));
        let alert_clock = tokio::spawn(alert_clock::run(
            self.alert_rules.clone(),
            self.alert_check_every,
        ));
        let credential_listener = tokio::spawn(self.credential_listener.run());
        let reading_retention = self
            .reading_retention
            .clone()
            .map(|retention| tokio::spawn(reading_retention::run(retention)));
        let result = match self.metrics {
            None => self.server.await,
            Some((_, metrics)) => {
                let metrics_handle = metrics.handle();
                let metrics_task = tokio::spawn(metrics);
                let result = self.server.await;
                metrics_handle.stop(true).await;
                let _ = metrics_task.await;
                result
            }
        };
        signals.abort();
        key_pruner.abort();
        fermentation_clock.abort();
        alert_clock.abort();
        credential_listener.abort();
        if let Some(reading_retention) = reading_retention {
            reading_retention.abort();
        }
        self.interrupt.fire();
        if let Some(deliveries) = deliveries {
            deliveries.stop().await;
        }
        if let Some(publishers) = mqtt_publishers {
            publishers.stop().await;
        }
        result
    }
}

/// Builds the pools (lazily: the database may still be down), wires the adapters and binds.
///
/// Each actix worker gets a pool of its own, `WORT_DB_POOL_SIZE` split evenly between them (at
/// least one connection each). A connection's I/O task runs on the worker thread that opened it,
/// so with one shared pool a request on worker B using a connection opened on worker A wakes A
/// to send and is woken by A for the answer: two cross-thread wake-ups per query (measured in
/// docs/benchmarks-log.md, "Fixed: the connection pool was shared by both workers"). With
/// per-worker pools every query stays on the thread that serves the request.
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
    // The background tasks (the key pruner, the fermentation clock, the readings retention) run
    // on the main thread and get a small pool of their own: a connection they opened in a
    // worker's pool would keep its I/O task on the main thread, and every request of that worker
    // given it would pay two cross-thread wake-ups per query (measured in
    // docs/benchmarks-log.md, "The background tasks' own pool").
    let background_pool = build_pool(
        &settings.database_url,
        &PoolSettings {
            max_size: 2,
            ..settings.pool.clone()
        },
    )?;
    let idempotency_keys = Arc::new(IdempotencyService::new(
        Arc::new(PgIdempotency::new(background_pool.clone())),
        settings.clock.clone(),
    ));
    let fermentation_schedules = Arc::new(BrewSessionService::new(
        Arc::new(PgBrewSessions::new(background_pool.clone())),
        Arc::new(PgAccounts::new(background_pool.clone())),
        settings.clock.clone(),
    ));
    let alert_rules = Arc::new(wort_domain::alert::AlertService::new(
        Arc::new(wort_db::PgAlerts::new(background_pool.clone())),
        settings.clock.clone(),
    ));
    let reading_retention = settings.readings_retention.map(|days| {
        tracing::info!(
            older_than_days = days.days(),
            "readings retention: on, thinning old readings at start and hourly"
        );
        Arc::new(ReadingRetention::new(
            Arc::new(PgBrewSessions::new(background_pool.clone())),
            settings.clock.clone(),
            days,
        ))
    });
    let ai_counters = Arc::new(AiCounters::default());
    let interrupt = shutdown::Interrupt::default();
    let ai_provider = match &settings.ai {
        Some(ai) => {
            let provider = OpenAiCompatible::new(ai)?;
            tracing::info!(endpoint = provider.endpoint(), model = %ai.model, "AI assistant enabled");
            let counted = Arc::new(CountingProvider {
                inner: Arc::new(provider),
                counters: ai_counters.clone(),
            });
            Some(Arc::new(shutdown::Interruptible {
                inner: counted,
                interrupt: interrupt.clone(),
            }) as Arc<dyn AiProvider>)
        }
        None => None,
    };
    let request_metrics = Arc::new(RequestMetrics::default());
    let delivery_counters = Arc::new(DeliveryCounters::default());
    let metrics = match settings.metrics_addr {
        Some(addr) => {
            let mut pools = vec![first_pool.clone()];
            pools.extend(other_pools.iter().cloned());
            let sources = MetricsSources {
                requests: request_metrics.clone(),
                pools,
                ai: ai_counters,
                deliveries: delivery_counters.clone(),
            };
            let (bound, server) = metrics::start(addr, sources)?;
            tracing::info!(addr = %bound, "metrics at /metrics");
            Some((bound, server))
        }
        None => None,
    };
    let listener = std::net::TcpListener::bind(settings.addr)
        .map_err(|e| format!("cannot listen on {}: {e}", settings.addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let public_origin = settings
        .public_origin
        .unwrap_or_else(|| format!("http://{addr}"));
    // Webhooks have a small pool of their own, shared by every worker's handlers and by the
    // delivery workers: endpoints change rarely, and deliveries must not take the requests'
    // connections.
    let webhook_pool = build_pool(
        &settings.database_url,
        &PoolSettings {
            max_size: 4,
            ..settings.pool.clone()
        },
    )?;
    let sender = wort_webhooks::HttpWebhookSender::new(settings.webhooks.allow_private)?;
    let webhooks = Arc::new(WebhookService::new(
        Arc::new(PgWebhooks::new(webhook_pool.clone())),
        Arc::new(sender),
        settings.clock.clone(),
        settings.webhooks.retry,
    ));
    let deliveries = settings
        .webhooks
        .deliver
        .then(|| webhook_worker::DeliveryWorker::new(webhooks.clone(), delivery_counters));
    // The MQTT settings and outbox share the webhooks' small pool: the integration changes
    // rarely, and publishing must not take the requests' connections.
    let publisher = wort_mqtt::RumqttPublisher::new(wort_domain::mqtt::rules::AddressPolicy {
        allow_lan: settings.mqtt.allow_lan,
        allow_private: settings.webhooks.allow_private,
    })?;
    let mqtt = Arc::new(
        wort_domain::mqtt::MqttService::new(
            Arc::new(wort_db::PgMqtt::new(webhook_pool)),
            Arc::new(publisher),
            settings.clock.clone(),
        )
        .with_retry_base(settings.mqtt.retry_base),
    );
    let mqtt_publishers = settings
        .mqtt
        .publish
        .then(|| mqtt_worker::MqttWorker::new(mqtt.clone()));
    let connection_cap = wort_http::connections::ConnectionCap::new(
        settings.max_connections_per_address,
        settings.client_address.clone(),
    );
    // One for the process: a revocation heard once is forgotten by every worker.
    let credentials = Arc::new(wort_db::PgCredentialCache::new());
    let credential_listener =
        wort_db::CredentialListener::new(&settings.database_url, credentials.clone());
    let shared = SharedParts {
        credentials,
        webhooks,
        mqtt,
        device_reading_interval: settings.device_reading_interval,
        hasher: Arc::new(BlockingHasher::new(default_workers())),
        cpu: Arc::new(cpu::BoundedCpu::new(default_workers(), cpu::DEFAULT_WAIT)),
        heavy: {
            let wait = settings
                .heavy_answers
                .wait
                .unwrap_or(settings.pool.deadline);
            Arc::new(match settings.heavy_answers.at_once {
                Some(at_once) => HeavyAnswers::new(at_once, wait),
                None => HeavyAnswers::per_core(wait),
            })
        },
        ai_provider,
        clock: settings.clock,
        origins: Origins::new(&public_origin, &settings.cors_origins),
        client_address: settings.client_address,
        account_limits: settings.account_limits,
        metrics: request_metrics,
    };
    let bench_routes = settings.bench_routes;
    let body_read_timeout = wort_http::middleware::BodyReadTimeout(settings.body_read_timeout);
    let db_deadline = wort_http::request_deadline::DbDeadline(settings.pool.deadline);
    // actix calls the factory once per worker, on that worker's thread (and again for a worker
    // it restarts, which then takes over the pool of the one it replaces).
    let next_pool = Arc::new(AtomicUsize::new(0));
    let server = HttpServer::new(move || {
        let index = next_pool.fetch_add(1, Ordering::Relaxed) % workers;
        let pool = match index.checked_sub(1) {
            Some(other) => other_pools.get(other).unwrap_or(&first_pool).clone(),
            None => first_pool.clone(),
        };
        wort_http::app(shared.state(pool), body_read_timeout, db_deadline).configure(|cfg| {
            if bench_routes {
                wort_http::routes::bench::configure(cfg);
            }
        })
    })
    .on_connect(move |connection, extensions| connection_cap.on_connect(connection, extensions))
    .workers(workers)
    .shutdown_timeout(settings.shutdown_grace_secs)
    .listen(listener)
    .map_err(|e| e.to_string())?
    .run();
    Ok(Started {
        addr,
        server,
        metrics,
        deliveries,
        mqtt_publishers,
        interrupt,
        grace: std::time::Duration::from_secs(settings.shutdown_grace_secs),
        idempotency_keys,
        fermentation_schedules,
        reading_retention,
        alert_rules,
        alert_check_every: settings.alert_check_every,
        credential_listener,
    })
}

/// actix's own default: one worker per core.
fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
}

/// What every worker's state shares; the database adapters are per worker (see [`start`]).
#[derive(Clone)]
struct SharedParts {
    /// One for the process, so the bound on concurrent hashes holds across workers.
    hasher: Arc<dyn PasswordHasher>,
    /// One for the process too: at most one imported file read or forecast fit per core at a
    /// time.
    cpu: Arc<dyn wort_domain::recipe::ports::CpuWork>,
    /// One for the process too: at most one heavy answer per core at a time.
    heavy: Arc<HeavyAnswers>,
    ai_provider: Option<Arc<dyn AiProvider>>,
    clock: Arc<dyn Clock>,
    origins: Origins,
    client_address: ClientAddressRule,
    account_limits: AccountLimits,
    metrics: Arc<RequestMetrics>,
    webhooks: Arc<WebhookService>,
    mqtt: Arc<wort_domain::mqtt::MqttService>,
    device_reading_interval: std::time::Duration,
    credentials: Arc<wort_db::PgCredentialCache>,
}

impl SharedParts {
    fn state(&self, pool: DbPool) -> web::Data<AppState> {
        let clock = self.clock.clone();
        let recipes = Arc::new(PgRecipes::new(pool.clone()));
        let equipment = Arc::new(PgEquipment::new(pool.clone()));
        let catalog = Arc::new(wort_db::catalog::PgCatalog::new(pool.clone()));
        let water = Arc::new(wort_db::PgWater::new(pool.clone()));
        let water_service = || {
            wort_domain::water::WaterService::new(
                water.clone(),
                recipes.clone(),
                equipment.clone(),
                clock.clone(),
            )
        };
        web::Data::new(AppState {
            accounts: AccountService::new(
                Arc::new(PgAccounts::new(pool.clone())),
                self.hasher.clone(),
                clock.clone(),
                self.account_limits,
            )
            .with_credential_cache(self.credentials.clone()),
            recipes: RecipeService::new(
                wort_domain::recipe::RecipeStores {
                    recipes: recipes.clone(),
                    children: Arc::new(PgRecipeChildren::new(pool.clone())),
                    history: Arc::new(wort_db::PgRecipeHistory::new(pool.clone())),
                },
                equipment.clone(),
                clock.clone(),
                self.cpu.clone(),
                catalog.clone(),
                water.clone(),
            )
            .with_preferences(Arc::new(PgAccounts::new(pool.clone()))),
            water: water_service(),
            equipment: EquipmentService::new(equipment.clone(), clock.clone()),
            devices: DeviceService::new(Arc::new(PgDevices::new(pool.clone())), clock.clone())
                .with_reading_interval(
                    time::Duration::try_from(self.device_reading_interval)
                        .unwrap_or(wort_domain::device::rules::READING_INTERVAL),
                ),
            alerts: wort_domain::alert::AlertService::new(
                Arc::new(wort_db::PgAlerts::new(pool.clone())),
                clock.clone(),
            ),
            webhooks: self.webhooks.clone(),
            mqtt: self.mqtt.clone(),
            brew_sessions: BrewSessionService::new(
                Arc::new(PgBrewSessions::new(pool.clone())),
                Arc::new(PgAccounts::new(pool.clone())),
                clock.clone(),
            )
            .predicting_mash_ph(Arc::new(water_service()))
            .fitting_on(self.cpu.clone()),
            notes: wort_domain::session_note::NoteService::new(
                Arc::new(wort_db::PgNotes::new(pool.clone())),
                clock.clone(),
            ),
            inventory: InventoryService::new(
                Arc::new(PgInventory::new(pool.clone())),
                clock.clone(),
            ),
            catalog: wort_domain::catalog::CatalogService::new(catalog, clock.clone()),
            ai: Arc::new(AiService {
                usage: Arc::new(PgAiUsage::new(pool.clone())),
                chats: Arc::new(PgChats::new(pool.clone())),
                recipes,
                provider: self.ai_provider.clone(),
                clock,
            }),
            idempotency: IdempotencyService::new(
                Arc::new(PgIdempotency::new(pool.clone())),
                self.clock.clone(),
            ),
            health: Arc::new(PgHealth(pool)),
            origins: self.origins.clone(),
            client_address: self.client_address.clone(),
            metrics: self.metrics.clone(),
            heavy: self.heavy.clone(),
        })
    }
}
