//! `GET /v1/openapi.json` and the interactive docs at `GET /docs` (no credential).
//!
//! The docs page is Swagger UI served by wort itself from vendored files
//! (`crates/http/assets/swagger-ui/`, Apache-2.0): it works offline, and no script from another
//! origin ever runs on the service's own origin, where it could make signed-in requests.

use std::sync::LazyLock;

use actix_web::http::header;
use actix_web::{HttpResponse, web};

use crate::routes::resource;

static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    crate::openapi::document()
        .to_pretty_json()
        .unwrap_or_else(|_| "{}".to_owned())
});

/// The docs page's policy: its own scripts and styles only. Swagger UI sets `style` attributes
/// from script, hence `'unsafe-inline'` for styles (never for scripts).
pub const DOCS_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; \
     base-uri 'none'; form-action 'self'";

const BUNDLE: &[u8] = include_bytes!("../assets/swagger-ui/swagger-ui-bundle.js");
const STYLES: &[u8] = include_bytes!("../assets/swagger-ui/swagger-ui.css");
/// Starts Swagger UI on our document (a file, not an inline script, so the policy needs no
/// `'unsafe-inline'` for scripts).
const INIT: &str = r##"window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({ url: "/v1/openapi.json", dom_id: "#ui" });
});
"##;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/v1/openapi.json", "GET").route(web::get().to(openapi_json)))
        .service(resource("/docs", "GET").route(web::get().to(docs)))
        .service(resource("/docs/swagger-ui-bundle.js", "GET").route(web::get().to(bundle)))
        .service(resource("/docs/swagger-ui.css", "GET").route(web::get().to(styles)))
        .service(resource("/docs/init.js", "GET").route(web::get().to(init)));
}

async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(DOCUMENT.as_str())
}

/// Swagger UI, pointed at our document.
async fn docs() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_SECURITY_POLICY, DOCS_CSP))
        .body(DOCS_PAGE)
}

/// The vendored files change only with a new wort, which may bring a new Swagger UI: cached
/// for a day, then revalidated.
fn asset(content_type: &'static str, body: &'static [u8]) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .insert_header((header::CONTENT_SECURITY_POLICY, DOCS_CSP))
        .body(body)
}

async fn bundle() -> HttpResponse {
    asset("text/javascript; charset=utf-8", BUNDLE)
}

async fn styles() -> HttpResponse {
    asset("text/css; charset=utf-8", STYLES)
}

async fn init() -> HttpResponse {
    asset("text/javascript; charset=utf-8", INIT.as_bytes())
}

const DOCS_PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>wort API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="ui"><p>Loading the interactive docs… The raw document is at
  <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
"##;
