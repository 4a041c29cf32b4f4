//! The whole `/stats` body: the recipe's statistics, plus `volumes` with an equipment
//! profile and `style_fit` with a style, each `null` without.

use serde::Serialize;

use super::explain::{StatsExplanation, explain};
use super::mash::{MashStepWater, infused_liters, recipe_mash_water};
use super::stats::{BrewingContext, RecipeStats, StatsInput, compute_stats_with};
use super::styles::{Style, StyleFit, style_fit};
use super::volumes::{Volumes, volumes};
use crate::recipe_children::MashStep;

/// `GET /v1/recipes/{id}/stats` with volumes and style fit. The statistics stay at the top level.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatsReport {
    #[serde(flatten)]
    pub stats: RecipeStats,
    /// Null without an equipment profile.
    pub volumes: Option<Volumes>,
    /// Null without a style.
    pub style_fit: Option<StyleFit>,
    /// One entry per mash step, in the mash's order: the water each infusion adds and the thick
    /// mash each decoction pulls.
    pub mash_steps: Vec<MashStepWater>,
    /// How each figure is computed; only with `?explain=true`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<StatsExplanation>,
}

/// What `/stats` is asked for besides the statistics.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReportOptions {
    /// Add `explain`.
    pub explain: bool,
}

/// Everything `/stats` returns for a recipe with its profile (if any), hop forms and style (if
/// any). Without profile, forms and style, `stats` is exactly [`super::compute_stats`]'s and both
/// additions are null.
/// The sparge water is what the mash needs less the strike and the infusions after it.
pub fn stats_report(
    input: &StatsInput<'_>,
    context: &BrewingContext<'_>,
    style: Option<&Style>,
    mash_steps: &[MashStep],
    options: ReportOptions,
) -> StatsReport {
    let stats = compute_stats_with(input, context);
    let mash_water = recipe_mash_water(input, context.equipment, mash_steps);
    let infused = infused_liters(&mash_water);
    StatsReport {
        volumes: context.equipment.map(|profile| {
            let mut v = volumes(profile, input);
            v.sparge_water_liters = (v.sparge_water_liters - infused).max(0.0);
            v.rounded()
        }),
        style_fit: style.map(|s| style_fit(&stats, s)),
        explain: options.explain.then(|| explain(input, context, &stats)),
        mash_steps: mash_water,
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brewing::compute_stats;
    use crate::brewing::fixtures::{fermentable, hop, yeast};
    use crate::brewing::styles::style;
    use crate::equipment::EquipmentProfile;
    use crate::recipe_children::FermentableType::Grain;
    use crate::recipe_children::HopUse::Boil;

    #[test]
    fn without_profile_or_style_both_are_null_and_stats_unchanged() {
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        let hops = [hop(Boil, 5.0, 28.0, 60.0)];
        let yeasts = [yeast(None)];
        let input = StatsInput {
            batch_size_liters: 20.0,
            boil_time_minutes: 60.0,
            efficiency: 0.72,
            fermentables: &bill,
            hops: &hops,
            yeasts: &yeasts,
        };
        let r = stats_report(
            &input,
            &BrewingContext::default(),
            None,
            &[],
            ReportOptions::default(),
        );
        assert_eq!(r.stats, compute_stats(&input));
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["volumes"], serde_json::Value::Null);
        assert_eq!(v["style_fit"], serde_json::Value::Null);
        assert_eq!(
            v["og"],
            serde_json::json!(r.stats.og),
            "the statistics stay top-level"
        );
    }

    #[test]
    fn with_profile_and_style() {
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        let input = StatsInput {
            batch_size_liters: 20.0,
            boil_time_minutes: 60.0,
            efficiency: 0.72,
            fermentables: &bill,
            hops: &[],
            yeasts: &[],
        };
        let kit = EquipmentProfile {
            boil_off_liters_per_hour: 3.0,
            trub_chiller_loss_liters: 1.5,
            ..EquipmentProfile::lossless("Kit", 20.0)
        };
        let context = BrewingContext {
            equipment: Some(&kit),
            hop_forms: &[],
        };
        let r = stats_report(&input, &context, style("5D"), &[], ReportOptions::default());
        let v = r.volumes.clone().unwrap();
        assert_eq!((v.post_boil_liters, v.pre_boil_liters), (21.5, 24.5));
        let fit = r.style_fit.unwrap();
        // The fit judges the OG as displayed, to 0.001.
        assert_eq!(fit.og.value, crate::brewing::round_to(r.stats.og, 3));
        assert_eq!(fit.og.min, Some(1.044));
        let json = serde_json::to_value(&r).unwrap();
        let keys: Vec<_> = json["volumes"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(
            keys.len(),
            7,
            "strike, sparge, pre-boil, post-boil, into-fermenter, gravity, thickness: {keys:?}"
        );
    }
}
