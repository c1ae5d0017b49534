//! Numbers written apart from their text: lone ordered items that are numbered lines, and
//! bare numbers on a line of their own before the line they number.

use super::{Block, BlockKind};
use crate::parse::tree::{NodeId, NodeKind, ReducedTree};
use crate::structure::enumeration::{self, Enumeration};

/// Longest lone ordered item (in words) read as a numbered line rather than a list.
const MAX_LONE_ITEM_WORDS: usize = 12;

/// Lone ordered items as numbered lines. Word processors and their HTML exports write each
/// numbered section title as a list of its own (`<ol start="3"><li>Cookies</li></ol>`
/// between the paragraphs): a browser shows "3. Cookies", a title, not a list. Where a page
/// holds two or more such items — the only `<li>` of their `<ol>`, one short block each —
/// whose numbers mostly rise (two steps in three), each becomes a line of the enclosing text
/// with the list's number as its enumeration (the written one, if its text starts with one),
/// so the hierarchy weighs it as it weighs a typed "3. Cookies". A single item, long items
/// and real lists are left alone.
pub(super) fn number_lone_ordered_items(tree: &ReducedTree, blocks: &mut [Block]) {
    let mut lone = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let Some(li) = block.list_item else { continue };
        if block.words > MAX_LONE_ITEM_WORDS {
            continue;
        }
        let alone_in_item = |j: usize| blocks.get(j).is_none_or(|b| b.list_item != Some(li));
        if !(alone_in_item(i.wrapping_sub(1)) && alone_in_item(i + 1)) {
            continue;
        }
        if let Some(number) = lone_item_number(tree, li) {
            lone.push((i, number));
        }
    }
    // Numbered lines count on: mostly rising numbers (a page may repeat a title, or skip one).
    let rising = lone.windows(2).filter(|w| w[0].1 < w[1].1).count();
    if lone.len() < 2 || rising * 3 < (lone.len() - 1) * 2 {
        return;
    }
    for (i, number) in lone {
        let block = &mut blocks[i];
        if block.kind == BlockKind::ListItem {
            block.kind = BlockKind::Paragraph;
        }
        block.list_item = None;
        block.list_depth = block.list_depth.saturating_sub(1);
        if block.enumeration.is_none() {
            block.enumeration = Some(Enumeration {
                raw: format!("{number}."),
                kind: enumeration::NumberKind::Arabic,
                decoration: enumeration::Decoration::Dot,
                values: vec![number],
                alternative: None,
                len: 0,
            });
        }
    }
}

/// The number a browser shows for `li` when it is the only item of an `<ol>` (its `start`,
/// else 1); `None` for any other list item.
fn lone_item_number(tree: &ReducedTree, li: NodeId) -> Option<u32> {
    let list = tree.node(tree.node(li).parent);
    if list.tag() != Some("ol") {
        return None;
    }
    let mut items = list.children.iter().filter(|&&c| {
        let child = tree.node(c);
        match &child.kind {
            NodeKind::Element { .. } => true,
            NodeKind::Text(t) => !t.trim().is_empty(),
        }
    });
    if items.next() != Some(&li) || items.next().is_some() {
        return None;
    }
    match list.attribute("start") {
        Some(start) => start.trim().parse().ok(),
        None => Some(1),
    }
}

/// Bare numbers joined to the line they number. Many layouts set a section's number on a line
/// of its own above its title (`<p><strong>§ 1</strong></p><p><strong>Geltungsbereich</strong>
/// </p>`, `<h2>§ 1</h2><h3>Geltungsbereich</h3>`, a small "1.3" above an `<h2>`) or in a cell
/// of its own beside its text: a reader reads "§ 1 Geltungsbereich", one numbered title. Left
/// apart, the number would head a section of its own holding the title as a subsection, or
/// the title would lose its number. So a block that is nothing but an enumeration (not a
/// link: pagination is links) joins the next block when that one has no number of its own,
/// is no bare number itself and sits in the same list item. The joined block keeps the
/// heading tag (and its style) of whichever of the two is a heading (the title's when both
/// are), so `h2` "§ 1" over a bold paragraph stays a heading.
pub(super) fn join_bare_numbers(blocks: &mut Vec<Block>) {
    let bare = |b: &Block| {
        !b.link_only
            && b.enumeration
                .as_ref()
                .is_some_and(|e| e.rest(&b.text).is_empty())
    };
    if !blocks.iter().any(bare) {
        return;
    }
    let mut joined: Vec<Block> = Vec::with_capacity(blocks.len());
    let mut rest = std::mem::take(blocks).into_iter().peekable();
    while let Some(block) = rest.next() {
        let joins = bare(&block)
            && rest.peek().is_some_and(|next| {
                next.enumeration.is_none() && !next.link_only && next.list_item == block.list_item
            });
        match rest.next_if(|_| joins) {
            Some(title) => joined.push(join(block, title)),
            None => joined.push(block),
        }
    }
    *blocks = joined;
}

/// `number` and the block after it as one block: both texts and counts, and the look (kind,
/// style, node) of the heading among them, else of the title.
fn join(number: Block, title: Block) -> Block {
    let text = format!("{} {}", number.text, title.text);
    let words = number.words + title.words;
    let link_share = (number.link_share * number.text.len() as f32
        + title.link_share * title.text.len() as f32)
        / (number.text.len() + title.text.len()).max(1) as f32;
    let number_heads = matches!(number.kind, BlockKind::Heading(_))
        && !matches!(title.kind, BlockKind::Heading(_));
    let look = if number_heads { &number } else { &title };
    Block {
        enumeration: enumeration::detect(&text),
        kind: look.kind,
        bold: look.bold,
        style: look.style,
        uniform: look.uniform,
        link_only: false,
        link_share,
        away_links: number.away_links.saturating_add(title.away_links),
        list_item: title.list_item,
        list_depth: title.list_depth,
        node: look.node,
        words,
        text,
    }
}
