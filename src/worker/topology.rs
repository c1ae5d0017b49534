//! The RabbitMQ topology, declared idempotently by every worker, `tcx enqueue` and the tests
//! (one function, so the queue arguments always match; a mismatch would close the channel
//! with PRECONDITION_FAILED).
//!
//! ```text
//! jobs_exchange (direct) ──jobs_routing_key──▶ jobs_queue ──▶ workers
//!   jobs_queue dead-letters (x-dead-letter-exchange; quorum: x-delivery-limit) to dead_letter_exchange
//! workers ──▶ "" (default exchange) ──▶ <retry_queue_prefix>.<delay>ms
//!              (x-message-ttl = delay, dead-letters to jobs_exchange/jobs_routing_key)
//! workers ──▶ results_exchange (direct) ──results_routing_key──▶ results_queue
//! workers ──▶ dead_letter_exchange (fanout) ──▶ dead_letter_queue   (header x-tcx-reason)
//! ```

use lapin::options::{ExchangeDeclareOptions, QueueBindOptions, QueueDeclareOptions};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{Channel, ExchangeKind};

use crate::config::{AmqpSettings, QueueType, WorkerSettings};

/// Name of the retry queue that delays retry `n` (1-based). The delay is part of the name, so
/// changing `worker.retry_*` creates new queues instead of clashing with the old arguments.
pub fn retry_queue(amqp: &AmqpSettings, worker: &WorkerSettings, n: u32) -> String {
    format!(
        "{}.{}ms",
        amqp.retry_queue_prefix,
        worker.retry_delay(n).as_millis()
    )
}

fn durable_exchange() -> ExchangeDeclareOptions {
    ExchangeDeclareOptions {
        durable: true,
        ..ExchangeDeclareOptions::default()
    }
}

fn typed(amqp: &AmqpSettings) -> FieldTable {
    let mut args = FieldTable::default();
    args.insert(
        "x-queue-type".into(),
        AMQPValue::LongString(amqp.queue_type.as_str().into()),
    );
    args
}

/// Declares every exchange, queue and binding. Safe to call any number of times with the
/// same settings.
pub async fn declare(
    channel: &Channel,
    amqp: &AmqpSettings,
    worker: &WorkerSettings,
) -> lapin::Result<()> {
    channel
        .exchange_declare(
            amqp.jobs_exchange.as_str().into(),
            ExchangeKind::Direct,
            durable_exchange(),
            FieldTable::default(),
        )
        .await?;
    channel
        .exchange_declare(
            amqp.results_exchange.as_str().into(),
            ExchangeKind::Direct,
            durable_exchange(),
            FieldTable::default(),
        )
        .await?;
    channel
        .exchange_declare(
            amqp.dead_letter_exchange.as_str().into(),
            ExchangeKind::Fanout,
            durable_exchange(),
            FieldTable::default(),
        )
        .await?;
    // The jobs queue dead-letters what the broker itself rejects (on quorum queues: jobs
    // redelivered more than `delivery_limit` times, e.g. because they crash the worker).
    let mut jobs_args = typed(amqp);
    jobs_args.insert(
        "x-dead-letter-exchange".into(),
        AMQPValue::LongString(amqp.dead_letter_exchange.as_str().into()),
    );
    if amqp.queue_type == QueueType::Quorum && amqp.delivery_limit > 0 {
        jobs_args.insert(
            "x-delivery-limit".into(),
            AMQPValue::LongLongInt(i64::from(amqp.delivery_limit)),
        );
    }
    for (queue, exchange, key, args) in [
        (
            &amqp.jobs_queue,
            &amqp.jobs_exchange,
            &amqp.jobs_routing_key,
            jobs_args,
        ),
        (
            &amqp.results_queue,
            &amqp.results_exchange,
            &amqp.results_routing_key,
            typed(amqp),
        ),
        (
            &amqp.dead_letter_queue,
            &amqp.dead_letter_exchange,
            &String::new(),
            typed(amqp),
        ),
    ] {
        channel
            .queue_declare(queue.as_str().into(), QueueDeclareOptions::durable(), args)
            .await?;
        channel
            .queue_bind(
                queue.as_str().into(),
                exchange.as_str().into(),
                key.as_str().into(),
                QueueBindOptions::default(),
                FieldTable::default(),
            )
            .await?;
    }
    let mut declared = Vec::new();
    for n in 1..=worker.max_retries {
        let name = retry_queue(amqp, worker, n);
        if declared.contains(&name) {
            continue;
        }
        let mut args = FieldTable::default();
        let ttl = i64::try_from(worker.retry_delay(n).as_millis()).unwrap_or(i64::MAX);
        args.insert("x-message-ttl".into(), AMQPValue::LongLongInt(ttl));
        args.insert(
            "x-dead-letter-exchange".into(),
            AMQPValue::LongString(amqp.jobs_exchange.as_str().into()),
        );
        args.insert(
            "x-dead-letter-routing-key".into(),
            AMQPValue::LongString(amqp.jobs_routing_key.as_str().into()),
        );
        channel
            .queue_declare(name.as_str().into(), QueueDeclareOptions::durable(), args)
            .await?;
        declared.push(name);
    }
    Ok(())
}
