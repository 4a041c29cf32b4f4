//! What caches may keep: private answers stay private, secrets are never kept.
//!
//! * An answer to a request that carries a credential (an `X-API-Key` or `Authorization` header,
//!   the session cookie, or a device's token in `/ingest/{token}`) is one account's data:
//!   [`private_answers`] marks it `Cache-Control: private, no-cache`, so no shared cache keeps it
//!   and the browser revalidates it (with its ETag) before reusing it. An answer that says
//!   `no-store` already keeps it; one that says `public` is the same for every visitor (the web
//!   app's hashed files) and keeps its own policy.
//! * An answer that carries a secret (a new API key, a webhook's signing secret, a device's
//!   token, the session and its cookie) is made with [`secret`]: `Cache-Control: no-store`.
//!   `encoding::json_answers` never compresses such an answer: a secret compressed beside text the
//!   client chose is what BREACH-style attacks read back by its length.
//!
//! The header is the marker, not a response extension: it is what a stored answer replayed for an
//! `Idempotency-Key` has to keep for the replay to stay a secret's answer.

use actix_web::HttpResponse;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::middleware::Next;

use crate::credentials::{API_KEY_HEADER, SESSION_COOKIE};

/// The `Cache-Control` of an answer that carries a secret.
pub const NO_STORE: &str = "no-store";
/// The `Cache-Control` of every other answer to a request with a credential.
pub const PRIVATE: &str = "private, no-cache";

/// Marks `response` as carrying a secret: `Cache-Control: no-store`, and never compressed.
pub fn secret(mut response: HttpResponse) -> HttpResponse {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE));
    response
}

/// The headers of every answer under `/shared/` (a recipe shared by link), errors included:
/// never cached, so a revoked link is never outlived by a cache; never indexed; and the token
/// in the URL never sent on as a referrer.
pub fn shared_recipe_headers(headers: &mut HeaderMap) {
    headers.insert(
        header::HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE));
}

/// Whether `headers` hold a `Cache-Control` with the directive `name` (case-insensitive, with or
/// without an argument).
fn has_directive(headers: &HeaderMap, name: &str) -> bool {
    headers
        .get_all(header::CACHE_CONTROL)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|d| d.split('=').next())
        .any(|d| d.trim().eq_ignore_ascii_case(name))
}

/// Whether the answer says `no-store` (a secret's answer, see [`secret`]).
pub fn is_no_store(headers: &HeaderMap) -> bool {
    has_directive(headers, NO_STORE)
}

/// Whether the request carries a credential, valid or not: what matters to a cache is that the
/// answer may be one account's.
fn carries_credential(req: &ServiceRequest) -> bool {
    let headers = req.headers();
    headers.contains_key(API_KEY_HEADER)
        || headers.contains_key(header::AUTHORIZATION)
        || req.path().starts_with("/ingest/")
        || req
            .cookie(SESSION_COOKIE)
            .is_some_and(|c| !c.value().is_empty())
}

/// The answer's `Cache-Control` for a request with a credential: `no-store` and `public` stay,
/// anything else becomes [`PRIVATE`].
fn mark_private(headers: &mut HeaderMap) {
    if has_directive(headers, NO_STORE) || has_directive(headers, "public") {
        return;
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(PRIVATE));
}

/// Marks every answer to a request with a credential private (see the module's documentation).
/// Wraps everything that makes answers (handlers, replays, `304`s, refusals), so none escapes it.
pub async fn private_answers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let credentialed = carries_credential(&req);
    let mut response = next.call(req).await?;
    if credentialed {
        mark_private(response.headers_mut());
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn headers(cache_control: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = cache_control {
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
        }
        headers
    }

    fn marked(cache_control: Option<&'static str>) -> String {
        let mut h = headers(cache_control);
        mark_private(&mut h);
        h.get(header::CACHE_CONTROL)
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn private_replaces_everything_but_no_store_and_public() {
        assert_eq!(marked(None), PRIVATE);
        assert_eq!(marked(Some("no-cache")), PRIVATE);
        assert_eq!(marked(Some("max-age=60")), PRIVATE);
        assert_eq!(marked(Some("no-store")), "no-store");
        assert_eq!(marked(Some("No-Store")), "No-Store");
        assert_eq!(
            marked(Some("public, max-age=31536000, immutable")),
            "public, max-age=31536000, immutable"
        );
    }

    #[test]
    fn a_secret_says_no_store() {
        let response = secret(HttpResponse::Ok().finish());
        assert!(is_no_store(response.headers()));
        assert!(!is_no_store(&headers(Some("private, no-cache"))));
        assert!(!is_no_store(&headers(None)));
    }
}
