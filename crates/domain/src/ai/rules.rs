//! The AI assistant's limits and bounds (docs/ai.md).

use super::model::Usage;
use crate::rules::{FieldRules, Rule, TextRule};

/// Messages (analyses and chat turns) one account may start per UTC day.
pub const DAILY_MESSAGE_LIMIT: i64 = 200;
/// Provider-reported tokens one account may use per UTC day.
pub const DAILY_TOKEN_LIMIT: i64 = 2_000_000;
/// The daily allowance, in the shape the usage repository's guard takes.
pub const DAILY_LIMITS: Usage = Usage {
    messages: DAILY_MESSAGE_LIMIT,
    tokens: DAILY_TOKEN_LIMIT,
};
/// The longest chat message, in Unicode scalar values.
pub const MAX_CHAT_MESSAGE_CHARS: usize = 8_000;

/// The longest answer asked of the provider (`max_tokens` of every request).
pub const MAX_ANSWER_TOKENS: u32 = 4_096;
/// The longest answer accepted, in characters: twice what [`MAX_ANSWER_TOKENS`] comes to at four
/// characters a token. A provider that ignores `max_tokens` and goes past it is cut off as
/// failed (nothing stored, nothing counted) instead of filling the thread and the meter.
pub const MAX_ANSWER_CHARS: usize = MAX_ANSWER_TOKENS as usize * 4 * 2;

/// Whether an answer of `chars` characters has passed the cap, as a provider failure.
pub fn check_answer_length(chars: usize) -> Result<(), super::AiError> {
    if chars > MAX_ANSWER_CHARS {
        Err(super::AiError::Protocol(format!(
            "the answer passed {MAX_ANSWER_CHARS} characters"
        )))
    } else {
        Ok(())
    }
}

/// A chat message: 1 to 8,000 Unicode scalar values (more is a `413`, before anything else).
pub const MESSAGE: TextRule = TextRule::new(1, MAX_CHAT_MESSAGE_CHARS);
/// A thread's title, when it has one.
pub const TITLE: TextRule = TextRule::new(1, super::chat::TITLE_MAX_CHARS);

pub const THREAD_FIELDS: FieldRules = &[("title", Rule::Text(TITLE))];
pub const TURN_FIELDS: FieldRules = &[("message", Rule::Text(MESSAGE))];

/// Appended to an answer cut short by a shutdown, so the thread shows it was not complete.
pub const INTERRUPTED_MARK: &str =
    "\n\n[Interrupted: wort restarted before this answer was complete.]";
