//! The AI assistant: `GET /v1/ai/usage`, `POST /v1/recipes/{id}/analysis` and the
//! streamed chat turn `POST /v1/chat`. Chat threads themselves are in [`super::chats`].
//!
//! Order of checks on analysis and chat: credential (401), body (413, 400, 422), existence
//! (404), configuration (503), limits (429); the last three are the domain's
//! ([`AiService`](wort_domain::ai::service::AiService)).

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use tracing::Instrument;
use wort_domain::ai::service::{RecipeAnalysis, TurnRequest};
use wort_domain::ai::{MAX_CHAT_MESSAGE_CHARS, UsageReport};

use super::resource;
use crate::body::JsonBody;
use crate::body::fields::Fields;
use crate::body::spec::{BodySpec, FieldSpec, Kind, Missing, Mode, Reader, request_body_schema};
use crate::caller::{Caller, CallerAndId};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// The raw body cap of `POST /v1/chat`: room for an 8,000-character message even if every
/// character is sent as a JSON surrogate-pair escape (12 bytes), plus the other fields. A larger
/// body cannot hold an acceptable message, so it gets the chat 413 too.
pub const CHAT_MAX_BODY_BYTES: usize = 128 * 1024;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/v1/ai/usage", "GET").route(web::get().to(usage)))
        .service(resource("/v1/chat", "POST").route(web::post().to(chat_turn)));
}

/// `POST /v1/recipes/{id}/analysis`, inside the `/v1/recipes` scope.
pub fn configure_analysis(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/{id}/analysis", "POST").route(web::post().to(analyse_recipe)));
}

static TURN: BodySpec = BodySpec {
    rules: wort_domain::ai::rules::TURN_FIELDS,
    missing: Missing::WhereRead,
    fields: &[
        FieldSpec::required("message", Kind::Text)
            .described("1–8,000 characters; longer is `413`."),
        FieldSpec::clearable("chat_id", Kind::Uuid).described("Continue this thread (its earlier messages are sent as context); absent: a new thread."),
        FieldSpec::clearable("recipe_id", Kind::Uuid).described(
            "Talk about this recipe (sent to the provider with its ingredients and statistics); a \
             new\nthread keeps it.",
        ),
    ],
};

request_body_schema!(
    /// `POST /v1/chat`.
    ChatTurnRequest,
    TURN,
    Mode::Create,
    "Request body of `POST /v1/chat`.",
    field_descriptions = true
);

/// Today's AI use and limits (UTC day). Works whether or not AI is configured.
#[utoipa::path(get, path = "/v1/ai/usage", tag = "ai",
    responses((status = 200, body = UsageReport)))]
pub async fn usage(Caller(user): Caller, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let report = state.ai.clone().usage_report(user).await?;
    Ok(HttpResponse::Ok().json(report))
}

/// An assessment of the recipe (balance, style fit, suggestions) from its ingredients and
/// computed statistics. Counts one message and its tokens.
#[utoipa::path(post, path = "/v1/recipes/{id}/analysis", tag = "ai",
    params(("id" = uuid::Uuid, Path, description = "Recipe id")),
    request_body(content = Option<Object>, description = "Optional; no fields"),
    responses((status = 200, body = RecipeAnalysis),
        (status = 429, body = crate::error::ErrorBody, description = "A daily limit is reached; `Retry-After` = seconds to midnight UTC",
            headers(("Retry-After" = u64))),
        (status = 502, body = crate::error::ErrorBody, description = "The AI provider failed or timed out (the message is not counted)"),
        (status = 503, body = crate::error::ErrorBody, description = "AI is not configured on this deployment")))]
pub async fn analyse_recipe(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    // No fields of its own, but a body that is sent must still be a JSON object.
    if let Some(body) = body.optional_json()? {
        Fields::of(&body)?.finish(())?;
    }
    let ai = state.ai.clone();
    // In its own task, so it runs to its end even when the client disconnects: the reserved
    // message is then still settled or released, never left dangling.
    let task = actix_web::rt::spawn(
        async move { ai.analyse(user, id).await }.instrument(tracing::Span::current()),
    );
    let analysis = task.await.map_err(|e| {
        tracing::error!(detail = %e, "analysis task failed");
        ApiError::Internal
    })??;
    Ok(HttpResponse::Ok().json(analysis))
}

/// The body of `POST /v1/chat`, checked in this order: too large or a message over
/// 8,000 characters (413), unreadable (400), invalid fields (422).
fn read_turn(body: &JsonBody) -> ApiResult<TurnRequest> {
    let body = match body.json() {
        Err(ApiError::PayloadTooLarge) => return Err(ApiError::ChatMessageTooLong),
        other => other?,
    };
    // 413 before 422: an over-long message is refused whatever else is wrong with the body.
    if let Some(Value::String(message)) = body.get("message")
        && message.chars().count() > MAX_CHAT_MESSAGE_CHARS
    {
        return Err(ApiError::ChatMessageTooLong);
    }
    read_turn_fields(&body)
}

fn read_turn_fields(body: &Value) -> ApiResult<TurnRequest> {
    let mut f = Reader::new(body, &TURN, Mode::Create)?;
    let message = f.text("message");
    let chat_id = f.nullable_uuid("chat_id").flatten();
    let recipe_id = f.nullable_uuid("recipe_id").flatten();
    let message = f.finish(message)?.unwrap_or_default();
    Ok(TurnRequest {
        message,
        chat_id,
        recipe_id,
    })
}

/// One chat turn, streamed as server-sent events: `chat` `{chat_id, message_id}`, then `delta`
/// `{text}`…, then `done` `{usage}` or `error` `{error}`. Both messages are stored in the
/// thread; a new thread is created when `chat_id` is absent.
#[utoipa::path(post, path = "/v1/chat", tag = "ai",
    request_body = ChatTurnRequest,
    responses((status = 200, content_type = "text/event-stream", body = crate::sse::ChatStreamEvent,
            description = "event: chat / delta… / done or error; each `data:` is one JSON object"),
        (status = 404, body = crate::error::ErrorBody, description = "Unknown or another account's chat_id or recipe_id"),
        (status = 413, body = crate::error::ErrorBody, description = "`Chat message exceeds 8000 characters` (also for bodies over 128 KiB)"),
        (status = 429, body = crate::error::ErrorBody, description = "A daily limit is reached; `Retry-After` = seconds to midnight UTC",
            headers(("Retry-After" = u64))),
        (status = 502, body = crate::error::ErrorBody, description = "The AI provider failed before answering (nothing stored or counted)"),
        (status = 503, body = crate::error::ErrorBody, description = "AI is not configured on this deployment")))]
pub async fn chat_turn(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let body = JsonBody::read(&req, payload.into_inner(), CHAT_MAX_BODY_BYTES).await;
    let request = read_turn(&body)?;
    crate::sse::chat_turn(state.ai.clone(), user, request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_table_is_read() {
        assert_whole(&TURN, |body| read_turn_fields(body).map(|_| ()));
    }
}
