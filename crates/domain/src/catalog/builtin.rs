//! The built-in catalogue shipped with wort: four JSON files in `data/catalog/` (one array of
//! items per kind; where the numbers come from is in its `NOTICE.md`), embedded at build time
//! and seeded into the database when wort migrates.
//!
//! Each item has a stable `id` (a UUID: recipes link to it), `name`, `aliases`, `data_source`
//! (where the numbers come from; kept in the file, not served), `notes`, and the descriptive
//! fields of its kind with the API's names and vocabularies.

use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::model::{CatalogDetails, CatalogItem, CatalogKind};
use super::search::SEARCH_TEXT_VERSION;

/// The shipped files, by kind.
const FILES: [(CatalogKind, &str); 4] = [
    (
        CatalogKind::Fermentable,
        include_str!("../../data/catalog/fermentables.json"),
    ),
    (
        CatalogKind::Hop,
        include_str!("../../data/catalog/hops.json"),
    ),
    (
        CatalogKind::Yeast,
        include_str!("../../data/catalog/yeasts.json"),
    ),
    (
        CatalogKind::Misc,
        include_str!("../../data/catalog/miscs.json"),
    ),
];

#[derive(Deserialize)]
struct Record {
    id: Uuid,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    notes: Option<String>,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

/// The items of one kind's file. Every item must carry the kind's vocabularies exactly (an
/// unknown `type` or `flocculation` is an error, not a silent null).
pub fn parse(kind: CatalogKind, json: &str) -> Result<Vec<CatalogItem>, String> {
    let records: Vec<Record> =
        serde_json::from_str(json).map_err(|e| format!("{} catalogue: {e}", kind.plural()))?;
    records
        .into_iter()
        .map(|r| {
            let mut rest = r.rest;
            rest.remove("data_source");
            let details = CatalogDetails::from_json(kind, Value::Object(rest))
                .map_err(|e| format!("{} {:?}: {e}", kind.plural(), r.name))?;
            Ok(CatalogItem {
                id: r.id,
                owner: None,
                name: r.name,
                aliases: r.aliases,
                details,
                notes: r.notes,
            })
        })
        .collect()
}

/// Every built-in item, all kinds.
pub fn items() -> Result<Vec<CatalogItem>, String> {
    let mut all = Vec::new();
    for (kind, json) in FILES {
        all.extend(parse(kind, json)?);
    }
    Ok(all)
}

/// A fingerprint of the shipped data and of how search texts are written: when it matches the
/// one stored, the seed has nothing to do.
pub fn fingerprint() -> String {
    let mut hash = Sha256::new();
    hash.update(SEARCH_TEXT_VERSION.to_be_bytes());
    for (kind, json) in FILES {
        hash.update(kind.as_str().as_bytes());
        hash.update((json.len() as u64).to_be_bytes());
        hash.update(json.as_bytes());
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::catalog::model::HopPurpose;
    use std::collections::HashSet;

    #[test]
    fn the_shipped_catalogue_parses_with_unique_ids_and_names() {
        let items = items().unwrap();
        let mut ids = HashSet::new();
        for item in &items {
            assert!(ids.insert(item.id), "duplicate id {}", item.id);
            assert!(!item.name.trim().is_empty());
            assert!(!item.search_text().is_empty());
        }
        for kind in CatalogKind::ALL {
            assert!(
                items.iter().any(|i| i.kind() == kind),
                "no {} shipped",
                kind.plural()
            );
        }
        assert_eq!(fingerprint().len(), 64);
    }

    #[test]
    fn a_record_reads_its_kinds_fields_and_drops_the_data_source() {
        let json = r#"[{"id": "0193a000-0000-7000-8000-000000000002", "name": "Saaz",
            "aliases": ["Žatec"], "data_source": "x", "notes": null, "alpha_acid": 3.5,
            "beta_acid": null, "origin": "CZ", "purpose": "aroma"}]"#;
        let items = parse(CatalogKind::Hop, json).unwrap();
        let CatalogDetails::Hop(hop) = &items[0].details else {
            panic!("not a hop")
        };
        assert_eq!(hop.purpose, Some(HopPurpose::Aroma));
        assert_eq!((hop.alpha_acid, hop.beta_acid), (Some(3.5), None));
        assert_eq!(items[0].aliases, ["Žatec"]);
    }

    #[test]
    fn an_unknown_vocabulary_word_is_an_error() {
        let json = r#"[{"id": "0193a000-0000-7000-8000-000000000002", "name": "X",
            "aliases": [], "data_source": "x", "notes": null, "purpose": "bitter"}]"#;
        assert!(parse(CatalogKind::Hop, json).is_err());
    }
}
