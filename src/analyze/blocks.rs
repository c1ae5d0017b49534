//! Blocks: the reduced tree cut into lines of text at block-level elements and `<br>`.
//!
//! Whitespace is folded as a browser renders it; inline element boundaries never insert
//! spaces inside words (`Hello<b>W</b>orld` stays `HelloWorld`). Each block remembers what the
//! hierarchy needs: its heading tag, list and table context, emphasis and enumeration.

use super::enumeration::{self, Enumeration};
use super::stack::is_block;
use super::tree::{NodeId, NodeKind, ReducedTree};

/// What kind of element a block comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// Ordinary text (`p`, `div`, loose text).
    Paragraph,
    /// Text inside `h1`–`h6` (the level).
    Heading(u8),
    /// Text inside a list item.
    ListItem,
    /// Text inside a table cell.
    TableCell,
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
    list_item: bool,
    cell: bool,
    bold: bool,
    link: bool,
    block_node: NodeId,
}

#[derive(Default)]
struct Builder {
    blocks: Vec<Block>,
    text: String,
    pending_space: bool,
    start: Option<Context>,
    chars: usize,
    bold_chars: usize,
    link_chars: usize,
}

impl Builder {
    fn push_text(&mut self, s: &str, ctx: Context) {
        for c in s.chars() {
            if c.is_whitespace() {
                self.pending_space = !self.text.is_empty();
                continue;
            }
            if matches!(
                c,
                '\u{ad}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{feff}'
            ) {
                continue;
            }
            if self.pending_space {
                self.text.push(' ');
                self.pending_space = false;
            }
            if self.start.is_none() {
                self.start = Some(ctx);
            }
            self.text.push(c);
            if ctx.link {
                self.link_chars += 1;
            } else {
                self.chars += 1;
                if ctx.bold {
                    self.bold_chars += 1;
                }
            }
        }
    }

    fn flush(&mut self) {
        self.pending_space = false;
        let Some(ctx) = self.start.take() else {
            self.text.clear();
            return;
        };
        let text = std::mem::take(&mut self.text);
        let kind = if let Some(level) = ctx.heading {
            BlockKind::Heading(level)
        } else if ctx.cell {
            BlockKind::TableCell
        } else if ctx.list_item {
            BlockKind::ListItem
        } else {
            BlockKind::Paragraph
        };
        let words = text.split_whitespace().count();
        self.blocks.push(Block {
            enumeration: enumeration::detect(&text),
            bold: self.bold_chars * 2 > self.chars,
            link_only: self.chars == 0 && self.link_chars > 0,
            text,
            kind,
            node: ctx.block_node,
            words,
        });
        self.chars = 0;
        self.bold_chars = 0;
        self.link_chars = 0;
    }
}

/// Cuts the reduced tree into blocks, in document order.
pub fn blocks(tree: &ReducedTree) -> Vec<Block> {
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
                }
            }
            Step::Enter(id, ctx) => {
                let node = tree.node(id);
                match &node.kind {
                    NodeKind::Text(s) => b.push_text(s, ctx),
                    NodeKind::Element { tag, .. } => {
                        let tag = tag.as_str();
                        if matches!(tag, "br" | "hr") {
                            b.flush();
                            continue;
                        }
                        let block = is_block(tag);
                        if block {
                            b.flush();
                        }
                        let ctx = child_context(ctx, id, tag, node.attribute("style"), block);
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
    b.blocks
}

fn child_context(
    mut ctx: Context,
    id: NodeId,
    tag: &str,
    style: Option<&str>,
    block: bool,
) -> Context {
    if block {
        ctx.block_node = id;
    }
    match tag {
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
            ctx.heading = tag[1..].parse().ok();
            ctx.bold = true;
        }
        "li" | "dd" | "dt" => ctx.list_item = true,
        "td" | "th" => {
            ctx.cell = true;
            ctx.bold |= tag == "th";
        }
        "b" | "strong" => ctx.bold = true,
        "a" => ctx.link = true,
        _ => {}
    }
    if let Some(weight) = style.and_then(inline_font_weight) {
        ctx.bold = weight >= 600;
    }
    ctx
}

/// The `font-weight` of an inline style, as a number.
fn inline_font_weight(style: &str) -> Option<u32> {
    style.split(';').find_map(|decl| {
        let (name, value) = decl.split_once(':')?;
        if !name.trim().eq_ignore_ascii_case("font-weight") {
            return None;
        }
        let value = value.trim().trim_end_matches("!important").trim();
        match value.to_ascii_lowercase().as_str() {
            "bold" | "bolder" => Some(700),
            "normal" | "lighter" => Some(400),
            v => v.parse().ok(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::AnalysisOptions;

    fn blocks_of(html: &str) -> Vec<Block> {
        let tree = ReducedTree::build(html, &[0..html.len()], &AnalysisOptions::default()).unwrap();
        blocks(&tree)
    }

    fn texts(html: &str) -> Vec<String> {
        blocks_of(html).into_iter().map(|b| b.text).collect()
    }

    #[test]
    fn splits_at_blocks_and_br_without_spaces_inside_words() {
        assert_eq!(
            texts("<div>Hello<b>W</b>orld <i>again</i><p>Next\n  line</p>tail<br>after</div>"),
            ["HelloWorld again", "Next line", "tail", "after"]
        );
        assert_eq!(texts("<p><b>nec</b>, sed</p>"), ["nec, sed"]);
        assert_eq!(texts("<p> \u{a0} </p><p>x</p>"), ["x"]);
        assert_eq!(texts("<p>Ver\u{ad}trag</p>"), ["Vertrag"]);
    }

    #[test]
    fn kinds_emphasis_and_links() {
        let b = blocks_of(
            "<h2>1. Title</h2><p><strong>Bold heading</strong></p><p>Some <b>bold</b> words in text</p>\
             <ul><li>item</li></ul><table><tr><td>cell</td></tr></table><p><a href='#'>Download PDF</a></p>\
             <p style='font-weight: 700'>styled</p>",
        );
        assert_eq!(b[0].kind, BlockKind::Heading(2));
        assert!(b[0].bold);
        assert_eq!(
            b[0].enumeration.as_ref().map(|e| e.values.clone()),
            Some(vec![1])
        );
        assert!(b[1].bold);
        assert!(!b[2].bold);
        assert_eq!(b[3].kind, BlockKind::ListItem);
        assert_eq!(b[4].kind, BlockKind::TableCell);
        assert!(b[5].link_only);
        assert!(b[6].bold);
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let html = format!(
            "{}deep text{}",
            "<div>".repeat(20_000),
            "</div>".repeat(20_000)
        );
        assert_eq!(texts(&html), ["deep text"]);
    }
}
