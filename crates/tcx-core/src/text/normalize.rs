//! Kitten-style normalisation of block texts before segmentation.

use unicode_normalization::{IsNormalized, UnicodeNormalization};

use crate::parse::tree::{NodeKind, ReducedTree};

/// NFC, soft hyphens and zero-width characters removed, every run of whitespace (NBSP and
/// the other Unicode spaces included) folded to one space, trimmed.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    let chars: Box<dyn Iterator<Item = char>> =
        if unicode_normalization::is_nfc_quick(text.chars()) == IsNormalized::Yes {
            Box::new(text.chars())
        } else {
            Box::new(text.nfc())
        };
    for c in chars {
        match c {
            '\u{00AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
            c if c.is_whitespace() => space = !out.is_empty(),
            c => {
                if space {
                    out.push(' ');
                    space = false;
                }
                out.push(c);
            }
        }
    }
    out
}

/// True when the text ends like a sentence (`.`, `!`, `?`, `…`, possibly behind a closing
/// quote or bracket).
pub fn ends_sentence(text: &str) -> bool {
    let t = text.trim_end_matches(['"', '\'', '“', '”', '«', '»', ')', ']', '’']);
    t.ends_with(['.', '!', '?', '…'])
}

/// The `<abbr>`/`<acronym>` elements of the tree with a `title`: (text, title) pairs in
/// document order, each text once.
pub fn abbreviation_titles(tree: &ReducedTree) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for node in &tree.nodes {
        if !matches!(node.tag(), Some("abbr" | "acronym")) {
            continue;
        }
        let Some(title) = node.attribute("title").map(fold) else {
            continue;
        };
        let mut text = String::new();
        let mut todo: Vec<_> = node.children.iter().rev().copied().collect();
        while let Some(id) = todo.pop() {
            let n = tree.node(id);
            match &n.kind {
                NodeKind::Text(t) => text.push_str(t),
                NodeKind::Element { .. } => todo.extend(n.children.iter().rev().copied()),
            }
        }
        let text = fold(&text);
        if text.is_empty() || title.is_empty() || text == title {
            continue;
        }
        if !out.iter().any(|(t, _)| *t == text) {
            out.push((text, title));
        }
    }
    out
}

/// Adds ` (title)` after the first whole-word occurrence of each abbreviation not yet
/// expanded; `done` remembers the expanded ones across the document.
pub fn expand_abbreviations(
    text: &str,
    titles: &[(String, String)],
    done: &mut Vec<bool>,
) -> String {
    if done.len() < titles.len() {
        done.resize(titles.len(), false);
    }
    let mut out = text.to_owned();
    for (i, (abbr, title)) in titles.iter().enumerate() {
        if done[i] {
            continue;
        }
        let Some(at) = find_word(&out, abbr) else {
            continue;
        };
        done[i] = true;
        let end = at + abbr.len();
        let already = out[end..].trim_start().starts_with(&format!("({title}"));
        if !already {
            out.insert_str(end, &format!(" ({title})"));
        }
    }
    out
}

/// Byte offset of `word` in `text` where it is not part of a longer word.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(pos) = text[from..].find(word) {
        let at = from + pos;
        let end = at + word.len();
        let before = text[..at].chars().next_back();
        let after = text[end..].chars().next();
        if !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric) {
            return Some(at);
        }
        from = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_spaces_soft_hyphens_and_nfc() {
        assert_eq!(
            fold("  Ge\u{00AD}schäfts\u{00A0}\u{00A0}bedingungen\u{200B}\n gelten "),
            "Geschäfts bedingungen gelten"
        );
        // "a" + combining diaeresis becomes the precomposed "ä".
        assert_eq!(fold("Ka\u{0308}ufer"), "Käufer");
        assert_eq!(fold(" \u{00A0} "), "");
    }

    #[test]
    fn abbreviations_expand_once() {
        let titles = vec![(
            "AGB".to_owned(),
            "Allgemeine Geschäftsbedingungen".to_owned(),
        )];
        let mut done = Vec::new();
        assert_eq!(
            expand_abbreviations("Diese AGB gelten. Die AGB", &titles, &mut done),
            "Diese AGB (Allgemeine Geschäftsbedingungen) gelten. Die AGB"
        );
        assert_eq!(
            expand_abbreviations("Die AGB", &titles, &mut done),
            "Die AGB"
        );
        let mut done = Vec::new();
        assert_eq!(expand_abbreviations("AGBs", &titles, &mut done), "AGBs");
    }
}
