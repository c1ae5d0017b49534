//! Every page of the shared corpus (when present) is analysed without panic or error.

use std::path::{Path, PathBuf};
use std::time::Instant;

use tcx::{AnalysisOptions, analyze};
use tcx_core::stages::{ReducedTree, StyleStats, select};

/// The shared real-page corpus: `$TCX_CORPUS`, else `../shared/corpus` beside the repository.
/// `None` when it is absent — unless `TCX_REQUIRE_CORPUS=1` (as `.ci/run` sets it), where a
/// missing corpus fails the test instead of skipping it.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("TCX_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if dir.join("gold.tsv").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var("TCX_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "TCX_REQUIRE_CORPUS=1 but the corpus is missing at {} (set TCX_CORPUS)",
        dir.display()
    );
    eprintln!("note: corpus absent at {}: test skipped", dir.display());
    None
}

/// All `.html` and `.html.gz` files below `dir`, sorted.
pub fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let name = p.to_string_lossy();
                if name.ends_with(".html") || name.ends_with(".htm") || name.ends_with(".html.gz") {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_page_is_analysed() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let files = html_files(&dir.join("raw"));
    assert!(!files.is_empty());
    let options = AnalysisOptions::default();
    let started = Instant::now();
    let mut bytes = 0usize;
    let mut failures = Vec::new();
    for path in &files {
        let raw = tcx::source::read_file(path, tcx::source::DEFAULT_MAX_INPUT_BYTES)
            .expect("readable corpus file");
        let page = tcx::source::page_from_bytes(&raw, path.display().to_string());
        bytes += page.html.len();
        match analyze(&page.html, &options) {
            Ok(a) => assert!(!a.text.is_empty(), "{}: empty text", path.display()),
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    eprintln!(
        "corpus: {} pages, {:.1} MB in {:.2?} (debug build)",
        files.len(),
        bytes as f64 / 1e6,
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Result size with the default output (issue 14): at the median and the 95th percentile of
/// the corpus pages, a result message is at most 1.5× its extracted text plus 4 KB.
#[test]
fn default_results_stay_near_the_size_of_their_text() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let options = AnalysisOptions::default();
    let mut ratios = Vec::new();
    let mut full_ratios = Vec::new();
    for path in html_files(&dir.join("raw")) {
        let raw = tcx::source::read_file(&path, tcx::source::DEFAULT_MAX_INPUT_BYTES).unwrap();
        let page = tcx::source::page_from_bytes(&raw, path.display().to_string());
        let Ok(a) = analyze(&page.html, &options) else {
            continue;
        };
        let text = a.text.len().max(1) as f64;
        let doc = tcx::Document::from_analysis(a, page.source("t".into()), "t".into());
        let size = |d: &tcx::Document| {
            let m = tcx::job::ResultMessage::for_job(d.clone(), 1, &tcx::job::Job::new("j", "u"));
            serde_json::to_vec(&m).unwrap().len() as f64
        };
        let default = doc.clone().with_output(tcx_core::OutputOptions::default());
        assert!(default.text.is_empty());
        ratios.push((size(&default) - 4096.0) / text);
        full_ratios.push(size(&doc) / text);
    }
    let at = |v: &mut Vec<f64>, q: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * q).round() as usize]
    };
    let (median, p95) = (at(&mut ratios, 0.5), at(&mut ratios, 0.95));
    eprintln!(
        "result size over {} pages: default (size - 4 KB) / text median {median:.2}, p95 \
         {p95:.2}; with text and sentences size / text median {:.2}, p95 {:.2}",
        ratios.len(),
        at(&mut full_ratios, 0.5),
        at(&mut full_ratios, 0.95)
    );
    assert!(
        median <= 1.5 && p95 <= 1.5,
        "median {median:.2}, p95 {p95:.2}"
    );
}

#[test]
fn both_passes_read_the_text_between_tags_as_lol_html_does() {
    // With the whole page at hand pass 1 (and pass 2) read text from the page between the tags lol_html
    // reports; given in chunks it takes lol_html's text handler. Both must give the same
    // statistics on every real page (scripts, comments, stray end tags, raw-text elements).
    let Some(dir) = corpus_dir() else {
        return;
    };
    let mut files = html_files(&dir.join("raw"));
    files.extend(html_files(&dir.join("legal")));
    let options = AnalysisOptions::default();
    let mut differ = Vec::new();
    let mut repaired = Vec::new();
    for path in &files {
        let raw = tcx::source::read_file(path, tcx::source::DEFAULT_MAX_INPUT_BYTES)
            .expect("readable corpus file");
        let page = tcx::source::page_from_bytes(&raw, path.display().to_string());
        let html = page.html.as_str();
        let whole = StyleStats::scan(html, &options);
        // Misnested end tags are read by the browser's rules from the page, by lol_html's
        // pairing from chunks: only well-nested pages read alike.
        if whole.as_ref().is_ok_and(|s| s.repaired_end_tags > 0) {
            repaired.push(path.display().to_string());
            continue;
        }
        let chunks: Vec<&[u8]> = html.as_bytes().chunks(4096).collect();
        let chunked = StyleStats::scan_chunks(chunks, html.len(), &options);
        if whole.as_ref().ok() != chunked.as_ref().ok() {
            differ.push(format!("pass 1: {}", path.display()));
        }
        // Pass 2 over the chosen content reads its text the same way.
        let Some(candidate) = whole.ok().and_then(|s| select(&s, options.threshold)) else {
            continue;
        };
        let from_page = ReducedTree::build(html, &candidate.ranges, &options);
        let from_handler = ReducedTree::build_with_text_handler(html, &candidate.ranges, &options);
        if from_page.ok() != from_handler.ok() {
            differ.push(format!("pass 2: {}", path.display()));
        }
    }
    assert!(files.len() > 800, "{} pages", files.len());
    // Most real pages nest their end tags as lol_html pairs them.
    assert!(
        repaired.len() * 5 < files.len(),
        "{} pages misnest: {repaired:?}",
        repaired.len()
    );
    assert!(
        differ.is_empty(),
        "{} of {} pages differ:\n{}",
        differ.len(),
        files.len(),
        differ.join("\n")
    );
}
