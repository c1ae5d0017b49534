//! Choosing the content candidate from pass-1 statistics: the most common style (MCS), the
//! lowest common ancestor (LCA) holding at least the threshold share of its characters, or
//! the fallback run of body children.

mod closing;
mod extend;
mod fallback;
mod lead_in;
mod statistics;
use closing::*;
use extend::*;
use fallback::*;
use lead_in::*;
use statistics::*;

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
    /// Closing lines added after the content (a contact paragraph after the last section).
    pub closing_elements: usize,
    /// The next-best candidate: the fallback's run for an LCA choice, the element with the
    /// most MCS characters for a fallback choice.
    pub runner_up: Option<crate::model::RunnerUp>,
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
            closing_elements: 0,
            runner_up: None,
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
    /// Whether the subtree holds page frame (`header`, `nav`, `aside`, `footer`, landmarks)
    /// or code, or lies inside it.
    frame: Vec<bool>,
    /// Parent of each element.
    parents: Vec<ElementId>,
    /// Whether visible text stands between an element and its previous sibling.
    text_before: Vec<bool>,
    /// Page frame and code were left out of the most common style: they are frame for the
    /// extensions too.
    without_frame: bool,
}

/// Picks the content candidate. `None` when the page has no visible text at all.
#[cfg(any(test, feature = "test-api"))]
pub fn select(stats: &StyleStats, threshold: f64) -> Option<Candidate> {
    select_in(stats, "", threshold)
}

/// [`select`] with the page itself, whose short lines before the content are read to
/// recognise a title without a heading tag or a date line (see `lead_in`).
pub fn select_in(stats: &StyleStats, page: &str, threshold: f64) -> Option<Candidate> {
    let root = stats.content_root;
    let in_root = subtree_mask(stats, root);
    let found = most_common_style(stats, &in_root)?;
    let (mcs, total) = (found.style, found.total);
    let sums = style_sums(stats, &found);
    let total_f = total as f64;

    // LCA: the qualifying elements form a chain (threshold > 0.5), so the deepest wins.
    let mut best = deepest_over(stats, &sums, root, threshold * total_f);
    // A page's `<main>` holds its dominant content: when the LCA is wider (a site wrapper
    // whose header or off-canvas panels carry the same paragraph style), look inside `main`.
    let mut ceiling = root;
    if let Some(b) = best
        && let Some(main) = main_inside(stats, &sums, &in_root, b)
    {
        let main_chars = sums.chars[main as usize] as f64;
        best = Some(deepest_over(stats, &sums, main, threshold * main_chars).unwrap_or(main));
        ceiling = sums.parent_of(main);
    }
    let limits = ExtensionLimits::default();
    let children = Children::new(stats, &in_root);
    let best = best
        .map(|b| paragraph_container(stats, &sums, root, b, &limits))
        .map(|b| climb_over_split_content(&sums, &children, ceiling, b, &limits));
    let mut candidate = match best {
        Some(id) => Candidate::element(stats, ContentMethod::Lca, id, &sums, mcs, total_f),
        None => fallback(stats, &children, root, &sums, mcs, total_f, &limits),
    };
    if candidate.elements != [root] {
        if candidate.method == ContentMethod::Lca {
            extend_siblings(&mut candidate, stats, &children, &sums, total, &limits);
        }
        // The closing lines first: a candidate that then reaches its container's end may
        // climb to find its title (a title box beside the text's box).
        add_closing(
            &mut candidate,
            (stats, page),
            &children,
            &sums,
            root,
            &limits,
        );
        add_lead_in(&mut candidate, stats, page, &children, &sums, root, &limits);
        candidate.ranges = ranges_of(stats, &candidate.elements);
        candidate.coverage = candidate
            .elements
            .iter()
            .map(|&e| sums.chars[e as usize])
            .sum::<u64>() as f64
            / total_f;
    }
    candidate.runner_up = runner_up(
        stats,
        &children,
        &candidate,
        (&sums, root, mcs, total_f),
        &limits,
    );
    candidate.path = if candidate.elements == [0] {
        "/".to_owned()
    } else {
        stats.union_path(&candidate.elements)
    };
    Some(candidate)
}

/// The candidate the step ranks second (see [`Candidate::runner_up`]).
fn runner_up(
    stats: &StyleStats,
    children: &Children,
    chosen: &Candidate,
    (sums, root, mcs, total): (&StyleSums, ElementId, StyleId, f64),
    limits: &ExtensionLimits,
) -> Option<crate::model::RunnerUp> {
    let (method, elements, coverage) = match chosen.method {
        ContentMethod::Lca => {
            let run = fallback(stats, children, root, sums, mcs, total, limits);
            (ContentMethod::Fallback, run.elements, run.coverage)
        }
        ContentMethod::Fallback => {
            // The element that comes closest to holding the threshold share.
            let best = descendants(stats, root)
                .filter(|&(i, _)| i != root as usize)
                .max_by_key(|&(i, e)| (sums.chars[i], e.depth))
                .map(|(i, _)| i as ElementId)?;
            let coverage = sums.chars[best as usize] as f64 / total;
            (ContentMethod::Lca, vec![best], coverage)
        }
    };
    if elements.is_empty() || elements == chosen.elements || coverage <= 0.0 {
        return None;
    }
    Some(crate::model::RunnerUp {
        method,
        path: stats.union_path(&elements),
        coverage: (coverage * 1000.0).round() / 1000.0,
    })
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

/// How many levels above the LCA [`climb_over_split_content`] looks.
const MAX_CLIMB_LEVELS: usize = 4;

/// The LCA holds the threshold share of the most common style, not all of it: the rest may be
/// the document's own opening in a container beside it (a title box with the introduction and
/// first clauses above a table), one or more levels up. An ancestor (below `ceiling`, holding
/// no page frame) is taken when what it adds is mostly prose and hardly links, and at least
/// half of the main-style text it adds comes before the LCA (the missing opening; a tail of
/// that style after the document is what wrappers add: comments, related posts — closing
/// lines are [`add_closing`]'s). The highest such ancestor within [`MAX_CLIMB_LEVELS`] wins,
/// the lowest of those adding the same.
fn climb_over_split_content(
    sums: &StyleSums,
    children: &Children,
    ceiling: ElementId,
    lca: ElementId,
    limits: &ExtensionLimits,
) -> ElementId {
    let l = lca as usize;
    let (mut best, mut best_added) = (lca, 0);
    let mut cur = lca;
    // MCS characters the ancestors add before the LCA's start.
    let mut before = 0u64;
    for _ in 0..MAX_CLIMB_LEVELS {
        let parent = sums.parent_of(cur);
        let p = parent as usize;
        if parent == ceiling || parent == 0 || cur == 0 || sums.frame[p] {
            break;
        }
        before += children
            .of(parent)
            .iter()
            .take_while(|&&c| c != cur)
            .map(|&c| sums.chars[c as usize])
            .sum::<u64>();
        let added = sums.visible[p].saturating_sub(sums.visible[l]);
        let added_mcs = sums.chars[p].saturating_sub(sums.chars[l]);
        let added_links = sums.links[p].saturating_sub(sums.links[l]);
        let added_prose = sums.prose[p].saturating_sub(sums.prose[l]);
        if added_mcs > 0
            && before * 2 >= added_mcs
            && added > best_added
            && added_prose * 3 >= added * 2
            && added_links as f64 <= limits.max_link_share * added as f64
        {
            best = parent;
            best_added = added;
        }
        cur = parent;
    }
    best
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

#[cfg(test)]
mod tests;
