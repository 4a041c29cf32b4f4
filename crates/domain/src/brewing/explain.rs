//! `GET /v1/recipes/{id}/stats?explain=true`: the working behind every figure, so a brewer can
//! check it by hand. Each figure gets its formula (a name and where it is published), the inputs
//! it reads (named, with units), the intermediate steps and the result; OG and colour break down
//! per fermentable, IBU per hop.
//!
//! The explanations are built from the same functions as the figures themselves and from the same
//! unrounded intermediates; a test holds every `result` equal to the figure `/stats` returns.
//! Intermediate values are rounded to 4 decimals for reading only.

use serde::Serialize;
use uuid::Uuid;

use super::stats::{BrewingContext, RecipeStats, StatsInput, unrounded};
use super::{bitterness, calories, colour, gallons, gravity, pounds, round_to};

/// A formula's name and where it is published.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Formula {
    /// The formula as a brewer writes it, e.g. `IBU = bigness × boil time factor × mg/L`.
    pub name: String,
    /// Where it is published (author, title).
    pub source: String,
}

/// One named value a formula reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplainedInput {
    pub name: String,
    pub value: f64,
    /// `L`, `kg`, `g`, `gal`, `lb`, `%`, `SG`, `min`, `SRM`, `points`, … (empty for a ratio).
    pub unit: String,
}

/// One intermediate value, labelled with how it is computed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplainedStep {
    pub label: String,
    pub value: f64,
}

/// One ingredient's share of a figure: a fermentable's gravity points or colour units, a hop's IBU.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplainedPart {
    /// The fermentable's or hop's id.
    pub id: Uuid,
    pub name: String,
    pub inputs: Vec<ExplainedInput>,
    pub steps: Vec<ExplainedStep>,
    /// Unrounded to 4 decimals: the parts add up to the figure before it is rounded.
    pub result: f64,
}

/// How one figure is computed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Explanation {
    pub formula: Formula,
    pub inputs: Vec<ExplainedInput>,
    pub steps: Vec<ExplainedStep>,
    /// Per fermentable (OG, colour) or per hop (IBU); empty for the other figures.
    pub parts: Vec<ExplainedPart>,
    /// The figure exactly as `/stats` returns it; null only for BU:GU without gravity points.
    pub result: Option<f64>,
}

/// `explain` in `/stats`: one explanation per figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatsExplanation {
    pub og: Explanation,
    pub fg: Explanation,
    pub abv: Explanation,
    pub ibu: Explanation,
    pub srm: Explanation,
    pub ebc: Explanation,
    pub attenuation: Explanation,
    pub calories: Explanation,
    pub calories_per_liter: Explanation,
    pub bu_gu: Explanation,
}

fn named(name: &str, value: f64, unit: &str) -> ExplainedInput {
    ExplainedInput {
        name: name.to_owned(),
        value: round_to(value, 4),
        unit: unit.to_owned(),
    }
}

fn step(label: impl Into<String>, value: f64) -> ExplainedStep {
    ExplainedStep {
        label: label.into(),
        value: round_to(value, 4),
    }
}

fn formula(name: &str, source: &str) -> Formula {
    Formula {
        name: name.to_owned(),
        source: source.to_owned(),
    }
}

fn explanation(
    formula: Formula,
    inputs: Vec<ExplainedInput>,
    steps: Vec<ExplainedStep>,
    result: f64,
) -> Explanation {
    Explanation {
        formula,
        inputs,
        steps,
        parts: Vec::new(),
        result: Some(result),
    }
}

const PALMER: &str = "John Palmer, How to Brew, ch. 12.6 \"Planning Malt Quantities\": extract in points per pound per gallon";
const TINSETH: &str =
    "Glenn Tinseth, \"The Tinseth Model of Hop Utilization\" (realbeer.com, 1997)";
const MOREY: &str = "Dan Morey's equation, as BeerSmith, Brewtarget and Brewer's Friend use it";
const BALLING: &str = "The ASBC calorie method as brewing calculators use it, with Balling's real extract RE = 0.1808 OE + 0.8192 AE";

/// Every figure of `stats` explained. `stats` must be [`super::compute_stats_with`]'s answer for
/// the same `input` and `context`: each `result` is taken from it so the two never disagree.
pub fn explain(
    input: &StatsInput<'_>,
    context: &BrewingContext<'_>,
    stats: &RecipeStats,
) -> StatsExplanation {
    let u = unrounded(input, context);
    let volume = context.gravity_volume_liters(input.batch_size_liters);
    let gal = gallons(volume);

    // OG: each fermentable's points over the wort's volume.
    let mut og_inputs = vec![named("batch size", input.batch_size_liters, "L")];
    if context.equipment.is_some() {
        og_inputs.push(named("volume with trub and chiller loss", volume, "L"));
    }
    og_inputs.push(named("volume", gal, "gal"));
    og_inputs.push(named("mash efficiency", input.efficiency * 100.0, "%"));
    let og_parts: Vec<ExplainedPart> = input
        .fermentables
        .iter()
        .map(|f| {
            let e = gravity::extract_efficiency(f.kind, input.efficiency);
            let points = gravity::fermentable_points(f, gal, input.efficiency);
            ExplainedPart {
                id: f.id,
                name: f.name.clone(),
                inputs: vec![
                    named("amount", pounds(f.amount_kg), "lb"),
                    named("yield", f.yield_percent, "%"),
                    named("efficiency applied", e * 100.0, "%"),
                ],
                steps: vec![step(
                    if f.added.in_the_wort() {
                        "points = lb × 46.21 × yield × efficiency ÷ gal"
                    } else {
                        "points added in the fermenter (ABV only) = lb × 46.21 × yield ÷ gal"
                    },
                    points,
                )],
                result: round_to(points, 4),
            }
        })
        .collect();
    let mut og = explanation(
        formula(
            "OG = 1 + Σ (lb × 46.21 × yield × efficiency ÷ gal) ÷ 1000",
            PALMER,
        ),
        og_inputs,
        vec![
            step("gravity points (all but fermenter additions)", u.points),
            step("OG = 1 + points ÷ 1000", u.og),
        ],
        stats.og,
    );
    og.parts = og_parts;

    // Attenuation: the strongest yeast.
    let attenuation = Explanation {
        inputs: input
            .yeasts
            .iter()
            .map(|y| {
                named(
                    &format!("{} attenuation", y.name),
                    gravity::yeast_attenuation(y),
                    "%",
                )
            })
            .collect(),
        ..explanation(
            formula(
                "attenuation = the largest apparent attenuation of the recipe's yeasts (75 % when a yeast gives none, 0 without yeast)",
                "The yeast makers' stated apparent attenuation",
            ),
            Vec::new(),
            vec![step("largest", u.attenuation)],
            stats.attenuation,
        )
    };

    let fg = explanation(
        formula(
            "FG = 1 + points × (1 − attenuation ÷ 100) ÷ 1000",
            "Apparent attenuation, as yeast makers state it: the share of the gravity points the yeast ferments",
        ),
        vec![
            named("gravity points", u.points, "points"),
            named("attenuation", u.attenuation, "%"),
        ],
        vec![
            step(
                "points left = points × (1 − attenuation ÷ 100)",
                u.points * (1.0 - u.attenuation / 100.0),
            ),
            step("FG = 1 + points left ÷ 1000", u.fg),
        ],
        stats.fg,
    );

    let abv = explanation(
        formula(
            "ABV = (OG + fermenter points ÷ 1000 − FG) × 131.25",
            "The common homebrew approximation, as brewing calculators use it",
        ),
        vec![
            named("OG", u.og, "SG"),
            named(
                "points added in the fermenter",
                u.fermenter_points,
                "points",
            ),
            named("FG", u.fg, "SG"),
        ],
        vec![
            step(
                "gravity fermented = OG + fermenter points ÷ 1000 − FG",
                u.og + u.fermenter_points / 1000.0 - u.fg,
            ),
            step(
                "ABV = gravity fermented × 131.25",
                gravity::abv_with_fermenter(u.og, u.fermenter_points, u.fg),
            ),
        ],
        stats.abv,
    );

    let ibu = explain_ibu(input, context, &u, volume, stats);
    let (srm, ebc) = explain_colour(input, stats);
    let (calories, calories_per_liter) = explain_calories(&u, stats);

    let bu_gu = Explanation {
        result: stats.bu_gu,
        ..explanation(
            formula(
                "BU:GU = IBU ÷ gravity points (null without gravity points)",
                "Ray Daniels, Designing Great Beers (1996), the bitterness ratio",
            ),
            vec![
                named("IBU", u.ibu, "IBU"),
                named("gravity points", u.points, "points"),
            ],
            bitterness::bu_gu(u.ibu, u.points)
                .map(|r| vec![step("IBU ÷ points", r)])
                .unwrap_or_default(),
            0.0,
        )
    };

    StatsExplanation {
        og,
        fg,
        abv,
        ibu,
        srm,
        ebc,
        attenuation,
        calories,
        calories_per_liter,
        bu_gu,
    }
}

/// Tinseth per hop: the minutes that count, bigness, boil-time factor, alpha acid per litre, the
/// kettle's and form's utilisation factor.
fn explain_ibu(
    input: &StatsInput<'_>,
    context: &BrewingContext<'_>,
    u: &super::stats::Unrounded,
    volume: f64,
    stats: &RecipeStats,
) -> Explanation {
    let parts = input
        .hops
        .iter()
        .zip(&u.hop_ibus)
        .enumerate()
        .map(|(i, (hop, &ibu))| {
            let (minutes, multiplier) = bitterness::boil_equivalent_at(
                hop.hop_use,
                hop.time_minutes,
                input.boil_time_minutes,
                hop.temperature_c,
            );
            let factor = context.utilisation_factor(i);
            let mut inputs = vec![
                named("amount", hop.amount_grams, "g"),
                named("alpha acid", hop.alpha_acid, "%"),
                named("time", hop.time_minutes, "min"),
            ];
            if let Some(t) = hop.temperature_c {
                inputs.push(named("hop stand temperature", t, "°C"));
            }
            ExplainedPart {
                id: hop.id,
                name: hop.name.clone(),
                inputs,
                steps: vec![
                    step(
                        format!("minutes that count as boiling ({})", hop.hop_use.as_str()),
                        minutes,
                    ),
                    step("use multiplier (first wort 1.10, dry hop 0)", multiplier),
                    step(
                        "bigness = 1.65 × 0.000125^(OG − 1)",
                        bitterness::bigness_factor(u.og),
                    ),
                    step(
                        "boil time factor = (1 − e^(−0.04 × minutes)) ÷ 4.15",
                        bitterness::boil_time_factor(minutes),
                    ),
                    step(
                        "alpha acid mg/L = alpha ÷ 100 × g × 1000 ÷ L",
                        bitterness::alpha_acid_mg_per_liter(
                            hop.alpha_acid,
                            hop.amount_grams,
                            volume,
                        ),
                    ),
                    step("kettle utilisation × hop form factor", factor),
                    step(
                        "IBU = multiplier × bigness × time factor × mg/L × utilisation factor",
                        ibu,
                    ),
                ],
                result: round_to(ibu, 4),
            }
        })
        .collect();
    Explanation {
        parts,
        ..explanation(
            formula(
                "IBU = Σ bigness(OG) × boil time factor(minutes) × alpha acid mg/L",
                TINSETH,
            ),
            vec![
                named("OG", u.og, "SG"),
                named("volume", volume, "L"),
                named("boil time", input.boil_time_minutes, "min"),
            ],
            vec![step("sum of the hops' IBU", u.ibu)],
            stats.ibu,
        )
    }
}

/// Morey per fermentable's malt colour units, then EBC.
fn explain_colour(input: &StatsInput<'_>, stats: &RecipeStats) -> (Explanation, Explanation) {
    let gal = gallons(input.batch_size_liters);
    let mcu = colour::malt_colour_units(input.batch_size_liters, input.fermentables);
    let srm = colour::morey_srm(mcu);
    let parts = input
        .fermentables
        .iter()
        .map(|f| {
            let units = colour::malt_colour_units(input.batch_size_liters, std::slice::from_ref(f));
            ExplainedPart {
                id: f.id,
                name: f.name.clone(),
                inputs: vec![
                    named("amount", pounds(f.amount_kg), "lb"),
                    named("colour", f.color_srm, "SRM"),
                ],
                steps: vec![step("MCU = lb × colour ÷ gal", units)],
                result: round_to(units, 4),
            }
        })
        .collect();
    let srm_explained = Explanation {
        parts,
        ..explanation(
            formula(
                "SRM = 1.4922 × MCU^0.6859, MCU = Σ lb × colour ÷ gal",
                MOREY,
            ),
            vec![
                named("batch size", input.batch_size_liters, "L"),
                named("volume", gal, "gal"),
            ],
            vec![
                step("malt colour units (MCU)", mcu),
                step("SRM = 1.4922 × MCU^0.6859", srm),
            ],
            stats.srm,
        )
    };
    let ebc = explanation(
        formula(
            "EBC = 1.97 × SRM",
            "The usual linear conversion between the two colour scales",
        ),
        vec![named("SRM", srm, "SRM")],
        vec![step("EBC = 1.97 × SRM", colour::ebc(srm))],
        stats.ebc,
    );
    (srm_explained, ebc)
}

/// The ASBC calories from the unrounded OG (plus fermenter sugar) and FG.
fn explain_calories(
    u: &super::stats::Unrounded,
    stats: &RecipeStats,
) -> (Explanation, Explanation) {
    let from = u.og + u.fermenter_points / 1000.0;
    let oe = calories::plato(from);
    let ae = calories::plato(u.fg);
    let re = calories::real_extract(oe, ae);
    let abw = calories::alcohol_by_weight(oe, re);
    let per_100ml = calories::kcal_per_100ml(from, u.fg);
    let inputs = vec![
        named("OG (with fermenter additions)", from, "SG"),
        named("FG", u.fg, "SG"),
    ];
    let steps = vec![
        step("OE = P(OG) = −463.37 + 668.72 OG − 205.35 OG²", oe),
        step("AE = P(FG)", ae),
        step("RE = 0.1808 OE + 0.8192 AE", re),
        step("ABW = (OE − RE) ÷ (2.0665 − 0.010665 OE)", abw),
        step("kcal/100 mL = (6.9 ABW + 4.0 (RE − 0.1)) × FG", per_100ml),
    ];
    let serving = explanation(
        formula("kcal per 355 mL = kcal/100 mL × 3.55", BALLING),
        inputs.clone(),
        [
            steps.clone(),
            vec![step(
                "per 355 mL (12 US fl oz)",
                calories::kcal_per_serving(per_100ml),
            )],
        ]
        .concat(),
        stats.calories,
    );
    let liter = explanation(
        formula("kcal per litre = kcal/100 mL × 10", BALLING),
        inputs,
        [
            steps,
            vec![step("per litre", calories::kcal_per_liter(per_100ml))],
        ]
        .concat(),
        stats.calories_per_liter,
    );
    (serving, liter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brewing::compute_stats_with;
    use crate::brewing::fixtures::{fermentable, hop, twenty_liters, yeast};
    use crate::equipment::EquipmentProfile;
    use crate::recipe_children::FermentableType::{Grain, Sugar};
    use crate::recipe_children::HopUse::{Boil, DryHop, Whirlpool};

    #[test]
    fn every_result_is_the_figure_and_the_parts_add_up() {
        let bill = [
            fermentable(Grain, 5.0, 3.0, 80.0),
            fermentable(Sugar, 1.0, 0.0, 100.0),
        ];
        let mut stand = hop(Whirlpool, 8.0, 30.0, 20.0);
        stand.temperature_c = Some(85.0);
        let hops = [
            hop(Boil, 5.0, 28.0, 60.0),
            hop(DryHop, 12.0, 50.0, 4320.0),
            stand,
        ];
        let yeasts = [yeast(Some(70.0)), yeast(None)];
        let kit = EquipmentProfile {
            trub_chiller_loss_liters: 1.5,
            hop_utilization_percent: 90.0,
            ..EquipmentProfile::lossless("Kit", 20.0)
        };
        for context in [
            BrewingContext::default(),
            BrewingContext {
                equipment: Some(&kit),
                hop_forms: &[],
            },
        ] {
            let input = twenty_liters(&bill, &hops, &yeasts);
            let stats = compute_stats_with(&input, &context);
            let e = explain(&input, &context, &stats);
            assert_eq!(e.og.result, Some(stats.og));
            assert_eq!(e.fg.result, Some(stats.fg));
            assert_eq!(e.abv.result, Some(stats.abv));
            assert_eq!(e.ibu.result, Some(stats.ibu));
            assert_eq!(e.srm.result, Some(stats.srm));
            assert_eq!(e.ebc.result, Some(stats.ebc));
            assert_eq!(e.attenuation.result, Some(stats.attenuation));
            assert_eq!(e.calories.result, Some(stats.calories));
            assert_eq!(e.calories_per_liter.result, Some(stats.calories_per_liter));
            assert_eq!(e.bu_gu.result, stats.bu_gu);
            // The OG's last step, unrounded, rounds to the figure.
            let last = e.og.steps.last().unwrap().value;
            assert_eq!(round_to(last, 4), stats.og);
            // Per hop: one part per hop, each the hop's own IBU, summing to the total.
            assert_eq!(e.ibu.parts.len(), 3);
            for (part, by_hop) in e.ibu.parts.iter().zip(&stats.ibu_by_hop) {
                assert_eq!(part.id, by_hop.hop_id);
                assert_eq!(round_to(part.result, 1), by_hop.ibu);
            }
            let sum: f64 = e.ibu.parts.iter().map(|p| p.result).sum();
            assert!((round_to(sum, 1) - stats.ibu).abs() < 0.05, "{sum}");
            // Per fermentable: gravity points adding up to the OG's.
            let points: f64 = e.og.parts.iter().map(|p| p.result).sum();
            assert!((points - e.og.steps[0].value).abs() < 0.001);
            assert_eq!(e.srm.parts.len(), 2);
        }
    }

    #[test]
    fn the_working_of_the_worked_example() {
        // The recipe of stats.rs's `a_whole_recipe`: 55.5323 + 19.2820 points, hop 1 12.9189 IBU.
        let bill = [
            fermentable(Grain, 5.0, 3.0, 80.0),
            fermentable(Sugar, 1.0, 0.0, 100.0),
        ];
        let hops = [hop(Boil, 5.0, 28.0, 60.0)];
        let yeasts = [yeast(Some(70.0))];
        let input = twenty_liters(&bill, &hops, &yeasts);
        let context = BrewingContext::default();
        let e = explain(&input, &context, &compute_stats_with(&input, &context));
        assert_eq!(e.og.parts[0].result, 55.5323);
        assert_eq!(e.og.parts[1].result, 19.282);
        let hop = &e.ibu.parts[0];
        let value = |label: &str| {
            hop.steps
                .iter()
                .find(|s| s.label.starts_with(label))
                .unwrap()
                .value
        };
        assert_eq!(value("bigness"), 0.8423);
        assert_eq!(value("boil time factor"), 0.2191);
        assert_eq!(value("alpha acid mg/L"), 70.0);
        assert_eq!(hop.result, 12.9189);
        assert_eq!(e.srm.steps[0].value, 6.259);
        let json = serde_json::to_value(&e).unwrap();
        assert!(
            json["og"]["formula"]["source"]
                .as_str()
                .unwrap()
                .contains("Palmer")
        );
        assert_eq!(json["bu_gu"]["result"], serde_json::json!(0.17));
    }

    #[test]
    fn no_gravity_points_means_no_bu_gu() {
        let input = twenty_liters(&[], &[], &[]);
        let context = BrewingContext::default();
        let e = explain(&input, &context, &compute_stats_with(&input, &context));
        assert_eq!(e.bu_gu.result, None);
        assert!(e.bu_gu.steps.is_empty());
        assert_eq!(e.og.result, Some(1.0));
    }
}
