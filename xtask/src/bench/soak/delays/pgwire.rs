//! Just enough of PostgreSQL's wire protocol (version 3) for the proxy to know two things: on
//! the way to the server, which message makes a write durable (a `COMMIT`, or a data-modifying
//! statement run outside a transaction, which commits by itself); on the way back, the
//! transaction status each `ReadyForQuery` reports. Everything else passes through unread.
//!
//! The framing: after the start-up packets (a length and a code, no type byte: `SSLRequest`,
//! then `StartupMessage`), every message is a type byte and a length that counts itself. A
//! stream the parser cannot follow (TLS, a cancel request, a nonsense length) is left alone:
//! no commit point is ever reported on it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

const SSL_REQUEST: u32 = 80_877_103;
const GSSENC_REQUEST: u32 = 80_877_104;
const PROTOCOL_3: u32 = 196_608;
/// Longer than any message wort sends or reads (an import is 1 MiB): past it, stop parsing.
const MAX_MESSAGE: usize = 64 * 1024 * 1024;
/// How much of a statement's text a hold's log line keeps.
const HEAD_CHARS: usize = 72;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Startup,
    Typed,
    Lost,
}

/// What a statement does, as far as durability goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Effect {
    /// `COMMIT` / `END`: the open transaction becomes durable.
    Commit,
    /// `INSERT`, `UPDATE`, `DELETE`, `MERGE`, or a `WITH` holding one of them.
    Write,
    /// A write to wort's own idempotency records only: bookkeeping, not the write under test.
    Bookkeeping,
    Other,
}

#[derive(Clone, Debug)]
pub(super) struct Statement {
    effect: Effect,
    head: String,
}

pub(super) fn classify(sql: &str) -> Statement {
    let trimmed = sql.trim_start_matches(|c: char| c.is_whitespace() || c == '(');
    let first: String = trimmed
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_uppercase();
    let targets = write_targets(sql);
    let effect = match first.as_str() {
        "COMMIT" | "END" => Effect::Commit,
        "INSERT" | "UPDATE" | "DELETE" | "MERGE" | "WITH" if !targets.is_empty() => {
            if targets.iter().all(|t| t == "IDEMPOTENCY_KEYS") {
                Effect::Bookkeeping
            } else {
                Effect::Write
            }
        }
        _ => Effect::Other,
    };
    let head = sql
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(HEAD_CHARS)
        .collect();
    Statement { effect, head }
}

/// The tables a statement writes to (upper case, unquoted, without schema): what follows
/// `INSERT INTO`, `UPDATE`, `DELETE FROM` and `MERGE INTO`.
fn write_targets(sql: &str) -> Vec<String> {
    let upper = sql.to_ascii_uppercase();
    let tokens: Vec<&str> = upper
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',' || c == ';')
        .filter(|t| !t.is_empty())
        .collect();
    let table = |t: &str| {
        let t = t.rsplit('.').next().unwrap_or(t);
        t.trim_matches('"').to_owned()
    };
    let mut targets = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1).copied();
        let after = tokens.get(i + 2).copied();
        let target = match (*token, next) {
            ("INSERT" | "MERGE", Some("INTO")) => after,
            ("DELETE", Some("FROM")) => after,
            // Not `DO UPDATE SET`, `FOR UPDATE`, `FOR NO KEY UPDATE`.
            ("UPDATE", Some(t))
                if t != "SET"
                    && !matches!(
                        i.checked_sub(1).and_then(|p| tokens.get(p)),
                        Some(&"FOR" | &"KEY")
                    ) =>
            {
                Some(t)
            }
            _ => None,
        };
        if let Some(t) = target {
            targets.push(table(t));
        }
    }
    targets
}

/// The client→server stream.
pub(super) struct Requests {
    phase: Phase,
    pending: Vec<u8>,
    /// Prepared statements by name ("" is the unnamed one).
    statements: HashMap<String, Statement>,
    /// Portals by name, to the statement they were bound from.
    portals: HashMap<String, String>,
}

/// What one chunk of the client's bytes held.
#[derive(Default, Debug)]
pub(super) struct Sent {
    /// `SSLRequest`s (each answered by a single untyped byte).
    pub(super) ssl_requests: u32,
    /// The statement that makes a write durable, when the chunk holds one.
    pub(super) commit_point: Option<String>,
}

impl Requests {
    pub(super) fn new() -> Requests {
        Requests {
            phase: Phase::Startup,
            pending: Vec::new(),
            statements: HashMap::new(),
            portals: HashMap::new(),
        }
    }

    /// Reads `bytes`; `in_transaction` is the server's last reported status (a write outside a
    /// transaction commits by itself).
    pub(super) fn feed(&mut self, bytes: &[u8], in_transaction: bool) -> Sent {
        let mut sent = Sent::default();
        if self.phase == Phase::Lost {
            return sent;
        }
        self.pending.extend_from_slice(bytes);
        let mut at = 0usize;
        loop {
            let rest = self.pending.get(at..).unwrap_or_default();
            let (type_len, length) = match self.phase {
                Phase::Startup => (0, be32(rest)),
                Phase::Typed => (1, rest.get(1..).and_then(be32)),
                Phase::Lost => break,
            };
            let Some(length) = length else { break };
            let length = length as usize;
            if !(4..=MAX_MESSAGE).contains(&length) {
                self.lose();
                return sent;
            }
            let total = type_len + length;
            let Some(message) = rest.get(..total) else {
                break;
            };
            let body = message.get(type_len + 4..).unwrap_or_default().to_vec();
            at += total;
            match self.phase {
                Phase::Startup => match be32(&body) {
                    Some(SSL_REQUEST | GSSENC_REQUEST) => sent.ssl_requests += 1,
                    Some(PROTOCOL_3) => self.phase = Phase::Typed,
                    _ => {
                        self.lose();
                        return sent;
                    }
                },
                Phase::Typed => {
                    let kind = message.first().copied().unwrap_or(0);
                    if let Some(head) = self.message(kind, &body, in_transaction) {
                        sent.commit_point.get_or_insert(head);
                    }
                }
                Phase::Lost => break,
            }
        }
        self.pending.drain(..at.min(self.pending.len()));
        sent
    }

    fn lose(&mut self) {
        self.phase = Phase::Lost;
        self.pending = Vec::new();
    }

    /// One typed message: the statement's head when it is a commit point.
    fn message(&mut self, kind: u8, body: &[u8], in_transaction: bool) -> Option<String> {
        let durable = |s: &Statement| match s.effect {
            Effect::Commit => true,
            Effect::Write => !in_transaction,
            Effect::Bookkeeping | Effect::Other => false,
        };
        match kind {
            b'Q' => {
                let statement = classify(&c_strings(body).first()?.clone());
                durable(&statement).then_some(statement.head)
            }
            b'P' => {
                let strings = c_strings(body);
                let (name, sql) = (strings.first()?, strings.get(1)?);
                self.statements.insert(name.clone(), classify(sql));
                None
            }
            b'B' => {
                let strings = c_strings(body);
                let (portal, statement) = (strings.first()?, strings.get(1)?);
                self.portals.insert(portal.clone(), statement.clone());
                None
            }
            b'E' => {
                let portal = c_strings(body).first()?.clone();
                let statement = self.statements.get(self.portals.get(&portal)?)?;
                durable(statement).then(|| statement.head.clone())
            }
            b'C' if body.first() == Some(&b'S') => {
                let name = c_strings(body.get(1..)?).first()?.clone();
                self.statements.remove(&name);
                None
            }
            _ => None,
        }
    }
}

/// The server→client stream.
pub(super) struct Answers {
    phase: Phase,
    pending: Vec<u8>,
}

impl Answers {
    pub(super) fn new() -> Answers {
        Answers {
            phase: Phase::Startup,
            pending: Vec::new(),
        }
    }

    /// Reads `bytes`: the transaction status of the last `ReadyForQuery` among them (`I` idle,
    /// `T` in a transaction, `E` in a failed one). `ssl_due` counts the `SSLRequest`s sent and
    /// not yet answered: their answers are single untyped bytes.
    pub(super) fn feed(&mut self, bytes: &[u8], ssl_due: &AtomicU32) -> Option<u8> {
        let mut status = None;
        if self.phase == Phase::Lost {
            return None;
        }
        self.pending.extend_from_slice(bytes);
        let mut at = 0usize;
        loop {
            let rest = self.pending.get(at..).unwrap_or_default();
            let Some(&first) = rest.first() else { break };
            if self.phase == Phase::Startup {
                if ssl_due.load(Ordering::Acquire) > 0 {
                    ssl_due.fetch_sub(1, Ordering::AcqRel);
                    at += 1;
                    if first != b'N' {
                        // TLS or GSS from here on: nothing to read.
                        self.phase = Phase::Lost;
                        self.pending = Vec::new();
                        return status;
                    }
                    continue;
                }
                self.phase = Phase::Typed;
            }
            let Some(length) = rest.get(1..).and_then(be32) else {
                break;
            };
            let length = length as usize;
            if !(4..=MAX_MESSAGE).contains(&length) {
                self.phase = Phase::Lost;
                self.pending = Vec::new();
                return status;
            }
            let Some(message) = rest.get(..1 + length) else {
                break;
            };
            if first == b'Z' {
                status = message.get(5).copied();
            }
            at += 1 + length;
        }
        self.pending.drain(..at.min(self.pending.len()));
        status
    }
}

fn be32(bytes: &[u8]) -> Option<u32> {
    let b: [u8; 4] = bytes.get(..4)?.try_into().ok()?;
    Some(u32::from_be_bytes(b))
}

/// The NUL-terminated strings at the start of `body`, up to the first that is not terminated.
fn c_strings(body: &[u8]) -> Vec<String> {
    let mut strings = Vec::new();
    let mut rest = body;
    while let Some(end) = rest.iter().position(|b| *b == 0) {
        strings.push(String::from_utf8_lossy(rest.get(..end).unwrap_or_default()).into_owned());
        rest = rest.get(end + 1..).unwrap_or_default();
        if strings.len() >= 2 {
            break;
        }
    }
    strings
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn typed(kind: u8, body: &[u8]) -> Vec<u8> {
        let mut m = vec![kind];
        m.extend_from_slice(&u32::try_from(body.len() + 4).unwrap().to_be_bytes());
        m.extend_from_slice(body);
        m
    }

    fn startup() -> Vec<u8> {
        let mut m = Vec::new();
        let mut ssl = 8u32.to_be_bytes().to_vec();
        ssl.extend_from_slice(&SSL_REQUEST.to_be_bytes());
        m.extend_from_slice(&ssl);
        let body = b"user\0postgres\0\0";
        m.extend_from_slice(&u32::try_from(8 + body.len()).unwrap().to_be_bytes());
        m.extend_from_slice(&PROTOCOL_3.to_be_bytes());
        m.extend_from_slice(body);
        m
    }

    #[test]
    fn statements_are_classified() {
        assert_eq!(classify("COMMIT").effect, Effect::Commit);
        assert_eq!(
            classify("INSERT INTO \"hops\" (\"id\") VALUES ($1)").effect,
            Effect::Write
        );
        assert_eq!(
            classify("update inventory_items set amount = amount + $1").effect,
            Effect::Write
        );
        assert_eq!(
            classify("WITH s AS (UPDATE brew_sessions SET x = 1) INSERT INTO f VALUES (1)").effect,
            Effect::Write
        );
        assert_eq!(
            classify("WITH s AS (SELECT 1) SELECT * FROM s").effect,
            Effect::Other
        );
        assert_eq!(
            classify("INSERT INTO idempotency_keys VALUES ($1)").effect,
            Effect::Bookkeeping
        );
        assert_eq!(
            classify(
                "INSERT INTO \"idempotency_keys\" (k) VALUES ($1) ON CONFLICT (k) DO UPDATE SET \
                 k = $1"
            )
            .effect,
            Effect::Bookkeeping
        );
        // The write and its key's record in one statement: the write under test.
        assert_eq!(
            classify(
                "WITH k AS (INSERT INTO idempotency_keys VALUES ($1)) UPDATE public.\
                 \"inventory_items\" SET amount = amount + 1"
            )
            .effect,
            Effect::Write
        );
        assert_eq!(classify("BEGIN").effect, Effect::Other);
        assert_eq!(
            classify("WITH d AS (SELECT id FROM deliveries FOR UPDATE SKIP LOCKED) SELECT 1")
                .effect,
            Effect::Other
        );
    }

    #[test]
    fn commit_points_in_simple_and_extended_queries() {
        let mut r = Requests::new();
        let sent = r.feed(&startup(), false);
        assert_eq!(sent.ssl_requests, 1);
        assert!(sent.commit_point.is_none());
        // A write inside a transaction is not durable yet; its COMMIT is.
        let mut batch = typed(b'P', b"s1\0INSERT INTO hops VALUES ($1)\0\0\0");
        batch.extend(typed(b'B', b"\0s1\0\0\0\0\0"));
        batch.extend(typed(b'E', b"\0\0\0\0\0"));
        batch.extend(typed(b'S', b""));
        assert!(r.feed(&batch, true).commit_point.is_none());
        assert_eq!(
            r.feed(&typed(b'Q', b"COMMIT\0"), true)
                .commit_point
                .unwrap(),
            "COMMIT"
        );
        // The same prepared statement again, outside a transaction, in two pieces.
        let mut again = typed(b'B', b"\0s1\0\0\0\0\0");
        again.extend(typed(b'E', b"\0\0\0\0\0"));
        let (a, b) = again.split_at(7);
        assert!(r.feed(a, false).commit_point.is_none());
        assert!(
            r.feed(b, false)
                .commit_point
                .unwrap()
                .starts_with("INSERT INTO hops")
        );
        // Bookkeeping never is.
        assert!(
            r.feed(&typed(b'Q', b"UPDATE idempotency_keys SET x = 1\0"), false)
                .commit_point
                .is_none()
        );
    }

    #[test]
    fn a_stream_it_cannot_follow_is_left_alone() {
        let mut r = Requests::new();
        let mut cancel = 16u32.to_be_bytes().to_vec();
        cancel.extend_from_slice(&80_877_102u32.to_be_bytes());
        cancel.extend_from_slice(&[0; 8]);
        r.feed(&cancel, false);
        assert!(
            r.feed(&typed(b'Q', b"COMMIT\0"), true)
                .commit_point
                .is_none()
        );
    }

    #[test]
    fn ready_for_query_status_after_the_ssl_answer() {
        let mut a = Answers::new();
        let due = AtomicU32::new(1);
        let mut bytes = vec![b'N'];
        bytes.extend(typed(b'R', &[0, 0, 0, 0]));
        bytes.extend(typed(b'Z', b"I"));
        assert_eq!(a.feed(&bytes, &due), Some(b'I'));
        assert_eq!(due.load(Ordering::Relaxed), 0);
        let mut more = typed(b'C', b"BEGIN\0");
        more.extend(typed(b'Z', b"T"));
        let (x, y) = more.split_at(9);
        assert_eq!(a.feed(x, &due), None);
        assert_eq!(a.feed(y, &due), Some(b'T'));
    }
}
