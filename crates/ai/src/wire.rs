//! The chat-completions JSON, as much of it as wort sends and reads. Reading is lenient: every
//! field may be missing or `null`, as the many compatible servers differ in what they fill in.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use wort_domain::ai::{AiError, Completion, PromptMessage, TokenUsage};

#[derive(Serialize)]
pub struct ChatRequest<'a> {
    pub model: &'a str,
    pub messages: &'a [PromptMessage],
    pub stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_options: Option<StreamOptions>,
    /// The answer's cap (`wort_domain::ai::rules::MAX_ANSWER_TOKENS`).
    pub max_tokens: u32,
}

#[derive(Serialize)]
pub struct StreamOptions {
    pub include_usage: bool,
}

/// A whole answer or one streamed chunk (they differ only in `message` versus `delta`).
#[derive(Deserialize, Default)]
pub struct Chunk {
    pub model: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    choices: Vec<Choice>,
    usage: Option<Usage>,
    error: Option<Value>,
}

#[derive(Deserialize, Default)]
struct Choice {
    message: Option<Content>,
    delta: Option<Content>,
}

#[derive(Deserialize, Default)]
struct Content {
    content: Option<String>,
}

#[derive(Deserialize, Default)]
struct Usage {
    prompt_tokens: Option<i64>,
    completion_tokens: Option<i64>,
    total_tokens: Option<i64>,
}

fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

impl Chunk {
    pub fn parse(bytes: &[u8]) -> Result<Chunk, AiError> {
        serde_json::from_slice(bytes)
            .map_err(|e| AiError::Protocol(format!("not a chat-completions JSON object: {e}")))
    }

    /// An `{"error": …}` object, which some servers send inside a 200 stream.
    pub fn check_error(&self) -> Result<(), AiError> {
        match &self.error {
            None | Some(Value::Null) => Ok(()),
            Some(error) => {
                let message = error
                    .get("message")
                    .and_then(Value::as_str)
                    .map_or_else(|| error.to_string(), str::to_owned);
                Err(AiError::Protocol(format!(
                    "the provider reported an error: {message}"
                )))
            }
        }
    }

    /// The non-empty text pieces of a streamed chunk (of its first choice: wort asks for one).
    pub fn texts(&self) -> impl Iterator<Item = String> + '_ {
        self.choices
            .first()
            .into_iter()
            .filter_map(|c| c.delta.as_ref().or(c.message.as_ref()))
            .filter_map(|c| c.content.clone())
            .filter(|t| !t.is_empty())
    }

    pub fn usage(&self) -> Option<TokenUsage> {
        let u = self.usage.as_ref()?;
        let prompt_tokens = u.prompt_tokens.unwrap_or(0).max(0);
        let completion_tokens = u.completion_tokens.unwrap_or(0).max(0);
        let total_tokens = u
            .total_tokens
            .unwrap_or(prompt_tokens + completion_tokens)
            .max(0);
        if u.prompt_tokens.is_none() && u.completion_tokens.is_none() && u.total_tokens.is_none() {
            return None;
        }
        Some(TokenUsage {
            prompt_tokens,
            completion_tokens,
            total_tokens,
        })
    }

    /// A non-streamed answer: the first choice's message.
    pub fn into_completion(self) -> Result<Completion, AiError> {
        self.check_error()?;
        let Some(choice) = self.choices.first() else {
            return Err(AiError::Protocol("the answer has no choices".into()));
        };
        let text = choice
            .message
            .as_ref()
            .or(choice.delta.as_ref())
            .and_then(|m| m.content.clone())
            .unwrap_or_default();
        Ok(Completion {
            text,
            usage: self.usage(),
            model: self.model,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use wort_domain::ai::PromptRole;

    #[test]
    fn the_request_is_openais_shape() {
        let messages = [
            PromptMessage::new(PromptRole::System, "Be brief."),
            PromptMessage::new(PromptRole::User, "Hi"),
        ];
        let streaming = ChatRequest {
            model: "gpt-4o-mini",
            messages: &messages,
            stream: true,
            stream_options: Some(StreamOptions {
                include_usage: true,
            }),
            max_tokens: 4096,
        };
        assert_eq!(
            serde_json::to_value(&streaming).unwrap(),
            serde_json::json!({"model":"gpt-4o-mini","stream":true,
                "stream_options":{"include_usage":true},"max_tokens":4096,
                "messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]})
        );
        let whole = ChatRequest {
            stream: false,
            stream_options: None,
            ..streaming
        };
        assert!(
            serde_json::to_value(&whole)
                .unwrap()
                .get("stream_options")
                .is_none()
        );
    }

    #[test]
    fn reads_a_whole_answer() {
        let c = Chunk::parse(br#"{"id":"x","model":"m-1","choices":[{"index":0,"message":{"role":"assistant","content":"Hello"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}"#)
            .unwrap()
            .into_completion()
            .unwrap();
        assert_eq!(c.text, "Hello");
        assert_eq!(c.model.as_deref(), Some("m-1"));
        assert_eq!(c.usage.unwrap().total_tokens, 11);
    }

    #[test]
    fn reads_stream_chunks_leniently() {
        let first = Chunk::parse(
            br#"{"choices":[{"delta":{"role":"assistant","content":""}}],"usage":null}"#,
        )
        .unwrap();
        assert_eq!(first.texts().count(), 0);
        assert_eq!(first.usage(), None);
        let text = Chunk::parse(br#"{"choices":[{"delta":{"content":"Hop"}}]}"#).unwrap();
        assert_eq!(text.texts().collect::<Vec<_>>(), ["Hop"]);
        let last =
            Chunk::parse(br#"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4}}"#)
                .unwrap();
        assert_eq!(last.usage().unwrap().total_tokens, 7);
        let nulls = Chunk::parse(br#"{"choices":null}"#).unwrap();
        assert_eq!(nulls.texts().count(), 0);
    }

    #[test]
    fn errors_are_reported() {
        let e = Chunk::parse(br#"{"error":{"message":"model overloaded"}}"#).unwrap();
        assert!(
            matches!(e.check_error(), Err(AiError::Protocol(m)) if m.contains("model overloaded"))
        );
        assert!(Chunk::parse(b"not json").is_err());
        assert!(matches!(
            Chunk::parse(br#"{"choices":[]}"#)
                .unwrap()
                .into_completion(),
            Err(AiError::Protocol(_))
        ));
    }
}
