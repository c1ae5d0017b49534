//! The section tree: visual headings (the paper's Algorithm 1 with our fixes, see
//! `docs/algorithms.md#headings-and-the-section-tree`),
//! heading tags, enumerations, lists and several documents per page.
//!
//! 0. **HEPS preprocessing** (before the blocks, [`super::heps::without_sentence_breaking`]):
//!    an inline element between two text nodes breaks a sentence; it and every element of its
//!    style key become body text when most elements of that key do so.
//! 1. **Body style** = the style with the most characters in blocks of at least four words.
//! 2. **Headline candidates** are blocks in a more prominent style (larger, heavier,
//!    underlined), at most [`MAX_VISUAL_WORDS`] words, uniformly styled (bold words inside a
//!    sentence never make a heading), not link-only, not a sentence, not starting in lower
//!    case, not a `(1)` clause, not a list item or table cell; plus blocks inside `h1`–`h6` of
//!    at most [`MAX_TAG_WORDS`] words (longer text in a heading tag is a paragraph unless its
//!    number is one of a sequence, as on pages that set every clause in a heading tag; heading
//!    tags that are the whole of their list items, three or more in a row, are a list of
//!    titles, not headings). A heading tag's level is its tag and size (emphasis inside it
//!    does not split the level). Candidate styles without heading tags must occur at least
//!    twice, not produce empty sections for half of them and not repeat the same text (the
//!    HEPS set filters C2–C4), and, with the reduced tree ([`sections_in`]), must not have
//!    front nodes holding upper-level headings (HEPS C1, [`includes_upper_headings`]); a
//!    single candidate immediately followed by another of its style heads nothing and is
//!    dropped (unless it is a numbered title of a sequence followed by unnumbered titles).
//!    Untagged styles count only on pages with fewer than [`MIN_TAG_HEADINGS`] tag headings
//!    (a title repeated right after itself counts once), or none after the content's first
//!    text (titles that only open the page): where the author used heading tags for the
//!    sections, bold is emphasis.
//! 3. **Levels** are ordered by prominence: size, weight, underline, italics, the heading tag
//!    level, then document order. Algorithm 1's recursive split is the stack walk below: a
//!    heading closes every open section of its level or a less prominent one.
//! 4. **Enumerations** refine levels: within one visual level, `1.1` nests under `1.`, a new
//!    enumeration class nests under the open one, a class seen before the open one closes
//!    back to it (`§ 3` after the `1)` steps of `§ 2`), and numbered and unnumbered headings
//!    are siblings — except that unnumbered headings between two consecutive numbers of one
//!    level (`9.`, "Dauer der Vereinbarung", …, `10.`) belong to the number before them (the
//!    one-pattern-per-level rule (`docs/algorithms.md#one-pattern-per-level`), with our fixes: the empty pattern does not
//!    compete, steps are checked per level, nothing after the last number is demoted).
//!    Short numbered blocks in body style whose enumeration is confirmed by a sequence become
//!    titles below every visual level, unless the heading tags themselves are numbered (then
//!    untagged `3.1 …` lines are clauses of the tagged sections); long numbered clauses and
//!    `(1) …` paragraphs stay paragraphs. A heading holding nothing but a list (a table of
//!    contents) does not take such titles as its sections. Tables of contents (runs of short
//!    numbered or link-only blocks whose entries reappear later) are plain text and do not
//!    count for sequences.
//! 5. **Lists:** the first block of each `<li>` starts an untitled item subsection (nested by
//!    list depth); text after a list continues in an untitled subsection of the same parent.
//!    An item's first block is the item's *title* when it is wholly bold on a page that tags
//!    fewer than [`MIN_TAG_HEADINGS`] headings, short, not a sentence, and followed by prose
//!    in the same item.
//! 6. **Documents:** headings named like a document of their own (AGB, Kundeninformationen,
//!    Widerrufsbelehrung, Muster-Widerrufsformular, Datenschutzerklärung, Terms and
//!    Conditions, Privacy Policy …; never an Arabic-numbered section title such as
//!    "8. Datenschutz") are put on the level of the first such title, so they are siblings;
//!    untagged ones count only when the page names at least two kinds of document ("AGB" and
//!    "AGB der Muster GmbH" are one kind; the second is the first one's own heading). The
//!    headings of a document's level that follow a document title belong to it, unless both
//!    are heading tags of one level.
//! 7. **A title printed twice in a row** (two headings of the same text with nothing between,
//!    a theme's entry title over the document's own) is one title: the second copy is text.
//!    **The leading `h1`:** on a page naming at most one kind of document, a single `h1` that is
//!    the content's first heading is the root over every later heading, even one drawn larger
//!    (our computed sizes lack the site's own style sheet; the markup names the title).
//! 8. **Plain title lines:** on a page with at most one heading of a visual level, unnumbered
//!    lines set like the text that read as titles — at most six words, a capital first, no
//!    digits, links or sentence and label punctuation, after a finished sentence and before
//!    prose — head sections below every visual level, when there are at least two of distinct
//!    texts and they are not interface labels ("Advertisement", "Read more"). Where the author
//!    drew headings, plain lines are text.
//!
//! **Order of evidence** when rules conflict (earlier wins): (1) markup that is never a
//! heading — list items (but a lone ordered item is a numbered line, not a list: see
//! `blocks`), table cells, tables of contents, `(1)` clauses, sentences (but not numbered
//! questions), link-only lines; (2) heading tags over emphasis (untagged styles only on pages
//! with fewer than [`MIN_TAG_HEADINGS`] tag headings); (3) the HEPS set filters and C1 on
//! untagged styles;
//! (4) prominence (size, weight, underline, italics, tag level) for levels, except that a single
//! leading `h1` outranks the sizes of later headings; (5) enumeration
//! sequences for nesting within a level and for numbered titles in body style; (6) the
//! document-title vocabulary, which only places titles already visible as headings (or short
//! uniform paragraphs on pages naming two kinds of document) on one level — never a title that
//! looks like the first document's own sections (the heading look of the first non-document
//! heading after that document's title, and less prominent than the title): visual evidence
//! outranks the vocabulary, which only breaks ties.
//!
//! Code map: `roles` (phases 1–4 and the documents, over one `Candidates` struct),
//! `enumerations` (prefixes over the page, tables of contents), `documents` (the vocabulary),
//! `builder` (the stack walk that nests the sections).

mod builder;
mod documents;
mod enumerations;
mod plain_titles;
mod roles;
mod sequence;

use builder::*;
pub use documents::names_a_document;

use documents::*;

use enumerations::*;
use plain_titles::*;

use roles::*;
use sequence::*;

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

use super::blocks::{Block, BlockKind};
use super::enumeration::{Decoration, EnumClass, Enumeration, NumberKind};
use super::heps::{UPPER_HEADINGS_RATIO, front_nodes_by, subtree_ends};
use super::style::{Style, size_tiers};
use crate::model::Section;
use crate::parse::tree::{NodeId, ReducedTree};

/// Longest block (in words) that counts as a numbered title rather than a numbered clause.
const MAX_TITLE_WORDS: usize = 12;
/// Longest numbered question that is a title: privacy policies ask their sections at length
/// ("3. How Do We and Our Third Party Service Providers Share Your Personal Information With
/// Others?"); a question is no clause of the text before it.
const MAX_QUESTION_TITLE_WORDS: usize = 20;
/// Longest block (in words) that counts as a visual headline (Algorithm 1).
pub const MAX_VISUAL_WORDS: usize = 10;
/// Longest text (in words) in a heading tag that still counts as a heading.
pub const MAX_TAG_WORDS: usize = 25;
/// With this many heading-tag headings, untagged prominent styles are not headings.
pub const MIN_TAG_HEADINGS: usize = 2;
/// Shortest run of entries that can be a table of contents.
const MIN_TOC_RUN: usize = 3;
/// Rank of numbered titles in body style: below every visual level.
const BODY_RANK: u32 = u32::MAX;

/// What a block is in the tree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Role {
    /// A heading of a visual level (0 = most prominent), with its enumeration class.
    Heading {
        /// Visual level, lower is more prominent.
        rank: u32,
        /// Enumeration class of its prefix, for nesting within the level.
        class: Option<EnumClass>,
        /// The title of a whole document (AGB, Widerrufsbelehrung …): the headings of its
        /// level that follow belong to it, up to the next document title.
        document: bool,
    },
    /// A short numbered block in body style, confirmed by a sequence: a title below every
    /// visual level.
    NumberedTitle(EnumClass),
    /// The first block of a list item.
    Item,
    /// Body text (including long numbered clauses and tables of contents).
    Text,
}

/// Key of a group of headline candidates: blocks of one look and one heading tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct GroupKey {
    /// The look (for heading tags: only size and the tag's bold).
    style: Style,
    /// The heading tag's level, 1–6; 0 for blocks outside heading tags.
    tag_level: u8,
}

impl GroupKey {
    /// Whether the group's blocks are inside heading tags.
    fn is_tagged(self) -> bool {
        self.tag_level > 0
    }
}

#[cfg(test)]
/// Builds the section tree of the blocks (without the reduced tree: no HEPS C1 check).
pub fn sections(blocks: &[Block]) -> Vec<Section> {
    sections_in(None, blocks)
}

/// Builds the section tree of the blocks of `tree`.
pub fn sections_in(tree: Option<&ReducedTree>, blocks: &[Block]) -> Vec<Section> {
    let roles = roles_in(tree, blocks);
    let anchors = sequence_anchors(blocks, &roles);
    // Where the author tagged the section headings, bold is emphasis (as for the untagged
    // headline styles): a bold item line is then the item's text, not its title.
    let tagged_headings = blocks
        .iter()
        .zip(&roles)
        .filter(|(b, r)| {
            matches!(r, Role::Heading { .. }) && matches!(b.kind, BlockKind::Heading(_))
        })
        .count();
    let bold_titles = tagged_headings < MIN_TAG_HEADINGS;
    let mut tree = TreeBuilder::default();
    for (i, (block, role)) in blocks.iter().zip(&roles).enumerate() {
        let number = block.enumeration.as_ref().map(|e| e.raw.clone());
        let spec = |rank, class, document| HeadingSpec {
            rank,
            class,
            document,
            tagged: matches!(block.kind, BlockKind::Heading(_)),
            block: i,
            anchor: anchors[i],
        };
        match *role {
            Role::Text => tree.paragraph(block),
            Role::Heading {
                rank,
                class,
                document,
            } => tree.open(spec(rank, class, document), block.text.clone(), number),
            Role::NumberedTitle(class) => tree.open(
                spec(BODY_RANK, Some(class), false),
                block.text.clone(),
                number,
            ),
            // "10 Jahre auf PVC-Profile" in a bullet list is no item number.
            Role::Item => tree.item(
                block,
                number.filter(|_| {
                    block
                        .enumeration
                        .as_ref()
                        .is_some_and(|e| e.decoration != Decoration::Plain)
                }),
                titles_its_item(blocks, i, bold_titles),
            ),
        }
    }
    tree.finish()
}

/// Most words of a list item's title line.
const MAX_ITEM_TITLE_WORDS: usize = 12;
/// Fewest words of the prose after a list item's title line, in the same item.
const MIN_ITEM_PROSE_WORDS: usize = 8;

/// Whether the first block of a list item is the item's title: a short line set apart from
/// the text (wholly bold), not a sentence (a label ending in a colon is a
/// title), followed in the same item by prose — `<li><strong>Health Data</strong><p>We
/// collect …</p></li>`, the privacy policies and shop terms that number their sections as
/// list items. A reader sees a titled section; as a plain item it would be text. A bold
/// line counts only when `bold_titles` (the page tags fewer than [`MIN_TAG_HEADINGS`] of its
/// headings).
fn titles_its_item(blocks: &[Block], i: usize, bold_titles: bool) -> bool {
    let b = &blocks[i];
    let Some(li) = b.list_item else {
        return false;
    };
    // (A heading tag inside an item is a heading of its own, not the item's first block.)
    let set_apart = bold_titles && b.bold && b.uniform;
    let text = b.text.trim_end();
    let sentence = text.ends_with(['.', '!', '?', ';', ',']);
    set_apart
        && !b.link_only
        && !sentence
        && b.words <= MAX_ITEM_TITLE_WORDS
        && blocks.get(i + 1).is_some_and(|n| {
            n.list_item == Some(li) && n.words >= MIN_ITEM_PROSE_WORDS && !n.link_only
        })
}

/// For unnumbered headings that lie between two consecutive numbered headings of one level
/// (`§ 6`, "Widerrufsbelehrung", …, `§ 7`; `9.`, "Dauer der Vereinbarung", …, `10.`): the
/// index of the numbered heading before them, which they belong to (one pattern per level: a level keeps
/// one enumeration pattern; what interrupts the sequence is demoted under it). Only headings
/// of the same or a less prominent level are demoted, and document titles; any untagged
/// heading when the numbered titles are in body style (their sequence is the only structure
/// there is) — but not a heading tag: the author's `h2` "Commande et paiement" between
/// "Article 2" and "Article 3" set in bold lines parts the articles, it is no part of one.
/// Where such a run opens with a document's name, the titles of its look after it (not all
/// document names themselves) are anchored at that name instead: they are its parts.
fn sequence_anchors(blocks: &[Block], roles: &[Role]) -> Vec<Option<usize>> {
    let enums = resolve_enumerations(blocks);
    let numbered: Vec<(usize, u32, &Enumeration)> = roles
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let e = enums[i].as_ref()?;
            match *r {
                Role::Heading {
                    rank,
                    class: Some(_),
                    ..
                } => Some((i, rank, e)),
                Role::NumberedTitle(_) => Some((i, BODY_RANK, e)),
                _ => None,
            }
        })
        .collect();
    let mut anchors = vec![None; blocks.len()];
    for (n, &(j, rank, e)) in numbered.iter().enumerate() {
        let Some(&(k, _, next)) = numbered[n + 1..]
            .iter()
            .find(|(_, r, x)| *r == rank && x.class() == e.class())
        else {
            continue;
        };
        if !next.is_successor_of(e) {
            continue;
        }
        let mut run = Vec::new();
        for i in j + 1..k {
            if let Role::Heading {
                rank: r,
                class: None,
                document,
            } = roles[i]
                && (r >= rank
                    || document
                    || (rank == BODY_RANK && !matches!(blocks[i].kind, BlockKind::Heading(_))))
            {
                anchors[i] = Some(j);
                run.push((i, r));
            }
        }
        // A document embedded in a numbered section ("6. Widerrufsrecht", then
        // "Widerrufsbelehrung", "Widerrufsrecht", "Folgen des Widerrufs", … in one look):
        // where the look and the numbering say nothing, the name of a document heads the
        // titles of its look that follow it in the run — its own parts. A run of document
        // names only ("AGB", "Datenschutzerklärung", "Impressum") is a list of documents. A
        // name repeating the open document's kind ("Datenschutz" in a Datenschutzerklärung)
        // is no embedded document: its look-alikes are its siblings.
        if let Some((&(d, look), parts)) = run.split_first()
            && parts.len() >= 2
            && is_document_title(&blocks[d])
            && !repeats_the_open_document(blocks, roles, d)
            && parts.iter().all(|&(_, r)| r == look)
            && parts.iter().any(|&(i, _)| !is_document_title(&blocks[i]))
        {
            for &(i, _) in parts {
                anchors[i] = Some(d);
            }
        }
    }
    anchors
}

/// Whether the document name at `d` is of the kind of the document heading open above it
/// ("Datenschutz" under a "Datenschutzerklärung"): a section of that document.
fn repeats_the_open_document(blocks: &[Block], roles: &[Role], d: usize) -> bool {
    let open = (0..d)
        .rev()
        .find(|&t| matches!(roles[t], Role::Heading { document: true, .. }));
    let kind = document_kind(&blocks[d]);
    kind.is_some() && open.and_then(|t| document_kind(&blocks[t])) == kind
}

/// The HEPS set filters for a group of untagged candidates: at least two members, fewer than
/// half producing empty sections, fewer than 40 % with repeated text.
fn group_ok(blocks: &[Block], cand: &[Option<GroupKey>], members: &[usize]) -> bool {
    if members.len() < 2 {
        return false;
    }
    let key = cand[members[0]];
    let empty = members
        .iter()
        .filter(|&&i| i + 1 >= blocks.len() || cand[i + 1] == key)
        .count();
    let mut texts: HashMap<&str, usize> = HashMap::new();
    for &i in members {
        *texts.entry(blocks[i].text.as_str()).or_default() += 1;
    }
    let repeated = members
        .iter()
        .filter(|&&i| texts.get(blocks[i].text.as_str()).copied().unwrap_or(0) > 1)
        .count();
    empty * 2 < members.len() && repeated * 10 < members.len() * 4
}

#[cfg(test)]
mod tests;
