//! The device: a hydrometer or controller that posts readings into one brew session.

use serde::Serialize;
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

/// What the device is. The kind chooses the setup instructions shown (docs/devices.md); every
/// kind posts to the same URL and any of the accepted payloads is read whatever the kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DeviceKind {
    Ispindel,
    Gravitymon,
    Tilt,
    Rapt,
    Stream,
    Generic,
}

impl DeviceKind {
    pub const ALL: &[Self] = &[
        Self::Ispindel,
        Self::Gravitymon,
        Self::Tilt,
        Self::Rapt,
        Self::Stream,
        Self::Generic,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Ispindel => "ispindel",
            Self::Gravitymon => "gravitymon",
            Self::Tilt => "tilt",
            Self::Rapt => "rapt",
            Self::Stream => "stream",
            Self::Generic => "generic",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Device {
    pub id: Uuid,
    pub name: String,
    pub kind: DeviceKind,
    /// The brew session its readings go to; `null`: posts are refused with `409`.
    pub session_id: Option<Uuid>,
    /// The last time the device posted with its token, whatever the answer.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub last_seen_at: Option<OffsetDateTime>,
    /// The body of that post, as received (a form post as an object of strings).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub last_payload: Option<Value>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// A device with its ingest token: the answer to create and to a token replacement, the only
/// times the token is shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GeneratedDevice {
    #[serde(flatten)]
    pub device: Device,
    /// `wortd_` + 43 base62 characters. Shown once; only its SHA-256 is stored.
    pub token: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewDevice {
    pub name: String,
    pub kind: DeviceKind,
    pub session_id: Option<Uuid>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct DevicePatch {
    pub name: Option<String>,
    pub kind: Option<DeviceKind>,
    pub session_id: Option<Option<Uuid>>,
}

impl DevicePatch {
    pub fn is_empty(&self) -> bool {
        *self == DevicePatch::default()
    }
}
