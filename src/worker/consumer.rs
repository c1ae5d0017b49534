//! `tcx worker`: the consumer, the per-delivery handling (result → confirm → ack), and the
//! supervisor that reconnects with backoff and drains on shutdown.
//!
//! Guarantees (at-least-once):
//! - a job is acked only after its result (or its retry copy, or its dead-letter copy) was
//!   confirmed by the broker and not returned as unroutable;
//! - when the connection is lost, unacked jobs go back to the queue; handlers still running
//!   on the old connection cannot ack (their channel is gone), so nothing is acked twice, and
//!   a result may at worst be published twice (consumers de-duplicate by `job_id`);
//! - on shutdown the consumer is cancelled, in-flight jobs finish within the drain timeout,
//!   then channel and connection close; unstarted prefetched jobs are requeued by the broker.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_lite::StreamExt;
use lapin::message::Delivery;
use lapin::options::{
    BasicAckOptions, BasicCancelOptions, BasicConsumeOptions, BasicNackOptions, BasicQosOptions,
    ConfirmSelectOptions,
};
use lapin::types::FieldTable;
use lapin::{Channel, Connection, ConnectionProperties};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::Settings;
use crate::job::{ATTEMPT_HEADER, Job, REASON_HEADER};
use crate::telemetry::{Health, Metrics};
use crate::worker::WorkerError;
use crate::worker::pipeline::{Outcome, Pipeline};
use crate::worker::publisher::{self, PublishError, headers, json_properties};
use crate::worker::topology;

/// Everything a delivery handler needs.
#[derive(Debug)]
pub struct WorkerContext {
    /// The settings.
    pub settings: Settings,
    /// The pipeline.
    pub pipeline: Arc<Pipeline>,
    /// The metrics.
    pub metrics: Arc<Metrics>,
    /// Readiness for `/readyz`.
    pub health: Arc<Health>,
    /// Name of the AMQP connection (shown in the management UI).
    pub connection_name: String,
}

/// How a session (one connection) ended.
#[derive(Debug)]
enum SessionEnd {
    /// Shutdown was requested and the session drained.
    Shutdown,
    /// The connection or consumer was lost after consuming started.
    Lost(String),
}

/// Opens a connection to the broker.
pub async fn connect(url: &str, name: &str) -> lapin::Result<Connection> {
    // `amqps://` URLs need a rustls provider.
    crate::fetch::install_crypto_provider();
    Connection::connect(
        url,
        ConnectionProperties::default().with_connection_name(name.into()),
    )
    .await
}

/// What an operator should know about a failed connection attempt.
pub fn failure_reason(e: &lapin::Error) -> &'static str {
    let text = e.to_string();
    let lower = text.to_ascii_lowercase();
    if text.contains("ACCESS_REFUSED") || lower.contains("access refused") || lower.contains("auth")
    {
        "authentication refused: check the user and password in amqp.url"
    } else if text.contains("NOT_ALLOWED") || lower.contains("vhost") {
        "virtual host not allowed for this user: check amqp.url"
    } else if lower.contains("connection refused") {
        "connection refused: is the broker running at amqp.url?"
    } else if lower.contains("timed out") || lower.contains("timeout") {
        "timed out"
    } else {
        "connection failed"
    }
}

/// Runs the worker until `shutdown` is cancelled: connect, declare, consume; on a lost
/// connection reconnect with exponential backoff.
pub async fn supervise(
    ctx: Arc<WorkerContext>,
    shutdown: CancellationToken,
) -> Result<(), WorkerError> {
    let amqp = &ctx.settings.amqp;
    let initial = Duration::from_millis(amqp.reconnect_initial_ms);
    let max = Duration::from_millis(amqp.reconnect_max_ms);
    let mut backoff = initial;
    let mut sessions = 0u64;
    loop {
        if shutdown.is_cancelled() {
            return Ok(());
        }
        match session(&ctx, &shutdown).await {
            Ok(SessionEnd::Shutdown) => return Ok(()),
            Ok(SessionEnd::Lost(reason)) => {
                tracing::warn!(%reason, "lost the broker connection; reconnecting");
                backoff = initial;
            }
            Err(e) => {
                // One line per attempt (lapin's own logs are quiet by default), with the
                // reason an operator can act on.
                tracing::warn!(
                    reason = failure_reason(&e),
                    error = %e,
                    retry_in = ?backoff,
                    "cannot connect to the broker"
                );
            }
        }
        ctx.health.set_ready(false);
        ctx.metrics.amqp_connected.set(0);
        sessions += 1;
        ctx.metrics.reconnects.inc();
        tokio::select! {
            () = tokio::time::sleep(backoff) => {}
            () = shutdown.cancelled() => return Ok(()),
        }
        backoff = (backoff * 2).min(max);
        tracing::debug!(sessions, "reconnecting");
    }
}

async fn session(
    ctx: &Arc<WorkerContext>,
    shutdown: &CancellationToken,
) -> lapin::Result<SessionEnd> {
    let settings = &ctx.settings;
    let conn = connect(&settings.amqp.url, &ctx.connection_name).await?;
    let publish = conn.create_channel().await?;
    topology::declare(&publish, &settings.amqp, &settings.worker).await?;
    publish
        .confirm_select(ConfirmSelectOptions::default())
        .await?;
    let consume = conn.create_channel().await?;
    let prefetch = u16::try_from(settings.worker.concurrency).unwrap_or(u16::MAX);
    consume
        .basic_qos(prefetch, BasicQosOptions::default())
        .await?;
    let tag = format!("{}-{}", ctx.connection_name, std::process::id());
    let mut consumer = consume
        .basic_consume(
            settings.amqp.jobs_queue.as_str().into(),
            tag.as_str().into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?;
    ctx.health.set_ready(true);
    ctx.metrics.amqp_connected.set(1);
    tracing::info!(queue = %settings.amqp.jobs_queue, prefetch, "consuming");
    let tracker = TaskTracker::new();
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    let end = loop {
        tokio::select! {
            () = shutdown.cancelled() => break SessionEnd::Shutdown,
            next = consumer.next() => match next {
                Some(Ok(delivery)) => {
                    let ctx = Arc::clone(ctx);
                    let channel = publish.clone();
                    tracker.spawn(async move { handle(&ctx, &channel, delivery).await });
                }
                Some(Err(e)) => break SessionEnd::Lost(e.to_string()),
                None => break SessionEnd::Lost("consumer cancelled".into()),
            },
            _ = tick.tick() => {
                if !conn.status().connected() {
                    break SessionEnd::Lost("connection closed".into());
                }
                // A channel error (e.g. an exchange deleted under us) closes the channel but
                // not the connection: start over and re-declare the topology.
                if !publish.status().connected() || !consume.status().connected() {
                    break SessionEnd::Lost("channel closed".into());
                }
            }
        }
    };
    ctx.health.set_ready(false);
    tracker.close();
    if let SessionEnd::Lost(_) = end {
        // Handlers on this connection can no longer ack; their jobs are redelivered. Close
        // what may still be open (e.g. the consumer was cancelled by the broker).
        let _ = tokio::time::timeout(
            Duration::from_secs(2),
            conn.close(200, "reconnecting".into()),
        )
        .await;
        return Ok(end);
    }
    tracing::info!(
        in_flight = tracker.len(),
        "stopping: draining in-flight jobs"
    );
    if let Err(e) = consume
        .basic_cancel(tag.as_str().into(), BasicCancelOptions::default())
        .await
    {
        tracing::warn!(error = %e, "cannot cancel the consumer");
    }
    let drain = Duration::from_secs(settings.worker.drain_timeout_secs);
    if tokio::time::timeout(drain, tracker.wait()).await.is_err() {
        tracing::warn!(
            left = tracker.len(),
            "drain timeout: unfinished jobs go back to the queue"
        );
    }
    let _ = consume.close(200, "bye".into()).await;
    let _ = publish.close(200, "bye".into()).await;
    let _ = conn.close(200, "bye".into()).await;
    ctx.metrics.amqp_connected.set(0);
    tracing::info!("stopped");
    Ok(SessionEnd::Shutdown)
}

/// Error kind of a result replaced because it was over `amqp.max_message_bytes`.
pub const RESULT_TOO_LARGE: &str = "result_too_large";

/// The serialised result message, or — when it is over `max_bytes` — an error result of kind
/// [`RESULT_TOO_LARGE`] for the same job (the broker would refuse the message, and the job
/// would come back forever). The flag says whether the result was replaced.
fn result_body(outcome: &Outcome, max_bytes: usize) -> Result<(Vec<u8>, bool), PublishError> {
    let serialise = |m: &crate::job::ResultMessage| {
        serde_json::to_vec(m).map_err(|e| {
            // Cannot happen for our types; keep the job rather than lose it.
            tracing::error!(error = %e, "cannot serialise a result");
            PublishError::Nacked
        })
    };
    let body = serialise(&outcome.result)?;
    if body.len() <= max_bytes {
        return Ok((body, false));
    }
    let doc = &outcome.result.document;
    tracing::warn!(
        job_id = doc.job_id.as_deref().unwrap_or(""),
        bytes = body.len(),
        max_bytes,
        "result over amqp.max_message_bytes: publishing an error result instead"
    );
    let error = tcx_core::ErrorInfo::new(
        RESULT_TOO_LARGE,
        format!(
            "the result is {} bytes, more than amqp.max_message_bytes = {max_bytes}",
            body.len()
        ),
        false,
    );
    let mut replaced =
        tcx_core::Document::from_error(error, doc.source.clone(), doc.extracted_at.clone());
    replaced.job_id = doc.job_id.clone();
    let message = crate::job::ResultMessage {
        document: replaced,
        ..outcome.result.clone()
    };
    Ok((serialise(&message)?, true))
}

/// Publishes page jobs (found by discovery) to the jobs exchange, each confirmed.
async fn publish_jobs(
    ctx: &WorkerContext,
    channel: &Channel,
    jobs: &[Job],
) -> Result<(), PublishError> {
    let amqp = &ctx.settings.amqp;
    for job in jobs {
        let body = serde_json::to_vec(job).map_err(|e| {
            tracing::error!(error = %e, "cannot serialise a page job");
            PublishError::Nacked
        })?;
        let props = json_properties(&job.job_id, headers(&[], Some(1)));
        publisher::publish_confirmed(
            channel,
            &amqp.jobs_exchange,
            &amqp.jobs_routing_key,
            &body,
            props,
        )
        .await?;
    }
    Ok(())
}

/// Handles a site job: discovery; then a retry, or the page jobs and the site result.
async fn handle_site(
    ctx: &WorkerContext,
    channel: &Channel,
    job: &Job,
    body: &[u8],
    attempt: u32,
) -> Result<(), PublishError> {
    let settings = &ctx.settings;
    let metrics = &ctx.metrics;
    let outcome = ctx.pipeline.process_site(job, attempt).await;
    let label = outcome.error_kind.as_deref().unwrap_or("ok");
    if outcome.retryable && attempt <= settings.worker.max_retries {
        let queue = topology::retry_queue(&settings.amqp, &settings.worker, attempt);
        tracing::info!(job_id = %job.job_id, attempt, kind = label, %queue, "retrying a site job later");
        let props = json_properties(&job.job_id, headers(&[], Some(attempt + 1)));
        publisher::publish_confirmed(channel, "", &queue, body, props).await?;
        metrics.retries.inc();
        metrics.count_job("retry", label);
        return Ok(());
    }
    publish_jobs(ctx, channel, &outcome.page_jobs).await?;
    let result = serde_json::to_vec(&outcome.result).map_err(|e| {
        tracing::error!(error = %e, "cannot serialise a site result");
        PublishError::Nacked
    })?;
    let props = json_properties(
        &job.job_id,
        headers(&[("job_id", job.job_id.as_str())], Some(attempt)),
    );
    publisher::publish_confirmed(
        channel,
        &settings.amqp.results_exchange,
        &settings.amqp.results_routing_key,
        &result,
        props,
    )
    .await?;
    tracing::info!(
        job_id = %job.job_id,
        pages = outcome.page_jobs.len(),
        kind = label,
        "site job done"
    );
    crate::worker::site::count_site_job(&ctx.pipeline, &outcome);
    match &outcome.error_kind {
        None => metrics.count_job("ok", ""),
        Some(kind) => metrics.count_job("error", kind),
    }
    Ok(())
}

/// Handles one delivery: parse, process, publish (result, retry or dead letter), ack.
async fn handle(ctx: &WorkerContext, channel: &Channel, delivery: Delivery) {
    let metrics = &ctx.metrics;
    metrics.in_flight.inc();
    let started = Instant::now();
    let settings = &ctx.settings;
    let attempt = publisher::int_header(&delivery.properties, ATTEMPT_HEADER)
        .and_then(|a| u32::try_from(a).ok())
        .filter(|a| *a >= 1)
        .unwrap_or(1);
    let published = match Job::from_slice(&delivery.data) {
        Err(e) => {
            tracing::warn!(reason = %e, "dead-lettering an invalid job");
            let reason = e.to_string();
            let mut props = delivery.properties.clone();
            let mut table = props.headers().clone().unwrap_or_default();
            table.insert(
                REASON_HEADER.into(),
                lapin::types::AMQPValue::LongString(reason.as_str().into()),
            );
            props = props.with_headers(table);
            let r = publisher::publish_confirmed(
                channel,
                &settings.amqp.dead_letter_exchange,
                "",
                &delivery.data,
                props,
            )
            .await;
            if r.is_ok() {
                metrics.dead_lettered.with_label_values(&[e.kind()]).inc();
                metrics.count_job("dead_lettered", e.kind());
            }
            r
        }
        Ok(job) if job.is_site_job() => {
            handle_site(ctx, channel, &job, &delivery.data, attempt).await
        }
        Ok(mut job) => {
            // The page moves out of the job: a waiting job holds one copy of it less.
            let html = job.html.take();
            let outcome = ctx.pipeline.process_inline(&job, html, attempt).await;
            let publish_started = Instant::now();
            let r = if outcome.retryable && attempt <= settings.worker.max_retries {
                let queue = topology::retry_queue(&settings.amqp, &settings.worker, attempt);
                tracing::info!(job_id = %job.job_id, attempt, kind = outcome.label(), %queue, "retrying later");
                let props = json_properties(&job.job_id, headers(&[], Some(attempt + 1)));
                let r =
                    publisher::publish_confirmed(channel, "", &queue, &delivery.data, props).await;
                if r.is_ok() {
                    metrics.retries.inc();
                    metrics.count_job("retry", outcome.label());
                }
                r
            } else if let Err(e) = publish_jobs(ctx, channel, &outcome.follow).await {
                Err(e)
            } else {
                match result_body(&outcome, settings.amqp.max_message_bytes) {
                    Ok((body, too_large)) => {
                        let props = json_properties(
                            &job.job_id,
                            headers(&[("job_id", job.job_id.as_str())], Some(attempt)),
                        );
                        let r = publisher::publish_confirmed(
                            channel,
                            &settings.amqp.results_exchange,
                            &settings.amqp.results_routing_key,
                            &body,
                            props,
                        )
                        .await;
                        if r.is_ok() {
                            match (&outcome.error_kind, too_large) {
                                (_, true) => metrics.count_job("error", RESULT_TOO_LARGE),
                                (None, false) => metrics.count_job("ok", ""),
                                (Some(kind), false) => metrics.count_job("error", kind),
                            }
                        }
                        r
                    }
                    Err(e) => Err(e),
                }
            };
            metrics.observe_stage("publish", publish_started.elapsed());
            r
        }
    };
    match published {
        Ok(()) => {
            if let Err(e) = delivery.ack(BasicAckOptions::default()).await {
                tracing::warn!(error = %e, "ack failed; the job will be redelivered");
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "publish failed; requeueing the job");
            // Avoid a hot loop when results are unroutable.
            tokio::time::sleep(Duration::from_secs(1)).await;
            let _ = delivery
                .nack(BasicNackOptions {
                    requeue: true,
                    ..BasicNackOptions::default()
                })
                .await;
        }
    }
    metrics.job_seconds.observe(started.elapsed().as_secs_f64());
    metrics.in_flight.dec();
}
