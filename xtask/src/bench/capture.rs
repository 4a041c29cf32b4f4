//! The SQL of one warm request: a wort with one pooled connection, behind the round-trip-counting
//! proxy ([`sql::RoundTripProxy`]), while the cluster logs every statement. The bench's capture
//! step (its pgbench baselines and its "statements / round trips" column) and the round-trip
//! guard (`cargo xtask round-trips`) both record through [`Recorder`].

use std::{
    fs,
    path::{Path, PathBuf},
    thread,
    time::Duration,
};

use wort_pgcluster::RunningCluster;

use super::load::{self, Request};
use super::{DATABASE, Wort, sql};

/// Recorded requests per endpoint, of which the one with the least SQL is kept. Two tasks of
/// wort's own talk to PostgreSQL now and then: the credential listener's ping (every 5 s, on its
/// own connection) and the fermentation clock (every 10 s, on the pooled one). Each can only add
/// to a recording, and neither can fall in more than two of three recordings that together take
/// about a second, so one of the three is the request alone.
const RECORDINGS: usize = 3;
/// How long PostgreSQL gets to write a request's statements to its log.
const LOG_DELAY: Duration = Duration::from_millis(300);

/// What one warm request sent to PostgreSQL.
#[derive(Clone, Debug, Default)]
pub struct Recorded {
    pub statements: Vec<sql::Statement>,
    /// Statements per round trip.
    pub trips: Vec<usize>,
}

/// A wort with one pooled connection behind the proxy, and the cluster logging every statement
/// until [`finish`](Self::finish).
pub struct Recorder<'a> {
    pg: &'a RunningCluster,
    proxy: sql::RoundTripProxy,
    server: Wort,
    log_file: PathBuf,
}

impl<'a> Recorder<'a> {
    /// Starts the proxy (in `<cluster_dir>/proxy`) and the wort (its log in `work`).
    pub fn start(
        pg: &'a RunningCluster,
        cluster_dir: &Path,
        wort_bin: &Path,
        work: &Path,
    ) -> Result<Recorder<'a>, String> {
        let target_socket = pg.socket_dir().join(format!(".s.PGSQL.{}", pg.port()));
        let proxy =
            sql::RoundTripProxy::start(&cluster_dir.join("proxy"), pg.port(), target_socket)?;
        let url = format!(
            "postgresql://postgres@/{DATABASE}?host={}&port={}",
            proxy.dir.display(),
            proxy.port
        );
        // No webhook delivery workers or MQTT publishers: their polls would be logged as the
        // endpoints' SQL.
        let server = Wort::start_with(
            wort_bin,
            work,
            &url,
            1,
            &work.join("wort-capture.log"),
            &[
                ("WORT_WEBHOOK_DELIVERY", "off"),
                ("WORT_MQTT_PUBLISH", "off"),
            ],
        )?;
        set_log_statement(pg, "all")?;
        Ok(Recorder {
            pg,
            proxy,
            server,
            log_file: pg.log_file().to_owned(),
        })
    }

    /// The SQL of one warm `request` (`label` names it in messages); `None` when it answers
    /// 404, an error when it answers anything else but 2xx.
    pub fn record(&self, label: &str, request: &Request) -> Result<Option<Recorded>, String> {
        let probe = || load::once(self.server.addr, request);
        // Warms the connection, its statement cache and the key's lastUsedAt.
        let first = probe()?;
        if first.status == 404 {
            return Ok(None);
        }
        if !(200..300).contains(&first.status) {
            return Err(format!(
                "{label} answered {}: {}",
                first.status,
                String::from_utf8_lossy(&first.body)
            ));
        }
        probe()?;
        let mut least: Option<Recorded> = None;
        for _ in 0..RECORDINGS {
            let recorded = self.record_once(request)?;
            let size = |r: &Recorded| (r.trips.len(), r.statements.len());
            if least.as_ref().is_none_or(|l| size(&recorded) < size(l)) {
                least = Some(recorded);
            }
        }
        let recorded = least.unwrap_or_default();
        eprintln!(
            "    {label}: {} statements in {} round trips {:?}",
            recorded.statements.len(),
            recorded.trips.len(),
            recorded.trips
        );
        Ok(Some(recorded))
    }

    fn record_once(&self, request: &Request) -> Result<Recorded, String> {
        let log_mark = fs::metadata(&self.log_file).map_or(0, |m| m.len());
        let trip_mark = self.proxy.mark();
        load::once(self.server.addr, request)?;
        // The server writes its log as it goes; give it a moment.
        thread::sleep(LOG_DELAY);
        let trips = self.proxy.trips_since(trip_mark);
        let log =
            fs::read(&self.log_file).map_err(|e| format!("{}: {e}", self.log_file.display()))?;
        let new_lines = String::from_utf8_lossy(log.get(log_mark as usize..).unwrap_or_default());
        Ok(Recorded {
            statements: sql::statements(&new_lines),
            trips,
        })
    }

    /// Stops logging every statement, then the wort and the proxy.
    pub fn finish(self) -> Result<(), String> {
        set_log_statement(self.pg, "none")?;
        self.server.stop()?;
        drop(self.proxy);
        Ok(())
    }
}

fn set_log_statement(pg: &RunningCluster, value: &str) -> Result<(), String> {
    let output = pg
        .psql("postgres")
        .args([
            "-c",
            &format!("ALTER SYSTEM SET log_statement = '{value}'"),
            "-c",
            "SELECT pg_reload_conf()",
        ])
        .output()
        .map_err(|e| format!("psql: {e}"))?;
    if !output.status.success() {
        return Err(format!("psql: {}", String::from_utf8_lossy(&output.stderr)));
    }
    // Backends pick up the reloaded setting between statements: let them.
    thread::sleep(Duration::from_millis(200));
    Ok(())
}
