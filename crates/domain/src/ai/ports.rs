//! What the AI use cases need from outside: metering storage, chat storage, the provider.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

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
    /// The thread `id` (new: the caller makes ids, so a chat turn can announce its thread's id
    /// before storing it). `NotFound` when `recipe_id` is not one of the caller's recipes.
    async fn create(
        &self,
        user: UserId,
        id: Uuid,
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
