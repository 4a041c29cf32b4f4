//! `/v1/chats`: the account's chat threads with the assistant. These work whether or not AI is
//! configured (only a chat turn, `POST /v1/chat`, needs a provider).

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use utoipa::ToSchema;
use wort_domain::ai::chat::{ChatThread, ChatThreadDetail, NewThread, ThreadPatch};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::credentials::Authenticated;
use crate::error::ApiResult;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query, path_id};
use crate::state::AppState;
use crate::validation::Fields;

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

/// Request body of `POST /v1/chats` (optional as a whole).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct CreateChatRequest {
    #[schema(nullable)]
    title: Option<String>,
    /// One of the caller's recipes; the thread's turns then discuss it.
    #[schema(nullable)]
    recipe_id: Option<uuid::Uuid>,
}

/// Request body of `PATCH /v1/chats/{id}`; `null` clears the title.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct UpdateChatRequest {
    #[schema(nullable)]
    title: Option<String>,
}

fn read_title(f: &mut Fields) -> Option<Option<String>> {
    Fields::nullable(f.text("title", wort_domain::ai::rules::TITLE))
}

fn read_new_thread(body: Option<Value>) -> ApiResult<NewThread> {
    let Some(body) = body else {
        return Ok(NewThread::default());
    };
    let mut f = Fields::of(&body)?;
    let title = read_title(&mut f).flatten();
    let recipe_id = Fields::nullable(f.uuid("recipe_id")).flatten();
    f.finish(NewThread { title, recipe_id })
}

/// The account's chat threads, most recently updated first.
#[utoipa::path(get, path = "/v1/chats", tag = "chats",
    params(
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [ChatThread], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_chats(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let threads = state.ai.list_threads(auth.0.user.id, page).await?;
    Ok(page_response(&req, &query, page, &threads))
}

/// Start an empty thread, optionally about one of the caller's recipes.
#[utoipa::path(post, path = "/v1/chats", tag = "chats",
    request_body(content = Option<CreateChatRequest>, description = "Optional"),
    responses((status = 201, body = ChatThread),
        (status = 404, body = crate::error::ErrorBody, description = "Unknown or another account's recipe_id")))]
pub async fn create_chat(
    auth: Authenticated,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_thread(body.optional_json()?)?;
    let thread = state.ai.create_thread(auth.0.user.id, new).await?;
    Ok(created(&thread))
}

/// A thread and its messages, oldest first.
#[utoipa::path(get, path = "/v1/chats/{id}", tag = "chats",
    params(("id" = uuid::Uuid, Path, description = "Chat thread id")),
    responses((status = 200, body = ChatThreadDetail)))]
pub async fn get_chat(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    Ok(HttpResponse::Ok().json(state.ai.get_thread(auth.0.user.id, id).await?))
}

/// Rename a thread (`null` clears the title).
#[utoipa::path(patch, path = "/v1/chats/{id}", tag = "chats",
    params(("id" = uuid::Uuid, Path, description = "Chat thread id")), request_body = UpdateChatRequest,
    responses((status = 200, body = ChatThread)))]
pub async fn update_chat(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    let body = body.json()?;
    let mut f = Fields::of(&body)?;
    let title = read_title(&mut f);
    let patch = f.finish(ThreadPatch { title })?;
    Ok(HttpResponse::Ok().json(state.ai.update_thread(auth.0.user.id, id, patch).await?))
}

/// Delete a thread and its messages.
#[utoipa::path(delete, path = "/v1/chats/{id}", tag = "chats",
    params(("id" = uuid::Uuid, Path, description = "Chat thread id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_chat(
    auth: Authenticated,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&req, "id")?;
    state.ai.delete_thread(auth.0.user.id, id).await?;
    Ok(HttpResponse::NoContent().finish())
}
