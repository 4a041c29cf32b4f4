//! Route handlers, one module per resource, and the route table.

pub mod ai;
pub mod alerts;
pub mod auth;
pub mod bench;
pub mod brew_sessions;
pub mod catalog;
pub mod chats;
pub mod devices;
pub mod equipment;
pub mod health;
pub mod history;
pub mod interchange;
pub mod inventory;
pub mod me;
pub mod mqtt;
pub mod notes;
pub mod recipe_children;
pub mod recipes;
pub mod shared;
pub mod stock;
pub mod styles;
pub mod tools;
pub mod water;
pub mod webhooks;

use actix_web::{HttpResponse, Resource, web};

use crate::error::ApiError;

/// A resource whose other methods get `405` with an `Allow` header listing `allow`.
pub(crate) fn resource(path: &str, allow: &'static str) -> Resource {
    web::resource(path).default_service(web::to(move || async move {
        Err::<HttpResponse, _>(ApiError::MethodNotAllowed { allow })
    }))
}

/// Registers every route: the whole URL space in one place.
///
/// Paths with an id are grouped in scopes by their static prefix. actix tries resources in
/// registration order and matches a path with `{id}` by running its regex, so without scopes a
/// request to a route registered late would run the regex of every earlier dynamic route first
/// (measured in docs/benchmarks-log.md, "Fixed: routing ran up to 30 regexes per request"). A
/// scope's prefix is compared as a string; only the few resources inside a matching scope run a
/// regex. Unknown paths inside a scope still fall through to the app's JSON 404.
pub fn configure(cfg: &mut web::ServiceConfig) {
    // Fixed paths: matched by string comparison.
    health::configure(cfg);
    auth::configure(cfg);
    me::configure(cfg);
    water::configure_calibration(cfg); // /v1/me/water-calibration
    ai::configure(cfg); // /v1/ai/usage, /v1/chat
    devices::configure_ingest(cfg); // /ingest/{token}
    stock::configure_shopping(cfg); // /v1/shopping-list
    brew_sessions::configure_home(cfg); // /v1/home
    shared::configure_public(cfg); // /shared/{token}…, /v1/shared/{token}/copy
    // Paths with ids.
    cfg.service(
        web::scope("/v1/recipes")
            // /export and /import before /{id}, which would take them for (malformed) ids.
            .configure(interchange::configure) // /export, /import, /{id}/export
            .configure(recipes::configure) // "", /{id}, /{id}/copy, /{id}/scale, /{id}/stats
            .configure(history::configure) // /{id}/versions…, /lineage, /diff, /share
            .configure(recipe_children::configure_lists) // /{recipe_id}/fermentables, …
            .configure(ai::configure_analysis) // /{id}/analysis
            .configure(stock::configure_cost) // /{id}/cost
            .configure(water::configure_report), // /{recipe_id}/water
    )
    .configure(recipe_children::configure_items) // /v1/fermentables/{id}, …
    .service(
        web::scope("/v1/sessions")
            .configure(brew_sessions::configure)
            .configure(stock::configure_deduction) // /{id}/inventory-deduction
            .configure(notes::configure_lists), // /{id}/notes
    )
    .service(web::scope("/v1/notes").configure(notes::configure_items))
    .service(web::scope("/v1/steps").configure(brew_sessions::configure_steps))
    .service(web::scope("/v1/fermentation-logs").configure(brew_sessions::configure_logs))
    .service(web::scope("/v1/inventory").configure(inventory::configure))
    .service(web::scope("/v1/catalog").configure(catalog::configure))
    .service(web::scope("/v1/equipment").configure(equipment::configure))
    .service(web::scope("/v1/water-profiles").configure(water::configure))
    .service(web::scope("/v1/styles").configure(styles::configure))
    .service(web::scope("/v1/chats").configure(chats::configure))
    .service(web::scope("/v1/devices").configure(devices::configure))
    .service(web::scope("/v1/webhooks").configure(webhooks::configure))
    .service(web::scope("/v1/alert-rules").configure(alerts::configure_rules))
    .service(web::scope("/v1/alerts").configure(alerts::configure_alerts))
    .service(web::scope("/v1/integrations/mqtt").configure(mqtt::configure))
    .service(web::scope("/v1/tools").configure(tools::configure));
}

/// `201 Created` with a JSON body.
pub(crate) fn created<T: serde::Serialize>(body: &T) -> HttpResponse {
    HttpResponse::Created().json(body)
}

/// A JSON array page with `X-Total-Count` and, when more remain, a `Link` to the next page.
pub(crate) fn page_response<T: serde::Serialize>(
    req: &actix_web::HttpRequest,
    query: &crate::params::Query,
    page: wort_domain::page::PageRequest,
    items: &wort_domain::page::Page<T>,
) -> HttpResponse {
    paged_ok(req, query, page, items.total).json(&items.items)
}

/// [`page_response`] for the longest lists, whose JSON `write` writes by hand (`crate::fast_json`).
pub(crate) fn written_page_response<T>(
    req: &actix_web::HttpRequest,
    query: &crate::params::Query,
    page: wort_domain::page::PageRequest,
    items: &wort_domain::page::Page<T>,
    write: fn(&[T]) -> serde_json::Result<Vec<u8>>,
) -> crate::error::ApiResult<HttpResponse> {
    let body = written(items.items.as_slice(), write)?;
    Ok(paged_ok(req, query, page, items.total)
        .insert_header(actix_web::http::header::ContentType::json())
        .body(body))
}

/// `200` with `value` as JSON that `write` writes by hand (`crate::fast_json`): the same bytes and
/// headers as `HttpResponse::Ok().json(value)`.
pub(crate) fn written_ok<T: ?Sized>(
    value: &T,
    write: fn(&T) -> serde_json::Result<Vec<u8>>,
) -> crate::error::ApiResult<HttpResponse> {
    let body = written(value, write)?;
    Ok(HttpResponse::Ok()
        .insert_header(actix_web::http::header::ContentType::json())
        .body(body))
}

fn written<T: ?Sized>(
    value: &T,
    write: fn(&T) -> serde_json::Result<Vec<u8>>,
) -> crate::error::ApiResult<Vec<u8>> {
    write(value).map_err(|error| {
        tracing::error!(%error, "writing an answer's JSON");
        crate::error::ApiError::Internal
    })
}

/// `200` with a page's `X-Total-Count` and, when more remain, a `Link` to the next page.
pub(crate) fn paged_ok(
    req: &actix_web::HttpRequest,
    query: &crate::params::Query,
    page: wort_domain::page::PageRequest,
    total: i64,
) -> actix_web::HttpResponseBuilder {
    let mut response = HttpResponse::Ok();
    response.insert_header(("X-Total-Count", total.to_string()));
    if let Some(link) = query.next_link(req.path(), page, total) {
        response.insert_header((actix_web::http::header::LINK, link));
    }
    response
}
