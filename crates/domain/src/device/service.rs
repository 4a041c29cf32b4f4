//! The device use cases: managing devices and their tokens, and taking their posts.

use std::sync::Arc;

use serde_json::Value;
use uuid::Uuid;

use super::model::{Device, DevicePatch, GeneratedDevice, NewDevice};
use super::ports::{DevicePost, DeviceRepository};
use super::rules::{
    READING_INTERVAL, TOKEN_PREFIX, TOKEN_RANDOM_CHARS, looks_like_device_token, storable_payload,
};
use crate::account::credentials::{digest, random_base62};
use crate::brew_session::model::{NewReading, Reading};
use crate::page::{Page, PageRequest};
use crate::ports::Clock;
use crate::{DomainError, DomainResult, UserId};

pub struct DeviceService {
    devices: Arc<dyn DeviceRepository>,
    clock: Arc<dyn Clock>,
    /// [`READING_INTERVAL`] unless the operator changed it (the benchmark sets 0).
    reading_interval: time::Duration,
}

/// A new random ingest token and its digest.
fn new_token() -> DomainResult<(String, Vec<u8>)> {
    let token = format!("{TOKEN_PREFIX}{}", random_base62(TOKEN_RANDOM_CHARS)?);
    let hash = digest(&token);
    Ok((token, hash))
}

impl DeviceService {
    pub fn new(devices: Arc<dyn DeviceRepository>, clock: Arc<dyn Clock>) -> Self {
        DeviceService {
            devices,
            clock,
            reading_interval: READING_INTERVAL,
        }
    }

    /// Changes the one-reading-per-interval limit (a load test posts faster than devices do).
    pub fn with_reading_interval(mut self, interval: time::Duration) -> Self {
        self.reading_interval = interval;
        self
    }

    pub async fn list(&self, user: UserId, page: PageRequest) -> DomainResult<Page<Device>> {
        self.devices.list(user, page).await
    }

    /// Creates the device with a fresh token, returned this once.
    pub async fn create(&self, user: UserId, new: NewDevice) -> DomainResult<GeneratedDevice> {
        let (token, hash) = new_token()?;
        let device = self
            .devices
            .create(user, new, hash, self.clock.now())
            .await?;
        Ok(GeneratedDevice { device, token })
    }

    pub async fn get(&self, user: UserId, id: Uuid) -> DomainResult<Device> {
        self.devices.get(user, id).await
    }

    pub async fn update(&self, user: UserId, id: Uuid, patch: DevicePatch) -> DomainResult<Device> {
        if patch.is_empty() {
            return self.devices.get(user, id).await;
        }
        self.devices.update(user, id, patch, self.clock.now()).await
    }

    pub async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.devices.delete(user, id).await
    }

    /// Replaces the token (a lost or leaked one); the old one is refused from now on.
    pub async fn replace_token(&self, user: UserId, id: Uuid) -> DomainResult<GeneratedDevice> {
        let (token, hash) = new_token()?;
        let device = self
            .devices
            .replace_token(user, id, hash, self.clock.now())
            .await?;
        Ok(GeneratedDevice { device, token })
    }

    /// `Unauthorized` unless `token` is a device's: a post whose body cannot be read is refused
    /// for its token first (the credential is checked before the body, docs/api-rules.md).
    pub async fn check_token(&self, token: &str) -> DomainResult<()> {
        if looks_like_device_token(token) && self.devices.token_exists(&digest(token)).await? {
            Ok(())
        } else {
            Err(DomainError::Unauthorized)
        }
    }

    /// One post from a device: `payload` is what is kept as `last_payload`, `reading` what was
    /// read from it (or why nothing could be). The token is checked before the reading, so an
    /// unknown token is `401` whatever was sent.
    pub async fn ingest(
        &self,
        token: &str,
        payload: Value,
        reading: DomainResult<NewReading>,
    ) -> DomainResult<Reading> {
        // A string that cannot be a token is refused without a database round trip.
        if !looks_like_device_token(token) {
            return Err(DomainError::Unauthorized);
        }
        let post = DevicePost {
            token_hash: digest(token),
            payload: storable_payload(payload),
            reading,
        };
        self.devices
            .ingest(post, self.reading_interval, self.clock.now())
            .await
    }
}
