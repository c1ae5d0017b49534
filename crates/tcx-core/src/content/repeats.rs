//! Repeated renderings inside the content: the same widget printed several times (a tab box
//! repeated in every section with another tab selected). A reader sees such a widget once, so
//! only its first copy is kept.
//!
//! A subtree is a repeat when it is a widget — it holds tabs (`role` `tab`, `tablist`,
//! `tabpanel`) or hidden panels (`hidden`) — its text, the sequence of its words, equals that
//! of an earlier subtree that has already ended (never an ancestor), and it holds at least
//! [`MIN_REPEAT_WORDS`] words. A repeat that holds a third of all the words or more and at
//! least [`MIN_COPY_WORDS`] is a second copy of the document (see
//! [`MIN_COPY_SHARE_DENOMINATOR`]) and is dropped even outside a widget. Smaller repeated
//! legal text is left alone: policies do repeat whole
//! paragraphs on purpose (a retention clause in two sections, a cancellation right for two
//! products), and the Open Terms Archive gold keeps both copies. Words are compared through
//! a rolling hash over words, so the check is linear in the size of the tree.

use std::collections::HashSet;

use crate::parse::scan::FastHash;
use crate::parse::tree::{Node, NodeId, NodeKind, ReducedTree};

/// Fewest words a subtree must hold to be dropped as a repeat of an earlier one.
pub const MIN_REPEAT_WORDS: u32 = 60;

/// A repeat holding at least `1 / MIN_COPY_SHARE_DENOMINATOR` of all the words is a second
/// copy of the document (a page printed twice, a desktop and a mobile rendering), not a
/// clause repeated on purpose, and is dropped whether or not it is a widget.
pub const MIN_COPY_SHARE_DENOMINATOR: u64 = 3;

/// Fewest words of such a copy: a document, not one clause of a short page.
pub const MIN_COPY_WORDS: u32 = 200;

/// Multiplier of the rolling hash over word hashes (odd, so powers never become zero).
const BASE: u64 = 0x9E37_79B9_7F4A_7C15;

/// The words of a subtree as a rolling hash: `hash = Σ h(wᵢ)·BASEⁿ⁻¹⁻ⁱ`, which can be
/// concatenated from the children's values without re-reading their text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct WordsHash {
    hash: u64,
    words: u32,
    /// `BASE^words` (wrapping), to append another sequence.
    power: u64,
}

impl WordsHash {
    const EMPTY: WordsHash = WordsHash {
        hash: 0,
        words: 0,
        power: 1,
    };

    fn of_text(text: &str) -> WordsHash {
        let mut h = WordsHash::EMPTY;
        for word in text.split_whitespace() {
            h.hash = h.hash.wrapping_mul(BASE).wrapping_add(word_hash(word));
            h.words = h.words.saturating_add(1);
            h.power = h.power.wrapping_mul(BASE);
        }
        h
    }

    fn append(self, next: WordsHash) -> WordsHash {
        WordsHash {
            hash: self.hash.wrapping_mul(next.power).wrapping_add(next.hash),
            words: self.words.saturating_add(next.words),
            power: self.power.wrapping_mul(next.power),
        }
    }
}

/// FNV-1a of one word.
fn word_hash(word: &str) -> u64 {
    word.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Removes every repeat (see the module docs: a widget, or a second copy of the document,
/// repeating an earlier subtree of at least [`MIN_REPEAT_WORDS`] words); returns how many were
/// removed. Node ids stay in document
/// order (the tree is rebuilt when something is removed).
pub fn remove_repeats(tree: &mut ReducedTree) -> usize {
    let n = tree.nodes.len();
    if n < 2 {
        return 0;
    }
    // Widgets: subtrees holding tabs or hidden panels. Without any, only a second copy of
    // the document can repeat, and it repeats a long text node.
    let mut widget = vec![false; n];
    for id in (1..n).rev() {
        let node = &tree.nodes[id];
        if widget[id] || is_widget_part(node) {
            widget[id] = true;
            widget[node.parent as usize] = true;
        }
    }
    if !widget[0] && !repeats_a_long_text(tree) {
        return 0;
    }
    // Children have larger ids than their parents, so one reverse pass sums the subtrees.
    let mut hashes = vec![WordsHash::EMPTY; n];
    for id in (0..n).rev() {
        let node = &tree.nodes[id];
        hashes[id] = match &node.kind {
            NodeKind::Text(t) => WordsHash::of_text(t),
            NodeKind::Element { .. } => node
                .children
                .iter()
                .fold(WordsHash::EMPTY, |h, &c| h.append(hashes[c as usize])),
        };
    }
    let total_words = u64::from(hashes[0].words);
    if !widget[0] && hashes[0].words < 2 * MIN_COPY_WORDS {
        return 0;
    }
    // Pre-order walk; a subtree's text becomes known to later subtrees when it ends.
    let mut seen: HashSet<WordsHash> = HashSet::new();
    let mut removed = vec![false; n];
    let mut count = 0;
    enum Step {
        Enter(NodeId),
        Exit(NodeId),
    }
    let mut work = vec![Step::Enter(0)];
    while let Some(step) = work.pop() {
        match step {
            Step::Enter(id) => {
                let h = hashes[id as usize];
                let big = h.words >= MIN_REPEAT_WORDS;
                let copy = h.words >= MIN_COPY_WORDS
                    && u64::from(h.words) * MIN_COPY_SHARE_DENOMINATOR >= total_words;
                if big && id != 0 && (widget[id as usize] || copy) && seen.contains(&h) {
                    removed[id as usize] = true;
                    count += 1;
                    continue;
                }
                if big {
                    work.push(Step::Exit(id));
                }
                for &c in tree.nodes[id as usize].children.iter().rev() {
                    if hashes[c as usize].words >= MIN_REPEAT_WORDS {
                        work.push(Step::Enter(c));
                    }
                }
            }
            Step::Exit(id) => {
                seen.insert(hashes[id as usize]);
            }
        }
    }
    if count > 0 {
        tree.nodes = without(&tree.nodes, &removed);
    }
    count
}

/// Text nodes of at least this many bytes are compared in the pre-check for copies.
const LONG_TEXT_BYTES: usize = 120;

/// The cheap pre-check for a second copy of the document: long text nodes (at least
/// [`LONG_TEXT_BYTES`]) that occur again, byte for byte, hold at least an eighth of all the
/// text. A copy holding a third of the words repeats most of its paragraphs; a clause
/// repeated on purpose is far less. Pages without copies — nearly all — skip the word hashes.
fn repeats_a_long_text(tree: &ReducedTree) -> bool {
    let mut seen: HashSet<&str, FastHash> = HashSet::default();
    let (mut total, mut repeated) = (0usize, 0usize);
    for node in &tree.nodes {
        if let NodeKind::Text(t) = &node.kind {
            total += t.len();
            if t.len() >= LONG_TEXT_BYTES && !seen.insert(t.as_str()) {
                repeated += t.len();
            }
        }
    }
    repeated > 0 && repeated * 8 >= total
}

/// Tabs and hidden panels mark a subtree as an interface widget.
fn is_widget_part(node: &Node) -> bool {
    node.attribute("hidden").is_some()
        || node
            .attribute("role")
            .is_some_and(|r| matches!(r.trim(), "tab" | "tablist" | "tabpanel"))
}

/// The node table without the removed subtrees, ids renumbered in document order.
fn without(nodes: &[Node], removed: &[bool]) -> Vec<Node> {
    let mut new_id: Vec<Option<NodeId>> = vec![None; nodes.len()];
    let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
    for (id, node) in nodes.iter().enumerate() {
        let parent = if id == 0 {
            Some(0)
        } else {
            new_id[node.parent as usize]
        };
        let Some(parent) = parent else {
            continue; // inside a removed subtree
        };
        if removed[id] {
            continue;
        }
        new_id[id] = Some(out.len() as NodeId);
        out.push(Node {
            parent,
            kind: node.kind.clone(),
            children: Vec::new(),
        });
        if id != 0 {
            let me = out.len() as NodeId - 1;
            out[parent as usize].children.push(me);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structure::blocks::blocks;

    fn tree(html: &str) -> ReducedTree {
        ReducedTree::of_whole(html)
    }

    fn words(n: usize, word: &str) -> String {
        vec![word; n].join(" ")
    }

    #[test]
    fn a_repeated_widget_is_kept_once() {
        let widget = format!(
            "<div class=tabs><div role=tablist><button role=tab>EU</button></div><div role=tabpanel><h3>What we collect</h3><p>{}</p><ul><li><a href=#a>Registration</a></li></ul></div></div>",
            words(70, "data")
        );
        let html = format!(
            "<h2>One</h2><p>First clause text.</p>{widget}<h2>Two</h2><p>Second clause text.</p>{widget}<h2>Three</h2>{widget}"
        );
        let mut t = tree(&html);
        assert_eq!(remove_repeats(&mut t), 2);
        let text: Vec<String> = blocks(&t).into_iter().map(|b| b.text).collect();
        assert_eq!(
            text.iter().filter(|s| *s == "What we collect").count(),
            1,
            "{text:?}"
        );
        assert_eq!(text.iter().filter(|s| s.starts_with("Two")).count(), 1);
        assert_eq!(text.last().map(String::as_str), Some("Three"));
    }

    #[test]
    fn repeated_legal_text_stays() {
        let clause = format!(
            "<div class=clause><p>4.1 {}</p></div>",
            words(70, "retention")
        );
        let mut t = tree(&format!(
            "<h2>Privacy</h2>{clause}<h2>Retention</h2>{clause}"
        ));
        assert_eq!(remove_repeats(&mut t), 0);
        assert_eq!(blocks(&t).len(), 4);
    }

    #[test]
    fn a_second_copy_of_the_whole_document_is_dropped() {
        // No widget: the page prints the document twice (a desktop and a mobile rendering).
        let doc = format!(
            "<div class=doc><h2>Terms</h2><p>{}</p><p>{}</p></div>",
            words(120, "clause"),
            words(120, "term")
        );
        let mut t = tree(&format!("<div>{doc}<p>between</p>{doc}</div>"));
        assert_eq!(remove_repeats(&mut t), 1);
        let text: Vec<String> = blocks(&t).into_iter().map(|b| b.text).collect();
        assert_eq!(text.iter().filter(|s| *s == "Terms").count(), 1, "{text:?}");
        assert_eq!(text.last().map(String::as_str), Some("between"));
    }

    #[test]
    fn a_repeat_below_a_third_of_the_words_stays_unless_a_widget() {
        // 210 repeated words against 210 + 210 + 250 in all: under a third each (a
        // withdrawal notice printed in a section and again at the end of a short page).
        let clause = format!("<p>{}</p>", words(210, "retention"));
        let rest = format!("<p>{}</p>", words(250, "other"));
        let mut t = tree(&format!("<div>{clause}{rest}{clause}</div>"));
        assert_eq!(remove_repeats(&mut t), 0);
        // With a third copy (over a third in all) each copy is still kept:
        // the share is per subtree, not summed.
        let mut t = tree(&format!("<div>{clause}{rest}{clause}{clause}</div>"));
        assert_eq!(remove_repeats(&mut t), 0);
    }

    #[test]
    fn the_pre_check_sees_copies_not_a_repeated_clause() {
        let clause = format!("<p>{}</p>", words(30, "retention"));
        let other: String = (0..10)
            .map(|i| format!("<p>{} {i}</p>", words(30, "other")))
            .collect();
        // One clause of 180 bytes twice among 2000 bytes of text: under an eighth.
        assert!(!repeats_a_long_text(&tree(&format!(
            "{clause}{other}{clause}"
        ))));
        assert!(repeats_a_long_text(&tree(&format!("{other}{other}"))));
        // Short text nodes never count.
        let short = "<p>Short line repeated</p>".repeat(50);
        assert!(!repeats_a_long_text(&tree(&short)));
    }

    #[test]
    fn nested_wrappers_with_the_same_text_are_not_repeats() {
        let html = format!("<div><div><p>{}</p></div></div>", words(80, "word"));
        let mut t = tree(&html);
        let before = t.nodes.len();
        assert_eq!(remove_repeats(&mut t), 0);
        assert_eq!(t.nodes.len(), before);
    }

    #[test]
    fn short_repeats_and_different_texts_stay() {
        let short = format!("<p>{}</p>", words(20, "Unterschrift"));
        let a = format!("<p>{} alpha</p>", words(70, "x"));
        let b = format!("<p>{} beta</p>", words(70, "x"));
        let mut t = tree(&format!("{short}{a}{short}{b}"));
        assert_eq!(remove_repeats(&mut t), 0);
        assert_eq!(blocks(&t).len(), 4);
    }

    #[test]
    fn the_rebuilt_tree_keeps_document_order_and_parents() {
        let rep = format!(
            "<section><p>{}</p><p hidden>tail</p></section>",
            words(61, "w")
        );
        let mut t = tree(&format!("<div>{rep}<p>middle</p>{rep}<p>end</p></div>"));
        assert_eq!(remove_repeats(&mut t), 1);
        for (id, node) in t.nodes.iter().enumerate().skip(1) {
            assert!((node.parent as usize) < id);
            assert!(
                t.nodes[node.parent as usize]
                    .children
                    .contains(&(id as NodeId))
            );
        }
        let text: Vec<String> = blocks(&t).into_iter().map(|b| b.text).collect();
        assert_eq!(text[1..], ["tail", "middle", "end"]);
    }
}
