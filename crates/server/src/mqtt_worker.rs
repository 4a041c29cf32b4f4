//! The MQTT publishers (docs/mqtt.md): every instance runs them; the outbox's claims
//! (`FOR UPDATE SKIP LOCKED` and a lease on the account's integration) give each account's
//! messages to one publisher at a time, so they reach the broker in the order they were
//! written. A broker that is down costs its own account a retry delay and nothing else: the
//! request that wrote a message never waits for a broker, and other accounts' batches run in
//! their own slots.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, Semaphore, watch};
use wort_domain::mqtt::MqttService;

/// Accounts published to at once per instance (each batch may wait up to 15 s on its broker).
const CONCURRENCY: usize = 16;
/// How often an idle publisher looks for messages. Messages committed by any instance are seen
/// within this, which bounds the publishing lag.
const POLL: Duration = Duration::from_millis(200);
/// After a database error, wait this long before trying again.
const BACKOFF: Duration = Duration::from_secs(2);
/// On shutdown, how long batches in flight may take to finish.
const GRACE: Duration = Duration::from_secs(16);

pub struct MqttWorker {
    mqtt: Arc<MqttService>,
}

pub struct RunningMqttWorker {
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl MqttWorker {
    pub fn new(mqtt: Arc<MqttService>) -> Self {
        MqttWorker { mqtt }
    }

    pub fn spawn(self) -> RunningMqttWorker {
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(run(self.mqtt, stopped));
        RunningMqttWorker { stop, task }
    }
}

impl RunningMqttWorker {
    /// Stops claiming; batches in flight get [`GRACE`] to finish. A batch cut off is not
    /// lost: its lease runs out and it is published again (at least once).
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

async fn run(mqtt: Arc<MqttService>, mut stopped: watch::Receiver<bool>) {
    let slots = Arc::new(Semaphore::new(CONCURRENCY));
    let finished = Arc::new(Notify::new());
    while !*stopped.borrow() {
        let free = slots.available_permits();
        let claimed = if free == 0 {
            Ok(Vec::new())
        } else {
            mqtt.claim_due(i64::try_from(free).unwrap_or(1)).await
        };
        let pause = match claimed {
            Ok(batches) if batches.is_empty() => POLL,
            Ok(batches) => {
                for batch in batches {
                    let Ok(permit) = slots.clone().acquire_owned().await else {
                        return;
                    };
                    let (mqtt, finished) = (mqtt.clone(), finished.clone());
                    tokio::spawn(async move {
                        if let Err(e) = mqtt.publish(&batch).await {
                            tracing::warn!(error = %e, user = %batch.user.0,
                                "could not record an MQTT batch; it is published again when its lease ends");
                        }
                        drop(permit);
                        finished.notify_one();
                    });
                }
                Duration::ZERO
            }
            Err(e) => {
                tracing::warn!(error = %e, "MQTT publishers: cannot claim");
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
    let all = u32::try_from(CONCURRENCY).unwrap_or(16);
    let _ = tokio::time::timeout(GRACE, slots.acquire_many(all)).await;
}
