//! A TCP proxy on 127.0.0.1 in front of the cluster's Unix socket that can hold bytes back:
//! wort's `DATABASE_URL` points at it. Each connection is two threads copying bytes, one each
//! way; before a chunk is passed on, its direction's gate is checked, and a closed gate keeps the
//! chunk (and everything behind it) until it opens. Nothing is dropped or reordered: a delay,
//! as a slow or congested network gives, never a loss. Bytes held on the way to PostgreSQL are
//! still delivered after wort has given up and closed the connection, as TCP would deliver them.
//!
//! Three kinds of window (see [`Window`]):
//! * after a commit point: armed for a while; the next connections that send a `COMMIT` (or a
//!   data-modifying statement outside a transaction, see [`pgwire`]) have every answer held
//!   from then on for the hold's length, so the write is durable in PostgreSQL while wort
//!   waits past its deadline for the answer;
//! * all answers: every connection's server→client bytes held;
//! * all requests: every connection's client→server bytes held.
//!
//! std threads, not an async runtime: xtask stays std only, and a pool of 16 connections is 32
//! threads. Every thread ends when either side closes, or within 200 ms of [`Proxy::stop`].

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::pgwire::{Answers, Requests};

/// How often a blocked read or a closed gate looks at the stop flag.
const TICK: Duration = Duration::from_millis(200);
const GATE_TICK: Duration = Duration::from_millis(5);

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum WindowKind {
    /// Armed for `arm`; up to `connections` connections reaching a commit point get their
    /// answers held for the window's length.
    AfterCommit {
        arm: Duration,
        connections: u32,
    },
    AllAnswers,
    AllRequests,
}

/// One window of the schedule, as it went.
#[derive(Clone, Debug)]
pub(super) struct Window {
    pub(super) at: Duration,
    pub(super) kind: WindowKind,
    pub(super) hold: Duration,
    /// Connections that had bytes held by this window.
    pub(super) connections_held: usize,
    /// Of those, the ones wort closed while their bytes were held (its deadline ran out).
    pub(super) cut_by_wort: usize,
    /// For `AfterCommit`: the statements whose answers were held, one per connection.
    pub(super) triggers: Vec<String>,
}

struct Plan {
    answers_until: Option<(Instant, usize)>,
    requests_until: Option<(Instant, usize)>,
    armed: Option<Arming>,
}

struct Arming {
    until: Instant,
    left: u32,
    hold: Duration,
    window: usize,
}

struct Shared {
    upstream: PathBuf,
    stop: AtomicBool,
    opened: AtomicUsize,
    plan: Mutex<Plan>,
    windows: Mutex<Vec<Window>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One proxied connection's state shared by its two threads.
struct Conn {
    /// Answers held until then, for this window (after a commit point).
    answers_until: Mutex<Option<(Instant, usize)>>,
    /// The server's last `ReadyForQuery` said a transaction is open.
    in_transaction: AtomicBool,
    ssl_due: AtomicU32,
    /// wort closed its side.
    client_gone: AtomicBool,
}

pub(super) struct Proxy {
    pub(super) addr: SocketAddr,
    shared: Arc<Shared>,
    acceptor: Option<thread::JoinHandle<()>>,
}

impl Proxy {
    /// Listens on a free port of 127.0.0.1 and forwards each connection to `upstream` (the
    /// cluster's socket file).
    pub(super) fn start(upstream: PathBuf) -> Result<Proxy, String> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("proxy: {e}"))?;
        let addr = listener.local_addr().map_err(|e| format!("proxy: {e}"))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("proxy: {e}"))?;
        let shared = Arc::new(Shared {
            upstream,
            stop: AtomicBool::new(false),
            opened: AtomicUsize::new(0),
            plan: Mutex::new(Plan {
                answers_until: None,
                requests_until: None,
                armed: None,
            }),
            windows: Mutex::new(Vec::new()),
        });
        let for_acceptor = Arc::clone(&shared);
        let acceptor = thread::spawn(move || accept(&listener, &for_acceptor));
        Ok(Proxy {
            addr,
            shared,
            acceptor: Some(acceptor),
        })
    }

    /// Opens a window now (logged at its time since `since`); its effect is logged in
    /// [`windows`](Self::windows).
    pub(super) fn open(&self, kind: WindowKind, hold: Duration, since: Instant) {
        let now = Instant::now();
        let mut windows = lock(&self.shared.windows);
        let index = windows.len();
        windows.push(Window {
            at: now.saturating_duration_since(since),
            kind,
            hold,
            connections_held: 0,
            cut_by_wort: 0,
            triggers: Vec::new(),
        });
        drop(windows);
        let mut plan = lock(&self.shared.plan);
        match kind {
            WindowKind::AfterCommit { arm, connections } => {
                plan.armed = Some(Arming {
                    until: now + arm,
                    left: connections,
                    hold,
                    window: index,
                });
            }
            WindowKind::AllAnswers => plan.answers_until = Some((now + hold, index)),
            WindowKind::AllRequests => plan.requests_until = Some((now + hold, index)),
        }
    }

    /// No new hold from now on; the ones running end by themselves.
    pub(super) fn quiet(&self) {
        lock(&self.shared.plan).armed = None;
    }

    pub(super) fn windows(&self) -> Vec<Window> {
        lock(&self.shared.windows).clone()
    }

    pub(super) fn connections_opened(&self) -> usize {
        self.shared.opened.load(Ordering::Relaxed)
    }

    pub(super) fn stop(mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

fn accept(listener: &TcpListener, shared: &Arc<Shared>) {
    while !shared.stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((client, _)) => {
                let shared = Arc::clone(shared);
                thread::spawn(move || {
                    if let Err(e) = serve(client, &shared) {
                        eprintln!("    proxy: a connection failed to start: {e}");
                    }
                });
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                eprintln!("    proxy: accept failed: {e}");
                thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

fn serve(client: TcpStream, shared: &Arc<Shared>) -> std::io::Result<()> {
    client.set_nonblocking(false)?;
    client.set_nodelay(true)?;
    let upstream = UnixStream::connect(&shared.upstream)?;
    client.set_read_timeout(Some(TICK))?;
    upstream.set_read_timeout(Some(TICK))?;
    shared.opened.fetch_add(1, Ordering::Relaxed);
    let conn = Arc::new(Conn {
        answers_until: Mutex::new(None),
        in_transaction: AtomicBool::new(false),
        ssl_due: AtomicU32::new(0),
        client_gone: AtomicBool::new(false),
    });
    let (client_in, upstream_out) = (client.try_clone()?, upstream.try_clone()?);
    let (s, c) = (Arc::clone(shared), Arc::clone(&conn));
    thread::spawn(move || requests(client_in, upstream_out, &s, &c));
    answers(upstream, client, shared, &conn);
    Ok(())
}

/// A read that treats its timeout as "nothing yet": `None` at the end of the stream or on error.
fn read_some(stream: &mut impl Read, buffer: &mut [u8], stop: &AtomicBool) -> Option<usize> {
    loop {
        match stream.read(buffer) {
            Ok(0) => return None,
            Ok(n) => return Some(n),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// Waits while `until` says the gate is closed (a hold's end and its window); counts the
/// connection once per window that held it. The windows it waited for.
fn wait_gate(
    shared: &Shared,
    until: impl Fn() -> Option<(Instant, usize)>,
    seen: &mut Vec<usize>,
) -> Vec<usize> {
    let mut waited = Vec::new();
    while let Some((end, window)) = until() {
        if Instant::now() >= end || shared.stop.load(Ordering::Relaxed) {
            break;
        }
        if !waited.contains(&window) {
            waited.push(window);
        }
        if !seen.contains(&window) {
            seen.push(window);
            if let Some(w) = lock(&shared.windows).get_mut(window) {
                w.connections_held += 1;
            }
        }
        thread::sleep(GATE_TICK);
    }
    waited
}

/// wort closed the connection while (or right after) these windows held it.
fn count_cut(shared: &Shared, windows: &[usize], cut: &mut Vec<usize>) {
    for window in windows {
        if !cut.contains(window) {
            cut.push(*window);
            if let Some(w) = lock(&shared.windows).get_mut(*window) {
                w.cut_by_wort += 1;
            }
        }
    }
}

fn requests(mut client: TcpStream, mut upstream: UnixStream, shared: &Shared, conn: &Conn) {
    let mut parser = Requests::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let (mut seen, mut cut, mut last_waited) = (Vec::new(), Vec::new(), Vec::new());
    while let Some(n) = read_some(&mut client, &mut buffer, &shared.stop) {
        let chunk = buffer.get(..n).unwrap_or_default();
        let sent = parser.feed(chunk, conn.in_transaction.load(Ordering::Acquire));
        conn.ssl_due.fetch_add(sent.ssl_requests, Ordering::AcqRel);
        if let Some(statement) = sent.commit_point {
            arm_hold(shared, conn, statement);
        }
        let held = || lock(&shared.plan).requests_until;
        last_waited = wait_gate(shared, held, &mut seen);
        if upstream.write_all(chunk).is_err() {
            break;
        }
    }
    conn.client_gone.store(true, Ordering::Relaxed);
    // The held bytes were wort's last: it had given up on them.
    count_cut(shared, &last_waited, &mut cut);
    let _ = upstream.shutdown(Shutdown::Write);
}

/// At a commit point, while a window is armed: hold this connection's answers from now on,
/// before the statement is passed on, so its answer cannot slip through.
fn arm_hold(shared: &Shared, conn: &Conn, statement: String) {
    let mut plan = lock(&shared.plan);
    let Some(arming) = plan.armed.as_mut() else {
        return;
    };
    let now = Instant::now();
    if now >= arming.until || arming.left == 0 {
        plan.armed = None;
        return;
    }
    let mut mine = lock(&conn.answers_until);
    if mine.is_some_and(|(end, _)| end > now) {
        return;
    }
    *mine = Some((now + arming.hold, arming.window));
    arming.left -= 1;
    let window = arming.window;
    if arming.left == 0 {
        plan.armed = None;
    }
    drop(plan);
    if let Some(w) = lock(&shared.windows).get_mut(window) {
        w.triggers.push(statement);
    }
}

fn answers(mut upstream: UnixStream, mut client: TcpStream, shared: &Shared, conn: &Conn) {
    let mut parser = Answers::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let (mut seen, mut cut) = (Vec::new(), Vec::new());
    while let Some(n) = read_some(&mut upstream, &mut buffer, &shared.stop) {
        let chunk = buffer.get(..n).unwrap_or_default();
        if let Some(status) = parser.feed(chunk, &conn.ssl_due) {
            conn.in_transaction.store(status != b'I', Ordering::Release);
        }
        let held = || {
            let mine = *lock(&conn.answers_until);
            let all = lock(&shared.plan).answers_until;
            let now = Instant::now();
            // The later-ending of the two that still runs.
            [mine, all]
                .into_iter()
                .flatten()
                .filter(|(end, _)| *end > now)
                .max_by_key(|(end, _)| *end)
        };
        let waited = wait_gate(shared, held, &mut seen);
        if conn.client_gone.load(Ordering::Relaxed) {
            count_cut(shared, &waited, &mut cut);
        }
        if client.write_all(chunk).is_err() {
            break;
        }
    }
    let _ = client.shutdown(Shutdown::Both);
    let _ = upstream.shutdown(Shutdown::Both);
}
