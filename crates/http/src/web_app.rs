//! The web app (`web/`), served from files embedded at build time (see `build.rs`).
//!
//! * Hashed files under `/assets/` are cached for a year (`immutable`); `index.html` is
//!   revalidated every time, so a new release is picked up at once.
//! * Any other `GET` outside the API's prefixes answers `index.html`, so client-side routes
//!   (`/recipes/<id>`) load the app when opened directly. Unknown paths under `/v1` and `/api`
//!   keep the API's JSON `404` (`{"error":"Not found"}`).
//! * Text files are served precompressed (brotli or gzip, by `Accept-Encoding`; `Vary:
//!   Accept-Encoding`), each representation with its own strong `ETag`; a matching
//!   `If-None-Match` gets `304`.
//! * Pages carry a strict Content-Security-Policy: scripts, styles, images and requests only
//!   from this origin, no inline script, no framing.

use actix_web::http::Method;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};

use crate::error::ApiError;

use crate::encoding::{self, Coding};

/// One embedded file.
pub struct Asset {
    pub path: &'static str,
    /// The strong, quoted ETag of `bytes`.
    pub etag: &'static str,
    pub bytes: &'static [u8],
    /// The same file compressed, where that made it smaller.
    pub encoded: &'static [Encoded],
}

/// An asset in one content coding.
pub struct Encoded {
    /// `br` or `gzip`.
    pub coding: &'static str,
    pub etag: &'static str,
    pub bytes: &'static [u8],
}

impl Asset {
    fn codings(&self) -> Vec<Coding> {
        self.encoded
            .iter()
            .filter_map(|e| match e.coding {
                "br" => Some(Coding::Brotli),
                "gzip" => Some(Coding::Gzip),
                _ => None,
            })
            .collect()
    }

    /// The representation for `coding`: (ETag, bytes).
    fn representation(&self, coding: Coding) -> (&'static str, &'static [u8]) {
        coding
            .header()
            .and_then(|name| self.encoded.iter().find(|e| e.coding == name))
            .map_or((self.etag, self.bytes), |e| (e.etag, e.bytes))
    }
}

include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));

/// The policy of every page of the app.
pub const APP_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; \
    frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// Paths that belong to the API and the service, never to the app.
const SERVICE_PREFIXES: &[&str] = &["/v1", "/api", "/docs", "/healthz", "/readyz", "/bench"];

fn is_service_path(path: &str) -> bool {
    SERVICE_PREFIXES.iter().any(|prefix| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("json") => "application/json",
        Some("webmanifest") => "application/manifest+json",
        Some("woff2") => "font/woff2",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn file_response(req: &HttpRequest, asset: &Asset, cache_control: &'static str) -> HttpResponse {
    let coding = encoding::negotiate(req, &asset.codings());
    let (etag, bytes) = asset.representation(coding);
    let not_modified = encoding::none_match(req, etag);
    let mut response = if not_modified {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, etag))
        .insert_header((header::VARY, "Accept-Encoding"))
        .insert_header((header::CACHE_CONTROL, cache_control))
        .insert_header((header::CONTENT_SECURITY_POLICY, APP_CSP));
    if not_modified {
        return response.finish();
    }
    if let Some(name) = coding.header() {
        response.insert_header((header::CONTENT_ENCODING, name));
    }
    response
        .insert_header((header::CONTENT_TYPE, content_type(asset.path)))
        .body(bytes)
}

/// Shown at `/` by a server built without the app.
const NOT_BUILT: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>wort</title></head>
<body><h1>wort</h1>
<p>This server was built without its web app. The API is here: <a href="/docs">/docs</a>,
<a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
<p>To build the app, install Node.js 20 and npm, then run <code>cargo xtask dev</code> (or
<code>npm ci &amp;&amp; npm run build</code> in <code>web/</code> and build wort again).</p>
</body></html>
"#;

/// Everything the route table does not match: an app file, the app itself, or the JSON 404.
pub async fn fallback(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let path = req.path();
    if !matches!(*req.method(), Method::GET | Method::HEAD) || is_service_path(path) {
        return Err(ApiError::NotFound);
    }
    if let Some(asset) = find(path).filter(|a| a.path != "/index.html") {
        let cache = if path.starts_with("/assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        return Ok(file_response(&req, asset, cache));
    }
    // A missing hashed file is a stale page asking for an old release: 404, not the app.
    if path.starts_with("/assets/") {
        return Err(ApiError::NotFound);
    }
    Ok(match find("/index.html") {
        Some(index) => file_response(&req, index, "no-cache"),
        None => HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .insert_header((header::CONTENT_SECURITY_POLICY, APP_CSP))
            .body(NOT_BUILT),
    })
}

/// Headers every response carries. JSON answers get a policy that allows nothing at all, so
/// even a response rendered as a page by mistake can run nothing.
pub fn add_security_headers(headers: &mut actix_web::http::header::HeaderMap) {
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    // Pages (the app, `/docs`) set their own policy; everything else gets the one that allows
    // nothing.
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_prefixes_match_whole_segments() {
        assert!(is_service_path("/v1"));
        assert!(is_service_path("/v1/recipes"));
        assert!(is_service_path("/api/auth/x"));
        assert!(!is_service_path("/v1x"));
        assert!(!is_service_path("/recipes/123"));
        assert!(!is_service_path("/"));
    }
}
