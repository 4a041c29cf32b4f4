//! Correctness against a peer: ten recipes with equipment profiles, exported by Brewtarget
//! itself, through wort's calculations with equipment profiles and hop forms.
//! `data/brewtarget-peer.json` holds the numbers as the files wrote them (built by
//! `data/brewtarget_peer.py`; sources and licences are in each recipe's `source`/`licence`).
//!
//! Three kinds of check:
//! * **OG** against the OG Brewtarget stored in the file (its own estimate): within 0.5 points.
//! * **IBU**: none of these files carries an IBU computed by Brewtarget (the 2011 files have no IBU
//!   element; Coffee Stout's `IBU 35` is not reproducible by any of Brewtarget's Tinseth variants,
//!   see docs/calculations.md), so wort is held to [`brewtarget`], a line-by-line port of
//!   Brewtarget's `Recipe::recalcOgFg`, `Recipe::ibuFromHop` and `IbuMethods::tinseth`, itself
//!   first checked against the stored OGs: within 2 %.
//! * **Volumes** against the volumes Brewtarget stored: the pre-boil volume of its equipment
//!   record (`Equipment::doCalculations`) and the strike and sparge water of its mash wizard
//!   (`MASH_STEP/INFUSE_AMOUNT`): within 0.1 L.
//!
//! How a Brewtarget recipe becomes a wort recipe is [`to_wort`]; every mapping decision is
//! written there, with the reason.

// A fixture this test cannot map should fail it loudly.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use serde::Deserialize;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::brewing::stats::unrounded;
use wort_domain::brewing::volumes::volumes;
use wort_domain::brewing::{BrewingContext, HopForm, StatsInput};
use wort_domain::equipment::{EquipmentProfile, check_profile};
use wort_domain::recipe_children::{Fermentable, FermentableType, Hop, HopUse, Yeast, YeastType};

const PEER: &str = include_str!("data/brewtarget-peer.json");

/// How close wort must come to Brewtarget: OG in gravity points, IBU as a share, volumes in
/// litres.
const OG_POINTS: f64 = 0.5;
const IBU_SHARE: f64 = 0.02;
const VOLUME_LITERS: f64 = 0.1;

#[derive(Deserialize)]
struct File {
    recipes: Vec<Recipe>,
}

#[derive(Deserialize)]
struct Recipe {
    name: String,
    brewtarget_major_version: u8,
    batch_size_liters: f64,
    efficiency_percent: f64,
    equipment: Equipment,
    fermentables: Vec<Ferm>,
    hops: Vec<HopIn>,
    yeast_attenuation_percent: Vec<f64>,
    brewtarget: Stored,
}

#[derive(Deserialize)]
struct Equipment {
    name: String,
    batch_size_liters: f64,
    boil_time_minutes: f64,
    real_evap_rate_liters_per_hour: f64,
    evap_rate_percent_per_hour: f64,
    trub_chiller_loss_liters: f64,
    lauter_deadspace_liters: f64,
    absorption_liters_per_kg: f64,
    top_up_water_liters: f64,
    top_up_kettle_liters: f64,
    hop_utilization_percent: f64,
}

#[derive(Deserialize)]
struct Ferm {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    amount_kg: f64,
    yield_percent: f64,
    moisture_percent: f64,
    color_srm: f64,
    is_mashed: bool,
}

#[derive(Deserialize)]
struct HopIn {
    name: String,
    alpha_percent: f64,
    amount_kg: f64,
    #[serde(rename = "use")]
    hop_use: String,
    time_minutes: f64,
    form: String,
}

#[derive(Deserialize)]
struct Stored {
    og: f64,
    recipe_boil_size_liters: f64,
    equipment_boil_size_liters: f64,
    infusions_liters: Vec<f64>,
}

fn recipes() -> Vec<Recipe> {
    let file: File = serde_json::from_str(PEER).unwrap();
    assert_eq!(file.recipes.len(), 10, "the peer set holds ten recipes");
    file.recipes
}

/// Brewtarget's utilisation when a file's equipment says 0: Brewtarget 1.x had no utilisation in
/// its IBU formula, and wrote 0 into the field it did not use. Read literally (as Brewtarget 2.x
/// would), 0 gives every 2011 recipe 0 IBU, which is not what its author saw; so 0 means "not
/// set", the equipment profile's default.
fn utilisation_percent(e: &Equipment) -> f64 {
    if e.hop_utilization_percent > 0.0 {
        e.hop_utilization_percent
    } else {
        100.0
    }
}

/// The share of a fermentable's nominal yield Brewtarget counts (`Fermentable::equivSucrose_kg`):
/// a `Grain` that is not mashed is steeped and counts at 60 %; from Brewtarget 2 on the yield is
/// also reduced by the moisture (1.x's `getEquivSucrose_kg` ignored it, and the 2011 OGs were
/// computed by 1.x: Dry Stout, the one 2011 recipe with moisture, stores OG 1.0403, which is
/// its grain with the moisture ignored; with it, 1.0383).
fn yield_share(f: &Ferm, brewtarget_major_version: u8) -> f64 {
    let moisture = if brewtarget_major_version >= 2 {
        1.0 - f.moisture_percent / 100.0
    } else {
        1.0
    };
    let steeped = if f.kind == "Grain" && !f.is_mashed {
        0.60
    } else {
        1.0
    };
    moisture * steeped
}

struct Wort {
    fermentables: Vec<Fermentable>,
    hops: Vec<Hop>,
    forms: Vec<Option<HopForm>>,
    yeasts: Vec<Yeast>,
    profile: EquipmentProfile,
    boil_time_minutes: f64,
    efficiency: f64,
    batch_size_liters: f64,
}

impl Wort {
    fn input(&self) -> StatsInput<'_> {
        StatsInput {
            batch_size_liters: self.batch_size_liters,
            boil_time_minutes: self.boil_time_minutes,
            efficiency: self.efficiency,
            fermentables: &self.fermentables,
            hops: &self.hops,
            yeasts: &self.yeasts,
        }
    }

    fn context(&self) -> BrewingContext<'_> {
        BrewingContext {
            equipment: Some(&self.profile),
            hop_forms: &self.forms,
        }
    }
}

/// The recipe as a wort user (or an importer) would enter it.
///
/// * BeerXML types to wort's (`Dry Extract` → `dry_extract`); wort has neither a moisture nor a
///   steeped flag, so [`yield_share`] folds both into `yield_percent`, as an importer must.
/// * The boil time is the equipment's: Brewtarget boils for its equipment's `BOIL_TIME` (60 min
///   here) whatever the recipe's says (0 in most 2011 recipes).
/// * The equipment: `REAL_EVAP_RATE` (L/h) is `boil_off_liters_per_hour`, `LAUTER_DEADSPACE` the
///   mash tun deadspace, `ABSORPTION` the grain absorption; BeerXML has no fermenter loss (0).
fn to_wort(r: &Recipe) -> Wort {
    let at = OffsetDateTime::UNIX_EPOCH;
    let fermentables = r
        .fermentables
        .iter()
        .map(|f| Fermentable {
            catalog_id: None,
            id: Uuid::new_v4(),
            recipe_id: Uuid::nil(),
            name: f.name.clone(),
            kind: match f.kind.as_str() {
                "Grain" => FermentableType::Grain,
                "Adjunct" => FermentableType::Adjunct,
                "Sugar" => FermentableType::Sugar,
                "Extract" => FermentableType::Extract,
                "Dry Extract" => FermentableType::DryExtract,
                other => panic!("unmapped fermentable type {other}"),
            },
            amount_kg: f.amount_kg,
            color_srm: f.color_srm,
            yield_percent: f.yield_percent * yield_share(f, r.brewtarget_major_version),
            // Mash and boil count alike in every gravity Brewtarget computes here.
            added: wort_domain::recipe_children::FermentableAddition::Boil,
            origin: None,
            notes: None,
            sort_order: 0,
            created_at: at,
        })
        .collect();
    let hops = r
        .hops
        .iter()
        .map(|h| Hop {
            temperature_c: None,
            catalog_id: None,
            form: None,
            id: Uuid::new_v4(),
            recipe_id: Uuid::nil(),
            name: h.name.clone(),
            alpha_acid: h.alpha_percent,
            amount_grams: h.amount_kg * 1000.0,
            time_minutes: h.time_minutes,
            hop_use: match h.hop_use.as_str() {
                "Boil" => HopUse::Boil,
                "Dry Hop" => HopUse::DryHop,
                "First Wort" => HopUse::FirstWort,
                "Aroma" => HopUse::Aroma,
                "Mash" => HopUse::Mash,
                other => panic!("unmapped hop use {other}"),
            },
            sort_order: 0,
            created_at: at,
        })
        .collect();
    let forms = r
        .hops
        .iter()
        .map(|h| match h.form.as_str() {
            "Pellet" => Some(HopForm::Pellet),
            "Plug" => Some(HopForm::Plug),
            "Leaf" => Some(HopForm::Leaf),
            _ => None,
        })
        .collect();
    let yeasts = r
        .yeast_attenuation_percent
        .iter()
        .map(|a| Yeast {
            catalog_id: None,
            id: Uuid::new_v4(),
            recipe_id: Uuid::nil(),
            name: "yeast".into(),
            lab: None,
            product_id: None,
            kind: YeastType::Ale,
            form: None,
            attenuation: Some(*a),
            min_temp_c: None,
            max_temp_c: None,
            amount: None,
            amount_unit: None,
            notes: None,
            sort_order: 0,
            created_at: at,
        })
        .collect();
    let e = &r.equipment;
    let profile = EquipmentProfile {
        name: e.name.clone(),
        batch_size_liters: e.batch_size_liters,
        boil_off_liters_per_hour: e.real_evap_rate_liters_per_hour,
        trub_chiller_loss_liters: e.trub_chiller_loss_liters,
        mash_tun_deadspace_liters: e.lauter_deadspace_liters,
        grain_absorption_liters_per_kg: e.absorption_liters_per_kg,
        top_up_water_liters: e.top_up_water_liters,
        fermenter_loss_liters: 0.0,
        hop_utilization_percent: utilisation_percent(e),
        mash_method: wort_domain::equipment::MashMethod::Sparge,
        mash_tun_volume_liters: None,
        notes: None,
    };
    Wort {
        fermentables,
        hops,
        forms,
        yeasts,
        profile,
        boil_time_minutes: e.boil_time_minutes,
        efficiency: r.efficiency_percent / 100.0,
        batch_size_liters: r.batch_size_liters,
    }
}

/// Brewtarget's algorithm, ported line by line from its source (GPL-3.0; `src/Algorithms.cpp`,
/// `src/model/Recipe.cpp`, `src/IbuMethods.cpp`, `src/model/Fermentable.cpp`), test-only: the
/// yardstick wort is compared with, never wort's own code.
mod brewtarget {
    use super::{Recipe, utilisation_percent, yield_share};

    const SUCROSE_DENSITY_KG_L: f64 = 1.587;
    const PLATO_FROM_SG: [f64; 4] = [-616.868, 1111.14, -630.272, 135.997];
    const ROOT_PRECISION: f64 = 0.000_000_1;

    fn poly(p: &[f64; 4], x: f64) -> f64 {
        p[0] + p[1] * x + p[2] * x * x + p[3] * x * x * x
    }

    /// `Algorithms::getPlato`: sucrose and water volumes add up to the wort's.
    pub fn plato(sugar_kg: f64, wort_l: f64) -> f64 {
        let water_kg = wort_l - sugar_kg / SUCROSE_DENSITY_KG_L;
        sugar_kg / (sugar_kg + water_kg) * 100.0
    }

    /// `Algorithms::PlatoToSG_20C20C`: the root of the Plato polynomial, by the secant method
    /// from 1.000 and 1.050.
    pub fn plato_to_sg(plato: f64) -> f64 {
        let mut p = PLATO_FROM_SG;
        p[0] -= plato;
        let (mut a, mut b) = (1.000_f64, 1.050_f64);
        let mut next = b;
        while (a - b).abs() > ROOT_PRECISION {
            next = b - (b - a) * poly(&p, b) / (poly(&p, b) - poly(&p, a));
            a = b;
            b = next;
        }
        next
    }

    /// `Recipe::recalcOgFg` with `recalcVolumeEstimates`' wort from the mash.
    pub fn og(r: &Recipe) -> f64 {
        let e = &r.equipment;
        let (mut sugar, mut sugar_no_eff, mut grain_in_mash) = (0.0, 0.0, 0.0);
        for f in &r.fermentables {
            let equiv =
                f.amount_kg * f.yield_percent / 100.0 * yield_share(f, r.brewtarget_major_version);
            if matches!(f.kind.as_str(), "Sugar" | "Extract" | "Dry Extract") {
                sugar_no_eff += equiv;
            } else {
                sugar += equiv;
            }
            if f.kind == "Grain" && f.is_mashed {
                grain_in_mash += f.amount_kg;
            }
        }
        let mash_water: f64 = r.brewtarget.infusions_liters.iter().sum();
        let wort_from_mash = if mash_water > 0.0 {
            mash_water - e.absorption_liters_per_kg * grain_in_mash
        } else {
            0.0
        };
        let kettle = wort_from_mash - e.lauter_deadspace_liters + e.top_up_kettle_liters;
        let post_boil = kettle - e.boil_time_minutes / 60.0 * e.real_evap_rate_liters_per_hour;
        let mut ratio = (post_boil - e.trub_chiller_loss_liters) / post_boil;
        if ratio.is_nan() {
            ratio = 1.0;
        }
        let ratio = ratio.clamp(0.0, 1.0);
        let sugar = sugar * r.efficiency_percent / 100.0 + sugar_no_eff * ratio;
        plato_to_sg(plato(sugar, batch_size_no_losses(r)))
    }

    /// `Recipe::batchSizeNoLosses_l`.
    pub fn batch_size_no_losses(r: &Recipe) -> f64 {
        r.batch_size_liters + r.equipment.trub_chiller_loss_liters
    }

    /// `IbuMethods::tinseth`.
    fn tinseth(aa: f64, grams: f64, liters: f64, gravity: f64, minutes: f64) -> f64 {
        ((aa * grams * 1000.0) / liters)
            * ((1.0 - (-0.04 * minutes).exp()) / 4.15)
            * (1.65 * 0.000125_f64.powf(gravity - 1.0))
    }

    /// `Recipe::ibuFromHop` summed: boil hops for their time, first wort hops 1.1 × the
    /// equipment's boil, mash hops 0 (its default `mashHopAdjustment`), then utilisation and form.
    pub fn ibu(r: &Recipe, og: f64) -> f64 {
        let volume = batch_size_no_losses(r);
        let boil = r.equipment.boil_time_minutes;
        r.hops
            .iter()
            .map(|h| {
                let (aa, grams) = (h.alpha_percent / 100.0, h.amount_kg * 1000.0);
                let ibu = match h.hop_use.as_str() {
                    "Boil" => tinseth(aa, grams, volume, og, h.time_minutes),
                    "First Wort" => 1.1 * tinseth(aa, grams, volume, og, boil),
                    _ => 0.0,
                };
                let form = match h.form.as_str() {
                    "Pellet" => 1.10,
                    "Plug" => 1.02,
                    _ => 1.0,
                };
                ibu * utilisation_percent(&r.equipment) / 100.0 * form
            })
            .sum()
    }
}

/// One row of the comparison table of docs/calculations.md.
struct Row {
    name: String,
    stored_og: f64,
    port_og: f64,
    wort_og: f64,
    port_ibu: f64,
    wort_ibu: f64,
    stored_pre_boil: f64,
    wort_pre_boil: f64,
    /// (Brewtarget strike, sparge; wort strike, sparge), where Brewtarget's mash wizard ran.
    mash: Option<(f64, f64, f64, f64)>,
}

fn row(r: &Recipe) -> Row {
    let w = to_wort(r);
    assert!(
        check_profile(&w.profile).is_empty(),
        "{}: {:?}",
        r.name,
        check_profile(&w.profile)
    );
    let ours = unrounded(&w.input(), &w.context());
    let port_og = brewtarget::og(r);
    let v = volumes(&w.profile, &w.input());

    // Brewtarget 1.x's mash wizard aimed at the recipe's BOIL_SIZE, which 1.x computed with a
    // percentage boil-off (EVAP_RATE %/h of the kettle: 18.927 L / (1 − 0.15) = 22.267 L), not
    // the L/h of REAL_EVAP_RATE. To compare strike and sparge we give wort that same boil-off in
    // L/h: EVAP_RATE % of the pre-boil volume per hour.
    let mash = match r.brewtarget.infusions_liters.as_slice() {
        [strike, sparge] if *strike > 0.0 && r.brewtarget_major_version == 1 => {
            let percent_profile = EquipmentProfile {
                boil_off_liters_per_hour: r.equipment.evap_rate_percent_per_hour / 100.0
                    * r.brewtarget.recipe_boil_size_liters,
                ..w.profile.clone()
            };
            let v1 = volumes(&percent_profile, &w.input());
            assert!(
                (v1.pre_boil_liters - r.brewtarget.recipe_boil_size_liters).abs() < VOLUME_LITERS,
                "{}: {v1:?}",
                r.name
            );
            Some((
                *strike,
                *sparge,
                v1.strike_water_liters,
                v1.sparge_water_liters,
            ))
        }
        _ => None,
    };
    Row {
        name: r.name.clone(),
        stored_og: r.brewtarget.og,
        port_og,
        wort_og: ours.og,
        port_ibu: brewtarget::ibu(r, port_og),
        wort_ibu: ours.ibu,
        stored_pre_boil: r.brewtarget.equipment_boil_size_liters,
        wort_pre_boil: v.pre_boil_liters,
        mash,
    }
}

fn points(a: f64, b: f64) -> f64 {
    (a - b) * 1000.0
}

fn table(rows: &[Row]) -> String {
    let mut s = String::from(
        "| recipe | OG stored | OG port | OG wort | Δ pts | IBU port | IBU wort | Δ % | pre-boil BT | pre-boil wort | strike BT / wort | sparge BT / wort |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let mash = r
            .mash
            .map_or(("—".to_owned(), "—".to_owned()), |(bs, bp, ws, wp)| {
                (format!("{bs:.2} / {ws:.2}"), format!("{bp:.2} / {wp:.2}"))
            });
        s += &format!(
            "| {} | {:.4} | {:.4} | {:.4} | {:+.2} | {:.1} | {:.1} | {:+.2} | {:.2} | {:.2} | {} | {} |\n",
            r.name,
            r.stored_og,
            r.port_og,
            r.wort_og,
            points(r.wort_og, r.stored_og),
            r.port_ibu,
            r.wort_ibu,
            (r.wort_ibu / r.port_ibu - 1.0) * 100.0,
            r.stored_pre_boil,
            r.wort_pre_boil,
            mash.0,
            mash.1,
        );
    }
    s
}

/// Run with `--nocapture` to print the table for docs/calculations.md.
#[test]
fn the_port_reproduces_brewtargets_stored_og() {
    let rows: Vec<Row> = recipes().iter().map(row).collect();
    eprintln!("{}", table(&rows));
    for r in &rows {
        assert!(
            points(r.port_og, r.stored_og).abs() <= OG_POINTS,
            "{}: port {} stored {}",
            r.name,
            r.port_og,
            r.stored_og
        );
    }
}

#[test]
fn og_within_half_a_point_of_brewtarget() {
    for r in recipes().iter().map(row) {
        let d = points(r.wort_og, r.stored_og);
        assert!(d.abs() <= OG_POINTS, "{}: {d:+.3} points", r.name);
    }
}

#[test]
fn ibu_within_two_percent_of_brewtargets_algorithm() {
    for r in recipes().iter().map(row) {
        assert!(r.port_ibu > 0.0, "{}", r.name);
        let share = r.wort_ibu / r.port_ibu - 1.0;
        assert!(
            share.abs() <= IBU_SHARE,
            "{}: {:+.3} %",
            r.name,
            share * 100.0
        );
    }
}

#[test]
fn volumes_within_a_tenth_of_a_litre_of_brewtarget() {
    let mut mashes = 0;
    for r in recipes().iter().map(row) {
        let d = r.wort_pre_boil - r.stored_pre_boil;
        if r.name == "Coffee Stout" {
            // The one miss, by exactly its 0.1 L TOP_UP_WATER: Brewtarget's own
            // `Equipment::doCalculations` (batch − top-up + trub loss + boil-off) on the file's
            // fields gives 20.82 − 0.1 + 1.893 + 2.839 = 25.452 L, as wort does, but the stored
            // BOIL_SIZE is 25.552 L, the same sum without the top-up. The stored value predates
            // the top-up edit (this is pybeerxml's test file, whose fields were edited by hand:
            // TOP_UP_WATER 0.1, TOP_UP_KETTLE 0.4, EST_COLOR 3.1 for a stout).
            assert!((d + 0.1).abs() < 1e-6, "{}: pre-boil {d:+.4} L", r.name);
        } else {
            assert!(d.abs() <= VOLUME_LITERS, "{}: pre-boil {d:+.3} L", r.name);
        }
        if let Some((bt_strike, bt_sparge, strike, sparge)) = r.mash {
            mashes += 1;
            assert!(
                (strike - bt_strike).abs() <= VOLUME_LITERS,
                "{}: strike",
                r.name
            );
            assert!(
                (sparge - bt_sparge).abs() <= VOLUME_LITERS,
                "{}: sparge",
                r.name
            );
        }
    }
    assert_eq!(
        mashes, 6,
        "the six 2011 all-grain recipes whose mash wizard ran"
    );
}
