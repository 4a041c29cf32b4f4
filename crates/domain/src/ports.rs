//! Ports: what the domain needs from the outside world, as traits the adapters implement.
//!
//! Each aggregate declares its own in its `ports.rs`; this module holds the ones every aggregate
//! shares (the clock, the health check) and re-exports the rest, so an adapter finds every port
//! in one place. Every data call takes the [`UserId`](crate::UserId) that owns the data; an id of
//! another account behaves exactly like an id that does not exist
//! ([`DomainError::NotFound`](crate::DomainError)).

use async_trait::async_trait;
use time::OffsetDateTime;

use crate::DomainResult;

pub use crate::account::ports::{
    AccountRepository, CredentialCache, NoCredentialCache, PasswordHasher,
};
pub use crate::ai::ports::{AiProvider, AiUsageRepository, ChatRepository, CompletionStream};
pub use crate::alert::ports::AlertRepository;
pub use crate::brew_session::ports::{BrewSessionRepository, ReadingThinning};
pub use crate::device::ports::DeviceRepository;
pub use crate::equipment::ports::EquipmentRepository;
pub use crate::idempotency::ports::IdempotencyStore;
pub use crate::inventory::ports::InventoryRepository;
pub use crate::mqtt::ports::{MqttPublisher, MqttRepository};
pub use crate::recipe::ports::{RecipeChildRepository, RecipeHistoryRepository, RecipeRepository};
pub use crate::session_note::ports::NoteRepository;
pub use crate::water::ports::WaterRepository;
pub use crate::webhook::ports::{WebhookRepository, WebhookSender};

/// The time, injectable so tests can move it (sign-in windows, key expiry, the AI day).
pub trait Clock: Send + Sync {
    fn now(&self) -> OffsetDateTime;
}

/// The real clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        crate::timestamp::to_db_precision(OffsetDateTime::now_utc())
    }
}

/// Whether the database answers (for `/readyz`).
#[async_trait]
pub trait HealthCheck: Send + Sync {
    async fn ping(&self) -> DomainResult<()>;
}
