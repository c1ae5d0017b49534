//! Throughput of the text layer: sentence segmentation and tokenisation, single-threaded,
//! in MB/s of input text.
//!
//! `cargo bench --bench text` (reads the Claudette ToS texts of ../shared/corpus when present,
//! else the hand-written sentences of tests/text). `TCX_BENCH_ROUNDS` sets the timed rounds
//! (default 3).

use std::path::Path;
use std::time::{Duration, Instant};

use tcx_core::stages::sentences;
use tcx_core::tokenize;

/// Blocks (non-empty lines) of the input texts with their language.
fn blocks() -> (String, Vec<(&'static str, String)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let claudette = root.join("../shared/corpus/raw/claudette-multilingual-tos/original_text");
    let mut out = Vec::new();
    let label = if claudette.is_dir() {
        for lang in ["de", "en"] {
            let mut files: Vec<_> = std::fs::read_dir(claudette.join(lang))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .collect();
            files.sort();
            for f in files {
                if let Ok(text) = std::fs::read_to_string(&f) {
                    out.extend(
                        text.lines()
                            .filter(|l| !l.trim().is_empty())
                            .map(|l| (lang, l.trim().to_owned())),
                    );
                }
            }
        }
        "claudette-multilingual-tos"
    } else {
        for lang in ["de", "en"] {
            let text = std::fs::read_to_string(root.join(format!("tests/text/{lang}.txt")))
                .unwrap_or_default();
            out.extend(
                text.lines()
                    .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                    .map(|l| (lang, l.replace(" || ", " "))),
            );
        }
        "tests/text"
    };
    (label.to_owned(), out)
}

fn best_of(rounds: usize, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut n = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        n = std::hint::black_box(f());
        best = best.min(t.elapsed());
    }
    (best, n)
}

fn main() {
    let rounds: usize = std::env::var("TCX_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let (label, blocks) = blocks();
    let bytes: usize = blocks.iter().map(|(_, b)| b.len()).sum();
    let mb = bytes as f64 / 1e6;
    println!(
        "text bench: {label}, {} blocks, {mb:.2} MB, best of {rounds}",
        blocks.len()
    );
    let (t, n) = best_of(rounds, || {
        blocks
            .iter()
            .map(|(lang, b)| sentences::split(b, lang).len())
            .sum()
    });
    println!(
        "  segmentation:            {n:>8} sentences  {:>8.2?}  {:>7.2} MB/s",
        t,
        mb / t.as_secs_f64()
    );
    let all: Vec<String> = blocks
        .iter()
        .flat_map(|(lang, b)| sentences::split(b, lang))
        .collect();
    let (t, n) = best_of(rounds, || all.iter().map(|s| tokenize(s).len()).sum());
    println!(
        "  tokenisation:            {n:>8} tokens     {:>8.2?}  {:>7.2} MB/s",
        t,
        mb / t.as_secs_f64()
    );
    let (t, n) = best_of(rounds, || {
        blocks
            .iter()
            .flat_map(|(lang, b)| sentences::split(b, lang))
            .map(|s| tokenize(&s).len())
            .sum()
    });
    println!(
        "  segmentation + tokens:   {n:>8} tokens     {:>8.2?}  {:>7.2} MB/s",
        t,
        mb / t.as_secs_f64()
    );
}
