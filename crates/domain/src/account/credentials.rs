//! Making and checking secrets: API keys, sign-in tokens and password hashes.
//!
//! Secrets never reach storage in the clear: passwords are stored as argon2id hashes, tokens and
//! keys as SHA-256 digests looked up by equality.

use std::sync::LazyLock;

use argon2::{Algorithm, Argon2, Params, PasswordHash, PasswordHasher, PasswordVerifier, Version};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::model::{GeneratedApiKey, NewApiKey};
use super::rules::{API_KEY_PREFIX, API_KEY_RANDOM_CHARS, API_KEY_START_CHARS};
use crate::{DomainError, DomainResult};

/// SHA-256 of a token or key, the form in which the database stores it.
pub fn digest(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

pub(crate) fn random_bytes<const N: usize>() -> DomainResult<[u8; N]> {
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

fn argon2() -> DomainResult<Argon2<'static>> {
    // OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane.
    let params = Params::new(19 * 1024, 2, 1, None)
        .map_err(|e| DomainError::Internal(format!("argon2 params: {e}")))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// argon2id hash in PHC string form, with a 16-byte salt from the OS. CPU-heavy: call it off the
/// async workers.
pub fn hash_password(password: &str) -> DomainResult<String> {
    let salt = random_bytes::<16>()?;
    argon2()?
        .hash_password_with_salt(password.as_bytes(), &salt)
        .map(|h: PasswordHash| h.to_string())
        .map_err(|e| DomainError::Internal(format!("hash: {e}")))
}

/// Checks a password against a stored hash. CPU-heavy: call it off the async workers.
pub fn verify_password(stored_hash: &str, password: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored_hash) else {
        return false;
    };
    argon2()
        .map(|a| a.verify_password(password.as_bytes(), &parsed).is_ok())
        .unwrap_or(false)
}

/// Verifies against a throw-away hash so an unknown email costs as much time as a known one.
pub fn verify_dummy_password(password: &str) {
    static DUMMY: LazyLock<String> =
        LazyLock::new(|| hash_password("not a real password").unwrap_or_default());
    let _ = verify_password(&DUMMY, password);
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
    fn passwords_verify_only_with_the_right_password() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify_password(&h, "correct horse"));
        assert!(!verify_password(&h, "wrong horse"));
        assert!(!verify_password("garbage", "correct horse"));
    }

    #[test]
    fn hashes_stored_before_the_argon2_upgrade_still_verify() {
        // Made by wort with argon2 0.5 (password "correct horse battery"); 0.6 must read it.
        let stored = "$argon2id$v=19$m=19456,t=2,p=1$9YNNVuUDlaNOfyhY/ASSkg$\
                      K17W+xEheB6SGIVOzROTWjxd0X/xdxNO16hpvMbQYwo";
        assert!(verify_password(stored, "correct horse battery"));
        assert!(!verify_password(stored, "correct horse"));
    }

    #[test]
    fn digests_are_sha256() {
        // SHA-256("abc"), FIPS 180-2's example.
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let hex: String = digest("abc").iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, expected);
    }
}
