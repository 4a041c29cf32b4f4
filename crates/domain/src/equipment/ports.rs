//! What the equipment service needs stored.

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{Equipment, EquipmentProfile};
use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

/// Turns the stored profile into the new one, or refuses (a patch that makes it impossible).
pub type ProfileChange<'a> =
    &'a (dyn Fn(&EquipmentProfile) -> DomainResult<EquipmentProfile> + Send + Sync);

#[async_trait]
pub trait EquipmentRepository: Send + Sync {
    /// The account's profiles by name (ignoring case), then id.
    async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<Equipment>>;
    async fn create(
        &self,
        user: UserId,
        profile: EquipmentProfile,
        now: OffsetDateTime,
    ) -> DomainResult<Equipment>;
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Equipment>;
    /// Reads the profile locked, applies `change` and stores the result, in one transaction, so
    /// that two concurrent patches cannot combine into a profile neither checked.
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        change: ProfileChange<'_>,
        now: OffsetDateTime,
    ) -> DomainResult<Equipment>;
    /// Refused with [`profile_in_use`](super::rules::profile_in_use) while a recipe names it.
    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()>;
}
