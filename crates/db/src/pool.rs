//! The connection pool: deadpool over `AsyncPgConnection`.
//!
//! Connections are made lazily, so `wort serve` starts while the database is down (and `/readyz`
//! says so); every checkout has a bounded wait, so an outage turns into quick 503s instead of
//! hanging requests, and the pool recovers by itself when the database returns.

use std::time::Duration;

use diesel::{ConnectionError, ConnectionResult};
use diesel_async::AsyncPgConnection;
use diesel_async::RunQueryDsl;
use diesel_async::pooled_connection::{
    AsyncDieselConnectionManager, ManagerConfig, PoolableConnection, RecyclingMethod,
};
use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio::net::{TcpStream, UnixStream};
use tokio_postgres::config::{Host, TargetSessionAttrs};
use tokio_postgres::{NoTls, SimpleQueryMessage};

use crate::deadline::{Arming, DeadlineStream};

pub type DbPool = diesel_async::pooled_connection::deadpool::Pool<AsyncPgConnection>;
/// A pool's size, idle connections and waiting requests (`DbPool::status`), for metrics.
pub use deadpool::Status as PoolStatus;
pub type PoolError = diesel_async::pooled_connection::deadpool::PoolError;
type PooledObject = diesel_async::pooled_connection::deadpool::Object<AsyncPgConnection>;

/// A pooled connection that never goes back to the pool inside an open transaction.
///
/// When a client disconnects, actix drops the request's future, possibly in the middle of a
/// transaction. deadpool would return the connection to the pool as it is and only notice at the
/// next checkout, leaving the session "idle in transaction" (holding its locks) meanwhile. On drop,
/// a connection whose transaction is still open is detached and closed instead, so PostgreSQL
/// rolls the transaction back at once.
///
/// Inside a keyed write (`crate::request_transaction`) every checkout is the request's own
/// connection, lent for the call: the transaction it is in belongs to the request, which commits
/// or rolls it back.
// The pooled object is held inline, as before the lent variant existed: boxing it would cost an
// allocation on every checkout, and the value lives on one call's stack.
#[allow(clippy::large_enum_variant)]
pub(crate) enum PooledConn {
    Own(Option<PooledObject>),
    Lent(tokio::sync::OwnedMutexGuard<PooledConn>),
}

impl std::ops::Deref for PooledConn {
    type Target = AsyncPgConnection;

    fn deref(&self) -> &AsyncPgConnection {
        match self {
            PooledConn::Own(Some(conn)) => conn,
            PooledConn::Lent(conn) => conn,
            PooledConn::Own(None) => unreachable_connection(),
        }
    }
}

impl std::ops::DerefMut for PooledConn {
    fn deref_mut(&mut self) -> &mut AsyncPgConnection {
        match self {
            PooledConn::Own(Some(conn)) => conn,
            PooledConn::Lent(conn) => conn,
            PooledConn::Own(None) => unreachable_connection(),
        }
    }
}

/// The `Option` is only emptied in `drop`, after which the value is never used.
#[allow(clippy::panic)]
fn unreachable_connection() -> ! {
    panic!("pooled connection used after drop")
}

impl Drop for PooledConn {
    fn drop(&mut self) {
        if let PooledConn::Own(own) = self
            && let Some(mut conn) = own.take()
            && PoolableConnection::is_broken(&mut *conn)
        {
            // Taken out of the pool and dropped: the socket closes and the server rolls back.
            drop(PooledObject::take(conn));
        }
    }
}

/// `WORT_DB_DEADLINE_MS`'s default.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(5);

#[derive(Debug, Clone)]
pub struct PoolSettings {
    pub max_size: usize,
    /// How long a request waits for a free connection before it is answered 503.
    pub wait_timeout: Duration,
    /// How long opening a new connection may take.
    pub create_timeout: Duration,
    /// How long the health check of a returned connection may take.
    pub recycle_timeout: Duration,
    /// Server-side cap on any one statement.
    pub statement_timeout: Duration,
    /// Client-side cap on waiting for an answer the server owes: past it the connection is
    /// failed and discarded and the request answered 503 (holds even when the server is frozen
    /// and so cannot enforce `statement_timeout` itself; see `deadline.rs`).
    pub deadline: Duration,
    /// The newest migration this build knows: a connection to a database with a newer one is
    /// refused (`crate::schema_fence`). Another value only in the rolling-upgrade test, which
    /// plays a later release.
    pub newest_migration: String,
}

impl Default for PoolSettings {
    fn default() -> Self {
        PoolSettings {
            max_size: 16,
            wait_timeout: Duration::from_secs(5),
            create_timeout: Duration::from_secs(5),
            recycle_timeout: Duration::from_secs(5),
            statement_timeout: Duration::from_secs(30),
            deadline: DEFAULT_DEADLINE,
            // A build without migrations is not shipped; an empty version admits no migrated
            // database, the safe failure.
            newest_migration: crate::migrate::newest_known_version().unwrap_or_default(),
        }
    }
}

/// Builds the pool without connecting: the first checkout makes the first connection.
pub fn build_pool(database_url: &str, settings: &PoolSettings) -> Result<DbPool, String> {
    let statement_timeout_ms = settings.statement_timeout.as_millis();
    let deadline = settings.deadline;
    let create_timeout = settings.create_timeout;
    let newest_migration: std::sync::Arc<str> = settings.newest_migration.as_str().into();
    let mut config = ManagerConfig::default();
    config.custom_setup = Box::new(move |url| {
        connect(
            url,
            statement_timeout_ms,
            deadline,
            create_timeout,
            newest_migration.clone(),
        )
    });
    // Checkouts only check the connection's own broken flag (set when its socket dies or a
    // transaction was left open) instead of a `SELECT 1` round trip per request.
    config.recycling_method = RecyclingMethod::Fast;
    let manager =
        AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config(database_url, config);
    DbPool::builder(manager)
        .max_size(settings.max_size)
        .wait_timeout(Some(settings.wait_timeout))
        .create_timeout(Some(settings.create_timeout))
        .recycle_timeout(Some(settings.recycle_timeout))
        .runtime(deadpool::Runtime::Tokio1)
        .build()
        .map_err(|e| e.to_string())
}

/// Opens a connection, admits it past the schema fence (a database a newer wort migrated is
/// refused: `crate::schema_fence`) and caps its statements, so one runaway query cannot hold a
/// connection.
fn connect(
    url: &str,
    statement_timeout_ms: u128,
    deadline: Duration,
    create_timeout: Duration,
    newest_migration: std::sync::Arc<str>,
) -> BoxFuture<'_, ConnectionResult<AsyncPgConnection>> {
    async move {
        let mut conn = open(url, deadline, create_timeout).await?;
        crate::schema_fence::admit(&mut conn, &newest_migration).await?;
        diesel::sql_query(format!("SET statement_timeout = {statement_timeout_ms}"))
            .execute(&mut conn)
            .await
            .map_err(|e| ConnectionError::BadConnection(e.to_string()))?;
        // Plan each cached prepared statement once. Left to itself (`auto`), PostgreSQL
        // re-plans a statement on every execution when its generic plan merely *looks* dearer:
        // `recipe_id = ANY($1)` (the child lists, priced for a many-element array) and
        // `LIMIT $n OFFSET $m` (the pages). Every wort query is an index lookup keyed by
        // user_id/id whose generic plan is the same plan, so re-planning is pure cost
        // (measured in docs/benchmarks-log.md, "Fixed: PostgreSQL re-planned the recipe's
        // child lists on every request").
        diesel::sql_query("SET plan_cache_mode = force_generic_plan")
            .execute(&mut conn)
            .await
            .map_err(|e| ConnectionError::BadConnection(e.to_string()))?;
        // How close a catalogue search must come to a part of an item's names to find it (the
        // `<%` operator of pg_trgm, which the trigram index answers): one typo in a short word
        // is still found.
        diesel::sql_query(format!(
            "SET pg_trgm.word_similarity_threshold = {}",
            wort_domain::catalog::search::TYPO_TOLERANCE
        ))
        .execute(&mut conn)
        .await
        .map_err(|e| ConnectionError::BadConnection(e.to_string()))?;
        Ok(conn)
    }
    .boxed()
}

/// Connects to the first host of `url` that answers (and, with
/// `target_session_attrs=read-write`, accepts writes), over a socket that enforces `deadline`.
///
/// This is what `AsyncPgConnection::establish` does through tokio-postgres' own `connect`,
/// which gives no way to wrap the socket; so the hosts of a multi-host URL
/// (`postgres://h1,h2/db?target_session_attrs=read-write`) are tried here, in order, like libpq.
///
/// Each host gets [`per_host_timeout`] to accept the connection and finish the start-up: a
/// primary that is gone without a reset (a machine powered off, a network that drops packets, a
/// frozen server) would otherwise hold every new connection until the pool's create timeout, and
/// the promoted standby named after it would never be tried.
async fn open(
    url: &str,
    deadline: Duration,
    create_timeout: Duration,
) -> ConnectionResult<AsyncPgConnection> {
    let config: tokio_postgres::Config = url
        .parse()
        .map_err(|e: tokio_postgres::Error| ConnectionError::BadConnection(e.to_string()))?;
    let hosts = config.get_hosts();
    let ports = config.get_ports();
    let per_host = per_host_timeout(&config, create_timeout);
    let mut last_error = ConnectionError::BadConnection("the URL names no host".to_owned());
    for (i, host) in hosts.iter().enumerate() {
        // One port for every host, or one per host; PostgreSQL's default otherwise.
        let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
        let error =
            match tokio::time::timeout(per_host, open_host(&config, host, port, deadline)).await {
                Ok(Ok(conn)) => return Ok(conn),
                Ok(Err(e)) => e,
                Err(_) => ConnectionError::BadConnection(format!(
                    "database host {i} did not answer within {} ms",
                    per_host.as_millis()
                )),
            };
        tracing::debug!(%error, "database host refused or unsuitable; trying the next");
        last_error = error;
    }
    Err(last_error)
}

/// The URL's `connect_timeout` when it has one (per host, as in libpq), else an even share of the
/// pool's create timeout, so that every host of the URL is tried within it.
fn per_host_timeout(config: &tokio_postgres::Config, create_timeout: Duration) -> Duration {
    let hosts = u32::try_from(config.get_hosts().len())
        .unwrap_or(u32::MAX)
        .max(1);
    config
        .get_connect_timeout()
        .copied()
        .unwrap_or(create_timeout / hosts)
}

async fn open_host(
    config: &tokio_postgres::Config,
    host: &Host,
    port: u16,
    deadline: Duration,
) -> ConnectionResult<AsyncPgConnection> {
    let arming = Arming::default();
    let io_error = |e: std::io::Error| ConnectionError::BadConnection(e.to_string());
    let pg_error = |e: tokio_postgres::Error| ConnectionError::BadConnection(e.to_string());
    let client = match host {
        Host::Tcp(name) => {
            let socket = TcpStream::connect((name.as_str(), port))
                .await
                .map_err(io_error)?;
            socket.set_nodelay(true).map_err(io_error)?;
            let socket = DeadlineStream::new(socket, deadline, arming.clone());
            let (client, connection) = config.connect_raw(socket, NoTls).await.map_err(pg_error)?;
            drive(connection);
            client
        }
        Host::Unix(dir) => {
            let socket = UnixStream::connect(dir.join(format!(".s.PGSQL.{port}")))
                .await
                .map_err(io_error)?;
            let socket = DeadlineStream::new(socket, deadline, arming.clone());
            let (client, connection) = config.connect_raw(socket, NoTls).await.map_err(pg_error)?;
            drive(connection);
            client
        }
    };
    // The start-up exchange is over (and bounded by the pool's create timeout): from here on
    // every request the server owes an answer to is under the deadline.
    arming.arm();
    check_session_attrs(&client, config.get_target_session_attrs()).await?;
    AsyncPgConnection::try_from(client).await
}

/// Runs the connection's I/O until the client is dropped or the socket fails (the deadline's
/// `TimedOut` among others); the client then reports itself closed and the pool discards it.
fn drive<S, T>(connection: tokio_postgres::Connection<S, T>)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    tokio::spawn(async move {
        if let Err(error) = connection.await {
            tracing::warn!(%error, "database connection ended");
        }
    });
}

/// `target_session_attrs`: after a failover the old primary may come back as a standby; a
/// connection that must write refuses a server in recovery, and the next host is tried.
async fn check_session_attrs(
    client: &tokio_postgres::Client,
    wanted: TargetSessionAttrs,
) -> ConnectionResult<()> {
    if wanted == TargetSessionAttrs::Any {
        return Ok(());
    }
    let rows = client
        .simple_query("SHOW transaction_read_only")
        .await
        .map_err(|e| ConnectionError::BadConnection(e.to_string()))?;
    let read_only = rows.iter().find_map(|m| match m {
        SimpleQueryMessage::Row(row) => row.get(0).map(|v| v == "on"),
        _ => None,
    });
    match (wanted, read_only) {
        (TargetSessionAttrs::ReadWrite, Some(false))
        | (TargetSessionAttrs::ReadOnly, Some(true)) => Ok(()),
        _ => Err(ConnectionError::BadConnection(format!(
            "the server does not suit target_session_attrs={wanted:?}"
        ))),
    }
}

tokio::task_local! {
    /// The connection of the keyed write the current task is running, if any
    /// (`crate::request_transaction` lends it for the request's run).
    pub(crate) static LENT: std::sync::Arc<tokio::sync::Mutex<PooledConn>>;
}

/// Inside a keyed write: its connection, for one repository call. A repository that asked for
/// a second connection while holding the first would wait on itself; that is a bug, reported
/// as one instead of a hang.
fn lend() -> wort_domain::DomainResult<Option<tokio::sync::OwnedMutexGuard<PooledConn>>> {
    match LENT.try_with(std::sync::Arc::clone) {
        Err(_) => Ok(None),
        Ok(shared) => shared.try_lock_owned().map(Some).map_err(|_| {
            wort_domain::DomainError::Internal(
                "a second connection was asked for inside a keyed write's transaction".into(),
            )
        }),
    }
}

/// A connection for one repository call: the request's own inside a keyed write
/// (`crate::request_transaction`), else one from `pool`.
pub(crate) async fn checkout(pool: &DbPool) -> Result<PooledConn, wort_domain::DomainError> {
    if let Some(lent) = lend()? {
        return Ok(PooledConn::Lent(lent));
    }
    let conn = pool.get().await.map_err(crate::error::pool_error)?;
    Ok(PooledConn::Own(Some(conn)))
}

/// `/readyz`: the database answers a trivial query.
pub struct PgHealth(pub DbPool);

#[async_trait::async_trait]
impl wort_domain::ports::HealthCheck for PgHealth {
    async fn ping(&self) -> wort_domain::DomainResult<()> {
        let mut conn = checkout(&self.0).await?;
        diesel::sql_query("SELECT 1")
            .execute(&mut conn)
            .await
            .map_err(crate::error::db_error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::time::Instant;
    use tokio::net::TcpListener;

    /// A host that accepts connections and never says a word: a frozen server, or (as far as a
    /// client can tell) one whose packets vanish.
    async fn silent_host() -> (u16, tokio::task::JoinHandle<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = listener.accept().await {
                held.push(socket);
            }
        });
        (port, task)
    }

    #[tokio::test]
    async fn a_silent_first_host_does_not_keep_the_next_from_being_tried() {
        let (silent, _silent_task) = silent_host().await;
        // The second host answers the start-up with garbage, which is enough to show it was
        // reached: the error then names the protocol, not the first host's silence.
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let second = listener.local_addr().unwrap().port();
        let reached = tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            let (mut socket, _) = listener.accept().await.unwrap();
            socket.write_all(b"not postgres").await.unwrap();
        });
        let url = format!(
            "postgres://wort@127.0.0.1:{silent},127.0.0.1:{second}/wort?target_session_attrs=read-write"
        );
        let started = Instant::now();
        let result = tokio::time::timeout(
            Duration::from_secs(10),
            open(&url, Duration::from_secs(5), Duration::from_secs(2)),
        )
        .await
        .expect("open gave up on the silent host");
        assert!(result.is_err());
        tokio::time::timeout(Duration::from_secs(1), reached)
            .await
            .expect("the second host was tried")
            .unwrap();
        // One share of the create timeout (2 s over 2 hosts) on the silent one, then the next.
        let took = started.elapsed();
        assert!(took >= Duration::from_millis(900), "{took:?}");
        assert!(took < Duration::from_secs(3), "{took:?}");
    }

    #[test]
    fn the_urls_connect_timeout_wins_over_the_share() {
        let config: tokio_postgres::Config =
            "postgres://a,b,c/db?connect_timeout=7".parse().unwrap();
        assert_eq!(
            per_host_timeout(&config, Duration::from_secs(6)),
            Duration::from_secs(7)
        );
        let config: tokio_postgres::Config = "postgres://a,b,c/db".parse().unwrap();
        assert_eq!(
            per_host_timeout(&config, Duration::from_secs(6)),
            Duration::from_secs(2)
        );
    }
}
