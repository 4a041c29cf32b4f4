//! The ingredient inventory: what a brewer has on hand.

use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum InventoryCategory {
    Fermentable,
    Hop,
    Yeast,
    Misc,
}

impl InventoryCategory {
    /// Also the list order.
    pub const ALL: &[Self] = &[Self::Fermentable, Self::Hop, Self::Yeast, Self::Misc];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Fermentable => "fermentable",
            Self::Hop => "hop",
            Self::Yeast => "yeast",
            Self::Misc => "misc",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InventoryItem {
    pub id: Uuid,
    #[cfg_attr(feature = "openapi", schema(format = Uuid))]
    pub user_id: String,
    pub category: InventoryCategory,
    pub name: String,
    pub amount: f64,
    /// Free text, stored as typed and never rewritten; wort recognises the common units in it
    /// (see `unit_dimension`).
    pub amount_unit: String,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub form: Option<String>,
    pub origin: Option<String>,
    pub alpha_acid: Option<f64>,
    pub color_srm: Option<f64>,
    pub yield_percent: Option<f64>,
    pub attenuation: Option<f64>,
    pub year: Option<i32>,
    pub notes: Option<String>,
    /// The catalogue item it was filled from, if any; null once that item is deleted.
    pub catalog_id: Option<Uuid>,
    /// Price of one `amount_unit` (any currency; wort never converts it).
    pub price_per_unit: Option<f64>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt_date")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = Date))]
    pub best_before: Option<Date>,
    /// What `amount_unit` measures when wort recognises it (read-only); null for free text it
    /// does not recognise, which is then compared only with the same unit text.
    pub unit_dimension: Option<super::units::Dimension>,
    /// `amount` in the base unit of that dimension: grams, millilitres or items (read-only);
    /// null when the unit is not recognised.
    pub amount_base: Option<f64>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// The writable fields of an item, with defaults applied (create) — or the whole new state.
#[derive(Debug, Clone, PartialEq)]
pub struct NewInventoryItem {
    pub category: InventoryCategory,
    pub name: String,
    pub amount: f64,
    pub amount_unit: String,
    pub kind: Option<String>,
    pub form: Option<String>,
    pub origin: Option<String>,
    pub alpha_acid: Option<f64>,
    pub color_srm: Option<f64>,
    pub yield_percent: Option<f64>,
    pub attenuation: Option<f64>,
    pub year: Option<i32>,
    pub notes: Option<String>,
    pub catalog_id: Option<Uuid>,
    pub price_per_unit: Option<f64>,
    pub best_before: Option<Date>,
}

/// A partial update: `None` leaves a field alone; `Some(None)` clears a nullable one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InventoryPatch {
    pub category: Option<InventoryCategory>,
    pub name: Option<String>,
    pub amount: Option<f64>,
    pub amount_unit: Option<String>,
    pub kind: Option<Option<String>>,
    pub form: Option<Option<String>>,
    pub origin: Option<Option<String>>,
    pub alpha_acid: Option<Option<f64>>,
    pub color_srm: Option<Option<f64>>,
    pub yield_percent: Option<Option<f64>>,
    pub attenuation: Option<Option<f64>>,
    pub year: Option<Option<i32>>,
    pub notes: Option<Option<String>>,
    pub catalog_id: Option<Option<Uuid>>,
    pub price_per_unit: Option<Option<f64>>,
    pub best_before: Option<Option<Date>>,
}

impl InventoryPatch {
    pub fn is_empty(&self) -> bool {
        *self == InventoryPatch::default()
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct InventoryFilter {
    pub category: Option<InventoryCategory>,
    /// Case-insensitive literal substring of the name.
    pub q: Option<String>,
}
