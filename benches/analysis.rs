//! Analysis throughput over the corpus pages: the full analysis, its stages, and a bare
//! lol_html pass with no handlers (the floor), single-threaded, plus the peak memory of one
//! analysis relative to the page size.
//!
//! `cargo bench --bench analysis` (reads ../shared/corpus when present, else the fixtures).
//! Set `TCX_BENCH_ROUNDS` to change the number of timed rounds (default 5), and
//! `TCX_BENCH_STAGES` to time only some stages (comma-separated: floor, rewriter, shape, full,
//! sentences, pass1, select, pass2, vocabulary, memory; default all). "full" is what a job with
//! the default settings does (no sentence splitting, then the document type); "sentences" is
//! the analysis with sentences, as `[output] sentences = true` asks. "rewriter" is how both
//! passes drove lol_html before they took only its start tags ("shape").

#![allow(unsafe_code)] // the counting allocator only

use std::alloc::{GlobalAlloc, Layout};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tcx_core::stages::{
    ComputedStyles, ReducedTree, StyleStats, blocks_with_styles, sections_in, select,
    without_sentence_breaking,
};
use tcx_core::{AnalysisOptions, Document, Source};
use tikv_jemallocator::Jemalloc;

/// Counts live and peak heap bytes so the bench can report memory per analysis; the blocks
/// come from jemalloc, the allocator of the `tcx` binary.
struct CountingAllocator;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Counting is switched on for the memory measurement only: the atomic updates would
/// otherwise add to the cost of every allocation in the timed stages.
static COUNTING: AtomicBool = AtomicBool::new(false);

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { Jemalloc.alloc(layout) };
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { Jemalloc.dealloc(ptr, layout) };
        if COUNTING.load(Ordering::Relaxed) {
            // Saturating: blocks allocated before counting began may be freed during it.
            let _ = LIVE.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| {
                Some(l.saturating_sub(layout.size()))
            });
        }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // The allocator's own realloc (the default would allocate, copy and free).
        let p = unsafe { Jemalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            let old = layout.size();
            let live = if new_size >= old {
                LIVE.fetch_add(new_size - old, Ordering::Relaxed) + (new_size - old)
            } else {
                let shrink = old - new_size;
                let _ = LIVE.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| {
                    Some(l.saturating_sub(shrink))
                });
                0
            };
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn pages() -> (String, Vec<(PathBuf, String)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("../shared/corpus/raw");
    let (label, dir) = if corpus.is_dir() {
        ("../shared/corpus/raw", corpus)
    } else {
        ("tests/fixtures", root.join("tests/fixtures"))
    };
    let mut files = Vec::new();
    let mut todo = vec![dir];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            let name = p.to_string_lossy().into_owned();
            if p.is_dir() {
                todo.push(p);
            } else if name.ends_with(".html") || name.ends_with(".html.gz") {
                files.push(p);
            }
        }
    }
    files.sort();
    let pages = files
        .into_iter()
        .filter_map(|p| {
            let bytes = tcx::source::read_file(&p, tcx::source::DEFAULT_MAX_INPUT_BYTES).ok()?;
            let html = tcx::source::page_from_bytes(&bytes, String::new()).html;
            Some((p, html))
        })
        .collect();
    (label.to_owned(), pages)
}

fn bare_pass(html: &str) {
    let mut rw =
        lol_html::HtmlRewriter::new(lol_html::Settings::new().with_strict(false), |_: &[u8]| {});
    let _ = rw.write(html.as_bytes());
    let _ = rw.end();
}

/// lol_html's rewriter with an empty `element!("*")` handler: how both passes were driven
/// before `tcx_core::parse::start_tags` (selector machine, `Element`s, output serialised).
fn rewriter_shape_pass(html: &str) {
    use lol_html::element;
    let settings = lol_html::Settings::new()
        .with_strict(false)
        .append_element_content_handler(element!("*", |_el| Ok(())));
    let mut rw = lol_html::HtmlRewriter::new(settings, |_: &[u8]| {});
    let _ = rw.write(html.as_bytes());
    let _ = rw.end();
}

/// lol_html's tokenizer as both passes drive it, with no work per start tag: the cost of
/// being given every start tag (the passes read text and end tags from the page itself, see
/// `tcx_core::parse::gaps`).
fn start_tags_shape_pass(html: &str) {
    let _ = tcx_core::stages::count_start_tags(html);
}

fn stage_id(name: &str) -> &'static str {
    match name.trim() {
        n if n.starts_with("bare") => "floor",
        n if n.starts_with("lol_html rewriter") => "rewriter",
        n if n.starts_with("lol_html") => "shape",
        n if n.starts_with("full") => "full",
        n if n.starts_with("…") => "sentences",
        n if n.starts_with("pass 1") => "pass1",
        n if n.starts_with("select") => "select",
        n if n.starts_with("words") => "vocabulary",
        _ => "pass2",
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

struct Timing {
    name: &'static str,
    total: Duration,
    per_page: Vec<Duration>,
}

/// Whether a stage is to be timed (`TCX_BENCH_STAGES`).
fn wanted(stage: &str) -> bool {
    std::env::var("TCX_BENCH_STAGES")
        .map(|v| v.split(',').any(|s| s.trim() == stage))
        .unwrap_or(true)
}

fn time_stage(
    name: &'static str,
    pages: &[(PathBuf, String)],
    rounds: usize,
    f: impl Fn(&str),
) -> Timing {
    if !wanted(stage_id(name)) {
        return Timing {
            name,
            total: Duration::ZERO,
            per_page: vec![Duration::ZERO],
        };
    }
    let mut per_page = vec![Duration::MAX; pages.len()];
    let mut total = Duration::MAX;
    for _ in 0..rounds {
        let mut round = Duration::ZERO;
        for (i, (_, html)) in pages.iter().enumerate() {
            let t = Instant::now();
            f(html);
            let d = t.elapsed();
            round += d;
            per_page[i] = per_page[i].min(d);
        }
        total = total.min(round);
    }
    Timing {
        name,
        total,
        per_page,
    }
}

fn main() {
    let rounds: usize = std::env::var("TCX_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let (label, pages) = pages();
    let bytes: usize = pages.iter().map(|(_, h)| h.len()).sum();
    // A job with the default settings: no sentence splitting (the default Document carries
    // none), then the document type (part of building the Document).
    let settings = tcx::config::Settings::default();
    let job_opts = settings
        .analysis_options()
        .for_output(settings.output.options());
    let opts = AnalysisOptions::default();
    println!(
        "analysis bench: {} pages, {:.1} MB from {label}, best of {rounds} rounds, one thread",
        pages.len(),
        bytes as f64 / 1e6
    );

    let floor = time_stage("bare lol_html pass (floor)", &pages, rounds, bare_pass);
    let rewriter_shape = time_stage(
        "lol_html rewriter, empty element!(*)",
        &pages,
        rounds,
        rewriter_shape_pass,
    );
    let shape = time_stage(
        "lol_html start tags only (passes)",
        &pages,
        rounds,
        start_tags_shape_pass,
    );
    let full = time_stage("full analysis (default job)", &pages, rounds, |h| {
        if let Ok(a) = tcx_core::analyze(h, &job_opts) {
            let _ = Document::from_analysis(a, Source::default(), String::new());
        }
    });
    let full_sentences = time_stage("  … with sentences (analyze only)", &pages, rounds, |h| {
        let _ = tcx_core::analyze(h, &opts);
    });
    let pass1 = time_stage("  pass 1 (scan)", &pages, rounds, |h| {
        let _ = StyleStats::scan(h, &opts);
    });
    // Stages after pass 1 are timed on precomputed inputs.
    let after_pass1 = wanted("select") || wanted("pass2");
    let prepared: Vec<_> = pages
        .iter()
        .filter(|_| after_pass1)
        .map(|(_, h)| {
            let stats = StyleStats::scan(h, &opts).ok();
            let cand = stats.as_ref().and_then(|s| select(s, opts.threshold));
            (stats, cand)
        })
        .collect();
    let idx = std::cell::Cell::new(0usize);
    let select = time_stage("  select", &pages, rounds, |_| {
        let i = idx.get();
        idx.set((i + 1) % pages.len());
        if let Some(s) = &prepared[i].0 {
            let _ = select(s, opts.threshold);
        }
    });
    idx.set(0);
    let pass2 = time_stage(
        "  pass 2 + styles + blocks + sections",
        &pages,
        rounds,
        |h| {
            let i = idx.get();
            idx.set((i + 1) % pages.len());
            if let (Some(s), Some(c)) = &prepared[i]
                && let Ok(t) = ReducedTree::build(h, &c.ranges, &opts)
            {
                let styles = ComputedStyles::compute(&t, &s.stylesheets);
                let styles = without_sentence_breaking(&t, &styles);
                let b = blocks_with_styles(&t, &styles);
                let _ = sections_in(Some(&t), &b);
            }
        },
    );

    // The words of each Document's text that typing it and the legal verdict read.
    let sections: Vec<Vec<tcx_core::Section>> = pages
        .iter()
        .filter(|_| wanted("vocabulary"))
        .map(|(_, h)| {
            tcx_core::analyze(h, &job_opts)
                .map(|a| a.sections)
                .unwrap_or_default()
        })
        .collect();
    idx.set(0);
    let vocabulary = time_stage(
        "  words of the text (TextVocabulary)",
        &pages,
        rounds,
        |_| {
            let i = idx.get();
            idx.set((i + 1) % pages.len());
            let _ = tcx_core::TextVocabulary::of(&sections[i]);
        },
    );

    let mbps = |t: &Timing| bytes as f64 / 1e6 / t.total.as_secs_f64();
    println!(
        "{:<40} {:>10} {:>12} {:>10}",
        "stage", "MB/s", "median ms", "total ms"
    );
    for t in [
        &floor,
        &rewriter_shape,
        &shape,
        &full,
        &full_sentences,
        &pass1,
        &select,
        &pass2,
        &vocabulary,
    ] {
        if t.total.is_zero() {
            continue;
        }
        println!(
            "{:<40} {:>10.1} {:>12.3} {:>10.1}",
            t.name,
            mbps(t),
            median(t.per_page.clone()).as_secs_f64() * 1e3,
            t.total.as_secs_f64() * 1e3
        );
    }
    if !full.total.is_zero() && !floor.total.is_zero() {
        println!(
            "full analysis / floor time ratio: {:.2}x",
            full.total.as_secs_f64() / floor.total.as_secs_f64()
        );
    }
    if !wanted("memory") {
        return;
    }

    // Peak heap of one analysis relative to the page size.
    COUNTING.store(true, Ordering::Relaxed);
    let mut ratios: Vec<(f64, &Path, usize)> = pages
        .iter()
        .map(|(p, h)| {
            let base = LIVE.load(Ordering::Relaxed);
            PEAK.store(base, Ordering::Relaxed);
            let _ = tcx_core::analyze(h, &opts);
            let peak = PEAK.load(Ordering::Relaxed) - base;
            (peak as f64 / h.len().max(1) as f64, p.as_path(), h.len())
        })
        .collect();
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let big: Vec<&(f64, &Path, usize)> = ratios.iter().filter(|r| r.2 > 100_000).collect();
    println!(
        "pages > 100 kB above 10x: {}",
        big.iter().filter(|r| r.0 > 10.0).count()
    );
    let worst_big = big
        .last()
        .map(|r| (r.0, r.1.display().to_string()))
        .unwrap_or_default();
    let worst = &ratios[ratios.len() - 1];
    println!(
        "peak heap per analysis / page size: median {:.2}x, max {:.2}x ({}, {} bytes); pages > 100 kB: {}, max {:.2}x ({})",
        ratios[ratios.len() / 2].0,
        worst.0,
        worst.1.display(),
        worst.2,
        big.len(),
        worst_big.0,
        worst_big.1
    );
}
