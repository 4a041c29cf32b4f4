//! What the recipe service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{
    Ingredient, IngredientKind, IngredientPatch, NewIngredient, NewRecipe,
    NewRecipeWithIngredients, Recipe, RecipeDetail, RecipeFilter, RecipePatch,
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
    async fn create_with_ingredients(
        &self,
        user: UserId,
        recipes: Vec<NewRecipeWithIngredients>,
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
pub trait IngredientRepository: Send + Sync {
    /// Appends when `sort_order` is absent; `NotFound` when the recipe is not the caller's; a
    /// validation error when the recipe already holds
    /// [`MAX_INGREDIENTS_PER_KIND`](crate::recipe::MAX_INGREDIENTS_PER_KIND) of this kind.
    async fn add(
        &self,
        user: UserId,
        recipe_id: Uuid,
        new: NewIngredient,
        now: OffsetDateTime,
    ) -> DomainResult<Ingredient>;
    async fn list(
        &self,
        user: UserId,
        recipe_id: Uuid,
        kind: IngredientKind,
    ) -> DomainResult<Vec<Ingredient>>;
    async fn get(&self, user: UserId, kind: IngredientKind, id: Uuid) -> DomainResult<Ingredient>;
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: IngredientPatch,
        now: OffsetDateTime,
    ) -> DomainResult<Ingredient>;
    async fn delete(
        &self,
        user: UserId,
        kind: IngredientKind,
        id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<()>;
}
