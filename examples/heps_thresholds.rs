//! Tuning aid for the HEPS thresholds: HEPS alone on the content candidate of every page with
//! gold headings (Open Terms Archive and our hand-labelled German pages), mean heading F1 and
//! parent accuracy per threshold set. The figures behind `UPPER_HEADINGS_RATIO` come from here.
//!
//! ```sh
//! cargo run --release --features research --example heps_thresholds [CORPUS_DIR]
//! ```

use std::path::Path;

use tcx::eval::gold::{json_entries, load_gold, read_manifest};
use tcx::eval::measures::{HeadingNode, hierarchy_score};
use tcx::eval::{decode_page, read_page};
use tcx_core::AnalysisOptions;
use tcx_core::research::heps::{Heps, Thresholds, heps, page_heading};
use tcx_core::stages::{ComputedStyles, ReducedTree, StyleStats, select};

fn main() {
    let corpus_dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpus".into());
    let corpus = Path::new(&corpus_dir);
    let mut entries = read_manifest(&corpus.join("gold.tsv"), corpus).unwrap();
    entries.retain(|e| e.group.contains("opentermsarchive"));
    entries.extend(json_entries(Path::new("tests/gold"), corpus).unwrap());
    let options = AnalysisOptions::default();
    let mut pages = Vec::new();
    for e in &entries {
        let Ok(gold) = load_gold(e) else { continue };
        let Some(gold) = gold.headings else { continue };
        let Ok(bytes) = read_page(&e.html) else {
            continue;
        };
        let html = decode_page(&bytes);
        let Ok(stats) = StyleStats::scan(&html, &options) else {
            continue;
        };
        let Some(cand) = select(&stats, options.threshold) else {
            continue;
        };
        let Ok(mut t) = ReducedTree::build(&html, &cand.ranges, &options) else {
            continue;
        };
        if let Some(&first) = cand.elements.first() {
            t.ancestors = stats.ancestors(first);
        }
        let styles = ComputedStyles::compute(&t, &stats.stylesheets);
        let heading = page_heading(stats.title.as_deref(), None, "");
        pages.push((e.group.clone(), t, styles, heading, gold));
    }
    fn nodes(h: &Heps, block: usize) -> Vec<HeadingNode> {
        // Iterative: build children lists bottom-up in reverse creation order.
        let mut built: Vec<Option<HeadingNode>> = vec![None; h.blocks.len()];
        for b in (1..h.blocks.len()).rev() {
            let children = h.blocks[b]
                .children
                .iter()
                .filter_map(|&c| built[c].take())
                .collect();
            built[b] = Some(HeadingNode {
                title: h.heading_text(b).to_owned(),
                text: None,
                children,
            });
        }
        h.blocks[block]
            .children
            .iter()
            .filter_map(|&c| built[c].take())
            .collect()
    }
    let base = Thresholds::default();
    let sets = [
        ("paper", Thresholds::PAPER),
        ("reference", Thresholds::REFERENCE),
        ("tcx default", base),
        (
            "C2 0.35",
            Thresholds {
                empty: 0.35,
                ..base
            },
        ),
        (
            "C3 0.9",
            Thresholds {
                no_siblings: 0.9,
                ..base
            },
        ),
        (
            "C4 0.4",
            Thresholds {
                non_unique: 0.4,
                ..base
            },
        ),
        (
            "C5 0.5",
            Thresholds {
                too_much: 0.5,
                ..base
            },
        ),
        (
            "C1 0.2",
            Thresholds {
                upper_headings: 0.2,
                ..base
            },
        ),
        (
            "C1 0.3",
            Thresholds {
                upper_headings: 0.3,
                ..base
            },
        ),
        (
            "C1 0.5",
            Thresholds {
                upper_headings: 0.5,
                ..base
            },
        ),
    ];
    for (name, th) in sets {
        let mut sums: std::collections::BTreeMap<String, (f64, f64, usize, usize)> =
            Default::default();
        for (group, t, styles, heading, gold) in &pages {
            let h = heps(t, styles, heading, &th);
            let score = hierarchy_score(&nodes(&h, 0), gold);
            let e = sums.entry(group.clone()).or_default();
            e.0 += score.prf.f1;
            e.2 += 1;
            if let Some(p) = score.parent_accuracy {
                e.1 += p;
                e.3 += 1;
            }
        }
        for (group, (f1, parent, n, np)) in sums {
            println!(
                "{name:<12} {group:<26} pages {n:>3}  heading F1 {:.3}  parent {:.3}",
                f1 / n as f64,
                parent / np.max(1) as f64
            );
        }
    }
}
