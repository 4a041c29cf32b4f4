//! Making and checking secrets: API keys, sign-in tokens and webhook secrets.
//!
//! Secrets never reach storage in the clear: tokens and keys are stored as SHA-256 digests looked
//! up by equality; passwords as argon2id hashes, made by the `PasswordHasher` port's adapter.

use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::model::{GeneratedApiKey, NewApiKey};
use super::rules::{API_KEY_PREFIX, API_KEY_RANDOM_CHARS, API_KEY_START_CHARS};
use crate::{DomainError, DomainResult};

/// SHA-256 of a token or key, the form in which the database stores it.
pub fn digest(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// `N` bytes from the OS CSPRNG.
pub fn random_bytes<const N: usize>() -> DomainResult<[u8; N]> {
    let mut buf = [0u8; N];
    getrandom::getrandom(&mut buf)
        .map_err(|e| DomainError::Internal(format!("OS randomness: {e}")))?;
    Ok(buf)
}

/// `n` base62 characters from the OS CSPRNG, by rejection sampling (no modulo bias).
pub(crate) fn random_base62(n: usize) -> DomainResult<String> {
    const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut out = String::with_capacity(n);
    while out.len() < n {
        for b in random_bytes::<64>()? {
            // 248 = 4 × 62: bytes at or above it would favour the first characters.
            if b < 248
                && out.len() < n
                && let Some(&c) = ALPHABET.get(usize::from(b % 62))
            {
                out.push(char::from(c));
            }
        }
    }
    Ok(out)
}

/// A new random API key and what to store of it.
pub fn generate_api_key(
    name: String,
    expires_at: Option<OffsetDateTime>,
) -> DomainResult<GeneratedApiKey> {
    let secret = format!("{API_KEY_PREFIX}{}", random_base62(API_KEY_RANDOM_CHARS)?);
    let start = secret.chars().take(API_KEY_START_CHARS).collect();
    let record = NewApiKey {
        name,
        start,
        key_hash: digest(&secret),
        expires_at,
    };
    Ok(GeneratedApiKey { secret, record })
}

/// Whether a string has the shape of one of our keys (cheap check before touching the database).
pub fn looks_like_api_key(candidate: &str) -> bool {
    candidate.len() == API_KEY_PREFIX.len() + API_KEY_RANDOM_CHARS
        && candidate.starts_with(API_KEY_PREFIX)
        && candidate[API_KEY_PREFIX.len()..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric())
}

/// A new random 256-bit session token (URL-safe, for the cookie).
pub fn generate_session_token() -> DomainResult<String> {
    random_base62(43)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn api_keys_have_the_documented_shape() {
        let k = generate_api_key("ci".into(), None).unwrap();
        assert_eq!(k.secret.len(), 48);
        assert!(looks_like_api_key(&k.secret));
        assert_eq!(k.record.start, k.secret[..9]);
        assert_eq!(k.record.key_hash, digest(&k.secret));
        assert_ne!(
            k.secret,
            generate_api_key("ci".into(), None).unwrap().secret
        );
        assert!(!looks_like_api_key("wort_short"));
        assert!(!looks_like_api_key(&k.secret.replace("wort_", "wart_")));
    }

    #[test]
    fn digests_are_sha256() {
        // SHA-256("abc"), FIPS 180-2's example.
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let hex: String = digest("abc").iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, expected);
    }
}
