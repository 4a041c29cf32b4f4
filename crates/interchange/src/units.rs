//! BeerJSON's units (every one its schema 1.0 allows for the fields wort reads) converted to
//! wort's: kg or g, litres, °C, minutes, SRM, specific gravity, percent.
//!
//! `None` means the unit is not one the schema allows for that kind of quantity.

/// Mass in kilograms.
pub(crate) fn kilograms(value: f64, unit: &str) -> Option<f64> {
    Some(match unit {
        "mg" => value / 1_000_000.0,
        "g" => value / 1_000.0,
        "kg" => value,
        "lb" => value * 0.453_592_37,
        "oz" => value * 0.028_349_523_125,
        _ => return None,
    })
}

/// Volume in litres (US customary and imperial measures as the schema names them).
pub(crate) fn liters(value: f64, unit: &str) -> Option<f64> {
    const US_GAL: f64 = 3.785_411_784;
    const IMP_GAL: f64 = 4.546_09;
    Some(match unit {
        "ml" => value / 1_000.0,
        "l" => value,
        "tsp" => value * US_GAL / 768.0,
        "tbsp" => value * US_GAL / 256.0,
        "floz" => value * US_GAL / 128.0,
        "cup" => value * US_GAL / 16.0,
        "pt" => value * US_GAL / 8.0,
        "qt" => value * US_GAL / 4.0,
        "gal" => value * US_GAL,
        // A US beer barrel is 31 gallons; the imperial one 36 imperial gallons.
        "bbl" => value * US_GAL * 31.0,
        "ifloz" => value * IMP_GAL / 160.0,
        "ipt" => value * IMP_GAL / 8.0,
        "iqt" => value * IMP_GAL / 4.0,
        "igal" => value * IMP_GAL,
        "ibbl" => value * IMP_GAL * 36.0,
        _ => return None,
    })
}

/// A grain absorption rate in litres per kilogram (BeerJSON's specific volume units).
pub(crate) fn liters_per_kg(value: f64, unit: &str) -> Option<f64> {
    const QT_PER_LB: f64 = 3.785_411_784 / 4.0 / 0.453_592_37;
    Some(match unit {
        "l/kg" => value,
        "l/g" => value * 1_000.0,
        "qt/lb" => value * QT_PER_LB,
        "gal/lb" => value * QT_PER_LB * 4.0,
        _ => return None,
    })
}

pub(crate) fn celsius(value: f64, unit: &str) -> Option<f64> {
    Some(match unit {
        "C" => value,
        "F" => (value - 32.0) * 5.0 / 9.0,
        _ => return None,
    })
}

pub(crate) fn minutes(value: f64, unit: &str) -> Option<f64> {
    Some(match unit {
        "sec" => value / 60.0,
        "min" => value,
        "hr" => value * 60.0,
        "day" => value * 1_440.0,
        "week" => value * 10_080.0,
        _ => return None,
    })
}

/// Colour in SRM. Lovibond is taken as SRM, as Brewtarget does; EBC = 1.97 × SRM, the factor
/// `/stats` uses.
pub(crate) fn srm(value: f64, unit: &str) -> Option<f64> {
    Some(match unit {
        "SRM" | "Lovi" => value,
        "EBC" => value / 1.97,
        _ => return None,
    })
}

/// Specific gravity from sg, °Plato or °Brix (Brix read as Plato: the refractometer correction
/// belongs to fermenting wort, not to a recipe's numbers).
pub(crate) fn specific_gravity(value: f64, unit: &str) -> Option<f64> {
    Some(match unit {
        "sg" => value,
        "plato" | "brix" => sg_from_plato(value),
        _ => return None,
    })
}

/// The ASBC approximation, written once in the domain.
pub(crate) use wort_domain::brewing::gravity::sg_from_plato;

/// Points per pound per gallon of pure sucrose, the 100 % of BeerXML's `YIELD`.
pub(crate) const SUCROSE_PPG: f64 = 46.21;

/// BeerXML `YIELD` (% of sucrose's extract) from a potential gravity such as 1.037.
pub(crate) fn yield_percent_from_potential(sg: f64) -> f64 {
    (sg - 1.0) * 1_000.0 / SUCROSE_PPG * 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-6)
    }

    #[test]
    fn worked_values() {
        assert!(close(kilograms(1.0, "lb"), 0.45359237));
        assert!(close(kilograms(16.0, "oz"), 0.45359237));
        assert!(close(kilograms(15_000.0, "mg"), 0.015));
        assert!(close(liters(5.0, "gal"), 18.92705892));
        assert!(close(liters(5.0, "igal"), 22.73045));
        assert!(close(liters(1.0, "qt"), 0.946352946));
        assert!(close(liters(1.0, "tsp"), 0.00492892159));
        assert!(close(liters(1.0, "bbl"), 117.347765));
        assert!(close(celsius(152.0, "F"), 66.6666667));
        assert!(close(minutes(1.0, "week"), 10_080.0));
        assert!(close(srm(19.7, "EBC"), 10.0));
        assert!(close(srm(60.0, "Lovi"), 60.0));
        // 12 °P ≈ 1.0484 (ASBC tables: 1.04837)
        assert!(specific_gravity(12.0, "plato").is_some_and(|sg| (sg - 1.04837).abs() < 2e-4));
        // 37.26 points / 46.21 = 80.6319 %
        assert!((yield_percent_from_potential(1.03726) - 80.6319).abs() < 1e-4);
    }

    #[test]
    fn wrong_kind_of_unit_is_none() {
        assert_eq!(kilograms(1.0, "l"), None);
        assert_eq!(liters(1.0, "kg"), None);
        assert_eq!(celsius(1.0, "K"), None);
        assert_eq!(minutes(1.0, "ms"), None);
        assert_eq!(srm(1.0, "lovibond"), None);
        assert_eq!(specific_gravity(1.0, "SG"), None);
    }
}
