//! What the fermentation forecast reads: a session's latest gravity readings bucketed in SQL,
//! so the fit gets at most `MAX_POINTS` points and the database reads at most `MAX_READINGS`
//! readings however many the session holds (readings posted through the API are not
//! throttled, so a session can hold millions), and the session's OG and recipe FG.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Jsonb, Nullable, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brew_session::ForecastSeries;
use wort_domain::brewing::forecast::{MAX_POINTS, MAX_READINGS, SeriesPoint};
use wort_domain::{DomainError, DomainResult, UserId};

use crate::error::db_error;
use crate::pool::{DbPool, checkout};
use crate::prepared::Prepared;

/// The session's measured OG and its recipe snapshot's stats.
const SESSION: &str = "SELECT measured_og, recipe_snapshot -> 'stats' AS stats \
     FROM brew_sessions WHERE id = $1 AND user_id = $2";

/// One row per bucket of the session's latest `$4` gravity readings: an hour, or
/// `span / ($3 − 1)` when they span more than `$3 − 1` hours, so there are at most `$3`
/// buckets. The readings come from walking `fermentation_logs_session_time_idx` backwards from
/// the newest, so the work is bounded by `$4` whatever the session holds (100,000 readings:
/// about 0.3 s). Each bucket's gravity is its median, which one stray reading cannot move; its
/// time the mean time of its readings.
const BUCKETS: &str = "WITH recent AS MATERIALIZED ( \
         SELECT logged_at, gravity FROM fermentation_logs \
         WHERE session_id = $1 AND user_id = $2 AND gravity IS NOT NULL \
         ORDER BY logged_at DESC LIMIT $4), \
     span AS ( \
         SELECT min(logged_at) AS first_at, max(logged_at) AS last_at FROM recent \
         HAVING count(*) > 0), \
     width AS ( \
         SELECT greatest(3600.0, \
             ceil(extract(epoch FROM last_at - first_at)::float8 / ($3 - 1))) AS seconds \
         FROM span) \
     SELECT span.first_at, span.last_at, \
         avg(extract(epoch FROM r.logged_at - span.first_at)::float8) / 3600.0 AS hours, \
         percentile_cont(0.5) WITHIN GROUP (ORDER BY r.gravity) AS gravity, \
         count(*) AS readings \
     FROM recent r CROSS JOIN span CROSS JOIN width \
     GROUP BY span.first_at, span.last_at, \
         floor(extract(epoch FROM r.logged_at - span.first_at)::float8 / width.seconds) \
     ORDER BY hours";

#[derive(QueryableByName)]
struct SessionFigures {
    #[diesel(sql_type = Nullable<Double>)]
    measured_og: Option<f64>,
    #[diesel(sql_type = Nullable<Jsonb>)]
    stats: Option<Value>,
}

#[derive(QueryableByName)]
struct Bucket {
    #[diesel(sql_type = Timestamptz)]
    first_at: OffsetDateTime,
    #[diesel(sql_type = Timestamptz)]
    last_at: OffsetDateTime,
    #[diesel(sql_type = Double)]
    hours: f64,
    #[diesel(sql_type = Double)]
    gravity: f64,
    #[diesel(sql_type = BigInt)]
    readings: i64,
}

fn number(stats: Option<&Value>, key: &str) -> Option<f64> {
    stats?.get(key)?.as_f64().filter(|x| x.is_finite())
}

/// The session's bucketed readings, OG and recipe FG, in one round trip; `NotFound` when the
/// session is not the caller's.
pub(super) async fn forecast_series(
    pool: &DbPool,
    user: UserId,
    session_id: Uuid,
) -> DomainResult<ForecastSeries> {
    let conn = checkout(pool).await?;
    let conn_ref: &AsyncPgConnection = &conn;
    let max_points = i64::try_from(MAX_POINTS).unwrap_or(i64::MAX);
    let session = Prepared(
        diesel::sql_query(SESSION)
            .bind::<SqlUuid, _>(session_id)
            .bind::<SqlUuid, _>(user.0),
    );
    let buckets = Prepared(
        diesel::sql_query(BUCKETS)
            .bind::<SqlUuid, _>(session_id)
            .bind::<SqlUuid, _>(user.0)
            .bind::<BigInt, _>(max_points)
            .bind::<BigInt, _>(i64::try_from(MAX_READINGS).unwrap_or(i64::MAX)),
    );
    let (session, buckets) = futures_util::try_join!(
        session.load::<SessionFigures>(&mut &*conn_ref),
        buckets.load::<Bucket>(&mut &*conn_ref),
    )
    .map_err(db_error)?;
    let Some(session) = session.into_iter().next() else {
        return Err(DomainError::NotFound);
    };
    let stats = session.stats.as_ref();
    let ends = <[Bucket]>::first(&buckets).map(|b| (b.first_at, b.last_at));
    Ok(ForecastSeries {
        first_at: ends.map(|(first, _)| first),
        span_hours: ends.map_or(0.0, |(first, last)| {
            (last - first).as_seconds_f64() / 3600.0
        }),
        readings: buckets
            .iter()
            .map(|b| u64::try_from(b.readings).unwrap_or(0))
            .sum(),
        points: buckets
            .iter()
            .map(|b| SeriesPoint {
                hours: b.hours,
                gravity: b.gravity,
            })
            .collect(),
        original_gravity: session.measured_og.or_else(|| number(stats, "og")),
        recipe_fg: number(stats, "fg"),
    })
}
