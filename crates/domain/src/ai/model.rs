//! The AI assistant's model: the daily allowance and its UTC day, the wording of the two 429s,
//! and the provider-facing message types.

use serde::Serialize;

use super::rules::{DAILY_MESSAGE_LIMIT, DAILY_TOKEN_LIMIT};
use time::macros::format_description;
use time::{Date, OffsetDateTime, UtcOffset};

/// The metering day an instant falls in: its UTC calendar date, and the midnight that ends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AiDay {
    pub date: Date,
    pub resets_at: OffsetDateTime,
}

impl AiDay {
    pub fn of(now: OffsetDateTime) -> AiDay {
        let date = now.to_offset(UtcOffset::UTC).date();
        // `Date::MAX` has no next day; that far in the future the day simply never resets.
        let next = date.next_day().unwrap_or(date);
        AiDay {
            date,
            resets_at: next.midnight().assume_utc(),
        }
    }

    /// Whole seconds until the allowance resets, rounded up and at least 1: the `Retry-After` of
    /// a 429 (a client that waits exactly that long is on the new day).
    pub fn seconds_left(&self, now: OffsetDateTime) -> u64 {
        let left = self.resets_at - now;
        let whole = left.whole_seconds() + i64::from(left.subsec_nanoseconds() > 0);
        whole.max(1).unsigned_abs()
    }
}

/// What one account used on one day (or, as [`DAILY_LIMITS`], what it may use).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub messages: i64,
    pub tokens: i64,
}

/// Which daily limit refused a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AiLimit {
    Messages,
    Tokens,
}

impl AiLimit {
    /// The `error` of the 429, word for word as docs/ai.md gives it.
    pub fn message(&self) -> String {
        match self {
            AiLimit::Messages => {
                format!("Daily AI message limit reached ({DAILY_MESSAGE_LIMIT} per day)")
            }
            AiLimit::Tokens => {
                format!("Daily AI token limit reached ({DAILY_TOKEN_LIMIT} per day)")
            }
        }
    }
}

/// The limit that refuses the next call after `usage`, if any. A call is admitted while fewer
/// than 200 messages and fewer than 2,000,000 tokens are used; the message limit is checked first.
pub fn limit_reached(usage: Usage) -> Option<AiLimit> {
    if usage.messages >= DAILY_MESSAGE_LIMIT {
        Some(AiLimit::Messages)
    } else if usage.tokens >= DAILY_TOKEN_LIMIT {
        Some(AiLimit::Tokens)
    } else {
        None
    }
}

/// One quota of `GET /v1/ai/usage`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Quota {
    pub used: i64,
    pub limit: i64,
    pub remaining: i64,
}

impl Quota {
    fn new(used: i64, limit: i64) -> Quota {
        Quota {
            used,
            limit,
            // A call's own tokens may carry the total past the limit; nothing is "owed".
            remaining: (limit - used).max(0),
        }
    }
}

/// `GET /v1/ai/usage`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UsageReport {
    /// The UTC day being metered, `YYYY-MM-DD`.
    #[cfg_attr(feature = "openapi", schema(format = Date))]
    pub date: String,
    /// The next midnight UTC, when both quotas start again (e.g. `2026-11-23T00:00:00Z`).
    #[cfg_attr(feature = "openapi", schema(format = DateTime))]
    pub resets_at: String,
    /// Whether this deployment has an AI provider.
    pub configured: bool,
    pub messages: Quota,
    pub tokens: Quota,
}

impl UsageReport {
    pub fn new(day: AiDay, used: Usage, configured: bool) -> UsageReport {
        let date = day
            .date
            .format(format_description!("[year]-[month]-[day]"))
            .unwrap_or_default();
        // Midnight has no fraction, so it is written without one (docs/api-rules.md).
        let resets_at = day
            .resets_at
            .format(format_description!(
                "[year]-[month]-[day]T[hour]:[minute]:[second]Z"
            ))
            .unwrap_or_default();
        UsageReport {
            date,
            resets_at,
            configured,
            messages: Quota::new(used.messages, DAILY_MESSAGE_LIMIT),
            tokens: Quota::new(used.tokens, DAILY_TOKEN_LIMIT),
        }
    }
}

// ---- Talking to a provider ---------------------------------------------------------------------

/// Who says a message in a provider conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptRole {
    System,
    User,
    Assistant,
}

/// One message of a provider conversation (the OpenAI `messages` array item).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PromptMessage {
    pub role: PromptRole,
    pub content: String,
}

impl PromptMessage {
    pub fn new(role: PromptRole, content: impl Into<String>) -> Self {
        PromptMessage {
            role,
            content: content.into(),
        }
    }
}

/// Tokens of one call, as the provider reported them (or as [`estimate_usage`] guessed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenUsage {
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub total_tokens: i64,
}

/// A whole (non-streamed) answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    pub text: String,
    /// The model the provider says answered (it may differ from the one asked for).
    pub model: Option<String>,
    pub usage: Option<TokenUsage>,
}

/// One piece of a streamed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamPiece {
    /// More of the answer; never empty.
    Text(String),
    /// The call's tokens (asked for with `stream_options.include_usage`).
    Usage(TokenUsage),
}

/// Why a provider call failed. Every kind is a `502` to the client (the detail goes to the log),
/// but `Interrupted`, which is wort shutting down: `503`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AiError {
    #[error("the provider did not answer in time")]
    Timeout,
    #[error("the provider could not be reached: {0}")]
    Unreachable(String),
    #[error("the provider answered HTTP {status}: {detail}")]
    Status { status: u16, detail: String },
    #[error("the provider's answer could not be understood: {0}")]
    Protocol(String),
    /// The server is shutting down and its grace period is nearly over: the call was cut short
    /// by wort itself, not by the provider.
    #[error("the server is shutting down")]
    Interrupted,
}

/// Characters per token of the estimate: the usual rule of thumb for English text with
/// OpenAI-style tokenizers.
const CHARS_PER_TOKEN: usize = 4;

fn estimate_tokens(chars: usize) -> i64 {
    i64::try_from(chars.div_ceil(CHARS_PER_TOKEN)).unwrap_or(i64::MAX)
}

/// Token counts for a call whose provider reported none (a server without usage reporting, or
/// a stream the client abandoned before the usage arrived), so the token limit still means
/// something: about one token per four characters, rounded up.
pub fn estimate_usage(prompt: &[PromptMessage], completion: &str) -> TokenUsage {
    let prompt_chars: usize = prompt.iter().map(|m| m.content.chars().count()).sum();
    let prompt_tokens = estimate_tokens(prompt_chars);
    let completion_tokens = estimate_tokens(completion.chars().count());
    TokenUsage {
        prompt_tokens,
        completion_tokens,
        total_tokens: prompt_tokens.saturating_add(completion_tokens),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use time::macros::{date, datetime};

    #[test]
    fn the_day_is_the_utc_date_and_resets_at_the_next_midnight() {
        let day = AiDay::of(datetime!(2026-11-22 09:30:00 UTC));
        assert_eq!(day.date, date!(2026 - 11 - 22));
        assert_eq!(day.resets_at, datetime!(2026-11-23 00:00:00 UTC));
        // 01:30 in UTC+3 is still the evening before in UTC.
        let day = AiDay::of(datetime!(2026-11-23 01:30:00 +03:00));
        assert_eq!(day.date, date!(2026 - 11 - 22));
        // Month and year ends roll over.
        assert_eq!(
            AiDay::of(datetime!(2026-12-31 23:59:59.999 UTC)).resets_at,
            datetime!(2027-01-01 00:00:00 UTC)
        );
        assert_eq!(
            AiDay::of(datetime!(2027-01-01 00:00:00 UTC)).date,
            date!(2027 - 01 - 01)
        );
    }

    #[test]
    fn seconds_left_round_up_and_never_reach_zero() {
        let now = datetime!(2026-11-22 23:59:00 UTC);
        assert_eq!(AiDay::of(now).seconds_left(now), 60);
        let now = datetime!(2026-11-22 23:59:59.2 UTC);
        assert_eq!(AiDay::of(now).seconds_left(now), 1);
        let now = datetime!(2026-11-22 00:00:00 UTC);
        assert_eq!(AiDay::of(now).seconds_left(now), 86_400);
        let now = datetime!(2026-11-22 12:00:00.5 UTC);
        assert_eq!(AiDay::of(now).seconds_left(now), 43_200);
    }

    #[test]
    fn the_message_limit_is_checked_first() {
        let usage = |messages, tokens| Usage { messages, tokens };
        assert_eq!(limit_reached(usage(0, 0)), None);
        assert_eq!(limit_reached(usage(199, 1_999_999)), None);
        assert_eq!(limit_reached(usage(200, 0)), Some(AiLimit::Messages));
        assert_eq!(limit_reached(usage(3, 2_000_000)), Some(AiLimit::Tokens));
        assert_eq!(limit_reached(usage(5, 2_500_000)), Some(AiLimit::Tokens));
        assert_eq!(
            limit_reached(usage(200, 2_000_000)),
            Some(AiLimit::Messages)
        );
    }

    #[test]
    fn the_429_messages_are_the_documented_ones() {
        assert_eq!(
            AiLimit::Messages.message(),
            "Daily AI message limit reached (200 per day)"
        );
        assert_eq!(
            AiLimit::Tokens.message(),
            "Daily AI token limit reached (2000000 per day)"
        );
    }

    #[test]
    fn usage_report_has_the_contracts_shape() {
        let day = AiDay::of(datetime!(2026-11-22 09:30:00.123 UTC));
        let report = UsageReport::new(
            day,
            Usage {
                messages: 3,
                tokens: 5_120,
            },
            true,
        );
        assert_eq!(
            serde_json::to_value(&report).unwrap(),
            serde_json::json!({"date":"2026-11-22","resets_at":"2026-11-23T00:00:00Z",
                "configured":true,"messages":{"used":3,"limit":200,"remaining":197},
                "tokens":{"used":5120,"limit":2000000,"remaining":1994880}})
        );
        // Past the limit (a call's own tokens may overshoot), nothing is negative.
        let over = UsageReport::new(
            day,
            Usage {
                messages: 200,
                tokens: 2_100_000,
            },
            false,
        );
        assert_eq!(over.tokens.remaining, 0);
        assert_eq!(over.messages.remaining, 0);
    }

    #[test]
    fn estimates_four_characters_per_token_rounded_up() {
        let prompt = [
            PromptMessage::new(PromptRole::System, "abcd"),
            PromptMessage::new(PromptRole::User, "é"),
        ];
        let usage = estimate_usage(&prompt, "hello");
        assert_eq!(usage.prompt_tokens, 2);
        assert_eq!(usage.completion_tokens, 2);
        assert_eq!(usage.total_tokens, 4);
        assert_eq!(estimate_usage(&[], "").total_tokens, 0);
    }
}
