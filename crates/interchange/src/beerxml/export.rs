//! wort → BeerXML 1.0: one `<RECIPES>` document, UTF-8, in BeerXML's fixed units.
//!
//! Written by hand rather than through a serializer: the document is flat, the element order is
//! BeerXML's, and escaping is the one rule that matters (below).

use std::fmt::Display;

use crate::domain::{
    Equipment, Fermentable, FermentableAddition, Hop, HopForm, HopUse, MashStep, Misc, Range,
    RecipeForExport, Style, Volumes, Yeast, style,
};
use crate::enums;
use crate::units;

pub fn export_beerxml(recipes: &[RecipeForExport]) -> String {
    let mut w = Writer::default();
    w.out
        .push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    w.open("RECIPES");
    for r in recipes {
        recipe(&mut w, r);
    }
    w.close("RECIPES");
    w.out
}

#[derive(Default)]
struct Writer {
    out: String,
    depth: usize,
}

impl Writer {
    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    fn open(&mut self, name: &str) {
        self.indent();
        self.out.push('<');
        self.out.push_str(name);
        self.out.push_str(">\n");
        self.depth += 1;
    }

    fn close(&mut self, name: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.indent();
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push_str(">\n");
    }

    fn field(&mut self, name: &str, value: impl Display) {
        self.text(name, &value.to_string());
    }

    fn text(&mut self, name: &str, value: &str) {
        self.indent();
        self.out.push('<');
        self.out.push_str(name);
        self.out.push('>');
        escape_into(&mut self.out, value);
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push_str(">\n");
    }

    /// An XML comment: where an export tells a person something (there is no warnings list in a
    /// file). `--` cannot appear inside a comment, so it is written `- -`.
    fn comment(&mut self, text: &str) {
        self.indent();
        self.out.push_str("<!-- ");
        let mut safe = String::new();
        escape_into(&mut safe, text);
        self.out.push_str(&safe.replace("--", "- -"));
        self.out.push_str(" -->\n");
    }

    fn optional(&mut self, name: &str, value: Option<&str>) {
        if let Some(v) = value {
            self.text(name, v);
        }
    }

    fn optional_number(&mut self, name: &str, value: Option<f64>) {
        if let Some(v) = value {
            self.field(name, v);
        }
    }
}

/// Markup characters as entities; `\r` as a character reference so that XML's line-end
/// normalisation keeps it; the control characters XML 1.0 cannot carry at all are dropped.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            '\t' | '\n' => out.push(c),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
}

fn recipe(w: &mut Writer, export: &RecipeForExport) {
    let d = &export.detail;
    let r = &d.recipe;
    // The numbers the recipe page shows: with the recipe's equipment profile.
    let stats = &export.stats.stats;
    w.open("RECIPE");
    w.text("NAME", &r.name);
    w.field("VERSION", 1);
    w.text("TYPE", enums::beerxml_recipe_type(r.kind));
    // Required by BeerXML; files say they come from wort.
    w.text("BREWER", "wort");
    match r.style_id.as_deref().and_then(style) {
        Some(bjcp) => bjcp_style(w, bjcp, &r.style),
        None => own_style(w, &r.style),
    }
    if let (Some(e), Some(v)) = (&export.equipment, &export.stats.volumes) {
        equipment(w, e, v, r.boil_time_minutes, r.batch_size_liters);
    }
    w.field("BATCH_SIZE", r.batch_size_liters);
    // The kettle before the boil: the equipment profile's pre-boil volume; without a profile
    // wort models no losses, so the batch.
    w.field(
        "BOIL_SIZE",
        export
            .stats
            .volumes
            .as_ref()
            .map_or(r.batch_size_liters, |v| v.pre_boil_liters),
    );
    w.field("BOIL_TIME", r.boil_time_minutes);
    w.field("EFFICIENCY", r.efficiency * 100.0);
    w.optional("NOTES", r.notes.as_deref());
    list(w, "FERMENTABLES", &d.fermentables, fermentable);
    list(w, "HOPS", &d.hops, hop);
    list(w, "YEASTS", &d.yeasts, yeast);
    // Water additions travel as water-agent miscs (BeerXML has no other place for them).
    let miscs: Vec<Misc> = (d.miscs.iter().cloned())
        .chain(d.water_additions.iter().map(|a| a.as_misc()))
        .collect();
    list(w, "MISCS", &miscs, misc);
    if !d.mash_steps.is_empty() {
        w.open("MASH");
        w.text("NAME", "Mash");
        w.field("VERSION", 1);
        // Required by BeerXML; wort does not record it, so room temperature is written.
        w.field("GRAIN_TEMP", 20);
        list(w, "MASH_STEPS", &d.mash_steps, mash_step);
        w.close("MASH");
    }
    fermentation_stages(w, &d.fermentation_steps);
    // wort's own numbers (its `/stats`), as other programs show them.
    w.field("EST_OG", stats.og);
    w.field("EST_FG", stats.fg);
    w.field("EST_COLOR", stats.srm);
    w.field("IBU", stats.ibu);
    w.text("IBU_METHOD", "Tinseth");
    w.field("EST_ABV", stats.abv);
    w.close("RECIPE");
}

/// A BJCP 2021 style as BeerXML's `STYLE` record: guide, category number and letter, and the
/// guidelines' ranges where they give some. `TYPE` is BeerXML's coarse family: the lager
/// categories 1–9 are `Lager` (category 1 also holds the hybrid cream ale), 10 is `Wheat`, the
/// rest `Ale`. The recipe's own style text, when it has one, is kept as the name.
fn bjcp_style(w: &mut Writer, s: &Style, own_name: &str) {
    let number: String = s.id.chars().take_while(char::is_ascii_digit).collect();
    let letter: String = s.id.chars().skip_while(char::is_ascii_digit).collect();
    let family = crate::style_types::style_type(&s.id).beerxml();
    w.open("STYLE");
    w.text(
        "NAME",
        if own_name.is_empty() {
            &s.name
        } else {
            own_name
        },
    );
    w.text("CATEGORY", &s.category);
    w.field("VERSION", 1);
    w.text("CATEGORY_NUMBER", &number);
    w.text("STYLE_LETTER", &letter);
    w.text("STYLE_GUIDE", "BJCP 2021");
    w.text("TYPE", family);
    let ranges: [(&str, Option<Range>); 5] = [
        ("OG", s.og),
        ("FG", s.fg),
        ("IBU", s.ibu),
        ("COLOR", s.color_srm),
        ("ABV", s.abv),
    ];
    for (name, range) in ranges {
        match range {
            Some(range) => {
                w.field(&format!("{name}_MIN"), range.min);
                w.field(&format!("{name}_MAX"), range.max);
            }
            // ABV is optional in BeerXML; the other four ranges are required.
            None if name == "ABV" => {}
            None => {
                w.comment(&format!(
                    "wort: the BJCP 2021 guidelines give no {name} range for {} {}: written as 0",
                    s.id, s.name
                ));
                w.field(&format!("{name}_MIN"), 0);
                w.field(&format!("{name}_MAX"), 0);
            }
        }
    }
    w.close("STYLE");
}

/// A recipe without a BJCP style still gets a complete `STYLE` record (every field BeerXML
/// requires): its own style text as name and category ("Unspecified" without one), category 0, no letter or guide, `Ale`,
/// and every range 0, said in a comment (an export has no other place for a warning).
fn own_style(w: &mut Writer, own_name: &str) {
    // The name stays the recipe's own (empty when it has none, so it reads back as none).
    let category = if own_name.is_empty() {
        "Unspecified"
    } else {
        own_name
    };
    w.open("STYLE");
    w.text("NAME", own_name);
    w.text("CATEGORY", category);
    w.field("VERSION", 1);
    w.text("CATEGORY_NUMBER", "0");
    w.text("STYLE_LETTER", "");
    w.text("STYLE_GUIDE", "");
    w.text("TYPE", "Ale");
    w.comment("wort: the recipe names no BJCP style: type and ranges are placeholders (0)");
    for name in ["OG", "FG", "IBU", "COLOR"] {
        w.field(&format!("{name}_MIN"), 0);
        w.field(&format!("{name}_MAX"), 0);
    }
    w.close("STYLE");
}

/// The recipe's equipment profile as BeerXML's `EQUIPMENT`, with the volumes this recipe needs
/// on it (`BOIL_SIZE` is the pre-boil volume). BeerXML's `EVAP_RATE` is a percentage of the
/// pre-boil volume per hour; wort keeps litres per hour, so both are written (`BOIL_OFF_RATE` is
/// what Brewtarget and BeerSmith also read).
fn equipment(w: &mut Writer, e: &Equipment, v: &Volumes, boil_minutes: f64, batch_liters: f64) {
    let p = &e.profile;
    w.open("EQUIPMENT");
    w.text("NAME", &p.name);
    w.field("VERSION", 1);
    w.field("BOIL_SIZE", v.pre_boil_liters);
    w.field("BATCH_SIZE", batch_liters);
    w.field("TRUB_CHILLER_LOSS", p.trub_chiller_loss_liters);
    if v.pre_boil_liters > 0.0 {
        w.field(
            "EVAP_RATE",
            p.boil_off_liters_per_hour / v.pre_boil_liters * 100.0,
        );
    }
    w.field("BOIL_OFF_RATE", p.boil_off_liters_per_hour);
    w.field("BOIL_TIME", boil_minutes);
    w.text("CALC_BOIL_VOLUME", "TRUE");
    if let Some(capacity) = p.mash_tun_volume_liters {
        w.field("TUN_VOLUME", capacity);
    }
    w.field("LAUTER_DEADSPACE", p.mash_tun_deadspace_liters);
    w.field("TOP_UP_WATER", p.top_up_water_liters);
    w.field("HOP_UTILIZATION", p.hop_utilization_percent);
    w.optional("NOTES", p.notes.as_deref());
    w.close("EQUIPMENT");
}

fn list<T>(w: &mut Writer, name: &str, items: &[T], write: fn(&mut Writer, &T)) {
    w.open(name);
    for item in items {
        write(w, item);
    }
    w.close(name);
}

fn fermentable(w: &mut Writer, f: &Fermentable) {
    w.open("FERMENTABLE");
    w.text("NAME", &f.name);
    w.field("VERSION", 1);
    w.text("TYPE", &enums::title(f.kind.as_str()));
    w.field("AMOUNT", f.amount_kg);
    w.field("YIELD", f.yield_percent);
    w.field("COLOR", f.color_srm);
    let fermenter = f.added == FermentableAddition::Fermenter;
    w.text("ADD_AFTER_BOIL", if fermenter { "TRUE" } else { "FALSE" });
    // BeerXML has no word for a late boil addition or a sugar in the mash: wort's own `ADDED`
    // carries what `ADD_AFTER_BOIL` and the type do not say (other readers ignore it).
    if !fermenter && f.added != FermentableAddition::default_for(f.kind) {
        w.text("ADDED", f.added.as_str());
    }
    w.optional("ORIGIN", f.origin.as_deref());
    w.optional("NOTES", f.notes.as_deref());
    w.close("FERMENTABLE");
}

fn hop(w: &mut Writer, h: &Hop) {
    w.open("HOP");
    w.text("NAME", &h.name);
    w.field("VERSION", 1);
    w.field("ALPHA", h.alpha_acid);
    w.field("AMOUNT", h.amount_grams / 1_000.0);
    w.text("USE", enums::beerxml_hop_use(h.hop_use));
    w.field("TIME", h.time_minutes);
    // Not BeerXML 1.0, but what Brewfather writes for a steep's temperature (and reads).
    if h.hop_use == HopUse::Whirlpool {
        w.optional_number("TEMPERATURE", h.temperature_c);
    }
    // BeerXML 1.0 knows Pellet, Plug and Leaf; an extract has no word there.
    if let Some(form) = h.form.filter(|f| *f != HopForm::Extract) {
        w.text("FORM", &enums::title(form.as_str()));
    }
    w.close("HOP");
}

/// BeerXML amounts are kilograms or litres. wort's free-text units convert when they are a mass
/// or volume unit BeerJSON names (g, ml, oz, tsp…); others (pkg, items) cannot be carried.
fn kg_or_litres(amount: f64, unit: &str) -> Option<(f64, bool)> {
    units::kilograms(amount, unit)
        .map(|kg| (kg, true))
        .or_else(|| units::liters(amount, unit).map(|l| (l, false)))
}

fn yeast(w: &mut Writer, y: &Yeast) {
    w.open("YEAST");
    w.text("NAME", &y.name);
    w.field("VERSION", 1);
    w.text("TYPE", &enums::title(y.kind.as_str()));
    if let Some(form) = y.form {
        w.text("FORM", &enums::title(form.as_str()));
    }
    let converted = y
        .amount
        .zip(y.amount_unit.as_deref())
        .and_then(|(a, u)| kg_or_litres(a, u));
    if let Some((amount, is_weight)) = converted {
        w.field("AMOUNT", amount);
        w.text("AMOUNT_IS_WEIGHT", if is_weight { "TRUE" } else { "FALSE" });
    }
    if let (Some(amount), Some(unit)) = (y.amount, y.amount_unit.as_deref()) {
        if converted.is_none() {
            // AMOUNT is required; a count (a packet) is no mass or volume.
            w.field("AMOUNT", 0);
        }
        display_amount(w, amount, unit);
    }
    w.optional("LABORATORY", y.lab.as_deref());
    w.optional("PRODUCT_ID", y.product_id.as_deref());
    w.optional_number("MIN_TEMPERATURE", y.min_temp_c);
    w.optional_number("MAX_TEMPERATURE", y.max_temp_c);
    w.optional_number("ATTENUATION", y.attenuation);
    w.optional("NOTES", y.notes.as_deref());
    w.close("YEAST");
}

fn misc(w: &mut Writer, m: &Misc) {
    w.open("MISC");
    w.text("NAME", &m.name);
    w.field("VERSION", 1);
    w.text("TYPE", &enums::title(m.kind.as_str()));
    w.text("USE", enums::beerxml_misc_use(m.misc_use));
    w.field("TIME", m.time_minutes);
    match kg_or_litres(m.amount, &m.amount_unit) {
        Some((amount, is_weight)) => {
            w.field("AMOUNT", amount);
            w.text("AMOUNT_IS_WEIGHT", if is_weight { "TRUE" } else { "FALSE" });
        }
        // AMOUNT is required; a count cannot be a mass or a volume.
        None => w.field("AMOUNT", 0),
    }
    display_amount(w, m.amount, &m.amount_unit);
    w.optional("NOTES", m.notes.as_deref());
    w.close("MISC");
}

/// BeerXML's `DISPLAY_AMOUNT`: the amount in the brewer's own unit ("1 pkg", "1 tsp", "0.5 oz"),
/// which wort's import keeps (and other programs show) where `AMOUNT` would say litres of yeast.
fn display_amount(w: &mut Writer, amount: f64, unit: &str) {
    w.text("DISPLAY_AMOUNT", &format!("{amount} {unit}"));
}

/// The first three fermentation steps with days, as BeerXML's stages (it has no gravity
/// targets: a step ending on a gravity is written with no age).
fn fermentation_stages(w: &mut Writer, steps: &[crate::domain::FermentationStep]) {
    if steps.is_empty() {
        return;
    }
    let stages = steps.iter().take(3).collect::<Vec<_>>();
    w.field("FERMENTATION_STAGES", stages.len());
    for (s, prefix) in stages.iter().zip(["PRIMARY", "SECONDARY", "TERTIARY"]) {
        if let Some(days) = s.days {
            w.field(&format!("{prefix}_AGE"), days);
        }
        w.field(&format!("{prefix}_TEMP"), s.temperature_c);
    }
}

fn mash_step(w: &mut Writer, s: &MashStep) {
    w.open("MASH_STEP");
    w.text("NAME", &s.name);
    w.field("VERSION", 1);
    w.text("TYPE", &enums::title(s.kind.as_str()));
    w.optional_number("INFUSE_AMOUNT", s.infuse_amount_liters);
    // A display field in BeerXML; written as a number with its unit, as BeerSmith writes it.
    if let Some(t) = s.infuse_temperature_c {
        w.text("INFUSE_TEMP", &format!("{t} C"));
    }
    w.field("STEP_TEMP", s.temperature_c);
    w.field("STEP_TIME", s.duration_minutes);
    w.optional_number("RAMP_TIME", s.ramp_minutes);
    w.close("MASH_STEP");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        let mut s = String::new();
        escape_into(&mut s, "a<b & c>\r\n\u{1}\"'");
        assert_eq!(s, "a&lt;b &amp; c&gt;&#13;\n\"'");
    }
}
