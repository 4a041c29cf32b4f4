//! The catalogue use cases, and what a recipe child or an inventory item takes from the item it
//! is linked to.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};
use uuid::Uuid;

use super::model::{
    CatalogDetails, CatalogItem, CatalogKind, CatalogPatch, CatalogQuery, CatalogSource,
    NewCatalogItem,
};
use super::ports::CatalogRepository;
use super::rules::{builtin_is_read_only, unknown_catalog_id};
use super::search::{fold, normalise_query};
use crate::page::{Page, PageRequest};
use crate::ports::Clock;
use crate::recipe::NewRecipeWithIngredients;
use crate::{DomainError, DomainResult, UserId};

pub struct CatalogService {
    items: Arc<dyn CatalogRepository>,
    clock: Arc<dyn Clock>,
}

impl CatalogService {
    pub fn new(items: Arc<dyn CatalogRepository>, clock: Arc<dyn Clock>) -> Self {
        CatalogService { items, clock }
    }

    /// Built-in items and the account's own (or only those of `source`); `q` searches (see
    /// [`search`](super::search)).
    pub async fn list(
        &self,
        user: UserId,
        kind: CatalogKind,
        q: Option<&str>,
        source: Option<CatalogSource>,
        page: PageRequest,
    ) -> DomainResult<Page<CatalogItem>> {
        let query = CatalogQuery {
            kind,
            search: q.map(normalise_query).unwrap_or_default(),
            source,
        };
        self.items.list(user, &query, page).await
    }

    pub async fn get(
        &self,
        user: UserId,
        kind: CatalogKind,
        id: Uuid,
    ) -> DomainResult<CatalogItem> {
        self.items.get(user, kind, id).await
    }

    pub async fn create(&self, user: UserId, new: NewCatalogItem) -> DomainResult<CatalogItem> {
        let search_text = CatalogItem {
            id: Uuid::nil(),
            owner: Some(user),
            name: new.name.clone(),
            aliases: new.aliases.clone(),
            details: new.details.clone(),
            notes: None,
        }
        .search_text();
        self.items
            .create(user, new, search_text, self.clock.now())
            .await
    }

    /// Changes one of the account's own items; a built-in one is read-only (`409`).
    pub async fn update(
        &self,
        user: UserId,
        kind: CatalogKind,
        id: Uuid,
        patch: CatalogPatch,
    ) -> DomainResult<CatalogItem> {
        let mut item = self.own(user, kind, id).await?;
        if let Some(name) = patch.name {
            item.name = name;
        }
        if let Some(aliases) = patch.aliases {
            item.aliases = aliases;
        }
        if let Some(notes) = patch.notes {
            item.notes = notes;
        }
        item.details
            .apply(&patch.details)
            .map_err(DomainError::Internal)?;
        let search_text = item.search_text();
        self.items
            .replace(user, &item, search_text, self.clock.now())
            .await
    }

    /// Deletes one of the account's own items; a built-in one is read-only (`409`).
    pub async fn delete(&self, user: UserId, kind: CatalogKind, id: Uuid) -> DomainResult<()> {
        self.own(user, kind, id).await?;
        self.items.delete(user, kind, id).await
    }

    async fn own(&self, user: UserId, kind: CatalogKind, id: Uuid) -> DomainResult<CatalogItem> {
        let item = self.items.get(user, kind, id).await?;
        if item.owner.is_none() {
            return Err(builtin_is_read_only());
        }
        Ok(item)
    }

    /// The item a recipe child or an inventory item links to: one the account can see, of
    /// `kind` when the caller knows it, or a `422` at `catalog_id`.
    pub async fn link(
        &self,
        user: UserId,
        kind: Option<CatalogKind>,
        id: Uuid,
    ) -> DomainResult<CatalogItem> {
        let found = match kind {
            Some(kind) => self.items.get(user, kind, id).await,
            None => self.items.get_any(user, id).await,
        };
        match found {
            Err(DomainError::NotFound) => Err(DomainError::invalid(unknown_catalog_id(kind))),
            other => other,
        }
    }
}

/// Links each ingredient of imported recipes to the catalogue item its name names, when
/// exactly one item of its kind (built-in or the account's own) has that name or alias once
/// folded. Only the link is set: every value of the file stays. One query per kind.
pub async fn link_imported(
    items: &dyn CatalogRepository,
    user: UserId,
    recipes: &mut [NewRecipeWithIngredients],
) -> DomainResult<()> {
    async fn links(
        items: &dyn CatalogRepository,
        user: UserId,
        kind: CatalogKind,
        names: Vec<&str>,
    ) -> DomainResult<HashMap<String, Uuid>> {
        let mut folded: Vec<String> = names
            .iter()
            .map(|n| fold(n))
            .filter(|n| !n.is_empty())
            .collect();
        folded.sort();
        folded.dedup();
        if folded.is_empty() {
            return Ok(HashMap::new());
        }
        let candidates = items.named(user, kind, &folded).await?;
        Ok(unique_matches(&names, &candidates))
    }
    let fermentables = links(
        items,
        user,
        CatalogKind::Fermentable,
        recipes
            .iter()
            .flat_map(|r| r.fermentables.iter().map(|i| i.name.as_str()))
            .collect(),
    )
    .await?;
    let hops = links(
        items,
        user,
        CatalogKind::Hop,
        recipes
            .iter()
            .flat_map(|r| r.hops.iter().map(|i| i.name.as_str()))
            .collect(),
    )
    .await?;
    let yeasts = links(
        items,
        user,
        CatalogKind::Yeast,
        recipes
            .iter()
            .flat_map(|r| r.yeasts.iter().map(|i| i.name.as_str()))
            .collect(),
    )
    .await?;
    let miscs = links(
        items,
        user,
        CatalogKind::Misc,
        recipes
            .iter()
            .flat_map(|r| r.miscs.iter().map(|i| i.name.as_str()))
            .collect(),
    )
    .await?;
    for recipe in recipes.iter_mut() {
        for i in &mut recipe.fermentables {
            i.catalog_id = fermentables.get(&i.name).copied();
        }
        for i in &mut recipe.hops {
            i.catalog_id = hops.get(&i.name).copied();
        }
        for i in &mut recipe.yeasts {
            i.catalog_id = yeasts.get(&i.name).copied();
        }
        for i in &mut recipe.miscs {
            i.catalog_id = miscs.get(&i.name).copied();
        }
    }
    Ok(())
}

/// Each name that, folded, is the name or an alias of exactly one of `items`.
pub fn unique_matches(names: &[&str], items: &[CatalogItem]) -> HashMap<String, Uuid> {
    let mut by_name: HashMap<String, Vec<Uuid>> = HashMap::new();
    for item in items {
        for name in item.folded_names() {
            let ids = by_name.entry(name).or_default();
            if !ids.contains(&item.id) {
                ids.push(item.id);
            }
        }
    }
    names
        .iter()
        .filter_map(|name| match by_name.get(&fold(name)).map(Vec::as_slice) {
            Some([id]) => Some(((*name).to_owned(), *id)),
            _ => None,
        })
        .collect()
}

fn put(map: &mut Map<String, Value>, name: &str, value: impl Into<Value>) {
    let value = value.into();
    if !value.is_null() {
        map.insert(name.to_owned(), value);
    }
}

fn text(value: Option<&str>) -> Value {
    value.map_or(Value::Null, Value::from)
}

fn number(value: Option<f64>) -> Value {
    value.map_or(Value::Null, Value::from)
}

impl CatalogItem {
    /// The fields a recipe child of this kind takes from the item, by their JSON names, only
    /// those the item knows. A create sends its own values over these.
    pub fn child_fields(&self) -> Map<String, Value> {
        let mut m = Map::new();
        put(&mut m, "name", self.name.as_str());
        put(&mut m, "notes", text(self.notes.as_deref()));
        match &self.details {
            CatalogDetails::Fermentable(f) => {
                put(&mut m, "type", text(f.kind.as_ref().map(|k| k.as_str())));
                put(&mut m, "color_srm", number(f.color_srm));
                put(&mut m, "yield_percent", number(f.yield_percent));
                put(&mut m, "origin", text(f.origin.as_deref()));
            }
            CatalogDetails::Hop(h) => {
                // A hop child has no notes.
                m.remove("notes");
                put(&mut m, "alpha_acid", number(h.alpha_acid));
            }
            CatalogDetails::Yeast(y) => {
                put(&mut m, "lab", text(y.lab.as_deref()));
                put(&mut m, "product_id", text(y.product_id.as_deref()));
                put(&mut m, "type", text(y.kind.as_ref().map(|k| k.as_str())));
                put(&mut m, "form", text(y.form.as_ref().map(|f| f.as_str())));
                put(&mut m, "attenuation", number(y.attenuation));
                put(&mut m, "min_temp_c", number(y.min_temp_c));
                put(&mut m, "max_temp_c", number(y.max_temp_c));
            }
            CatalogDetails::Misc(x) => {
                put(&mut m, "type", text(x.kind.as_ref().map(|k| k.as_str())));
                put(&mut m, "use", text(x.misc_use.as_ref().map(|u| u.as_str())));
                put(&mut m, "amount_unit", text(x.amount_unit.as_deref()));
            }
        }
        m
    }

    /// The fields an inventory item takes from the item, by their JSON names: its category, and
    /// what the item knows of the inventory's descriptive fields.
    pub fn inventory_fields(&self) -> Map<String, Value> {
        let mut m = Map::new();
        put(&mut m, "category", self.kind().as_str());
        put(&mut m, "name", self.name.as_str());
        put(&mut m, "notes", text(self.notes.as_deref()));
        match &self.details {
            CatalogDetails::Fermentable(f) => {
                put(&mut m, "type", text(f.kind.as_ref().map(|k| k.as_str())));
                put(&mut m, "origin", text(f.origin.as_deref()));
                put(&mut m, "color_srm", number(f.color_srm));
                put(&mut m, "yield_percent", number(f.yield_percent));
            }
            CatalogDetails::Hop(h) => {
                put(&mut m, "origin", text(h.origin.as_deref()));
                put(&mut m, "alpha_acid", number(h.alpha_acid));
            }
            CatalogDetails::Yeast(y) => {
                put(&mut m, "type", text(y.kind.as_ref().map(|k| k.as_str())));
                put(&mut m, "form", text(y.form.as_ref().map(|f| f.as_str())));
                put(&mut m, "attenuation", number(y.attenuation));
            }
            CatalogDetails::Misc(x) => {
                put(&mut m, "type", text(x.kind.as_ref().map(|k| k.as_str())));
                put(&mut m, "amount_unit", text(x.amount_unit.as_deref()));
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::catalog::model::HopDetails;

    fn hop(name: &str, aliases: &[&str]) -> CatalogItem {
        CatalogItem {
            id: crate::new_id(),
            owner: None,
            name: name.to_owned(),
            aliases: aliases.iter().map(|a| (*a).to_owned()).collect(),
            details: CatalogDetails::Hop(HopDetails {
                alpha_acid: Some(3.5),
                ..HopDetails::default()
            }),
            notes: Some("noble".into()),
        }
    }

    #[test]
    fn a_name_links_only_to_a_single_item() {
        let saaz = hop("Saaz", &["Žatec"]);
        let a = hop("Galaxy", &[]);
        let b = hop("Galaxy", &[]);
        let links = unique_matches(&["ZATEC", "Galaxy", "Citra"], &[saaz.clone(), a, b]);
        assert_eq!(links.get("ZATEC"), Some(&saaz.id));
        assert_eq!(links.len(), 1, "two Galaxies: no link; no Citra: no link");
    }

    #[test]
    fn a_child_takes_only_what_the_item_knows() {
        let fields = hop("Saaz", &[]).child_fields();
        assert_eq!(fields.get("name"), Some(&Value::from("Saaz")));
        assert_eq!(fields.get("alpha_acid"), Some(&Value::from(3.5)));
        assert!(!fields.contains_key("notes"), "a hop child has no notes");
        let inventory = hop("Saaz", &[]).inventory_fields();
        assert_eq!(inventory.get("category"), Some(&Value::from("hop")));
        assert!(!inventory.contains_key("origin"), "unknown: not copied");
    }
}
