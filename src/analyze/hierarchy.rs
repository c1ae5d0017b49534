//! The section tree: visual headings (Algorithm 1 with the fixes of ALGORITHMS.md Part C),
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
//!    at most [`MAX_TAG_WORDS`] words (longer text in a heading tag is a paragraph; heading
//!    tags that are the whole of their list items, three or more in a row, are a list of
//!    titles, not headings). A heading tag's level is its tag and size (emphasis inside it
//!    does not split the level). Candidate styles without heading tags must occur at least
//!    twice, not produce empty sections for half of them and not repeat the same text (the
//!    HEPS set filters C2–C4), and, with the reduced tree ([`sections_in`]), must not have
//!    front nodes holding upper-level headings (HEPS C1, [`includes_upper_headings`]); a
//!    single candidate immediately followed by another of its style heads nothing and is
//!    dropped (unless it is a numbered title of a sequence followed by unnumbered titles).
//!    Untagged styles count only on pages with fewer than [`MIN_TAG_HEADINGS`] tag headings
//!    (a title repeated right after itself counts once): where the author used heading tags,
//!    bold is emphasis.
//! 3. **Levels** are ordered by prominence: size, weight, underline, italics, the heading tag
//!    level, then document order. Algorithm 1's recursive split is the stack walk below: a
//!    heading closes every open section of its level or a less prominent one.
//! 4. **Enumerations** refine levels: within one visual level, `1.1` nests under `1.`, a new
//!    enumeration class nests under the open one, a class seen before the open one closes
//!    back to it (`§ 3` after the `1)` steps of `§ 2`), and numbered and unnumbered headings
//!    are siblings — except that unnumbered headings between two consecutive numbers of one
//!    level (`9.`, "Dauer der Vereinbarung", …, `10.`) belong to the number before them (the
//!    one-pattern-per-level rule of A.14(b), with Part C's fixes: the empty pattern does not
//!    compete, steps are checked per level, nothing after the last number is demoted).
//!    Short numbered blocks in body style whose enumeration is confirmed by a sequence become
//!    titles below every visual level, unless the heading tags themselves are numbered (then
//!    untagged `3.1 …` lines are clauses of the tagged sections); long numbered clauses and
//!    `(1) …` paragraphs stay paragraphs. Tables of contents (runs of short numbered or
//!    link-only blocks whose entries reappear later) are plain text and do not count for
//!    sequences.
//! 5. **Lists:** the first block of each `<li>` starts an untitled item subsection (nested by
//!    list depth); text after a list continues in an untitled subsection of the same parent.
//! 6. **Documents:** headings named like a document of their own (AGB, Kundeninformationen,
//!    Widerrufsbelehrung, Muster-Widerrufsformular, Datenschutzerklärung, Terms and
//!    Conditions, Privacy Policy …; never an Arabic-numbered section title such as
//!    "8. Datenschutz") are put on the level of the first such title, so they are siblings;
//!    untagged ones count only when the page names at least two kinds of document ("AGB" and
//!    "AGB der Muster GmbH" are one kind; the second is the first one's own heading). The
//!    headings of a document's level that follow a document title belong to it, unless both
//!    are heading tags of one level.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

use super::blocks::{Block, BlockKind};
use super::enumeration::{Decoration, EnumClass, Enumeration, NumberKind};
use super::style::Style;
use super::tree::{NodeId, ReducedTree};
use crate::output::Section;

/// Longest block (in words) that counts as a numbered title rather than a numbered clause.
const MAX_TITLE_WORDS: usize = 12;
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

static DOCUMENT_TITLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:allgemeine\s+geschäftsbedingungen|allgemeine\s+geschäfts-\s*und\s+lieferbedingungen|agb|kundeninformation(?:en)?|verbraucherinformation(?:en)?|widerrufsbelehrung(?:en)?|muster-?\s*widerrufsformular|widerrufsformular|datenschutzerklärung|datenschutzhinweise|datenschutzbestimmungen|datenschutzrichtlinie|datenschutz|impressum|(?:general\s+)?terms\s+(?:and|&)\s+conditions|terms\s+of\s+(?:service|use)|privacy\s+(?:policy|notice)|cancellation\s+policy|withdrawal\s+policy|(?:model\s+)?withdrawal\s+form)(?:\s|$|[:.,(])",
    )
    .expect("valid regex")
});

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

/// Key of a group of headline candidates: the style and the heading tag level (0 = none).
type GroupKey = (Style, u8);

/// Decides the role of every block (without the reduced tree: no HEPS C1 check).
pub fn roles(blocks: &[Block]) -> Vec<Role> {
    roles_in(None, blocks)
}

/// Decides the role of every block; with the reduced tree the blocks come from, untagged
/// headline styles also pass the HEPS C1 check ([`includes_upper_headings`]).
pub fn roles_in(tree: Option<&ReducedTree>, blocks: &[Block]) -> Vec<Role> {
    let enums = resolve_enumerations(blocks);
    let mut toc = toc_mask(blocks, &enums);
    for i in heading_list_entries(blocks) {
        toc[i] = true;
    }
    let counted: Vec<Option<Enumeration>> = enums
        .iter()
        .zip(&toc)
        .map(|(e, &t)| if t { None } else { e.clone() })
        .collect();
    let confirmed = confirmed_enumerations(&counted);
    let body = body_style(blocks);

    // Headline candidates and their groups.
    let mut cand: Vec<Option<GroupKey>> = blocks
        .iter()
        .zip(&toc)
        .map(|(b, &t)| if t { None } else { candidate_key(b, &body) })
        .collect();
    let mut groups: HashMap<GroupKey, Vec<usize>> = HashMap::new();
    for (i, k) in cand.iter().enumerate() {
        if let Some(k) = k {
            groups.entry(*k).or_default().push(i);
        }
    }
    // The same title twice in a row (a page header and the article's own title) counts once.
    let repeated: Vec<bool> = (0..cand.len())
        .map(|i| {
            i > 0
                && cand[i].is_some()
                && cand[i - 1].is_some()
                && fold(&blocks[i].text) == fold(&blocks[i - 1].text)
        })
        .collect();
    // Where the author marked headings up with tags, emphasis is emphasis: untagged styles
    // head sections only on pages with fewer than MIN_TAG_HEADINGS tag headings.
    let tag_headings = cand
        .iter()
        .zip(&repeated)
        .filter(|(k, r)| !**r && k.is_some_and(|k| k.1 > 0))
        .count();
    let rejected: HashSet<GroupKey> = groups
        .iter()
        .filter(|(k, members)| {
            k.1 == 0 && (tag_headings >= MIN_TAG_HEADINGS || !group_ok(blocks, &cand, members))
        })
        .map(|(k, _)| *k)
        .collect();
    for c in cand.iter_mut() {
        if c.is_some_and(|k| rejected.contains(&k)) {
            *c = None;
        }
    }
    // Node level: a non-tag candidate directly followed by one of its own style heads nothing,
    // unless it is a numbered title of a confirmed sequence followed by an unnumbered title
    // (`9. Regelungen` then `Dauer der Vereinbarung`: the sub-titles belong to it).
    let numbered_parent = |i: usize| {
        confirmed[i]
            && enums[i].is_some()
            && enums.get(i + 1).is_some_and(|e| {
                e.as_ref().map(Enumeration::class) != enums[i].as_ref().map(Enumeration::class)
            })
    };
    for i in 0..cand.len() {
        if let Some(k) = cand[i]
            && k.1 == 0
            && cand.get(i + 1).copied().flatten() == Some(k)
            && !is_document_title(&blocks[i])
            && !numbered_parent(i)
        {
            cand[i] = None;
        }
    }
    // Rank the surviving groups by prominence.
    let mut keys: Vec<(GroupKey, usize)> = Vec::new();
    for (i, k) in cand.iter().enumerate() {
        if let Some(k) = k
            && !keys.iter().any(|(x, _)| x == k)
        {
            keys.push((*k, i));
        }
    }
    keys.sort_by(|(a, ai), (b, bi)| {
        b.0.size
            .total_cmp(&a.0.size)
            .then(b.0.weight.cmp(&a.0.weight))
            .then(b.0.underline.cmp(&a.0.underline))
            .then(b.0.italic.cmp(&a.0.italic))
            .then(tag_order(a.1).cmp(&tag_order(b.1)))
            .then(ai.cmp(bi))
    });
    // HEPS C1, level by level from the most prominent: an untagged style whose front nodes
    // hold headings of an upper level (a bold line inside every section, a bold word in an
    // `h2` …) is not a heading level.
    if let Some(tree) = tree {
        let spans = subtree_ends(tree);
        let mut upper: Vec<NodeId> = Vec::new();
        let mut dropped: HashSet<GroupKey> = HashSet::new();
        for (k, _) in &keys {
            let members: Vec<usize> = (0..cand.len()).filter(|&i| cand[i] == Some(*k)).collect();
            if k.1 == 0 && includes_upper_headings(tree, &spans, blocks, &members, &upper) {
                dropped.insert(*k);
                continue;
            }
            upper.extend(members.iter().map(|&i| blocks[i].node));
            upper.sort_unstable();
        }
        if !dropped.is_empty() {
            keys.retain(|(k, _)| !dropped.contains(k));
            for c in cand.iter_mut() {
                if c.is_some_and(|k| dropped.contains(&k)) {
                    *c = None;
                }
            }
        }
    }
    let rank_of: HashMap<GroupKey, u32> = keys
        .iter()
        .enumerate()
        // Odd ranks: the even rank above each level is free for a page title (below).
        .map(|(r, (k, _))| (*k, 2 * r as u32 + 1))
        .collect();

    // Several documents on one page: their titles share the level of the first one.
    let doc: Vec<bool> = blocks
        .iter()
        .zip(&cand)
        .zip(&toc)
        .map(|((b, c), &t)| {
            !t && is_document_title(b)
                && (c.is_some() || (b.kind == BlockKind::Paragraph && b.uniform && b.words <= 6))
        })
        .collect();
    // A single untagged document title is left to the visual rules: promotion is for pages
    // that hold several documents.
    // Distinct documents by their kind: "AGB" and "AGB der Muster GmbH" are one document.
    let doc_titles: HashSet<String> = (0..blocks.len())
        .filter(|&i| doc[i])
        .filter_map(|i| document_kind(&blocks[i]))
        .collect();
    // A title naming the same kind of document as the previous one is that document's own
    // heading ("AGB", then "AGB der Muster GmbH"): it keeps its visual level.
    let mut previous_kind: Option<String> = None;
    let mut repeat = vec![false; blocks.len()];
    let doc: Vec<bool> = (0..blocks.len())
        .map(|i| {
            if !doc[i] {
                return false;
            }
            let kind = document_kind(&blocks[i]);
            repeat[i] = kind.is_some() && kind == previous_kind;
            previous_kind = kind;
            !repeat[i] && (doc_titles.len() >= 2 || cand[i].is_some_and(|k| k.1 > 0))
        })
        .collect();
    let first_doc = (0..blocks.len()).find(|&i| doc[i]);
    let doc_rank = first_doc.map(|i| cand[i].and_then(|k| rank_of.get(&k).copied()).unwrap_or(1));
    // A page title: the first heading of the page, untagged, not naming a document itself, on
    // the level the document titles take and before the first of them ("Widerrufsrecht für
    // Verbraucher" over "Widerrufsbelehrung" and "Muster-Widerrufsformular"): it holds them.
    let page_title = first_doc.and_then(|d| {
        let first = cand.iter().position(Option::is_some)?;
        let k = cand[first]?;
        (first < d
            && k.1 == 0
            && !is_document_title(&blocks[first])
            && rank_of.get(&k).copied() == doc_rank)
            .then_some(first)
    });

    // Where the author numbered the heading tags, numbered lines without a tag are the
    // clauses inside those sections ("3.1 …" under an `h2` "3. …"), not titles.
    let numbered_tags = blocks
        .iter()
        .zip(&cand)
        .zip(&enums)
        .filter(|((_, c), e)| c.is_some_and(|k| k.1 > 0) && e.is_some())
        .count();
    let numbered_titles = numbered_tags < MIN_TAG_HEADINGS;
    let mut seen_items: HashSet<NodeId> = HashSet::new();
    blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let class = enums[i].as_ref().map(Enumeration::class);
            if page_title == Some(i) {
                return Role::Heading {
                    rank: doc_rank.unwrap_or(1) - 1,
                    class,
                    document: true,
                };
            }
            if doc[i] {
                let own = cand[i].and_then(|k| rank_of.get(&k).copied());
                let rank = match (own, doc_rank) {
                    (Some(o), Some(d)) => o.min(d),
                    (o, d) => o.or(d).unwrap_or(1),
                };
                return Role::Heading {
                    rank,
                    class,
                    document: true,
                };
            }
            if let Some(rank) = cand[i].and_then(|k| rank_of.get(&k).copied()) {
                return Role::Heading {
                    rank,
                    class,
                    document: is_document_title(b),
                };
            }
            if repeat[i] && doc_titles.len() >= 2 {
                return Role::Heading {
                    rank: doc_rank.unwrap_or(1),
                    class,
                    document: false,
                };
            }
            if let Some(li) = b.list_item {
                if b.kind == BlockKind::ListItem && seen_items.insert(li) {
                    return Role::Item;
                }
                return Role::Text;
            }
            match &enums[i] {
                Some(e)
                    if confirmed[i]
                        && numbered_titles
                        && !is_numbered_clause(b)
                        && b.words <= MAX_TITLE_WORDS
                        && !is_sentence(&b.text, b.words)
                        && !b.link_only
                        && matches!(
                            b.kind,
                            BlockKind::Paragraph | BlockKind::TableCell | BlockKind::Heading(_)
                        ) =>
                {
                    Role::NumberedTitle(e.class())
                }
                _ => Role::Text,
            }
        })
        .collect()
}

/// Builds the section tree of the blocks (without the reduced tree: no HEPS C1 check).
pub fn sections(blocks: &[Block]) -> Vec<Section> {
    sections_in(None, blocks)
}

/// Builds the section tree of the blocks of `tree`.
pub fn sections_in(tree: Option<&ReducedTree>, blocks: &[Block]) -> Vec<Section> {
    let roles = roles_in(tree, blocks);
    let anchors = sequence_anchors(blocks, &roles);
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
            ),
        }
    }
    tree.finish()
}

/// For unnumbered headings that lie between two consecutive numbered headings of one level
/// (`§ 6`, "Widerrufsbelehrung", …, `§ 7`; `9.`, "Dauer der Vereinbarung", …, `10.`): the
/// index of the numbered heading before them, which they belong to (A.14(b): a level keeps
/// one enumeration pattern; what interrupts the sequence is demoted under it). Only headings
/// of the same or a less prominent level are demoted, and document titles; any heading when
/// the numbered titles are in body style (their sequence is the only structure there is).
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
        for i in j + 1..k {
            if let Role::Heading {
                rank: r,
                class: None,
                document,
            } = roles[i]
                && (r >= rank || document || rank == BODY_RANK)
            {
                anchors[i] = Some(j);
            }
        }
    }
    anchors
}

/// HEPS share of front nodes holding an upper-level heading at which a candidate list is
/// rejected (C1; the value of [`super::heps::Thresholds::default`], tuned on the corpus).
pub const UPPER_HEADINGS_RATIO: f64 = 0.2;

/// For every node of the reduced tree, the last node id of its subtree (ids are pre-order).
fn subtree_ends(tree: &ReducedTree) -> Vec<NodeId> {
    let mut end: Vec<NodeId> = (0..tree.nodes.len() as NodeId).collect();
    for id in (1..tree.nodes.len()).rev() {
        let p = tree.nodes[id].parent as usize;
        if p < id {
            end[p] = end[p].max(end[id]);
        }
    }
    end
}

/// HEPS C1 for the blocks `members` of one style: their front nodes (climb from each
/// block's element while no two neighbours share an ancestor, B.5) include an accepted heading
/// of an upper level (`upper`, sorted node ids) for at least [`UPPER_HEADINGS_RATIO`] of them.
pub fn includes_upper_headings(
    tree: &ReducedTree,
    spans: &[NodeId],
    blocks: &[Block],
    members: &[usize],
    upper: &[NodeId],
) -> bool {
    if members.is_empty() || upper.is_empty() {
        return false;
    }
    let mut front: Vec<NodeId> = members.iter().map(|&i| blocks[i].node).collect();
    if front.len() == 1 {
        front = vec![0];
    } else {
        let mut a = front.clone();
        // At most the depth of the deepest member: the root is its own parent.
        loop {
            if a.windows(2).any(|w| w[0] == w[1]) {
                break;
            }
            front.clone_from(&a);
            if a.iter().all(|&x| x == 0) {
                break;
            }
            for x in a.iter_mut() {
                *x = tree.nodes.get(*x as usize).map_or(0, |n| n.parent);
            }
        }
    }
    let holds = |f: NodeId| {
        let end = spans.get(f as usize).copied().unwrap_or(f);
        let from = upper.partition_point(|&u| u < f);
        upper.get(from).is_some_and(|&u| u <= end)
    };
    let with = front.iter().filter(|&&f| holds(f)).count();
    with as f64 >= UPPER_HEADINGS_RATIO * front.len() as f64
}

/// Heading tags rank before untagged styles of equal look, `h2` before `h3`.
fn tag_order(level: u8) -> u8 {
    if level == 0 { 7 } else { level }
}

/// The most common style of body text: most characters in blocks of at least four words
/// (short-text exclusion), falling back to all blocks.
pub fn body_style(blocks: &[Block]) -> Style {
    let mut counts: Vec<(Style, usize)> = Vec::new();
    for min_words in [4, 0] {
        for b in blocks.iter().filter(|b| {
            b.words >= min_words
                && !b.link_only
                && b.kind != BlockKind::TableRow
                && (min_words > 0 || !matches!(b.kind, BlockKind::Heading(_)))
        }) {
            let n = b.text.chars().count();
            match counts.iter_mut().find(|(s, _)| *s == b.style) {
                Some(c) => c.1 += n,
                None => counts.push((b.style, n)),
            }
        }
        if !counts.is_empty() {
            break;
        }
    }
    let mut best: Option<(Style, usize)> = None;
    for c in counts {
        if best.is_none_or(|b| c.1 > b.1) {
            best = Some(c);
        }
    }
    best.map(|b| b.0).unwrap_or_default()
}

/// The group of a headline candidate, or `None` when the block cannot head anything.
fn candidate_key(b: &Block, body: &Style) -> Option<GroupKey> {
    match b.kind {
        // A heading tag's level is its tag and its size: an italic or `<strong>`-wrapped `h3`
        // is still an `h3` (weight, italics, underline and colour do not split the level).
        BlockKind::Heading(level) => (b.words <= MAX_TAG_WORDS).then_some((
            Style {
                size: b.style.size,
                weight: 700,
                ..Style::default()
            },
            level,
        )),
        BlockKind::Paragraph => (!b.link_only
            && b.uniform
            && !starts_lowercase(&b.text)
            && !is_numbered_clause(b)
            && b.words <= MAX_VISUAL_WORDS
            && b.style != *body
            && b.style.more_prominent_than(body)
            && !is_sentence(&b.text, b.words))
        .then_some((b.style, 0)),
        _ => None,
    }
}

/// Text that starts with a lower-case letter continues a sentence ("zustande.").
fn starts_lowercase(text: &str) -> bool {
    text.chars().next().is_some_and(char::is_lowercase)
}

/// A paragraph numbered `(1)`, `(2)` is a clause (Absatz) of its section, even in bold.
fn is_numbered_clause(b: &Block) -> bool {
    b.enumeration
        .as_ref()
        .is_some_and(|e| e.decoration == Decoration::Parens && e.kind == NumberKind::Arabic)
}

/// A block that reads as a sentence: five or more words ending in sentence punctuation.
fn is_sentence(text: &str, words: usize) -> bool {
    words >= 5 && text.trim_end().ends_with(['.', '!', '?', ';', ','])
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

/// The kind of document a title names (the matched name, folded), if it names one.
fn document_kind(b: &Block) -> Option<String> {
    if !is_document_title(b) {
        return None;
    }
    let text = match &b.enumeration {
        Some(e) => e.rest(&b.text),
        None => b.text.as_str(),
    };
    let m = DOCUMENT_TITLE.find(text.trim())?;
    let kind = fold(m.as_str()).replace(['-', ' '], "");
    // The general terms under their several names are one kind of document.
    Some(
        if kind == "agb" || kind.contains("geschäftsbedingungen") || kind.contains("conditions") {
            "agb".to_owned()
        } else {
            kind
        },
    )
}

/// Whether a title names a whole legal document (AGB, Widerrufsbelehrung, Privacy Policy, …).
pub fn names_a_document(title: &str) -> bool {
    DOCUMENT_TITLE.is_match(title.trim())
}

/// Whether a block is the title of a whole document (AGB, Widerrufsbelehrung, …).
fn is_document_title(b: &Block) -> bool {
    if b.words > 8 || b.link_only || matches!(b.kind, BlockKind::TableRow | BlockKind::ListItem) {
        return false;
    }
    let text = match &b.enumeration {
        // A numbered section title ("8. Datenschutz", "3. Privacy Policy") is a clause of
        // the document, not a document of its own; Roman numerals and letters do number
        // documents ("II. Kundeninformationen").
        Some(e) if e.kind == NumberKind::Arabic => return false,
        Some(e) => e.rest(&b.text),
        None => b.text.as_str(),
    };
    names_a_document(text)
}

/// Heading-tag blocks that are the whole content of their list item, in runs of at least
/// [`MIN_TOC_RUN`] such items: a list of titles (a table of contents, a list styled with
/// heading tags), not section headings. A heading followed by text in its item stays one.
fn heading_list_entries(blocks: &[Block]) -> Vec<usize> {
    let mut per_item: HashMap<NodeId, usize> = HashMap::new();
    for b in blocks {
        if let Some(li) = b.list_item {
            *per_item.entry(li).or_default() += 1;
        }
    }
    let entry = |b: &Block| {
        matches!(b.kind, BlockKind::Heading(_))
            && b.list_item.is_some_and(|li| per_item.get(&li) == Some(&1))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < blocks.len() {
        let start = i;
        while i < blocks.len() && entry(&blocks[i]) {
            i += 1;
        }
        if i - start >= MIN_TOC_RUN {
            out.extend(start..i);
        }
        if i == start {
            i += 1;
        }
    }
    out
}

/// Marks tables of contents: runs of at least [`MIN_TOC_RUN`] short numbered or link-only
/// blocks of which at least half reappear later in the page (same text, or the same number
/// followed by the same first word).
fn toc_mask(blocks: &[Block], enums: &[Option<Enumeration>]) -> Vec<bool> {
    let mut mask = vec![false; blocks.len()];
    let entry = |i: usize| {
        let b = &blocks[i];
        // `(1)` clauses are paragraphs of a section, never entries of a contents list.
        b.words <= MAX_TITLE_WORDS && !is_numbered_clause(b) && (enums[i].is_some() || b.link_only)
    };
    let key_text = |i: usize| fold(&blocks[i].text);
    let key_number = |i: usize| {
        enums[i].as_ref().map(|e| {
            let first = e
                .rest(&blocks[i].text)
                .split_whitespace()
                .next()
                .unwrap_or("");
            // Same number of the same class: "§ 6 Gewährleistung" is not an entry for a later
            // "6. Gewährleistung" of another document on the page.
            format!(
                "{:?}\u{1}{}\u{1}{}",
                e.class(),
                e.values
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join("."),
                first.to_lowercase()
            )
        })
    };
    // Last position of every key.
    let mut last_text: HashMap<String, usize> = HashMap::new();
    let mut last_number: HashMap<String, usize> = HashMap::new();
    for i in 0..blocks.len() {
        last_text.insert(key_text(i), i);
        if let Some(k) = key_number(i) {
            last_number.insert(k, i);
        }
    }
    let mut i = 0;
    while i < blocks.len() {
        if !entry(i) {
            i += 1;
            continue;
        }
        let start = i;
        // A run ends where an entry repeats one of its own: the real headings begin there.
        let mut keys: HashSet<String> = HashSet::new();
        while i < blocks.len() && entry(i) && keys.insert(key_text(i)) {
            i += 1;
        }
        let end = i;
        if end - start < MIN_TOC_RUN {
            continue;
        }
        let again = (start..end)
            .filter(|&j| {
                last_text.get(&key_text(j)).is_some_and(|&p| p >= end)
                    || key_number(j)
                        .and_then(|k| last_number.get(&k).copied())
                        .is_some_and(|p| p >= end)
            })
            .count();
        if again * 2 >= end - start && again >= 2 {
            for m in &mut mask[start..end] {
                *m = true;
            }
        }
    }
    mask
}

fn fold(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(['.', ':', ' '])
        .to_lowercase()
}

/// Picks the reading of ambiguous one-letter prefixes (`i)` after `h)` is a letter, `i)`
/// before `ii)` is Roman).
fn resolve_enumerations(blocks: &[Block]) -> Vec<Option<Enumeration>> {
    let mut last: HashMap<EnumClass, Enumeration> = HashMap::new();
    let mut out = Vec::with_capacity(blocks.len());
    for (i, b) in blocks.iter().enumerate() {
        let Some(e) = b.enumeration.clone() else {
            out.push(None);
            continue;
        };
        let chosen = match e.with_alternative() {
            None => e,
            Some(alt) => {
                let follows =
                    |x: &Enumeration| last.get(&x.class()).is_some_and(|p| x.is_successor_of(p));
                let next_follows = |x: &Enumeration| {
                    blocks[i + 1..]
                        .iter()
                        .filter_map(|b| b.enumeration.as_ref())
                        .find(|n| {
                            n.class() == x.class()
                                || n.with_alternative().is_some_and(|a| a.class() == x.class())
                        })
                        .is_some_and(|n| {
                            n.is_successor_of(x)
                                || n.with_alternative().is_some_and(|a| a.is_successor_of(x))
                        })
                };
                if follows(&e) {
                    e
                } else if follows(&alt)
                    || (alt.is_first() && next_follows(&alt) && !next_follows(&e))
                {
                    alt
                } else {
                    e
                }
            }
        };
        last.insert(chosen.class(), chosen.clone());
        out.push(Some(chosen));
    }
    out
}

/// An enumeration counts when it directly follows, or is directly followed by, another
/// enumeration of its class.
fn confirmed_enumerations(enums: &[Option<Enumeration>]) -> Vec<bool> {
    let mut by_class: HashMap<EnumClass, Vec<usize>> = HashMap::new();
    for (i, e) in enums.iter().enumerate() {
        if let Some(e) = e {
            by_class.entry(e.class()).or_default().push(i);
        }
    }
    let mut confirmed = vec![false; enums.len()];
    for positions in by_class.values() {
        for pair in positions.windows(2) {
            if let (Some(a), Some(b)) = (&enums[pair[0]], &enums[pair[1]])
                && b.is_successor_of(a)
            {
                confirmed[pair[0]] = true;
                confirmed[pair[1]] = true;
            }
        }
    }
    confirmed
}

/// What opened a section, for deciding where the next block goes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// Text before the first heading.
    Lead,
    /// A heading of a visual level with its enumeration class.
    Heading {
        rank: u32,
        class: Option<EnumClass>,
        document: bool,
        /// From a heading tag.
        tagged: bool,
        block: usize,
    },
    /// A list item.
    Item { li: NodeId, depth: u8 },
    /// Text after a list, in the same parent.
    Continuation { li: Option<NodeId> },
}

struct Open {
    kind: Kind,
    section: Section,
}

#[derive(Default)]
struct TreeBuilder {
    top: Vec<Section>,
    stack: Vec<Open>,
    /// Order in which enumeration classes first opened a heading, per level.
    first_seen: HashMap<(u32, EnumClass), usize>,
}

/// A heading to open in the tree.
#[derive(Debug, Clone, Copy)]
struct HeadingSpec {
    rank: u32,
    class: Option<EnumClass>,
    document: bool,
    /// From a heading tag (two tags of one level are siblings, document title or not).
    tagged: bool,
    /// Index of its block.
    block: usize,
    /// The numbered heading whose sequence continues after this one: it stays open.
    anchor: Option<usize>,
}

/// Whether `new` is a higher level than `open` in the same multi-level Arabic numbering
/// (`2.` after `1.1`).
fn shallower(new: &EnumClass, open: &EnumClass) -> bool {
    new.kind == NumberKind::Arabic && open.kind == NumberKind::Arabic && new.depth < open.depth
}

impl TreeBuilder {
    fn top_kind(&self) -> Option<Kind> {
        self.stack.last().map(|o| o.kind)
    }

    fn paragraph(&mut self, block: &Block) {
        loop {
            match self.top_kind() {
                Some(Kind::Item { li, .. }) if Some(li) != block.list_item => self.pop(),
                Some(Kind::Continuation { li }) if li != block.list_item => self.pop(),
                _ => break,
            }
        }
        match self.stack.last() {
            None => self.push(Kind::Lead, new_section(None, None)),
            Some(open)
                if !open.section.subsections.is_empty()
                    && !matches!(open.kind, Kind::Continuation { .. }) =>
            {
                self.push(
                    Kind::Continuation {
                        li: block.list_item,
                    },
                    new_section(None, None),
                )
            }
            _ => {}
        }
        if let Some(open) = self.stack.last_mut() {
            open.section.paragraphs.push(block.text.clone());
        }
    }

    fn item(&mut self, block: &Block, number: Option<String>) {
        let depth = block.list_depth;
        loop {
            match self.top_kind() {
                Some(Kind::Continuation { .. }) => self.pop(),
                Some(Kind::Item { depth: d, .. }) if d >= depth => self.pop(),
                _ => break,
            }
        }
        if self.stack.is_empty() {
            self.push(Kind::Lead, new_section(None, None));
        }
        let mut section = new_section(None, number);
        section.paragraphs.push(block.text.clone());
        let li = block.list_item.unwrap_or(0);
        self.push(Kind::Item { li, depth }, section);
    }

    fn open(&mut self, h: HeadingSpec, title: String, number: Option<String>) {
        let HeadingSpec {
            rank,
            class,
            document,
            tagged,
            ..
        } = h;
        // The anchor (and everything below it) is never closed by this heading.
        let floor = h
            .anchor
            .and_then(|a| {
                self.stack
                    .iter()
                    .rposition(|o| matches!(o.kind, Kind::Heading { block, .. } if block == a))
            })
            .map_or(0, |p| p + 1);
        while self.stack.len() > floor
            && self
                .top_kind()
                .is_some_and(|k| !matches!(k, Kind::Heading { .. }))
        {
            self.pop();
        }
        // Within a visual level the decoration does not matter (`7:` and `8.` are siblings);
        // numbered titles in body style keep it (`§ 1` and `1.` are different levels).
        let same = |a: &EnumClass, b: &EnumClass| {
            a == b || (rank != BODY_RANK && a.kind == b.kind && a.depth == b.depth)
        };
        let same_class = class.and_then(|c| {
            self.stack.iter().rposition(|o| {
                matches!(o.kind, Kind::Heading { rank: r, class: Some(oc), .. } if r == rank && same(&c, &oc))
            })
        });
        if let Some(pos) = same_class.filter(|&p| p >= floor) {
            while self.stack.len() > pos {
                self.pop();
            }
        } else {
            while self.stack.len() > floor
                && let Some(Kind::Heading {
                    rank: r,
                    class: c,
                    document: d,
                    tagged: t,
                    ..
                }) = self.top_kind()
            {
                let close = r > rank
                    || (r == rank
                        // The headings of a document's level belong to the document.
                        && (!d || document || (t && tagged))
                        && match (class, c) {
                            (None, _) => true,
                            // A class seen before the open one is the outer level (`§ 3`
                            // after the `1)` steps inside `§ 2`).
                            (Some(n), Some(o)) => {
                                shallower(&n, &o)
                                    || (n != o
                                        && self.older_class(rank, &n, &o))
                            }
                            // A numbered heading after an unnumbered one of the same level
                            // is its sibling (`Preamble`, `1: Definitions`).
                            (Some(_), None) => true,
                        });
                if !close {
                    break;
                }
                self.pop();
            }
        }
        if let Some(c) = class {
            let next = self.first_seen.len();
            self.first_seen.entry((rank, c)).or_insert(next);
        }
        self.push(
            Kind::Heading {
                rank,
                class,
                document,
                tagged,
                block: h.block,
            },
            new_section(Some(title), number),
        );
    }

    /// Whether class `a` first opened a heading of level `rank` before class `b` did.
    fn older_class(&self, rank: u32, a: &EnumClass, b: &EnumClass) -> bool {
        let order = |c: &EnumClass| self.first_seen.get(&(rank, *c)).copied();
        order(a).is_some_and(|x| order(b).is_none_or(|y| x < y))
    }

    fn push(&mut self, kind: Kind, section: Section) {
        self.stack.push(Open { kind, section });
    }

    fn pop(&mut self) {
        if let Some(open) = self.stack.pop() {
            match self.stack.last_mut() {
                Some(parent) => parent.section.subsections.push(open.section),
                None => self.top.push(open.section),
            }
        }
    }

    fn finish(mut self) -> Vec<Section> {
        while !self.stack.is_empty() {
            self.pop();
        }
        set_levels(&mut self.top);
        self.top
    }
}

fn new_section(title: Option<String>, number: Option<String>) -> Section {
    Section {
        title,
        number,
        level: 0,
        paragraphs: Vec::new(),
        subsections: Vec::new(),
    }
}

/// Sets `level` on every section (iteratively: lists can nest deeply).
fn set_levels(sections: &mut [Section]) {
    let mut todo: Vec<(&mut Section, u32)> = sections.iter_mut().map(|s| (s, 1)).collect();
    while let Some((s, level)) = todo.pop() {
        s.level = level;
        todo.extend(s.subsections.iter_mut().map(|c| (c, level + 1)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{AnalysisOptions, ReducedTree, blocks::blocks};

    fn tree(html: &str) -> Vec<Section> {
        let t = ReducedTree::build(
            html,
            std::slice::from_ref(&(0..html.len())),
            &AnalysisOptions::default(),
        )
        .unwrap();
        sections(&blocks(&t))
    }

    /// `title|number [children]` outline for compact assertions.
    fn outline(sections: &[Section]) -> String {
        sections
            .iter()
            .map(|s| {
                let mut out = s
                    .title
                    .clone()
                    .unwrap_or_else(|| format!("<{}>", s.number.clone().unwrap_or_default()));
                if !s.subsections.is_empty() {
                    out.push_str(&format!(" [{}]", outline(&s.subsections)));
                }
                out
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    #[test]
    fn heading_tags_nest_by_level() {
        let s = tree(
            "<h3>Terms</h3><h5>1. Lorem</h5><p>a</p><h6>1.1 Donec</h6><p>b</p><h6>1.2 In</h6><p>c</p><h5>2. Aenean</h5><p>d</p>",
        );
        assert_eq!(
            outline(&s),
            "Terms [1. Lorem [1.1 Donec, 1.2 In], 2. Aenean]"
        );
        assert_eq!(s[0].subsections[0].number.as_deref(), Some("1."));
        assert_eq!(s[0].subsections[0].subsections[1].level, 3);
        assert_eq!(s[0].subsections[0].paragraphs, ["a"]);
    }

    #[test]
    fn numbered_paragraphs_build_sections() {
        let s = tree(
            "<p>Intro text</p><p>§ 1 Geltungsbereich</p><p>(1) Diese Bedingungen gelten für alle Verträge zwischen uns und dem Kunden hier.</p>\
             <p>(2) Abweichende Bedingungen des Kunden gelten nicht, es sei denn wir stimmen zu.</p>\
             <p>§ 2 Vertragsschluss</p><p>Der Vertrag kommt zustande.</p>",
        );
        assert_eq!(outline(&s), "<>, § 1 Geltungsbereich, § 2 Vertragsschluss");
        assert_eq!(s[0].title, None);
        assert_eq!(s[0].paragraphs, ["Intro text"]);
        assert!(s[1].paragraphs[0].starts_with("(1) Diese"));
        assert!(s[1].paragraphs[1].starts_with("(2) Abweichende"));
        assert_eq!(s[2].paragraphs, ["Der Vertrag kommt zustande."]);
    }

    #[test]
    fn multi_level_numbers_and_single_numbers() {
        let s = tree(
            "<p>1. Allgemeines</p><p>1.1 Geltung</p><p>x</p><p>1.2 Änderungen</p><p>2. Preise</p><p>y</p><p>3 Werktage beträgt die Lieferzeit</p>",
        );
        assert_eq!(
            outline(&s),
            "1. Allgemeines [1.1 Geltung, 1.2 Änderungen], 2. Preise"
        );
        assert_eq!(s[1].paragraphs, ["y", "3 Werktage beträgt die Lieferzeit"]);
    }

    #[test]
    fn roman_and_letters() {
        let s = tree(
            "<p>I. Allgemeine Geschäftsbedingungen</p><p>a) eins</p><p>b) zwei</p><p>II. Kundeninformationen</p><p>text</p>",
        );
        assert_eq!(
            outline(&s),
            "I. Allgemeine Geschäftsbedingungen [a) eins, b) zwei], II. Kundeninformationen"
        );
        let s = tree("<p>h) acht</p><p>i) neun</p><p>j) zehn</p>");
        assert_eq!(s.len(), 3);
        let s = tree("<p>(i) one</p><p>(ii) two</p>");
        assert_eq!(outline(&s), "(i) one, (ii) two");
    }

    #[test]
    fn lone_numbers_are_text() {
        let s = tree("<p>1. Nur eine Zahl</p><p>text</p>");
        assert_eq!(outline(&s), "<>");
        assert_eq!(s[0].paragraphs.len(), 2);
    }
}
