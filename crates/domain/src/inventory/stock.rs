//! Inventory that follows the brewing: what a recipe needs from the stock, matched to items.
//!
//! Every figure here is computed from a recipe as JSON, the shape `GET /v1/recipes/{id}` answers
//! and a brew session's `recipe_snapshot` keeps (`fermentables[].amount_kg`, `hops[].amount_grams`,
//! `yeasts[].amount` + `amount_unit`, `miscs[].amount` + `amount_unit`), so a session is always
//! judged by what it was brewed from.
//!
//! * **Matching.** An ingredient is matched to the item naming the same catalogue item
//!   (`catalog_id`), else to an item of the same kind whose name is the same ignoring case. When
//!   several match, a catalogue match wins over a name match, an item whose unit converts wins
//!   over one whose unit does not, then the earliest `best_before` (none last), then the oldest id.
//! * **Units.** The amount needed is expressed in the item's `amount_unit` ([`super::units`]);
//!   an item whose unit cannot express it is reported `not_convertible`.
//! * A yeast without an amount counts as 1 `pkg`; a yeast amount without a unit is in `pkg`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::model::{InventoryCategory, InventoryItem};
use super::units::{self, Dimension};
use crate::brewing::round_to;
use crate::error::Violation;

/// What one recipe ingredient needs, in the recipe's own unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Need {
    pub kind: InventoryCategory,
    pub ingredient_id: Option<Uuid>,
    pub name: String,
    pub catalog_id: Option<Uuid>,
    pub amount: f64,
    pub unit: String,
    /// The item this need draws on whatever the matching rules say: a shortfall left by a
    /// partial deduction tops up the item it was short of (while that item exists).
    pub item_id: Option<Uuid>,
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn uuid(v: &Value, key: &str) -> Option<Uuid> {
    v.get(key)
        .and_then(Value::as_str)
        .and_then(|s| Uuid::parse_str(s).ok())
}

fn number(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

/// The four ingredient lists of a recipe (as JSON), in display order: fermentables, hops, yeasts,
/// miscs. Mash steps are not ingredients.
pub fn needs_of_recipe(recipe: &Value) -> Vec<Need> {
    let list = |key: &str| {
        recipe
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut needs = Vec::new();
    let need = |kind, v: &Value, amount: f64, unit: String| Need {
        kind,
        ingredient_id: uuid(v, "id"),
        name: text(v, "name").unwrap_or_default(),
        catalog_id: uuid(v, "catalog_id"),
        amount,
        unit,
        item_id: None,
    };
    for v in list("fermentables") {
        let amount = number(&v, "amount_kg").unwrap_or(0.0);
        needs.push(need(
            InventoryCategory::Fermentable,
            &v,
            amount,
            "kg".into(),
        ));
    }
    for v in list("hops") {
        let amount = number(&v, "amount_grams").unwrap_or(0.0);
        needs.push(need(InventoryCategory::Hop, &v, amount, "g".into()));
    }
    for v in list("yeasts") {
        let amount = number(&v, "amount").unwrap_or(1.0);
        let unit = text(&v, "amount_unit")
            .filter(|u| !u.trim().is_empty())
            .unwrap_or_else(|| "pkg".into());
        needs.push(need(InventoryCategory::Yeast, &v, amount, unit));
    }
    for v in list("miscs") {
        let amount = number(&v, "amount").unwrap_or(0.0);
        let unit = text(&v, "amount_unit").unwrap_or_default();
        needs.push(need(InventoryCategory::Misc, &v, amount, unit));
    }
    needs
}

/// The item an ingredient draws on, if any (rules in the module's documentation).
pub fn match_item<'a>(need: &Need, items: &'a [InventoryItem]) -> Option<&'a InventoryItem> {
    if let Some(pinned) = need
        .item_id
        .and_then(|id| items.iter().find(|i| i.id == id))
    {
        return Some(pinned);
    }
    let name = need.name.to_lowercase();
    items
        .iter()
        .filter_map(|item| {
            let by_catalog = need.catalog_id.is_some() && item.catalog_id == need.catalog_id;
            let by_name = item.category == need.kind && item.name.to_lowercase() == name;
            (by_catalog || by_name).then_some((item, by_catalog))
        })
        .min_by_key(|(item, by_catalog)| {
            let converts = units::convert(need.amount, &need.unit, &item.amount_unit).is_some();
            (
                !by_catalog,
                !converts,
                item.best_before.is_none(),
                item.best_before,
                item.id,
            )
        })
        .map(|(item, _)| item)
}

/// How a line stands against the stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum StockStatus {
    /// Matched, and what is on hand covers it.
    Enough,
    /// Matched, but less is on hand than needed (`short` says how much less).
    Short,
    /// No item matches the ingredient.
    Unmatched,
    /// An item matches but its unit cannot express the amount (e.g. `g` against `l`, or an
    /// unrecognised unit against another).
    NotConvertible,
}

/// One recipe ingredient against the stock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StockLine {
    pub kind: InventoryCategory,
    /// The recipe child's id.
    pub ingredient_id: Option<Uuid>,
    pub name: String,
    /// The amount the recipe gives, in its unit (`amount_kg`, `amount_grams`, or the child's
    /// `amount` and `amount_unit`).
    pub recipe_amount: f64,
    pub recipe_unit: String,
    /// The matched item; null when none matches.
    pub item_id: Option<Uuid>,
    pub item_name: Option<String>,
    /// The item's `amount_unit`, in which `needed`, `on_hand` and `short` are given.
    pub unit: Option<String>,
    /// The recipe amount in the item's unit; null when unmatched or not convertible.
    pub needed: Option<f64>,
    /// What the item holds, less what earlier lines of the same list draw from it.
    pub on_hand: Option<f64>,
    /// How much is missing (0 when enough). After a partial deduction: what is still missing
    /// (the shopping list lists it).
    pub short: f64,
    pub status: StockStatus,
    /// Once applied: what was taken from the item, in its unit (what was needed, or, for a
    /// short line of a partial deduction, what was on hand); undo puts exactly this back. Null
    /// in a preview and on lines that take nothing.
    #[serde(default)]
    pub taken: Option<f64>,
    /// Once applied: what the item held right after this line took its share (`on_hand −
    /// taken`), so a client can show the new amount on hand at once. Null in a preview.
    #[serde(default)]
    pub left: Option<f64>,
}

/// Each ingredient against the stock. Two ingredients matched to one item share it: a later
/// line sees what the earlier ones left.
pub fn stock_lines(needs: &[Need], items: &[InventoryItem]) -> Vec<StockLine> {
    let mut left: std::collections::HashMap<Uuid, f64> =
        items.iter().map(|i| (i.id, i.amount)).collect();
    needs
        .iter()
        .map(|need| {
            let matched = match_item(need, items);
            let needed =
                matched.and_then(|i| units::convert(need.amount, &need.unit, &i.amount_unit));
            let on_hand = matched.map(|i| left.get(&i.id).copied().unwrap_or(0.0));
            let (status, short) = match (matched, needed, on_hand) {
                (None, _, _) => (StockStatus::Unmatched, 0.0),
                (Some(_), None, _) => (StockStatus::NotConvertible, 0.0),
                (Some(item), Some(needed), Some(on_hand)) => {
                    left.insert(item.id, (on_hand - needed).max(0.0));
                    // A shortfall below a millionth of the unit is rounding, not a shortfall.
                    if needed - on_hand > 1e-6 {
                        (StockStatus::Short, needed - on_hand)
                    } else {
                        (StockStatus::Enough, 0.0)
                    }
                }
                (Some(_), Some(_), None) => (StockStatus::Unmatched, 0.0),
            };
            StockLine {
                kind: need.kind,
                ingredient_id: need.ingredient_id,
                name: need.name.clone(),
                recipe_amount: need.amount,
                recipe_unit: need.unit.clone(),
                item_id: matched.map(|i| i.id),
                item_name: matched.map(|i| i.name.clone()),
                unit: matched.map(|i| i.amount_unit.clone()),
                needed,
                on_hand,
                short,
                status,
                taken: None,
                left: None,
            }
        })
        .collect()
}

/// What applying (or undoing) a deduction moves for each item: the sum of its lines' `taken`,
/// by item (a line recorded before `taken` existed took its `needed`). Unmatched and
/// not-convertible lines take nothing.
pub fn takes(lines: &[StockLine]) -> Vec<(Uuid, f64)> {
    let mut out: Vec<(Uuid, f64)> = Vec::new();
    for line in lines {
        if let (Some(id), Some(taken)) = (line.item_id, line.taken.or(line.needed)) {
            match out.iter_mut().find(|(i, _)| *i == id) {
                Some((_, sum)) => *sum += taken,
                None => out.push((id, taken)),
            }
        }
    }
    out
}

/// Records on each matched line what it takes: what it needs, never more than is on hand for
/// it (so a short line takes what is left and the item ends at 0, never below).
fn with_taken(mut lines: Vec<StockLine>) -> Vec<StockLine> {
    for line in &mut lines {
        line.taken = line
            .needed
            .zip(line.on_hand)
            .map(|(needed, on_hand)| needed.min(on_hand).max(0.0));
        line.left = line
            .on_hand
            .zip(line.taken)
            .map(|(on_hand, taken)| on_hand - taken);
    }
    lines
}

/// A deduction is refused while any line is short: one `too_small` detail per short line, at
/// `["lines", "<index>"]`, naming the ingredient, what is needed and what is on hand.
pub fn shortfalls(lines: &[StockLine]) -> Vec<Violation> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.status == StockStatus::Short)
        .map(|(i, l)| {
            let unit = l.unit.as_deref().unwrap_or("");
            let index = i.to_string();
            Violation::new(
                "too_small",
                &["lines", &index],
                format!(
                    "{}: {} {unit} needed, {} {unit} on hand",
                    l.name,
                    round_to(l.needed.unwrap_or(0.0), 3),
                    round_to(l.on_hand.unwrap_or(0.0), 3)
                ),
            )
            .with("minimum", round_to(l.needed.unwrap_or(0.0), 6))
            .with("inclusive", true)
            .with("type", "number")
            .with("name", l.name.clone())
        })
        .collect()
}

// ---- A brew session's deduction ----------------------------------------------------------------

/// A brew session's ingredients against the stock: the preview, or what was taken.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InventoryDeduction {
    pub session_id: Uuid,
    /// True once the lines were taken from the stock (until undone).
    pub applied: bool,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub applied_at: Option<time::OffsetDateTime>,
    /// True when the deduction was applied with `partial` while some line was short: those
    /// lines took what was on hand, and their `short` is still missing.
    pub partial: bool,
    /// One line per ingredient of the session's recipe snapshot. Once applied, the lines as
    /// they were when applied (`taken` is what was taken).
    pub lines: Vec<StockLine>,
}

impl InventoryDeduction {
    /// A preview: nothing taken.
    pub fn preview(session_id: Uuid, lines: Vec<StockLine>) -> Self {
        InventoryDeduction {
            session_id,
            applied: false,
            applied_at: None,
            partial: false,
            lines,
        }
    }

    /// A deduction taken at `at` (as applied, or as stored).
    pub fn applied(session_id: Uuid, at: time::OffsetDateTime, lines: Vec<StockLine>) -> Self {
        InventoryDeduction {
            session_id,
            applied: true,
            applied_at: Some(at),
            partial: lines.iter().any(|l| l.status == StockStatus::Short),
            lines,
        }
    }
}

/// Turns a session's recipe snapshot and the account's items (locked until the end of the
/// transaction) into the lines to take, or refuses (a shortfall).
pub type DeductionPlanner =
    dyn Fn(&Value, &[InventoryItem]) -> crate::DomainResult<Vec<StockLine>> + Send + Sync;

/// The planner used when applying all or nothing: the lines, refused with one detail per short
/// line.
pub fn plan_deduction(
    snapshot: &Value,
    items: &[InventoryItem],
) -> crate::DomainResult<Vec<StockLine>> {
    let lines = stock_lines(&needs_of_recipe(snapshot), items);
    let short = shortfalls(&lines);
    if short.is_empty() {
        Ok(with_taken(lines))
    } else {
        Err(crate::DomainError::Invalid(short))
    }
}

/// The planner used when applying with `partial`: every line takes what it needs, a short line
/// what is on hand (its item ends at 0), and the short lines keep their `short`, the amount
/// still missing.
pub fn plan_partial_deduction(
    snapshot: &Value,
    items: &[InventoryItem],
) -> crate::DomainResult<Vec<StockLine>> {
    Ok(with_taken(stock_lines(&needs_of_recipe(snapshot), items)))
}

/// What a partial deduction left missing, as needs that top up the items they were short of
/// (an item deleted since: matched again by name), in the item's unit.
pub fn needs_of_shortfall(lines: &[StockLine]) -> Vec<Need> {
    lines
        .iter()
        .filter(|l| l.status == StockStatus::Short && l.short > 0.0)
        .map(|l| Need {
            kind: l.kind,
            ingredient_id: l.ingredient_id,
            name: l.name.clone(),
            catalog_id: None,
            amount: l.short,
            unit: l.unit.clone().unwrap_or_else(|| l.recipe_unit.clone()),
            item_id: l.item_id,
        })
        .collect()
}

/// A brew the shopping list or the cost looks at: a recipe (or a planned session's snapshot)
/// still to brew, or what a session's partial deduction left missing.
#[derive(Debug, Clone, PartialEq)]
pub enum Brew {
    Recipe(Value),
    Shortfall(Vec<StockLine>),
}

impl Brew {
    pub fn needs(&self) -> Vec<Need> {
        match self {
            Brew::Recipe(recipe) => needs_of_recipe(recipe),
            Brew::Shortfall(lines) => needs_of_shortfall(lines),
        }
    }
}

// ---- The shopping list ---------------------------------------------------------------------------

/// One thing to buy.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ShoppingLine {
    pub kind: InventoryCategory,
    pub name: String,
    /// The item it tops up; null when no item matches (then the amounts are metric: g, kg, ml, l
    /// or each, or the recipe's own unit when wort does not recognise it).
    pub item_id: Option<Uuid>,
    /// What the chosen brews need in all.
    pub needed: f64,
    /// What is on hand now (0 when no item matches).
    pub on_hand: f64,
    /// `needed − on_hand`: what to buy.
    pub to_buy: f64,
    pub unit: String,
}

/// What the given brews need beyond what is on hand, by kind then name. Amounts of one item add
/// up in its unit; unmatched ingredients of one kind and name add up in metric when their units
/// are recognised (else by the same unit text). Nothing needed beyond the stock: not listed.
pub fn shopping_list(needs: &[Need], items: &[InventoryItem]) -> Vec<ShoppingLine> {
    // (kind, key, item, unit or dimension) → line, in first-seen order.
    let mut lines: Vec<(String, Option<Dimension>, ShoppingLine)> = Vec::new();
    for need in needs {
        let matched = match_item(need, items);
        let converted = matched
            .and_then(|i| units::convert(need.amount, &need.unit, &i.amount_unit).map(|a| (i, a)));
        let (key, dimension, amount, unit, item) = match converted {
            Some((item, amount)) => (
                item.id.to_string(),
                None,
                amount,
                item.amount_unit.clone(),
                Some(item),
            ),
            None => match units::to_base(need.amount, &need.unit) {
                Some((base, dim)) => (
                    format!("{}:{}", need.kind.as_str(), need.name.to_lowercase()),
                    Some(dim),
                    base,
                    String::new(),
                    None,
                ),
                None => (
                    format!(
                        "{}:{}:{}",
                        need.kind.as_str(),
                        need.name.to_lowercase(),
                        need.unit.trim().to_lowercase()
                    ),
                    None,
                    need.amount,
                    need.unit.clone(),
                    None,
                ),
            },
        };
        match lines
            .iter_mut()
            .find(|(k, d, _)| *k == key && *d == dimension)
        {
            Some((_, _, line)) => line.needed += amount,
            None => lines.push((
                key,
                dimension,
                ShoppingLine {
                    kind: need.kind,
                    name: item.map_or_else(|| need.name.clone(), |i| i.name.clone()),
                    item_id: item.map(|i| i.id),
                    needed: amount,
                    on_hand: item.map_or(0.0, |i| i.amount),
                    to_buy: 0.0,
                    unit,
                },
            )),
        }
    }
    let mut out: Vec<ShoppingLine> = lines
        .into_iter()
        .map(|(_, dimension, mut line)| {
            if let Some(dim) = dimension {
                let (amount, unit) = units::metric_display(line.needed, dim);
                line.needed = amount;
                line.unit = unit.to_owned();
            }
            line.to_buy = line.needed - line.on_hand;
            line
        })
        .filter(|l| l.to_buy > 1e-6)
        .map(|mut l| {
            l.needed = round_to(l.needed, 6);
            l.to_buy = round_to(l.to_buy, 6);
            l
        })
        .collect();
    out.sort_by_key(|l| {
        (
            InventoryCategory::ALL.iter().position(|c| *c == l.kind),
            l.name.to_lowercase(),
        )
    });
    out
}

fn heading(kind: InventoryCategory) -> &'static str {
    match kind {
        InventoryCategory::Fermentable => "Fermentables",
        InventoryCategory::Hop => "Hops",
        InventoryCategory::Yeast => "Yeasts",
        InventoryCategory::Misc => "Miscs",
    }
}

/// A number as a person writes it: at most 3 decimals, no trailing zeros.
pub fn plain_number(x: f64) -> String {
    let s = format!("{:.3}", round_to(x, 3));
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The list as text to paste: a heading per kind, one `- name: amount unit` line per thing.
pub fn shopping_text(lines: &[ShoppingLine]) -> String {
    if lines.is_empty() {
        return "Shopping list\n\nNothing to buy: the stock covers it all.\n".to_owned();
    }
    let mut out = String::from("Shopping list\n");
    let mut current = None;
    for line in lines {
        if current != Some(line.kind) {
            out.push('\n');
            out.push_str(heading(line.kind));
            out.push('\n');
            current = Some(line.kind);
        }
        out.push_str(&format!(
            "- {}: {} {}\n",
            line.name,
            plain_number(line.to_buy),
            line.unit
        ));
    }
    out
}

// ---- Cost ---------------------------------------------------------------------------------------

/// One ingredient's cost, with how the stock covers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CostLine {
    #[serde(flatten)]
    pub stock: StockLine,
    /// The matched item's price per its `amount_unit`; null when none.
    pub price_per_unit: Option<f64>,
    /// `needed × price_per_unit`, rounded to 2 decimals; null when it cannot be priced.
    pub cost: Option<f64>,
}

/// A recipe's cost from the prices of the items its ingredients match, and how the stock covers
/// each ingredient (`status`, `short`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecipeCost {
    pub recipe_id: Uuid,
    pub batch_size_liters: f64,
    pub lines: Vec<CostLine>,
    /// The sum of the priced lines (the batch), rounded to 2 decimals.
    pub total: f64,
    /// `total / batch_size_liters`, rounded to 2 decimals.
    pub per_liter: f64,
    /// The names of the ingredients without a price (unmatched, not convertible, or the item
    /// has no `price_per_unit`): the total leaves them out.
    pub unpriced: Vec<String>,
    /// The account's currency (its preference, an ISO 4217 code) that the prices, and so
    /// every cost here, are in; null when the account has not said. Never converted.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, example = "USD"))]
    pub currency: Option<&'static str>,
}

/// Costs a recipe. Each ingredient is costed on its own against the item (coverage lines share
/// the stock as [`stock_lines`] does).
pub fn recipe_cost(
    recipe_id: Uuid,
    batch_size_liters: f64,
    needs: &[Need],
    items: &[InventoryItem],
    currency: Option<&'static str>,
) -> RecipeCost {
    let lines: Vec<CostLine> = stock_lines(needs, items)
        .into_iter()
        .map(|stock| {
            let price = stock
                .item_id
                .and_then(|id| items.iter().find(|i| i.id == id))
                .and_then(|i| i.price_per_unit);
            let cost = stock
                .needed
                .zip(price)
                .map(|(needed, price)| round_to(needed * price, 2));
            CostLine {
                stock,
                price_per_unit: price,
                cost,
            }
        })
        .collect();
    let total_raw: f64 = lines
        .iter()
        .filter_map(|l| l.stock.needed.zip(l.price_per_unit).map(|(n, p)| n * p))
        .sum();
    let unpriced = lines
        .iter()
        .filter(|l| l.cost.is_none())
        .map(|l| l.stock.name.clone())
        .collect();
    RecipeCost {
        recipe_id,
        batch_size_liters,
        total: round_to(total_raw, 2),
        per_liter: if batch_size_liters > 0.0 {
            round_to(total_raw / batch_size_liters, 2)
        } else {
            0.0
        },
        lines,
        unpriced,
        currency,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use time::OffsetDateTime;

    fn item(category: InventoryCategory, name: &str, amount: f64, unit: &str) -> InventoryItem {
        InventoryItem {
            id: Uuid::now_v7(),
            user_id: String::new(),
            category,
            name: name.into(),
            amount,
            amount_unit: unit.into(),
            kind: None,
            form: None,
            origin: None,
            alpha_acid: None,
            color_srm: None,
            yield_percent: None,
            attenuation: None,
            year: None,
            notes: None,
            catalog_id: None,
            price_per_unit: None,
            best_before: None,
            unit_dimension: None,
            amount_base: None,
            created_at: OffsetDateTime::UNIX_EPOCH,
            updated_at: OffsetDateTime::UNIX_EPOCH,
        }
    }

    fn recipe() -> Value {
        json!({
            "fermentables": [{"id": Uuid::nil(), "name": "Maris Otter", "amount_kg": 5.0, "catalog_id": null}],
            "hops": [
                {"name": "Citra", "amount_grams": 28.0},
                {"name": "citra", "amount_grams": 28.0}
            ],
            "yeasts": [{"name": "US-05", "amount": null, "amount_unit": null}],
            "miscs": [{"name": "Irish moss", "amount": 1.0, "amount_unit": "tsp"}],
            "mash_steps": [{"name": "Saccharification"}]
        })
    }

    #[test]
    fn a_recipe_needs_its_four_ingredient_lists_in_their_units() {
        let needs = needs_of_recipe(&recipe());
        assert_eq!(needs.len(), 5);
        assert_eq!((needs[0].amount, needs[0].unit.as_str()), (5.0, "kg"));
        assert_eq!((needs[1].amount, needs[1].unit.as_str()), (28.0, "g"));
        assert_eq!((needs[3].amount, needs[3].unit.as_str()), (1.0, "pkg"));
        assert_eq!(needs[4].unit, "tsp");
    }

    #[test]
    fn matching_by_catalogue_then_name_ignoring_case() {
        let mut by_name = item(InventoryCategory::Hop, "CITRA", 1.0, "oz");
        by_name.best_before = None;
        let mut by_catalog = item(InventoryCategory::Hop, "Citra (2025)", 1.0, "oz");
        let catalog = Uuid::now_v7();
        by_catalog.catalog_id = Some(catalog);
        let items = vec![by_name.clone(), by_catalog.clone()];
        let mut need = needs_of_recipe(&recipe())[1].clone();
        assert_eq!(match_item(&need, &items).unwrap().id, by_name.id);
        need.catalog_id = Some(catalog);
        assert_eq!(match_item(&need, &items).unwrap().id, by_catalog.id);
        // Another kind of the same name does not match.
        let other = vec![item(InventoryCategory::Misc, "Citra", 1.0, "g")];
        assert!(match_item(&need, &other).is_none());
    }

    #[test]
    fn the_earliest_best_before_is_used_first() {
        let mut late = item(InventoryCategory::Fermentable, "Maris Otter", 25.0, "kg");
        late.best_before = Some(time::macros::date!(2027 - 06 - 01));
        let mut early = item(InventoryCategory::Fermentable, "Maris Otter", 25.0, "kg");
        early.best_before = Some(time::macros::date!(2027 - 01 - 01));
        let undated = item(InventoryCategory::Fermentable, "Maris Otter", 25.0, "kg");
        let items = vec![undated, late, early.clone()];
        let need = &needs_of_recipe(&recipe())[0];
        assert_eq!(match_item(need, &items).unwrap().id, early.id);
    }

    #[test]
    fn lines_convert_to_the_items_unit_and_share_an_item() {
        let items = vec![
            item(InventoryCategory::Fermentable, "Maris Otter", 25.0, "kg"),
            item(InventoryCategory::Hop, "Citra", 1.5, "oz"),
            item(InventoryCategory::Yeast, "US-05", 1.0, "packets"),
            item(InventoryCategory::Misc, "Irish moss", 100.0, "g"),
        ];
        let lines = stock_lines(&needs_of_recipe(&recipe()), &items);
        assert_eq!(lines[0].status, StockStatus::Enough);
        assert_eq!(lines[0].needed, Some(5.0));
        // 28 g is 0.988 oz; the second 28 g finds only 0.512 oz left.
        assert_eq!(lines[1].status, StockStatus::Enough);
        assert_eq!(lines[2].status, StockStatus::Short);
        assert!((lines[2].short - (56.0 / 28.349_523_125 - 1.5)).abs() < 1e-9);
        assert_eq!(lines[3].status, StockStatus::Enough);
        assert_eq!(lines[4].status, StockStatus::NotConvertible);
        assert_eq!(shortfalls(&lines).len(), 1);
        assert_eq!(shortfalls(&lines)[0].path, vec!["lines", "2"]);
        let takes = takes(&lines);
        assert_eq!(takes.len(), 3);
        assert!((takes[1].1 - 56.0 / 28.349_523_125).abs() < 1e-9);
    }

    /// 2 oz of Chinook needed, 0.75 oz on hand; 5 kg of malt from 25 kg.
    fn chinook() -> (Value, Vec<InventoryItem>) {
        let recipe = json!({
            "fermentables": [{"name": "Maris Otter", "amount_kg": 5.0}],
            "hops": [{"name": "Chinook", "amount_grams": 2.0 * 28.349_523_125}],
        });
        let items = vec![
            item(InventoryCategory::Fermentable, "Maris Otter", 25.0, "kg"),
            item(InventoryCategory::Hop, "Chinook", 0.75, "oz"),
        ];
        (recipe, items)
    }

    #[test]
    fn all_or_nothing_refuses_a_short_line_and_partial_takes_what_is_on_hand() {
        let (recipe, items) = chinook();
        let Err(crate::DomainError::Invalid(refused)) = plan_deduction(&recipe, &items) else {
            panic!("a short line must refuse the whole deduction");
        };
        assert_eq!(refused[0].path, vec!["lines", "1"]);

        let lines = plan_partial_deduction(&recipe, &items).unwrap();
        assert_eq!((lines[0].taken, lines[0].left), (Some(5.0), Some(20.0)));
        assert_eq!(lines[1].status, StockStatus::Short);
        assert_eq!(lines[1].taken, Some(0.75));
        assert_eq!(lines[1].left, Some(0.0));
        assert!((lines[1].short - 1.25).abs() < 1e-9);
        // What is taken, and so what an undo puts back: the 0.75 oz on hand, not the 2 oz asked.
        let moved = takes(&lines);
        assert_eq!(moved, vec![(items[0].id, 5.0), (items[1].id, 0.75)]);
        let applied = InventoryDeduction::applied(Uuid::nil(), OffsetDateTime::UNIX_EPOCH, lines);
        assert!(applied.partial);
    }

    #[test]
    fn two_lines_of_one_short_item_take_it_to_zero_and_no_further() {
        let recipe = json!({"hops": [
            {"name": "Citra", "amount_grams": 30.0},
            {"name": "Citra", "amount_grams": 30.0}
        ]});
        let items = vec![item(InventoryCategory::Hop, "Citra", 40.0, "g")];
        let lines = plan_partial_deduction(&recipe, &items).unwrap();
        assert_eq!((lines[0].taken, lines[0].left), (Some(30.0), Some(10.0)));
        assert_eq!((lines[1].taken, lines[1].left), (Some(10.0), Some(0.0)));
        assert_eq!(lines[1].short, 20.0);
        assert_eq!(takes(&lines), vec![(items[0].id, 40.0)]);
    }

    #[test]
    fn a_shortfall_tops_up_the_item_it_was_short_of() {
        let (recipe, mut items) = chinook();
        let lines = plan_partial_deduction(&recipe, &items).unwrap();
        let needs = needs_of_shortfall(&lines);
        assert_eq!(needs.len(), 1);
        assert!((needs[0].amount - 1.25).abs() < 1e-9);
        assert_eq!(needs[0].unit, "oz");
        // The item was used up; renamed since, it is still the one to top up.
        items[1].amount = 0.0;
        items[1].name = "Chinook 2025".into();
        let list = shopping_list(&needs, &items);
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].item_id, Some(items[1].id));
        assert!((list[0].to_buy - 1.25).abs() < 1e-6);
        // A line stored before `taken` existed took what it needed.
        let mut old = lines[0].clone();
        old.taken = None;
        assert_eq!(takes(&[old]), vec![(items[0].id, 5.0)]);
    }

    #[test]
    fn an_unrecognised_unit_matches_only_the_same_text() {
        let items = vec![item(InventoryCategory::Misc, "Irish moss", 3.0, "Tablets")];
        let need = Need {
            kind: InventoryCategory::Misc,
            ingredient_id: None,
            name: "Irish moss".into(),
            catalog_id: None,
            amount: 1.0,
            unit: "tablets".into(),
            item_id: None,
        };
        let lines = stock_lines(std::slice::from_ref(&need), &items);
        assert_eq!(lines[0].status, StockStatus::Enough);
        assert_eq!(lines[0].needed, Some(1.0));
        let other = Need {
            unit: "g".into(),
            ..need
        };
        assert_eq!(
            stock_lines(&[other], &items)[0].status,
            StockStatus::NotConvertible
        );
    }

    #[test]
    fn the_shopping_list_adds_up_and_leaves_out_what_is_covered() {
        let items = vec![
            item(InventoryCategory::Fermentable, "Maris Otter", 3.0, "kg"),
            item(InventoryCategory::Hop, "Citra", 10.0, "lb"),
        ];
        let mut needs = needs_of_recipe(&recipe());
        needs.extend(needs_of_recipe(&recipe()));
        let list = shopping_list(&needs, &items);
        let names: Vec<&str> = list.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["Maris Otter", "US-05", "Irish moss"]);
        assert_eq!(
            (list[0].needed, list[0].to_buy, list[0].unit.as_str()),
            (10.0, 7.0, "kg")
        );
        assert_eq!((list[1].to_buy, list[1].unit.as_str()), (2.0, "each"));
        // 2 tsp unmatched: metric, in ml.
        assert_eq!(list[2].unit, "ml");
        assert!((list[2].to_buy - 9.857_843_187_5).abs() < 1e-6);
        let text = shopping_text(&list);
        assert!(
            text.contains("Fermentables\n- Maris Otter: 7 kg\n"),
            "{text}"
        );
        assert!(text.contains("Miscs\n- Irish moss: 9.858 ml\n"), "{text}");
    }

    #[test]
    fn cost_from_prices_per_unit() {
        let mut malt = item(InventoryCategory::Fermentable, "Maris Otter", 25.0, "kg");
        malt.price_per_unit = Some(2.0);
        let mut hop = item(InventoryCategory::Hop, "Citra", 1.0, "lb");
        hop.price_per_unit = Some(30.0);
        let cost = recipe_cost(
            Uuid::nil(),
            20.0,
            &needs_of_recipe(&recipe()),
            &[malt, hop],
            Some("GBP"),
        );
        assert_eq!(cost.currency, Some("GBP"));
        // 5 kg × 2 + 56 g of a 30/lb hop (3.70).
        assert_eq!(cost.lines[0].cost, Some(10.0));
        assert_eq!(cost.total, round_to(10.0 + 56.0 / 453.592_37 * 30.0, 2));
        assert_eq!(cost.per_liter, round_to(cost.total / 20.0, 2));
        assert_eq!(cost.unpriced, vec!["US-05", "Irish moss"]);
    }
}
