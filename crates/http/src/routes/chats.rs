//! `/v1/chats`: the account's chat threads with the assistant. These work whether or not AI is
//! configured (only a chat turn, `POST /v1/chat`, needs a provider).

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::ai::chat::{ChatThread, ChatThreadDetail, NewThread, ThreadPatch};
use wort_domain::ai::rules;

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::body::spec::{BodySpec, FieldSpec, Kind, Missing, Mode, Reader, request_body_schema};
use crate::caller::{Caller, CallerAndId};
use crate::error::ApiResult;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

/// Inside the `/v1/chats` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_chats))
            .route(web::post().to(create_chat)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_chat))
            .route(web::patch().to(update_chat))
            .route(web::delete().to(delete_chat)),
    );
}

/// A thread's title: left out, or `null`, for none (a turn then names the thread).
const TITLE: FieldSpec = FieldSpec::clearable("title", Kind::Text);

static NEW_THREAD: BodySpec = BodySpec {
    rules: rules::THREAD_FIELDS,
    missing: Missing::Last,
    fields: &[
        TITLE,
        FieldSpec::clearable("recipe_id", Kind::Uuid)
            .described("One of the caller's recipes; the thread's turns then discuss it."),
    ],
};

static THREAD_CHANGE: BodySpec = BodySpec {
    rules: rules::THREAD_FIELDS,
    missing: Missing::Last,
    fields: &[TITLE],
};

request_body_schema!(
    /// `POST /v1/chats`.
    CreateChatRequest,
    NEW_THREAD,
    Mode::Create,
    "Request body of `POST /v1/chats` (optional as a whole).",
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/chats/{id}`.
    UpdateChatRequest,
    THREAD_CHANGE,
    Mode::Update,
    "Request body of `PATCH /v1/chats/{id}`; `null` clears the title.",
    field_descriptions = false
);

fn read_new_thread(body: Option<Value>) -> ApiResult<NewThread> {
    let Some(body) = body else {
        return Ok(NewThread::default());
    };
    let mut f = Reader::new(&body, &NEW_THREAD, Mode::Create)?;
    let title = f.nullable_text("title").flatten();
    let recipe_id = f.nullable_uuid("recipe_id").flatten();
    f.finish(NewThread { title, recipe_id })
}

fn read_change(body: &Value) -> ApiResult<ThreadPatch> {
    let mut f = Reader::new(body, &THREAD_CHANGE, Mode::Update)?;
    let title = f.nullable_text("title");
    f.finish(ThreadPatch { title })
}

/// The account's chat threads, most recently updated first.
#[utoipa::path(get, path = "/v1/chats", tag = "chats",
    params(
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [ChatThread], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_chats(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let threads = state.ai.list_threads(user, page).await?;
    Ok(page_response(&req, &query, page, &threads))
}

/// Start an empty thread, optionally about one of the caller's recipes.
#[utoipa::path(post, path = "/v1/chats", tag = "chats",
    request_body(content = Option<CreateChatRequest>, description = "Optional"),
    responses((status = 201, body = ChatThread),
        (status = 404, body = crate::error::ErrorBody, description = "Unknown or another account's recipe_id")))]
pub async fn create_chat(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_thread(body.optional_json()?)?;
    let thread = state.ai.create_thread(user, new).await?;
    Ok(created(&thread))
}

/// A thread and its messages, oldest first.
#[utoipa::path(get, path = "/v1/chats/{id}", tag = "chats",
    params(("id" = uuid::Uuid, Path, description = "Chat thread id")),
    responses((status = 200, body = ChatThreadDetail)))]
pub async fn get_chat(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.ai.get_thread(user, id).await?))
}

/// Rename a thread (`null` clears the title).
#[utoipa::path(patch, path = "/v1/chats/{id}", tag = "chats",
    params(("id" = uuid::Uuid, Path, description = "Chat thread id")), request_body = UpdateChatRequest,
    responses((status = 200, body = ChatThread)))]
pub async fn update_chat(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_change(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.ai.update_thread(user, id, patch).await?))
}

/// Delete a thread and its messages.
#[utoipa::path(delete, path = "/v1/chats/{id}", tag = "chats",
    params(("id" = uuid::Uuid, Path, description = "Chat thread id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_chat(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.ai.delete_thread(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_tables_is_read() {
        assert_whole(&NEW_THREAD, |body| {
            read_new_thread(Some(body.clone())).map(|_| ())
        });
        assert_whole(&THREAD_CHANGE, |body| read_change(body).map(|_| ()));
    }
}
