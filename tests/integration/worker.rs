//! `tcx worker` and `tcx enqueue` against the real RabbitMQ on 127.0.0.1:5672 (guest/guest)
//! and the loopback [`TestServer`]. Every test declares its own uniquely named exchanges and
//! queues and deletes them at the end; when no broker listens, the tests print a note and
//! pass without checking anything.

use std::collections::{HashMap, HashSet};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_lite::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, BasicGetOptions, BasicPublishOptions,
    ConfirmSelectOptions, ExchangeDeleteOptions, QueueDeclareOptions, QueueDeleteOptions,
};
use lapin::types::FieldTable;
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};
use tokio_util::sync::CancellationToken;

use tcx::config::Settings;
use tcx::job::{Job, REASON_HEADER, ResultMessage};
use tcx::worker::publisher::str_header;
use tcx::worker::topology;

use crate::batch::{fixture_html, loopback_settings};
use crate::support::{Route, TestServer, closed_port};

const BROKER: &str = "127.0.0.1:5672";
const URL: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";

/// True when a broker listens; otherwise prints why the test is skipped — or, with
/// `TCX_REQUIRE_BROKER=1` (as `.ci/run` sets it), fails the test.
pub(crate) fn broker_available(test: &str) -> bool {
    let addr: SocketAddr = BROKER.parse().expect("address");
    if TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_ok() {
        return true;
    }
    assert!(
        std::env::var("TCX_REQUIRE_BROKER").as_deref() != Ok("1"),
        "{test}: TCX_REQUIRE_BROKER=1 but no RabbitMQ listens at {BROKER}"
    );
    eprintln!("note: {test} skipped: no RabbitMQ at {BROKER} (.ci/run starts one)");
    false
}

/// Loopback settings with topology names unique to `test`.
pub(crate) fn unique_settings(
    test: &str,
    extra: &[(&str, &str)],
) -> (Settings, Vec<(String, String)>) {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let p = format!("t.{test}.{}.{nanos}", std::process::id());
    let mut env: Vec<(String, String)> = vec![
        ("TCX__AMQP__URL".into(), URL.into()),
        ("TCX__AMQP__JOBS_EXCHANGE".into(), format!("{p}.jobs")),
        ("TCX__AMQP__JOBS_QUEUE".into(), format!("{p}.jobs")),
        ("TCX__AMQP__RESULTS_EXCHANGE".into(), format!("{p}.results")),
        ("TCX__AMQP__RESULTS_QUEUE".into(), format!("{p}.results")),
        ("TCX__AMQP__RETRY_QUEUE_PREFIX".into(), format!("{p}.retry")),
        (
            "TCX__AMQP__DEAD_LETTER_EXCHANGE".into(),
            format!("{p}.dead"),
        ),
        ("TCX__AMQP__DEAD_LETTER_QUEUE".into(), format!("{p}.dead")),
        ("TCX__AMQP__RECONNECT_INITIAL_MS".into(), "200".into()),
        ("TCX__AMQP__RECONNECT_MAX_MS".into(), "1000".into()),
        ("TCX__METRICS__ENABLED".into(), "false".into()),
        ("TCX__WORKER__DRAIN_TIMEOUT_SECS".into(), "10".into()),
        // The same as loopback_settings, so that a child process given `env` declares the
        // same retry queues (and cleanup finds them).
        ("TCX__FETCH__ALLOW_PRIVATE_NETWORKS".into(), "true".into()),
        ("TCX__WORKER__MAX_RETRIES".into(), "1".into()),
        ("TCX__WORKER__RETRY_BASE_DELAY_MS".into(), "50".into()),
    ];
    for (k, v) in extra {
        env.retain(|(key, _)| key != k);
        env.push((k.to_string(), v.to_string()));
    }
    let pairs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    (loopback_settings(&pairs), env)
}

pub(crate) async fn connect() -> (Connection, Channel) {
    let conn = Connection::connect(URL, ConnectionProperties::default())
        .await
        .expect("connect to RabbitMQ");
    let channel = conn.create_channel().await.expect("channel");
    (conn, channel)
}

/// Deletes every queue and exchange of the test's topology.
pub(crate) async fn cleanup(settings: &Settings) {
    let (conn, ch) = connect().await;
    let a = &settings.amqp;
    let mut queues = vec![
        a.jobs_queue.clone(),
        a.results_queue.clone(),
        a.dead_letter_queue.clone(),
    ];
    for n in 1..=settings.worker.max_retries {
        queues.push(topology::retry_queue(a, &settings.worker, n));
    }
    for q in queues {
        let _ = ch
            .queue_delete(q.as_str().into(), QueueDeleteOptions::default())
            .await;
    }
    for x in [
        &a.jobs_exchange,
        &a.results_exchange,
        &a.dead_letter_exchange,
    ] {
        let _ = ch
            .exchange_delete(x.as_str().into(), ExchangeDeleteOptions::default())
            .await;
    }
    let _ = conn.close(200, "bye".into()).await;
}

/// Messages waiting in a queue.
async fn queue_depth(ch: &Channel, queue: &str) -> u32 {
    ch.queue_declare(
        queue.into(),
        QueueDeclareOptions {
            passive: true,
            ..QueueDeclareOptions::default()
        },
        FieldTable::default(),
    )
    .await
    .map(|q| q.message_count())
    .unwrap_or(u32::MAX)
}

/// Consumes results until `expected` distinct job ids arrived (or `timeout`), then keeps
/// listening for `grace` to catch duplicates. Returns every result received.
async fn collect_results(
    settings: &Settings,
    expected: usize,
    timeout: Duration,
    grace: Duration,
) -> Vec<ResultMessage> {
    let (conn, ch) = connect().await;
    let mut consumer = ch
        .basic_consume(
            settings.amqp.results_queue.as_str().into(),
            "test-results".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await
        .expect("consume results");
    let mut results = Vec::new();
    let mut ids = HashSet::new();
    let deadline = Instant::now() + timeout;
    let mut stop_at: Option<Instant> = None;
    loop {
        let now = Instant::now();
        let until = stop_at.unwrap_or(deadline).min(deadline);
        if now >= until {
            break;
        }
        match tokio::time::timeout(until - now, consumer.next()).await {
            Ok(Some(Ok(delivery))) => {
                let r: ResultMessage = serde_json::from_slice(&delivery.data).expect("result JSON");
                delivery
                    .ack(BasicAckOptions::default())
                    .await
                    .expect("ack result");
                ids.insert(r.document.job_id.clone().unwrap_or_default());
                results.push(r);
                if ids.len() >= expected && stop_at.is_none() {
                    stop_at = Some(Instant::now() + grace);
                }
            }
            Ok(_) => break,
            Err(_) => break,
        }
    }
    let _ = conn.close(200, "bye".into()).await;
    results
}

/// Starts a worker inside the test process.
pub(crate) fn spawn_worker(
    settings: &Settings,
    name: &str,
) -> (CancellationToken, tokio::task::JoinHandle<()>) {
    let token = CancellationToken::new();
    let settings = settings.clone();
    let t = token.clone();
    let name = name.to_owned();
    let handle = tokio::spawn(async move {
        tcx::worker::run_worker_as(settings, t, &name)
            .await
            .expect("worker runs");
    });
    (token, handle)
}

pub(crate) async fn stop_worker((token, handle): (CancellationToken, tokio::task::JoinHandle<()>)) {
    token.cancel();
    tokio::time::timeout(Duration::from_secs(20), handle)
        .await
        .expect("worker stops in time")
        .expect("worker task");
}

fn ids_of(results: &[ResultMessage]) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for r in results {
        *counts
            .entry(r.document.job_id.clone().unwrap_or_default())
            .or_insert(0) += 1;
    }
    counts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_hundred_jobs_through_two_workers_give_one_result_each() {
    if !broker_available("five_hundred_jobs") {
        return;
    }
    let server = TestServer::start([("/agb", Route::html(fixture_html()))]);
    let (settings, env) = unique_settings(
        "many",
        &[
            ("TCX__WORKER__CONCURRENCY", "16"),
            ("TCX__WORKER__PER_HOST_LIMIT", "16"),
        ],
    );
    let jobs: Vec<Job> = (0..500)
        .map(|i| Job::new(format!("job-{i}"), server.url(&format!("/agb?n={i}"))))
        .collect();
    let summary = tcx::worker::enqueue(&settings, jobs)
        .await
        .expect("enqueue");
    assert_eq!(summary.published, 500, "{}", summary.render());
    let started = Instant::now();
    // Two real worker processes.
    let children = vec![spawn_binary(&env), spawn_binary(&env)];
    let results = collect_results(
        &settings,
        500,
        Duration::from_secs(120),
        Duration::from_millis(500),
    )
    .await;
    let elapsed = started.elapsed();
    for mut child in children {
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let status = tokio::task::spawn_blocking(move || wait_bounded(&mut child))
            .await
            .unwrap();
        assert!(
            status.is_some_and(|s| s.success()),
            "worker exits cleanly: {status:?}"
        );
    }
    let counts = ids_of(&results);
    assert_eq!(counts.len(), 500, "every job has a result");
    assert!(counts.values().all(|&n| n == 1), "no duplicates");
    assert!(
        results
            .iter()
            .all(|r| r.document.error.is_none() && r.attempt == 1)
    );
    eprintln!(
        "500 jobs through 2 worker processes (debug build): {:.2} s, {:.0} pages/s",
        elapsed.as_secs_f64(),
        500.0 / elapsed.as_secs_f64()
    );
    cleanup(&settings).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_give_the_right_error_kinds_and_invalid_json_is_dead_lettered() {
    if !broker_available("failures") {
        return;
    }
    let server = TestServer::start(crate::batch::failure_routes());
    let (settings, _) = unique_settings("fail", &[]);
    let paths = ["/agb", "/missing", "/agb.pdf", "/huge", "/slow", "/busy"];
    let mut jobs: Vec<Job> = paths
        .iter()
        .map(|p| Job::new(p.trim_start_matches('/'), server.url(p)))
        .collect();
    let mut inline = Job::new("inline", "https://shop.example/agb");
    inline.html = Some(fixture_html());
    jobs.push(inline);
    let summary = tcx::worker::enqueue(&settings, jobs)
        .await
        .expect("enqueue");
    assert_eq!(summary.published, 7);
    // Two messages that are not jobs, published directly.
    let (conn, ch) = connect().await;
    ch.confirm_select(ConfirmSelectOptions::default())
        .await
        .unwrap();
    for body in [&b"{not json"[..], br#"{"job_id":"","url":"x"}"#] {
        ch.basic_publish(
            settings.amqp.jobs_exchange.as_str().into(),
            settings.amqp.jobs_routing_key.as_str().into(),
            BasicPublishOptions::default(),
            body,
            BasicProperties::default(),
        )
        .await
        .unwrap()
        .await
        .unwrap();
    }
    let worker = spawn_worker(&settings, "fail-1");
    let results = collect_results(
        &settings,
        7,
        Duration::from_secs(30),
        Duration::from_millis(300),
    )
    .await;
    stop_worker(worker).await;
    let by_id: HashMap<String, &ResultMessage> = results
        .iter()
        .map(|r| (r.document.job_id.clone().unwrap_or_default(), r))
        .collect();
    assert_eq!(results.len(), 7, "{by_id:#?}");
    let kind = |id: &str| {
        let r = by_id[id];
        (
            r.document.error.as_ref().map(|e| e.kind.as_str()),
            r.attempt,
        )
    };
    assert_eq!(kind("agb"), (None, 1));
    assert_eq!(kind("inline"), (None, 1));
    assert_eq!(kind("missing"), (Some("http_status"), 1));
    assert_eq!(kind("agb.pdf"), (Some("not_html"), 1));
    assert_eq!(kind("huge"), (Some("too_large"), 1));
    // Transient: retried once through the retry queue, then an error result.
    assert_eq!(kind("slow"), (Some("timeout"), 2));
    assert_eq!(kind("busy"), (Some("http_status"), 2));
    assert_eq!(server.hits("/busy"), 2);
    assert!(by_id["busy"].document.error.as_ref().unwrap().retryable);
    // The invalid messages are in the dead-letter queue with their reason.
    let mut reasons = Vec::new();
    while let Some(msg) = ch
        .basic_get(
            settings.amqp.dead_letter_queue.as_str().into(),
            BasicGetOptions { no_ack: true },
        )
        .await
        .unwrap()
    {
        reasons.push(str_header(&msg.delivery.properties, REASON_HEADER).unwrap_or_default());
    }
    reasons.sort();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(reasons[0].starts_with("invalid job JSON"), "{reasons:?}");
    assert!(
        reasons[1].starts_with("invalid job: job_id is empty"),
        "{reasons:?}"
    );
    assert_eq!(queue_depth(&ch, &settings.amqp.jobs_queue).await, 0);
    let _ = conn.close(200, "bye".into()).await;
    cleanup(&settings).await;
}

fn kill_connections(name: &str) -> usize {
    let Ok(out) = Command::new("rabbitmqctl")
        .args([
            "list_connections",
            "--quiet",
            "--no-table-headers",
            "pid",
            "client_properties",
        ])
        .output()
    else {
        return 0;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let mut killed = 0;
    for line in text.lines().filter(|l| l.contains(name)) {
        let Some(pid) = line.split_whitespace().next() else {
            continue;
        };
        let ok = Command::new("rabbitmqctl")
            .args(["close_connection", pid, "killed by test"])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        killed += usize::from(ok);
    }
    killed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_connection_reconnects_and_all_jobs_complete() {
    if !broker_available("killed_connection") {
        return;
    }
    if Command::new("rabbitmqctl").arg("--help").output().is_err() {
        eprintln!("note: killed_connection skipped: rabbitmqctl not found");
        return;
    }
    let server = TestServer::start([(
        "/agb",
        Route::html(fixture_html()).delay(Duration::from_millis(100)),
    )]);
    let metrics_port = closed_port();
    let address = format!("127.0.0.1:{metrics_port}");
    let (settings, _) = unique_settings(
        "kill",
        &[
            ("TCX__WORKER__CONCURRENCY", "4"),
            ("TCX__METRICS__ENABLED", "true"),
            ("TCX__METRICS__ADDRESS", address.as_str()),
        ],
    );
    let jobs: Vec<Job> = (0..200)
        .map(|i| Job::new(format!("k-{i}"), server.url(&format!("/agb?n={i}"))))
        .collect();
    tcx::worker::enqueue(&settings, jobs)
        .await
        .expect("enqueue");
    let name = format!("tcx-kill-test-{}", std::process::id());
    let worker = spawn_worker(&settings, &name);
    // Let it work a little, then kill its connection from the broker side.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let killed = tokio::task::spawn_blocking({
        let name = name.clone();
        move || kill_connections(&name)
    })
    .await
    .unwrap();
    let results = collect_results(
        &settings,
        200,
        Duration::from_secs(90),
        Duration::from_millis(500),
    )
    .await;
    let metrics = http_get(metrics_port, "/metrics").unwrap_or_default();
    stop_worker(worker).await;
    let counts = ids_of(&results);
    assert_eq!(counts.len(), 200, "all jobs complete after the reconnect");
    if killed > 0 {
        let reconnects = metrics
            .lines()
            .find_map(|l| l.strip_prefix("tcx_amqp_reconnects_total "))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(0);
        assert!(reconnects >= 1, "the worker reconnected: {metrics}");
    }
    if killed == 0 {
        eprintln!("note: no connection was closed (rabbitmqctl not permitted?)");
    }
    // At-least-once: a job whose result was confirmed just before the kill but not yet
    // acked is redelivered, so a duplicate is possible but rare.
    let dups = counts.values().filter(|&&n| n > 1).count();
    eprintln!("killed {killed} connection(s); duplicates: {dups}");
    cleanup(&settings).await;
}

/// Waits at most 20 s for a child to exit; kills it after that (and returns None).
fn wait_bounded(child: &mut Child) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `tcx worker` as a child process with `env`.
fn spawn_binary(env: &[(String, String)]) -> Child {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tcx"));
    for (k, _) in std::env::vars() {
        if k.starts_with("TCX__") {
            c.env_remove(k);
        }
    }
    c.arg("worker")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("RUST_LOG", "warn,simplecss=error")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        // Not piped: an unread pipe could fill up and block the worker.
        .stderr(Stdio::null())
        .spawn()
        .expect("start tcx worker")
}

fn http_get(port: u16, path: &str) -> Option<String> {
    use std::io::{Read, Write};
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    Some(out)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_in_flight_jobs_and_loses_nothing() {
    if !broker_available("sigterm") {
        return;
    }
    let server = TestServer::start([(
        "/slow",
        Route::html(fixture_html()).delay(Duration::from_millis(1500)),
    )]);
    let metrics_port = closed_port();
    let (settings, mut env) = unique_settings(
        "term",
        &[
            ("TCX__WORKER__CONCURRENCY", "2"),
            ("TCX__FETCH__TIMEOUT_SECS", "10"),
            ("TCX__METRICS__ENABLED", "true"),
        ],
    );
    env.push((
        "TCX__METRICS__ADDRESS".into(),
        format!("127.0.0.1:{metrics_port}"),
    ));
    let jobs: Vec<Job> = (0..10)
        .map(|i| Job::new(format!("t-{i}"), server.url(&format!("/slow?n={i}"))))
        .collect();
    tcx::worker::enqueue(&settings, jobs)
        .await
        .expect("enqueue");
    let mut child = spawn_binary(&env);
    // Wait until two fetches are in flight.
    let deadline = Instant::now() + Duration::from_secs(15);
    while server.requests().len() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(server.requests().len(), 2, "two jobs in flight");
    let ready = http_get(metrics_port, "/readyz").unwrap_or_default();
    assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
    let health = http_get(metrics_port, "/healthz").unwrap_or_default();
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let metrics = http_get(metrics_port, "/metrics").unwrap_or_default();
    assert!(metrics.contains("tcx_jobs_in_flight 2"), "{metrics}");
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let exit = tokio::task::spawn_blocking(move || wait_bounded(&mut child))
        .await
        .unwrap();
    let exit = exit.expect("worker exits after SIGTERM within 20 s");
    assert!(exit.success(), "{exit:?}");
    let results = collect_results(
        &settings,
        2,
        Duration::from_secs(5),
        Duration::from_millis(300),
    )
    .await;
    let counts = ids_of(&results);
    assert_eq!(
        counts.len(),
        2,
        "the two in-flight jobs finished: {counts:?}"
    );
    assert!(results.iter().all(|r| r.document.error.is_none()));
    let (conn, ch) = connect().await;
    assert_eq!(
        queue_depth(&ch, &settings.amqp.jobs_queue).await,
        8,
        "the other jobs stay queued"
    );
    assert_eq!(server.requests().len(), 2, "no job started after SIGTERM");
    let _ = conn.close(200, "bye".into()).await;
    cleanup(&settings).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn topology_declaration_is_idempotent() {
    if !broker_available("topology") {
        return;
    }
    let (settings, _) = unique_settings("topo", &[("TCX__WORKER__MAX_RETRIES", "3")]);
    let (conn, ch) = connect().await;
    for _ in 0..2 {
        topology::declare(&ch, &settings.amqp, &settings.worker)
            .await
            .expect("declare");
    }
    for n in 1..=3 {
        let q = topology::retry_queue(&settings.amqp, &settings.worker, n);
        assert_eq!(queue_depth(&ch, &q).await, 0, "{q} exists");
    }
    let _ = conn.close(200, "bye".into()).await;
    cleanup(&settings).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_broker_the_worker_is_alive_but_not_ready() {
    // No broker needed: the AMQP URL points at a closed port.
    let metrics_port = closed_port();
    let amqp_port = closed_port();
    let amqp = format!("amqp://guest:guest@127.0.0.1:{amqp_port}/%2f");
    let address = format!("127.0.0.1:{metrics_port}");
    let settings = loopback_settings(&[
        ("TCX__AMQP__URL", amqp.as_str()),
        ("TCX__AMQP__RECONNECT_INITIAL_MS", "50"),
        ("TCX__AMQP__RECONNECT_MAX_MS", "100"),
        ("TCX__METRICS__ADDRESS", address.as_str()),
    ]);
    let worker = spawn_worker(&settings, "no-broker");
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (health, ready, metrics) = tokio::task::spawn_blocking(move || {
        (
            http_get(metrics_port, "/healthz").unwrap_or_default(),
            http_get(metrics_port, "/readyz").unwrap_or_default(),
            http_get(metrics_port, "/metrics").unwrap_or_default(),
        )
    })
    .await
    .unwrap();
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(ready.starts_with("HTTP/1.1 503"), "{ready}");
    assert!(metrics.contains("tcx_amqp_connected 0"), "{metrics}");
    let reconnects = metrics
        .lines()
        .find_map(|l| l.strip_prefix("tcx_amqp_reconnects_total "))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(0);
    assert!(reconnects >= 2, "keeps retrying: {reconnects}");
    // Shutdown is prompt even while reconnecting.
    let started = Instant::now();
    stop_worker(worker).await;
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quorum_queues_and_the_enqueue_cli() {
    if !broker_available("quorum_enqueue") {
        return;
    }
    let (settings, mut env) = unique_settings("quorum", &[("TCX__AMQP__QUEUE_TYPE", "quorum")]);
    env.retain(|(k, _)| k != "TCX__AMQP__QUEUE_TYPE");
    env.push(("TCX__AMQP__QUEUE_TYPE".into(), "quorum".into()));
    let dir = std::env::temp_dir().join(format!("tcx-enqueue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("shops.csv");
    let server = TestServer::start([("/agb", Route::html(fixture_html()))]);
    std::fs::write(
        &csv,
        format!(
            "id,name,shop_url,agb_url\n\
             s1,One,https://one.example,{}\n\
             s2,\"Two, GmbH\",https://two.example,{}\n\
             s3,Three,,\n",
            server.url("/agb?shop=1"),
            server.url("/agb?shop=2")
        ),
    )
    .unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_tcx"));
    for (k, _) in std::env::vars() {
        if k.starts_with("TCX__") {
            c.env_remove(k);
        }
    }
    let out = c
        .arg("enqueue")
        .arg(&csv)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .output()
        .expect("tcx enqueue");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("published: 2\nfailed: 0\n"), "{stderr}");
    assert!(stderr.contains("line 4 skipped"), "{stderr}");
    assert!(stderr.contains("skipped: 1"), "{stderr}");
    let (conn, ch) = connect().await;
    // Declared as quorum: redeclaring as classic is refused by the broker.
    assert_eq!(queue_depth(&ch, &settings.amqp.jobs_queue).await, 2);
    let classic = ch
        .queue_declare(
            settings.amqp.jobs_queue.as_str().into(),
            QueueDeclareOptions::durable(),
            FieldTable::default(),
        )
        .await;
    assert!(classic.is_err(), "the queue is a quorum queue");
    let _ = conn.close(200, "bye".into()).await;
    // A worker on the quorum queue consumes them.
    let worker = spawn_worker(&settings, "quorum-1");
    let results = collect_results(
        &settings,
        2,
        Duration::from_secs(30),
        Duration::from_millis(200),
    )
    .await;
    stop_worker(worker).await;
    let ids: HashSet<String> = results
        .iter()
        .filter_map(|r| r.document.job_id.clone())
        .collect();
    assert_eq!(ids, HashSet::from(["s1".to_owned(), "s2".to_owned()]));
    assert!(results.iter().all(|r| r.document.error.is_none()));
    assert_eq!(server.requests().len(), 2);
    let _ = std::fs::remove_dir_all(dir);
    cleanup(&settings).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleted_results_exchange_is_redeclared_and_no_job_is_lost() {
    if !broker_available("deleted_exchange") {
        return;
    }
    let server = TestServer::start([(
        "/agb",
        Route::html(fixture_html()).delay(Duration::from_millis(50)),
    )]);
    let metrics_port = closed_port();
    let address = format!("127.0.0.1:{metrics_port}");
    let (settings, _) = unique_settings(
        "del",
        &[
            ("TCX__WORKER__CONCURRENCY", "4"),
            ("TCX__METRICS__ENABLED", "true"),
            ("TCX__METRICS__ADDRESS", address.as_str()),
        ],
    );
    let jobs: Vec<Job> = (0..60)
        .map(|i| Job::new(format!("d-{i}"), server.url(&format!("/agb?n={i}"))))
        .collect();
    tcx::worker::enqueue(&settings, jobs)
        .await
        .expect("enqueue");
    let worker = spawn_worker(&settings, "del-1");
    tokio::time::sleep(Duration::from_millis(400)).await;
    // An operator deletes the results exchange: publishing to it fails with a channel
    // error; the worker must start over, re-declare, and redo the unacked jobs.
    let (conn, ch) = connect().await;
    ch.exchange_delete(
        settings.amqp.results_exchange.as_str().into(),
        ExchangeDeleteOptions::default(),
    )
    .await
    .expect("delete exchange");
    let _ = conn.close(200, "bye".into()).await;
    let results = collect_results(
        &settings,
        60,
        Duration::from_secs(60),
        Duration::from_millis(300),
    )
    .await;
    let metrics = http_get(metrics_port, "/metrics").unwrap_or_default();
    stop_worker(worker).await;
    assert_eq!(ids_of(&results).len(), 60, "every job has a result");
    let reconnects = metrics
        .lines()
        .find_map(|l| l.strip_prefix("tcx_amqp_reconnects_total "))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(0);
    assert!(reconnects >= 1, "the worker started over: {metrics}");
    cleanup(&settings).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_over_the_message_limit_becomes_an_error_result() {
    if !broker_available("too_large") {
        return;
    }
    // A limit of 8 KiB: the Demo-Shop's result fits, a page of 40 long sections does not.
    let (settings, _) = unique_settings(
        "big",
        &[
            ("TCX__AMQP__MAX_MESSAGE_BYTES", "8192"),
            ("TCX__METRICS__ENABLED", "false"),
        ],
    );
    let clause = "Der Vertrag kommt mit der Annahme der Bestellung durch uns zustande und gilt für \
        alle Lieferungen in das Inland und das Ausland, soweit nichts anderes vereinbart ist.";
    let mut big = String::from("<html><body><div>");
    for i in 1..=40 {
        big.push_str(&format!("<h2>§ {i} Regelung</h2><p>{clause} {clause}</p>"));
    }
    big.push_str("</div></body></html>");
    let mut small = Job::new("small", "https://shop.example/agb");
    small.html = Some(fixture_html());
    let mut large = Job::new("large", "https://shop.example/agb-lang");
    large.html = Some(big);
    let summary = tcx::worker::enqueue(&settings, vec![small, large])
        .await
        .expect("enqueue");
    assert_eq!(summary.published, 2, "{}", summary.render());
    let worker = spawn_worker(&settings, "too-large");
    let results = collect_results(
        &settings,
        2,
        Duration::from_secs(30),
        Duration::from_millis(500),
    )
    .await;
    stop_worker(worker).await;
    let by_id: HashMap<String, &ResultMessage> = results
        .iter()
        .map(|r| (r.document.job_id.clone().unwrap_or_default(), r))
        .collect();
    assert_eq!(
        results.len(),
        2,
        "one result each, none redelivered: {results:?}"
    );
    assert!(by_id["small"].document.error.is_none());
    let err = by_id["large"]
        .document
        .error
        .as_ref()
        .expect("an error result");
    assert_eq!(err.kind, "result_too_large");
    assert!(err.message.contains("8192"), "{}", err.message);
    assert!(!err.retryable);
    // Both jobs were acked: nothing waits in the jobs queue.
    let (conn, ch) = connect().await;
    assert_eq!(queue_depth(&ch, &settings.amqp.jobs_queue).await, 0);
    let _ = conn.close(200, "bye".into()).await;
    cleanup(&settings).await;
}
