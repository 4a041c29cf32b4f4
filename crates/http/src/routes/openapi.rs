//! `GET /v1/openapi.json` and the interactive docs at `GET /docs` (no credential).

use std::sync::LazyLock;

use actix_web::{HttpResponse, web};

use super::resource;

static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    crate::openapi::document()
        .to_pretty_json()
        .unwrap_or_else(|_| "{}".to_owned())
});

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/v1/openapi.json", "GET").route(web::get().to(openapi_json)))
        .service(resource("/docs", "GET").route(web::get().to(docs)));
}

async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(DOCUMENT.as_str())
}

/// Swagger UI, loaded by the reader's browser, pointed at our document.
async fn docs() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(DOCS_PAGE)
}

const DOCS_PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>wort API</title>
  <link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css">
</head>
<body>
  <div id="ui"><p>Loading the interactive docs… The raw document is at
  <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></div>
  <script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js" crossorigin></script>
  <script>
    window.onload = () => SwaggerUIBundle({ url: "/v1/openapi.json", dom_id: "#ui" });
  </script>
</body>
</html>
"##;
