//! Fewer bytes on the wire: content codings chosen by `Accept-Encoding`, entity tags and `304`.
//!
//! * [`negotiate`] picks brotli, gzip or identity by the request's `Accept-Encoding` (q-values
//!   honoured; without the header, identity).
//! * [`none_match`] is `If-None-Match`'s weak comparison (RFC 9110 §13.1.2).
//! * [`json_answers`] tags every `GET` JSON answer with a weak ETag (a hash of its body), answers
//!   a matching `If-None-Match` with `304`, and compresses JSON bodies over [`MIN_COMPRESSED`]
//!   for clients that accept it. The web app's files come precompressed (`web_app`); streamed
//!   answers (the chat turn's events) are never buffered or compressed; an answer that carries a
//!   secret (`Cache-Control: no-store`, `caching::secret`) is neither tagged nor compressed.

use std::hash::Hasher as _;
use std::io::Write as _;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, AcceptEncoding, Encoding, Header as _, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpResponse, web};

/// A content coding wort can send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Brotli,
    Gzip,
    Identity,
}

impl Coding {
    /// The `Content-Encoding` value; `None` for identity.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Coding::Brotli => Some("br"),
            Coding::Gzip => Some("gzip"),
            Coding::Identity => None,
        }
    }

    fn encoding(self) -> Encoding {
        match self {
            Coding::Brotli => Encoding::brotli(),
            Coding::Gzip => Encoding::gzip(),
            Coding::Identity => Encoding::identity(),
        }
    }
}

/// The coding to send, among `offered` (identity is always possible): the client's preference by
/// q-value, brotli before gzip at equal q. A header that cannot be read, or one that refuses
/// everything offered, gets identity: an answer it may not like beats none.
pub fn negotiate(req: &impl HttpMessage, offered: &[Coding]) -> Coding {
    let Ok(accept) = AcceptEncoding::parse(req) else {
        return Coding::Identity;
    };
    let supported: Vec<Encoding> = offered
        .iter()
        .copied()
        .chain([Coding::Identity])
        .map(Coding::encoding)
        .collect();
    match accept.negotiate(supported.iter()) {
        Some(e) if e == Encoding::brotli() => Coding::Brotli,
        Some(e) if e == Encoding::gzip() => Coding::Gzip,
        _ => Coding::Identity,
    }
}

/// Whether the request's `If-None-Match` matches `etag` (a quoted tag, weak or strong) by weak
/// comparison: `*`, or any listed tag with the same opaque value.
pub fn none_match(req: &impl HttpMessage, etag: &str) -> bool {
    let ours = etag.strip_prefix("W/").unwrap_or(etag);
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == ours)
}

/// A quoted tag of `bytes`: 16 hex digits of a fixed-seed 64-bit hash. Fast (it runs on every
/// JSON answer) rather than collision-resistant: a collision could only make one client keep
/// its own older copy of its own resource.
pub fn body_tag(bytes: &[u8]) -> String {
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(bytes);
    hasher.write_usize(bytes.len());
    format!("\"{:016x}\"", hasher.finish())
}

/// JSON bodies at or below this many bytes go out as they are: compressing them saves less
/// than it costs.
pub const MIN_COMPRESSED: usize = 1024;

/// Bodies above this are compressed off the event loop.
const COMPRESS_INLINE_MAX: usize = 64 * 1024;

/// Brotli quality for answers made per request: level 4 compresses JSON nearly as well as the
/// top levels at a fraction of their time.
const BROTLI_QUALITY: i32 = 4;

fn compress(coding: Coding, bytes: &[u8]) -> Option<Vec<u8>> {
    match coding {
        Coding::Brotli => {
            let mut out = Vec::with_capacity(bytes.len() / 4);
            let params = brotli::enc::BrotliEncoderParams {
                quality: BROTLI_QUALITY,
                lgwin: 22,
                ..Default::default()
            };
            brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).ok()?;
            Some(out)
        }
        Coding::Gzip => {
            let mut encoder = flate2::write::GzEncoder::new(
                Vec::with_capacity(bytes.len() / 4),
                flate2::Compression::new(6),
            );
            encoder.write_all(bytes).ok()?;
            encoder.finish().ok()
        }
        Coding::Identity => None,
    }
}

fn is_json(response: &HttpResponse<BoxBody>) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| {
            let t = t.trim();
            t.eq_ignore_ascii_case("application/json") || t.ends_with("+json")
        })
}

/// ETags, `304` and compression for JSON answers (see the module's documentation). Runs inside
/// `HEAD`-as-`GET`, so a `HEAD` gets the same headers as its `GET`, and inside the access log,
/// which adds the security headers to every answer, `304`s included.
pub async fn json_answers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let response = next.call(req).await?.map_into_boxed_body();
    let (request, response) = response.into_parts();
    // A secret is never compressed (the length of a compressed secret beside text an attacker
    // chose gives the secret away), and an entity tag of a `no-store` answer has nothing to
    // revalidate.
    if !is_json(&response)
        || response.headers().contains_key(header::CONTENT_ENCODING)
        || crate::caching::is_no_store(response.headers())
    {
        return Ok(ServiceResponse::new(request, response));
    }
    let (mut head, body) = response.into_parts();
    // Only whole bodies: a stream is passed on untouched.
    let bytes = match body.try_into_bytes() {
        Ok(bytes) => bytes,
        Err(body) => return Ok(ServiceResponse::new(request, head.set_body(body))),
    };
    let conditional = request.method() == Method::GET && head.status() == StatusCode::OK;
    if conditional {
        let tag = format!("W/{}", body_tag(&bytes));
        if none_match(&request, &tag) {
            let mut not_modified = HttpResponse::NotModified().finish();
            for (name, value) in head.headers() {
                if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
                    not_modified
                        .headers_mut()
                        .append(name.clone(), value.clone());
                }
            }
            set_tag(not_modified.headers_mut(), &tag);
            not_modified
                .headers_mut()
                .append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
            return Ok(ServiceResponse::new(request, not_modified));
        }
        set_tag(head.headers_mut(), &tag);
    }
    let coding = if bytes.len() > MIN_COMPRESSED {
        negotiate(&request, &[Coding::Brotli, Coding::Gzip])
    } else {
        Coding::Identity
    };
    if conditional || coding != Coding::Identity {
        head.headers_mut()
            .append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    let Some(name) = coding.header() else {
        return Ok(ServiceResponse::new(
            request,
            head.set_body(bytes).map_into_boxed_body(),
        ));
    };
    let packed = if bytes.len() > COMPRESS_INLINE_MAX {
        let whole = bytes.clone();
        web::block(move || compress(coding, &whole))
            .await
            .ok()
            .flatten()
    } else {
        compress(coding, &bytes)
    };
    let body = match packed {
        Some(packed) => {
            head.headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static(name));
            Bytes::from(packed)
        }
        None => bytes,
    };
    Ok(ServiceResponse::new(
        request,
        head.set_body(body).map_into_boxed_body(),
    ))
}

fn set_tag(headers: &mut header::HeaderMap, tag: &str) {
    if let Ok(value) = HeaderValue::from_str(tag) {
        headers.insert(header::ETAG, value);
    }
}

#[cfg(test)]
mod tests {
    use actix_web::middleware::from_fn;
    use actix_web::test::{self, TestRequest};
    use actix_web::{App, web};

    use super::*;

    /// A JSON answer far past [`MIN_COMPRESSED`], plain or marked as a secret.
    async fn big_answer(secret: bool) -> HttpResponse {
        let response = HttpResponse::Ok().json(serde_json::json!({"key": "k".repeat(8 * 1024)}));
        if secret {
            crate::caching::secret(response)
        } else {
            response
        }
    }

    #[actix_web::test]
    async fn a_secret_is_never_compressed_or_tagged() {
        let app = test::init_service(
            App::new()
                .route("/plain", web::get().to(|| big_answer(false)))
                .route("/secret", web::get().to(|| big_answer(true)))
                .wrap(from_fn(json_answers)),
        )
        .await;
        let get = |path: &'static str| {
            TestRequest::get()
                .uri(path)
                .insert_header((header::ACCEPT_ENCODING, "gzip, br"))
                .to_request()
        };
        let plain = test::call_service(&app, get("/plain")).await;
        assert_eq!(
            plain.headers().get(header::CONTENT_ENCODING),
            Some(&HeaderValue::from_static("br"))
        );
        let secret = test::call_service(&app, get("/secret")).await;
        assert_eq!(secret.status(), StatusCode::OK);
        assert!(!secret.headers().contains_key(header::CONTENT_ENCODING));
        assert!(!secret.headers().contains_key(header::ETAG));
        assert_eq!(
            secret.headers().get(header::CACHE_CONTROL),
            Some(&HeaderValue::from_static("no-store"))
        );
    }

    fn choice(accept: Option<&str>) -> Coding {
        let mut req = TestRequest::default();
        if let Some(a) = accept {
            req = req.insert_header((header::ACCEPT_ENCODING, a));
        }
        negotiate(&req.to_http_request(), &[Coding::Brotli, Coding::Gzip])
    }

    #[test]
    fn negotiation_follows_q_values() {
        assert_eq!(choice(None), Coding::Identity);
        assert_eq!(choice(Some("gzip, deflate, br")), Coding::Brotli);
        assert_eq!(choice(Some("gzip")), Coding::Gzip);
        assert_eq!(choice(Some("br;q=0.5, gzip;q=0.8")), Coding::Gzip);
        assert_eq!(choice(Some("br;q=0, gzip;q=0")), Coding::Identity);
        assert_eq!(choice(Some("identity")), Coding::Identity);
        // actix reads a bare `*` as "nothing in particular": identity, the safe answer.
        assert_eq!(choice(Some("*")), Coding::Identity);
        assert_eq!(choice(Some("deflate")), Coding::Identity);
    }

    #[test]
    fn if_none_match_compares_weakly() {
        let req = |v: &str| {
            TestRequest::default()
                .insert_header((header::IF_NONE_MATCH, v))
                .to_http_request()
        };
        assert!(none_match(&req("\"abc\""), "\"abc\""));
        assert!(none_match(&req("W/\"abc\""), "\"abc\""));
        assert!(none_match(&req("\"x\", W/\"abc\""), "W/\"abc\""));
        assert!(none_match(&req("*"), "\"abc\""));
        assert!(!none_match(&req("\"abd\""), "\"abc\""));
        assert!(!none_match(
            &TestRequest::default().to_http_request(),
            "\"abc\""
        ));
    }
}
