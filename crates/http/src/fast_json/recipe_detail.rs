//! One recipe with all its children (`GET /v1/recipes/{id}`).

use wort_domain::recipe::RecipeDetail;
use wort_domain::recipe::children::{
    Fermentable, FermentationStep, Hop, MashStep, Misc, WaterAddition, Yeast,
};

use super::recipes::recipe;
use super::{Object, key};

/// The recipe's members, then its seven lists: byte for byte what
/// `serde_json::to_vec(detail)` gives.
pub fn recipe_detail(detail: &RecipeDetail) -> serde_json::Result<Vec<u8>> {
    let RecipeDetail {
        recipe: the_recipe,
        fermentables,
        hops,
        yeasts,
        miscs,
        mash_steps,
        water_additions,
        fermentation_steps,
    } = detail;
    let children = fermentables.len()
        + hops.len()
        + yeasts.len()
        + miscs.len()
        + mash_steps.len()
        + water_additions.len()
        + fermentation_steps.len();
    // A recipe is 500–600 bytes without notes, a child 250–450: one allocation for most reads.
    let mut out = Vec::with_capacity(800 + children * 400);
    let mut object = Object::begin(&mut out);
    recipe(the_recipe, &mut object)?;
    object.objects(key!("fermentables"), fermentables, fermentable)?;
    object.objects(key!("hops"), hops, hop)?;
    object.objects(key!("yeasts"), yeasts, yeast)?;
    object.objects(key!("miscs"), miscs, misc)?;
    object.objects(key!("mash_steps"), mash_steps, mash_step)?;
    object.objects(key!("water_additions"), water_additions, water_addition)?;
    object.objects(
        key!("fermentation_steps"),
        fermentation_steps,
        fermentation_step,
    )?;
    object.end();
    Ok(out)
}

fn fermentable(item: &Fermentable, out: &mut Object<'_>) -> serde_json::Result<()> {
    let Fermentable {
        id,
        recipe_id,
        catalog_id,
        name,
        kind,
        amount_kg,
        color_srm,
        yield_percent,
        added,
        origin,
        notes,
        sort_order,
        created_at,
    } = item;
    out.uuid(key!("id"), *id);
    out.uuid(key!("recipe_id"), *recipe_id);
    out.optional_uuid(key!("catalog_id"), *catalog_id);
    out.serde(key!("name"), name)?;
    out.word(key!("type"), kind.as_str());
    out.serde(key!("amount_kg"), amount_kg)?;
    out.serde(key!("color_srm"), color_srm)?;
    out.serde(key!("yield_percent"), yield_percent)?;
    out.word(key!("added"), added.as_str());
    out.serde(key!("origin"), origin)?;
    out.serde(key!("notes"), notes)?;
    out.serde(key!("sort_order"), sort_order)?;
    out.instant(key!("created_at"), *created_at);
    Ok(())
}

fn hop(item: &Hop, out: &mut Object<'_>) -> serde_json::Result<()> {
    let Hop {
        id,
        recipe_id,
        catalog_id,
        name,
        alpha_acid,
        amount_grams,
        time_minutes,
        hop_use,
        form,
        temperature_c,
        sort_order,
        created_at,
    } = item;
    out.uuid(key!("id"), *id);
    out.uuid(key!("recipe_id"), *recipe_id);
    out.optional_uuid(key!("catalog_id"), *catalog_id);
    out.serde(key!("name"), name)?;
    out.serde(key!("alpha_acid"), alpha_acid)?;
    out.serde(key!("amount_grams"), amount_grams)?;
    out.serde(key!("time_minutes"), time_minutes)?;
    out.word(key!("use"), hop_use.as_str());
    out.optional_word(key!("form"), form.map(|form| form.as_str()));
    out.serde(key!("temperature_c"), temperature_c)?;
    out.serde(key!("sort_order"), sort_order)?;
    out.instant(key!("created_at"), *created_at);
    Ok(())
}

fn yeast(item: &Yeast, out: &mut Object<'_>) -> serde_json::Result<()> {
    let Yeast {
        id,
        recipe_id,
        catalog_id,
        name,
        lab,
        product_id,
        kind,
        form,
        attenuation,
        min_temp_c,
        max_temp_c,
        amount,
        amount_unit,
        notes,
        sort_order,
        created_at,
    } = item;
    out.uuid(key!("id"), *id);
    out.uuid(key!("recipe_id"), *recipe_id);
    out.optional_uuid(key!("catalog_id"), *catalog_id);
    out.serde(key!("name"), name)?;
    out.serde(key!("lab"), lab)?;
    out.serde(key!("product_id"), product_id)?;
    out.word(key!("type"), kind.as_str());
    out.optional_word(key!("form"), form.map(|form| form.as_str()));
    out.serde(key!("attenuation"), attenuation)?;
    out.serde(key!("min_temp_c"), min_temp_c)?;
    out.serde(key!("max_temp_c"), max_temp_c)?;
    out.serde(key!("amount"), amount)?;
    out.serde(key!("amount_unit"), amount_unit)?;
    out.serde(key!("notes"), notes)?;
    out.serde(key!("sort_order"), sort_order)?;
    out.instant(key!("created_at"), *created_at);
    Ok(())
}

fn misc(item: &Misc, out: &mut Object<'_>) -> serde_json::Result<()> {
    let Misc {
        id,
        recipe_id,
        catalog_id,
        name,
        kind,
        misc_use,
        amount,
        amount_unit,
        time_minutes,
        notes,
        sort_order,
        created_at,
    } = item;
    out.uuid(key!("id"), *id);
    out.uuid(key!("recipe_id"), *recipe_id);
    out.optional_uuid(key!("catalog_id"), *catalog_id);
    out.serde(key!("name"), name)?;
    out.word(key!("type"), kind.as_str());
    out.word(key!("use"), misc_use.as_str());
    out.serde(key!("amount"), amount)?;
    out.serde(key!("amount_unit"), amount_unit)?;
    out.serde(key!("time_minutes"), time_minutes)?;
    out.serde(key!("notes"), notes)?;
    out.serde(key!("sort_order"), sort_order)?;
    out.instant(key!("created_at"), *created_at);
    Ok(())
}

fn mash_step(item: &MashStep, out: &mut Object<'_>) -> serde_json::Result<()> {
    let MashStep {
        id,
        recipe_id,
        name,
        kind,
        temperature_c,
        duration_minutes,
        infuse_amount_liters,
        infuse_temperature_c,
        ramp_minutes,
        sort_order,
        created_at,
    } = item;
    out.uuid(key!("id"), *id);
    out.uuid(key!("recipe_id"), *recipe_id);
    out.serde(key!("name"), name)?;
    out.word(key!("type"), kind.as_str());
    out.serde(key!("temperature_c"), temperature_c)?;
    out.serde(key!("duration_minutes"), duration_minutes)?;
    out.serde(key!("infuse_amount_liters"), infuse_amount_liters)?;
    out.serde(key!("infuse_temperature_c"), infuse_temperature_c)?;
    out.serde(key!("ramp_minutes"), ramp_minutes)?;
    out.serde(key!("sort_order"), sort_order)?;
    out.instant(key!("created_at"), *created_at);
    Ok(())
}

fn water_addition(item: &WaterAddition, out: &mut Object<'_>) -> serde_json::Result<()> {
    let WaterAddition {
        id,
        recipe_id,
        agent,
        amount,
        unit,
        strength_percent,
        acid_percent,
        step,
        sort_order,
        created_at,
    } = item;
    out.uuid(key!("id"), *id);
    out.uuid(key!("recipe_id"), *recipe_id);
    out.word(key!("agent"), agent.as_str());
    out.serde(key!("amount"), amount)?;
    // The agent's unit, one of wort's own words (`g`, `ml`, `kg`), but a `&'static str` field
    // could be given anything: serde judges it.
    out.serde(key!("unit"), unit)?;
    out.serde(key!("strength_percent"), strength_percent)?;
    out.serde(key!("acid_percent"), acid_percent)?;
    out.word(key!("step"), step.as_str());
    out.serde(key!("sort_order"), sort_order)?;
    out.instant(key!("created_at"), *created_at);
    Ok(())
}

fn fermentation_step(item: &FermentationStep, out: &mut Object<'_>) -> serde_json::Result<()> {
    let FermentationStep {
        id,
        recipe_id,
        name,
        temperature_c,
        days,
        min_days,
        until_gravity,
        until_attenuation_percent,
        sort_order,
        created_at,
    } = item;
    out.uuid(key!("id"), *id);
    out.uuid(key!("recipe_id"), *recipe_id);
    out.serde(key!("name"), name)?;
    out.serde(key!("temperature_c"), temperature_c)?;
    out.serde(key!("days"), days)?;
    out.serde(key!("min_days"), min_days)?;
    out.serde(key!("until_gravity"), until_gravity)?;
    out.serde(key!("until_attenuation_percent"), until_attenuation_percent)?;
    out.serde(key!("sort_order"), sort_order)?;
    out.instant(key!("created_at"), *created_at);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::generated::{INSTANTS, Lcg, NUMBERS, recipe, sometimes, uuid};
    use super::*;
    use wort_domain::brewing::HopForm;
    use wort_domain::recipe::children::{
        FermentableAddition, FermentableType, HopUse, MashStepType, MiscType, MiscUse, WaterAgent,
        WaterStep, YeastForm, YeastType,
    };

    const SORT_ORDERS: &[i32] = &[0, 1, 7, -3, i32::MAX, i32::MIN];

    /// Up to `most` children, each made by `make`.
    fn some<T>(random: &mut Lcg, most: u64, make: fn(&mut Lcg) -> T) -> Vec<T> {
        let count = random.next() % (most + 1);
        (0..count).map(|_| make(random)).collect()
    }

    fn number(random: &mut Lcg) -> f64 {
        random.pick(NUMBERS)
    }

    fn fermentable(random: &mut Lcg) -> Fermentable {
        Fermentable {
            id: uuid(random),
            recipe_id: uuid(random),
            catalog_id: sometimes(random, uuid),
            name: random.text(),
            kind: random.pick(FermentableType::ALL),
            amount_kg: number(random),
            color_srm: number(random),
            yield_percent: number(random),
            added: random.pick(FermentableAddition::ALL),
            origin: sometimes(random, Lcg::text),
            notes: sometimes(random, Lcg::text),
            sort_order: random.pick(SORT_ORDERS),
            created_at: random.pick(INSTANTS),
        }
    }

    fn hop(random: &mut Lcg) -> Hop {
        Hop {
            id: uuid(random),
            recipe_id: uuid(random),
            catalog_id: sometimes(random, uuid),
            name: random.text(),
            alpha_acid: number(random),
            amount_grams: number(random),
            time_minutes: number(random),
            hop_use: random.pick(HopUse::ALL),
            form: sometimes(random, |r| r.pick(HopForm::ALL)),
            temperature_c: sometimes(random, number),
            sort_order: random.pick(SORT_ORDERS),
            created_at: random.pick(INSTANTS),
        }
    }

    fn yeast(random: &mut Lcg) -> Yeast {
        Yeast {
            id: uuid(random),
            recipe_id: uuid(random),
            catalog_id: sometimes(random, uuid),
            name: random.text(),
            lab: sometimes(random, Lcg::text),
            product_id: sometimes(random, Lcg::text),
            kind: random.pick(YeastType::ALL),
            form: sometimes(random, |r| r.pick(YeastForm::ALL)),
            attenuation: sometimes(random, number),
            min_temp_c: sometimes(random, number),
            max_temp_c: sometimes(random, number),
            amount: sometimes(random, number),
            amount_unit: sometimes(random, Lcg::text),
            notes: sometimes(random, Lcg::text),
            sort_order: random.pick(SORT_ORDERS),
            created_at: random.pick(INSTANTS),
        }
    }

    fn misc(random: &mut Lcg) -> Misc {
        Misc {
            id: uuid(random),
            recipe_id: uuid(random),
            catalog_id: sometimes(random, uuid),
            name: random.text(),
            kind: random.pick(MiscType::ALL),
            misc_use: random.pick(MiscUse::ALL),
            amount: number(random),
            amount_unit: random.text(),
            time_minutes: number(random),
            notes: sometimes(random, Lcg::text),
            sort_order: random.pick(SORT_ORDERS),
            created_at: random.pick(INSTANTS),
        }
    }

    fn mash_step(random: &mut Lcg) -> MashStep {
        MashStep {
            id: uuid(random),
            recipe_id: uuid(random),
            name: random.text(),
            kind: random.pick(MashStepType::ALL),
            temperature_c: number(random),
            duration_minutes: number(random),
            infuse_amount_liters: sometimes(random, number),
            infuse_temperature_c: sometimes(random, number),
            ramp_minutes: sometimes(random, number),
            sort_order: random.pick(SORT_ORDERS),
            created_at: random.pick(INSTANTS),
        }
    }

    fn water_addition(random: &mut Lcg) -> WaterAddition {
        let agent = random.pick(WaterAgent::ALL);
        WaterAddition {
            id: uuid(random),
            recipe_id: uuid(random),
            agent,
            amount: number(random),
            unit: agent.unit(),
            strength_percent: sometimes(random, number),
            acid_percent: sometimes(random, number),
            step: random.pick(WaterStep::ALL),
            sort_order: random.pick(SORT_ORDERS),
            created_at: random.pick(INSTANTS),
        }
    }

    fn fermentation_step(random: &mut Lcg) -> FermentationStep {
        FermentationStep {
            id: uuid(random),
            recipe_id: uuid(random),
            name: random.text(),
            temperature_c: number(random),
            days: sometimes(random, number),
            min_days: sometimes(random, number),
            until_gravity: sometimes(random, number),
            until_attenuation_percent: sometimes(random, number),
            sort_order: random.pick(SORT_ORDERS),
            created_at: random.pick(INSTANTS),
        }
    }

    fn detail(random: &mut Lcg) -> RecipeDetail {
        RecipeDetail {
            recipe: recipe(random),
            fermentables: some(random, 6, fermentable),
            hops: some(random, 6, hop),
            yeasts: some(random, 3, yeast),
            miscs: some(random, 4, misc),
            mash_steps: some(random, 4, mash_step),
            water_additions: some(random, 4, water_addition),
            fermentation_steps: some(random, 3, fermentation_step),
        }
    }

    #[test]
    fn writes_the_bytes_of_the_derived_serialize() {
        let mut random = Lcg(0xDE7A11);
        for _ in 0..500 {
            let detail = detail(&mut random);
            let by_hand = recipe_detail(&detail).expect("written");
            let reference = serde_json::to_vec(&detail).expect("serialized");
            assert_eq!(
                String::from_utf8_lossy(&by_hand),
                String::from_utf8_lossy(&reference)
            );
        }
    }

    #[test]
    fn a_recipe_without_children_has_seven_empty_lists() {
        let detail = RecipeDetail {
            recipe: recipe(&mut Lcg(1)),
            fermentables: vec![],
            hops: vec![],
            yeasts: vec![],
            miscs: vec![],
            mash_steps: vec![],
            water_additions: vec![],
            fermentation_steps: vec![],
        };
        let written = String::from_utf8(recipe_detail(&detail).expect("written")).expect("UTF-8");
        assert!(written.ends_with(
            r#""fermentables":[],"hops":[],"yeasts":[],"miscs":[],"mash_steps":[],"water_additions":[],"fermentation_steps":[]}"#
        ));
        assert_eq!(
            written.as_bytes(),
            serde_json::to_vec(&detail).expect("serialized")
        );
    }
}
