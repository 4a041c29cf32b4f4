//! BeerXML's and BeerJSON's words for types, uses and forms, mapped to wort's enums.
//!
//! Both formats are matched after folding case and separators (`Dry Extract`, `dry extract`,
//! `dry_extract` are one word), so a single table serves both. `None` means "unknown": the caller
//! takes the default and warns.

use crate::domain::{
    FermentableType, HopForm, HopUse, MashStepType, MiscType, MiscUse, RecipeType, YeastForm,
    YeastType,
};

/// Lower case, with spaces, `_` and `-` removed.
pub(crate) fn fold(word: &str) -> String {
    word.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

pub(crate) fn recipe_type(word: &str) -> Option<RecipeType> {
    Some(match fold(word).as_str() {
        "allgrain" => RecipeType::AllGrain,
        "extract" => RecipeType::Extract,
        "partialmash" => RecipeType::PartialMash,
        _ => return None,
    })
}

pub(crate) fn fermentable_type(word: &str) -> Option<FermentableType> {
    use FermentableType as T;
    Some(match fold(word).as_str() {
        "grain" | "base" | "specialty" => T::Grain,
        "adjunct" => T::Adjunct,
        "sugar" => T::Sugar,
        "extract" | "liquidextract" => T::Extract,
        "dryextract" => T::DryExtract,
        "fruit" => T::Fruit,
        "juice" => T::Juice,
        "honey" => T::Honey,
        "other" => T::Other,
        _ => return None,
    })
}

/// BeerXML hop `USE` (and the converter's `use` extension in BeerJSON).
///
/// BeerXML's `Aroma` is a steep after flame-out for `TIME` minutes (the BeerXML 1.0 text: "Aroma
/// hops are added after the boil", and Brewfather, BeerSmith and Grainfather write it so, with
/// the steep's temperature beside it), so it is wort's `whirlpool`, not a late boil addition:
/// counted as boiling, Brewfather's Philter XPA comes out at 131 IBU instead of the file's 28.7.
/// `Hop Stand` is Grainfather's word and `Whirlpool` BeerSmith's for the same thing.
pub(crate) fn hop_use(word: &str) -> Option<HopUse> {
    Some(match fold(word).as_str() {
        "boil" => HopUse::Boil,
        "dryhop" => HopUse::DryHop,
        "mash" => HopUse::Mash,
        "firstwort" => HopUse::FirstWort,
        "aroma" | "whirlpool" | "hopstand" => HopUse::Whirlpool,
        _ => return None,
    })
}

pub(crate) fn yeast_type(word: &str) -> Option<YeastType> {
    use YeastType as T;
    Some(match fold(word).as_str() {
        "ale" => T::Ale,
        "lager" => T::Lager,
        "hybrid" => T::Hybrid,
        "wheat" => T::Wheat,
        "wine" => T::Wine,
        "champagne" => T::Champagne,
        "kveik" => T::Kveik,
        "brett" | "brettanomyces" => T::Brett,
        "lacto" | "lactobacillus" => T::Lacto,
        "other" | "bacteria" | "malolactic" | "mixedculture" | "pedio" | "spontaneous" => T::Other,
        _ => return None,
    })
}

pub(crate) fn yeast_form(word: &str) -> Option<YeastForm> {
    Some(match fold(word).as_str() {
        "liquid" => YeastForm::Liquid,
        "dry" => YeastForm::Dry,
        "slant" => YeastForm::Slant,
        "culture" => YeastForm::Culture,
        _ => return None,
    })
}

/// BeerXML's Pellet, Plug, Leaf; BeerJSON adds extract, "leaf (wet)" (a leaf) and powder (no
/// factor of its own in wort's hop forms: not kept).
pub(crate) fn hop_form(word: &str) -> Option<HopForm> {
    Some(match fold(word).as_str() {
        "pellet" | "pellets" => HopForm::Pellet,
        "plug" | "plugs" => HopForm::Plug,
        "leaf" | "whole" | "leaf(wet)" => HopForm::Leaf,
        "extract" => HopForm::Extract,
        _ => return None,
    })
}

pub(crate) fn misc_type(word: &str) -> Option<MiscType> {
    use MiscType as T;
    Some(match fold(word).as_str() {
        "spice" => T::Spice,
        "fining" => T::Fining,
        "wateragent" => T::WaterAgent,
        "herb" => T::Herb,
        "flavor" | "flavour" => T::Flavor,
        "wood" => T::Wood,
        "other" => T::Other,
        _ => return None,
    })
}

pub(crate) fn misc_use(word: &str) -> Option<MiscUse> {
    use MiscUse as U;
    Some(match fold(word).as_str() {
        "mash" => U::Mash,
        "sparge" => U::Sparge,
        "boil" => U::Boil,
        "whirlpool" | "hopstand" => U::Whirlpool,
        "primary" => U::Primary,
        "secondary" => U::Secondary,
        "bottling" => U::Bottling,
        _ => return None,
    })
}

pub(crate) fn mash_step_type(word: &str) -> Option<MashStepType> {
    Some(match fold(word).as_str() {
        "infusion" => MashStepType::Infusion,
        "temperature" => MashStepType::Temperature,
        "decoction" => MashStepType::Decoction,
        _ => return None,
    })
}

// ----- wort → file words

pub(crate) fn beerxml_recipe_type(t: RecipeType) -> &'static str {
    match t {
        RecipeType::AllGrain => "All Grain",
        RecipeType::Extract => "Extract",
        RecipeType::PartialMash => "Partial Mash",
    }
}

pub(crate) fn beerjson_recipe_type(t: RecipeType) -> &'static str {
    match t {
        RecipeType::AllGrain => "all grain",
        RecipeType::Extract => "extract",
        RecipeType::PartialMash => "partial mash",
    }
}

/// wort's hop use in BeerXML's words. A `whirlpool` steep is BeerXML's `Aroma` (every reader
/// knows that word; `Whirlpool` is not BeerXML 1.0). wort's own `aroma` is a late boil addition
/// counted as boiling for its time, which BeerXML calls `Boil`: written so, a reader computes the
/// same bitterness, and it comes back as `boil`.
pub(crate) fn beerxml_hop_use(u: HopUse) -> &'static str {
    match u {
        HopUse::Boil | HopUse::Aroma => "Boil",
        HopUse::DryHop => "Dry Hop",
        HopUse::Mash => "Mash",
        HopUse::FirstWort => "First Wort",
        HopUse::Whirlpool => "Aroma",
    }
}

pub(crate) fn beerxml_misc_use(u: MiscUse) -> &'static str {
    match u {
        MiscUse::Mash => "Mash",
        MiscUse::Sparge => "Sparge",
        MiscUse::Boil => "Boil",
        MiscUse::Whirlpool => "Whirlpool",
        MiscUse::Primary => "Primary",
        MiscUse::Secondary => "Secondary",
        MiscUse::Bottling => "Bottling",
    }
}

/// Title case of a snake_case enum word: `water_agent` → `Water Agent`.
pub(crate) fn title(word: &str) -> String {
    word.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_matches_both_formats() {
        assert_eq!(
            fermentable_type("Dry Extract"),
            Some(FermentableType::DryExtract)
        );
        assert_eq!(
            fermentable_type("dry extract"),
            Some(FermentableType::DryExtract)
        );
        assert_eq!(hop_use("Dry&Hop"), None);
        assert_eq!(hop_use("DRY HOP"), Some(HopUse::DryHop));
        assert_eq!(hop_use("Hop Stand"), Some(HopUse::Whirlpool));
        assert_eq!(
            hop_use("Aroma"),
            Some(HopUse::Whirlpool),
            "a steep after flame-out"
        );
        assert_eq!(hop_use("Whirlpool"), Some(HopUse::Whirlpool));
        assert_eq!(misc_type("Water Agent"), Some(MiscType::WaterAgent));
        assert_eq!(recipe_type("All Grain"), Some(RecipeType::AllGrain));
        assert_eq!(recipe_type("cider"), None);
    }

    #[test]
    fn written_words_read_back() {
        for u in HopUse::ALL {
            // wort's `aroma` is a late boil addition: BeerXML calls it Boil.
            let back = if *u == HopUse::Aroma {
                HopUse::Boil
            } else {
                *u
            };
            assert_eq!(hop_use(beerxml_hop_use(*u)), Some(back));
        }
        for u in MiscUse::ALL {
            assert_eq!(misc_use(beerxml_misc_use(*u)), Some(*u));
        }
        for t in RecipeType::ALL {
            assert_eq!(recipe_type(beerxml_recipe_type(*t)), Some(*t));
            assert_eq!(recipe_type(beerjson_recipe_type(*t)), Some(*t));
        }
        for t in FermentableType::ALL {
            assert_eq!(fermentable_type(&title(t.as_str())), Some(*t));
        }
        for t in YeastType::ALL {
            assert_eq!(yeast_type(&title(t.as_str())), Some(*t));
        }
        for t in MiscType::ALL {
            assert_eq!(misc_type(&title(t.as_str())), Some(*t));
        }
        for t in MashStepType::ALL {
            assert_eq!(mash_step_type(&title(t.as_str())), Some(*t));
        }
    }
}
