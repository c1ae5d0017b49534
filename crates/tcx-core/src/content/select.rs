//! Choosing the content candidate from pass-1 statistics: the most common style (MCS), the
//! lowest common ancestor (LCA) holding at least the threshold share of its characters, or
//! the fallback run of body children.

use std::ops::Range;

use crate::model::ContentMethod;
use crate::parse::scan::{ElementId, ElementRecord, StyleId, StyleStats};

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
    /// Siblings holding the most common style added next to the LCA (split content).
    pub extended_siblings: usize,
    /// Title or introduction elements added before the content (a heading or a short
    /// lead-in that sits just outside the LCA).
    pub lead_in_elements: usize,
}

impl Candidate {
    /// A candidate of one element (its path is filled in at the end of [`select`]).
    fn element(
        stats: &StyleStats,
        method: ContentMethod,
        id: ElementId,
        sums: &StyleSums,
        mcs: StyleId,
        total: f64,
    ) -> Candidate {
        Candidate {
            method,
            elements: vec![id],
            ranges: vec![stats.elements[id as usize].range.clone()],
            path: String::new(),
            coverage: sums.chars[id as usize] as f64 / total,
            most_common_style: mcs,
            extended_siblings: 0,
            lead_in_elements: 0,
        }
    }
}

/// How far the content step may reach beyond the LCA. [`Default`] gives the documented
/// defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExtensionLimits {
    /// A sibling is added when it holds at least this share of the MCS characters.
    pub min_sibling_share: f64,
    /// Siblings without MCS text between added siblings (headings, dividers) are bridged
    /// up to this many visible characters each.
    pub max_gap_chars: u64,
    /// A lead-in (title, date line) before the content may have at most this many visible
    /// characters in all, unless it is prose.
    pub max_lead_in_chars: u64,
    /// A preceding sibling counts as an introduction in prose when at least this share of its
    /// text stands in text nodes long enough to count, and at most `max_link_share` is links.
    pub min_prose_share: f64,
    /// A sibling without the MCS is added when its prose is at least this share of the
    /// LCA's text …
    pub min_prose_sibling_share: f64,
    /// … and at least this many characters.
    pub min_prose_sibling_chars: u64,
    /// Most link text a lead-in element may have, as a share of its text.
    pub max_link_share: f64,
    /// An introduction in prose may add at most this share of the candidate's own text.
    pub max_intro_share: f64,
}

impl Default for ExtensionLimits {
    fn default() -> Self {
        ExtensionLimits {
            min_sibling_share: 0.05,
            max_gap_chars: 400,
            max_lead_in_chars: 600,
            min_prose_share: 0.6,
            max_link_share: 0.3,
            min_prose_sibling_share: 0.2,
            min_prose_sibling_chars: 150,
            max_intro_share: 0.5,
        }
    }
}

/// Per-element sums over subtrees.
struct StyleSums {
    /// MCS characters in each element's subtree.
    chars: Vec<u64>,
    /// Whether an element of the MCS occurs in each element's subtree.
    present: Vec<bool>,
    /// Visible characters (all text) in each element's subtree.
    visible: Vec<u64>,
    /// Visible characters inside links in each element's subtree.
    links: Vec<u64>,
    /// Characters of text nodes long enough to count (any style) in each subtree: prose.
    prose: Vec<u64>,
    /// Whether the subtree holds a heading element (`h1`–`h6`).
    heading: Vec<bool>,
    /// Parent of each element.
    parents: Vec<ElementId>,
    /// Whether visible text stands between an element and its previous sibling.
    text_before: Vec<bool>,
}

/// Picks the content candidate. `None` when the page has no visible text at all.
pub fn select(stats: &StyleStats, threshold: f64) -> Option<Candidate> {
    let root = stats.content_root;
    let in_root = subtree_mask(stats, root);
    let (mcs, total, use_all) = most_common_style(stats, &in_root)?;
    let sums = style_sums(stats, mcs, use_all);
    let total_f = total as f64;

    // LCA: the qualifying elements form a chain (threshold > 0.5), so the deepest wins.
    let mut best = deepest_over(stats, &sums, root, threshold * total_f);
    // A page's `<main>` holds its dominant content: when the LCA is wider (a site wrapper
    // whose header or off-canvas panels carry the same paragraph style), look inside `main`.
    if let Some(b) = best
        && let Some(main) = main_inside(stats, &sums, &in_root, b)
    {
        let main_chars = sums.chars[main as usize] as f64;
        best = Some(deepest_over(stats, &sums, main, threshold * main_chars).unwrap_or(main));
    }
    let limits = ExtensionLimits::default();
    let best = best.map(|b| paragraph_container(stats, &sums, root, b, &limits));
    let mut candidate = match best {
        Some(id) => Candidate::element(stats, ContentMethod::Lca, id, &sums, mcs, total_f),
        None => fallback(stats, root, &sums, mcs, total_f),
    };
    if candidate.elements != [root] {
        let children = Children::new(stats, &in_root);
        if candidate.method == ContentMethod::Lca {
            extend_siblings(&mut candidate, stats, &children, &sums, total, &limits);
        }
        add_lead_in(&mut candidate, stats, &children, &sums, root, &limits);
        candidate.ranges = ranges_of(stats, &candidate.elements);
        candidate.coverage = candidate
            .elements
            .iter()
            .map(|&e| sums.chars[e as usize])
            .sum::<u64>() as f64
            / total_f;
    }
    candidate.path = if candidate.elements == [0] {
        "/".to_owned()
    } else {
        stats.union_path(&candidate.elements)
    };
    Some(candidate)
}

/// The `<main>` element strictly inside `lca` that holds most of its MCS characters (at
/// least half), if any.
fn main_inside(
    stats: &StyleStats,
    sums: &StyleSums,
    in_root: &[bool],
    lca: ElementId,
) -> Option<ElementId> {
    let lca_depth = stats.elements[lca as usize].depth;
    let main = stats
        .elements
        .iter()
        .enumerate()
        .filter(|(i, e)| in_root[*i] && e.rendered && stats.tag_name(*i as ElementId) == "main")
        .max_by_key(|(i, _)| sums.chars[*i])
        .map(|(i, _)| i as ElementId)?;
    let inside = {
        let mut cur = main;
        while stats.elements[cur as usize].depth > lca_depth {
            cur = sums.parent_of(cur);
        }
        cur == lca && main != lca
    };
    (inside && sums.chars[main as usize] * 2 >= sums.chars[lca as usize]).then_some(main)
}

/// The deepest element strictly inside `top` holding at least `min` MCS characters (the
/// first in document order at that depth).
fn deepest_over(
    stats: &StyleStats,
    sums: &StyleSums,
    top: ElementId,
    min: f64,
) -> Option<ElementId> {
    let mut best: Option<ElementId> = None;
    for (i, e) in descendants(stats, top) {
        if sums.chars[i] as f64 >= min
            && best.is_none_or(|b| e.depth > stats.elements[b as usize].depth)
        {
            best = Some(i as ElementId);
        }
    }
    best
}

/// A single paragraph is never the whole content: when the LCA is one `<p>`, its container
/// is (the title, the labels and the closing line around it), unless the container holds
/// much more text or is made of links.
fn paragraph_container(
    stats: &StyleStats,
    sums: &StyleSums,
    root: ElementId,
    lca: ElementId,
    limits: &ExtensionLimits,
) -> ElementId {
    if stats.tag_name(lca) != "p" {
        return lca;
    }
    let parent = sums.parent_of(lca);
    let (p, l) = (parent as usize, lca as usize);
    let extra = sums.visible[p].saturating_sub(sums.visible[l]);
    let extra_links = sums.links[p].saturating_sub(sums.links[l]);
    let small_container =
        extra * 2 <= sums.visible[l] && extra_links as f64 <= limits.max_link_share * extra as f64;
    if parent != root && parent != 0 && small_container {
        parent
    } else {
        lca
    }
}

/// The rendered elements in the subtree of `id`, `id` excluded. Records are in document
/// order, so the subtree is the run of following records deeper than `id`.
fn descendants(stats: &StyleStats, id: ElementId) -> impl Iterator<Item = (usize, &ElementRecord)> {
    let depth = stats
        .elements
        .get(id as usize)
        .map_or(u32::MAX, |e| e.depth);
    stats
        .elements
        .iter()
        .enumerate()
        .skip(id as usize + 1)
        .take_while(move |(_, e)| e.depth > depth)
        .filter(|(_, e)| e.rendered)
}

/// Header, navigation, sidebars and footer: the page's frame around its content.
fn is_page_frame(tag: &str) -> bool {
    matches!(tag, "header" | "nav" | "aside" | "footer")
}

fn is_heading_tag(tag: &str) -> bool {
    matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// Byte ranges of candidate elements: one range per run of siblings (a heading taken from a
/// title box stands alone).
fn ranges_of(stats: &StyleStats, elements: &[ElementId]) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut prev_parent = None;
    for &id in elements {
        let e = &stats.elements[id as usize];
        match ranges.last_mut() {
            Some(r) if prev_parent == Some(e.parent) => r.end = e.range.end,
            _ => ranges.push(e.range.clone()),
        }
        prev_parent = Some(e.parent);
    }
    ranges
}

/// Element children per element (rendered elements under the content root), in order.
struct Children {
    start: Vec<usize>,
    list: Vec<ElementId>,
}

impl Children {
    fn new(stats: &StyleStats, in_root: &[bool]) -> Children {
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

    fn of(&self, id: ElementId) -> &[ElementId] {
        let i = id as usize;
        &self.list[self.start[i]..self.start[i + 1]]
    }
}

/// Split content: adds the siblings of the LCA that hold a real share of the MCS (or, when
/// the MCS lies all inside the LCA, prose of their own: clauses continued in a list),
/// bridging short siblings without it (a heading between two clause containers), stopping at
/// visible text between siblings and at the site frame (`nav`, `aside`, `footer`, `header`,
/// `form`).
fn extend_siblings(
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
        is_page_frame(tag) || tag == "form"
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

/// Titles sit just outside the LCA surprisingly often (`<h1>` in a box of its own before
/// the text box). Adds the preceding siblings that form a short lead-in holding a heading.
/// When the candidate is all of its parent, the search continues one level up (without
/// changing the candidate unless a lead-in is found there). Never at the level of the
/// content root's children: those are the site's frame (header, navigation).
fn add_lead_in(
    candidate: &mut Candidate,
    stats: &StyleStats,
    children: &Children,
    sums: &StyleSums,
    root: ElementId,
    limits: &ExtensionLimits,
) {
    let mut budget = limits.max_lead_in_chars;
    // The elements standing for the candidate at the current level.
    let mut current = candidate.elements.clone();
    loop {
        let Some(&first) = current.first() else {
            return;
        };
        let parent = sums.parent_of(first);
        if parent == 0 {
            return;
        }
        let siblings = children.of(parent);
        let Some(pos) = siblings.iter().position(|&c| c == first) else {
            return;
        };
        if parent == root {
            // The body's children are the site's frame: only a box holding nothing but a
            // heading that names the document ("AGB", "Privacy Policy") just before the
            // content is its title.
            if let Some(title) = document_title_box(stats, sums, siblings, pos, limits) {
                candidate.elements.insert(0, title);
                candidate.lead_in_elements += 1;
            }
            return;
        }
        // Preceding siblings that are either short (a title, a date line: the run must hold
        // a heading) or an introduction in prose; never link lists.
        let own: u64 = current.iter().map(|&c| sums.visible[c as usize]).sum();
        let mut start = pos;
        let mut used = 0u64;
        let mut intro = 0u64;
        let mut best_start = pos;
        let mut deep_heading = None;
        while start > 0 && !sums.text_before(siblings[start]) {
            let c = siblings[start - 1];
            let i = c as usize;
            let visible = sums.visible[i].max(1);
            let linky = sums.links[i] as f64 > limits.max_link_share * visible as f64;
            if linky || stats.tag_name(c) == "nav" {
                // A title box that also holds links (a language menu): take its heading, or
                // the title line standing before the menu, only.
                if stats.tag_name(c) != "nav" {
                    deep_heading = title_in(stats, sums, c)
                        .filter(|&h| sums.visible[h as usize] <= limits.max_lead_in_chars);
                    if deep_heading.is_some() {
                        best_start = start;
                    }
                }
                break;
            }
            let prose = sums.prose[i] as f64 >= limits.min_prose_share * visible as f64;
            if prose && (intro + visible) as f64 <= limits.max_intro_share * own as f64 {
                intro += visible;
                start -= 1;
                best_start = start;
                continue;
            }
            if used + visible > budget {
                break;
            }
            used += visible;
            start -= 1;
            if sums.heading[i] {
                best_start = start;
            }
        }
        if best_start < pos || deep_heading.is_some() {
            let lead_in = &siblings[best_start..pos];
            budget = budget.saturating_sub(used);
            // New lead-in elements go before those found further down; the content itself
            // stays as chosen (a climbed-to parent may hold a side menu).
            let mut elements: Vec<ElementId> = deep_heading.into_iter().collect();
            elements.extend_from_slice(lead_in);
            let found = elements.len();
            elements.extend_from_slice(&candidate.elements);
            candidate.lead_in_elements += found;
            candidate.elements = elements;
            if deep_heading.is_some() {
                return;
            }
            let mut climbed = lead_in.to_vec();
            climbed.extend_from_slice(&current);
            current = climbed;
        }
        // Climb while the candidate is (nearly) all of its parent's text.
        let mine: u64 = current.iter().map(|&c| sums.visible[c as usize]).sum();
        let covers_parent = mine as f64 >= 0.9 * sums.visible[parent as usize] as f64;
        if !covers_parent || budget == 0 || matches!(stats.tag_name(parent), "main" | "article") {
            return;
        }
        current = vec![parent];
    }
}

/// The sibling just before `siblings[pos]` when it holds only a heading naming a legal
/// document.
fn document_title_box(
    stats: &StyleStats,
    sums: &StyleSums,
    siblings: &[ElementId],
    pos: usize,
    limits: &ExtensionLimits,
) -> Option<ElementId> {
    if pos == 0 || sums.text_before(siblings[pos]) {
        return None;
    }
    let c = siblings[pos - 1];
    let i = c as usize;
    if !sums.heading[i] || sums.links[i] > 0 || sums.visible[i] > limits.max_lead_in_chars {
        return None;
    }
    let heading = title_in(stats, sums, c)?;
    let text = stats
        .heading_texts
        .iter()
        .find(|(id, _)| *id == heading)
        .map(|(_, t)| t.as_str())?;
    // Nothing but the heading: its characters are all the box's characters.
    let alone = sums.visible[heading as usize] == sums.visible[i];
    (alone && crate::structure::hierarchy::names_a_document(text)).then_some(c)
}

/// The title of a title box that also holds a menu: its first `h1`–`h6` element, else the
/// first line of text when it comes before any link and is short (an eyebrow such as
/// "TERMS OF SERVICE" beside a language menu).
fn title_in(stats: &StyleStats, sums: &StyleSums, id: ElementId) -> Option<ElementId> {
    if sums.heading[id as usize] {
        return descendants(stats, id)
            .find(|(i, e)| !e.in_link && is_heading_tag(stats.tag_name(*i as ElementId)))
            .map(|(i, _)| i as ElementId);
    }
    let (i, first) = descendants(stats, id).find(|(_, e)| e.all_chars > 0)?;
    let leaf_text = sums.visible[i] == u64::from(first.all_chars);
    (!first.in_link && leaf_text && first.all_chars <= TITLE_LINE_MAX_CHARS)
        .then_some(i as ElementId)
}

/// Longest title line taken from a title box without a heading element.
const TITLE_LINE_MAX_CHARS: u32 = 80;

/// The longest run of consecutive children of `root` holding the MCS, ranked by MCS
/// characters; whitespace between them is ignored, visible text directly in `root` and the
/// page frame (`header`, `nav`, `aside`, `footer`) break a run. When no child holds the MCS
/// (its text sits directly in `root`), `root` itself.
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
            }
        }
        _ => Candidate::element(stats, ContentMethod::Fallback, root, sums, mcs, total),
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
    fn parent_of(&self, id: ElementId) -> ElementId {
        self.parents[id as usize]
    }

    fn text_before(&self, id: ElementId) -> bool {
        self.text_before[id as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnalysisOptions;

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
        // The LCA holds 0.75; the paragraph beside it holds a real share and is added.
        assert_eq!(c.extended_siblings, 1);
        assert_eq!(c.coverage, 1.0);
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
    fn the_page_footer_is_not_part_of_the_fallback_run() {
        let html = format!(
            "<body>\n<header><a href=/>Home</a></header>\n<main>{P}{P}{P}{P}</main>\n<footer>{P}{P}</footer>\n</body>"
        );
        let (_, c) = candidate(&html, 0.9);
        assert_eq!(c.method, ContentMethod::Fallback);
        assert_eq!(c.path, "/body/main");
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
        // The paragraph brings its container (the div holds nothing else).
        assert_eq!(c.path, "/html/body/div".replace("/html", ""));
    }
}
