//! Accounts and credentials: users, browser sign-in sessions and API keys.
//!
//! Secrets (passwords, session tokens, API keys) never reach storage in the clear: passwords are
//! stored as argon2id hashes, tokens and keys as SHA-256 digests looked up by equality.

use std::sync::LazyLock;

use argon2::{Algorithm, Argon2, Params, PasswordHash, PasswordHasher, PasswordVerifier, Version};
use serde::Serialize;
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::{DomainError, DomainResult, UserId};

/// Sign-in sessions last this long.
pub const SESSION_LIFETIME: Duration = Duration::days(30);
/// Failed sign-ins allowed within [`SIGN_IN_WINDOW`] before further attempts wait: per email…
pub const MAX_FAILED_SIGN_INS: i32 = 10;
/// …and per client address, so one client cannot spray guesses across many emails.
pub const MAX_FAILED_SIGN_INS_PER_IP: i32 = 100;
pub const SIGN_IN_WINDOW: Duration = Duration::minutes(15);
/// An account holds at most this many API keys.
pub const MAX_API_KEYS: i64 = 100;

/// What failed sign-ins are counted against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInSubject {
    /// A lower-cased email, known or not.
    Email(String),
    /// The client's address.
    Ip(String),
}

impl SignInSubject {
    /// The stored key: `email:<address>` or `ip:<address>`.
    pub fn key(&self) -> String {
        match self {
            SignInSubject::Email(e) => format!("email:{e}"),
            SignInSubject::Ip(ip) => format!("ip:{ip}"),
        }
    }

    pub fn limit(&self) -> i32 {
        match self {
            SignInSubject::Email(_) => MAX_FAILED_SIGN_INS,
            SignInSubject::Ip(_) => MAX_FAILED_SIGN_INS_PER_IP,
        }
    }
}
/// `lastUsedAt` of an API key is refreshed at most this often (it costs a write).
pub const KEY_TOUCH_INTERVAL: Duration = Duration::minutes(1);
/// API keys look like `wort_` + 43 base62 characters (≈ 256 bits).
pub const API_KEY_PREFIX: &str = "wort_";
const API_KEY_RANDOM_CHARS: usize = 43;
/// `start` shown in key lists: enough to recognise a key, far too little to use it.
const API_KEY_START_CHARS: usize = 9;

#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub id: UserId,
    pub email: String,
    pub name: String,
    pub created_at: OffsetDateTime,
}

/// A user as stored, with the password hash: only the sign-in path sees this.
#[derive(Debug, Clone)]
pub struct UserCredentials {
    pub user: User,
    pub password_hash: String,
}

#[derive(Debug, Clone)]
pub struct NewUser {
    pub email: String,
    pub name: String,
    pub password_hash: String,
}

/// A browser sign-in session.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthSession {
    pub id: Uuid,
    pub user_id: UserId,
    pub expires_at: OffsetDateTime,
}

/// An API key as listed: never the key itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiKey {
    pub id: Uuid,
    pub user_id: UserId,
    pub name: String,
    pub start: String,
    pub prefix: String,
    pub enabled: bool,
    pub expires_at: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    pub last_used_at: Option<OffsetDateTime>,
}

/// What the store needs to remember of a new key.
#[derive(Debug, Clone)]
pub struct NewApiKey {
    pub name: String,
    pub start: String,
    pub key_hash: Vec<u8>,
    pub expires_at: Option<OffsetDateTime>,
}

/// A freshly generated key: `secret` is shown to its owner exactly once.
pub struct GeneratedApiKey {
    pub secret: String,
    pub record: NewApiKey,
}

/// Who a request acts for, once its credential has been verified.
#[derive(Debug, Clone, PartialEq)]
pub struct Identity {
    pub user: User,
    pub credential: Credential,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    ApiKey,
    SessionCookie,
}

/// `GET /v1/me`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Me {
    #[schema(format = Uuid)]
    pub id: String,
    pub email: String,
    pub name: String,
}

impl From<&User> for Me {
    fn from(u: &User) -> Self {
        Me {
            id: u.id.0.to_string(),
            email: u.email.clone(),
            name: u.name.clone(),
        }
    }
}

/// SHA-256 of a token or key, the form in which the database stores it.
pub fn digest(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

fn random_bytes<const N: usize>() -> DomainResult<[u8; N]> {
    let mut buf = [0u8; N];
    getrandom::getrandom(&mut buf)
        .map_err(|e| DomainError::Internal(format!("OS randomness: {e}")))?;
    Ok(buf)
}

/// `n` base62 characters from the OS CSPRNG, by rejection sampling (no modulo bias).
fn random_base62(n: usize) -> DomainResult<String> {
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

/// argon2id hash in PHC string form. CPU-heavy: call it off the async workers.
pub fn hash_password(password: &str) -> DomainResult<String> {
    let salt_bytes = random_bytes::<16>()?;
    let salt = argon2::password_hash::SaltString::encode_b64(&salt_bytes)
        .map_err(|e| DomainError::Internal(format!("salt: {e}")))?;
    argon2()?
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
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
}
