//! Thins readings older than `WORT_READINGS_RETENTION_DAYS` (`wort_domain::brew_session::
//! retention` has the rule) at start and then hourly, when the variable is set. The pass at start
//! and one a day look at every old reading; the others at those grown old since the last.
//!
//! Every instance runs it; a batch that finds another instance's batch running stops the pass
//! (`ThinningPass::yielded`), so the work is done once. A pass that fails part-way keeps what its
//! batches removed; the next one picks up the rest.

use std::sync::Arc;
use std::time::{Duration, Instant};

use wort_domain::brew_session::retention::ReadingRetention;

/// How often a pass runs. Readings cross the cutoff as time passes, an hour's worth at a time.
const THIN_EVERY: Duration = Duration::from_secs(3_600);

/// Thins now and then every [`THIN_EVERY`], until the task is aborted.
pub async fn run(retention: Arc<ReadingRetention>) {
    let days = retention.days().days();
    let mut every = tokio::time::interval(THIN_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let started = Instant::now();
        match retention.run().await {
            Ok(pass) if pass.yielded => tracing::info!(
                readings = pass.removed,
                batches = pass.batches,
                "readings retention: another instance is thinning; this pass stopped"
            ),
            Ok(pass) => tracing::info!(
                readings = pass.removed,
                batches = pass.batches,
                full = pass.full,
                older_than_days = days,
                ms = started.elapsed().as_millis(),
                "readings retention: thinned readings older than the retention"
            ),
            Err(e) => tracing::warn!(error = %e, "readings retention: could not thin readings"),
        }
    }
}
