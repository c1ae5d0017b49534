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

/// The most common style: the style with the most counted characters under the content root,
/// page frame and code left out ([`crate::parse::scan::is_frame_or_code`]) — unless what is
/// left is less than [`MIN_BODY_SHARE`] of what the frame's best style has (a legal text
/// that is itself one `<pre>`, or sits in an `<aside>`): then the frame counts as well.
/// Returns the style, its total, whether all text counted (no text node reaches the word
/// minimum) and whether the frame was left out.
pub(super) fn most_common_style(stats: &StyleStats, in_root: &[bool]) -> Option<MostCommonStyle> {
    for use_all in [false, true] {
        let mut body = vec![0u64; stats.style_keys.len()];
        let mut all = vec![0u64; stats.style_keys.len()];
        for (i, e) in stats.elements.iter().enumerate() {
            if in_root[i] && e.rendered {
                let chars = u64::from(if use_all {
                    e.all_chars
                } else {
                    e.counted_chars
                });
                all[e.style as usize] += chars;
                if !e.in_frame {
                    body[e.style as usize] += chars;
                }
            }
        }
        let (Some(best_all), best_body) = (best_style(&all), best_style(&body)) else {
            continue;
        };
        let (style, total, without_frame) = match best_body {
            Some((id, t)) if t as f64 >= MIN_BODY_SHARE * best_all.1 as f64 => (id, t, true),
            _ => (best_all.0, best_all.1, false),
        };
        return Some(MostCommonStyle {
            style,
            total,
            use_all,
            without_frame,
        });
    }
    None
}

/// Least share of the frame's best style total the rest of the page must reach for the
/// frame to be left out.
const MIN_BODY_SHARE: f64 = 0.25;

/// The most common style and how it was counted.
#[derive(Debug, Clone, Copy)]
pub(super) struct MostCommonStyle {
    pub(super) style: StyleId,
    pub(super) total: u64,
    /// No text node reached the word minimum: all text counted.
    pub(super) use_all: bool,
    /// Page frame and code were left out.
    pub(super) without_frame: bool,
}

/// The style with the largest total; ties go to the style seen first (lowest id).
fn best_style(totals: &[u64]) -> Option<(StyleId, u64)> {
    let mut best: Option<(StyleId, u64)> = None;
    for (id, &t) in totals.iter().enumerate() {
        if t > 0 && best.is_none_or(|(_, b)| t > b) {
            best = Some((id as StyleId, t));
        }
    }
    best
}

pub(super) fn style_sums(stats: &StyleStats, found: &MostCommonStyle) -> StyleSums {
    let (mcs, use_all) = (found.style, found.use_all);
    let n = stats.elements.len();
    let mut chars = vec![0u64; n];
    let mut present = vec![false; n];
    let mut visible = vec![0u64; n];
    let mut links = vec![0u64; n];
    let mut prose = vec![0u64; n];
    let mut heading = vec![false; n];
    let mut frame = vec![false; n];
    for (i, e) in stats.elements.iter().enumerate() {
        if !e.rendered || i == 0 {
            continue;
        }
        if e.style == mcs && !(found.without_frame && e.in_frame) {
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
        frame[i] = e.in_frame || is_page_frame(stats.tag_name(i as ElementId));
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
            frame[p] |= frame[i];
        }
    }
    StyleSums {
        chars,
        present,
        visible,
        links,
        prose,
        heading,
        frame,
        parents: stats.elements.iter().map(|e| e.parent).collect(),
        text_before: stats.elements.iter().map(|e| e.text_before).collect(),
        without_frame: found.without_frame,
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
