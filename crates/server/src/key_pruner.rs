//! Forgets `Idempotency-Key`s past their 24 hours, as the webhook workers forget old events.
//! Every instance runs it; deleting what another instance already deleted is harmless.

use std::sync::Arc;
use std::time::Duration;

use wort_domain::idempotency::IdempotencyService;

/// How often expired keys are pruned. Until then an expired key is still treated as free
/// (`wort_domain::idempotency::rules::seen`): pruning only reclaims the space.
const PRUNE_EVERY: Duration = Duration::from_secs(3_600);

/// Prunes now and then every [`PRUNE_EVERY`], until the task is aborted.
pub async fn run(keys: Arc<IdempotencyService>) {
    let mut every = tokio::time::interval(PRUNE_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match keys.prune().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(keys = n, "pruned expired idempotency keys"),
            Err(e) => tracing::warn!(error = %e, "could not prune idempotency keys"),
        }
    }
}
