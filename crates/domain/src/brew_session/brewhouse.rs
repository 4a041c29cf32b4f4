//! A session's brewhouse numbers: the mash efficiency and real attenuation it reached, next to
//! the ones its recipe planned. Computed on read from the measured values and the recipe
//! snapshot, never stored.

use serde::Serialize;
use serde_json::Value;

use super::BrewSession;
use crate::brewing::brewhouse::{GristItem, mash_efficiency_percent, real_attenuation_percent};
use crate::brewing::round_to;
use crate::recipe_children::FermentableType;

/// Planned and measured, side by side; each `null` where its inputs are unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BrewhouseNumbers {
    /// The recipe's mash efficiency, % (1 decimal).
    pub planned_efficiency_percent: Option<f64>,
    /// The mash efficiency reached, % (1 decimal): from `measured_og` and the volume into the
    /// fermenter (`measured_batch_size_liters`, else the recipe's batch size) against the
    /// snapshot's grist; fermentables that are not mashed count whole. Null without a measured
    /// OG or without mashed grist.
    pub measured_efficiency_percent: Option<f64>,
    /// Real attenuation the recipe plans, % (1 decimal), from its estimated OG and FG.
    pub planned_real_attenuation_percent: Option<f64>,
    /// Real attenuation reached, % (1 decimal), from `measured_og` and `measured_fg`
    /// (Balling: RE = 0.1808 OE + 0.8192 AE). Null unless both are measured.
    pub measured_real_attenuation_percent: Option<f64>,
}

fn number(value: &Value, key: &str) -> Option<f64> {
    value.get(key)?.as_f64().filter(|x| x.is_finite())
}

/// The snapshot's fermentables as the efficiency needs them (an unreadable item is left out).
fn grist(snapshot: &Value) -> Vec<GristItem> {
    let Some(items) = snapshot.get("fermentables").and_then(Value::as_array) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            Some(GristItem {
                kind: FermentableType::parse(item.get("type")?.as_str()?)?,
                amount_kg: number(item, "amount_kg")?,
                yield_percent: number(item, "yield_percent")?,
            })
        })
        .collect()
}

impl BrewhouseNumbers {
    pub fn of(session: &BrewSession) -> Self {
        let snapshot = &session.recipe_snapshot;
        let stats = snapshot.get("stats").unwrap_or(&Value::Null);
        let volume = session
            .measured_batch_size_liters
            .or_else(|| number(snapshot, "batch_size_liters"));
        let percent = |x: f64| round_to(x, 1);
        BrewhouseNumbers {
            planned_efficiency_percent: number(snapshot, "efficiency").map(|e| percent(e * 100.0)),
            measured_efficiency_percent: session
                .measured_og
                .zip(volume)
                .and_then(|(og, liters)| mash_efficiency_percent(og, liters, &grist(snapshot)))
                .map(percent),
            planned_real_attenuation_percent: number(stats, "og")
                .zip(number(stats, "fg"))
                .and_then(|(og, fg)| real_attenuation_percent(og, fg))
                .map(percent),
            measured_real_attenuation_percent: session
                .measured_og
                .zip(session.measured_fg)
                .and_then(|(og, fg)| real_attenuation_percent(og, fg))
                .map(percent),
        }
    }
}
