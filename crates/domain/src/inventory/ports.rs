//! What the inventory service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use serde_json::Value;

use super::model::{InventoryFilter, InventoryItem, InventoryPatch, NewInventoryItem};
use super::stock::{Brew, DeductionPlanner, InventoryDeduction};
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

    /// The account's preferred currency (an ISO 4217 code from its preferences), if any.
    async fn currency(&self, user: UserId) -> DomainResult<Option<&'static str>>;

    /// Every item of the account (what matching looks at), in no particular order.
    async fn all(&self, user: UserId) -> DomainResult<Vec<InventoryItem>>;

    /// The session's recipe snapshot and, when its deduction is applied, that deduction.
    /// `NotFound` when the session is not the caller's.
    async fn session_stock(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<(Value, Option<InventoryDeduction>)>;

    /// In one transaction: locks the caller's session (`NotFound` otherwise; two applies of one
    /// session queue here), refuses with `Conflict` when its deduction is already applied, locks
    /// the account's items in id order, plans the lines with `plan` from the snapshot and the
    /// locked amounts, takes each line's amount from its item and records the deduction.
    async fn apply_deduction(
        &self,
        user: UserId,
        session_id: Uuid,
        plan: &DeductionPlanner,
        now: OffsetDateTime,
    ) -> DomainResult<InventoryDeduction>;

    /// In one transaction: locks the session, removes its deduction (`NotFound` when none is
    /// applied) and puts back on each item still there exactly what was taken from it (up to
    /// [`MAX_AMOUNT`](crate::inventory::MAX_AMOUNT)).
    async fn undo_deduction(
        &self,
        user: UserId,
        session_id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<()>;

    /// The recipes (as `GET /v1/recipes/{id}` shows them) and the sessions' snapshots, in that
    /// order; a session whose deduction is applied comes as the lines of that deduction
    /// ([`Brew::Shortfall`]: its stock is taken, only what a partial deduction left missing
    /// still counts). `NotFound` when any of them is not the caller's.
    async fn brews(
        &self,
        user: UserId,
        recipe_ids: &[Uuid],
        session_ids: &[Uuid],
    ) -> DomainResult<Vec<Brew>>;
}
