//! Webhook delivery: lag from an event's commit to its arrival at a receiver while
//! readings arrive at 100 a second, and how fast a burst of events is drained.
//!
//! The receiver is a minimal HTTP/1.1 server on 127.0.0.1 (a thread per connection, keep-alive)
//! that notes the wall-clock time each delivery arrives. An event's `timestamp` is the time of
//! the transaction that wrote it (to the microsecond), so arrival − timestamp is the lag the
//! brewer's system sees: the outbox poll, the claim, signing and the POST.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::load::{self, Request};
use super::seed;

/// Readings posted per second during the lag measurement, and for how long.
const RATE: f64 = 100.0;
const SECONDS: u64 = 20;
/// Events in the burst.
const BURST: usize = 2_000;

/// One delivery as the receiver saw it: the event's id, its timestamp and the arrival time
/// (both in seconds since the Unix epoch).
#[derive(Clone, Debug)]
struct Arrival {
    id: String,
    event_at: f64,
    arrived_at: f64,
}

pub(super) struct Receiver {
    pub(super) addr: SocketAddr,
    arrivals: Arc<Mutex<Vec<Arrival>>>,
}

fn now_unix() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

impl Receiver {
    pub(super) fn start() -> Result<Receiver, String> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let arrivals = Arc::new(Mutex::new(Vec::new()));
        let shared = arrivals.clone();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = shared.clone();
                thread::spawn(move || serve(stream, &shared));
            }
        });
        Ok(Receiver { addr, arrivals })
    }

    fn arrivals(&self) -> Vec<Arrival> {
        self.arrivals.lock().map(|a| a.clone()).unwrap_or_default()
    }

    /// Waits until `n` distinct events arrived (at most `limit`).
    fn wait_for(&self, n: usize, limit: Duration) -> Vec<Arrival> {
        let deadline = Instant::now() + limit;
        loop {
            let got = self.arrivals();
            let distinct: HashSet<_> = got.iter().map(|a| a.id.clone()).collect();
            if distinct.len() >= n || Instant::now() > deadline {
                return got;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// How many deliveries have arrived since the last [`clear`](Self::clear).
    pub(super) fn arrivals_len(&self) -> usize {
        self.arrivals.lock().map_or(0, |a| a.len())
    }

    pub(super) fn clear(&self) {
        if let Ok(mut a) = self.arrivals.lock() {
            a.clear();
        }
    }
}

/// Reads requests off one keep-alive connection and answers each `204`.
fn serve(stream: TcpStream, arrivals: &Mutex<Vec<Arrival>>) {
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    loop {
        let mut id = String::new();
        let mut length = 0usize;
        let mut line = String::new();
        // Request line and headers.
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let trimmed = line.trim_end();
            if trimmed.is_empty() {
                break;
            }
            if let Some((name, value)) = trimmed.split_once(':') {
                match name.trim().to_ascii_lowercase().as_str() {
                    "content-length" => length = value.trim().parse().unwrap_or(0),
                    "webhook-id" => value.trim().clone_into(&mut id),
                    _ => {}
                }
            }
        }
        let mut body = vec![0u8; length.min(1 << 20)];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let arrived_at = now_unix();
        let event_at = timestamp_of(&body).unwrap_or(arrived_at);
        if let Ok(mut a) = arrivals.lock() {
            a.push(Arrival {
                id,
                event_at,
                arrived_at,
            });
        }
        if writer
            .write_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
            .is_err()
        {
            return;
        }
    }
}

/// The `"timestamp":"2026-11-24T10:00:00.123456Z"` of an event body, as Unix seconds.
fn timestamp_of(body: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(body).ok()?;
    let start = text.find("\"timestamp\":\"")? + "\"timestamp\":\"".len();
    let value = text.get(start..)?.split('"').next()?;
    parse_rfc3339_utc(value)
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` → Unix seconds (days from the civil calendar, Howard
/// Hinnant's algorithm).
fn parse_rfc3339_utc(s: &str) -> Option<f64> {
    let s = s.strip_suffix('Z')?;
    let (date, time) = s.split_once('T')?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':');
    let (hh, mm) = (
        t.next()?.parse::<i64>().ok()?,
        t.next()?.parse::<i64>().ok()?,
    );
    let ss: f64 = t.next()?.parse().ok()?;
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400 + hh * 3_600 + mm * 60) as f64 + ss)
}

/// The `q` quantile of sorted lags, as every other benchmark reports it.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    load::nearest_rank(sorted, q).unwrap_or(f64::NAN)
}

fn lags_ms(arrivals: &[Arrival]) -> Vec<f64> {
    let mut lags: Vec<f64> = arrivals
        .iter()
        .map(|a| (a.arrived_at - a.event_at) * 1000.0)
        .collect();
    lags.sort_by(f64::total_cmp);
    lags
}

fn reading() -> Request {
    Request {
        method: "POST",
        path: format!("/v1/sessions/{}/fermentation-logs", seed::LIGHT_SESSION),
        api_key: Some(seed::light_key()),
        body: Some(r#"{"gravity":1.012,"temperature_c":18.5}"#.into()),
    }
}

/// The section of the report (markdown).
pub fn measure(addr: SocketAddr) -> Result<String, String> {
    let receiver = Receiver::start()?;
    let create = Request {
        method: "POST",
        path: "/v1/webhooks".into(),
        api_key: Some(seed::light_key()),
        body: Some(format!(
            r#"{{"url":"http://{}/hook","events":["reading.created"]}}"#,
            receiver.addr
        )),
    };
    let created = load::once(addr, &create)?;
    if created.status != 201 {
        return Err(format!(
            "creating the webhook answered {}: {}",
            created.status,
            String::from_utf8_lossy(&created.body)
        ));
    }

    // 1. Lag at a steady 100 events a second.
    let sent = load::fixed_rate(addr, &reading(), RATE, Duration::from_secs(SECONDS), 2)?;
    let expected = usize::try_from(sent.requests.saturating_sub(sent.errors)).unwrap_or(0);
    let steady = receiver.wait_for(expected, Duration::from_secs(30));
    let distinct: HashSet<_> = steady.iter().map(|a| a.id.clone()).collect();
    let lags = lags_ms(&steady);
    let window = match (
        steady.iter().map(|a| a.arrived_at).reduce(f64::min),
        steady.iter().map(|a| a.arrived_at).reduce(f64::max),
    ) {
        (Some(first), Some(last)) if last > first => last - first,
        _ => f64::NAN,
    };

    // 2. A burst: events written as fast as one connection can, then drained.
    receiver.clear();
    let started = Instant::now();
    let mut connection = load::Connection::new(addr);
    let bytes = reading().to_bytes(addr);
    for _ in 0..BURST {
        let response = connection.send(&bytes).map_err(|e| e.to_string())?;
        if response.status != 201 {
            return Err(format!("a burst reading answered {}", response.status));
        }
    }
    let written = started.elapsed().as_secs_f64();
    let burst = receiver.wait_for(BURST, Duration::from_secs(120));
    let drained = started.elapsed().as_secs_f64();
    let burst_distinct: HashSet<_> = burst.iter().map(|a| a.id.clone()).collect();

    Ok(format!(
        "\n### Webhook delivery\n\n\
         One endpoint on 127.0.0.1 answering 204 at once; one wort instance (its delivery \
         workers poll every 100 ms, 32 attempts in flight). Lag: the event's timestamp (its \
         transaction) to its arrival at the receiver.\n\n\
         | what | figure |\n|---|---|\n\
         | readings posted at {RATE:.0}/s for {SECONDS} s | {} sent, {} errors |\n\
         | events delivered | {} ({} distinct; duplicates {}) |\n\
         | delivery rate while steady | {:.0} events/s |\n\
         | lag p50 / p99 / max | {:.0} / {:.0} / {:.0} ms |\n\
         | burst: {BURST} events written | in {:.1} s ({:.0} events/s) |\n\
         | burst: all delivered | {:.1} s after the first write ({} distinct): {:.0} events/s |\n",
        sent.requests,
        sent.errors,
        steady.len(),
        distinct.len(),
        steady.len() - distinct.len(),
        distinct.len() as f64 / window,
        percentile(&lags, 0.50),
        percentile(&lags, 0.99),
        lags.last().copied().unwrap_or(f64::NAN),
        written,
        BURST as f64 / written,
        drained,
        burst_distinct.len(),
        burst_distinct.len() as f64 / drained,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_parse_to_unix_seconds() {
        assert_eq!(parse_rfc3339_utc("1970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(
            parse_rfc3339_utc("2021-02-26T01:02:10Z"),
            Some(1_614_301_330.0)
        );
        let t = parse_rfc3339_utc("2026-11-24T10:00:00.250Z").unwrap_or_default();
        assert!((t - 1_795_514_400.25).abs() < 1e-6, "{t}");
    }
}
