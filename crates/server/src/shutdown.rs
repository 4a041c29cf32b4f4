//! Stopping without losing work: on SIGTERM (or SIGINT) actix stops accepting and
//! gives requests in flight the grace period; webhook attempts in flight get it too
//! (`webhook_worker`). A streamed chat answer can outlast any grace period, so shortly before it
//! ends the AI calls still running are interrupted: the answer so far is stored, marked as cut
//! short, and the client gets `event: error`, instead of the turn vanishing with the process.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::watch;
use wort_domain::ai::{AiError, Completion, PromptMessage, StreamPiece};
use wort_domain::ports::{AiProvider, CompletionStream};

/// What the interrupted turns get to store their answer and tell their client before actix
/// closes the connections at the end of the grace period.
const ROOM_TO_FINISH: Duration = Duration::from_secs(2);

/// When, after the signal, running AI calls are interrupted.
pub fn interrupt_after(grace: Duration) -> Duration {
    grace.saturating_sub(ROOM_TO_FINISH)
}

/// The switch that interrupts AI calls; cloned into every [`Interruptible`].
#[derive(Clone)]
pub struct Interrupt {
    sender: Arc<watch::Sender<bool>>,
}

impl Default for Interrupt {
    fn default() -> Self {
        Interrupt {
            sender: Arc::new(watch::channel(false).0),
        }
    }
}

impl Interrupt {
    pub fn fire(&self) {
        self.sender.send_replace(true);
    }

    async fn fired(mut receiver: watch::Receiver<bool>) {
        // An error means the sender is gone: then nothing will ever interrupt.
        if receiver.wait_for(|fired| *fired).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// Waits for SIGTERM or SIGINT, then fires after [`interrupt_after`]`(grace)`.
    pub async fn on_signal(self, grace: Duration) {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) else {
            tracing::warn!("cannot listen for signals: streamed answers are not interrupted");
            return;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        tokio::time::sleep(interrupt_after(grace)).await;
        tracing::info!("grace period nearly over: interrupting the AI answers still streaming");
        self.fire();
    }
}

/// An AI provider whose calls end with [`AiError::Interrupted`] once the interrupt fires.
pub struct Interruptible {
    pub inner: Arc<dyn AiProvider>,
    pub interrupt: Interrupt,
}

#[async_trait]
impl AiProvider for Interruptible {
    fn model(&self) -> &str {
        self.inner.model()
    }

    async fn complete(&self, messages: &[PromptMessage]) -> Result<Completion, AiError> {
        tokio::select! {
            result = self.inner.complete(messages) => result,
            () = Interrupt::fired(self.interrupt.sender.subscribe()) => Err(AiError::Interrupted),
        }
    }

    async fn stream(
        &self,
        messages: &[PromptMessage],
    ) -> Result<Box<dyn CompletionStream>, AiError> {
        let inner = tokio::select! {
            result = self.inner.stream(messages) => result?,
            () = Interrupt::fired(self.interrupt.sender.subscribe()) => return Err(AiError::Interrupted),
        };
        Ok(Box::new(InterruptibleStream {
            inner,
            fired: self.interrupt.sender.subscribe(),
        }))
    }
}

struct InterruptibleStream {
    inner: Box<dyn CompletionStream>,
    fired: watch::Receiver<bool>,
}

#[async_trait]
impl CompletionStream for InterruptibleStream {
    async fn next(&mut self) -> Option<Result<StreamPiece, AiError>> {
        tokio::select! {
            piece = self.inner.next() => piece,
            () = Interrupt::fired(self.fired.clone()) => Some(Err(AiError::Interrupted)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interrupts_leave_room_to_finish() {
        assert_eq!(
            interrupt_after(Duration::from_secs(30)),
            Duration::from_secs(28)
        );
        assert_eq!(interrupt_after(Duration::from_secs(1)), Duration::ZERO);
    }
}
