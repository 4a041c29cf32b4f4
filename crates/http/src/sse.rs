//! Server-sent events for `POST /v1/chat`: `chat`, then `delta`…, then `done` or `error`.
//!
//! The turn runs in its own task, apart from the response: when the client disconnects, actix
//! drops the response body, the task's next send fails, and the domain stores what was answered
//! so far and settles the message — the turn always ends consistently, and no database
//! connection is held meanwhile (the repositories take one per statement).

use actix_web::HttpResponse;
use actix_web::http::header;
use actix_web::web::Bytes;
use async_trait::async_trait;
use futures_util::StreamExt;
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;
use utoipa::openapi::RefOr;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};
use uuid::Uuid;
use wort_domain::ai::TokenUsage;
use wort_domain::ai::service::{AiService, TurnOutcome, TurnRequest, TurnSink};
use wort_domain::{DomainResult, UserId};

use crate::error::{ApiError, ApiResult};

/// Events buffered between the turn and a slow client before the turn waits for it.
const EVENT_BUFFER: usize = 32;

/// While the provider thinks, a comment line at least this often keeps proxies and browsers from
/// closing a quiet connection (a comment at least every 15 s).
const KEEPALIVE: std::time::Duration = std::time::Duration::from_secs(15);

/// How long the provider may take to its first piece before the stream starts without it
/// (`event: chat`, then keepalives): under [`KEEPALIVE`], so that a quiet connection hears from
/// wort at least that often from the request on.
const FIRST_PIECE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

/// An SSE comment: clients ignore it; it only proves the connection alive.
const KEEPALIVE_COMMENT: &[u8] = b": keepalive\n\n";

/// One event in the wire format. The data is compact JSON, so it never spans lines.
fn event(name: &str, data: &impl Serialize) -> Bytes {
    let data = serde_json::to_string(data).unwrap_or_else(|_| "{}".to_owned());
    Bytes::from(format!("event: {name}\ndata: {data}\n\n"))
}

/// `event: done`, its usage in the field order of every other usage object.
#[derive(Serialize)]
struct Done {
    usage: TokenUsage,
}

/// Forwards the answer's pieces as `delta` events.
struct ChannelSink(mpsc::Sender<Bytes>);

#[async_trait]
impl TurnSink for ChannelSink {
    async fn text(&mut self, text: &str) -> bool {
        self.0
            .send(event("delta", &json!({ "text": text })))
            .await
            .is_ok()
    }
}

/// Starts the turn; answers with the API's JSON error when it cannot start (404, 503, 429,
/// or 502 when the provider fails before answering within [`FIRST_PIECE_PATIENCE`]), otherwise
/// with the event stream.
pub async fn chat_turn(
    ai: std::sync::Arc<AiService>,
    user: UserId,
    request: TurnRequest,
) -> ApiResult<HttpResponse> {
    let (started_tx, started_rx) = oneshot::channel();
    let (events_tx, events_rx) = mpsc::channel(EVENT_BUFFER);
    actix_web::rt::spawn(
        run_turn(ai, user, request, started_tx, events_tx).instrument(tracing::Span::current()),
    );
    match started_rx.await {
        Ok(Ok((chat_id, message_id))) => Ok(stream_response(chat_id, message_id, events_rx)),
        Ok(Err(e)) => Err(e.into()),
        Err(_) => {
            tracing::error!("the chat turn ended without starting");
            Err(ApiError::Internal)
        }
    }
}

async fn run_turn(
    ai: std::sync::Arc<AiService>,
    user: UserId,
    request: TurnRequest,
    started: oneshot::Sender<DomainResult<(Uuid, Uuid)>>,
    events: mpsc::Sender<Bytes>,
) {
    let prepared = match ai.prepare_turn(user, request).await {
        Ok(prepared) => prepared,
        Err(e) => {
            let _ = started.send(Err(e));
            return;
        }
    };
    let (chat_id, answer_id) = (prepared.chat_id(), prepared.answer_id());
    let mut starting = Box::pin(prepared.start());
    // A provider that answers (or fails) quickly: a plain error before any event, as the
    // contract says. One slow to answer: the stream starts anyway, so that keepalives flow
    // while it thinks, and a failure then arrives as `event: error`.
    let turn = tokio::select! {
        result = &mut starting => match result {
            Ok(turn) => {
                let _ = started.send(Ok((chat_id, answer_id)));
                turn
            }
            Err(unstarted) => {
                let _ = started.send(Err(unstarted.error));
                return;
            }
        },
        () = tokio::time::sleep(FIRST_PIECE_PATIENCE) => {
            let _ = started.send(Ok((chat_id, answer_id)));
            match starting.await {
                Ok(turn) => turn,
                Err(unstarted) => {
                    let error = ApiError::from(unstarted.keep_announced_thread().await);
                    let _ = events.send(event("error", &json!({ "error": error.to_string() }))).await;
                    return;
                }
            }
        }
    };
    // When the client has already gone, the event receiver is gone with it: `finish` notices at
    // the first piece and ends the turn as abandoned.
    let last = match turn.finish(&mut ChannelSink(events.clone())).await {
        TurnOutcome::Done(usage) => event("done", &Done { usage }),
        TurnOutcome::ClientGone => {
            tracing::info!(%chat_id, "client left mid-answer; the partial answer was stored");
            return;
        }
        TurnOutcome::Failed(e) => {
            let error = ApiError::from(e);
            event("error", &json!({ "error": error.to_string() }))
        }
    };
    let _ = events.send(last).await;
}

fn stream_response(chat_id: Uuid, message_id: Uuid, events: mpsc::Receiver<Bytes>) -> HttpResponse {
    let first = event(
        "chat",
        &json!({ "chat_id": chat_id, "message_id": message_id }),
    );
    let body = event_stream(first, events, KEEPALIVE).map(Ok::<_, actix_web::Error>);
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Tells nginx-style proxies not to buffer the stream.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}

/// `first`, then every event of the turn as it comes, with a keepalive comment whenever
/// `keepalive` passes without one; ends when the turn drops its sender.
fn event_stream(
    first: Bytes,
    events: mpsc::Receiver<Bytes>,
    keepalive: std::time::Duration,
) -> impl futures_util::Stream<Item = Bytes> {
    let rest = futures_util::stream::unfold(events, move |mut events| async move {
        match tokio::time::timeout(keepalive, events.recv()).await {
            Ok(Some(bytes)) => Some((bytes, events)),
            Ok(None) => None,
            Err(_) => Some((Bytes::from_static(KEEPALIVE_COMMENT), events)),
        }
    });
    futures_util::stream::once(async move { first }).chain(rest)
}

/// One server-sent event of `POST /v1/chat`, as OpenAPI 3.1 describes an event stream's events:
/// `event` names it and `data` is one JSON object (its `contentSchema` per event).
pub struct ChatStreamEvent;

impl ChatStreamEvent {
    fn event(name: &str, description: &str, data: Value) -> Schema {
        let mut data_schema = ObjectBuilder::new()
            .schema_type(Type::String)
            .content_media_type("application/json")
            .build();
        // utoipa's `Object` has no `contentSchema` field; a JSON Schema keyword is still a key.
        let mut keywords = Extensions::default();
        keywords.insert("contentSchema".to_owned(), data);
        data_schema.extensions = Some(keywords);
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(description))
            .property(
                "event",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some([name])),
            )
            .property("data", data_schema)
            .required("event")
            .required("data")
            .into()
    }
}

impl PartialSchema for ChatStreamEvent {
    fn schema() -> RefOr<Schema> {
        let uuid = json!({"type": "string", "format": "uuid"});
        let tokens = json!({"type": "integer", "format": "int64"});
        OneOfBuilder::new()
            .description(Some(
                "One event of the stream: `chat` first, then `delta`s, then `done` or `error`.",
            ))
            .item(Self::event(
                "chat",
                "The thread and the id of the assistant message being written",
                json!({"type": "object", "required": ["chat_id", "message_id"],
                       "properties": {"chat_id": uuid, "message_id": uuid}}),
            ))
            .item(Self::event(
                "delta",
                "The next piece of the answer",
                json!({"type": "object", "required": ["text"],
                       "properties": {"text": {"type": "string"}}}),
            ))
            .item(Self::event(
                "done",
                "The answer is complete and stored; the tokens it used",
                json!({"type": "object", "required": ["usage"], "properties": {"usage": {
                    "type": "object",
                    "required": ["prompt_tokens", "completion_tokens", "total_tokens"],
                    "properties": {"prompt_tokens": tokens, "completion_tokens": tokens,
                                   "total_tokens": tokens}}}}),
            ))
            .item(Self::event(
                "error",
                "The provider failed mid-answer: no message is stored and the message is not counted (a new thread the turn announced is kept, empty)",
                json!({"type": "object", "required": ["error"],
                       "properties": {"error": {"type": "string"}}}),
            ))
            .into()
    }
}

impl ToSchema for ChatStreamEvent {}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[actix_web::test]
    async fn a_quiet_turn_gets_keepalive_comments_and_events_arrive_unchanged() {
        let (tx, rx) = mpsc::channel(4);
        let stream = event_stream(Bytes::from_static(b"first"), rx, Duration::from_millis(20));
        actix_web::rt::spawn(async move {
            tokio::time::sleep(Duration::from_millis(70)).await;
            let _ = tx.send(Bytes::from_static(b"delta")).await;
            // Dropping the sender ends the stream.
        });
        let items: Vec<Bytes> = stream.collect().await;
        assert_eq!(items.first().map(|b| &b[..]), Some(&b"first"[..]));
        assert_eq!(items.last().map(|b| &b[..]), Some(&b"delta"[..]));
        let keepalives = items.iter().filter(|b| &b[..] == KEEPALIVE_COMMENT).count();
        assert!(keepalives >= 2, "{items:?}");
        assert_eq!(
            items.len(),
            keepalives + 2,
            "nothing else is added: {items:?}"
        );
    }
}
