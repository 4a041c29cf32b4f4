//! The load: 32 keep-alive clients mixing reads and writes, two AI clients, and what each
//! recorded (every acknowledged write with its id, every request's latency and outcome).

use std::io::ErrorKind;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::bench::load::{Connection, Request};

use super::accounts::{Setup, json_string_field};
use super::http::exchange_close;
use super::{AI_PAUSE, AI_TIMEOUT, THINK};

/// Outcomes that are not HTTP statuses.
const REFUSED: u16 = 1;
const TIMED_OUT: u16 = 2;
const BROKEN: u16 = 3;

pub(super) fn outcome_name(outcome: u16) -> String {
    match outcome {
        REFUSED => "connection refused".into(),
        TIMED_OUT => "client timeout".into(),
        BROKEN => "connection reset/closed".into(),
        status => status.to_string(),
    }
}

fn io_outcome(e: &std::io::Error) -> u16 {
    match e.kind() {
        ErrorKind::ConnectionRefused => REFUSED,
        ErrorKind::WouldBlock | ErrorKind::TimedOut => TIMED_OUT,
        _ => BROKEN,
    }
}

/// One request: when it was sent (ms from the start of the load), how long it took, what it
/// was (index into [`OPS`] or [`AI_OPS`]) and how it ended (a status or one of the above).
#[derive(Clone, Copy)]
pub(super) struct Sample {
    pub(super) at_ms: u32,
    pub(super) micros: u32,
    pub(super) op: u8,
    pub(super) outcome: u16,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    ListRecipes,
    GetRecipe,
    Stats,
    LatestLog,
    AiUsage,
    PostLog,
    PostRecipe,
    Adjust,
}

/// The mix: what, its label, its weight (of 100).
pub(super) const OPS: [(Op, &str, u32); 8] = [
    (Op::ListRecipes, "GET /v1/recipes?limit=20", 22),
    (Op::GetRecipe, "GET /v1/recipes/{id}", 14),
    (Op::Stats, "GET /v1/recipes/{id}/stats", 10),
    (
        Op::LatestLog,
        "GET /v1/sessions/{id}/fermentation-logs/latest",
        6,
    ),
    (Op::AiUsage, "GET /v1/ai/usage", 6),
    (
        Op::PostLog,
        "POST /v1/sessions/{id}/fermentation-logs (recorded)",
        22,
    ),
    (Op::PostRecipe, "POST /v1/recipes (recorded)", 10),
    (
        Op::Adjust,
        "POST /v1/inventory/{id}/adjust +1 (counted)",
        10,
    ),
];

pub(super) const AI_OPS: [&str; 2] = ["POST /v1/recipes/{id}/analysis", "POST /v1/chat (streamed)"];

/// A small xorshift: the mix needs no quality, only no dependency.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// What one client saw and wrote.
pub(super) struct ClientRun {
    pub(super) samples: Vec<Sample>,
    /// Fermentation readings and recipes answered 2xx, by id.
    pub(super) logs: Vec<String>,
    pub(super) recipes: Vec<String>,
    /// Adjustments answered 2xx, and those whose outcome is unknown (5xx, no answer).
    pub(super) adjusts_acked: u64,
    pub(super) adjusts_unknown: u64,
    /// Writes answered 5xx or not at all: maybe applied, maybe not.
    pub(super) writes_unknown: u64,
    /// 2xx writes whose answer held no id (cannot be read back).
    pub(super) acked_without_id: u64,
}

fn millis_since(started: Instant, at: Instant) -> u32 {
    u32::try_from(at.saturating_duration_since(started).as_millis()).unwrap_or(u32::MAX)
}

pub(super) fn client(
    addr: SocketAddr,
    setup: &Setup,
    index: usize,
    started: Instant,
    deadline: Instant,
    stop: &AtomicBool,
) -> ClientRun {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ ((index as u64 + 1) * 0x1000_0001));
    let mut run = ClientRun {
        samples: Vec::with_capacity(8192),
        logs: Vec::new(),
        recipes: Vec::new(),
        adjusts_acked: 0,
        adjusts_unknown: 0,
        writes_unknown: 0,
        acked_without_id: 0,
    };
    let mut connection = Connection::new(addr);
    let total_weight: u32 = OPS.iter().map(|(_, _, w)| w).sum();
    let mut n = 0u64;
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        n += 1;
        let mut pick = (rng.next() % u64::from(total_weight)) as u32;
        let mut chosen = 0usize;
        for (i, (_, _, weight)) in OPS.iter().enumerate() {
            if pick < *weight {
                chosen = i;
                break;
            }
            pick -= weight;
        }
        let op = OPS.get(chosen).map_or(Op::ListRecipes, |(op, _, _)| *op);
        let (method, path, body) = match op {
            Op::ListRecipes => ("GET", "/v1/recipes?limit=20".to_owned(), None),
            Op::GetRecipe => ("GET", format!("/v1/recipes/{}", setup.recipe), None),
            Op::Stats => ("GET", format!("/v1/recipes/{}/stats", setup.recipe), None),
            Op::LatestLog => (
                "GET",
                format!("/v1/sessions/{}/fermentation-logs/latest", setup.session),
                None,
            ),
            Op::AiUsage => ("GET", "/v1/ai/usage".to_owned(), None),
            Op::PostLog => (
                "POST",
                format!("/v1/sessions/{}/fermentation-logs", setup.session),
                Some(format!(
                    r#"{{"gravity":1.0{:02},"temperature_c":18.5,"notes":"soak {index}-{n}"}}"#,
                    10 + n % 50
                )),
            ),
            Op::PostRecipe => (
                "POST",
                "/v1/recipes".to_owned(),
                Some(format!(
                    r#"{{"name":"Soak {index}-{n}","style":"Pale Ale","batch_size_liters":20}}"#
                )),
            ),
            Op::Adjust => (
                "POST",
                format!("/v1/inventory/{}/adjust", setup.item),
                Some(r#"{"delta":1}"#.to_owned()),
            ),
        };
        let request = Request {
            method,
            path,
            api_key: Some(setup.key.clone()),
            body,
        };
        let sent = Instant::now();
        let result = connection.send(&request.to_bytes(addr));
        let micros = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
        let outcome = match &result {
            Ok(response) => response.status,
            Err(e) => io_outcome(e),
        };
        run.samples.push(Sample {
            at_ms: millis_since(started, sent),
            micros,
            op: chosen as u8,
            outcome,
        });
        let acked = (200..300).contains(&outcome);
        let unknown = !acked && !(400..500).contains(&outcome);
        match op {
            Op::PostLog | Op::PostRecipe if acked => {
                let id = result
                    .ok()
                    .and_then(|r| json_string_field(&String::from_utf8_lossy(&r.body), "id"));
                match (id, op) {
                    (Some(id), Op::PostLog) => run.logs.push(id),
                    (Some(id), _) => run.recipes.push(id),
                    (None, _) => run.acked_without_id += 1,
                }
            }
            Op::Adjust if acked => run.adjusts_acked += 1,
            Op::Adjust if unknown => {
                run.adjusts_unknown += 1;
                run.writes_unknown += 1;
            }
            Op::PostLog | Op::PostRecipe if unknown => run.writes_unknown += 1,
            _ => {}
        }
        thread::sleep(THINK);
    }
    run
}

/// What one AI client saw.
pub(super) struct AiRun {
    pub(super) samples: Vec<Sample>,
    /// Chat streams by how they ended: `event: done`, `event: error`, neither.
    pub(super) chats_done: u64,
    pub(super) chats_error: u64,
    pub(super) chats_cut: u64,
    pub(super) keepalives: u64,
    /// The longest silence inside a 200 chat stream.
    pub(super) longest_chat_silence: Duration,
}

pub(super) fn ai_client(
    addr: SocketAddr,
    setup: &Setup,
    index: usize,
    started: Instant,
    deadline: Instant,
    stop: &AtomicBool,
) -> AiRun {
    let mut run = AiRun {
        samples: Vec::new(),
        chats_done: 0,
        chats_error: 0,
        chats_cut: 0,
        keepalives: 0,
        longest_chat_silence: Duration::ZERO,
    };
    let chat_body = format!(
        r#"{{"message":"How can I make this beer drier?","recipe_id":"{}"}}"#,
        setup.recipe
    );
    let analysis = format!("/v1/recipes/{}/analysis", setup.recipe);
    let headers = [("X-API-Key", setup.key.as_str())];
    // Even clients ask for analyses, odd ones chat: both kinds meet every provider mode.
    let chat = index % 2 == 1;
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        let sent = Instant::now();
        let result = if chat {
            exchange_close(
                addr,
                "POST",
                "/v1/chat",
                &headers,
                Some(&chat_body),
                AI_TIMEOUT,
            )
        } else {
            exchange_close(addr, "POST", &analysis, &headers, None, AI_TIMEOUT)
        };
        let micros = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
        let outcome = match &result {
            Ok(reply) => reply.status,
            Err(e) => io_outcome(e),
        };
        run.samples.push(Sample {
            at_ms: millis_since(started, sent),
            micros,
            op: u8::from(chat),
            outcome,
        });
        if let (true, Ok(reply)) = (chat, &result)
            && reply.status == 200
        {
            run.keepalives += reply.body.matches(": keepalive").count() as u64;
            run.longest_chat_silence = run.longest_chat_silence.max(reply.longest_silence);
            if reply.body.contains("event: done") {
                run.chats_done += 1;
            } else if reply.body.contains("event: error") {
                run.chats_error += 1;
            } else {
                run.chats_cut += 1;
            }
        }
        thread::sleep(AI_PAUSE);
    }
    run
}

/// One analysis and one chat turn: how each ended.
pub(super) fn ai_probe(addr: SocketAddr, setup: &Setup) -> String {
    let headers = [("X-API-Key", setup.key.as_str())];
    let analysis = exchange_close(
        addr,
        "POST",
        &format!("/v1/recipes/{}/analysis", setup.recipe),
        &headers,
        None,
        AI_TIMEOUT,
    );
    let body = format!(r#"{{"message":"And now?","recipe_id":"{}"}}"#, setup.recipe);
    let chat = exchange_close(addr, "POST", "/v1/chat", &headers, Some(&body), AI_TIMEOUT);
    let analysis = match analysis {
        Ok(reply) => format!("analysis {}", reply.status),
        Err(e) => format!("analysis failed ({e})"),
    };
    let chat = match chat {
        Ok(reply) if reply.body.contains("event: done") => {
            format!("chat {} ending with `event: done`", reply.status)
        }
        Ok(reply) => format!("chat {} without `event: done`", reply.status),
        Err(e) => format!("chat failed ({e})"),
    };
    format!("{analysis}, {chat}")
}
