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
use serde_json::json;
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;
use uuid::Uuid;
use wort_domain::ai::TokenUsage;
use wort_domain::ai::service::{AiService, TurnOutcome, TurnRequest, TurnSink};
use wort_domain::{DomainResult, UserId};

use crate::error::{ApiError, ApiResult};

/// Events buffered between the turn and a slow client before the turn waits for it.
const EVENT_BUFFER: usize = 32;

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

/// Starts the turn; answers with the contract's JSON error when it cannot start (404, 503, 429,
/// or 502 when the provider fails before answering), otherwise with the event stream.
pub async fn chat_turn(
    ai: AiService,
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
    ai: AiService,
    user: UserId,
    request: TurnRequest,
    started: oneshot::Sender<DomainResult<(Uuid, Uuid)>>,
    events: mpsc::Sender<Bytes>,
) {
    let turn = match ai.start_turn(user, request).await {
        Ok(turn) => turn,
        Err(e) => {
            let _ = started.send(Err(e));
            return;
        }
    };
    let chat_id = turn.chat_id();
    // When the client has already gone, the event receiver is gone with it: `finish` notices at
    // the first piece and ends the turn as abandoned.
    let _ = started.send(Ok((chat_id, turn.answer_id())));
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
    let rest = futures_util::stream::unfold(events, |mut events| async move {
        events.recv().await.map(|bytes| (bytes, events))
    });
    let body = futures_util::stream::once(async move { first })
        .chain(rest)
        .map(Ok::<_, actix_web::Error>);
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Tells nginx-style proxies not to buffer the stream.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}
