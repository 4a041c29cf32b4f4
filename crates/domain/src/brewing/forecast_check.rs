//! The forecast's validation (docs/calculations.md, "Fermentation forecast"): fermentations
//! generated from known curves of several shapes, read as a floating hydrometer would (a
//! reading every 15 minutes, noise, drift, outliers, gaps), forecast at 30 %, 50 % and 70 % of
//! the way from OG to the true FG, and compared with the truth. Deterministic (a fixed seed).
//!
//! The table: `cargo test -p wort-domain --lib forecast_check -- --nocapture` (about 15 s
//! unoptimised); it fails when the errors or the coverage get worse than docs/calculations.md
//! reports.

use super::forecast::{ForecastFit, ForecastInput, SeriesPoint, forecast};

/// splitmix64: small, fast, and the same numbers everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn between(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }
    fn normal(&mut self) -> f64 {
        let u = self.uniform().max(1e-300);
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Logistic,
    Exponential,
    LagGompertz,
    SlowTail,
    Stall,
}

const SHAPES: [Shape; 5] = [
    Shape::Logistic,
    Shape::Exponential,
    Shape::LagGompertz,
    Shape::SlowTail,
    Shape::Stall,
];

/// One generated fermentation: its true curve (points, hours), its true FG, the recipe's
/// predicted FG and the OG the brewer measured.
struct Brew {
    shape: Shape,
    og: f64,
    fg: f64,
    recipe_fg: f64,
    measured_og: f64,
    params: [f64; 4],
}

impl Brew {
    fn new(shape: Shape, rng: &mut Rng) -> Brew {
        let og = rng.between(40.0, 75.0);
        let attenuation = rng.between(0.68, 0.82);
        let planned_fg = og * (1.0 - attenuation);
        // Recipe FGs are off by a few points: SD 3, at most ±8.
        let recipe_fg = planned_fg + (3.0 * rng.normal()).clamp(-8.0, 8.0);
        let (fg, params) = match shape {
            // Midpoint 30–70 h, rate 0.06–0.15 /h.
            Shape::Logistic => (
                planned_fg,
                [rng.between(0.06, 0.15), rng.between(30.0, 70.0), 0.0, 0.0],
            ),
            // Lag 6–18 h, then an exponential approach at 0.02–0.06 /h.
            Shape::Exponential => (
                planned_fg,
                [rng.between(0.02, 0.06), rng.between(6.0, 18.0), 0.0, 0.0],
            ),
            // Zwietering's Gompertz: a lag of 18–48 h, steepest fall 0.4–1.2 points/h.
            Shape::LagGompertz => (
                planned_fg,
                [rng.between(0.4, 1.2), rng.between(18.0, 48.0), 0.0, 0.0],
            ),
            // A logistic to 2–4 points above FG, then a slow tail (time constant 48–120 h).
            Shape::SlowTail => (
                planned_fg,
                [
                    rng.between(0.06, 0.15),
                    rng.between(30.0, 60.0),
                    rng.between(2.0, 4.0),
                    rng.between(48.0, 120.0),
                ],
            ),
            // A logistic that stops 5–12 points above the planned FG.
            Shape::Stall => (
                planned_fg + rng.between(5.0, 12.0),
                [rng.between(0.06, 0.15), rng.between(30.0, 60.0), 0.0, 0.0],
            ),
        };
        Brew {
            shape,
            og,
            fg,
            recipe_fg,
            measured_og: og + rng.normal(),
            params,
        }
    }

    /// The true gravity (points) at `t` hours.
    fn at(&self, t: f64) -> f64 {
        let [a, b, c, d] = self.params;
        let drop = self.og - self.fg;
        match self.shape {
            Shape::Logistic | Shape::Stall => self.fg + drop / (1.0 + (a * (t - b)).exp()),
            Shape::Exponential => self.fg + drop * (-a * (t - b).max(0.0)).exp(),
            Shape::LagGompertz => {
                let e = std::f64::consts::E;
                let done = (-(a * e / drop * (b - t) + 1.0).exp()).exp();
                self.og - drop * done
            }
            Shape::SlowTail => {
                let main = (drop - c) / (1.0 + (a * (t - b)).exp());
                self.fg + main + c * (-(t - b).max(0.0) / d).exp() * (1.0 - 0.0)
            }
        }
    }

    /// The first hour (to a minute) the true curve has done `share` of its drop.
    fn when_done(&self, share: f64) -> f64 {
        let target = self.og - share * (self.og - self.fg);
        self.first_below(target)
    }

    /// The true finish: within one point of the true FG.
    fn finish(&self) -> f64 {
        self.first_below(self.fg + 1.0)
    }

    fn first_below(&self, target: f64) -> f64 {
        let mut t = 0.0;
        while t < 24.0 * 200.0 {
            if self.at(t) <= target {
                return t;
            }
            t += 1.0 / 60.0;
        }
        t
    }
}

/// A floating hydrometer's readings every 15 minutes up to `until`: white noise 0.7–1.5
/// points, a slow drift (±1 point over a day and a half), 0.5 % outliers of 5–30 points, and
/// half the brews with a gap of 4–12 hours. Returned as hourly medians, as the database
/// adapter buckets them, with the count of readings.
fn readings(brew: &Brew, until: f64, rng: &mut Rng) -> (Vec<SeriesPoint>, u64, f64) {
    let noise = rng.between(0.7, 1.5);
    let drift = rng.between(0.0, 1.0);
    let phase = rng.between(0.0, 6.3);
    let period = rng.between(24.0, 48.0);
    let gap = if rng.uniform() < 0.5 {
        let start = rng.between(0.0, until.max(1.0));
        Some((start, start + rng.between(4.0, 12.0)))
    } else {
        None
    };
    let mut hours: Vec<(f64, Vec<f64>)> = Vec::new();
    let mut t = 0.0;
    let mut count = 0u64;
    let mut last = 0.0;
    while t <= until {
        let in_gap = gap.is_some_and(|(a, b)| t >= a && t < b);
        if !in_gap {
            let mut g = brew.at(t)
                + noise * rng.normal()
                + drift * (std::f64::consts::TAU * t / period + phase).sin();
            if rng.uniform() < 0.005 {
                let sign = if rng.uniform() < 0.5 { -1.0 } else { 1.0 };
                g += sign * rng.between(5.0, 30.0);
            }
            // Tilt-like resolution: a tenth of a point.
            let g = (g * 10.0).round() / 10.0;
            let bucket = t.floor();
            match hours.last_mut() {
                Some((b, gs)) if *b == bucket => gs.push(g),
                _ => hours.push((bucket, vec![g])),
            }
            count += 1;
            last = t;
        }
        t += 0.25;
    }
    let points = hours
        .into_iter()
        .map(|(bucket, mut gs)| {
            gs.sort_by(f64::total_cmp);
            let n = gs.len();
            let median = if n % 2 == 1 {
                gs[n / 2]
            } else {
                (gs[n / 2 - 1] + gs[n / 2]) / 2.0
            };
            SeriesPoint {
                hours: bucket + 0.125 * (n as f64 - 1.0),
                gravity: 1.0 + median / 1000.0,
            }
        })
        .collect();
    (points, count, last)
}

struct Outcome {
    fg_error: f64,
    finish_error: f64,
    fg_covered: bool,
    finish_covered: bool,
}

fn run(brew: &Brew, share: f64, rng: &mut Rng) -> Option<Outcome> {
    let until = brew.when_done(share);
    let (points, count, last) = readings(brew, until, rng);
    let input = ForecastInput {
        points,
        readings: count,
        span_hours: last,
        original_gravity: Some(1.0 + brew.measured_og / 1000.0),
        recipe_fg: Some(1.0 + brew.recipe_fg / 1000.0),
    };
    let f: ForecastFit = forecast(&input).ok()?;
    let fg = (f.fg - 1.0) * 1000.0;
    let finish = brew.finish();
    Some(Outcome {
        fg_error: (fg - brew.fg).abs(),
        finish_error: (f.finish_hours - finish).abs(),
        fg_covered: f.fg_low - 1e-9 <= 1.0 + brew.fg / 1000.0
            && 1.0 + brew.fg / 1000.0 <= f.fg_high + 1e-9,
        finish_covered: f.finish_low_hours <= finish && finish <= f.finish_high_hours,
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

struct Row {
    label: String,
    cases: usize,
    fitted: usize,
    fg_median: f64,
    fg_worst: f64,
    finish_median: f64,
    finish_worst: f64,
    fg_coverage: f64,
    finish_coverage: f64,
}

fn row(label: String, outcomes: &[Option<Outcome>]) -> Row {
    let fitted: Vec<&Outcome> = outcomes.iter().flatten().collect();
    let n = fitted.len().max(1) as f64;
    let share = |f: fn(&Outcome) -> bool| fitted.iter().filter(|o| f(o)).count() as f64 / n;
    let worst = |f: fn(&Outcome) -> f64| fitted.iter().map(|o| f(o)).fold(0.0, f64::max);
    Row {
        label,
        cases: outcomes.len(),
        fitted: fitted.len(),
        fg_median: median(fitted.iter().map(|o| o.fg_error).collect()),
        fg_worst: worst(|o| o.fg_error),
        finish_median: median(fitted.iter().map(|o| o.finish_error).collect()),
        finish_worst: worst(|o| o.finish_error),
        fg_coverage: share(|o| o.fg_covered),
        finish_coverage: share(|o| o.finish_covered),
    }
}

/// Brews per shape.
const BREWS: usize = 40;

#[test]
fn forecast_check() {
    let mut rng = Rng(0x05EE_DF0E_CA57);
    let brews: Vec<Brew> = SHAPES
        .iter()
        .flat_map(|s| (0..BREWS).map(|_| *s).collect::<Vec<_>>())
        .map(|s| Brew::new(s, &mut rng))
        .collect();
    let mut rows = Vec::new();
    let mut by_stage: Vec<Vec<Option<Outcome>>> = Vec::new();
    for share in [0.3, 0.5, 0.7] {
        let mut stage = Vec::new();
        for shape in SHAPES {
            let outcomes: Vec<Option<Outcome>> = brews
                .iter()
                .filter(|b| b.shape == shape)
                .map(|b| run(b, share, &mut rng))
                .collect();
            rows.push(row(format!("{:.0} % {shape:?}", share * 100.0), &outcomes));
            stage.extend(outcomes);
        }
        rows.push(row(format!("{:.0} % all", share * 100.0), &stage));
        by_stage.push(stage);
    }
    eprintln!(
        "| stage, shape | brews | forecast | FG error median / worst (points) | finish error median / worst (h) | FG 80 % coverage | finish 80 % coverage |"
    );
    eprintln!("|---|---|---|---|---|---|---|");
    for r in &rows {
        eprintln!(
            "| {} | {} | {} | {:.1} / {:.1} | {:.0} / {:.0} | {:.0} % | {:.0} % |",
            r.label,
            r.cases,
            r.fitted,
            r.fg_median,
            r.fg_worst,
            r.finish_median,
            r.finish_worst,
            r.fg_coverage * 100.0,
            r.finish_coverage * 100.0
        );
    }
    let all: Vec<Option<Outcome>> = by_stage.into_iter().flatten().collect();
    let total = row("all".into(), &all);
    eprintln!(
        "| all | {} | {} | {:.1} / {:.1} | {:.0} / {:.0} | {:.0} % | {:.0} % |",
        total.cases,
        total.fitted,
        total.fg_median,
        total.fg_worst,
        total.finish_median,
        total.finish_worst,
        total.fg_coverage * 100.0,
        total.finish_coverage * 100.0
    );
    // What docs/calculations.md reports, kept from getting worse unnoticed.
    assert!(total.fitted * 100 >= total.cases * 98, "fits failed");
    assert!(
        total.fg_median <= 3.5,
        "FG median error {}",
        total.fg_median
    );
    assert!(
        (0.8..=0.95).contains(&total.fg_coverage),
        "FG coverage {}",
        total.fg_coverage
    );
    assert!(
        total.finish_coverage >= 0.7,
        "finish coverage {}",
        total.finish_coverage
    );
    let late_logistic = rows
        .iter()
        .find(|r| r.label == "70 % Logistic")
        .map(|r| (r.fg_median, r.finish_median, r.fg_coverage));
    assert!(
        late_logistic
            .is_some_and(|(fg, finish, coverage)| fg <= 4.0 && finish <= 6.0 && coverage >= 0.8),
        "{late_logistic:?}"
    );
}
