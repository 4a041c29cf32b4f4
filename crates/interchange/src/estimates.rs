//! The import report's comparison of each file's own estimates (its OG, IBU and colour) with the
//! statistics wort computes for the imported recipe, as its recipe page will show them (with the
//! equipment profile the file brings along, if any). The rule of when they disagree, and the likely
//! cause, is the domain's (`brewing::agreement`).

use crate::ImportedRecipe;
use crate::domain::{
    BrewingContext, EquipmentProfile, FileEstimates, RecipeTraits, compute_stats_with,
    disagreements,
};
use crate::domain::{FermentableAddition, FermentableType, HopUse};
use crate::preview::preview;
use crate::report::{Report, at};

/// Where each format keeps its estimates in a recipe: OG, IBU, colour.
pub(crate) struct EstimateFields {
    pub og: &'static str,
    pub ibu: &'static str,
    pub color: &'static str,
}

pub(crate) const BEERXML: EstimateFields = EstimateFields {
    og: "EST_OG",
    ibu: "IBU",
    color: "EST_COLOR",
};

pub(crate) const BEERJSON: EstimateFields = EstimateFields {
    og: "original_gravity",
    ibu: "ibu_estimate",
    color: "color_estimate",
};

/// Warns, at the estimate's place in the file, for each statistic on which the file and wort
/// disagree beyond ordinary differences between programs.
pub(crate) fn compare(
    recipe: &ImportedRecipe,
    equipment: Option<&EquipmentProfile>,
    path: &[String],
    fields: &EstimateFields,
    r: &mut Report,
) {
    let e = recipe.estimates;
    if e.og.is_none() && e.ibu.is_none() && e.color_srm.is_none() {
        return;
    }
    let detail = preview(recipe);
    let forms = detail.hop_forms();
    let context = BrewingContext {
        equipment,
        hop_forms: &forms,
    };
    let wort = compute_stats_with(&detail.stats_input(), &context);
    let traits = RecipeTraits {
        has_hop_stand: recipe.hops.iter().any(|h| h.hop_use == HopUse::Whirlpool),
        has_first_wort_or_mash_hops: recipe
            .hops
            .iter()
            .any(|h| matches!(h.hop_use, HopUse::FirstWort | HopUse::Mash)),
        has_fermenter_additions: recipe
            .fermentables
            .iter()
            .any(|f| f.added == FermentableAddition::Fermenter),
        has_mashed_fermentables: recipe
            .fermentables
            .iter()
            .any(|f| matches!(f.kind, FermentableType::Grain | FermentableType::Adjunct)),
    };
    let file = FileEstimates {
        og: e.og,
        ibu: e.ibu,
        color_srm: e.color_srm,
    };
    for d in disagreements(&file, &wort, &traits) {
        let field = match d.statistic {
            "og" => fields.og,
            "ibu" => fields.ibu,
            _ => fields.color,
        };
        r.warn(&at(path, field), d.message());
    }
}
