//! What the inventory service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{InventoryFilter, InventoryItem, InventoryPatch, NewInventoryItem};
use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

#[async_trait]
pub trait InventoryRepository: Send + Sync {
    async fn list(
        &self,
        user: UserId,
        filter: &InventoryFilter,
        page: PageRequest,
    ) -> DomainResult<Page<InventoryItem>>;
    async fn create(
        &self,
        user: UserId,
        fields: NewInventoryItem,
        now: OffsetDateTime,
    ) -> DomainResult<InventoryItem>;
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<InventoryItem>;
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: InventoryPatch,
        now: OffsetDateTime,
    ) -> DomainResult<InventoryItem>;
    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()>;
    /// Adds `delta` to the amount atomically (one guarded UPDATE); a result below 0 or above
    /// [`MAX_AMOUNT`](crate::inventory::MAX_AMOUNT) is refused and nothing changes.
    async fn adjust(
        &self,
        user: UserId,
        id: Uuid,
        delta: f64,
        now: OffsetDateTime,
    ) -> DomainResult<InventoryItem>;
}
