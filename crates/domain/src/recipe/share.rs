//! Sharing a recipe by link: an unguessable token that opens a read-only copy of one recipe and
//! nothing else of its account, revoked at once when its owner says so.

use time::OffsetDateTime;

use super::model::{NewRecipe, NewRecipeWithIngredients, RecipeDetail};
use crate::DomainResult;

/// Characters of a share token: base62, so 32 characters carry about 190 random bits (more than
/// the 128 a link must carry to be unguessable).
pub const TOKEN_CHARS: usize = 32;

/// A recipe's live share link.
#[derive(Debug, Clone, PartialEq)]
pub struct Share {
    pub token: String,
    /// Whether the shared page and files show the recipe's and its ingredients' notes.
    pub include_notes: bool,
    pub created_at: OffsetDateTime,
}

/// A new random token.
pub fn new_token() -> DomainResult<String> {
    crate::account::credentials::random_base62(TOKEN_CHARS)
}

/// Whether a string could be a token at all (checked before any query).
pub fn looks_like_token(token: &str) -> bool {
    token.len() == TOKEN_CHARS && token.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The recipe as a shared link shows it: without notes unless the owner included them, and
/// without the ids of anything else of the account (its equipment profile, its water profiles,
/// its own catalogue items).
pub fn public_view(mut recipe: RecipeDetail, include_notes: bool) -> RecipeDetail {
    let r = &mut recipe.recipe;
    r.equipment_id = None;
    r.water_profile_id = None;
    r.target_water_profile_id = None;
    r.parent_recipe_id = None;
    r.parent_version = None;
    r.source_url = None;
    if !include_notes {
        r.notes = None;
    }
    for f in &mut recipe.fermentables {
        f.catalog_id = None;
        if !include_notes {
            f.notes = None;
        }
    }
    for h in &mut recipe.hops {
        h.catalog_id = None;
    }
    for y in &mut recipe.yeasts {
        y.catalog_id = None;
        if !include_notes {
            y.notes = None;
        }
    }
    for m in &mut recipe.miscs {
        m.catalog_id = None;
        if !include_notes {
            m.notes = None;
        }
    }
    recipe
}

/// What "Copy to my recipes" creates from a shared recipe (already [`public_view`]ed): the same
/// recipe and ingredients, no parent (lineage never crosses accounts), the link as its source.
pub fn copy_of_shared(recipe: &RecipeDetail, source_url: String) -> NewRecipeWithIngredients {
    let r = &recipe.recipe;
    NewRecipeWithIngredients {
        recipe: NewRecipe {
            name: r.name.clone(),
            style: r.style.clone(),
            kind: r.kind,
            batch_size_liters: r.batch_size_liters,
            boil_time_minutes: r.boil_time_minutes,
            efficiency: r.efficiency,
            notes: r.notes.clone(),
            equipment_id: None,
            style_id: r.style_id.clone(),
            water_profile_id: None,
            target_water_profile_id: None,
            lineage: super::model::Lineage {
                parent_recipe_id: None,
                source_url: Some(source_url),
            },
        },
        fermentables: recipe.fermentables.iter().map(|c| c.to_new()).collect(),
        hops: recipe.hops.iter().map(|c| c.to_new()).collect(),
        yeasts: recipe.yeasts.iter().map(|c| c.to_new()).collect(),
        miscs: recipe.miscs.iter().map(|c| c.to_new()).collect(),
        mash_steps: recipe.mash_steps.iter().map(|c| c.to_new()).collect(),
        water_additions: recipe.water_additions.iter().map(|c| c.to_new()).collect(),
        fermentation_steps: recipe
            .fermentation_steps
            .iter()
            .map(|c| c.to_new())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_recognisable() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a, b);
        assert!(looks_like_token(&a));
        assert!(!looks_like_token("short"));
        assert!(!looks_like_token(&format!("{}!", &a[1..])));
    }
}
