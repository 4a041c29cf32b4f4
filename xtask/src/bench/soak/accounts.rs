//! The clients' accounts: one per client, signed up with an API key and seeded with the rows it
//! writes under.

use std::net::SocketAddr;
use std::time::Duration;

use crate::bench::load::{Connection, Request};

use super::PASSWORD;
use super::http::exchange_close;

/// One client's account and the rows it writes under.
pub(super) struct Setup {
    pub(super) key: String,
    pub(super) recipe: String,
    pub(super) session: String,
    pub(super) item: String,
}

impl Setup {
    /// Accounts 0 to `n` − 1, created at once.
    pub(super) fn create_all(addr: SocketAddr, n: usize) -> Result<Vec<Setup>, String> {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..n)
                .map(|i| scope.spawn(move || Setup::create(addr, i)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().map_err(|_| "a setup thread panicked".to_owned())?)
                .collect()
        })
    }

    pub(super) fn create(addr: SocketAddr, i: usize) -> Result<Setup, String> {
        let key = api_key(addr, i)?;
        let mut connection = Connection::new(addr);
        let mut post = |path: &str, body: String| -> Result<String, String> {
            let request = Request {
                method: "POST",
                path: path.to_owned(),
                api_key: Some(key.clone()),
                body: Some(body),
            };
            let response = connection
                .send(&request.to_bytes(addr))
                .map_err(|e| format!("POST {path}: {e}"))?;
            let body = String::from_utf8_lossy(&response.body).into_owned();
            if (200..300).contains(&response.status) {
                json_string_field(&body, "id").ok_or_else(|| format!("POST {path}: no id: {body}"))
            } else {
                Err(format!("POST {path}: {} {body}", response.status))
            }
        };
        let recipe = post(
            "/v1/recipes",
            format!(r#"{{"name":"Soak IPA {i}","style":"American IPA","batch_size_liters":23}}"#),
        )?;
        let session = post(
            "/v1/sessions",
            format!(r#"{{"recipe_id":"{recipe}","brew_date":"2026-11-28"}}"#),
        )?;
        let item = post(
            "/v1/inventory",
            format!(r#"{{"category":"fermentable","name":"Soak malt {i}","amount":0}}"#),
        )?;
        Ok(Setup {
            key,
            recipe,
            session,
            item,
        })
    }
}

/// Signs up `soak-<i>@example.com` and creates an API key with the session cookie.
pub(super) fn api_key(addr: SocketAddr, i: usize) -> Result<String, String> {
    let timeout = Duration::from_secs(30);
    let body =
        format!(r#"{{"name":"Soak {i}","email":"soak-{i}@example.com","password":"{PASSWORD}"}}"#);
    let sign_up = exchange_close(
        addr,
        "POST",
        "/api/auth/sign-up/email",
        &[],
        Some(&body),
        timeout,
    )
    .map_err(|e| format!("sign-up: {e}"))?;
    if sign_up.status != 200 {
        return Err(format!("sign-up: {} {}", sign_up.status, sign_up.body));
    }
    let cookie = sign_up
        .headers
        .iter()
        .filter(|(name, _)| name == "set-cookie")
        .filter_map(|(_, value)| value.split(';').next())
        .find(|pair| pair.starts_with("wort_session="))
        .ok_or("sign-up set no wort_session cookie")?
        .to_owned();
    let origin = format!("http://{addr}");
    let created = exchange_close(
        addr,
        "POST",
        "/api/auth/api-key/create",
        &[("Cookie", &cookie), ("Origin", &origin)],
        Some(r#"{"name":"soak"}"#),
        timeout,
    )
    .map_err(|e| format!("api-key create: {e}"))?;
    if created.status != 200 {
        return Err(format!(
            "api-key create: {} {}",
            created.status, created.body
        ));
    }
    json_string_field(&created.body, "key").ok_or_else(|| "api-key create: no key".to_owned())
}

/// The value of `"name":"…"` in JSON whose strings need no unescaping (ids, keys).
pub(super) fn json_string_field(json: &str, name: &str) -> Option<String> {
    let start = json.find(&format!("\"{name}\":\""))? + name.len() + 4;
    let rest = json.get(start..)?;
    let end = rest.find('"')?;
    Some(rest.get(..end)?.to_owned())
}

/// The number after `"name":` in JSON.
pub(super) fn json_number_field(json: &str, name: &str) -> Option<f64> {
    let start = json.find(&format!("\"{name}\":"))? + name.len() + 3;
    let rest = json.get(start..)?;
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest.get(..end)?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn fields_and_numbers() {
        let body = r#"{"id":"abc","amount":12.5,"name":"x"}"#;
        assert_eq!(json_string_field(body, "id").unwrap(), "abc");
        assert_eq!(json_number_field(body, "amount").unwrap(), 12.5);
        assert_eq!(json_number_field(r#"{"amount":3}"#, "amount").unwrap(), 3.0);
    }
}
