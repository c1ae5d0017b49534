//! What the soak and the memory bench share about the broker and the binary: the
//! environment naming a run's own topology, its deletion at the end, and finding `tcx`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::bail;
use lapin::options::{ExchangeDeleteOptions, QueueDeleteOptions};

use tcx::config::Settings;
use tcx::worker::consumer::connect;
use tcx::worker::topology;

/// The environment of the workers: this run's topology names, the broker, the concurrency.
pub fn topology_env(prefix: &str, url: &str, concurrency: usize) -> Vec<(String, String)> {
    let names = [
        ("JOBS_EXCHANGE", "jobs"),
        ("JOBS_QUEUE", "jobs"),
        ("RESULTS_EXCHANGE", "results"),
        ("RESULTS_QUEUE", "results"),
        ("RETRY_QUEUE_PREFIX", "jobs.retry"),
        ("DEAD_LETTER_EXCHANGE", "dead"),
        ("DEAD_LETTER_QUEUE", "dead"),
    ];
    let mut env: Vec<(String, String)> = names
        .iter()
        .map(|(key, name)| (format!("TCX__AMQP__{key}"), format!("{prefix}.{name}")))
        .collect();
    env.push(("TCX__AMQP__URL".into(), url.into()));
    env.push(("TCX__WORKER__CONCURRENCY".into(), concurrency.to_string()));
    env
}

/// Deletes the run's queues and exchanges; returns the messages left in each queue (by its
/// name without the run's prefix).
pub async fn delete_topology(settings: &Settings) -> anyhow::Result<Vec<(String, u32)>> {
    let a = &settings.amqp;
    let conn = connect(&a.url, concat!("tcx-", env!("CARGO_BIN_NAME"), "-cleanup")).await?;
    let channel = conn.create_channel().await?;
    let mut queues = vec![
        a.jobs_queue.clone(),
        a.results_queue.clone(),
        a.dead_letter_queue.clone(),
    ];
    let retry: BTreeSet<String> = (1..=settings.worker.max_retries)
        .map(|n| topology::retry_queue(a, &settings.worker, n))
        .collect();
    queues.extend(retry);
    let mut left = Vec::new();
    for q in queues {
        let n = channel
            .queue_delete(q.as_str().into(), QueueDeleteOptions::default())
            .await?;
        // Names without this run's prefix, for the summary.
        let prefix = a.jobs_queue.strip_suffix("jobs").unwrap_or_default();
        left.push((q.strip_prefix(prefix).unwrap_or(&q).to_owned(), n));
    }
    for x in [
        &a.jobs_exchange,
        &a.results_exchange,
        &a.dead_letter_exchange,
    ] {
        channel
            .exchange_delete(x.as_str().into(), ExchangeDeleteOptions::default())
            .await?;
    }
    let _ = conn.close(200, "bye".into()).await;
    Ok(left)
}

/// The tcx binary: `path` as given, else relative to this crate's directory.
pub fn find_tcx(path: &Path) -> anyhow::Result<PathBuf> {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    match [path.to_path_buf(), beside]
        .into_iter()
        .find(|p| p.is_file())
    {
        Some(found) => Ok(found),
        None => bail!(
            "{} not found: build it first with `cargo build --release` (or pass --tcx PATH)",
            path.display()
        ),
    }
}
