//! A request body written once: a table of its fields (name, JSON type, wanted on create or not,
//! nullable, default), read both by the handler's reader ([`Reader`]) and by the OpenAPI document
//! ([`schema`]). The bounds are not in the table: they are the aggregate's own table of rules in
//! the domain (`FieldRules`), looked up by field name, so "which field gets which rule" is written
//! once, in the domain.

use serde_json::Value;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, SchemaType, Type};
use utoipa::openapi::{RefOr, schema};
use wort_domain::rules::{FieldRules, NumberRule, Rule, TextRule};

use crate::error::ApiResult;
use crate::validation::{Fields, invalid_type};

/// A request body: its fields and the domain's bounds on them.
pub struct BodySpec {
    /// The domain's bounds, by field name.
    pub rules: FieldRules,
    pub fields: &'static [FieldSpec],
}

pub struct FieldSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub on_create: OnCreate,
    /// `null` is a value (it clears the field); otherwise `null` is refused as the wrong type.
    pub nullable: bool,
    pub description: Option<&'static str>,
}

/// The JSON type of a field.
#[derive(Clone, Copy)]
pub enum Kind {
    Text,
    /// A finite number (`format: double`).
    Number,
    /// A whole number (`format: int32`).
    Integer,
    /// One of a set of strings.
    Enum(fn() -> Vec<&'static str>),
}

/// What a create does with a field that is not sent (an update leaves every such field alone).
#[derive(Clone, Copy)]
pub enum OnCreate {
    Required,
    Default(DefaultValue),
    /// Absent (or `null`, when nullable) unless sent.
    Optional,
}

#[derive(Clone, Copy)]
pub enum DefaultValue {
    /// Shown as an integer when whole (`0`, `100`).
    Number(f64),
    /// Shown with its decimal point even when whole (`1.0`).
    Decimal(f64),
    Text(&'static str),
}

/// Whether the body creates a resource (required fields, defaults) or changes some fields of one.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Create,
    Update,
}

impl BodySpec {
    fn field(&self, name: &str) -> Option<&FieldSpec> {
        self.fields.iter().find(|f| f.name == name)
    }

    fn rule(&self, name: &str) -> Option<Rule> {
        self.rules.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
    }

    fn text_rule(&self, name: &str) -> TextRule {
        match self.rule(name) {
            Some(Rule::Text(rule)) => rule,
            // The table test of every body makes this unreachable; unbounded beats a panic.
            _ => TextRule::new(0, usize::MAX),
        }
    }

    fn number_rule(&self, name: &str) -> NumberRule {
        match self.rule(name) {
            Some(Rule::Number(rule)) => rule,
            _ => NumberRule::range(-f64::MAX, f64::MAX),
        }
    }
}

impl Kind {
    /// What Zod names as expected when the field is `null` (or, for most kinds, missing).
    fn expected(self) -> &'static str {
        match self {
            Kind::Text | Kind::Enum(_) => "string",
            Kind::Number | Kind::Integer => "number",
        }
    }

    /// What a missing required field reports as expected: an enum names its values.
    fn expected_when_missing(self) -> String {
        match self {
            Kind::Enum(options) => options().join(" | "),
            other => other.expected().to_owned(),
        }
    }
}

/// Reads a body by its [`BodySpec`]: each accessor checks the field's type and bound, refuses a
/// `null` the field does not take, and on create fills in the default of a field not sent. Every
/// failure is collected; [`finish`](Reader::finish) adds the required fields that were not sent,
/// in table order, and answers all of them at once.
pub struct Reader<'a> {
    fields: Fields<'a>,
    body: &'a Value,
    spec: &'static BodySpec,
    mode: Mode,
}

impl<'a> Reader<'a> {
    pub fn new(body: &'a Value, spec: &'static BodySpec, mode: Mode) -> ApiResult<Self> {
        Ok(Reader {
            fields: Fields::of(body)?,
            body,
            spec,
            mode,
        })
    }

    fn default_of(&self, name: &str) -> Option<DefaultValue> {
        match (self.mode, self.spec.field(name).map(|f| f.on_create)) {
            (Mode::Create, Some(OnCreate::Default(value))) => Some(value),
            _ => None,
        }
    }

    pub fn text(&mut self, name: &str) -> Option<String> {
        let sent = self.fields.text(name, self.spec.text_rule(name));
        let absent = self.body.get(name).is_none();
        match self.fields.optional(name, "string", sent) {
            None if absent => match self.default_of(name) {
                Some(DefaultValue::Text(text)) => Some(text.to_owned()),
                _ => None,
            },
            value => value,
        }
    }

    pub fn number(&mut self, name: &str) -> Option<f64> {
        let sent = self.fields.number(name, self.spec.number_rule(name));
        let absent = self.body.get(name).is_none();
        match self.fields.optional(name, "number", sent) {
            None if absent => match self.default_of(name) {
                Some(DefaultValue::Number(x) | DefaultValue::Decimal(x)) => Some(x),
                _ => None,
            },
            value => value,
        }
    }

    /// One of the field's enum values, turned into `T` by `parse`.
    pub fn enumeration<T>(&mut self, name: &str, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
        let options = match self.spec.field(name).map(|f| f.kind) {
            Some(Kind::Enum(options)) => options(),
            _ => Vec::new(),
        };
        let sent = self.fields.enumeration(name, &options, parse);
        self.fields.optional(name, "string", sent)
    }

    /// A nullable field: `None` when not sent, `Some(None)` for `null`.
    pub fn nullable_text(&mut self, name: &str) -> Option<Option<String>> {
        Fields::nullable(self.fields.text(name, self.spec.text_rule(name)))
    }

    pub fn nullable_number(&mut self, name: &str) -> Option<Option<f64>> {
        Fields::nullable(self.fields.number(name, self.spec.number_rule(name)))
    }

    pub fn nullable_integer(&mut self, name: &str) -> Option<Option<i64>> {
        Fields::nullable(self.fields.integer(name, self.spec.number_rule(name)))
    }

    /// Every recorded failure, with, on create, each required field that was not sent (one that
    /// was sent wrong is already reported as such); or the value built from the fields.
    pub fn finish<T>(mut self, value: T) -> ApiResult<T> {
        if self.mode == Mode::Create {
            for field in self.spec.fields {
                if matches!(field.on_create, OnCreate::Required)
                    && self.body.get(field.name).is_none()
                {
                    let expected = field.kind.expected_when_missing();
                    self.fields
                        .report(invalid_type(&[field.name], &expected, "undefined"));
                }
            }
        }
        self.fields.finish(value)
    }
}

/// The JSON Schema of a body: the create body lists its required fields and shows defaults; an
/// update body has neither (every field may be left out). `field_descriptions` shows each field's
/// description.
pub fn schema(
    spec: &BodySpec,
    mode: Mode,
    description: &str,
    field_descriptions: bool,
) -> RefOr<Schema> {
    let mut object = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(description));
    for field in spec.fields {
        let mut property = property(spec, field);
        if field_descriptions {
            property.description = field.description.map(str::to_owned);
        }
        if mode == Mode::Create {
            if let OnCreate::Default(value) = field.on_create {
                property.default = Some(default_json(value));
            }
            if matches!(field.on_create, OnCreate::Required) {
                object = object.required(field.name);
            }
        }
        object = object.property(field.name, property);
    }
    RefOr::T(Schema::Object(object.build()))
}

fn property(spec: &BodySpec, field: &FieldSpec) -> schema::Object {
    let json_type = match field.kind {
        Kind::Text | Kind::Enum(_) => Type::String,
        Kind::Number => Type::Number,
        Kind::Integer => Type::Integer,
    };
    let schema_type = if field.nullable {
        SchemaType::Array(vec![json_type, Type::Null])
    } else {
        SchemaType::Type(json_type)
    };
    let property = ObjectBuilder::new().schema_type(schema_type);
    let mut property = match field.kind {
        Kind::Text => property,
        Kind::Number => property.format(Some(SchemaFormat::KnownFormat(KnownFormat::Double))),
        Kind::Integer => property.format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32))),
        Kind::Enum(options) => property.enum_values(Some(options())),
    }
    .build();
    if let Some(rule) = spec.rule(field.name) {
        crate::openapi::apply_rule(&mut property, &rule);
    }
    property
}

fn default_json(value: DefaultValue) -> Value {
    match value {
        DefaultValue::Number(x) if x.fract() == 0.0 && x.abs() < 9.0e15 =>
        {
            #[allow(clippy::cast_possible_truncation)]
            Value::from(x as i64)
        }
        DefaultValue::Number(x) | DefaultValue::Decimal(x) => Value::from(x),
        DefaultValue::Text(text) => Value::from(text),
    }
}

/// A request body type of the OpenAPI document whose schema is built from a [`BodySpec`]: the
/// annotation names it (`request_body = CreateEquipmentRequest`), the table describes it.
macro_rules! request_body_schema {
    ($(#[$meta:meta])* $name:ident, $spec:expr, $mode:expr, $description:expr, field_descriptions = $docs:expr) => {
        $(#[$meta])*
        pub enum $name {}

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                $crate::body_spec::schema(&$spec, $mode, $description, $docs)
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(stringify!($name))
            }
        }
    };
}
pub(crate) use request_body_schema;

/// Checks a body's table against its reader: sending every field as the wrong type (an array)
/// must report every field of the table, and nothing else, so no field is forgotten by the
/// reader or missing from the table; and every bounded field has the domain rule of its kind.
#[cfg(test)]
pub fn assert_whole(spec: &BodySpec, read: impl Fn(&Value) -> ApiResult<()>) {
    let body = Value::Object(
        spec.fields
            .iter()
            .map(|f| (f.name.to_owned(), Value::Array(Vec::new())))
            .collect(),
    );
    let reported: Vec<String> = match read(&body) {
        Err(crate::error::ApiError::Validation(issues)) => issues
            .iter()
            .filter_map(|i| i.path.first().cloned())
            .collect(),
        _ => Vec::new(),
    };
    let names: Vec<String> = spec.fields.iter().map(|f| f.name.to_owned()).collect();
    assert_eq!(reported, names, "every field read, in table order");
    for field in spec.fields {
        let rule = spec.rule(field.name);
        let fits = match field.kind {
            Kind::Text => matches!(rule, Some(Rule::Text(_))),
            Kind::Number | Kind::Integer => matches!(rule, Some(Rule::Number(_))),
            Kind::Enum(_) => rule.is_none(),
        };
        assert!(
            fits,
            "{}: the domain rule does not fit its kind",
            field.name
        );
    }
    for (name, _) in spec.rules {
        assert!(spec.field(name).is_some(), "{name}: a rule without a field");
    }
}
