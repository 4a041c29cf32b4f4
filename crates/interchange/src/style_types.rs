//! BeerXML's `STYLE/TYPE` of each BJCP 2021 style: `Lager`, `Ale`, `Wheat` or `Mixed` (BeerXML
//! also has `Mead` and `Cider`, which no beer style is). Decided per style from how the
//! guidelines have it fermented: lager yeast → `Lager`; a wheat beer (the wheat categories, the
//! wheat-based sours and wheatwine) → `Wheat`; a hybrid (cream ale, Kölsch, altbier, California
//! common) or a mixed fermentation (the Belgian and American sours and wild beers) → `Mixed`;
//! every other, the specialty categories included (their base style decides, and most are
//! ales), → `Ale`. `tests` checks every shipped style has its line.

use StyleType::{Ale, Lager, Mixed, Wheat};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StyleType {
    Lager,
    Ale,
    Wheat,
    Mixed,
}

impl StyleType {
    pub fn beerxml(self) -> &'static str {
        match self {
            Lager => "Lager",
            Ale => "Ale",
            Wheat => "Wheat",
            Mixed => "Mixed",
        }
    }
}

const TYPES: &[(&str, StyleType)] = &[
    ("1A", Lager),  // American Light Lager
    ("1B", Lager),  // American Lager
    ("1C", Mixed),  // Cream Ale
    ("1D", Wheat),  // American Wheat Beer
    ("2A", Lager),  // International Pale Lager
    ("2B", Lager),  // International Amber Lager
    ("2C", Lager),  // International Dark Lager
    ("3A", Lager),  // Czech Pale Lager
    ("3B", Lager),  // Czech Premium Pale Lager
    ("3C", Lager),  // Czech Amber Lager
    ("3D", Lager),  // Czech Dark Lager
    ("4A", Lager),  // Munich Helles
    ("4B", Lager),  // Festbier
    ("4C", Lager),  // Helles Bock
    ("5A", Lager),  // German Leichtbier
    ("5B", Mixed),  // Kölsch
    ("5C", Lager),  // German Helles Exportbier
    ("5D", Lager),  // German Pils
    ("6A", Lager),  // Märzen
    ("6B", Lager),  // Rauchbier
    ("6C", Lager),  // Dunkles Bock
    ("7A", Lager),  // Vienna Lager
    ("7B", Mixed),  // Altbier
    ("8A", Lager),  // Munich Dunkel
    ("8B", Lager),  // Schwarzbier
    ("9A", Lager),  // Doppelbock
    ("9B", Lager),  // Eisbock
    ("9C", Lager),  // Baltic Porter
    ("10A", Wheat), // Weissbier
    ("10B", Wheat), // Dunkles Weissbier
    ("10C", Wheat), // Weizenbock
    ("11A", Ale),   // Ordinary Bitter
    ("11B", Ale),   // Best Bitter
    ("11C", Ale),   // Strong Bitter
    ("12A", Ale),   // British Golden Ale
    ("12B", Ale),   // Australian Sparkling Ale
    ("12C", Ale),   // English IPA
    ("13A", Ale),   // Dark Mild
    ("13B", Ale),   // British Brown Ale
    ("13C", Ale),   // English Porter
    ("14A", Ale),   // Scottish Light
    ("14B", Ale),   // Scottish Heavy
    ("14C", Ale),   // Scottish Export
    ("15A", Ale),   // Irish Red Ale
    ("15B", Ale),   // Irish Stout
    ("15C", Ale),   // Irish Extra Stout
    ("16A", Ale),   // Sweet Stout
    ("16B", Ale),   // Oatmeal Stout
    ("16C", Ale),   // Tropical Stout
    ("16D", Ale),   // Foreign Extra Stout
    ("17A", Ale),   // British Strong Ale
    ("17B", Ale),   // Old Ale
    ("17C", Ale),   // Wee Heavy
    ("17D", Ale),   // English Barley Wine
    ("18A", Ale),   // Blonde Ale
    ("18B", Ale),   // American Pale Ale
    ("19A", Ale),   // American Amber Ale
    ("19B", Mixed), // California Common
    ("19C", Ale),   // American Brown Ale
    ("20A", Ale),   // American Porter
    ("20B", Ale),   // American Stout
    ("20C", Ale),   // Imperial Stout
    ("21A", Ale),   // American IPA
    ("21B", Ale),   // Specialty IPA
    ("21C", Ale),   // Hazy IPA
    ("22A", Ale),   // Double IPA
    ("22B", Ale),   // American Strong Ale
    ("22C", Ale),   // American Barleywine
    ("22D", Wheat), // Wheatwine
    ("23A", Wheat), // Berliner Weisse
    ("23B", Mixed), // Flanders Red Ale
    ("23C", Mixed), // Oud Bruin
    ("23D", Mixed), // Lambic
    ("23E", Mixed), // Gueuze
    ("23F", Mixed), // Fruit Lambic
    ("23G", Wheat), // Gose
    ("24A", Wheat), // Witbier
    ("24B", Ale),   // Belgian Pale Ale
    ("24C", Ale),   // Bière de Garde
    ("25A", Ale),   // Belgian Blond Ale
    ("25B", Ale),   // Saison
    ("25C", Ale),   // Belgian Golden Strong Ale
    ("26A", Ale),   // Belgian Single
    ("26B", Ale),   // Belgian Dubbel
    ("26C", Ale),   // Belgian Tripel
    ("26D", Ale),   // Belgian Dark Strong Ale
    ("27", Ale),    // Historical Beer
    ("28A", Mixed), // Brett Beer
    ("28B", Mixed), // Mixed-Fermentation Sour Beer
    ("28C", Mixed), // Wild Specialty Beer
    ("28D", Mixed), // Straight Sour Beer
    ("29A", Ale),   // Fruit Beer
    ("29B", Ale),   // Fruit and Spice Beer
    ("29C", Ale),   // Specialty Fruit Beer
    ("29D", Ale),   // Grape Ale
    ("30A", Ale),   // Spice, Herb, or Vegetable Beer
    ("30B", Ale),   // Autumn Seasonal Beer
    ("30C", Ale),   // Winter Seasonal Beer
    ("30D", Ale),   // Specialty Spice Beer
    ("31A", Ale),   // Alternative Grain Beer
    ("31B", Ale),   // Alternative Sugar Beer
    ("32A", Ale),   // Classic Style Smoked Beer
    ("32B", Ale),   // Specialty Smoked Beer
    ("33A", Ale),   // Wood-Aged Beer
    ("33B", Ale),   // Specialty Wood-Aged Beer
    ("34A", Ale),   // Commercial Specialty Beer
    ("34B", Ale),   // Mixed-Style Beer
    ("34C", Ale),   // Experimental Beer
    ("X1", Ale),    // Dorada Pampeana
    ("X2", Ale),    // IPA Argenta
    ("X3", Ale),    // Italian Grape Ale
    ("X4", Mixed),  // Catharina Sour
    ("X5", Lager),  // New Zealand Pilsner
];

/// The BeerXML type of the BJCP 2021 style `id`; `Ale` for an id not in the table.
pub(crate) fn style_type(id: &str) -> StyleType {
    TYPES
        .iter()
        .find(|(i, _)| *i == id)
        .map_or(Ale, |(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Style;

    #[test]
    fn every_shipped_style_has_a_type() {
        let styles: &[Style] = wort_domain::brewing::styles();
        assert_eq!(styles.len(), TYPES.len());
        for s in styles {
            assert!(TYPES.iter().any(|(i, _)| *i == s.id), "{}", s.id);
        }
        assert_eq!(style_type("5D"), Lager);
        assert_eq!(style_type("10A"), Wheat);
        assert_eq!(style_type("5B"), Mixed);
        assert_eq!(style_type("21A"), Ale);
    }
}
