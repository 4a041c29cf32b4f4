//! A request body written once: a table of its fields (name, JSON type, wanted on create or not,
//! nullable, default), read both by the handler's reader ([`Reader`]) and by the OpenAPI document
//! ([`schema`]). The bounds are not in the table: they are the aggregate's own table of rules in
//! the domain (`FieldRules`), looked up by field name, so "which field gets which rule" is written
//! once, in the domain.

use serde_json::Value;
use utoipa::openapi::schema::{
    KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, SchemaType, Type,
};
use utoipa::openapi::{RefOr, schema};
use wort_domain::rules::{FieldRules, NumberRule, Rule, TextRule};

use crate::body::fields::{Fields, invalid_type};
use crate::error::ApiResult;

/// A request body: its fields and the domain's bounds on them.
pub struct BodySpec {
    /// The domain's bounds, by field name.
    pub rules: FieldRules,
    pub fields: &'static [FieldSpec],
    /// Where a create lists the required fields that were not sent among its failures.
    pub missing: Missing,
}

/// Where the "required" failures of a create go in the `422` details. Clients show the details in
/// order, and each body keeps the order it has always answered with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Where the field is read, in the body's field order (as Zod lists them).
    WhereRead,
    /// After every other failure, in table order.
    Last,
}

pub struct FieldSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub on_create: OnCreate,
    /// `null` is a value (it clears the field); otherwise `null` is refused as the wrong type.
    pub nullable: bool,
    pub description: Option<&'static str>,
}

impl FieldSpec {
    /// Not nullable, without a description.
    pub const fn new(name: &'static str, kind: Kind, on_create: OnCreate) -> Self {
        FieldSpec {
            name,
            kind,
            on_create,
            nullable: false,
            description: None,
        }
    }

    pub const fn required(name: &'static str, kind: Kind) -> Self {
        FieldSpec::new(name, kind, OnCreate::Required)
    }

    /// A field that may be left out, or cleared with `null`.
    pub const fn clearable(name: &'static str, kind: Kind) -> Self {
        FieldSpec {
            nullable: true,
            ..FieldSpec::new(name, kind, OnCreate::Optional)
        }
    }

    pub const fn described(self, description: &'static str) -> Self {
        FieldSpec {
            description: Some(description),
            ..self
        }
    }
}

/// The JSON type of a field.
#[derive(Clone, Copy)]
pub enum Kind {
    Text,
    /// A finite number (`format: double`).
    Number,
    /// A whole number (`format: int32`).
    Integer,
    /// A whole number past `i32`'s range (`format: int64`).
    Integer64,
    /// An email address (`format: email`), bounded like text.
    Email,
    /// One of a set of strings.
    Enum(fn() -> Vec<&'static str>),
    /// One of a set of strings, documented by the domain type's own schema (its description
    /// included), as [`Choice::inline`] says.
    Choice(Choice),
    /// A UUID as a string (`format: uuid`).
    Uuid,
    /// A calendar date as a string (`format: date`, `2024-05-01`).
    Date,
    /// An RFC 3339 date-time with an offset (`format: date-time`).
    DateTime,
    Boolean,
    /// An array of strings, each one of a set.
    EnumArray(EnumArray),
    /// An array of at most this many strings, each bounded by the field's text rule.
    TextArray(usize),
}

#[derive(Clone, Copy)]
pub struct EnumArray {
    pub options: fn() -> Vec<&'static str>,
    /// Fewer items are refused by the domain; the document shows it as `minItems`.
    pub min_items: usize,
    /// Documentation, like a description: shown where the body shows its fields' descriptions.
    pub example: Option<fn() -> Value>,
}

/// An enum field shown with its Rust type's schema rather than a bare list of strings.
#[derive(Clone, Copy)]
pub struct Choice {
    options: fn() -> Vec<&'static str>,
    schema: fn() -> RefOr<Schema>,
    /// A create without the field reports `string` as expected rather than the values.
    missing_as_string: bool,
}

fn reference<T: utoipa::ToSchema>() -> RefOr<Schema> {
    RefOr::Ref(utoipa::openapi::Ref::from_schema_name(T::name()))
}

impl Choice {
    /// The type's schema in place. With a default, a description or `null` beside it, it sits in
    /// a one-item `oneOf`, the form utoipa writes, because siblings of an enum's own keywords
    /// would read as part of the enum.
    pub const fn inline<T: utoipa::ToSchema>(options: fn() -> Vec<&'static str>) -> Self {
        Choice {
            options,
            schema: <T as utoipa::PartialSchema>::schema,
            missing_as_string: false,
        }
    }

    /// A `$ref` to the type's component (which a response of the same resource already adds to
    /// the document).
    pub const fn by_ref<T: utoipa::ToSchema>(options: fn() -> Vec<&'static str>) -> Self {
        Choice {
            options,
            schema: reference::<T>,
            missing_as_string: false,
        }
    }

    /// For bodies whose missing enum has always been reported as an expected `string`.
    pub const fn missing_as_string(self) -> Self {
        Choice {
            missing_as_string: true,
            ..self
        }
    }
}

/// Which descriptions a body's schema shows on its fields.
#[derive(Clone, Copy)]
pub enum Descriptions {
    None,
    /// Each field's own [`FieldSpec::description`].
    Table,
    /// These, by field name, instead of the table's: an update body says what `null` does where
    /// the create body says what the field is.
    These(&'static [(&'static str, &'static str)]),
}

impl From<bool> for Descriptions {
    fn from(table: bool) -> Self {
        if table {
            Descriptions::Table
        } else {
            Descriptions::None
        }
    }
}

impl Descriptions {
    fn of(self, field: &FieldSpec) -> Option<&'static str> {
        match self {
            Descriptions::None => None,
            Descriptions::Table => field.description,
            Descriptions::These(list) => list
                .iter()
                .find(|(name, _)| *name == field.name)
                .map(|(_, text)| *text),
        }
    }
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
    Bool(bool),
    Text(&'static str),
    /// An enum's `Default` variant (the domain marks the create default with `#[default]`), as
    /// its string.
    Variant(fn() -> &'static str),
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
            Kind::Text
            | Kind::Email
            | Kind::Enum(_)
            | Kind::Choice(_)
            | Kind::Uuid
            | Kind::Date
            | Kind::DateTime => "string",
            Kind::Number | Kind::Integer | Kind::Integer64 => "number",
            Kind::Boolean => "boolean",
            Kind::EnumArray(_) | Kind::TextArray(_) => "array",
        }
    }

    fn options(self) -> Vec<&'static str> {
        match self {
            Kind::Enum(options)
            | Kind::Choice(Choice { options, .. })
            | Kind::EnumArray(EnumArray { options, .. }) => options(),
            _ => Vec::new(),
        }
    }

    /// What a missing required field reports as expected: an enum names its values.
    fn expected_when_missing(self) -> String {
        match self {
            Kind::Choice(Choice {
                missing_as_string: true,
                ..
            }) => "string".to_owned(),
            Kind::Enum(_) | Kind::Choice(_) => self.options().join(" | "),
            other => other.expected().to_owned(),
        }
    }
}

/// Reads a body by its [`BodySpec`]: each accessor checks the field's type and bound, refuses a
/// `null` the field does not take, and on create reports a required field not sent or fills in
/// the default of an optional one. Every failure is collected, in the order the fields are read
/// (but see [`Missing`]); [`finish`](Reader::finish) answers all of them at once.
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

    /// On create, a required field not sent is reported where it is read, so the failures come
    /// in the body's field order, as Zod lists them.
    fn report_if_missing(&mut self, name: &str) {
        let Some(field) = self.spec.field(name) else {
            return;
        };
        if self.mode == Mode::Create
            && self.spec.missing == Missing::WhereRead
            && matches!(field.on_create, OnCreate::Required)
            && self.body.get(name).is_none()
        {
            let expected = field.kind.expected_when_missing();
            self.fields
                .report(invalid_type(&[field.name], &expected, "undefined"));
        }
    }

    pub fn text(&mut self, name: &str) -> Option<String> {
        self.report_if_missing(name);
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
        self.report_if_missing(name);
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

    /// One of the field's enum values, turned into `T` by `parse` (the default's too).
    pub fn enumeration<T>(&mut self, name: &str, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
        self.report_if_missing(name);
        let options = self.spec.field(name).map(|f| f.kind.options());
        let sent = self
            .fields
            .enumeration(name, &options.unwrap_or_default(), &parse);
        let absent = self.body.get(name).is_none();
        match self.fields.optional(name, "string", sent) {
            None if absent => match self.default_of(name) {
                Some(DefaultValue::Text(text)) => parse(text),
                Some(DefaultValue::Variant(text)) => parse(text()),
                _ => None,
            },
            value => value,
        }
    }

    pub fn boolean(&mut self, name: &str) -> Option<bool> {
        self.report_if_missing(name);
        let sent = self.fields.boolean(name);
        let absent = self.body.get(name).is_none();
        match self.fields.optional(name, "boolean", sent) {
            None if absent => match self.default_of(name) {
                Some(DefaultValue::Bool(value)) => Some(value),
                _ => None,
            },
            value => value,
        }
    }

    /// Every item one of the field's values, each turned into `T` by `parse`.
    pub fn enum_array<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.report_if_missing(name);
        let options = self.spec.field(name).map(|f| f.kind.options());
        let sent = self
            .fields
            .enum_array(name, &options.unwrap_or_default(), parse);
        self.fields.optional(name, "array", sent)
    }

    /// A whole number that may be left out but not cleared.
    pub fn integer(&mut self, name: &str) -> Option<i64> {
        self.report_if_missing(name);
        let sent = self.fields.integer(name, self.spec.number_rule(name));
        self.fields.optional(name, "number", sent)
    }

    pub fn uuid(&mut self, name: &str) -> Option<uuid::Uuid> {
        self.report_if_missing(name);
        let sent = self.fields.uuid(name);
        self.fields.optional(name, "string", sent)
    }

    pub fn date(&mut self, name: &str) -> Option<time::Date> {
        self.report_if_missing(name);
        let sent = self.fields.date(name);
        self.fields.optional(name, "string", sent)
    }

    pub fn datetime(&mut self, name: &str) -> Option<time::OffsetDateTime> {
        self.report_if_missing(name);
        let sent = self.fields.datetime(name);
        self.fields.optional(name, "string", sent)
    }

    /// An array of texts that may be left out but not cleared; on create, absent is empty.
    pub fn text_array(&mut self, name: &str) -> Option<Vec<String>> {
        self.report_if_missing(name);
        let max_items = match self.spec.field(name).map(|f| f.kind) {
            Some(Kind::TextArray(max)) => max,
            _ => usize::MAX,
        };
        let sent = self
            .fields
            .text_array(name, self.spec.text_rule(name), max_items);
        let absent = self.body.get(name).is_none();
        match self.fields.optional(name, "array", sent) {
            None if absent && self.mode == Mode::Create => Some(Vec::new()),
            value => value,
        }
    }

    pub fn nullable_uuid(&mut self, name: &str) -> Option<Option<uuid::Uuid>> {
        Fields::nullable(self.fields.uuid(name))
    }

    /// A nullable enum field: `None` when not sent, `Some(None)` for `null`.
    pub fn nullable_enumeration<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<Option<T>> {
        let options = self.spec.field(name).map(|f| f.kind.options());
        Fields::nullable(
            self.fields
                .enumeration(name, &options.unwrap_or_default(), parse),
        )
    }

    /// A nullable enum field kept as its string (one of the table's values): `None` when not
    /// sent, `Some(None)` for `null`.
    pub fn nullable_choice(&mut self, name: &str) -> Option<Option<String>> {
        let options = self
            .spec
            .field(name)
            .map(|f| f.kind.options())
            .unwrap_or_default();
        let sent = self.fields.enumeration(name, &options, |s| {
            options.contains(&s).then(|| s.to_owned())
        });
        Fields::nullable(sent)
    }

    /// A nullable field: `None` when not sent, `Some(None)` for `null`.
    pub fn nullable_text(&mut self, name: &str) -> Option<Option<String>> {
        Fields::nullable(self.fields.text(name, self.spec.text_rule(name)))
    }

    pub fn nullable_date(&mut self, name: &str) -> Option<Option<time::Date>> {
        Fields::nullable(self.fields.date(name))
    }

    pub fn nullable_number(&mut self, name: &str) -> Option<Option<f64>> {
        Fields::nullable(self.fields.number(name, self.spec.number_rule(name)))
    }

    pub fn nullable_integer(&mut self, name: &str) -> Option<Option<i64>> {
        Fields::nullable(self.fields.integer(name, self.spec.number_rule(name)))
    }

    /// A failure the table cannot see (a value the domain refuses), among the others.
    pub fn report(&mut self, violation: wort_domain::error::Violation) {
        self.fields.report(violation);
    }

    /// Every recorded failure (with, for [`Missing::Last`], each required field not sent), or
    /// the value built from the fields.
    pub fn finish<T>(mut self, value: T) -> ApiResult<T> {
        if self.mode == Mode::Create && self.spec.missing == Missing::Last {
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
/// update body has neither (every field may be left out). `descriptions` says which description
/// each field shows.
pub fn schema(
    spec: &BodySpec,
    mode: Mode,
    description: Option<&str>,
    descriptions: impl Into<Descriptions>,
) -> RefOr<Schema> {
    let descriptions = descriptions.into();
    let mut object = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(description);
    for field in spec.fields {
        let default = match (mode, field.on_create) {
            (Mode::Create, OnCreate::Default(value)) => Some(default_json(value)),
            _ => None,
        };
        if mode == Mode::Create && matches!(field.on_create, OnCreate::Required) {
            object = object.required(field.name);
        }
        let property = property(spec, field, descriptions.of(field), default);
        object = object.property(field.name, property);
    }
    RefOr::T(Schema::Object(object.build()))
}

fn property(
    spec: &BodySpec,
    field: &FieldSpec,
    description: Option<&str>,
    default: Option<Value>,
) -> RefOr<Schema> {
    let json_type = match field.kind {
        Kind::Choice(choice) => return choice_property(choice, field, description, default),
        Kind::EnumArray(array) => return array_property(array, field, description),
        Kind::TextArray(max_items) => {
            return text_array_property(spec, field, max_items, description);
        }
        Kind::Text | Kind::Email | Kind::Enum(_) | Kind::Uuid | Kind::Date | Kind::DateTime => {
            Type::String
        }
        Kind::Number => Type::Number,
        Kind::Integer | Kind::Integer64 => Type::Integer,
        Kind::Boolean => Type::Boolean,
    };
    let schema_type = if field.nullable {
        SchemaType::Array(vec![json_type, Type::Null])
    } else {
        SchemaType::Type(json_type)
    };
    let format = |known| Some(SchemaFormat::KnownFormat(known));
    let property = ObjectBuilder::new().schema_type(schema_type);
    let mut property = match field.kind {
        Kind::Number => property.format(format(KnownFormat::Double)),
        Kind::Integer => property.format(format(KnownFormat::Int32)),
        Kind::Integer64 => property.format(format(KnownFormat::Int64)),
        Kind::Email => property.format(format(KnownFormat::Email)),
        Kind::Uuid => property.format(format(KnownFormat::Uuid)),
        Kind::Date => property.format(format(KnownFormat::Date)),
        Kind::DateTime => property.format(format(KnownFormat::DateTime)),
        Kind::Enum(options) => property.enum_values(Some(options())),
        Kind::Text | Kind::Boolean | Kind::Choice(_) | Kind::EnumArray(_) | Kind::TextArray(_) => {
            property
        }
    }
    .build();
    if let Some(rule) = spec.rule(field.name) {
        apply_rule(&mut property, &rule);
    }
    property.description = description.map(str::to_owned);
    property.default = default;
    RefOr::T(Schema::Object(property))
}

/// Items shown with the values the reader accepts (`enum`): any other is refused, so the document
/// says so. Adding a value later widens what a client may send, which breaks none of them.
fn array_property(array: EnumArray, field: &FieldSpec, description: Option<&str>) -> RefOr<Schema> {
    let schema_type = if field.nullable {
        SchemaType::from_iter([Type::Array, Type::Null])
    } else {
        SchemaType::Type(Type::Array)
    };
    let example = description.and(array.example).map(|example| example());
    let array = schema::ArrayBuilder::new()
        .schema_type(schema_type)
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some((array.options)())),
        )
        .min_items(Some(array.min_items))
        .description(description);
    // The singular `example` is what the document has always shown (what utoipa's annotation
    // writes); `examples` would change it for every client generator that reads it.
    #[allow(deprecated)]
    let array = array.example(example);
    array.into()
}

/// Strings, each bounded by the field's text rule, at most `max_items` of them.
fn text_array_property(
    spec: &BodySpec,
    field: &FieldSpec,
    max_items: usize,
    description: Option<&str>,
) -> RefOr<Schema> {
    let mut item = ObjectBuilder::new().schema_type(Type::String).build();
    if let Some(rule) = spec.rule(field.name) {
        apply_rule(&mut item, &rule);
    }
    schema::ArrayBuilder::new()
        .schema_type(if field.nullable {
            SchemaType::from_iter([Type::Array, Type::Null])
        } else {
            SchemaType::Type(Type::Array)
        })
        .items(RefOr::T(Schema::Object(item)))
        .max_items(Some(max_items))
        .description(description)
        .into()
}

fn choice_property(
    choice: Choice,
    field: &FieldSpec,
    description: Option<&str>,
    default: Option<Value>,
) -> RefOr<Schema> {
    let shown = (choice.schema)();
    if !field.nullable && description.is_none() && default.is_none() {
        return shown;
    }
    let mut one_of = OneOfBuilder::new();
    if field.nullable {
        one_of = one_of.item(ObjectBuilder::new().schema_type(Type::Null));
    }
    one_of
        .item(shown)
        .description(description)
        .default(default)
        .into()
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
        DefaultValue::Variant(text) => Value::from(text()),
        DefaultValue::Bool(value) => Value::from(value),
    }
}

/// A request body type of the OpenAPI document whose schema is built from a [`BodySpec`]: the
/// annotation names it (`request_body = CreateEquipmentRequest`), the table describes it.
macro_rules! request_body_schema {
    ($(#[$meta:meta])* $name:ident, $spec:expr, $mode:expr, $description:expr, field_descriptions = $docs:expr) => {
        $crate::body::spec::request_body_schema!(
            @with $(#[$meta])* $name, $spec, $mode, Some($description), $docs
        );
    };
    // A body whose schema has no description of its own.
    ($(#[$meta:meta])* $name:ident, $spec:expr, $mode:expr, field_descriptions = $docs:expr) => {
        $crate::body::spec::request_body_schema!(@with $(#[$meta])* $name, $spec, $mode, None, $docs);
    };
    (@with $(#[$meta:meta])* $name:ident, $spec:expr, $mode:expr, $description:expr, $docs:expr) => {
        $(#[$meta])*
        pub enum $name {}

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                $crate::body::spec::schema(&$spec, $mode, $description, $docs)
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
/// Writes a domain bound into a property's schema (the document's `minLength`, `maximum`…).
pub(crate) fn apply_rule(property: &mut utoipa::openapi::schema::Object, rule: &Rule) {
    match rule {
        Rule::Text(text) => {
            property.min_length = (text.min > 0).then_some(text.min);
            property.max_length = Some(text.max);
        }
        Rule::Number(number) => apply_number(property, number),
    }
}

fn apply_number(property: &mut utoipa::openapi::schema::Object, rule: &NumberRule) {
    // An unbounded number (an adjust's delta) shows no bounds at all.
    if rule.min == -f64::MAX && rule.max == f64::MAX {
        return;
    }
    if rule.exclusive_min {
        property.exclusive_minimum = Some(json_bound(rule.min));
    } else {
        property.minimum = Some(json_bound(rule.min));
    }
    property.maximum = Some(json_bound(rule.max));
}

/// Whole bounds as integers (`100000`, not `100000.0`), as the 422 details print them.
pub(crate) fn json_bound(n: f64) -> utoipa::Number {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation)]
        utoipa::Number::Int(n as isize)
    } else {
        utoipa::Number::Float(n)
    }
}

#[cfg(test)]
pub fn assert_whole(spec: &BodySpec, read: impl Fn(&Value) -> ApiResult<()>) {
    let body = Value::Object(
        spec.fields
            .iter()
            .map(|f| {
                let wrong = match f.kind {
                    Kind::EnumArray(_) | Kind::TextArray(_) => Value::Bool(false),
                    _ => Value::Array(Vec::new()),
                };
                (f.name.to_owned(), wrong)
            })
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
            Kind::Text | Kind::Email | Kind::TextArray(_) => matches!(rule, Some(Rule::Text(_))),
            Kind::Number | Kind::Integer | Kind::Integer64 => {
                matches!(rule, Some(Rule::Number(_)))
            }
            Kind::Enum(_)
            | Kind::Choice(_)
            | Kind::Uuid
            | Kind::Date
            | Kind::DateTime
            | Kind::Boolean
            | Kind::EnumArray(_) => rule.is_none(),
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
