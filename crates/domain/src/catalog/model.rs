//! Catalogue items: a name, other names it goes by, and the descriptive fields of its kind.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::UserId;
use crate::recipe_children::{FermentableType, MiscType, MiscUse, YeastForm, YeastType, text_enum};

/// The four kinds of catalogue items, one per kind of recipe ingredient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CatalogKind {
    Fermentable,
    Hop,
    Yeast,
    Misc,
}

impl CatalogKind {
    pub const ALL: [CatalogKind; 4] = [Self::Fermentable, Self::Hop, Self::Yeast, Self::Misc];

    /// As stored.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::Fermentable => "fermentable",
            Self::Hop => "hop",
            Self::Yeast => "yeast",
            Self::Misc => "misc",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.as_str() == s)
    }

    /// The catalogue kind of a recipe child; mash and fermentation steps have none.
    pub const fn of_child(kind: crate::recipe::RecipeChildKind) -> Option<Self> {
        use crate::recipe::RecipeChildKind as Child;
        match kind {
            Child::Fermentable => Some(Self::Fermentable),
            Child::Hop => Some(Self::Hop),
            Child::Yeast => Some(Self::Yeast),
            Child::Misc => Some(Self::Misc),
            Child::MashStep | Child::WaterAddition | Child::FermentationStep => None,
        }
    }

    /// The catalogue kind of an inventory category (the same four).
    pub const fn of_category(category: crate::inventory::InventoryCategory) -> Self {
        use crate::inventory::InventoryCategory as Category;
        match category {
            Category::Fermentable => Self::Fermentable,
            Category::Hop => Self::Hop,
            Category::Yeast => Self::Yeast,
            Category::Misc => Self::Misc,
        }
    }

    /// The collection's path segment (`/v1/catalog/hops`).
    pub const fn plural(&self) -> &'static str {
        match self {
            Self::Fermentable => "fermentables",
            Self::Hop => "hops",
            Self::Yeast => "yeasts",
            Self::Misc => "miscs",
        }
    }
}

text_enum! {
    /// Whose item it is: shipped with wort (read-only) or the account's own.
    CatalogSource {
        Builtin => "builtin",
        Mine => "mine",
    }
}

text_enum! {
    /// What a hop is mostly used for.
    HopPurpose {
        Bittering => "bittering",
        Aroma => "aroma",
        Dual => "dual",
    }
}

text_enum! {
    /// How readily a yeast drops out of suspension.
    Flocculation {
        Low => "low",
        MediumLow => "medium_low",
        Medium => "medium",
        MediumHigh => "medium_high",
        High => "high",
        VeryHigh => "very_high",
    }
}

/// A fermentable's descriptive fields; each may be unknown.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct FermentableDetails {
    #[serde(rename = "type")]
    pub kind: Option<FermentableType>,
    pub color_srm: Option<f64>,
    pub yield_percent: Option<f64>,
    pub origin: Option<String>,
    pub supplier: Option<String>,
    pub diastatic_power_lintner: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct HopDetails {
    /// Percent, 0–100.
    pub alpha_acid: Option<f64>,
    pub beta_acid: Option<f64>,
    pub origin: Option<String>,
    pub purpose: Option<HopPurpose>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct YeastDetails {
    pub lab: Option<String>,
    pub product_id: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<YeastType>,
    pub form: Option<YeastForm>,
    /// Typical apparent attenuation, percent.
    pub attenuation: Option<f64>,
    pub attenuation_min: Option<f64>,
    pub attenuation_max: Option<f64>,
    pub min_temp_c: Option<f64>,
    pub max_temp_c: Option<f64>,
    pub flocculation: Option<Flocculation>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct MiscDetails {
    #[serde(rename = "type")]
    pub kind: Option<MiscType>,
    #[serde(rename = "use")]
    pub misc_use: Option<MiscUse>,
    pub amount_unit: Option<String>,
}

/// The descriptive fields of an item, by kind.
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogDetails {
    Fermentable(FermentableDetails),
    Hop(HopDetails),
    Yeast(YeastDetails),
    Misc(MiscDetails),
}

impl CatalogDetails {
    pub fn kind(&self) -> CatalogKind {
        match self {
            Self::Fermentable(_) => CatalogKind::Fermentable,
            Self::Hop(_) => CatalogKind::Hop,
            Self::Yeast(_) => CatalogKind::Yeast,
            Self::Misc(_) => CatalogKind::Misc,
        }
    }

    /// Every field unknown.
    pub fn empty(kind: CatalogKind) -> Self {
        match kind {
            CatalogKind::Fermentable => Self::Fermentable(FermentableDetails::default()),
            CatalogKind::Hop => Self::Hop(HopDetails::default()),
            CatalogKind::Yeast => Self::Yeast(YeastDetails::default()),
            CatalogKind::Misc => Self::Misc(MiscDetails::default()),
        }
    }

    /// As a JSON object (what is stored).
    pub fn to_json(&self) -> serde_json::Value {
        let value = match self {
            Self::Fermentable(d) => serde_json::to_value(d),
            Self::Hop(d) => serde_json::to_value(d),
            Self::Yeast(d) => serde_json::to_value(d),
            Self::Misc(d) => serde_json::to_value(d),
        };
        // Plain structs of options, strings and numbers always serialize.
        value.unwrap_or(serde_json::Value::Null)
    }

    /// Read back from [`to_json`](Self::to_json)'s shape; fields missing or `null` are unknown.
    pub fn from_json(kind: CatalogKind, value: serde_json::Value) -> Result<Self, String> {
        let parsed = match kind {
            CatalogKind::Fermentable => serde_json::from_value(value).map(Self::Fermentable),
            CatalogKind::Hop => serde_json::from_value(value).map(Self::Hop),
            CatalogKind::Yeast => serde_json::from_value(value).map(Self::Yeast),
            CatalogKind::Misc => serde_json::from_value(value).map(Self::Misc),
        };
        parsed.map_err(|e| format!("{} details: {e}", kind.as_str()))
    }

    /// Sets the fields a patch sends (`null` clears one); the others stay.
    pub fn apply(
        &mut self,
        changes: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), String> {
        if changes.is_empty() {
            return Ok(());
        }
        let mut object = match self.to_json() {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        for (name, value) in changes {
            object.insert(name.clone(), value.clone());
        }
        *self = Self::from_json(self.kind(), serde_json::Value::Object(object))?;
        Ok(())
    }
}

/// A catalogue item as stored and served.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogItem {
    pub id: Uuid,
    /// `None` for a built-in item.
    pub owner: Option<UserId>,
    pub name: String,
    pub aliases: Vec<String>,
    pub details: CatalogDetails,
    pub notes: Option<String>,
}

impl CatalogItem {
    pub fn kind(&self) -> CatalogKind {
        self.details.kind()
    }

    pub fn source(&self) -> CatalogSource {
        match self.owner {
            Some(_) => CatalogSource::Mine,
            None => CatalogSource::Builtin,
        }
    }

    /// Its name and aliases [`fold`](super::search::fold)ed: what an imported ingredient's name
    /// is matched against.
    pub fn folded_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::with_capacity(1 + self.aliases.len());
        for name in std::iter::once(&self.name).chain(&self.aliases) {
            let folded = super::search::fold(name);
            if !folded.is_empty() && !names.contains(&folded) {
                names.push(folded);
            }
        }
        names
    }

    /// The normalised text a search compares with (see [`search`](super::search)).
    pub fn search_text(&self) -> String {
        let mut names: Vec<&str> = vec![&self.name];
        names.extend(self.aliases.iter().map(String::as_str));
        match &self.details {
            CatalogDetails::Yeast(y) => {
                names.extend(y.lab.as_deref());
                names.extend(y.product_id.as_deref());
            }
            CatalogDetails::Fermentable(f) => names.extend(f.supplier.as_deref()),
            CatalogDetails::Hop(_) | CatalogDetails::Misc(_) => {}
        }
        super::search::search_text(&names)
    }
}

/// The JSON of an item: the fields every kind has, then the kind's own
/// ([`CatalogFermentable`] & co. document each shape).
impl Serialize for CatalogItem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct View<'a, D> {
            id: Uuid,
            source: CatalogSource,
            name: &'a str,
            aliases: &'a [String],
            #[serde(flatten)]
            details: &'a D,
            notes: Option<&'a str>,
        }
        fn view<'a, D>(item: &'a CatalogItem, details: &'a D) -> View<'a, D> {
            View {
                id: item.id,
                source: item.source(),
                name: &item.name,
                aliases: &item.aliases,
                details,
                notes: item.notes.as_deref(),
            }
        }
        match &self.details {
            CatalogDetails::Fermentable(d) => view(self, d).serialize(serializer),
            CatalogDetails::Hop(d) => view(self, d).serialize(serializer),
            CatalogDetails::Yeast(d) => view(self, d).serialize(serializer),
            CatalogDetails::Misc(d) => view(self, d).serialize(serializer),
        }
    }
}

/// The documented shape of an item of each kind (what [`CatalogItem`] serializes to).
macro_rules! documented_item {
    ($(#[$meta:meta])* $name:ident, $details:ty) => {
        $(#[$meta])*
        #[derive(Serialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[allow(dead_code)]
        pub struct $name {
            id: Uuid,
            source: CatalogSource,
            name: String,
            /// Other names it goes by; a search finds it by any of them.
            aliases: Vec<String>,
            #[serde(flatten)]
            details: $details,
            notes: Option<String>,
        }
    };
}

documented_item!(
    /// A fermentable of the ingredient catalogue.
    CatalogFermentable,
    FermentableDetails
);
documented_item!(
    /// A hop of the ingredient catalogue.
    CatalogHop,
    HopDetails
);
documented_item!(
    /// A yeast of the ingredient catalogue.
    CatalogYeast,
    YeastDetails
);
documented_item!(
    /// A misc of the ingredient catalogue.
    CatalogMisc,
    MiscDetails
);

/// A validated create request.
#[derive(Debug, Clone, PartialEq)]
pub struct NewCatalogItem {
    pub name: String,
    pub aliases: Vec<String>,
    pub details: CatalogDetails,
    pub notes: Option<String>,
}

/// A validated partial update: `None` leaves a field alone; `Some(None)` clears a nullable one;
/// `details` holds the descriptive fields sent, by their JSON names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CatalogPatch {
    pub name: Option<String>,
    pub aliases: Option<Vec<String>>,
    pub notes: Option<Option<String>>,
    pub details: serde_json::Map<String, serde_json::Value>,
}

/// What a list asks for: the kind, and an optional search.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogQuery {
    pub kind: CatalogKind,
    /// Already normalised ([`search::normalise_query`](super::search::normalise_query)); empty
    /// lists alphabetically.
    pub search: String,
    /// Only built-in items, or only the account's own; `None`: both.
    pub source: Option<CatalogSource>,
}
