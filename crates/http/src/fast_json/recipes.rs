//! A page of recipes (`GET /v1/recipes`).

use wort_domain::recipe::Recipe;

use super::{Object, array, key};

/// `[recipe, …]`, byte for byte what `serde_json::to_vec(recipes)` gives.
pub fn recipes(recipes: &[Recipe]) -> serde_json::Result<Vec<u8>> {
    // A recipe is 500–600 bytes without notes.
    array(recipes, 640, recipe)
}

pub(super) fn recipe(recipe: &Recipe, out: &mut Object<'_>) -> serde_json::Result<()> {
    let Recipe {
        id,
        user_id,
        name,
        style,
        kind,
        batch_size_liters,
        boil_time_minutes,
        efficiency,
        notes,
        equipment_id,
        style_id,
        water_profile_id,
        target_water_profile_id,
        parent_recipe_id,
        parent_version,
        source_url,
        est_color_srm,
        created_at,
        updated_at,
    } = recipe;
    out.uuid(key!("id"), *id);
    out.serde(key!("user_id"), user_id)?;
    out.serde(key!("name"), name)?;
    out.serde(key!("style"), style)?;
    out.word(key!("type"), kind.as_str());
    out.serde(key!("batch_size_liters"), batch_size_liters)?;
    out.serde(key!("boil_time_minutes"), boil_time_minutes)?;
    out.serde(key!("efficiency"), efficiency)?;
    out.serde(key!("notes"), notes)?;
    out.optional_uuid(key!("equipment_id"), *equipment_id);
    out.serde(key!("style_id"), style_id)?;
    out.optional_uuid(key!("water_profile_id"), *water_profile_id);
    out.optional_uuid(key!("target_water_profile_id"), *target_water_profile_id);
    out.optional_uuid(key!("parent_recipe_id"), *parent_recipe_id);
    out.serde(key!("parent_version"), parent_version)?;
    out.serde(key!("source_url"), source_url)?;
    out.serde(key!("est_color_srm"), est_color_srm)?;
    out.instant(key!("created_at"), *created_at);
    out.instant(key!("updated_at"), *updated_at);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::generated::{self, Lcg};
    use super::*;

    fn page(count: usize) -> Vec<Recipe> {
        let mut random = Lcg(0xB12E);
        (0..count).map(|_| generated::recipe(&mut random)).collect()
    }

    #[test]
    fn writes_the_bytes_of_the_derived_serialize() {
        let recipes = page(2_000);
        let by_hand = super::recipes(&recipes).expect("written");
        let reference = serde_json::to_vec(&recipes).expect("serialized");
        assert_eq!(
            String::from_utf8_lossy(&by_hand),
            String::from_utf8_lossy(&reference)
        );
    }

    #[test]
    fn an_empty_page_is_an_empty_array() {
        assert_eq!(super::recipes(&[]).expect("written"), b"[]");
    }
}
