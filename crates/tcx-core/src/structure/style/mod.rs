//! Static computed style of the reduced tree, without a browser.
//!
//! The cascade is a small approximation of CSS: a user-agent default sheet (heading sizes and
//! weights, `b`/`strong`/`th` bold, `i`/`em` italic, `u`/`ins`/`a[href]` underlined, `small`,
//! `big`, `<font size color face>` …), then the page's `<style>` rules parsed with
//! [`simplecss`] (type, `.class`, `#id`, compound, descendant, child and sibling selectors; rules
//! with selectors it cannot parse are skipped, `@media` blocks are ignored), then the inline
//! `style=` attribute; `!important` declarations win over normal ones. Font size, weight, style,
//! colour and family inherit; underline propagates to descendants as it does when rendered.
//! Relative sizes (`em`, `rem`, `%`, `smaller`/`larger`, keywords) resolve against the parent.
//!
//! The reduced tree holds only the content candidate; its enclosing elements on the page
//! ([`ReducedTree::ancestors`], outermost first) take part in selector matching (`.content h2`
//! matches when `.content` sits above the candidate) and pass their own computed style down to
//! the candidate (`<body style="font-size: 14px">`). When they are unknown (an empty list),
//! two stand-ins `body` and `html` are used for matching.

mod cascade;
mod defaults;
mod selectors;
mod values;
use cascade::*;
use defaults::*;
use selectors::*;
use values::*;

use std::collections::HashMap;

use crate::parse::tree::{NodeId, ReducedTree};

/// Default font size of the root, px.
pub const ROOT_FONT_SIZE: f32 = 16.0;

/// Ancestors a descendant selector may look at (bounds matching on very deep trees).
const MAX_ANCESTOR_HOPS: u16 = 64;

/// Font sizes closer than this (px) to the largest of their tier are one size when heading
/// levels are ranked ([`size_tiers`]).
pub const SAME_SIZE_PX: f32 = 1.0;

/// The tier of each of `sizes` (0 the largest): sorted from the largest down, a size starts a
/// new tier when it is at least [`SAME_SIZE_PX`] below the largest size of the current one.
/// Why: only the page's inline `<style>` is read, not its linked sheets, so a heading size may
/// be the page's own next to a user-agent default (`.policy h2 { font-size: 18px }` beside
/// the default `h3` of 18.72 px); so small a difference says nothing: within a tier weight,
/// underline and italics, then the tags' order decide, and the exact size only after them.
pub fn size_tiers(sizes: &[f32]) -> Vec<usize> {
    let mut sorted: Vec<f32> = sizes.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let mut tops: Vec<f32> = Vec::new();
    for &s in &sorted {
        if tops.last().is_none_or(|&top| s <= top - SAME_SIZE_PX) {
            tops.push(s);
        }
    }
    sizes
        .iter()
        .map(|&s| {
            tops.iter()
                .position(|&top| s > top - SAME_SIZE_PX)
                .unwrap_or(0)
        })
        .collect()
}

/// The computed style of a node: what makes text look different.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Font size in px.
    pub size: f32,
    /// Font weight, 100–900 (400 normal, 700 bold).
    pub weight: u16,
    /// `font-style: italic` or `oblique`.
    pub italic: bool,
    /// Underlined (by `text-decoration` on the node or an ancestor).
    pub underline: bool,
    /// Colour as `0xRRGGBB`.
    pub color: u32,
    /// Index of the first font family in [`ComputedStyles::families`] (0 = unspecified).
    pub family: u32,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            size: ROOT_FONT_SIZE,
            weight: 400,
            italic: false,
            underline: false,
            color: 0,
            family: 0,
        }
    }
}

impl Style {
    /// Font size rounded to 1/100 px, for equality and hashing.
    fn size_key(&self) -> i32 {
        (self.size * 100.0).round() as i32
    }

    /// Whether the style is bold (weight 600 or more).
    pub fn is_bold(&self) -> bool {
        self.weight >= 600
    }

    /// Whether text in this style stands out from body text in `body`: larger, heavier, or
    /// underlined. Family, colour and italics alone do not count.
    pub fn more_prominent_than(&self, body: &Style) -> bool {
        (self.underline && !body.underline)
            || self.weight > body.weight
            || self.size > body.size + 0.25
    }

    /// Whether two styles look alike for the prominence-relevant properties (size, weight,
    /// underline).
    pub fn same_emphasis(&self, other: &Style) -> bool {
        self.size_key() == other.size_key()
            && self.weight == other.weight
            && self.underline == other.underline
    }
}

impl PartialEq for Style {
    fn eq(&self, other: &Self) -> bool {
        self.size_key() == other.size_key()
            && self.weight == other.weight
            && self.italic == other.italic
            && self.underline == other.underline
            && self.color == other.color
            && self.family == other.family
    }
}

impl Eq for Style {}

impl std::hash::Hash for Style {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.size_key().hash(state);
        self.weight.hash(state);
        self.italic.hash(state);
        self.underline.hash(state);
        self.color.hash(state);
        self.family.hash(state);
    }
}

/// The computed style of every node of a [`ReducedTree`] (text nodes carry their parent's).
#[derive(Debug, Clone, Default)]
pub struct ComputedStyles {
    /// Style by [`NodeId`].
    pub styles: Vec<Style>,
    /// Interned lower-case font family names; index 0 is the empty (unspecified) family.
    #[cfg_attr(not(test), allow(dead_code))] // the names, for tests and debugging
    pub families: Vec<String>,
}

impl ComputedStyles {
    /// Computes the styles of `tree` with the UA sheet, the given `<style>` sheet texts and
    /// inline styles. Iterative: parents precede children in the node table.
    pub fn compute(tree: &ReducedTree, sheets: &[String]) -> ComputedStyles {
        let present = selector_keys(tree);
        let rules = cascade::applicable_rules(sheets, &present);
        let cascade = Cascade::new(&rules);
        let mut families = vec![String::new()];
        let mut family_ids: HashMap<String, u32> = HashMap::new();
        let n = tree.nodes.len();
        let mut styles = vec![Style::default(); n];
        let prev = if cascade.needs_siblings {
            previous_element_siblings(tree)
        } else {
            Vec::new()
        };
        let ctx = MatchContext { tree, prev: &prev };
        let mut matched: Vec<usize> = Vec::new();
        let mut intern = |f: String| -> u32 {
            let next = families.len() as u32;
            *family_ids.entry(f.clone()).or_insert_with(|| {
                families.push(f);
                next
            })
        };
        // The enclosing elements first: their style is what the candidate inherits.
        let mut above = Style::default();
        let mut names_above = AncestorFilter::default();
        for i in 0..tree.ancestors.len() {
            let el = El::Ancestor(i as u16);
            let (s, family) = cascade.element_style(&ctx, el, &names_above, &above, &mut matched);
            above = s;
            if let Some(f) = family {
                above.family = intern(f);
            }
            let a = &tree.ancestors[i];
            names_above.add_element(&a.tag, a.attribute("class"), a.attribute("id"));
        }
        if tree.ancestors.is_empty() {
            // The stand-ins matched when the enclosing elements are unknown.
            names_above.add_element("body", None, None);
            names_above.add_element("html", None, None);
        }
        if let Some(root) = styles.first_mut() {
            *root = above;
        }
        // Per node: the names of its ancestors and its own (for its children).
        let mut names = vec![names_above; if cascade.rules.is_empty() { 0 } else { n }];
        for id in 1..n {
            let node = &tree.nodes[id];
            let parent = styles
                .get(node.parent as usize)
                .copied()
                .unwrap_or_default();
            if node.tag().is_none() {
                styles[id] = parent;
                continue;
            }
            let el = El::Node {
                id: id as NodeId,
                hops: 0,
            };
            let parent_names = names
                .get(node.parent as usize)
                .copied()
                .unwrap_or(names_above);
            let (mut s, family) =
                cascade.element_style(&ctx, el, &parent_names, &parent, &mut matched);
            if let Some(f) = family {
                s.family = intern(f);
            }
            styles[id] = s;
            if let (Some(own), Some(tag)) = (names.get_mut(id), node.tag()) {
                *own = parent_names;
                own.add_element(tag, node.attribute("class"), node.attribute("id"));
            }
        }
        ComputedStyles { styles, families }
    }

    /// The style of a node (the default style for ids out of range).
    pub fn get(&self, id: NodeId) -> Style {
        self.styles.get(id as usize).copied().unwrap_or_default()
    }
}

/// The tags, classes and ids of the tree's elements and of the candidate's enclosing
/// elements (or the stand-ins `body` and `html`).
fn selector_keys(tree: &ReducedTree) -> SelectorKeys<'_> {
    let mut present = SelectorKeys::default();
    for node in &tree.nodes {
        if let Some(tag) = node.tag() {
            present.add(tag, node.attribute("class"), node.attribute("id"));
        }
    }
    for a in &tree.ancestors {
        present.add(&a.tag, a.attribute("class"), a.attribute("id"));
    }
    // The stand-ins matched when the enclosing elements are unknown.
    present.add("body", None, None);
    present.add("html", None, None);
    present
}

#[cfg(test)]
mod tests;
