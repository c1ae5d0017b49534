//! The most common style of a subtree and the per-element sums of its characters.

use super::*;

/// `mask[i]` is true when element `i` lies in the subtree of `root` (records are in document
/// order, so parents come before children).
pub(super) fn subtree_mask(stats: &StyleStats, root: ElementId) -> Vec<bool> {
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
pub(super) fn most_common_style(
    stats: &StyleStats,
    in_root: &[bool],
) -> Option<(StyleId, u64, bool)> {
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

pub(super) fn style_sums(stats: &StyleStats, mcs: StyleId, use_all: bool) -> StyleSums {
    let n = stats.elements.len();
    let mut chars = vec![0u64; n];
    let mut present = vec![false; n];
    let mut visible = vec![0u64; n];
    let mut links = vec![0u64; n];
    let mut prose = vec![0u64; n];
    let mut heading = vec![false; n];
    for (i, e) in stats.elements.iter().enumerate() {
        if !e.rendered || i == 0 {
            continue;
        }
        if e.style == mcs {
            chars[i] = u64::from(if use_all {
                e.all_chars
            } else {
                e.counted_chars
            });
            present[i] = true;
        }
        visible[i] = u64::from(e.all_chars);
        prose[i] = u64::from(e.counted_chars);
        if e.in_link {
            links[i] = visible[i];
        }
        heading[i] = is_heading_tag(stats.tag_name(i as ElementId));
    }
    for i in (1..n).rev() {
        let p = stats.elements[i].parent as usize;
        if p != i && stats.elements[i].rendered {
            chars[p] += chars[i];
            present[p] |= present[i];
            visible[p] += visible[i];
            links[p] += links[i];
            prose[p] += prose[i];
            heading[p] |= heading[i];
        }
    }
    StyleSums {
        chars,
        present,
        visible,
        links,
        prose,
        heading,
        parents: stats.elements.iter().map(|e| e.parent).collect(),
        text_before: stats.elements.iter().map(|e| e.text_before).collect(),
    }
}

impl StyleSums {
    pub(super) fn parent_of(&self, id: ElementId) -> ElementId {
        self.parents[id as usize]
    }

    pub(super) fn text_before(&self, id: ElementId) -> bool {
        self.text_before[id as usize]
    }
}
