//! The inventory use cases.

use std::sync::Arc;

use uuid::Uuid;

use super::model::{InventoryFilter, InventoryItem, InventoryPatch, NewInventoryItem};
use super::ports::InventoryRepository;
use crate::page::{Page, PageRequest};
use crate::ports::Clock;
use crate::{DomainResult, UserId};

pub struct InventoryService {
    items: Arc<dyn InventoryRepository>,
    clock: Arc<dyn Clock>,
}

impl InventoryService {
    pub fn new(items: Arc<dyn InventoryRepository>, clock: Arc<dyn Clock>) -> Self {
        InventoryService { items, clock }
    }

    pub async fn list(
        &self,
        user: UserId,
        filter: &InventoryFilter,
        page: PageRequest,
    ) -> DomainResult<Page<InventoryItem>> {
        self.items.list(user, filter, page).await
    }

    pub async fn create(
        &self,
        user: UserId,
        fields: NewInventoryItem,
    ) -> DomainResult<InventoryItem> {
        self.items.create(user, fields, self.clock.now()).await
    }

    pub async fn get(&self, user: UserId, id: Uuid) -> DomainResult<InventoryItem> {
        self.items.get(user, id).await
    }

    pub async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: InventoryPatch,
    ) -> DomainResult<InventoryItem> {
        self.items.update(user, id, patch, self.clock.now()).await
    }

    pub async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.items.delete(user, id).await
    }

    /// Adds `delta` atomically; a result outside `0..=MAX_AMOUNT` changes nothing and says why
    /// ([`adjust_refused`](super::rules::adjust_refused)).
    pub async fn adjust(&self, user: UserId, id: Uuid, delta: f64) -> DomainResult<InventoryItem> {
        self.items.adjust(user, id, delta, self.clock.now()).await
    }
}
