//! wort's AI adapter: the domain's [`AiProvider`] port over any OpenAI-compatible
//! chat-completions endpoint (OpenAI, llama.cpp's server, vLLM, Ollama…), with reqwest.
//!
//! * `POST {base_url}/chat/completions`, `Authorization: Bearer <key>` when a key is set.
//! * Non-streaming: one JSON answer, read within [`AiSettings::timeout`].
//! * Streaming: server-sent events (`data: {chunk}` … `data: [DONE]`), asking for the usage with
//!   `stream_options.include_usage`; the provider must start answering within the timeout and
//!   may then never be silent for longer than it, and the whole answer is capped at
//!   [`AiSettings::stream_max_duration`].
//! * Logs say which model answered, how long it took and how many tokens it used — never the
//!   key (it is also scrubbed from provider error bodies before they are logged).

mod sse;
mod wire;

use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use tokio::time::Instant;
use wort_domain::ai::{AiError, Completion, PromptMessage, StreamPiece, TokenUsage};
use wort_domain::ports::{AiProvider, CompletionStream};

use crate::sse::SseDecoder;
use crate::wire::{ChatRequest, Chunk, StreamOptions};

/// How long a whole non-streamed answer, or the start of a streamed one, may take.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long connecting to the provider may take.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a streamed answer may take in all.
pub const DEFAULT_STREAM_MAX_DURATION: Duration = Duration::from_secs(600);
/// Non-streamed answers larger than this are refused (a misbehaving endpoint, not an answer).
const MAX_RESPONSE_BYTES: usize = 8 * 1024 * 1024;
/// How much of a provider's error body goes to the log.
const ERROR_DETAIL_BYTES: usize = 2 * 1024;

/// Where the provider is and how long to wait for it.
#[derive(Clone)]
pub struct AiSettings {
    /// The API root including its version, e.g. `https://api.openai.com/v1`; wort appends
    /// `/chat/completions`.
    pub base_url: String,
    /// Sent as a bearer token; local servers usually need none.
    pub api_key: Option<String>,
    pub model: String,
    pub timeout: Duration,
    pub connect_timeout: Duration,
    pub stream_max_duration: Duration,
}

impl AiSettings {
    /// Settings with the default timeouts.
    pub fn new(
        base_url: impl Into<String>,
        model: impl Into<String>,
        api_key: Option<String>,
    ) -> Self {
        AiSettings {
            base_url: base_url.into(),
            api_key,
            model: model.into(),
            timeout: DEFAULT_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            stream_max_duration: DEFAULT_STREAM_MAX_DURATION,
        }
    }
}

/// Never prints the key, so settings can be logged.
impl fmt::Debug for AiSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AiSettings")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .field("model", &self.model)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("stream_max_duration", &self.stream_max_duration)
            .finish()
    }
}

/// An OpenAI-compatible chat-completions endpoint.
pub struct OpenAiCompatible {
    client: reqwest::Client,
    endpoint: reqwest::Url,
    api_key: Option<String>,
    model: String,
    timeout: Duration,
    stream_max_duration: Duration,
}

impl OpenAiCompatible {
    pub fn new(settings: &AiSettings) -> Result<Self, String> {
        let endpoint = format!(
            "{}/chat/completions",
            settings.base_url.trim().trim_end_matches('/')
        );
        let endpoint = reqwest::Url::parse(&endpoint)
            .map_err(|e| format!("WORT_AI_BASE_URL {:?} is not a URL: {e}", settings.base_url))?;
        if !matches!(endpoint.scheme(), "http" | "https") {
            return Err(format!(
                "WORT_AI_BASE_URL {:?} must be an http or https URL",
                settings.base_url
            ));
        }
        let client = reqwest::Client::builder()
            .connect_timeout(settings.connect_timeout)
            .user_agent(concat!("wort/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot build the AI HTTP client: {e}"))?;
        Ok(OpenAiCompatible {
            client,
            endpoint,
            api_key: settings.api_key.clone().filter(|k| !k.is_empty()),
            model: settings.model.clone(),
            timeout: settings.timeout,
            stream_max_duration: settings.stream_max_duration,
        })
    }

    /// The chat-completions URL requests go to.
    pub fn endpoint(&self) -> &str {
        self.endpoint.as_str()
    }

    fn post(&self, body: &ChatRequest<'_>) -> reqwest::RequestBuilder {
        let request = self.client.post(self.endpoint.clone()).json(body);
        match &self.api_key {
            Some(key) => request.bearer_auth(key),
            None => request,
        }
    }

    /// Text the provider sent back, made safe to log: cut short, and the key scrubbed out in
    /// case an endpoint echoes it.
    fn scrub(&self, text: &str) -> String {
        let mut cut = text.to_owned();
        if cut.len() > ERROR_DETAIL_BYTES {
            let mut end = ERROR_DETAIL_BYTES;
            while !cut.is_char_boundary(end) {
                end -= 1;
            }
            cut.truncate(end);
            cut.push('…');
        }
        match &self.api_key {
            Some(key) => cut.replace(key.as_str(), "[redacted]"),
            None => cut,
        }
    }

    /// A non-2xx answer becomes [`AiError::Status`] with (part of) its body.
    async fn check_status(
        &self,
        response: reqwest::Response,
    ) -> Result<reqwest::Response, AiError> {
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let body = tokio::time::timeout(self.timeout, read_capped(response, ERROR_DETAIL_BYTES))
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        Err(AiError::Status {
            status: status.as_u16(),
            detail: self.scrub(&String::from_utf8_lossy(&body)),
        })
    }

    fn log_failure(&self, error: &AiError, stream: bool, started: Instant) {
        tracing::warn!(
            model = %self.model,
            stream,
            ms = started.elapsed().as_millis() as u64,
            error = %self.scrub(&error.to_string()),
            "AI provider call failed"
        );
    }
}

/// The error without the URL (it is in the configuration already, and may carry credentials),
/// but with its causes, which say what actually went wrong (refused, DNS, TLS, a cut body…).
fn describe(e: reqwest::Error) -> String {
    let e = e.without_url();
    let mut text = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Sending the request or reading the answer's head failed: the provider was not reached.
fn send_error(e: reqwest::Error) -> AiError {
    if e.is_timeout() {
        return AiError::Timeout;
    }
    AiError::Unreachable(describe(e))
}

/// Reading the answer's body failed: the provider was reached and answered, then the answer
/// broke off (logged as such, not as "could not be reached").
fn body_error(e: reqwest::Error) -> AiError {
    if e.is_timeout() {
        return AiError::Timeout;
    }
    AiError::Protocol(format!("the answer broke off: {}", describe(e)))
}

/// The body, up to `cap` bytes (an error past it).
async fn read_capped(mut response: reqwest::Response, cap: usize) -> Result<Vec<u8>, AiError> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(body_error)? {
        if body.len() + chunk.len() > cap {
            let room = cap - body.len();
            body.extend_from_slice(chunk.get(..room).unwrap_or_default());
            return Err(AiError::Protocol(format!("answer larger than {cap} bytes")));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn is_json(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"))
}

#[async_trait]
impl AiProvider for OpenAiCompatible {
    fn model(&self) -> &str {
        &self.model
    }

    async fn complete(&self, messages: &[PromptMessage]) -> Result<Completion, AiError> {
        let started = Instant::now();
        let body = ChatRequest {
            model: &self.model,
            messages,
            stream: false,
            stream_options: None,
            max_tokens: wort_domain::ai::rules::MAX_ANSWER_TOKENS,
        };
        let result = async {
            // The request timeout covers connecting, the headers and reading the whole body.
            let response = self
                .post(&body)
                .timeout(self.timeout)
                .send()
                .await
                .map_err(send_error)?;
            let response = self.check_status(response).await?;
            let bytes = read_capped(response, MAX_RESPONSE_BYTES).await?;
            Chunk::parse(&bytes)?.into_completion()
        }
        .await;
        match &result {
            Ok(c) => tracing::info!(
                model = c.model.as_deref().unwrap_or(&self.model),
                stream = false,
                ms = started.elapsed().as_millis() as u64,
                total_tokens = c.usage.map(|u| u.total_tokens),
                "AI provider answered"
            ),
            Err(e) => self.log_failure(e, false, started),
        }
        result
    }

    async fn stream(
        &self,
        messages: &[PromptMessage],
    ) -> Result<Box<dyn CompletionStream>, AiError> {
        let started = Instant::now();
        let body = ChatRequest {
            model: &self.model,
            messages,
            stream: true,
            stream_options: Some(StreamOptions {
                include_usage: true,
            }),
            max_tokens: wort_domain::ai::rules::MAX_ANSWER_TOKENS,
        };
        let opened = async {
            let response = tokio::time::timeout(
                self.timeout,
                self.post(&body).header(ACCEPT, "text/event-stream").send(),
            )
            .await
            .map_err(|_| AiError::Timeout)?
            .map_err(send_error)?;
            self.check_status(response).await
        }
        .await;
        let response = match opened {
            Ok(r) => r,
            Err(e) => {
                self.log_failure(&e, true, started);
                return Err(e);
            }
        };
        let mut stream = OpenAiStream {
            body: None,
            decoder: SseDecoder::default(),
            queue: VecDeque::new(),
            done: false,
            idle: self.timeout,
            deadline: started + self.stream_max_duration,
            started,
            model: self.model.clone(),
            usage: None,
        };
        if is_json(&response) {
            // An endpoint that ignores `stream: true` answers in one piece; take it as such.
            let whole =
                tokio::time::timeout(self.timeout, read_capped(response, MAX_RESPONSE_BYTES))
                    .await
                    .map_err(|_| AiError::Timeout)
                    .and_then(|r| r)
                    .and_then(|b| Chunk::parse(&b)?.into_completion());
            match whole {
                Ok(c) => {
                    stream.queue.extend(
                        Some(c.text)
                            .filter(|t| !t.is_empty())
                            .map(StreamPiece::Text),
                    );
                    stream.queue.extend(c.usage.map(StreamPiece::Usage));
                    stream.usage = c.usage;
                    stream.finished(None);
                }
                Err(e) => {
                    self.log_failure(&e, true, started);
                    return Err(e);
                }
            }
        } else {
            stream.body = Some(response);
        }
        Ok(Box::new(stream))
    }
}

/// A streamed answer being read.
struct OpenAiStream {
    /// `None` once there is nothing more to read (or nothing was streamed at all).
    body: Option<reqwest::Response>,
    decoder: SseDecoder,
    /// Pieces decoded but not yet handed out.
    queue: VecDeque<StreamPiece>,
    /// No more reading: `[DONE]`, the end of the body, or a failure.
    done: bool,
    /// The longest silence allowed between two chunks.
    idle: Duration,
    deadline: Instant,
    started: Instant,
    model: String,
    usage: Option<TokenUsage>,
}

impl OpenAiStream {
    fn finished(&mut self, error: Option<&AiError>) {
        self.done = true;
        // Closes the connection now rather than when the answer is dropped.
        self.body = None;
        let ms = self.started.elapsed().as_millis() as u64;
        match error {
            None => tracing::info!(
                model = %self.model,
                stream = true,
                ms,
                total_tokens = self.usage.map(|u| u.total_tokens),
                "AI provider answered"
            ),
            Some(e) => tracing::warn!(
                model = %self.model,
                stream = true,
                ms,
                error = %e,
                "AI provider stream failed"
            ),
        }
    }

    fn fail(&mut self, error: AiError) -> Option<Result<StreamPiece, AiError>> {
        self.finished(Some(&error));
        Some(Err(error))
    }

    /// One event's data: `[DONE]`, a chunk, or an error object.
    fn event(&mut self, data: &str) -> Result<(), AiError> {
        if data.trim() == "[DONE]" {
            self.finished(None);
            return Ok(());
        }
        let chunk = Chunk::parse(data.as_bytes())?;
        chunk.check_error()?;
        // Log the model that actually answers (a router may pick another than the one asked).
        if let Some(model) = &chunk.model
            && *model != self.model
        {
            self.model.clone_from(model);
        }
        for text in chunk.texts() {
            self.queue.push_back(StreamPiece::Text(text));
        }
        if let Some(usage) = chunk.usage() {
            self.usage = Some(usage);
            self.queue.push_back(StreamPiece::Usage(usage));
        }
        Ok(())
    }
}

#[async_trait]
impl CompletionStream for OpenAiStream {
    async fn next(&mut self) -> Option<Result<StreamPiece, AiError>> {
        loop {
            if let Some(piece) = self.queue.pop_front() {
                return Some(Ok(piece));
            }
            if self.done {
                return None;
            }
            let Some(body) = self.body.as_mut() else {
                self.finished(None);
                return None;
            };
            let wait_until = std::cmp::min(self.deadline, Instant::now() + self.idle);
            let chunk = match tokio::time::timeout_at(wait_until, body.chunk()).await {
                Err(_) => return self.fail(AiError::Timeout),
                Ok(chunk) => chunk.transpose(),
            };
            match chunk {
                None => {
                    self.body = None;
                    // The body ended without `[DONE]`: take what was sent as the whole answer.
                    match self.decoder.finish() {
                        Ok(Some(data)) => {
                            if let Err(e) = self.event(&data) {
                                return self.fail(e);
                            }
                        }
                        Ok(None) => {}
                        Err(e) => return self.fail(AiError::Protocol(format!("{e:?}"))),
                    }
                    if !self.done {
                        self.finished(None);
                    }
                }
                Some(Err(e)) => return self.fail(body_error(e)),
                Some(Ok(bytes)) => {
                    let events = match self.decoder.push(&bytes) {
                        Ok(events) => events,
                        Err(e) => return self.fail(AiError::Protocol(format!("{e:?}"))),
                    };
                    for data in events {
                        if self.done {
                            break;
                        }
                        if let Err(e) = self.event(&data) {
                            return self.fail(e);
                        }
                    }
                }
            }
        }
    }
}
