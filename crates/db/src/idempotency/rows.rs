//! The `idempotency_keys` row as diesel reads it, and the stored key it is.

use diesel::prelude::*;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::idempotency::{Answer, Fingerprint, StoredKey};
use wort_domain::{DomainError, DomainResult};

use crate::schema::idempotency_keys as keys;

#[derive(Queryable)]
pub(crate) struct KeyRow {
    fingerprint: Vec<u8>,
    token: Uuid,
    reserved_at: OffsetDateTime,
    status: Option<i16>,
    content_type: Option<String>,
    location: Option<String>,
    body: Option<Vec<u8>>,
}

impl KeyRow {
    pub(crate) fn entity(self) -> DomainResult<StoredKey> {
        let fingerprint = <[u8; 32]>::try_from(self.fingerprint.as_slice())
            .map_err(|_| DomainError::Internal("idempotency fingerprint is not 32 bytes".into()))?;
        let answer = match self.status {
            Some(status) => Some(Answer {
                status: u16::try_from(status)
                    .map_err(|_| DomainError::Internal("idempotency status out of range".into()))?,
                content_type: self.content_type,
                location: self.location,
                body: self.body,
            }),
            None => None,
        };
        Ok(StoredKey {
            fingerprint: Fingerprint(fingerprint),
            token: self.token,
            reserved_at: self.reserved_at,
            answer,
        })
    }
}

pub(crate) type KeyColumns = (
    keys::fingerprint,
    keys::token,
    keys::reserved_at,
    keys::status,
    keys::content_type,
    keys::location,
    keys::body,
);

pub(crate) const KEY_COLUMNS: KeyColumns = (
    keys::fingerprint,
    keys::token,
    keys::reserved_at,
    keys::status,
    keys::content_type,
    keys::location,
    keys::body,
);
