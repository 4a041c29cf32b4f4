//! Exactly what wort sends to the AI provider (docs/ai.md describes it for operators).
//!
//! A recipe is described as plain text: every field, every ingredient and mash step, and the
//! computed statistics (`/stats`), so the model never has to redo brewing maths it is bad at.

use std::fmt::Write;

use super::chat::{ChatMessage, MessageRole};
use super::{PromptMessage, PromptRole};
use crate::brewing::RecipeStats;
use crate::recipe::RecipeDetail;

/// The assistant's standing instructions in a chat.
pub const CHAT_SYSTEM_PROMPT: &str = "You are wort's brewing assistant, an experienced homebrewer \
and beer judge. Answer questions about brewing beer: recipes, ingredients, mashing, boiling, \
fermentation, packaging and troubleshooting. Be concise and practical, use metric units, and say \
so when you are unsure.";

/// The instructions of a recipe analysis.
pub const ANALYSIS_SYSTEM_PROMPT: &str = "You are an experienced homebrewer and certified beer \
judge reviewing a homebrewer's recipe. The statistics given were computed by the brewing software \
from the ingredients; trust them rather than recomputing them.";

/// What a recipe analysis asks for: balance, style fit, suggestions.
pub const ANALYSIS_REQUEST: &str = "Assess this recipe. Cover: 1) balance (malt versus \
bitterness, BU:GU, body, colour and strength); 2) fit to the stated style, naming the guidelines' \
ranges it misses; 3) concrete suggestions to improve it (ingredients, amounts, mash, hops, yeast \
and fermentation). Keep it under 400 words.";

/// At most this many earlier messages of a thread are sent as context…
pub const MAX_CONTEXT_MESSAGES: usize = 40;
/// …and at most this many characters of them (about 6,000 tokens), newest kept first, so a long
/// thread still fits small local models' context windows.
pub const MAX_CONTEXT_CHARS: usize = 24_000;

/// The conversation of `POST /v1/recipes/{id}/analysis`.
pub fn analysis(detail: &RecipeDetail, stats: &RecipeStats) -> Vec<PromptMessage> {
    vec![
        PromptMessage::new(PromptRole::System, ANALYSIS_SYSTEM_PROMPT),
        PromptMessage::new(
            PromptRole::User,
            format!("{ANALYSIS_REQUEST}\n\n{}", describe_recipe(detail, stats)),
        ),
    ]
}

/// The conversation of one chat turn: instructions, the recipe when the turn has one, the
/// thread's most recent earlier messages (within [`MAX_CONTEXT_MESSAGES`] and
/// [`MAX_CONTEXT_CHARS`]), then the new message.
pub fn chat(
    recipe: Option<(&RecipeDetail, &RecipeStats)>,
    history: &[ChatMessage],
    message: &str,
) -> Vec<PromptMessage> {
    let mut prompt = vec![PromptMessage::new(PromptRole::System, CHAT_SYSTEM_PROMPT)];
    if let Some((detail, stats)) = recipe {
        prompt.push(PromptMessage::new(
            PromptRole::System,
            format!(
                "The conversation is about this recipe of the user's:\n\n{}",
                describe_recipe(detail, stats)
            ),
        ));
    }
    prompt.extend(context(history).iter().map(|m| {
        let role = match m.role {
            MessageRole::User => PromptRole::User,
            MessageRole::Assistant => PromptRole::Assistant,
        };
        PromptMessage::new(role, m.content.clone())
    }));
    prompt.push(PromptMessage::new(PromptRole::User, message));
    prompt
}

/// The newest earlier messages that fit the budget, oldest first, starting with a user message
/// (an answer whose question was cut off would only confuse the model).
fn context(history: &[ChatMessage]) -> &[ChatMessage] {
    let mut chars = 0usize;
    let mut start = history.len();
    for (i, m) in history.iter().enumerate().rev() {
        let len = m.content.chars().count();
        if history.len() - i > MAX_CONTEXT_MESSAGES || chars + len > MAX_CONTEXT_CHARS {
            break;
        }
        chars += len;
        start = i;
    }
    let mut kept = history.get(start..).unwrap_or_default();
    while let Some((first, rest)) = kept.split_first() {
        if first.role == MessageRole::User {
            break;
        }
        kept = rest;
    }
    kept
}

/// Numbers as a person writes them: `23`, `5.5`, `0.72` (no `23.0`).
fn num(x: f64) -> String {
    format!("{x}")
}

fn opt_text(label: &str, value: Option<&str>) -> String {
    value.map_or_else(String::new, |v| format!(", {label} {v}"))
}

/// The recipe as plain text: every field, ingredient and mash step, then its statistics.
pub fn describe_recipe(detail: &RecipeDetail, stats: &RecipeStats) -> String {
    let r = &detail.recipe;
    let mut out = String::new();
    // `write!` into a String cannot fail; the results are ignored on purpose.
    let _ = writeln!(out, "Recipe: {}", r.name);
    let style = if r.style.is_empty() {
        "(not given)"
    } else {
        &r.style
    };
    let _ = writeln!(out, "Style: {style}");
    let _ = writeln!(out, "Method: {}", r.kind.as_str().replace('_', " "));
    let _ = writeln!(
        out,
        "Batch size: {} L; boil: {} min; mash efficiency: {}%",
        num(r.batch_size_liters),
        num(r.boil_time_minutes),
        num(crate::brewing::round_to(r.efficiency * 100.0, 2))
    );
    if let Some(notes) = &r.notes {
        let _ = writeln!(out, "Brewer's notes: {notes}");
    }

    let _ = writeln!(out, "\nFermentables:");
    if detail.fermentables.is_empty() {
        let _ = writeln!(out, "- (none)");
    }
    for f in &detail.fermentables {
        let _ = writeln!(
            out,
            "- {} ({}): {} kg, colour {} SRM, yield {}%{}{}",
            f.name,
            f.kind.as_str().replace('_', " "),
            num(f.amount_kg),
            num(f.color_srm),
            num(f.yield_percent),
            opt_text("origin", f.origin.as_deref()),
            opt_text("notes:", f.notes.as_deref()),
        );
    }

    let _ = writeln!(out, "\nHops:");
    if detail.hops.is_empty() {
        let _ = writeln!(out, "- (none)");
    }
    for h in &detail.hops {
        let _ = writeln!(
            out,
            "- {}: {} g, {}% alpha acid, {} for {} min",
            h.name,
            num(h.amount_grams),
            num(h.alpha_acid),
            h.hop_use.as_str().replace('_', " "),
            num(h.time_minutes),
        );
    }

    let _ = writeln!(out, "\nYeasts:");
    if detail.yeasts.is_empty() {
        let _ = writeln!(out, "- (none)");
    }
    for y in &detail.yeasts {
        let mut line = format!("- {} ({}", y.name, y.kind.as_str());
        if let Some(form) = y.form {
            let _ = write!(line, ", {}", form.as_str());
        }
        line.push(')');
        line.push_str(&opt_text("lab", y.lab.as_deref()));
        line.push_str(&opt_text("product", y.product_id.as_deref()));
        if let Some(att) = y.attenuation {
            let _ = write!(line, ", attenuation {}%", num(att));
        }
        match (y.min_temp_c, y.max_temp_c) {
            (Some(lo), Some(hi)) => {
                let _ = write!(line, ", {}–{} °C", num(lo), num(hi));
            }
            (Some(lo), None) => {
                let _ = write!(line, ", from {} °C", num(lo));
            }
            (None, Some(hi)) => {
                let _ = write!(line, ", up to {} °C", num(hi));
            }
            (None, None) => {}
        }
        if let Some(amount) = y.amount {
            let _ = write!(
                line,
                ", amount {} {}",
                num(amount),
                y.amount_unit.as_deref().unwrap_or("")
            );
        }
        line.push_str(&opt_text("notes:", y.notes.as_deref()));
        let _ = writeln!(out, "{}", line.trim_end());
    }

    let _ = writeln!(out, "\nOther ingredients:");
    if detail.miscs.is_empty() {
        let _ = writeln!(out, "- (none)");
    }
    for m in &detail.miscs {
        let _ = writeln!(
            out,
            "- {} ({}): {} {}, {} for {} min{}",
            m.name,
            m.kind.as_str().replace('_', " "),
            num(m.amount),
            m.amount_unit,
            m.misc_use.as_str(),
            num(m.time_minutes),
            opt_text("notes:", m.notes.as_deref()),
        );
    }

    let _ = writeln!(out, "\nMash steps:");
    if detail.mash_steps.is_empty() {
        let _ = writeln!(out, "- (none)");
    }
    for s in &detail.mash_steps {
        let mut line = format!(
            "- {} ({}): {} °C for {} min",
            s.name,
            s.kind.as_str(),
            num(s.temperature_c),
            num(s.duration_minutes)
        );
        if let Some(l) = s.infuse_amount_liters {
            let _ = write!(line, ", infuse {} L", num(l));
        }
        if let Some(t) = s.infuse_temperature_c {
            let _ = write!(line, ", infusion water at {} °C", num(t));
        }
        if let Some(r) = s.ramp_minutes {
            let _ = write!(line, ", ramp {} min", num(r));
        }
        let _ = writeln!(out, "{line}");
    }

    let _ = writeln!(out, "\nComputed statistics:");
    let _ = writeln!(
        out,
        "OG {:.4}, FG {:.4}, ABV {}%, IBU {} (Tinseth), colour {} SRM ({} EBC), apparent \
         attenuation {}%, {} kcal per 355 mL ({} kcal per litre), BU:GU {}",
        stats.og,
        stats.fg,
        num(stats.abv),
        num(stats.ibu),
        num(stats.srm),
        num(stats.ebc),
        num(stats.attenuation),
        num(stats.calories),
        num(stats.calories_per_liter),
        stats.bu_gu.map_or_else(|| "n/a".to_owned(), num),
    );
    if !stats.ibu_by_hop.is_empty() {
        let by_hop = stats
            .ibu_by_hop
            .iter()
            .zip(&detail.hops)
            .map(|(ibu, hop)| format!("{} {} IBU", hop.name, num(ibu.ibu)))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(out, "Bitterness by hop: {by_hop}");
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::brewing::compute_stats;
    use crate::recipe::{Recipe, RecipeType};
    use crate::recipe_children::{
        Fermentable, FermentableType, Hop, HopUse, MashStep, MashStepType, Yeast, YeastType,
    };
    use time::macros::datetime;
    use uuid::Uuid;

    fn recipe() -> RecipeDetail {
        let at = datetime!(2026-11-22 09:00:00 UTC);
        let recipe_id = Uuid::nil();
        RecipeDetail {
            recipe: Recipe {
                equipment_id: None,
                style_id: None,
                water_profile_id: None,
                target_water_profile_id: None,
                parent_recipe_id: None,
                parent_version: None,
                source_url: None,
                id: recipe_id,
                user_id: Uuid::nil().to_string(),
                name: "Session IPA".into(),
                style: "American IPA".into(),
                kind: RecipeType::AllGrain,
                batch_size_liters: 23.0,
                boil_time_minutes: 60.0,
                efficiency: 0.72,
                notes: Some("Soft water".into()),
                est_color_srm: 0.0,
                created_at: at,
                updated_at: at,
            },
            fermentables: vec![Fermentable {
                catalog_id: None,
                id: Uuid::from_u128(1),
                recipe_id,
                name: "Maris Otter".into(),
                kind: FermentableType::Grain,
                amount_kg: 4.5,
                color_srm: 3.0,
                yield_percent: 80.0,
                added: crate::recipe_children::FermentableAddition::Mash,
                origin: Some("UK".into()),
                notes: None,
                sort_order: 0,
                created_at: at,
            }],
            hops: vec![Hop {
                temperature_c: None,
                catalog_id: None,
                form: None,
                id: Uuid::from_u128(2),
                recipe_id,
                name: "Cascade".into(),
                alpha_acid: 5.5,
                amount_grams: 28.0,
                time_minutes: 60.0,
                hop_use: HopUse::Boil,
                sort_order: 0,
                created_at: at,
            }],
            yeasts: vec![Yeast {
                catalog_id: None,
                id: Uuid::from_u128(3),
                recipe_id,
                name: "US-05".into(),
                lab: Some("Fermentis".into()),
                product_id: None,
                kind: YeastType::Ale,
                form: None,
                attenuation: Some(81.0),
                min_temp_c: Some(15.0),
                max_temp_c: Some(22.0),
                amount: None,
                amount_unit: None,
                notes: None,
                sort_order: 0,
                created_at: at,
            }],
            miscs: vec![],
            mash_steps: vec![MashStep {
                id: Uuid::from_u128(4),
                recipe_id,
                name: "Saccharification".into(),
                kind: MashStepType::Infusion,
                temperature_c: 66.0,
                duration_minutes: 60.0,
                infuse_amount_liters: Some(15.0),
                infuse_temperature_c: None,
                ramp_minutes: None,
                sort_order: 0,
                created_at: at,
            }],
            water_additions: vec![],
            fermentation_steps: vec![],
        }
    }

    fn message(role: MessageRole, content: &str) -> ChatMessage {
        ChatMessage {
            id: Uuid::now_v7(),
            role,
            content: content.into(),
            created_at: datetime!(2026-11-22 09:00:00 UTC),
        }
    }

    #[test]
    fn the_analysis_prompt_carries_recipe_ingredients_and_stats() {
        let detail = recipe();
        let stats = compute_stats(&detail.stats_input());
        let prompt = analysis(&detail, &stats);
        assert_eq!(prompt.len(), 2);
        assert_eq!(prompt[0].role, PromptRole::System);
        let text = &prompt[1].content;
        assert!(text.starts_with(ANALYSIS_REQUEST));
        for expected in [
            "Recipe: Session IPA",
            "Style: American IPA",
            "Method: all grain",
            "Batch size: 23 L; boil: 60 min; mash efficiency: 72%",
            "Brewer's notes: Soft water",
            "- Maris Otter (grain): 4.5 kg, colour 3 SRM, yield 80%, origin UK",
            "- Cascade: 28 g, 5.5% alpha acid, boil for 60 min",
            "- US-05 (ale), lab Fermentis, attenuation 81%, 15–22 °C",
            "Other ingredients:\n- (none)",
            "- Saccharification (infusion): 66 °C for 60 min, infuse 15 L",
            &format!("OG {:.4}, FG {:.4}", stats.og, stats.fg),
            &format!("IBU {} (Tinseth)", stats.ibu),
            &format!("Cascade {} IBU", stats.ibu_by_hop[0].ibu),
        ] {
            assert!(text.contains(expected), "missing {expected:?} in\n{text}");
        }
    }

    #[test]
    fn a_chat_sends_instructions_recipe_history_then_the_message() {
        let detail = recipe();
        let stats = compute_stats(&detail.stats_input());
        let history = [
            message(MessageRole::User, "Which yeast?"),
            message(MessageRole::Assistant, "US-05."),
        ];
        let prompt = chat(Some((&detail, &stats)), &history, "How warm?");
        let roles: Vec<_> = prompt.iter().map(|m| m.role).collect();
        assert_eq!(
            roles,
            [
                PromptRole::System,
                PromptRole::System,
                PromptRole::User,
                PromptRole::Assistant,
                PromptRole::User
            ]
        );
        assert!(prompt[1].content.contains("Recipe: Session IPA"));
        assert_eq!(prompt[2].content, "Which yeast?");
        assert_eq!(prompt[3].content, "US-05.");
        assert_eq!(prompt[4].content, "How warm?");

        let without_recipe = chat(None, &[], "Hello");
        assert_eq!(without_recipe.len(), 2);
        assert_eq!(without_recipe[0].content, CHAT_SYSTEM_PROMPT);
    }

    #[test]
    fn long_threads_keep_the_newest_messages_within_the_budget() {
        let mut history = Vec::new();
        for i in 0..60 {
            history.push(message(MessageRole::User, &format!("question {i}")));
            history.push(message(MessageRole::Assistant, &format!("answer {i}")));
        }
        let kept = context(&history);
        assert_eq!(kept.len(), MAX_CONTEXT_MESSAGES);
        assert_eq!(kept[0].content, "question 40");
        assert_eq!(kept.last().unwrap().content, "answer 59");

        // A character budget: three 10,000-character messages do not all fit in 24,000.
        let big = "x".repeat(10_000);
        let history = [
            message(MessageRole::User, &big),
            message(MessageRole::Assistant, &big),
            message(MessageRole::User, &big),
            message(MessageRole::Assistant, "short"),
        ];
        let kept = context(&history);
        // The budget keeps the last three; the leading answer without its question is dropped.
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0].role, MessageRole::User);
        assert_eq!(kept[1].content, "short");
    }
}
