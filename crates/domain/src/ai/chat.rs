//! Chat threads: an account's conversations with the assistant, optionally about one recipe.

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;

/// The longest thread title (names and titles ≤ 200, docs/api-rules.md "Field caps").
pub const TITLE_MAX_CHARS: usize = 200;
/// Titles made from a thread's first message are cut to this many characters.
pub const DERIVED_TITLE_CHARS: usize = 80;

/// Who wrote a stored message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MessageRole {
    User,
    Assistant,
}

impl MessageRole {
    pub fn as_str(&self) -> &'static str {
        match self {
            MessageRole::User => "user",
            MessageRole::Assistant => "assistant",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "user" => Some(MessageRole::User),
            "assistant" => Some(MessageRole::Assistant),
            _ => None,
        }
    }
}

/// A thread as listed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChatThread {
    pub id: Uuid,
    pub title: Option<String>,
    /// The recipe the thread is about; `null` when none, or once that recipe is deleted.
    pub recipe_id: Option<Uuid>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// One stored message of a thread.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChatMessage {
    pub id: Uuid,
    pub role: MessageRole,
    pub content: String,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// `GET /v1/chats/{id}`: the thread and its messages, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChatThreadDetail {
    #[serde(flatten)]
    pub thread: ChatThread,
    pub messages: Vec<ChatMessage>,
}

/// A validated `POST /v1/chats`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewThread {
    pub title: Option<String>,
    pub recipe_id: Option<Uuid>,
}

/// A validated `PATCH /v1/chats/{id}`: `None` leaves the title alone, `Some(None)` clears it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThreadPatch {
    pub title: Option<Option<String>>,
}

impl ThreadPatch {
    pub fn is_empty(&self) -> bool {
        self.title.is_none()
    }
}

/// A message about to be stored.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMessage {
    pub id: Uuid,
    pub content: String,
    pub created_at: OffsetDateTime,
}

/// One finished chat turn, stored in one transaction: the thread (created when it is new), the
/// user's message, then the assistant's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnRecord {
    pub chat_id: Uuid,
    /// `Some` when the turn starts a thread.
    pub new_thread: Option<NewThread>,
    pub question: NewMessage,
    pub answer: NewMessage,
    pub now: OffsetDateTime,
}

/// The title of a thread started by `POST /v1/chat`: the first line of its first message, cut
/// to [`DERIVED_TITLE_CHARS`] (with an ellipsis when cut), so thread lists are readable.
pub fn title_from_message(message: &str) -> Option<String> {
    let first_line = message.lines().map(str::trim).find(|l| !l.is_empty())?;
    if first_line.chars().count() <= DERIVED_TITLE_CHARS {
        return Some(first_line.to_owned());
    }
    let mut title: String = first_line.chars().take(DERIVED_TITLE_CHARS - 1).collect();
    title.truncate(title.trim_end().len());
    title.push('…');
    Some(title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_titles_use_the_first_non_empty_line() {
        assert_eq!(
            title_from_message("\n  How long should I dry hop?\nMore details"),
            Some("How long should I dry hop?".to_owned())
        );
        assert_eq!(title_from_message("   \n \t"), None);
    }

    #[test]
    fn long_titles_are_cut_with_an_ellipsis() {
        let long = "é".repeat(200);
        let title = title_from_message(&long).unwrap_or_default();
        assert_eq!(title.chars().count(), DERIVED_TITLE_CHARS);
        assert!(title.ends_with('…'));
        let exact = "a".repeat(DERIVED_TITLE_CHARS);
        assert_eq!(title_from_message(&exact), Some(exact.clone()));
    }

    #[test]
    fn roles_round_trip() {
        for role in [MessageRole::User, MessageRole::Assistant] {
            assert_eq!(MessageRole::parse(role.as_str()), Some(role));
        }
        assert_eq!(MessageRole::parse("system"), None);
    }
}
