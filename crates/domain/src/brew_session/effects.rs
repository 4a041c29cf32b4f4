//! What a change to a brew session sets off. The domain decides; the store carries the
//! decisions out in the transaction of the change, so a session and what follows from it
//! (webhook events, the fermentation schedule) commit together or not at all. Keeping the
//! decisions here lets them be tested without a database.

use time::OffsetDateTime;

use super::model::{BrewSession, Reading, SessionStatus};
use crate::webhook::{Event, EventType};

/// One thing a change to a session sets off.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionEffect {
    /// Write this event to the webhook outbox (it is delivered to the account's endpoints that
    /// subscribe to its type; with none, nothing is written).
    Announce(Event),
    /// Plan the session's fermentation schedule from its recipe snapshot, its first step
    /// starting at `start`.
    PlanSchedule { start: OffsetDateTime },
    /// Look at the session's recent gravity readings for a stable gravity, and announce or
    /// forget `fermentation.stable` as the finding says.
    CheckStability,
    /// Let the session's waiting scheduled steps see this gravity (a step may end on it).
    AdvanceSchedule { gravity: f64 },
    /// Judge the session's alert rules about gravity and temperature against its latest
    /// readings (`crate::alert::judge`): raise or clear their alerts.
    JudgeAlerts,
    /// Write the reading to the MQTT outbox (the account's integration is enabled).
    PublishReading(Reading),
    /// The session entered (`true`) or left (`false`) fermentation: write its Home Assistant
    /// discovery configs, or their removal, to the MQTT outbox when the account's integration is
    /// enabled.
    MqttDiscovery { fermenting: bool },
}

/// After a session is created: a session that starts out fermenting has its schedule planned
/// from that moment, and its sensors announced to Home Assistant.
pub fn after_create(session: &BrewSession) -> Vec<SessionEffect> {
    let mut effects: Vec<SessionEffect> = session
        .fermenting_started_at
        .map(|start| SessionEffect::PlanSchedule { start })
        .into_iter()
        .collect();
    if session.status == SessionStatus::Fermenting {
        effects.push(SessionEffect::MqttDiscovery { fermenting: true });
    }
    effects
}

/// After a session was updated from status `from`: a change of status is announced
/// (`session.status_changed`), and entering `fermenting` plans the schedule from the moment
/// fermentation started. A patch that leaves the status alone sets nothing off.
pub fn after_update(
    saved: &BrewSession,
    from: SessionStatus,
    now: OffsetDateTime,
) -> Vec<SessionEffect> {
    if saved.status == from {
        return Vec::new();
    }
    let mut effects = vec![SessionEffect::Announce(Event::session_status_changed(
        saved, from, now,
    ))];
    if saved.status == SessionStatus::Fermenting {
        effects.push(SessionEffect::PlanSchedule {
            start: saved.fermenting_started_at.unwrap_or(now),
        });
        effects.push(SessionEffect::MqttDiscovery { fermenting: true });
    } else if from == SessionStatus::Fermenting {
        effects.push(SessionEffect::MqttDiscovery { fermenting: false });
    }
    effects
}

/// After a reading was stored: `reading.created` and the stability check as far as `wanted`
/// (the event types the account's active endpoints subscribe to) asks for them, the
/// schedule's gravity-ended steps when some are waiting (`schedule_waiting`) and the reading
/// has a gravity, the alert rules when some watch the session's values (`alerts_watching`)
/// and the reading has one, and its MQTT message when the account's integration is enabled
/// (`mqtt`), before the alerts it may raise.
pub fn after_reading(
    reading: &Reading,
    wanted: &[EventType],
    schedule_waiting: bool,
    alerts_watching: bool,
    mqtt: bool,
    now: OffsetDateTime,
) -> Vec<SessionEffect> {
    let mut effects = Vec::new();
    if mqtt {
        effects.push(SessionEffect::PublishReading(reading.clone()));
    }
    if wanted.contains(&EventType::ReadingCreated) {
        effects.push(SessionEffect::Announce(Event::reading_created(
            reading, now,
        )));
    }
    if wanted.contains(&EventType::FermentationStable) && reading.gravity.is_some() {
        effects.push(SessionEffect::CheckStability);
    }
    if let (Some(gravity), true) = (reading.gravity, schedule_waiting) {
        effects.push(SessionEffect::AdvanceSchedule { gravity });
    }
    if alerts_watching && (reading.gravity.is_some() || reading.temperature_c.is_some()) {
        effects.push(SessionEffect::JudgeAlerts);
    }
    effects
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::brew_session::model::session_at;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-12-07 12:00 UTC);

    fn kinds(effects: &[SessionEffect]) -> Vec<&'static str> {
        effects
            .iter()
            .map(|e| match e {
                SessionEffect::Announce(event) => event.event_type.as_str(),
                SessionEffect::PlanSchedule { .. } => "plan",
                SessionEffect::CheckStability => "stability",
                SessionEffect::AdvanceSchedule { .. } => "advance",
                SessionEffect::JudgeAlerts => "alerts",
                SessionEffect::PublishReading(_) => "mqtt",
                SessionEffect::MqttDiscovery { fermenting: true } => "discovery",
                SessionEffect::MqttDiscovery { fermenting: false } => "removal",
            })
            .collect()
    }

    #[test]
    fn a_session_created_fermenting_plans_its_schedule_from_then() {
        let mut session = session_at(NOW, SessionStatus::Planned);
        assert!(after_create(&session).is_empty());
        let start = datetime!(2026-12-01 08:00 UTC);
        session.fermenting_started_at = Some(start);
        assert_eq!(
            after_create(&session),
            vec![SessionEffect::PlanSchedule { start }]
        );
        session.status = SessionStatus::Fermenting;
        assert_eq!(kinds(&after_create(&session)), ["plan", "discovery"]);
    }

    #[test]
    fn only_a_change_of_status_is_announced() {
        let mut session = session_at(NOW, SessionStatus::Planned);
        session.status = SessionStatus::Brewing;
        assert!(after_update(&session, SessionStatus::Brewing, NOW).is_empty());
        assert_eq!(
            kinds(&after_update(&session, SessionStatus::Planned, NOW)),
            ["session.status_changed"]
        );
    }

    #[test]
    fn entering_fermentation_plans_the_schedule_from_its_start() {
        let mut session = session_at(NOW, SessionStatus::Planned);
        session.status = SessionStatus::Fermenting;
        let effects = after_update(&session, SessionStatus::Brewing, NOW);
        assert_eq!(
            kinds(&effects),
            ["session.status_changed", "plan", "discovery"]
        );
        assert_eq!(effects[1], SessionEffect::PlanSchedule { start: NOW });
        let start = datetime!(2026-12-06 20:00 UTC);
        session.fermenting_started_at = Some(start);
        let effects = after_update(&session, SessionStatus::Brewing, NOW);
        assert_eq!(effects[1], SessionEffect::PlanSchedule { start });
        // Leaving fermentation plans nothing.
        session.status = SessionStatus::Conditioning;
        assert_eq!(
            kinds(&after_update(&session, SessionStatus::Fermenting, NOW)),
            ["session.status_changed", "removal"]
        );
    }

    #[test]
    fn a_reading_sets_off_what_is_subscribed_and_what_is_waiting() {
        let session = session_at(NOW, SessionStatus::Fermenting);
        let reading = Reading {
            id: crate::new_id(),
            session_id: session.id,
            logged_at: NOW,
            gravity: Some(1.012),
            gravity_unit: crate::brew_session::GravityUnit::Sg,
            temperature_c: None,
            ph: None,
            notes: None,
            device_id: None,
            created_at: NOW,
        };
        let all = [EventType::ReadingCreated, EventType::FermentationStable];
        assert!(after_reading(&reading, &[], false, false, false, NOW).is_empty());
        assert_eq!(
            kinds(&after_reading(&reading, &all, true, false, false, NOW)),
            ["reading.created", "stability", "advance"]
        );
        assert_eq!(
            kinds(&after_reading(&reading, &[], false, true, false, NOW)),
            ["alerts"]
        );
        let without_gravity = Reading {
            gravity: None,
            temperature_c: Some(19.5),
            ..reading.clone()
        };
        // No gravity: nothing to check for stability or to end a step on; the temperature is
        // still judged by the alert rules.
        assert_eq!(
            kinds(&after_reading(
                &without_gravity,
                &all,
                true,
                true,
                false,
                NOW
            )),
            ["reading.created", "alerts"]
        );
        let neither = Reading {
            temperature_c: None,
            ..without_gravity
        };
        assert!(after_reading(&neither, &[], true, true, false, NOW).is_empty());
        // Every reading goes to MQTT, first, when the integration is enabled.
        assert_eq!(
            kinds(&after_reading(&neither, &[], true, true, true, NOW)),
            ["mqtt"]
        );
        assert_eq!(
            kinds(&after_reading(&reading, &[], false, true, true, NOW)),
            ["mqtt", "alerts"]
        );
    }
}
