//! Field-by-field comparison of two read-backs. A field or list item present after and absent
//! before is *new* (what the new version adds); a field present before and absent or different
//! after is *changed*; a resource that answered before and is gone after is *missing*. The few
//! differences the new version makes on purpose are [`EXPECTED`], each with its reason.

use std::collections::{BTreeMap, BTreeSet};

use super::json::Json;
use super::snapshot::{Answer, Snapshot};

/// Differences that are intended, by the generalised route and field (`*` matches one path
/// segment, a route ending in `*` any route it starts), with the reason. Keep this short and
/// exact: each entry hides every change of that field, so each names a documented change of
/// behaviour (all between 0.9.0 and 0.10.0).
pub const EXPECTED: &[(&str, &str, &str)] = &[
    (
        "GET /api/auth/api-key/list (cookie)",
        "[].lastUsedAt",
        "an API key's lastUsedAt is its latest request (stored at most once a minute), and the \
         read-back itself uses the account's first key: not a change the upgrade makes",
    ),
    // docs/calculations.md, "style_fit": the value as a brewer reads it (OG and FG to 0.001, IBU
    // to 1, colour to 0.1 SRM, ABV to 0.1 %), in_range decided on that value (commit f6f438b).
    (
        "GET /v1/recipes/{id}/stats",
        "style_fit.*.value",
        "the style fit judges the value as displayed, rounded to the style's precision \
         (docs/calculations.md, style_fit; since 0.10.0)",
    ),
    (
        "GET /v1/recipes/{id}/stats",
        "style_fit.*.in_range",
        "the style fit judges the value as displayed, rounded to the style's precision \
         (docs/calculations.md, style_fit; since 0.10.0)",
    ),
    // docs/interchange.md, "Exports": the stats written are the recipe's /stats with its
    // equipment profile, and a BJCP style is written as the guidelines have it (commit 656facd).
    (
        "GET /v1/recipes/{id}/export?format=beerjson",
        "beerjson.recipes[].original_gravity.value",
        "exports write the recipe's /stats, computed with its equipment profile \
         (docs/interchange.md; since 0.10.0)",
    ),
    (
        "GET /v1/recipes/{id}/export?format=beerjson",
        "beerjson.recipes[].final_gravity.value",
        "exports write the recipe's /stats, computed with its equipment profile \
         (docs/interchange.md; since 0.10.0)",
    ),
    (
        "GET /v1/recipes/{id}/export?format=beerjson",
        "beerjson.recipes[].alcohol_by_volume.value",
        "exports write the recipe's /stats, computed with its equipment profile \
         (docs/interchange.md; since 0.10.0)",
    ),
    (
        "GET /v1/recipes/{id}/export?format=beerjson",
        "beerjson.recipes[].style.category",
        "exports write a BJCP style's category and guide as the guidelines have them \
         (docs/interchange.md; since 0.10.0)",
    ),
    (
        "GET /v1/recipes/{id}/export?format=beerjson",
        "beerjson.recipes[].style.style_guide",
        "exports write a BJCP style's category and guide as the guidelines have them \
         (docs/interchange.md; since 0.10.0)",
    ),
    // docs/interchange.md, "Hop stands": wort's whirlpool is written Aroma, its own aroma use (a
    // late boil addition) Boil, so any reader computes the same bitterness (commit 35576c4).
    (
        "GET /v1/recipes/{id}/export?format=beerjson",
        "beerjson.recipes[].ingredients.hop_additions[].use",
        "exports write wort's whirlpool as Aroma and its aroma use as Boil \
         (docs/interchange.md, hop stands; since 0.10.0)",
    ),
];

#[derive(Default)]
pub struct Report {
    pub resources: usize,
    pub fields: usize,
    pub missing: Vec<String>,
    pub changed: Vec<String>,
    /// Generalised route and field of each change → how many.
    pub changed_kinds: BTreeMap<String, usize>,
    /// Generalised route and field path → how many times seen.
    pub new_fields: BTreeMap<String, usize>,
    /// Reason → how many differences it accounted for.
    pub expected: BTreeMap<&'static str, usize>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.missing.is_empty() && self.changed.is_empty()
    }
}

/// The route of a read-back label with its account and ids generalised:
/// `brewer-3 GET /v1/hops/0193…` → `GET /v1/hops/{id}`.
pub fn generalise(label: &str) -> String {
    let route = label.split_once(' ').map_or(label, |(_, rest)| rest);
    let mut out = String::with_capacity(route.len());
    let mut token = String::new();
    for c in route.chars() {
        if c.is_ascii_hexdigit() || c == '-' {
            token.push(c);
        } else {
            out.push_str(if is_uuid(&token) { "{id}" } else { &token });
            token.clear();
            out.push(c);
        }
    }
    out.push_str(if is_uuid(&token) { "{id}" } else { &token });
    out
}

fn is_uuid(token: &str) -> bool {
    token.len() == 36
        && token.char_indices().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

/// Why a difference at `field` of `route` is intended, if it is.
fn expected(route: &str, field: &str) -> Option<&'static str> {
    let field = field.trim_start_matches('.');
    EXPECTED.iter().find_map(|(r, f, reason)| {
        (route_matches(r, route) && field_matches(f, field)).then_some(*reason)
    })
}

fn route_matches(pattern: &str, route: &str) -> bool {
    pattern == route || (pattern.ends_with('*') && route.starts_with(pattern.trim_end_matches('*')))
}

fn field_matches(pattern: &str, field: &str) -> bool {
    let p: Vec<&str> = pattern.split('.').collect();
    let f: Vec<&str> = field.split('.').collect();
    p.len() == f.len() && p.iter().zip(&f).all(|(p, f)| *p == "*" || p == f)
}

pub fn compare(before: &Snapshot, after: &Snapshot) -> Report {
    let mut report = Report::default();
    for (label, (_, old)) in before {
        report.resources += 1;
        let route = generalise(label);
        let Some((_, new)) = after.get(label) else {
            report
                .missing
                .push(format!("{label}: not read after the upgrade"));
            continue;
        };
        match (old, new) {
            (Answer::Json(old), Answer::Json(new)) => {
                let mut walk = Walk {
                    label,
                    route: &route,
                    report: &mut report,
                };
                walk.diff("", old, new);
            }
            (Answer::Failed(a, _), Answer::Failed(b, _)) if a == b => {}
            (Answer::Json(_), Answer::Failed(404 | 410, _)) => {
                report
                    .missing
                    .push(format!("{label}: 404 after the upgrade"));
            }
            (Answer::Json(_), Answer::Failed(status, body)) => report.changed.push(format!(
                "{label}: answered before, {status} after: {}",
                cut(body)
            )),
            (Answer::Failed(status, _), Answer::Json(_)) => report
                .changed
                .push(format!("{label}: {status} before, answered after")),
            (Answer::Failed(a, _), Answer::Failed(b, body)) => report
                .changed
                .push(format!("{label}: {a} before, {b} after: {}", cut(body))),
        }
    }
    report
}

fn cut(text: &str) -> String {
    let short: String = text.chars().take(160).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}

struct Walk<'a> {
    label: &'a str,
    route: &'a str,
    report: &'a mut Report,
}

impl Walk<'_> {
    fn changed(&mut self, field: &str, what: String) {
        let field_pattern = generic_field(field);
        if let Some(reason) = expected(self.route, &field_pattern) {
            *self.report.expected.entry(reason).or_default() += 1;
        } else {
            self.report
                .changed
                .push(format!("{} {}: {what}", self.label, display(field)));
            *self
                .report
                .changed_kinds
                .entry(format!("{} {}", self.route, display(&field_pattern)))
                .or_default() += 1;
        }
    }

    fn added(&mut self, field: &str) {
        *self
            .report
            .new_fields
            .entry(format!("{} {}", self.route, display(&generic_field(field))))
            .or_default() += 1;
    }

    fn diff(&mut self, field: &str, old: &Json, new: &Json) {
        match (old, new) {
            (Json::Object(old_members), Json::Object(_)) => {
                for (name, value) in old_members {
                    let at = format!("{field}.{name}");
                    match new.get(name) {
                        Some(new_value) => self.diff(&at, value, new_value),
                        None => {
                            self.report.fields += 1;
                            self.changed(&at, format!("was {}, now absent", cut(&value.to_text())));
                        }
                    }
                }
                if let Json::Object(new_members) = new {
                    for (name, _) in new_members {
                        if old.get(name).is_none() {
                            self.added(&format!("{field}.{name}"));
                        }
                    }
                }
            }
            (Json::Array(old_items), Json::Array(new_items)) => {
                self.diff_arrays(field, old_items, new_items);
            }
            (Json::Number(a), Json::Number(b)) => {
                self.report.fields += 1;
                if !same_number(a, b) {
                    self.changed(field, format!("{a} → {b}"));
                }
            }
            _ => {
                self.report.fields += 1;
                if old != new {
                    self.changed(
                        field,
                        format!("{} → {}", cut(&old.to_text()), cut(&new.to_text())),
                    );
                }
            }
        }
    }

    /// Items with ids are matched by id (order compared too); others by position.
    fn diff_arrays(&mut self, field: &str, old: &[Json], new: &[Json]) {
        let id_of = |item: &Json| item.str_field("id").map(str::to_owned);
        let keyed = !old.is_empty() && old.iter().chain(new).all(|i| id_of(i).is_some());
        if keyed {
            let new_by_id: BTreeMap<String, &Json> =
                new.iter().filter_map(|i| Some((id_of(i)?, i))).collect();
            let old_ids: BTreeSet<String> = old.iter().filter_map(id_of).collect();
            for item in old {
                let Some(id) = id_of(item) else { continue };
                let at = format!("{field}[{id}]");
                match new_by_id.get(&id) {
                    Some(new_item) => self.diff(&at, item, new_item),
                    None => self.report.missing.push(format!(
                        "{} {}: item {id} missing",
                        self.label,
                        display(field)
                    )),
                }
            }
            for item in new {
                if id_of(item).is_some_and(|id| !old_ids.contains(&id)) {
                    self.added(&format!("{field}[]"));
                }
            }
            let old_order: Vec<String> = old.iter().filter_map(id_of).collect();
            let new_order: Vec<String> = new
                .iter()
                .filter_map(id_of)
                .filter(|id| old_ids.contains(id))
                .collect();
            if old_order.len() == new_order.len() && old_order != new_order {
                self.changed(&format!("{field}[]"), "the items' order changed".into());
            }
            return;
        }
        for (n, item) in old.iter().enumerate() {
            let at = format!("{field}[{n}]");
            match new.get(n) {
                Some(new_item) => self.diff(&at, item, new_item),
                None => {
                    self.report.fields += 1;
                    self.changed(&at, format!("was {}, now absent", cut(&item.to_text())));
                }
            }
        }
        if new.len() > old.len() {
            self.added(&format!("{field}[]"));
        }
    }
}

/// `[…]` indexes and ids become `[]`, so that one field of every item counts once.
fn generic_field(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut in_index = false;
    for c in field.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push_str("[]");
            }
            ']' => in_index = false,
            c if !in_index => out.push(c),
            _ => {}
        }
    }
    out
}

fn display(field: &str) -> &str {
    if field.is_empty() {
        "(the answer)"
    } else {
        field
    }
}

/// The same value, however written (`5` and `5.0`), within the last digits of a double.
fn same_number(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::upgrade::snapshot::Read;

    fn snapshot(entries: &[(&str, &str)]) -> Snapshot {
        entries
            .iter()
            .map(|(label, body)| {
                let read = Read {
                    account: 0,
                    path: String::new(),
                    page: None,
                    cookie: false,
                };
                let answer = if body.is_empty() {
                    Answer::Failed(404, String::new())
                } else {
                    Answer::Json(Json::parse(body).unwrap())
                };
                ((*label).to_owned(), (read, answer))
            })
            .collect()
    }

    const ID: &str = "01939a7e-8c00-7000-8000-000000000001";

    #[test]
    fn ids_and_accounts_are_generalised() {
        assert_eq!(
            generalise(&format!("brewer-3 GET /v1/hops/{ID}")),
            "GET /v1/hops/{id}"
        );
        assert_eq!(
            generalise(&format!("brewer-3 GET /v1/shopping-list?recipe_id={ID}")),
            "GET /v1/shopping-list?recipe_id={id}"
        );
    }

    #[test]
    fn a_new_field_is_new_and_a_changed_or_dropped_one_is_changed() {
        let label = format!("brewer-0 GET /v1/hops/{ID}");
        let before = snapshot(&[(&label, r#"{"a":1,"b":"x","c":[1,2]}"#)]);
        let same = snapshot(&[(&label, r#"{"a":1.0,"b":"x","c":[1,2],"d":null}"#)]);
        let report = compare(&before, &same);
        assert!(report.passed(), "{:?}", report.changed);
        assert_eq!(report.fields, 4);
        assert_eq!(
            report.new_fields.keys().collect::<Vec<_>>(),
            ["GET /v1/hops/{id} .d"]
        );

        let changed = snapshot(&[(&label, r#"{"a":2,"c":[1]}"#)]);
        let report = compare(&before, &changed);
        assert_eq!(report.changed.len(), 3, "{:?}", report.changed);
        assert!(report.missing.is_empty());
    }

    #[test]
    fn an_expected_difference_is_counted_apart_with_its_reason() {
        let label = format!("brewer-0 GET /v1/recipes/{ID}/stats");
        let before = snapshot(&[(
            &label,
            r#"{"style_fit":{"og":{"value":1.0598,"min":1.05}}}"#,
        )]);
        let after = snapshot(&[(&label, r#"{"style_fit":{"og":{"value":1.06,"min":1.051}}}"#)]);
        let report = compare(&before, &after);
        assert_eq!(report.changed.len(), 1, "{:?}", report.changed);
        assert!(report.changed[0].ends_with(".style_fit.og.min: 1.05 → 1.051"));
        assert_eq!(report.expected.values().sum::<usize>(), 1);
    }

    #[test]
    fn list_items_are_matched_by_id_and_a_lost_one_or_resource_is_missing() {
        let label = "brewer-0 GET /v1/recipes";
        let before = snapshot(&[
            (label, r#"[{"id":"a","n":1},{"id":"b","n":2}]"#),
            ("brewer-0 GET /v1/me", r#"{"id":"u"}"#),
        ]);
        let after = snapshot(&[
            (label, r#"[{"id":"a","n":1},{"id":"c","n":3}]"#),
            ("brewer-0 GET /v1/me", ""),
        ]);
        let report = compare(&before, &after);
        assert_eq!(report.missing.len(), 2, "{:?}", report.missing);
        assert!(report.new_fields.contains_key("GET /v1/recipes []"));

        let reordered = snapshot(&[
            (label, r#"[{"id":"b","n":2},{"id":"a","n":1}]"#),
            ("brewer-0 GET /v1/me", r#"{"id":"u"}"#),
        ]);
        let report = compare(&before, &reordered);
        assert_eq!(report.changed.len(), 1, "{:?}", report.changed);
    }
}
