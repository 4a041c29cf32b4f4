//! The inventory use cases.

use std::sync::Arc;

use uuid::Uuid;

use super::model::{InventoryFilter, InventoryItem, InventoryPatch, NewInventoryItem};
use super::ports::InventoryRepository;
use super::stock::{
    Brew, InventoryDeduction, RecipeCost, ShoppingLine, needs_of_recipe, plan_deduction,
    plan_partial_deduction, recipe_cost, shopping_list, stock_lines,
};
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

    /// A session's ingredients against the stock. With `preview` nothing changes (an applied
    /// deduction is shown as applied); without, the lines are taken in one transaction, once
    /// per session (again → `Conflict`). A shortfall refuses the whole deduction, unless
    /// `partial`: then a short line takes what is on hand and records what is still missing.
    pub async fn deduction(
        &self,
        user: UserId,
        session_id: Uuid,
        preview: bool,
        partial: bool,
    ) -> DomainResult<InventoryDeduction> {
        if !preview {
            let plan = if partial {
                plan_partial_deduction
            } else {
                plan_deduction
            };
            return self
                .items
                .apply_deduction(user, session_id, &plan, self.clock.now())
                .await;
        }
        let (snapshot, applied) = self.items.session_stock(user, session_id).await?;
        if let Some(applied) = applied {
            return Ok(applied);
        }
        let items = self.items.all(user).await?;
        Ok(InventoryDeduction::preview(
            session_id,
            stock_lines(&needs_of_recipe(&snapshot), &items),
        ))
    }

    /// Puts back what a session's deduction took; `NotFound` when none is applied.
    pub async fn undo_deduction(&self, user: UserId, session_id: Uuid) -> DomainResult<()> {
        self.items
            .undo_deduction(user, session_id, self.clock.now())
            .await
    }

    /// What the given recipes and planned sessions need beyond what is on hand (a session whose
    /// deduction is applied: what a partial deduction left missing).
    pub async fn shopping_list(
        &self,
        user: UserId,
        recipe_ids: &[Uuid],
        session_ids: &[Uuid],
    ) -> DomainResult<Vec<ShoppingLine>> {
        let brews = self.items.brews(user, recipe_ids, session_ids).await?;
        let needs: Vec<_> = brews.iter().flat_map(Brew::needs).collect();
        let items = self.items.all(user).await?;
        Ok(shopping_list(&needs, &items))
    }

    /// A recipe's cost from its matched items' prices, with the stock's coverage per line.
    pub async fn recipe_cost(&self, user: UserId, recipe_id: Uuid) -> DomainResult<RecipeCost> {
        let brews = self.items.brews(user, &[recipe_id], &[]).await?;
        let Some(Brew::Recipe(recipe)) = brews.first() else {
            return Err(crate::DomainError::NotFound);
        };
        let batch = recipe
            .get("batch_size_liters")
            .and_then(serde_json::Value::as_f64)
            .unwrap_or(0.0);
        let items = self.items.all(user).await?;
        let currency = self.items.currency(user).await?;
        Ok(recipe_cost(
            recipe_id,
            batch,
            &needs_of_recipe(recipe),
            &items,
            currency,
        ))
    }
}
