//! Publishing with publisher confirms and `mandatory`: a message counts as delivered only when
//! the broker acked it *and* did not return it as unroutable.

use lapin::options::BasicPublishOptions;
use lapin::types::{AMQPValue, FieldTable};
use lapin::{BasicProperties, Channel};
use thiserror::Error;

/// Why a publish did not reach a queue.
#[derive(Debug, Error)]
pub enum PublishError {
    /// The channel or connection failed.
    #[error("AMQP error: {0}")]
    Amqp(#[from] lapin::Error),
    /// The broker nacked the message.
    #[error("the broker refused the message (nack)")]
    Nacked,
    /// The broker returned the message: no queue is bound for its routing key.
    #[error("the message was returned: {code} {text}")]
    Returned {
        /// AMQP reply code, e.g. 312 NO_ROUTE.
        code: u16,
        /// Reply text.
        text: String,
    },
}

/// Persistent JSON properties with the given headers.
pub fn json_properties(message_id: &str, headers: FieldTable) -> BasicProperties {
    BasicProperties::default()
        .with_content_type("application/json".into())
        .with_delivery_mode(2)
        .with_message_id(message_id.into())
        .with_headers(headers)
}

/// A header table from string pairs and an optional attempt number.
pub fn headers(pairs: &[(&str, &str)], attempt: Option<u32>) -> FieldTable {
    let mut table = FieldTable::default();
    for (k, v) in pairs {
        table.insert((*k).into(), AMQPValue::LongString((*v).into()));
    }
    if let Some(attempt) = attempt {
        table.insert(
            crate::job::ATTEMPT_HEADER.into(),
            AMQPValue::LongLongInt(i64::from(attempt)),
        );
    }
    table
}

/// Publishes with `mandatory` and waits for the confirm (the channel must be in confirm
/// mode).
pub async fn publish_confirmed(
    channel: &Channel,
    exchange: &str,
    routing_key: &str,
    payload: &[u8],
    properties: BasicProperties,
) -> Result<(), PublishError> {
    let confirm = channel
        .basic_publish(
            exchange.into(),
            routing_key.into(),
            BasicPublishOptions {
                mandatory: true,
                ..BasicPublishOptions::default()
            },
            payload,
            properties,
        )
        .await?
        .await?;
    check_confirmation(confirm)
}

/// Turns a confirmation into success only if it is an ack without a returned message.
pub fn check_confirmation(confirm: lapin::Confirmation) -> Result<(), PublishError> {
    let acked = confirm.is_ack();
    if let Some(returned) = confirm.take_message() {
        return Err(PublishError::Returned {
            code: returned.reply_code,
            text: returned.reply_text.to_string(),
        });
    }
    if acked {
        Ok(())
    } else {
        Err(PublishError::Nacked)
    }
}

/// Reads an integer header (any AMQP integer type).
pub fn int_header(properties: &BasicProperties, name: &str) -> Option<i64> {
    let table = properties.headers().as_ref()?;
    match table.inner().get(name)? {
        AMQPValue::ShortShortInt(v) => Some(i64::from(*v)),
        AMQPValue::ShortShortUInt(v) => Some(i64::from(*v)),
        AMQPValue::ShortInt(v) => Some(i64::from(*v)),
        AMQPValue::ShortUInt(v) => Some(i64::from(*v)),
        AMQPValue::LongInt(v) => Some(i64::from(*v)),
        AMQPValue::LongUInt(v) => Some(i64::from(*v)),
        AMQPValue::LongLongInt(v) => Some(*v),
        AMQPValue::LongString(s) => std::str::from_utf8(s.as_bytes()).ok()?.parse().ok(),
        _ => None,
    }
}

/// Reads a string header.
pub fn str_header(properties: &BasicProperties, name: &str) -> Option<String> {
    let table = properties.headers().as_ref()?;
    match table.inner().get(name)? {
        AMQPValue::LongString(s) => Some(String::from_utf8_lossy(s.as_bytes()).into_owned()),
        AMQPValue::ShortString(s) => Some(s.as_str().to_owned()),
        _ => None,
    }
}
