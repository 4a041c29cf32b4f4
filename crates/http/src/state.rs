//! What every handler can reach: one use-case service per aggregate, the health check, the
//! HTTP settings, and the slots for answers that grow with the account ([`HeavyAnswers`]).
//! Handlers parse, call one service method, and respond.

use std::sync::Arc;
use std::time::Duration;

use actix_web::{HttpMessage, HttpRequest};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

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
    /// Notes on the sessions' fermentation charts.
    pub notes: wort_domain::session_note::NoteService,
    pub inventory: InventoryService,
    pub catalog: wort_domain::catalog::CatalogService,
    pub equipment: EquipmentService,
    /// Water profiles, a recipe's water report, the mash-pH calibration.
    pub water: wort_domain::water::WaterService,
    pub devices: DeviceService,
    /// Alert rules and alerts (the clock's pass has its own, on the background pool).
    pub alerts: wort_domain::alert::AlertService,
    /// Shared with the delivery workers.
    pub webhooks: Arc<WebhookService>,
    /// The MQTT integration; shared with the publisher workers.
    pub mqtt: Arc<wort_domain::mqtt::MqttService>,
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
    /// One for the process: exports, the shopping list and a recipe's cost are made a few at a
    /// time, whichever worker serves them.
    pub heavy: Arc<HeavyAnswers>,
}

/// Slots for the answers whose size grows with the account's data: an export of up to 200
/// recipes, a shopping list or a recipe's cost matched against the whole inventory. At most one
/// per CPU the process may use is made at a time; a request that finds none free waits up to
/// the database deadline (`WORT_DB_DEADLINE_MS`) and is then answered `503` with `Retry-After`.
///
/// Why: such an answer holds the rows it was made from, its document and, for JSON, the
/// compressed copy, all at once. Without a bound, 24 exports of 200 recipes at once took the
/// process to many times its usual size, and glibc kept most of it afterwards (measured in
/// docs/benchmarks.md, "Concurrent exports"). Making them is CPU work, so more at once than there
/// are cores would not finish sooner anyway; and a queue that only grows helps no one.
pub struct HeavyAnswers {
    slots: Arc<Semaphore>,
    wait: Duration,
}

/// A slot, kept in the extensions of the request it was given to and given back when that
/// request is dropped: after the answer has been through every middleware (tagged and
/// compressed) and handed to the connection, or when the client went away first.
struct HeavySlot(#[allow(dead_code)] OwnedSemaphorePermit);

impl HeavyAnswers {
    /// At most `at_once` answers (at least one) made at a time; the rest wait up to `wait`.
    pub fn new(at_once: usize, wait: Duration) -> Self {
        HeavyAnswers {
            slots: Arc::new(Semaphore::new(at_once.max(1))),
            wait,
        }
    }

    /// One slot per CPU the process may use.
    pub fn per_core(wait: Duration) -> Self {
        Self::new(
            std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get),
            wait,
        )
    }

    /// Waits for a slot and gives it to `req` for the rest of its life; `503` (with
    /// `Retry-After`) when none frees up within the wait.
    pub async fn admit(&self, req: &HttpRequest) -> crate::error::ApiResult<()> {
        match tokio::time::timeout(self.wait, self.slots.clone().acquire_owned()).await {
            Ok(Ok(slot)) => {
                req.extensions_mut().insert(HeavySlot(slot));
                Ok(())
            }
            // Never closed; were it, nothing could be served.
            Ok(Err(closed)) => {
                tracing::error!(detail = %closed, "heavy answer slots closed");
                Err(crate::error::ApiError::Internal)
            }
            Err(_) => {
                tracing::debug!("no slot for a heavy answer within the wait");
                Err(crate::error::ApiError::Unavailable)
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use actix_web::ResponseError;
    use actix_web::http::StatusCode;
    use actix_web::test::TestRequest;

    use super::*;

    #[actix_web::test]
    async fn past_the_wait_a_request_is_told_to_come_back() {
        let heavy = HeavyAnswers::new(1, Duration::from_millis(50));
        let holder = TestRequest::default().to_http_request();
        assert!(heavy.admit(&holder).await.is_ok());

        let refused = heavy
            .admit(&TestRequest::default().to_http_request())
            .await
            .err()
            .map(|e| e.error_response())
            .expect("refused while the only slot is held");
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(refused.headers().contains_key("retry-after"));

        // Dropping the request gives its slot back.
        drop(holder);
        assert!(
            heavy
                .admit(&TestRequest::default().to_http_request())
                .await
                .is_ok()
        );
    }

    #[actix_web::test]
    async fn a_waiting_request_gets_the_slot_when_its_holder_is_done() {
        let heavy = HeavyAnswers::new(1, Duration::from_secs(600));
        let (first, second, third) = (
            TestRequest::default().to_http_request(),
            TestRequest::default().to_http_request(),
            TestRequest::default().to_http_request(),
        );
        assert!(heavy.admit(&first).await.is_ok());
        {
            let mut second_waits = std::pin::pin!(heavy.admit(&second));
            assert!(futures_util::poll!(second_waits.as_mut()).is_pending());
            drop(first);
            assert!(second_waits.await.is_ok());
        }

        // The second now holds it: the third waits in turn.
        let mut third_waits = std::pin::pin!(heavy.admit(&third));
        assert!(futures_util::poll!(third_waits.as_mut()).is_pending());
        drop(second);
        assert!(third_waits.await.is_ok());
    }
}
