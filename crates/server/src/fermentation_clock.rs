//! Announces the steps of fermentation schedules whose time has come (`fermentation.step_due`),
//! checking every [`CHECK_EVERY`]. Every instance runs it; a step is marked due only once
//! (the update is conditional), so two instances never announce it twice.

use std::sync::Arc;
use std::time::Duration;

use wort_domain::brew_session::BrewSessionService;

/// How often the schedules are checked: a step is announced at most this late.
const CHECK_EVERY: Duration = Duration::from_secs(10);

/// Checks now and then every [`CHECK_EVERY`], until the task is aborted.
pub async fn run(sessions: Arc<BrewSessionService>) {
    let mut every = tokio::time::interval(CHECK_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match sessions.announce_due_fermentation_steps().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(steps = n, "fermentation steps became due"),
            Err(e) => tracing::warn!(error = %e, "could not check fermentation schedules"),
        }
    }
}
