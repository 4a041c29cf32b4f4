//! Notes on a session's fermentation chart (`/v1/sessions/{id}/notes`, `/v1/notes/{id}`).

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::session_note::{NewNote, Note, NotePatch, rules};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, FieldSpec, Kind, Missing, Mode, OnCreate, Reader, request_body_schema,
};
use crate::caller::CallerAndId;
use crate::error::{ApiError, ApiResult};
use crate::params::Query;
use crate::state::AppState;

/// Inside the `/v1/sessions` scope.
pub fn configure_lists(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("/{id}/notes", "GET, POST")
            .route(web::get().to(list_notes))
            .route(web::post().to(create_note)),
    );
}

/// Inside the `/v1/notes` scope.
pub fn configure_items(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_note))
            .route(web::patch().to(update_note))
            .route(web::delete().to(delete_note)),
    );
}

/// A note: the instant it is about, and its text.
static NOTE: BodySpec = BodySpec {
    rules: rules::NOTE_FIELDS,
    missing: Missing::WhereRead,
    fields: &[
        FieldSpec::new("at", Kind::DateTime, OnCreate::Optional).described(
            "The instant the note is about (RFC 3339). Default: now. At most 5 minutes ahead of \
             the server's clock; any past instant is allowed.",
        ),
        FieldSpec::required("text", Kind::Text)
            .described("1–10,000 characters, stored exactly as sent."),
    ],
};

request_body_schema!(
    /// `POST /v1/sessions/{id}/notes`.
    CreateNoteRequest,
    NOTE,
    Mode::Create,
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/notes/{id}`.
    UpdateNoteRequest,
    NOTE,
    Mode::Update,
    field_descriptions = false
);

fn read_new_note(body: &Value) -> ApiResult<NewNote> {
    let mut f = Reader::new(body, &NOTE, Mode::Create)?;
    let at = f.datetime("at");
    let text = f.text("text");
    match text {
        Some(text) => f.finish(NewNote { at, text }),
        None => Err(f.finish(()).err().unwrap_or(ApiError::Internal)),
    }
}

fn read_note_patch(body: &Value) -> ApiResult<NotePatch> {
    let mut f = Reader::new(body, &NOTE, Mode::Update)?;
    let at = f.datetime("at");
    let text = f.text("text");
    f.finish(NotePatch { at, text })
}

/// The session's notes, oldest `at` first (then in the order they were written), so a chart
/// draws them in order.
#[utoipa::path(get, path = "/v1/sessions/{id}/notes", tag = "notes",
    params(
        ("id" = uuid::Uuid, Path, description = "Session id"),
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [Note], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_notes(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(rules::DEFAULT_PAGE, rules::MAX_PAGE)?;
    let notes = state.notes.list(user, id, page).await?;
    Ok(page_response(&req, &query, page, &notes))
}

/// Write a note on the session's fermentation chart.
#[utoipa::path(post, path = "/v1/sessions/{id}/notes", tag = "notes",
    params(("id" = uuid::Uuid, Path, description = "Session id")), request_body = CreateNoteRequest,
    responses((status = 201, body = Note, links(
            ("GetNote" = (operation_id = "get_note", parameters(("id" = "$response.body#/id")), description = "The note just written")),
            ("UpdateNote" = (operation_id = "update_note", parameters(("id" = "$response.body#/id")), description = "Change the note just written")),
            ("DeleteNote" = (operation_id = "delete_note", parameters(("id" = "$response.body#/id")), description = "Remove the note just written")))),
        (status = 404, body = crate::error::ErrorBody, description = "No such session")))]
pub async fn create_note(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_note(&body.json()?)?;
    Ok(created(&state.notes.create(user, id, new).await?))
}

/// One note.
#[utoipa::path(get, path = "/v1/notes/{id}", tag = "notes",
    params(("id" = uuid::Uuid, Path, description = "Note id")),
    responses((status = 200, body = Note)))]
pub async fn get_note(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.notes.get(user, id).await?))
}

/// Change a note's text or move it to another instant.
#[utoipa::path(patch, path = "/v1/notes/{id}", tag = "notes",
    params(("id" = uuid::Uuid, Path, description = "Note id")), request_body = UpdateNoteRequest,
    responses((status = 200, body = Note)))]
pub async fn update_note(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_note_patch(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.notes.update(user, id, patch).await?))
}

/// Delete a note.
#[utoipa::path(delete, path = "/v1/notes/{id}", tag = "notes",
    params(("id" = uuid::Uuid, Path, description = "Note id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_note(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.notes.delete(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_body_table_matches_its_reader() {
        assert_whole(&NOTE, |body| read_new_note(body).map(|_| ()));
        assert_whole(&NOTE, |body| read_note_patch(body).map(|_| ()));
    }
}
