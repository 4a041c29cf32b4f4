//! Ports: what the domain needs from the outside world, as traits the adapters implement.
//!
//! Every data call takes the [`UserId`] that owns the data; an id of another account behaves
//! exactly like an id that does not exist ([`DomainError::NotFound`](crate::DomainError)).

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::DomainResult;
use crate::UserId;
use crate::account::{
    ApiKey, AuthSession, NewApiKey, NewUser, SignInSubject, User, UserCredentials,
};
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

    /// A validation error `too_big` at `["keys"]` when the account already holds
    /// [`MAX_API_KEYS`](crate::account::MAX_API_KEYS).
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

    /// Seconds until sign-in is allowed again for this subject, when it is throttled at `now`.
    async fn sign_in_retry_after(
        &self,
        subject: &SignInSubject,
        now: OffsetDateTime,
    ) -> DomainResult<Option<u64>>;
    async fn record_failed_sign_in(
        &self,
        subject: &SignInSubject,
        now: OffsetDateTime,
    ) -> DomainResult<()>;
    async fn clear_failed_sign_ins(&self, subject: &SignInSubject) -> DomainResult<()>;
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

/// Per-account, per-UTC-day AI metering. Every write is one statement, so it is correct under
/// concurrency and across several wort instances on one database.
#[async_trait]
pub trait AiUsageRepository: Send + Sync {
    /// What the account used on `day` (zero when nothing).
    async fn usage(&self, user: UserId, day: time::Date) -> DomainResult<crate::ai::Usage>;
    /// Counts one message on `day` when fewer than `limits.messages` messages and fewer than
    /// `limits.tokens` tokens are used, in one guarded statement; `false` when refused.
    async fn reserve(
        &self,
        user: UserId,
        day: time::Date,
        limits: crate::ai::Usage,
    ) -> DomainResult<bool>;
    /// Adds the tokens of an answered call to `day`.
    async fn settle(&self, user: UserId, day: time::Date, tokens: i64) -> DomainResult<()>;
    /// Gives back a reserved message whose call failed.
    async fn release(&self, user: UserId, day: time::Date) -> DomainResult<()>;
}

/// Chat threads and their messages.
#[async_trait]
pub trait ChatRepository: Send + Sync {
    /// Most recently updated first.
    async fn list(
        &self,
        user: UserId,
        page: PageRequest,
    ) -> DomainResult<Page<crate::ai::chat::ChatThread>>;
    /// `NotFound` when `recipe_id` is not one of the caller's recipes.
    async fn create(
        &self,
        user: UserId,
        new: crate::ai::chat::NewThread,
        now: OffsetDateTime,
    ) -> DomainResult<crate::ai::chat::ChatThread>;
    /// The thread with its messages, oldest first.
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<crate::ai::chat::ChatThreadDetail>;
    /// An empty patch returns the thread unchanged (`updated_at` included).
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: crate::ai::chat::ThreadPatch,
        now: OffsetDateTime,
    ) -> DomainResult<crate::ai::chat::ChatThread>;
    /// Deletes the thread and its messages.
    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()>;
    /// Stores a finished turn in one transaction: the thread when new (its recipe left out if it
    /// was deleted meanwhile), the question, the answer, and the thread's `updated_at`.
    /// `NotFound` when an existing thread was deleted meanwhile.
    async fn record_turn(
        &self,
        user: UserId,
        turn: crate::ai::chat::TurnRecord,
    ) -> DomainResult<()>;
}

/// An OpenAI-compatible chat-completions endpoint.
#[async_trait]
pub trait AiProvider: Send + Sync {
    /// The model asked for.
    fn model(&self) -> &str;
    /// The whole answer at once.
    async fn complete(
        &self,
        messages: &[crate::ai::PromptMessage],
    ) -> Result<crate::ai::Completion, crate::ai::AiError>;
    /// The answer as it is written, asking the provider to report usage at the end. Fails when the
    /// provider refuses the request or does not start answering in time.
    async fn stream(
        &self,
        messages: &[crate::ai::PromptMessage],
    ) -> Result<Box<dyn CompletionStream>, crate::ai::AiError>;
}

/// A streamed answer, read piece by piece (pull-based, so the domain needs no async runtime or
/// stream library). Dropping it abandons the answer and closes the provider connection.
#[async_trait]
pub trait CompletionStream: Send {
    /// The next piece; `None` once the answer is complete.
    async fn next(&mut self) -> Option<Result<crate::ai::StreamPiece, crate::ai::AiError>>;
}
