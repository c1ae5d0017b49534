//! The closing lines just after the content: a "Questions? Contact …" paragraph, a
//! representative's address, a "Last updated" line standing after the last section in the
//! same container.

use super::*;

/// Most visible characters the closing lines may add, as a share of the candidate's own
/// text …
const MAX_CLOSING_SHARE: f64 = 0.15;
/// … but always this many.
const MIN_CLOSING_CHARS: u64 = 400;

/// Adds the siblings after the candidate's last element when they are all that is left of
/// their container — the run reaches its last child, so nothing of another kind (a comment
/// box, related articles) follows inside it — and read like the document's closing lines:
/// no page frame or form, few links, short next to the content. At the level of the content
/// root's children nothing is added (those are the site's frame).
pub(super) fn add_closing(
    candidate: &mut Candidate,
    stats: &StyleStats,
    children: &Children,
    sums: &StyleSums,
    root: ElementId,
    limits: &ExtensionLimits,
) {
    let Some(&last) = candidate.elements.last() else {
        return;
    };
    let parent = sums.parent_of(last);
    if parent == 0 || parent == root {
        return;
    }
    let siblings = children.of(parent);
    let Some(pos) = siblings.iter().position(|&c| c == last) else {
        return;
    };
    let after = &siblings[pos + 1..];
    if after.is_empty() {
        return;
    }
    let own: u64 = candidate
        .elements
        .iter()
        .map(|&c| sums.visible[c as usize])
        .sum();
    let budget = ((MAX_CLOSING_SHARE * own as f64) as u64).max(MIN_CLOSING_CHARS);
    let mut used = 0u64;
    for &c in after {
        let i = c as usize;
        let tag = stats.tag_name(c);
        let frame = is_page_frame(tag)
            || matches!(tag, "form" | "button" | "iframe")
            || (sums.without_frame && stats.elements[i].in_frame);
        let visible = sums.visible[i];
        let linky = sums.links[i] as f64 > limits.max_link_share * visible.max(1) as f64;
        if frame || linky || sums.text_before(c) {
            return;
        }
        used += visible;
        if used > budget {
            return;
        }
    }
    if used == 0 {
        return;
    }
    candidate.elements.extend_from_slice(after);
    candidate.closing_elements += after.len();
}
