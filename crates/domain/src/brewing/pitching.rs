//! How much yeast to pitch: the Fix / Mr Malty pitch rates, and Kai Troester's stir-plate growth
//! model for the starter that grows one pack to that count.

/// Million cells per mL of wort per °Plato for an ale (George and Laurie Fix, "An Analysis of
/// Brewing Techniques"; Jamil Zainasheff's Mr Malty calculator).
pub const ALE_RATE: f64 = 0.75;
/// The same for a lager: twice the ale rate.
pub const LAGER_RATE: f64 = 1.5;
/// The usual starter wort: 1.036, about 9 °P.
pub const STARTER_GRAVITY: f64 = 1.036;

/// Billion cells to pitch into `liters` of wort at `plato` °P at `rate` million cells per mL per
/// °P: `rate × mL × °P / 1000`.
///
/// Worked example (Mr Malty): 20 L of a 12 °P ale → 0.75 × 20,000 × 12 / 1000 = 180 billion.
pub fn cells_needed_billion(rate: f64, liters: f64, plato: f64) -> f64 {
    rate * liters * 1000.0 * plato / 1000.0
}

/// Grams of extract a stir-plate starter needs to grow `start` billion cells by `growth` billion
/// (Kai Troester, braukaiser.com, "Yeast growth in stir plate starters"): each gram of extract
/// grows 1.4 billion cells while there are fewer than 1.4 billion cells per gram; above that,
/// `2.33 − 0.67 × cells per gram` billion, none past about 3.5 cells per gram.
pub fn starter_extract_grams(start: f64, growth: f64) -> f64 {
    if growth <= 0.0 {
        return 0.0;
    }
    // Plenty of extract per cell: growth is 1.4 B per gram.
    let lean = growth / 1.4;
    if start / lean <= 1.4 {
        return lean;
    }
    // Crowded: growth = E × (2.33 − 0.67 × start / E) = 2.33 E − 0.67 start.
    (growth + 0.67 * start) / 2.33
}

/// Viability lost per day since the pack was made, percentage points: liquid yeast "drops 21 %
/// each month, or 0.7 % each day, from the date of manufacture", linearly, until none is left
/// after about 143 days (Brewer's Friend, yeast pitch rate and starter calculator).
pub const VIABILITY_LOSS_PER_DAY: f64 = 0.7;

/// The share of a liquid yeast pack alive `days` after it was made (%): `100 − 0.7 × days`,
/// never below 0. Worked example: 30 days → 79 %; 143 days → 0 (Brewer's Friend: "in 4.75
/// months or 143 days, this calculator assumes the yeast is 100 % dead").
pub fn viability_percent(days: f64) -> f64 {
    (100.0 - VIABILITY_LOSS_PER_DAY * days.max(0.0)).max(0.0)
}

/// Billion cells `extract_grams` of extract grows from `start` billion on a stir plate
/// (Troester): 1.4 per gram below 1.4 cells per gram, `2.33 − 0.67 × cells per gram` per gram
/// up to 3.5 cells per gram (where growth stops).
pub fn starter_growth_billion(start: f64, extract_grams: f64) -> f64 {
    if extract_grams <= 0.0 {
        return 0.0;
    }
    let density = start / extract_grams;
    if density < 1.4 {
        1.4 * extract_grams
    } else {
        (extract_grams * (2.33 - 0.67 * density)).max(0.0)
    }
}

/// Grams of extract in a litre of starter wort at `sg`: °P × SG × 10.
pub fn extract_grams_per_liter(sg: f64) -> f64 {
    super::calories::plato(sg) * sg * 10.0
}

/// The largest starter step: what a 5 L flask holds with room for the foam.
pub const MAX_STARTER_STEP_LITERS: f64 = 4.0;
/// Steps a starter plan takes at most; the last one holds whatever is still needed.
pub const MAX_STARTER_STEPS: usize = 3;

/// One step of a starter: litres of 1.036 wort on a stir plate, decanted before the next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StarterStep {
    pub liters: f64,
    pub cells_before_billion: f64,
    pub cells_after_billion: f64,
}

/// The starter that grows `start` billion cells to `needed`: one step when it fits in
/// [`MAX_STARTER_STEP_LITERS`], else successive steps of that size (each pitched with the last
/// one's cells), at most [`MAX_STARTER_STEPS`]. Empty when `start` is already enough.
pub fn starter_plan(start: f64, needed: f64) -> Vec<StarterStep> {
    let per_liter = extract_grams_per_liter(STARTER_GRAVITY);
    let mut steps = Vec::new();
    let mut cells = start;
    while cells < needed && steps.len() < MAX_STARTER_STEPS {
        let liters = starter_extract_grams(cells, needed - cells) / per_liter;
        let last = steps.len() + 1 == MAX_STARTER_STEPS;
        let capped = !last && liters > MAX_STARTER_STEP_LITERS;
        let liters = if capped {
            MAX_STARTER_STEP_LITERS
        } else {
            liters
        };
        // An uncapped step is solved to reach the count exactly: it is the last.
        let after = if capped {
            cells + starter_growth_billion(cells, liters * per_liter)
        } else {
            needed
        };
        steps.push(StarterStep {
            liters,
            cells_before_billion: cells,
            cells_after_billion: after,
        });
        if !capped || after <= cells {
            break;
        }
        cells = after;
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brewers_friend_viability() {
        assert_eq!(viability_percent(0.0), 100.0);
        assert!((viability_percent(30.0) - 79.0).abs() < 1e-9);
        assert!(viability_percent(143.0) < 0.1);
        assert_eq!(viability_percent(200.0), 0.0);
    }

    #[test]
    fn a_starter_in_one_step_and_in_several() {
        // 90 B viable cells to 185.8 B: lean growth, 95.8 / 1.4 = 68.43 g = 0.73 L of 1.036.
        let one = starter_plan(90.0, 185.8);
        assert_eq!(one.len(), 1);
        assert!((one[0].liters - 0.73).abs() < 0.005, "{:?}", one);
        assert!((one[0].cells_after_billion - 185.8).abs() < 1e-6);
        // A lager of 40 L from one old pack (30 B): more than one flask.
        let steps = starter_plan(30.0, 1000.0);
        assert!(steps.len() > 1, "{steps:?}");
        assert!(steps[0].liters <= MAX_STARTER_STEP_LITERS + 1e-9);
        assert!(
            (steps.last().unwrap().cells_after_billion - 1000.0).abs() < 1e-6,
            "{steps:?}"
        );
        for pair in steps.windows(2) {
            assert_eq!(pair[0].cells_after_billion, pair[1].cells_before_billion);
        }
        assert!(starter_plan(200.0, 185.8).is_empty());
    }

    #[test]
    fn mr_malty_worked_example() {
        assert!((cells_needed_billion(ALE_RATE, 20.0, 12.0) - 180.0).abs() < 1e-9);
        assert!((cells_needed_billion(LAGER_RATE, 20.0, 12.0) - 360.0).abs() < 1e-9);
    }

    #[test]
    fn troesters_growth_model() {
        // 90 billion cells grown by 96 billion: lean, 96 / 1.4 = 68.6 g of extract.
        assert!((starter_extract_grams(90.0, 96.0) - 68.571).abs() < 0.001);
        // 90 billion cells grown by 30: crowded, (30 + 0.67 × 90) / 2.33 = 38.76 g.
        let crowded = starter_extract_grams(90.0, 30.0);
        assert!((crowded - 38.755).abs() < 0.001);
        // …and the density it assumed is within the crowded branch (1.4–3.5 cells per gram).
        assert!((1.4..3.5).contains(&(90.0 / crowded)));
        assert_eq!(starter_extract_grams(90.0, 0.0), 0.0);
    }
}
