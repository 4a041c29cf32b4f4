//! What every handler can reach: the ports (as trait objects) and the HTTP settings.

use std::sync::Arc;

use wort_domain::ports::{
    AccountRepository, Clock, HealthCheck, IngredientRepository, InventoryRepository,
    RecipeRepository, SessionRepository,
};

use wort_domain::ports::{AiProvider, AiUsageRepository, ChatRepository};

pub struct AppState {
    pub accounts: Arc<dyn AccountRepository>,
    pub recipes: Arc<dyn RecipeRepository>,
    pub ingredients: Arc<dyn IngredientRepository>,
    pub inventory: Arc<dyn InventoryRepository>,
    /// The AI provider; `None` when AI is not configured on this deployment.
    pub ai_provider: Option<Arc<dyn AiProvider>>,
    pub ai_usage: Arc<dyn AiUsageRepository>,
    pub chats: Arc<dyn ChatRepository>,
    pub sessions: Arc<dyn SessionRepository>,
    pub health: Arc<dyn HealthCheck>,
    pub clock: Arc<dyn Clock>,
    pub origins: Origins,
    /// Header carrying the client's address behind a trusted reverse proxy (e.g.
    /// `X-Forwarded-For`); `None`: the connection's peer address.
    pub client_ip_header: Option<String>,
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
