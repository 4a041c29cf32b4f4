//! Numbers in text wort writes for a person, kept as numbers so that each reader sees them in
//! their own units: the generated brew-day checklist, a scaled recipe's default name.
//!
//! A generated step stores its `title` and `description` as templates: `{0}`, `{1}`… stand for
//! the step's `quantities` (metric: litres, grams, °C, specific gravity, minutes), and a literal
//! brace is written twice (`{{`, `}}`), so an ingredient called "Citra {T90}" stays as it is.
//! The text is rendered when it is read, in the caller's preferences: a US/°F account reads
//! "Heat 3.70 gal of strike water to 163 °F", a metric one "Heat 14 L of strike water to
//! 72.9 °C". A step a person typed has no quantities and its text is never touched; when a person
//! edits the text of a generated step, what they typed is escaped, so it too reads as typed.

use serde::Serialize;

use crate::account::{AmountUnits, GravityDisplay, Preferences, TemperatureDisplay};
use crate::brewing::calories::plato;
use crate::brewing::{amount_text, round_to};

pub(crate) const GRAMS_PER_OUNCE: f64 = 28.349_523_125;
const GRAMS_PER_POUND: f64 = 453.592_37;
pub(crate) const LITERS_PER_GALLON: f64 = 3.785_411_784;
const MILLILITERS_PER_FLUID_OUNCE: f64 = 29.573_529_562_5;

/// What a quantity measures; its `value` is always metric: litres, grams, °C, SG or minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum QuantityKind {
    Volume,
    Mass,
    Temperature,
    Gravity,
    Duration,
}

impl QuantityKind {
    pub const ALL: &[Self] = &[
        Self::Volume,
        Self::Mass,
        Self::Temperature,
        Self::Gravity,
        Self::Duration,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Volume => "volume",
            Self::Mass => "mass",
            Self::Temperature => "temperature",
            Self::Gravity => "gravity",
            Self::Duration => "duration",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.as_str() == s)
    }

    /// The unit of `value`: litres, grams, °C, specific gravity, minutes.
    pub fn unit(self) -> &'static str {
        match self {
            Self::Volume => "L",
            Self::Mass => "g",
            Self::Temperature => "°C",
            Self::Gravity => "sg",
            Self::Duration => "min",
        }
    }
}

/// One number of a generated step, metric, in the order the text's `{n}` names them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Quantity {
    pub kind: QuantityKind,
    pub value: f64,
    /// `L`, `g`, `°C`, `sg` or `min`, by `kind`.
    #[cfg_attr(feature = "openapi", schema(example = "L"))]
    pub unit: &'static str,
}

impl Quantity {
    pub fn new(kind: QuantityKind, value: f64) -> Self {
        Quantity {
            kind,
            value,
            unit: kind.unit(),
        }
    }

    /// The quantity as a person with these preferences reads it ("3.70 gal", "163 °F").
    pub fn display(&self, prefs: &Preferences) -> String {
        let v = self.value;
        match (self.kind, prefs) {
            (QuantityKind::Volume, p) if p.amounts == AmountUnits::Us => {
                let gallons = v / LITERS_PER_GALLON;
                if gallons >= 0.25 {
                    format!("{gallons:.2} gal")
                } else {
                    let ounces = v * 1000.0 / MILLILITERS_PER_FLUID_OUNCE;
                    format!("{} fl oz", amount_text(ounces))
                }
            }
            (QuantityKind::Volume, _) if v < 1.0 => format!("{} ml", amount_text(v * 1000.0)),
            (QuantityKind::Volume, _) => format!("{} L", amount_text(v)),
            (QuantityKind::Mass, p) if p.amounts == AmountUnits::Us => {
                if v >= GRAMS_PER_POUND {
                    format!("{:.2} lb", v / GRAMS_PER_POUND)
                } else {
                    format!("{:.2} oz", v / GRAMS_PER_OUNCE)
                }
            }
            (QuantityKind::Mass, _) if v >= 1000.0 => format!("{} kg", amount_text(v / 1000.0)),
            (QuantityKind::Mass, _) => format!("{} g", amount_text(v)),
            (QuantityKind::Temperature, p) if p.temperature == TemperatureDisplay::F => {
                format!("{} °F", amount_text(round_to(v * 9.0 / 5.0 + 32.0, 0)))
            }
            (QuantityKind::Temperature, _) => format!("{} °C", amount_text(round_to(v, 1))),
            (QuantityKind::Gravity, p) => match p.gravity {
                GravityDisplay::Sg => format!("{v:.3}"),
                GravityDisplay::Plato => format!("{:.1} °P", plato(v)),
                // Brix reads as Plato for wort (the scales differ by well under 0.1).
                GravityDisplay::Brix => format!("{:.1} °Bx", plato(v)),
            },
            (QuantityKind::Duration, _) => format!("{} min", amount_text(v)),
        }
    }
}

/// Builds one step's templated text: each number becomes `{n}` and joins the step's quantities.
#[derive(Debug, Default)]
pub struct StepText {
    pub quantities: Vec<Quantity>,
}

impl StepText {
    /// A placeholder for the number (and records it).
    pub fn q(&mut self, kind: QuantityKind, value: f64) -> String {
        self.quantities.push(Quantity::new(kind, value));
        format!("{{{}}}", self.quantities.len() - 1)
    }
    pub fn liters(&mut self, value: f64) -> String {
        self.q(QuantityKind::Volume, value)
    }
    pub fn grams(&mut self, value: f64) -> String {
        self.q(QuantityKind::Mass, value)
    }
    pub fn celsius(&mut self, value: f64) -> String {
        self.q(QuantityKind::Temperature, value)
    }
    pub fn gravity(&mut self, value: f64) -> String {
        self.q(QuantityKind::Gravity, value)
    }
    pub fn minutes(&mut self, value: f64) -> String {
        self.q(QuantityKind::Duration, value)
    }

    /// A free-text amount (a misc's "2 tsp", "5 g"): a number when the unit is a mass or volume
    /// wort converts, otherwise the text as written (escaped).
    pub fn amount_with_unit(&mut self, amount: f64, unit: &str) -> String {
        let unit_lower = unit.trim().to_lowercase();
        let metric = match unit_lower.as_str() {
            "g" | "gram" | "grams" => Some((QuantityKind::Mass, amount)),
            "kg" | "kilogram" | "kilograms" => Some((QuantityKind::Mass, amount * 1000.0)),
            "ml" | "millilitre" | "millilitres" | "milliliter" | "milliliters" => {
                Some((QuantityKind::Volume, amount / 1000.0))
            }
            "l" | "litre" | "litres" | "liter" | "liters" => Some((QuantityKind::Volume, amount)),
            _ => None,
        };
        match metric {
            Some((kind, value)) => self.q(kind, value),
            None => literal(&format!("{} {unit}", amount_text(amount))),
        }
    }
}

/// Text that goes into a template as it is: braces doubled.
pub fn literal(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// The template read in the caller's units: `{n}` becomes quantity n, `{{`/`}}` a brace. A
/// placeholder without its quantity stays as written (never a panic on stored text).
pub fn render(template: &str, quantities: &[Quantity], prefs: &Preferences) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut chars = template.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|&(_, n)| n) == Some('{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek().map(|&(_, n)| n) == Some('}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let rest = &template[i + 1..];
                let index = rest
                    .find('}')
                    .and_then(|end| rest[..end].parse::<usize>().ok().map(|n| (n, end)));
                match index.and_then(|(n, end)| quantities.get(n).map(|q| (q, end))) {
                    Some((q, end)) => {
                        out.push_str(&q.display(prefs));
                        // Skip the digits and the closing brace.
                        for _ in 0..=rest[..end].chars().count() {
                            chars.next();
                        }
                    }
                    None => out.push('{'),
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us() -> Preferences {
        Preferences {
            amounts: AmountUnits::Us,
            temperature: TemperatureDisplay::F,
            gravity: GravityDisplay::Plato,
            ..Preferences::default()
        }
    }

    #[test]
    fn the_contracts_example_reads_in_us_units() {
        let mut t = StepText::default();
        let template = format!(
            "Heat {} of strike water to {}",
            t.liters(14.0),
            t.celsius(72.9)
        );
        assert_eq!(
            render(&template, &t.quantities, &us()),
            "Heat 3.70 gal of strike water to 163 °F"
        );
        assert_eq!(
            render(&template, &t.quantities, &Preferences::default()),
            "Heat 14 L of strike water to 72.9 °C"
        );
    }

    #[test]
    fn masses_volumes_and_gravity_pick_a_readable_unit() {
        let p = Preferences::default();
        let d = |k, v| Quantity::new(k, v).display(&p);
        let u = |k, v| Quantity::new(k, v).display(&us());
        assert_eq!(d(QuantityKind::Mass, 20.0), "20 g");
        assert_eq!(d(QuantityKind::Mass, 4500.0), "4.5 kg");
        assert_eq!(u(QuantityKind::Mass, 20.0), "0.71 oz");
        assert_eq!(u(QuantityKind::Mass, 4535.9237), "10.00 lb");
        assert_eq!(d(QuantityKind::Volume, 0.005), "5 ml");
        assert_eq!(u(QuantityKind::Volume, 0.005), "0.17 fl oz");
        assert_eq!(u(QuantityKind::Volume, 18.927_058_92), "5.00 gal");
        assert_eq!(d(QuantityKind::Gravity, 1.048), "1.048");
        assert_eq!(u(QuantityKind::Gravity, 1.048), "11.9 °P");
        assert_eq!(u(QuantityKind::Temperature, 100.0), "212 °F");
        assert_eq!(d(QuantityKind::Duration, 60.0), "60 min");
    }

    #[test]
    fn braces_in_names_survive_and_unknown_placeholders_stay() {
        let mut t = StepText::default();
        let template = format!("Add {} {}", t.grams(20.0), literal("Citra {T90}"));
        assert_eq!(
            render(&template, &t.quantities, &us()),
            "Add 0.71 oz Citra {T90}"
        );
        assert_eq!(render("{7} and {x}", &[], &us()), "{7} and {x}");
        assert_eq!(render("ends with {", &[], &us()), "ends with {");
    }

    #[test]
    fn free_text_misc_units_convert_when_known() {
        let mut t = StepText::default();
        let a = t.amount_with_unit(5.0, "g");
        let b = t.amount_with_unit(2.0, "tsp");
        let c = t.amount_with_unit(10.0, "mL");
        let text = render(&format!("{a}, {b}, {c}"), &t.quantities, &us());
        assert_eq!(text, "0.18 oz, 2 tsp, 0.34 fl oz");
    }
}
