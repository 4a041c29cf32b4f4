//! Load: `wrk` for the maximum rate (closed loop, fixed connections), and a small fixed-rate
//! client of our own for latency at a given rate (wrk2-style open loop: every request has an
//! intended send time, and its latency counts from then, so a stalled server cannot hide its
//! queue by slowing the client down, i.e. no coordinated omission).

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::{SocketAddr, TcpStream},
    path::Path,
    process::Command,
    thread,
    time::{Duration, Instant},
};

/// One benchmarked request.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: &'static str,
    pub path: String,
    pub api_key: Option<String>,
    pub body: Option<String>,
}

impl Request {
    /// The request as HTTP/1.1 bytes (keep-alive is HTTP/1.1's default).
    pub fn to_bytes(&self, addr: SocketAddr) -> Vec<u8> {
        let mut head = format!("{} {} HTTP/1.1\r\nHost: {addr}\r\n", self.method, self.path);
        if let Some(key) = &self.api_key {
            head.push_str(&format!("X-API-Key: {key}\r\n"));
        }
        if let Some(body) = &self.body {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        if let Some(body) = &self.body {
            bytes.extend_from_slice(body.as_bytes());
        }
        bytes
    }

    /// A wrk Lua script that sends this request.
    pub fn wrk_script(&self) -> String {
        let mut script = format!("wrk.method = \"{}\"\n", self.method);
        if let Some(key) = &self.api_key {
            script.push_str(&format!("wrk.headers[\"X-API-Key\"] = \"{key}\"\n"));
        }
        if let Some(body) = &self.body {
            script.push_str("wrk.headers[\"Content-Type\"] = \"application/json\"\n");
            script.push_str(&format!("wrk.body = [[{body}]]\n"));
        }
        script
    }
}

/// How long one response may take before the client gives up on the connection.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// Headers larger than this are not a wort response.
const MAX_HEADER_LINES: usize = 100;

/// A keep-alive HTTP/1.1 connection that reads whole responses (Content-Length or chunked).
pub struct Connection {
    addr: SocketAddr,
    timeout: Duration,
    reader: Option<BufReader<TcpStream>>,
}

pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Connection {
    pub fn new(addr: SocketAddr) -> Connection {
        Connection::with_timeout(addr, IO_TIMEOUT)
    }

    /// A connection that waits up to `timeout` for each read and write (a server that may
    /// stall longer than the usual 10 s, and should be seen doing so).
    pub fn with_timeout(addr: SocketAddr, timeout: Duration) -> Connection {
        Connection {
            addr,
            timeout,
            reader: None,
        }
    }

    /// Sends one request and reads its response, reconnecting first if needed.
    pub fn send(&mut self, request: &[u8]) -> std::io::Result<Response> {
        let reader = match &mut self.reader {
            Some(reader) => reader,
            None => {
                let stream = TcpStream::connect_timeout(&self.addr, self.timeout)?;
                stream.set_nodelay(true)?;
                stream.set_read_timeout(Some(self.timeout))?;
                stream.set_write_timeout(Some(self.timeout))?;
                self.reader.insert(BufReader::new(stream))
            }
        };
        let result = exchange(reader, request);
        match &result {
            Ok((_, keep_alive)) if *keep_alive => {}
            _ => self.reader = None,
        }
        result.map(|(response, _)| response)
    }
}

fn invalid(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned())
}

/// Writes the request, reads the response; also says whether the connection stays open.
fn exchange(
    reader: &mut BufReader<TcpStream>,
    request: &[u8],
) -> std::io::Result<(Response, bool)> {
    reader.get_mut().write_all(request)?;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| invalid("no HTTP status line"))?;
    let mut length = None;
    let mut chunked = false;
    let mut keep_alive = true;
    for _ in 0..MAX_HEADER_LINES {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(invalid("connection closed in the headers"));
        }
        let header = line.trim_end();
        if header.is_empty() {
            let mut body = Vec::new();
            if chunked {
                read_chunked(reader, &mut body)?;
            } else if let Some(length) = length {
                body.resize(length, 0);
                reader.read_exact(&mut body)?;
            }
            return Ok((Response { status, body }, keep_alive));
        }
        let Some((name, value)) = header.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "connection" => keep_alive = !value.eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
    Err(invalid("too many header lines"))
}

fn read_chunked(reader: &mut BufReader<TcpStream>, body: &mut Vec<u8>) -> std::io::Result<()> {
    let mut line = String::new();
    // Bounded: a wort response is far smaller than a million chunks.
    for _ in 0..1_000_000 {
        line.clear();
        reader.read_line(&mut line)?;
        let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
            .map_err(|_| invalid("bad chunk size"))?;
        let start = body.len();
        body.resize(start + size + 2, 0); // the chunk and its CRLF
        reader.read_exact(body.get_mut(start..).unwrap_or_default())?;
        body.truncate(start + size);
        if size == 0 {
            return Ok(()); // (no trailers from actix)
        }
    }
    Err(invalid("endless chunked body"))
}

/// One request on a fresh connection (capture, probes).
pub fn once(addr: SocketAddr, request: &Request) -> Result<Response, String> {
    Connection::new(addr)
        .send(&request.to_bytes(addr))
        .map_err(|e| format!("{} {}: {e}", request.method, request.path))
}

/// What a fixed-rate run saw.
#[derive(Clone, Debug)]
pub struct RateResult {
    pub target_rps: f64,
    pub achieved_rps: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub errors: u64,
    pub requests: u64,
}

/// Sends `rate` requests a second for `duration` over `connections` keep-alive connections, each
/// on its own thread with its own evenly spaced schedule, and measures every latency from the
/// request's intended send time.
pub fn fixed_rate(
    addr: SocketAddr,
    request: &Request,
    rate: f64,
    duration: Duration,
    connections: usize,
) -> Result<RateResult, String> {
    fixed_rate_mix(
        &[addr],
        &[request.to_bytes(addr)],
        rate,
        duration,
        connections,
    )
}

/// Like [`fixed_rate`], for a mix: the `n`th request sent overall (in schedule order) is
/// `requests[n % len]`, and connection `c` goes to `addrs[c % len]` (several servers share
/// the load).
pub fn fixed_rate_mix(
    addrs: &[SocketAddr],
    requests: &[Vec<u8>],
    rate: f64,
    duration: Duration,
    connections: usize,
) -> Result<RateResult, String> {
    if rate <= 0.0 || connections == 0 || addrs.is_empty() || requests.is_empty() {
        return Err(format!("nothing to send at {rate:.1} req/s"));
    }
    let interval = Duration::from_secs_f64(connections as f64 / rate);
    let per_connection = ((duration.as_secs_f64() * rate) / connections as f64).ceil() as u64;
    // A server that falls far behind ends the run instead of stretching it.
    let deadline = duration * 3 + Duration::from_secs(5);
    let start = Instant::now() + Duration::from_millis(50);
    let results: Vec<(Vec<u32>, u64)> = thread::scope(|scope| {
        let handles: Vec<_> = (0..connections)
            .map(|c| {
                let offset = Duration::from_secs_f64(c as f64 / rate);
                scope.spawn(move || {
                    let Some(&addr) = addrs.get(c % addrs.len()) else {
                        return (Vec::new(), per_connection);
                    };
                    let mut connection = Connection::new(addr);
                    let mut latencies = Vec::with_capacity(per_connection as usize);
                    let mut errors = 0u64;
                    for i in 0..per_connection {
                        let intended = start + offset + interval * (i as u32);
                        let now = Instant::now();
                        if intended > now {
                            thread::sleep(intended - now);
                        } else if now - start > deadline {
                            errors += per_connection - i; // never sent
                            break;
                        }
                        let n = (i as usize) * connections + c;
                        let bytes = requests
                            .get(n % requests.len())
                            .map_or(&[][..], Vec::as_slice);
                        match connection.send(bytes) {
                            Ok(response) if (200..300).contains(&response.status) => {}
                            _ => errors += 1,
                        }
                        let micros = intended.elapsed().as_micros();
                        latencies.push(u32::try_from(micros).unwrap_or(u32::MAX));
                    }
                    (latencies, errors)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| (Vec::new(), per_connection)))
            .collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    let mut latencies: Vec<u32> = Vec::new();
    let mut errors = 0;
    for (l, e) in results {
        latencies.extend(l);
        errors += e;
    }
    latencies.sort_unstable();
    let requests = latencies.len() as u64;
    Ok(RateResult {
        target_rps: rate,
        achieved_rps: requests as f64 / elapsed.max(f64::EPSILON),
        p50_ms: percentile(&latencies, 0.50),
        p99_ms: percentile(&latencies, 0.99),
        max_ms: latencies.last().map_or(0.0, |&m| f64::from(m) / 1000.0),
        errors,
        requests,
    })
}

/// The `q` quantile (0 to 1) of sorted values by nearest rank: the smallest value with at least
/// a `q` share of all values at or below it; `None` when there are none. Every benchmark in
/// xtask reports through this one. Nearest rank rather than interpolation because a latency
/// report should only show times a request really took, p100 is then the maximum, and two
/// reports of the same samples agree.
pub fn nearest_rank<T: Copy>(sorted: &[T], q: f64) -> Option<T> {
    let rank = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len().max(1)) - 1;
    sorted.get(rank).copied()
}

/// The `q` quantile of sorted microseconds, in milliseconds (NaN when there are none).
pub fn percentile(sorted: &[u32], q: f64) -> f64 {
    nearest_rank(sorted, q).map_or(f64::NAN, |us| f64::from(us) / 1000.0)
}

/// What a wrk run saw.
#[derive(Clone, Debug)]
pub struct WrkResult {
    pub rps: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub errors: u64,
}

/// `wrk -t threads -c connections -d secs --latency -s script url`.
pub fn wrk(
    url: &str,
    script: &Path,
    threads: usize,
    connections: usize,
    duration: Duration,
) -> Result<WrkResult, String> {
    let output = Command::new("wrk")
        .args([
            "-t",
            &threads.to_string(),
            "-c",
            &connections.to_string(),
            "-d",
            &format!("{}s", duration.as_secs().max(1)),
            "--timeout",
            "10s",
            "--latency",
            "-s",
        ])
        .arg(script)
        .arg(url)
        .output()
        .map_err(|e| format!("could not run wrk: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "wrk failed ({}): {text}{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    parse_wrk(&text).ok_or_else(|| format!("could not read wrk's output:\n{text}"))
}

fn parse_wrk(text: &str) -> Option<WrkResult> {
    let mut rps = None;
    let mut p50 = None;
    let mut p99 = None;
    let mut errors = 0;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("Requests/sec:") {
            rps = rest.trim().parse::<f64>().ok();
        } else if let Some(rest) = line.strip_prefix("50%") {
            p50 = parse_duration_ms(rest.trim());
        } else if let Some(rest) = line.strip_prefix("99%") {
            p99 = parse_duration_ms(rest.trim());
        } else if let Some(rest) = line.strip_prefix("Non-2xx or 3xx responses:") {
            errors += rest.trim().parse::<u64>().unwrap_or(1);
        } else if let Some(rest) = line.strip_prefix("Socket errors:") {
            // "connect 0, read 0, write 0, timeout 0"
            errors += rest
                .split(',')
                .filter_map(|part| part.split_whitespace().nth(1)?.parse::<u64>().ok())
                .sum::<u64>();
        }
    }
    Some(WrkResult {
        rps: rps?,
        p50_ms: p50?,
        p99_ms: p99?,
        errors,
    })
}

/// wrk's "1.23ms", "456.00us", "1.02s" in milliseconds.
fn parse_duration_ms(text: &str) -> Option<f64> {
    let (number, factor) = if let Some(n) = text.strip_suffix("us") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60_000.0)
    } else {
        return None;
    };
    number.trim().parse::<f64>().ok().map(|n| n * factor)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    const WRK_OUTPUT: &str = "Running 5s test @ http://127.0.0.1:1/v1/me
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.20ms  300.00us   9.00ms   90.00%
    Req/Sec    13.00k     1.00k   15.00k    70.00%
  Latency Distribution
     50%    1.10ms
     75%    1.30ms
     90%    1.50ms
     99%  850.00us
  130000 requests in 5.00s, 20.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:  26000.50
Transfer/sec:      4.00MB
";

    #[test]
    fn reads_wrk_output() {
        let r = parse_wrk(WRK_OUTPUT).unwrap();
        assert!((r.rps - 26000.5).abs() < 1e-9);
        assert!((r.p50_ms - 1.1).abs() < 1e-9);
        assert!((r.p99_ms - 0.85).abs() < 1e-9);
        assert_eq!(r.errors, 7);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<u32> = (1..=100).map(|i| i * 1000).collect();
        assert_eq!(percentile(&v, 0.5), 50.0);
        assert_eq!(percentile(&v, 0.99), 99.0);
        assert!(percentile(&[], 0.5).is_nan());
        assert_eq!(percentile(&v, 1.0), 100.0);
        assert_eq!(percentile(&v, 0.0), 1.0, "p0 is the smallest sample");
        assert_eq!(nearest_rank(&[1.5, 2.5, 3.5, 4.5], 0.5), Some(2.5));
        assert_eq!(nearest_rank(&[1.5, 2.5, 3.5, 4.5], 0.51), Some(3.5));
        assert_eq!(nearest_rank::<f64>(&[], 0.5), None);
    }

    #[test]
    fn requests_carry_key_and_body() {
        let r = Request {
            method: "POST",
            path: "/x".into(),
            api_key: Some("k".into()),
            body: Some("{}".into()),
        };
        let text = String::from_utf8(r.to_bytes("127.0.0.1:80".parse().unwrap())).unwrap();
        assert!(text.starts_with("POST /x HTTP/1.1\r\n"));
        assert!(text.contains(
            "X-API-Key: k\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
        ));
        assert!(r.wrk_script().contains("wrk.body = [[{}]]"));
    }
}
