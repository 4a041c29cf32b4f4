//! The topics and payloads wort publishes, as pure functions.
//!
//! * `<topic_prefix>/sessions/<session id>/reading`: each stored reading (retained: the latest).
//! * `<topic_prefix>/alerts`: each alert raised or cleared (retained: the latest).
//! * `<discovery_prefix>/sensor/wort_<session id>_<gravity|temperature|abv>/config`: Home
//!   Assistant's discovery configs of a fermenting session's sensors (retained), and an empty
//!   retained message in their place when its fermentation ends, which removes the sensors.

use serde_json::{Value, json};
use uuid::Uuid;

use super::model::{MessageKind, MqttMessage};
use crate::alert::Alert;
use crate::brew_session::Reading;
use crate::brewing::gravity::{abv, attenuation_so_far};

/// The sensors each fermenting session shows in Home Assistant.
pub const SENSORS: [Sensor; 3] = [Sensor::Gravity, Sensor::Temperature, Sensor::Abv];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sensor {
    Gravity,
    Temperature,
    Abv,
}

impl Sensor {
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Gravity => "gravity",
            Self::Temperature => "temperature",
            Self::Abv => "abv",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Self::Gravity => "Gravity",
            Self::Temperature => "Temperature",
            Self::Abv => "ABV",
        }
    }

    /// The field of the reading's JSON the sensor shows.
    fn field(&self) -> &'static str {
        match self {
            Self::Gravity => "gravity",
            Self::Temperature => "temperature_c",
            Self::Abv => "abv",
        }
    }

    fn unit(&self) -> &'static str {
        match self {
            Self::Gravity => "SG",
            Self::Temperature => "°C",
            Self::Abv => "%",
        }
    }

    /// Home Assistant's device class, where one exists for the quantity.
    fn device_class(&self) -> Option<&'static str> {
        match self {
            Self::Temperature => Some("temperature"),
            Self::Gravity | Self::Abv => None,
        }
    }
}

pub fn reading_topic(topic_prefix: &str, session_id: Uuid) -> String {
    format!("{topic_prefix}/sessions/{session_id}/reading")
}

pub fn alerts_topic(topic_prefix: &str) -> String {
    format!("{topic_prefix}/alerts")
}

/// The sensor's id in Home Assistant, also the node of its discovery topic.
pub fn unique_id(session_id: Uuid, sensor: Sensor) -> String {
    format!("wort_{session_id}_{}", sensor.as_str())
}

pub fn discovery_topic(discovery_prefix: &str, session_id: Uuid, sensor: Sensor) -> String {
    format!(
        "{discovery_prefix}/sensor/{}/config",
        unique_id(session_id, sensor)
    )
}

fn round(x: f64, places: i32) -> f64 {
    let scale = 10_f64.powi(places);
    (x * scale).round() / scale
}

/// A stored reading, with the apparent attenuation (%) and ABV (%) it means from the session's
/// OG (`og`: measured, else the recipe's planned one); those are null without an OG or without
/// a gravity.
pub fn reading_message(topic_prefix: &str, reading: &Reading, og: Option<f64>) -> MqttMessage {
    let with_og = og.zip(reading.gravity);
    let attenuation = with_og
        .and_then(|(og, sg)| attenuation_so_far(og, sg))
        .map(|a| round(a, 1));
    let abv = with_og
        .filter(|(og, _)| *og > 1.0)
        .map(|(og, sg)| round(abv(og, sg).max(0.0), 2));
    let payload = json!({
        "session_id": reading.session_id,
        "reading_id": reading.id,
        "gravity": reading.gravity,
        "temperature_c": reading.temperature_c,
        "logged_at": crate::timestamp::format(reading.logged_at),
        "attenuation": attenuation,
        "abv": abv,
    });
    MqttMessage {
        kind: MessageKind::Reading,
        topic: reading_topic(topic_prefix, reading.session_id),
        payload: payload.to_string(),
        retain: true,
    }
}

/// An alert raised or cleared (`cleared_at` set): the alert's JSON with its `state`.
pub fn alert_message(topic_prefix: &str, alert: &Alert) -> MqttMessage {
    let mut payload = serde_json::to_value(alert).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut payload {
        let state = if alert.cleared_at.is_some() {
            "cleared"
        } else {
            "raised"
        };
        fields.insert("state".to_owned(), Value::from(state));
    }
    MqttMessage {
        kind: MessageKind::Alert,
        topic: alerts_topic(topic_prefix),
        payload: payload.to_string(),
        retain: true,
    }
}

/// The discovery configs of a fermenting session's sensors, grouped in Home Assistant as one
/// device per session, each reading its value from the session's reading topic.
pub fn discovery_configs(
    topic_prefix: &str,
    discovery_prefix: &str,
    session_id: Uuid,
    session_name: &str,
) -> Vec<MqttMessage> {
    SENSORS
        .iter()
        .map(|sensor| {
            let mut config = json!({
                "name": sensor.name(),
                "unique_id": unique_id(session_id, *sensor),
                "object_id": unique_id(session_id, *sensor),
                "state_topic": reading_topic(topic_prefix, session_id),
                "value_template": format!("{{{{ value_json.{} }}}}", sensor.field()),
                "unit_of_measurement": sensor.unit(),
                "state_class": "measurement",
                "device": {
                    "identifiers": [format!("wort_{session_id}")],
                    "name": session_name,
                    "manufacturer": "wort",
                    "model": "Brew session",
                },
            });
            if let (Some(class), Value::Object(fields)) = (sensor.device_class(), &mut config) {
                fields.insert("device_class".to_owned(), Value::from(class));
            }
            MqttMessage {
                kind: MessageKind::Discovery,
                topic: discovery_topic(discovery_prefix, session_id, *sensor),
                payload: config.to_string(),
                retain: true,
            }
        })
        .collect()
}

/// Empty retained messages on the session's discovery topics: Home Assistant removes the
/// sensors, and the broker forgets the retained configs.
pub fn discovery_removals(discovery_prefix: &str, session_id: Uuid) -> Vec<MqttMessage> {
    SENSORS
        .iter()
        .map(|sensor| MqttMessage {
            kind: MessageKind::Discovery,
            topic: discovery_topic(discovery_prefix, session_id, *sensor),
            payload: String::new(),
            retain: true,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use time::macros::datetime;

    fn reading(gravity: Option<f64>) -> Reading {
        Reading {
            id: Uuid::nil(),
            session_id: Uuid::from_u128(7),
            logged_at: datetime!(2026-12-07 12:00 UTC),
            gravity,
            gravity_unit: crate::brew_session::GravityUnit::Sg,
            temperature_c: Some(19.5),
            ph: None,
            notes: None,
            device_id: None,
            created_at: datetime!(2026-12-07 12:00 UTC),
        }
    }

    #[test]
    fn a_reading_carries_attenuation_and_abv_from_the_og() {
        let m = reading_message("home/wort", &reading(Some(1.012)), Some(1.050));
        assert_eq!(
            m.topic,
            "home/wort/sessions/00000000-0000-0000-0000-000000000007/reading"
        );
        assert!(m.retain);
        let v: Value = serde_json::from_str(&m.payload).unwrap();
        assert_eq!(v["gravity"], 1.012);
        assert_eq!(v["temperature_c"], 19.5);
        assert_eq!(v["attenuation"], 76.0);
        assert_eq!(v["abv"], 4.99);
        assert_eq!(v["logged_at"], "2026-12-07T12:00:00.000Z");
        let no_og: Value =
            serde_json::from_str(&reading_message("w", &reading(Some(1.012)), None).payload)
                .unwrap();
        assert!(no_og["attenuation"].is_null() && no_og["abv"].is_null());
        let no_gravity: Value =
            serde_json::from_str(&reading_message("w", &reading(None), Some(1.05)).payload)
                .unwrap();
        assert!(no_gravity["abv"].is_null());
    }

    #[test]
    fn discovery_configs_point_at_the_reading_topic() {
        let id = Uuid::from_u128(7);
        let configs = discovery_configs("wort", "homeassistant", id, "Pale ale");
        assert_eq!(configs.len(), 3);
        assert_eq!(
            configs[1].topic,
            format!("homeassistant/sensor/wort_{id}_temperature/config")
        );
        let v: Value = serde_json::from_str(&configs[1].payload).unwrap();
        assert_eq!(v["unique_id"], format!("wort_{id}_temperature"));
        assert_eq!(v["state_topic"], format!("wort/sessions/{id}/reading"));
        assert_eq!(v["value_template"], "{{ value_json.temperature_c }}");
        assert_eq!(v["device_class"], "temperature");
        assert_eq!(v["device"]["name"], "Pale ale");
        let gravity: Value = serde_json::from_str(&configs[0].payload).unwrap();
        assert!(gravity.get("device_class").is_none());
        let removals = discovery_removals("homeassistant", id);
        assert!(removals.iter().all(|m| m.payload.is_empty() && m.retain));
        assert_eq!(
            removals[2].topic,
            format!("homeassistant/sensor/wort_{id}_abv/config")
        );
    }
}
