//! The equipment profiles a file carries (BeerXML `EQUIPMENT`, BeerJSON `equipments`), each
//! kept once: a file that repeats a profile (Brewtarget writes the same `EQUIPMENT` into every
//! recipe) gives one profile, which each of those recipes names. Whether the account already has
//! an identical one is decided when the import is stored.

use crate::domain::{EquipmentProfile, check_profile};
use crate::report::Report;

/// The distinct profiles read so far, in file order.
#[derive(Debug, Default)]
pub(crate) struct Profiles(Vec<EquipmentProfile>);

impl Profiles {
    /// The index of `profile` among the file's profiles, added when it is new.
    pub fn add(&mut self, profile: EquipmentProfile) -> usize {
        match self.0.iter().position(|p| *p == profile) {
            Some(i) => i,
            None => {
                self.0.push(profile);
                self.0.len() - 1
            }
        }
    }

    pub fn get(&self, index: Option<usize>) -> Option<&EquipmentProfile> {
        index.and_then(|i| self.0.get(i))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn into_vec(self) -> Vec<EquipmentProfile> {
        self.0
    }
}

/// `profile` when the equipment rules accept it; else `None`, with a warning at `path` naming
/// every broken rule (a loss larger than the batch, say).
pub(crate) fn possible(
    profile: EquipmentProfile,
    path: &[String],
    r: &mut Report,
) -> Option<EquipmentProfile> {
    let broken = check_profile(&profile);
    if broken.is_empty() {
        return Some(profile);
    }
    let rules: Vec<String> = broken
        .iter()
        .map(|v| format!("{}: {}", v.path.join("."), v.message))
        .collect();
    r.warn(
        path,
        format!("equipment profile not kept: {}", rules.join("; ")),
    );
    None
}
