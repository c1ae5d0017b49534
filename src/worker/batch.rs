//! `tcx batch`: the worker pipeline on an in-process queue, no broker. Bounded concurrency
//! (at most `worker.concurrency` jobs in flight), transient failures retried in-process with
//! the worker's backoff, one JSON line per job in completion order, a progress bar and a
//! summary.

use std::collections::{BTreeMap, VecDeque};
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use thiserror::Error;
use tokio::task::JoinSet;

use crate::config::WorkerSettings;
use crate::job::{Job, WorkItem};
use crate::worker::pipeline::{Outcome, Pipeline};
use crate::worker::site::{SiteOutcome, count_site_job};

/// Why a batch stopped.
#[derive(Debug, Error)]
pub enum BatchError {
    /// Writing the results failed.
    #[error("cannot write results: {0}")]
    Write(#[from] std::io::Error),
    /// A result could not be serialised (a bug).
    #[error("cannot serialise a result: {0}")]
    Json(#[from] serde_json::Error),
}

/// Counts of a finished batch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BatchSummary {
    /// Jobs run.
    pub total: usize,
    /// Jobs with an ok Document.
    pub ok: usize,
    /// Error results by kind.
    pub errors: BTreeMap<String, usize>,
    /// Retries made.
    pub retries: usize,
    /// Wall-clock time of the batch.
    pub elapsed: Duration,
}

impl BatchSummary {
    /// Successfully analysed pages per second of wall-clock time (failed jobs are fast and
    /// would inflate the rate).
    pub fn pages_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.ok as f64 / secs
        } else {
            0.0
        }
    }

    /// How many jobs ended with an error result.
    pub fn failed(&self) -> usize {
        self.errors.values().sum()
    }

    /// A human-readable summary, one fact a line.
    pub fn render(&self) -> String {
        let mut out = format!(
            "jobs: {}\nok: {}\nerrors: {}\n",
            self.total,
            self.ok,
            self.errors.values().sum::<usize>()
        );
        for (kind, n) in &self.errors {
            out.push_str(&format!("  {kind}: {n}\n"));
        }
        out.push_str(&format!(
            "retries: {}\nelapsed: {:.2} s\npages/s (ok pages): {:.1}\n",
            self.retries,
            self.elapsed.as_secs_f64(),
            self.pages_per_second()
        ));
        out
    }
}

/// Options of a batch run.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// Jobs in flight at once.
    pub concurrency: usize,
    /// Retries of transient failures.
    pub max_retries: u32,
    /// Worker settings for the retry delay.
    pub worker: WorkerSettings,
    /// Show a progress bar on standard error (only drawn when it is a terminal).
    pub progress: bool,
}

impl BatchOptions {
    /// Options from the worker settings, with a progress bar.
    pub fn from_settings(worker: &WorkerSettings) -> BatchOptions {
        BatchOptions {
            concurrency: worker.concurrency,
            max_retries: worker.max_retries,
            worker: worker.clone(),
            progress: true,
        }
    }
}

/// Runs `items` through `pipeline` and writes one JSON result a line to `out`.
pub async fn run_batch<W: Write>(
    pipeline: Arc<Pipeline>,
    items: Vec<WorkItem>,
    options: &BatchOptions,
    out: &mut W,
) -> Result<BatchSummary, BatchError> {
    let started = Instant::now();
    let bar = if options.progress && std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(items.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {per_sec} {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    let mut summary = BatchSummary::default();
    let mut pending: VecDeque<WorkItem> = items.into();
    let mut running: JoinSet<(Done, u32)> = JoinSet::new();
    let concurrency = options.concurrency.max(1);
    loop {
        while running.len() < concurrency {
            let Some(item) = pending.pop_front() else {
                break;
            };
            let pipeline = Arc::clone(&pipeline);
            let opts = options.clone();
            running.spawn(async move { run_item(&pipeline, &item, &opts).await });
        }
        let Some(joined) = running.join_next().await else {
            break;
        };
        // A panicking job task is a bug in tcx; keep the batch going and count it.
        let (done, retries) = match joined {
            Ok(done) => done,
            Err(e) => {
                summary.total += 1;
                *summary.errors.entry("internal".into()).or_default() += 1;
                bar.println(format!("job task failed: {e}"));
                bar.inc(1);
                continue;
            }
        };
        summary.total += 1;
        summary.retries += retries as usize;
        let (error_kind, found) = match done {
            Done::Page(outcome) => {
                serde_json::to_writer(&mut *out, &outcome.result)?;
                (outcome.error_kind, outcome.follow)
            }
            Done::Site(outcome) => {
                serde_json::to_writer(&mut *out, &outcome.result)?;
                (outcome.error_kind, outcome.page_jobs)
            }
        };
        out.write_all(b"\n")?;
        match error_kind {
            None => summary.ok += 1,
            Some(kind) => *summary.errors.entry(kind).or_default() += 1,
        }
        // Pages found by a site job (or by a page that was not a legal page) run next.
        bar.inc_length(found.len() as u64);
        pending.extend(found.into_iter().map(WorkItem::Job));
        bar.inc(1);
        bar.set_message(format!("ok {}", summary.ok));
    }
    out.flush()?;
    bar.finish_and_clear();
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// What one item gave.
enum Done {
    /// A page job's or file's outcome.
    Page(Box<Outcome>),
    /// A site job's outcome.
    Site(Box<SiteOutcome>),
}

/// One item with in-process retries; returns the final outcome and the retries made.
async fn run_item(pipeline: &Pipeline, item: &WorkItem, options: &BatchOptions) -> (Done, u32) {
    if let WorkItem::Job(job) = item
        && job.is_site_job()
    {
        let (outcome, retries) = run_site(pipeline, job, options).await;
        return (Done::Site(Box::new(outcome)), retries);
    }
    let (outcome, retries) = run_page(pipeline, item, options).await;
    (Done::Page(Box::new(outcome)), retries)
}

/// A site job with in-process retries.
async fn run_site(pipeline: &Pipeline, job: &Job, options: &BatchOptions) -> (SiteOutcome, u32) {
    let mut attempt = 1;
    loop {
        let outcome = pipeline.process_site(job, attempt).await;
        if !outcome.retryable || attempt > options.max_retries {
            count_site_job(pipeline, &outcome);
            return (outcome, attempt - 1);
        }
        pipeline.metrics().retries.inc();
        tokio::time::sleep(options.worker.retry_delay(attempt)).await;
        attempt += 1;
    }
}

/// A page job or file with in-process retries.
async fn run_page(pipeline: &Pipeline, item: &WorkItem, options: &BatchOptions) -> (Outcome, u32) {
    let mut attempt = 1;
    loop {
        let outcome = match item {
            WorkItem::Job(job) => pipeline.process_job(job, attempt).await,
            WorkItem::File { job_id, path } => pipeline.process_file(job_id, path, attempt).await,
        };
        if !outcome.retryable || attempt > options.max_retries {
            pipeline.metrics().count_job(
                if outcome.error_kind.is_some() {
                    "error"
                } else {
                    "ok"
                },
                outcome.error_kind.as_deref().unwrap_or(""),
            );
            return (outcome, attempt - 1);
        }
        pipeline.metrics().retries.inc();
        tokio::time::sleep(options.worker.retry_delay(attempt)).await;
        attempt += 1;
    }
}
