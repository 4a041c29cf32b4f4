//! What an export writes for a recipe: the recipe, its equipment profile and the statistics the
//! recipe page shows (`/stats`, with that profile), so a file says what the screen says.

use std::collections::HashMap;

use uuid::Uuid;

use super::RecipeService;
use crate::brewing::{BrewingContext, ReportOptions, StatsReport, stats_report, style};
use crate::equipment::Equipment;
use crate::page::{Page, PageRequest};
use crate::recipe::RecipeDetail;
use crate::{DomainResult, UserId};

/// One recipe as an export writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecipeForExport {
    pub detail: RecipeDetail,
    /// The profile the recipe names, if any.
    pub equipment: Option<Equipment>,
    /// Exactly what `GET /v1/recipes/{id}/stats` gives for the recipe.
    pub stats: StatsReport,
}

impl RecipeForExport {
    /// The recipe with its statistics computed as `/stats` does: its profile's losses and
    /// kettle, its hops' forms, its style's fit.
    pub fn new(detail: RecipeDetail, equipment: Option<Equipment>) -> Self {
        let forms = detail.hop_forms();
        let context = BrewingContext {
            equipment: equipment.as_ref().map(|e| &e.profile),
            hop_forms: &forms,
        };
        let style = detail.recipe.style_id.as_deref().and_then(style);
        let stats = stats_report(
            &detail.stats_input(),
            &context,
            style,
            &detail.mash_steps,
            ReportOptions::default(),
        );
        RecipeForExport {
            detail,
            equipment,
            stats,
        }
    }
}

impl RecipeService {
    /// One recipe, ready to be written to a file.
    pub async fn export_one(&self, user: UserId, id: Uuid) -> DomainResult<RecipeForExport> {
        let (detail, equipment, _) = self.brewing_inputs(user, id).await?;
        Ok(RecipeForExport::new(detail, equipment))
    }

    /// A page of the account's recipes, ready to be written to one file. Each profile the page
    /// names is read once, however many recipes share it.
    pub async fn export_page(
        &self,
        user: UserId,
        page: PageRequest,
    ) -> DomainResult<Page<RecipeForExport>> {
        let details = self.recipes.list_details(user, page).await?;
        let mut profiles: HashMap<Uuid, Equipment> = HashMap::new();
        for id in details.items.iter().filter_map(|d| d.recipe.equipment_id) {
            if let std::collections::hash_map::Entry::Vacant(slot) = profiles.entry(id) {
                slot.insert(self.equipment.get(user, id).await?);
            }
        }
        Ok(details.map(|detail| {
            let equipment = detail
                .recipe
                .equipment_id
                .and_then(|id| profiles.get(&id).cloned());
            RecipeForExport::new(detail, equipment)
        }))
    }
}
