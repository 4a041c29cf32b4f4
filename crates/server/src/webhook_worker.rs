//! The webhook delivery workers: every instance runs them; the outbox's claims
//! (`FOR UPDATE SKIP LOCKED` and a lease) make sure two instances never send one delivery at once,
//! and share the slots fairly between accounts (at most a few of one account's attempts in
//! flight, and the next free slot to the account with the fewest), so one account's endpoints
//! that never answer cannot hold up another account's deliveries.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, Semaphore, watch};
use wort_domain::webhook::WebhookService;

use crate::metrics::DeliveryCounters;

/// Deliveries claimed per poll.
const BATCH: i64 = 32;
/// Attempts in flight at once per instance (each may wait up to 10 s on a slow receiver).
const CONCURRENCY: usize = 32;
/// How often an idle worker looks for due deliveries. Events committed by any instance are
/// seen within this, which bounds the delivery lag (docs/benchmarks.md, "Webhook delivery").
const POLL: Duration = Duration::from_millis(100);
/// After a database error, wait this long before trying again.
const BACKOFF: Duration = Duration::from_secs(2);
/// How often old events and their log are pruned.
const PRUNE_EVERY: Duration = Duration::from_secs(3_600);
/// On shutdown, how long attempts in flight may take to finish.
const GRACE: Duration = Duration::from_secs(11);

pub struct DeliveryWorker {
    webhooks: Arc<WebhookService>,
    counters: Arc<DeliveryCounters>,
}

pub struct RunningWorker {
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl DeliveryWorker {
    pub fn new(webhooks: Arc<WebhookService>, counters: Arc<DeliveryCounters>) -> Self {
        DeliveryWorker { webhooks, counters }
    }

    pub fn spawn(self) -> RunningWorker {
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(run(self.webhooks, self.counters, stopped));
        RunningWorker { stop, task }
    }
}

impl RunningWorker {
    /// Stops claiming; attempts in flight get [`GRACE`] to finish.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

async fn run(
    webhooks: Arc<WebhookService>,
    counters: Arc<DeliveryCounters>,
    mut stopped: watch::Receiver<bool>,
) {
    let slots = Arc::new(Semaphore::new(CONCURRENCY));
    // Told when an attempt ends. A claim can come back empty while deliveries are due (their
    // accounts have as many in flight as they may): the end of an attempt gives one its turn
    // again, sooner than the next poll.
    let finished = Arc::new(Notify::new());
    let mut next_prune = tokio::time::Instant::now();
    while !*stopped.borrow() {
        if tokio::time::Instant::now() >= next_prune {
            next_prune += PRUNE_EVERY;
            match webhooks.prune().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(events = n, "pruned old webhook events"),
                Err(e) => tracing::warn!(error = %e, "could not prune webhook events"),
            }
        }
        // Claim only as many as there are free slots: a claimed delivery waits for no one.
        let free = slots
            .available_permits()
            .min(usize::try_from(BATCH).unwrap_or(32));
        let claimed = if free == 0 {
            Ok(Vec::new())
        } else {
            webhooks
                .claim_due(i64::try_from(free).unwrap_or(BATCH))
                .await
        };
        let pause = match claimed {
            Ok(batch) if batch.is_empty() => POLL,
            Ok(batch) => {
                for delivery in batch {
                    let Ok(permit) = slots.clone().acquire_owned().await else {
                        return;
                    };
                    let (webhooks, counters) = (webhooks.clone(), counters.clone());
                    let finished = finished.clone();
                    tokio::spawn(async move {
                        match webhooks.deliver(&delivery).await {
                            Ok(attempt) => counters.count(attempt.status),
                            Err(e) => tracing::warn!(error = %e, delivery = %delivery.delivery_id,
                                "could not record a webhook attempt; it is retried when its lease ends"),
                        }
                        drop(permit);
                        finished.notify_one();
                    });
                }
                Duration::ZERO
            }
            Err(e) => {
                tracing::warn!(error = %e, "webhook deliveries: cannot claim");
                BACKOFF
            }
        };
        if !pause.is_zero() {
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                () = finished.notified(), if pause == POLL => {}
                _ = stopped.changed() => {}
            }
        }
    }
    // Wait for the attempts in flight (every slot free again), at most GRACE.
    let all = u32::try_from(CONCURRENCY).unwrap_or(32);
    let _ = tokio::time::timeout(GRACE, slots.acquire_many(all)).await;
}
