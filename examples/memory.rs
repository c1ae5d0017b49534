//! Memory bench of `tcx worker`: the peak resident set (`VmHWM`) of one worker process at
//! `--concurrency` jobs in flight (default 8), over two runs, each with a fresh worker:
//!
//! - **corpus**: every `.html`/`.html.gz` page under `--corpus` (`../shared/corpus/raw`),
//!   each sent `--repeat` times (default 4) with distinct job ids;
//! - **10mb**: `--big-pages` (default 24) generated German and English T&C pages of just under
//!   `fetch.max_body_bytes` (10 MiB), thousands of `<h2>` sections of numbered clauses with
//!   lists and tables.
//!
//! Pages travel inline (the job's `html` field): no fetch, no network traffic but the broker on
//! loopback. The example runs the already-built `target/release/tcx` on a topology of its own
//! (unique names, deleted at the end). Per run it prints the pages, the bytes sent, the elapsed
//! time, the idle worker's RSS before any job (baseline), the worker's peak RSS, and
//! `k = (peak − baseline) / (concurrency × largest page)`: the worker's memory per byte of
//! page in flight. Then the memory limit it recommends for a worker at concurrency 8 with
//! 10 MiB pages: `baseline + 8 × 10 MiB × k`, plus 25 %, rounded up to 64 MiB. It also checks
//! that every result fits `amqp.max_message_bytes`.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example memory -- [--runs corpus,10mb] [--concurrency 8]
//! ```
//!
//! Needs RabbitMQ on 127.0.0.1:5672 (guest/guest; `--amqp-url` for another). Exits with 1 when
//! a run lost jobs, a worker misbehaved or a result was too large; with 2 when the run could
//! not be set up.

#[path = "memory/bigpages.rs"]
mod bigpages;
// Shared with the soak (examples/soak.rs); the bench uses a part of each.
#[allow(dead_code)]
#[path = "soak/broker.rs"]
mod broker;
#[allow(dead_code)]
#[path = "soak/results.rs"]
mod results;
#[path = "soak/rng.rs"]
mod rng;
#[allow(dead_code)]
#[path = "soak/workers.rs"]
mod workers;

use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, bail};
use clap::{Parser, ValueEnum};
use tokio_util::sync::CancellationToken;

use tcx::config::Settings;
use tcx::job::Job;
use tcx::source::{DEFAULT_MAX_INPUT_BYTES, file_url, page_from_bytes, read_file};
use tcx::worker::consumer::RESULT_TOO_LARGE;

use broker::{delete_topology, find_tcx, topology_env};
use results::{Expect, Tally, consume, lock};
use workers::{Fleet, status_kib};

const MIB: f64 = 1024.0 * 1024.0;

/// Memory bench of `tcx worker` (see the example's documentation).
#[derive(Debug, Parser)]
struct Args {
    /// The runs, in order.
    #[arg(long, value_delimiter = ',', default_value = "corpus,10mb")]
    runs: Vec<Run>,
    /// Jobs in flight in the worker (TCX__WORKER__CONCURRENCY).
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// Analysis threads of the worker (TCX__WORKER__ANALYSIS_THREADS); by default the
    /// worker's own choice, one per core.
    #[arg(long)]
    analysis_threads: Option<usize>,
    /// Folder of real pages (.html, .html.gz), searched recursively.
    #[arg(long, default_value = "../shared/corpus/raw")]
    corpus: PathBuf,
    /// Times each corpus page is enqueued.
    #[arg(long, default_value_t = 4)]
    repeat: usize,
    /// Generated pages of just under fetch.max_body_bytes.
    #[arg(long, default_value_t = 24)]
    big_pages: usize,
    /// Also write the generated large pages to this folder (to look at them or run
    /// `tcx extract` on one).
    #[arg(long)]
    save_pages: Option<PathBuf>,
    /// The tcx binary, built beforehand with `cargo build --release`.
    #[arg(long, default_value = "target/release/tcx")]
    tcx: PathBuf,
    /// Seconds a run may take once its jobs are enqueued.
    #[arg(long, default_value_t = 1800)]
    timeout: u64,
    /// AMQP URI of the broker.
    #[arg(long, default_value = "amqp://guest:guest@127.0.0.1:5672/%2f")]
    amqp_url: String,
    /// Metrics port of the first worker process; each further process takes the next free one.
    #[arg(long, default_value_t = 19564)]
    metrics_port: u16,
}

/// A run of the bench: which pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Run {
    /// The real pages of the corpus.
    Corpus,
    /// Generated pages of just under 10 MiB.
    #[value(name = "10mb")]
    TenMb,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("memory: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The jobs of one run and the size of their pages.
struct Workload {
    which: Run,
    label: String,
    jobs: Vec<Job>,
    /// Distinct pages (each sent `jobs / pages` times).
    pages: usize,
    /// Bytes of HTML in all jobs.
    total_bytes: usize,
    /// The largest page, in bytes.
    max_page: usize,
}

impl Workload {
    fn new(which: Run, label: String, pages: usize, jobs: Vec<Job>) -> Workload {
        let sizes = jobs.iter().map(|j| j.html.as_ref().map_or(0, String::len));
        Workload {
            which,
            label,
            pages,
            total_bytes: sizes.clone().sum(),
            max_page: sizes.max().unwrap_or(0),
            jobs,
        }
    }
}

/// What one run measured.
#[derive(Debug)]
struct Measured {
    which: Run,
    label: String,
    pages: usize,
    jobs: usize,
    total_bytes: usize,
    max_page: usize,
    enqueue: Duration,
    /// From the start of the enqueue to the last job accounted for (or the timeout).
    elapsed: Duration,
    timed_out: bool,
    /// `VmRSS` and `VmHWM` of the ready, idle worker before any job, in KiB.
    baseline_kib: u64,
    baseline_hwm_kib: u64,
    /// `VmHWM` of the worker at the end of the run, in KiB.
    peak_kib: u64,
    /// First result per job by outcome (`ok` or the error kind), plus `dead-lettered`.
    outcomes: BTreeMap<String, usize>,
    accounted: usize,
    largest_result: usize,
}

impl Measured {
    /// `(peak − baseline) / (concurrency × largest page)`.
    fn k(&self, concurrency: usize) -> f64 {
        let grown = self.peak_kib.saturating_sub(self.baseline_kib) as f64 * 1024.0;
        grown / (concurrency * self.max_page.max(1)) as f64
    }

    fn lost(&self) -> usize {
        self.jobs - self.accounted
    }
}

/// The bench: set up, run each workload with a fresh worker, clean up, report. `Ok(true)`
/// when every run completed without a problem.
fn run(args: &Args) -> anyhow::Result<bool> {
    anyhow::ensure!(args.concurrency >= 1, "--concurrency must be at least 1");
    anyhow::ensure!(!args.runs.is_empty(), "--runs names no run");
    anyhow::ensure!(
        args.repeat >= 1 && args.big_pages >= 1,
        "--repeat and --big-pages must be at least 1"
    );
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
    let run_id = format!("memory-{}-{unix}", std::process::id());
    let prefix = format!("tcx-{run_id}");
    let mut env = topology_env(&prefix, &args.amqp_url, args.concurrency);
    if let Some(n) = args.analysis_threads {
        env.push(("TCX__WORKER__ANALYSIS_THREADS".into(), n.to_string()));
    }
    let settings = Settings::load_with_env(None, Some(env.iter().cloned().collect()))
        .context("the run's settings")?;
    let settings = Arc::new(settings);
    let log_dir = std::env::temp_dir().join(format!("tcx-{run_id}"));
    std::fs::create_dir_all(&log_dir)?;
    println!(
        "memory {run_id}: one worker at concurrency {}, {} analysis threads, topology \
         {prefix}.*, tcx {}",
        args.concurrency,
        settings.worker.analysis_threads(),
        tcx.display()
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let stop_timeout = Duration::from_secs(settings.worker.drain_timeout_secs + 15);
    let mut fleet = Fleet::new(tcx, env, log_dir.clone(), args.metrics_port, stop_timeout);
    let mut measured = Vec::new();
    let mut outcome = Ok(());
    for which in &args.runs {
        let step = workload(args, *which, &run_id, &settings)
            .and_then(|w| measure(args, &runtime, &settings, &mut fleet, w));
        match step {
            Ok(m) => measured.push(m),
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    fleet.kill_all();
    let left = runtime.block_on(delete_topology(&settings));
    outcome?;
    let left = left.context("cannot delete the run's topology")?;
    let passed = report(args, &settings, &measured, &fleet);
    let left: Vec<String> = left.iter().map(|(q, n)| format!("{q} {n}")).collect();
    println!("left at deletion:   {}", left.join(", "));
    println!("worker logs:        {}", log_dir.display());
    Ok(passed)
}

/// The jobs of a run: the corpus pages `--repeat` times, or the generated large pages.
fn workload(
    args: &Args,
    which: Run,
    run_id: &str,
    settings: &Settings,
) -> anyhow::Result<Workload> {
    match which {
        Run::Corpus => {
            let dir = beside_crate(&args.corpus);
            let mut files = Vec::new();
            collect_pages(&dir, &mut files)
                .with_context(|| format!("cannot read the corpus at {}", dir.display()))?;
            files.sort();
            anyhow::ensure!(
                !files.is_empty(),
                "no .html or .html.gz page under {}",
                dir.display()
            );
            let mut pages = Vec::with_capacity(files.len());
            for path in &files {
                let bytes = read_file(path, DEFAULT_MAX_INPUT_BYTES)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                pages.push(page_from_bytes(&bytes, file_url(path)));
            }
            let mut jobs = Vec::with_capacity(pages.len() * args.repeat);
            for r in 0..args.repeat {
                for (i, page) in pages.iter().enumerate() {
                    let mut job = Job::new(format!("{run_id}-corpus-{r}-{i:04}"), &page.url);
                    job.html = Some(page.html.clone());
                    jobs.push(job);
                }
            }
            let label = format!("corpus ({})", args.corpus.display());
            Ok(Workload::new(which, label, pages.len(), jobs))
        }
        Run::TenMb => {
            let limit = settings.fetch.max_body_bytes;
            let started = Instant::now();
            let mut jobs = Vec::with_capacity(args.big_pages);
            for i in 0..args.big_pages {
                let (html, url) = bigpages::big_page(i as u64, limit);
                anyhow::ensure!(
                    html.len() <= limit,
                    "generated page {i} is over {limit} bytes"
                );
                if let Some(dir) = &args.save_pages {
                    std::fs::create_dir_all(dir)?;
                    std::fs::write(dir.join(format!("page-{i:02}.html")), &html)?;
                }
                let mut job = Job::new(format!("{run_id}-10mb-{i:02}"), url);
                job.html = Some(html);
                jobs.push(job);
            }
            let secs = started.elapsed().as_secs_f64();
            println!(
                "generated {} pages of just under {limit} bytes in {secs:.1} s",
                jobs.len()
            );
            let label = format!("10 MB pages (fetch.max_body_bytes = {limit})");
            Ok(Workload::new(which, label, args.big_pages, jobs))
        }
    }
}

/// `path` as given when it exists, else relative to this crate's directory.
fn beside_crate(path: &Path) -> PathBuf {
    if path.exists() {
        return path.to_owned();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Every `.html` and `.html.gz` file below `dir`.
fn collect_pages(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.to_string_lossy().to_ascii_lowercase();
        if path.is_dir() {
            collect_pages(&path, out)?;
        } else if name.ends_with(".html") || name.ends_with(".html.gz") {
            out.push(path);
        }
    }
    Ok(())
}

/// `GET path` on the worker's metrics port; the status line and body, empty on failure.
fn http_get(port: u16, path: &str) -> String {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return String::new();
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    );
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

/// Starts a fresh worker and waits until it is ready (connected and consuming) and idle.
/// Returns its index in the fleet.
fn start_worker(fleet: &mut Fleet, label: &str) -> anyhow::Result<usize> {
    fleet.spawn(&format!(" for the {label} run"))?;
    let index = fleet.procs.len() - 1;
    let port = fleet.procs[index].port;
    let started = Instant::now();
    while !http_get(port, "/readyz").starts_with("HTTP/1.1 200") {
        fleet.poll(false)?;
        anyhow::ensure!(fleet.running() > 0, "the worker exited before it was ready");
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(60),
            "the worker is not ready after 60 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Let the start-up settle (threads parked, first scrapes served) before the baseline.
    std::thread::sleep(Duration::from_secs(2));
    Ok(index)
}

/// One run: a fresh worker, its idle RSS, the jobs enqueued and every result read, the peak.
fn measure(
    args: &Args,
    runtime: &tokio::runtime::Runtime,
    settings: &Arc<Settings>,
    fleet: &mut Fleet,
    work: Workload,
) -> anyhow::Result<Measured> {
    println!(
        "\nrun {}: {} pages, {} jobs, {:.1} MiB of HTML, largest page {} bytes",
        work.label,
        work.pages,
        work.jobs.len(),
        work.total_bytes as f64 / MIB,
        work.max_page
    );
    let index = start_worker(fleet, &work.label)?;
    let pid = fleet.procs[index].pid;
    let mut m = Measured {
        which: work.which,
        label: work.label,
        pages: work.pages,
        jobs: work.jobs.len(),
        total_bytes: work.total_bytes,
        max_page: work.max_page,
        baseline_kib: status_kib(pid, "VmRSS").context("the worker's VmRSS")?,
        baseline_hwm_kib: status_kib(pid, "VmHWM").context("the worker's VmHWM")?,
        enqueue: Duration::ZERO,
        elapsed: Duration::ZERO,
        timed_out: false,
        peak_kib: 0,
        outcomes: BTreeMap::new(),
        accounted: 0,
        largest_result: 0,
    };
    let expected: HashMap<String, Expect> = work
        .jobs
        .iter()
        .map(|j| (j.job_id.clone(), Expect::Ok))
        .collect();
    let tally = Arc::new(Mutex::new(Tally::new(expected)));
    let stop = CancellationToken::new();
    let consumer = runtime.spawn(consume(
        Arc::clone(settings),
        Arc::clone(&tally),
        stop.clone(),
    ));
    let started = Instant::now();
    let enqueued = runtime.block_on(tcx::worker::enqueue(settings, work.jobs));
    let finished = enqueued.context("enqueue failed").and_then(|summary| {
        anyhow::ensure!(
            summary.failed.is_empty() && summary.published == m.jobs,
            "enqueue failed:\n{}",
            summary.render()
        );
        m.enqueue = started.elapsed();
        println!("  enqueued in {:.1} s", m.enqueue.as_secs_f64());
        wait_for_results(args, fleet, &tally, m.jobs, started)
    });
    match finished {
        Ok((elapsed, timed_out)) => (m.elapsed, m.timed_out) = (elapsed, timed_out),
        Err(e) => {
            stop.cancel();
            let _ = runtime.block_on(consumer);
            return Err(e);
        }
    }
    fleet.stop_all()?;
    stop.cancel();
    let _ = runtime.block_on(consumer);
    m.peak_kib = fleet.procs[index].peak_kib;
    let t = lock(&tally);
    for outcomes in t.results.values() {
        let first = outcomes.first().cloned().flatten();
        *m.outcomes
            .entry(first.unwrap_or_else(|| "ok".into()))
            .or_default() += 1;
    }
    if !t.dead.is_empty() {
        m.outcomes.insert("dead-lettered".into(), t.dead.len());
    }
    m.accounted = t.accounted;
    m.largest_result = t.largest_result;
    Ok(m)
}

/// Waits until every job has a result (or a dead letter), the worker exits, or the timeout
/// passes; returns the time from `started` to the last result and whether it timed out.
fn wait_for_results(
    args: &Args,
    fleet: &mut Fleet,
    tally: &Mutex<Tally>,
    jobs: usize,
    started: Instant,
) -> anyhow::Result<(Duration, bool)> {
    let mut last_print = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(250));
        fleet.poll(false)?;
        let (accounted, last) = {
            let t = lock(tally);
            (t.accounted, t.last_accounted)
        };
        if accounted >= jobs {
            let end = last.map_or(started.elapsed(), |l| l.duration_since(started));
            return Ok((end, false));
        }
        if fleet.running() == 0 {
            bail!("the worker is gone after {accounted} of {jobs} results");
        }
        if started.elapsed() >= Duration::from_secs(args.timeout) {
            return Ok((started.elapsed(), true));
        }
        if last_print.elapsed() >= Duration::from_secs(10) {
            last_print = Instant::now();
            let w = fleet.procs.last().context("no worker")?;
            let rss = status_kib(w.pid, "VmRSS").unwrap_or(0) as f64 / 1024.0;
            let hwm = status_kib(w.pid, "VmHWM").unwrap_or(0) as f64 / 1024.0;
            println!(
                "  [{:6.1} s] {accounted}/{jobs} results, worker RSS {rss:.1} MiB (peak {hwm:.1})",
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// Rounds `mib` up to a multiple of 64.
fn round_up_64(mib: f64) -> u64 {
    (mib / 64.0).ceil() as u64 * 64
}

/// Prints each run and the recommendation; true when no run had a problem.
fn report(args: &Args, settings: &Settings, runs: &[Measured], fleet: &Fleet) -> bool {
    let c = args.concurrency;
    let max_message = settings.amqp.max_message_bytes;
    let mut passed = fleet.problems.is_empty();
    println!("\n==================== tcx memory summary ====================");
    println!(
        "worker:             one process, worker.concurrency = {c}, {} analysis threads",
        settings.worker.analysis_threads()
    );
    for m in runs {
        let kib_mib = |kib: u64| kib as f64 / 1024.0;
        let secs = m.elapsed.as_secs_f64();
        println!("\n{}", m.label);
        println!("  pages:            {} ({} jobs)", m.pages, m.jobs);
        println!(
            "  total bytes:      {} ({:.1} MiB of HTML sent), largest page {} bytes ({:.2} MiB)",
            m.total_bytes,
            m.total_bytes as f64 / MIB,
            m.max_page,
            m.max_page as f64 / MIB
        );
        println!(
            "  elapsed:          {secs:.1} s from the first enqueue to the last result{} \
             (enqueue {:.1} s), {:.1} jobs/s",
            if m.timed_out { " (TIMEOUT)" } else { "" },
            m.enqueue.as_secs_f64(),
            m.accounted as f64 / secs.max(f64::MIN_POSITIVE)
        );
        let outcomes: Vec<String> = m.outcomes.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!(
            "  results:          {} ({} lost)",
            outcomes.join(", "),
            m.lost()
        );
        println!(
            "  largest result:   {} bytes ({:.2} MiB; amqp.max_message_bytes = {max_message})",
            m.largest_result,
            m.largest_result as f64 / MIB
        );
        if m.largest_result > max_message || m.outcomes.contains_key(RESULT_TOO_LARGE) {
            println!("  RESULT TOO LARGE: a result was over amqp.max_message_bytes");
            passed = false;
        }
        println!(
            "  baseline RSS:     {:.1} MiB (idle worker before any job; VmHWM {:.1} MiB)",
            kib_mib(m.baseline_kib),
            kib_mib(m.baseline_hwm_kib)
        );
        println!("  peak RSS:         {:.1} MiB (VmHWM)", kib_mib(m.peak_kib));
        println!(
            "  k:                {:.2} = (peak − baseline) / ({c} × {} bytes)",
            m.k(c),
            m.max_page
        );
        passed &= m.lost() == 0 && !m.timed_out;
    }
    for problem in &fleet.problems {
        println!("worker problem:     {problem}");
    }
    recommend(runs, settings, c);
    println!(
        "\nverdict:            {}",
        if passed { "PASS" } else { "FAIL" }
    );
    passed
}

/// The concurrency the recommended memory limit is for.
const LIMIT_CONCURRENCY: usize = 8;

/// The memory limit of a worker at [`LIMIT_CONCURRENCY`] with `fetch.max_body_bytes` pages,
/// from the 10 MB run's k (the corpus run's when it is the only one).
fn recommend(runs: &[Measured], settings: &Settings, c: usize) {
    let big = runs.iter().find(|m| m.which == Run::TenMb);
    let Some(from) = big.or(runs.first()) else {
        return;
    };
    let baseline_kib = runs.iter().map(|m| m.baseline_kib).max().unwrap_or(0);
    let baseline = baseline_kib as f64 / 1024.0;
    let page = settings.fetch.max_body_bytes as f64 / MIB;
    let k = from.k(c);
    let n = LIMIT_CONCURRENCY;
    let bound = baseline + n as f64 * page * k;
    let with_margin = bound * 1.25;
    println!(
        "\nrecommendation (worker.concurrency = {n}, fetch.max_body_bytes = {page:.0} MiB, k \
         measured with {} analysis threads):",
        settings.worker.analysis_threads()
    );
    println!(
        "  bound:            baseline + {n} × {page:.0} MiB × k = {baseline:.1} + {n} × {page:.0} \
         × {k:.2} = {bound:.1} MiB (k of the {} run, largest baseline)",
        if big.is_some() { "10 MB" } else { "corpus" }
    );
    println!(
        "  memory limit:     {bound:.1} MiB + 25 % = {with_margin:.1} MiB, rounded up to 64 MiB: \
         {} MiB",
        round_up_64(with_margin)
    );
}
