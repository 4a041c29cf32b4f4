//! The fermentation forecast (`GET /v1/sessions/{id}/forecast`): the final gravity a
//! fermentation is heading for and when it gets there, from the gravity readings so far
//! (docs/calculations.md, "Fermentation forecast"; docs/decisions/0090-fermentation-forecast.md).
//!
//! The model is the four-parameter logistic curve of apparent extract over time that Speers,
//! Rogers & Smith fitted to fermentations (J. Inst. Brew. 109:229–235, 2003) and that the ASBC
//! miniature fermentation assay (Yeast-14) reports, written here with a positive rate so that
//! the curve falls:
//!
//! ```text
//! G(t) = G_e + (G_i − G_e) / (1 + exp(B (t − M)))
//! ```
//!
//! `G_i` is the gravity before the yeast gets going, `G_e` the gravity it levels off at (the
//! forecast FG), `M` the time of the fastest fall and `B` the rate (per hour). The logistic is
//! symmetric about `M`; a fermentation with a long lag and a slow finish is not, so the
//! modified Gompertz curve (Zwietering et al. 1990), with the same four parameters, is fitted
//! too and the one with the smaller residuals is kept ([`Curve`]).
//!
//! The fit is Levenberg–Marquardt least squares on a bounded series (one point per hour or
//! wider bucket: the median gravity of its readings), with two weak Gaussian priors: `G_e`
//! around the recipe's predicted FG (±[`FG_PRIOR_POINTS`]) and `G_i` around the OG
//! (±[`OG_PRIOR_POINTS`]). The 80 % intervals come from the parameters' covariance (the
//! Jacobian with the residual variance, widened for the residuals' autocorrelation) plus a
//! share of what the fit says is still to come, for the model's own error
//! ([`MODEL_ERROR_SHARE`], [`MODEL_ERROR_TIME_SHARE`]).
//!
//! Everything is in gravity points (1 point = 0.001 SG, so 1.048 is 48) and hours, which keeps
//! the normal equations well scaled. Nothing here can loop without bound or panic on NaN: the
//! iterations are capped, every candidate is checked for finiteness, and a fit that fails is a
//! [`NoForecast`] with its reason.

/// Readings the forecast needs at least.
pub const MIN_READINGS: u64 = 6;
/// Hours from the first reading to the last that the forecast needs at least.
pub const MIN_SPAN_HOURS: f64 = 12.0;
/// The fall in gravity (SG) from the first hour's readings to the last hour's the forecast
/// needs at least.
pub const MIN_DROP: f64 = 0.003;
/// Why there is no forecast before there is enough to fit.
pub const NOT_ENOUGH_READINGS: &str =
    "needs at least 6 gravity readings over 12 hours with a drop of at least 0.003";
/// "Finished" is within this much (SG) of the forecast FG.
pub const FINISH_TOLERANCE: f64 = 0.001;

/// The width (one standard deviation, in points) of the prior on `G_e` around the recipe's
/// predicted FG. Recipe FGs come from the yeast's published attenuation, whose range alone is
/// 5–8 % of the OG's points (3–4 points at 1.050), and mash temperature, pitch and health move
/// the real FG by as much again: 4 points says "about there" without overruling readings that
/// show a stall or an over-attenuation.
pub const FG_PRIOR_POINTS: f64 = 4.0;
/// The width (points) of the prior on `G_i` around the session's OG: a floating hydrometer
/// and the brewer's hydrometer often disagree by 2–3 points, and a device put in late has no
/// early readings at all.
pub const OG_PRIOR_POINTS: f64 = 5.0;
/// The model's own error: the forecast FG's 80 % interval is widened by this share of the drop
/// the fit says is still to come (see docs/calculations.md for how it was chosen).
pub const MODEL_ERROR_SHARE: f64 = 0.25;
/// The same for the finish time: this share of the hours the fit says are still to come.
pub const MODEL_ERROR_TIME_SHARE: f64 = 1.0;
/// The standard normal's 90th percentile: an 80 % two-sided interval is ± this many SDs.
pub const Z_80: f64 = 1.281_551_565_545;

/// The latest gravity readings of a session the forecast reads at most: 69 days of a device's
/// reading a minute, years of one every 15 minutes.
pub const MAX_READINGS: u64 = 100_000;
/// Points fitted at most; the adapter buckets the readings so that there are no more.
pub const MAX_POINTS: usize = 1000;
/// The curves tried.
const CURVES: [Curve; 2] = [Curve::Logistic, Curve::Gompertz];
/// Levenberg–Marquardt iterations per start.
const MAX_ITERATIONS: usize = 100;
/// The furthest a forecast finish may lie beyond the last reading (hours): a fit that puts the
/// end further away than this has not seen where the fermentation is heading.
const MAX_FINISH_AHEAD_HOURS: f64 = 24.0 * 120.0;

/// One bucket of readings: its readings' mean time (hours after the first reading) and median
/// gravity (SG).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeriesPoint {
    pub hours: f64,
    pub gravity: f64,
}

/// What the fit is given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForecastInput {
    /// Oldest first, at most [`MAX_POINTS`] (more are ignored).
    pub points: Vec<SeriesPoint>,
    /// Raw gravity readings behind the points.
    pub readings: u64,
    /// Hours from the first raw reading to the last.
    pub span_hours: f64,
    /// The session's OG (SG): measured, else the recipe's.
    pub original_gravity: Option<f64>,
    /// The recipe's predicted FG (SG), from the session's recipe snapshot.
    pub recipe_fg: Option<f64>,
}

/// The fitted forecast. Gravities are SG, times hours after the first reading.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForecastFit {
    /// The curve that fitted the readings better.
    pub curve: Curve,
    pub fg: f64,
    pub fg_low: f64,
    pub fg_high: f64,
    pub finish_hours: f64,
    pub finish_low_hours: f64,
    pub finish_high_hours: f64,
}

/// Why there is no forecast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoForecast {
    /// Fewer than [`MIN_READINGS`] readings, over less than [`MIN_SPAN_HOURS`], or a drop
    /// of less than [`MIN_DROP`].
    NotEnoughReadings,
    /// The fit failed or put the end out of reach: no shape to extrapolate yet.
    NoShape,
}

impl NoForecast {
    pub fn reason(self) -> &'static str {
        match self {
            NoForecast::NotEnoughReadings => NOT_ENOUGH_READINGS,
            NoForecast::NoShape => "the readings do not yet show where the fermentation is heading",
        }
    }
}

/// The forecast for the series, or why there is none.
pub fn forecast(input: &ForecastInput) -> Result<ForecastFit, NoForecast> {
    let points: Vec<SeriesPoint> = input
        .points
        .iter()
        .take(MAX_POINTS)
        .copied()
        .filter(|p| p.hours.is_finite() && p.gravity.is_finite())
        .filter(|p| (0.9..=1.3).contains(&p.gravity))
        .collect();
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return Err(NoForecast::NotEnoughReadings);
    };
    if input.readings < MIN_READINGS
        || !at_least(input.span_hours, MIN_SPAN_HOURS)
        || !at_least(first.gravity - last.gravity, MIN_DROP - 1e-9)
    {
        return Err(NoForecast::NotEnoughReadings);
    }
    // Enough readings, but bunched into two hours (the start and the end): no shape.
    if points.len() < 3 {
        return Err(NoForecast::NoShape);
    }
    let t: Vec<f64> = points.iter().map(|p| p.hours).collect();
    let y: Vec<f64> = points.iter().map(|p| to_points(p.gravity)).collect();
    let prior = |g: Option<f64>, width: f64| {
        g.filter(|g| g.is_finite() && (0.95..=1.2).contains(g))
            .map(|g| (to_points(g), width))
    };
    let priors = [
        prior(input.original_gravity, OG_PRIOR_POINTS),
        prior(input.recipe_fg, FG_PRIOR_POINTS),
        None,
        None,
    ];
    fit(&t, &y, priors).ok_or(NoForecast::NoShape)
}

/// `x ≥ min`, false for NaN.
fn at_least(x: f64, min: f64) -> bool {
    x >= min
}

fn to_points(sg: f64) -> f64 {
    (sg - 1.0) * 1000.0
}

fn to_sg(points: f64) -> f64 {
    1.0 + points / 1000.0
}

// ---- The model ----------------------------------------------------------------------------------

const P: usize = 4;
/// `[G_i, G_e, ln B, M]`: points, points, ln(1/h), hours.
type Params = [f64; P];
type Matrix = [[f64; P]; P];

/// `1 / (1 + exp(x))` without overflow.
fn falling(x: f64) -> f64 {
    if x > 0.0 {
        let e = (-x).exp();
        e / (1.0 + e)
    } else {
        1.0 / (1.0 + x.exp())
    }
}

/// The curves fitted. Both have four parameters `[G_i, G_e, ln B, M]` and fall from `G_i`
/// to `G_e` with their steepest fall at `M`; they differ in shape: the logistic is symmetric
/// about `M`, the Gompertz curve starts abruptly and approaches `G_e` slowly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curve {
    /// Speers, Rogers & Smith 2003: `G_e + (G_i − G_e) / (1 + exp(B (t − M)))`.
    Logistic,
    /// The modified Gompertz curve (Zwietering et al. 1990, Appl. Environ. Microbiol.
    /// 56:1875–1881): `G_i − (G_i − G_e) · exp(−exp(−B (t − M)))`.
    Gompertz,
}

impl Curve {
    /// The share of the drop still to come at `t`, and its derivatives by `B` and `M`.
    fn share(self, b: f64, m: f64, t: f64) -> (f64, f64, f64) {
        match self {
            Curve::Logistic => {
                let s = falling(b * (t - m));
                let ds = s * (1.0 - s);
                (s, -ds * (t - m), ds * b)
            }
            Curve::Gompertz => {
                let e = (-b * (t - m)).min(700.0).exp();
                let done = (-e).exp();
                (1.0 - done, -done * e * (t - m), done * e * b)
            }
        }
    }

    /// The model, as the answer names it.
    pub fn method(self) -> &'static str {
        match self {
            Curve::Logistic => "logistic-4p (Speers, Rogers & Smith 2003)",
            Curve::Gompertz => "gompertz-4p (Zwietering et al. 1990)",
        }
    }

    /// The hours at which the share still to come is `q`.
    fn when(self, b: f64, m: f64, q: f64) -> f64 {
        match self {
            Curve::Logistic => m + (1.0 / q - 1.0).ln() / b,
            Curve::Gompertz => m - (-(1.0 - q).ln()).ln() / b,
        }
    }
}

/// The model's value and its gradient with respect to the parameters at time `t`.
fn model(curve: Curve, th: &Params, t: f64) -> (f64, Params) {
    let [gi, ge, lnb, m] = *th;
    let b = lnb.exp();
    let (s, ds_db, ds_dm) = curve.share(b, m, t);
    let drop = gi - ge;
    (ge + drop * s, [s, 1.0 - s, drop * ds_db * b, drop * ds_dm])
}

/// The least-squares problem: data residuals over `sigma` and the priors' residuals.
struct Problem<'a> {
    curve: Curve,
    t: &'a [f64],
    y: &'a [f64],
    keep: &'a [bool],
    sigma: f64,
    priors: [Option<(f64, f64)>; P],
}

impl Problem<'_> {
    fn cost(&self, th: &Params) -> f64 {
        let data: f64 = self
            .kept()
            .map(|(t, y)| (y - model(self.curve, th, t).0).powi(2))
            .sum();
        data / (self.sigma * self.sigma) + self.prior_cost(th)
    }

    fn prior_cost(&self, th: &Params) -> f64 {
        th.iter()
            .zip(&self.priors)
            .filter_map(|(v, p)| p.map(|(mu, tau)| ((v - mu) / tau).powi(2)))
            .sum()
    }

    fn kept(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.t
            .iter()
            .zip(self.y)
            .zip(self.keep)
            .filter(|(_, k)| **k)
            .map(|((t, y), _)| (*t, *y))
    }

    /// `JᵀJ` and `Jᵀr` of the scaled residuals (data and priors).
    fn normal_equations(&self, th: &Params) -> (Matrix, Params) {
        let mut jtj = [[0.0; P]; P];
        let mut jtr = [0.0; P];
        let w = 1.0 / (self.sigma * self.sigma);
        for (t, y) in self.kept() {
            let (f, g) = model(self.curve, th, t);
            add_outer(&mut jtj, &g, w);
            for (a, gi) in jtr.iter_mut().zip(&g) {
                *a += w * gi * (y - f);
            }
        }
        for (k, ((row, a), p)) in jtj.iter_mut().zip(&mut jtr).zip(&self.priors).enumerate() {
            if let (Some((mu, tau)), Some(v), Some(cell)) = (p, th.get(k), row.get_mut(k)) {
                *cell += 1.0 / (tau * tau);
                *a += (mu - v) / (tau * tau);
            }
        }
        (jtj, jtr)
    }
}

fn add_outer(m: &mut Matrix, g: &Params, w: f64) {
    for (row, gi) in m.iter_mut().zip(g) {
        for (cell, gj) in row.iter_mut().zip(g) {
            *cell += w * gi * gj;
        }
    }
}

fn mat_vec(m: &Matrix, v: &Params) -> Params {
    m.map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum())
}

fn quad(m: &Matrix, v: &Params) -> f64 {
    mat_vec(m, v).iter().zip(v).map(|(a, b)| a * b).sum()
}

/// The inverse by Gauss–Jordan elimination with partial pivoting; `None` when singular.
fn invert(m: &Matrix) -> Option<Matrix> {
    let mut a = *m;
    let mut inv = [[0.0; P]; P];
    for (k, row) in inv.iter_mut().enumerate() {
        *row.get_mut(k)? = 1.0;
    }
    let el = |a: &Matrix, i: usize, j: usize| a.get(i).and_then(|r| r.get(j)).copied();
    for col in 0..P {
        let pivot = (col..P).max_by(|&i, &j| {
            let (x, y) = (el(&a, i, col).unwrap_or(0.0), el(&a, j, col).unwrap_or(0.0));
            x.abs().total_cmp(&y.abs())
        })?;
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let p = el(&a, col, col)?;
        if !p.is_finite() || p.abs() <= 1e-300 {
            return None;
        }
        let scale = |row: &mut [f64; P]| row.iter_mut().for_each(|x| *x /= p);
        scale(a.get_mut(col)?);
        scale(inv.get_mut(col)?);
        let (pa, pi) = (*a.get(col)?, *inv.get(col)?);
        for (r, (ra, ri)) in a.iter_mut().zip(inv.iter_mut()).enumerate() {
            if r == col {
                continue;
            }
            let f = *ra.get(col)?;
            ra.iter_mut().zip(&pa).for_each(|(x, p)| *x -= f * p);
            ri.iter_mut().zip(&pi).for_each(|(x, p)| *x -= f * p);
        }
    }
    inv.iter().flatten().all(|x| x.is_finite()).then_some(inv)
}

/// Keeps a candidate where the model means something: a rate between 0.001 and 5 per hour,
/// gravities between 0.950 and 1.200, the midpoint within a few months of the readings.
fn clamp(th: Params, t_last: f64) -> Params {
    let [gi, ge, lnb, m] = th;
    [
        gi.clamp(-50.0, 200.0),
        ge.clamp(-50.0, 200.0),
        lnb.clamp(0.001f64.ln(), 5f64.ln()),
        m.clamp(-2000.0, t_last + 3000.0),
    ]
}

/// Levenberg–Marquardt from `start`: the parameters and the cost where it stopped.
fn levenberg_marquardt(problem: &Problem, start: Params, t_last: f64) -> Option<(Params, f64)> {
    let mut th = clamp(start, t_last);
    let mut cost = problem.cost(&th);
    if !cost.is_finite() {
        return None;
    }
    let mut lambda = 1e-3;
    for _ in 0..MAX_ITERATIONS {
        let (jtj, jtr) = problem.normal_equations(&th);
        let mut improved = None;
        while lambda < 1e12 {
            let mut damped = jtj;
            for (k, row) in damped.iter_mut().enumerate() {
                if let Some(d) = row.get_mut(k) {
                    *d += lambda * d.abs().max(1e-9);
                }
            }
            let step = invert(&damped).map(|inv| mat_vec(&inv, &jtr));
            if let Some(step) = step.filter(|s| s.iter().all(|x| x.is_finite())) {
                let mut candidate = th;
                candidate.iter_mut().zip(&step).for_each(|(x, s)| *x += s);
                let candidate = clamp(candidate, t_last);
                let c = problem.cost(&candidate);
                if c.is_finite() && c < cost {
                    improved = Some((candidate, c));
                    lambda = (lambda / 3.0).max(1e-12);
                    break;
                }
            }
            lambda *= 4.0;
        }
        let Some((candidate, c)) = improved else {
            break;
        };
        let gain = cost - c;
        th = candidate;
        cost = c;
        if gain <= 1e-10 * cost.max(1e-12) {
            break;
        }
    }
    Some((th, cost))
}

/// The best of a few starts: curves through the first and last points with different final
/// gravities and rates, and the recipe's FG when there is one.
fn best_fit(problem: &Problem, t_last: f64, seeds: &[Params]) -> Option<(Params, f64)> {
    seeds
        .iter()
        .filter_map(|s| levenberg_marquardt(problem, *s, t_last))
        .filter(|(th, c)| c.is_finite() && th.iter().all(|x| x.is_finite()))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

fn starts(t: &[f64], y: &[f64], priors: &[Option<(f64, f64)>; P]) -> Vec<Params> {
    let head: Vec<f64> = y.iter().take(3).copied().collect();
    let gi = median(&head).unwrap_or(0.0);
    let gi = priors
        .first()
        .copied()
        .flatten()
        .map_or(gi, |(og, _)| gi.max(og.min(gi + 10.0)));
    let tail: Vec<f64> = y.iter().rev().take(3).copied().collect();
    let last = median(&tail).unwrap_or(gi);
    let t_last = t.last().copied().unwrap_or(0.0);
    let done = (gi - last).max(1.0);
    let mut finals = vec![last - 0.2 * done, last - done, last - 2.5 * done];
    if let Some(Some((fg, _))) = priors.get(1)
        && *fg < last - 0.1
    {
        finals.push(*fg);
    }
    let mut seeds = Vec::new();
    for ge in finals {
        for rate in [0.03f64, 0.1, 0.3] {
            // The curve through (t_last, last): s = (last − ge) / (gi − ge).
            let s = ((last - ge) / (gi - ge)).clamp(0.02, 0.98);
            let m = t_last - (1.0 / s - 1.0).ln() / rate;
            seeds.push([gi, ge, rate.ln(), m]);
        }
    }
    seeds
}

fn median(xs: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return None;
    }
    let hi = *v.get(n / 2)?;
    if n % 2 == 1 {
        Some(hi)
    } else {
        Some((v.get(n / 2 - 1)? + hi) / 2.0)
    }
}

/// Lag-1 autocorrelation of the residuals, in [0, 0.9].
fn autocorrelation(r: &[f64]) -> f64 {
    let n = r.len();
    if n < 4 {
        return 0.0;
    }
    let mean = r.iter().sum::<f64>() / n as f64;
    let var: f64 = r.iter().map(|x| (x - mean).powi(2)).sum();
    let cov: f64 = r
        .iter()
        .zip(r.iter().skip(1))
        .map(|(a, b)| (a - mean) * (b - mean))
        .sum();
    let rho = if var > 0.0 { cov / var } else { 0.0 };
    if rho.is_finite() {
        rho.clamp(0.0, 0.95)
    } else {
        0.0
    }
}

/// The two-pass fit: a first fit at a nominal noise of one point; readings more than four
/// robust standard deviations off it are outliers and left out; the second fit weighs the
/// readings by the first fit's residual spread, widened for its autocorrelation.
fn fit(t: &[f64], y: &[f64], priors: [Option<(f64, f64)>; P]) -> Option<ForecastFit> {
    let t_last = *t.last()?;
    let all = vec![true; t.len()];
    let seeds = starts(t, y, &priors);
    // The curve that fits the readings better (both have four parameters).
    let (curve, th1) = CURVES
        .iter()
        .filter_map(|&curve| {
            let first = Problem {
                curve,
                t,
                y,
                keep: &all,
                sigma: 1.0,
                priors,
            };
            best_fit(&first, t_last, &seeds).map(|(th, cost)| (curve, th, cost))
        })
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(curve, th, _)| (curve, th))?;

    let residuals: Vec<f64> = t
        .iter()
        .zip(y)
        .map(|(t, y)| y - model(curve, &th1, *t).0)
        .collect();
    let abs: Vec<f64> = residuals.iter().map(|r| r.abs()).collect();
    let robust_sd = 1.4826 * median(&abs)?;
    let limit = (4.0 * robust_sd).max(1.0);
    let keep: Vec<bool> = residuals.iter().map(|r| r.abs() <= limit).collect();
    let kept: Vec<f64> = residuals
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(r, _)| *r)
        .collect();
    let n = kept.len();
    if n < 3 {
        return None;
    }
    let dof = n.saturating_sub(P).max(1) as f64;
    let sd = (kept.iter().map(|r| r * r).sum::<f64>() / dof)
        .sqrt()
        .max(0.1);
    let rho = autocorrelation(&kept);
    let sigma = sd * ((1.0 + rho) / (1.0 - rho)).sqrt();

    let second = Problem {
        curve,
        t,
        y,
        keep: &keep,
        sigma,
        priors,
    };
    // The second fit moves the first one's parameters only a little: one start is enough.
    let (th, _) = best_fit(&second, t_last, &[th1])?;
    let (jtj, _) = second.normal_equations(&th);
    let cov = invert(&jtj)?;
    summarise(curve, &th, &cov, t_last)
}

/// When the curve comes within the tolerance of `G_e`.
fn finish_of(curve: Curve, th: &Params) -> f64 {
    let [gi, ge, lnb, m] = *th;
    curve.when(lnb.exp(), m, FINISH_TOLERANCE * 1000.0 / (gi - ge))
}

/// The forecast from the fitted parameters and their covariance.
fn summarise(curve: Curve, th: &Params, cov: &Matrix, t_last: f64) -> Option<ForecastFit> {
    let [gi, ge, _, _] = *th;
    let d = gi - ge;
    let tolerance = FINISH_TOLERANCE * 1000.0;
    if !at_least(d, tolerance * 1.5) || !at_least(ge, -30.0) {
        return None;
    }
    let finish = finish_of(curve, th);
    // The finish's gradient by central differences (delta method).
    let mut grad_t = [0.0; P];
    for (k, g) in grad_t.iter_mut().enumerate() {
        let step = 1e-4 * th.get(k).map_or(1.0, |x| x.abs().max(1.0));
        let (mut up, mut down) = (*th, *th);
        *up.get_mut(k)? += step;
        *down.get_mut(k)? -= step;
        *g = (finish_of(curve, &up) - finish_of(curve, &down)) / (2.0 * step);
    }
    let var_ge = cov.get(1).and_then(|r| r.get(1)).copied()?;
    let var_t = quad(cov, &grad_t);
    if !at_least(var_ge, 0.0) || !at_least(var_t, 0.0) || !finish.is_finite() {
        return None;
    }
    if finish > t_last + MAX_FINISH_AHEAD_HOURS {
        return None;
    }
    // What the fit says is still to come, for the model's own error.
    let now = model(curve, th, t_last).0;
    let to_come = (now - ge).max(0.0);
    let hours_to_come = (finish - t_last).max(0.0);
    let fg_half = Z_80 * var_ge.sqrt() + MODEL_ERROR_SHARE * to_come;
    let t_half = Z_80 * var_t.sqrt() + MODEL_ERROR_TIME_SHARE * hours_to_come;
    Some(ForecastFit {
        curve,
        fg: to_sg(ge),
        fg_low: to_sg(ge - fg_half),
        fg_high: to_sg(ge + fg_half),
        finish_hours: finish,
        finish_low_hours: (finish - t_half).max(0.0),
        finish_high_hours: finish + t_half,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logistic(t: f64, gi: f64, ge: f64, b: f64, m: f64) -> f64 {
        ge + (gi - ge) / (1.0 + (b * (t - m)).exp())
    }

    fn series(hours: &[f64], g: impl Fn(f64) -> f64) -> ForecastInput {
        ForecastInput {
            points: hours
                .iter()
                .map(|&h| SeriesPoint {
                    hours: h,
                    gravity: g(h),
                })
                .collect(),
            readings: hours.len() as u64 * 4,
            span_hours: hours.last().copied().unwrap_or(0.0),
            original_gravity: None,
            recipe_fg: None,
        }
    }

    #[test]
    fn an_exact_logistic_is_recovered() {
        let hours: Vec<f64> = (0..=60).map(f64::from).collect();
        let curve = |t| to_sg(logistic(t, 50.0, 12.0, 0.1, 40.0));
        let f = forecast(&series(&hours, curve)).unwrap();
        assert!((f.fg - 1.012).abs() < 0.0002, "{f:?}");
        // Within one point of 12: 38 / (1 + e^{0.1 (t − 40)}) = 1 → t = 40 + 10 ln 37 = 76.1 h.
        assert!((f.finish_hours - 76.1).abs() < 2.0, "{f:?}");
        assert!(f.fg_low <= f.fg && f.fg <= f.fg_high);
        assert!(f.finish_low_hours <= f.finish_hours && f.finish_hours <= f.finish_high_hours);
    }

    #[test]
    fn the_gate_names_what_is_missing() {
        let hours = [0.0, 2.0, 4.0, 6.0, 8.0, 10.0];
        let falling_fast = series(&hours, |t| 1.050 - t * 0.001);
        // Ten hours only.
        assert_eq!(forecast(&falling_fast), Err(NoForecast::NotEnoughReadings));
        // Twelve hours but a drop of 0.002.
        let hours = [0.0, 3.0, 6.0, 9.0, 12.0];
        let flat = series(&hours, |t| 1.050 - t / 6000.0);
        assert!(forecast(&flat).is_err());
        // Five readings.
        let mut few = series(&hours, |t| 1.050 - t * 0.001);
        few.readings = 5;
        assert!(forecast(&few).is_err());
        // Six pass the gate (a straight line may still not show where it is heading).
        few.readings = 6;
        assert_ne!(forecast(&few), Err(NoForecast::NotEnoughReadings));
    }

    #[test]
    fn garbage_gives_a_reason_not_a_panic() {
        let mut input = series(&[0.0, 6.0, 12.0, 18.0], |t| 1.050 - t * 0.001);
        input.points.push(SeriesPoint {
            hours: f64::NAN,
            gravity: 1.0,
        });
        input.points.push(SeriesPoint {
            hours: 20.0,
            gravity: f64::INFINITY,
        });
        input.recipe_fg = Some(f64::NAN);
        input.original_gravity = Some(-3.0);
        let _ = forecast(&input);
        // A zig-zag with no shape at all.
        let hours: Vec<f64> = (0..200).map(f64::from).collect();
        let zigzag = series(&hours, |t| if (t as i64) % 2 == 0 { 1.060 } else { 1.000 });
        let mut zigzag = zigzag;
        if let Some(p) = zigzag.points.last_mut() {
            p.gravity = 1.000;
        }
        let _ = forecast(&zigzag);
        // Every reading equal but the first.
        let mut flat = series(&hours, |_| 1.010);
        if let Some(p) = flat.points.first_mut() {
            p.gravity = 1.050;
        }
        let _ = forecast(&flat);
        assert!(forecast(&ForecastInput::default()).is_err());
    }

    #[test]
    fn the_prior_pulls_an_early_forecast_towards_the_recipe() {
        // 30 hours of a curve that ends at 1.010, its midpoint at 40 h: the readings alone say
        // little about the end.
        let hours: Vec<f64> = (0..=30).map(f64::from).collect();
        let curve = |t| to_sg(logistic(t, 50.0, 10.0, 0.1, 40.0));
        let mut input = series(&hours, curve);
        input.recipe_fg = Some(1.020);
        let pulled = forecast(&input).unwrap();
        input.recipe_fg = Some(1.000);
        let pushed = forecast(&input).unwrap();
        assert!(pulled.fg > pushed.fg, "{pulled:?} {pushed:?}");
    }

    #[test]
    fn the_inverse_inverts() {
        let m = [
            [4.0, 1.0, 0.0, 0.5],
            [1.0, 3.0, 0.2, 0.0],
            [0.0, 0.2, 2.0, 0.1],
            [0.5, 0.0, 0.1, 1.0],
        ];
        let inv = invert(&m).unwrap();
        for (i, row) in m.iter().enumerate() {
            for j in 0..P {
                let x: f64 = row.iter().zip(&inv).map(|(a, r)| a * r[j]).sum();
                assert!((x - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12);
            }
        }
        assert!(invert(&[[0.0; P]; P]).is_none());
    }
}
