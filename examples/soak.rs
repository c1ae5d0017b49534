//! Soak test of `tcx worker` under failures: does every job get a result when workers are
//! killed, stopped and the broker restarts in the middle of a run?
//!
//! The example runs the already-built `target/release/tcx` (it builds nothing itself) against
//! RabbitMQ on a topology of its own (unique exchange and queue names, deleted at the end, so
//! a production topology is never touched):
//!
//! 1. enqueues `--jobs` jobs (default 10,000) with unique ids and inline HTML: generated
//!    German and English T&C pages, about 3 % of them deliberately bad (empty, a PDF header:
//!    error results; an invalid language hint: dead-lettered). No network traffic at all;
//! 2. starts `--workers` worker processes (default 4, `TCX__WORKER__CONCURRENCY=4`, metrics on
//!    127.0.0.1 from port 19464 up, one port per process);
//! 3. while the results come in: at 10 % `kill -9` one worker and starts a replacement, at
//!    35 % restarts the broker (`rabbitmqctl stop_app`, 5 s, `rabbitmqctl start_app`), at 65 %
//!    sends SIGTERM to another worker and starts a replacement;
//! 4. consumes the results and dead-letter queues (reconnecting when the broker goes away)
//!    until every job is accounted for or `--timeout` (600 s) passes, then stops the workers
//!    with SIGTERM and reads what is left.
//!
//! It prints lost jobs (neither a result nor a dead letter), duplicates (job ids with more than
//! one result: allowed by the at-least-once design, but counted), dead letters, results by
//! error kind, peak RSS (`VmHWM`) per worker process, elapsed time and throughput. It exits
//! with 1 when a job was lost, a job's outcome differs from what its page must give, or a
//! worker misbehaved (exited on its own, or not cleanly after SIGTERM); with 2 when the run
//! could not be set up.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example soak -- [--jobs 10000] [--workers 4] [--timeout 600]
//! ```
//!
//! Needs RabbitMQ on 127.0.0.1:5672 (guest/guest; `--amqp-url` for another) and `rabbitmqctl`
//! for the local broker. Worker logs are kept in a temporary directory named in the summary.

#[path = "soak/broker.rs"]
mod broker;
#[path = "soak/pages.rs"]
mod pages;
#[path = "soak/results.rs"]
mod results;
#[path = "soak/rng.rs"]
mod rng;
#[path = "soak/workers.rs"]
mod workers;

use std::collections::BTreeMap;
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, bail};
use clap::Parser;
use tokio_util::sync::CancellationToken;

use tcx::config::Settings;

use broker::{delete_topology, find_tcx, topology_env};
use pages::make_jobs;
use results::{Expect, Tally, consume, lock};
use workers::{Fleet, State};

/// Soak test of `tcx worker` (see the example's documentation).
#[derive(Debug, Parser)]
struct Args {
    /// Jobs to enqueue.
    #[arg(long, default_value_t = 10_000)]
    jobs: usize,
    /// Worker processes running at a time (at least 2).
    #[arg(long, default_value_t = 4)]
    workers: usize,
    /// Jobs in flight per worker (TCX__WORKER__CONCURRENCY).
    #[arg(long, default_value_t = 4)]
    concurrency: usize,
    /// The tcx binary, built beforehand with `cargo build --release`.
    #[arg(long, default_value = "target/release/tcx")]
    tcx: PathBuf,
    /// Seconds to wait for all results once the workers started.
    #[arg(long, default_value_t = 600)]
    timeout: u64,
    /// AMQP URI of the broker (restarted with the local `rabbitmqctl`).
    #[arg(long, default_value = "amqp://guest:guest@127.0.0.1:5672/%2f")]
    amqp_url: String,
    /// Metrics port of the first worker process; each further process takes the next free one.
    #[arg(long, default_value_t = 19464)]
    metrics_port: u16,
    /// Seconds the broker stays stopped during the restart.
    #[arg(long, default_value_t = 5)]
    broker_down: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("soak: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The failures injected during a run, in order, and the share of accounted jobs at which
/// each fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Kill9,
    BrokerRestart,
    Term,
}

const STEPS: [(Step, usize); 3] = [
    (Step::Kill9, 10),
    (Step::BrokerRestart, 35),
    (Step::Term, 65),
];

/// Restarts the local broker: `stop_app`, `down`, `start_app` (or `rabbitmq-server -detached`
/// when that fails), then waits until `host:port` accepts connections again.
fn restart_broker(down: Duration, host: &str, port: u16) -> Result<(), String> {
    let run = |program: &str, args: &[&str]| {
        let out = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {program}: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        let err = String::from_utf8_lossy(&out.stderr);
        Err(format!(
            "{program} {} failed: {}",
            args.join(" "),
            err.trim()
        ))
    };
    run("rabbitmqctl", &["stop_app"])?;
    std::thread::sleep(down);
    if let Err(e) = run("rabbitmqctl", &["start_app"]) {
        eprintln!("soak: {e}; trying rabbitmq-server -detached");
        run("rabbitmq-server", &["-detached"])?;
        run("rabbitmqctl", &["await_startup"])?;
    }
    let started = Instant::now();
    while TcpStream::connect((host, port)).is_err() {
        if started.elapsed() > Duration::from_secs(60) {
            return Err(format!("the broker does not listen on {host}:{port} again"));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Ok(())
}

/// What the monitored part of a run gave.
#[derive(Debug, Default)]
struct Progress {
    /// Enqueueing all jobs.
    enqueue: Duration,
    /// The workers' start → the last job accounted for (or the timeout).
    elapsed: Duration,
    timed_out: bool,
    /// The failures injected, and when.
    chaos: Vec<String>,
}

/// One soak run: set up, execute, clean up, report. `Ok(true)` when it passed.
fn run(args: &Args) -> anyhow::Result<bool> {
    anyhow::ensure!(args.workers >= 2, "--workers must be at least 2");
    anyhow::ensure!(args.jobs >= 1, "--jobs must be at least 1");
    let tcx = find_tcx(&args.tcx)?;
    let url = url::Url::parse(&args.amqp_url).context("invalid --amqp-url")?;
    let host = url.host_str().unwrap_or("127.0.0.1").to_owned();
    let port = url.port().unwrap_or(5672);
    if TcpStream::connect((host.as_str(), port)).is_err() {
        bail!("no broker at {host}:{port}: start RabbitMQ first");
    }
    let unix = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let run_id = format!("soak-{}-{unix}", std::process::id());
    let prefix = format!("tcx-{run_id}");
    let env = topology_env(&prefix, &args.amqp_url, args.concurrency);
    let settings = Settings::load_with_env(None, Some(env.iter().cloned().collect()))
        .context("the run's settings")?;
    let settings = Arc::new(settings);
    let log_dir = std::env::temp_dir().join(format!("tcx-{run_id}"));
    std::fs::create_dir_all(&log_dir)?;
    println!(
        "soak {run_id}: {} jobs, {} workers, topology {prefix}.*, tcx {}",
        args.jobs,
        args.workers,
        tcx.display()
    );

    let (jobs, expected) = make_jobs(&run_id, args.jobs);
    let tally = Arc::new(Mutex::new(Tally::new(expected)));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let stop_timeout = Duration::from_secs(settings.worker.drain_timeout_secs + 15);
    let mut fleet = Fleet::new(tcx, env, log_dir.clone(), args.metrics_port, stop_timeout);
    let stop = CancellationToken::new();
    let consumer = consume(Arc::clone(&settings), Arc::clone(&tally), stop.clone());
    let consumer = runtime.spawn(consumer);
    let outcome = execute(
        args,
        &runtime,
        &settings,
        jobs,
        &mut fleet,
        &tally,
        &(host, port),
    );
    stop.cancel();
    let _ = runtime.block_on(consumer);
    // After a failure workers may still run, and would declare the topology again.
    fleet.kill_all();
    let left = runtime.block_on(delete_topology(&settings));
    let progress = outcome?;
    let left = left.context("cannot delete the run's topology")?;
    let tally = lock(&tally);
    let passed = report(args, &tally, &fleet, &progress, &left);
    println!("worker logs:        {}", log_dir.display());
    println!(
        "verdict:            {}",
        if passed { "PASS" } else { "FAIL" }
    );
    Ok(passed)
}

/// Enqueues the jobs, runs the workers through the failures until every job is accounted
/// for, stops them and reads the last results.
fn execute(
    args: &Args,
    runtime: &tokio::runtime::Runtime,
    settings: &Settings,
    jobs: Vec<tcx::job::Job>,
    fleet: &mut Fleet,
    tally: &Mutex<Tally>,
    broker_addr: &(String, u16),
) -> anyhow::Result<Progress> {
    let started = Instant::now();
    let summary = runtime
        .block_on(tcx::worker::enqueue(settings, jobs))
        .context("enqueue failed")?;
    anyhow::ensure!(
        summary.failed.is_empty() && summary.published == args.jobs,
        "enqueue failed:\n{}",
        summary.render()
    );
    let enqueue = started.elapsed();
    println!(
        "enqueued {} jobs in {:.1} s",
        args.jobs,
        enqueue.as_secs_f64()
    );
    let mut progress = monitor(args, fleet, tally, broker_addr)?;
    progress.enqueue = enqueue;
    println!("stopping the workers (SIGTERM), reading the last results");
    fleet.stop_all()?;
    wait_idle(tally, Duration::from_secs(3), Duration::from_secs(60));
    Ok(progress)
}

/// Starts the workers, fires the failure steps as the results come in, and waits until
/// every job is accounted for or the timeout passes.
fn monitor(
    args: &Args,
    fleet: &mut Fleet,
    tally: &Mutex<Tally>,
    broker_addr: &(String, u16),
) -> anyhow::Result<Progress> {
    let started = Instant::now();
    for _ in 0..args.workers {
        fleet.spawn("")?;
    }
    let mut progress = Progress::default();
    let mut steps = STEPS.iter().peekable();
    let mut broker: Option<(JoinHandle<Result<(), String>>, Instant)> = None;
    let mut last_print = Instant::now();
    loop {
        std::thread::sleep(Duration::from_secs(1));
        fleet.poll(true)?;
        let (accounted, last) = {
            let t = lock(tally);
            (t.accounted, t.last_accounted)
        };
        let t = started.elapsed().as_secs_f64();
        if broker.as_ref().is_some_and(|(h, _)| h.is_finished()) {
            let (handle, since) = broker.take().context("broker restart thread")?;
            let joined = handle
                .join()
                .map_err(|_| anyhow::anyhow!("broker thread panicked"));
            joined?.map_err(|e| anyhow::anyhow!("broker restart: {e}"))?;
            let secs = since.elapsed().as_secs_f64();
            println!("  [{t:6.1} s] broker back after {secs:.1} s");
            progress
                .chaos
                .push(format!("broker back after {secs:.1} s"));
        }
        let due = steps
            .peek()
            .is_some_and(|(_, pct)| accounted * 100 >= pct * args.jobs);
        if broker.is_none() && due {
            let (step, _) = steps.next().context("next step")?;
            let at = format!("at {accounted} results");
            let (note, replaced) = match step {
                Step::Kill9 => {
                    let name = fleet.kill9(&at)?;
                    (format!("kill -9 {name}"), Some(name))
                }
                Step::Term => {
                    let name = fleet.term()?;
                    (format!("SIGTERM {name}"), Some(name))
                }
                Step::BrokerRestart => {
                    let down = Duration::from_secs(args.broker_down);
                    let (host, port) = broker_addr.clone();
                    let handle = std::thread::spawn(move || restart_broker(down, &host, port));
                    broker = Some((handle, Instant::now()));
                    let note = format!("broker stop_app, {} s, start_app", args.broker_down);
                    (note, None)
                }
            };
            println!("  [{t:6.1} s] {note} {at}");
            progress.chaos.push(format!("{note} {at} ({t:.1} s)"));
            if let Some(name) = replaced {
                fleet.spawn(&format!(" replacing {name}"))?;
            }
        }
        if last_print.elapsed() >= Duration::from_secs(10) {
            last_print = Instant::now();
            let running = fleet.running();
            println!(
                "  [{t:6.1} s] {accounted}/{} accounted for, {running} workers running",
                args.jobs
            );
        }
        if accounted >= args.jobs && broker.is_none() {
            progress.elapsed = last.map_or(started.elapsed(), |l| l.duration_since(started));
            break;
        }
        if started.elapsed() >= Duration::from_secs(args.timeout) {
            progress.elapsed = started.elapsed();
            progress.timed_out = true;
            if let Some((handle, _)) = broker.take() {
                let _ = handle.join();
            }
            break;
        }
    }
    for (step, pct) in steps {
        progress
            .chaos
            .push(format!("{step:?} not reached (due at {pct} % of the jobs)"));
    }
    Ok(progress)
}

/// Waits until no message arrived for `idle` (at most `max`): the late duplicates are in.
fn wait_idle(tally: &Mutex<Tally>, idle: Duration, max: Duration) {
    let started = Instant::now();
    let mut seen = lock(tally).messages;
    let mut quiet_since = Instant::now();
    while quiet_since.elapsed() < idle && started.elapsed() < max {
        std::thread::sleep(Duration::from_millis(250));
        let now = lock(tally).messages;
        if now != seen {
            seen = now;
            quiet_since = Instant::now();
        }
    }
}

/// The jobs without any result or dead letter, and the ones whose outcome is not what their
/// page must give; results by outcome (`ok` or the error kind, first result per job).
#[derive(Debug, Default)]
struct Verdicts<'a> {
    lost: Vec<&'a str>,
    mismatched: Vec<String>,
    outcomes: BTreeMap<&'a str, usize>,
}

fn verdicts(t: &Tally) -> Verdicts<'_> {
    let mut v = Verdicts::default();
    for (id, expect) in &t.expected {
        let got = match t.results.get(id).and_then(|r| r.first()) {
            Some(outcome) => {
                let label = outcome.as_deref().unwrap_or("ok");
                *v.outcomes.entry(label).or_default() += 1;
                match (expect, outcome) {
                    (Expect::Ok, None) => None,
                    (Expect::Error(want), Some(kind)) if *want == kind.as_str() => None,
                    _ => Some(format!("a result ({label})")),
                }
            }
            None if t.dead.contains_key(id) => {
                (*expect != Expect::DeadLetter).then(|| "a dead letter".to_owned())
            }
            None => {
                v.lost.push(id);
                None
            }
        };
        if let Some(got) = got {
            v.mismatched
                .push(format!("{id}: expected {expect:?}, got {got}"));
        }
    }
    v.lost.sort_unstable();
    v.mismatched.sort();
    v
}

/// `name count, name count, …`
fn listing<'a>(items: impl Iterator<Item = (&'a str, usize)>) -> String {
    let parts: Vec<String> = items.map(|(k, n)| format!("{k} {n}")).collect();
    parts.join(", ")
}

/// Prints the summary block; true when the run passed (no job lost, every outcome as
/// expected, no worker problem).
fn report(args: &Args, t: &Tally, fleet: &Fleet, p: &Progress, left: &[(String, u32)]) -> bool {
    let v = verdicts(t);
    let count = |e: Expect| t.expected.values().filter(|x| **x == e).count();
    let messages: usize = t.results.values().map(Vec::len).sum();
    let dup_ids = t.results.values().filter(|r| r.len() > 1).count();
    let dead_messages: usize = t.dead.values().sum();
    let secs = p.elapsed.as_secs_f64();
    println!("\n==================== tcx soak summary ====================");
    println!(
        "jobs:               {} enqueued in {:.1} s ({} pages, {} empty, {} PDF, {} invalid)",
        args.jobs,
        p.enqueue.as_secs_f64(),
        count(Expect::Ok),
        count(Expect::Error("empty")),
        count(Expect::Error("not_html")),
        count(Expect::DeadLetter)
    );
    println!(
        "workers:            {} at a time, concurrency {}, {} processes in all",
        args.workers,
        args.concurrency,
        fleet.procs.len()
    );
    for c in &p.chaos {
        println!("chaos:              {c}");
    }
    println!(
        "results:            {messages} messages for {} job ids; first result per job: {}",
        t.results.len(),
        listing(v.outcomes.iter().map(|(k, n)| (*k, *n)))
    );
    println!(
        "duplicates:         {dup_ids} job ids with more than one result ({} extra messages)",
        messages - t.results.len()
    );
    println!(
        "dead-lettered:      {dead_messages} messages for {} job ids (reasons: {})",
        t.dead.len(),
        listing(t.dead_reasons.iter().map(|(k, n)| (k.as_str(), *n)))
    );
    println!("lost:               {}", v.lost.len());
    for id in v.lost.iter().take(10) {
        println!("  lost: {id}");
    }
    println!("unexpected outcome: {}", v.mismatched.len());
    for m in v.mismatched.iter().take(10) {
        println!("  {m}");
    }
    println!(
        "results consumer:   {} connections, {} own redeliveries ignored, {} unknown messages",
        t.sessions, t.redeliveries, t.unknown
    );
    println!(
        "left at deletion:   {}",
        listing(left.iter().map(|(q, n)| (q.as_str(), *n as usize)))
    );
    println!(
        "elapsed:            {secs:.1} s from the workers' start to the last job accounted for{}",
        if p.timed_out { " (TIMEOUT)" } else { "" }
    );
    println!(
        "throughput:         {:.1} jobs/s ({} jobs)",
        t.accounted as f64 / secs.max(f64::MIN_POSITIVE),
        t.accounted
    );
    println!("peak RSS (VmHWM) per worker process:");
    for w in &fleet.procs {
        let how = match &w.state {
            State::Ended(how) => how.as_str(),
            _ => "still running",
        };
        let mib = w.peak_kib as f64 / 1024.0;
        println!(
            "  {:<4} pid {:<8} port {} {mib:7.1} MiB   {how}",
            w.name, w.pid, w.port
        );
    }
    for problem in &fleet.problems {
        println!("worker problem:     {problem}");
    }
    v.lost.is_empty() && v.mismatched.is_empty() && fleet.problems.is_empty()
}
