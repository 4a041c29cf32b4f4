//! The CPU-work port: jobs on tokio's blocking threads, at most one per core at a time, each
//! waiting a bounded time for its turn. Reading a 5 MiB imported file builds a tree of hundreds
//! of megabytes for a fraction of a second; without a bound, 64 imports at once multiplied the
//! process's memory and made every other request wait (measured in docs/benchmarks.md, "Hostile
//! load: the attacks replayed", scenario 4). Past the wait, the answer is `503` with
//! `Retry-After`: a queue that only grows helps no one.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::Semaphore;
use wort_domain::recipe::ports::CpuWork;
use wort_domain::{DomainError, DomainResult};

/// How long an import waits for a free slot before it is told to come back.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(5);

pub struct BoundedCpu {
    slots: Arc<Semaphore>,
    wait: Duration,
}

impl BoundedCpu {
    /// At most `concurrency` jobs at once; the rest wait up to `wait` for a slot.
    pub fn new(concurrency: usize, wait: Duration) -> Self {
        BoundedCpu {
            slots: Arc::new(Semaphore::new(concurrency.max(1))),
            wait,
        }
    }
}

#[async_trait]
impl CpuWork for BoundedCpu {
    async fn run(&self, job: Box<dyn FnOnce() + Send>) -> DomainResult<()> {
        let slot = match tokio::time::timeout(self.wait, self.slots.clone().acquire_owned()).await {
            Ok(Ok(slot)) => slot,
            Ok(Err(closed)) => return Err(DomainError::Internal(format!("cpu slots: {closed}"))),
            Err(_) => {
                return Err(DomainError::Unavailable(format!(
                    "busy: no CPU slot for an import within {} s",
                    self.wait.as_secs_f64()
                )));
            }
        };
        // The slot goes with the job: a blocking job cannot be stopped, so even when the
        // request is dropped (the client hung up) the slot stays taken until the job ends.
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            job();
        })
        .await
        .map_err(|e| DomainError::Internal(format!("cpu task: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Instant;

    use wort_domain::recipe::ports::run_cpu;

    use super::*;

    #[tokio::test]
    async fn a_full_pool_refuses_after_the_wait_and_serves_once_free() {
        let cpu = Arc::new(BoundedCpu::new(1, Duration::from_millis(200)));
        let (release, held) = mpsc::channel::<()>();
        let holder = tokio::spawn({
            let cpu = cpu.clone();
            async move { run_cpu(&*cpu, move || held.recv().is_ok()).await }
        });
        // Until the holder has its slot, a second job could take it first.
        while cpu.slots.available_permits() > 0 {
            tokio::task::yield_now().await;
        }

        let start = Instant::now();
        let refused = run_cpu(&*cpu, || 1).await;
        assert!(
            matches!(refused, Err(DomainError::Unavailable(_))),
            "{refused:?}"
        );
        assert!(start.elapsed() >= Duration::from_millis(200));

        // A job that waits while the slot frees up within its wait is served.
        let waiting = tokio::spawn({
            let cpu = cpu.clone();
            async move { run_cpu(&*cpu, || 2).await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        release.send(()).unwrap();
        assert!(matches!(holder.await.unwrap(), Ok(true)));
        assert!(matches!(waiting.await.unwrap(), Ok(2)));
    }

    #[tokio::test]
    async fn a_dropped_request_keeps_its_slot_until_the_job_ends() {
        let cpu = Arc::new(BoundedCpu::new(1, Duration::from_millis(100)));
        let (release, held) = mpsc::channel::<()>();
        let (started, running) = mpsc::channel::<()>();
        let request = tokio::spawn({
            let cpu = cpu.clone();
            async move {
                run_cpu(&*cpu, move || {
                    started.send(()).unwrap();
                    held.recv().is_ok()
                })
                .await
            }
        });
        tokio::task::spawn_blocking(move || running.recv().unwrap())
            .await
            .unwrap();
        request.abort();
        assert!(request.await.unwrap_err().is_cancelled());
        assert!(matches!(
            run_cpu(&*cpu, || ()).await,
            Err(DomainError::Unavailable(_))
        ));
        release.send(()).unwrap();
        assert!(matches!(run_cpu(&*cpu, || 3).await, Ok(3)));
    }
}
