//! BeerXML 1.0 and BeerJSON 1.0: reading recipe files into wort's recipes and writing them back
//! (docs/interchange.md). Pure functions over bytes and values: the HTTP adapter owns the request,
//! the transaction and the response.
//!
//! * [`import`]: a whole file → the recipes to create and the warnings to show, or an error that
//!   maps to `413`, `400` or `422`.
//! * [`export_beerjson_bytes`], [`export_beerxml`]: recipes → a document
//!   ([`export_beerjson`]: the same BeerJSON document as a tree of values).
//!
//! Hostile input is bounded before any work grows with it: the size is checked first, no DTD is
//! ever read (a DOCTYPE is refused outright), nesting and element counts are capped.

mod beerjson;
mod beerxml;
mod colours;
mod decode;
pub mod domain;
mod enums;
mod equipment;
mod estimates;
pub mod limits;
mod preview;
mod report;
mod style_types;
mod units;
mod water_agents;

use domain::{
    EquipmentProfile, NewFermentable, NewHop, NewMashStep, NewMisc, NewRecipe, NewWaterAddition,
    NewYeast, Violation,
};

pub use beerjson::export::{export_beerjson, export_beerjson_bytes};
pub use beerxml::export::export_beerxml;
pub use preview::preview;

/// The two interchange formats, as the request's `Content-Type` declares them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    BeerXml,
    BeerJson,
}

impl Format {
    /// The format a `Content-Type` header names (`application/xml`, `text/xml`,
    /// `application/json`, parameters such as `; charset=…` allowed), if any.
    pub fn from_content_type(content_type: &str) -> Option<Self> {
        let essence = content_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        match essence.as_str() {
            "application/xml" | "text/xml" => Some(Self::BeerXml),
            "application/json" => Some(Self::BeerJson),
            _ => None,
        }
    }
}

/// One recipe read from a file, ready to be created with its children, each list in file order
/// (`sort_order` = position in the file).
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedRecipe {
    pub recipe: NewRecipe,
    pub fermentables: Vec<NewFermentable>,
    pub hops: Vec<NewHop>,
    pub yeasts: Vec<NewYeast>,
    pub miscs: Vec<NewMisc>,
    /// Water-agent miscs that name a salt, acid or acidulated malt wort's water model knows.
    pub water_additions: Vec<NewWaterAddition>,
    pub mash_steps: Vec<NewMashStep>,
    /// The index in [`Import::equipment`] of the profile this recipe is brewed on, if any.
    pub equipment: Option<usize>,
    /// BeerXML's fermentation stages (`PRIMARY_AGE`/`PRIMARY_TEMP`…), BeerJSON's
    /// `fermentation.fermentation_steps`.
    pub fermentation_steps: Vec<domain::NewFermentationStep>,
    /// What the exporting program computed, for comparison (never stored).
    pub estimates: Estimates,
}

/// The exporting program's own numbers for a recipe, when the file carries them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Estimates {
    pub og: Option<f64>,
    pub ibu: Option<f64>,
    pub color_srm: Option<f64>,
}

/// Something read from the file but not kept as it was (an import report's `warnings`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The recipe's name as read from the file ("" before the name is known).
    pub recipe: String,
    /// Where in the file, as in a 422 detail (array indices as decimal strings).
    pub path: Vec<String>,
    pub message: String,
}

/// A successful import: every recipe of the file and the equipment profiles it carries, all to
/// be created in one transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    pub recipes: Vec<ImportedRecipe>,
    /// BeerXML `EQUIPMENT` records, BeerJSON's `equipments`: each distinct profile once.
    pub equipment: Vec<EquipmentProfile>,
    pub warnings: Vec<Warning>,
}

/// How to read BeerXML fermentable colours, which the format says are SRM (°L) but some
/// programs write in EBC (`?fermentable_color=` on the import route).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FermentableColor {
    /// SRM, unless the file's own colour estimate agrees with the grist read as EBC and not
    /// with it read as SRM: then EBC, converted (SRM = EBC × 0.508), with a warning.
    #[default]
    Auto,
    Srm,
    Ebc,
}

impl FermentableColor {
    pub const NAMES: &[&str] = &["auto", "srm", "ebc"];

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "auto" => Some(Self::Auto),
            "srm" => Some(Self::Srm),
            "ebc" => Some(Self::Ebc),
            _ => None,
        }
    }
}

/// What an import may be told besides the file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// BeerXML only: BeerJSON colours carry their unit.
    pub fermentable_color: FermentableColor,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// Larger than [`limits::MAX_FILE_BYTES`] → `413`.
    #[error("file larger than {limit} bytes")]
    TooLarge { limit: usize },
    /// Not parseable as the declared format (bad encoding, malformed XML or JSON) → `400`.
    #[error("not a parseable file: {0}")]
    Unparseable(String),
    /// Parseable, but not a usable recipe file → `422`, each path pointing into the file.
    #[error("not a usable recipe file")]
    Invalid(Vec<Violation>),
}

/// Reads every recipe of a BeerXML or BeerJSON file, with the default options.
pub fn import(bytes: &[u8], declared: Format) -> Result<Import, ImportError> {
    import_with(bytes, declared, ImportOptions::default())
}

/// Reads every recipe of a BeerXML or BeerJSON file.
pub fn import_with(
    bytes: &[u8],
    declared: Format,
    options: ImportOptions,
) -> Result<Import, ImportError> {
    if bytes.len() > limits::MAX_FILE_BYTES {
        return Err(ImportError::TooLarge {
            limit: limits::MAX_FILE_BYTES,
        });
    }
    match declared {
        Format::BeerXml => beerxml::import::import(bytes, options),
        Format::BeerJson => beerjson::import::import(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_name_formats() {
        assert_eq!(
            Format::from_content_type("application/xml"),
            Some(Format::BeerXml)
        );
        assert_eq!(
            Format::from_content_type("Text/XML; charset=ISO-8859-1"),
            Some(Format::BeerXml)
        );
        assert_eq!(
            Format::from_content_type("application/json; charset=utf-8"),
            Some(Format::BeerJson)
        );
        assert_eq!(Format::from_content_type("text/plain"), None);
        assert_eq!(Format::from_content_type(""), None);
    }
}
