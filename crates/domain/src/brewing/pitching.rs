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

#[cfg(test)]
mod tests {
    use super::*;

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
