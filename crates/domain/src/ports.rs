//! Ports: what the domain needs from the outside world, as traits the adapters implement.
//!
//! Every data call takes the [`UserId`] that owns the data; an id of another account behaves
//! exactly like an id that does not exist ([`DomainError::NotFound`](crate::DomainError)).

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::DomainResult;
use crate::UserId;
use crate::account::{ApiKey, AuthSession, NewApiKey, NewUser, User, UserCredentials};
use crate::inventory::{InventoryFields, InventoryFilter, InventoryItem, InventoryPatch};
use crate::page::{Page, PageRequest};
use crate::recipe::{
    Child, ChildKind, ChildPatch, NewChild, NewRecipe, Recipe, RecipeDetail, RecipeFilter,
    RecipePatch,
};

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

#[async_trait]
pub trait AccountRepository: Send + Sync {
    /// Fails with a validation error `already_exists` at `["email"]` when the email is taken.
    async fn create_user(&self, new: NewUser, now: OffsetDateTime) -> DomainResult<User>;
    async fn find_credentials(&self, email: &str) -> DomainResult<Option<UserCredentials>>;

    async fn create_session(
        &self,
        user: UserId,
        token_hash: Vec<u8>,
        now: OffsetDateTime,
        expires_at: OffsetDateTime,
    ) -> DomainResult<AuthSession>;
    /// The live session (not expired at `now`) with this token digest, and its user.
    async fn find_session(
        &self,
        token_hash: &[u8],
        now: OffsetDateTime,
    ) -> DomainResult<Option<(AuthSession, User)>>;
    async fn delete_session(&self, token_hash: &[u8]) -> DomainResult<()>;

    async fn create_api_key(
        &self,
        user: UserId,
        new: NewApiKey,
        now: OffsetDateTime,
    ) -> DomainResult<ApiKey>;
    async fn list_api_keys(&self, user: UserId) -> DomainResult<Vec<ApiKey>>;
    /// `NotFound` when the key is unknown or another account's.
    async fn delete_api_key(&self, user: UserId, key_id: Uuid) -> DomainResult<()>;
    /// The owner of an enabled, unexpired key with this digest; refreshes `last_used_at` when it
    /// is older than [`KEY_TOUCH_INTERVAL`](crate::account::KEY_TOUCH_INTERVAL).
    async fn authenticate_api_key(
        &self,
        key_hash: &[u8],
        now: OffsetDateTime,
    ) -> DomainResult<Option<User>>;

    /// Seconds until sign-in is allowed again for this email, when it is throttled at `now`.
    async fn sign_in_retry_after(
        &self,
        email: &str,
        now: OffsetDateTime,
    ) -> DomainResult<Option<u64>>;
    async fn record_failed_sign_in(&self, email: &str, now: OffsetDateTime) -> DomainResult<()>;
    async fn clear_failed_sign_ins(&self, email: &str) -> DomainResult<()>;
}

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
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<RecipeDetail>;
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
    /// [`MAX_CHILDREN_PER_KIND`](crate::recipe::MAX_CHILDREN_PER_KIND) of this kind.
    async fn add(
        &self,
        user: UserId,
        recipe_id: Uuid,
        new: NewChild,
        now: OffsetDateTime,
    ) -> DomainResult<Child>;
    async fn list(
        &self,
        user: UserId,
        recipe_id: Uuid,
        kind: ChildKind,
    ) -> DomainResult<Vec<Child>>;
    async fn get(&self, user: UserId, kind: ChildKind, id: Uuid) -> DomainResult<Child>;
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: ChildPatch,
        now: OffsetDateTime,
    ) -> DomainResult<Child>;
    async fn delete(
        &self,
        user: UserId,
        kind: ChildKind,
        id: Uuid,
        now: OffsetDateTime,
    ) -> DomainResult<()>;
}

/// Whether the database answers (for `/readyz`).
#[async_trait]
pub trait HealthCheck: Send + Sync {
    async fn ping(&self) -> DomainResult<()>;
}

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
        fields: InventoryFields,
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

/// Brew sessions with their checklist steps and fermentation readings. Writes to a step or a
/// reading bump the session's `updated_at` in the same transaction.
#[async_trait]
pub trait SessionRepository: Send + Sync {
    /// Inserts the session and its generated steps in one transaction; `NotFound` when the
    /// recipe is gone or not the caller's.
    async fn create(
        &self,
        user: UserId,
        new: crate::session::NewSession,
        now: OffsetDateTime,
    ) -> DomainResult<crate::session::BrewSession>;
    async fn list(
        &self,
        user: UserId,
        filter: &crate::session::SessionFilter,
        page: PageRequest,
    ) -> DomainResult<Page<crate::session::BrewSession>>;
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<crate::session::BrewSession>;
    /// Checks the status transition against the locked current state, then saves.
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: crate::session::SessionPatch,
        now: OffsetDateTime,
    ) -> DomainResult<crate::session::BrewSession>;
    /// Deletes the session with its steps and readings; the recipe is untouched.
    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()>;

    async fn list_steps(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<Vec<crate::session::BrewStep>>;
    async fn add_step(
        &self,
        user: UserId,
        session_id: Uuid,
        new: crate::session::NewStep,
        now: OffsetDateTime,
    ) -> DomainResult<crate::session::BrewStep>;
    async fn get_step(&self, user: UserId, id: Uuid) -> DomainResult<crate::session::BrewStep>;
    async fn update_step(
        &self,
        user: UserId,
        id: Uuid,
        patch: crate::session::StepPatch,
        now: OffsetDateTime,
    ) -> DomainResult<crate::session::BrewStep>;
    async fn delete_step(&self, user: UserId, id: Uuid, now: OffsetDateTime) -> DomainResult<()>;

    async fn add_log(
        &self,
        user: UserId,
        session_id: Uuid,
        new: crate::session::NewLog,
        now: OffsetDateTime,
    ) -> DomainResult<crate::session::FermentationLog>;
    /// Readings with `from` ≤ `logged_at` < `to`, oldest first.
    async fn list_logs(
        &self,
        user: UserId,
        session_id: Uuid,
        range: crate::session::LogRange,
        page: PageRequest,
    ) -> DomainResult<Page<crate::session::FermentationLog>>;
    async fn latest_log(
        &self,
        user: UserId,
        session_id: Uuid,
    ) -> DomainResult<crate::session::FermentationLog>;
    async fn get_log(
        &self,
        user: UserId,
        id: Uuid,
    ) -> DomainResult<crate::session::FermentationLog>;
    async fn update_log(
        &self,
        user: UserId,
        id: Uuid,
        patch: crate::session::LogPatch,
        now: OffsetDateTime,
    ) -> DomainResult<crate::session::FermentationLog>;
    async fn delete_log(&self, user: UserId, id: Uuid, now: OffsetDateTime) -> DomainResult<()>;
}
