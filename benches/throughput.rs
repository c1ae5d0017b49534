//! End-to-end throughput: enqueue → `tcx worker` processes → results, against pages served
//! on loopback, with 1 and 2 worker processes, and the share of worker time per stage from
//! the workers' own metrics.
//!
//! `cargo bench --bench throughput` needs RabbitMQ on 127.0.0.1:5672 (guest/guest); it prints
//! a note and exits otherwise. Pages come from ../shared/corpus/raw when present (plain
//! `.html` files up to 1 MiB), else tests/fixtures. Environment: `TCX_BENCH_JOBS` (default
//! 2000), `TCX_BENCH_WORKERS` (default `1,2`), `TCX_BENCH_CONCURRENCY` (default 8),
//! `TCX_BENCH_BIN` (the `tcx` binary the workers run; default the one built with the bench).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_lite::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, ExchangeDeleteOptions, QueueDeleteOptions,
};
use lapin::types::FieldTable;
use lapin::{Connection, ConnectionProperties};
use tcx::config::Settings;
use tcx::job::Job;

const URL: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";

/// The `tcx` binary the workers run: `TCX_BENCH_BIN` (to compare two builds in one run),
/// else the one cargo built with this bench.
fn worker_binary() -> PathBuf {
    std::env::var_os("TCX_BENCH_BIN")
        .map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_tcx")), PathBuf::from)
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "html")
            && entry.metadata().is_ok_and(|m| m.len() <= 1 << 20)
        {
            out.push(path);
        }
    }
}

fn load_pages() -> (String, Vec<Vec<u8>>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let corpus = root.join("../shared/corpus/raw");
    let label = if corpus.is_dir() {
        collect(&corpus, &mut files);
        "../shared/corpus/raw"
    } else {
        files.push(root.join("tests/fixtures/demo-shop.html"));
        "tests/fixtures"
    };
    files.sort();
    let pages: Vec<Vec<u8>> = files.iter().filter_map(|f| std::fs::read(f).ok()).collect();
    (label.to_owned(), pages)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(0)
}

fn scrape(port: u16) -> String {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return String::new();
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = write!(
        s,
        "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    );
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

/// Sums `tcx_stage_duration_seconds_sum{stage=...}` per stage.
fn stage_sums(text: &str, into: &mut BTreeMap<String, f64>) {
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("tcx_stage_duration_seconds_sum{stage=\"") else {
            continue;
        };
        let Some((stage, value)) = rest.split_once("\"} ") else {
            continue;
        };
        if let Ok(v) = value.trim().parse::<f64>() {
            *into.entry(stage.to_owned()).or_default() += v;
        }
    }
}

fn settings_env(prefix: &str, metrics_port: u16, concurrency: usize) -> Vec<(String, String)> {
    vec![
        ("TCX__AMQP__URL".into(), URL.into()),
        ("TCX__AMQP__JOBS_EXCHANGE".into(), format!("{prefix}.jobs")),
        ("TCX__AMQP__JOBS_QUEUE".into(), format!("{prefix}.jobs")),
        (
            "TCX__AMQP__RESULTS_EXCHANGE".into(),
            format!("{prefix}.results"),
        ),
        (
            "TCX__AMQP__RESULTS_QUEUE".into(),
            format!("{prefix}.results"),
        ),
        (
            "TCX__AMQP__RETRY_QUEUE_PREFIX".into(),
            format!("{prefix}.retry"),
        ),
        (
            "TCX__AMQP__DEAD_LETTER_EXCHANGE".into(),
            format!("{prefix}.dead"),
        ),
        (
            "TCX__AMQP__DEAD_LETTER_QUEUE".into(),
            format!("{prefix}.dead"),
        ),
        ("TCX__FETCH__ALLOW_PRIVATE_NETWORKS".into(), "true".into()),
        ("TCX__FETCH__MAX_BODY_BYTES".into(), "2097152".into()),
        ("TCX__WORKER__CONCURRENCY".into(), concurrency.to_string()),
        ("TCX__WORKER__PER_HOST_LIMIT".into(), "100".into()),
        ("TCX__WORKER__MAX_RETRIES".into(), "1".into()),
        ("TCX__WORKER__RETRY_BASE_DELAY_MS".into(), "100".into()),
        (
            "TCX__METRICS__ADDRESS".into(),
            format!("127.0.0.1:{metrics_port}"),
        ),
    ]
}

/// User + system CPU seconds of a process from /proc (0 where unavailable).
fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // Fields after the command name (which may contain spaces) start after the last ')'.
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0.0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the ')'.
    (ticks(11) + ticks(12)) / 100.0
}

async fn serve_pages(pages: Arc<Vec<Vec<u8>>>) -> SocketAddr {
    use axum::extract::Path as UrlPath;
    use axum::http::header;
    use axum::routing::get;
    let app = axum::Router::new().route(
        "/p/{i}",
        get(move |UrlPath(i): UrlPath<usize>| {
            let pages = Arc::clone(&pages);
            async move {
                (
                    [(header::CONTENT_TYPE, "text/html")],
                    pages[i % pages.len()].clone(),
                )
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}

struct Run {
    workers: usize,
    /// CPU seconds (user + system) the worker processes used.
    cpu: f64,
    jobs: usize,
    ok: usize,
    enqueue: Duration,
    process: Duration,
    stages: BTreeMap<String, f64>,
}

async fn run(workers: usize, jobs: usize, concurrency: usize, server: SocketAddr) -> Run {
    let prefix = format!("bench.{}.{workers}", std::process::id());
    let ports: Vec<u16> = (0..workers).map(|_| free_port()).collect();
    let env = settings_env(&prefix, ports[0], concurrency);
    let settings =
        Settings::load_with_env(None, Some(env.iter().cloned().collect())).expect("bench settings");
    let list: Vec<Job> = (0..jobs)
        .map(|i| Job::new(format!("b-{i}"), format!("http://{server}/p/{i}")))
        .collect();
    let started = Instant::now();
    let summary = tcx::worker::enqueue(&settings, list)
        .await
        .expect("enqueue");
    let enqueue = started.elapsed();
    assert_eq!(summary.published, jobs);

    let conn = Connection::connect(URL, ConnectionProperties::default())
        .await
        .expect("connect");
    let ch = conn.create_channel().await.expect("channel");
    ch.basic_qos(1000, Default::default()).await.expect("qos");
    let mut consumer = ch
        .basic_consume(
            settings.amqp.results_queue.as_str().into(),
            "bench".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await
        .expect("consume");

    let started = Instant::now();
    let mut children: Vec<Child> = ports
        .iter()
        .map(|port| {
            let mut env = env.clone();
            env.retain(|(k, _)| k != "TCX__METRICS__ADDRESS");
            env.push(("TCX__METRICS__ADDRESS".into(), format!("127.0.0.1:{port}")));
            Command::new(worker_binary())
                .arg("worker")
                .envs(env)
                .env("RUST_LOG", "warn,simplecss=error")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .spawn()
                .expect("start tcx worker")
        })
        .collect();
    let mut ok = 0;
    let mut seen = 0;
    while seen < jobs {
        match tokio::time::timeout(Duration::from_secs(60), consumer.next()).await {
            Ok(Some(Ok(delivery))) => {
                seen += 1;
                if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&delivery.data)
                    && v["status"] == "ok"
                {
                    ok += 1;
                }
                let _ = delivery.ack(BasicAckOptions::default()).await;
            }
            _ => break,
        }
    }
    let process = started.elapsed();
    let mut stages = BTreeMap::new();
    for port in &ports {
        stage_sums(&scrape(*port), &mut stages);
    }
    let cpu: f64 = children.iter().map(|c| cpu_seconds(c.id())).sum();
    for child in &mut children {
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
    }
    for child in &mut children {
        let _ = child.wait();
    }
    let a = &settings.amqp;
    let mut queues = vec![
        a.jobs_queue.clone(),
        a.results_queue.clone(),
        a.dead_letter_queue.clone(),
    ];
    queues.push(tcx::worker::topology::retry_queue(a, &settings.worker, 1));
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
    Run {
        workers,
        cpu,
        jobs: seen,
        ok,
        enqueue,
        process,
        stages,
    }
}

fn main() {
    if TcpStream::connect_timeout(
        &"127.0.0.1:5672".parse().expect("address"),
        Duration::from_millis(500),
    )
    .is_err()
    {
        eprintln!("note: no RabbitMQ at 127.0.0.1:5672; throughput bench skipped");
        return;
    }
    let jobs: usize = env_or("TCX_BENCH_JOBS", 2000);
    let concurrency: usize = env_or("TCX_BENCH_CONCURRENCY", 8);
    let workers: Vec<usize> = std::env::var("TCX_BENCH_WORKERS")
        .unwrap_or_else(|_| "1,2".into())
        .split(',')
        .filter_map(|w| w.trim().parse().ok())
        .collect();
    let (label, pages) = load_pages();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "pages: {} from {label} (mean {} KiB); jobs per run: {jobs}; concurrency per worker: \
         {concurrency}; cores: {cores} (shared by broker, HTTP server, bench and workers)",
        pages.len(),
        bytes / pages.len().max(1) / 1024
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let server = serve_pages(Arc::new(pages)).await;
        println!(
            "\n{:>7} {:>6} {:>6} {:>11} {:>11} {:>9} {:>12} {:>14}   share of worker stage time",
            "workers",
            "jobs",
            "ok",
            "enqueue s",
            "process s",
            "pages/s",
            "pages/s/core",
            "pages/worker-cpu-s"
        );
        for w in workers {
            let r = run(w, jobs, concurrency, server).await;
            let rate = r.jobs as f64 / r.process.as_secs_f64();
            let total: f64 = r.stages.values().sum();
            let shares: Vec<String> = r
                .stages
                .iter()
                .map(|(s, v)| {
                    format!(
                        "{s} {:.0}% ({:.2} ms/job)",
                        100.0 * v / total.max(f64::MIN_POSITIVE),
                        1000.0 * v / r.jobs.max(1) as f64
                    )
                })
                .collect();
            println!(
                "{:>7} {:>6} {:>6} {:>11.2} {:>11.2} {:>9.0} {:>12.0} {:>14.0}   {}",
                r.workers,
                r.jobs,
                r.ok,
                r.enqueue.as_secs_f64(),
                r.process.as_secs_f64(),
                rate,
                rate / cores as f64,
                r.jobs as f64 / r.cpu.max(f64::MIN_POSITIVE),
                shares.join(", ")
            );
        }
    });
}
