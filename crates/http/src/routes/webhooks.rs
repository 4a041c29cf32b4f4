//! `/v1/webhooks`: endpoints told what happened, their deliveries log and the test ping.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use wort_domain::webhook::model::{CreatedWebhook, DeliveryAttempt};
use wort_domain::webhook::rules;
use wort_domain::webhook::{EventType, NewWebhook, Webhook, WebhookPatch};

use super::{created, page_response, resource};
use crate::body::JsonBody;
use crate::body::spec::{
    BodySpec, DefaultValue, EnumArray, FieldSpec, Kind, Missing, Mode, OnCreate, Reader,
    request_body_schema,
};
use crate::caching::secret;
use crate::caller::{Caller, CallerAndId};
use crate::error::ApiResult;
use crate::params::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Query};
use crate::state::AppState;

/// Inside the `/v1/webhooks` scope.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        resource("", "GET, POST")
            .route(web::get().to(list_webhooks))
            .route(web::post().to(create_webhook)),
    )
    .service(
        resource("/{id}", "GET, PATCH, DELETE")
            .route(web::get().to(get_webhook))
            .route(web::patch().to(update_webhook))
            .route(web::delete().to(delete_webhook)),
    )
    .service(resource("/{id}/deliveries", "GET").route(web::get().to(list_webhook_deliveries)))
    .service(resource("/{id}/test", "POST").route(web::post().to(test_webhook)));
}

fn event_names() -> Vec<&'static str> {
    EventType::SUBSCRIBABLE
        .iter()
        .map(EventType::as_str)
        .collect()
}

fn parse_subscribable(s: &str) -> Option<EventType> {
    EventType::parse(s).filter(|e| EventType::SUBSCRIBABLE.contains(e))
}

static WEBHOOK: BodySpec = BodySpec {
    rules: rules::WEBHOOK_FIELDS,
    missing: Missing::Last,
    fields: &[
        FieldSpec::required("url", Kind::Text).described("An `http(s)` URL on a public address."),
        FieldSpec::required(
            "events",
            Kind::EnumArray(EnumArray {
                options: event_names,
                min_items: rules::MIN_EVENTS,
                example: Some(|| {
                    serde_json::json!(["session.status_changed", "fermentation.stable"])
                }),
            }),
        )
        .described(
            "A non-empty subset of `session.status_changed`, `reading.created`, \
             `fermentation.stable`, `fermentation.step_due`.",
        ),
        FieldSpec::new(
            "active",
            Kind::Boolean,
            OnCreate::Default(DefaultValue::Bool(true)),
        ),
    ],
};

request_body_schema!(
    /// `POST /v1/webhooks`.
    CreateWebhookRequest,
    WEBHOOK,
    Mode::Create,
    "Request body of `POST /v1/webhooks`.",
    field_descriptions = true
);

request_body_schema!(
    /// `PATCH /v1/webhooks/{id}`.
    UpdateWebhookRequest,
    WEBHOOK,
    Mode::Update,
    "Request body of `PATCH /v1/webhooks/{id}`: only the fields sent change. `active: true`\n\
     re-enables an endpoint switched off after failures, with a fresh count.",
    field_descriptions = false
);

/// The fields sent: every one on create (`active` defaulted), only those sent on update.
fn read_patch(f: &mut Reader) -> WebhookPatch {
    WebhookPatch {
        url: f.text("url"),
        events: f.enum_array("events", parse_subscribable),
        active: f.boolean("active"),
    }
}

fn read_new_webhook(body: &Value) -> ApiResult<NewWebhook> {
    let mut f = Reader::new(body, &WEBHOOK, Mode::Create)?;
    let patch = read_patch(&mut f);
    // Each `None` left is a required field not sent, which `finish` reports.
    f.finish(NewWebhook {
        url: patch.url.unwrap_or_default(),
        events: patch.events.unwrap_or_default(),
        active: patch.active.unwrap_or_default(),
    })
}

fn read_update(body: &Value) -> ApiResult<WebhookPatch> {
    let mut f = Reader::new(body, &WEBHOOK, Mode::Update)?;
    let patch = read_patch(&mut f);
    f.finish(patch)
}

/// The account's webhooks, oldest first.
#[utoipa::path(get, path = "/v1/webhooks", tag = "webhooks",
    params(
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)"),
    ),
    responses((status = 200, body = [Webhook], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_webhooks(
    Caller(user): Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let webhooks = state.webhooks.list(user, page).await?;
    Ok(page_response(&req, &query, page, &webhooks))
}

/// Add a webhook. The answer holds its signing `secret`, shown this once. A URL whose host is
/// not on a public address (loopback, private, link-local) is refused.
#[utoipa::path(post, path = "/v1/webhooks", tag = "webhooks",
    request_body = CreateWebhookRequest,
    responses((status = 201, body = CreatedWebhook)))]
pub async fn create_webhook(
    Caller(user): Caller,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let new = read_new_webhook(&body.json()?)?;
    let webhook = state.webhooks.create(user, new).await?;
    Ok(secret(created(&webhook)))
}

/// One webhook.
#[utoipa::path(get, path = "/v1/webhooks/{id}", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Webhook id")),
    responses((status = 200, body = Webhook)))]
pub async fn get_webhook(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.webhooks.get(user, id).await?))
}

/// Change a webhook's URL, events or `active`.
#[utoipa::path(patch, path = "/v1/webhooks/{id}", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Webhook id")), request_body = UpdateWebhookRequest,
    responses((status = 200, body = Webhook)))]
pub async fn update_webhook(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
    body: JsonBody,
) -> ApiResult<HttpResponse> {
    let patch = read_update(&body.json()?)?;
    Ok(HttpResponse::Ok().json(state.webhooks.update(user, id, patch).await?))
}

/// Delete a webhook with its pending deliveries and its log.
#[utoipa::path(delete, path = "/v1/webhooks/{id}", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Webhook id")),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_webhook(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    state.webhooks.delete(user, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The webhook's delivery attempts, newest first: outcome, response status, duration, error.
#[utoipa::path(get, path = "/v1/webhooks/{id}/deliveries", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Webhook id"),
        ("limit" = Option<i64>, Query, description = "Page size (default 50)"),
        ("offset" = Option<i64>, Query, description = "Items to skip (default 0)")),
    responses((status = 200, body = [DeliveryAttempt], headers(("X-Total-Count" = i64), ("Link" = String)))))]
pub async fn list_webhook_deliveries(
    CallerAndId { user, id }: CallerAndId,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query = Query::of(&req)?;
    let page = query.page(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let attempts = state.webhooks.list_attempts(user, id, page).await?;
    Ok(page_response(&req, &query, page, &attempts))
}

/// Send a `ping` event to the webhook now (active or not) and answer with how it went; the
/// attempt joins the deliveries log. Not retried. At most one per webhook per 10 seconds.
#[utoipa::path(post, path = "/v1/webhooks/{id}/test", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Webhook id")),
    responses((status = 200, body = DeliveryAttempt, description = "The attempt, delivered or failed"),
        (status = 429, body = crate::error::ErrorBody, description = "The webhook was sent a test less than 10 s ago; nothing sent",
            headers(("Retry-After" = u64, description = "Whole seconds until the next test may be sent")))))]
pub async fn test_webhook(
    CallerAndId { user, id }: CallerAndId,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.webhooks.test(user, id).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spec::assert_whole;

    #[test]
    fn every_field_of_the_tables_is_read() {
        assert_whole(&WEBHOOK, |body| read_new_webhook(body).map(|_| ()));
        assert_whole(&WEBHOOK, |body| read_update(body).map(|_| ()));
    }
}
