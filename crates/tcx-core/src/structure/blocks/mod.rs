//! Blocks: the reduced tree cut into lines of text at block-level elements and `<br>`.
//!
//! Whitespace is folded as a browser renders it; inline element boundaries never insert
//! spaces inside words (`Hello<b>W</b>orld` stays `HelloWorld`). Each block remembers what the
//! hierarchy needs: its heading tag, list and table context, computed style, emphasis and
//! enumeration. Lone ordered items numbered in sequence (`<ol start="3"><li>Cookies</li></ol>`
//! between paragraphs) are numbered lines, as a browser shows them, not lists.
//!
//! Tables: a data table (at least two rows of at least two short cells, no nested table,
//! heading or list) becomes one block per row, `Header: value; Header: value` when it has a
//! header row (or `row header: value; …` with a leading `th`); a layout table is read in order
//! and its cells are ordinary containers.

use super::enumeration::{self, Enumeration};

mod numbers;
mod preformatted;
use super::style::{ComputedStyles, Style};
use crate::parse::stack::is_block;
use crate::parse::tree::{NodeId, NodeKind, ReducedTree, is_link_anchor};

/// Longest cell (in words) of a data table; longer cells make it a layout table.
const MAX_DATA_CELL_WORDS: usize = 60;
/// Nodes a table classification looks at before giving up (treated as layout).
const MAX_TABLE_SCAN: usize = 20_000;

/// What kind of element a block comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// Ordinary text (`p`, `div`, loose text).
    Paragraph,
    /// Text inside `h1`–`h6` (the level).
    Heading(u8),
    /// Text inside a list item.
    ListItem,
    /// Text directly inside a cell of a layout table.
    TableCell,
    /// One row of a data table, rendered as `Header: value; …`.
    TableRow,
}

/// One line of the main content.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The text, whitespace folded, never empty.
    pub text: String,
    /// Where it comes from.
    pub kind: BlockKind,
    /// Most of its characters (links aside) are bold (`b`, `strong`, `th`, headings,
    /// `font-weight` of 600 or more in an inline style).
    pub bold: bool,
    /// All of its characters are link text.
    pub link_only: bool,
    /// Share of its characters that are link text, 0 to 1 (content scoring).
    pub link_share: f32,
    /// Links in it that lead to another page (not to a place on this one, `href="#…"`).
    pub away_links: u16,
    /// The style of most of its characters, link text aside (the link style when it is all
    /// link text).
    pub style: Style,
    /// All its letters and digits (link text aside) share the size, weight and underline of
    /// [`Block::style`]: no bold words inside a normal sentence, no normal tail after a bold
    /// lead-in.
    pub uniform: bool,
    /// The innermost `<li>` holding the block, if any.
    pub list_item: Option<NodeId>,
    /// Number of nested `<li>` around the block.
    pub list_depth: u8,
    /// The enumeration prefix, if the text starts with one.
    pub enumeration: Option<Enumeration>,
    /// The innermost block-level element holding the block's first character.
    pub node: NodeId,
    /// Word count.
    pub words: usize,
}

#[derive(Clone, Copy, Default)]
struct Context {
    heading: Option<u8>,
    li: NodeId,
    list_depth: u8,
    cell: bool,
    link: bool,
    /// The innermost link around the text and whether it leads to another page.
    link_node: NodeId,
    link_away: bool,
    /// Inside preformatted text: line breaks count (see [`preformatted`]).
    pre: bool,
    block_node: NodeId,
}

/// Characters of one style in the block being built.
#[derive(Clone, Copy)]
struct StyleCount {
    style: Style,
    chars: usize,
    alnum: usize,
}

#[derive(Default)]
struct Builder {
    blocks: Vec<Block>,
    text: String,
    pending_space: bool,
    /// The block so far is a number in an element of its own: a word after it is a new word.
    space_before_word: bool,
    start: Option<Context>,
    chars: usize,
    bold_chars: usize,
    link_chars: usize,
    /// Links to other pages counted in the block, and the last link counted.
    away_links: u16,
    last_link: NodeId,
    styles: Vec<StyleCount>,
    link_style: Option<Style>,
    pre: preformatted::PreLine,
}

impl Builder {
    /// Counts `chars` characters (`alnum` of them letters or digits) of one style.
    fn count_style(&mut self, style: Style, chars: usize, alnum: usize) {
        if let Some(sc) = self.styles.iter_mut().find(|sc| sc.style == style) {
            sc.chars += chars;
            sc.alnum += alnum;
        } else {
            self.styles.push(StyleCount {
                style,
                chars,
                alnum,
            });
        }
    }

    fn push_text(&mut self, s: &str, ctx: Context, style: Style) {
        if ctx.pre {
            self.push_pre_text(s, ctx, style);
            return;
        }
        // Most text nodes are words between single spaces, with white space (indentation,
        // line breaks) around them: copied at once and counted in one pass.
        let white = |c: char| c.is_ascii_whitespace() || c == '\x0b';
        let after_lead = s.trim_start_matches(white);
        let inner = after_lead.trim_end_matches(white);
        let Some((chars, alnum)) = words_between_single_spaces(inner) else {
            self.push_text_by_chars(s, ctx, style);
            return;
        };
        if after_lead.len() < s.len() {
            self.pending_space = !self.text.is_empty();
        }
        self.push_piece(inner, ctx);
        if inner.len() < after_lead.len() {
            self.pending_space = true;
        }
        self.count_text(chars, alnum, ctx, style);
    }

    /// [`Builder::push_text`] one character at a time (any text).
    fn push_text_by_chars(&mut self, s: &str, ctx: Context, style: Style) {
        // One text node has one style: count its characters, then add them up once.
        let (mut chars, mut alnum) = (0usize, 0usize);
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            // A run of printable ASCII (most text) is copied at once.
            let run = bytes[i..]
                .iter()
                .position(|&b| !b.is_ascii_graphic())
                .unwrap_or(bytes.len() - i);
            let (piece, c) = if run > 0 {
                (&s[i..i + run], None)
            } else {
                let Some(c) = s[i..].chars().next() else {
                    break;
                };
                (&s[i..i + c.len_utf8()], Some(c))
            };
            i += piece.len();
            if let Some(c) = c {
                if c.is_whitespace() {
                    self.pending_space = !self.text.is_empty();
                    continue;
                }
                if joins_words(c) {
                    continue;
                }
            }
            self.push_piece(piece, ctx);
            match c {
                None => {
                    chars += piece.len();
                    alnum += piece.bytes().filter(u8::is_ascii_alphanumeric).count();
                }
                Some(c) => {
                    chars += 1;
                    alnum += usize::from(is_alphanumeric(c));
                }
            }
        }
        self.count_text(chars, alnum, ctx, style);
    }

    /// Appends a piece of text, after the space pending before it; the block starts with the
    /// context of its first piece.
    fn push_piece(&mut self, piece: &str, ctx: Context) {
        if self.pending_space
            || (self.space_before_word && piece.starts_with(|c: char| c.is_alphabetic()))
        {
            self.text.push(' ');
            self.pending_space = false;
        }
        self.space_before_word = false;
        if self.start.is_none() {
            self.start = Some(ctx);
        }
        self.text.push_str(piece);
    }

    /// Adds `chars` characters of one text node (`alnum` of them letters or digits) to the
    /// block's counts.
    fn count_text(&mut self, chars: usize, alnum: usize, ctx: Context, style: Style) {
        if chars == 0 {
            return;
        }
        if ctx.link {
            self.link_chars += chars;
            self.link_style.get_or_insert(style);
            if ctx.link_node != self.last_link {
                self.last_link = ctx.link_node;
                self.away_links = self.away_links.saturating_add(u16::from(ctx.link_away));
            }
        } else {
            self.chars += chars;
            if style.is_bold() {
                self.bold_chars += chars;
            }
            self.count_style(style, chars, alnum);
        }
    }

    /// An inline element ends. A number alone at the block's start ("1.", "2.1", "(a)", "§ 3"
    /// in `<span class=mr-3>`) is set apart from the title after it by the style sheet's
    /// margin, not a space: the word after it starts a new word. A bare single number ("0"
    /// before "shares", "3" before "D") is no numbering.
    fn end_inline(&mut self) {
        const MAX_NUMBER_BYTES: usize = 16;
        let short = (1..=MAX_NUMBER_BYTES).contains(&self.text.len());
        if !self.pending_space && short && !self.text.ends_with(|c: char| c.is_alphabetic()) {
            self.space_before_word = enumeration::detect(&self.text).is_some_and(|e| {
                e.len >= self.text.trim_start().len()
                    && (e.decoration != enumeration::Decoration::Plain || e.values.len() > 1)
            });
        }
    }

    fn flush(&mut self) {
        self.pending_space = false;
        self.space_before_word = false;
        self.pre = preformatted::PreLine::default();
        let Some(ctx) = self.start.take() else {
            self.text.clear();
            self.reset_counts();
            return;
        };
        let text = std::mem::take(&mut self.text);
        let kind = if let Some(level) = ctx.heading {
            BlockKind::Heading(level)
        } else if ctx.cell {
            BlockKind::TableCell
        } else if ctx.li != 0 {
            BlockKind::ListItem
        } else {
            BlockKind::Paragraph
        };
        // Words are separated by single spaces: every other white space was folded into one.
        let words = if text.is_empty() {
            0
        } else {
            memchr::memchr_iter(b' ', text.as_bytes()).count() + 1
        };
        debug_assert_eq!(words, text.split_whitespace().count());
        // Majority style; ties go to the style seen first.
        let mut major: Option<StyleCount> = None;
        for sc in &self.styles {
            if major.is_none_or(|m| sc.chars > m.chars) {
                major = Some(*sc);
            }
        }
        let style = major
            .map(|m| m.style)
            .or(self.link_style)
            .unwrap_or_default();
        let uniform = self
            .styles
            .iter()
            .all(|sc| sc.alnum == 0 || sc.style.same_emphasis(&style));
        self.blocks.push(Block {
            enumeration: enumeration::detect(&text),
            bold: self.bold_chars * 2 > self.chars,
            link_only: self.chars == 0 && self.link_chars > 0,
            link_share: self.link_chars as f32 / (self.chars + self.link_chars).max(1) as f32,
            away_links: self.away_links,
            style,
            uniform,
            list_item: (ctx.li != 0).then_some(ctx.li),
            list_depth: ctx.list_depth,
            text,
            kind,
            node: ctx.block_node,
            words,
        });
        self.reset_counts();
    }

    fn reset_counts(&mut self) {
        self.chars = 0;
        self.bold_chars = 0;
        self.link_chars = 0;
        self.away_links = 0;
        self.last_link = 0;
        self.styles.clear();
        self.link_style = None;
    }

    /// Adds a finished block of a data table row.
    fn push_row(&mut self, text: String, ctx: Context, node: NodeId, style: Style) {
        let words = text.split_whitespace().count();
        self.blocks.push(Block {
            enumeration: None,
            bold: style.is_bold(),
            link_only: false,
            link_share: 0.0,
            away_links: 0,
            style,
            uniform: false,
            list_item: (ctx.li != 0).then_some(ctx.li),
            list_depth: ctx.list_depth,
            text,
            kind: BlockKind::TableRow,
            node,
            words,
        });
    }
}

#[cfg(test)]
/// Cuts the reduced tree into blocks, in document order, with user-agent styles only.
pub fn blocks(tree: &ReducedTree) -> Vec<Block> {
    blocks_with_styles(tree, &ComputedStyles::compute(tree, &[]))
}

/// Cuts the reduced tree into blocks, in document order, with the given computed styles.
pub fn blocks_with_styles(tree: &ReducedTree, styles: &ComputedStyles) -> Vec<Block> {
    let mut b = Builder::default();
    // Iterative walk: 10,000 nested elements must not exhaust the call stack.
    enum Step {
        Enter(NodeId, Context),
        Exit(bool),
    }
    let mut work = vec![Step::Enter(0, Context::default())];
    while let Some(step) = work.pop() {
        match step {
            Step::Exit(block) => {
                if block {
                    b.flush();
                } else {
                    b.end_inline();
                }
            }
            Step::Enter(id, ctx) => {
                let node = tree.node(id);
                match &node.kind {
                    NodeKind::Text(s) => b.push_text(s, ctx, styles.get(id)),
                    NodeKind::Element { tag, .. } => {
                        let tag: &str = tag;
                        if matches!(tag, "br" | "hr") {
                            b.flush();
                            continue;
                        }
                        let block = is_block(tag);
                        if block {
                            b.flush();
                        }
                        if tag == "table" && is_data_table(tree, id) {
                            for (text, row) in table_rows(tree, id) {
                                b.push_row(text, ctx, row, styles.get(row));
                            }
                            continue;
                        }
                        let ctx = child_context(ctx, id, tag, block, tree);
                        work.push(Step::Exit(block));
                        for &c in node.children.iter().rev() {
                            work.push(Step::Enter(c, ctx));
                        }
                    }
                }
            }
        }
    }
    b.flush();
    let mut blocks = b.blocks;
    numbers::number_lone_ordered_items(tree, &mut blocks);
    numbers::join_bare_numbers(&mut blocks);
    blocks
}

/// The characters (spaces not counted) and the letters or digits of a text that
/// [`Builder::push_text_by_chars`] would copy unchanged: words separated by single spaces,
/// with no other white space, control or joining characters. `None` for any other text
/// (and for an empty one).
fn words_between_single_spaces(text: &str) -> Option<(usize, usize)> {
    if text.is_empty() || memchr::memmem::find(text.as_bytes(), b"  ").is_some() {
        return None;
    }
    if text.is_ascii() {
        let mut printable = true;
        let (spaces, alnum) = text.bytes().fold((0usize, 0usize), |(sp, al), b| {
            printable &= (b' '..=b'~').contains(&b);
            (
                sp + usize::from(b == b' '),
                al + usize::from(b.is_ascii_alphanumeric()),
            )
        });
        return printable.then_some((text.len() - spaces, alnum));
    }
    let (mut chars, mut alnum) = (0usize, 0usize);
    for c in text.chars() {
        if c == ' ' {
            continue;
        }
        if c.is_whitespace() || c.is_control() || joins_words(c) {
            return None;
        }
        chars += 1;
        alnum += usize::from(is_alphanumeric(c));
    }
    Some((chars, alnum))
}

/// [`char::is_alphanumeric`], answering at once for general punctuation (’ “ – …, common in
/// any text), which the Unicode tables would look up the slow way.
pub(crate) fn is_alphanumeric(c: char) -> bool {
    !('\u{2000}'..='\u{206f}').contains(&c) && c.is_alphanumeric()
}

/// Soft hyphens and zero-width characters: dropped, joining the text they split.
fn joins_words(c: char) -> bool {
    matches!(
        c,
        '\u{ad}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{feff}'
    )
}

fn child_context(
    mut ctx: Context,
    id: NodeId,
    tag: &str,
    block: bool,
    tree: &ReducedTree,
) -> Context {
    if block {
        ctx.block_node = id;
        ctx.cell = false;
    }
    match tag {
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => ctx.heading = tag[1..].parse().ok(),
        "li" => {
            ctx.li = id;
            ctx.list_depth = ctx.list_depth.saturating_add(1);
        }
        "td" | "th" => ctx.cell = true,
        "pre" | "listing" | "xmp" | "plaintext" => ctx.pre = true,
        "a" => {
            let n = tree.node(id);
            let href = n.attribute("href");
            if is_link_anchor(href, n.attribute("name"), n.attribute("id")) {
                ctx.link = true;
                ctx.link_node = id;
                ctx.link_away = href.is_some_and(leads_away);
            }
        }
        _ => {}
    }
    ctx
}

/// Whether a link's `href` leads to another page: not to a place on a page (`#…`, or any
/// address with a fragment — tables of contents often spell out their own page), not a
/// script, mail or phone link.
fn leads_away(href: &str) -> bool {
    let h = href.trim_start();
    let scheme = |s: &str| h.get(..s.len()).is_some_and(|p| p.eq_ignore_ascii_case(s));
    !h.is_empty()
        && !h.contains('#')
        && !scheme("javascript:")
        && !scheme("mailto:")
        && !scheme("tel:")
}

/// Whether a table holds data (rows of short cells) rather than page layout.
fn is_data_table(tree: &ReducedTree, table: NodeId) -> bool {
    if tree.node(table).attribute("role") == Some("presentation") {
        return false;
    }
    let mut rows = 0usize;
    let mut wide_rows = 0usize;
    let mut seen = 0usize;
    let mut todo: Vec<NodeId> = tree.node(table).children.iter().rev().copied().collect();
    while let Some(id) = todo.pop() {
        seen += 1;
        if seen > MAX_TABLE_SCAN {
            return false;
        }
        let node = tree.node(id);
        match node.tag() {
            Some("table" | "ul" | "ol" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6") => {
                return false;
            }
            Some("tr") => {
                rows += 1;
                let cells: Vec<NodeId> = cells_of(tree, id);
                if cells.len() >= 2 {
                    wide_rows += 1;
                }
                if cells
                    .iter()
                    .any(|&c| cell_text(tree, c).split_whitespace().count() > MAX_DATA_CELL_WORDS)
                {
                    return false;
                }
            }
            _ => {}
        }
        todo.extend(node.children.iter().rev().copied());
    }
    rows >= 2 && wide_rows * 2 >= rows
}

/// The `td`/`th` children of a row.
fn cells_of(tree: &ReducedTree, row: NodeId) -> Vec<NodeId> {
    tree.node(row)
        .children
        .iter()
        .copied()
        .filter(|&c| matches!(tree.node(c).tag(), Some("td" | "th")))
        .collect()
}

/// The text of a subtree, whitespace folded, `<br>` and block boundaries as spaces.
fn cell_text(tree: &ReducedTree, id: NodeId) -> String {
    let mut out = String::new();
    let mut pending = false;
    let mut todo = vec![id];
    while let Some(id) = todo.pop() {
        let node = tree.node(id);
        match &node.kind {
            NodeKind::Text(t) => {
                for c in t.chars() {
                    if c.is_whitespace() {
                        pending = !out.is_empty();
                    } else if !matches!(c, '\u{ad}' | '\u{200b}' | '\u{feff}') {
                        if pending {
                            out.push(' ');
                            pending = false;
                        }
                        out.push(c);
                    }
                }
            }
            NodeKind::Element { tag, .. } => {
                if tag == "br" || is_block(tag) {
                    pending = !out.is_empty();
                }
                todo.extend(node.children.iter().rev().copied());
            }
        }
    }
    out
}

/// The `tr` rows of a table (with whether they sit in its `thead`) and its captions, in
/// document order.
fn rows_and_captions(tree: &ReducedTree, table: NodeId) -> (Vec<(NodeId, bool)>, Vec<NodeId>) {
    let mut rows: Vec<(NodeId, bool)> = Vec::new();
    let mut captions = Vec::new();
    let mut todo: Vec<(NodeId, bool)> = tree
        .node(table)
        .children
        .iter()
        .rev()
        .map(|&c| (c, false))
        .collect();
    while let Some((id, in_head)) = todo.pop() {
        let node = tree.node(id);
        match node.tag() {
            Some("tr") => rows.push((id, in_head)),
            Some("caption") => captions.push(id),
            Some(t) => {
                let head = in_head || t == "thead";
                todo.extend(node.children.iter().rev().map(|&c| (c, head)));
            }
            None => {}
        }
    }
    (rows, captions)
}

/// Cells of a row joined with "; ", but a label cell ending in a colon with a space
/// ("Firma: Muster GmbH; Telefon: 0000").
fn join_cells(cells: &[&str]) -> String {
    let mut text = String::new();
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            text.push_str(if cells[i - 1].trim_end().ends_with(':') {
                " "
            } else {
                "; "
            });
        }
        text.push_str(cell);
    }
    text
}

/// A label without the colon it may end with (the row's text puts one after it).
fn without_colon(label: &str) -> &str {
    label.trim_end().trim_end_matches(':').trim_end()
}

/// The rows of a data table as text, with their `tr` node: `Header: value; …` when the table
/// has a header row, `row header: value; …` when a row starts with a `th`, else `a; b; c`.
fn table_rows(tree: &ReducedTree, table: NodeId) -> Vec<(String, NodeId)> {
    let (rows, captions) = rows_and_captions(tree, table);
    let mut out: Vec<(String, NodeId)> = captions
        .into_iter()
        .map(|c| (cell_text(tree, c), c))
        .filter(|(t, _)| !t.is_empty())
        .collect();
    let mut header: Option<Vec<String>> = None;
    for (i, (row, in_head)) in rows.iter().enumerate() {
        let cells = cells_of(tree, *row);
        let texts: Vec<String> = cells.iter().map(|&c| cell_text(tree, c)).collect();
        let all_th = !cells.is_empty() && cells.iter().all(|&c| tree.node(c).tag() == Some("th"));
        if header.is_none() && (*in_head || (i == 0 && all_th)) && rows.len() > 1 {
            header = Some(texts);
            continue;
        }
        let text = match &header {
            Some(h) if h.len() == texts.len() => texts
                .iter()
                .zip(h)
                .filter(|(v, _)| !v.is_empty())
                .map(|(v, h)| {
                    if h.is_empty() {
                        v.clone()
                    } else {
                        format!("{}: {v}", without_colon(h))
                    }
                })
                .collect::<Vec<_>>()
                .join("; "),
            _ => {
                // A row header: a `th`, or a label cell ending in a colon ("Firma:" beside
                // "Muster GmbH" in an imprint's table).
                let label = texts.len() > 1
                    && (cells
                        .first()
                        .is_some_and(|&c| tree.node(c).tag() == Some("th"))
                        || texts[0].trim_end().ends_with(':'));
                let values: Vec<&str> = texts
                    .iter()
                    .skip(usize::from(label))
                    .map(String::as_str)
                    .filter(|v| !v.is_empty())
                    .collect();
                if label && !texts[0].is_empty() {
                    format!("{}: {}", without_colon(&texts[0]), join_cells(&values))
                } else {
                    join_cells(&values)
                }
            }
        };
        if !text.is_empty() {
            out.push((text, *row));
        }
    }
    if out.is_empty()
        && let Some(h) = header
    {
        let text = h.join("; ");
        if !text.is_empty() {
            out.push((text, table));
        }
    }
    out
}

#[cfg(test)]
mod tests;
