//! Path parameters and query strings: malformed ones are `400`, checked after the credential and
//! before the body.

use std::collections::HashMap;

use actix_web::HttpRequest;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use uuid::Uuid;
use wort_domain::page::PageRequest;

use crate::error::{ApiError, ApiResult};

pub use wort_domain::page::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};

/// The UUID in path segment `name` (case-insensitive, as UUIDs are).
pub fn path_id(req: &HttpRequest, name: &str) -> ApiResult<Uuid> {
    let raw = req.match_info().get(name).unwrap_or_default();
    parse_canonical_uuid(raw).ok_or_else(|| {
        ApiError::bad_request(format!("Invalid path parameter {name}: expected a UUID"))
    })
}

/// Only the canonical 8-4-4-4-12 hyphenated form, in either case: the `uuid` crate also accepts
/// `{…}`, `urn:uuid:…` and 32 bare hex digits, which are not the ids this API hands out.
pub fn parse_canonical_uuid(raw: &str) -> Option<Uuid> {
    let canonical = raw.len() == 36
        && raw.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        });
    canonical.then(|| Uuid::try_parse(raw).ok()).flatten()
}

/// The query string as a map. A parameter is sent once: one sent twice (`?limit=5&limit=6`) is
/// `400`, as its meaning would depend on which copy a reader takes; only the parameters a route
/// documents as repeatable may repeat ([`Query::with_repeatable`]).
pub struct Query(HashMap<String, String>);

impl Query {
    /// The query string; malformed, holding U+0000 (which no stored text can match and
    /// PostgreSQL refuses), or naming a parameter twice, it is `400`.
    pub fn of(req: &HttpRequest) -> ApiResult<Self> {
        Self::with_repeatable(req, &[])
    }

    /// Like [`of`](Self::of), but the parameters in `repeatable` may be sent more than once (the
    /// map keeps the last; the route reads every copy itself).
    pub fn with_repeatable(req: &HttpRequest, repeatable: &[&str]) -> ApiResult<Self> {
        let malformed = || ApiError::bad_request("Malformed query string");
        let pairs = actix_web::web::Query::<Vec<(String, String)>>::from_query(req.query_string())
            .map_err(|_| malformed())?
            .into_inner();
        let mut map = HashMap::with_capacity(pairs.len());
        for (key, value) in pairs {
            if key.contains('\0') || value.contains('\0') {
                return Err(malformed());
            }
            if map.contains_key(&key) && !repeatable.contains(&key.as_str()) {
                let quoted = serde_json::to_string(&key).unwrap_or(key);
                return Err(ApiError::bad_request(format!(
                    "Duplicate query parameter {quoted}: send it once"
                )));
            }
            map.insert(key, value);
        }
        Ok(Query(map))
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// The parameters' names.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    /// `limit` (1–`max`, default `default`) and `offset` (≥ 0, default 0).
    pub fn page(&self, default: i64, max: i64) -> ApiResult<PageRequest> {
        let limit = self.integer("limit", 1, max)?.unwrap_or(default);
        let offset = self.integer("offset", 0, i64::MAX)?.unwrap_or(0);
        Ok(PageRequest { limit, offset })
    }

    pub fn integer(&self, key: &str, min: i64, max: i64) -> ApiResult<Option<i64>> {
        let Some(raw) = self.get(key) else {
            return Ok(None);
        };
        match raw.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(ApiError::bad_request(format!(
                "Invalid query parameter {key}: expected an integer from {min} to {max}"
            ))),
        }
    }

    /// An enum-valued parameter; unknown values are `400`.
    pub fn one_of<T>(
        &self,
        key: &str,
        options: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> ApiResult<Option<T>> {
        let Some(raw) = self.get(key) else {
            return Ok(None);
        };
        parse(raw).map(Some).ok_or_else(|| {
            ApiError::bad_request(format!(
                "Invalid query parameter {key}: expected one of {}",
                options.join(", ")
            ))
        })
    }

    /// `true` or `false`; anything else is `400`.
    pub fn boolean(&self, key: &str) -> ApiResult<Option<bool>> {
        self.one_of(key, &["true", "false"], |s| match s {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        })
    }

    pub fn uuid(&self, key: &str) -> ApiResult<Option<Uuid>> {
        self.one_of(key, &["a UUID"], |s| Uuid::try_parse(s).ok())
    }

    pub fn datetime(&self, key: &str) -> ApiResult<Option<time::OffsetDateTime>> {
        self.one_of(key, &["an RFC 3339 date-time"], parse_datetime)
    }

    /// The query string without `limit`/`offset`, for `Link` headers.
    fn without_paging(&self) -> Vec<(&str, &str)> {
        let mut kept: Vec<(&str, &str)> = self
            .0
            .iter()
            .filter(|(k, _)| k.as_str() != "limit" && k.as_str() != "offset")
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        kept.sort_unstable();
        kept
    }

    /// `Link: <path?…&limit=L&offset=O>; rel="next"` when more items remain after this page.
    pub fn next_link(&self, path: &str, page: PageRequest, total: i64) -> Option<String> {
        let next_offset = page.offset.checked_add(page.limit)?;
        if next_offset >= total {
            return None;
        }
        let mut pairs = self.without_paging();
        let limit = page.limit.to_string();
        let offset = next_offset.to_string();
        pairs.push(("limit", &limit));
        pairs.push(("offset", &offset));
        let query = pairs
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        Some(format!("<{path}?{query}>; rel=\"next\""))
    }
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub fn parse_date(s: &str) -> Option<time::Date> {
    time::Date::parse(s, format_description!("[year]-[month]-[day]")).ok()
}

pub fn parse_datetime(s: &str) -> Option<time::OffsetDateTime> {
    time::OffsetDateTime::parse(s, &Rfc3339)
        .ok()
        .map(wort_domain::timestamp::to_db_precision)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn next_link_keeps_other_parameters() {
        let q = Query(
            [
                ("q".to_string(), "pale ale".to_string()),
                ("limit".into(), "2".into()),
            ]
            .into(),
        );
        let page = PageRequest {
            limit: 2,
            offset: 0,
        };
        assert_eq!(
            q.next_link("/v1/recipes", page, 5).unwrap(),
            "</v1/recipes?q=pale%20ale&limit=2&offset=2>; rel=\"next\""
        );
        assert_eq!(
            q.next_link(
                "/v1/recipes",
                PageRequest {
                    limit: 2,
                    offset: 4
                },
                5
            ),
            None
        );
    }
}

#[cfg(test)]
mod canonical_uuid_tests {
    use super::parse_canonical_uuid;

    #[test]
    fn only_the_hyphenated_form_in_either_case() {
        let id = "0190f0a5-6b1f-7c4e-9b61-0d8f3f1c2a11";
        assert!(parse_canonical_uuid(id).is_some());
        assert!(parse_canonical_uuid(&id.to_uppercase()).is_some());
        for bad in [
            "{0190f0a5-6b1f-7c4e-9b61-0d8f3f1c2a11}",
            "urn:uuid:0190f0a5-6b1f-7c4e-9b61-0d8f3f1c2a11",
            "0190f0a56b1f7c4e9b610d8f3f1c2a11",
            "0190f0a5-6b1f-7c4e-9b61-0d8f3f1c2a1g",
            "",
        ] {
            assert!(parse_canonical_uuid(bad).is_none(), "{bad}");
        }
    }
}
