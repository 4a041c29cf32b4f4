//! What the recipe service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::history::{Lineage, StoredVersion};
use super::model::{
    NewRecipe, NewRecipeChild, NewRecipeWithIngredients, Recipe, RecipeChild, RecipeChildKind,
    RecipeChildPatch, RecipeDetail, RecipeFilter, RecipePatch,
};
use super::share::Share;
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

/// A recipe's versions, lineage and share link.
///
/// Every write of a recipe or its children goes through the store's versioning in its own
/// transaction ([`super::history`] says when an edit joins the open version and when it starts a
/// new one), so no port method here needs to be called around ordinary edits.
#[async_trait]
pub trait RecipeHistoryRepository: Send + Sync {
    /// A page of the recipe's versions, newest first, without their content. A recipe never
    /// edited has one version, number 1, open.
    async fn list_versions(
        &self,
        user: UserId,
        recipe_id: Uuid,
        page: PageRequest,
    ) -> DomainResult<Page<StoredVersion>>;
    /// One version with its content when frozen (`snapshot: None`: it is the open version, the
    /// recipe as it is now). `NotFound` for a number the recipe never had.
    async fn version(
        &self,
        user: UserId,
        recipe_id: Uuid,
        number: i32,
    ) -> DomainResult<StoredVersion>;
    /// Freezes the open version under `message` (or, when no edit came since the last version
    /// was frozen, names that one) and returns it with `open: false`.
    async fn name_version(
        &self,
        user: UserId,
        recipe_id: Uuid,
        message: String,
    ) -> DomainResult<StoredVersion>;
    /// Makes the recipe equal to version `number` (its fields, and its children with their
    /// original ids) as a new open version named `message`, in one transaction.
    async fn restore(
        &self,
        user: UserId,
        recipe_id: Uuid,
        number: i32,
        message: String,
        now: OffsetDateTime,
    ) -> DomainResult<StoredVersion>;
    /// The recipe's ancestors (parent first) and descendants (oldest first), each list at most
    /// [`LINEAGE_MAX`](super::history::LINEAGE_MAX) long, within the account.
    async fn lineage(&self, user: UserId, recipe_id: Uuid) -> DomainResult<Lineage>;
    /// The recipe's live share link, made with `new_token` when there is none; `include_notes`
    /// updated either way.
    async fn share(
        &self,
        user: UserId,
        recipe_id: Uuid,
        include_notes: bool,
        new_token: String,
        now: OffsetDateTime,
    ) -> DomainResult<Share>;
    /// The recipe's live share link; `NotFound` when it has none (or is not the caller's).
    async fn share_of(&self, user: UserId, recipe_id: Uuid) -> DomainResult<Share>;
    /// Revokes the recipe's share link; `NotFound` when it has none.
    async fn unshare(&self, user: UserId, recipe_id: Uuid) -> DomainResult<()>;
    /// The recipe a live token shares, with the account that owns it; `NotFound` otherwise.
    async fn shared(&self, token: &str) -> DomainResult<(UserId, RecipeDetail, Share)>;
}
