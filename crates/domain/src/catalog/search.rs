//! The text a catalogue search compares: names folded the way a person typing expects them to
//! match. Case, accents and punctuation do not count ("Žatec" is "zatec", "US-05" is "us 05"),
//! and each run of words is also written without its spaces, so "us05", "us 05" and "US-05"
//! meet. The database compares the folded query with the folded names by trigrams (prefix and
//! typo tolerant); both sides are folded here, once, by the same function.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Bumped whenever [`fold`] or [`search_text`] changes, so stored texts are written again.
pub const SEARCH_TEXT_VERSION: u32 = 1;

/// The least trigram word similarity (0–1) between a query and a part of an item's search text
/// for the item to be found: "cascde" is 0.57 of "cascade", unrelated words stay below 0.3.
pub const TYPO_TOLERANCE: f64 = 0.5;

/// Latin letters that decomposition leaves whole, spelt as a person without the key types them.
fn spelt_out(c: char) -> Option<&'static str> {
    Some(match c {
        'ß' | 'ẞ' => "ss",
        'æ' | 'Æ' => "ae",
        'œ' | 'Œ' => "oe",
        'ø' | 'Ø' => "o",
        'đ' | 'Đ' | 'ð' | 'Ð' => "d",
        'þ' | 'Þ' => "th",
        'ł' | 'Ł' => "l",
        'ı' => "i",
        'ħ' | 'Ħ' => "h",
        _ => return None,
    })
}

/// Lower case, without diacritics, every run of other characters than letters and digits one
/// space, no space at either end: `"  Maris-Otter®"` → `"maris otter"`.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.nfd().filter(|c| !is_combining_mark(*c)) {
        if let Some(spelt) = spelt_out(c) {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push_str(spelt);
        } else if c.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(c.to_lowercase());
        } else {
            space = true;
        }
    }
    out
}

/// A query as the search compares it: [`fold`]ed.
pub fn normalise_query(q: &str) -> String {
    fold(q)
}

/// The stored search text of an item known by `names` (its name, aliases, and for some kinds a
/// lab, product id or supplier): each name folded, then its neighbouring words and all its words
/// written together (`"SafAle US-05"` → `"safale us 05 safaleus us05 safaleus05"`).
pub fn search_text(names: &[&str]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for name in names {
        let folded = fold(name);
        if folded.is_empty() || parts.contains(&folded) {
            continue;
        }
        let words: Vec<&str> = folded.split(' ').collect();
        let mut joined: Vec<String> = words.windows(2).map(|pair| pair.concat()).collect();
        if words.len() > 2 {
            joined.push(words.concat());
        }
        parts.push(folded.clone());
        parts.extend(
            joined
                .into_iter()
                .filter(|j| !folded.split(' ').any(|w| w == j)),
        );
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_drops_case_accents_and_punctuation() {
        assert_eq!(fold("Žatec"), "zatec");
        assert_eq!(fold("  Maris-Otter® "), "maris otter");
        assert_eq!(fold("US-05"), "us 05");
        assert_eq!(fold("Weißbier Hefe"), "weissbier hefe");
        assert_eq!(fold("Crème Brûlée"), "creme brulee");
        assert_eq!(fold("Søndergaard, Łódź"), "sondergaard lodz");
        assert_eq!(fold("—"), "");
    }

    #[test]
    fn word_runs_are_also_written_together() {
        assert_eq!(
            search_text(&["SafAle US-05", "US-05", "Fermentis"]),
            "safale us 05 safaleus us05 safaleus05 us 05 us05 fermentis"
        );
        assert_eq!(search_text(&["Citra", "citra"]), "citra");
        assert_eq!(search_text(&["Saaz", "Žatec"]), "saaz zatec");
    }

    #[test]
    fn each_spelling_of_a_product_id_finds_the_same_word() {
        let text = search_text(&["US-05"]);
        for q in ["us05", "US-05", "us 05", "Us 05"] {
            let q = normalise_query(q);
            assert!(
                format!(" {text} ").contains(&format!(" {q} ")),
                "{q} in {text}"
            );
        }
    }
}
