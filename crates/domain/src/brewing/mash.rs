//! Step mashes: the water to add for each infusion rest and the thick mash to pull for each
//! decoction, so the brew sheet says "add 6.1 L of boiling water" rather than "raise to 63 °C".
//!
//! **Infusion** (John Palmer, *How to Brew*, "Multiple Rest Infusions"; metric form):
//!
//! ```text
//! Wa = (T2 − T1) × (0.41 × G + Wm) / (Tw − T2)
//! ```
//!
//! `Wa` litres of water at `Tw` °C raise a mash of `G` kg of grain and `Wm` litres of water from
//! `T1` to `T2`. 0.41 L/kg is the grain's heat capacity expressed as litres of water per kilogram
//! (0.2 US quarts per pound); the tun is assumed preheated. Solved for `Tw` when the brewer sets
//! the volume: `Tw = T2 + (T2 − T1) × (0.41 × G + Wm) / Wa`.
//!
//! **Decoction** (the heat balance of the same model): a thick mash pulled and boiled at 100 °C
//! brings the rest of the mash from `T1` to `T2` when its share of the mash's heat capacity is
//! `(T2 − T1) / (100 − T1)`. The mash's volume is its water plus the grain's own volume, 0.67 L
//! per kg (Palmer: grain displaces about 0.08 US gal per lb); brewers measure the decoction by
//! volume in a jug, so it is given in litres of mash:
//!
//! ```text
//! Vd = (Wm + 0.67 × G) × (T2 − T1) / (100 − T1)
//! ```
//!
//! Decoctions add no water. A `temperature` step (direct heat) adds nothing either.

use serde::Serialize;
use uuid::Uuid;

use super::stats::StatsInput;
use super::volumes::{
    DEFAULT_MASH_THICKNESS_LITERS_PER_KG, GRAIN_HEAT_LITERS_PER_KG, mashed_grain_kg, volumes,
};
use super::{finite_or_zero, round_to};
use crate::equipment::EquipmentProfile;
use crate::recipe_children::{MashStep, MashStepType};

/// The volume one kg of crushed grain adds to a mash, litres (Palmer: 0.08 US gal/lb).
pub const GRAIN_VOLUME_LITERS_PER_KG: f64 = 0.67;
/// The temperature of boiling water (at sea level), the infusion water unless the step sets one,
/// and the temperature a decoction is boiled at.
pub const BOILING_C: f64 = 100.0;

/// What one mash step adds to the mash (`mash_steps` in `/stats`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MashStepWater {
    pub mash_step_id: Uuid,
    /// Litres of water to add to reach this rest from the one before (2 decimals): the step's own
    /// `infuse_amount_liters` when it sets one, else computed. Null for the first step (its water
    /// is the strike water), for a step that is not an infusion, and for an impossible infusion.
    pub infusion_volume_liters: Option<f64>,
    /// The temperature of that water (1 decimal): the step's own `infuse_temperature_c`, boiling
    /// water (100 °C) when it sets neither, or the temperature its set volume needs.
    pub infusion_temperature_c: Option<f64>,
    /// Litres of thick mash to pull, boil and return to reach this rest (2 decimals); null unless
    /// a `decoction` step after the first.
    pub decoction_volume_liters: Option<f64>,
    /// True when no water can do it: water not hotter than the rest, a rest below the one before,
    /// or a set volume that would need water hotter than boiling. `/checks` names it
    /// (`infusion_impossible`).
    pub impossible: bool,
}

/// The unrounded water an infusion from `from_c` to `to_c` takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Infusion {
    /// Litres at °C.
    Water { liters: f64, temperature_c: f64 },
    /// No water can do it (see [`MashStepWater::impossible`]); the temperature is the water's
    /// when it was given or boiling, for the message.
    Impossible { temperature_c: f64 },
}

/// Palmer's infusion equation for one rest: `own_liters` / `own_temperature_c` are what the step
/// sets (either, both or neither).
///
/// Worked example (the test `palmers_worked_example`, Palmer's in US units): 8 lb of grain with
/// 8 qt of water at 104 °F, raised to 140 °F with boiling (210 °F) water:
/// `Wa = (140 − 104)(0.2 × 8 + 8)/(210 − 140) = 4.94 qt`.
pub fn infusion(
    grain_kg: f64,
    water_liters: f64,
    from_c: f64,
    to_c: f64,
    own_liters: Option<f64>,
    own_temperature_c: Option<f64>,
) -> Infusion {
    infusion_with(
        GRAIN_HEAT_LITERS_PER_KG,
        grain_kg,
        water_liters,
        from_c,
        to_c,
        own_liters,
        own_temperature_c,
    )
}

/// [`infusion`] with the grain's heat constant given (0.2 for US quarts per pound).
fn infusion_with(
    grain_heat: f64,
    grain: f64,
    water: f64,
    from_c: f64,
    to_c: f64,
    own_liters: Option<f64>,
    own_temperature_c: Option<f64>,
) -> Infusion {
    let heat = grain_heat * grain + water;
    let rise = to_c - from_c;
    match (own_liters, own_temperature_c) {
        // The brewer chose both: that is what goes in.
        (Some(liters), Some(t)) => Infusion::Water {
            liters,
            temperature_c: t,
        },
        // A volume but no temperature: the water that volume needs.
        (Some(liters), None) => {
            if rise < 0.0 || (rise > 0.0 && liters <= 0.0) {
                return Infusion::Impossible {
                    temperature_c: BOILING_C,
                };
            }
            let t = if liters > 0.0 {
                to_c + rise * heat / liters
            } else {
                to_c
            };
            if t > BOILING_C {
                Infusion::Impossible {
                    temperature_c: finite_or_zero(t),
                }
            } else {
                Infusion::Water {
                    liters,
                    temperature_c: t,
                }
            }
        }
        // Water at a temperature (boiling unless set): the volume that reaches the rest.
        (None, t) => {
            let t = t.unwrap_or(BOILING_C);
            if rise < 0.0 || t <= to_c {
                return Infusion::Impossible { temperature_c: t };
            }
            Infusion::Water {
                liters: finite_or_zero(rise * heat / (t - to_c)),
                temperature_c: t,
            }
        }
    }
}

/// Palmer-style decoction: litres of mash to boil to raise `water_liters` of mash water and
/// `grain_kg` of grain from `from_c` to `to_c`. 0 when the rest is not warmer.
pub fn decoction_liters(grain_kg: f64, water_liters: f64, from_c: f64, to_c: f64) -> f64 {
    decoction_boiled_at(grain_kg, water_liters, from_c, to_c, BOILING_C)
}

/// [`decoction_liters`] with the decoction boiled at `boil_c` (a published example's 210 °F).
fn decoction_boiled_at(
    grain_kg: f64,
    water_liters: f64,
    from_c: f64,
    to_c: f64,
    boil_c: f64,
) -> f64 {
    if to_c <= from_c || from_c >= boil_c {
        return 0.0;
    }
    let mash = water_liters + GRAIN_VOLUME_LITERS_PER_KG * grain_kg;
    finite_or_zero(mash * (to_c.min(boil_c) - from_c) / (boil_c - from_c))
}

/// Every step's water, in the mash's order, for `grain_kg` of mashed grain struck with
/// `strike_liters` of water. Unrounded litres are carried from step to step; the answer is rounded.
pub fn mash_water(steps: &[MashStep], grain_kg: f64, strike_liters: f64) -> Vec<MashStepWater> {
    let mut water = strike_liters.max(0.0);
    let mut previous: Option<f64> = None;
    steps
        .iter()
        .map(|s| {
            let mut answer = MashStepWater {
                mash_step_id: s.id,
                infusion_volume_liters: None,
                infusion_temperature_c: None,
                decoction_volume_liters: None,
                impossible: false,
            };
            if let Some(from) = previous {
                match s.kind {
                    MashStepType::Infusion => match infusion(
                        grain_kg,
                        water,
                        from,
                        s.temperature_c,
                        s.infuse_amount_liters,
                        s.infuse_temperature_c,
                    ) {
                        Infusion::Water {
                            liters,
                            temperature_c,
                        } => {
                            water += liters;
                            answer.infusion_volume_liters = Some(round_to(liters, 2));
                            answer.infusion_temperature_c = Some(round_to(temperature_c, 1));
                        }
                        Infusion::Impossible { temperature_c } => {
                            answer.impossible = true;
                            answer.infusion_temperature_c = Some(round_to(temperature_c, 1));
                        }
                    },
                    MashStepType::Decoction => {
                        answer.decoction_volume_liters = Some(round_to(
                            decoction_liters(grain_kg, water, from, s.temperature_c),
                            2,
                        ));
                    }
                    MashStepType::Temperature => {}
                }
            }
            previous = Some(s.temperature_c);
            answer
        })
        .collect()
}

/// The water of a recipe's step mash: struck with the equipment profile's strike water (its
/// volumes), else with the first step's own `infuse_amount_liters`, else at the default
/// thickness of 2.7 L per kg of mashed grain.
pub fn recipe_mash_water(
    input: &StatsInput<'_>,
    equipment: Option<&EquipmentProfile>,
    steps: &[MashStep],
) -> Vec<MashStepWater> {
    let grain = mashed_grain_kg(input);
    let strike = match (equipment, steps.first()) {
        (Some(profile), _) => volumes(profile, input).strike_water_liters,
        (
            None,
            Some(MashStep {
                infuse_amount_liters: Some(liters),
                ..
            }),
        ) => *liters,
        (None, _) => DEFAULT_MASH_THICKNESS_LITERS_PER_KG * grain,
    };
    mash_water(steps, grain, strike)
}

/// Litres added by the infusions after the strike (what the sparge no longer needs).
pub fn infused_liters(water: &[MashStepWater]) -> f64 {
    water.iter().filter_map(|w| w.infusion_volume_liters).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::OffsetDateTime;

    fn step(kind: MashStepType, temperature_c: f64) -> MashStep {
        MashStep {
            id: Uuid::new_v4(),
            recipe_id: Uuid::nil(),
            name: "rest".into(),
            kind,
            temperature_c,
            duration_minutes: 20.0,
            infuse_amount_liters: None,
            infuse_temperature_c: None,
            ramp_minutes: None,
            sort_order: 0,
            created_at: OffsetDateTime::UNIX_EPOCH,
        }
    }

    fn water(i: Infusion) -> (f64, f64) {
        match i {
            Infusion::Water {
                liters,
                temperature_c,
            } => (liters, temperature_c),
            Infusion::Impossible { .. } => panic!("impossible"),
        }
    }

    #[test]
    fn a_published_worked_example() {
        // Palmer's equation in US units as worked at freshbrewlog.blogspot.com ("How to do a
        // multi-rest infusion mash", 2009): 14 lb of grain in 14 qt at 130 °F, raised to 154 °F
        // with 210 °F water: (154 − 130)(2.8 + 14)/(210 − 154) = 7.2 qt ("7 qt").
        let (us, _) = water(infusion_with(
            0.2,
            14.0,
            14.0,
            130.0,
            154.0,
            None,
            Some(210.0),
        ));
        assert!((us - 7.2).abs() < 1e-9, "{us}");
        // The same mash in metric with 0.41: 6.35 kg, 13.25 L, 54.4 → 67.8 °C with 98.9 °C water
        // gives 6.82 L = 7.2 qt, within the rounding of Palmer's metric constant.
        let (liters, _) = water(infusion(
            6.350,
            13.249,
            (130.0 - 32.0) / 1.8,
            (154.0 - 32.0) / 1.8,
            None,
            Some((210.0 - 32.0) / 1.8),
        ));
        assert!((liters / 0.946_353 - 7.2).abs() < 0.05, "{liters}");
    }

    #[test]
    fn a_published_decoction() {
        // pocketbrewer.com, "How to use decoction volume": 12 qt of water and 10 lb of grain at
        // 145 °F, to 154 °F, boiled at 210 °F: "2.09 quarts". Here: (11.356 L + 0.67 × 4.536 kg)
        // × (67.78 − 62.78)/(98.89 − 62.78) = 1.99 L = 2.10 qt (the grain's volume constant is
        // the difference).
        let liters = decoction_boiled_at(
            4.535_924,
            11.356_24,
            (145.0 - 32.0) / 1.8,
            (154.0 - 32.0) / 1.8,
            (210.0 - 32.0) / 1.8,
        );
        let quarts = liters / 0.946_353;
        assert!((quarts - 2.09).abs() < 0.02, "{quarts}");
    }

    #[test]
    fn metric_infusions_and_their_inverse() {
        // 5 kg in 13.5 L from 40 to 63 °C with boiling water: 23 × 15.55 / 37 = 9.6662 L.
        let (liters, t) = water(infusion(5.0, 13.5, 40.0, 63.0, None, None));
        assert!((liters - 9.6662).abs() < 1e-4, "{liters}");
        assert_eq!(t, 100.0);
        // The same volume set by the brewer needs boiling water back.
        let (_, t) = water(infusion(5.0, 13.5, 40.0, 63.0, Some(liters), None));
        assert!((t - 100.0).abs() < 1e-9, "{t}");
        // Water at 85 °C needs more of it: 23 × 15.55 / 22.
        let (more, _) = water(infusion(5.0, 13.5, 40.0, 63.0, None, Some(85.0)));
        assert!((more - 16.2568).abs() < 1e-4, "{more}");
    }

    #[test]
    fn impossible_infusions() {
        // Water no hotter than the rest.
        assert!(matches!(
            infusion(5.0, 13.5, 63.0, 72.0, None, Some(70.0)),
            Infusion::Impossible { temperature_c } if temperature_c == 70.0
        ));
        // A rest below the one before: hot water cannot cool a mash.
        assert!(matches!(
            infusion(5.0, 13.5, 67.0, 63.0, None, None),
            Infusion::Impossible { .. }
        ));
        // A set volume too small: it would need water above boiling.
        assert!(matches!(
            infusion(5.0, 13.5, 40.0, 63.0, Some(2.0), None),
            Infusion::Impossible { temperature_c } if temperature_c > 100.0
        ));
        // The same rest again needs nothing.
        assert_eq!(
            water(infusion(5.0, 13.5, 63.0, 63.0, None, None)),
            (0.0, 100.0)
        );
    }

    #[test]
    fn a_step_mash_carries_its_water_forward() {
        let mut fixed = step(MashStepType::Infusion, 72.0);
        fixed.infuse_amount_liters = Some(8.0);
        let steps = [
            step(MashStepType::Infusion, 40.0),
            step(MashStepType::Infusion, 63.0),
            fixed,
            step(MashStepType::Decoction, 78.0),
            step(MashStepType::Temperature, 80.0),
        ];
        let w = mash_water(&steps, 5.0, 13.5);
        assert_eq!(
            w[0].infusion_volume_liters, None,
            "the strike is the first step's water"
        );
        assert_eq!(w[1].infusion_volume_liters, Some(9.67));
        assert_eq!(w[1].infusion_temperature_c, Some(100.0));
        // 8 L into 23.1662 L + 2.05 L of grain heat: 72 + 9 × 25.2162 / 8 = 100.37 → too hot.
        assert!(w[2].impossible);
        assert_eq!(w[2].infusion_volume_liters, None);
        // Decoction from 72 to 78 °C with 23.1662 L of water and 5 kg of grain:
        // (23.1662 + 3.35) × 6 / 28 = 5.6820 L.
        assert_eq!(w[3].decoction_volume_liters, Some(5.68));
        assert_eq!(
            w[4],
            MashStepWater {
                mash_step_id: steps[4].id,
                infusion_volume_liters: None,
                infusion_temperature_c: None,
                decoction_volume_liters: None,
                impossible: false
            }
        );
        assert!((infused_liters(&w) - 9.67).abs() < 1e-9);
    }
}
