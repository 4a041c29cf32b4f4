//! What the device service needs stored.

use async_trait::async_trait;
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{Device, DevicePatch, NewDevice};
use crate::brew_session::model::{NewReading, Reading};
use crate::page::{Page, PageRequest};
use crate::{DomainResult, UserId};

/// One post from a device, as the store needs it.
#[derive(Debug)]
pub struct DevicePost {
    pub token_hash: Vec<u8>,
    /// The body as received, kept as the device's `last_payload` (less any NUL character:
    /// [`storable_payload`](super::rules::storable_payload)).
    pub payload: Value,
    /// The reading read from it, or why none could be (a `422` after the post is recorded).
    pub reading: DomainResult<NewReading>,
}

#[async_trait]
pub trait DeviceRepository: Send + Sync {
    /// The account's devices by name (ignoring case), then id.
    async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<Device>>;
    /// Refused (`422`) past [`MAX_DEVICES`](super::rules::MAX_DEVICES) or when `session_id` is
    /// not one of the account's sessions.
    async fn create(
        &self,
        user: UserId,
        new: NewDevice,
        token_hash: Vec<u8>,
        now: OffsetDateTime,
    ) -> DomainResult<Device>;
    async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Device>;
    async fn update(
        &self,
        user: UserId,
        id: Uuid,
        patch: DevicePatch,
        now: OffsetDateTime,
    ) -> DomainResult<Device>;
    /// Deletes the device; its readings stay, with `device_id` null.
    async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()>;
    /// Replaces the token: the old one stops working at once.
    async fn replace_token(
        &self,
        user: UserId,
        id: Uuid,
        token_hash: Vec<u8>,
        now: OffsetDateTime,
    ) -> DomainResult<Device>;
    /// Whether a device has this token digest (to answer `401` before a body error).
    async fn token_exists(&self, token_hash: &[u8]) -> DomainResult<bool>;
    /// In one transaction: finds the device by its token (`Unauthorized` when none), records
    /// `last_seen_at` and the payload (kept even when the post is refused below), then refuses
    /// an unusable reading (`Invalid`), a device without an open session (`Conflict`) or one
    /// that stored a reading less than `interval` ago (`DeviceTooSoon`), and otherwise stores
    /// the reading in the session with the device's id, with its webhook events.
    async fn ingest(
        &self,
        post: DevicePost,
        interval: time::Duration,
        now: OffsetDateTime,
    ) -> DomainResult<Reading>;
}
