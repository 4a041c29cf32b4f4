//! A client-side deadline on every database call.
//!
//! PostgreSQL's own `statement_timeout` is enforced by the server, so a server that is frozen
//! (stopped by a debugger or a hypervisor, swapping, a network path that drops packets without a
//! reset) never sends its cancellation and a request would wait as long as the freeze lasts. The
//! deadline here is the client's: the socket of each pooled connection is wrapped in
//! [`DeadlineStream`], which knows whether the server owes an answer and fails the socket when
//! none arrives within the deadline. tokio-postgres then ends the connection, every query waiting
//! on it fails as "connection closed" (a transient failure: `503` with `Retry-After`), and the
//! pool discards the connection instead of handing it out again.
//!
//! Whether an answer is owed is read off the protocol itself: the frontend ends every request
//! with `Sync` (extended protocol) or sends a `Query` (simple protocol), and the backend ends
//! every answer with `ReadyForQuery`. Requests sent minus answers finished is the number of
//! answers owed; while it is above zero, every byte read restarts the deadline (a long answer
//! that keeps arriving is progress) and silence for the whole deadline fails the connection.
//! An idle connection owes nothing and is never timed out.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// Frontend message types after which the backend owes one `ReadyForQuery`.
const SYNC: u8 = b'S';
const QUERY: u8 = b'Q';
/// The backend message that ends every answer.
const READY_FOR_QUERY: u8 = b'Z';

/// Counts the protocol messages of one direction as bytes pass, without buffering them: every
/// message after the start-up phase is a type byte, a 4-byte big-endian length that counts
/// itself, and the body.
#[derive(Debug, Default)]
struct MessageCounter {
    header: [u8; 5],
    header_len: usize,
    /// Body bytes still to skip of the current message.
    remaining: usize,
}

impl MessageCounter {
    /// Feeds `bytes`, calling `on_type` with the type byte of each message whose header is
    /// complete.
    fn feed(&mut self, mut bytes: &[u8], mut on_type: impl FnMut(u8)) {
        while !bytes.is_empty() {
            if self.remaining > 0 {
                let skip = self.remaining.min(bytes.len());
                self.remaining -= skip;
                bytes = bytes.get(skip..).unwrap_or_default();
                continue;
            }
            let take = (self.header.len() - self.header_len).min(bytes.len());
            if let (Some(slot), Some(src)) = (
                self.header.get_mut(self.header_len..self.header_len + take),
                bytes.get(..take),
            ) {
                slot.copy_from_slice(src);
            }
            self.header_len += take;
            bytes = bytes.get(take..).unwrap_or_default();
            if self.header_len == self.header.len() {
                let [kind, a, b, c, d] = self.header;
                let length = u32::from_be_bytes([a, b, c, d]) as usize;
                self.remaining = length.saturating_sub(4);
                self.header_len = 0;
                on_type(kind);
            }
        }
    }
}

/// Switches the deadline on once the connection's start-up exchange is over (its messages have
/// another framing, and `connect_timeout` already bounds it).
#[derive(Clone, Debug, Default)]
pub(crate) struct Arming(Arc<AtomicBool>);

impl Arming {
    pub(crate) fn arm(&self) {
        self.0.store(true, Ordering::Release);
    }

    fn is_armed(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// A socket that fails with `TimedOut` when the server owes an answer and has sent nothing for
/// `deadline` (see the module's comment).
pub(crate) struct DeadlineStream<S> {
    inner: S,
    deadline: Duration,
    arming: Arming,
    sent: MessageCounter,
    received: MessageCounter,
    /// Answers owed: `Sync`/`Query` messages written minus `ReadyForQuery` messages read.
    owed: u64,
    timer: Pin<Box<Sleep>>,
}

impl<S> DeadlineStream<S> {
    pub(crate) fn new(inner: S, deadline: Duration, arming: Arming) -> Self {
        DeadlineStream {
            inner,
            deadline,
            arming,
            sent: MessageCounter::default(),
            received: MessageCounter::default(),
            owed: 0,
            timer: Box::pin(tokio::time::sleep(deadline)),
        }
    }

    fn restart_timer(&mut self) {
        let at = Instant::now() + self.deadline;
        self.timer.as_mut().reset(at);
    }

    /// While an answer is owed: `Ready(error)` once the deadline has passed (the timer's waker
    /// is registered otherwise, so the connection's task is woken when it passes).
    fn check_deadline(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        if self.owed == 0 || !self.arming.is_armed() {
            return Poll::Pending;
        }
        match self.timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "the database sent nothing for {} ms while an answer was owed",
                    self.deadline.as_millis()
                ),
            )),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Registers the task that wrote with the timer. The connection's task polls its read half
    /// before it writes, so a request written after that poll would otherwise have nobody waiting
    /// on its deadline: the task would sleep on the socket alone, and a frozen server never
    /// wakes it.
    fn watch(&mut self, cx: &mut Context<'_>) {
        if self.owed > 0 && self.arming.is_armed() {
            // Just restarted or still running: `Pending`, with the waker registered. Were it
            // already past, the next read poll reports it.
            let _ = self.timer.as_mut().poll(cx);
        }
    }

    fn on_written(&mut self, bytes: &[u8]) {
        if !self.arming.is_armed() {
            return;
        }
        let mut requests = 0;
        self.sent.feed(bytes, |kind| {
            if kind == SYNC || kind == QUERY {
                requests += 1;
            }
        });
        if requests > 0 {
            if self.owed == 0 {
                self.restart_timer();
            }
            self.owed += requests;
        }
    }

    fn on_read(&mut self, bytes: &[u8]) {
        if !self.arming.is_armed() || bytes.is_empty() {
            return;
        }
        let mut answers = 0;
        self.received.feed(bytes, |kind| {
            if kind == READY_FOR_QUERY {
                answers += 1;
            }
        });
        self.owed = self.owed.saturating_sub(answers);
        // Bytes arriving are progress: the server is alive.
        self.restart_timer();
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for DeadlineStream<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                this.on_read(buf.filled().get(before..).unwrap_or_default());
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => this.check_deadline(cx).map(Err),
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for DeadlineStream<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                this.on_written(buf.get(..n).unwrap_or_default());
                this.watch(cx);
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            // A frozen server stops reading too: the socket's buffers fill and writes wait.
            Poll::Pending => this.check_deadline(cx).map(Err),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_flush(cx) {
            Poll::Pending => this.check_deadline(cx).map(Err),
            other => other,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, duplex};

    fn message(kind: u8, body: &[u8]) -> Vec<u8> {
        let mut m = vec![kind];
        m.extend(u32::try_from(body.len() + 4).unwrap().to_be_bytes());
        m.extend(body);
        m
    }

    #[test]
    fn messages_are_counted_however_the_bytes_are_split() {
        let mut stream = Vec::new();
        stream.extend(message(b'P', b"select 1\0\0\0"));
        stream.extend(message(SYNC, b""));
        stream.extend(message(QUERY, b"select 2\0"));
        // A body that contains the bytes of a Sync must not count.
        stream.extend(message(b'B', &message(SYNC, b"")));
        for chunk in 1..=stream.len() {
            let mut counter = MessageCounter::default();
            let mut kinds = Vec::new();
            for piece in stream.chunks(chunk) {
                counter.feed(piece, |k| kinds.push(k));
            }
            assert_eq!(kinds, [b'P', SYNC, QUERY, b'B'], "chunks of {chunk}");
        }
    }

    const DEADLINE: Duration = Duration::from_millis(100);

    #[tokio::test]
    async fn silence_while_an_answer_is_owed_fails_the_socket() {
        let (client, mut server) = duplex(1024);
        let arming = Arming::default();
        let mut stream = DeadlineStream::new(client, DEADLINE, arming.clone());
        arming.arm();
        stream
            .write_all(&message(QUERY, b"select 1\0"))
            .await
            .unwrap();
        // The server answers in part, then freezes.
        server.write_all(&message(b'T', b"xx")).await.unwrap();
        let mut buf = [0u8; 64];
        assert!(stream.read(&mut buf).await.unwrap() > 0);
        // Without the deadline this read would wait for ever: bounded here so a regression
        // fails instead of hanging.
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf)).await;
        let error = read.expect("the deadline ended the read").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
    }

    #[tokio::test]
    async fn an_idle_connection_or_a_finished_answer_is_never_timed_out() {
        let (client, mut server) = duplex(1024);
        let arming = Arming::default();
        let mut stream = DeadlineStream::new(client, DEADLINE, arming.clone());
        arming.arm();
        stream.write_all(&message(SYNC, b"")).await.unwrap();
        server
            .write_all(&message(READY_FOR_QUERY, b"I"))
            .await
            .unwrap();
        let mut buf = [0u8; 64];
        assert!(stream.read(&mut buf).await.unwrap() > 0);
        // Nothing is owed now: a read waits for the server as long as it takes.
        let waited = tokio::time::timeout(DEADLINE * 5, stream.read(&mut buf)).await;
        assert!(waited.is_err(), "still waiting: {waited:?}");
    }

    /// The order tokio-postgres polls in: read (nothing owed yet, so no timer), then write. The
    /// writer must still be woken when the deadline passes, or a frozen server hangs it.
    #[tokio::test]
    async fn a_request_written_after_the_read_poll_still_wakes_its_task() {
        use futures_util::task::{ArcWake, waker};
        use std::sync::atomic::AtomicUsize;

        struct Count(AtomicUsize);
        impl ArcWake for Count {
            fn wake_by_ref(arc: &Arc<Self>) {
                arc.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let (client, _server) = duplex(1024);
        let arming = Arming::default();
        let mut stream = DeadlineStream::new(client, DEADLINE, arming.clone());
        arming.arm();
        let woken = Arc::new(Count(AtomicUsize::new(0)));
        let w = waker(woken.clone());
        let mut cx = Context::from_waker(&w);
        let mut space = [0u8; 16];
        let mut buf = ReadBuf::new(&mut space);
        assert!(
            Pin::new(&mut stream)
                .poll_read(&mut cx, &mut buf)
                .is_pending()
        );
        let request = message(QUERY, b"select 1\0");
        assert!(matches!(
            Pin::new(&mut stream).poll_write(&mut cx, &request),
            Poll::Ready(Ok(n)) if n == request.len()
        ));
        tokio::time::sleep(DEADLINE * 3).await;
        assert!(
            woken.0.load(Ordering::SeqCst) > 0,
            "the deadline woke the task"
        );
        let mut buf = ReadBuf::new(&mut space);
        assert!(matches!(
            Pin::new(&mut stream).poll_read(&mut cx, &mut buf),
            Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::TimedOut
        ));
    }

    #[tokio::test]
    async fn before_arming_nothing_is_counted() {
        let (client, _server) = duplex(1024);
        let mut stream = DeadlineStream::new(client, DEADLINE, Arming::default());
        // The start-up message has no type byte; unarmed, it is not parsed.
        stream.write_all(&[0, 0, 0, 8, 0, 3, 0, 0]).await.unwrap();
        let mut buf = [0u8; 8];
        let waited = tokio::time::timeout(DEADLINE * 5, stream.read(&mut buf)).await;
        assert!(waited.is_err());
    }
}
