//! The connection pool: deadpool over `AsyncPgConnection`.
//!
//! Connections are made lazily, so `wort serve` starts while the database is down (and `/readyz`
//! says so); every checkout has a bounded wait, so an outage turns into quick 503s instead of
//! hanging requests, and the pool recovers by itself when the database returns.

use std::time::Duration;

use diesel_async::AsyncPgConnection;
use diesel_async::pooled_connection::{
    AsyncDieselConnectionManager, ManagerConfig, PoolableConnection, RecyclingMethod,
};
use diesel_async::{AsyncConnection, RunQueryDsl};
use futures_util::FutureExt;
use futures_util::future::BoxFuture;

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
pub(crate) struct PooledConn(Option<PooledObject>);

impl std::ops::Deref for PooledConn {
    type Target = AsyncPgConnection;

    fn deref(&self) -> &AsyncPgConnection {
        match &self.0 {
            Some(conn) => conn,
            None => unreachable_connection(),
        }
    }
}

impl std::ops::DerefMut for PooledConn {
    fn deref_mut(&mut self) -> &mut AsyncPgConnection {
        match &mut self.0 {
            Some(conn) => conn,
            None => unreachable_connection(),
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
        if let Some(mut conn) = self.0.take()
            && PoolableConnection::is_broken(&mut *conn)
        {
            // Taken out of the pool and dropped: the socket closes and the server rolls back.
            drop(PooledObject::take(conn));
        }
    }
}

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
}

impl Default for PoolSettings {
    fn default() -> Self {
        PoolSettings {
            max_size: 16,
            wait_timeout: Duration::from_secs(5),
            create_timeout: Duration::from_secs(5),
            recycle_timeout: Duration::from_secs(5),
            statement_timeout: Duration::from_secs(30),
        }
    }
}

/// Builds the pool without connecting: the first checkout makes the first connection.
pub fn build_pool(database_url: &str, settings: &PoolSettings) -> Result<DbPool, String> {
    let statement_timeout_ms = settings.statement_timeout.as_millis();
    let mut config = ManagerConfig::default();
    config.custom_setup = Box::new(move |url| connect(url, statement_timeout_ms));
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

/// Opens a connection and caps its statements, so one runaway query cannot hold a connection.
fn connect(
    url: &str,
    statement_timeout_ms: u128,
) -> BoxFuture<'_, diesel::ConnectionResult<AsyncPgConnection>> {
    async move {
        let mut conn = AsyncPgConnection::establish(url).await?;
        diesel::sql_query(format!("SET statement_timeout = {statement_timeout_ms}"))
            .execute(&mut conn)
            .await
            .map_err(|e| diesel::ConnectionError::BadConnection(e.to_string()))?;
        // Plan each cached prepared statement once. Left to itself (`auto`), PostgreSQL
        // re-plans a statement on every execution when its generic plan merely *looks* dearer:
        // `recipe_id = ANY($1)` (the child lists, priced for a many-element array) and
        // `LIMIT $n OFFSET $m` (the pages). Every wort query is an index lookup keyed by
        // user_id/id whose generic plan is the same plan, so re-planning is pure cost
        // (measured in docs/benchmarks.md).
        diesel::sql_query("SET plan_cache_mode = force_generic_plan")
            .execute(&mut conn)
            .await
            .map_err(|e| diesel::ConnectionError::BadConnection(e.to_string()))?;
        Ok(conn)
    }
    .boxed()
}

pub(crate) async fn checkout(pool: &DbPool) -> Result<PooledConn, wort_domain::DomainError> {
    let conn = pool.get().await.map_err(crate::error::pool_error)?;
    Ok(PooledConn(Some(conn)))
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
