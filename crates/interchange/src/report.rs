//! What an import learns besides the recipes: warnings (kept going) and violations (refused),
//! each with its path into the file, and the shared rules for bounded numbers and capped text.

use crate::domain::Violation;
use crate::limits::Bound;
use crate::{ImportError, Warning};

/// A path into the file, as the contract's `path` arrays show it.
pub(crate) type Path = Vec<String>;

/// `path` with one more segment.
pub(crate) fn at(path: &[String], segment: impl ToString) -> Path {
    let mut p = path.to_vec();
    p.push(segment.to_string());
    p
}

#[derive(Debug, Default)]
pub(crate) struct Report {
    /// The name of the recipe being read, for the warnings.
    pub recipe: String,
    pub warnings: Vec<Warning>,
    pub violations: Vec<Violation>,
}

impl Report {
    pub fn warn(&mut self, path: &[String], message: impl Into<String>) {
        self.warnings.push(Warning {
            recipe: self.recipe.clone(),
            path: path.to_vec(),
            message: message.into(),
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
                    format!("unknown {field} \"{w}\": {default_name} assumed"),
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
    /// (docs/decisions.md, "Strings cannot contain U+0000").
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

    /// Refusal when any violation was recorded.
    pub fn into_result<T>(self, value: T) -> Result<(T, Vec<Warning>), ImportError> {
        if self.violations.is_empty() {
            Ok((value, self.warnings))
        } else {
            Err(ImportError::Invalid(self.violations))
        }
    }
}

pub(crate) fn violation(
    code: &'static str,
    path: &[String],
    message: impl Into<String>,
) -> Violation {
    let mut v = Violation::new(code, &[], message);
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
