//! Whether wort's numbers agree with another program's: an imported file's own estimates (OG, IBU,
//! colour) against the statistics wort computes for the imported recipe, and the likely cause of a
//! difference, so an import report can say "the file says 28.7 IBU, wort 41.2: …" instead of
//! letting a brewer find out on brew day.
//!
//! A difference counts only when it is larger than programs' ordinary disagreement:
//! * OG: more than 0.004 (4 gravity points);
//! * IBU: more than 15 % of the file's value *and* more than 3 IBU (small beers differ by a few
//!   IBU between any two formulas);
//! * colour: more than 25 % of the file's value *and* more than 2 SRM.

use super::stats::RecipeStats;

/// OG differences up to this are ordinary (rounding, extract tables).
pub const OG_TOLERANCE: f64 = 0.004;
/// IBU differences count only above both this share of the file's value and [`IBU_TOLERANCE`].
pub const IBU_TOLERANCE_SHARE: f64 = 0.15;
pub const IBU_TOLERANCE: f64 = 3.0;
/// Colour differences count only above both this share and [`COLOUR_TOLERANCE_SRM`].
pub const COLOUR_TOLERANCE_SHARE: f64 = 0.25;
pub const COLOUR_TOLERANCE_SRM: f64 = 2.0;

/// What the exporting program computed for a recipe, when the file says.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FileEstimates {
    pub og: Option<f64>,
    pub ibu: Option<f64>,
    pub color_srm: Option<f64>,
}

/// What the recipe holds that explains a difference best.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RecipeTraits {
    /// Hops steeped after flame-out (whirlpool / hop stand): programs model them very differently.
    pub has_hop_stand: bool,
    /// First-wort or mash hops: programs give them different bonuses.
    pub has_first_wort_or_mash_hops: bool,
    /// Mashed fermentables, whose yield depends on the efficiency a program assumes.
    pub has_mashed_fermentables: bool,
    /// Fermentables added in the fermenter, which wort's OG leaves out (many programs count
    /// them in).
    pub has_fermenter_additions: bool,
}

/// One statistic on which the file and wort disagree, with the likely cause in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Disagreement {
    /// `og`, `ibu` or `color_srm`.
    pub statistic: &'static str,
    pub file: f64,
    pub wort: f64,
    pub likely_cause: &'static str,
}

impl Disagreement {
    /// The import report's sentence: "IBU: the file says 28.7, wort computes 41.2 (…)".
    pub fn message(&self) -> String {
        let (label, decimals) = match self.statistic {
            "og" => ("OG", 3),
            "ibu" => ("IBU", 1),
            _ => ("colour (SRM)", 1),
        };
        format!(
            "{label}: the file says {:.*}, wort computes {:.*}; likely cause: {}",
            decimals, self.file, decimals, self.wort, self.likely_cause
        )
    }
}

/// `difference` is larger than `tolerance`, beyond the last bit of a decimal subtraction
/// (1.054 − 1.050 is 0.0040000000000000036 in binary).
fn beyond(difference: f64, tolerance: f64) -> bool {
    difference > tolerance + 1e-9
}

/// Whether a colour wort computes agrees with the file's estimate (both SRM) within the
/// ordinary difference between programs: at most 25 % of the file's value *or* at most 2 SRM
/// apart.
pub fn colour_agrees(file_srm: f64, wort_srm: f64) -> bool {
    let diff = (wort_srm - file_srm).abs();
    !(beyond(diff, COLOUR_TOLERANCE_SRM) && beyond(diff, COLOUR_TOLERANCE_SHARE * file_srm))
}

/// Every statistic on which the file's estimates and wort's statistics disagree beyond the
/// tolerances above, in the order OG, IBU, colour. A statistic the file does not state is skipped.
pub fn disagreements(
    file: &FileEstimates,
    wort: &RecipeStats,
    traits: &RecipeTraits,
) -> Vec<Disagreement> {
    let mut out = Vec::new();
    if let Some(og) = file.og.filter(|v| v.is_finite() && *v > 0.9)
        && beyond((wort.og - og).abs(), OG_TOLERANCE)
    {
        let likely_cause = if traits.has_fermenter_additions && wort.og < og {
            "fermentables added in the fermenter: wort's OG leaves them out (their sugar \
                 ferments completely and counts in the ABV)"
        } else if traits.has_mashed_fermentables {
            "a different mash efficiency or equipment losses (wort applies the recipe's \
                 efficiency to the batch plus the equipment profile's trub and chiller loss)"
        } else {
            "different extract yields of the fermentables"
        };
        out.push(Disagreement {
            statistic: "og",
            file: og,
            wort: wort.og,
            likely_cause,
        });
    }
    if let Some(ibu) = file.ibu.filter(|v| v.is_finite() && *v >= 0.0) {
        let diff = (wort.ibu - ibu).abs();
        if beyond(diff, IBU_TOLERANCE) && beyond(diff, IBU_TOLERANCE_SHARE * ibu) {
            let likely_cause = if traits.has_hop_stand {
                "the hop stand: programs count hops steeped after flame-out very differently"
            } else if traits.has_first_wort_or_mash_hops {
                "first-wort or mash hops, which programs credit differently"
            } else {
                "a different IBU formula (wort uses Tinseth; Rager and Garetz give other numbers) \
                 or a different original gravity"
            };
            out.push(Disagreement {
                statistic: "ibu",
                file: ibu,
                wort: wort.ibu,
                likely_cause,
            });
        }
    }
    if let Some(colour) = file.color_srm.filter(|v| v.is_finite() && *v >= 0.0)
        && !colour_agrees(colour, wort.srm)
    {
        out.push(Disagreement {
            statistic: "color_srm",
            file: colour,
            wort: wort.srm,
            likely_cause: "a different colour formula (wort uses Morey; Daniels and Mosher \
                           give other numbers for dark beers) or malt colours given in EBC",
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(og: f64, ibu: f64, srm: f64) -> RecipeStats {
        RecipeStats {
            og,
            fg: 1.010,
            abv: 5.0,
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

    fn file(og: f64, ibu: f64, srm: f64) -> FileEstimates {
        FileEstimates {
            og: Some(og),
            ibu: Some(ibu),
            color_srm: Some(srm),
        }
    }

    #[test]
    fn within_the_tolerances_nothing_is_said() {
        // OG off by 0.004, IBU by 15 % (6 of 40), colour by 25 % (2.5 of 10).
        let d = disagreements(
            &file(1.050, 40.0, 10.0),
            &stats(1.054, 46.0, 12.5),
            &RecipeTraits::default(),
        );
        assert_eq!(d, vec![]);
    }

    #[test]
    fn small_beers_need_both_the_share_and_the_absolute_difference() {
        // 10 → 12.9 IBU is 29 % but under 3 IBU; 2 → 3.9 SRM is 95 % but under 2 SRM.
        let d = disagreements(
            &file(1.030, 10.0, 2.0),
            &stats(1.030, 12.9, 3.9),
            &RecipeTraits::default(),
        );
        assert_eq!(d, vec![]);
    }

    #[test]
    fn the_philter_xpa_case_names_the_hop_stand() {
        // Brewfather's Philter XPA: the file says 28.7 IBU; read as a boil, wort said 131.4.
        let traits = RecipeTraits {
            has_hop_stand: true,
            ..RecipeTraits::default()
        };
        let d = disagreements(&file(1.040, 28.7, 4.0), &stats(1.040, 131.4, 4.0), &traits);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].statistic, "ibu");
        assert!(d[0].likely_cause.contains("hop stand"), "{d:?}");
        assert_eq!(
            d[0].message(),
            "IBU: the file says 28.7, wort computes 131.4; likely cause: the hop stand: programs \
             count hops steeped after flame-out very differently"
        );
    }

    #[test]
    fn each_statistic_is_judged_and_explained() {
        let traits = RecipeTraits {
            has_mashed_fermentables: true,
            ..RecipeTraits::default()
        };
        let d = disagreements(&file(1.060, 40.0, 30.0), &stats(1.050, 60.0, 20.0), &traits);
        let names: Vec<_> = d.iter().map(|x| x.statistic).collect();
        assert_eq!(names, ["og", "ibu", "color_srm"]);
        assert!(d[0].likely_cause.contains("efficiency"));
        assert!(d[1].likely_cause.contains("Tinseth"));
        assert!(d[2].likely_cause.contains("Morey"));
        assert_eq!(
            d[0].message(),
            "OG: the file says 1.060, wort computes 1.050; likely cause: a different mash \
             efficiency or equipment losses (wort applies the recipe's efficiency to the batch \
             plus the equipment profile's trub and chiller loss)"
        );
    }

    #[test]
    fn colours_agree_within_a_quarter_or_two_srm() {
        assert!(colour_agrees(8.5, 10.4), "1.9 SRM apart");
        assert!(colour_agrees(20.0, 24.9), "24.5 % apart");
        assert!(!colour_agrees(8.5, 14.7), "6.2 SRM and 73 % apart");
        assert!(!colour_agrees(20.0, 25.1), "5.1 SRM and 25.5 % apart");
    }

    #[test]
    fn what_the_file_does_not_state_is_not_compared() {
        let d = disagreements(
            &FileEstimates::default(),
            &stats(1.2, 500.0, 300.0),
            &RecipeTraits::default(),
        );
        assert_eq!(d, vec![]);
        let nonsense = FileEstimates {
            og: Some(f64::NAN),
            ibu: Some(-1.0),
            color_srm: Some(f64::INFINITY),
        };
        assert_eq!(
            disagreements(&nonsense, &stats(1.05, 30.0, 5.0), &RecipeTraits::default()),
            vec![]
        );
    }
}
