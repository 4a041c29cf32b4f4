//! The recipe use cases: recipes, their ingredients, and their statistics.

use std::sync::Arc;

use uuid::Uuid;

use super::model::{
    NewImport, NewRecipe, NewRecipeChild, NewRecipeWithIngredients, Recipe, RecipeChild,
    RecipeChildKind, RecipeChildPatch, RecipeDetail, RecipeFilter, RecipePatch,
};
use super::ports::{CpuWork, RecipeChildRepository, RecipeRepository, run_cpu};
use super::rules::{MAX_INGREDIENTS_PER_KIND, NAME, check_style_id, too_many_children};
use crate::brewing::round_to;
use crate::brewing::scaling::{ScaleTarget, Scaled, scale};
use crate::brewing::{BrewingContext, HopForm, ReportOptions, StatsReport, stats_report, style};
use crate::equipment::{Equipment, EquipmentRepository};
use crate::error::{DomainError, Violation};
use crate::page::{Page, PageRequest};
use crate::ports::Clock;
use crate::recipe_children::{
    NewFermentable, NewHop, NewMashStep, NewMisc, NewWaterAddition, NewYeast,
};
use crate::{DomainResult, UserId};

use super::checks::{Check, CheckContext, CheckedRecipe, RecipeChecks, check_recipe};
use crate::account::Preferences;
use crate::quantities::{Quantity, QuantityKind};

mod export;
mod history;
pub use export::RecipeForExport;
pub use history::{SharedRecipe, VersionDetail};

/// The recipe aggregate's own stores: recipes, their children, and their versions and links.
pub struct RecipeStores {
    pub recipes: Arc<dyn RecipeRepository>,
    pub children: Arc<dyn RecipeChildRepository>,
    pub history: Arc<dyn super::ports::RecipeHistoryRepository>,
}

pub struct RecipeService {
    recipes: Arc<dyn RecipeRepository>,
    ingredients: Arc<dyn RecipeChildRepository>,
    equipment: Arc<dyn EquipmentRepository>,
    clock: Arc<dyn Clock>,
    /// Where imported files are read: shared by every worker, so its bound holds per process.
    cpu: Arc<dyn CpuWork>,
    /// Imported ingredients are linked to the catalogue items their names name.
    catalog: Arc<dyn crate::catalog::ports::CatalogRepository>,
    /// The caller's display units, for the texts wort writes for them here: a scaled recipe's
    /// default name ("Pale Ale (5.28 gal)"), the checks' messages. Without it, metric.
    preferences: Option<Arc<dyn crate::account::ports::AccountRepository>>,
    /// The source water a recipe names, for the checks of its mash water.
    water: Arc<dyn crate::water::WaterRepository>,
    /// Versions, lineage and share links.
    history: Arc<dyn super::ports::RecipeHistoryRepository>,
}

impl RecipeService {
    pub fn new(
        stores: RecipeStores,
        equipment: Arc<dyn EquipmentRepository>,
        clock: Arc<dyn Clock>,
        cpu: Arc<dyn CpuWork>,
        catalog: Arc<dyn crate::catalog::ports::CatalogRepository>,
        water: Arc<dyn crate::water::WaterRepository>,
    ) -> Self {
        RecipeService {
            recipes: stores.recipes,
            ingredients: stores.children,
            history: stores.history,
            equipment,
            clock,
            cpu,
            catalog,
            preferences: None,
            water,
        }
    }

    /// Names scaled recipes in each caller's units.
    pub fn with_preferences(
        mut self,
        accounts: Arc<dyn crate::account::ports::AccountRepository>,
    ) -> Self {
        self.preferences = Some(accounts);
        self
    }

    pub async fn list(
        &self,
        user: UserId,
        filter: &RecipeFilter,
        page: PageRequest,
    ) -> DomainResult<Page<Recipe>> {
        self.recipes.list(user, filter, page).await
    }

    /// An unknown `style_id` is refused here; an `equipment_id` that is not one of the account's
    /// profiles by the store (its foreign key names the account too).
    pub async fn create(&self, user: UserId, new: NewRecipe) -> DomainResult<Recipe> {
        check_style_id(new.style_id.as_deref()).map_err(|v| DomainError::Invalid(vec![v]))?;
        self.recipes.create(user, new, self.clock.now()).await
    }

    /// Creates every recipe with all its ingredients in one transaction (an import): all or
    /// nothing. A recipe over the per-kind cap is refused before anything is written, its
    /// violation's path prefixed with its position in `recipes`.
    pub async fn create_many(
        &self,
        user: UserId,
        recipes: Vec<NewRecipeWithIngredients>,
    ) -> DomainResult<Vec<RecipeDetail>> {
        let violations = over_the_cap(&recipes);
        if !violations.is_empty() {
            return Err(DomainError::Invalid(violations));
        }
        self.recipes
            .create_with_children(user, recipes, self.clock.now())
            .await
    }

    /// An import: `read` turns the file into recipes (and whatever else the reader reports, `R`)
    /// on the bounded [`CpuWork`] port, never on an async worker; then every recipe is created
    /// as [`Self::create_many`] does, each ingredient linked to the catalogue item its name
    /// names (when exactly one does; the file's numbers stay). The reader's own refusals (`E`) come back as they are.
    ///
    /// The file's equipment profiles are created with the recipes, in the same transaction (an
    /// identical profile of the account is reused); each must be possible
    /// ([`crate::equipment::rules::check_profile`]: the reader drops, with a warning, those that
    /// are not), else the import is refused.
    ///
    /// Each created recipe comes back with its checks (as `GET /v1/recipes/{id}/checks`
    /// gives them), so an import report says at once what the file's recipes would be warned of.
    pub async fn import<R, E>(
        &self,
        user: UserId,
        read: impl FnOnce() -> Result<(NewImport, R), E> + Send + 'static,
    ) -> Result<(Vec<CheckedRecipe>, R), E>
    where
        R: Send + 'static,
        E: From<DomainError> + Send + 'static,
    {
        let (mut import, report) = run_cpu(&*self.cpu, read).await??;
        crate::catalog::service::link_imported(&*self.catalog, user, &mut import.recipes).await?;
        let mut violations = over_the_cap(&import.recipes);
        for (i, profile) in import.equipment.iter().enumerate() {
            for mut v in crate::equipment::rules::check_profile(profile) {
                v.path.splice(0..0, ["equipment".to_owned(), i.to_string()]);
                violations.push(v);
            }
        }
        let linked_beyond = import
            .recipe_equipment
            .iter()
            .flatten()
            .any(|&i| i >= import.equipment.len());
        if linked_beyond || import.recipe_equipment.len() != import.recipes.len() {
            return Err(DomainError::Internal("an import links a missing profile".into()).into());
        }
        if !violations.is_empty() {
            return Err(DomainError::Invalid(violations).into());
        }
        let created = self
            .recipes
            .create_imported(user, import, self.clock.now())
            .await?;
        let prefs = self.preferences_of(user).await?;
        let mut checked = Vec::with_capacity(created.len());
        for recipe in created {
            let checks = self.checks_of(user, &recipe, &prefs).await?;
            checked.push(CheckedRecipe { recipe, checks });
        }
        Ok((checked, report))
    }

    /// What a careful brewer would point out about the recipe as it is now (`recipe::checks`),
    /// with its messages in the caller's units.
    pub async fn checks(&self, user: UserId, id: Uuid) -> DomainResult<RecipeChecks> {
        let recipe = self.recipes.get(user, id).await?;
        let prefs = self.preferences_of(user).await?;
        Ok(RecipeChecks {
            checks: self.checks_of(user, &recipe, &prefs).await?,
        })
    }

    /// The checks of a recipe already read: its equipment profile and source water are read
    /// when it names them.
    async fn checks_of(
        &self,
        user: UserId,
        recipe: &RecipeDetail,
        prefs: &Preferences,
    ) -> DomainResult<Vec<Check>> {
        let r = &recipe.recipe;
        let equipment = match r.equipment_id {
            Some(id) => Some(self.equipment.get(user, id).await?),
            None => None,
        };
        let source = match r.water_profile_id {
            Some(id) => Some(self.water.get(user, id).await?),
            None => None,
        };
        let profile = equipment.as_ref().map(|e| &e.profile);
        let water = crate::water::service::recipe_water(recipe, profile, source.as_ref());
        let context = CheckContext {
            equipment: profile,
            mash_water: Some(water.mash.water),
        };
        Ok(check_recipe(recipe, &context, prefs))
    }

    /// The caller's display preferences (metric when the service has no account store).
    async fn preferences_of(&self, user: UserId) -> DomainResult<Preferences> {
        match &self.preferences {
            Some(accounts) => accounts.preferences(user).await,
            None => Ok(Preferences::default()),
        }
    }

    /// A page of the account's recipes with all their ingredients (an export of everything).
    pub async fn list_details(
        &self,
        user: UserId,
        page: PageRequest,
    ) -> DomainResult<Page<RecipeDetail>> {
        self.recipes.list_details(user, page).await
    }

    /// The recipe with all its ingredients.
    pub async fn get(&self, user: UserId, id: Uuid) -> DomainResult<RecipeDetail> {
        self.recipes.get(user, id).await
    }

    pub async fn update(&self, user: UserId, id: Uuid, patch: RecipePatch) -> DomainResult<Recipe> {
        if let Some(style_id) = &patch.style_id {
            check_style_id(style_id.as_deref()).map_err(|v| DomainError::Invalid(vec![v]))?;
        }
        self.recipes.update(user, id, patch, self.clock.now()).await
    }

    pub async fn delete(&self, user: UserId, id: Uuid) -> DomainResult<()> {
        self.recipes.delete(user, id).await
    }

    /// A copy with every ingredient; `name: None` means "<name> (copy)".
    pub async fn copy(
        &self,
        user: UserId,
        id: Uuid,
        name: Option<String>,
    ) -> DomainResult<RecipeDetail> {
        self.recipes.copy(user, id, name, self.clock.now()).await
    }

    /// The statistics of the recipe as it is now (docs/calculations.md), with its equipment
    /// profile's volumes, its style's fit and its step mash's water: computed, never stored.
    /// With `options.explain`, the working of every figure.
    pub async fn stats(
        &self,
        user: UserId,
        id: Uuid,
        options: ReportOptions,
    ) -> DomainResult<StatsReport> {
        let (recipe, equipment, forms) = self.brewing_inputs(user, id).await?;
        let context = BrewingContext {
            equipment: equipment.as_ref().map(|e| &e.profile),
            hop_forms: &forms,
        };
        let style = recipe.recipe.style_id.as_deref().and_then(style);
        Ok(stats_report(
            &recipe.stats_input(),
            &context,
            style,
            &recipe.mash_steps,
            options,
        ))
    }

    /// A new recipe for another batch size (and efficiency) whose OG and IBU are the original's
    /// (`POST /v1/recipes/{id}/scale`): the amounts are solved by `brewing::scaling`, the recipe is
    /// created with all its ingredients in one transaction. `name: None` means "<name> (<size>)",
    /// the size in the caller's units ("20 L", "5.28 gal").
    pub async fn scale(
        &self,
        user: UserId,
        id: Uuid,
        target: ScaleTarget,
        name: Option<String>,
    ) -> DomainResult<RecipeDetail> {
        let (recipe, equipment, forms) = self.brewing_inputs(user, id).await?;
        let context = BrewingContext {
            equipment: equipment.as_ref().map(|e| &e.profile),
            hop_forms: &forms,
        };
        let scaled =
            scale(&recipe.stats_input(), &context, &target).map_err(DomainError::Invalid)?;
        let prefs = match (&name, &self.preferences) {
            (None, Some(accounts)) => accounts.preferences(user).await?,
            _ => Preferences::default(),
        };
        let new = scaled_recipe(&recipe, &scaled, name, &prefs);
        let mut created = self
            .recipes
            .create_with_children(user, vec![new], self.clock.now())
            .await?;
        created
            .pop()
            .ok_or_else(|| DomainError::Internal("scaled recipe not returned".to_owned()))
    }

    /// The recipe with what its calculations read besides it: its equipment profile (if it names
    /// one) and its hops' forms.
    async fn brewing_inputs(
        &self,
        user: UserId,
        id: Uuid,
    ) -> DomainResult<(RecipeDetail, Option<Equipment>, Vec<Option<HopForm>>)> {
        let recipe = self.recipes.get(user, id).await?;
        let equipment = match recipe.recipe.equipment_id {
            Some(profile) => Some(self.equipment.get(user, profile).await?),
            None => None,
        };
        let forms = recipe.hop_forms();
        Ok((recipe, equipment, forms))
    }

    pub async fn add_child(
        &self,
        user: UserId,
        recipe_id: Uuid,
        new: NewRecipeChild,
    ) -> DomainResult<RecipeChild> {
        if let NewRecipeChild::Hop(hop) = &new
            && let Some(v) = super::rules::hop_temperature_violation(hop.hop_use, hop.temperature_c)
        {
            return Err(DomainError::Invalid(vec![v]));
        }
        if let NewRecipeChild::FermentationStep(step) = &new
            && let Some(v) = super::rules::min_days_violation(step.days, step.min_days)
        {
            return Err(DomainError::Invalid(vec![v]));
        }
        self.ingredients
            .add(user, recipe_id, new, self.clock.now())
            .await
    }

    pub async fn list_children(
        &self,
        user: UserId,
        recipe_id: Uuid,
        kind: RecipeChildKind,
    ) -> DomainResult<Vec<RecipeChild>> {
        self.ingredients.list(user, recipe_id, kind).await
    }

    pub async fn get_child(
        &self,
        user: UserId,
        kind: RecipeChildKind,
        id: Uuid,
    ) -> DomainResult<RecipeChild> {
        self.ingredients.get(user, kind, id).await
    }

    pub async fn update_child(
        &self,
        user: UserId,
        id: Uuid,
        patch: RecipeChildPatch,
    ) -> DomainResult<RecipeChild> {
        self.ingredients
            .update(user, id, patch, self.clock.now())
            .await
    }

    pub async fn delete_child(
        &self,
        user: UserId,
        kind: RecipeChildKind,
        id: Uuid,
    ) -> DomainResult<()> {
        self.ingredients
            .delete(user, kind, id, self.clock.now())
            .await
    }
}

/// The scaled copy of `recipe`: every field and ingredient as it was, the fermentable and hop
/// amounts solved, yeasts, miscs and mash-water infusions in proportion to the batch.
fn scaled_recipe(
    recipe: &RecipeDetail,
    scaled: &Scaled,
    name: Option<String>,
    prefs: &Preferences,
) -> NewRecipeWithIngredients {
    let (kilograms, grams) = crate::brewing::scaling::rounded_amounts(scaled);
    let r = &recipe.recipe;
    let name = name.unwrap_or_else(|| {
        let size = Quantity::new(QuantityKind::Volume, scaled.batch_size_liters).display(prefs);
        let suffix = format!(" ({size})");
        let keep = NAME.max.saturating_sub(suffix.chars().count());
        format!("{}{suffix}", r.name.chars().take(keep).collect::<String>())
    });
    NewRecipeWithIngredients {
        recipe: NewRecipe {
            name,
            style: r.style.clone(),
            kind: r.kind,
            batch_size_liters: scaled.batch_size_liters,
            boil_time_minutes: r.boil_time_minutes,
            efficiency: scaled.efficiency,
            notes: r.notes.clone(),
            equipment_id: r.equipment_id,
            style_id: r.style_id.clone(),
            water_profile_id: r.water_profile_id,
            target_water_profile_id: r.target_water_profile_id,
            lineage: super::model::Lineage {
                parent_recipe_id: Some(r.id),
                source_url: None,
            },
        },
        fermentables: recipe
            .fermentables
            .iter()
            .zip(kilograms)
            .map(|(f, kg)| NewFermentable {
                amount_kg: kg,
                ..f.to_new()
            })
            .collect(),
        hops: recipe
            .hops
            .iter()
            .zip(grams)
            .map(|(h, g)| NewHop {
                amount_grams: g,
                ..h.to_new()
            })
            .collect(),
        yeasts: recipe
            .yeasts
            .iter()
            .map(|y| NewYeast {
                amount: scaled.by_volume(y.amount).map(|a| round_to(a, 2)),
                ..y.to_new()
            })
            .collect(),
        miscs: recipe
            .miscs
            .iter()
            .map(|m| NewMisc {
                amount: round_to(scaled.by_volume(Some(m.amount)).unwrap_or(0.0), 2),
                ..m.to_new()
            })
            .collect(),
        mash_steps: recipe
            .mash_steps
            .iter()
            .map(|m| NewMashStep {
                infuse_amount_liters: scaled
                    .by_volume(m.infuse_amount_liters)
                    .map(|l| round_to(l, 2)),
                ..m.to_new()
            })
            .collect(),
        // Salts and acids in proportion to the water, like the mash infusions.
        water_additions: recipe
            .water_additions
            .iter()
            .map(|w| NewWaterAddition {
                amount: round_to(scaled.by_volume(Some(w.amount)).unwrap_or(0.0), 3),
                ..w.to_new()
            })
            .collect(),
        // Times and temperatures do not change with the batch size.
        fermentation_steps: recipe
            .fermentation_steps
            .iter()
            .map(|s| s.to_new())
            .collect(),
    }
}

/// One violation per recipe and kind holding more than a recipe may.
fn over_the_cap(recipes: &[NewRecipeWithIngredients]) -> Vec<Violation> {
    let limit = usize::try_from(MAX_INGREDIENTS_PER_KIND).unwrap_or(usize::MAX);
    recipes
        .iter()
        .enumerate()
        .flat_map(|(i, recipe)| {
            recipe
                .counts()
                .into_iter()
                .filter(move |(_, count)| *count > limit)
                .map(move |(kind, _)| {
                    let mut violation = too_many_children(kind);
                    violation.path.insert(0, i.to_string());
                    violation
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recipe::RecipeType;
    use crate::recipe_children::{HopUse, NewHop};

    fn with_hops(n: usize) -> NewRecipeWithIngredients {
        let hop = NewHop {
            temperature_c: None,
            catalog_id: None,
            form: None,
            name: "Saaz".into(),
            alpha_acid: 3.5,
            amount_grams: 30.0,
            time_minutes: 60.0,
            hop_use: HopUse::ALL[0],
            sort_order: None,
        };
        NewRecipeWithIngredients {
            recipe: NewRecipe {
                equipment_id: None,
                style_id: None,
                water_profile_id: None,
                target_water_profile_id: None,
                lineage: Default::default(),
                name: "Pils".into(),
                style: String::new(),
                kind: RecipeType::AllGrain,
                batch_size_liters: 20.0,
                boil_time_minutes: 60.0,
                efficiency: 0.72,
                notes: None,
            },
            fermentables: vec![],
            hops: vec![hop; n],
            yeasts: vec![],
            miscs: vec![],
            mash_steps: vec![],
            water_additions: vec![],
            fermentation_steps: vec![],
        }
    }

    #[test]
    fn a_recipe_over_the_cap_is_named_by_its_position() {
        assert!(over_the_cap(&[with_hops(200), with_hops(0)]).is_empty());
        let violations = over_the_cap(&[with_hops(1), with_hops(201)]);
        assert_eq!(violations.len(), 1);
        assert_eq!(violations[0].path, ["1", "hops"]);
    }
}
