//! An alert rule, the alerts it raises, and the facts a rule is judged against.

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;

/// What a rule watches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AlertKind {
    /// The latest gravity is below `gravity`.
    GravityBelow,
    /// The latest gravity is above `gravity`.
    GravityAbove,
    /// The latest temperature is below `min_c` or above `max_c`.
    TemperatureOutside,
    /// Gravity moved less than `points` over the last `hours`, still above the predicted FG.
    Stalled,
    /// A device feeding the session has not posted for `minutes`.
    DeviceSilent,
}

impl AlertKind {
    pub const ALL: &[Self] = &[
        Self::GravityBelow,
        Self::GravityAbove,
        Self::TemperatureOutside,
        Self::Stalled,
        Self::DeviceSilent,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::GravityBelow => "gravity_below",
            Self::GravityAbove => "gravity_above",
            Self::TemperatureOutside => "temperature_outside",
            Self::Stalled => "stalled",
            Self::DeviceSilent => "device_silent",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.as_str() == s)
    }

    /// Judged when a reading is stored (the others only by the clock: they are about time
    /// passing without a change).
    pub fn judged_on_reading(&self) -> bool {
        matches!(
            self,
            Self::GravityBelow | Self::GravityAbove | Self::TemperatureOutside
        )
    }
}

/// A rule: what to watch, on which session (`null`: every fermenting session of the account).
/// Only the fields of its kind are set; the others are null.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertRule {
    pub id: Uuid,
    pub kind: AlertKind,
    /// The session watched; `null` watches every session while it is fermenting.
    pub session_id: Option<Uuid>,
    pub enabled: bool,
    /// `gravity_below`, `gravity_above`: the mark (SG).
    pub gravity: Option<f64>,
    /// `temperature_outside`: the band's lower edge (°C).
    pub min_c: Option<f64>,
    /// `temperature_outside`: the band's upper edge (°C).
    pub max_c: Option<f64>,
    /// `stalled`: the least change in gravity points (1 point = 0.001) over `hours`.
    pub points: Option<f64>,
    /// `stalled`: the window.
    pub hours: Option<f64>,
    /// `device_silent`: how long a device may stay quiet.
    pub minutes: Option<i64>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub updated_at: OffsetDateTime,
}

/// The thresholds of a rule, whichever its kind takes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Thresholds {
    pub gravity: Option<f64>,
    pub min_c: Option<f64>,
    pub max_c: Option<f64>,
    pub points: Option<f64>,
    pub hours: Option<f64>,
    pub minutes: Option<i64>,
}

impl AlertRule {
    pub fn thresholds(&self) -> Thresholds {
        Thresholds {
            gravity: self.gravity,
            min_c: self.min_c,
            max_c: self.max_c,
            points: self.points,
            hours: self.hours,
            minutes: self.minutes,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewAlertRule {
    pub kind: AlertKind,
    pub session_id: Option<Uuid>,
    pub enabled: bool,
    pub thresholds: Thresholds,
}

/// The fields a `PATCH` sends; `None` leaves a field as it is, `Some(None)` clears it. The kind
/// does not change (a different watch is a new rule).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AlertRulePatch {
    pub session_id: Option<Option<Uuid>>,
    pub enabled: Option<bool>,
    pub gravity: Option<Option<f64>>,
    pub min_c: Option<Option<f64>>,
    pub max_c: Option<Option<f64>>,
    pub points: Option<Option<f64>>,
    pub hours: Option<Option<f64>>,
    pub minutes: Option<Option<i64>>,
}

impl AlertRulePatch {
    pub fn is_empty(&self) -> bool {
        *self == AlertRulePatch::default()
    }

    /// The rule's thresholds with the patch applied.
    pub fn apply_to(&self, t: Thresholds) -> Thresholds {
        Thresholds {
            gravity: self.gravity.unwrap_or(t.gravity),
            min_c: self.min_c.unwrap_or(t.min_c),
            max_c: self.max_c.unwrap_or(t.max_c),
            points: self.points.unwrap_or(t.points),
            hours: self.hours.unwrap_or(t.hours),
            minutes: self.minutes.unwrap_or(t.minutes),
        }
    }
}

/// An alert: raised once when its rule's condition became true, cleared when it was false again.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Alert {
    pub id: Uuid,
    /// The rule that raised it; null once that rule is deleted (the alert stays in the history).
    pub rule_id: Option<Uuid>,
    pub kind: AlertKind,
    pub session_id: Uuid,
    /// The silent device (`device_silent` only).
    pub device_id: Option<Uuid>,
    #[serde(serialize_with = "crate::timestamp::serialize")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub raised_at: OffsetDateTime,
    /// Null while the alert is active.
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub cleared_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timestamp::serialize_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub acknowledged_at: Option<OffsetDateTime>,
    /// What was measured when it was raised: the gravity (SG), the temperature (°C), the change in
    /// gravity points over the window, or the minutes since the device last posted.
    pub value: f64,
    /// The alert in words, e.g. "Temperature 23.4 °C is above 21 °C".
    pub message: String,
}

/// Which alerts `GET /v1/alerts` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlertState {
    Active,
    All,
}

impl AlertState {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "active" => Some(Self::Active),
            "all" => Some(Self::All),
            _ => None,
        }
    }
}

/// One watch: a rule applied to one session (and, for `device_silent`, one device feeding it),
/// with the facts the rule is judged against. What the store reads; what [`super::judge`] takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Watch {
    pub user_id: Uuid,
    pub rule_id: Uuid,
    pub kind: AlertKind,
    pub thresholds: Thresholds,
    pub session_id: Uuid,
    pub device_id: Option<Uuid>,
    pub facts: Facts,
}

/// What is known of a session (and device) when a rule is judged. A fact that is unknown (no
/// reading with a temperature yet, a window not yet covered by readings) is `None`, and a rule
/// that needs it neither raises nor clears.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Facts {
    /// The latest reading's gravity (SG), among readings that have one.
    pub gravity: Option<f64>,
    /// The latest reading's temperature (°C), among readings that have one.
    pub temperature_c: Option<f64>,
    /// For `stalled`: the mean gravity of the hour that ended `hours` ago and of the last hour,
    /// when both hours have readings.
    pub window: Option<StallWindow>,
    /// The FG the session's recipe predicted (its snapshot's stats).
    pub predicted_fg: Option<f64>,
    /// For `device_silent`: when the device last posted (or was registered, if it never has).
    pub device_heard_at: Option<OffsetDateTime>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StallWindow {
    pub earlier_gravity: f64,
    pub recent_gravity: f64,
}

/// An active alert as the judge needs it: which watch raised it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WatchKey {
    pub rule_id: Uuid,
    pub session_id: Uuid,
    pub device_id: Option<Uuid>,
}

impl Watch {
    pub fn key(&self) -> WatchKey {
        WatchKey {
            rule_id: self.rule_id,
            session_id: self.session_id,
            device_id: self.device_id,
        }
    }
}
