//! What the water service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{CalibrationPair, WaterProfile, WaterProfileInput};
use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

#[async_trait]
pub trait WaterRepository: Send + Sync {
    /// Built-in profiles first, then the account's, each by name ignoring case, then id.
    async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<WaterProfile>>;
    /// A built-in profile or one of the account's; `NotFound` otherwise.
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<WaterProfile>;
    /// Refused past [`MAX_OWN_PROFILES`](super::rules::MAX_OWN_PROFILES).
    async fn create(
        &self,
        user: UserId,
        input: WaterProfileInput,
        now: OffsetDateTime,
    ) -> DomainResult<WaterProfile>;
    /// Only the account's own; a built-in one is [`builtin_is_read_only`](super::rules::builtin_is_read_only).
    async fn replace(
        &self,
        user: UserId,
        id: Uuid,
        input: WaterProfileInput,
        now: OffsetDateTime,
    ) -> DomainResult<WaterProfile>;
    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()>;
    /// The account's brew sessions with both a predicted and a measured mash pH, oldest first.
    async fn calibration_pairs(&self, user: UserId) -> DomainResult<Vec<CalibrationPair>>;
    /// The recipe a brew session of the account was made from (`None` once deleted);
    /// `NotFound` for a session that is not the account's.
    async fn session_recipe(&self, user: UserId, session_id: Uuid) -> DomainResult<Option<Uuid>>;
}
