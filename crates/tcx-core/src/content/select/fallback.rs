//! The fallback when no element reaches the threshold: the run of body children with the most
//! characters of the most common style.

use super::*;

/// The longest run of consecutive children of `root` holding the MCS, ranked by MCS
/// characters; whitespace between them is ignored, visible text directly in `root` and the
/// page frame (`header`, `nav`, `aside`, `footer`) break a run. When no child holds the MCS
/// (its text sits directly in `root`), `root` itself.
pub(super) fn fallback(
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
        let flagged = sums.present[c as usize] && !is_page_frame(stats.tag_name(c));
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
            Candidate {
                method: ContentMethod::Fallback,
                ranges: std::iter::once(first.range.start..last.range.end).collect(),
                elements,
                path: String::new(),
                coverage: chars as f64 / total,
                most_common_style: mcs,
                extended_siblings: 0,
                lead_in_elements: 0,
                closing_elements: 0,
                runner_up: None,
            }
        }
        _ => Candidate::element(stats, ContentMethod::Fallback, root, sums, mcs, total),
    }
}

pub(super) fn close_run(
    best: &mut Option<(u64, Range<usize>)>,
    start: Option<usize>,
    end: usize,
    chars: u64,
) {
    if let Some(s) = start
        && best.as_ref().is_none_or(|(c, _)| chars > *c)
    {
        *best = Some((chars, s..end));
    }
}
