//! What an import learns besides the recipes: warnings (kept going) and violations (refused),
//! each with its path into the file, and the shared rules for bounded numbers and capped text.

use crate::domain::Violation;
use crate::limits::{Bound, MAX_WARNINGS, MESSAGE_MAX_CHARS, QUOTE_MAX_CHARS};
use crate::{ImportError, Warning};

/// A path into the file, as the API's `path` arrays show it (docs/api-rules.md).
pub(crate) type Path = Vec<String>;

/// `path` with one more segment.
pub(crate) fn at(path: &[String], segment: impl ToString) -> Path {
    let mut p = path.to_vec();
    p.push(segment.to_string());
    p
}

/// `text` cut to at most `max` characters, the last of them an ellipsis when it was longer.
pub(crate) fn shortened(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some(_) => {
            let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
            cut.push('…');
            cut
        }
    }
}

/// A piece of the file's text in double quotes, for a message, cut to
/// [`QUOTE_MAX_CHARS`]: a word the file spells however it likes must not make every message
/// about it as long as itself.
pub(crate) fn quoted(text: &str) -> String {
    format!("\"{}\"", shortened(text, QUOTE_MAX_CHARS))
}

#[derive(Debug, Default)]
pub(crate) struct Report {
    /// The name of the recipe being read, for the warnings: the name as it is created, so at
    /// most the name's own bound (see [`Report::reading`]).
    recipe: String,
    /// At most [`MAX_WARNINGS`]; past them only [`Report::omitted`] grows.
    warnings: Vec<Warning>,
    /// Warnings found after the cap was reached.
    omitted: usize,
    violations: Vec<Violation>,
}

impl Report {
    /// The warnings that follow are about the recipe named `name` in the file. Each warning
    /// carries the name, so it is cut as the recipe's own name is ([`crate::limits::NAME_MAX`]).
    pub fn reading(&mut self, name: &str) {
        self.recipe = name.chars().take(crate::limits::NAME_MAX).collect();
    }

    pub fn warn(&mut self, path: &[String], message: impl Into<String>) {
        if self.warnings.len() >= MAX_WARNINGS {
            self.omitted += 1;
            return;
        }
        self.warnings.push(Warning {
            recipe: self.recipe.clone(),
            path: path.to_vec(),
            message: shortened(&message.into(), MESSAGE_MAX_CHARS),
        });
    }

    pub fn refuse(&mut self, violation: Violation) {
        self.violations.push(violation);
    }

    /// A required value the file lacks (Zod's wording).
    pub fn missing(&mut self, path: &[String], expected: &str) {
        self.refuse(
            violation("invalid_type", path, "Required")
                .with("expected", expected)
                .with("received", "undefined"),
        );
    }

    /// A value of the wrong kind: text where a number belongs, say.
    pub fn wrong_type(&mut self, path: &[String], expected: &str, received: &str) {
        self.refuse(
            violation(
                "invalid_type",
                path,
                format!("Expected {expected}, received {received}"),
            )
            .with("expected", expected)
            .with("received", received),
        );
    }

    /// `value` brought inside `bound`, with a warning when it had to move. A value at or below an
    /// exclusive minimum cannot be clamped to anything meaningful, so it is refused instead.
    pub fn clamp(&mut self, path: &[String], value: f64, bound: Bound) -> f64 {
        if bound.exclusive_min && value <= bound.min {
            self.refuse(
                violation(
                    "too_small",
                    path,
                    format!("Number must be greater than {}", bound.min),
                )
                .with("minimum", bound.min)
                .with("inclusive", false)
                .with("type", "number"),
            );
            return value;
        }
        let clamped = value.clamp(bound.min, bound.max);
        if clamped != value {
            self.warn(path, format!("{value} is out of range, {clamped} kept"));
        }
        clamped
    }

    /// An enum word of the file mapped by `map`; absent or unknown words give `default`, with
    /// a warning at `path` (whose last segment names the field).
    pub fn word<T: Copy>(
        &mut self,
        path: &[String],
        word: Option<&str>,
        map: fn(&str) -> Option<T>,
        (default, default_name): (T, &str),
    ) -> T {
        let field = path.last().map(String::as_str).unwrap_or_default();
        match word {
            Some(w) => map(w).unwrap_or_else(|| {
                self.warn(
                    path,
                    format!("unknown {field} {}: {default_name} assumed", quoted(w)),
                );
                default
            }),
            None => {
                self.warn(path, format!("no {field}: {default_name} assumed"));
                default
            }
        }
    }

    /// `text` cut to `max` characters, with a warning when it was longer. PostgreSQL text
    /// cannot hold U+0000, so a string containing it is refused as the API refuses it
    /// (docs/decisions/0024-strings-cannot-contain-nul.md).
    pub fn cap(&mut self, path: &[String], text: String, max: usize) -> String {
        if text.contains('\0') {
            self.refuse(
                violation(
                    "invalid_string",
                    path,
                    "String must not contain the NUL character (U+0000)",
                )
                .with("validation", "regex"),
            );
            return text.replace('\0', "");
        }
        if text.chars().count() <= max {
            return text;
        }
        self.warn(path, format!("longer than {max} characters, cut"));
        text.chars().take(max).collect()
    }

    /// Refusal when any violation was recorded. Past [`MAX_WARNINGS`], the last warning kept
    /// gives way to one that says how many more were found.
    pub fn into_result<T>(mut self, value: T) -> Result<(T, Vec<Warning>), ImportError> {
        if !self.violations.is_empty() {
            return Err(ImportError::Invalid(self.violations));
        }
        if self.omitted > 0 && self.warnings.pop().is_some() {
            let more = self.omitted + 1;
            self.warnings.push(Warning {
                recipe: String::new(),
                path: Vec::new(),
                message: format!("{more} more warnings not shown"),
            });
        }
        Ok((value, self.warnings))
    }
}

pub(crate) fn violation(
    code: &'static str,
    path: &[String],
    message: impl Into<String>,
) -> Violation {
    let mut v = Violation::new(code, &[], shortened(&message.into(), MESSAGE_MAX_CHARS));
    v.path = path.to_vec();
    v
}

/// The file as a whole is not a recipe file (no recipe, too many, a DTD…).
pub(crate) fn invalid_file(code: &'static str, path: &[String], message: &str) -> ImportError {
    ImportError::Invalid(vec![violation(code, path, message)])
}

/// More than [`crate::limits::MAX_RECIPES`] recipes: refused at the first one too many.
pub(crate) fn too_many_recipes(path: &[String]) -> ImportError {
    ImportError::Invalid(vec![
        violation(
            "too_big",
            path,
            format!(
                "A file may hold at most {} recipes",
                crate::limits::MAX_RECIPES
            ),
        )
        .with("maximum", crate::limits::MAX_RECIPES)
        .with("inclusive", true)
        .with("type", "array"),
    ])
}

/// More than [`crate::domain::MAX_INGREDIENTS_PER_KIND`] children of one kind in a recipe.
pub(crate) fn check_children(report: &mut Report, path: &[String], count: usize) {
    let max = crate::domain::MAX_INGREDIENTS_PER_KIND;
    if i64::try_from(count).map_or(true, |c| c > max) {
        report.refuse(
            violation(
                "too_big",
                path,
                format!("A recipe holds at most {max} of each kind"),
            )
            .with("maximum", max)
            .with("inclusive", true)
            .with("type", "array"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortened_cuts_on_a_character_with_an_ellipsis() {
        assert_eq!(shortened("abc", 3), "abc");
        assert_eq!(shortened("abcd", 3), "ab…");
        assert_eq!(shortened("ééééé", 4), "ééé…");
        assert_eq!(shortened("", 0), "");
        assert_eq!(quoted(&"ß".repeat(81)), format!("\"{}…\"", "ß".repeat(79)));
        assert_eq!(quoted(&"ß".repeat(80)), format!("\"{}\"", "ß".repeat(80)));
    }

    #[test]
    fn past_the_cap_the_last_warning_counts_the_rest() {
        let mut r = Report::default();
        r.reading(&"n".repeat(1_000));
        for i in 0..250 {
            r.warn(&[], format!("w{i}{}", "m".repeat(1_000)));
        }
        let Ok(((), warnings)) = r.into_result(()) else {
            panic!("no violation was recorded");
        };
        assert_eq!(warnings.len(), MAX_WARNINGS);
        assert!(warnings[98].message.starts_with("w98"));
        assert_eq!(warnings[99].message, "151 more warnings not shown");
        assert_eq!(warnings[0].recipe.chars().count(), crate::limits::NAME_MAX);
        assert_eq!(warnings[0].message.chars().count(), MESSAGE_MAX_CHARS);
        assert!(warnings[0].message.ends_with('…'));
    }
}
