//! The consumer of the results and dead-letter queues of a run, and what it saw (shared by the
//! soak and the memory bench).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::bail;
use futures_lite::StreamExt;
use lapin::message::Delivery;
use lapin::options::{BasicAckOptions, BasicConsumeOptions, BasicQosOptions};
use lapin::types::FieldTable;
use tokio_util::sync::CancellationToken;

use tcx::config::Settings;
use tcx::job::REASON_HEADER;
use tcx::worker::consumer::connect;
use tcx::worker::publisher::str_header;
use tcx::worker::topology;

/// What a job must give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// A result with status ok.
    Ok,
    /// An error result of this kind.
    Error(&'static str),
    /// No result: the worker dead-letters the message.
    DeadLetter,
}

/// Everything read from the results and dead-letter queues.
#[derive(Debug, Default)]
pub struct Tally {
    /// Every job of the run and what it must give.
    pub expected: HashMap<String, Expect>,
    /// Job id → the outcome of each result message (`None` = ok, else the error kind).
    pub results: HashMap<String, Vec<Option<String>>>,
    /// Job id → dead-lettered messages.
    pub dead: HashMap<String, usize>,
    /// Dead letters by their reason header.
    pub dead_reasons: BTreeMap<String, usize>,
    /// Messages for job ids this run did not send, or without a job id.
    pub unknown: usize,
    /// Hashes of the bodies read, to tell this consumer's own redeliveries (after a lost
    /// connection: same body, `redelivered` set) from duplicates the workers published.
    bodies: HashSet<u64>,
    /// Own redeliveries ignored.
    pub redeliveries: usize,
    /// Deliveries read, including redeliveries.
    pub messages: usize,
    /// Size of the largest result message read, in bytes.
    pub largest_result: usize,
    /// Job ids of this run with a result or a dead letter.
    pub accounted: usize,
    /// When the last job id was accounted for.
    pub last_accounted: Option<Instant>,
    /// Connections the consumer opened.
    pub sessions: usize,
}

impl Tally {
    /// An empty tally for the jobs of `expected`.
    pub fn new(expected: HashMap<String, Expect>) -> Tally {
        Tally {
            expected,
            ..Tally::default()
        }
    }

    /// Records one delivery of the results (`dead` false) or dead-letter queue.
    fn record(&mut self, delivery: &Delivery, dead: bool) {
        self.messages += 1;
        let mut h = DefaultHasher::new();
        delivery.data.hash(&mut h);
        let fresh = self.bodies.insert(h.finish());
        if delivery.redelivered && !fresh {
            self.redeliveries += 1;
            return;
        }
        let json: Option<serde_json::Value> = serde_json::from_slice(&delivery.data).ok();
        let field = |name: &str| {
            json.as_ref()
                .and_then(|v| v.pointer(name))
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        };
        let id = field("/job_id").or_else(|| {
            let m = delivery.properties.message_id().as_ref();
            m.map(|m| m.as_str().to_owned())
        });
        let Some(id) = id.filter(|id| self.expected.contains_key(id)) else {
            self.unknown += 1;
            return;
        };
        if !self.results.contains_key(&id) && !self.dead.contains_key(&id) {
            self.accounted += 1;
            self.last_accounted = Some(Instant::now());
        }
        if dead {
            let reason = str_header(&delivery.properties, REASON_HEADER).unwrap_or_default();
            *self.dead_reasons.entry(reason).or_default() += 1;
            *self.dead.entry(id).or_default() += 1;
        } else {
            self.largest_result = self.largest_result.max(delivery.data.len());
            let outcome = match field("/status").as_deref() {
                Some("ok") => None,
                _ => Some(field("/error/kind").unwrap_or_else(|| "<no kind>".into())),
            };
            self.results.entry(id).or_default().push(outcome);
        }
    }
}

/// Locks the tally (a panicked holder left it consistent enough to report).
pub fn lock(tally: &Mutex<Tally>) -> MutexGuard<'_, Tally> {
    tally.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Consumes the results and dead-letter queues into `tally` until `stop`, reconnecting after
/// a lost connection (the broker restart).
pub async fn consume(settings: Arc<Settings>, tally: Arc<Mutex<Tally>>, stop: CancellationToken) {
    let mut last_error = String::new();
    while !stop.is_cancelled() {
        lock(&tally).sessions += 1;
        match consume_session(&settings, &tally, &stop).await {
            Ok(()) => return,
            // One line per kind of failure, not one per attempt while the broker is down.
            Err(e) if e.to_string() != last_error => {
                last_error = e.to_string();
                let name = env!("CARGO_BIN_NAME");
                eprintln!("{name}: results consumer: {last_error}; reconnecting every second");
            }
            Err(_) => {}
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            () = stop.cancelled() => return,
        }
    }
}

async fn consume_session(
    settings: &Settings,
    tally: &Mutex<Tally>,
    stop: &CancellationToken,
) -> anyhow::Result<()> {
    let a = &settings.amqp;
    let conn = connect(&a.url, concat!("tcx-", env!("CARGO_BIN_NAME"), "-results")).await?;
    let channel = conn.create_channel().await?;
    topology::declare(&channel, a, &settings.worker).await?;
    channel.basic_qos(500, BasicQosOptions::default()).await?;
    let consumer = |queue: &str, tag: &str| {
        channel.basic_consume(
            queue.into(),
            tag.into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
    };
    let tag = |queue: &'static str| format!("{}-{queue}", env!("CARGO_BIN_NAME"));
    let mut results = consumer(&a.results_queue, &tag("results")).await?;
    let mut dead = consumer(&a.dead_letter_queue, &tag("dead")).await?;
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        let (next, is_dead) = tokio::select! {
            () = stop.cancelled() => break,
            next = results.next() => (next, false),
            next = dead.next() => (next, true),
            _ = tick.tick() => {
                if !conn.status().connected() || !channel.status().connected() {
                    bail!("connection closed");
                }
                continue;
            }
        };
        let delivery = match next {
            Some(Ok(delivery)) => delivery,
            Some(Err(e)) => return Err(e.into()),
            None => bail!("consumer cancelled by the broker"),
        };
        lock(tally).record(&delivery, is_dead);
        // Should the ack be lost, the redelivery has the same body and is ignored.
        delivery.ack(BasicAckOptions::default()).await?;
    }
    let _ = channel.close(200, "bye".into()).await;
    let _ = conn.close(200, "bye".into()).await;
    Ok(())
}
