//! Water agents: the brewing salts, acids and acidulated malt both formats list among their
//! miscs (BeerXML `MISC` `TYPE` `Water Agent`, BeerJSON `type` `water agent`). Those whose name
//! says which agent wort's water model knows become water additions, so they count in the
//! recipe's water (`/water`): their amount in the agent's unit (g of a salt, ml of an acid, kg
//! of acidulated malt) and their step (mash or sparge). The rest stay miscs, with a warning.

use crate::domain::{MiscType, MiscUse, NewMisc, NewWaterAddition, WaterAgent, WaterStep};
use crate::enums::fold;
use crate::limits;
use crate::report::{Path, Report, quoted};
use crate::units;

/// The agent a water agent's name says, if wort knows it. Names are matched on their letters
/// and digits only, in any case: `Calcium Chloride (CaCl2)`, `Epsom Salt (MgSO4)`,
/// `Lactic Acid 88%`, `Gypsum (CaSO4·2H2O)` (wort's own export).
pub(crate) fn agent_named(name: &str) -> Option<WaterAgent> {
    let n: String = fold(name)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
    // Most specific first: "epsom salt" is not table salt, "calcium chloride" not chalk.
    Some(
        if has(&["acidulated", "acidmalt", "sauermalz", "sourmalt"]) {
            WaterAgent::AcidulatedMalt
        } else if has(&["lactic"]) {
            WaterAgent::LacticAcid
        } else if has(&["phosphoric"]) {
            WaterAgent::PhosphoricAcid
        } else if has(&["epsom", "magnesiumsulfate", "magnesiumsulphate", "mgso4"]) {
            WaterAgent::EpsomSalt
        } else if has(&["gypsum", "calciumsulfate", "calciumsulphate", "caso4"]) {
            WaterAgent::Gypsum
        } else if has(&["calciumchloride", "cacl2"]) {
            WaterAgent::CalciumChloride
        } else if has(&[
            "bakingsoda",
            "sodiumbicarbonate",
            "bicarbonateofsoda",
            "nahco3",
        ]) {
            WaterAgent::BakingSoda
        } else if has(&["chalk", "calciumcarbonate", "caco3"]) {
            WaterAgent::Chalk
        } else if has(&["slakedlime", "calciumhydroxide", "picklinglime", "caoh2"]) {
            WaterAgent::SlakedLime
        } else if has(&["tablesalt", "sodiumchloride", "nacl", "kosher"]) || n == "salt" {
            WaterAgent::TableSalt
        } else {
            return None;
        },
    )
}

/// A percentage written in a name (`Lactic Acid 88%`, `Phosphoric acid 10 %`,
/// `Acidulated malt (2 % lactic)`): the number before the first `%`.
fn percent_in(name: &str) -> Option<f64> {
    let before = name.split('%').next().filter(|_| name.contains('%'))?;
    let digits: String = before
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits
        .replace(',', ".")
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
}

/// The amount of `misc` in the unit `agent` is measured in, if its unit converts: a mass for
/// salts and acidulated malt, a volume for the liquid acids.
/// Kept to nine decimals, so that BeerXML's `0.00238` kg is 2.38 g, not 2.3800000000000003.
fn amount_in_agent_unit(agent: WaterAgent, misc: &NewMisc) -> Option<f64> {
    let amount = match agent.unit() {
        "g" => units::kilograms(misc.amount, &misc.amount_unit).map(|kg| kg * 1_000.0),
        "kg" => units::kilograms(misc.amount, &misc.amount_unit),
        _ => units::liters(misc.amount, &misc.amount_unit).map(|l| l * 1_000.0),
    }?;
    Some((amount * 1e9).round() / 1e9)
}

/// Each water-agent misc wort's water model knows is taken out of `miscs` and returned as a
/// water addition; `path_of(i)` is the file path of misc `i` (in file order), for the
/// warnings. The miscs left and the additions are numbered in file order.
pub(crate) fn split(
    miscs: Vec<NewMisc>,
    path_of: impl Fn(usize) -> Path,
    r: &mut Report,
) -> (Vec<NewMisc>, Vec<NewWaterAddition>) {
    let mut kept = Vec::new();
    let mut additions = Vec::new();
    for (i, misc) in miscs.into_iter().enumerate() {
        if misc.kind != MiscType::WaterAgent {
            kept.push(misc);
            continue;
        }
        let path = path_of(i);
        match addition(&misc, &path, r) {
            Some(mut a) => {
                a.sort_order = Some(order(additions.len()));
                additions.push(a);
            }
            None => kept.push(misc),
        }
    }
    for (i, m) in kept.iter_mut().enumerate() {
        m.sort_order = Some(order(i));
    }
    (kept, additions)
}

fn order(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}

/// The water addition a water-agent misc is, or `None` (with a warning saying why it stays a
/// misc).
fn addition(misc: &NewMisc, path: &[String], r: &mut Report) -> Option<NewWaterAddition> {
    let Some(agent) = agent_named(&misc.name) else {
        r.warn(
            path,
            format!(
                "water agent {} is not one wort's water model knows: kept as an ingredient, \
                 not counted in the water",
                quoted(&misc.name)
            ),
        );
        return None;
    };
    let step = match misc.misc_use {
        MiscUse::Mash => WaterStep::Mash,
        MiscUse::Sparge => WaterStep::Sparge,
        MiscUse::Boil => {
            r.warn(
                path,
                format!(
                    "{} added to the boil: kept as a sparge addition, so it counts in the \
                     overall water profile but not in the mash",
                    quoted(&misc.name)
                ),
            );
            WaterStep::Sparge
        }
        other => {
            r.warn(
                path,
                format!(
                    "{} is added at {}, not to the mash, sparge or boil water: kept as an \
                     ingredient",
                    quoted(&misc.name),
                    other.as_str()
                ),
            );
            return None;
        }
    };
    let Some(amount) = amount_in_agent_unit(agent, misc) else {
        r.warn(
            path,
            format!(
                "{} is measured in {}, which cannot be read as {} of {}: kept as an ingredient",
                quoted(&misc.name),
                quoted(&misc.amount_unit),
                agent.unit(),
                agent.as_str()
            ),
        );
        return None;
    };
    let amount = r.clamp(path, amount, limits::WATER_AMOUNT);
    let given = percent_in(&misc.name).map(|p| r.clamp(path, p, limits::ACID_STRENGTH_PERCENT));
    let (strength_percent, acid_percent) = match agent {
        WaterAgent::LacticAcid | WaterAgent::PhosphoricAcid => {
            let strength = given.or_else(|| {
                let assumed = agent.default_strength_percent();
                if let Some(s) = assumed {
                    r.warn(
                        path,
                        format!("{} names no strength: {s} % assumed", quoted(&misc.name)),
                    );
                }
                assumed
            });
            (strength, None)
        }
        WaterAgent::AcidulatedMalt => (None, given.or(agent.default_acid_percent())),
        _ => (None, None),
    };
    Some(NewWaterAddition {
        agent,
        amount,
        strength_percent,
        acid_percent,
        step,
        sort_order: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_the_agent() {
        use WaterAgent as A;
        for (name, agent) in [
            ("Calcium Chloride (CaCl2)", A::CalciumChloride),
            ("Epsom Salt (MgSO4)", A::EpsomSalt),
            ("Gypsum (CaSO4)", A::Gypsum),
            ("Gypsum (CaSO4·2H2O)", A::Gypsum),
            ("Calcium Sulfate", A::Gypsum),
            ("Salt", A::TableSalt),
            ("Table salt (NaCl)", A::TableSalt),
            ("Baking Soda", A::BakingSoda),
            ("Sodium Bicarbonate", A::BakingSoda),
            ("Chalk", A::Chalk),
            ("Calcium Carbonate", A::Chalk),
            ("Slaked Lime (Ca(OH)2)", A::SlakedLime),
            ("Lactic Acid 88%", A::LacticAcid),
            ("Phosphoric acid 10 %", A::PhosphoricAcid),
            ("Acidulated malt (2 % lactic)", A::AcidulatedMalt),
        ] {
            assert_eq!(agent_named(name), Some(agent), "{name}");
        }
        assert_eq!(agent_named("Burton Salts"), None);
        assert_eq!(agent_named("Campden tablet"), None);
    }

    #[test]
    fn strengths_in_names() {
        assert_eq!(percent_in("Lactic Acid 88%"), Some(88.0));
        assert_eq!(percent_in("Phosphoric acid 10 %"), Some(10.0));
        assert_eq!(percent_in("Lactic acid 80,5%"), Some(80.5));
        assert_eq!(percent_in("Acidulated malt (2 % lactic)"), Some(2.0));
        assert_eq!(percent_in("Lactic Acid"), None);
        assert_eq!(percent_in("% lactic"), None);
    }
}
