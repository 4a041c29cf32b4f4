//! Standard Webhooks signing (<https://www.standardwebhooks.com/>): the secret is `whsec_` +
//! base64 of the key bytes; the signature is `v1,` + base64 of HMAC-SHA256(key,
//! `{webhook-id}.{webhook-timestamp}.{body}`).

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::account::credentials::random_bytes;
use crate::{DomainError, DomainResult};

pub const SECRET_PREFIX: &str = "whsec_";

/// A new secret: `whsec_` + base64 of 32 random bytes.
pub fn generate_secret() -> DomainResult<String> {
    Ok(format!(
        "{SECRET_PREFIX}{}",
        BASE64.encode(random_bytes::<32>()?)
    ))
}

/// The `webhook-signature` header's value for one attempt.
pub fn sign(secret: &str, msg_id: &str, timestamp: i64, body: &str) -> DomainResult<String> {
    let key = BASE64
        .decode(secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret))
        .map_err(|e| DomainError::Internal(format!("webhook secret is not base64: {e}")))?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key)
        .map_err(|e| DomainError::Internal(format!("webhook key: {e}")))?;
    mac.update(msg_id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body.as_bytes());
    Ok(format!("v1,{}", BASE64.encode(mac.finalize().into_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The specification's own example (standard-webhooks/standard-webhooks, `spec/` and every
    /// reference library's tests): an implementation other than ours computed this value.
    #[test]
    fn the_specifications_published_example_verifies() {
        let signature = sign(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            r#"{"test": 2432232314}"#,
        );
        assert_eq!(
            signature.ok().as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn secrets_are_32_random_bytes() {
        let a = generate_secret().unwrap_or_default();
        let b = generate_secret().unwrap_or_default();
        assert!(a.starts_with("whsec_") && a != b);
        let key = BASE64
            .decode(a.trim_start_matches("whsec_"))
            .unwrap_or_default();
        assert_eq!(key.len(), 32);
    }
}
