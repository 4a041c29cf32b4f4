//! IBU accuracy against measured beers: wort's predictions for brews whose IBUs a laboratory
//! measured (`data/ibu-measured.json`: John-Paul Hosom's published experiments, every row citing
//! its page; see docs/calculations.md, "IBU accuracy against measured beers").
//!
//! Three models are compared, all with the same gravity (the post-boil OG), volume (post-boil),
//! alpha acid and hop-form factor (pellet 1.10, as wort applies it):
//! * **wort**: Tinseth as wort applies it today, for the recipe as a brewer would enter it
//!   ([`boil_equivalent`] then [`tinseth_ibu`], the composition `hop_ibu_with_utilisation` makes):
//!   boil additions count their boil minutes, a hop stand is a `whirlpool` counting a quarter of its
//!   minutes, and the natural cooling after flame-out counts nothing.
//! * **hop stand**: Tinseth with the Malowicki–Shellhammer hop-stand model (`hop_stand.rs`) on
//!   what physically happened: boil minutes plus every stand or cooling minute times
//!   `hop_stand_factor(temperature)`.
//! * **mIBU**: Hosom's mIBU idea as published: Tinseth's instantaneous utilisation at the real time
//!   since the addition, scaled below boiling by his fit `U_rel(T) = 2.39e11 · e^(−9773/T)`
//!   (T in kelvin), without the calculator's optional corrections.
//! * **solubility**: wort's Tinseth (as entered) with Hosom's alpha-acid solubility limit
//!   ("Hopping Rate Correction Based on Alpha-Acid Solubility", 2018): of an initial
//!   concentration `[AA]0` above 240 ppm only `490 · (1 − e^(−0.0028 · [AA]0))` ppm counts, the
//!   rest is lost. `[AA]0` is the whole brew's alpha acid over its post-boil volume.
//!
//! Run with `cargo test -p wort-domain --test ibu_accuracy -- --nocapture` for the table. The
//! assertions hold only stable facts: the data parses and is complete, the hop-stand model changes
//! nothing where nothing was steeped, and the summary figures are the ones the docs print (to 0.1
//! IBU), so the documentation cannot drift from the data.

// A malformed fixture should fail the test loudly; the table is the point of `--nocapture`.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::print_stdout
)]

use std::collections::BTreeMap;

use serde::Deserialize;
use wort_domain::brewing::bitterness::{
    alpha_acid_mg_per_liter, bigness_factor, boil_equivalent, boil_time_factor, tinseth_ibu,
};
use wort_domain::brewing::hop_form::form_factor;
use wort_domain::brewing::hop_stand::{
    ZERO_CELSIUS_KELVIN, hop_stand_minutes, profile_boil_minutes,
};
use wort_domain::brewing::{HopForm, finite_or_zero};
use wort_domain::recipe_children::HopUse;

const DATA: &str = include_str!("data/ibu-measured.json");

/// Step of the cooling-curve integration, in minutes.
const COOLING_STEP_MINUTES: f64 = 0.1;
/// Hosom's solubility limit: all alpha acid dissolves up to this concentration (ppm)...
const SOLUBILITY_MIN_PPM: f64 = 240.0;
/// ...above it `SOLUBILITY_MAX_PPM · (1 − e^(−SOLUBILITY_SLOPE · [AA]0))` does.
const SOLUBILITY_MAX_PPM: f64 = 490.0;
const SOLUBILITY_SLOPE: f64 = 0.0028;

/// The figures docs/calculations.md prints ("IBU accuracy against measured beers"), rounded to
/// 0.1 IBU: (model, subset) → (n, bias, mean absolute error, worst absolute error).
const DOCUMENTED: &[(&str, &str, usize, f64, f64, f64)] = &[
    ("wort", "all", 54, 2.3, 7.6, 46.8),
    ("wort", "boiled", 40, 4.3, 5.8, 46.8),
    ("wort", "moderate", 25, 0.7, 2.9, 8.6),
    ("wort", "stand", 9, -9.7, 11.5, 18.9),
    ("wort", "cooling", 5, 7.5, 14.2, 26.7),
    ("hop stand", "all", 54, 2.0, 8.3, 46.8),
    ("hop stand", "boiled", 40, 4.3, 5.8, 46.8),
    ("hop stand", "moderate", 25, 0.7, 2.9, 8.6),
    ("hop stand", "stand", 9, -15.0, 15.0, 20.4),
    ("hop stand", "cooling", 5, 14.2, 15.6, 27.9),
    ("mIBU", "all", 54, 2.3, 8.1, 46.8),
    ("mIBU", "boiled", 40, 4.3, 5.8, 46.8),
    ("mIBU", "moderate", 25, 0.7, 2.9, 8.6),
    ("mIBU", "stand", 9, -13.8, 13.8, 19.3),
    ("mIBU", "cooling", 5, 14.8, 15.8, 28.0),
    ("solubility", "all", 54, -2.3, 5.5, 22.6),
    ("solubility", "boiled", 40, -0.1, 3.0, 11.2),
    ("solubility", "moderate", 25, 0.7, 2.9, 8.6),
    ("solubility", "stand", 9, -14.6, 14.6, 22.6),
    ("solubility", "cooling", 5, 1.8, 9.7, 16.1),
];

const MODELS: [&str; 4] = ["wort", "hop stand", "mIBU", "solubility"];
/// `moderate`: boiled brews with at most 240 ppm of alpha acid, below Hosom's solubility limit.
const SUBSETS: [&str; 5] = ["all", "boiled", "moderate", "stand", "cooling"];

#[derive(Debug, Deserialize)]
struct Data {
    sources: BTreeMap<String, String>,
    cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
struct Case {
    id: String,
    source: String,
    og: f64,
    volume_l: f64,
    measured_ibu: f64,
    #[serde(default)]
    estimated: bool,
    additions: Vec<Addition>,
}

#[derive(Debug, Deserialize)]
struct Addition {
    grams: f64,
    alpha: f64,
    alpha_basis: String,
    form: Option<String>,
    boil_min: f64,
    stand: Option<Stand>,
    cooling: Option<Cooling>,
    /// How a brewer enters it in wort: hop use and time.
    wort: (String, f64),
}

/// Held at a temperature after (or instead of) the boil.
#[derive(Debug, Deserialize)]
struct Stand {
    min: f64,
    temp_c: f64,
}

/// Natural cooling after flame-out: °F = a + b·t + c·t² (t in minutes since flame-out).
#[derive(Debug, Deserialize)]
struct Cooling {
    min: f64,
    temp_f: [f64; 3],
}

impl Cooling {
    fn celsius_at(&self, t: f64) -> f64 {
        let [a, b, c] = self.temp_f;
        (a + b * t + c * t * t - 32.0) / 1.8
    }

    /// `(minutes, temperature_c)` steps, each at the temperature in its middle.
    fn steps(&self) -> Vec<(f64, f64)> {
        let n = (self.min / COOLING_STEP_MINUTES).round() as usize;
        (0..n)
            .map(|i| {
                let mid = (i as f64 + 0.5) * COOLING_STEP_MINUTES;
                (COOLING_STEP_MINUTES, self.celsius_at(mid))
            })
            .collect()
    }
}

impl Addition {
    fn form(&self) -> Option<HopForm> {
        self.form
            .as_deref()
            .map(|f| HopForm::parse(f).unwrap_or_else(|| panic!("unknown form {f}")))
    }

    fn wort_use(&self) -> HopUse {
        HopUse::parse(&self.wort.0).unwrap_or_else(|| panic!("unknown use {}", self.wort.0))
    }

    fn steeped(&self) -> bool {
        self.stand.is_some() || self.cooling.is_some()
    }
}

impl Case {
    /// The recipe's boil time: the longest boil entry.
    fn boil_time(&self) -> f64 {
        self.additions
            .iter()
            .filter(|a| a.wort_use() == HopUse::Boil)
            .map(|a| a.wort.1)
            .fold(0.0, f64::max)
    }

    fn steeped(&self) -> bool {
        self.additions.iter().any(Addition::steeped)
    }

    fn tinseth(&self, a: &Addition, minutes: f64) -> f64 {
        tinseth_ibu(self.og, minutes, a.alpha, a.grams, self.volume_l) * form_factor(a.form())
    }

    /// Which kind of brew: any natural cooling with the hops in, else any held stand, else boiled.
    fn kind(&self) -> &'static str {
        if self.additions.iter().any(|a| a.cooling.is_some()) {
            "cooling"
        } else if self.additions.iter().any(|a| a.stand.is_some()) {
            "stand"
        } else {
            "boiled"
        }
    }

    /// Initial alpha-acid concentration of the whole brew, mg/L (ppm).
    fn alpha_ppm(&self) -> f64 {
        self.additions
            .iter()
            .map(|a| alpha_acid_mg_per_liter(a.alpha, a.grams, self.volume_l))
            .sum()
    }

    /// wort's Tinseth with Hosom's solubility limit on the alpha acid.
    fn solubility_ibu(&self) -> f64 {
        let ppm = self.alpha_ppm();
        let share = if ppm > SOLUBILITY_MIN_PPM {
            SOLUBILITY_MAX_PPM * (1.0 - (-SOLUBILITY_SLOPE * ppm).exp()) / ppm
        } else {
            1.0
        };
        self.wort_ibu() * share
    }

    /// Tinseth as wort applies it to the recipe as entered.
    fn wort_ibu(&self) -> f64 {
        self.additions
            .iter()
            .map(|a| {
                let (minutes, factor) = boil_equivalent(a.wort_use(), a.wort.1, self.boil_time());
                finite_or_zero(factor * self.tinseth(a, minutes)).max(0.0)
            })
            .sum()
    }

    /// Tinseth with the hop-stand model on what physically happened.
    fn hop_stand_ibu(&self) -> f64 {
        self.additions
            .iter()
            .map(|a| {
                let mut minutes = a.boil_min;
                if let Some(s) = &a.stand {
                    minutes += hop_stand_minutes(s.min, s.temp_c);
                }
                if let Some(c) = &a.cooling {
                    minutes += profile_boil_minutes(c.steps());
                }
                self.tinseth(a, minutes)
            })
            .sum()
    }

    /// Hosom's mIBU: Tinseth's utilisation gained over each step at the real time since the
    /// addition, times `U_rel(T)` below boiling.
    fn mibu(&self) -> f64 {
        self.additions
            .iter()
            .map(|a| {
                let mut steps: Vec<(f64, f64)> = vec![(a.boil_min, 100.0)];
                if let Some(s) = &a.stand {
                    steps.push((s.min, s.temp_c));
                }
                if let Some(c) = &a.cooling {
                    steps.extend(c.steps());
                }
                let mut t = 0.0;
                let mut time_factor = 0.0;
                for (minutes, temperature_c) in steps {
                    let gained = boil_time_factor(t + minutes) - boil_time_factor(t);
                    time_factor += gained * hosom_relative_utilisation(temperature_c);
                    t += minutes;
                }
                bigness_factor(self.og)
                    * time_factor
                    * a.alpha
                    * 10.0
                    * a.grams
                    * form_factor(a.form())
                    / self.volume_l
            })
            .sum()
    }
}

/// Hosom's time-independent relative utilisation below boiling, 1 at a boil.
fn hosom_relative_utilisation(temperature_c: f64) -> f64 {
    if temperature_c >= 100.0 {
        return 1.0;
    }
    2.39e11 * (-9773.0 / (temperature_c + ZERO_CELSIUS_KELVIN)).exp()
}

struct Summary {
    n: usize,
    bias: f64,
    mae: f64,
    worst: f64,
    worst_id: String,
    rmse: f64,
}

fn summarise<'a>(errors: impl IntoIterator<Item = (&'a str, f64)>) -> Summary {
    let errors: Vec<(&str, f64)> = errors.into_iter().collect();
    let n = errors.len();
    let nf = n as f64;
    let (worst_id, worst) = errors
        .iter()
        .map(|(id, e)| (*id, e.abs()))
        .fold(("", 0.0), |best, x| if x.1 > best.1 { x } else { best });
    Summary {
        n,
        bias: errors.iter().map(|(_, e)| e).sum::<f64>() / nf,
        mae: errors.iter().map(|(_, e)| e.abs()).sum::<f64>() / nf,
        worst,
        worst_id: worst_id.to_owned(),
        rmse: (errors.iter().map(|(_, e)| e * e).sum::<f64>() / nf).sqrt(),
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn data() -> Data {
    serde_json::from_str(DATA).unwrap()
}

#[test]
fn the_data_is_complete() {
    let data = data();
    assert_eq!(data.cases.len(), 54);
    let mut ids = std::collections::BTreeSet::new();
    for case in &data.cases {
        assert!(ids.insert(case.id.as_str()), "duplicate id {}", case.id);
        assert!(data.sources.contains_key(&case.source), "{}", case.id);
        assert!(case.og > 1.0 && case.og < 1.1, "{}", case.id);
        assert!(
            case.volume_l > 0.0 && case.measured_ibu > 0.0,
            "{}",
            case.id
        );
        assert!(!case.additions.is_empty(), "{}", case.id);
        for a in &case.additions {
            assert!(
                a.grams > 0.0 && a.alpha > 0.0 && a.alpha < 20.0,
                "{}",
                case.id
            );
            assert!(
                ["author", "lab", "package"].contains(&a.alpha_basis.as_str()),
                "{}",
                case.id
            );
            let _ = (a.form(), a.wort_use());
            assert!(a.boil_min >= 0.0, "{}", case.id);
            if let Some(c) = &a.cooling {
                // The fitted cooling curve starts at a boil and stays above 60 °C for its length.
                assert!((c.celsius_at(0.0) - 100.0).abs() < 0.5, "{}", case.id);
                assert!(c.celsius_at(c.min) > 60.0, "{}", case.id);
            }
        }
    }
    let estimated = data.cases.iter().filter(|c| c.estimated).count();
    assert_eq!(
        estimated, 4,
        "only the four pilot-study batches without volume and gravity"
    );
}

#[test]
fn the_hop_stand_model_changes_only_steeped_additions() {
    for case in data().cases.iter().filter(|c| !c.steeped()) {
        let entered_as_boiled = case
            .additions
            .iter()
            .all(|a| a.wort_use() == HopUse::Boil && a.wort.1 == a.boil_min);
        if entered_as_boiled {
            assert!(
                (case.hop_stand_ibu() - case.wort_ibu()).abs() < 1e-9,
                "{}",
                case.id
            );
            assert!((case.mibu() - case.wort_ibu()).abs() < 1e-9, "{}", case.id);
        }
    }
}

#[test]
fn accuracy_table() {
    let data = data();
    println!();
    println!(
        "{:<18} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
        "case", "meas.", "wort", "Δ", "stand", "Δ", "mIBU", "Δ", "solub.", "Δ"
    );
    let mut rows: Vec<(&str, &str, bool, [f64; 4])> = Vec::new();
    for case in &data.cases {
        let y = case.measured_ibu;
        let p = [
            case.wort_ibu(),
            case.hop_stand_ibu(),
            case.mibu(),
            case.solubility_ibu(),
        ];
        println!(
            "{:<18} {:>6.1} {:>6.1} {:>+6.1} {:>6.1} {:>+6.1} {:>6.1} {:>+6.1} {:>6.1} {:>+6.1}{}",
            case.id,
            y,
            p[0],
            p[0] - y,
            p[1],
            p[1] - y,
            p[2],
            p[2] - y,
            p[3],
            p[3] - y,
            if case.estimated {
                "  (estimated V, OG)"
            } else {
                ""
            }
        );
        let moderate = case.kind() == "boiled" && case.alpha_ppm() <= SOLUBILITY_MIN_PPM;
        rows.push((&case.id, case.kind(), moderate, p.map(|x| x - y)));
    }

    println!();
    println!(
        "{:<10} {:<8} {:>3} {:>6} {:>6} {:>6} {:>6}  worst case",
        "model", "subset", "n", "bias", "MAE", "RMSE", "worst"
    );
    let mut summaries = BTreeMap::new();
    for (m, model) in MODELS.iter().enumerate() {
        for subset in SUBSETS {
            let s = summarise(
                rows.iter()
                    .filter(|r| subset == "all" || r.1 == subset || (subset == "moderate" && r.2))
                    .map(|r| (r.0, r.3[m])),
            );
            println!(
                "{:<10} {:<8} {:>3} {:>+6.1} {:>6.1} {:>6.1} {:>6.1}  {}",
                model, subset, s.n, s.bias, s.mae, s.rmse, s.worst, s.worst_id
            );
            summaries.insert((*model, subset), s);
        }
    }

    assert_eq!(DOCUMENTED.len(), MODELS.len() * SUBSETS.len());
    for &(model, subset, n, bias, mae, worst) in DOCUMENTED {
        let s = &summaries[&(model, subset)];
        assert_eq!(s.n, n, "{model} {subset}");
        assert_eq!(round1(s.bias), bias, "{model} {subset}: bias");
        assert_eq!(round1(s.mae), mae, "{model} {subset}: mean absolute error");
        assert_eq!(round1(s.worst), worst, "{model} {subset}: worst error");
    }
}
