//! The seven kinds of recipe children: fermentables, hops, yeasts and miscs (the four
//! ingredients), mash steps, water additions and fermentation steps, with their enums, their
//! validated create inputs (`New…`) and partial updates (`…Patch`).
//!
//! Each child serializes exactly as the API's JSON has it (the OpenAPI document): JSON `type` is
//! the Rust field `kind`, JSON `use` is `hop_use` / `misc_use` (`use` is a Rust keyword), enums are
//! snake_case strings.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

pub use crate::brewing::HopForm;

/// A closed set of snake_case strings: the enum, its `ALL` list, `as_str` and `parse`.
///
/// `#[derive(Default)]` plus `#[default]` on a variant marks the create default. The test
/// `serde_names_match_as_str` checks that serde's snake_case and `as_str` agree.
macro_rules! text_enum {
    (
        $(#[$meta:meta])*
        $name:ident { $( $(#[$vmeta:meta])* $variant:ident => $text:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            pub const ALL: &[Self] = &[$(Self::$variant),+];

            pub const fn as_str(&self) -> &'static str {
                match self {
                    $(Self::$variant => $text),+
                }
            }

            pub fn parse(s: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.as_str() == s)
            }
        }
    };
}

/// The catalogue's own enums (a hop's purpose, a yeast's flocculation) are written the same way.
pub(crate) use text_enum;

text_enum! {
    /// What a fermentable is. Only `grain` and `adjunct` are mashed, so only they are scaled by
    /// the recipe's efficiency (docs/calculations.md).
    #[derive(Default)]
    FermentableType {
        #[default]
        Grain => "grain",
        Adjunct => "adjunct",
        Sugar => "sugar",
        Extract => "extract",
        DryExtract => "dry_extract",
        Fruit => "fruit",
        Juice => "juice",
        Honey => "honey",
        Other => "other",
    }
}

impl FermentableType {
    /// Mashed fermentables give up only part of their extract (the recipe's efficiency).
    pub fn is_mashed(&self) -> bool {
        matches!(self, Self::Grain | Self::Adjunct)
    }
}

text_enum! {
    /// When a fermentable goes in: into the `mash`, at the start of the `boil`, late in the boil
    /// (`late_boil`: after the pre-boil gravity is measured) or into the `fermenter`. Decides
    /// which gravities count it (docs/calculations.md): pre-boil gravity counts `mash` and
    /// `boil`; OG every one but `fermenter`; a `fermenter` addition's sugar ferments fully and
    /// adds to the ABV only. No create default of its own: it follows the type
    /// ([`FermentableAddition::default_for`]).
    FermentableAddition {
        Mash => "mash",
        Boil => "boil",
        LateBoil => "late_boil",
        Fermenter => "fermenter",
    }
}

impl FermentableAddition {
    /// `mash` for the mashed types (grain, adjunct), `boil` for every other: what wort assumed
    /// before fermentables said when they go in, so a recipe that says nothing keeps its numbers.
    pub fn default_for(kind: FermentableType) -> Self {
        if kind.is_mashed() {
            Self::Mash
        } else {
            Self::Boil
        }
    }

    /// In the kettle before the boil starts: counted by the pre-boil gravity.
    pub fn before_the_boil(&self) -> bool {
        matches!(self, Self::Mash | Self::Boil)
    }

    /// In the wort by the end of the boil: counted by the OG.
    pub fn in_the_wort(&self) -> bool {
        !matches!(self, Self::Fermenter)
    }
}

text_enum! {
    /// When a hop goes in; decides how much bitterness it gives (docs/calculations.md).
    #[derive(Default)]
    HopUse {
        #[default]
        Boil => "boil",
        DryHop => "dry_hop",
        Mash => "mash",
        FirstWort => "first_wort",
        Whirlpool => "whirlpool",
        Aroma => "aroma",
    }
}

text_enum! {
    #[derive(Default)]
    YeastType {
        #[default]
        Ale => "ale",
        Lager => "lager",
        Hybrid => "hybrid",
        Wheat => "wheat",
        Wine => "wine",
        Champagne => "champagne",
        Kveik => "kveik",
        Brett => "brett",
        Lacto => "lacto",
        Other => "other",
    }
}

text_enum! {
    /// Has no create default: a yeast's `form` is null unless given.
    YeastForm {
        Liquid => "liquid",
        Dry => "dry",
        Slant => "slant",
        Culture => "culture",
    }
}

text_enum! {
    #[derive(Default)]
    MiscType {
        Spice => "spice",
        Fining => "fining",
        WaterAgent => "water_agent",
        Herb => "herb",
        Flavor => "flavor",
        Wood => "wood",
        #[default]
        Other => "other",
    }
}

text_enum! {
    #[derive(Default)]
    MiscUse {
        Mash => "mash",
        Sparge => "sparge",
        #[default]
        Boil => "boil",
        Whirlpool => "whirlpool",
        Primary => "primary",
        Secondary => "secondary",
        Bottling => "bottling",
    }
}

text_enum! {
    #[derive(Default)]
    MashStepType {
        #[default]
        Infusion => "infusion",
        Temperature => "temperature",
        Decoction => "decoction",
    }
}

/// Create default of a misc's `amount_unit`.
pub const DEFAULT_MISC_AMOUNT_UNIT: &str = "g";
/// Create default of a misc's `time_minutes`.
pub const DEFAULT_MISC_TIME_MINUTES: f64 = 0.0;

/// Copies a patch value into a field when the patch carries one. With `T = Option<U>` this is also
/// the nullable case: `Some(None)` clears the field.
fn set<T: Clone>(field: &mut T, value: &Option<T>) {
    if let Some(v) = value {
        *field = v.clone();
    }
}

// ---------------------------------------------------------------------------------------------
// Fermentable

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Fermentable {
    pub id: Uuid,
    pub recipe_id: Uuid,
    /// The catalogue item it was filled from, if any; null once that item is deleted.
    pub catalog_id: Option<Uuid>,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: FermentableType,
    pub amount_kg: f64,
    pub color_srm: f64,
    pub yield_percent: f64,
    /// When it goes in (mash, boil, late boil, fermenter).
    pub added: FermentableAddition,
    pub origin: Option<String>,
    pub notes: Option<String>,
    pub sort_order: i32,
    #[serde(
        serialize_with = "crate::timestamp::serialize",
        deserialize_with = "crate::timestamp::deserialize"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// A validated create request with the defaults applied (`added` by the type when not sent);
/// `sort_order: None` appends.
#[derive(Debug, Clone, PartialEq)]
pub struct NewFermentable {
    pub catalog_id: Option<Uuid>,
    pub name: String,
    pub kind: FermentableType,
    pub amount_kg: f64,
    pub color_srm: f64,
    pub yield_percent: f64,
    pub added: FermentableAddition,
    pub origin: Option<String>,
    pub notes: Option<String>,
    pub sort_order: Option<i32>,
}

/// A validated partial update: `None` leaves a field alone; `Some(None)` clears a nullable one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FermentablePatch {
    pub catalog_id: Option<Option<Uuid>>,
    pub name: Option<String>,
    pub kind: Option<FermentableType>,
    pub amount_kg: Option<f64>,
    pub color_srm: Option<f64>,
    pub yield_percent: Option<f64>,
    pub added: Option<FermentableAddition>,
    pub origin: Option<Option<String>>,
    pub notes: Option<Option<String>>,
    pub sort_order: Option<i32>,
}

impl FermentablePatch {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    pub fn apply(&self, to: &mut Fermentable) {
        set(&mut to.catalog_id, &self.catalog_id);
        set(&mut to.name, &self.name);
        set(&mut to.kind, &self.kind);
        set(&mut to.amount_kg, &self.amount_kg);
        set(&mut to.color_srm, &self.color_srm);
        set(&mut to.yield_percent, &self.yield_percent);
        set(&mut to.added, &self.added);
        set(&mut to.origin, &self.origin);
        set(&mut to.notes, &self.notes);
        set(&mut to.sort_order, &self.sort_order);
    }
}

// ---------------------------------------------------------------------------------------------
// Hop

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Hop {
    pub id: Uuid,
    pub recipe_id: Uuid,
    /// The catalogue item it was filled from, if any; null once that item is deleted.
    pub catalog_id: Option<Uuid>,
    pub name: String,
    /// Percent, 0–100.
    pub alpha_acid: f64,
    pub amount_grams: f64,
    pub time_minutes: f64,
    #[serde(rename = "use")]
    pub hop_use: HopUse,
    /// Pellet, plug, leaf or extract (`brewing::hop_form`); null: unknown, counted as leaf.
    pub form: Option<HopForm>,
    /// °C of a hop stand (a `whirlpool` or `aroma` steep after flame-out); null: the fixed rules
    /// (a quarter of a whirlpool's minutes counts as boiling, an aroma hop counts its minutes
    /// of late boil). With a temperature, the stand counts as `brewing::hop_stand`'s share of
    /// boiling minutes. Always null for other uses (refused on them, cleared when a hop moves
    /// to one), so no temperature is stored and ignored.
    pub temperature_c: Option<f64>,
    pub sort_order: i32,
    #[serde(
        serialize_with = "crate::timestamp::serialize",
        deserialize_with = "crate::timestamp::deserialize"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// A validated create request with the defaults applied; `sort_order: None` appends.
#[derive(Debug, Clone, PartialEq)]
pub struct NewHop {
    pub catalog_id: Option<Uuid>,
    pub name: String,
    pub alpha_acid: f64,
    pub amount_grams: f64,
    pub time_minutes: f64,
    pub hop_use: HopUse,
    pub form: Option<HopForm>,
    pub temperature_c: Option<f64>,
    pub sort_order: Option<i32>,
}

/// A validated partial update: `None` leaves a field alone.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HopPatch {
    pub catalog_id: Option<Option<Uuid>>,
    pub name: Option<String>,
    pub alpha_acid: Option<f64>,
    pub amount_grams: Option<f64>,
    pub time_minutes: Option<f64>,
    pub hop_use: Option<HopUse>,
    pub form: Option<Option<HopForm>>,
    pub temperature_c: Option<Option<f64>>,
    pub sort_order: Option<i32>,
}

impl HopPatch {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Applies the patch. A hop moved to a use without a hop stand loses its temperature
    /// (unless the patch itself sends one, which is refused); a temperature the result cannot
    /// use is refused at `["temperature_c"]` (`recipe::rules::hop_temperature_violation`).
    pub fn apply(&self, to: &mut Hop) -> Result<(), crate::error::Violation> {
        set(&mut to.catalog_id, &self.catalog_id);
        set(&mut to.name, &self.name);
        set(&mut to.alpha_acid, &self.alpha_acid);
        set(&mut to.amount_grams, &self.amount_grams);
        set(&mut to.time_minutes, &self.time_minutes);
        set(&mut to.hop_use, &self.hop_use);
        set(&mut to.form, &self.form);
        set(&mut to.temperature_c, &self.temperature_c);
        set(&mut to.sort_order, &self.sort_order);
        if self.temperature_c.is_none()
            && self.hop_use.is_some()
            && !super::rules::hop_use_takes_temperature(to.hop_use)
        {
            to.temperature_c = None;
        }
        match super::rules::hop_temperature_violation(to.hop_use, to.temperature_c) {
            Some(violation) => Err(violation),
            None => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Yeast

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Yeast {
    pub id: Uuid,
    pub recipe_id: Uuid,
    /// The catalogue item it was filled from, if any; null once that item is deleted.
    pub catalog_id: Option<Uuid>,
    pub name: String,
    pub lab: Option<String>,
    pub product_id: Option<String>,
    #[serde(rename = "type")]
    pub kind: YeastType,
    pub form: Option<YeastForm>,
    /// Apparent attenuation, percent 0–100; null counts as 75 in the stats.
    pub attenuation: Option<f64>,
    pub min_temp_c: Option<f64>,
    pub max_temp_c: Option<f64>,
    pub amount: Option<f64>,
    pub amount_unit: Option<String>,
    pub notes: Option<String>,
    pub sort_order: i32,
    #[serde(
        serialize_with = "crate::timestamp::serialize",
        deserialize_with = "crate::timestamp::deserialize"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// A validated create request with the defaults applied; `sort_order: None` appends.
#[derive(Debug, Clone, PartialEq)]
pub struct NewYeast {
    pub catalog_id: Option<Uuid>,
    pub name: String,
    pub lab: Option<String>,
    pub product_id: Option<String>,
    pub kind: YeastType,
    pub form: Option<YeastForm>,
    pub attenuation: Option<f64>,
    pub min_temp_c: Option<f64>,
    pub max_temp_c: Option<f64>,
    pub amount: Option<f64>,
    pub amount_unit: Option<String>,
    pub notes: Option<String>,
    pub sort_order: Option<i32>,
}

/// A validated partial update: `None` leaves a field alone; `Some(None)` clears a nullable one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct YeastPatch {
    pub catalog_id: Option<Option<Uuid>>,
    pub name: Option<String>,
    pub lab: Option<Option<String>>,
    pub product_id: Option<Option<String>>,
    pub kind: Option<YeastType>,
    pub form: Option<Option<YeastForm>>,
    pub attenuation: Option<Option<f64>>,
    pub min_temp_c: Option<Option<f64>>,
    pub max_temp_c: Option<Option<f64>>,
    pub amount: Option<Option<f64>>,
    pub amount_unit: Option<Option<String>>,
    pub notes: Option<Option<String>>,
    pub sort_order: Option<i32>,
}

impl YeastPatch {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    pub fn apply(&self, to: &mut Yeast) {
        set(&mut to.catalog_id, &self.catalog_id);
        set(&mut to.name, &self.name);
        set(&mut to.lab, &self.lab);
        set(&mut to.product_id, &self.product_id);
        set(&mut to.kind, &self.kind);
        set(&mut to.form, &self.form);
        set(&mut to.attenuation, &self.attenuation);
        set(&mut to.min_temp_c, &self.min_temp_c);
        set(&mut to.max_temp_c, &self.max_temp_c);
        set(&mut to.amount, &self.amount);
        set(&mut to.amount_unit, &self.amount_unit);
        set(&mut to.notes, &self.notes);
        set(&mut to.sort_order, &self.sort_order);
    }
}

// ---------------------------------------------------------------------------------------------
// Misc (finings, salts, spices, flavourings…)

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Misc {
    pub id: Uuid,
    pub recipe_id: Uuid,
    /// The catalogue item it was filled from, if any; null once that item is deleted.
    pub catalog_id: Option<Uuid>,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: MiscType,
    #[serde(rename = "use")]
    pub misc_use: MiscUse,
    pub amount: f64,
    pub amount_unit: String,
    pub time_minutes: f64,
    pub notes: Option<String>,
    pub sort_order: i32,
    #[serde(
        serialize_with = "crate::timestamp::serialize",
        deserialize_with = "crate::timestamp::deserialize"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// A validated create request with the defaults applied; `sort_order: None` appends.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMisc {
    pub catalog_id: Option<Uuid>,
    pub name: String,
    pub kind: MiscType,
    pub misc_use: MiscUse,
    pub amount: f64,
    pub amount_unit: String,
    pub time_minutes: f64,
    pub notes: Option<String>,
    pub sort_order: Option<i32>,
}

/// A validated partial update: `None` leaves a field alone; `Some(None)` clears a nullable one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MiscPatch {
    pub catalog_id: Option<Option<Uuid>>,
    pub name: Option<String>,
    pub kind: Option<MiscType>,
    pub misc_use: Option<MiscUse>,
    pub amount: Option<f64>,
    pub amount_unit: Option<String>,
    pub time_minutes: Option<f64>,
    pub notes: Option<Option<String>>,
    pub sort_order: Option<i32>,
}

impl MiscPatch {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    pub fn apply(&self, to: &mut Misc) {
        set(&mut to.catalog_id, &self.catalog_id);
        set(&mut to.name, &self.name);
        set(&mut to.kind, &self.kind);
        set(&mut to.misc_use, &self.misc_use);
        set(&mut to.amount, &self.amount);
        set(&mut to.amount_unit, &self.amount_unit);
        set(&mut to.time_minutes, &self.time_minutes);
        set(&mut to.notes, &self.notes);
        set(&mut to.sort_order, &self.sort_order);
    }
}

// ---------------------------------------------------------------------------------------------
// Mash step

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MashStep {
    pub id: Uuid,
    pub recipe_id: Uuid,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: MashStepType,
    pub temperature_c: f64,
    pub duration_minutes: f64,
    pub infuse_amount_liters: Option<f64>,
    /// The infusion water's temperature when the brewer chooses it; null means boiling water
    /// (or, with `infuse_amount_liters` set, the temperature that volume needs).
    pub infuse_temperature_c: Option<f64>,
    pub ramp_minutes: Option<f64>,
    pub sort_order: i32,
    #[serde(
        serialize_with = "crate::timestamp::serialize",
        deserialize_with = "crate::timestamp::deserialize"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// A validated create request with the defaults applied; `sort_order: None` appends.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMashStep {
    pub name: String,
    pub kind: MashStepType,
    pub temperature_c: f64,
    pub duration_minutes: f64,
    pub infuse_amount_liters: Option<f64>,
    pub infuse_temperature_c: Option<f64>,
    pub ramp_minutes: Option<f64>,
    pub sort_order: Option<i32>,
}

/// A validated partial update: `None` leaves a field alone; `Some(None)` clears a nullable one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MashStepPatch {
    pub name: Option<String>,
    pub kind: Option<MashStepType>,
    pub temperature_c: Option<f64>,
    pub duration_minutes: Option<f64>,
    pub infuse_amount_liters: Option<Option<f64>>,
    pub infuse_temperature_c: Option<Option<f64>>,
    pub ramp_minutes: Option<Option<f64>>,
    pub sort_order: Option<i32>,
}

impl MashStepPatch {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    pub fn apply(&self, to: &mut MashStep) {
        set(&mut to.name, &self.name);
        set(&mut to.kind, &self.kind);
        set(&mut to.temperature_c, &self.temperature_c);
        set(&mut to.duration_minutes, &self.duration_minutes);
        set(&mut to.infuse_amount_liters, &self.infuse_amount_liters);
        set(&mut to.infuse_temperature_c, &self.infuse_temperature_c);
        set(&mut to.ramp_minutes, &self.ramp_minutes);
        set(&mut to.sort_order, &self.sort_order);
    }
}

// ---------------------------------------------------------------------------------------------
// Fermentation step

/// One rest of the fermentation plan: hold `temperature_c` for at most `days`, ended earlier
/// when the gravity falls to `until_gravity` or the apparent attenuation reaches
/// `until_attenuation_percent`, but not before `min_days` (whichever of them are set; a
/// condition without `days` waits for it; none set is a rest with no end of its own, ended by
/// hand).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FermentationStep {
    pub id: Uuid,
    pub recipe_id: Uuid,
    pub name: String,
    pub temperature_c: f64,
    /// Its most time.
    pub days: Option<f64>,
    /// The gravity or attenuation condition ends the step only this many days after it began;
    /// at most `days`.
    pub min_days: Option<f64>,
    pub until_gravity: Option<f64>,
    pub until_attenuation_percent: Option<f64>,
    pub sort_order: i32,
    #[serde(
        serialize_with = "crate::timestamp::serialize",
        deserialize_with = "crate::timestamp::deserialize"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// A validated create request; `sort_order: None` appends.
#[derive(Debug, Clone, PartialEq)]
pub struct NewFermentationStep {
    pub name: String,
    pub temperature_c: f64,
    pub days: Option<f64>,
    pub min_days: Option<f64>,
    pub until_gravity: Option<f64>,
    pub until_attenuation_percent: Option<f64>,
    pub sort_order: Option<i32>,
}

/// A validated partial update: `None` leaves a field alone; `Some(None)` clears a nullable one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FermentationStepPatch {
    pub name: Option<String>,
    pub temperature_c: Option<f64>,
    pub days: Option<Option<f64>>,
    pub min_days: Option<Option<f64>>,
    pub until_gravity: Option<Option<f64>>,
    pub until_attenuation_percent: Option<Option<f64>>,
    pub sort_order: Option<i32>,
}

impl FermentationStepPatch {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Applies the patch; a result whose `min_days` exceeds its `days` is refused
    /// (`recipe::rules::min_days_violation`).
    pub fn apply(&self, to: &mut FermentationStep) -> Result<(), crate::error::Violation> {
        set(&mut to.name, &self.name);
        set(&mut to.temperature_c, &self.temperature_c);
        set(&mut to.days, &self.days);
        set(&mut to.min_days, &self.min_days);
        set(&mut to.until_gravity, &self.until_gravity);
        set(
            &mut to.until_attenuation_percent,
            &self.until_attenuation_percent,
        );
        set(&mut to.sort_order, &self.sort_order);
        match super::rules::min_days_violation(to.days, to.min_days) {
            Some(violation) => Err(violation),
            None => Ok(()),
        }
    }
}

impl FermentationStep {
    pub fn to_new(&self) -> NewFermentationStep {
        NewFermentationStep {
            name: self.name.clone(),
            temperature_c: self.temperature_c,
            days: self.days,
            min_days: self.min_days,
            until_gravity: self.until_gravity,
            until_attenuation_percent: self.until_attenuation_percent,
            sort_order: Some(self.sort_order),
        }
    }
}

/// Each child as a new one with the same fields and place: what a copy or a scaled recipe
/// starts from.
impl Fermentable {
    pub fn to_new(&self) -> NewFermentable {
        NewFermentable {
            catalog_id: self.catalog_id,
            name: self.name.clone(),
            kind: self.kind,
            amount_kg: self.amount_kg,
            color_srm: self.color_srm,
            yield_percent: self.yield_percent,
            added: self.added,
            origin: self.origin.clone(),
            notes: self.notes.clone(),
            sort_order: Some(self.sort_order),
        }
    }
}

impl Hop {
    pub fn to_new(&self) -> NewHop {
        NewHop {
            catalog_id: self.catalog_id,
            name: self.name.clone(),
            alpha_acid: self.alpha_acid,
            amount_grams: self.amount_grams,
            time_minutes: self.time_minutes,
            hop_use: self.hop_use,
            form: self.form,
            temperature_c: self.temperature_c,
            sort_order: Some(self.sort_order),
        }
    }
}

impl Yeast {
    pub fn to_new(&self) -> NewYeast {
        NewYeast {
            catalog_id: self.catalog_id,
            name: self.name.clone(),
            lab: self.lab.clone(),
            product_id: self.product_id.clone(),
            kind: self.kind,
            form: self.form,
            attenuation: self.attenuation,
            min_temp_c: self.min_temp_c,
            max_temp_c: self.max_temp_c,
            amount: self.amount,
            amount_unit: self.amount_unit.clone(),
            notes: self.notes.clone(),
            sort_order: Some(self.sort_order),
        }
    }
}

impl Misc {
    pub fn to_new(&self) -> NewMisc {
        NewMisc {
            catalog_id: self.catalog_id,
            name: self.name.clone(),
            kind: self.kind,
            misc_use: self.misc_use,
            amount: self.amount,
            amount_unit: self.amount_unit.clone(),
            time_minutes: self.time_minutes,
            notes: self.notes.clone(),
            sort_order: Some(self.sort_order),
        }
    }
}

impl MashStep {
    pub fn to_new(&self) -> NewMashStep {
        NewMashStep {
            name: self.name.clone(),
            kind: self.kind,
            temperature_c: self.temperature_c,
            duration_minutes: self.duration_minutes,
            infuse_amount_liters: self.infuse_amount_liters,
            infuse_temperature_c: self.infuse_temperature_c,
            ramp_minutes: self.ramp_minutes,
            sort_order: Some(self.sort_order),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Water addition

text_enum! {
    /// A brewing salt, acid or acidulated malt. Salts are weighed in grams, `lactic_acid` and
    /// `phosphoric_acid` measured in millilitres (of `strength_percent` w/w), `acidulated_malt`
    /// weighed in kilograms (holding `acid_percent` lactic acid).
    WaterAgent {
        Gypsum => "gypsum",
        CalciumChloride => "calcium_chloride",
        EpsomSalt => "epsom_salt",
        TableSalt => "table_salt",
        BakingSoda => "baking_soda",
        Chalk => "chalk",
        SlakedLime => "slaked_lime",
        LacticAcid => "lactic_acid",
        PhosphoricAcid => "phosphoric_acid",
        AcidulatedMalt => "acidulated_malt",
    }
}

impl WaterAgent {
    /// The unit of `amount`: `g`, `ml` or `kg`.
    pub fn unit(&self) -> &'static str {
        match self {
            Self::LacticAcid | Self::PhosphoricAcid => "ml",
            Self::AcidulatedMalt => "kg",
            _ => "g",
        }
    }

    /// The strength assumed when none is given: 88 % lactic, 10 % phosphoric (the usual retail
    /// strengths).
    pub fn default_strength_percent(&self) -> Option<f64> {
        match self {
            Self::LacticAcid => Some(88.0),
            Self::PhosphoricAcid => Some(10.0),
            _ => None,
        }
    }

    /// Lactic acid in acidulated malt when none is given (Weyermann states 2 %).
    pub fn default_acid_percent(&self) -> Option<f64> {
        matches!(self, Self::AcidulatedMalt).then_some(2.0)
    }
}

text_enum! {
    /// Which water an addition goes into: the mash (strike) water or the sparge water.
    #[derive(Default)]
    WaterStep {
        #[default]
        Mash => "mash",
        Sparge => "sparge",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WaterAddition {
    pub id: Uuid,
    pub recipe_id: Uuid,
    pub agent: WaterAgent,
    /// g of a salt, ml of a liquid acid, kg of acidulated malt (`unit`).
    pub amount: f64,
    /// `g`, `ml` or `kg`, by agent. Not read back from JSON (a `&'static str` cannot be):
    /// [`crate::recipe::history::Snapshot::from_json`] sets it from the agent.
    #[serde(skip_deserializing)]
    pub unit: &'static str,
    /// % w/w of a liquid acid; null for other agents.
    pub strength_percent: Option<f64>,
    /// % lactic acid of acidulated malt; null for other agents.
    pub acid_percent: Option<f64>,
    pub step: WaterStep,
    pub sort_order: i32,
    #[serde(
        serialize_with = "crate::timestamp::serialize",
        deserialize_with = "crate::timestamp::deserialize"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// A validated create request with the defaults applied; `sort_order: None` appends.
#[derive(Debug, Clone, PartialEq)]
pub struct NewWaterAddition {
    pub agent: WaterAgent,
    pub amount: f64,
    pub strength_percent: Option<f64>,
    pub acid_percent: Option<f64>,
    pub step: WaterStep,
    pub sort_order: Option<i32>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct WaterAdditionPatch {
    pub agent: Option<WaterAgent>,
    pub amount: Option<f64>,
    pub strength_percent: Option<Option<f64>>,
    pub acid_percent: Option<Option<f64>>,
    pub step: Option<WaterStep>,
    pub sort_order: Option<i32>,
}

impl WaterAdditionPatch {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Applies the patch, then keeps the strengths consistent with the agent: a strength only
    /// where the agent has one, its default where it is missing.
    pub fn apply(&self, to: &mut WaterAddition) {
        set(&mut to.agent, &self.agent);
        set(&mut to.amount, &self.amount);
        set(&mut to.strength_percent, &self.strength_percent);
        set(&mut to.acid_percent, &self.acid_percent);
        set(&mut to.step, &self.step);
        set(&mut to.sort_order, &self.sort_order);
        to.unit = to.agent.unit();
        to.strength_percent = normal_strength(to.agent, to.strength_percent);
        to.acid_percent = normal_acid(to.agent, to.acid_percent);
    }
}

/// `strength_percent` as stored: the given one for an acid (its default when none), else none.
pub fn normal_strength(agent: WaterAgent, given: Option<f64>) -> Option<f64> {
    agent.default_strength_percent().map(|d| given.unwrap_or(d))
}

/// `acid_percent` as stored: the given one for acidulated malt (2 % when none), else none.
pub fn normal_acid(agent: WaterAgent, given: Option<f64>) -> Option<f64> {
    agent.default_acid_percent().map(|d| given.unwrap_or(d))
}

/// A strength sent for an agent that has none is a mistake worth telling (`strength_percent` on
/// gypsum, `acid_percent` on lactic acid…).
pub fn water_addition_violations(
    agent: WaterAgent,
    strength_percent: Option<f64>,
    acid_percent: Option<f64>,
) -> Vec<crate::error::Violation> {
    let mut v = Vec::new();
    if strength_percent.is_some() && agent.default_strength_percent().is_none() {
        v.push(crate::error::Violation::new(
            "custom",
            &["strength_percent"],
            "Only lactic_acid and phosphoric_acid take strength_percent",
        ));
    }
    if acid_percent.is_some() && agent.default_acid_percent().is_none() {
        v.push(crate::error::Violation::new(
            "custom",
            &["acid_percent"],
            "Only acidulated_malt takes acid_percent",
        ));
    }
    v
}

impl WaterAddition {
    pub fn to_new(&self) -> NewWaterAddition {
        NewWaterAddition {
            agent: self.agent,
            amount: self.amount,
            strength_percent: self.strength_percent,
            acid_percent: self.acid_percent,
            step: self.step,
            sort_order: Some(self.sort_order),
        }
    }

    /// The addition as a `water_agent` misc: how a BeerXML or BeerJSON export carries it (both
    /// formats list brewing salts and acids among the miscs).
    pub fn as_misc(&self) -> Misc {
        let what = match self.agent {
            WaterAgent::Gypsum => "Gypsum (CaSO4·2H2O)".to_owned(),
            WaterAgent::CalciumChloride => "Calcium chloride (CaCl2·2H2O)".to_owned(),
            WaterAgent::EpsomSalt => "Epsom salt (MgSO4·7H2O)".to_owned(),
            WaterAgent::TableSalt => "Table salt (NaCl)".to_owned(),
            WaterAgent::BakingSoda => "Baking soda (NaHCO3)".to_owned(),
            WaterAgent::Chalk => "Chalk (CaCO3)".to_owned(),
            WaterAgent::SlakedLime => "Slaked lime (Ca(OH)2)".to_owned(),
            WaterAgent::LacticAcid => {
                format!("Lactic acid {} %", self.strength_percent.unwrap_or(88.0))
            }
            WaterAgent::PhosphoricAcid => {
                format!(
                    "Phosphoric acid {} %",
                    self.strength_percent.unwrap_or(10.0)
                )
            }
            WaterAgent::AcidulatedMalt => {
                format!(
                    "Acidulated malt ({} % lactic)",
                    self.acid_percent.unwrap_or(2.0)
                )
            }
        };
        Misc {
            id: self.id,
            recipe_id: self.recipe_id,
            catalog_id: None,
            name: what,
            kind: MiscType::WaterAgent,
            misc_use: match self.step {
                WaterStep::Mash => MiscUse::Mash,
                WaterStep::Sparge => MiscUse::Sparge,
            },
            amount: self.amount,
            amount_unit: self.unit.to_owned(),
            time_minutes: 0.0,
            notes: None,
            sort_order: self.sort_order,
            created_at: self.created_at,
        }
    }

    /// The addition as the water calculator reads it.
    pub fn calc(&self) -> crate::brewing::water::Addition {
        use crate::brewing::water::Agent;
        let strength = self.strength_percent.unwrap_or(0.0);
        let agent = match self.agent {
            WaterAgent::Gypsum => Agent::Gypsum,
            WaterAgent::CalciumChloride => Agent::CalciumChloride,
            WaterAgent::EpsomSalt => Agent::EpsomSalt,
            WaterAgent::TableSalt => Agent::TableSalt,
            WaterAgent::BakingSoda => Agent::BakingSoda,
            WaterAgent::Chalk => Agent::Chalk,
            WaterAgent::SlakedLime => Agent::SlakedLime,
            WaterAgent::LacticAcid => Agent::LacticAcid(strength),
            WaterAgent::PhosphoricAcid => Agent::PhosphoricAcid(strength),
            WaterAgent::AcidulatedMalt => Agent::AcidulatedMalt(
                self.acid_percent
                    .or(self.agent.default_acid_percent())
                    .unwrap_or(0.0),
            ),
        };
        crate::brewing::water::Addition {
            agent,
            amount: self.amount,
            mash: self.step == WaterStep::Mash,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};
    use time::macros::datetime;

    fn names<T: Serialize>(all: &[T], as_str: impl Fn(&T) -> &'static str) {
        for v in all {
            assert_eq!(
                serde_json::to_value(v).unwrap(),
                Value::String(as_str(v).to_owned())
            );
        }
    }

    #[test]
    fn serde_names_match_as_str() {
        names(FermentableType::ALL, FermentableType::as_str);
        names(HopUse::ALL, HopUse::as_str);
        names(YeastType::ALL, YeastType::as_str);
        names(YeastForm::ALL, YeastForm::as_str);
        names(MiscType::ALL, MiscType::as_str);
        names(MiscUse::ALL, MiscUse::as_str);
        names(MashStepType::ALL, MashStepType::as_str);
        names(FermentableAddition::ALL, FermentableAddition::as_str);
    }

    #[test]
    fn additions_default_by_type_and_count_where_they_go_in() {
        use FermentableAddition as A;
        for t in FermentableType::ALL {
            let expected = if t.is_mashed() { A::Mash } else { A::Boil };
            assert_eq!(A::default_for(*t), expected, "{t:?}");
        }
        let before: Vec<_> = A::ALL.iter().filter(|a| a.before_the_boil()).collect();
        assert_eq!(
            before,
            [&A::Mash, &A::Boil],
            "late boil misses the pre-boil gravity"
        );
        let wort: Vec<_> = A::ALL.iter().filter(|a| a.in_the_wort()).collect();
        assert_eq!(wort, [&A::Mash, &A::Boil, &A::LateBoil]);
    }

    #[test]
    fn parse_round_trips_and_rejects_unknown() {
        for t in FermentableType::ALL {
            assert_eq!(FermentableType::parse(t.as_str()), Some(*t));
        }
        for u in HopUse::ALL {
            assert_eq!(HopUse::parse(u.as_str()), Some(*u));
        }
        assert_eq!(FermentableType::ALL.len(), 9);
        assert_eq!(HopUse::ALL.len(), 6);
        assert_eq!(YeastType::ALL.len(), 10);
        assert_eq!(YeastForm::ALL.len(), 4);
        assert_eq!(MiscType::ALL.len(), 7);
        assert_eq!(MiscUse::ALL.len(), 7);
        assert_eq!(MashStepType::ALL.len(), 3);
        assert_eq!(
            HopUse::parse("Boil"),
            None,
            "enum values are case-sensitive"
        );
        assert_eq!(MiscUse::parse("dry_hop"), None);
        assert_eq!(YeastForm::parse(""), None);
    }

    #[test]
    fn defaults_are_the_contract_create_defaults() {
        assert_eq!(FermentableType::default(), FermentableType::Grain);
        assert_eq!(HopUse::default(), HopUse::Boil);
        assert_eq!(YeastType::default(), YeastType::Ale);
        assert_eq!(MiscType::default(), MiscType::Other);
        assert_eq!(MiscUse::default(), MiscUse::Boil);
        assert_eq!(MashStepType::default(), MashStepType::Infusion);
    }

    #[test]
    fn only_grain_and_adjunct_are_mashed() {
        let mashed: Vec<_> = FermentableType::ALL
            .iter()
            .filter(|t| t.is_mashed())
            .collect();
        assert_eq!(mashed, [&FermentableType::Grain, &FermentableType::Adjunct]);
    }

    fn yeast() -> Yeast {
        Yeast {
            catalog_id: None,
            id: Uuid::nil(),
            recipe_id: Uuid::nil(),
            name: "US-05".into(),
            lab: Some("Fermentis".into()),
            product_id: None,
            kind: YeastType::Ale,
            form: Some(YeastForm::Dry),
            attenuation: Some(81.0),
            min_temp_c: None,
            max_temp_c: None,
            amount: None,
            amount_unit: None,
            notes: None,
            sort_order: 0,
            created_at: datetime!(2026-11-22 09:30:00.123 UTC),
        }
    }

    #[test]
    fn yeast_serializes_with_contract_names() {
        let v = serde_json::to_value(yeast()).unwrap();
        assert_eq!(v["type"], json!("ale"));
        assert_eq!(v["form"], json!("dry"));
        assert_eq!(v["product_id"], Value::Null);
        assert_eq!(v["created_at"], json!("2026-11-22T09:30:00.123Z"));
        assert!(v.get("kind").is_none());
    }

    #[test]
    fn hop_and_misc_serialize_use_and_type() {
        let hop = Hop {
            temperature_c: None,
            catalog_id: None,
            form: None,
            id: Uuid::nil(),
            recipe_id: Uuid::nil(),
            name: "Cascade".into(),
            alpha_acid: 5.5,
            amount_grams: 28.0,
            time_minutes: 60.0,
            hop_use: HopUse::FirstWort,
            sort_order: 3,
            created_at: datetime!(2026-11-22 09:30:00 UTC),
        };
        let v = serde_json::to_value(hop).unwrap();
        assert_eq!(v["use"], json!("first_wort"));
        assert!(v.get("hop_use").is_none());

        let misc = Misc {
            catalog_id: None,
            id: Uuid::nil(),
            recipe_id: Uuid::nil(),
            name: "Irish moss".into(),
            kind: MiscType::Fining,
            misc_use: MiscUse::Boil,
            amount: 5.0,
            amount_unit: DEFAULT_MISC_AMOUNT_UNIT.into(),
            time_minutes: 15.0,
            notes: None,
            sort_order: 0,
            created_at: datetime!(2026-11-22 09:30:00 UTC),
        };
        let v = serde_json::to_value(misc).unwrap();
        assert_eq!((&v["type"], &v["use"]), (&json!("fining"), &json!("boil")));
    }

    #[test]
    fn patch_changes_only_sent_fields_and_clears_nullables() {
        let before = yeast();
        let mut y = before.clone();
        YeastPatch::default().apply(&mut y);
        assert_eq!(y, before, "an empty patch changes nothing");
        assert!(YeastPatch::default().is_empty());

        let patch = YeastPatch {
            name: Some("WLP001".into()),
            lab: Some(None),
            attenuation: Some(Some(77.0)),
            sort_order: Some(4),
            ..Default::default()
        };
        assert!(!patch.is_empty());
        patch.apply(&mut y);
        assert_eq!(y.name, "WLP001");
        assert_eq!(y.lab, None, "Some(None) clears");
        assert_eq!(y.attenuation, Some(77.0));
        assert_eq!(y.form, Some(YeastForm::Dry), "untouched");
        assert_eq!(y.sort_order, 4);
        assert_eq!((y.id, y.created_at), (before.id, before.created_at));
    }

    #[test]
    fn mash_step_patch_sets_and_clears() {
        let mut step = MashStep {
            id: Uuid::nil(),
            recipe_id: Uuid::nil(),
            name: "Saccharification".into(),
            kind: MashStepType::Infusion,
            temperature_c: 66.0,
            duration_minutes: 60.0,
            infuse_amount_liters: Some(15.0),
            infuse_temperature_c: None,
            ramp_minutes: None,
            sort_order: 0,
            created_at: datetime!(2026-11-22 09:30:00 UTC),
        };
        MashStepPatch {
            kind: Some(MashStepType::Decoction),
            temperature_c: Some(68.5),
            infuse_amount_liters: Some(None),
            ramp_minutes: Some(Some(10.0)),
            ..Default::default()
        }
        .apply(&mut step);
        assert_eq!(step.kind, MashStepType::Decoction);
        assert_eq!(step.temperature_c, 68.5);
        assert_eq!(step.infuse_amount_liters, None);
        assert_eq!(step.ramp_minutes, Some(10.0));
        assert_eq!(step.duration_minutes, 60.0);
    }

    #[test]
    fn a_fermentation_steps_minimum_never_exceeds_its_most_time() {
        let mut step = FermentationStep {
            id: Uuid::nil(),
            recipe_id: Uuid::nil(),
            name: "Primary".into(),
            temperature_c: 18.0,
            days: Some(14.0),
            min_days: None,
            until_gravity: Some(1.012),
            until_attenuation_percent: None,
            sort_order: 0,
            created_at: datetime!(2026-11-22 09:30:00 UTC),
        };
        let min = |d: f64| FermentationStepPatch {
            min_days: Some(Some(d)),
            ..Default::default()
        };
        assert!(min(14.0).apply(&mut step).is_ok());
        assert_eq!(step.min_days, Some(14.0));
        let refused = min(15.0).apply(&mut step).unwrap_err();
        assert_eq!(
            (refused.code, refused.path),
            ("too_big", vec!["min_days".to_owned()])
        );
        // Shortening the days below the minimum is refused the same way.
        let shorter = FermentationStepPatch {
            days: Some(Some(7.0)),
            min_days: Some(Some(3.0)),
            ..Default::default()
        };
        assert!(shorter.apply(&mut step).is_ok());
        let too_short = FermentationStepPatch {
            days: Some(Some(2.0)),
            ..Default::default()
        };
        assert!(too_short.apply(&mut step).is_err());
        // Without days (waiting for the gravity alone) any minimum holds.
        let no_days = FermentationStepPatch {
            days: Some(None),
            min_days: Some(Some(30.0)),
            ..Default::default()
        };
        assert!(no_days.apply(&mut step).is_ok());
    }

    #[test]
    fn a_hop_stand_temperature_is_kept_only_where_it_is_used() {
        let stand = || {
            let mut h = crate::brewing::fixtures::hop(HopUse::Whirlpool, 10.0, 50.0, 20.0);
            h.temperature_c = Some(80.0);
            h
        };
        // Whirlpool to aroma: both are stands, the temperature stays.
        let mut h = stand();
        HopPatch {
            hop_use: Some(HopUse::Aroma),
            ..Default::default()
        }
        .apply(&mut h)
        .unwrap();
        assert_eq!((h.hop_use, h.temperature_c), (HopUse::Aroma, Some(80.0)));
        // Moved to the boil: cleared, not stored and ignored.
        let mut h = stand();
        HopPatch {
            hop_use: Some(HopUse::Boil),
            ..Default::default()
        }
        .apply(&mut h)
        .unwrap();
        assert_eq!((h.hop_use, h.temperature_c), (HopUse::Boil, None));
        // Moved to the boil with a temperature sent, or a temperature sent to a boil hop: refused.
        let mut h = stand();
        let refused = HopPatch {
            hop_use: Some(HopUse::DryHop),
            temperature_c: Some(Some(20.0)),
            ..Default::default()
        }
        .apply(&mut h)
        .unwrap_err();
        assert_eq!(refused.path, ["temperature_c"]);
        let mut boil = crate::brewing::fixtures::hop(HopUse::Boil, 10.0, 50.0, 60.0);
        assert!(
            HopPatch {
                temperature_c: Some(Some(90.0)),
                ..Default::default()
            }
            .apply(&mut boil)
            .is_err()
        );
        // Null is always fine.
        HopPatch {
            hop_use: Some(HopUse::Mash),
            temperature_c: Some(None),
            ..Default::default()
        }
        .apply(&mut stand())
        .unwrap();
        for u in HopUse::ALL {
            let takes = matches!(u, HopUse::Whirlpool | HopUse::Aroma);
            assert_eq!(
                crate::recipe::rules::hop_temperature_violation(*u, Some(80.0)).is_none(),
                takes,
                "{u:?}"
            );
            assert!(crate::recipe::rules::hop_temperature_violation(*u, None).is_none());
        }
    }
}
