//! An alert rule's rules: each field's bounds, which fields each kind takes, and how many rules an
//! account may hold.

use super::model::{AlertKind, Thresholds};
use crate::DomainError;
use crate::error::Violation;
use crate::rules::{FieldRules, NumberRule, Rule, caps, check_room};

pub const POINTS: NumberRule = NumberRule::range(0.1, 100.0);
/// A stall is judged over at least an hour (two hourly means) and at most a month.
pub const HOURS: NumberRule = NumberRule::range(1.0, 720.0);
/// A device may be allowed between 5 minutes (devices post at most once a minute) and a week.
pub const MINUTES: NumberRule = NumberRule::integer(5, 10_080);

pub const ALERT_RULE_FIELDS: FieldRules = &[
    ("gravity", Rule::Number(caps::GRAVITY)),
    ("min_c", Rule::Number(caps::TEMPERATURE_C)),
    ("max_c", Rule::Number(caps::TEMPERATURE_C)),
    ("points", Rule::Number(POINTS)),
    ("hours", Rule::Number(HOURS)),
    ("minutes", Rule::Number(MINUTES)),
];

/// A temperature alert is raised outside `[min_c, max_c]` and cleared only once the temperature
/// is back inside by this much, so a temperature hovering at an edge raises one alert, not one per
/// reading.
pub const TEMPERATURE_HYSTERESIS_C: f64 = 0.5;

/// The band must leave room to clear: wider than the hysteresis on both sides.
pub const MIN_BAND_C: f64 = 2.0 * TEMPERATURE_HYSTERESIS_C;

/// An account holds at most this many rules.
pub const MAX_RULES: i64 = 100;

/// Which threshold fields a kind takes (all required), by their JSON names.
pub fn fields_of(kind: AlertKind) -> &'static [&'static str] {
    match kind {
        AlertKind::GravityBelow | AlertKind::GravityAbove => &["gravity"],
        AlertKind::TemperatureOutside => &["min_c", "max_c"],
        AlertKind::Stalled => &["points", "hours"],
        AlertKind::DeviceSilent => &["minutes"],
    }
}

fn present(t: &Thresholds, field: &str) -> bool {
    match field {
        "gravity" => t.gravity.is_some(),
        "min_c" => t.min_c.is_some(),
        "max_c" => t.max_c.is_some(),
        "points" => t.points.is_some(),
        "hours" => t.hours.is_some(),
        "minutes" => t.minutes.is_some(),
        _ => false,
    }
}

const THRESHOLD_FIELDS: &[&str] = &["gravity", "min_c", "max_c", "points", "hours", "minutes"];

/// What is wrong with a rule of `kind` with these thresholds (each field's own bounds are checked
/// as it is read): a field the kind needs is missing or null, a field of another kind is set, or
/// the temperature band is too narrow to clear.
pub fn check_thresholds(kind: AlertKind, t: &Thresholds) -> Vec<Violation> {
    let wanted = fields_of(kind);
    let mut violations = Vec::new();
    for field in THRESHOLD_FIELDS {
        let set = present(t, field);
        if wanted.contains(field) && !set {
            violations.push(Violation::new(
                "custom",
                &[field],
                format!("A {} rule needs {field}", kind.as_str()),
            ));
        } else if !wanted.contains(field) && set {
            violations.push(Violation::new(
                "custom",
                &[field],
                format!(
                    "A {} rule does not take {field}; it takes {}",
                    kind.as_str(),
                    wanted.join(" and ")
                ),
            ));
        }
    }
    if let (Some(min), Some(max)) = (t.min_c, t.max_c)
        && max - min < MIN_BAND_C
    {
        violations.push(Violation::new(
            "custom",
            &["max_c"],
            format!(
                "max_c must be at least {MIN_BAND_C} °C above min_c, so that an alert can clear"
            ),
        ));
    }
    violations
}

pub fn too_many_rules() -> Violation {
    Violation::too_many(
        &[],
        MAX_RULES,
        format!("An account holds at most {MAX_RULES} alert rules; delete one first"),
    )
}

/// An account holding `count` rules may add one more only below [`MAX_RULES`].
pub fn check_rule_room(count: i64) -> Result<(), DomainError> {
    check_room(count, MAX_RULES, too_many_rules)
}

/// The session named is not one of the account's.
pub fn unknown_session() -> Violation {
    Violation::new("custom", &["session_id"], "No brew session with this id")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_needs_its_fields_and_refuses_the_others() {
        let gravity = Thresholds {
            gravity: Some(1.010),
            ..Thresholds::default()
        };
        assert!(check_thresholds(AlertKind::GravityBelow, &gravity).is_empty());
        let wrong = check_thresholds(AlertKind::TemperatureOutside, &gravity);
        let paths: Vec<_> = wrong.iter().map(|v| v.path.clone()).collect();
        assert_eq!(paths.len(), 3, "{wrong:?}");
        assert!(
            wrong
                .iter()
                .any(|v| v.message.contains("does not take gravity"))
        );
        assert!(wrong.iter().any(|v| v.message.contains("needs min_c")));
    }

    #[test]
    fn a_band_too_narrow_to_clear_is_refused() {
        let band = |min, max| Thresholds {
            min_c: Some(min),
            max_c: Some(max),
            ..Thresholds::default()
        };
        assert!(check_thresholds(AlertKind::TemperatureOutside, &band(18.0, 19.0)).is_empty());
        assert_eq!(
            check_thresholds(AlertKind::TemperatureOutside, &band(18.0, 18.9)).len(),
            1
        );
    }
}
