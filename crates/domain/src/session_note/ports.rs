//! What the note service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{NewNote, Note, NotePatch};
use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

/// A session's notes. Every write bumps the session's `updated_at` in the same transaction, and
/// a session's or a note's id that is not the caller's is `NotFound`.
#[async_trait]
pub trait NoteRepository: Send + Sync {
    /// The session's notes, oldest `at` first (then `created_at`, then id); `NotFound` when the
    /// session is not the caller's (an own session without notes is an empty page).
    async fn list(
        &self,
        user: UserId,
        session_id: Uuid,
        page: PageRequest,
    ) -> DomainResult<Page<Note>>;
    /// `new.at` is set (the service fills in now).
    async fn create(
        &self,
        user: UserId,
        session_id: Uuid,
        new: NewNote,
        now: OffsetDateTime,
    ) -> DomainResult<Note>;
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Note>;
    /// Applies a non-empty `patch` to the note, stamping `updated_at` with `now`.
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: NotePatch,
        now: OffsetDateTime,
    ) -> DomainResult<Note>;
    async fn delete(&self, user: UserId, id: Uuid, now: OffsetDateTime) -> DomainResult<()>;
}
