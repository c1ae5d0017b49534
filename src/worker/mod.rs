//! The service side of tcx: the job pipeline ([`pipeline`]), the in-process batch runner
//! ([`batch`]), and the RabbitMQ worker ([`topology`], [`publisher`], [`consumer`],
//! [`enqueue`](mod@enqueue)) with per-host politeness ([`limiter`]).

pub mod batch;
pub mod consumer;
pub mod enqueue;
pub mod limiter;
pub mod pipeline;
pub mod publisher;
pub mod site;
pub mod topology;

use std::sync::Arc;

use thiserror::Error;
use tokio_util::sync::CancellationToken;

use crate::config::Settings;
use crate::telemetry::{Health, Metrics, TelemetryError};

pub use batch::{BatchOptions, BatchSummary, run_batch};
pub use enqueue::{EnqueueSummary, enqueue};
pub use pipeline::{Outcome, Pipeline};

/// Why the worker or `enqueue` stopped.
#[derive(Debug, Error)]
pub enum WorkerError {
    /// The broker refused or dropped us.
    #[error("AMQP error: {0}")]
    Amqp(#[from] lapin::Error),
    /// The HTTP client could not be built.
    #[error("{0}")]
    Fetch(#[from] crate::fetch::FetchError),
    /// Metrics could not be set up.
    #[error("{0}")]
    Telemetry(#[from] TelemetryError),
    /// A message could not be serialised (a bug).
    #[error("cannot serialise a message: {0}")]
    Json(serde_json::Error),
}

/// Runs `tcx worker` until `shutdown` is cancelled: metrics endpoint (if enabled), then the
/// consuming supervisor.
pub async fn run_worker(
    settings: Settings,
    shutdown: CancellationToken,
) -> Result<(), WorkerError> {
    let name = format!("tcx-worker-{}", std::process::id());
    run_worker_as(settings, shutdown, &name).await
}

/// Like [`run_worker`] with an explicit AMQP connection name (shown by the broker; several
/// workers in one process need distinct names to be told apart).
pub async fn run_worker_as(
    settings: Settings,
    shutdown: CancellationToken,
    connection_name: &str,
) -> Result<(), WorkerError> {
    let metrics = Arc::new(Metrics::new()?);
    let health = Arc::new(Health::default());
    if settings.metrics.enabled {
        let addr = crate::telemetry::serve(
            &settings.metrics.address,
            Arc::clone(&metrics),
            Arc::clone(&health),
            shutdown.clone(),
        )
        .await?;
        tracing::info!(%addr, "metrics endpoint listening");
    }
    let pipeline = Arc::new(Pipeline::new(&settings, Arc::clone(&metrics))?);
    let ctx = Arc::new(consumer::WorkerContext {
        connection_name: connection_name.to_owned(),
        settings,
        pipeline,
        metrics,
        health,
    });
    consumer::supervise(ctx, shutdown).await
}

/// A token cancelled on SIGINT (Ctrl-C) or SIGTERM.
pub fn shutdown_on_signals() -> CancellationToken {
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            match signal(SignalKind::terminate()) {
                Ok(mut term) => {
                    tokio::select! {
                        _ = ctrl_c => {}
                        _ = term.recv() => {}
                    }
                }
                Err(_) => {
                    let _ = ctrl_c.await;
                }
            }
        }
        #[cfg(not(unix))]
        {
            let _ = ctrl_c.await;
        }
        tracing::info!("shutdown requested: draining (a second SIGINT exits at once)");
        cancel.cancel();
        // A second Ctrl-C skips the drain; unacked jobs are requeued by the broker.
        if tokio::signal::ctrl_c().await.is_ok() {
            tracing::warn!("second interrupt: exiting without draining");
            std::process::exit(130);
        }
    });
    token
}
