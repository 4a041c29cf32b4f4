//! One-shot HTTP with timing, on a fresh connection each time: sign-up, AI calls and the
//! provider's switch, which must not share the load clients' keep-alive connections.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

pub(super) struct Reply {
    pub(super) status: u16,
    pub(super) headers: Vec<(String, String)>,
    pub(super) body: String,
    /// The longest wait between two reads, the first read included.
    pub(super) longest_silence: Duration,
}

/// One request on its own connection (`Connection: close`, so the body ends with the stream);
/// `timeout` bounds each read and the whole exchange.
pub(super) fn exchange_close(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
    timeout: Duration,
) -> std::io::Result<Reply> {
    let began = Instant::now();
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    match body {
        Some(body) => request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )),
        None => request.push_str("Content-Length: 0\r\n\r\n"),
    }
    stream.write_all(request.as_bytes())?;
    let mut raw = Vec::new();
    let mut buffer = [0u8; 4096];
    let mut last = Instant::now();
    let mut longest_silence = Duration::ZERO;
    loop {
        let n = stream.read(&mut buffer)?;
        longest_silence = longest_silence.max(last.elapsed());
        last = Instant::now();
        if n == 0 {
            break;
        }
        raw.extend_from_slice(buffer.get(..n).unwrap_or_default());
        if began.elapsed() > timeout + Duration::from_secs(60) {
            return Err(std::io::Error::new(ErrorKind::TimedOut, "endless answer"));
        }
    }
    let text = String::from_utf8_lossy(&raw);
    let invalid = |what: &str| std::io::Error::new(ErrorKind::InvalidData, what.to_owned());
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| invalid("no complete response"))?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| invalid("no status line"))?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Ok(Reply {
        status,
        headers,
        body: body.to_owned(),
        longest_silence,
    })
}
