//! The `tcx` command line: a thin layer over the library.
#![forbid(unsafe_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};

use tcx::config::Settings;
use tcx::fetch::Fetcher;
use tcx::source::Input;
use tcx::source::rfc3339;
use tcx_core::{Document, Section};

/// jemalloc instead of glibc's allocator: the analysis allocates many small, short-lived
/// blocks per page (element records, style keys, section text), and glibc's malloc and free
/// were about a tenth of its CPU time. mimalloc was as fast but kept 3–5× the resident
/// memory of a batch run (its heaps per thread of the blocking pool); jemalloc kept ~1.2×.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// tcx: structured extraction of Terms & Conditions pages.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    /// Configuration file layered over the built-in defaults (TOML).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Extract one page (a file, an http(s) URL, or - for standard input) and print its
    /// Document.
    Extract(ExtractArgs),
    /// Score the extraction against gold files.
    Eval(tcx::eval::EvalArgs),
    /// Consume jobs from RabbitMQ and publish results (runs until SIGTERM/SIGINT).
    Worker,
    /// Publish jobs from a file of URLs, a crawler CSV (id,name,shop_url,agb_url) or a
    /// directory of .html/.html.gz pages (sent inline).
    Enqueue(EnqueueArgs),
    /// Run the worker pipeline locally on URLs, a crawler CSV or a directory of pages, without
    /// a broker, writing one JSON result a line.
    Batch(BatchArgs),
    /// Fetch a shop's page and list the legal pages it links to, with their document types.
    Discover(DiscoverArgs),
}

#[derive(Debug, clap::Args)]
struct EnqueueArgs {
    /// The job list.
    file: PathBuf,
    /// The URL list names shops: each line becomes a site job (its legal pages are found
    /// and extracted). CSV rows with a shop_url and no agb_url are site jobs anyway.
    #[arg(long)]
    sites: bool,
}

#[derive(Debug, clap::Args)]
struct DiscoverArgs {
    /// The shop's address (its start page, or any page with the footer links).
    url: String,
    /// Print the site result as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct BatchArgs {
    /// A file of URLs (one a line), a crawler CSV, or a directory of .html/.html.gz files.
    #[arg(long, short)]
    input: PathBuf,
    /// Where to write the results (JSON lines); - for standard output.
    #[arg(long, short, default_value = "-")]
    output: PathBuf,
    /// Jobs in flight (default: worker.concurrency).
    #[arg(long, short = 'j')]
    concurrency: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Exit 0 even when some jobs failed (by default the exit code is 2 when any job ended
    /// with an error result).
    #[arg(long)]
    allow_failures: bool,
    /// The URL list names shops: each line becomes a site job (its legal pages are found
    /// and extracted). CSV rows with a shop_url and no agb_url are site jobs anyway.
    #[arg(long)]
    sites: bool,
}

#[derive(Debug, clap::Args)]
struct ExtractArgs {
    /// FILE, URL or - (standard input).
    input: String,
    /// Indent the JSON.
    #[arg(long)]
    pretty: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    /// The Document as JSON.
    Json,
    /// The section tree as indented text.
    Text,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Extract(args) => extract(cli.config.as_deref(), args),
        Command::Eval(args) => tcx::eval::run(args),
        Command::Worker => worker(cli.config.as_deref()),
        Command::Enqueue(args) => enqueue(cli.config.as_deref(), args),
        Command::Batch(args) => batch(cli.config.as_deref(), args),
        Command::Discover(args) => discover(cli.config.as_deref(), args),
    };
    match result {
        Ok(0) => ExitCode::SUCCESS,
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(e) => {
            eprintln!("tcx: {}", error_chain(&e));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes on one line, leaving out causes whose text the message before
/// already contains (our error types include their source in their message).
fn error_chain(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if !out.contains(&text) {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&text);
        }
    }
    out
}

fn extract(config: Option<&std::path::Path>, args: &ExtractArgs) -> anyhow::Result<i32> {
    let settings = Settings::load(config)?;
    let input = Input::parse(&args.input);
    let fetcher = Fetcher::new(&settings.fetch).context("cannot set up the HTTP client")?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let page = runtime
        .block_on(tcx::source::load(&input, &fetcher))
        .with_context(|| format!("cannot load {}", args.input))?;
    let fetched_at = rfc3339(std::time::SystemTime::now());
    let options = settings
        .analysis_options()
        .for_output(settings.output.options());
    let analysis = tcx_core::analyze(&page.html, &options)
        .with_context(|| format!("cannot extract {}", args.input))?;
    let source = page.source(fetched_at);
    let doc = Document::from_analysis(analysis, source, rfc3339(std::time::SystemTime::now()))
        .with_output(settings.output.options());
    let mut out = match args.format {
        Format::Json if args.pretty => serde_json::to_string_pretty(&doc)?,
        Format::Json => serde_json::to_string(&doc)?,
        Format::Text => {
            let mut s = String::new();
            Section::write_outline(&doc.sections, &mut s);
            s
        }
    };
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    if let Err(e) = lock.write_all(out.as_bytes()).and_then(|()| lock.flush()) {
        // A closed pipe (`tcx extract … | head`) is not an error of ours.
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(e.into());
        }
    }
    Ok(0)
}

fn multi_thread_runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

fn worker(config: Option<&std::path::Path>) -> anyhow::Result<i32> {
    let settings = Settings::load(config)?;
    tcx::telemetry::init_logging(settings.log.format);
    multi_thread_runtime()?.block_on(async {
        let shutdown = tcx::worker::shutdown_on_signals();
        tcx::worker::run_worker(settings, shutdown).await
    })?;
    Ok(0)
}

fn enqueue(config: Option<&std::path::Path>, args: &EnqueueArgs) -> anyhow::Result<i32> {
    let settings = Settings::load(config)?;
    tcx::telemetry::init_logging(settings.log.format);
    let list = tcx::job::read_job_list_with(&args.file, args.sites)?;
    for (line, reason) in &list.skipped {
        eprintln!("tcx: line {line} skipped: {reason}");
    }
    let jobs = list
        .items
        .into_iter()
        .map(|item| tcx::worker::enqueue::item_to_job(item, settings.fetch.max_body_bytes))
        .collect::<Result<Vec<_>, _>>()?;
    let summary = multi_thread_runtime()?.block_on(tcx::worker::enqueue(&settings, jobs))?;
    eprintln!("{}skipped: {}", summary.render(), list.skipped.len());
    Ok(if summary.failed.is_empty() { 0 } else { 1 })
}

fn discover(config: Option<&std::path::Path>, args: &DiscoverArgs) -> anyhow::Result<i32> {
    let settings = Settings::load(config)?;
    tcx::telemetry::init_logging(settings.log.format);
    let job = tcx::job::Job::site(tcx::job::url_job_id(&args.url), args.url.clone());
    job.validate()?;
    let outcome = multi_thread_runtime()?.block_on(async {
        let metrics = std::sync::Arc::new(tcx::telemetry::Metrics::new()?);
        let pipeline = tcx::worker::Pipeline::new(&settings, metrics)?;
        anyhow::Ok(pipeline.process_site(&job, 1).await)
    })?;
    let mut out = String::new();
    if args.json {
        out = serde_json::to_string_pretty(&outcome.result)?;
        out.push('\n');
    } else {
        for page in &outcome.result.pages {
            out.push_str(&format!(
                "{:<16} {:<18} {:<40} {}\n",
                page.document_type.name(),
                tcx::worker::site::action_name(page.action),
                page.url,
                page.text
            ));
        }
    }
    print!("{out}");
    if let Some(error) = &outcome.result.error {
        eprintln!("tcx: {}: {}", error.kind, error.message);
        return Ok(1);
    }
    Ok(0)
}

fn batch(config: Option<&std::path::Path>, args: &BatchArgs) -> anyhow::Result<i32> {
    let settings = Settings::load(config)?;
    tcx::telemetry::init_logging(settings.log.format);
    let list = tcx::job::read_job_list_with(&args.input, args.sites)?;
    for (line, reason) in &list.skipped {
        eprintln!("tcx: line {line} skipped: {reason}");
    }
    let mut options = tcx::worker::BatchOptions::from_settings(&settings.worker);
    if let Some(n) = args.concurrency {
        anyhow::ensure!(n >= 1, "--concurrency must be at least 1");
        options.concurrency = n;
    }
    options.progress = !args.quiet;
    let runtime = multi_thread_runtime()?;
    let summary = runtime.block_on(async {
        let metrics = std::sync::Arc::new(tcx::telemetry::Metrics::new()?);
        let pipeline = std::sync::Arc::new(tcx::worker::Pipeline::new(&settings, metrics)?);
        let summary = if args.output.as_os_str() == "-" {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            tcx::worker::run_batch(pipeline, list.items, &options, &mut out).await?
        } else {
            let file = std::fs::File::create(&args.output)
                .with_context(|| format!("cannot create {}", args.output.display()))?;
            let mut out = std::io::BufWriter::new(file);
            tcx::worker::run_batch(pipeline, list.items, &options, &mut out).await?
        };
        anyhow::Ok(summary)
    })?;
    eprintln!("{}skipped: {}", summary.render(), list.skipped.len());
    let failed = summary.failed();
    if failed > 0 && !args.allow_failures {
        eprintln!(
            "tcx: {failed} of {} jobs failed (exit code 2; --allow-failures to accept)",
            summary.total
        );
        return Ok(2);
    }
    Ok(0)
}
