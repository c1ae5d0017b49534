//! The `tcx` command line: a thin layer over the library.
#![forbid(unsafe_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};

use tcx::config::Settings;
use tcx::fetch::Fetcher;
use tcx::output::{Document, Section, Source, rfc3339};
use tcx::source::Input;

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
    let analysis = tcx::analyze(&page.html, &settings.analysis_options())
        .with_context(|| format!("cannot extract {}", args.input))?;
    let source = Source {
        url: Some(page.url.clone()),
        final_url: Some(page.final_url.clone()),
        fetched_at: Some(fetched_at),
        encoding: Some(page.encoding.to_owned()),
    };
    let doc = Document::from_analysis(analysis, source, rfc3339(std::time::SystemTime::now()));
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
