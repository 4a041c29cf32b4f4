//! wort's HTTP adapter (actix-web).
//!
//! * [`routes`]: handlers per resource and the route table.
//! * [`credentials`]: API key and session-cookie authentication, with the CSRF rule.
//! * [`caller`]: who asks (the credential, checked first) and the path's ids.
//! * [`params`], [`body`]: the query and the body (its bytes, its table of fields, each field's
//!   type checks), read in the API's order of checks (docs/api-rules.md).
//! * [`error`]: every failure mapped to its status and JSON body, in one place.
//! * [`idempotency`]: `Idempotency-Key` on writes under `/v1`: retried, applied once.
//! * [`request_deadline`]: one database deadline per request, pool wait and connect included.
//! * [`encoding`]: brotli/gzip by `Accept-Encoding`, ETags and `304` for JSON answers.
//! * [`caching`]: answers to credentialed requests are private; answers with secrets are
//!   `no-store` and never compressed.
//! * [`middleware`]: request ids, access log, CORS, `HEAD` as `GET`, head limits, the body read
//!   deadline.
//! * [`openapi`]: the generated OpenAPI 3.1 document; [`docs`] serves it and the interactive
//!   docs. Routes never refer to the document, the document refers to the routes.
//! * [`sse`]: the server-sent events of a streamed chat turn.
//! * [`web_app`]: the embedded web app, its SPA fallback, and the security headers.

pub mod body;
pub mod caching;
pub mod caller;
pub mod client_address;
pub mod connections;
pub mod credentials;
pub mod docs;
pub mod encoding;
pub mod error;
pub mod fast_json;
pub mod idempotency;
pub mod metrics;
pub mod middleware;
pub mod openapi;
pub mod params;
pub mod request_deadline;
pub mod routes;
pub mod sse;
pub mod state;
pub mod web_app;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::from_fn;
use actix_web::{App, web};

pub use state::{AppState, Origins};

/// The whole application: routes, JSON 404s, CORS, request ids and access logs, and the limits
/// on request heads and body reads.
pub fn app(
    state: web::Data<AppState>,
    body_read_timeout: middleware::BodyReadTimeout,
    db_deadline: request_deadline::DbDeadline,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    // The last `wrap` runs first: the access log and request id see every answer, the 431 of an
    // oversized head included; `HEAD` is turned into `GET` just before routing.
    App::new()
        .app_data(state)
        .app_data(web::Data::new(body_read_timeout))
        .app_data(web::Data::new(db_deadline))
        .configure(docs::configure)
        .configure(routes::configure)
        .default_service(web::to(web_app::fallback))
        // Innermost: the handler's own `503` for a write says it may have been applied.
        .wrap(from_fn(request_deadline::writes_may_be_applied))
        // Its body read keeps the read deadline; replays get CORS, ids and the log.
        .wrap(from_fn(idempotency::idempotency))
        // Outside the replay store (it keeps the plain body), inside `HEAD`-as-`GET`.
        .wrap(from_fn(encoding::json_answers))
        .wrap(from_fn(middleware::head_as_get))
        .wrap(from_fn(middleware::body_deadline))
        .wrap(from_fn(middleware::head_limits))
        .wrap(from_fn(middleware::cors))
        // Outside everything that makes an answer (handlers, replays, 304s, the 431), so every
        // answer to a credentialed request is marked private.
        .wrap(from_fn(caching::private_answers))
        .wrap(from_fn(middleware::request_id_and_log))
        // Outermost: one deadline for everything inside, the key's transaction included (running
        // out of time drops it, and PostgreSQL rolls it back).
        .wrap(from_fn(request_deadline::request_deadline))
}
