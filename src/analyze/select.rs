//! Choosing the content candidate from pass-1 statistics: the most common style (MCS), the
//! lowest common ancestor (LCA) holding at least the threshold share of its characters, or
//! the fallback run of body children.

use std::ops::Range;

use super::ContentMethod;
use super::scan::{ElementId, StyleId, StyleStats};

/// The part of the page pass 2 re-reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// How it was chosen.
    pub method: ContentMethod,
    /// The chosen element(s), in document order.
    pub elements: Vec<ElementId>,
    /// Their byte ranges in the input, in document order, not overlapping.
    pub ranges: Vec<Range<usize>>,
    /// XPath-like location (an XPath union `a | b` for several elements).
    pub path: String,
    /// Share of the MCS characters inside the candidate.
    pub coverage: f64,
    /// The most common style.
    pub most_common_style: StyleId,
}

/// Per-element sums over subtrees for one style.
struct StyleSums {
    /// MCS characters in each element's subtree.
    chars: Vec<u64>,
    /// Whether an element of the MCS occurs in each element's subtree.
    present: Vec<bool>,
}

/// Picks the content candidate. `None` when the page has no visible text at all.
pub fn select(stats: &StyleStats, threshold: f64) -> Option<Candidate> {
    let root = stats.content_root;
    let in_root = subtree_mask(stats, root);
    let (mcs, total, use_all) = most_common_style(stats, &in_root)?;
    let sums = style_sums(stats, mcs, use_all);
    let total_f = total as f64;

    // LCA: the qualifying elements form a chain (threshold > 0.5), so the deepest wins.
    let mut best: Option<ElementId> = None;
    for (i, e) in stats.elements.iter().enumerate() {
        let id = i as ElementId;
        if id == root || !in_root[i] || !e.rendered {
            continue;
        }
        if sums.chars[i] as f64 >= threshold * total_f
            && best.is_none_or(|b| e.depth > stats.elements[b as usize].depth)
        {
            best = Some(id);
        }
    }
    if let Some(id) = best {
        let e = &stats.elements[id as usize];
        return Some(Candidate {
            method: ContentMethod::Lca,
            elements: vec![id],
            ranges: vec![e.range.clone()],
            path: stats.path(id),
            coverage: sums.chars[id as usize] as f64 / total_f,
            most_common_style: mcs,
        });
    }
    Some(fallback(stats, root, &sums, mcs, total_f))
}

/// The longest run of consecutive children of `root` holding the MCS, ranked by MCS
/// characters; whitespace between them is ignored, visible text directly in `root` breaks a
/// run. When no child holds the MCS (its text sits directly in `root`), `root` itself.
fn fallback(
    stats: &StyleStats,
    root: ElementId,
    sums: &StyleSums,
    mcs: StyleId,
    total: f64,
) -> Candidate {
    let children: Vec<ElementId> = stats
        .elements
        .iter()
        .enumerate()
        .filter(|(i, e)| *i != 0 && e.parent == root && e.rendered && *i as u32 != root)
        .map(|(i, _)| i as ElementId)
        .collect();
    let mut best: Option<(u64, Range<usize>)> = None;
    let mut run_start: Option<usize> = None;
    let mut run_chars = 0u64;
    for (k, &c) in children.iter().enumerate() {
        let rec = &stats.elements[c as usize];
        let flagged = sums.present[c as usize];
        if run_start.is_some() && (!flagged || rec.text_before) {
            close_run(&mut best, run_start.take(), k, run_chars);
        }
        if flagged {
            if run_start.is_none() {
                run_start = Some(k);
                run_chars = 0;
            }
            run_chars += sums.chars[c as usize];
        }
    }
    close_run(&mut best, run_start, children.len(), run_chars);
    match best {
        Some((chars, run)) if chars > 0 => {
            let elements: Vec<ElementId> = children[run].to_vec();
            let first = &stats.elements[elements[0] as usize];
            let last = &stats.elements[elements[elements.len() - 1] as usize];
            let path = elements
                .iter()
                .map(|&e| stats.path(e))
                .collect::<Vec<_>>()
                .join(" | ");
            Candidate {
                method: ContentMethod::Fallback,
                ranges: std::iter::once(first.range.start..last.range.end).collect(),
                elements,
                path,
                coverage: chars as f64 / total,
                most_common_style: mcs,
            }
        }
        _ => {
            let e = &stats.elements[root as usize];
            Candidate {
                method: ContentMethod::Fallback,
                elements: vec![root],
                ranges: vec![e.range.clone()],
                path: if root == 0 {
                    "/".to_owned()
                } else {
                    stats.path(root)
                },
                coverage: sums.chars[root as usize] as f64 / total,
                most_common_style: mcs,
            }
        }
    }
}

fn close_run(best: &mut Option<(u64, Range<usize>)>, start: Option<usize>, end: usize, chars: u64) {
    if let Some(s) = start
        && best.as_ref().is_none_or(|(c, _)| chars > *c)
    {
        *best = Some((chars, s..end));
    }
}

/// `mask[i]` is true when element `i` lies in the subtree of `root` (records are in document
/// order, so parents come before children).
fn subtree_mask(stats: &StyleStats, root: ElementId) -> Vec<bool> {
    let mut mask = vec![false; stats.elements.len()];
    for (i, e) in stats.elements.iter().enumerate() {
        mask[i] = i as ElementId == root || (i != 0 && mask[e.parent as usize]);
    }
    if root == 0 {
        mask.iter_mut().for_each(|m| *m = true);
    }
    mask
}

/// The style with the most counted characters under the content root: `(style, total,
/// counted_all_text)`. When no text node reaches the word minimum, all text counts.
fn most_common_style(stats: &StyleStats, in_root: &[bool]) -> Option<(StyleId, u64, bool)> {
    for use_all in [false, true] {
        let mut totals = vec![0u64; stats.style_keys.len()];
        for (i, e) in stats.elements.iter().enumerate() {
            if in_root[i] && e.rendered {
                let chars = if use_all {
                    e.all_chars
                } else {
                    e.counted_chars
                };
                totals[e.style as usize] += u64::from(chars);
            }
        }
        // Ties go to the style seen first (lowest id).
        let mut best: Option<(StyleId, u64)> = None;
        for (id, &t) in totals.iter().enumerate() {
            if t > 0 && best.is_none_or(|(_, b)| t > b) {
                best = Some((id as StyleId, t));
            }
        }
        if let Some((id, total)) = best {
            return Some((id, total, use_all));
        }
    }
    None
}

fn style_sums(stats: &StyleStats, mcs: StyleId, use_all: bool) -> StyleSums {
    let n = stats.elements.len();
    let mut chars = vec![0u64; n];
    let mut present = vec![false; n];
    for (i, e) in stats.elements.iter().enumerate() {
        if e.rendered && e.style == mcs && i != 0 {
            chars[i] = u64::from(if use_all {
                e.all_chars
            } else {
                e.counted_chars
            });
            present[i] = true;
        }
    }
    for i in (1..n).rev() {
        let p = stats.elements[i].parent as usize;
        if p != i {
            chars[p] += chars[i];
            present[p] |= present[i];
        }
    }
    StyleSums { chars, present }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::AnalysisOptions;

    fn candidate(html: &str, threshold: f64) -> (StyleStats, Candidate) {
        let stats = StyleStats::scan(html, &AnalysisOptions::default()).unwrap();
        let c = select(&stats, threshold).unwrap();
        (stats, c)
    }

    const P: &str = "<p>Lorem ipsum dolor sit amet consectetur adipiscing elit sed do.</p>";

    #[test]
    fn lca_is_the_deepest_element_over_the_threshold() {
        let html = format!(
            "<html><body><div><h1>Welcome to the shop</h1></div><div id=\"c\"><div>{P}{P}{P}</div></div><p>Thanks for visiting us</p></body></html>"
        );
        let (stats, c) = candidate(&html, 0.85);
        assert_eq!(c.method, ContentMethod::Lca);
        assert_eq!(c.path, "/html/body/div[2]/div");
        assert_eq!(stats.style_key(c.most_common_style), "p");
        assert!(c.coverage > 0.85 && c.coverage < 1.0, "{}", c.coverage);
        assert!(html[c.ranges[0].clone()].starts_with("<div><p>"));
    }

    #[test]
    fn threshold_is_inclusive() {
        // Exactly 3 of 4 equal paragraphs inside the div: coverage 0.75.
        let html = format!("<body><div>{P}{P}{P}</div>{P}</body>");
        let (_, c) = candidate(&html, 0.75);
        assert_eq!(c.method, ContentMethod::Lca);
        assert_eq!(c.coverage, 0.75);
        let (_, c) = candidate(&html, 0.76);
        assert_eq!(c.method, ContentMethod::Fallback);
    }

    #[test]
    fn fallback_takes_the_richest_run_ignoring_whitespace() {
        let html = format!(
            "<body>\n<nav><a>Home</a></nav>\n{P}\n<div>menu</div>\n{P}\n{P}\n{P}\n<footer>(c) 2024 Shop GmbH</footer>\n</body>"
        );
        let (_, c) = candidate(&html, 0.85);
        assert_eq!(c.method, ContentMethod::Fallback);
        assert_eq!(c.elements.len(), 3);
        assert_eq!(
            c.path,
            "/html/body/p[2] | /html/body/p[3] | /html/body/p[4]".replace("/html", "")
        );
        assert!((c.coverage - 0.75).abs() < 1e-9);
    }

    #[test]
    fn visible_text_between_children_breaks_a_run() {
        let html = format!("<body>{P}{P} some loose words here {P}</body>");
        let (_, c) = candidate(&html, 0.9);
        assert_eq!(c.method, ContentMethod::Fallback);
        assert_eq!(c.elements.len(), 2);
    }

    #[test]
    fn text_directly_in_body_selects_the_body() {
        let (_, c) = candidate(
            "<html><body>Just text in the body with many words<br>and more words in here</body></html>",
            0.85,
        );
        assert_eq!(c.path, "/html/body");
        assert_eq!(c.method, ContentMethod::Fallback);
    }

    #[test]
    fn no_text_gives_none_and_short_text_still_counts() {
        let stats =
            StyleStats::scan("<body><div></div></body>", &AnalysisOptions::default()).unwrap();
        assert!(select(&stats, 0.85).is_none());
        let (_, c) = candidate(
            "<body><nav>Home</nav><div><p>Hallo Welt</p></div></body>",
            0.85,
        );
        assert_eq!(c.path, "/html/body/div/p".replace("/html", ""));
    }
}
