//! `cargo xtask bench -- --capacity`: how many active brewers one machine serves.
//!
//! The traffic model (docs/benchmarks.md, "Capacity"): one active brewer, in one hour, sends
//! 40 requests:
//!
//! | what | requests an hour |
//! |---|---|
//! | the recipe list (`GET /v1/recipes?limit=50`) | 6 |
//! | a recipe (`GET /v1/recipes/{id}`) | 8 |
//! | its figures (`GET /v1/recipes/{id}/stats`) | 8 |
//! | a day of the fermentation chart | 4 |
//! | who am I (`GET /v1/me`) | 2 |
//! | a catalogue search | 2 |
//! | an edit (`PATCH /v1/recipes/{id}`, which also keeps the recipe's history) | 6 |
//! | the hydrometer, every 15 minutes (`POST /ingest/{token}`) | 4 |
//!
//! and each reading is delivered to the brewer's webhook (`reading.created`, 4 an hour), to a
//! receiver in this process. The model runs on the medium scale data set (10,000 accounts, the
//! heavy account's million readings) with [`BREWERS`] accounts taking part; the mix is
//! interleaved and sent at a fixed rate (open loop). The rate rises by [`STEP`] until p99
//! reaches 50 ms or a request fails at two tries in a row; the last rate that held, divided by a brewer's rate, is
//! the number of active brewers. Once with one wort, once with two on the same PostgreSQL.
//! CPU per second of wort, PostgreSQL and the load client at that rate say what limits it.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use wort_pgcluster::RunningCluster;

use super::load::{self, Request};
use super::{Wort, cpu, history::query, psql_stdin, scale, seed, step};

/// Accounts taking part (each stands for as many brewers as the rate asks).
const BREWERS: u32 = 1_000;
/// A brewer's requests an hour (the table above).
const REQUESTS_PER_BREWER_HOUR: f64 = 40.0;
const P99_LIMIT_MS: f64 = 50.0;
const FIRST_RATE: f64 = 100.0;
const STEP: f64 = 1.25;
const RUN_SECS: u64 = 8;
/// Bounded: 100 × 1.25^20 is far beyond what 2 cores serve.
const MAX_STEPS: usize = 20;
const CONNECTIONS: usize = 32;
const POOL: usize = 16;

/// One brewer's ids.
struct Brewer {
    key: String,
    recipe: String,
    session: String,
    device_token: String,
}

fn device_token(n: u32) -> String {
    format!("wortd_{:x<43}", format!("dev{n}"))
}

/// The run; the cluster holds the standard seed, which is grown to the medium size first.
pub fn measure(
    pg: &RunningCluster,
    wort_bin: &Path,
    work: &Path,
    database_url: &str,
) -> Result<String, String> {
    step("capacity: grow to the medium size");
    let medium = scale::SIZES[1];
    scale::grow(pg, scale::SIZES[0], medium)?;
    let brewers = brewers(pg)?;
    let receiver = super::webhooks::Receiver::start()?;
    let mut out = format!(
        "\n### Capacity: active brewers one machine serves\n\nThe traffic model: {} requests a \
         brewer an hour (reads, edits, a hydrometer every 15 minutes) and 4 webhook deliveries; \
         {BREWERS} accounts take part, on {} accounts and {} readings. The rate rises by \
         {STEP}× ({RUN_SECS} s a step) until p99 ≥ {P99_LIMIT_MS} ms or an error, twice in a row.\n\n\
         | wort instances | highest rate held | active brewers | p50 / p99 ms | CPU (cores) \
         wort / PostgreSQL / load client | webhook deliveries received | what stopped it |\n\
         |---|---|---|---|---|---|---|\n",
        REQUESTS_PER_BREWER_HOUR, medium.accounts, medium.heavy_readings
    );
    for instances in [1, 2] {
        step(&format!("capacity: {instances} wort instance(s)"));
        let servers: Vec<Wort> = (0..instances)
            .map(|i| {
                Wort::start(
                    wort_bin,
                    work,
                    database_url,
                    POOL,
                    &work.join(format!("wort-capacity-{instances}-{i}.log")),
                )
            })
            .collect::<Result<_, _>>()?;
        let Some(first) = servers.first() else {
            return Err("no wort started".into());
        };
        if instances == 1 {
            subscribe(first.addr, &brewers, receiver.addr)?;
        }
        let addrs: Vec<SocketAddr> = servers.iter().map(|s| s.addr).collect();
        let mix = mix(first.addr, &brewers);
        let meters = servers
            .iter()
            .map(|s| {
                let pid = s.process.id().ok_or("wort has exited")?;
                cpu::CpuMeters::new(pid, pg.data_dir())
            })
            .collect::<Result<Vec<_>, String>>()?;
        let row = climb(&addrs, &mix, &meters, &receiver)?;
        let _ = writeln!(out, "| {instances} | {row}");
        for server in servers {
            server.stop()?;
        }
    }
    out.push_str(&churn(pg)?);
    Ok(out)
}

/// What the runs' writes left behind, table by table: rows inserted, updated (and how many of
/// those were HOT, i.e. wrote no index entry), deleted, dead rows now, and how often autovacuum
/// and autoanalyze ran. The readings grow; recipes, keys and devices are updated in place.
fn churn(pg: &RunningCluster) -> Result<String, String> {
    // Autovacuum's own reports reach the statistics a moment after it finishes.
    std::thread::sleep(Duration::from_secs(2));
    let text = query(
        pg,
        "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del, n_live_tup, \
         n_dead_tup, autovacuum_count, autoanalyze_count FROM pg_stat_user_tables \
         WHERE n_tup_upd + n_tup_del > 0 OR relname = 'fermentation_logs' \
         ORDER BY n_tup_upd + n_tup_del + n_tup_ins DESC LIMIT 12",
    )?;
    let mut out = String::from(
        "\n#### Churn: what the writes of both runs left (pg_stat_user_tables)\n\n\
         | table | inserted | updated (HOT) | deleted | live rows | dead rows | \
         autovacuum runs | autoanalyze runs |\n|---|---|---|---|---|---|---|---|\n",
    );
    for line in text.lines() {
        let f: Vec<&str> = line.split('|').collect();
        if let [name, ins, upd, hot, del, live, dead, vacuums, analyzes] = f.as_slice() {
            let _ = writeln!(
                out,
                "| {name} | {ins} | {upd} ({hot}) | {del} | {live} | {dead} | {vacuums} | {analyzes} |"
            );
        }
    }
    Ok(out)
}

/// Raises the rate until it no longer holds; the table row of the last rate that did.
fn climb(
    addrs: &[SocketAddr],
    mix: &[Vec<u8>],
    meters: &[cpu::CpuMeters],
    receiver: &super::webhooks::Receiver,
) -> Result<String, String> {
    load::fixed_rate_mix(addrs, mix, FIRST_RATE, Duration::from_secs(2), CONNECTIONS)?;
    let mut rate = FIRST_RATE;
    let mut held: Option<String> = None;
    let mut stopped = String::from("not reached");
    let mut retried = false;
    for _ in 0..MAX_STEPS {
        receiver.clear();
        let before: Vec<cpu::CpuTimes> =
            meters.iter().map(|m| m.read()).collect::<Result<_, _>>()?;
        let client_before = cpu::own_seconds();
        let run =
            load::fixed_rate_mix(addrs, mix, rate, Duration::from_secs(RUN_SECS), CONNECTIONS)?;
        let client = cpu::own_seconds() - client_before;
        let after: Vec<cpu::CpuTimes> =
            meters.iter().map(|m| m.read()).collect::<Result<_, _>>()?;
        let secs = RUN_SECS as f64;
        let wort: f64 = before
            .iter()
            .zip(&after)
            .map(|(b, a)| (*a - *b).wort)
            .sum::<f64>()
            / secs;
        let postgres = before
            .first()
            .zip(after.first())
            .map_or(0.0, |(b, a)| (*a - *b).postgres)
            / secs;
        eprintln!(
            "    {rate:.0} req/s: achieved {:.0}, p50 {:.2} ms, p99 {:.2} ms, {} errors; CPU wort \
             {wort:.2}, PostgreSQL {postgres:.2}, client {:.2}",
            run.achieved_rps,
            run.p50_ms,
            run.p99_ms,
            run.errors,
            client / secs
        );
        if (run.p99_ms >= P99_LIMIT_MS || run.errors > 0) && !retried {
            // One slow spell (a checkpoint, autovacuum on a table the edits churn) should not
            // end the climb: a rate must miss twice in a row.
            retried = true;
            eprintln!("    missed: once more at the same rate");
            continue;
        }
        if run.p99_ms >= P99_LIMIT_MS || run.errors > 0 {
            stopped = format!(
                "at {rate:.0} req/s: p99 {:.1} ms, {} errors; CPU wort {wort:.2} + PostgreSQL \
                 {postgres:.2} + client {:.2} of 2 cores",
                run.p99_ms,
                run.errors,
                client / secs
            );
            break;
        }
        let deliveries = receiver.arrivals_len();
        held = Some(format!(
            "{rate:.0} req/s | {:.0} | {:.2} / {:.2} | {wort:.2} / {postgres:.2} / {:.2} | {deliveries} |",
            rate * 3_600.0 / REQUESTS_PER_BREWER_HOUR,
            run.p50_ms,
            run.p99_ms,
            client / secs,
        ));
        rate *= STEP;
        retried = false;
    }
    Ok(format!(
        "{} {stopped} |",
        held.unwrap_or_else(|| "none | 0 | – | – | – |".into())
    ))
}

/// The brewers taking part: ordinary accounts 1 to [`BREWERS`], each given a hydrometer on its
/// session.
fn brewers(pg: &RunningCluster) -> Result<Vec<Brewer>, String> {
    psql_stdin(
        pg,
        &format!(
            r#"\set ON_ERROR_STOP on
INSERT INTO devices (id, user_id, name, kind, session_id, token_hash, created_at, updated_at)
SELECT gen_random_uuid(), u.id, 'iSpindel', 'ispindel', s.id,
       sha256(convert_to('wortd_' || rpad('dev' || n, 43, 'x'), 'UTF8')), now(), now()
FROM generate_series(1, {BREWERS}) n
JOIN users u ON u.email = 'brewer' || n || '@bench.example'
JOIN brew_sessions s ON s.user_id = u.id;
"#
        ),
    )?;
    let text = query(
        pg,
        &format!(
            "SELECT n, (SELECT id FROM recipes r WHERE r.user_id = u.id ORDER BY id LIMIT 1), \
             (SELECT id FROM brew_sessions s WHERE s.user_id = u.id LIMIT 1) \
             FROM generate_series(1, {BREWERS}) n \
             JOIN users u ON u.email = 'brewer' || n || '@bench.example' ORDER BY n"
        ),
    )?;
    let brewers: Vec<Brewer> = text
        .lines()
        .filter_map(|line| {
            let mut parts = line.split('|');
            let n: u32 = parts.next()?.parse().ok()?;
            Some(Brewer {
                key: seed::ordinary_key(n),
                recipe: parts.next()?.to_owned(),
                session: parts.next()?.to_owned(),
                device_token: device_token(n),
            })
        })
        .collect();
    if brewers.len() != BREWERS as usize {
        return Err(format!(
            "expected {BREWERS} brewers, found {}",
            brewers.len()
        ));
    }
    Ok(brewers)
}

/// Each brewer's webhook for `reading.created`, to the receiver.
fn subscribe(addr: SocketAddr, brewers: &[Brewer], receiver: SocketAddr) -> Result<(), String> {
    let mut connection = load::Connection::new(addr);
    for brewer in brewers {
        let request = Request {
            method: "POST",
            path: "/v1/webhooks".into(),
            api_key: Some(brewer.key.clone()),
            body: Some(format!(
                r#"{{"url":"http://{receiver}/hook","events":["reading.created"]}}"#
            )),
        };
        let response = connection
            .send(&request.to_bytes(addr))
            .map_err(|e| format!("POST /v1/webhooks: {e}"))?;
        if response.status != 201 {
            return Err(format!(
                "POST /v1/webhooks answered {}: {}",
                response.status,
                String::from_utf8_lossy(&response.body)
            ));
        }
    }
    Ok(())
}

/// Every brewer's hour of requests, interleaved (a fixed shuffle, so runs compare).
fn mix(addr: SocketAddr, brewers: &[Brewer]) -> Vec<Vec<u8>> {
    let day = "from=2025-12-01T00:00:00Z&to=2025-12-02T00:00:00Z";
    let mut all = Vec::new();
    for brewer in brewers {
        let get = |path: String| Request {
            method: "GET",
            path,
            api_key: Some(brewer.key.clone()),
            body: None,
        };
        let hour: [(usize, Request); 8] = [
            (6, get("/v1/recipes?limit=50".into())),
            (8, get(format!("/v1/recipes/{}", brewer.recipe))),
            (8, get(format!("/v1/recipes/{}/stats", brewer.recipe))),
            (
                4,
                get(format!(
                    "/v1/sessions/{}/fermentation-logs?{day}",
                    brewer.session
                )),
            ),
            (2, get("/v1/me".into())),
            (2, get("/v1/catalog/hops?q=citra".into())),
            (
                6,
                Request {
                    method: "PATCH",
                    path: format!("/v1/recipes/{}", brewer.recipe),
                    api_key: Some(brewer.key.clone()),
                    body: Some(r#"{"notes":"Dry hop a day earlier next time."}"#.into()),
                },
            ),
            (
                4,
                Request {
                    method: "POST",
                    path: format!("/ingest/{}", brewer.device_token),
                    api_key: None,
                    body: Some(
                        r#"{"name":"iSpindel","ID":1,"angle":30.1,"temperature":19.0,"temp_units":"C","battery":4.0,"gravity":1.020,"interval":900,"RSSI":-70}"#
                            .into(),
                    ),
                },
            ),
        ];
        for (times, request) in hour {
            for _ in 0..times {
                all.push(request.to_bytes(addr));
            }
        }
    }
    // A fixed Fisher–Yates shuffle (xorshift), so a brewer's requests spread over the run.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for i in (1..all.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = (state % (i as u64 + 1)) as usize;
        all.swap(i, j);
    }
    all
}
