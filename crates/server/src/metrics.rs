//! `WORT_METRICS_ADDR`: a second listener serving Prometheus metrics at `/metrics`.
//!
//! * requests by route pattern, method and status, with latency histograms (recorded by the HTTP
//!   adapter, `wort_http::metrics`);
//! * each worker's database pool: its size, the connections in use, the requests waiting;
//! * AI provider calls, errors and tokens (counted by [`CountingProvider`] around the adapter);
//! * webhook delivery attempts by outcome (counted by the delivery workers, [`DeliveryCounters`]);
//! * device posts: the requests of route `/ingest/{token}`, by status (200 stored, 401, 409, 422,
//!   429), among the request counts.
//!
//! The listener is separate from the API's so that it can stay on a private address; it needs no
//! credential and serves nothing else.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use actix_web::{App, HttpResponse, HttpServer, web};
use async_trait::async_trait;
use wort_db::{DbPool, PoolStatus};
use wort_domain::ai::{AiError, Completion, PromptMessage, StreamPiece, TokenUsage};
use wort_domain::ports::{AiProvider, CompletionStream};
use wort_http::metrics::RequestMetrics;

/// AI provider calls as the provider saw them.
#[derive(Default)]
pub struct AiCounters {
    calls: AtomicU64,
    errors: AtomicU64,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
}

impl AiCounters {
    fn tokens(&self, usage: &TokenUsage) {
        let count = |n: i64| u64::try_from(n).unwrap_or(0);
        self.prompt_tokens
            .fetch_add(count(usage.prompt_tokens), Ordering::Relaxed);
        self.completion_tokens
            .fetch_add(count(usage.completion_tokens), Ordering::Relaxed);
    }

    fn error(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
    }
}

/// Webhook delivery attempts made by this instance's workers, by outcome.
#[derive(Default)]
pub struct DeliveryCounters {
    delivered: AtomicU64,
    retrying: AtomicU64,
    failed: AtomicU64,
}

impl DeliveryCounters {
    pub fn count(&self, outcome: wort_domain::webhook::model::AttemptOutcome) {
        use wort_domain::webhook::model::AttemptOutcome;
        let counter = match outcome {
            AttemptOutcome::Delivered => &self.delivered,
            AttemptOutcome::Retrying => &self.retrying,
            AttemptOutcome::Failed => &self.failed,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// The AI provider with every call counted.
pub struct CountingProvider {
    pub inner: Arc<dyn AiProvider>,
    pub counters: Arc<AiCounters>,
}

#[async_trait]
impl AiProvider for CountingProvider {
    fn model(&self) -> &str {
        self.inner.model()
    }

    async fn complete(&self, messages: &[PromptMessage]) -> Result<Completion, AiError> {
        self.counters.calls.fetch_add(1, Ordering::Relaxed);
        let result = self.inner.complete(messages).await;
        match &result {
            Ok(c) => {
                if let Some(usage) = &c.usage {
                    self.counters.tokens(usage);
                }
            }
            Err(_) => self.counters.error(),
        }
        result
    }

    async fn stream(
        &self,
        messages: &[PromptMessage],
    ) -> Result<Box<dyn CompletionStream>, AiError> {
        self.counters.calls.fetch_add(1, Ordering::Relaxed);
        match self.inner.stream(messages).await {
            Ok(inner) => Ok(Box::new(CountingStream {
                inner,
                counters: self.counters.clone(),
            })),
            Err(e) => {
                self.counters.error();
                Err(e)
            }
        }
    }
}

struct CountingStream {
    inner: Box<dyn CompletionStream>,
    counters: Arc<AiCounters>,
}

#[async_trait]
impl CompletionStream for CountingStream {
    async fn next(&mut self) -> Option<Result<StreamPiece, AiError>> {
        let piece = self.inner.next().await;
        match &piece {
            Some(Ok(StreamPiece::Usage(usage))) => self.counters.tokens(usage),
            Some(Err(_)) => self.counters.error(),
            _ => {}
        }
        piece
    }
}

/// A pool gauge: its name, its help text, and how it is read from a pool's status.
type PoolGauge = (&'static str, &'static str, fn(&PoolStatus) -> usize);

/// What `/metrics` reads.
pub struct MetricsSources {
    pub requests: Arc<RequestMetrics>,
    pub pools: Vec<DbPool>,
    pub ai: Arc<AiCounters>,
    pub deliveries: Arc<DeliveryCounters>,
}

impl MetricsSources {
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.requests.render(&mut out);
        let gauges: [PoolGauge; 4] = [
            (
                "wort_db_pool_max_size",
                "Connections a worker's pool may open.",
                |s| s.max_size,
            ),
            (
                "wort_db_pool_size",
                "Connections a worker's pool holds open.",
                |s| s.size,
            ),
            (
                "wort_db_pool_in_use",
                "Connections checked out by requests.",
                |s| s.size.saturating_sub(s.available),
            ),
            (
                "wort_db_pool_waiting",
                "Requests waiting for a connection.",
                |s| s.waiting,
            ),
        ];
        for (name, help, value) in gauges {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge");
            for (worker, pool) in self.pools.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "{name}{{worker=\"{worker}\"}} {}",
                    value(&pool.status())
                );
            }
        }
        let counters = [
            (
                "wort_ai_calls_total",
                "Calls to the AI provider.",
                &self.ai.calls,
            ),
            (
                "wort_ai_errors_total",
                "AI provider calls that failed.",
                &self.ai.errors,
            ),
            (
                "wort_ai_prompt_tokens_total",
                "Prompt tokens the provider reported.",
                &self.ai.prompt_tokens,
            ),
            (
                "wort_ai_completion_tokens_total",
                "Completion tokens the provider reported.",
                &self.ai.completion_tokens,
            ),
        ];
        for (name, help, value) in counters {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}",
                value.load(Ordering::Relaxed)
            );
        }
        let name = "wort_webhook_deliveries_total";
        let _ = writeln!(
            out,
            "# HELP {name} Webhook delivery attempts by outcome (delivered, retrying: failed and \
             scheduled again, failed: given up).\n# TYPE {name} counter"
        );
        for (outcome, value) in [
            ("delivered", &self.deliveries.delivered),
            ("retrying", &self.deliveries.retrying),
            ("failed", &self.deliveries.failed),
        ] {
            let _ = writeln!(
                out,
                "{name}{{outcome=\"{outcome}\"}} {}",
                value.load(Ordering::Relaxed)
            );
        }
        out
    }
}

/// Binds the metrics listener (one worker: it serves a scraper, not users).
pub fn start(
    addr: SocketAddr,
    sources: MetricsSources,
) -> Result<(SocketAddr, actix_web::dev::Server), String> {
    let sources = web::Data::new(sources);
    let listener = std::net::TcpListener::bind(addr)
        .map_err(|e| format!("cannot listen for metrics on {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    let server = HttpServer::new(move || {
        App::new()
            .app_data(sources.clone())
            .route("/metrics", web::get().to(metrics))
            .default_service(web::to(|| async {
                HttpResponse::NotFound()
                    .content_type("application/json")
                    .body(r#"{"error":"Not found"}"#)
            }))
    })
    .workers(1)
    .disable_signals()
    .shutdown_timeout(1)
    .listen(listener)
    .map_err(|e| e.to_string())?
    .run();
    Ok((bound, server))
}

async fn metrics(sources: web::Data<MetricsSources>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(sources.render())
}
