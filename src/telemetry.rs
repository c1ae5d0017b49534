//! Observability: logging setup, the Prometheus registry with tcx's metric families, and the
//! HTTP endpoint serving `/metrics`, `/healthz` and `/readyz`.
//!
//! docs/metrics.md lists every family. Labels never carry URLs or shop names (cardinality):
//! only `outcome`, `error_kind`, `stage`, `method`, `reason` and `version`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Opts, Registry, TextEncoder,
};
use thiserror::Error;
use tokio_util::sync::CancellationToken;

/// Buckets of the per-stage histograms, in seconds: 0.5 ms to about 33 s.
const STAGE_BUCKETS: [f64; 17] = [
    0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048,
    4.096, 8.192, 16.384, 32.768,
];

/// The stages timed by `tcx_stage_duration_seconds`: the job's steps (`fetch`, `analyze`,
/// `publish`) and the analysis' own stages inside `analyze` (see [`tcx_core::Stage`]).
pub const STAGES: [&str; 8] = [
    "fetch",
    "analyze",
    "pass1",
    "select",
    "pass2",
    "hierarchy",
    "text",
    "publish",
];

/// Why telemetry could not be set up.
#[derive(Debug, Error)]
pub enum TelemetryError {
    /// A metric could not be created or registered (a programming error).
    #[error("cannot register metrics: {0}")]
    Prometheus(#[from] prometheus::Error),
    /// The metrics address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// The cause.
        source: std::io::Error,
    },
}

/// tcx's metric families in their own registry.
#[derive(Clone)]
pub struct Metrics {
    registry: Registry,
    /// Finished jobs by `outcome` (`ok`, `error`, `retry`, `dead_lettered`) and `error_kind`
    /// (empty for ok).
    pub jobs: IntCounterVec,
    /// Duration of each stage (`fetch`, `analyze`, `publish`).
    pub stage_seconds: HistogramVec,
    /// Duration of a job from delivery to ack.
    pub job_seconds: Histogram,
    /// Body bytes fetched (after content decoding).
    pub fetched_bytes: IntCounter,
    /// Jobs being processed right now.
    pub in_flight: IntGauge,
    /// Jobs sent to a retry queue.
    pub retries: IntCounter,
    /// Reconnections to the broker after a lost connection.
    pub reconnects: IntCounter,
    /// Analysed pages by content `method` (`lca`, `fallback`).
    pub content_method: IntCounterVec,
    /// Messages sent to the dead-letter queue, by `reason`.
    pub dead_lettered: IntCounterVec,
    /// 1 while connected to the broker.
    pub amqp_connected: IntGauge,
    /// Constant 1 with the `version` label.
    pub build_info: IntGaugeVec,
    /// Finished site jobs by outcome (`ok` or the error kind).
    pub site_jobs: IntCounterVec,
    /// Legal pages found by discovery, by document type and what became of them.
    pub discovered_pages: IntCounterVec,
    /// URLs not fetched because of robots.txt (`disallowed` or `unreachable`).
    pub robots_refusals: IntCounterVec,
}

impl Metrics {
    /// Creates and registers every family in a fresh registry.
    pub fn new() -> Result<Metrics, TelemetryError> {
        let registry = Registry::new();
        let jobs = IntCounterVec::new(
            Opts::new("tcx_jobs_total", "Finished jobs by outcome and error kind."),
            &["outcome", "error_kind"],
        )?;
        let stage_seconds = HistogramVec::new(
            HistogramOpts::new(
                "tcx_stage_duration_seconds",
                "Time spent per pipeline stage (fetch, analyze with its parts pass1, select, pass2, hierarchy, text; publish).",
            )
            .buckets(STAGE_BUCKETS.to_vec()),
            &["stage"],
        )?;
        let job_seconds = Histogram::with_opts(
            HistogramOpts::new(
                "tcx_job_duration_seconds",
                "Time from receiving a job to acknowledging it.",
            )
            .buckets(STAGE_BUCKETS.to_vec()),
        )?;
        let fetched_bytes = IntCounter::new(
            "tcx_fetched_bytes_total",
            "Body bytes fetched, after content decoding.",
        )?;
        let in_flight = IntGauge::new("tcx_jobs_in_flight", "Jobs being processed right now.")?;
        let retries = IntCounter::new("tcx_retries_total", "Jobs sent to a retry queue.")?;
        let reconnects = IntCounter::new(
            "tcx_amqp_reconnects_total",
            "Reconnections to the broker after a lost connection.",
        )?;
        let content_method = IntCounterVec::new(
            Opts::new(
                "tcx_content_method_total",
                "Analysed pages by content selection method (lca or fallback).",
            ),
            &["method"],
        )?;
        let dead_lettered = IntCounterVec::new(
            Opts::new(
                "tcx_dead_lettered_total",
                "Messages sent to the dead-letter queue, by reason.",
            ),
            &["reason"],
        )?;
        let amqp_connected = IntGauge::new(
            "tcx_amqp_connected",
            "1 while the worker is connected and consuming.",
        )?;
        let build_info = IntGaugeVec::new(
            Opts::new(
                "tcx_build_info",
                "Constant 1, labelled with the tcx version.",
            ),
            &["version"],
        )?;
        build_info
            .with_label_values(&[env!("CARGO_PKG_VERSION")])
            .set(1);
        let site_jobs = IntCounterVec::new(
            Opts::new(
                "tcx_site_jobs_total",
                "Finished site jobs (discovery of a shop's legal pages) by outcome.",
            ),
            &["outcome"],
        )?;
        let discovered_pages = IntCounterVec::new(
            Opts::new(
                "tcx_discovered_pages_total",
                "Legal links found by discovery, by document type and action (enqueued, pdf, robots_disallowed, robots_unreachable, over_limit).",
            ),
            &["document_type", "action"],
        )?;
        let robots_refusals = IntCounterVec::new(
            Opts::new(
                "tcx_robots_refusals_total",
                "URLs not fetched because of robots.txt, by reason (disallowed, unreachable).",
            ),
            &["reason"],
        )?;
        let _ = site_jobs.with_label_values(&["ok"]);
        for reason in ["disallowed", "unreachable"] {
            let _ = robots_refusals.with_label_values(&[reason]);
        }
        for stage in STAGES {
            let _ = stage_seconds.with_label_values(&[stage]);
        }
        for method in ["lca", "fallback"] {
            let _ = content_method.with_label_values(&[method]);
        }
        let _ = jobs.with_label_values(&["ok", ""]);
        registry.register(Box::new(jobs.clone()))?;
        registry.register(Box::new(stage_seconds.clone()))?;
        registry.register(Box::new(job_seconds.clone()))?;
        registry.register(Box::new(fetched_bytes.clone()))?;
        registry.register(Box::new(in_flight.clone()))?;
        registry.register(Box::new(retries.clone()))?;
        registry.register(Box::new(reconnects.clone()))?;
        registry.register(Box::new(content_method.clone()))?;
        registry.register(Box::new(dead_lettered.clone()))?;
        registry.register(Box::new(amqp_connected.clone()))?;
        registry.register(Box::new(build_info.clone()))?;
        registry.register(Box::new(site_jobs.clone()))?;
        registry.register(Box::new(discovered_pages.clone()))?;
        registry.register(Box::new(robots_refusals.clone()))?;
        Ok(Metrics {
            registry,
            jobs,
            stage_seconds,
            job_seconds,
            fetched_bytes,
            in_flight,
            retries,
            reconnects,
            content_method,
            dead_lettered,
            amqp_connected,
            build_info,
            site_jobs,
            discovered_pages,
            robots_refusals,
        })
    }

    /// Records the time of one stage.
    pub fn observe_stage(&self, stage: &str, elapsed: Duration) {
        self.stage_seconds
            .with_label_values(&[stage])
            .observe(elapsed.as_secs_f64());
    }

    /// Counts a finished job.
    pub fn count_job(&self, outcome: &str, error_kind: &str) {
        self.jobs.with_label_values(&[outcome, error_kind]).inc();
    }

    /// The registry in the Prometheus text exposition format.
    pub fn render(&self) -> String {
        let mut buf = Vec::new();
        // Encoding into a Vec only fails on metric families without metrics, which the
        // text encoder skips; render what we have.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut buf);
        String::from_utf8(buf).unwrap_or_default()
    }
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// Process health shared with the HTTP endpoint: `/readyz` answers 200 only while `ready`.
#[derive(Debug, Default)]
pub struct Health {
    ready: AtomicBool,
}

impl Health {
    /// Marks the process ready (connected and consuming) or not.
    pub fn set_ready(&self, ready: bool) {
        self.ready.store(ready, Ordering::SeqCst);
    }

    /// Whether the process is ready.
    pub fn is_ready(&self) -> bool {
        self.ready.load(Ordering::SeqCst)
    }
}

/// Binds `addr` and serves `/metrics`, `/healthz` and `/readyz` until `shutdown` is
/// cancelled. Returns the bound address (useful with port 0) once listening.
pub async fn serve(
    addr: &str,
    metrics: Arc<Metrics>,
    health: Arc<Health>,
    shutdown: CancellationToken,
) -> Result<SocketAddr, TelemetryError> {
    use axum::Router;
    use axum::http::{StatusCode, header};
    use axum::routing::get;

    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| TelemetryError::Bind {
            addr: addr.to_owned(),
            source,
        })?;
    let local = listener
        .local_addr()
        .map_err(|source| TelemetryError::Bind {
            addr: addr.to_owned(),
            source,
        })?;
    let app =
        Router::new()
            .route(
                "/metrics",
                get(move || {
                    let metrics = Arc::clone(&metrics);
                    async move {
                        (
                            [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
                            metrics.render(),
                        )
                    }
                }),
            )
            // The body names the process and its metrics address: with `metrics.address` on port
            // 0 (several workers on one host) this is where each one is found.
            .route(
                "/healthz",
                get(move || async move {
                    format!("ok\npid: {}\nmetrics: {local}\n", std::process::id())
                }),
            )
            .route(
                "/readyz",
                get(move || {
                    let health = Arc::clone(&health);
                    async move {
                        if health.is_ready() {
                            (StatusCode::OK, "ready\n")
                        } else {
                            (StatusCode::SERVICE_UNAVAILABLE, "not ready\n")
                        }
                    }
                }),
            );
    tokio::spawn(async move {
        let result = axum::serve(listener, app)
            .with_graceful_shutdown(async move { shutdown.cancelled().await })
            .await;
        if let Err(e) = result {
            tracing::warn!(error = %e, "metrics endpoint stopped");
        }
    });
    Ok(local)
}

/// Dependencies whose logs are noise at the levels a user asks for, with the level kept for
/// them: simplecss warns about every CSS selector it does not support (tens of thousands of
/// lines a day), lapin and amq-protocol log each failed connection attempt several times at
/// ERROR (our supervisor logs one line per attempt with the reason). They apply beneath any
/// `RUST_LOG` that does not name the target itself.
pub const QUIET_DEPENDENCIES: [(&str, &str); 3] = [
    ("simplecss", "error"),
    ("lapin", "off"),
    ("amq_protocol", "off"),
];

/// The log filter: `RUST_LOG` (default `info`), plus [`QUIET_DEPENDENCIES`] for every target
/// it does not mention. An invalid `RUST_LOG` falls back to the default, with a warning.
pub fn log_filter(rust_log: Option<&str>) -> (tracing_subscriber::EnvFilter, Option<String>) {
    let user = rust_log.map(str::trim).filter(|s| !s.is_empty());
    let with_quiet = |base: &str| {
        let mut directives = base.to_owned();
        for (target, level) in QUIET_DEPENDENCIES {
            let named = base
                .split(',')
                .any(|d| d.trim().split(['=', '[']).next() == Some(target));
            if !named {
                directives.push_str(&format!(",{target}={level}"));
            }
        }
        directives
    };
    match tracing_subscriber::EnvFilter::try_new(with_quiet(user.unwrap_or("info"))) {
        Ok(filter) => (filter, None),
        Err(e) => (
            tracing_subscriber::EnvFilter::new(with_quiet("info")),
            Some(format!("invalid RUST_LOG ignored: {e}")),
        ),
    }
}

/// Installs the global `tracing` subscriber on standard error: text lines (coloured only
/// when standard error is a terminal) or one JSON object a line, filtered by [`log_filter`].
/// Calling it twice is harmless.
pub fn init_logging(format: crate::config::LogFormat) {
    use std::io::IsTerminal;
    let (filter, warning) = log_filter(std::env::var("RUST_LOG").ok().as_deref());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        crate::config::LogFormat::Text => builder
            .with_ansi(std::io::stderr().is_terminal())
            .try_init(),
        crate::config::LogFormat::Json => builder.json().with_ansi(false).try_init(),
    };
    if let Some(w) = warning {
        tracing::warn!("{w}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_dependencies_stay_quiet_beneath_a_users_filter() {
        let (f, w) = log_filter(Some("info"));
        assert!(w.is_none());
        let s = f.to_string();
        assert!(
            s.contains("simplecss=error") && s.contains("lapin=off"),
            "{s}"
        );
        // A target the user names keeps the user's level.
        let s = log_filter(Some("debug,simplecss=warn")).0.to_string();
        assert!(
            s.contains("simplecss=warn") && !s.contains("simplecss=error"),
            "{s}"
        );
        assert!(s.contains("lapin=off"), "{s}");
        // Nothing set: info plus the quiet list; garbage: the same, with a warning.
        assert!(log_filter(None).0.to_string().contains("info"));
        let (f, w) = log_filter(Some("tcx=[[["));
        assert!(w.is_some_and(|w| w.contains("invalid RUST_LOG")));
        assert!(f.to_string().contains("simplecss=error"));
    }

    #[test]
    fn families_are_rendered_with_their_names() {
        let m = Metrics::new().unwrap();
        m.count_job("error", "timeout");
        m.observe_stage("fetch", Duration::from_millis(3));
        m.fetched_bytes.inc_by(10);
        let text = m.render();
        for name in [
            "tcx_jobs_total{error_kind=\"timeout\",outcome=\"error\"} 1",
            "tcx_stage_duration_seconds_bucket{stage=\"fetch\",le=\"0.004\"} 1",
            "tcx_fetched_bytes_total 10",
            "tcx_jobs_in_flight 0",
            "tcx_retries_total 0",
            "tcx_amqp_reconnects_total 0",
            "tcx_content_method_total{method=\"fallback\"} 0",
            "tcx_build_info{version=",
            "tcx_job_duration_seconds_count 0",
            "tcx_amqp_connected 0",
        ] {
            assert!(text.contains(name), "{name} missing in\n{text}");
        }
    }
}
