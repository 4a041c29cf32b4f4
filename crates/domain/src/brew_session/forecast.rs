//! A session's fermentation forecast (`GET /v1/sessions/{id}/forecast`): what the adapter reads
//! ([`ForecastSeries`]), and the answer made of the fit ([`Forecast`]). The maths is
//! `crate::brewing::forecast`.

use serde::Serialize;
use time::{Duration, OffsetDateTime};

use crate::brewing::forecast::{
    ForecastInput, MIN_DROP, MIN_READINGS, MIN_SPAN_HOURS, NoForecast, SeriesPoint, forecast,
};
use crate::brewing::round_to;

/// A session's gravity readings, bucketed so that there are at most
/// [`crate::brewing::forecast::MAX_POINTS`] (the adapter's bucket is an hour, or wider when the
/// readings span more than that many hours), with what the fit may use as prior knowledge.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForecastSeries {
    /// The first gravity reading's time: the points' hours count from it (`None`: no reading).
    pub first_at: Option<OffsetDateTime>,
    /// Hours from the first gravity reading to the last.
    pub span_hours: f64,
    /// One per bucket, oldest first: the readings' mean time and median gravity.
    pub points: Vec<SeriesPoint>,
    /// Raw gravity readings behind the points.
    pub readings: u64,
    /// The measured OG, else the recipe snapshot's (SG).
    pub original_gravity: Option<f64>,
    /// The recipe snapshot's predicted FG (SG).
    pub recipe_fg: Option<f64>,
}

/// The forecast: the final gravity the fermentation is heading for and when it comes within
/// 0.001 of it, each with an 80 % interval; every field null, with a `reason`, until there are
/// at least 6 gravity readings over at least 12 hours and a drop of at least 0.003, or when
/// the readings do not fit the model.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = FermentationForecast))]
pub struct Forecast {
    /// The gravity the fermentation levels off at (SG, 4 decimals).
    pub predicted_fg: Option<f64>,
    /// The 80 % interval's lower end (SG).
    pub predicted_fg_low: Option<f64>,
    /// The 80 % interval's upper end (SG).
    pub predicted_fg_high: Option<f64>,
    /// When the gravity comes within 0.001 of `predicted_fg` (may be past).
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub finish_at: Option<OffsetDateTime>,
    /// The 80 % interval's earlier end.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub finish_at_low: Option<OffsetDateTime>,
    /// The 80 % interval's later end.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub finish_at_high: Option<OffsetDateTime>,
    /// The model fitted, the one of two that fits the readings better: `logistic-4p (Speers,
    /// Rogers & Smith 2003)` or `gompertz-4p (Zwietering et al. 1990)`.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub method: Option<&'static str>,
    /// Raw gravity readings behind the fit.
    pub readings_used: Option<u64>,
    /// Why there is no forecast (null when there is one).
    pub reason: Option<String>,
}

impl Forecast {
    fn none(reason: String) -> Forecast {
        Forecast {
            predicted_fg: None,
            predicted_fg_low: None,
            predicted_fg_high: None,
            finish_at: None,
            finish_at_low: None,
            finish_at_high: None,
            method: None,
            readings_used: None,
            reason: Some(reason),
        }
    }

    /// The forecast of `series`.
    pub fn of(series: &ForecastSeries) -> Forecast {
        let Some(first_at) = series.first_at else {
            return Forecast::none(not_enough(series));
        };
        let input = ForecastInput {
            points: series.points.clone(),
            readings: series.readings,
            span_hours: series.span_hours,
            original_gravity: series.original_gravity,
            recipe_fg: series.recipe_fg,
        };
        match forecast(&input) {
            Ok(fit) => {
                let at = |hours: f64| {
                    // Whole seconds; the fit never gives more than a few months ahead.
                    let seconds = (hours * 3600.0).round();
                    (seconds.is_finite() && seconds.abs() < 1e10)
                        .then(|| first_at.checked_add(Duration::seconds(seconds as i64)))
                        .flatten()
                };
                let sg = |g: f64| Some(round_to(g, 4));
                Forecast {
                    predicted_fg: sg(fit.fg),
                    predicted_fg_low: sg(fit.fg_low),
                    predicted_fg_high: sg(fit.fg_high),
                    finish_at: at(fit.finish_hours),
                    finish_at_low: at(fit.finish_low_hours),
                    finish_at_high: at(fit.finish_high_hours),
                    method: Some(fit.curve.method()),
                    readings_used: Some(series.readings),
                    reason: None,
                }
            }
            Err(NoForecast::NotEnoughReadings) => Forecast::none(not_enough(series)),
            Err(why) => Forecast::none(why.reason().to_owned()),
        }
    }
}

/// The rule, and how far the session is from it.
fn not_enough(series: &ForecastSeries) -> String {
    let drop = match (series.points.first(), series.points.last()) {
        (Some(a), Some(b)) => (a.gravity - b.gravity).max(0.0),
        _ => 0.0,
    };
    format!(
        "needs at least {MIN_READINGS} gravity readings over {MIN_SPAN_HOURS:.0} hours with a drop \
         of at least {MIN_DROP:.3} (has {} over {:.0} hours, a drop of {:.3})",
        series.readings,
        series.span_hours.max(0.0),
        round_to(drop, 3),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_few_readings_say_so_and_how_far_along() {
        let series = ForecastSeries {
            first_at: Some(OffsetDateTime::UNIX_EPOCH),
            span_hours: 3.0,
            points: vec![
                SeriesPoint {
                    hours: 0.0,
                    gravity: 1.050,
                },
                SeriesPoint {
                    hours: 3.0,
                    gravity: 1.049,
                },
            ],
            readings: 4,
            original_gravity: Some(1.050),
            recipe_fg: Some(1.012),
        };
        let f = Forecast::of(&series);
        assert_eq!(f.predicted_fg, None);
        assert_eq!(f.readings_used, None);
        assert_eq!(
            f.reason.as_deref(),
            Some(
                "needs at least 6 gravity readings over 12 hours with a drop of at least 0.003 \
                 (has 4 over 3 hours, a drop of 0.001)"
            )
        );
        let none = Forecast::of(&ForecastSeries::default());
        assert!(
            none.reason
                .is_some_and(|r| r.contains("has 0 over 0 hours"))
        );
    }

    #[test]
    fn a_forecast_has_times_and_rounded_gravities() {
        let start = time::macros::datetime!(2026-12-01 12:00 UTC);
        let points: Vec<SeriesPoint> = (0..=60)
            .map(|h| {
                let t = f64::from(h);
                SeriesPoint {
                    hours: t,
                    gravity: 1.012 + 0.038 / (1.0 + (0.1 * (t - 40.0)).exp()),
                }
            })
            .collect();
        let f = Forecast::of(&ForecastSeries {
            first_at: Some(start),
            span_hours: 60.0,
            points,
            readings: 240,
            original_gravity: Some(1.050),
            recipe_fg: Some(1.012),
        });
        assert_eq!(f.reason, None);
        assert_eq!(f.predicted_fg, Some(1.012));
        assert_eq!(f.readings_used, Some(240));
        assert_eq!(f.method, Some("logistic-4p (Speers, Rogers & Smith 2003)"));
        let finish = f.finish_at.unwrap();
        // 40 + 10 ln 37 = 76.1 hours after the first reading.
        assert!((finish - start - Duration::minutes(4566)).abs() < Duration::hours(1));
        assert!(f.finish_at_low.unwrap() <= finish && finish <= f.finish_at_high.unwrap());
        assert!(f.predicted_fg_low.unwrap() <= 1.012 && 1.012 <= f.predicted_fg_high.unwrap());
    }
}
