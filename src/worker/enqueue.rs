//! `tcx enqueue`: publish jobs with confirms and report a summary.

use std::time::{Duration, Instant};

use lapin::options::{BasicPublishOptions, ConfirmSelectOptions};

use crate::config::Settings;
use crate::job::{Job, WorkItem};
use crate::worker::WorkerError;
use crate::worker::consumer::connect;
use crate::worker::publisher::{PublishError, check_confirmation, headers, json_properties};
use crate::worker::topology;

/// How many publishes are in flight before waiting for their confirms.
const WINDOW: usize = 512;

/// Counts of an enqueue run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EnqueueSummary {
    /// Jobs confirmed by the broker.
    pub published: usize,
    /// Jobs nacked or returned, with the job id and reason.
    pub failed: Vec<(String, String)>,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl EnqueueSummary {
    /// A human-readable summary.
    pub fn render(&self) -> String {
        let mut out = format!(
            "published: {}\nfailed: {}\nelapsed: {:.2} s\n",
            self.published,
            self.failed.len(),
            self.elapsed.as_secs_f64()
        );
        for (id, reason) in self.failed.iter().take(20) {
            out.push_str(&format!("  {id}: {reason}\n"));
        }
        out
    }
}

/// Turns a work item into a job message; local files (at most `max_bytes`, after
/// decompression) are read and sent inline.
pub fn item_to_job(item: WorkItem, max_bytes: usize) -> Result<Job, crate::source::LoadError> {
    match item {
        WorkItem::Job(job) => Ok(job),
        WorkItem::File { job_id, path } => {
            let bytes = crate::source::read_file(&path, max_bytes)?;
            let page = crate::source::page_from_bytes(&bytes, crate::source::file_url(&path));
            let mut job = Job::new(job_id, page.url);
            job.html = Some(page.html);
            Ok(job)
        }
    }
}

/// Declares the topology and publishes every job to the jobs exchange with `mandatory` and
/// publisher confirms.
pub async fn enqueue(settings: &Settings, jobs: Vec<Job>) -> Result<EnqueueSummary, WorkerError> {
    let started = Instant::now();
    let conn = connect(&settings.amqp.url, "tcx-enqueue").await?;
    let channel = conn.create_channel().await?;
    topology::declare(&channel, &settings.amqp, &settings.worker).await?;
    channel
        .confirm_select(ConfirmSelectOptions::default())
        .await?;
    let mut summary = EnqueueSummary::default();
    for window in jobs.chunks(WINDOW) {
        let mut pending = Vec::with_capacity(window.len());
        for job in window {
            let body = serde_json::to_vec(job).map_err(WorkerError::Json)?;
            let confirm = channel
                .basic_publish(
                    settings.amqp.jobs_exchange.as_str().into(),
                    settings.amqp.jobs_routing_key.as_str().into(),
                    BasicPublishOptions {
                        mandatory: true,
                        ..BasicPublishOptions::default()
                    },
                    &body,
                    json_properties(&job.job_id, headers(&[], Some(1))),
                )
                .await?;
            pending.push((job.job_id.clone(), confirm));
        }
        for (id, confirm) in pending {
            let result = match confirm.await {
                Ok(c) => check_confirmation(c),
                Err(e) => Err(PublishError::Amqp(e)),
            };
            match result {
                Ok(()) => summary.published += 1,
                Err(e) => summary.failed.push((id, e.to_string())),
            }
        }
    }
    let _ = channel.close(200, "bye".into()).await;
    let _ = conn.close(200, "bye".into()).await;
    summary.elapsed = started.elapsed();
    Ok(summary)
}
