//! Logging to stderr, as text or JSON, filtered by `RUST_LOG` (default `info`).
//!
//! One adjustment: actix's HTTP/1 dispatcher logs every malformed request it refuses (a URI too
//! long, headers too large, bad framing) at ERROR, so any client could write ERROR lines into an
//! operator's log. Those events are written at WARN instead, under `wort_server::http_protocol`:
//! they are the client's mistake, not the server's.

use std::io::Write as _;

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Metadata, Subscriber};
use tracing_subscriber::filter::{EnvFilter, LevelFilter, filter_fn};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

/// Where actix-http logs a connection it gave up on.
const DISPATCHER: &str = "actix_http::h1::dispatcher";

/// Whether an event is one of the dispatcher's ERRORs about a client's request. Events that
/// came through the `log` crate carry their module in `log.target`, hence both checks.
fn is_dispatcher_error(meta: &Metadata<'_>) -> bool {
    *meta.level() == Level::ERROR
        && (meta.target().starts_with(DISPATCHER) || meta.module_path() == Some(DISPATCHER))
}

pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only for a person at a terminal: a log file, journald or a collector gets plain
    // text (escape codes there are noise, and writing them costs every request's log line).
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    // Best effort: a second initialisation keeps the first.
    let _ = subscriber(json, ansi, filter, std::io::stderr).try_init();
}

/// The whole logging pipeline, writing to `writer`, in colour when `ansi`.
fn subscriber<W>(
    json: bool,
    ansi: bool,
    filter: EnvFilter,
    writer: W,
) -> impl Subscriber + Send + Sync
where
    W: for<'w> MakeWriter<'w> + Clone + Send + Sync + 'static,
{
    let hide_dispatcher_errors = filter_fn(|meta| !is_dispatcher_error(meta));
    // `RUST_LOG=error` (or `off`) wants no warning lines, these included.
    let warnings_wanted = filter
        .max_level_hint()
        .is_none_or(|max| max >= LevelFilter::WARN);
    let output = tracing_subscriber::fmt::layer()
        .with_ansi(ansi)
        .with_writer(writer.clone());
    let output = if json {
        output.json().with_filter(hide_dispatcher_errors).boxed()
    } else {
        output.with_filter(hide_dispatcher_errors).boxed()
    };
    tracing_subscriber::registry()
        .with(filter)
        .with(output)
        .with(warnings_wanted.then_some(ProtocolErrorsAsWarnings { writer, json }))
}

/// Writes the dispatcher's ERROR events as WARN lines of our own, in the output's format. It
/// writes them itself rather than logging a new event from inside the subscriber: tracing drops
/// an event logged while another is being dispatched whenever a scoped subscriber exists.
struct ProtocolErrorsAsWarnings<W> {
    writer: W,
    json: bool,
}

/// The target the rewritten lines carry.
const PROTOCOL_TARGET: &str = "wort_server::http_protocol";

impl<S: Subscriber, W> Layer<S> for ProtocolErrorsAsWarnings<W>
where
    W: for<'w> MakeWriter<'w> + 'static,
{
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        if !is_dispatcher_error(event.metadata()) {
            return;
        }
        let mut message = Message(String::new());
        event.record(&mut message);
        let text = format!("refused a malformed request: {}", message.0);
        let mut timestamp = String::new();
        let _ = SystemTime.format_time(&mut Writer::new(&mut timestamp));
        let line = if self.json {
            serde_json::json!({
                "timestamp": timestamp,
                "level": "WARN",
                "fields": {"message": text},
                "target": PROTOCOL_TARGET,
            })
            .to_string()
        } else {
            format!("{timestamp}  WARN {PROTOCOL_TARGET}: {text}")
        };
        let _ = writeln!(self.writer.make_writer(), "{line}");
    }
}

/// The event's `message` field (where `log` records and `tracing` macros put their text).
struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            value.clone_into(&mut self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::sync::{Arc, Mutex};

    use super::*;

    /// Collects what the pipeline writes.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'w> MakeWriter<'w> for Captured {
        type Writer = Captured;
        fn make_writer(&'w self) -> Captured {
            self.clone()
        }
    }

    fn logged(json: bool, filter: &str, emit: impl FnOnce()) -> Vec<String> {
        logged_in(json, false, filter, emit)
    }

    fn logged_in(json: bool, ansi: bool, filter: &str, emit: impl FnOnce()) -> Vec<String> {
        let out = Captured::default();
        let pipeline = subscriber(json, ansi, EnvFilter::new(filter), out.clone());
        tracing::subscriber::with_default(pipeline, emit);
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }

    fn dispatcher_error_then_a_real_one() {
        tracing::error!(
            target: "actix_http::h1::dispatcher",
            "stream error: request parse error: URI error: uri too long"
        );
        tracing::error!(target: "wort_server::cli", "a real error");
    }

    #[test]
    fn a_refused_malformed_request_is_a_warning_not_an_error() {
        let lines = logged(false, "info", dispatcher_error_then_a_real_one);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains(" WARN wort_server::http_protocol: refused a malformed request: stream error: request parse error: URI error: uri too long"), "{lines:?}");
        assert!(!lines[0].contains("ERROR"), "{lines:?}");
        assert!(
            lines[1].contains("ERROR") && lines[1].contains("a real error"),
            "{lines:?}"
        );
    }

    #[test]
    fn colours_only_when_asked_for() {
        let plain = logged_in(false, false, "info", dispatcher_error_then_a_real_one);
        assert!(plain.iter().all(|l| !l.contains('\u{1b}')), "{plain:?}");
        let coloured = logged_in(false, true, "info", dispatcher_error_then_a_real_one);
        assert!(coloured[1].contains('\u{1b}'), "{coloured:?}");
    }

    #[test]
    fn json_output_gets_a_json_warning_line() {
        let lines = logged(true, "info", dispatcher_error_then_a_real_one);
        assert_eq!(lines.len(), 2, "{lines:?}");
        let warning: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(warning["level"], "WARN");
        assert_eq!(warning["target"], "wort_server::http_protocol");
        assert!(
            warning["fields"]["message"]
                .as_str()
                .unwrap()
                .contains("uri too long")
        );
        let error: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        assert_eq!(error["level"], "ERROR");
    }

    #[test]
    fn rust_log_error_keeps_the_warning_out_too() {
        let lines = logged(false, "error", dispatcher_error_then_a_real_one);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("a real error"), "{lines:?}");
    }

    #[test]
    fn the_level_filter_still_applies() {
        let lines = logged(false, "info", || {
            tracing::debug!("hidden at info");
            tracing::info!("shown");
        });
        let text = lines.join("\n");
        assert!(!text.contains("hidden") && text.contains("shown"), "{text}");
    }
}
