//! Route handlers, one module per resource, and the route table.

pub mod ai;
pub mod auth;
pub mod bench;
pub mod chats;
pub mod health;
pub mod ingredients;
pub mod inventory;
pub mod me;
pub mod openapi;
pub mod recipes;
pub mod sessions;

use actix_web::{HttpResponse, Resource, web};

use crate::error::ApiError;

/// A resource whose other methods get `405` with an `Allow` header listing `allow`.
pub(crate) fn resource(path: &str, allow: &'static str) -> Resource {
    web::resource(path).default_service(web::to(move || async move {
        Err::<HttpResponse, _>(ApiError::MethodNotAllowed { allow })
    }))
}

/// Unknown paths: `404 {"error":"Not found"}`, before any credential check.
pub(crate) async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound)
}

/// Registers every route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    health::configure(cfg);
    openapi::configure(cfg);
    auth::configure(cfg);
    me::configure(cfg);
    recipes::configure(cfg);
    ingredients::configure(cfg);
    inventory::configure(cfg);
    ai::configure(cfg);
    chats::configure(cfg);
    sessions::configure(cfg);
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
    let mut response = HttpResponse::Ok();
    response.insert_header(("X-Total-Count", items.total.to_string()));
    if let Some(link) = query.next_link(req.path(), page, items.total) {
        response.insert_header((actix_web::http::header::LINK, link));
    }
    response.json(&items.items)
}
