//! Reading a request body, all of it in this module:
//!
//! 1. this file: the bytes, read up to the size cap, checked for content type and JSON syntax
//!    ([`JsonBody`]);
//! 2. [`spec`]: the body's table of fields (name, JSON type, required on create, nullable,
//!    default), which the handler's [`spec::Reader`] walks and the OpenAPI document describes;
//! 3. [`fields`]: each field's type checks, every failure collected into one `422` with the
//!    domain's bounds.
//!
//!
//! The extractor never fails by itself: it only records what it found, and the handler asks for
//! the body after the credential and the path have been checked, so errors come in the
//! API's order of checks (docs/api-rules.md: 401, then 400 for the path, then 413/400/422 for
//! the body).
//!
//! Every read stops at the body read deadline (`middleware::body_deadline`): a body still
//! arriving then is `408`.
//!
//! A JSON body has one meaning: an object that names a member twice (`{"name":"a","name":"b"}`,
//! at any depth) is `400` naming the member ([`parse_json`]), where a plain parse would keep the
//! last one and a proxy or another parser in front of wort might have acted on the first.

pub mod fields;
pub mod spec;

use std::cell::RefCell;
use std::fmt;
use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest};
use futures_util::StreamExt;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value, map::Entry};

use crate::error::{ApiError, ApiResult};

/// Bodies above this are `413`.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

pub enum JsonBody {
    Read {
        content_type_ok: bool,
        bytes: Vec<u8>,
    },
    TooLarge,
    /// The body read deadline passed before the body was complete.
    TimedOut,
    Failed(String),
}

impl JsonBody {
    /// The body as JSON: `413` over the cap, `400` without a JSON content type or with bad JSON.
    pub fn json(&self) -> ApiResult<Value> {
        self.optional_json()?
            .ok_or_else(|| ApiError::bad_request("Request body is required"))
    }

    /// Like [`json`](Self::json), but an empty body is `None` (endpoints whose body is optional).
    /// Only a body of zero bytes is absent: whitespace alone is not a JSON document, so it is `400`
    /// like any other malformed body (the fuzzing run sends a lone tab and expects the refusal).
    pub fn optional_json(&self) -> ApiResult<Option<Value>> {
        match self {
            JsonBody::TooLarge => Err(ApiError::PayloadTooLarge),
            JsonBody::TimedOut => Err(ApiError::BodyTimeout),
            JsonBody::Failed(e) => Err(ApiError::bad_request(format!("Could not read body: {e}"))),
            JsonBody::Read { bytes, .. } if bytes.is_empty() => Ok(None),
            JsonBody::Read {
                content_type_ok: false,
                ..
            } => Err(ApiError::bad_request(
                "Content-Type must be application/json",
            )),
            JsonBody::Read { bytes, .. } => parse_json(bytes).map(Some),
        }
    }
}

/// A JSON document: `400` when it is malformed, or when an object in it names a member twice.
/// One pass, as fast as `serde_json::from_slice` into a `Value` (it builds the same tree, and
/// notices a repeated name when inserting it).
pub fn parse_json(bytes: &[u8]) -> ApiResult<Value> {
    let duplicate = RefCell::new(None);
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let parsed = UniqueMembers(&duplicate)
        .deserialize(&mut reader)
        .and_then(|value| reader.end().map(|()| value));
    match (parsed, duplicate.into_inner()) {
        (_, Some(name)) => {
            let quoted = serde_json::to_string(&name).unwrap_or(name);
            Err(ApiError::bad_request(format!(
                "Duplicate member {quoted} in the JSON body"
            )))
        }
        (Ok(value), None) => Ok(value),
        (Err(e), None) => Err(ApiError::bad_request(format!("Malformed JSON: {e}"))),
    }
}

/// Reads a JSON value like `Value`'s own `Deserialize`, but stops at the first object member
/// whose name the object already has, and records that name.
#[derive(Clone, Copy)]
struct UniqueMembers<'a>(&'a RefCell<Option<String>>);

impl<'de> DeserializeSeed<'de> for UniqueMembers<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueMembers<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        // As `Value` does: the parser never hands over a non-finite number.
        Ok(serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(name) = members.next_key::<String>()? {
            let value = members.next_value_seed(self)?;
            match object.entry(name) {
                Entry::Vacant(slot) => {
                    slot.insert(value);
                }
                Entry::Occupied(slot) => {
                    *self.0.borrow_mut() = Some(slot.key().clone());
                    return Err(de::Error::custom("duplicate member"));
                }
            }
        }
        Ok(Value::Object(object))
    }
}

fn is_json_content_type(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

impl JsonBody {
    /// Reads a body with its own size cap (`POST /v1/chat` has a smaller one than the rest).
    pub fn read(
        req: &HttpRequest,
        payload: Payload,
        max_bytes: usize,
    ) -> impl Future<Output = JsonBody> + 'static {
        let content_type_ok = is_json_content_type(req);
        let raw = RawBody::read(req, payload, max_bytes);
        async move {
            match raw.await {
                RawBody::Read(bytes) => JsonBody::Read {
                    content_type_ok,
                    bytes,
                },
                RawBody::TooLarge => JsonBody::TooLarge,
                RawBody::TimedOut => JsonBody::TimedOut,
                RawBody::Failed(e) => JsonBody::Failed(e),
            }
        }
    }
}

/// A body as bytes, read up to a cap; the caller checks its content type (an imported file may
/// be XML or JSON).
pub enum RawBody {
    Read(Vec<u8>),
    TooLarge,
    /// The body read deadline passed before the body was complete.
    TimedOut,
    Failed(String),
}

impl RawBody {
    /// Reads the body, stopping as soon as it passes `max_bytes` (or declares it will).
    pub fn read(
        req: &HttpRequest,
        mut payload: Payload,
        max_bytes: usize,
    ) -> impl Future<Output = RawBody> + 'static {
        let declared_len = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        async move {
            if declared_len.is_some_and(|n| n > max_bytes) {
                return RawBody::TooLarge;
            }
            let mut bytes = Vec::with_capacity(declared_len.unwrap_or(0).min(max_bytes));
            while let Some(chunk) = payload.next().await {
                match chunk {
                    Ok(chunk) if bytes.len() + chunk.len() > max_bytes => {
                        return RawBody::TooLarge;
                    }
                    Ok(chunk) => bytes.extend_from_slice(&chunk),
                    Err(e) if crate::middleware::is_body_timeout(&e) => return RawBody::TimedOut,
                    Err(e) => return RawBody::Failed(e.to_string()),
                }
            }
            RawBody::Read(bytes)
        }
    }

    /// The bytes: `413` over the cap, `408` past the deadline, `400` when the body could not be
    /// read.
    pub fn bytes(self) -> ApiResult<Vec<u8>> {
        match self {
            RawBody::Read(bytes) => Ok(bytes),
            RawBody::TooLarge => Err(ApiError::PayloadTooLarge),
            RawBody::TimedOut => Err(ApiError::BodyTimeout),
            RawBody::Failed(e) => Err(ApiError::bad_request(format!("Could not read body: {e}"))),
        }
    }
}

impl FromRequest for JsonBody {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = JsonBody::read(req, payload.take(), MAX_BODY_BYTES);
        Box::pin(async move { Ok(body.await) })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn message(body: &str) -> String {
        match parse_json(body.as_bytes()) {
            Err(ApiError::BadRequest(m)) => m,
            other => panic!("{body}: {other:?}"),
        }
    }

    #[test]
    fn a_member_named_twice_is_refused_at_any_depth() {
        assert_eq!(
            message(r#"{"name":"a","name":"b"}"#),
            r#"Duplicate member "name" in the JSON body"#
        );
        assert_eq!(
            message(r#"{"a":[{"x":1},{"y":{"z":1,"z":2}}]}"#),
            r#"Duplicate member "z" in the JSON body"#
        );
        // The same name once per object is fine, and escapes name the same member.
        assert_eq!(
            parse_json(br#"{"a":{"n":1},"b":{"n":2}}"#).unwrap(),
            serde_json::json!({"a":{"n":1},"b":{"n":2}})
        );
        assert_eq!(
            message(r#"{"n\u0061me":1,"name":2}"#),
            r#"Duplicate member "name" in the JSON body"#
        );
    }

    #[test]
    fn it_reads_what_serde_json_reads() {
        let body = r#"{"s":"\u00e9","i":-3,"u":18446744073709551615,"f":100.00000000000001,
            "b":true,"n":null,"a":[1,[2,{}]],"o":{}}"#;
        assert_eq!(
            parse_json(body.as_bytes()).unwrap(),
            serde_json::from_str::<Value>(body).unwrap()
        );
        assert!(message("{\"a\":1} x").starts_with("Malformed JSON: trailing characters"));
        assert!(message("{\"a\":").starts_with("Malformed JSON: EOF"));
        assert!(message("\t").starts_with("Malformed JSON"));
    }
}
