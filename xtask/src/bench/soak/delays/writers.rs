//! The keyed writers: each logical write gets a fresh `Idempotency-Key` and is retried with the
//! same key and body, as a careful client does, until a definite answer: on `503` and on `409`
//! with `Retry-After` it waits what the header says, on a timeout or a broken connection it backs
//! off (250 ms doubling to 4 s). A write still without a definite answer after its tries is
//! left unknown here and tried again once the holds are over ([`settle`]).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::super::accounts::{Setup, json_string_field};
use super::super::clients::Rng;
use super::super::http::exchange_close;

/// How long one try may take: wort answers within its deadlines (1–2 s here, 5 s for a pool
/// slot), so past this the answer is not coming.
const TRY_TIMEOUT: Duration = Duration::from_secs(15);
/// Tries per write during the load; more after it (see [`settle`]).
pub(super) const TRIES_DURING_LOAD: u32 = 10;
/// The longest `Retry-After` honoured as sent; a longer one is waited this long.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(10);
/// Each writer's pause between two logical writes.
const THINK: Duration = Duration::from_millis(20);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Reading,
    Adjust,
    Recipe,
    Hop,
}

/// The mix: what, its label for the report, its weight (of 100).
pub(super) const KINDS: [(Kind, &str, u32); 4] = [
    (
        Kind::Reading,
        "fermentation reading (POST /v1/sessions/{id}/fermentation-logs)",
        35,
    ),
    (
        Kind::Adjust,
        "inventory adjust +1 (POST /v1/inventory/{id}/adjust)",
        25,
    ),
    (Kind::Recipe, "recipe create (POST /v1/recipes)", 20),
    (Kind::Hop, "hop added (POST /v1/recipes/{id}/hops)", 20),
];

/// How a write ended for its client.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Outcome {
    /// 2xx, first-hand or replayed (`Idempotent-Replayed: true`).
    Acked { replayed: bool },
    /// A definite refusal (a 4xx other than a `409` to retry): not applied.
    Refused(u16),
    /// No definite answer after every try.
    Unknown,
}

/// One logical write and every try of it.
pub(super) struct Write {
    pub(super) kind: Kind,
    /// What makes its rows findable: a reading's note, a recipe's or a hop's name.
    pub(super) label: String,
    pub(super) key: String,
    path: String,
    body: String,
    pub(super) tries: Vec<Try>,
    pub(super) outcome: Outcome,
    /// Its definite answer came only after the load, in [`settle`].
    pub(super) settled_late: bool,
}

/// One try: a status, or 0 for a timeout or a broken connection.
#[derive(Clone, Copy)]
pub(super) struct Try {
    pub(super) status: u16,
}

/// What one writer did.
pub(super) struct Writer {
    pub(super) key: String,
    pub(super) writes: Vec<Write>,
}

/// Writes from one client until `deadline` (the write under way finishes its tries).
pub(super) fn writer(
    addr: SocketAddr,
    setup: &Setup,
    index: usize,
    deadline: Instant,
    stop: &AtomicBool,
) -> Writer {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ ((index as u64 + 1) * 0x9E37_79B9));
    let total_weight: u32 = KINDS.iter().map(|(_, _, w)| w).sum();
    let mut writes = Vec::new();
    // Hops go on the newest recipe this client created (at most 200 hops a recipe).
    let mut hop_recipe = setup.recipe.clone();
    let mut hops_on_recipe = 0u32;
    let mut n = 0u64;
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        n += 1;
        let mut pick = (rng.next() % u64::from(total_weight)) as u32;
        let mut kind = Kind::Reading;
        for (k, _, weight) in KINDS {
            if pick < weight {
                kind = k;
                break;
            }
            pick -= weight;
        }
        let label = format!("dly {index}-{n}");
        let (path, body) = match kind {
            Kind::Reading => (
                format!("/v1/sessions/{}/fermentation-logs", setup.session),
                format!(
                    r#"{{"gravity":1.0{:02},"temperature_c":18.5,"notes":"{label}"}}"#,
                    10 + n % 50
                ),
            ),
            Kind::Adjust => (
                format!("/v1/inventory/{}/adjust", setup.item),
                r#"{"delta":1}"#.to_owned(),
            ),
            Kind::Recipe => (
                "/v1/recipes".to_owned(),
                format!(r#"{{"name":"{label}","style":"Pale Ale","batch_size_liters":20}}"#),
            ),
            Kind::Hop => {
                hops_on_recipe += 1;
                (
                    format!("/v1/recipes/{hop_recipe}/hops"),
                    format!(
                        r#"{{"name":"{label}","alpha_acid":5,"amount_grams":10,"time_minutes":60}}"#
                    ),
                )
            }
        };
        let mut write = Write {
            kind,
            label,
            key: format!("dly-{index}-{n}-{:08x}", rng.next() as u32),
            path,
            body,
            tries: Vec::new(),
            outcome: Outcome::Unknown,
            settled_late: false,
        };
        let id = attempt(
            addr,
            &setup.key,
            &mut write,
            TRIES_DURING_LOAD,
            None,
            &mut rng,
        );
        if let (Kind::Recipe, Some(id)) = (kind, id) {
            hop_recipe = id;
            hops_on_recipe = 0;
        } else if hops_on_recipe >= 150 {
            // No recipe of its own acknowledged lately: stop adding to a full one.
            hops_on_recipe = 0;
            hop_recipe = setup.recipe.clone();
        }
        writes.push(write);
        thread::sleep(THINK);
    }
    Writer {
        key: setup.key.clone(),
        writes,
    }
}

/// Tries `write` until a definite answer, `tries` in all or until `until`; the new row's id
/// when the answer carries one.
pub(super) fn attempt(
    addr: SocketAddr,
    api_key: &str,
    write: &mut Write,
    tries: u32,
    until: Option<Instant>,
    rng: &mut Rng,
) -> Option<String> {
    let mut backoff = Duration::from_millis(250);
    for _ in 0..tries {
        if until.is_some_and(|u| Instant::now() >= u) {
            break;
        }
        let headers = [
            ("X-API-Key", api_key),
            ("Idempotency-Key", write.key.as_str()),
        ];
        let reply = exchange_close(
            addr,
            "POST",
            &write.path,
            &headers,
            Some(&write.body),
            TRY_TIMEOUT,
        );
        let (status, retry_after) = match &reply {
            Ok(r) => (
                r.status,
                r.headers
                    .iter()
                    .find(|(name, _)| name == "retry-after")
                    .and_then(|(_, v)| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs),
            ),
            Err(_) => (0, None),
        };
        write.tries.push(Try { status });
        match (status, retry_after) {
            (200..=299, _) => {
                let replayed = reply.as_ref().is_ok_and(|r| {
                    r.headers
                        .iter()
                        .any(|(n, v)| n == "idempotent-replayed" && v.trim() == "true")
                });
                write.outcome = Outcome::Acked { replayed };
                return reply.ok().and_then(|r| json_string_field(&r.body, "id"));
            }
            (409, Some(wait)) | (408 | 429 | 500..=599, Some(wait)) => {
                // Jitter: a crowd of retries told the same second does not arrive together.
                let jitter = Duration::from_millis(rng.next() % 200);
                thread::sleep(wait.min(MAX_RETRY_AFTER) + jitter);
            }
            (0 | 408 | 429 | 500..=599, None) => {
                thread::sleep(backoff + Duration::from_millis(rng.next() % 100));
                backoff = (backoff * 2).min(Duration::from_secs(4));
            }
            _ => {
                write.outcome = Outcome::Refused(status);
                return None;
            }
        }
    }
    None
}

/// After the load, with the proxy quiet: every write still unknown is tried again until it has
/// a definite answer or `until` passes, each in a thread of its own (a key whose reservation
/// could not be released stays taken until wort counts it abandoned, 120 s, so `until` lies past
/// that, and one such key must not hold up the others).
pub(super) fn settle(addr: SocketAddr, writers: &mut [Writer], until: Instant) {
    thread::scope(|scope| {
        for (index, writer) in writers.iter_mut().enumerate() {
            let key = writer.key.as_str();
            for (n, write) in writer
                .writes
                .iter_mut()
                .filter(|w| w.outcome == Outcome::Unknown)
                .enumerate()
            {
                scope.spawn(move || {
                    let seed = 0xD1B5_4A32_D192_ED03 ^ ((index as u64 + 1) << 20) ^ (n as u64 + 1);
                    let mut rng = Rng(seed);
                    attempt(addr, key, write, u32::MAX, Some(until), &mut rng);
                    write.settled_late = write.outcome != Outcome::Unknown;
                });
            }
        }
    });
}
