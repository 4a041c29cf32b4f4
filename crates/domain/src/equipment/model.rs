//! The equipment profile: what a brewer's kit loses, boils off and gets out of its hops.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

use super::rules::{DEFAULT_GRAIN_ABSORPTION_LITERS_PER_KG, DEFAULT_HOP_UTILIZATION_PERCENT};
use crate::recipe_children::text_enum;

text_enum! {
    /// How the water goes into the mash: split into strike and sparge water (`sparge`), or all of
    /// it into the mash at once with no sparge (`full_volume`: all-in-one systems, brew in a bag).
    #[derive(Default)]
    MashMethod {
        #[default]
        Sparge => "sparge",
        FullVolume => "full_volume",
    }
}

/// One brewer's equipment, with the field names of BeerJSON's equipment item.
///
/// Every volume is in litres. The profile says nothing about a recipe's ingredients: the recipe's
/// own `batch_size_liters` is the volume that goes into the fermenter, and the profile adds the
/// losses around it (as Brewtarget does), so one profile serves recipes of any size.
/// `batch_size_liters` here is the kit's usual batch, offered as the default for a new recipe and
/// the yardstick for "a loss larger than the batch".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EquipmentProfile {
    pub name: String,
    /// The kit's usual volume into the fermenter.
    pub batch_size_liters: f64,
    /// Water boiled off per hour of boil.
    pub boil_off_liters_per_hour: f64,
    /// Wort left in the kettle with the hops and hot break, and in the chiller.
    pub trub_chiller_loss_liters: f64,
    /// Wort that stays below the mash tun's outlet.
    pub mash_tun_deadspace_liters: f64,
    /// Water each kilogram of mashed grain keeps.
    #[serde(default = "default_grain_absorption")]
    pub grain_absorption_liters_per_kg: f64,
    /// Water added in the fermenter after the boil (partial-boil extract brewing).
    pub top_up_water_liters: f64,
    /// Beer left behind in the fermenter (yeast cake) at packaging.
    pub fermenter_loss_liters: f64,
    /// How well this kettle turns alpha acid into bitterness, relative to Tinseth's curve.
    #[serde(default = "default_hop_utilization")]
    pub hop_utilization_percent: f64,
    /// `sparge` (strike water, then sparge water) or `full_volume` (all the water in the mash).
    #[serde(default)]
    pub mash_method: MashMethod,
    /// What the mash tun holds, water and grain together; null: not said (no capacity check).
    #[serde(default)]
    pub mash_tun_volume_liters: Option<f64>,
    pub notes: Option<String>,
}

fn default_grain_absorption() -> f64 {
    DEFAULT_GRAIN_ABSORPTION_LITERS_PER_KG
}

fn default_hop_utilization() -> f64 {
    DEFAULT_HOP_UTILIZATION_PERCENT
}

impl EquipmentProfile {
    /// A profile that loses nothing and boils nothing off, with the documented defaults: the
    /// starting point a client edits, and the neutral element of the calculations.
    pub fn lossless(name: impl Into<String>, batch_size_liters: f64) -> Self {
        EquipmentProfile {
            name: name.into(),
            batch_size_liters,
            boil_off_liters_per_hour: 0.0,
            trub_chiller_loss_liters: 0.0,
            mash_tun_deadspace_liters: 0.0,
            grain_absorption_liters_per_kg: DEFAULT_GRAIN_ABSORPTION_LITERS_PER_KG,
            top_up_water_liters: 0.0,
            fermenter_loss_liters: 0.0,
            hop_utilization_percent: DEFAULT_HOP_UTILIZATION_PERCENT,
            mash_method: MashMethod::Sparge,
            mash_tun_volume_liters: None,
            notes: None,
        }
    }
}

/// A stored profile: `GET /v1/equipment/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Equipment {
    pub id: Uuid,
    #[cfg_attr(feature = "openapi", schema(format = Uuid))]
    pub user_id: String,
    #[serde(flatten)]
    pub profile: EquipmentProfile,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// A validated partial update: `None` leaves a field alone; `notes: Some(None)` clears it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EquipmentPatch {
    pub name: Option<String>,
    pub batch_size_liters: Option<f64>,
    pub boil_off_liters_per_hour: Option<f64>,
    pub trub_chiller_loss_liters: Option<f64>,
    pub mash_tun_deadspace_liters: Option<f64>,
    pub grain_absorption_liters_per_kg: Option<f64>,
    pub top_up_water_liters: Option<f64>,
    pub fermenter_loss_liters: Option<f64>,
    pub hop_utilization_percent: Option<f64>,
    pub mash_method: Option<MashMethod>,
    pub mash_tun_volume_liters: Option<Option<f64>>,
    pub notes: Option<Option<String>>,
}

impl EquipmentPatch {
    pub fn is_empty(&self) -> bool {
        *self == EquipmentPatch::default()
    }

    /// The profile with this patch applied.
    pub fn applied_to(&self, profile: &EquipmentProfile) -> EquipmentProfile {
        let mut p = profile.clone();
        let set = |to: &mut f64, from: Option<f64>| {
            if let Some(v) = from {
                *to = v;
            }
        };
        if let Some(name) = &self.name {
            p.name.clone_from(name);
        }
        set(&mut p.batch_size_liters, self.batch_size_liters);
        set(
            &mut p.boil_off_liters_per_hour,
            self.boil_off_liters_per_hour,
        );
        set(
            &mut p.trub_chiller_loss_liters,
            self.trub_chiller_loss_liters,
        );
        set(
            &mut p.mash_tun_deadspace_liters,
            self.mash_tun_deadspace_liters,
        );
        set(
            &mut p.grain_absorption_liters_per_kg,
            self.grain_absorption_liters_per_kg,
        );
        set(&mut p.top_up_water_liters, self.top_up_water_liters);
        set(&mut p.fermenter_loss_liters, self.fermenter_loss_liters);
        set(&mut p.hop_utilization_percent, self.hop_utilization_percent);
        if let Some(method) = self.mash_method {
            p.mash_method = method;
        }
        if let Some(volume) = self.mash_tun_volume_liters {
            p.mash_tun_volume_liters = volume;
        }
        if let Some(notes) = &self.notes {
            p.notes.clone_from(notes);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_apply_when_fields_are_missing() {
        let p: EquipmentProfile = serde_json::from_value(serde_json::json!({
            "name": "Kettle",
            "batch_size_liters": 20.0,
            "boil_off_liters_per_hour": 3.0,
            "trub_chiller_loss_liters": 1.0,
            "mash_tun_deadspace_liters": 0.5,
            "top_up_water_liters": 0.0,
            "fermenter_loss_liters": 0.5,
            "notes": null
        }))
        .unwrap();
        assert_eq!(p.grain_absorption_liters_per_kg, 1.0);
        assert_eq!(p.hop_utilization_percent, 100.0);
    }

    #[test]
    fn a_patch_changes_only_what_it_names() {
        let kit = EquipmentProfile::lossless("Pot", 20.0);
        let patch = EquipmentPatch {
            trub_chiller_loss_liters: Some(1.5),
            notes: Some(Some("dented".into())),
            ..EquipmentPatch::default()
        };
        let p = patch.applied_to(&kit);
        assert_eq!(p.trub_chiller_loss_liters, 1.5);
        assert_eq!(p.notes.as_deref(), Some("dented"));
        assert_eq!(p.batch_size_liters, 20.0);
        assert_eq!(EquipmentPatch::default().applied_to(&kit), kit);
    }

    #[test]
    fn serializes_with_the_beerjson_names() {
        let v = serde_json::to_value(EquipmentProfile::lossless("Pot", 20.0)).unwrap();
        let mut keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "batch_size_liters",
                "boil_off_liters_per_hour",
                "fermenter_loss_liters",
                "grain_absorption_liters_per_kg",
                "hop_utilization_percent",
                "mash_method",
                "mash_tun_deadspace_liters",
                "mash_tun_volume_liters",
                "name",
                "notes",
                "top_up_water_liters",
                "trub_chiller_loss_liters"
            ]
        );
    }
}
