//! What every handler can reach: one use-case service per aggregate, the health check, and the
//! HTTP settings. Handlers parse, call one service method, and respond.

use std::sync::Arc;

use wort_domain::account::AccountService;
use wort_domain::ai::service::AiService;
use wort_domain::brew_session::BrewSessionService;
use wort_domain::device::DeviceService;
use wort_domain::equipment::EquipmentService;
use wort_domain::inventory::InventoryService;
use wort_domain::ports::HealthCheck;
use wort_domain::recipe::RecipeService;
use wort_domain::webhook::WebhookService;

pub struct AppState {
    pub accounts: AccountService,
    pub recipes: RecipeService,
    pub brew_sessions: BrewSessionService,
    pub inventory: InventoryService,
    pub catalog: wort_domain::catalog::CatalogService,
    pub equipment: EquipmentService,
    /// Water profiles, a recipe's water report, the mash-pH calibration.
    pub water: wort_domain::water::WaterService,
    pub devices: DeviceService,
    /// Shared with the delivery workers.
    pub webhooks: Arc<WebhookService>,
    /// Shared with the tasks that carry analyses and chat turns to their end.
    pub ai: Arc<AiService>,
    /// `Idempotency-Key`s of writes (`crate::idempotency`).
    pub idempotency: wort_domain::idempotency::IdempotencyService,
    pub health: Arc<dyn HealthCheck>,
    pub origins: Origins,
    /// Request counts and latencies by route pattern, shared by every worker (`crate::metrics`).
    pub metrics: Arc<crate::metrics::RequestMetrics>,
    /// How the client's address is found behind reverse proxies (`crate::client_address`).
    pub client_address: crate::client_address::ClientAddressRule,
}

/// The service's own origin and the extra browser origins allowed to call it with credentials.
#[derive(Debug, Clone)]
pub struct Origins {
    /// e.g. `http://127.0.0.1:8080`, no trailing slash.
    pub public: String,
    pub cors: Vec<String>,
}

impl Origins {
    pub fn new(public: &str, cors: &[String]) -> Self {
        let clean = |o: &str| o.trim().trim_end_matches('/').to_owned();
        Origins {
            public: clean(public),
            cors: cors
                .iter()
                .map(|o| clean(o))
                .filter(|o| !o.is_empty())
                .collect(),
        }
    }

    /// Whether a browser on `origin` may use the session cookie and read responses.
    pub fn allows(&self, origin: &str) -> bool {
        origin == self.public || self.cors.iter().any(|o| o == origin)
    }

    /// Cookies get `Secure` when the service is served over https.
    pub fn secure_cookies(&self) -> bool {
        self.public.starts_with("https://")
    }
}
