//! The webhook's rules: what a target may be, which addresses are refused, how long and how
//! often a failing delivery is retried, when an endpoint is switched off, and when a session's
//! `fermentation.stable` is announced.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use time::{Duration, OffsetDateTime};

use super::model::{AfterAttempt, EventType};
use crate::DomainError;
use crate::brewing::fermentation::{Stability, Stable};
use crate::error::Violation;
use crate::rules::{FieldRules, Rule, TextRule, check_room};

/// A URL longer than this is refused (browsers and proxies cap near 2 KB too).
pub const URL: TextRule = TextRule::new(1, 2_048);
pub const WEBHOOK_FIELDS: FieldRules = &[("url", Rule::Text(URL))];
/// A webhook is told of at least this many event types.
pub const MIN_EVENTS: usize = 1;

/// An account holds at most this many endpoints: each event is one delivery per endpoint.
pub const MAX_WEBHOOKS: i64 = 25;
/// After this many failed attempts in a row the endpoint is deactivated.
pub const MAX_CONSECUTIVE_FAILURES: i32 = 50;
/// Each attempt waits at most this long for the endpoint's answer.
pub const ATTEMPT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// Failed deliveries are retried for this long after the event, then marked failed.
pub const RETRY_FOR: Duration = Duration::hours(24);
/// The first retry waits this long; each following one twice as long as the one before…
pub const RETRY_BASE: Duration = Duration::seconds(5);
/// …but never longer than this, so a receiver that was down hears within the hour it is back
/// (unless 50 failed attempts in a row, over all its events, switched the endpoint off).
pub const RETRY_MAX_DELAY: Duration = Duration::hours(1);

/// One account's attempts in flight at once, over every instance. An instance runs 32 at once,
/// each waiting up to [`ATTEMPT_TIMEOUT`]: without a cap, one account's endpoints that never
/// answer would hold every slot and every other account's deliveries would wait behind them.
/// With it, an account holds at most a quarter of an instance's slots, and among the deliveries
/// due the next free slot goes to the account with the fewest in flight ([`claim_turn`]). Eight
/// in flight still deliver dozens of events a second to receivers that answer in a few hundred
/// milliseconds.
pub const MAX_IN_FLIGHT_PER_ACCOUNT: i64 = 8;

/// The claim order, fair between accounts: an account with `in_flight` attempts running gets
/// turn `in_flight + n` for its `n`th due delivery (oldest first, `n` from 1), and no turn past
/// [`MAX_IN_FLIGHT_PER_ACCOUNT`]. Lower turns are claimed first, ties by due time. An account
/// whose endpoints are slow therefore waits behind every account with fewer attempts running,
/// and a delivery of an account with none running is claimed as soon as a slot is free: within
/// one attempt's timeout, when every slot is busy.
pub fn claim_turn(in_flight: i64, nth_due: i64) -> Option<i64> {
    let turn = in_flight.max(0).saturating_add(nth_due.max(1));
    (turn <= MAX_IN_FLIGHT_PER_ACCOUNT).then_some(turn)
}

/// `POST /v1/webhooks/{id}/test` sends at most one ping per endpoint per this long: each call is
/// a request to the endpoint's host, which must not become a way to flood it.
pub const TEST_INTERVAL: Duration = Duration::seconds(10);

/// Whole seconds (at least 1) until the endpoint may be tested again, after a test at
/// `last_test_at`.
pub fn wait_before_next_test(last_test_at: OffsetDateTime, now: OffsetDateTime) -> u64 {
    let wait = (last_test_at + TEST_INTERVAL - now)
        .min(TEST_INTERVAL)
        .as_seconds_f64()
        .ceil();
    if wait >= 1.0 { wait as u64 } else { 1 }
}

/// Events, their deliveries and the attempts log are kept this long, then pruned (a delivery
/// still pending is kept until it ends).
pub const KEEP_EVENTS_FOR: Duration = Duration::days(30);

/// Checks a target URL's form (not its address: that needs name resolution, done by the
/// sender). `http` or `https` with a host, no user name or password in it, no fragment.
pub fn check_url(raw: &str) -> Result<url::Url, Violation> {
    let bad = |why: &str| Violation::new("custom", &["url"], why.to_owned());
    let url = url::Url::parse(raw).map_err(|_| Violation::invalid_string(&["url"], "url"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad("The URL must start with http:// or https://"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(bad("The URL must name a host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad(
            "The URL must not hold a user name or password (the signature authenticates wort)",
        ));
    }
    if url.fragment().is_some() {
        return Err(bad("The URL must not hold a #fragment"));
    }
    Ok(url)
}

/// The violation for a target whose address is not public (or cannot be resolved).
pub fn refused_target(why: impl Into<String>) -> Violation {
    Violation::new("custom", &["url"], why)
}

/// `events` must be a non-empty subset of the subscribable events; duplicates are dropped.
pub fn check_events(events: Vec<EventType>) -> Result<Vec<EventType>, Violation> {
    let mut unique = Vec::with_capacity(events.len());
    for e in events {
        if !unique.contains(&e) {
            unique.push(e);
        }
    }
    if unique.len() < MIN_EVENTS {
        return Err(Violation::new(
            "too_small",
            &["events"],
            format!("Array must contain at least {MIN_EVENTS} element(s)"),
        )
        .with("minimum", MIN_EVENTS)
        .with("inclusive", true)
        .with("type", "array"));
    }
    Ok(unique)
}

pub fn too_many_webhooks() -> Violation {
    Violation::too_many(
        &[],
        MAX_WEBHOOKS,
        format!("An account holds at most {MAX_WEBHOOKS} webhooks; delete one first"),
    )
}

/// An account holding `count` endpoints may create one more only below [`MAX_WEBHOOKS`].
pub fn check_webhook_room(count: i64) -> Result<(), DomainError> {
    check_room(count, MAX_WEBHOOKS, too_many_webhooks)
}

/// Switching an endpoint on (again) gives it a fresh count, so it has
/// [`MAX_CONSECUTIVE_FAILURES`] attempts before it is switched off again; any other update keeps
/// the count it has. `Some(n)`: the count the update sets.
pub fn failures_after_update(active: Option<bool>) -> Option<i32> {
    (active == Some(true)).then_some(0)
}

/// A ping tells the person testing how the endpoint answers: it neither counts towards
/// deactivation nor resets the count, so testing a failing endpoint cannot keep it switched on.
pub fn counts_towards_deactivation(event: EventType) -> bool {
    event != EventType::Ping
}

/// What a new gravity reading does to a session's `fermentation.stable` announcement.
#[derive(Debug, Clone, PartialEq)]
pub enum StableAnnouncement {
    /// Send the event and remember that it was sent.
    Announce(Stable),
    /// Forget the announcement: the gravity moved, so a restarted fermentation that settles
    /// again is announced anew.
    Forget,
    /// Change nothing.
    Keep,
}

/// Announced once per settling: a stable finding announces only when nothing is announced yet,
/// and only a gravity that moved forgets an announcement. Too few readings (a silent
/// hydrometer's gap) decide nothing, so a gap neither repeats nor forgets the announcement.
pub fn stable_announcement(finding: Stability, announced: bool) -> StableAnnouncement {
    match (finding, announced) {
        (Stability::Stable(found), false) => StableAnnouncement::Announce(found),
        (Stability::Moving, true) => StableAnnouncement::Forget,
        _ => StableAnnouncement::Keep,
    }
}

/// Whether wort may connect to this address: refused are loopback, private (RFC 1918, unique
/// local), link-local (cloud metadata lives there), carrier-grade NAT, unspecified, broadcast,
/// multicast, documentation and reserved ranges; in IPv6 everything outside global unicast,
/// the tunnels and translations that lead to an IPv4 address (6to4, Teredo, NAT64's local-use
/// prefix), and IPv4-mapped or NAT64 addresses whose IPv4 address is refused.
pub fn is_public_address(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        // 100.64.0.0/10: carrier-grade NAT, shared address space.
        || (a == 100 && (64..128).contains(&b))
        // 192.0.0.0/24: IETF protocol assignments.
        || (a == 192 && b == 0 && c == 0)
        // 198.18.0.0/15: benchmarking.
        || (a == 198 && (b == 18 || b == 19))
        // 240.0.0.0/4: reserved.
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let segments = ip.segments();
    let [s0, s1, s2, s3, s4, s5, ..] = segments;
    // ::ffff:0:0/96 (IPv4-mapped) and 64:ff9b::/96 (NAT64's well-known prefix, which DNS64
    // gives an IPv4-only host on an IPv6-only network) reach the IPv4 address inside: it decides.
    let [.., a, b, c, d] = ip.octets();
    let inner = Ipv4Addr::new(a, b, c, d);
    if (s0, s1, s2, s3, s4, s5) == (0, 0, 0, 0, 0, 0xffff)
        || (s0, s1, s2, s3, s4, s5) == (0x64, 0xff9b, 0, 0, 0, 0)
    {
        return is_public_v4(inner);
    }
    // Only global unicast (2000::/3) is routed on the internet. Outside it lie loopback,
    // unspecified, IPv4-compatible and -translated (::/8), discard-only (100::/64), NAT64's
    // local-use prefix (64:ff9b:1::/48, whose embedding depends on the operator's prefix),
    // unique local (fc00::/7), link-local (fe80::/10), site-local (fec0::/10), multicast and
    // reserved space. An allow-list also covers ranges assigned after this was written.
    (s0 & 0xe000) == 0x2000
        // 2001::/23: IETF protocol assignments. Teredo (2001::/32) tunnels to an IPv4 address
        // hidden in it; the rest are anycast, benchmarking and ORCHID identifiers.
        && !(s0 == 0x2001 && s1 < 0x0200)
        // 2001:db8::/32 and 3fff::/20: documentation.
        && !(s0 == 0x2001 && s1 == 0x0db8)
        && !(s0 == 0x3fff && s1 < 0x1000)
        // 2002::/16: 6to4, deprecated, routed through relays to the IPv4 address in bits
        // 16–48. All of it is refused rather than decoded: no receiver needs 6to4 today, and a
        // relay's reach is the operator's network, not the internet's.
        && s0 != 0x2002
}

/// What happens after an attempt: delivered, retried after an exponential delay (`base`, 2 ×
/// `base`, 4 × `base`… capped at [`RETRY_MAX_DELAY`]), or given up once the next try would fall
/// after `retry_for` from the event.
pub fn after_attempt(
    delivered: bool,
    attempt: i32,
    event_at: OffsetDateTime,
    now: OffsetDateTime,
    base: Duration,
    retry_for: Duration,
) -> AfterAttempt {
    if delivered {
        return AfterAttempt::Delivered;
    }
    let doublings = u32::try_from(attempt.saturating_sub(1))
        .unwrap_or(0)
        .min(30);
    let delay = base
        .checked_mul(1_i32 << doublings.min(20))
        .unwrap_or(RETRY_MAX_DELAY)
        .min(RETRY_MAX_DELAY.max(base));
    let next = now + delay;
    if next > event_at + retry_for {
        AfterAttempt::GiveUp
    } else {
        AfterAttempt::RetryAt(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }

    #[test]
    fn private_loopback_and_link_local_addresses_are_refused() {
        for refused in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.10",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::a00:1",
            "2001:db8::1",
        ] {
            assert!(!is_public_address(ip(refused)), "{refused} must be refused");
        }
    }

    #[test]
    fn every_ipv6_form_that_reaches_a_private_address_is_refused() {
        for refused in [
            // 6to4 (2002::/16), whatever IPv4 address it embeds: 127.0.0.1, 10.0.0.1, a
            // public one, none.
            "2002:7f00:1::",
            "2002:7f00:0001::1",
            "2002:a00:1::1",
            "2002:5db8:d822::1",
            "2002::",
            // Teredo (2001::/32): the client's address is hidden in it.
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            // Site-local (fec0::/10, deprecated, still routed privately by some networks).
            "fec0::1",
            "feff:ffff::1",
            // Discard-only (100::/64).
            "100::1",
            "100::ffff:ffff:ffff:ffff",
            // NAT64's well-known prefix (64:ff9b::/96) with a private IPv4 address inside, and
            // the local-use prefix (64:ff9b:1::/48) with any.
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::c0a8:101",
            "64:ff9b:1::a00:1",
            "64:ff9b:1::808:808",
            "64:ff9b:1:ffff::c0a8:101",
            // The rest of the IETF's protocol assignments (2001::/23: anycast, benchmarking,
            // ORCHID), documentation (3fff::/20), and everything outside global unicast.
            "2001:1::1",
            "2001:2::1",
            "2001:1ff::1",
            "3fff::1",
            "fe00::1",
            "5f00::1",
            "100:0:0:1::1",
            "4000::1",
            // IPv4-mapped and IPv4-compatible.
            "::ffff:169.254.169.254",
            "::ffff:192.168.0.1",
            "::10.0.0.1",
            "::ffff:0:127.0.0.1",
        ] {
            assert!(!is_public_address(ip(refused)), "{refused} must be refused");
        }
        for allowed in [
            // Global unicast next to the refused ranges.
            "2003::1",
            "2001:200::1",
            "2001:4860:4860::8888",
            "2a00:1450:4001::200e",
            // The well-known NAT64 prefix with a public IPv4 address inside: an IPv4-only
            // receiver as an IPv6-only host with DNS64 reaches it.
            "64:ff9b::5db8:d822",
            "64:ff9b::808:808",
        ] {
            assert!(is_public_address(ip(allowed)), "{allowed} must be allowed");
        }
        for allowed in ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111"] {
            assert!(is_public_address(ip(allowed)), "{allowed} must be allowed");
        }
    }

    #[test]
    fn claims_take_turns_between_accounts_and_cap_each_one() {
        // An account with nothing in flight goes before one with attempts running…
        assert_eq!(claim_turn(0, 1), Some(1));
        assert!(claim_turn(0, 1) < claim_turn(3, 1));
        // …and its second delivery goes after every other idle account's first.
        assert!(claim_turn(0, 1) < claim_turn(0, 2));
        // An account at the cap gets no turn, whatever its backlog.
        assert_eq!(
            claim_turn(0, MAX_IN_FLIGHT_PER_ACCOUNT),
            Some(MAX_IN_FLIGHT_PER_ACCOUNT)
        );
        assert_eq!(claim_turn(0, MAX_IN_FLIGHT_PER_ACCOUNT + 1), None);
        assert_eq!(claim_turn(MAX_IN_FLIGHT_PER_ACCOUNT, 1), None);
        assert_eq!(
            claim_turn(MAX_IN_FLIGHT_PER_ACCOUNT - 1, 1),
            Some(MAX_IN_FLIGHT_PER_ACCOUNT)
        );
        // A quarter of an instance's 32 slots: three more accounts like it are needed to fill them.
        assert_eq!(MAX_IN_FLIGHT_PER_ACCOUNT * 4, 32);
    }

    #[test]
    fn a_test_ping_waits_ten_seconds_rounded_up() {
        let at = datetime!(2026-11-24 12:00:00 UTC);
        assert_eq!(wait_before_next_test(at, at), 10);
        assert_eq!(
            wait_before_next_test(at, at + Duration::milliseconds(9_100)),
            1
        );
        assert_eq!(wait_before_next_test(at, at + Duration::seconds(3)), 7);
        assert_eq!(wait_before_next_test(at, at + Duration::seconds(30)), 1);
        assert_eq!(
            wait_before_next_test(at + Duration::seconds(1), at),
            10,
            "a test stamped by a clock slightly ahead asks for no more than the interval"
        );
    }

    #[test]
    fn urls_are_http_with_a_host_and_no_credentials() {
        assert!(check_url("https://example.com/hook?x=1").is_ok());
        assert!(check_url("http://example.com:8080/").is_ok());
        for bad in [
            "ftp://example.com/",
            "example.com/hook",
            "https://user:pw@example.com/",
            "https://example.com/#x",
            "javascript:alert(1)",
            "",
        ] {
            assert!(check_url(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn retries_back_off_exponentially_for_a_day_then_give_up() {
        let event = datetime!(2026-11-24 00:00:00 UTC);
        let at = |attempt, now| after_attempt(false, attempt, event, now, RETRY_BASE, RETRY_FOR);
        assert_eq!(
            at(1, event),
            AfterAttempt::RetryAt(event + Duration::seconds(5))
        );
        assert_eq!(
            at(3, event),
            AfterAttempt::RetryAt(event + Duration::seconds(20))
        );
        assert_eq!(
            at(40, event + Duration::hours(2)),
            AfterAttempt::RetryAt(event + Duration::hours(3)),
            "capped at an hour"
        );
        assert_eq!(
            at(40, event + Duration::hours(23) + Duration::minutes(30)),
            AfterAttempt::GiveUp
        );
        assert_eq!(
            after_attempt(true, 7, event, event, RETRY_BASE, RETRY_FOR),
            AfterAttempt::Delivered
        );
    }

    #[test]
    fn the_webhook_cap_refuses_the_one_past_it() {
        assert!(check_webhook_room(MAX_WEBHOOKS - 1).is_ok());
        let refused = check_webhook_room(MAX_WEBHOOKS).unwrap_err();
        assert!(
            matches!(&refused, DomainError::Invalid(v) if v.first() == Some(&too_many_webhooks())),
            "{refused:?}"
        );
    }

    #[test]
    fn stability_is_announced_once_and_forgotten_only_when_gravity_moves() {
        let found = Stable {
            gravity: 1.010,
            since: datetime!(2026-11-24 00:00:00 UTC),
            readings: 3,
        };
        assert_eq!(
            stable_announcement(Stability::Stable(found.clone()), false),
            StableAnnouncement::Announce(found.clone())
        );
        assert_eq!(
            stable_announcement(Stability::Stable(found), true),
            StableAnnouncement::Keep,
            "announced already"
        );
        assert_eq!(
            stable_announcement(Stability::Moving, true),
            StableAnnouncement::Forget
        );
        assert_eq!(
            stable_announcement(Stability::Moving, false),
            StableAnnouncement::Keep
        );
        for announced in [false, true] {
            assert_eq!(
                stable_announcement(Stability::Unknown, announced),
                StableAnnouncement::Keep,
                "a gap decides nothing"
            );
        }
    }

    #[test]
    fn switching_an_endpoint_on_resets_its_failures() {
        assert_eq!(failures_after_update(Some(true)), Some(0));
        assert_eq!(failures_after_update(Some(false)), None);
        assert_eq!(failures_after_update(None), None);
    }

    #[test]
    fn pings_do_not_count_towards_deactivation() {
        assert!(!counts_towards_deactivation(EventType::Ping));
        assert!(counts_towards_deactivation(EventType::ReadingCreated));
        assert!(counts_towards_deactivation(EventType::FermentationStable));
    }

    #[test]
    fn events_must_be_a_non_empty_set() {
        assert!(check_events(vec![]).is_err());
        assert_eq!(
            check_events(vec![EventType::ReadingCreated, EventType::ReadingCreated]).ok(),
            Some(vec![EventType::ReadingCreated])
        );
    }
}
