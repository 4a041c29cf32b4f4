//! The history and sharing use cases: versions, diffs, restore, lineage, compare, share links.

use uuid::Uuid;

use super::RecipeService;
use crate::brewing::{BrewingContext, ReportOptions, StatsReport, stats_report, style};
use crate::equipment::EquipmentProfile;
use crate::error::DomainError;
use crate::page::{Page, PageRequest};
use crate::recipe::history::{self, Lineage, RecipeDiff, RecipeVersion, StoredVersion};
use crate::recipe::share::{self, Share};
use crate::recipe::{RecipeDetail, RecipeForExport};
use crate::{DomainResult, UserId};

/// One version with its content and its figures as they were.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionDetail {
    pub version: RecipeVersion,
    pub recipe: RecipeDetail,
    pub stats: StatsReport,
}

/// A shared recipe as its public page and files show it.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedRecipe {
    /// The recipe without notes (unless included) and without ids of anything else of the
    /// account; its statistics computed with the owner's equipment profile.
    pub export: RecipeForExport,
    pub include_notes: bool,
}

/// The figures of a recipe with the equipment profile it was brewed on.
fn stats_with(recipe: &RecipeDetail, profile: Option<&EquipmentProfile>) -> StatsReport {
    let forms = recipe.hop_forms();
    let context = BrewingContext {
        equipment: profile,
        hop_forms: &forms,
    };
    stats_report(
        &recipe.stats_input(),
        &context,
        recipe.recipe.style_id.as_deref().and_then(style),
        &recipe.mash_steps,
        ReportOptions::default(),
    )
}

impl RecipeService {
    /// A page of the recipe's versions, newest first. The open version's summary is worked out
    /// now (against the version before it); the frozen ones' were written when they were frozen.
    pub async fn versions(
        &self,
        user: UserId,
        recipe_id: Uuid,
        page: PageRequest,
    ) -> DomainResult<Page<RecipeVersion>> {
        let stored = self.history.list_versions(user, recipe_id, page).await?;
        let mut items = Vec::with_capacity(stored.items.len());
        for v in stored.items {
            let summary = match (&v.summary, v.open) {
                (Some(summary), _) => summary.clone(),
                (None, true) => self.open_summary(user, recipe_id, v.number).await?,
                (None, false) => String::new(),
            };
            items.push(listing(&v, summary));
        }
        Ok(Page {
            items,
            total: stored.total,
        })
    }

    /// What the open version changed against the frozen one before it.
    async fn open_summary(
        &self,
        user: UserId,
        recipe_id: Uuid,
        number: i32,
    ) -> DomainResult<String> {
        let live = self.recipes.get(user, recipe_id).await?;
        let previous = match number {
            1 => None,
            n => self.history.version(user, recipe_id, n - 1).await?.snapshot,
        };
        Ok(history::summary_of(
            previous.as_ref().map(|s| &s.recipe),
            &live,
        ))
    }

    /// Version `number` with its content and figures as they were (the open version: the recipe
    /// and its figures as they are now).
    pub async fn version(
        &self,
        user: UserId,
        recipe_id: Uuid,
        number: i32,
    ) -> DomainResult<VersionDetail> {
        let v = self.history.version(user, recipe_id, number).await?;
        let (recipe, stats) = self.content_of(user, recipe_id, &v).await?;
        let summary = match &v.summary {
            Some(s) => s.clone(),
            None => self.open_summary(user, recipe_id, v.number).await?,
        };
        Ok(VersionDetail {
            version: listing(&v, summary),
            recipe,
            stats,
        })
    }

    async fn content_of(
        &self,
        user: UserId,
        recipe_id: Uuid,
        v: &StoredVersion,
    ) -> DomainResult<(RecipeDetail, StatsReport)> {
        match &v.snapshot {
            Some(snapshot) => Ok((
                snapshot.recipe.clone(),
                stats_with(&snapshot.recipe, snapshot.equipment.as_ref()),
            )),
            None => {
                let (recipe, equipment, _) = self.brewing_inputs(user, recipe_id).await?;
                let stats = stats_with(&recipe, equipment.as_ref().map(|e| &e.profile));
                Ok((recipe, stats))
            }
        }
    }

    /// What changed from version `against` (default: the one before) to version `number`.
    pub async fn version_diff(
        &self,
        user: UserId,
        recipe_id: Uuid,
        number: i32,
        against: Option<i32>,
    ) -> DomainResult<RecipeDiff> {
        let after = self.history.version(user, recipe_id, number).await?;
        let (after, _) = self.content_of(user, recipe_id, &after).await?;
        let before = match against.or(number.checked_sub(1).filter(|n| *n >= 1)) {
            Some(n) => {
                let v = self.history.version(user, recipe_id, n).await?;
                Some(self.content_of(user, recipe_id, &v).await?.0)
            }
            None => None,
        };
        Ok(match before {
            Some(before) => history::diff_versions(&before, &after),
            // The first version against nothing: everything in it was added.
            None => history::diff_versions(&empty_like(&after), &after),
        })
    }

    /// Closes the open version under a name.
    pub async fn name_version(
        &self,
        user: UserId,
        recipe_id: Uuid,
        message: String,
    ) -> DomainResult<RecipeVersion> {
        let v = self.history.name_version(user, recipe_id, message).await?;
        let summary = v.summary.clone().unwrap_or_default();
        Ok(listing(&v, summary))
    }

    /// Makes the recipe equal to version `number` again, as a new version.
    pub async fn restore_version(
        &self,
        user: UserId,
        recipe_id: Uuid,
        number: i32,
    ) -> DomainResult<RecipeVersion> {
        let message = format!("Restored version {number}");
        let v = self
            .history
            .restore(user, recipe_id, number, message, self.clock.now())
            .await?;
        let summary = self.open_summary(user, recipe_id, v.number).await?;
        Ok(listing(&v, summary))
    }

    pub async fn lineage(&self, user: UserId, recipe_id: Uuid) -> DomainResult<Lineage> {
        self.history.lineage(user, recipe_id).await
    }

    /// What `recipe_id` has that `other` has not (both the account's).
    pub async fn compare(
        &self,
        user: UserId,
        recipe_id: Uuid,
        other: Uuid,
    ) -> DomainResult<RecipeDiff> {
        let recipe = self.recipes.get(user, recipe_id).await?;
        let other = self.recipes.get(user, other).await?;
        Ok(history::compare_recipes(&recipe, &other))
    }

    /// The recipe's live share link (made now when there is none), and whether it is new.
    pub async fn share(
        &self,
        user: UserId,
        recipe_id: Uuid,
        include_notes: bool,
    ) -> DomainResult<(Share, bool)> {
        let token = share::new_token()?;
        let link = self
            .history
            .share(
                user,
                recipe_id,
                include_notes,
                token.clone(),
                self.clock.now(),
            )
            .await?;
        let new = link.token == token;
        Ok((link, new))
    }

    /// The recipe's live share link; `NotFound` when it is not shared.
    pub async fn share_of(&self, user: UserId, recipe_id: Uuid) -> DomainResult<Share> {
        self.history.share_of(user, recipe_id).await
    }

    pub async fn unshare(&self, user: UserId, recipe_id: Uuid) -> DomainResult<()> {
        self.history.unshare(user, recipe_id).await
    }

    /// The recipe a live token shares, as the public sees it. `NotFound` for anything else.
    pub async fn shared(&self, token: &str) -> DomainResult<SharedRecipe> {
        if !share::looks_like_token(token) {
            return Err(DomainError::NotFound);
        }
        let (owner, recipe, link) = self.history.shared(token).await?;
        let equipment = match recipe.recipe.equipment_id {
            Some(id) => Some(self.equipment.get(owner, id).await?),
            None => None,
        };
        let mut export = RecipeForExport::new(recipe, equipment);
        export.detail = share::public_view(export.detail, link.include_notes);
        export.equipment = None;
        Ok(SharedRecipe {
            export,
            include_notes: link.include_notes,
        })
    }

    /// "Copy to my recipes": the shared recipe becomes one of the caller's, its source the link.
    pub async fn copy_shared(
        &self,
        user: UserId,
        token: &str,
        source_url: String,
    ) -> DomainResult<RecipeDetail> {
        let shared = self.shared(token).await?;
        let new = share::copy_of_shared(&shared.export.detail, source_url);
        let mut created = self
            .recipes
            .create_with_children(user, vec![new], self.clock.now())
            .await?;
        created
            .pop()
            .ok_or_else(|| DomainError::Internal("copied recipe not returned".to_owned()))
    }
}

fn listing(v: &StoredVersion, summary: String) -> RecipeVersion {
    RecipeVersion {
        number: v.number,
        created_at: v.created_at,
        updated_at: v.updated_at,
        message: v.message.clone(),
        summary,
        current: v.open,
    }
}

/// The recipe with no fields to speak of and no children: what the first version is compared with.
fn empty_like(recipe: &RecipeDetail) -> RecipeDetail {
    let mut empty = recipe.clone();
    empty.fermentables.clear();
    empty.hops.clear();
    empty.yeasts.clear();
    empty.miscs.clear();
    empty.mash_steps.clear();
    empty.water_additions.clear();
    empty.fermentation_steps.clear();
    empty
}
