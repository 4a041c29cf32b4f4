//! BJCP 2021 beer styles (docs/styles-source.md): names and numeric ranges only, and how a recipe's
//! statistics sit within them (`style_fit`).
//!
//! The data, `crates/domain/data/bjcp-2021-styles.json`, is taken from beerjson/bjcp-json (MIT),
//! a machine-readable transcription of the BJCP 2021 guidelines, keeping only id, name, category
//! and the five ranges: the guidelines' descriptive text is the BJCP's copyright and is not
//! shipped. Source, licence, commit and the corrections made are in `docs/styles-source.md`.
//! A range is `null` where the guidelines give none (specialty styles whose numbers "vary with
//! the base style").

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::round_to;
use super::stats::RecipeStats;

/// The shipped style set, parsed once on first use.
const STYLES_JSON: &str = include_str!("../../data/bjcp-2021-styles.json");

/// A `{min, max}` range of the guidelines; both ends inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Range {
    pub min: f64,
    pub max: f64,
}

impl Range {
    /// Whether `value` is within the range, both ends included (the guidelines' "1.044–1.050"
    /// admits 1.044 and 1.050).
    pub fn contains(&self, value: f64) -> bool {
        self.min <= value && value <= self.max
    }
}

/// One BJCP 2021 style: `GET /v1/styles/{style_id}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Style {
    /// e.g. `21A`; the local styles of the guidelines' appendix are `X1`…`X5`.
    pub id: String,
    pub name: String,
    pub category: String,
    pub og: Option<Range>,
    pub fg: Option<Range>,
    pub ibu: Option<Range>,
    pub color_srm: Option<Range>,
    pub abv: Option<Range>,
}

/// Every shipped style, in guideline order. Empty only if the shipped file were malformed, which
/// the tests below rule out (a bad file fails the build's tests, not a request).
pub fn styles() -> &'static [Style] {
    static STYLES: OnceLock<Vec<Style>> = OnceLock::new();
    STYLES.get_or_init(|| serde_json::from_str(STYLES_JSON).unwrap_or_default())
}

/// The style with this id (`21A`), if any; ids are matched exactly, as the API spells them.
pub fn style(id: &str) -> Option<&'static Style> {
    styles().iter().find(|s| s.id == id)
}

/// Where a value lies against a style's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FitPosition {
    Below,
    InRange,
    Above,
}

/// How one statistic sits in a style's range: `{"min","max","value","in_range","position"}`.
/// `value` is the statistic as a brewer reads it (OG and FG to 0.001, IBU to 1, colour to 0.1 SRM,
/// ABV to 0.1 %), and `in_range` and `position` are decided on that value, so a value shown equal
/// to a bound is in range. With no range in the guidelines, `min`, `max`, `in_range` and
/// `position` are null: there is nothing to be in.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Fit {
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub value: f64,
    pub in_range: Option<bool>,
    pub position: Option<FitPosition>,
}

impl Fit {
    fn of(range: Option<Range>, value: f64, displayed_decimals: i32) -> Fit {
        let value = round_to(value, displayed_decimals);
        let position = range.map(|r| {
            if value < r.min {
                FitPosition::Below
            } else if value > r.max {
                FitPosition::Above
            } else {
                FitPosition::InRange
            }
        });
        Fit {
            min: range.map(|r| r.min),
            max: range.map(|r| r.max),
            value,
            in_range: position.map(|p| p == FitPosition::InRange),
            position,
        }
    }
}

/// `style_fit` in `/stats`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StyleFit {
    pub og: Fit,
    pub fg: Fit,
    pub ibu: Fit,
    pub color_srm: Fit,
    pub abv: Fit,
}

/// Places a recipe's statistics in a style's ranges, on the values as a brewer reads them: an OG
/// of 1.0555 reads 1.056 and is in a 1.056–1.070 range, not "below 1.056".
pub fn style_fit(stats: &RecipeStats, style: &Style) -> StyleFit {
    StyleFit {
        og: Fit::of(style.og, stats.og, 3),
        fg: Fit::of(style.fg, stats.fg, 3),
        ibu: Fit::of(style.ibu, stats.ibu, 0),
        color_srm: Fit::of(style.color_srm, stats.srm, 1),
        abv: Fit::of(style.abv, stats.abv, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses_whole() {
        // Every BJCP 2021 style: 1A–26D, 27, 28A–34C, and the local styles X1–X5
        // (docs/styles-source.md says where 27 and 33 come from).
        assert_eq!(styles().len(), 113);
        let mut ids: Vec<&str> = styles().iter().map(|s| s.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 113, "ids are unique");
        for id in ["27", "33A", "33B", "34C", "X5"] {
            assert!(style(id).is_some(), "{id}");
        }
        for s in styles() {
            assert!(!s.name.is_empty() && !s.category.is_empty(), "{s:?}");
            for r in [s.og, s.fg, s.ibu, s.color_srm, s.abv]
                .into_iter()
                .flatten()
            {
                assert!(r.min <= r.max, "{s:?}");
            }
            for r in [s.og, s.fg].into_iter().flatten() {
                assert!((0.99..1.2).contains(&r.min), "gravities are SG: {s:?}");
            }
        }
    }

    /// The published BJCP 2021 vital statistics of a dozen styles, typed from the guidelines
    /// (not from the shipped file): (id, name, OG, FG, IBU, SRM, ABV).
    #[allow(clippy::type_complexity)]
    #[rustfmt::skip]
    const PUBLISHED: &[(&str, &str, [f64; 2], [f64; 2], [f64; 2], [f64; 2], [f64; 2])] = &[
        ("1A", "American Light Lager", [1.028, 1.040], [0.998, 1.008], [8.0, 12.0], [2.0, 3.0], [2.8, 4.2]),
        ("3B", "Czech Premium Pale Lager", [1.044, 1.060], [1.013, 1.017], [30.0, 45.0], [3.5, 6.0], [4.2, 5.8]),
        ("4A", "Munich Helles", [1.044, 1.048], [1.006, 1.012], [16.0, 22.0], [3.0, 5.0], [4.7, 5.4]),
        ("5D", "German Pils", [1.044, 1.050], [1.008, 1.013], [22.0, 40.0], [2.0, 4.0], [4.4, 5.2]),
        ("10A", "Weissbier", [1.044, 1.053], [1.008, 1.014], [8.0, 15.0], [2.0, 6.0], [4.3, 5.6]),
        ("11B", "Best Bitter", [1.040, 1.048], [1.008, 1.012], [25.0, 40.0], [8.0, 16.0], [3.8, 4.6]),
        ("15B", "Irish Stout", [1.036, 1.044], [1.007, 1.011], [25.0, 45.0], [25.0, 40.0], [3.8, 5.0]),
        ("18B", "American Pale Ale", [1.045, 1.060], [1.010, 1.015], [30.0, 50.0], [5.0, 10.0], [4.5, 6.2]),
        ("20C", "Imperial Stout", [1.075, 1.115], [1.018, 1.030], [50.0, 90.0], [30.0, 40.0], [8.0, 12.0]),
        ("21A", "American IPA", [1.056, 1.070], [1.008, 1.014], [40.0, 70.0], [6.0, 14.0], [5.5, 7.5]),
        ("21C", "Hazy IPA", [1.060, 1.085], [1.010, 1.015], [25.0, 60.0], [3.0, 7.0], [6.0, 9.0]),
        ("25B", "Saison", [1.048, 1.065], [1.002, 1.008], [20.0, 35.0], [5.0, 14.0], [5.0, 7.0]),
        ("26C", "Belgian Tripel", [1.075, 1.085], [1.008, 1.014], [20.0, 40.0], [4.5, 7.0], [7.5, 9.5]),
    ];

    #[test]
    fn a_dozen_styles_match_the_published_guidelines() {
        let range = |r: [f64; 2]| {
            Some(Range {
                min: r[0],
                max: r[1],
            })
        };
        for (id, name, og, fg, ibu, srm, abv) in PUBLISHED {
            let s = style(id).unwrap_or_else(|| panic!("{id} missing"));
            assert_eq!(s.name, *name, "{id}");
            assert_eq!(s.og, range(*og), "{id} OG");
            assert_eq!(s.fg, range(*fg), "{id} FG");
            assert_eq!(s.ibu, range(*ibu), "{id} IBU");
            assert_eq!(s.color_srm, range(*srm), "{id} SRM");
            assert_eq!(s.abv, range(*abv), "{id} ABV");
        }
        // A specialty style: the guidelines give no numbers, so neither do we.
        let brett = style("28A").unwrap();
        assert_eq!(brett.name, "Brett Beer");
        assert_eq!(
            (brett.og, brett.fg, brett.ibu, brett.color_srm, brett.abv),
            (None, None, None, None, None)
        );
        assert_eq!(style("21a"), None, "ids are exact");
        assert_eq!(
            style("27A"),
            None,
            "27 is one style: the entry names its historical beer"
        );
    }

    fn stats(og: f64, fg: f64, ibu: f64, srm: f64, abv: f64) -> RecipeStats {
        RecipeStats {
            og,
            fg,
            abv,
            ibu,
            srm,
            ebc: srm * 1.97,
            attenuation: 75.0,
            calories: 0.0,
            calories_per_liter: 0.0,
            bu_gu: None,
            ibu_by_hop: vec![],
        }
    }

    #[test]
    fn fit_is_inclusive_and_names_each_statistic() {
        let pils = style("5D").unwrap();
        // OG on the lower bound, FG on the upper, IBU inside, SRM above, ABV below.
        let f = style_fit(&stats(1.044, 1.013, 30.0, 4.1, 4.3), pils);
        assert_eq!(
            f.og,
            Fit {
                min: Some(1.044),
                max: Some(1.050),
                value: 1.044,
                in_range: Some(true),
                position: Some(FitPosition::InRange),
            }
        );
        assert_eq!(f.fg.in_range, Some(true));
        assert_eq!(f.ibu.in_range, Some(true));
        assert_eq!(f.color_srm.in_range, Some(false));
        assert_eq!(f.color_srm.position, Some(FitPosition::Above));
        assert_eq!(f.color_srm.value, 4.1);
        assert_eq!(f.abv.in_range, Some(false));
        assert_eq!(f.abv.position, Some(FitPosition::Below));
    }

    #[test]
    fn fit_is_decided_on_the_values_as_displayed() {
        // 21A: OG 1.056–1.070, FG 1.008–1.014, IBU 40–70, SRM 6–14, ABV 5.5–7.5.
        let ipa = style("21A").unwrap();
        // 1.0555 reads 1.056: on the bound, so in range (it was "below 1.056" before).
        let f = style_fit(&stats(1.0555, 1.0141, 39.6, 5.96, 5.46), ipa);
        assert_eq!((f.og.value, f.og.in_range), (1.056, Some(true)));
        assert_eq!((f.fg.value, f.fg.in_range), (1.014, Some(true)));
        assert_eq!((f.ibu.value, f.ibu.in_range), (40.0, Some(true)));
        assert_eq!((f.color_srm.value, f.color_srm.in_range), (6.0, Some(true)));
        assert_eq!((f.abv.value, f.abv.in_range), (5.5, Some(true)));
        // Just past a bound as displayed is out, on the side it lies.
        let f = style_fit(&stats(1.0554, 1.0146, 70.5, 14.06, 7.56), ipa);
        assert_eq!(f.og.position, Some(FitPosition::Below));
        assert_eq!(f.fg.position, Some(FitPosition::Above));
        assert_eq!(f.ibu.position, Some(FitPosition::Above));
        assert_eq!(f.color_srm.position, Some(FitPosition::Above));
        assert_eq!(f.abv.position, Some(FitPosition::Above));
    }

    #[test]
    fn no_range_no_verdict() {
        let f = style_fit(&stats(1.05, 1.01, 30.0, 5.0, 5.2), style("34C").unwrap());
        assert_eq!(
            f.ibu,
            Fit {
                min: None,
                max: None,
                value: 30.0,
                in_range: None,
                position: None,
            }
        );
        let v = serde_json::to_value(f).unwrap();
        assert_eq!(
            v["og"],
            serde_json::json!({"min": null, "max": null, "value": 1.05, "in_range": null, "position": null})
        );
    }
}
