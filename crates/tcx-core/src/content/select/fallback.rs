//! The fallback when no element reaches the threshold: the run of body children with the most
//! characters of the most common style.

use super::*;

/// The run of consecutive children of `root` holding the MCS with the most MCS characters.
/// Children without it (a heading, a link, a divider) and text directly in `root` (a paragraph
/// without a `<p>`) are bridged while they add up to at most
/// [`ExtensionLimits::max_gap_chars`] visible characters and the children on both sides are
/// themselves paragraphs of the MCS: a page whose clauses sit directly in `<body>` is one run,
/// not one paragraph, while two wrappers with something between them stay apart. The page
/// frame (`header`, `nav`, `aside`, `footer`) and longer gaps break a run; a run ends at its
/// last child holding the MCS. A run that is one wrapper is looked into (see
/// [`DESCEND_SHARE`]). When no child holds the MCS (its text sits directly in `root`), `root`
/// itself.
pub(super) fn fallback(
    stats: &StyleStats,
    children: &Children,
    root: ElementId,
    sums: &StyleSums,
    mcs: StyleId,
    total: f64,
    limits: &ExtensionLimits,
) -> Candidate {
    let mut level = children.of(root);
    let mut best = best_run(stats, level, sums, mcs, limits);
    // A run that is one wrapper (a page `div` around menu, text and footer) is looked into:
    // the run among its children stands for it when it keeps most of its MCS characters, so
    // the wrapper's own frame (a cookie bar, the navigation) stays out.
    while let Some((chars, run)) = &best
        && run.len() == 1
    {
        let wrapper = level[run.start];
        let inner = children.of(wrapper);
        match best_run(stats, inner, sums, mcs, limits) {
            Some((c, r)) if c as f64 >= DESCEND_SHARE * *chars as f64 && c > 0 => {
                level = inner;
                best = Some((c, r));
            }
            _ => break,
        }
    }
    match best {
        Some((chars, run)) if chars > 0 => {
            let elements: Vec<ElementId> = level[run].to_vec();
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

/// Share of a one-wrapper run's MCS characters the run inside it must keep to stand for it.
const DESCEND_SHARE: f64 = 0.8;

/// The run of `children` with the most MCS characters, and those characters.
fn best_run(
    stats: &StyleStats,
    children: &[ElementId],
    sums: &StyleSums,
    mcs: StyleId,
    limits: &ExtensionLimits,
) -> Option<(u64, Range<usize>)> {
    let mut best: Option<(u64, Range<usize>)> = None;
    let mut run_start: Option<usize> = None;
    let mut run_chars = 0u64;
    // Index after the run's last MCS child, and the visible characters bridged since then.
    let mut run_end = 0usize;
    let mut gap = 0u64;
    let mut gap_children = 0usize;
    // Whether the run's last MCS child is itself a paragraph of the MCS (not a wrapper).
    let mut last_is_paragraph = false;
    for (k, &c) in children.iter().enumerate() {
        let frame = is_page_frame(stats.tag_name(c));
        let flagged = sums.present[c as usize] && !frame;
        let paragraph = stats.elements[c as usize].style == mcs;
        if run_start.is_some() && stats.elements[c as usize].text_before {
            gap_children += 1;
        }
        if flagged {
            // Only paragraphs of the flow are joined across a gap: two wrappers with
            // something between them (a page and its hidden dialogs) are separate runs.
            let joins = gap_children == 0 || (paragraph && last_is_paragraph);
            if run_start.is_some() && (gap > limits.max_gap_chars || !joins) {
                close_run(&mut best, run_start.take(), run_end, run_chars);
            }
            last_is_paragraph = paragraph;
            if run_start.is_none() {
                run_start = Some(k);
                run_chars = 0;
            }
            run_chars += sums.chars[c as usize];
            run_end = k + 1;
            gap = 0;
            gap_children = 0;
        } else if run_start.is_some() {
            gap += sums.visible[c as usize];
            gap_children += 1;
            if frame || gap > limits.max_gap_chars {
                close_run(&mut best, run_start.take(), run_end, run_chars);
            }
        }
    }
    close_run(&mut best, run_start, run_end, run_chars);
    best
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
