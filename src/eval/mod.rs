//! `tcx eval`: scores the analysis against gold files with the measures of
//! `docs/algorithms.md#measures` (see `docs/eval.md` for the gold formats and every decision).
//!
//! - [`gold`] reads the manifest and the gold kinds (Markdown, text, our JSON);
//! - [`measures`] holds the measures as pure functions;
//! - [`report`] prints the terminal table and writes the JSON and HTML reports;
//! - [`types`] scores the document type and the legal-page verdict of every labelled page.
//!
//! [`run`] is the command; [`evaluate_page`] scores one page from its HTML and gold.

pub mod gold;
pub mod measures;
pub mod report;
pub mod types;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use gold::{Entry, Gold, GoldKind};
use measures::{Edge, HeadingNode, HierarchyScore, Prf};
use tcx_core::{AnalysisOptions, analyze};
use tcx_core::{Document, Section, Source};
use types::{Labels, TypeOutcome, TypePage, TypesReport};

pub use types::{TypeOnlyPage, evaluate_type_page, type_only_pages};

/// Arguments of `tcx eval`.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {
    /// The corpus directory (holds `gold.tsv` and `raw/`).
    #[arg(long, default_value = "../shared/corpus")]
    pub corpus: PathBuf,
    /// The manifest of pages with gold; default `<corpus>/gold.tsv`.
    #[arg(long)]
    pub manifest: Option<PathBuf>,
    /// Directory of our hand-labelled `*.gold.json` files (skipped when absent).
    #[arg(long, default_value = "tests/gold")]
    pub gold_dir: PathBuf,
    /// Only pages whose id or HTML path contains this text.
    #[arg(long)]
    pub filter: Option<String>,
    /// Print the machine-readable JSON report instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report here (per-page views go to `<stem>_pages/`).
    #[arg(long, value_name = "REPORT.html")]
    pub html: Option<PathBuf>,
    /// Recorded figures to guard against regressions (e.g. `tests/gold/baseline.json`).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Largest allowed drop of token F1 or heading F1 below the baseline.
    #[arg(long, default_value_t = 0.02)]
    pub max_drop: f64,
    /// Write the current figures to the baseline file (default `<gold-dir>/baseline.json`).
    #[arg(long)]
    pub write_baseline: bool,
    /// Worker threads (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Also score the document type and legal verdict of type-only pages (no text gold):
    /// the static shop mirrors and the `--types-manifest` pages (default
    /// `<corpus>/gold-legal.tsv` and `<corpus>/gold-nonlegal.tsv`).
    #[arg(long)]
    pub types: bool,
    /// A manifest of type-only pages for `--types` (repeatable); its pages are reported under
    /// the manifest's file stem (e.g. `gold-legal-tune`).
    #[arg(long, value_name = "FILE")]
    pub types_manifest: Vec<PathBuf>,
}

impl Default for EvalArgs {
    fn default() -> Self {
        EvalArgs {
            corpus: PathBuf::from("../shared/corpus"),
            manifest: None,
            gold_dir: PathBuf::from("tests/gold"),
            filter: None,
            json: false,
            html: None,
            baseline: None,
            max_drop: 0.02,
            write_baseline: false,
            jobs: None,
            types: false,
            types_manifest: Vec::new(),
        }
    }
}

/// The scores of one page.
#[derive(Debug, Clone, Serialize)]
pub struct PageResult {
    /// Short id (gold path without corpus prefix).
    pub id: String,
    /// Reporting group (corpus source, or `hand-labelled`).
    pub group: String,
    /// Language from the manifest.
    pub lang: String,
    /// Gold kind.
    pub kind: GoldKind,
    /// The HTML file.
    pub html: PathBuf,
    /// Why the page failed to process, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Wall time of decoding and analysis, in milliseconds.
    pub millis: f64,
    /// Token P/R/F1, when the gold has the full text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Prf>,
    /// Start class.
    pub start: Edge,
    /// End class.
    pub end: Edge,
    /// Heading measures, when the gold has headings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hierarchy: Option<HierarchyScore>,
    /// Number of extracted word tokens.
    pub extracted_tokens: usize,
    /// The document type and legal verdict against the page's labels (not on processing
    /// errors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_type: Option<TypeOutcome>,
    /// What was extracted and the gold, for the side-by-side view (not serialised).
    #[serde(skip)]
    pub detail: PageDetail,
}

/// The texts and trees behind a [`PageResult`], for the HTML side-by-side view.
#[derive(Debug, Clone, Default)]
pub struct PageDetail {
    /// The extracted `text`.
    pub extracted_text: String,
    /// The extracted heading tree (titled sections only).
    pub extracted_tree: Vec<HeadingNode>,
    /// The gold.
    pub gold: Gold,
}

/// Start/end class counts.
pub type EdgeCounts = BTreeMap<Edge, usize>;

/// Aggregated figures over a set of pages.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Summary {
    /// Pages scored.
    pub pages: usize,
    /// Pages that failed to process.
    pub processing_errors: usize,
    /// Pages whose gold has the full text.
    pub text_pages: usize,
    /// Mean token precision/recall/F1 over `text_pages` (failed pages count 0).
    pub tokens: Option<Prf>,
    /// Start classes.
    pub start: EdgeCounts,
    /// End classes.
    pub end: EdgeCounts,
    /// Pages whose gold has headings.
    pub heading_pages: usize,
    /// Mean per-page heading P/R/F1 over `heading_pages`.
    pub headings: Option<Prf>,
    /// Heading P/R/F1 over all headings pooled.
    pub headings_micro: Option<Prf>,
    /// Matched headings with the right parent over all matched headings.
    pub parent_accuracy: Option<f64>,
    /// Mean of the pages' hierarchy error scores.
    pub error_score_mean: Option<f64>,
    /// Pages per error-score bucket ([`measures::bucket_labels`]).
    pub error_buckets: Vec<usize>,
    /// Mean analysis time per page in milliseconds.
    pub mean_millis: f64,
}

fn mean_prf<'a>(it: impl Iterator<Item = &'a Prf>) -> Option<Prf> {
    let v: Vec<&Prf> = it.collect();
    if v.is_empty() {
        return None;
    }
    let n = v.len() as f64;
    Some(Prf {
        precision: v.iter().map(|p| p.precision).sum::<f64>() / n,
        recall: v.iter().map(|p| p.recall).sum::<f64>() / n,
        f1: v.iter().map(|p| p.f1).sum::<f64>() / n,
    })
}

/// Aggregates page results.
pub fn summarize(pages: &[&PageResult]) -> Summary {
    let mut start: EdgeCounts = Edge::ALL.iter().map(|&e| (e, 0)).collect();
    let mut end = start.clone();
    for p in pages {
        *start.entry(p.start).or_default() += 1;
        *end.entry(p.end).or_default() += 1;
    }
    let text: Vec<&Prf> = pages.iter().filter_map(|p| p.tokens.as_ref()).collect();
    let hier: Vec<&HierarchyScore> = pages.iter().filter_map(|p| p.hierarchy.as_ref()).collect();
    let (m, e, g) = hier.iter().fold((0, 0, 0), |(m, e, g), h| {
        (m + h.matched, e + h.extracted, g + h.gold)
    });
    let parent: usize = hier.iter().map(|h| h.parent_correct).sum();
    Summary {
        pages: pages.len(),
        processing_errors: pages.iter().filter(|p| p.error.is_some()).count(),
        text_pages: text.len(),
        tokens: mean_prf(text.into_iter()),
        start,
        end,
        heading_pages: hier.len(),
        headings: mean_prf(hier.iter().map(|h| &h.prf)),
        headings_micro: (!hier.is_empty()).then(|| Prf::from_counts(m, e, g)),
        parent_accuracy: (m > 0).then(|| parent as f64 / m as f64),
        error_score_mean: (!hier.is_empty())
            .then(|| hier.iter().map(|h| h.error_score).sum::<f64>() / hier.len() as f64),
        error_buckets: measures::histogram(hier.iter().map(|h| h.error_score)),
        mean_millis: if pages.is_empty() {
            0.0
        } else {
            pages.iter().map(|p| p.millis).sum::<f64>() / pages.len() as f64
        },
    }
}

/// The whole evaluation: every page, the overall summary and one per group.
#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    /// Corpus directory used.
    pub corpus: PathBuf,
    /// Labels of the error-score buckets.
    pub bucket_labels: Vec<String>,
    /// All real pages (the written ones count in their group only).
    pub overall: Summary,
    /// Per reporting group.
    pub groups: BTreeMap<String, Summary>,
    /// Wall time of the run in seconds.
    pub seconds: f64,
    /// Per page.
    pub pages: Vec<PageResult>,
    /// Document-type accuracy and legal-verdict rates over `pages` and `type_pages`.
    pub types: TypesReport,
    /// Pages scored for their document type only (`--types`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub type_pages: Vec<TypePage>,
}

/// The figures the regression guard compares, as recorded in the repository.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Baseline {
    /// Mean token F1 over pages with full-text gold.
    pub token_f1: f64,
    /// Mean per-page heading F1 over pages whose gold has headings.
    pub heading_f1: f64,
    /// Pages scored when recorded (information only).
    #[serde(default)]
    pub pages: usize,
    /// How the figures were produced (information only).
    #[serde(default)]
    pub command: String,
}

impl Baseline {
    /// The baseline figures of a report.
    pub fn of(report: &EvalReport) -> Baseline {
        Baseline {
            token_f1: round4(report.overall.tokens.map_or(0.0, |p| p.f1)),
            heading_f1: round4(report.overall.headings.map_or(0.0, |p| p.f1)),
            pages: report.overall.pages,
            command: "tcx eval --write-baseline".to_owned(),
        }
    }

    /// Descriptions of the figures that dropped more than `max_drop` below this baseline.
    pub fn regressions(&self, current: &Baseline, max_drop: f64) -> Vec<String> {
        let mut out = Vec::new();
        for (name, base, now) in [
            ("token F1", self.token_f1, current.token_f1),
            ("heading F1", self.heading_f1, current.heading_f1),
        ] {
            if now < base - max_drop - 1e-9 {
                out.push(format!(
                    "{name} dropped from {base:.4} to {now:.4} (more than {max_drop})"
                ));
            }
        }
        out
    }
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Reads a page's bytes, un-gzipping `.gz` files (or any file starting with the gzip magic),
/// under the default input limit.
pub fn read_page(path: &Path) -> Result<Vec<u8>> {
    Ok(crate::source::read_file(
        path,
        crate::source::DEFAULT_MAX_INPUT_BYTES,
    )?)
}

/// Decodes page bytes to text exactly as `tcx extract` does for a local file
/// ([`tcx_core::decode`]: BOM, `<meta>` prescan, UTF-8, chardetng guess).
pub fn decode_page(bytes: &[u8]) -> String {
    tcx_core::decode(bytes, None, None).text
}

/// The title a section is matched by: its title, prefixed with its number when the title does
/// not already start with it. `None` for untitled sections (text before the first heading,
/// numbered clauses without a title), which are transparent for the hierarchy measures.
pub fn section_heading(s: &Section) -> Option<String> {
    let title = s
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())?;
    match s.number.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) if !title.starts_with(n) => Some(format!("{n} {title}")),
        _ => Some(title.to_owned()),
    }
}

/// The heading tree of an extracted section tree: titled sections become nodes; untitled ones
/// hand their paragraphs and subsections to the nearest titled ancestor. Each node's text is
/// its paragraphs followed by its subsections' titles and texts.
pub fn extracted_tree(sections: &[Section]) -> Vec<HeadingNode> {
    fn walk(sections: &[Section], children: &mut Vec<HeadingNode>, text: &mut Vec<String>) {
        for s in sections {
            match section_heading(s) {
                Some(title) => {
                    let mut own_children = Vec::new();
                    let mut own_text = s.paragraphs.clone();
                    walk(&s.subsections, &mut own_children, &mut own_text);
                    text.push(title.clone());
                    text.extend(own_text.iter().cloned());
                    children.push(HeadingNode {
                        title,
                        text: Some(own_text.join("\n")),
                        children: own_children,
                    });
                }
                None => {
                    text.extend(s.paragraphs.iter().cloned());
                    walk(&s.subsections, children, text);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut text = Vec::new();
    walk(sections, &mut out, &mut text);
    out
}

/// Scores one page from its decoded-or-not analysis outcome and gold. `outcome` is the
/// extracted text and sections, or the processing error.
pub fn score_page(
    entry: &Entry,
    gold: Gold,
    outcome: std::result::Result<(String, Vec<Section>), String>,
    millis: f64,
) -> PageResult {
    let (text, tree, error) = match outcome {
        Ok((text, sections)) => (text, extracted_tree(&sections), None),
        Err(e) => (String::new(), Vec::new(), Some(e)),
    };
    let toks = measures::tokens(&text);
    let (start, end) = if error.is_some() {
        (Edge::ProcessingError, Edge::ProcessingError)
    } else {
        (
            measures::start_class(&toks, measures::opening(&gold.first_tokens)),
            measures::end_class(&toks, measures::closing(&gold.last_tokens)),
        )
    };
    let tokens = gold
        .text
        .as_ref()
        .map(|g| measures::bag_prf(&toks, &measures::tokens(g)));
    let hierarchy = gold
        .headings
        .as_ref()
        .map(|g| measures::hierarchy_score(&tree, g));
    PageResult {
        id: entry.id.clone(),
        group: entry.group.clone(),
        lang: entry.lang.clone(),
        kind: entry.kind,
        html: entry.html.clone(),
        error,
        millis,
        tokens,
        start,
        end,
        hierarchy,
        extracted_tokens: toks.len(),
        document_type: None,
        detail: PageDetail {
            extracted_text: text,
            extracted_tree: tree,
            gold,
        },
    }
}

/// Reads, decodes and analyses one page and scores it against its gold. A failure to read,
/// decode or analyse the page (including a panic in the analysis) is a processing error; a
/// gold that cannot be read is an `Err`.
pub fn evaluate_page(entry: &Entry, options: &AnalysisOptions) -> Result<PageResult> {
    evaluate_page_labelled(entry, options, &Labels::default())
}

/// [`evaluate_page`], with the page's document type and legal verdict scored against
/// `labels`. The figures of [`evaluate_page`] are unchanged.
pub fn evaluate_page_labelled(
    entry: &Entry,
    options: &AnalysisOptions,
    labels: &Labels,
) -> Result<PageResult> {
    let gold = gold::load_gold(entry)?;
    let t0 = Instant::now();
    let mut typed = None;
    let outcome = analyze_file(&entry.html, options).map(|doc| {
        typed = Some(TypeOutcome::of(&doc, &entry.html, labels));
        (doc.text, doc.sections)
    });
    let millis = t0.elapsed().as_secs_f64() * 1000.0;
    let mut page = score_page(entry, gold, outcome, millis);
    page.document_type = typed;
    Ok(page)
}

/// Reads, decodes and analyses one page into its Document (with a `file://` address, so the
/// address gives no hint of the page's type). A failure, including a panic in the analysis,
/// is the processing error's message.
pub fn analyze_file(
    path: &Path,
    options: &AnalysisOptions,
) -> std::result::Result<Document, String> {
    let bytes = read_page(path).map_err(|e| format!("{e:#}"))?;
    let html = decode_page(&bytes);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| analyze(&html, options)));
    match caught {
        Ok(Ok(a)) => {
            let url = format!("file://{}", path.display());
            let source = Source::new(Some(url.clone()), Some(url), None, None);
            Ok(Document::from_analysis(a, source, String::new()))
        }
        Ok(Err(e)) => Err(format!("{}: {e}", e.kind())),
        Err(p) => Err(format!(
            "panic: {}",
            p.downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default()
        )),
    }
}

/// The entries of a run: the manifest's plus the JSON golds, filtered.
pub fn entries(args: &EvalArgs) -> Result<Vec<Entry>> {
    let manifest = args
        .manifest
        .clone()
        .unwrap_or_else(|| args.corpus.join("gold.tsv"));
    if args.manifest.is_none() && !args.corpus.is_dir() {
        bail!(
            "corpus {} not found (relative to {}): pass --corpus DIR (the shared corpus, \
             e.g. ../shared/corpus from the repository root) or --manifest FILE",
            args.corpus.display(),
            std::env::current_dir().map_or_else(|_| ".".into(), |d| d.display().to_string())
        );
    }
    let mut out = gold::read_manifest(&manifest, &args.corpus)?;
    if args.gold_dir.is_dir() {
        out.extend(gold::json_entries(&args.gold_dir, &args.corpus)?);
    }
    if let Some(f) = &args.filter {
        out.retain(|e| e.id.contains(f.as_str()) || e.html.to_string_lossy().contains(f.as_str()));
    }
    for e in &out {
        if !e.html.is_file() {
            bail!("{}: page {} not found", e.id, e.html.display());
        }
        if !e.gold.is_file() {
            bail!("{}: gold {} not found", e.id, e.gold.display());
        }
    }
    Ok(out)
}

/// Scores all entries on `jobs` threads; results keep the entries' order.
pub fn evaluate_all(
    entries: &[Entry],
    options: &AnalysisOptions,
    jobs: usize,
) -> Result<Vec<PageResult>> {
    evaluate_all_labelled(entries, options, jobs, &Labels::default())
}

/// [`evaluate_all`] with the document types scored against `labels`.
pub fn evaluate_all_labelled(
    entries: &[Entry],
    options: &AnalysisOptions,
    jobs: usize,
    labels: &Labels,
) -> Result<Vec<PageResult>> {
    let results = parallel_map(entries, jobs, |entry| {
        evaluate_page_labelled(entry, options, labels)
    })?;
    results
        .into_iter()
        .zip(entries)
        .map(|(r, e)| r.unwrap_or_else(|| Err(anyhow::anyhow!("{}: not evaluated", e.id))))
        .collect()
}

/// `f` over `items` on `jobs` threads, results in the items' order (`None` where a thread
/// died before storing one).
pub(crate) fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Result<Vec<Option<R>>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    if let Ok(mut guard) = results.lock() {
                        guard[i] = Some(r);
                    }
                }
            });
        }
    });
    results
        .into_inner()
        .map_err(|_| anyhow::anyhow!("an evaluation thread panicked"))
}

/// Builds the report of a set of page results.
pub fn build_report(corpus: &Path, pages: Vec<PageResult>, seconds: f64) -> EvalReport {
    build_report_with_types(corpus, pages, Vec::new(), seconds)
}

/// [`build_report`] with type-only pages, which count in the document-type figures only.
pub fn build_report_with_types(
    corpus: &Path,
    pages: Vec<PageResult>,
    type_pages: Vec<TypePage>,
    seconds: f64,
) -> EvalReport {
    let types = types::report(corpus, &pages, &type_pages);
    let all: Vec<&PageResult> = pages
        .iter()
        .filter(|p| p.group != gold::WRITTEN_GROUP)
        .collect();
    let overall = summarize(&all);
    let mut by_group: BTreeMap<String, Vec<&PageResult>> = BTreeMap::new();
    for p in &pages {
        by_group.entry(p.group.clone()).or_default().push(p);
    }
    let groups = by_group
        .into_iter()
        .map(|(g, v)| (g, summarize(&v)))
        .collect();
    EvalReport {
        corpus: corpus.to_path_buf(),
        bucket_labels: measures::bucket_labels(),
        overall,
        groups,
        seconds,
        pages,
        types,
        type_pages,
    }
}

/// Runs `tcx eval`. Returns the process exit code: 0, or 1 when the regression guard fails.
pub fn run(args: &EvalArgs) -> Result<i32> {
    let entries = entries(args)?;
    if entries.is_empty() {
        bail!("no pages to evaluate");
    }
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    let t0 = Instant::now();
    let labels = Labels::load(&args.corpus);
    let options = AnalysisOptions::default();
    let pages = evaluate_all_labelled(&entries, &options, jobs, &labels)?;
    let type_pages = if args.types {
        let extra = type_only_pages(args, &entries)?;
        parallel_map(&extra, jobs, |(id, group, html)| {
            evaluate_type_page(id, group, html, &options, &labels)
        })?
        .into_iter()
        .flatten()
        .collect()
    } else {
        Vec::new()
    };
    let report =
        build_report_with_types(&args.corpus, pages, type_pages, t0.elapsed().as_secs_f64());

    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report::terminal(&report));
    }
    if let Some(path) = &args.html {
        report::write_html(&report, path)?;
        eprintln!("HTML report written to {}", path.display());
    }

    let current = Baseline::of(&report);
    let mut code = 0;
    if args.write_baseline {
        let path = args
            .baseline
            .clone()
            .unwrap_or_else(|| args.gold_dir.join("baseline.json"));
        std::fs::write(&path, serde_json::to_string_pretty(&current)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
        eprintln!("baseline written to {}", path.display());
    } else if let Some(path) = &args.baseline {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading baseline {}", path.display()))?;
        let base: Baseline = serde_json::from_str(&text)
            .with_context(|| format!("parsing baseline {}", path.display()))?;
        let drops = base.regressions(&current, args.max_drop);
        if drops.is_empty() {
            eprintln!(
                "regression guard ok: token F1 {:.4} (baseline {:.4}), heading F1 {:.4} (baseline {:.4})",
                current.token_f1, base.token_f1, current.heading_f1, base.heading_f1
            );
        } else {
            for d in &drops {
                eprintln!("regression: {d}");
            }
            code = 1;
        }
    }
    Ok(code)
}

#[cfg(test)]
mod tests;
