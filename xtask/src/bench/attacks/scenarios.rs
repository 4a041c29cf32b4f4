//! The attacks, one function each (scenario 8's in `exports.rs`). Each says what it sends, what
//! it measures, the figure the probe saw before the fixes, and when the fix holds.

use std::collections::{BTreeSet, HashSet};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use super::super::load::{Connection, Request};
use super::super::soak::{children, signal};
use super::tools::{
    BlackHole, Fate, PLAIN_HOP, Receiver, Rng, giant_report_file, json_id, open_file_limit,
    padded_file, request, send, simultaneous, trickle, xml_file, xml_recipe,
};
use super::{Account, Options, Row, Scenario, Stage, Statuses, Watched, thousands};

/// How long a client of these scenarios waits on one read or write.
const TIMEOUT: Duration = Duration::from_secs(60);

pub const ALL: &[Scenario] = &[
    Scenario {
        number: 1,
        title: "Sign-in and sign-up bursts",
        env: &[("WORT_SIGNUP_PER_HOUR", "5")],
        metrics: false,
        run: bursts,
    },
    Scenario {
        number: 2,
        title: "Giant import report",
        env: &[],
        metrics: false,
        run: giant_report,
    },
    Scenario {
        number: 3,
        title: "Metrics labels",
        env: &[],
        metrics: true,
        run: metrics_labels,
    },
    Scenario {
        number: 4,
        title: "Concurrent imports",
        env: &[],
        metrics: false,
        run: concurrent_imports,
    },
    // The tools' wort has no cap on connections per address (every client here is 127.0.0.1):
    // first the body deadline alone, then with the default cap of 256 as well.
    Scenario {
        number: 5,
        title: "Slow bodies",
        env: &[
            ("WORT_BODY_READ_TIMEOUT_SECS", "10"),
            ("WORT_MAX_CONNECTIONS_PER_ADDRESS", "0"),
        ],
        metrics: false,
        run: slow_bodies,
    },
    Scenario {
        number: 5,
        title: "Slow bodies, connections capped per address",
        env: &[
            ("WORT_BODY_READ_TIMEOUT_SECS", "10"),
            ("WORT_MAX_CONNECTIONS_PER_ADDRESS", "256"),
        ],
        metrics: false,
        run: slow_bodies_capped,
    },
    Scenario {
        number: 6,
        title: "Webhook fairness and test pings",
        // A's failed attempts come back after 1 s instead of 5 s: more of them in the way.
        env: &[("WORT_WEBHOOK_RETRY_BASE_MS", "1000")],
        metrics: false,
        run: webhooks,
    },
    Scenario {
        number: 7,
        title: "Database freeze",
        env: &[],
        metrics: false,
        run: database_freeze,
    },
    Scenario {
        number: 8,
        title: "Concurrent exports",
        env: &[],
        metrics: false,
        run: super::exports::exports,
    },
];

pub(super) fn row(
    scenario: &str,
    answers: &Statuses,
    watched: Watched,
    figure: String,
    before: &'static str,
    holds: bool,
) -> Row {
    Row {
        scenario: scenario.to_owned(),
        answers: answers.to_string(),
        watched: Some(watched),
        figure,
        before,
        holds: Some(holds),
    }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

// ---- 1. Sign-in and sign-up bursts ---------------------------------------------------------------

const SIGN_UP_LIMIT: usize = 5;
const SIGN_UPS: usize = 30;
const WRONG_SIGN_INS: usize = 150;
/// Wrong guesses at one email before it waits (the domain's limit).
const EMAIL_GUESSES: usize = 10;
const PASSWORD: &str = "correct horse battery";

/// 30 sign-ups at once from one address against a limit of 5 (held: never more than 5
/// accounts); then 150 wrong passwords at once for one of those accounts, and its right password
/// sent at the first 429 while guesses are still in flight (held: at most 10 × 401, the rest
/// and the right password 429).
fn bursts(stage: &Stage, _: &Options) -> Result<Vec<Row>, String> {
    let addr = stage.addr();
    let json = [("Content-Type", "application/json")];
    let sign_up = |i: usize| {
        let body = format!(
            r#"{{"name":"Burst {i}","email":"burst-{i}@attacks.example","password":"{PASSWORD}"}}"#
        );
        request(
            "POST",
            "/api/auth/sign-up/email",
            addr,
            &json,
            body.as_bytes(),
        )
    };
    let (ups, ups_watched) = stage.watch(|| {
        Ok(simultaneous(
            addr,
            (0..SIGN_UPS).map(sign_up).collect(),
            TIMEOUT,
        ))
    })?;
    let created: usize = stage
        .sql_value("SELECT count(*) FROM users")?
        .parse()
        .map_err(|e| format!("counting users: {e}"))?;
    let victim = ups
        .iter()
        .position(|s| s.status == 200)
        .ok_or("no sign-up of the burst succeeded: no account to guess at")?;
    let sign_in = |password: &str| {
        let body =
            format!(r#"{{"email":"burst-{victim}@attacks.example","password":"{password}"}}"#);
        request(
            "POST",
            "/api/auth/sign-in/email",
            addr,
            &json,
            body.as_bytes(),
        )
    };
    let ((guesses, right, in_flight), ins_watched) = stage.watch(|| {
        Ok(guesses_then_password(
            addr,
            &sign_in("wrong wrong wrong"),
            &sign_in(PASSWORD),
        ))
    })?;
    let guessed = Statuses::of(guesses);
    let right_text = right.map_or("not sent (no 429 came)".to_owned(), |s| s.to_string());
    let sign_ins = row(
        &format!(
            "1a. {WRONG_SIGN_INS} wrong sign-ins for one email at once, the right password sent \
             at the first 429"
        ),
        &guessed,
        ins_watched,
        format!(
            "{} × 401 (limit {EMAIL_GUESSES}); the right password: {right_text}, sent with \
             {in_flight} guesses still unanswered",
            guessed.count(401)
        ),
        "150 × 401, the right password 200",
        guessed.count(401) <= EMAIL_GUESSES && right == Some(429),
    );
    let sign_ups = row(
        &format!("1b. {SIGN_UPS} sign-ups at once from one address, limit {SIGN_UP_LIMIT}"),
        &Statuses::of(ups.iter().map(|s| s.status)),
        ups_watched,
        format!("{created} accounts created (limit {SIGN_UP_LIMIT})"),
        "over the limit: a burst passed the check together",
        created <= SIGN_UP_LIMIT,
    );
    Ok(vec![sign_ins, sign_ups])
}

/// `WRONG_SIGN_INS` wrong guesses released at once; at the first 429 the right password goes
/// too. The guesses' statuses, the right password's, and how many guesses were unanswered then.
fn guesses_then_password(
    addr: SocketAddr,
    wrong: &[u8],
    right: &[u8],
) -> (Vec<u16>, Option<u16>, usize) {
    let (tx, rx) = mpsc::channel();
    let barrier = Arc::new(Barrier::new(WRONG_SIGN_INS));
    let threads: Vec<_> = (0..WRONG_SIGN_INS)
        .map(|_| {
            let (tx, barrier, wrong) = (tx.clone(), barrier.clone(), wrong.to_vec());
            thread::spawn(move || {
                barrier.wait();
                let _ = tx.send(send(addr, &wrong, TIMEOUT).status);
            })
        })
        .collect();
    drop(tx);
    let mut statuses = Vec::new();
    let mut right_status = None;
    let mut in_flight = 0;
    let until = Instant::now() + Duration::from_secs(180);
    while statuses.len() < WRONG_SIGN_INS && Instant::now() < until {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(status) => {
                statuses.push(status);
                if status == 429 && right_status.is_none() {
                    in_flight = WRONG_SIGN_INS - statuses.len();
                    right_status = Some(send(addr, right, TIMEOUT).status);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    for t in threads {
        let _ = t.join();
    }
    (statuses, right_status, in_flight)
}

// ---- 2. Giant import report ----------------------------------------------------------------------

/// The recipe name of the report-bomb, in bytes.
const NAME_BYTES: usize = 4_700_000;
/// Hops with three values out of range each.
const WILD_HOPS: usize = 200;
/// The answer to one import stays under this (it was 948 MB).
const REPORT_CAP: usize = 1_000_000;

fn import_request(addr: SocketAddr, key: &str, file: &[u8]) -> Vec<u8> {
    request(
        "POST",
        "/v1/recipes/import",
        addr,
        &[("Content-Type", "application/xml"), ("X-API-Key", key)],
        file,
    )
}

/// One BeerXML file with a 4.7 MB recipe name and 200 hops out of range (held: a `201` whose
/// answer is under 1 MB).
fn giant_report(stage: &Stage, _: &Options) -> Result<Vec<Row>, String> {
    let addr = stage.addr();
    let account = stage.account("giant")?;
    let file = giant_report_file(NAME_BYTES, WILD_HOPS);
    let bytes = import_request(addr, &account.key, &file);
    let (sent, watched) = stage.watch(|| Ok(send(addr, &bytes, TIMEOUT)))?;
    let warnings = String::from_utf8_lossy(&sent.body)
        .matches("\"message\":")
        .count();
    Ok(vec![row(
        "2. A BeerXML file with a 4.7 MB recipe name and 200 hops out of range",
        &Statuses::of([sent.status]),
        watched,
        format!(
            "{:.2} MB file: answer {} bytes, {warnings} warnings, in {:.2} s",
            file.len() as f64 / 1e6,
            thousands(sent.body.len()),
            secs(sent.took)
        ),
        "answer 948 MB",
        sent.status == 201 && sent.body.len() < REPORT_CAP,
    )])
}

// ---- 3. Metrics labels ---------------------------------------------------------------------------

const JUNK_REQUESTS: usize = 10_000;
const METHOD_CHARS: usize = 2_000;
const JUNK_CONNECTIONS: usize = 4;
/// `/metrics` stays under this after the junk (it was 346 MB).
const METRICS_CAP: usize = 1_000_000;
/// The longest method label a fixed set holds ("CONNECT", "OPTIONS", "other").
const LONGEST_KNOWN_METHOD: usize = 7;

/// 10,000 requests with random 2,000-letter methods, over raw keep-alive connections (held:
/// `/metrics` under 1 MB afterwards and no method label longer than a standard method's).
fn metrics_labels(stage: &Stage, _: &Options) -> Result<Vec<Row>, String> {
    let addr = stage.addr();
    let before = stage.metrics_text()?.len();
    let (answers, watched) = stage.watch(|| Ok(junk_methods(addr)))?;
    let text = stage.metrics_text()?;
    let labels = method_labels(&String::from_utf8_lossy(&text));
    let longest = labels.iter().map(String::len).max().unwrap_or(0);
    let rss_mib = stage.rss_kib().unwrap_or(0) as f64 / 1024.0;
    let shown: Vec<String> = labels
        .iter()
        .take(12)
        .map(|l| l.chars().take(12).collect())
        .collect();
    Ok(vec![row(
        &format!(
            "3. {} requests with random {}-letter methods",
            thousands(JUNK_REQUESTS),
            thousands(METHOD_CHARS)
        ),
        &answers,
        watched,
        format!(
            "`/metrics` {} → {} bytes; method labels: {} ({} distinct, longest {longest} \
             chars); RSS afterwards {rss_mib:.0} MiB",
            thousands(before),
            thousands(text.len()),
            shown.join(", "),
            labels.len()
        ),
        "346 MB of metrics, RSS 723 MB",
        text.len() < METRICS_CAP && longest <= LONGEST_KNOWN_METHOD,
    )])
}

/// `JUNK_REQUESTS` junk-method requests over `JUNK_CONNECTIONS` keep-alive connections (a new
/// one whenever wort closes one); at most 5 minutes.
fn junk_methods(addr: SocketAddr) -> Statuses {
    let until = Instant::now() + Duration::from_secs(300);
    let threads: Vec<_> = (0..JUNK_CONNECTIONS)
        .map(|c| {
            thread::spawn(move || {
                let mut rng = Rng::seeded(c as u64 + 1);
                let mut connection = Connection::new(addr);
                let mut statuses = Vec::new();
                for _ in 0..JUNK_REQUESTS / JUNK_CONNECTIONS {
                    if Instant::now() > until {
                        break;
                    }
                    let bytes = format!(
                        "{} /v1/recipes HTTP/1.1\r\nHost: {addr}\r\n\r\n",
                        rng.method(METHOD_CHARS)
                    );
                    statuses.push(connection.send(bytes.as_bytes()).map_or(0, |r| r.status));
                }
                statuses
            })
        })
        .collect();
    let mut answers = Statuses::default();
    for t in threads {
        for status in t.join().unwrap_or_default() {
            answers.add(status);
        }
    }
    answers
}

/// The distinct values of `method="…"` in a Prometheus text.
fn method_labels(text: &str) -> BTreeSet<String> {
    text.split("method=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

// ---- 4. Concurrent imports -----------------------------------------------------------------------

const IMPORTS: usize = 64;
/// Just under the 5 MiB cap on an imported file.
const IMPORT_BYTES: usize = 5 * 1024 * 1024 - 4096;
/// Held when the peak RSS stays under half of what it was (1.3 GB) …
const IMPORTS_RSS_CAP_MIB: f64 = 650.0;
/// … and `/healthz` p99 under a tenth of what it was (1.1 s).
const IMPORTS_PROBE_CAP_MS: f64 = 110.0;

/// 64 imports of a 5 MiB report-bomb (padded with a comment) at once.
fn concurrent_imports(stage: &Stage, _: &Options) -> Result<Vec<Row>, String> {
    let addr = stage.addr();
    let account = stage.account("importer")?;
    let file = padded_file(NAME_BYTES, WILD_HOPS, IMPORT_BYTES);
    let bytes = import_request(addr, &account.key, &file);
    let (sent, watched) = stage.watch(|| Ok(simultaneous(addr, vec![bytes; IMPORTS], TIMEOUT)))?;
    let answers = Statuses::of(sent.iter().map(|s| s.status));
    let slowest = sent.iter().map(|s| s.took).max().unwrap_or_default();
    let largest = sent.iter().map(|s| s.body.len()).max().unwrap_or(0);
    let holds = watched.peak_kib as f64 / 1024.0 < IMPORTS_RSS_CAP_MIB
        && watched.probe_quantile(0.99) < IMPORTS_PROBE_CAP_MS
        && answers.count(0) == 0;
    Ok(vec![row(
        &format!(
            "4. {IMPORTS} imports of {:.1} MiB files at once",
            file.len() as f64 / 1_048_576.0
        ),
        &answers,
        watched,
        format!(
            "slowest answer {:.1} s; largest answer {} bytes; held when peak RSS < \
             {IMPORTS_RSS_CAP_MIB:.0} MiB and `/healthz` p99 < {IMPORTS_PROBE_CAP_MS:.0} ms",
            secs(slowest),
            thousands(largest)
        ),
        "peak RSS 1.3 GB, `/healthz` p99 1.1 s",
        holds,
    )])
}

// ---- 5. Slow bodies ------------------------------------------------------------------------------

/// What the probe used; more than the open-file limit allows is never tried.
const PROBE_SLOW_BODIES: usize = 19_800;
/// Kept free for everything else the run opens (the probe, psql, logs).
const SPARE_FILES: usize = 1_000;
/// The deadline wort is given (`WORT_BODY_READ_TIMEOUT_SECS` in the scenario's env).
const BODY_DEADLINE: Duration = Duration::from_secs(10);
const BYTE_EVERY: Duration = Duration::from_secs(3);

/// Sign-in bodies that declare 64 bytes and send one every 3 s, as many as the open-file limit
/// allows (std cannot raise the soft limit, so the run stays under it). Held: every one answered
/// 408 within the deadline plus 5 s, and `/healthz` answering throughout.
fn slow_bodies(stage: &Stage, options: &Options) -> Result<Vec<Row>, String> {
    let t = trickled(stage, options)?;
    let holds = t.opened > 0
        && t.answers.count(408) == t.opened
        && t.latest < secs(BODY_DEADLINE) + 5.0
        && t.watched.probe_failed == 0;
    Ok(vec![row(
        &format!(
            "5a. {} trickling sign-in bodies (1 byte / {} s, deadline {} s), no cap per address",
            thousands(t.opened),
            BYTE_EVERY.as_secs(),
            BODY_DEADLINE.as_secs()
        ),
        &t.answers,
        t.watched,
        t.figure,
        "bodies held as long as the client liked (19,800 connections)",
        holds,
    )])
}

/// Connections past this many from one address are shut as they come.
const CONNECTIONS_PER_ADDRESS: usize = 256;

/// Descriptors a capped wort may open besides the capped connections: the probe's, a shut
/// connection not yet closed.
const FD_SLACK: usize = 32;

/// The same with the default cap of 256 connections per address. Every client here shares
/// 127.0.0.1, the `/healthz` probe too, so its failures while the cap is full are the cap doing
/// its work. The cap bounds connections held at once, not in all: one answered 408 gives its
/// place to a later one, so more than 256 can be answered 408 in all. Held: wort's open
/// descriptors never more than the cap (and a little slack) above what it had before, every
/// connection answered 408 or cut, none left open.
fn slow_bodies_capped(stage: &Stage, options: &Options) -> Result<Vec<Row>, String> {
    let t = trickled(stage, options)?;
    let answered = t.answers.count(408);
    let grew = t.watched.most_fds.saturating_sub(t.watched.fds_before);
    let holds = grew <= CONNECTIONS_PER_ADDRESS + FD_SLACK
        && answered + t.answers.count(0) == t.opened
        && t.still_open == 0;
    Ok(vec![row(
        &format!(
            "5b. the same, {} connections, with the default cap of {CONNECTIONS_PER_ADDRESS} per \
             address",
            thousands(t.opened)
        ),
        &t.answers,
        t.watched,
        format!(
            "{}; seen from the client, at most {} held at once (each until its 408 was read); \
             the probe shares the attackers' address, so it is shut out while the cap is full",
            t.figure,
            thousands(t.held_at_once)
        ),
        "bodies held as long as the client liked (19,800 connections)",
        holds,
    )])
}

/// What one trickle run saw.
struct Trickled {
    answers: Statuses,
    /// The most connections wort held (until it answered them) at one moment.
    held_at_once: usize,
    watched: Watched,
    opened: usize,
    still_open: usize,
    latest: f64,
    figure: String,
}

fn trickled(stage: &Stage, options: &Options) -> Result<Trickled, String> {
    let addr = stage.addr();
    let limit = open_file_limit();
    let room = limit.map_or(2_000, |l| l.saturating_sub(SPARE_FILES));
    let wanted = options
        .slow_bodies
        .unwrap_or(PROBE_SLOW_BODIES)
        .min(room)
        .max(1);
    let head = format!(
        "POST /api/auth/sign-in/email HTTP/1.1\r\nHost: {addr}\r\nContent-Type: \
         application/json\r\nContent-Length: 64\r\n\r\n"
    );
    let ((fates, opened), watched) = stage.watch(|| {
        Ok(trickle(
            addr,
            head.as_bytes(),
            wanted,
            BYTE_EVERY,
            4,
            BODY_DEADLINE + Duration::from_secs(50),
        ))
    })?;
    let mut answers = Statuses::default();
    let mut answered_after = Vec::new();
    let mut still_open = 0;
    let mut held = Vec::new();
    for (opened_at, fate) in &fates {
        match fate {
            Fate::Answered(status, took) => {
                answers.add(*status);
                answered_after.push(secs(*took));
                held.push((secs(*opened_at), secs(*opened_at + *took)));
            }
            Fate::Cut(took) => {
                answers.add(0);
                answered_after.push(secs(*took));
            }
            Fate::Open => still_open += 1,
        }
    }
    answered_after.sort_by(f64::total_cmp);
    let median = answered_after
        .get(answered_after.len() / 2)
        .copied()
        .unwrap_or(f64::NAN);
    let latest = answered_after.last().copied().unwrap_or(f64::NAN);
    let limit_text = limit.map_or("unknown".to_owned(), thousands);
    let figure = format!(
        "{} of {} connections opened (open-file limit {limit_text}, not raised); answered \
         after {median:.1} s median, {latest:.1} s at the latest; {still_open} still open at \
         the end; wort's open descriptors {} before, {} at most",
        thousands(opened),
        thousands(wanted),
        thousands(watched.fds_before),
        thousands(watched.most_fds)
    );
    Ok(Trickled {
        answers,
        watched,
        opened,
        held_at_once: most_at_once(&held),
        still_open,
        latest,
        figure,
    })
}

/// The most intervals `(start, end)` that overlap at one moment.
fn most_at_once(intervals: &[(f64, f64)]) -> usize {
    // Ends sort before starts at the same moment: a place given back is free for the next.
    let mut edges: Vec<(f64, i64)> = intervals
        .iter()
        .flat_map(|&(start, end)| [(start, 1), (end, -1)])
        .collect();
    edges.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut now = 0i64;
    let mut most = 0i64;
    for (_, step) in edges {
        now += step;
        most = most.max(now);
    }
    usize::try_from(most).unwrap_or(0)
}

// ---- 6. Webhook fairness and test pings ----------------------------------------------------------

/// An account's most webhooks.
const HOOKS_A: usize = 25;
/// Each makes 25 deliveries to the silent receiver.
const READINGS_A: usize = 40;
const READINGS_B: usize = 5;
const PINGS: usize = 1_000;
const PING_CONNECTIONS: usize = 4;
/// A delivery of B's waits at most one attempt's timeout (10 s) for a free place.
const FAIR_DELAY: Duration = Duration::from_secs(11);
/// A test ping per webhook per this.
const PING_INTERVAL: Duration = Duration::from_secs(10);

/// A recipe (imported) and a fermenting session of `account`; the session's id.
fn fermenting_session(stage: &Stage, account: &Account) -> Result<String, String> {
    let addr = stage.addr();
    let file = xml_file(&xml_recipe("Attack Ale", PLAIN_HOP));
    let imported = send(addr, &import_request(addr, &account.key, &file), TIMEOUT);
    if imported.status != 201 {
        return Err(format!(
            "importing a recipe answered {}: {}",
            imported.status,
            String::from_utf8_lossy(&imported.body)
        ));
    }
    let recipe = stage.sql_value(&format!(
        "SELECT id FROM recipes WHERE user_id = '{}' LIMIT 1",
        account.id
    ))?;
    let created = send(
        addr,
        &Request {
            method: "POST",
            path: "/v1/sessions".into(),
            api_key: Some(account.key.clone()),
            body: Some(format!(
                r#"{{"recipe_id":"{recipe}","brew_date":"2026-11-25","status":"fermenting"}}"#
            )),
        }
        .to_bytes(addr),
        TIMEOUT,
    );
    if created.status != 201 {
        return Err(format!(
            "creating a session answered {}: {}",
            created.status,
            String::from_utf8_lossy(&created.body)
        ));
    }
    stage.sql_value(&format!(
        "SELECT id FROM brew_sessions WHERE user_id = '{}' LIMIT 1",
        account.id
    ))
}

fn reading(account: &Account, session: &str) -> Request {
    Request {
        method: "POST",
        path: format!("/v1/sessions/{session}/fermentation-logs"),
        api_key: Some(account.key.clone()),
        body: Some(r#"{"gravity":1.012,"temperature_c":18.5}"#.into()),
    }
}

/// A webhook of `account` for readings, to `target`; its id.
fn add_webhook(
    addr: SocketAddr,
    account: &Account,
    target: SocketAddr,
    n: usize,
) -> Result<String, String> {
    let created = send(
        addr,
        &Request {
            method: "POST",
            path: "/v1/webhooks".into(),
            api_key: Some(account.key.clone()),
            body: Some(format!(
                r#"{{"url":"http://{target}/hook/{n}","events":["reading.created"]}}"#
            )),
        }
        .to_bytes(addr),
        TIMEOUT,
    );
    if created.status != 201 {
        return Err(format!(
            "creating a webhook answered {}: {}",
            created.status,
            String::from_utf8_lossy(&created.body)
        ));
    }
    json_id(&created.body).ok_or_else(|| "a created webhook without an id".to_owned())
}

/// Account A: 25 webhooks to a receiver that never answers and 40 readings (1,000 deliveries
/// that each hang for the full timeout); account B: one webhook to a receiver that answers at
/// once, and 5 readings while A's deliveries hang (held: each of B's arrives within 11 s).
/// Then 1,000 test pings of B's webhook (held: no more pings arrive than one per 10 s allows).
fn webhooks(stage: &Stage, _: &Options) -> Result<Vec<Row>, String> {
    let addr = stage.addr();
    let hole = BlackHole::start()?;
    let receiver = Receiver::start()?;
    let a = stage.account("hoarder")?;
    let b = stage.account("bystander")?;
    let session_a = fermenting_session(stage, &a)?;
    let session_b = fermenting_session(stage, &b)?;
    for n in 0..HOOKS_A {
        add_webhook(addr, &a, hole.addr, n)?;
    }
    let hook_b = add_webhook(addr, &b, receiver.addr, 0)?;

    let ((answers, delays), watched) = stage.watch(|| {
        let mut answers = Statuses::default();
        let mut connection = Connection::new(addr);
        let bytes = reading(&a, &session_a).to_bytes(addr);
        for _ in 0..READINGS_A {
            answers.add(connection.send(&bytes).map_or(0, |r| r.status));
        }
        // A's deliveries take their places and hang.
        thread::sleep(Duration::from_secs(2));
        let bytes = reading(&b, &session_b).to_bytes(addr);
        let mut posted = Vec::new();
        for _ in 0..READINGS_B {
            let at = Instant::now();
            let response = connection.send(&bytes).map_err(|e| e.to_string())?;
            answers.add(response.status);
            if let Some(id) = json_id(&response.body) {
                posted.push((id, at));
            }
            thread::sleep(Duration::from_secs(2));
        }
        Ok((answers, arrival_delays(&receiver, &posted)))
    })?;
    let arrived: Vec<f64> = delays.iter().filter_map(|d| d.map(secs)).collect();
    let missing = delays.len() - arrived.len();
    let latest = arrived.iter().copied().fold(f64::NAN, f64::max);
    let earliest = arrived.iter().copied().fold(f64::NAN, f64::min);
    let fairness = row(
        &format!(
            "6a. B's readings while A's {} deliveries hang on {HOOKS_A} silent webhooks",
            thousands(READINGS_A * HOOKS_A)
        ),
        &answers,
        watched,
        format!(
            "B's {} deliveries arrived after {earliest:.2} to {latest:.2} s ({missing} not within \
             120 s); the silent receiver held {} connections",
            arrived.len(),
            hole.accepted()
        ),
        "B's delivery waited 69.8 s",
        missing == 0 && delays.len() == READINGS_B && latest < secs(FAIR_DELAY),
    );

    let pings_before = count_pings(&receiver);
    let ((answers, took), watched) = stage.watch(|| Ok(test_pings(addr, &b, &hook_b)))?;
    thread::sleep(Duration::from_secs(1));
    let pings = count_pings(&receiver) - pings_before;
    let allowed = 1 + (secs(took) / secs(PING_INTERVAL)).floor() as usize;
    let pinged = row(
        &format!(
            "6b. {} calls of `POST /v1/webhooks/{{id}}/test`",
            thousands(PINGS)
        ),
        &answers,
        watched,
        format!(
            "{pings} {} reached the receiver; the calls took {:.1} s, so one per {} s allows \
             {allowed}",
            if pings == 1 { "ping" } else { "pings" },
            secs(took),
            PING_INTERVAL.as_secs()
        ),
        "1,000 pings sent",
        pings <= allowed && pings == answers.count(200),
    );
    Ok(vec![fairness, pinged])
}

/// For each posted reading, how long after its POST its delivery reached the receiver (`None`
/// when it did not within 120 s).
fn arrival_delays(receiver: &Receiver, posted: &[(String, Instant)]) -> Vec<Option<Duration>> {
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        let bodies = receiver.bodies();
        let delays: Vec<Option<Duration>> = posted
            .iter()
            .map(|(id, at)| {
                bodies
                    .iter()
                    .find(|(_, body)| body.contains(id.as_str()))
                    .map(|(arrived, _)| arrived.saturating_duration_since(*at))
            })
            .collect();
        if delays.iter().all(Option::is_some) || Instant::now() > until {
            return delays;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

fn count_pings(receiver: &Receiver) -> usize {
    receiver
        .bodies()
        .iter()
        .filter(|(_, body)| body.contains("\"type\":\"ping\""))
        .count()
}

/// `PINGS` test calls over `PING_CONNECTIONS` keep-alive connections; their answers and how
/// long they took.
fn test_pings(addr: SocketAddr, account: &Account, hook: &str) -> (Statuses, Duration) {
    let bytes = Request {
        method: "POST",
        path: format!("/v1/webhooks/{hook}/test"),
        api_key: Some(account.key.clone()),
        body: None,
    }
    .to_bytes(addr);
    let started = Instant::now();
    let threads: Vec<_> = (0..PING_CONNECTIONS)
        .map(|_| {
            let bytes = bytes.clone();
            thread::spawn(move || {
                let mut connection = Connection::new(addr);
                (0..PINGS / PING_CONNECTIONS)
                    .map(|_| connection.send(&bytes).map_or(0, |r| r.status))
                    .collect::<Vec<u16>>()
            })
        })
        .collect();
    let mut answers = Statuses::default();
    for t in threads {
        for status in t.join().unwrap_or_default() {
            answers.add(status);
        }
    }
    (answers, started.elapsed())
}

// ---- 7. Database freeze --------------------------------------------------------------------------

const WARM: Duration = Duration::from_secs(5);
const FREEZE: Duration = Duration::from_secs(12);
const AFTER: Duration = Duration::from_secs(15);
const LOAD_THREADS: usize = 4;
/// Each load thread's pause between requests: about 40 requests a second in all.
const PACE: Duration = Duration::from_millis(100);
/// wort's default `WORT_DB_DEADLINE_MS`.
const DB_DEADLINE: Duration = Duration::from_millis(5_000);

/// One request of the steady load.
struct Sample {
    /// Since the load began.
    start: f64,
    took: f64,
    status: u16,
    /// The id of an acknowledged reading.
    written: Option<String>,
}

/// A light steady load of reading writes and session reads; every PostgreSQL process stopped
/// (SIGSTOP) for 12 s, then continued. Held: no request longer than the database deadline plus
/// 1 s, 2xx again within 10 s of SIGCONT, and every acknowledged reading in the database.
fn database_freeze(stage: &Stage, _: &Options) -> Result<Vec<Row>, String> {
    let addr = stage.addr();
    let account = stage.account("steady")?;
    let session = fermenting_session(stage, &account)?;
    let postmaster = postmaster_pid(stage)?;
    let ((samples, stop_at, cont_at, during_check), watched) =
        stage.watch(|| freeze_under_load(addr, &account, &session, postmaster))?;

    let overlapping: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.start < cont_at && s.start + s.took > stop_at)
        .collect();
    let longest = overlapping.iter().map(|s| s.took).fold(0.0, f64::max);
    let in_freeze = Statuses::of(overlapping.iter().map(|s| s.status));
    let back_after = samples
        .iter()
        .filter(|s| (200..300).contains(&s.status) && s.start + s.took > cont_at)
        .map(|s| s.start + s.took - cont_at)
        .fold(f64::NAN, f64::min);
    let failed_later = samples
        .iter()
        .filter(|s| s.start > cont_at + back_after && !(200..300).contains(&s.status))
        .count();
    let acknowledged: HashSet<String> = samples.iter().filter_map(|s| s.written.clone()).collect();
    let stored: HashSet<String> = stage
        .sql_lines(&format!(
            "SELECT id FROM fermentation_logs WHERE session_id = '{session}'"
        ))?
        .into_iter()
        .collect();
    let missing = acknowledged.difference(&stored).count();
    let holds = longest <= secs(DB_DEADLINE) + 1.0 && back_after < 10.0 && missing == 0;
    Ok(vec![row(
        &format!(
            "7. Every PostgreSQL process stopped {} s under ~{} requests/s",
            FREEZE.as_secs(),
            LOAD_THREADS * 10
        ),
        &Statuses::of(samples.iter().map(|s| s.status)),
        watched,
        format!(
            "longest request during the freeze {longest:.2} s (its answers: {in_freeze}; {during_check}); \
             2xx again {back_after:.2} s after SIGCONT, {failed_later} failures after that; \
             {} readings acknowledged, {missing} missing",
            acknowledged.len()
        ),
        "longest request 12.1 s",
        holds,
    )])
}

fn postmaster_pid(stage: &Stage) -> Result<u32, String> {
    let file = stage.pg.data_dir().join("postmaster.pid");
    std::fs::read_to_string(&file)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .lines()
        .next()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| format!("{}: no pid", file.display()))
}

/// Continues the stopped processes however the freeze ends.
struct Thaw(Vec<u32>);

impl Drop for Thaw {
    fn drop(&mut self) {
        let _ = signal("CONT", &self.0);
    }
}

/// The load, with the freeze in its middle: every request, when the freeze began and ended
/// (seconds since the load began), and what one request made during it answered.
fn freeze_under_load(
    addr: SocketAddr,
    account: &Account,
    session: &str,
    postmaster: u32,
) -> Result<(Vec<Sample>, f64, f64, String), String> {
    let started = Instant::now();
    let ends = started + WARM + FREEZE + AFTER;
    let write = reading(account, session).to_bytes(addr);
    let read = Request {
        method: "GET",
        path: format!("/v1/sessions/{session}"),
        api_key: Some(account.key.clone()),
        body: None,
    }
    .to_bytes(addr);
    let threads: Vec<_> = (0..LOAD_THREADS)
        .map(|_| {
            let (write, read) = (write.clone(), read.clone());
            thread::spawn(move || steady_load(addr, &write, &read, started, ends))
        })
        .collect();
    thread::sleep(WARM);
    let mut pids = vec![postmaster];
    pids.extend(children(postmaster));
    let stopped = signal("STOP", &pids);
    let thaw = Thaw(pids);
    let stop_at = secs(started.elapsed());
    thread::sleep(Duration::from_secs(3));
    let check = retry_after_check(addr, &read);
    let resume = started + WARM + FREEZE;
    thread::sleep(resume.saturating_duration_since(Instant::now()));
    drop(thaw);
    let cont_at = secs(started.elapsed());
    stopped?;
    let mut samples = Vec::new();
    for t in threads {
        samples.extend(t.join().unwrap_or_default());
    }
    Ok((samples, stop_at, cont_at, check))
}

/// Writes and reads in turn until `ends` (at most 2,000 requests).
fn steady_load(
    addr: SocketAddr,
    write: &[u8],
    read: &[u8],
    started: Instant,
    ends: Instant,
) -> Vec<Sample> {
    let mut connection = Connection::with_timeout(addr, TIMEOUT);
    let mut samples = Vec::new();
    for i in 0..2_000 {
        if Instant::now() >= ends {
            break;
        }
        let is_write = i % 2 == 0;
        let begun = Instant::now();
        let response = connection.send(if is_write { write } else { read });
        let took = secs(begun.elapsed());
        let (status, written) = match response {
            Ok(r) => {
                let id = (is_write && r.status == 201)
                    .then(|| json_id(&r.body))
                    .flatten();
                (r.status, id)
            }
            Err(_) => (0, None),
        };
        samples.push(Sample {
            start: secs(begun.duration_since(started)),
            took,
            status,
            written,
        });
        thread::sleep(PACE);
    }
    samples
}

/// One read during the freeze on a raw connection: its status, whether it carried
/// `Retry-After`, and how long it took.
fn retry_after_check(addr: SocketAddr, read: &[u8]) -> String {
    let begun = Instant::now();
    let answer = (|| -> std::io::Result<String> {
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
        stream.set_read_timeout(Some(TIMEOUT))?;
        stream.write_all(read)?;
        let mut buffer = vec![0u8; 4096];
        let got = stream.read(&mut buffer)?;
        Ok(String::from_utf8_lossy(buffer.get(..got).unwrap_or_default()).into_owned())
    })();
    match answer {
        Ok(text) => {
            let status = text.split_whitespace().nth(1).unwrap_or("?").to_owned();
            let retry = text
                .lines()
                .find(|l| l.to_ascii_lowercase().starts_with("retry-after:"))
                .map_or("no Retry-After".to_owned(), |l| l.trim().to_owned());
            format!(
                "a read sent 3 s in: {status} with {retry} after {:.2} s",
                secs(begun.elapsed())
            )
        }
        Err(e) => format!("a read sent 3 s in: no answer ({e})"),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn method_labels_are_read_from_the_text() {
        let text = "# HELP x\nhttp_requests_total{method=\"GET\",route=\"/\"} 1\n\
                    http_requests_total{method=\"other\",route=\"unmatched\"} 9\n\
                    http_requests_total{method=\"GET\",route=\"/v1\"} 2\n";
        let labels: Vec<String> = method_labels(text).into_iter().collect();
        assert_eq!(labels, ["GET", "other"]);
    }

    #[test]
    fn overlaps_are_counted_at_their_busiest() {
        assert_eq!(most_at_once(&[]), 0);
        assert_eq!(most_at_once(&[(0.0, 10.0), (1.0, 11.0), (10.0, 20.0)]), 2);
        assert_eq!(most_at_once(&[(0.0, 1.0), (2.0, 3.0)]), 1);
    }

    #[test]
    fn scenarios_are_numbered_in_order() {
        let numbers: Vec<u8> = ALL.iter().map(|s| s.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 5, 6, 7, 8]);
    }
}
