//! A note on the fermentation chart.

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;

/// A note of one session, at the instant it is about (`at`), which need not be when it was
/// written (`created_at`): last night's observation entered this morning.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = SessionNote))]
pub struct Note {
    pub id: Uuid,
    pub session_id: Uuid,
    /// The instant the note is about: where the chart draws it.
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub at: OffsetDateTime,
    /// Stored exactly as sent (1–10,000 characters).
    pub text: String,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// A note to add; `at: None` means now.
#[derive(Debug, Clone, PartialEq)]
pub struct NewNote {
    pub at: Option<OffsetDateTime>,
    pub text: String,
}

/// A change to a note: only the fields sent change.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NotePatch {
    pub at: Option<OffsetDateTime>,
    pub text: Option<String>,
}

impl NotePatch {
    /// A patch that changes nothing answers the note as it is (`updated_at` unchanged).
    pub fn is_empty(&self) -> bool {
        self.at.is_none() && self.text.is_none()
    }

    /// The note with the patch applied, `updated_at` set to `now`.
    pub fn applied_to(self, note: Note, now: OffsetDateTime) -> Note {
        Note {
            at: self.at.unwrap_or(note.at),
            text: self.text.unwrap_or(note.text),
            updated_at: now,
            ..note
        }
    }
}
