//! Hop form: pellets give more bitterness than whole cones from the same alpha acid.
//!
//! Tinseth fitted his curve on whole-cone (leaf) data, so leaf is the reference (1.0); pellets,
//! whose lupulin is broken open, are taken 10 % better and plugs (pressed leaf) 2 % better. These
//! are Brewtarget's factors (`Recipe::ibuFromHop`: `case Hop::Plug: hopUtilization *= 1.02`,
//! `case Hop::Pellet: hopUtilization *= 1.10`), which multiply Tinseth's utilisation.

use serde::{Deserialize, Serialize};

/// Utilisation factor of pellets over whole cones.
pub const PELLET_FACTOR: f64 = 1.10;
/// Utilisation factor of plugs over whole cones.
pub const PLUG_FACTOR: f64 = 1.02;

/// The physical form of a hop addition; `null` in the API means unknown and counts as leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum HopForm {
    Pellet,
    Plug,
    Leaf,
    Extract,
}

impl HopForm {
    pub const ALL: &[Self] = &[Self::Pellet, Self::Plug, Self::Leaf, Self::Extract];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Pellet => "pellet",
            Self::Plug => "plug",
            Self::Leaf => "leaf",
            Self::Extract => "extract",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.as_str() == s)
    }
}

/// The factor a form multiplies Tinseth's utilisation by: pellet 1.10, plug 1.02, leaf, extract
/// and unknown 1.0. (Brewtarget gives extract no bonus either: its alpha acid is measured as
/// sold, already isomerised or not, so the curve is applied as is.)
pub fn form_factor(form: Option<HopForm>) -> f64 {
    match form {
        Some(HopForm::Pellet) => PELLET_FACTOR,
        Some(HopForm::Plug) => PLUG_FACTOR,
        Some(HopForm::Leaf | HopForm::Extract) | None => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_are_brewtargets() {
        assert_eq!(form_factor(Some(HopForm::Pellet)), 1.10);
        assert_eq!(form_factor(Some(HopForm::Plug)), 1.02);
        assert_eq!(form_factor(Some(HopForm::Leaf)), 1.0);
        assert_eq!(form_factor(Some(HopForm::Extract)), 1.0);
        assert_eq!(form_factor(None), 1.0);
    }

    #[test]
    fn names_round_trip_and_match_serde() {
        for f in HopForm::ALL {
            assert_eq!(HopForm::parse(f.as_str()), Some(*f));
            assert_eq!(serde_json::to_value(f).unwrap(), f.as_str());
        }
        assert_eq!(HopForm::parse("Pellet"), None, "names are lower case");
    }
}
