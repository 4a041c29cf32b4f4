//! What SQL one request issues, and the pgbench baseline that replays it.
//!
//! * [`RoundTripProxy`] sits between a wort and PostgreSQL (a Unix socket of its own) and counts
//!   round trips from the protocol itself: a round trip starts whenever the client speaks after
//!   every answer came back (every Sync or simple Query awaits one ReadyForQuery). Pipelined
//!   queries go out before the first answer, so they share a round trip.
//! * [`statements`] reads the statements and their parameters from the server log
//!   (`log_statement = all`).
//! * [`pgbench_script`] turns them into a pgbench script with the same statements, pipelined
//!   (`\startpipeline`) exactly where wort pipelined them.

use std::{
    fs,
    io::{Read, Write},
    os::unix::net::{UnixListener, UnixStream},
    path::{Path, PathBuf},
    process::Command,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    thread,
    time::Duration,
};

/// Statements executed per round trip, in order, over every connection through the proxy.
type Trips = Arc<Mutex<Vec<usize>>>;

pub struct RoundTripProxy {
    pub dir: PathBuf,
    pub port: u16,
    trips: Trips,
    stop: Arc<AtomicBool>,
    acceptor: Option<thread::JoinHandle<()>>,
}

impl RoundTripProxy {
    /// Listens on `<dir>/.s.PGSQL.<port>` and forwards to `target` (a server's socket file).
    pub fn start(dir: &Path, port: u16, target: PathBuf) -> Result<RoundTripProxy, String> {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let socket = dir.join(format!(".s.PGSQL.{port}"));
        let _ = fs::remove_file(&socket);
        let listener =
            UnixListener::bind(&socket).map_err(|e| format!("{}: {e}", socket.display()))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("{}: {e}", socket.display()))?;
        let trips: Trips = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let acceptor = {
            let (trips, stop) = (trips.clone(), stop.clone());
            // Polls, so that it notices `stop`; ends with the proxy.
            thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((client, _)) => {
                            if let Ok(server) = UnixStream::connect(&target) {
                                let _ = client.set_nonblocking(false);
                                forward(client, server, trips.clone());
                            }
                        }
                        Err(_) => thread::sleep(Duration::from_millis(5)),
                    }
                }
            })
        };
        Ok(RoundTripProxy {
            dir: dir.to_owned(),
            port,
            trips,
            stop,
            acceptor: Some(acceptor),
        })
    }

    /// How many round trips have been counted so far (a mark for [`Self::trips_since`]).
    pub fn mark(&self) -> usize {
        self.trips.lock().map_or(0, |t| t.len())
    }

    /// Statements per round trip since `mark`.
    pub fn trips_since(&self, mark: usize) -> Vec<usize> {
        self.trips
            .lock()
            .map(|t| t.get(mark..).unwrap_or_default().to_vec())
            .unwrap_or_default()
    }
}

impl Drop for RoundTripProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
        let _ = fs::remove_file(self.dir.join(format!(".s.PGSQL.{}", self.port)));
    }
}

/// One connection's protocol state, shared by its two directions.
#[derive(Default)]
struct Conversation {
    /// Syncs and simple Queries sent whose ReadyForQuery has not come back.
    outstanding: usize,
    /// The startup exchange is over (the first ReadyForQuery came).
    ready: bool,
    /// Every answer is in: the client's next message starts a new round trip.
    idle: bool,
    /// Every answer is in, but not yet passed on to the client (see [`forward`]).
    settling: bool,
    /// Index of the current round trip in the shared list.
    current: Option<usize>,
}

/// Splits a byte stream into protocol messages (type byte + big-endian length incl. itself)
/// without buffering them; the client's first message (startup) has no type byte.
struct Framer {
    header: [u8; 5],
    have: usize,
    skip: usize,
    untyped_first: bool,
}

impl Framer {
    fn new(untyped_first: bool) -> Framer {
        Framer {
            header: [0; 5],
            have: usize::from(untyped_first),
            skip: 0,
            untyped_first,
        }
    }

    /// Calls `on_message` with the type byte of every message that starts in `bytes`.
    fn feed(&mut self, mut bytes: &[u8], on_message: &mut dyn FnMut(u8)) {
        while !bytes.is_empty() {
            if self.skip > 0 {
                let n = self.skip.min(bytes.len());
                self.skip -= n;
                bytes = bytes.get(n..).unwrap_or_default();
                continue;
            }
            let Some((&byte, rest)) = bytes.split_first() else {
                break;
            };
            if let Some(slot) = self.header.get_mut(self.have) {
                *slot = byte;
            }
            self.have += 1;
            bytes = rest;
            if self.have == 5 {
                let [kind, a, b, c, d] = self.header;
                let length = u32::from_be_bytes([a, b, c, d]) as usize;
                self.skip = length.saturating_sub(4);
                self.have = 0;
                if std::mem::take(&mut self.untyped_first) {
                    continue; // the startup packet
                }
                on_message(kind);
            }
        }
    }
}

/// Copies both directions on two threads, counting round trips on the way. The last answer of a
/// round trip is held back for a moment before it is passed on: a client that pipelines may
/// write its queries in several pieces, and the proxy must have read all of them before it
/// declares the client idle (the client cannot react to an answer it has not received yet).
const SETTLE: Duration = Duration::from_millis(2);

fn forward(client: UnixStream, server: UnixStream, trips: Trips) {
    let state = Arc::new(Mutex::new(Conversation::default()));
    let pairs = [
        (client.try_clone(), server.try_clone(), true),
        (server.try_clone(), client.try_clone(), false),
    ];
    for (from, to, from_client) in pairs {
        let (Ok(mut from), Ok(mut to)) = (from, to) else {
            return;
        };
        let (state, trips) = (state.clone(), trips.clone());
        thread::spawn(move || {
            let mut framer = Framer::new(from_client);
            let mut buf = vec![0u8; 64 * 1024];
            // Ends when either side closes.
            while let Ok(n) = from.read(&mut buf) {
                let Some(chunk) = buf.get(..n).filter(|c| !c.is_empty()) else {
                    break;
                };
                let mut settling = false;
                if let (Ok(mut conv), Ok(mut trips)) = (state.lock(), trips.lock()) {
                    framer.feed(chunk, &mut |kind| {
                        account(&mut conv, &mut trips, kind, from_client);
                    });
                    settling = conv.settling;
                }
                if settling && !from_client {
                    thread::sleep(SETTLE);
                    if let Ok(mut conv) = state.lock() {
                        settle(&mut conv);
                    }
                }
                if to.write_all(chunk).is_err() {
                    break;
                }
            }
            let _ = to.shutdown(std::net::Shutdown::Both);
        });
    }
}

fn account(conv: &mut Conversation, trips: &mut Vec<usize>, kind: u8, from_client: bool) {
    if !from_client {
        if kind == b'Z' {
            conv.outstanding = conv.outstanding.saturating_sub(1);
            conv.ready = true;
            conv.settling = conv.outstanding == 0;
        }
        return;
    }
    if !conv.ready || kind == b'X' {
        return; // startup, or Terminate
    }
    conv.settling = false; // more came from the client: same round trip
    if conv.idle {
        conv.idle = false;
        trips.push(0);
        conv.current = Some(trips.len() - 1);
    }
    if matches!(kind, b'E' | b'Q')
        && let Some(count) = conv.current.and_then(|i| trips.get_mut(i))
    {
        *count += 1;
    }
    if matches!(kind, b'S' | b'Q') {
        conv.outstanding += 1;
    }
}

/// The answers are about to reach the client: whatever it sends next is a new round trip.
fn settle(conv: &mut Conversation) {
    if std::mem::take(&mut conv.settling) {
        conv.idle = true;
    }
}

/// One statement as the server ran it, with its parameters' text (`None` for NULL).
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    pub sql: String,
    /// Sent as a simple query (`BEGIN`, `COMMIT`) rather than with the extended protocol.
    pub simple: bool,
    /// Run as a named prepared statement (diesel's statement cache) rather than unnamed.
    pub prepared: bool,
    pub params: Vec<Option<String>>,
}

/// The statements logged (with `log_statement = all` and the default `log_line_prefix`) in
/// `log`, in order.
pub fn statements(log: &str) -> Vec<Statement> {
    let mut out: Vec<Statement> = Vec::new();
    let mut last_was_statement = false;
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix('\t') {
            // A continuation of the previous message.
            if last_was_statement && let Some(s) = out.last_mut() {
                s.sql.push('\n');
                s.sql.push_str(rest);
            }
            continue;
        }
        last_was_statement = false;
        if let Some((_, message)) = line.split_once(" LOG:  ") {
            if let Some(sql) = message.strip_prefix("statement: ") {
                out.push(Statement {
                    sql: sql.to_owned(),
                    simple: true,
                    prepared: false,
                    params: Vec::new(),
                });
                last_was_statement = true;
            } else if let Some(rest) = message.strip_prefix("execute ")
                && let Some((name, sql)) = rest.split_once(": ")
            {
                out.push(Statement {
                    sql: sql.to_owned(),
                    simple: false,
                    prepared: name != "<unnamed>",
                    params: Vec::new(),
                });
                last_was_statement = true;
            }
        } else if let Some((_, detail)) = line.split_once(" DETAIL:  parameters: ")
            && let Some(s) = out.last_mut()
        {
            s.params = parse_params(detail);
        }
    }
    out
}

/// `$1 = 'a''b', $2 = NULL` → `[Some("a'b"), None]`.
fn parse_params(text: &str) -> Vec<Option<String>> {
    let mut params = Vec::new();
    let mut rest = text;
    // Bounded by the text: every round consumes at least one parameter.
    while let Some(after) = rest.strip_prefix('$') {
        let Some((_, value)) = after.split_once(" = ") else {
            break;
        };
        if let Some(tail) = value.strip_prefix("NULL") {
            params.push(None);
            rest = tail;
        } else if let Some(quoted) = value.strip_prefix('\'') {
            let mut literal = String::new();
            let mut chars = quoted.char_indices().peekable();
            let mut end = quoted.len();
            while let Some((i, c)) = chars.next() {
                if c == '\'' {
                    if chars.peek().is_some_and(|&(_, n)| n == '\'') {
                        literal.push('\'');
                        chars.next();
                    } else {
                        end = i + 1;
                        break;
                    }
                } else {
                    literal.push(c);
                }
            }
            params.push(Some(literal));
            rest = quoted.get(end..).unwrap_or_default();
        } else {
            break;
        }
        rest = rest.strip_prefix(", ").unwrap_or(rest);
    }
    params
}

/// The statement with its parameters written in as literals. A row inserted with a fixed
/// primary key would collide when replayed, so the parameter that an `INSERT` puts in its `id`
/// column gets a fresh value (`gen_random_uuid()`) each time, as wort makes a fresh one per
/// request.
fn with_literals(statement: &Statement) -> String {
    let sql = &statement.sql;
    let fresh_id = inserted_id_parameter(sql);
    // One pass over the text, so that a `$1` inside an inserted value stays as it is.
    let mut out = String::with_capacity(sql.len() * 2);
    let mut rest = sql.as_str();
    while let Some(at) = rest.find('$') {
        out.push_str(rest.get(..at).unwrap_or_default());
        let after = rest.get(at + 1..).unwrap_or_default();
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let number = after.get(..digits).and_then(|d| d.parse::<usize>().ok());
        match number.and_then(|n| Some((n, statement.params.get(n.checked_sub(1)?)?))) {
            Some((n, _)) if Some(n) == fresh_id => out.push_str("gen_random_uuid()"),
            Some((_, None)) => out.push_str("NULL"),
            Some((_, Some(value))) => {
                out.push('\'');
                out.push_str(&value.replace('\'', "''"));
                out.push('\'');
            }
            None => {
                out.push('$');
                rest = after;
                continue;
            }
        }
        rest = after.get(digits..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// The number of the parameter an `INSERT` writes into its `id` column, when `id` is the first
/// column listed and the first value is a parameter: `INSERT INTO t ("id", …) VALUES ($1, …)`
/// (diesel), or `… INSERT INTO t (id, …) SELECT $4, … FROM …` (wort's hand-written statements).
fn inserted_id_parameter(sql: &str) -> Option<usize> {
    let at = sql.find("INSERT INTO ")?;
    let after_table = sql.get(at..)?.split_once('(')?.1;
    let (first_column, rest) = after_table.split_once(',')?;
    if first_column.trim().trim_matches('"') != "id" {
        return None;
    }
    let values = rest.split_once(')')?.1.trim_start();
    let first_value = values
        .strip_prefix("VALUES")
        .map(|v| v.trim_start().trim_start_matches('('))
        .or_else(|| values.strip_prefix("SELECT"))?
        .trim_start()
        .strip_prefix('$')?;
    let digits = first_value.bytes().take_while(u8::is_ascii_digit).count();
    first_value.get(..digits)?.parse().ok()
}

/// A pgbench script running `statements` grouped as `trips` (statements per round trip). When
/// the two do not add up, every statement gets a round trip of its own.
pub fn pgbench_script(statements: &[Statement], trips: &[usize]) -> String {
    let mut script = String::new();
    let grouped = trips.iter().sum::<usize>() == statements.len();
    let mut remaining = statements.iter();
    let groups: Vec<usize> = if grouped {
        trips.iter().copied().filter(|&n| n > 0).collect()
    } else {
        vec![1; statements.len()]
    };
    for size in groups {
        let pipelined = size > 1;
        if pipelined {
            script.push_str("\\startpipeline\n");
        }
        for statement in remaining.by_ref().take(size) {
            script.push_str(with_literals(statement).trim_end().trim_end_matches(';'));
            script.push_str(";\n");
        }
        if pipelined {
            script.push_str("\\endpipeline\n");
        }
    }
    script
}

/// pgbench's throughput for `script` with `clients` connections, in transactions (one
/// transaction = one request's SQL) per second.
pub struct Pgbench<'a> {
    pub program: &'a Path,
    pub socket_dir: &'a Path,
    pub port: u16,
    pub database: &'a str,
    pub clients: usize,
    pub threads: usize,
}

impl Pgbench<'_> {
    pub fn run(&self, script: &Path, prepared: bool, duration: Duration) -> Result<f64, String> {
        let output = Command::new(self.program)
            .args(["-n", "-M", if prepared { "prepared" } else { "extended" }])
            .args(["-c", &self.clients.to_string()])
            .args(["-j", &self.threads.min(self.clients).to_string()])
            .args(["-T", &duration.as_secs().max(1).to_string()])
            .arg("-f")
            .arg(script)
            .arg("-h")
            .arg(self.socket_dir)
            .args([
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                self.database,
            ])
            .output()
            .map_err(|e| format!("could not run pgbench: {e}"))?;
        let text = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            return Err(format!(
                "pgbench failed ({}): {text}{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        parse_tps(&text).ok_or_else(|| format!("could not read pgbench's output:\n{text}"))
    }
}

fn parse_tps(text: &str) -> Option<f64> {
    text.lines().find_map(|line| {
        line.trim()
            .strip_prefix("tps = ")?
            .split_whitespace()
            .next()?
            .parse::<f64>()
            .ok()
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    const LOG: &str = "\
2026-11-22 07:00:00.001 UTC [42] LOG:  execute s0: SELECT \"a\" FROM \"t\" WHERE \"k\" = $1 AND \"n\" = $2
2026-11-22 07:00:00.001 UTC [42] DETAIL:  parameters: $1 = '\\x0102', $2 = NULL
2026-11-22 07:00:00.002 UTC [42] LOG:  statement: BEGIN
2026-11-22 07:00:00.003 UTC [42] LOG:  execute <unnamed>: INSERT INTO \"logs\" (\"id\", \"note\") VALUES ($1, $2)
\tRETURNING \"id\"
2026-11-22 07:00:00.003 UTC [42] DETAIL:  parameters: $1 = 'b0000000-0000-4000-8000-000000000001', $2 = 'it''s, $1'
2026-11-22 07:00:00.004 UTC [42] LOG:  statement: COMMIT
";

    #[test]
    fn reads_statements_and_parameters_from_the_log() {
        let s = statements(LOG);
        assert_eq!(s.len(), 4);
        assert!(s[0].prepared);
        assert_eq!(s[0].params, vec![Some("\\x0102".to_owned()), None]);
        assert_eq!(s[1].sql, "BEGIN");
        assert!(s[1].simple && !s[0].simple);
        assert!(!s[2].prepared);
        assert!(s[2].sql.ends_with("\nRETURNING \"id\""));
        assert_eq!(s[2].params[1].as_deref(), Some("it's, $1"));
    }

    #[test]
    fn scripts_pipeline_what_was_pipelined_and_renew_inserted_ids() {
        let s = statements(LOG);
        let script = pgbench_script(&s, &[2, 1, 1]);
        assert_eq!(
            script,
            "\\startpipeline\n\
             SELECT \"a\" FROM \"t\" WHERE \"k\" = '\\x0102' AND \"n\" = NULL;\n\
             BEGIN;\n\
             \\endpipeline\n\
             INSERT INTO \"logs\" (\"id\", \"note\") VALUES (gen_random_uuid(), 'it''s, $1')\nRETURNING \"id\";\n\
             COMMIT;\n"
        );
        // Counts that do not add up: one statement per round trip.
        assert!(!pgbench_script(&s, &[1]).contains("pipeline"));
    }

    #[test]
    fn finds_the_parameter_of_an_inserted_id() {
        assert_eq!(
            inserted_id_parameter("INSERT INTO \"logs\" (\"id\", \"note\") VALUES ($1, $2)"),
            Some(1)
        );
        assert_eq!(
            inserted_id_parameter(
                "WITH touched AS (UPDATE s SET u = $1 WHERE id = $2 RETURNING id) \
                 INSERT INTO logs (id, user_id, session_id) SELECT $4, $3, touched.id FROM touched"
            ),
            Some(4)
        );
        assert_eq!(
            inserted_id_parameter("INSERT INTO t (user_id, id) VALUES ($1, $2)"),
            None
        );
        assert_eq!(
            inserted_id_parameter("UPDATE t SET a = $1 WHERE id = $2"),
            None
        );
    }

    #[test]
    fn counts_round_trips_from_the_protocol() {
        let mut conv = Conversation::default();
        let mut trips = Vec::new();
        let mut send = |kinds: &[u8], from_client: bool, passed_on: bool| {
            for &k in kinds {
                account(&mut conv, &mut trips, k, from_client);
            }
            if passed_on {
                settle(&mut conv);
            }
        };
        send(b"p", true, false); // startup: not counted
        send(b"RSKZ", false, true);
        send(b"BES", true, false); // one query
        send(b"2DCZ", false, true);
        send(b"BESBESBES", true, false); // three pipelined
        send(b"2DCZ2DCZ2DCZ", false, true);
        send(b"Q", true, false); // a simple query
        send(b"CZ", false, true);
        // A pipeline whose second half the proxy reads after the first answer came in from the
        // server but before that answer was passed on: still one round trip.
        send(b"BES", true, false);
        send(b"2DCZ", false, false);
        send(b"BES", true, false);
        send(b"2DCZ", false, true);
        send(b"X", true, false);
        assert_eq!(trips, vec![1, 3, 1, 2]);
    }

    #[test]
    fn frames_messages_across_reads() {
        let mut framer = Framer::new(true);
        let mut kinds = Vec::new();
        let stream = [
            &[0, 0, 0, 8, 0, 3, 0, 0][..],    // startup, untyped
            &[b'Q', 0, 0, 0, 6, b'x', 0][..], // Query "x"
            &[b'S', 0, 0, 0, 4][..],          // Sync
        ]
        .concat();
        for chunk in stream.chunks(3) {
            framer.feed(chunk, &mut |k| kinds.push(k));
        }
        assert_eq!(kinds, b"QS");
    }

    #[test]
    fn reads_pgbench_tps() {
        let out = "latency average = 1.0 ms\ntps = 7979.123456 (without initial connection time)\n";
        assert_eq!(parse_tps(out), Some(7979.123456));
    }
}
