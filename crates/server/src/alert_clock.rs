//! Judges the alert rules about time (stalled fermentations, silent devices) and clears the
//! alerts whose watch is gone (a rule disabled, a session no longer fermenting), every
//! [`CHECK_EVERY`]. Every instance runs it; each raise and each clear happens once however many
//! instances judge at the same moment (`wort_db::alerts` says how).

use std::sync::Arc;
use std::time::Duration;

use wort_domain::alert::AlertService;

/// How often the rules are judged by the clock: a stall or a silent device is told at most this
/// late (the rules about a reading's values are judged when it is stored).
pub const CHECK_EVERY: Duration = Duration::from_secs(30);

/// Judges now and then every `every`, until the task is aborted.
pub async fn run(alerts: Arc<AlertService>, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        match alerts.sweep().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(changes = n, "alerts raised or cleared by the clock"),
            Err(e) => tracing::warn!(error = %e, "could not judge the alert rules"),
        }
    }
}
