//! The account's bounds and limits (sign-up, sign-in, API keys, display preferences), and the
//! violations they produce.

use time::{Duration, OffsetDateTime};

use super::model::{AttemptCount, RememberedCredential, SignUp, Throttle};
use crate::DomainError;
use crate::error::Violation;
use crate::rules::{FieldRules, NumberRule, Rule, TextRule, caps, check_room};

/// Sign-in sessions (the browser cookie) last this long.
pub const SIGN_IN_LIFETIME: Duration = Duration::days(30);
/// Failed sign-ins allowed within [`SIGN_IN_WINDOW`] before further attempts wait: per email…
pub const MAX_FAILED_SIGN_INS: u32 = 10;
/// …and per client address, so one client cannot spray guesses across many emails
/// (`WORT_SIGNIN_FAILURES_PER_ADDRESS`; 0 = unlimited).
pub const DEFAULT_FAILED_SIGN_INS_PER_ADDRESS: u32 = 100;
pub const SIGN_IN_WINDOW: Duration = Duration::minutes(15);
/// Sign-ups allowed per client address within [`SIGN_UP_WINDOW`] (`WORT_SIGNUP_PER_HOUR`;
/// 0 = unlimited): each one costs a password hash and an account.
pub const DEFAULT_SIGN_UPS_PER_ADDRESS: u32 = 10;
pub const SIGN_UP_WINDOW: Duration = Duration::hours(1);
/// An account holds at most this many API keys.
pub const MAX_API_KEYS: i64 = 100;
/// `lastUsedAt` of an API key is refreshed at most this often (it costs a write).
pub const KEY_TOUCH_INTERVAL: Duration = Duration::minutes(1);
/// How long a credential confirmed by the store is used without asking it again. Revocations
/// reach the cache at once (the store announces them); this bounds what a lost announcement can
/// cost, and it is the key touch interval, so `lastUsedAt` keeps its resolution.
pub const CREDENTIAL_RECHECK: Duration = KEY_TOUCH_INTERVAL;

/// Whether a remembered credential may authenticate a request at `now` without the store: it
/// has not expired and the store confirmed it less than [`CREDENTIAL_RECHECK`] ago.
pub fn remembered_is_usable(credential: &RememberedCredential, now: OffsetDateTime) -> bool {
    now >= credential.checked_at
        && now - credential.checked_at < CREDENTIAL_RECHECK
        && credential.expires_at.is_none_or(|end| now < end)
}

/// API keys look like `wort_` + 43 base62 characters (≈ 256 bits).
pub const API_KEY_PREFIX: &str = "wort_";
pub(crate) const API_KEY_RANDOM_CHARS: usize = 43;
/// `start` shown in key lists: enough to recognise a key, far too little to use it.
pub(crate) const API_KEY_START_CHARS: usize = 9;

/// Seconds until a subject may try again when the attempt that made `counted` is past the
/// throttle's limit at `now`; `None` when it may go ahead. Every attempt is counted before it is
/// decided, so of any number of simultaneous attempts at most `limit` go ahead in a window.
pub fn attempt_refused(
    throttle: Throttle,
    counted: AttemptCount,
    now: OffsetDateTime,
) -> Option<u64> {
    let window_end = counted.window_start + throttle.window;
    (counted.attempts > i64::from(throttle.limit) && now < window_end)
        .then(|| (window_end - now).whole_seconds().max(0).unsigned_abs() + 1)
}

/// A person's name.
pub const USER_NAME: TextRule = caps::NAME;
/// RFC 5321's longest path.
pub const EMAIL: TextRule = TextRule::new(0, 254);
pub const PASSWORD: TextRule = TextRule::new(8, 128);
/// What sign-in reads of an email or password: anything longer cannot match an account.
pub const SIGN_IN_INPUT: TextRule = TextRule::new(0, 1_000);
pub const KEY_NAME: TextRule = TextRule::new(1, 64);
/// `expiresIn` of a new key, in seconds (a minute to a year).
pub const KEY_LIFETIME_SECS: NumberRule = NumberRule::integer(60, 31_536_000);

pub const SIGN_UP_FIELDS: FieldRules = &[
    ("name", Rule::Text(USER_NAME)),
    ("email", Rule::Text(EMAIL)),
    ("password", Rule::Text(PASSWORD)),
];
pub const API_KEY_FIELDS: FieldRules = &[
    ("name", Rule::Text(KEY_NAME)),
    ("expiresIn", Rule::Number(KEY_LIFETIME_SECS)),
];
/// Sign-in checks no account rule on its input, only caps it (hashing an unbounded password
/// would be work for anyone to ask for).
pub const SIGN_IN_FIELDS: FieldRules = &[
    ("email", Rule::Text(SIGN_IN_INPUT)),
    ("password", Rule::Text(SIGN_IN_INPUT)),
];
pub const UPDATE_USER_FIELDS: FieldRules = &[("name", Rule::Text(USER_NAME))];
pub const CHANGE_PASSWORD_FIELDS: FieldRules = &[
    ("currentPassword", Rule::Text(SIGN_IN_INPUT)),
    ("newPassword", Rule::Text(PASSWORD)),
];

/// The form in which emails are compared and stored: Unicode NFC (so a composed and a decomposed
/// "josé" are one address), then Unicode's default lower-casing (full mappings: the Kelvin sign
/// becomes "k", as a person reading the address would expect), then NFC again (lower-casing can
/// leave a character decomposed, e.g. "İ").
pub fn normalize_email(email: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let composed: String = email.nfc().collect();
    composed.to_lowercase().nfc().collect()
}

/// `local@domain.tld` without whitespace or control characters: enough to catch typos without
/// refusing real addresses.
pub fn is_plausible_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// An email as sign-up takes it: bounded, plausible, then normalised.
pub fn check_email(path: &[&str], email: &str) -> Result<String, Violation> {
    EMAIL.check(path, email)?;
    if is_plausible_email(email) {
        Ok(normalize_email(email))
    } else {
        Err(Violation::invalid_string(path, "email"))
    }
}

/// Everything sign-up checks of its three fields, for callers that hold them as strings (the
/// CLI); the HTTP adapter checks the same rules field by field as it reads the JSON.
pub fn check_sign_up(name: &str, email: &str, password: &str) -> Result<SignUp, Vec<Violation>> {
    let mut issues = Vec::new();
    if let Err(v) = USER_NAME.check(&["name"], name) {
        issues.push(v);
    }
    let email = check_email(&["email"], email)
        .map_err(|v| issues.push(v))
        .ok();
    if let Err(v) = PASSWORD.check(&["password"], password) {
        issues.push(v);
    }
    match email {
        Some(email) if issues.is_empty() => Ok(SignUp {
            name: name.to_owned(),
            email,
            password: password.to_owned(),
        }),
        _ => Err(issues),
    }
}

pub fn email_taken() -> Violation {
    Violation::new(
        "already_exists",
        &["email"],
        "An account with this email already exists",
    )
}

pub fn too_many_keys() -> Violation {
    Violation::too_many(
        &["keys"],
        MAX_API_KEYS,
        format!("An account holds at most {MAX_API_KEYS} API keys; delete one first"),
    )
}

/// An account holding `held` keys may create one more only below [`MAX_API_KEYS`].
pub fn check_key_room(held: i64) -> Result<(), DomainError> {
    check_room(held, MAX_API_KEYS, too_many_keys)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn sign_up_checks_every_field_and_normalises_the_email() {
        let ok = check_sign_up("Ada", "Ada@Example.com", "correct horse").unwrap();
        assert_eq!(ok.email, "ada@example.com");
        let issues = check_sign_up("", "not-an-email", "short").unwrap_err();
        let codes: Vec<_> = issues.iter().map(|v| v.code).collect();
        assert_eq!(codes, ["too_small", "invalid_string", "too_small"]);
    }

    #[test]
    fn emails_compare_in_one_normal_form() {
        let composed = "jos\u{e9}@example.com";
        let decomposed = "jose\u{301}@example.com";
        assert_ne!(composed, decomposed);
        assert_eq!(normalize_email(composed), normalize_email(decomposed));
        assert_eq!(
            normalize_email("JOS\u{c9}@Example.COM"),
            normalize_email(composed)
        );
        // The Kelvin sign (U+212A) lower-cases to an ASCII k: one address, not two.
        assert_eq!(
            normalize_email("\u{212a}elvin@example.com"),
            "kelvin@example.com"
        );
    }

    #[test]
    fn attempts_past_the_limit_wait_until_the_window_ends() {
        let throttle = Throttle {
            limit: 10,
            window: Duration::minutes(15),
        };
        let start = time::macros::datetime!(2026-11-25 12:00 UTC);
        let counted = |attempts| AttemptCount {
            attempts,
            window_start: start,
        };
        let now = start + Duration::minutes(5);
        assert_eq!(attempt_refused(throttle, counted(1), now), None);
        assert_eq!(attempt_refused(throttle, counted(10), now), None);
        // Ten minutes left, rounded up so a client that waits that long is let through.
        assert_eq!(attempt_refused(throttle, counted(11), now), Some(601));
        assert_eq!(attempt_refused(throttle, counted(500), now), Some(601));
        let window_end = start + Duration::minutes(15);
        assert_eq!(attempt_refused(throttle, counted(11), window_end), None);
    }

    #[test]
    fn the_key_cap_refuses_the_one_past_it() {
        assert!(check_key_room(MAX_API_KEYS - 1).is_ok());
        let refused = check_key_room(MAX_API_KEYS).unwrap_err();
        assert!(
            matches!(&refused, DomainError::Invalid(v) if v[0] == too_many_keys()),
            "{refused:?}"
        );
    }

    #[test]
    fn implausible_emails() {
        for bad in ["a", "a@b", "@b.c", "a@.b", "a@b.", "a b@c.d", "a@b@c.d"] {
            assert!(!is_plausible_email(bad), "{bad}");
        }
        assert!(is_plausible_email("a.b+c@d.example"));
    }
}
