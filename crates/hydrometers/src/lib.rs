//! What hydrometers post, read into one fermentation reading.
//!
//! `POST /ingest/{token}` takes the bodies the devices already know how to send, so a brewer only
//! pastes a URL into the device's settings:
//!
//! * iSpindel and GravityMon (JSON): `gravity`, `temperature` + `temp_units`, GravityMon's
//!   `gravity-unit`; `name`, `ID`, `angle`, `battery`, `interval`, `RSSI`/`rssi` are ignored.
//! * Brewfather's custom stream and Brewer's Friend's stream (JSON, numbers or numeric strings):
//!   `gravity` + `gravity_unit`, `temp` + `temp_unit`, `ph`, `comment`.
//! * The Tilt app and TiltPi (an HTML form post): `SG`, `Temp` in °F, `Comment`; `Beer`, `Color`
//!   and `Timepoint` are ignored.
//!
//! The reading is stored as the API stores one typed by hand: gravity as SG (with the unit it was
//! sent in), temperature in °C, within the same bounds. Nothing here does I/O.

use serde_json::{Map, Value};

use wort_domain::brew_session::model::{GravityUnit, NewReading};
use wort_domain::brew_session::rules::{NOTES, READING_GRAVITY, READING_PH, READING_TEMPERATURE_C};
use wort_domain::brewing::gravity::sg_from_plato;
use wort_domain::error::{Violation, json_type_name as json_type};
use wort_domain::rules::NumberRule;
use wort_domain::{DomainError, DomainResult};

/// A body as it arrived: JSON (any content type that parses as a JSON object) or an HTML form
/// (application/x-www-form-urlencoded, as the Tilt app posts), already decoded into pairs.
#[derive(Debug, Clone, Copy)]
pub enum IngestBody<'a> {
    Json(&'a Map<String, Value>),
    Form(&'a [(String, String)]),
}

// The fields read, by the names the senders use, most specific first. Matched case-insensitively
// (iSpindel sends `RSSI`, GravityMon `rssi`; the Tilt's `SG`/`Temp` are capitalised).
const GRAVITY: &[&str] = &["gravity", "SG"];
const GRAVITY_UNIT: &[&str] = &["gravity-unit", "gravity_unit"];
const TEMPERATURE: &[&str] = &["temperature", "temp"];
const TEMPERATURE_UNIT: &[&str] = &["temp_units", "temp_unit"];
const PH: &[&str] = &["ph"];
const COMMENT: &[&str] = &["comment"];

/// GravityMon's `gravity-unit` and the streams' `gravity_unit`: "G" or "P" as documented, and "SG",
/// which hand-written integrations send for "G".
const GRAVITY_SCALES: &[(&str, GravityScale)] = &[
    ("G", GravityScale::Sg),
    ("SG", GravityScale::Sg),
    ("P", GravityScale::Plato),
];
/// `temp_units` (iSpindel, GravityMon) and `temp_unit` (the streams; overrides the Tilt's °F).
const TEMPERATURE_SCALES: &[(&str, TemperatureScale)] = &[
    ("C", TemperatureScale::Celsius),
    ("F", TemperatureScale::Fahrenheit),
    ("K", TemperatureScale::Kelvin),
];

/// An unlabelled gravity at or above this is °Plato, below it SG. SG lies within 0.99–1.2 and the
/// Plato of real worts within 0–35; a Plato reading below 1.5 would be a beer under SG 1.006,
/// rarer than a device left on the other unit, so the gap between the two scales decides.
const PLATO_FROM: f64 = 1.5;

/// SG sent as "points" × 1000 (1050 for 1.050), as RAPT Pills and some Tilt setups do. Neither SG
/// nor °P can be this large, so it is read as points whatever unit the payload states.
const POINTS_MIN: f64 = 900.0;
const POINTS_MAX: f64 = 1200.0;

/// Reads the body into one reading (logged_at: None = now). `DomainError::Invalid(violations)`
/// when it holds no usable value (no gravity, no temperature, no pH) or a value out of the
/// reading's bounds; each violation's path names the payload's own field (e.g. ["SG"],
/// ["gravity"]).
pub fn read_payload(body: IngestBody<'_>) -> DomainResult<NewReading> {
    let mut reader = Reader {
        body,
        issues: Vec::new(),
    };
    let gravity = reader.gravity();
    let temperature_c = reader.temperature_c();
    let ph = reader
        .number(PH)
        .and_then(|(name, ph)| reader.within(READING_PH, name, ph));
    let notes = reader.comment();

    if !reader.issues.is_empty() {
        return Err(DomainError::Invalid(reader.issues));
    }
    // A comment alone is not a reading from a device: its job is to measure (a hand-typed note
    // goes through the readings API instead).
    if gravity.is_none() && temperature_c.is_none() && ph.is_none() {
        return Err(DomainError::invalid(Violation::new(
            "custom",
            &[],
            "The payload holds no gravity, temperature or pH reading",
        )));
    }
    let (gravity, gravity_unit) = match gravity {
        Some((sg, unit)) => (Some(sg), unit),
        None => (None, GravityUnit::Sg),
    };
    // The Tilt's `Timepoint` (a spreadsheet day number in the phone's zone, which is not sent)
    // and the devices' uptimes cannot give a trustworthy instant: the reading is logged at arrival.
    Ok(NewReading {
        logged_at: None,
        gravity,
        gravity_unit,
        temperature_c,
        ph,
        notes,
    })
}

/// The scales a gravity can arrive in.
#[derive(Debug, Clone, Copy, PartialEq)]
enum GravityScale {
    Sg,
    Plato,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum TemperatureScale {
    Celsius,
    Fahrenheit,
    Kelvin,
}

/// What a payload says about the unit of a value.
enum Stated<T> {
    /// Nothing: the sender's default applies.
    Nothing,
    Unit(T),
    /// Something unknown, already reported.
    Unknown,
}

/// One field as sent: its name exactly as the payload spells it (for violation paths) and its
/// value.
struct Field<'a> {
    name: &'a str,
    value: Sent<'a>,
}

enum Sent<'a> {
    Json(&'a Value),
    Text(&'a str),
}

impl Sent<'_> {
    /// `null` and blank strings count as not sent: firmware templates and the Tilt's form leave
    /// unused fields empty (`Comment=`) rather than leaving them out.
    fn is_blank(&self) -> bool {
        match self {
            Sent::Json(Value::Null) => true,
            Sent::Json(Value::String(s)) => s.trim().is_empty(),
            Sent::Json(_) => false,
            Sent::Text(s) => s.trim().is_empty(),
        }
    }
}

impl<'a> IngestBody<'a> {
    fn fields(self) -> impl Iterator<Item = Field<'a>> {
        let (json, form) = match self {
            IngestBody::Json(map) => (Some(map), None),
            IngestBody::Form(pairs) => (None, Some(pairs)),
        };
        let json = json.into_iter().flatten().map(|(name, value)| Field {
            name,
            value: Sent::Json(value),
        });
        let form = form.into_iter().flatten().map(|(name, value)| Field {
            name,
            value: Sent::Text(value),
        });
        json.chain(form)
    }

    /// The first of `names` the body holds a value for. A name spelt exactly wins over another
    /// spelling of it (a JSON object may hold both `rssi` and `RSSI`); among other spellings,
    /// whichever the body lists first.
    fn field(self, names: &[&str]) -> Option<Field<'a>> {
        names.iter().find_map(|name| {
            let sent = |f: &Field<'_>| !f.value.is_blank();
            self.fields()
                .find(|f| f.name == *name && sent(f))
                .or_else(|| {
                    self.fields()
                        .find(|f| f.name.eq_ignore_ascii_case(name) && sent(f))
                })
        })
    }

    /// The Tilt's vocabulary: a form post, or JSON carrying the Tilt's `SG`. Its temperature is
    /// in °F unless the payload says otherwise; everyone else defaults to °C (iSpindel's and
    /// Brewfather's documented default).
    /// A form post, or JSON with the Tilt's own upper-case `SG` (spelt exactly: a script's
    /// lower-case `sg` says nothing about Fahrenheit).
    fn is_tilt(self) -> bool {
        matches!(self, IngestBody::Form(_))
            || self.fields().any(|f| f.name == "SG" && !f.value.is_blank())
    }
}

/// Reads fields one by one, keeping every problem so one 422 names all of them.
struct Reader<'a> {
    body: IngestBody<'a>,
    issues: Vec<Violation>,
}

impl<'a> Reader<'a> {
    /// A finite number, from a JSON number or a numeric string (Brewer's Friend and the Tilt send
    /// strings). Anything else is refused the way `z.coerce.number()` refuses it.
    fn number(&mut self, names: &[&str]) -> Option<(&'a str, f64)> {
        let field = self.body.field(names)?;
        if self.holds_nul(&field) {
            return None;
        }
        let number = match field.value {
            Sent::Json(Value::Number(n)) => n.as_f64(),
            Sent::Json(Value::String(s)) => parse_number(s),
            Sent::Text(s) => parse_number(s),
            Sent::Json(other) => {
                self.issues.push(Violation::invalid_type(
                    &[field.name],
                    "number",
                    json_type(other),
                ));
                return None;
            }
        };
        match number {
            Some(x) if x.is_finite() => Some((field.name, x)),
            _ => {
                self.issues
                    .push(Violation::invalid_type(&[field.name], "number", "nan"));
                None
            }
        }
    }

    /// Whether the field is a string holding U+0000, reported as what it is: a string problem
    /// (as a number it would read as "not a number", which hides why).
    fn holds_nul(&mut self, field: &Field<'a>) -> bool {
        let text = match field.value {
            Sent::Json(Value::String(s)) => s.as_str(),
            Sent::Text(s) => s,
            Sent::Json(_) => return false,
        };
        if text.contains('\0') {
            self.issues.push(Violation::nul_in_string(&[field.name]));
            return true;
        }
        false
    }

    /// A string, trimmed (device templates pad values); anything else is reported.
    fn string(&mut self, field: &Field<'a>) -> Option<&'a str> {
        if self.holds_nul(field) {
            return None;
        }
        match field.value {
            Sent::Json(Value::String(s)) => Some(s.trim()),
            Sent::Text(s) => Some(s.trim()),
            Sent::Json(other) => {
                self.issues.push(Violation::invalid_type(
                    &[field.name],
                    "string",
                    json_type(other),
                ));
                None
            }
        }
    }

    /// A unit letter from `scales`, in any case.
    fn unit<T: Copy>(&mut self, names: &[&str], scales: &[(&'static str, T)]) -> Stated<T> {
        let Some(field) = self.body.field(names) else {
            return Stated::Nothing;
        };
        let Some(unit) = self.string(&field) else {
            return Stated::Unknown;
        };
        match scales
            .iter()
            .find(|(letter, _)| letter.eq_ignore_ascii_case(unit))
        {
            Some(&(_, scale)) => Stated::Unit(scale),
            None => {
                let options: Vec<&str> = scales.iter().map(|(letter, _)| *letter).collect();
                self.issues
                    .push(Violation::invalid_enum(&[field.name], &options, unit));
                Stated::Unknown
            }
        }
    }

    /// `x` when `rule` allows it, else a violation at the payload's field. The value checked is
    /// the one stored (SG, °C), so the bounds reported are the reading's, as the API shows them.
    fn within(&mut self, rule: NumberRule, name: &str, x: f64) -> Option<f64> {
        match rule.check(&[name], x) {
            Ok(()) => Some(x),
            Err(v) => {
                self.issues.push(v);
                None
            }
        }
    }

    /// The gravity as SG, with the unit it was sent in.
    fn gravity(&mut self) -> Option<(f64, GravityUnit)> {
        let value = self.number(GRAVITY);
        let stated = self.unit(GRAVITY_UNIT, GRAVITY_SCALES);
        let (name, value) = value?;
        let scale = match stated {
            Stated::Unknown => return None,
            Stated::Unit(scale) => Some(scale),
            Stated::Nothing => None,
        };
        let (sg, unit) = specific_gravity(value, scale);
        let sg = self.within(READING_GRAVITY, name, sg)?;
        Some((sg, unit))
    }

    /// The temperature in °C.
    fn temperature_c(&mut self) -> Option<f64> {
        let value = self.number(TEMPERATURE);
        let stated = self.unit(TEMPERATURE_UNIT, TEMPERATURE_SCALES);
        let (name, value) = value?;
        let scale = match stated {
            Stated::Unknown => return None,
            Stated::Unit(scale) => scale,
            Stated::Nothing if self.body.is_tilt() => TemperatureScale::Fahrenheit,
            Stated::Nothing => TemperatureScale::Celsius,
        };
        self.within(READING_TEMPERATURE_C, name, celsius(value, scale))
    }

    /// The streams' `comment` (and the Tilt's `Comment`), as notes. Too long is a 422, as it is
    /// for a note typed into the API, rather than a silently shortened note.
    fn comment(&mut self) -> Option<String> {
        let field = self.body.field(COMMENT)?;
        let text = self.string(&field)?;
        let name = field.name;
        match NOTES.check(&[name], text) {
            Ok(()) => Some(text.to_owned()),
            Err(v) => {
                self.issues.push(v);
                None
            }
        }
    }
}

/// A numeric string, trimmed. Rust also reads "NaN" and "inf"; the caller refuses non-finite.
fn parse_number(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok()
}

/// SG and the unit to keep from a gravity as sent: points first (unambiguous), then the stated
/// unit, then the guess from [`PLATO_FROM`].
fn specific_gravity(value: f64, stated: Option<GravityScale>) -> (f64, GravityUnit) {
    if (POINTS_MIN..=POINTS_MAX).contains(&value) {
        return (value / 1000.0, GravityUnit::Sg);
    }
    let scale = stated.unwrap_or(if value >= PLATO_FROM {
        GravityScale::Plato
    } else {
        GravityScale::Sg
    });
    match scale {
        GravityScale::Sg => (value, GravityUnit::Sg),
        GravityScale::Plato => (sg_from_plato(value), GravityUnit::Plato),
    }
}

fn celsius(value: f64, scale: TemperatureScale) -> f64 {
    match scale {
        TemperatureScale::Celsius => value,
        TemperatureScale::Fahrenheit => (value - 32.0) * 5.0 / 9.0,
        TemperatureScale::Kelvin => value - 273.15,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The payloads below are the ones the firmware and services document or send.
    fn json(value: Value) -> DomainResult<NewReading> {
        let Value::Object(map) = value else {
            unreachable!("the tests post objects")
        };
        read_payload(IngestBody::Json(&map))
    }

    fn form(pairs: &[(&str, &str)]) -> DomainResult<NewReading> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        read_payload(IngestBody::Form(&pairs))
    }

    fn close(actual: Option<f64>, expected: f64) -> bool {
        actual.is_some_and(|a| (a - expected).abs() < 1e-6)
    }

    /// The violations of a refused payload, as (code, path).
    fn refused(result: DomainResult<NewReading>) -> Vec<(&'static str, Vec<String>)> {
        match result {
            Err(DomainError::Invalid(issues)) => {
                issues.into_iter().map(|v| (v.code, v.path)).collect()
            }
            other => panic!("expected a 422, got {other:?}"),
        }
    }

    fn at(code: &'static str, path: &str) -> (&'static str, Vec<String>) {
        (code, vec![path.to_owned()])
    }

    fn ispindel(temperature: f64, temp_units: &str, gravity: f64) -> Value {
        json!({"name":"iSpindel000","ID":1234567,"token":"","angle":22.21945,
               "temperature":temperature,"temp_units":temp_units,"battery":4.082989,
               "gravity":gravity,"interval":900,"RSSI":-76})
    }

    #[test]
    fn ispindel_in_celsius_fahrenheit_and_kelvin() {
        let log = json(ispindel(21.5625, "C", 1.041945)).unwrap();
        assert_eq!(
            log,
            NewReading {
                logged_at: None,
                gravity: Some(1.041945),
                gravity_unit: GravityUnit::Sg,
                temperature_c: Some(21.5625),
                ph: None,
                notes: None,
            },
            "name, ID, angle, battery, interval and RSSI are not part of a reading"
        );
        // (70.7 − 32) × 5/9 = 21.5
        let log = json(ispindel(70.7, "F", 1.041945)).unwrap();
        assert!(close(log.temperature_c, 21.5), "{log:?}");
        // 294.7125 − 273.15 = 21.5625
        let log = json(ispindel(294.7125, "K", 1.041945)).unwrap();
        assert!(close(log.temperature_c, 21.5625), "{log:?}");
    }

    #[test]
    fn ispindel_set_to_plato_is_recognised_by_its_size() {
        // 1 + 10.2 / (258.6 − 10.2/258.2 × 227.1) = 1.0408607
        let log = json(ispindel(21.5625, "C", 10.2)).unwrap();
        assert!(close(log.gravity, 1.0408607055), "{log:?}");
        assert_eq!(log.gravity_unit, GravityUnit::Plato);
        // The threshold: 1.5 is °P (SG 1.0058), 1.49 is SG and out of bounds.
        let log = json(json!({"gravity": 1.5})).unwrap();
        assert!(close(log.gravity, 1.0058302086), "{log:?}");
        assert_eq!(log.gravity_unit, GravityUnit::Plato);
        assert_eq!(
            refused(json(json!({"gravity": 1.49}))),
            [at("too_big", "gravity")]
        );
    }

    #[test]
    fn gravitymon_in_sg_and_plato() {
        let mut body = json!({"name":"gravmon","ID":"e422a3","token":"","interval":900,
            "temperature":20.5,"temp_units":"C","gravity":1.0354,"angle":34.45,"battery":3.85,
            "RSSI":-75.2,"corr-gravity":1.0353,"gravity-unit":"G","run-time":6});
        let log = json(body.clone()).unwrap();
        assert!(close(log.gravity, 1.0354), "{log:?}");
        assert_eq!(log.gravity_unit, GravityUnit::Sg);
        assert!(close(log.temperature_c, 20.5));

        body["gravity"] = json!(8.9);
        body["gravity-unit"] = json!("P");
        let log = json(body.clone()).unwrap();
        // 1 + 8.9 / (258.6 − 8.9/258.2 × 227.1) = 1.0354904
        assert!(close(log.gravity, 1.0354904058), "{log:?}");
        assert_eq!(log.gravity_unit, GravityUnit::Plato);

        // A stated unit is believed over the size guess: 1.2 °P is SG 1.0047, not SG 1.2.
        body["gravity"] = json!(1.2);
        let log = json(body).unwrap();
        assert!(close(log.gravity, 1.0046594), "{log:?}");
        assert_eq!(log.gravity_unit, GravityUnit::Plato);
    }

    fn brewfather(gravity: f64, gravity_unit: &str) -> Value {
        json!({"name":"YourDeviceName","temp":20.32,"aux_temp":15.61,"ext_temp":6.51,
               "temp_unit":"C","gravity":gravity,"gravity_unit":gravity_unit,"pressure":10,
               "pressure_unit":"PSI","ph":4.12,"bpm":123,"comment":"Hello World",
               "beer":"Pale Ale","battery":4.98})
    }

    #[test]
    fn brewfather_custom_stream() {
        let log = json(brewfather(1.042, "G")).unwrap();
        assert_eq!(
            log,
            NewReading {
                logged_at: None,
                gravity: Some(1.042),
                gravity_unit: GravityUnit::Sg,
                temperature_c: Some(20.32),
                ph: Some(4.12),
                notes: Some("Hello World".to_owned()),
            },
            "aux_temp and ext_temp are the fridge and the room, not the beer"
        );
        // 1 + 10.5 / (258.6 − 10.5/258.2 × 227.1) = 1.0421070
        let log = json(brewfather(10.5, "P")).unwrap();
        assert!(close(log.gravity, 1.0421069994), "{log:?}");
        assert_eq!(log.gravity_unit, GravityUnit::Plato);
        // Unit letters in any case, and "SG" for "G".
        let log = json(brewfather(1.042, "sg")).unwrap();
        assert_eq!(
            (log.gravity, log.gravity_unit),
            (Some(1.042), GravityUnit::Sg)
        );
    }

    #[test]
    fn brewers_friend_stream_with_numbers_as_strings() {
        let log = json(
            json!({"name":"MyDevice","temp":68.2,"temp_unit":"F","gravity":"1.050",
            "gravity_unit":"G","ph":"4.5","comment":"from my controller","battery":"4.1"}),
        )
        .unwrap();
        assert!(close(log.gravity, 1.05), "{log:?}");
        assert_eq!(log.gravity_unit, GravityUnit::Sg);
        // (68.2 − 32) × 5/9 = 20.111111
        assert!(close(log.temperature_c, 20.1111111), "{log:?}");
        assert!(close(log.ph, 4.5));
        assert_eq!(log.notes.as_deref(), Some("from my controller"));
    }

    const TILT: &[(&str, &str)] = &[
        ("Timepoint", "44166.5345"),
        ("Temp", "68"),
        ("SG", "1.050"),
        ("Beer", "Untitled"),
        ("Color", "RED"),
        ("Comment", ""),
    ];

    #[test]
    fn tilt_form_post_is_in_fahrenheit() {
        let log = form(TILT).unwrap();
        assert_eq!(
            log,
            NewReading {
                logged_at: None,
                gravity: Some(1.05),
                gravity_unit: GravityUnit::Sg,
                // (68 − 32) × 5/9 = 20
                temperature_c: Some(20.0),
                ph: None,
                // An empty Comment is no note; Beer and Color name the device, not the reading.
                notes: None,
            }
        );
        let log = form(&[("SG", "1.050"), ("Temp", "20"), ("temp_unit", "C")]).unwrap();
        assert!(
            close(log.temperature_c, 20.0),
            "a stated unit wins: {log:?}"
        );
        let log = form(&[("SG", "1.010"), ("Comment", "  dry hopped  ")]).unwrap();
        assert_eq!(log.notes.as_deref(), Some("dry hopped"));
        // Tilt fields posted as JSON are still the Tilt's: °F.
        let log = json(json!({"SG": 1.05, "Temp": 68, "Color": "RED"})).unwrap();
        assert!(close(log.temperature_c, 20.0), "{log:?}");
        // A script's lower-case `sg` is a gravity, not a Tilt: its temperature stays °C.
        let log = json(json!({"sg": 1.05, "temperature": 20})).unwrap();
        assert!(
            close(log.gravity, 1.05) && close(log.temperature_c, 20.0),
            "{log:?}"
        );
    }

    #[test]
    fn gravity_in_points_whatever_the_unit() {
        let log = form(&[("SG", "1050"), ("Temp", "68")]).unwrap();
        assert!(close(log.gravity, 1.05), "{log:?}");
        assert_eq!(log.gravity_unit, GravityUnit::Sg);
        let log = json(brewfather(1012.0, "P")).unwrap();
        assert!(close(log.gravity, 1.012), "{log:?}");
        assert_eq!(log.gravity_unit, GravityUnit::Sg);
        let log = json(json!({"gravity": 900})).unwrap();
        assert!(close(log.gravity, 0.9), "{log:?}");
    }

    #[test]
    fn names_match_in_any_case_and_blank_values_are_not_sent() {
        let log = json(json!({"Gravity": 1.02, "TEMP_UNITS": "f", "Temperature": 50})).unwrap();
        assert!(close(log.gravity, 1.02));
        assert!(close(log.temperature_c, 10.0), "{log:?}");
        // The exact spelling wins over another one of the same name.
        let log = json(json!({"GRAVITY": 1.1, "gravity": 1.02})).unwrap();
        assert!(close(log.gravity, 1.02), "{log:?}");
        let log =
            json(json!({"gravity": null, "temperature": "", "SG": 1.03, "ph": " 4.2 "})).unwrap();
        assert!(close(log.gravity, 1.03));
        assert_eq!(log.temperature_c, None);
        assert!(close(log.ph, 4.2));
    }

    #[test]
    fn no_usable_value_is_refused_as_a_whole() {
        let expected = [("custom", Vec::<String>::new())];
        assert_eq!(refused(json(json!({}))), expected);
        assert_eq!(
            refused(json(
                json!({"name":"iSpindel000","battery":4.08,"angle":22.2,"RSSI":-76})
            )),
            expected
        );
        assert_eq!(refused(form(&[])), expected);
        assert_eq!(
            refused(form(&[
                ("Beer", "Untitled"),
                ("Color", "RED"),
                ("Comment", "hi")
            ])),
            expected,
            "a comment alone is no measurement"
        );
    }

    #[test]
    fn values_out_of_bounds_are_refused_at_their_field() {
        assert_eq!(
            refused(json(ispindel(21.0, "C", 1.3))),
            [at("too_big", "gravity")]
        );
        assert_eq!(
            refused(form(&[("SG", "0.85"), ("Temp", "68")])),
            [at("too_small", "SG")]
        );
        // 50 °P is SG 1.233: the bound checked is the reading's, in SG.
        assert_eq!(
            refused(json(brewfather(50.0, "P"))),
            [at("too_big", "gravity")]
        );
        // 130 °C after conversion from 266 °F.
        assert_eq!(
            refused(form(&[("SG", "1.050"), ("Temp", "266")])),
            [at("too_big", "Temp")]
        );
        assert_eq!(refused(json(json!({"ph": 15}))), [at("too_big", "ph")]);
        let long = "x".repeat(NOTES.max + 1);
        assert_eq!(
            refused(json(json!({"gravity": 1.05, "comment": long}))),
            [at("too_big", "comment")]
        );
    }

    #[test]
    fn nul_is_a_string_problem_not_a_number_problem() {
        for (body, field) in [
            (json(json!({"gravity": "1.05\u{0}"})), "gravity"),
            (form(&[("SG", "1.050\u{0}"), ("Temp", "68")]), "SG"),
            (json(ispindel(21.0, "C\u{0}", 1.05)), "temp_units"),
        ] {
            let DomainError::Invalid(issues) = body.unwrap_err() else {
                panic!("{field}")
            };
            assert_eq!(issues.len(), 1, "{field}: {issues:?}");
            let v = &issues[0];
            assert_eq!(
                (v.code, &v.path[..]),
                ("invalid_string", &[field.to_owned()][..])
            );
            assert!(v.message.contains("NUL"), "{}", v.message);
        }
    }

    #[test]
    fn non_numbers_and_unknown_units_are_refused() {
        for bad in ["abc", "NaN", "inf", "1.05.0"] {
            let issues = json(json!({"gravity": bad})).unwrap_err();
            let DomainError::Invalid(issues) = issues else {
                panic!("{issues:?}")
            };
            assert_eq!(issues.len(), 1, "{bad}");
            let v = &issues[0];
            assert_eq!(
                (v.code, &v.path[..]),
                ("invalid_type", &["gravity".to_owned()][..])
            );
            assert_eq!(v.extra["received"], json!("nan"), "{bad}");
        }
        assert_eq!(
            refused(form(&[("SG", "NaN"), ("Temp", "68")])),
            [at("invalid_type", "SG")]
        );
        assert_eq!(
            refused(json(json!({"gravity": true}))),
            [at("invalid_type", "gravity")]
        );
        assert_eq!(
            refused(json(ispindel(21.0, "X", 1.05))),
            [at("invalid_enum_value", "temp_units")]
        );
        assert_eq!(
            refused(json(json!({"gravity": 1.05, "gravity_unit": "brix"}))),
            [at("invalid_enum_value", "gravity_unit")]
        );
        assert_eq!(
            refused(json(json!({"temp": 20, "temp_unit": 1}))),
            [at("invalid_type", "temp_unit")]
        );
        // Every failing field is named in one answer.
        assert_eq!(
            refused(json(
                json!({"gravity": "abc", "temp": 20, "temp_unit": "X", "ph": -1})
            )),
            [
                at("invalid_type", "gravity"),
                at("invalid_enum_value", "temp_unit"),
                at("too_small", "ph"),
            ]
        );
    }

    #[test]
    fn conversions() {
        assert_eq!(specific_gravity(1.05, None), (1.05, GravityUnit::Sg));
        assert_eq!(specific_gravity(1050.0, None), (1.05, GravityUnit::Sg));
        assert_eq!(
            specific_gravity(12.0, Some(GravityScale::Sg)),
            (12.0, GravityUnit::Sg),
            "a stated SG is kept, then refused by the bounds"
        );
        assert_eq!(celsius(212.0, TemperatureScale::Fahrenheit), 100.0);
        assert_eq!(celsius(-40.0, TemperatureScale::Fahrenheit), -40.0);
        assert!((celsius(273.15, TemperatureScale::Kelvin)).abs() < 1e-12);
    }
}
