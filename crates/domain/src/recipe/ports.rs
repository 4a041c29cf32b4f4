//! What the recipe service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{
    NewRecipe, NewRecipeChild, NewRecipeWithIngredients, Recipe, RecipeChild, RecipeChildKind,
    RecipeChildPatch, RecipeDetail, RecipeFilter, RecipePatch,
};
use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

#[async_trait]
pub trait RecipeRepository: Send + Sync {
    async fn list(
        &self,
        user: UserId,
        filter: &RecipeFilter,
        page: PageRequest,
    ) -> DomainResult<Page<Recipe>>;
    async fn create(
        &self,
        user: UserId,
        new: NewRecipe,
        now: OffsetDateTime,
    ) -> DomainResult<Recipe>;
    /// Every recipe with all its ingredients, in one transaction: all or nothing. The details
    /// come back in the order given.
    async fn create_with_children(
        &self,
        user: UserId,
        recipes: Vec<NewRecipeWithIngredients>,
        now: OffsetDateTime,
    ) -> DomainResult<Vec<RecipeDetail>>;
    /// An imported file, in one transaction: each of its equipment profiles found among the
    /// account's identical ones or created, then every recipe as
    /// [`Self::create_with_children`] does, linked to its profile.
    async fn create_imported(
        &self,
        user: UserId,
        import: super::model::NewImport,
        now: OffsetDateTime,
    ) -> DomainResult<Vec<RecipeDetail>>;
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<RecipeDetail>;
    /// A page of the account's recipes with all their ingredients, oldest first (an order that
    /// edits do not reshuffle while a client pages through).
    async fn list_details(
        &self,
        user: UserId,
        page: PageRequest,
    ) -> DomainResult<Page<RecipeDetail>>;
    /// An empty patch returns the recipe unchanged (`updated_at` included).
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: RecipePatch,
        now: OffsetDateTime,
    ) -> DomainResult<Recipe>;
    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()>;
    /// A new recipe with every child copied (new ids and timestamps, same `sort_order`), in one
    /// transaction. `name: None` means "<name> (copy)".
    async fn copy(
        &self,
        user: UserId,
        id: Uuid,
        name: Option<String>,
        now: OffsetDateTime,
    ) -> DomainResult<RecipeDetail>;
}

/// Recipe children. Every write bumps the parent recipe's `updated_at` in the same transaction.
#[async_trait]
pub trait RecipeChildRepository: Send + Sync {
    /// Appends when `sort_order` is absent; `NotFound` when the recipe is not the caller's; a
    /// validation error when the recipe already holds
    /// [`MAX_INGREDIENTS_PER_KIND`](crate::recipe::MAX_INGREDIENTS_PER_KIND) of this kind.
    async fn add(
        &self,
        user: UserId,
        recipe_id: Uuid,
        new: NewRecipeChild,
        now: OffsetDateTime,
    ) -> DomainResult<RecipeChild>;
    async fn list(
        &self,
        user: UserId,
        recipe_id: Uuid,
        kind: RecipeChildKind,
    ) -> DomainResult<Vec<RecipeChild>>;
    async fn get(&self, user: UserId, kind: RecipeChildKind, id: Uuid)
    -> DomainResult<RecipeChild>;
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: RecipeChildPatch,
        now: OffsetDateTime,
    ) -> DomainResult<RecipeChild>;
    async fn delete(
        &self,
        user: UserId,
        kind: RecipeChildKind,
        id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<()>;
}

/// CPU-heavy work of the recipe use cases (reading an imported file: up to 5 MiB of XML or JSON
/// turned into trees and recipes) run off the async workers, a bounded number at a time, so a
/// burst of imports can neither starve the other requests nor hold a parse tree per request.
#[async_trait]
pub trait CpuWork: Send + Sync {
    /// Runs `job` on a blocking thread once one of the slots is free. When none frees up within
    /// the adapter's wait, the job is never run and the answer is
    /// [`DomainError::Unavailable`](crate::DomainError): the server is busy, try again shortly.
    async fn run(&self, job: Box<dyn FnOnce() + Send>) -> DomainResult<()>;
}

/// `job`'s result, computed through `work` (the port takes jobs without results, so it can be
/// a trait object).
pub async fn run_cpu<T: Send + 'static>(
    work: &dyn CpuWork,
    job: impl FnOnce() -> T + Send + 'static,
) -> DomainResult<T> {
    let (sender, result) = std::sync::mpsc::sync_channel(1);
    work.run(Box::new(move || {
        // The receiver outlives the job: `run` returns only after the job is done.
        let _ = sender.send(job());
    }))
    .await?;
    result
        .try_recv()
        .map_err(|e| crate::DomainError::Internal(format!("a blocking job gave no result: {e}")))
}
