//! Reading a JSON object field by field into validated values, collecting every failure as a
//! Zod-style issue (`too_small`, `invalid_type`, …) so one response reports all failing fields.
//!
//! This is the type layer (is it a string, a number, present, null?); the bounds are the
//! domain's rules (`wort_domain::rules`, each aggregate's `rules.rs`), passed in by the reader.
//! Why not serde + garde: serde stops at the first field of the wrong type, and the API
//! reports every failing field (docs/api-rules.md,
//! docs/decisions/0001-validation-type-layer-and-domain-rules.md).

use serde_json::{Map, Value};
use uuid::Uuid;
use wort_domain::error::Violation;
use wort_domain::rules::{NumberRule, TextRule};

use crate::error::ApiError;

/// A field as sent: missing, `null`, or a value of the expected type.
#[derive(Debug, Clone, PartialEq)]
pub enum Sent<T> {
    Absent,
    Null,
    Value(T),
}

impl<T> Sent<T> {
    /// A field read with PATCH semantics (`None`: not sent) back as "sent or not", for the
    /// required check of a create that shares the PATCH reader.
    pub fn from_patch(value: Option<T>) -> Sent<T> {
        value.map_or(Sent::Absent, Sent::Value)
    }
}

pub use wort_domain::error::json_type_name as type_name;

pub fn invalid_type(path: &[&str], expected: &str, received: &str) -> Violation {
    Violation::invalid_type(path, expected, received)
}

/// A JSON object being read. Each accessor records what is wrong with its field and returns
/// `Sent::Absent` for a field that failed, so the caller can go on and report every field.
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    issues: Vec<Violation>,
}

impl<'a> Fields<'a> {
    /// The body must be a JSON object; anything else is one `invalid_type` issue at `[]`.
    pub fn of(body: &'a Value) -> Result<Self, ApiError> {
        match body {
            Value::Object(map) => Ok(Fields {
                map,
                issues: Vec::new(),
            }),
            other => Err(ApiError::Validation(vec![invalid_type(
                &[],
                "object",
                type_name(other),
            )])),
        }
    }

    pub fn report(&mut self, v: Violation) {
        self.issues.push(v);
    }

    /// Ends reading: every recorded issue, or the value built from the fields.
    pub fn finish<T>(self, value: T) -> Result<T, ApiError> {
        if self.issues.is_empty() {
            Ok(value)
        } else {
            Err(ApiError::Validation(self.issues))
        }
    }

    pub fn has_issues(&self) -> bool {
        !self.issues.is_empty()
    }

    fn raw(&self, name: &str) -> Sent<&'a Value> {
        match self.map.get(name) {
            None => Sent::Absent,
            Some(Value::Null) => Sent::Null,
            Some(v) => Sent::Value(v),
        }
    }

    /// A string within `rule` (chars counted, no U+0000), stored exactly as sent.
    pub fn text(&mut self, name: &str, rule: TextRule) -> Sent<String> {
        match self.raw(name) {
            Sent::Absent => Sent::Absent,
            Sent::Null => Sent::Null,
            Sent::Value(Value::String(s)) => match rule.check(&[name], s) {
                Ok(()) => Sent::Value(s.clone()),
                Err(v) => {
                    self.report(v);
                    Sent::Absent
                }
            },
            Sent::Value(other) => {
                self.report(invalid_type(&[name], "string", type_name(other)));
                Sent::Absent
            }
        }
    }

    /// An array of at most `max_items` strings, each within `rule`; failures are reported at
    /// the item (`["aliases", "2"]`).
    pub fn text_array(
        &mut self,
        name: &str,
        rule: TextRule,
        max_items: usize,
    ) -> Sent<Vec<String>> {
        match self.raw(name) {
            Sent::Absent => Sent::Absent,
            Sent::Null => Sent::Null,
            Sent::Value(Value::Array(items)) => {
                let before = self.issues.len();
                if items.len() > max_items {
                    #[allow(clippy::cast_possible_wrap)]
                    self.report(Violation::too_many(
                        &[name],
                        max_items as i64,
                        format!("Array must contain at most {max_items} element(s)"),
                    ));
                }
                let mut texts = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let index = i.to_string();
                    match item {
                        Value::String(s) => match rule.check(&[name, &index], s) {
                            Ok(()) => texts.push(s.clone()),
                            Err(v) => self.report(v),
                        },
                        other => {
                            self.report(invalid_type(&[name, &index], "string", type_name(other)))
                        }
                    }
                }
                if self.issues.len() == before {
                    Sent::Value(texts)
                } else {
                    Sent::Absent
                }
            }
            Sent::Value(other) => {
                self.report(invalid_type(&[name], "array", type_name(other)));
                Sent::Absent
            }
        }
    }

    /// A finite number within `rule` (a whole one when the rule says so).
    pub fn number(&mut self, name: &str, rule: NumberRule) -> Sent<f64> {
        match self.raw(name) {
            Sent::Absent => Sent::Absent,
            Sent::Null => Sent::Null,
            Sent::Value(Value::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() => match rule.check(&[name], x) {
                    Ok(()) => Sent::Value(x),
                    Err(v) => {
                        self.report(v);
                        Sent::Absent
                    }
                },
                _ => {
                    self.report(invalid_type(&[name], "number", "nan"));
                    Sent::Absent
                }
            },
            Sent::Value(other) => {
                self.report(invalid_type(&[name], "number", type_name(other)));
                Sent::Absent
            }
        }
    }

    /// A whole number within an integer `rule`.
    pub fn integer(&mut self, name: &str, rule: NumberRule) -> Sent<i64> {
        #[allow(clippy::cast_possible_truncation)]
        match self.number(name, rule) {
            Sent::Value(x) => Sent::Value(x as i64),
            Sent::Absent => Sent::Absent,
            Sent::Null => Sent::Null,
        }
    }

    pub fn boolean(&mut self, name: &str) -> Sent<bool> {
        match self.raw(name) {
            Sent::Absent => Sent::Absent,
            Sent::Null => Sent::Null,
            Sent::Value(Value::Bool(b)) => Sent::Value(*b),
            Sent::Value(other) => {
                self.report(invalid_type(&[name], "boolean", type_name(other)));
                Sent::Absent
            }
        }
    }

    /// One of `options`, turned into `T` by `parse`.
    pub fn enumeration<T>(
        &mut self,
        name: &str,
        options: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> Sent<T> {
        match self.raw(name) {
            Sent::Absent => Sent::Absent,
            Sent::Null => Sent::Null,
            Sent::Value(Value::String(s)) if s.contains('\0') => {
                self.report(Violation::nul_in_string(&[name]));
                Sent::Absent
            }
            Sent::Value(Value::String(s)) => match parse(s) {
                Some(t) => Sent::Value(t),
                None => {
                    self.report(Violation::invalid_enum(&[name], options, s));
                    Sent::Absent
                }
            },
            Sent::Value(other) => {
                // Zod reports a non-string for an enum as invalid_type of the enum's values.
                let expected = options.iter().map(|o| format!("'{o}'")).collect::<Vec<_>>();
                self.report(invalid_type(
                    &[name],
                    &expected.join(" | "),
                    type_name(other),
                ));
                Sent::Absent
            }
        }
    }

    /// An array whose every item is one of `options` (each wrong item reported at its index).
    pub fn enum_array<T>(
        &mut self,
        name: &str,
        options: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> Sent<Vec<T>> {
        match self.raw(name) {
            Sent::Absent => Sent::Absent,
            Sent::Null => Sent::Null,
            Sent::Value(Value::Array(items)) => {
                let mut parsed = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let index = i.to_string();
                    match item {
                        Value::String(s) if s.contains('\0') => {
                            self.report(Violation::nul_in_string(&[name, &index]));
                        }
                        Value::String(s) => match parse(s) {
                            Some(t) => parsed.push(t),
                            None => {
                                self.report(Violation::invalid_enum(&[name, &index], options, s))
                            }
                        },
                        other => {
                            let expected =
                                options.iter().map(|o| format!("'{o}'")).collect::<Vec<_>>();
                            self.report(invalid_type(
                                &[name, &index],
                                &expected.join(" | "),
                                type_name(other),
                            ));
                        }
                    }
                }
                if parsed.len() == items.len() {
                    Sent::Value(parsed)
                } else {
                    Sent::Absent
                }
            }
            Sent::Value(other) => {
                self.report(invalid_type(&[name], "array", type_name(other)));
                Sent::Absent
            }
        }
    }

    pub fn uuid(&mut self, name: &str) -> Sent<Uuid> {
        self.parsed_string(name, "uuid", |s| Uuid::parse_str(s).ok())
    }

    /// A calendar date `YYYY-MM-DD`.
    pub fn date(&mut self, name: &str) -> Sent<time::Date> {
        self.parsed_string(name, "date", crate::params::parse_date)
    }

    /// An RFC 3339 date-time with an offset.
    pub fn datetime(&mut self, name: &str) -> Sent<time::OffsetDateTime> {
        self.parsed_string(name, "datetime", crate::params::parse_datetime)
    }

    fn parsed_string<T>(
        &mut self,
        name: &str,
        validation: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Sent<T> {
        match self.raw(name) {
            Sent::Absent => Sent::Absent,
            Sent::Null => Sent::Null,
            Sent::Value(Value::String(s)) if s.contains('\0') => {
                self.report(Violation::nul_in_string(&[name]));
                Sent::Absent
            }
            Sent::Value(Value::String(s)) => match parse(s) {
                Some(t) => Sent::Value(t),
                None => {
                    self.report(Violation::invalid_string(&[name], validation));
                    Sent::Absent
                }
            },
            Sent::Value(other) => {
                self.report(invalid_type(&[name], "string", type_name(other)));
                Sent::Absent
            }
        }
    }

    // ---- The three ways a field can be wanted -------------------------------------------------

    /// Required, non-nullable: missing → `Required`, `null` → `invalid_type`.
    pub fn required<T>(&mut self, name: &str, expected: &str, sent: Sent<T>) -> Option<T> {
        match sent {
            Sent::Value(v) => Some(v),
            Sent::Absent => {
                if !self.issue_recorded_for(name) {
                    self.report(invalid_type(&[name], expected, "undefined"));
                }
                None
            }
            Sent::Null => {
                self.report(invalid_type(&[name], expected, "null"));
                None
            }
        }
    }

    /// Optional, non-nullable (a create field with a default, or any PATCH field that cannot be
    /// cleared): missing → `None`, `null` → `invalid_type`.
    pub fn optional<T>(&mut self, name: &str, expected: &str, sent: Sent<T>) -> Option<T> {
        match sent {
            Sent::Value(v) => Some(v),
            Sent::Absent => None,
            Sent::Null => {
                self.report(invalid_type(&[name], expected, "null"));
                None
            }
        }
    }

    /// Optional and nullable: missing → `None` (leave alone), `null` → `Some(None)` (clear).
    pub fn nullable<T>(sent: Sent<T>) -> Option<Option<T>> {
        match sent {
            Sent::Value(v) => Some(Some(v)),
            Sent::Null => Some(None),
            Sent::Absent => None,
        }
    }

    /// Whether a failure was already recorded for this field or inside it (so "missing" is not
    /// added on top of "wrong type", or of a wrong item of an array).
    fn issue_recorded_for(&self, name: &str) -> bool {
        self.issues
            .iter()
            .any(|i| i.path.first().is_some_and(|p| p == name))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use serde_json::json;

    fn issues(body: Value, read: impl FnOnce(&mut Fields)) -> Vec<Value> {
        let mut f = Fields::of(&body).unwrap();
        read(&mut f);
        match f.finish(()) {
            Ok(()) => vec![],
            Err(ApiError::Validation(v)) => {
                v.iter().map(|i| serde_json::to_value(i).unwrap()).collect()
            }
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn empty_required_string_is_too_small_with_minimum_1() {
        let got = issues(json!({"name": ""}), |f| {
            let s = f.text("name", TextRule::new(1, 200));
            f.required("name", "string", s);
        });
        assert_eq!(
            got,
            vec![
                json!({"code":"too_small","path":["name"],"message":"String must contain at least 1 character(s)","minimum":1,"inclusive":true,"type":"string"})
            ]
        );
    }

    #[test]
    fn every_failing_field_is_reported() {
        let got = issues(json!({"a": 5, "c": 2.5, "d": "x"}), |f| {
            let a = f.text("a", TextRule::new(1, 10));
            f.required("a", "string", a);
            let b = f.text("b", TextRule::new(1, 10));
            f.required("b", "string", b);
            f.integer("c", NumberRule::integer(0, 10));
            f.enumeration("d", &["p", "q"], |_| None::<()>);
        });
        let codes: Vec<_> = got.iter().map(|i| i["code"].as_str().unwrap()).collect();
        assert_eq!(
            codes,
            [
                "invalid_type",
                "invalid_type",
                "not_integer",
                "invalid_enum_value"
            ]
        );
        assert_eq!(got[1]["received"], "undefined");
        assert_eq!(got[1]["message"], "Required");
    }

    #[test]
    fn exclusive_minimum_and_maximum() {
        let got = issues(json!({"v": 0, "w": 2}), |f| {
            f.number("v", NumberRule::above(0.0, 10.0));
            f.number("w", NumberRule::range(0.0, 1.0));
        });
        assert_eq!(got[0]["inclusive"], false);
        assert_eq!(got[0]["minimum"], 0);
        assert_eq!(got[1]["code"], "too_big");
        assert_eq!(got[1]["maximum"], 1);
    }

    #[test]
    fn a_bound_is_checked_on_the_number_as_sent() {
        // 100.00000000000001 is the double just above 100: it must be parsed exactly
        // (serde_json's `float_roundtrip`), not rounded to 100.
        let body: Value = serde_json::from_str(r#"{"v": 100.00000000000001}"#).unwrap();
        let got = issues(body, |f| {
            f.number("v", NumberRule::range(0.0, 100.0));
        });
        assert_eq!(got[0]["code"], "too_big");
    }

    #[test]
    fn nul_character_is_refused() {
        let got = issues(json!({"name": "a\u{0}b"}), |f| {
            f.text("name", TextRule::new(1, 200));
        });
        assert_eq!(got[0]["code"], "invalid_string");
        assert_eq!(got[0]["validation"], "regex");
        assert_eq!(got[0]["path"], json!(["name"]));
    }

    #[test]
    fn nul_is_a_string_problem_whatever_the_field_holds() {
        let got = issues(
            json!({"kind": "a\u{0}", "id": "\u{0}", "events": ["x", "\u{0}"]}),
            |f| {
                f.enumeration("kind", &["a"], |_| Some(()));
                f.uuid("id");
                f.enum_array("events", &["x"], |_| Some(()));
            },
        );
        let paths: Vec<_> = got.iter().map(|i| i["path"].clone()).collect();
        assert_eq!(
            paths,
            [json!(["kind"]), json!(["id"]), json!(["events", "1"])]
        );
        for issue in &got {
            assert_eq!(issue["code"], "invalid_string", "{issue}");
            assert_eq!(issue["validation"], "regex", "{issue}");
        }
    }

    #[test]
    fn non_object_body_is_invalid_type_at_root() {
        let e = Fields::of(&json!([1])).err().unwrap();
        let ApiError::Validation(v) = e else { panic!() };
        assert_eq!(v[0].path, Vec::<String>::new());
        assert_eq!(v[0].extra["received"], "array");
    }
}
