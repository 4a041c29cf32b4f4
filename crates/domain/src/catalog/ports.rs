//! What the catalogue service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{CatalogItem, CatalogKind, CatalogQuery, NewCatalogItem};
use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

#[async_trait]
pub trait CatalogRepository: Send + Sync {
    /// Built-in items and the account's own of one kind: best match first when searching,
    /// alphabetically otherwise.
    async fn list(
        &self,
        user: UserId,
        query: &CatalogQuery,
        page: PageRequest,
    ) -> DomainResult<Page<CatalogItem>>;
    /// A built-in item or one of the account's own, of this kind; `NotFound` otherwise.
    async fn get(&self, user: UserId, kind: CatalogKind, id: Uuid) -> DomainResult<CatalogItem>;
    /// A built-in item or one of the account's own, of any kind; `NotFound` otherwise.
    async fn get_any(&self, user: UserId, id: Uuid) -> DomainResult<CatalogItem>;
    /// Refused by [`check_item_room`](super::rules::check_item_room) once the account holds the
    /// cap (counted with the account's row locked).
    async fn create(
        &self,
        user: UserId,
        item: NewCatalogItem,
        search_text: String,
        now: OffsetDateTime,
    ) -> DomainResult<CatalogItem>;
    /// Writes the whole new state of one of the account's own items.
    async fn replace(
        &self,
        user: UserId,
        item: &CatalogItem,
        search_text: String,
        now: OffsetDateTime,
    ) -> DomainResult<CatalogItem>;
    /// Deletes one of the account's own items; recipe children and inventory items linked to
    /// it keep their values and lose the link.
    async fn delete(&self, user: UserId, kind: CatalogKind, id: Uuid) -> DomainResult<()>;
    /// The items of `kind` (built-in or the account's) whose name or an alias, folded by
    /// [`fold`](super::search::fold), is one of `names` (already folded).
    async fn named(
        &self,
        user: UserId,
        kind: CatalogKind,
        names: &[String],
    ) -> DomainResult<Vec<CatalogItem>>;
}
