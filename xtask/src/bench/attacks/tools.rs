//! What the attack scenarios are made of: raw HTTP/1.1 requests (a client library would refuse
//! most of them), bursts of simultaneous requests, webhook receivers on 127.0.0.1 (one that
//! answers at once, one that never does), trickling request bodies, and the files they send.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::super::load::Connection;

/// `method path` as HTTP/1.1 bytes, with `headers`, a `Content-Length` when there is a body or
/// the method is `POST`, and the body.
pub fn request(
    method: &str,
    path: &str,
    addr: SocketAddr,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Vec<u8> {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// What one request got.
pub struct Sent {
    /// 0 when no answer came (refused, reset, timed out).
    pub status: u16,
    pub body: Vec<u8>,
    pub took: Duration,
}

/// One request on its own connection, waiting up to `timeout` for each read and write.
pub fn send(addr: SocketAddr, bytes: &[u8], timeout: Duration) -> Sent {
    let started = Instant::now();
    match Connection::with_timeout(addr, timeout).send(bytes) {
        Ok(response) => Sent {
            status: response.status,
            body: response.body,
            took: started.elapsed(),
        },
        Err(_) => Sent {
            status: 0,
            body: Vec::new(),
            took: started.elapsed(),
        },
    }
}

/// Every request on its own connection and thread, all released at once by a barrier; the
/// answers in the order of `requests`.
pub fn simultaneous(addr: SocketAddr, requests: Vec<Vec<u8>>, timeout: Duration) -> Vec<Sent> {
    let barrier = Arc::new(Barrier::new(requests.len()));
    let threads: Vec<_> = requests
        .into_iter()
        .map(|bytes| {
            let barrier = barrier.clone();
            thread::spawn(move || {
                barrier.wait();
                send(addr, &bytes, timeout)
            })
        })
        .collect();
    threads
        .into_iter()
        .map(|t| {
            t.join().unwrap_or(Sent {
                status: 0,
                body: Vec::new(),
                took: Duration::ZERO,
            })
        })
        .collect()
}

/// The value of the first `"id":"…"` in a JSON text (a top-level id when no object before it
/// has one).
pub fn json_id(body: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(body).ok()?;
    let start = text.find("\"id\":\"")? + "\"id\":\"".len();
    Some(text.get(start..)?.split('"').next()?.to_owned())
}

/// xorshift64*: random enough for junk methods, and std-only.
pub struct Rng(u64);

impl Rng {
    /// Seeded from the clock; `stream` tells apart generators made at the same moment.
    pub fn seeded(stream: u64) -> Rng {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0x9e37_79b9, |d| d.as_nanos() as u64);
        Rng((nanos ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// `len` random capital letters: a valid HTTP method token nobody has registered.
    pub fn method(&mut self, len: usize) -> String {
        (0..len)
            .map(|_| char::from(b'A' + (self.next() % 26) as u8))
            .collect()
    }
}

// ---- Files -------------------------------------------------------------------------------------

/// One BeerXML recipe with a fermentable and the given hops.
pub fn xml_recipe(name: &str, hops: &str) -> String {
    format!(
        "<RECIPE><NAME>{name}</NAME><TYPE>All Grain</TYPE><BATCH_SIZE>20</BATCH_SIZE>\
         <BOIL_TIME>60</BOIL_TIME><EFFICIENCY>75</EFFICIENCY>\
         <FERMENTABLES><FERMENTABLE><NAME>Pale</NAME><TYPE>Grain</TYPE><AMOUNT>4</AMOUNT>\
         <YIELD>80</YIELD><COLOR>3</COLOR></FERMENTABLE></FERMENTABLES>\
         <HOPS>{hops}</HOPS></RECIPE>"
    )
}

/// A hop used for 60 minutes in the boil.
pub const PLAIN_HOP: &str = "<HOP><NAME>Saaz</NAME><ALPHA>3.5</ALPHA><AMOUNT>0.03</AMOUNT><USE>Boil</USE><TIME>60</TIME></HOP>";

/// A hop with three values out of range (alpha, amount, time): three warnings each.
const WILD_HOP: &str = "<HOP><NAME>Saaz</NAME><ALPHA>150</ALPHA><AMOUNT>1000</AMOUNT><USE>Boil</USE><TIME>1e9</TIME></HOP>";

pub fn xml_file(recipes: &str) -> Vec<u8> {
    format!("<?xml version=\"1.0\"?><RECIPES>{recipes}</RECIPES>").into_bytes()
}

/// The report-bomb: a recipe named with `name_bytes` ASCII letters and `hops` hops out of range.
/// Every warning once carried the whole name.
pub fn giant_report_file(name_bytes: usize, hops: usize) -> Vec<u8> {
    let name = "x".repeat(name_bytes);
    xml_file(&xml_recipe(&name, &WILD_HOP.repeat(hops)))
}

/// A file of exactly `size` bytes: the report-bomb, padded with an XML comment.
pub fn padded_file(name_bytes: usize, hops: usize, size: usize) -> Vec<u8> {
    let file = giant_report_file(name_bytes, hops);
    let room = size.saturating_sub(file.len() + "<!---->".len());
    let mut padded = Vec::with_capacity(size);
    padded.extend_from_slice(b"<!--");
    padded.resize(4 + room, b'-');
    // "--" may not occur inside a comment: pad with a letter instead.
    for byte in padded.iter_mut().skip(4) {
        *byte = b'p';
    }
    padded.extend_from_slice(b"-->");
    // The comment goes after the XML declaration, before the root element.
    let split = file
        .windows(2)
        .position(|w| w == b"?>")
        .map_or(0, |i| i + 2);
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(file.get(..split).unwrap_or_default());
    out.extend_from_slice(&padded);
    out.extend_from_slice(file.get(split..).unwrap_or_default());
    out
}

// ---- Webhook receivers ---------------------------------------------------------------------------

/// A receiver on 127.0.0.1 that answers every request `200` at once and keeps its body with the
/// time it arrived. Stops when dropped (or after `LIFETIME`).
pub struct Receiver {
    pub addr: SocketAddr,
    bodies: Arc<Mutex<Vec<(Instant, String)>>>,
    stop: Arc<AtomicBool>,
}

/// No receiver or listener of a scenario outlives this.
const LIFETIME: Duration = Duration::from_secs(900);

impl Receiver {
    pub fn start() -> Result<Receiver, String> {
        let (listener, addr) = local_listener()?;
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (shared, stopping) = (bodies.clone(), stop.clone());
        thread::spawn(move || {
            accept_until(&listener, &stopping, |stream| {
                let (shared, stopping) = (shared.clone(), stopping.clone());
                thread::spawn(move || answer_all(stream, &shared, &stopping));
            });
        });
        Ok(Receiver { addr, bodies, stop })
    }

    /// The bodies received so far, with their arrival times.
    pub fn bodies(&self) -> Vec<(Instant, String)> {
        self.bodies.lock().map(|b| b.clone()).unwrap_or_default()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A listener on 127.0.0.1 that accepts every connection and never reads or answers: the
/// receiver that makes each delivery wait for its full timeout. Stops when dropped.
pub struct BlackHole {
    pub addr: SocketAddr,
    held: Arc<Mutex<usize>>,
    stop: Arc<AtomicBool>,
}

impl BlackHole {
    pub fn start() -> Result<BlackHole, String> {
        let (listener, addr) = local_listener()?;
        let held = Arc::new(Mutex::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (count, stopping) = (held.clone(), stop.clone());
        thread::spawn(move || {
            let mut streams = Vec::new();
            accept_until(&listener, &stopping, |stream| {
                streams.push(stream);
                if let Ok(mut n) = count.lock() {
                    *n += 1;
                }
            });
        });
        Ok(BlackHole { addr, held, stop })
    }

    /// Connections accepted so far.
    pub fn accepted(&self) -> usize {
        self.held.lock().map(|n| *n).unwrap_or(0)
    }
}

impl Drop for BlackHole {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn local_listener() -> Result<(TcpListener, SocketAddr), String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    Ok((listener, addr))
}

/// Accepts connections until `stop` (or `LIFETIME`), handing each to `each`.
fn accept_until(listener: &TcpListener, stop: &AtomicBool, mut each: impl FnMut(TcpStream)) {
    let until = Instant::now() + LIFETIME;
    while !stop.load(Ordering::Relaxed) && Instant::now() < until {
        match listener.accept() {
            Ok((stream, _)) => {
                let _ = stream.set_nonblocking(false);
                each(stream);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                thread::sleep(Duration::from_millis(2));
            }
            Err(_) => thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// Reads requests off one keep-alive connection and answers each `200` at once.
fn answer_all(stream: TcpStream, bodies: &Mutex<Vec<(Instant, String)>>, stop: &AtomicBool) {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let until = Instant::now() + LIFETIME;
    while !stop.load(Ordering::Relaxed) && Instant::now() < until {
        let Some(length) = read_head(&mut reader, stop) else {
            return;
        };
        let mut body = vec![0u8; length.min(1 << 20)];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let arrived = Instant::now();
        if let Ok(mut b) = bodies.lock() {
            b.push((arrived, String::from_utf8_lossy(&body).into_owned()));
        }
        if writer
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
            .is_err()
        {
            return;
        }
    }
}

/// The head of one request: its Content-Length, `None` when the connection ends first.
fn read_head(reader: &mut BufReader<TcpStream>, stop: &AtomicBool) -> Option<usize> {
    let mut length = 0;
    let mut line = String::new();
    let mut started = false;
    // Bounded: a head of more than 200 lines is not a wort delivery.
    for _ in 0..200 {
        line.clear();
        loop {
            match reader.read_line(&mut line) {
                Ok(0) => return None,
                Ok(_) => break,
                // An idle keep-alive connection between deliveries: wait on, unless stopping.
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                }
                Err(_) => return None,
            }
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            if started {
                return Some(length);
            }
            continue;
        }
        started = true;
        if let Some((name, value)) = trimmed.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    None
}

// ---- Slow bodies -------------------------------------------------------------------------------

/// The soft limit on open files of this process (`/proc/self/limits`).
pub fn open_file_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.get("Max open files".len()..)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// What became of one trickling connection.
#[derive(Clone, Copy)]
pub enum Fate {
    /// Answered with this status, this long after its head was sent.
    Answered(u16, Duration),
    /// Closed or reset by the server without an answer we could read.
    Cut(Duration),
    /// Still open when the run gave up on it.
    Open,
}

struct Slow {
    stream: TcpStream,
    opened: Instant,
    next_byte: Instant,
    seen: Vec<u8>,
    fate: Option<Fate>,
}

/// Opens up to `n` connections that each send a whole request head declaring a body of
/// `declared` bytes, then one body byte every `every`; watches them all from `threads` threads
/// until each is answered or cut, or `limit` passes. Each connection's fate with when it was
/// opened (since the first), and how many connections could be opened.
pub fn trickle(
    addr: SocketAddr,
    head: &[u8],
    n: usize,
    every: Duration,
    threads: usize,
    limit: Duration,
) -> (Vec<(Duration, Fate)>, usize) {
    let first = Instant::now();
    let opening_ends = first + Duration::from_secs(120);
    let mut opened: Vec<Slow> = Vec::with_capacity(n);
    for _ in 0..n {
        if Instant::now() > opening_ends {
            break;
        }
        let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_secs(5)) else {
            break;
        };
        let started = Instant::now();
        // The head and the body's first byte, then nothing for a while. A connection the
        // server shuts at once (a cap on connections) is cut from the start.
        let sent = stream.write_all(head).is_ok()
            && stream.write_all(b"{").is_ok()
            && stream.set_nonblocking(true).is_ok();
        opened.push(Slow {
            stream,
            opened: started,
            next_byte: started + every,
            seen: Vec::new(),
            fate: (!sent).then(|| Fate::Cut(started.elapsed())),
        });
    }
    let count = opened.len();
    let per_thread = count.div_ceil(threads.max(1)).max(1);
    let mut groups: Vec<Vec<Slow>> = Vec::new();
    while !opened.is_empty() {
        let rest = opened.split_off(per_thread.min(opened.len()));
        groups.push(std::mem::replace(&mut opened, rest));
    }
    let until = Instant::now() + limit;
    let workers: Vec<_> = groups
        .into_iter()
        .map(|group| thread::spawn(move || watch_slow(group, every, until, first)))
        .collect();
    let fates = workers
        .into_iter()
        .flat_map(|w| w.join().unwrap_or_default())
        .collect();
    (fates, count)
}

/// Every 250 ms: reads what each connection got, then sends the next byte where one is due.
fn watch_slow(
    mut group: Vec<Slow>,
    every: Duration,
    until: Instant,
    first: Instant,
) -> Vec<(Duration, Fate)> {
    let mut buffer = [0u8; 512];
    while Instant::now() < until && group.iter().any(|s| s.fate.is_none()) {
        for slow in group.iter_mut().filter(|s| s.fate.is_none()) {
            match slow.stream.read(&mut buffer) {
                Ok(0) => slow.fate = Some(settle(slow)),
                Ok(got) => {
                    slow.seen
                        .extend_from_slice(buffer.get(..got).unwrap_or_default());
                    if slow.seen.windows(2).any(|w| w == b"\r\n") {
                        slow.fate = Some(settle(slow));
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => slow.fate = Some(settle(slow)),
            }
            if slow.fate.is_none() && Instant::now() >= slow.next_byte {
                // JSON allows whitespace anywhere between tokens: a byte that never ends the body.
                if slow.stream.write_all(b" ").is_err() {
                    slow.fate = Some(settle(slow));
                }
                slow.next_byte += every;
            }
        }
        thread::sleep(Duration::from_millis(250));
    }
    group
        .into_iter()
        .map(|s| {
            (
                s.opened.saturating_duration_since(first),
                s.fate.unwrap_or(Fate::Open),
            )
        })
        .collect()
}

/// The fate of a connection that got bytes or an end: its status when a status line came.
fn settle(slow: &Slow) -> Fate {
    let took = slow.opened.elapsed();
    let status = std::str::from_utf8(&slow.seen)
        .ok()
        .and_then(|t| t.split_whitespace().nth(1))
        .and_then(|s| s.parse::<u16>().ok());
    match status {
        Some(status) => Fate::Answered(status, took),
        None => Fate::Cut(took),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn requests_carry_length_and_body() {
        let addr: SocketAddr = "127.0.0.1:80".parse().unwrap();
        let text = String::from_utf8(request(
            "POST",
            "/x",
            addr,
            &[("Content-Type", "application/xml")],
            b"<a/>",
        ))
        .unwrap();
        assert_eq!(
            text,
            "POST /x HTTP/1.1\r\nHost: 127.0.0.1:80\r\nContent-Type: application/xml\r\n\
             Content-Length: 4\r\n\r\n<a/>"
        );
        let empty = String::from_utf8(request("POST", "/t", addr, &[], b"")).unwrap();
        assert!(empty.ends_with("Content-Length: 0\r\n\r\n"));
    }

    #[test]
    fn ids_come_from_the_id_key_only() {
        let body = br#"{"session_id":"s","device_id":null,"id":"abc","x":1}"#;
        assert_eq!(json_id(body).as_deref(), Some("abc"));
        assert_eq!(json_id(b"{}"), None);
    }

    #[test]
    fn padded_files_have_the_size_asked_for_and_one_comment() {
        let file = padded_file(1_000, 3, 20_000);
        assert_eq!(file.len(), 20_000);
        let text = String::from_utf8(file).unwrap();
        assert!(text.starts_with("<?xml version=\"1.0\"?><!--ppp"));
        assert_eq!(text.matches("--").count(), 2);
        assert!(text.ends_with("</RECIPES>"));
    }

    #[test]
    fn junk_methods_are_capital_letters() {
        let m = Rng::seeded(1).method(2_000);
        assert_eq!(m.len(), 2_000);
        assert!(m.bytes().all(|b| b.is_ascii_uppercase()));
    }
}
