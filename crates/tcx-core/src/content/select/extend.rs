//! Split content: siblings of the LCA that continue the document (a second container, a
//! second document after the first).

use super::*;

/// Element children per element (rendered elements under the content root), in order.
pub(super) struct Children {
    pub(super) start: Vec<usize>,
    pub(super) list: Vec<ElementId>,
}

impl Children {
    pub(super) fn new(stats: &StyleStats, in_root: &[bool]) -> Children {
        let n = stats.elements.len();
        let mut count = vec![0usize; n + 1];
        for (i, e) in stats.elements.iter().enumerate().skip(1) {
            if in_root[i] && e.rendered {
                count[e.parent as usize + 1] += 1;
            }
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut list = vec![0; count[n]];
        for (i, e) in stats.elements.iter().enumerate().skip(1) {
            if in_root[i] && e.rendered {
                let slot = &mut fill[e.parent as usize];
                list[*slot] = i as ElementId;
                *slot += 1;
            }
        }
        Children { start: count, list }
    }

    pub(super) fn of(&self, id: ElementId) -> &[ElementId] {
        let i = id as usize;
        &self.list[self.start[i]..self.start[i + 1]]
    }
}

/// Split content: adds the siblings of the LCA that hold a real share of the MCS (or, when
/// the MCS lies all inside the LCA, prose of their own: clauses continued in a list),
/// bridging short siblings without it (a heading between two clause containers), stopping at
/// visible text between siblings and at the site frame (`nav`, `aside`, `footer`, `header`,
/// `form`, and — when the most common style was counted without them — ARIA landmarks and
/// preformatted or code text).
pub(super) fn extend_siblings(
    candidate: &mut Candidate,
    stats: &StyleStats,
    children: &Children,
    sums: &StyleSums,
    total: u64,
    limits: &ExtensionLimits,
) {
    let Some(&first) = candidate.elements.first() else {
        return;
    };
    let parent = sums.parent_of(first);
    let siblings = children.of(parent);
    let Some(pos) = siblings.iter().position(|&c| c == first) else {
        return;
    };
    let own = sums.visible[first as usize];
    let min_chars = (limits.min_sibling_share * total as f64).ceil() as u64;
    let frame = |c: ElementId| {
        let tag = stats.tag_name(c);
        is_page_frame(tag)
            || tag == "form"
            || (sums.without_frame && stats.elements[c as usize].in_frame)
    };
    let qualifies = |c: ElementId| {
        let i = c as usize;
        if frame(c) {
            return false;
        }
        if sums.chars[i] >= min_chars.max(1) {
            return true;
        }
        // Prose of another style: long text nodes, few links, a fifth of the LCA's text.
        let visible = sums.visible[i].max(1) as f64;
        let prose = sums.prose[i] as f64;
        prose >= limits.min_prose_share * visible
            && (sums.links[i] as f64) <= limits.max_link_share * visible
            && prose >= limits.min_prose_sibling_share * own as f64
            && sums.prose[i] >= limits.min_prose_sibling_chars
    };
    // Short siblings are bridged whether or not they hold a little MCS text (a one-line
    // paragraph or a heading between two clause containers).
    let bridgeable = |c: ElementId| !frame(c) && sums.visible[c as usize] <= limits.max_gap_chars;
    // Rightwards.
    let mut end = pos + 1;
    let mut probe = end;
    while probe < siblings.len() && !sums.text_before(siblings[probe]) {
        let c = siblings[probe];
        if qualifies(c) {
            end = probe + 1;
        } else if !bridgeable(c) {
            break;
        }
        probe += 1;
    }
    // Leftwards.
    let mut start = pos;
    let mut probe = pos;
    while probe > 0 && !sums.text_before(siblings[probe]) {
        let c = siblings[probe - 1];
        if qualifies(c) {
            start = probe - 1;
        } else if !bridgeable(c) {
            break;
        }
        probe -= 1;
    }
    let added = (end - start).saturating_sub(candidate.elements.len());
    if added > 0 {
        candidate.elements = siblings[start..end].to_vec();
        candidate.extended_siblings += added;
    }
}
