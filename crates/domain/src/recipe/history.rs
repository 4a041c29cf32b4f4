//! A recipe's history: its versions, what changed between two of them (or between two recipes),
//! and its lineage.
//!
//! Every committed change to a recipe or its children belongs to a version. The newest version is
//! *open* while edits keep coming: an edit within [`COALESCE_WINDOW`] of the open version's first
//! edit joins it, so an autosaving editor makes one version per sitting, not hundreds. A later
//! edit, a name given to the version, or a brew session, copy or scaled copy made from the recipe
//! *freezes* it: its content is stored as a [`Snapshot`] and the next edit starts a new version.
//! Storing whole snapshots, and only when a version is frozen, is explained in the decision record
//! "Recipe history: frozen snapshots" (docs/decisions/0083-recipe-history.md).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::model::{RecipeChildKind, RecipeDetail};
use crate::equipment::EquipmentProfile;

/// Edits within this time of a version's first edit belong to it.
pub const COALESCE_WINDOW: Duration = Duration::minutes(10);

/// The most characters of a version's name (`POST /v1/recipes/{id}/versions`).
pub const MESSAGE_MAX_CHARS: usize = 200;

/// A frozen version: the recipe with its children, and the equipment profile it named as that
/// profile was then, so the version's figures are computed as they were.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub recipe: RecipeDetail,
    pub equipment: Option<EquipmentProfile>,
}

impl Snapshot {
    /// A stored snapshot read back.
    pub fn from_json(json: Value) -> Result<Snapshot, serde_json::Error> {
        let mut snapshot: Snapshot = serde_json::from_value(json)?;
        for w in &mut snapshot.recipe.water_additions {
            w.unit = w.agent.unit();
        }
        Ok(snapshot)
    }
}

/// One version of a recipe, as the list shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecipeVersion {
    pub number: i32,
    /// When its first edit was made.
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    /// When its last edit was made.
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
    /// The name the brewer gave it; null: none.
    pub message: Option<String>,
    /// What changed against the version before ("Created." for the first).
    pub summary: String,
    /// Whether it is still open: the recipe as it is now, later edits within the window joining it.
    pub current: bool,
}

/// A stored version: its listing and, once frozen, its content (`None`: it is the recipe as it
/// is now).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredVersion {
    pub number: i32,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    pub message: Option<String>,
    pub summary: Option<String>,
    /// Whether it is the open version (its content is the recipe as it is now).
    pub open: bool,
    /// The frozen content, when asked for; always `None` for the open version.
    pub snapshot: Option<Snapshot>,
}

/// One changed field: its path (a recipe field, or a child's field inside a child entry), and its
/// values before and after (null where it had none).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FieldChange {
    pub path: Vec<String>,
    /// Any JSON value: a number, a string, null…
    pub before: Value,
    pub after: Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Added,
    Removed,
    Changed,
}

/// A child added, removed or changed. Between versions `id` is the child's id in both; between two
/// recipes `id` is the child of the recipe asked about and `against_id` the one it is paired
/// with (null where there is none).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChildChange {
    pub kind: RecipeChildKind,
    pub id: Option<Uuid>,
    /// Only between two recipes (absent between versions): the other recipe's child, or null.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Uuid>))]
    pub against_id: Option<Option<Uuid>>,
    pub change: Change,
    /// Every field of an added or removed child; the changed fields of a changed one.
    pub fields: Vec<FieldChange>,
}

/// What changed from `before` to `after`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecipeDiff {
    pub fields: Vec<FieldChange>,
    pub children: Vec<ChildChange>,
}

/// The recipe's own fields that are not its content: who and when, its computed colour, where it
/// came from.
const RECIPE_BOOKKEEPING: &[&str] = &[
    "id",
    "user_id",
    "created_at",
    "updated_at",
    "est_color_srm",
    "parent_recipe_id",
    "parent_version",
    "source_url",
];

/// A child's fields that are not its content.
const CHILD_BOOKKEEPING: &[&str] = &["id", "recipe_id", "created_at", "updated_at"];

/// How two lists of children are paired.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pairing {
    /// Versions of one recipe: the same child keeps its id.
    ById,
    /// Two recipes: by case-insensitive name, then the rest by order; `sort_order` is not a
    /// difference.
    ByName,
}

/// What changed between two versions of one recipe (children paired by id).
pub fn diff_versions(before: &RecipeDetail, after: &RecipeDetail) -> RecipeDiff {
    diff(before, after, Pairing::ById)
}

/// What differs between two recipes: `recipe` against `other` (children paired by kind and
/// case-insensitive name, then by order).
pub fn compare_recipes(recipe: &RecipeDetail, other: &RecipeDetail) -> RecipeDiff {
    diff(other, recipe, Pairing::ByName)
}

fn diff(before: &RecipeDetail, after: &RecipeDetail, pairing: Pairing) -> RecipeDiff {
    let (Ok(Value::Object(b)), Ok(Value::Object(a))) =
        (serde_json::to_value(before), serde_json::to_value(after))
    else {
        return RecipeDiff::default();
    };
    let mut out = RecipeDiff::default();
    let list_names: BTreeSet<&str> = RecipeChildKind::ALL
        .iter()
        .map(RecipeChildKind::array_name)
        .collect();
    for (name, after_value) in &a {
        if RECIPE_BOOKKEEPING.contains(&name.as_str()) || list_names.contains(name.as_str()) {
            continue;
        }
        let before_value = b.get(name).unwrap_or(&Value::Null);
        if before_value != after_value {
            out.fields.push(FieldChange {
                path: vec![name.clone()],
                before: before_value.clone(),
                after: after_value.clone(),
            });
        }
    }
    for kind in RecipeChildKind::ALL {
        let empty = Vec::new();
        let items = |m: &Map<String, Value>| match m.get(kind.array_name()) {
            Some(Value::Array(items)) => items.clone(),
            _ => empty.clone(),
        };
        let (b_items, a_items) = (items(&b), items(&a));
        for (old, new) in pair(&b_items, &a_items, pairing) {
            if let Some(change) = child_change(kind, old, new, pairing) {
                out.children.push(change);
            }
        }
    }
    out
}

/// Pairs the children of two lists; `(Some, None)` was removed, `(None, Some)` added.
fn pair<'a>(
    before: &'a [Value],
    after: &'a [Value],
    pairing: Pairing,
) -> Vec<(Option<&'a Value>, Option<&'a Value>)> {
    let mut used = BTreeSet::new();
    let mut pairs: Vec<(Option<&Value>, Option<&Value>)> = Vec::new();
    let mut unpaired_after = Vec::new();
    let key = |v: &Value| match pairing {
        Pairing::ById => v.get("id").and_then(Value::as_str).map(str::to_owned),
        Pairing::ByName => child_name(v).map(str::to_lowercase),
    };
    for new in after {
        let found = key(new).and_then(|k| {
            before
                .iter()
                .enumerate()
                .position(|(i, old)| !used.contains(&i) && key(old).as_deref() == Some(k.as_str()))
        });
        match found {
            Some(i) => {
                used.insert(i);
                pairs.push((before.get(i), Some(new)));
            }
            None => unpaired_after.push(new),
        }
    }
    let mut rest_before = before
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, v)| v);
    for new in unpaired_after {
        // Across recipes what no name pairs pairs by order; within one recipe a new id is new.
        let old = if pairing == Pairing::ByName {
            rest_before.next()
        } else {
            None
        };
        pairs.push((old, Some(new)));
    }
    pairs.extend(rest_before.map(|old| (Some(old), None)));
    pairs
}

/// The name a child is known by: its `name`, or a water addition's agent.
fn child_name(v: &Value) -> Option<&str> {
    v.get("name")
        .or_else(|| v.get("agent"))
        .and_then(Value::as_str)
}

fn child_change(
    kind: RecipeChildKind,
    old: Option<&Value>,
    new: Option<&Value>,
    pairing: Pairing,
) -> Option<ChildChange> {
    let id_of = |v: Option<&Value>| {
        v.and_then(|v| v.get("id"))
            .and_then(Value::as_str)
            .and_then(|s| Uuid::parse_str(s).ok())
    };
    let skip = |name: &str| {
        CHILD_BOOKKEEPING.contains(&name) || (pairing == Pairing::ByName && name == "sort_order")
    };
    let empty = Map::new();
    let fields_of = |v: Option<&Value>| v.and_then(Value::as_object).unwrap_or(&empty).clone();
    let (b, a) = (fields_of(old), fields_of(new));
    let names: BTreeSet<&String> = b.keys().chain(a.keys()).collect();
    let mut fields = Vec::new();
    for name in names {
        if skip(name) {
            continue;
        }
        let before = b.get(name).cloned().unwrap_or(Value::Null);
        let after = a.get(name).cloned().unwrap_or(Value::Null);
        if before != after {
            fields.push(FieldChange {
                path: vec![name.clone()],
                before,
                after,
            });
        }
    }
    let change = match (old, new) {
        (Some(_), Some(_)) if fields.is_empty() => return None,
        (Some(_), Some(_)) => Change::Changed,
        (None, _) => Change::Added,
        (_, None) => Change::Removed,
    };
    let (id, against_id) = match pairing {
        Pairing::ById => (id_of(new).or_else(|| id_of(old)), None),
        Pairing::ByName => (id_of(new), Some(id_of(old))),
    };
    Some(ChildChange {
        kind,
        id,
        against_id,
        change,
        fields,
    })
}

/// One line saying what a diff holds, for the list of versions: "Changed efficiency; 1 hop
/// added, 2 fermentables changed." (`"No changes."` when nothing differs).
pub fn summarize(diff: &RecipeDiff) -> String {
    let mut parts = Vec::new();
    if !diff.fields.is_empty() {
        let names: Vec<String> = diff
            .fields
            .iter()
            .map(|f| {
                f.path
                    .iter()
                    .map(|p| field_words(p))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        parts.push(format!("Changed {}", names.join(", ")));
    }
    let mut counts: Vec<String> = Vec::new();
    for kind in RecipeChildKind::ALL {
        for (change, word) in [
            (Change::Added, "added"),
            (Change::Removed, "removed"),
            (Change::Changed, "changed"),
        ] {
            let n = diff
                .children
                .iter()
                .filter(|c| c.kind == kind && c.change == change)
                .count();
            if n > 0 {
                let noun = kind.singular().replace('_', " ");
                let plural = if n == 1 { "" } else { "s" };
                counts.push(format!("{n} {noun}{plural} {word}"));
            }
        }
    }
    if !counts.is_empty() {
        parts.push(counts.join(", "));
    }
    if parts.is_empty() {
        "No changes.".to_owned()
    } else {
        let mut text = parts.join("; ");
        text.push('.');
        text
    }
}

/// A recipe field as a summary names it: `boil_time_minutes` is "boil time", `equipment_id` "equipment
/// profile" (the unit or the id is the API's, not the brewer's word).
fn field_words(field: &str) -> String {
    match field {
        "equipment_id" => "equipment profile".to_owned(),
        "style_id" => "style guideline".to_owned(),
        "water_profile_id" => "source water".to_owned(),
        "target_water_profile_id" => "target water".to_owned(),
        "type" => "recipe type".to_owned(),
        other => {
            let bare = ["_liters", "_minutes", "_kg", "_grams", "_c", "_percent"]
                .iter()
                .find_map(|unit| other.strip_suffix(unit))
                .unwrap_or(other);
            bare.replace('_', " ")
        }
    }
}

/// The summary of a version against the one before it (`None` for the first version).
pub fn summary_of(previous: Option<&RecipeDetail>, this: &RecipeDetail) -> String {
    match previous {
        None => "Created.".to_owned(),
        Some(previous) => summarize(&diff_versions(previous, this)),
    }
}

/// The recipe as a version restores it onto the live recipe: the version's content with the live
/// recipe's own identity and bookkeeping (id, owner, creation, lineage).
pub fn restored(version: &RecipeDetail, live: &RecipeDetail) -> RecipeDetail {
    let mut out = version.clone();
    out.recipe.id = live.recipe.id;
    out.recipe.user_id = live.recipe.user_id.clone();
    out.recipe.created_at = live.recipe.created_at;
    out.recipe.parent_recipe_id = live.recipe.parent_recipe_id;
    out.recipe.parent_version = live.recipe.parent_version;
    out.recipe.source_url = live.recipe.source_url.clone();
    out
}

/// A recipe in a lineage.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LineageEntry {
    pub id: Uuid,
    pub name: String,
    /// The recipe it was made from (null for the oldest ancestor known).
    pub parent_recipe_id: Option<Uuid>,
    /// The parent's version it was made from.
    pub parent_version: Option<i32>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
}

/// `GET /v1/recipes/{id}/lineage`: where the recipe comes from and what was made from it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Lineage {
    /// Parent first, then its parent, up to the oldest ancestor still in the account.
    pub ancestors: Vec<LineageEntry>,
    /// Every copy made from it, and copies of those, oldest first (each names its parent).
    pub descendants: Vec<LineageEntry>,
}

/// How deep a lineage is followed either way: a chain of copies longer than this is cut (no
/// brewer copies a copy a hundred times; the bound keeps the answer small).
pub const LINEAGE_MAX: usize = 100;

/// Whether an open version started at `started` takes an edit made at `now`.
pub fn coalesces(started: OffsetDateTime, now: OffsetDateTime) -> bool {
    now - started < COALESCE_WINDOW
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recipe::{Recipe, RecipeType};
    use crate::recipe_children::{Hop, HopForm, HopUse};

    fn at(minute: i64) -> OffsetDateTime {
        OffsetDateTime::UNIX_EPOCH + Duration::minutes(minute)
    }

    fn recipe(name: &str) -> RecipeDetail {
        RecipeDetail {
            recipe: Recipe {
                id: Uuid::from_u128(1),
                user_id: "u".into(),
                name: name.into(),
                style: "IPA".into(),
                kind: RecipeType::AllGrain,
                batch_size_liters: 20.0,
                boil_time_minutes: 60.0,
                efficiency: 0.72,
                notes: None,
                equipment_id: None,
                style_id: None,
                water_profile_id: None,
                target_water_profile_id: None,
                parent_recipe_id: None,
                parent_version: None,
                source_url: None,
                est_color_srm: 5.0,
                created_at: at(0),
                updated_at: at(0),
            },
            fermentables: vec![],
            hops: vec![],
            yeasts: vec![],
            miscs: vec![],
            mash_steps: vec![],
            water_additions: vec![],
            fermentation_steps: vec![],
        }
    }

    fn hop(id: u128, name: &str, grams: f64, order: i32) -> Hop {
        Hop {
            id: Uuid::from_u128(id),
            recipe_id: Uuid::from_u128(1),
            catalog_id: None,
            name: name.into(),
            alpha_acid: 10.0,
            amount_grams: grams,
            time_minutes: 60.0,
            hop_use: HopUse::Boil,
            form: Some(HopForm::Pellet),
            temperature_c: None,
            sort_order: order,
            created_at: at(0),
        }
    }

    #[test]
    fn edits_within_ten_minutes_of_the_first_coalesce() {
        assert!(coalesces(at(0), at(9)));
        assert!(!coalesces(at(0), at(10)));
    }

    #[test]
    fn versions_pair_children_by_id_and_name_what_changed() {
        let mut before = recipe("IPA");
        before.hops = vec![hop(10, "Citra", 30.0, 0), hop(11, "Mosaic", 20.0, 1)];
        let mut after = before.clone();
        after.recipe.efficiency = 0.75;
        after.recipe.updated_at = at(5);
        after.hops[0].amount_grams = 40.0;
        after.hops.remove(1);
        after.hops.push(hop(12, "Simcoe", 15.0, 2));
        let d = diff_versions(&before, &after);
        assert_eq!(
            d.fields,
            vec![FieldChange {
                path: vec!["efficiency".into()],
                before: 0.72.into(),
                after: 0.75.into()
            }]
        );
        let changes: Vec<(Option<Uuid>, Change)> =
            d.children.iter().map(|c| (c.id, c.change)).collect();
        assert_eq!(
            changes,
            vec![
                (Some(Uuid::from_u128(10)), Change::Changed),
                (Some(Uuid::from_u128(12)), Change::Added),
                (Some(Uuid::from_u128(11)), Change::Removed),
            ]
        );
        assert_eq!(d.children[0].fields[0].path, vec!["amount_grams"]);
        assert_eq!(d.children[0].fields[0].after, Value::from(40.0));
        assert_eq!(
            summarize(&d),
            "Changed efficiency; 1 hop added, 1 hop removed, 1 hop changed."
        );
        assert_eq!(summarize(&diff_versions(&before, &before)), "No changes.");
        let mut longer = before.clone();
        longer.recipe.boil_time_minutes = 90.0;
        longer.recipe.equipment_id = Some(Uuid::from_u128(7));
        assert_eq!(
            summarize(&diff_versions(&before, &longer)),
            "Changed boil time, equipment profile."
        );
    }

    #[test]
    fn two_recipes_pair_by_name_ignoring_case_then_by_order() {
        let mut mine = recipe("Mine");
        mine.hops = vec![hop(20, "citra", 30.0, 0), hop(21, "Amarillo", 10.0, 1)];
        let mut theirs = recipe("Theirs");
        theirs.hops = vec![hop(30, "Centennial", 10.0, 0), hop(31, "CITRA", 30.0, 5)];
        let d = compare_recipes(&mine, &theirs);
        assert_eq!(d.fields[0].path, vec!["name"]);
        // "citra" pairs with "CITRA" by name, whatever the case and order (only the name's
        // case differs); Amarillo, which no name pairs, pairs by order with Centennial.
        let pairs: Vec<(Option<Uuid>, Option<Option<Uuid>>, Change)> = d
            .children
            .iter()
            .map(|c| (c.id, c.against_id, c.change))
            .collect();
        assert_eq!(
            pairs,
            vec![
                (
                    Some(Uuid::from_u128(20)),
                    Some(Some(Uuid::from_u128(31))),
                    Change::Changed
                ),
                (
                    Some(Uuid::from_u128(21)),
                    Some(Some(Uuid::from_u128(30))),
                    Change::Changed
                ),
            ]
        );
        assert_eq!(d.children[0].fields.len(), 1, "sort_order is no difference");
        assert_eq!(d.children[0].fields[0].path, vec!["name"]);
    }

    #[test]
    fn a_snapshot_reads_back_as_it_was_written() {
        let mut r = recipe("IPA");
        r.hops = vec![hop(10, "Citra", 30.5, 0)];
        let snap = Snapshot {
            recipe: r,
            equipment: None,
        };
        let json = serde_json::to_value(&snap).unwrap();
        let back = Snapshot::from_json(json).unwrap();
        assert_eq!(back, snap);
    }
}
