//! Volumes with an equipment profile: how much water to heat, what the kettle holds
//! before and after the boil, and the gravity to check before the boil.
//!
//! Brewtarget's algorithm, worked backwards from the fermenter as its `Equipment::doCalculations`
//! does (boil size = batch − top-up + trub loss + boil time × evaporation rate) and its mash
//! wizard does (the water that must leave the mash tun is the boil size plus what the grain keeps
//! plus what stays in the tun):
//!
//! ```text
//! into fermenter = V                                   (the recipe's batch size)
//! post-boil      = V + trub_chiller_loss − top_up_water
//! pre-boil       = post-boil + boil_off_liters_per_hour × boil_time/60
//! mash water     = pre-boil + mash_tun_deadspace + grain_absorption × mashed grain kg
//! strike water   = mash thickness × mashed grain kg + mash_tun_deadspace  (at most the mash water)
//! sparge water   = mash water − strike water
//!   full volume (all-in-one, BIAB): strike water = mash water, sparge water = 0
//! water to grain = (strike water − mash_tun_deadspace) / mashed grain kg
//! pre-boil SG    = 1 + points × (V + trub_chiller_loss) / pre-boil / 1000
//!                  (points of the `mash` and `boil` additions only: a `late_boil` or
//!                  `fermenter` fermentable is not in the kettle yet)
//! ```
//!
//! The pre-boil gravity spreads the same sugar as the OG (whose volume is V + trub loss, see
//! [`super::stats::BrewingContext::gravity_volume_liters`]) over the pre-boil volume. A recipe with
//! no mashed fermentable (extract brewing) heats no strike or sparge water: both are 0.
//!
//! The fermenter loss happens after fermentation; it changes none of these volumes (it is what
//! separates the batch from the beer packaged).

use serde::Serialize;

use super::stats::{BrewingContext, StatsInput};
use super::{finite_or_zero, gravity, round_to};
use crate::equipment::{EquipmentProfile, MashMethod};

/// Litres of strike water per kilogram of grain: the ratio of every all-grain recipe Brewtarget
/// ships (its 2011 default recipes infuse 2.70 L/kg, e.g. 12.247 L on 4.536 kg), a medium mash
/// (about 1.3 US qt/lb).
pub const DEFAULT_MASH_THICKNESS_LITERS_PER_KG: f64 = 2.7;

/// The volumes of one brew day with a profile (`volumes` in `/stats`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Volumes {
    pub strike_water_liters: f64,
    pub sparge_water_liters: f64,
    pub pre_boil_liters: f64,
    pub post_boil_liters: f64,
    pub into_fermenter_liters: f64,
    /// Specific gravity of the wort in the kettle before the boil.
    pub pre_boil_gravity: f64,
    /// Litres of strike water per kg of mashed grain above the tun's deadspace (the ratio the
    /// strike temperature depends on): 2.7 with a sparge, thinner with a full-volume mash; null
    /// when nothing is mashed.
    pub mash_thickness_liters_per_kg: Option<f64>,
}

impl Volumes {
    /// As `/stats` returns them: litres to 2 decimals, the gravity to 4.
    pub fn rounded(&self) -> Volumes {
        Volumes {
            strike_water_liters: round_to(self.strike_water_liters, 2),
            sparge_water_liters: round_to(self.sparge_water_liters, 2),
            pre_boil_liters: round_to(self.pre_boil_liters, 2),
            post_boil_liters: round_to(self.post_boil_liters, 2),
            into_fermenter_liters: round_to(self.into_fermenter_liters, 2),
            pre_boil_gravity: round_to(self.pre_boil_gravity, 4),
            mash_thickness_liters_per_kg: self.mash_thickness_liters_per_kg.map(|r| round_to(r, 2)),
        }
    }
}

/// The grain temperature the strike temperature assumes: malt stored at room temperature.
pub const ASSUMED_GRAIN_TEMPERATURE_C: f64 = 20.0;
/// The heat capacity of grain relative to water's, as litres of water per kg of grain: Palmer's
/// constant for the metric form of his strike-water and infusion formulas (0.2 in US quarts per
/// pound).
pub const GRAIN_HEAT_LITERS_PER_KG: f64 = 0.41;

/// The temperature to heat strike water to so that grain at `grain_c` and the water settle at
/// `rest_c`, with `liters_per_kg` of water per kg of grain (John Palmer, *How to Brew*,
/// "Calculating Strike Water Temperature", metric form): `Tw = 0.41 / r × (T2 − T1) + T2`.
/// It ignores the tun's own heat (preheat the tun). Example: a 66 °C rest, grain at 20 °C,
/// 2.7 L/kg → 0.41 / 2.7 × 46 + 66 = 72.99 °C.
pub fn strike_temperature_c(rest_c: f64, grain_c: f64, liters_per_kg: f64) -> f64 {
    if liters_per_kg > 0.0 {
        GRAIN_HEAT_LITERS_PER_KG / liters_per_kg * (rest_c - grain_c) + rest_c
    } else {
        rest_c
    }
}

/// Kilograms of fermentables that go through the mash (`grain`, `adjunct`): what soaks up water.
pub fn mashed_grain_kg(input: &StatsInput<'_>) -> f64 {
    input
        .fermentables
        .iter()
        .filter(|f| f.kind.is_mashed())
        .map(|f| f.amount_kg.max(0.0))
        .sum()
}

/// The unrounded volumes of `input` brewed on `profile`, with the default mash thickness.
pub fn volumes(profile: &EquipmentProfile, input: &StatsInput<'_>) -> Volumes {
    volumes_with_thickness(profile, input, DEFAULT_MASH_THICKNESS_LITERS_PER_KG)
}

/// [`volumes`] with a chosen mash thickness (litres of strike water per kg of grain; a
/// full-volume profile puts all the water in the mash whatever the thickness).
///
/// Worked example (the test `a_twenty_litre_all_grain_day`): V = 20 L, 60 min boil, 5 kg grain,
/// boil-off 3 L/h, trub loss 1.5 L, deadspace 1 L, absorption 1 L/kg, no top-up:
/// post-boil = 20 + 1.5 = 21.5 L; pre-boil = 21.5 + 3 = 24.5 L;
/// mash water = 24.5 + 1 + 5 = 30.5 L; strike = 2.7 × 5 + 1 = 14.5 L; sparge = 16 L. The same
/// day on a full-volume kit: strike = 30.5 L, sparge 0, water to grain (30.5 − 1)/5 = 5.9 L/kg.
pub fn volumes_with_thickness(
    profile: &EquipmentProfile,
    input: &StatsInput<'_>,
    mash_thickness_liters_per_kg: f64,
) -> Volumes {
    let batch = input.batch_size_liters;
    let into_fermenter = batch;
    let post_boil =
        (batch + profile.trub_chiller_loss_liters - profile.top_up_water_liters).max(0.0);
    let boil_hours = input.boil_time_minutes.max(0.0) / 60.0;
    let pre_boil = post_boil + profile.boil_off_liters_per_hour * boil_hours;

    let grain_kg = mashed_grain_kg(input);
    let (strike, sparge) = if grain_kg > 0.0 {
        let mash_water = pre_boil
            + profile.mash_tun_deadspace_liters
            + profile.grain_absorption_liters_per_kg * grain_kg;
        match profile.mash_method {
            MashMethod::FullVolume => (mash_water, 0.0),
            MashMethod::Sparge => {
                let strike = (mash_thickness_liters_per_kg * grain_kg
                    + profile.mash_tun_deadspace_liters)
                    .min(mash_water);
                (strike, mash_water - strike)
            }
        }
    } else {
        (0.0, 0.0)
    };
    let thickness = (grain_kg > 0.0)
        .then(|| finite_or_zero((strike - profile.mash_tun_deadspace_liters).max(0.0) / grain_kg));

    let context = BrewingContext {
        equipment: Some(profile),
        hop_forms: &[],
    };
    let gravity_volume = context.gravity_volume_liters(batch);
    // Only what is in the kettle when the boil starts: not a late sugar, not a fermenter one.
    let points = gravity::pre_boil_points(gravity_volume, input.efficiency, input.fermentables);
    let pre_boil_points = if pre_boil > 0.0 {
        finite_or_zero(points * gravity_volume / pre_boil)
    } else {
        0.0
    };

    Volumes {
        strike_water_liters: finite_or_zero(strike),
        sparge_water_liters: finite_or_zero(sparge),
        pre_boil_liters: finite_or_zero(pre_boil),
        post_boil_liters: finite_or_zero(post_boil),
        into_fermenter_liters: finite_or_zero(into_fermenter),
        pre_boil_gravity: gravity::original_gravity(pre_boil_points),
        mash_thickness_liters_per_kg: thickness,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strike_temperature_follows_palmer() {
        let t = strike_temperature_c(66.0, 20.0, 2.7);
        assert!((t - 72.985).abs() < 0.001, "{t}");
        // Thinner mash, smaller rise; grain already at the rest, no rise at all.
        assert!(strike_temperature_c(66.0, 20.0, 4.0) < t);
        assert_eq!(strike_temperature_c(66.0, 66.0, 2.7), 66.0);
        assert_eq!(strike_temperature_c(66.0, 20.0, 0.0), 66.0);
    }
    use crate::brewing::fixtures::fermentable;
    use crate::recipe_children::FermentableType::{DryExtract, Grain, Sugar};

    fn kit() -> EquipmentProfile {
        EquipmentProfile {
            boil_off_liters_per_hour: 3.0,
            trub_chiller_loss_liters: 1.5,
            mash_tun_deadspace_liters: 1.0,
            grain_absorption_liters_per_kg: 1.0,
            fermenter_loss_liters: 0.75,
            ..EquipmentProfile::lossless("Kit", 20.0)
        }
    }

    fn input(fermentables: &[crate::recipe_children::Fermentable]) -> StatsInput<'_> {
        StatsInput {
            batch_size_liters: 20.0,
            boil_time_minutes: 60.0,
            efficiency: 0.72,
            fermentables,
            hops: &[],
            yeasts: &[],
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn a_twenty_litre_all_grain_day() {
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        let v = volumes(&kit(), &input(&bill));
        assert!(close(v.into_fermenter_liters, 20.0));
        assert!(close(v.post_boil_liters, 21.5));
        assert!(close(v.pre_boil_liters, 24.5));
        assert!(close(v.strike_water_liters, 14.5));
        assert!(close(v.sparge_water_liters, 16.0));
        // Sugar: points over 21.5 L = 11.0231 × 46.21 × 0.8 × 0.72 / (21.5 × 0.264172) = 51.6580;
        // spread over 24.5 L: 51.6580 × 21.5/24.5 = 45.3325 → 1.0453.
        assert!(
            (v.pre_boil_gravity - 1.045_332).abs() < 1e-5,
            "{}",
            v.pre_boil_gravity
        );
        assert_eq!(v.rounded().pre_boil_gravity, 1.0453);
    }

    #[test]
    fn a_full_volume_mash_takes_all_the_water_and_a_hotter_strike_is_not_needed() {
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        let sparge = volumes(&kit(), &input(&bill));
        let biab = EquipmentProfile {
            mash_method: MashMethod::FullVolume,
            ..kit()
        };
        let v = volumes(&biab, &input(&bill));
        // All of the 30.5 L (see above) goes into the mash; nothing is left to sparge with.
        assert!(close(v.strike_water_liters, 30.5));
        assert_eq!(v.sparge_water_liters, 0.0);
        assert!(close(
            v.strike_water_liters,
            sparge.strike_water_liters + sparge.sparge_water_liters
        ));
        // The kettle side is the same brew day.
        assert!(close(v.pre_boil_liters, sparge.pre_boil_liters));
        assert!(close(v.pre_boil_gravity, sparge.pre_boil_gravity));
        // Water to grain: (30.5 − 1) / 5 = 5.9 L/kg, against the sparge kit's 2.7.
        assert!(close(v.mash_thickness_liters_per_kg.unwrap(), 5.9));
        assert!(close(sparge.mash_thickness_liters_per_kg.unwrap(), 2.7));
        // A thinner mash needs a cooler strike: 0.41/5.9 × 46 + 66 = 69.20 °C against 72.99 °C.
        let thin = strike_temperature_c(66.0, 20.0, 5.9);
        assert!((thin - 69.1966).abs() < 1e-3, "{thin}");
        // Extract brewing on a full-volume kit still heats no mash water.
        let extract = [fermentable(DryExtract, 3.0, 4.0, 95.0)];
        let e = volumes(&biab, &input(&extract));
        assert_eq!((e.strike_water_liters, e.sparge_water_liters), (0.0, 0.0));
        assert_eq!(e.mash_thickness_liters_per_kg, None);
    }

    #[test]
    fn a_late_or_fermenter_sugar_is_not_in_the_pre_boil_gravity() {
        use crate::recipe_children::{Fermentable, FermentableAddition};
        // The twenty-litre day (grain alone: pre-boil 1.0453) plus 1 kg of sugar: in the boil
        // it adds 2.20462 × 46.21 / (21.5 × 0.264172) = 17.9367 points over 21.5 L, × 21.5/24.5
        // = 15.7404 in the kettle → 1.0611; late in the boil or in the fermenter it adds none.
        let sugar = |added| Fermentable {
            added,
            ..fermentable(Sugar, 1.0, 0.0, 100.0)
        };
        let grain = fermentable(Grain, 5.0, 3.0, 80.0);
        let pre_boil = |added| {
            let bill = [grain.clone(), sugar(added)];
            volumes(&kit(), &input(&bill)).rounded().pre_boil_gravity
        };
        assert_eq!(pre_boil(FermentableAddition::Boil), 1.0611);
        assert_eq!(pre_boil(FermentableAddition::LateBoil), 1.0453);
        assert_eq!(pre_boil(FermentableAddition::Fermenter), 1.0453);
    }

    #[test]
    fn top_up_water_shrinks_the_boil() {
        // Partial boil: 20 L batch, 10 L of it topped up in the fermenter. Post-boil 10 + 1.5,
        // pre-boil 11.5 + 3 = 14.5 L; extract only, so no mash water.
        let p = EquipmentProfile {
            top_up_water_liters: 10.0,
            ..kit()
        };
        let bill = [fermentable(DryExtract, 3.0, 4.0, 95.0)];
        let v = volumes(&p, &input(&bill));
        assert!(close(v.post_boil_liters, 11.5));
        assert!(close(v.pre_boil_liters, 14.5));
        assert_eq!((v.strike_water_liters, v.sparge_water_liters), (0.0, 0.0));
        // The kettle is twice as strong as the fermenter (21.5 L of sugar in 14.5 L... of wort).
        let og_points = gravity::gravity_points(21.5, 0.72, &bill);
        assert!(close(
            (v.pre_boil_gravity - 1.0) * 1000.0,
            og_points * 21.5 / 14.5
        ));
    }

    #[test]
    fn a_thick_mash_takes_all_the_water_as_strike() {
        // Thickness 10 L/kg on 5 kg would be 51 L of strike, more than the 30.5 L needed.
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        let v = volumes_with_thickness(&kit(), &input(&bill), 10.0);
        assert!(close(v.strike_water_liters, 30.5));
        assert_eq!(v.sparge_water_liters, 0.0);
    }

    #[test]
    fn sugar_is_not_mashed() {
        let bill = [
            fermentable(Grain, 4.0, 3.0, 80.0),
            fermentable(Sugar, 1.0, 0.0, 100.0),
        ];
        assert_eq!(mashed_grain_kg(&input(&bill)), 4.0);
    }

    #[test]
    fn a_lossless_kit_boils_the_batch() {
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        let v = volumes(&EquipmentProfile::lossless("Pot", 20.0), &input(&bill));
        assert!(close(v.pre_boil_liters, 20.0));
        assert!(close(v.post_boil_liters, 20.0));
        let og = gravity::original_gravity(gravity::gravity_points(20.0, 0.72, &bill));
        assert!(close(v.pre_boil_gravity, og));
    }

    #[test]
    fn degenerate_inputs_stay_finite() {
        let bill = [fermentable(Grain, 5.0, 3.0, 80.0)];
        for batch in [0.0, f64::NAN, f64::INFINITY] {
            let i = StatsInput {
                batch_size_liters: batch,
                ..input(&bill)
            };
            let v = volumes(&kit(), &i);
            for x in [
                v.strike_water_liters,
                v.sparge_water_liters,
                v.pre_boil_liters,
                v.post_boil_liters,
                v.into_fermenter_liters,
                v.pre_boil_gravity,
            ] {
                assert!(x.is_finite(), "{batch}: {v:?}");
            }
        }
    }
}
