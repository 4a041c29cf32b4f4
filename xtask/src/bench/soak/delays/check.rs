//! The count: with the proxy out of the way (`psql` on the cluster's own socket), how many
//! times each logical write is in the database, against what its client was told.
//!
//! A reading, a recipe and a hop carry their write's unique label (the note, the name), so each
//! is counted by label: more than one row is a double application, none for an acknowledged
//! write is a missing one. Adjustments of +1 leave only a total: an item whose amount is above
//! acknowledged + unknown adjusts was adjusted more often than its client asked for, one below
//! the acknowledged ones lost some.

use std::collections::HashMap;

use wort_pgcluster::RunningCluster;

use super::super::accounts::Setup;
use super::DATABASE;
use super::writers::{KINDS, Kind, Outcome, Write, Writer};

/// One kind's count.
#[derive(Default, Clone)]
pub(super) struct Tally {
    pub(super) logical: usize,
    pub(super) acked: usize,
    pub(super) replayed: usize,
    /// Acknowledged only in the settling after the load.
    pub(super) acked_late: usize,
    pub(super) refused: usize,
    pub(super) unknown_after_load: usize,
    pub(super) unknown: usize,
    /// Unknown writes found applied once, and not at all (rows) — adjusts: not known one by one.
    pub(super) unknown_applied: usize,
    pub(super) unknown_not_applied: usize,
    pub(super) missing: usize,
    /// Applications beyond one (rows), or adjusts beyond acknowledged + unknown.
    pub(super) doubled: usize,
    /// Refused writes that were applied all the same.
    pub(super) refused_applied: usize,
    pub(super) tries: usize,
    /// Examples for the report: a label (or an item) and what happened.
    pub(super) examples: Vec<String>,
}

pub(super) struct Counted {
    /// In the order of [`KINDS`].
    pub(super) kinds: Vec<(Kind, Tally)>,
}

impl Counted {
    pub(super) fn failed(&self) -> bool {
        self.kinds
            .iter()
            .any(|(_, t)| t.missing > 0 || t.doubled > 0 || t.refused_applied > 0)
    }
}

/// The rows of a query, as (first column, second column).
fn pairs(pg: &RunningCluster, sql: &str) -> Result<Vec<(String, String)>, String> {
    let output = pg
        .psql(DATABASE)
        .args(["-A", "-t", "-F", "\t", "-c", sql])
        .output()
        .map_err(|e| format!("psql: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "psql ({sql}): {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| {
            let (a, b) = line.split_once('\t')?;
            Some((a.to_owned(), b.trim().to_owned()))
        })
        .collect())
}

/// Rows by label of one table (`column LIKE 'dly %'`).
fn counts(pg: &RunningCluster, table: &str, column: &str) -> Result<HashMap<String, u32>, String> {
    let sql = format!(
        "SELECT {column}, count(*) FROM {table} WHERE {column} LIKE 'dly %' GROUP BY {column}"
    );
    Ok(pairs(pg, &sql)?
        .into_iter()
        .filter_map(|(label, n)| Some((label, n.parse().ok()?)))
        .collect())
}

fn amounts(pg: &RunningCluster, setups: &[Setup]) -> Result<HashMap<String, f64>, String> {
    let ids = setups
        .iter()
        .map(|s| format!("'{}'", s.item.replace('\'', "")))
        .collect::<Vec<_>>()
        .join(",");
    let sql = format!("SELECT id, amount FROM inventory_items WHERE id IN ({ids})");
    Ok(pairs(pg, &sql)?
        .into_iter()
        .filter_map(|(id, amount)| Some((id, amount.parse().ok()?)))
        .collect())
}

/// The statuses of a write's tries, `503 503 201↺` (↺ replayed, `—` no answer).
pub(super) fn story(write: &Write) -> String {
    let mut text = write
        .tries
        .iter()
        .map(|t| {
            if t.status == 0 {
                "—".to_owned()
            } else {
                t.status.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    if write.outcome == (Outcome::Acked { replayed: true }) {
        text.push('↺');
    }
    text
}

pub(super) fn count(
    pg: &RunningCluster,
    setups: &[Setup],
    writers: &[Writer],
) -> Result<Counted, String> {
    let readings = counts(pg, "fermentation_logs", "notes")?;
    let recipes = counts(pg, "recipes", "name")?;
    let hops = counts(pg, "hops", "name")?;
    let amounts = amounts(pg, setups)?;
    let mut kinds: Vec<(Kind, Tally)> = KINDS
        .iter()
        .map(|(k, _, _)| (*k, Tally::default()))
        .collect();
    for (setup, writer) in setups.iter().zip(writers) {
        let (mut acked_adjusts, mut unknown_adjusts) = (0usize, 0usize);
        for write in &writer.writes {
            let Some((_, tally)) = kinds.iter_mut().find(|(k, _)| *k == write.kind) else {
                continue;
            };
            tally.logical += 1;
            tally.tries += write.tries.len();
            let unknown_after_load = write.settled_late || write.outcome == Outcome::Unknown;
            tally.unknown_after_load += usize::from(unknown_after_load);
            match write.outcome {
                Outcome::Acked { replayed } => {
                    tally.acked += 1;
                    tally.replayed += usize::from(replayed);
                    tally.acked_late += usize::from(write.settled_late);
                }
                Outcome::Refused(_) => tally.refused += 1,
                Outcome::Unknown => tally.unknown += 1,
            }
            let rows = match write.kind {
                Kind::Reading => &readings,
                Kind::Recipe => &recipes,
                Kind::Hop => &hops,
                Kind::Adjust => {
                    match write.outcome {
                        Outcome::Acked { .. } => acked_adjusts += 1,
                        Outcome::Unknown => unknown_adjusts += 1,
                        Outcome::Refused(_) => {}
                    }
                    continue;
                }
            };
            let found = rows.get(&write.label).copied().unwrap_or(0);
            let note = |what: &str, tally: &mut Tally| {
                if tally.examples.len() < 12 {
                    tally.examples.push(format!(
                        "`{}` {what}: {found} row(s); tries: {}",
                        write.label,
                        story(write)
                    ));
                }
            };
            if found > 1 {
                tally.doubled += found as usize - 1;
                note("applied more than once", tally);
            }
            match write.outcome {
                Outcome::Acked { .. } if found == 0 => {
                    tally.missing += 1;
                    note("acknowledged, missing", tally);
                }
                Outcome::Refused(_) if found > 0 => {
                    tally.refused_applied += 1;
                    note("refused, applied", tally);
                }
                Outcome::Unknown if found > 0 => tally.unknown_applied += 1,
                Outcome::Unknown => tally.unknown_not_applied += 1,
                _ => {}
            }
        }
        let Some((_, tally)) = kinds.iter_mut().find(|(k, _)| *k == Kind::Adjust) else {
            continue;
        };
        let Some(amount) = amounts.get(&setup.item) else {
            tally.missing += acked_adjusts;
            tally
                .examples
                .push(format!("item `{}`: not found", setup.item));
            continue;
        };
        let amount = amount.round() as usize;
        let missing = acked_adjusts.saturating_sub(amount);
        let doubled = amount.saturating_sub(acked_adjusts + unknown_adjusts);
        tally.missing += missing;
        tally.doubled += doubled;
        tally.unknown_applied += amount.saturating_sub(acked_adjusts).min(unknown_adjusts);
        if (missing > 0 || doubled > 0) && tally.examples.len() < 12 {
            tally.examples.push(format!(
                "item of client {}: amount {amount}, {acked_adjusts} acknowledged, \
                 {unknown_adjusts} unknown",
                setups
                    .iter()
                    .position(|s| s.item == setup.item)
                    .unwrap_or(0)
            ));
        }
    }
    for (kind, tally) in &mut kinds {
        if *kind == Kind::Adjust {
            tally.unknown_not_applied = tally.unknown.saturating_sub(tally.unknown_applied);
        }
    }
    Ok(Counted { kinds })
}
