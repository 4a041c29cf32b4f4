//! The decisions about keys: which are well-formed, what a try with a known key gets, which
//! answers are kept, and for how long.

use time::{Duration, OffsetDateTime};

use super::model::{Fingerprint, IdempotencyKey, StoredKey};
use crate::error::Violation;

/// The header a client sends its key in, and the one a replayed answer carries.
pub const KEY_HEADER: &str = "Idempotency-Key";
pub const REPLAYED_HEADER: &str = "Idempotent-Replayed";

/// A key is 1–255 visible ASCII characters (`!` to `~`): enough for a UUID or any client's own
/// scheme, and nothing that could be mangled on the way (spaces, control characters, non-ASCII).
pub const MAX_KEY_LENGTH: usize = 255;

/// A key and its answer are kept this long after the key was first reserved; a try after that is
/// a new request. Long enough for a client to retry across a restart, a deploy or a night offline.
pub const KEEP_KEYS_FOR: Duration = Duration::hours(24);

/// A reservation without an answer this old is abandoned (its process died, or its database
/// connection went before the answer could be stored) and the same request may take it over.
/// Longer than any write wort answers without streaming may take: a recipe analysis waits up to
/// 10 s to connect to the AI provider and 60 s for its answer.
pub const ABANDONED_AFTER: Duration = Duration::seconds(120);

/// Answers with bodies larger than this are not kept (wort's JSON answers are a few KiB; the
/// largest, an import of 100 recipes, stays far below). Such a request is still applied once:
/// a retry is told so with `409` instead of the answer.
pub const MAX_KEPT_BODY_BYTES: usize = 1024 * 1024;

/// The key as sent, when it is well-formed.
pub fn parse_key(raw: &[u8]) -> Option<IdempotencyKey> {
    let well_formed =
        (1..=MAX_KEY_LENGTH).contains(&raw.len()) && raw.iter().all(|b| (0x21..=0x7e).contains(b));
    // Visible ASCII only, so the bytes are valid UTF-8.
    well_formed
        .then(|| String::from_utf8(raw.to_vec()).ok())
        .flatten()
        .map(IdempotencyKey)
}

/// Why a key was refused, for the `400`.
pub fn malformed_key_message() -> String {
    format!("{KEY_HEADER} must be 1 to {MAX_KEY_LENGTH} visible ASCII characters (0x21-0x7E)")
}

/// What a try with a key that is already stored gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// The same request was answered: replay the answer.
    Answered,
    /// The same request was applied but its answer was too large to keep.
    AnsweredNotKept,
    /// The same request is still running.
    InProgress,
    /// A different request used the key.
    Reused,
    /// The stored key is expired, or an abandoned reservation of the same request: this try may
    /// replace it.
    TakeOver,
}

pub fn seen(stored: &StoredKey, fingerprint: Fingerprint, now: OffsetDateTime) -> Seen {
    let age = now - stored.reserved_at;
    if age >= KEEP_KEYS_FOR {
        return Seen::TakeOver;
    }
    if stored.fingerprint != fingerprint {
        return Seen::Reused;
    }
    match &stored.answer {
        Some(answer) if answer.body.is_some() => Seen::Answered,
        Some(_) => Seen::AnsweredNotKept,
        None if age >= ABANDONED_AFTER => Seen::TakeOver,
        None => Seen::InProgress,
    }
}

/// Whether an answer is kept for replay. An answer that says the request was not carried out
/// and may pass if tried again is not kept, and the key is released so the retry runs: a server
/// error or an unavailable database (5xx), a body that did not arrive in time (`408`), a limit
/// that resets (`429`). Every other answer, errors included, is what the request gets again.
pub fn answer_is_kept(status: u16) -> bool {
    !(status >= 500 || status == 408 || status == 429)
}

/// Whether what a keyed request wrote is committed with its answer: only when the answer says it
/// was applied (`2xx`). Any other answer that is kept (a `4xx`) is committed alone, with the
/// request's own writes undone, so a refused request never leaves half of itself behind.
pub fn work_is_kept(status: u16) -> bool {
    (200..300).contains(&status)
}

/// The `422` detail of a key sent again with a different request.
pub fn key_reused() -> Violation {
    Violation::new(
        "idempotency_key_reused",
        &[KEY_HEADER],
        "This Idempotency-Key was already used for a different request; use a new key",
    )
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;
    use uuid::Uuid;

    use super::*;
    use crate::idempotency::model::Answer;

    #[test]
    fn keys_are_one_to_255_visible_ascii_characters() {
        for good in [
            "a",
            "!",
            "~",
            "550e8400-e29b-41d4-a716-446655440000",
            &"k".repeat(255),
        ] {
            assert_eq!(
                parse_key(good.as_bytes()).map(|k| k.as_str().to_owned()),
                Some(good.to_owned()),
                "{good}"
            );
        }
        let long = "k".repeat(256);
        for bad in [
            &b""[..],
            b" ",
            b"a b",
            b"tab\there",
            b"\x7f",
            b"caf\xc3\xa9",
            b"nul\0",
            long.as_bytes(),
        ] {
            assert_eq!(parse_key(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_fingerprint_tells_method_target_and_body_apart() {
        let base = Fingerprint::of("POST", "/v1/recipes", b"{}");
        assert_eq!(base, Fingerprint::of("POST", "/v1/recipes", b"{}"));
        assert_ne!(base, Fingerprint::of("PATCH", "/v1/recipes", b"{}"));
        assert_ne!(base, Fingerprint::of("POST", "/v1/recipes/", b"{}"));
        assert_ne!(base, Fingerprint::of("POST", "/v1/recipes", b"{ }"));
        // The parts cannot slide into each other.
        assert_ne!(
            Fingerprint::of("POST", "/a", b"b"),
            Fingerprint::of("POST", "/ab", b"")
        );
    }

    fn stored(reserved_at: OffsetDateTime, answer: Option<Answer>) -> StoredKey {
        StoredKey {
            fingerprint: Fingerprint::of("POST", "/v1/recipes", b"{}"),
            token: Uuid::nil(),
            reserved_at,
            answer,
        }
    }

    fn answer(body: Option<&[u8]>) -> Answer {
        Answer {
            status: 201,
            content_type: Some("application/json".into()),
            location: None,
            body: body.map(<[u8]>::to_vec),
        }
    }

    #[test]
    fn a_known_key_replays_refuses_waits_or_is_taken_over() {
        let t0 = datetime!(2026-11-26 12:00 UTC);
        let same = Fingerprint::of("POST", "/v1/recipes", b"{}");
        let other = Fingerprint::of("POST", "/v1/recipes", b"{\"name\":\"x\"}");
        let done = stored(t0, Some(answer(Some(b"{}"))));
        let running = stored(t0, None);

        assert_eq!(seen(&done, same, t0 + Duration::hours(23)), Seen::Answered);
        assert_eq!(seen(&done, other, t0), Seen::Reused);
        assert_eq!(
            seen(&stored(t0, Some(answer(None))), same, t0),
            Seen::AnsweredNotKept
        );
        assert_eq!(
            seen(&running, same, t0 + Duration::seconds(119)),
            Seen::InProgress
        );
        assert_eq!(seen(&running, other, t0), Seen::Reused);
        // An abandoned reservation is taken over by the same request only.
        assert_eq!(seen(&running, same, t0 + ABANDONED_AFTER), Seen::TakeOver);
        assert_eq!(seen(&running, other, t0 + ABANDONED_AFTER), Seen::Reused);
        // After 24 h the key is free for anything.
        for stored in [&done, &running] {
            assert_eq!(seen(stored, other, t0 + KEEP_KEYS_FOR), Seen::TakeOver);
            assert_eq!(seen(stored, same, t0 + KEEP_KEYS_FOR), Seen::TakeOver);
        }
    }

    #[test]
    fn answers_that_may_pass_on_a_retry_are_not_kept() {
        for kept in [200, 201, 204, 400, 401, 404, 409, 413, 422] {
            assert!(answer_is_kept(kept), "{kept}");
        }
        for released in [408, 429, 500, 502, 503] {
            assert!(!answer_is_kept(released), "{released}");
        }
    }

    #[test]
    fn only_a_success_keeps_what_the_request_wrote() {
        for applied in [200, 201, 204] {
            assert!(
                work_is_kept(applied) && answer_is_kept(applied),
                "{applied}"
            );
        }
        for refused in [400, 404, 409, 413, 422] {
            assert!(
                !work_is_kept(refused) && answer_is_kept(refused),
                "{refused}"
            );
        }
        for not_kept in [408, 429, 500, 503] {
            assert!(!work_is_kept(not_kept), "{not_kept}");
        }
    }

    #[test]
    fn the_abandoned_age_is_well_inside_the_retention() {
        assert!(ABANDONED_AFTER < KEEP_KEYS_FOR);
        assert_eq!(key_reused().code, "idempotency_key_reused");
    }
}
