//! Plain title lines: section titles set exactly like the text (see
//! `docs/algorithms.md#plain-title-lines` and [`super::roles`], phase 8).

use super::*;

/// Fewest plain title lines (of distinct texts) a page must have for any to count.
pub(super) const MIN_PLAIN_TITLES: usize = 2;
/// Most words of a plain title line.
const MAX_PLAIN_TITLE_WORDS: usize = 6;
/// Fewest words of the prose a plain title line must stand before.
const MIN_PROSE_WORDS: usize = 12;

/// Whether block `i` reads as a title though set like the text: a paragraph of at most
/// [`MAX_PLAIN_TITLE_WORDS`] words starting with a capital, without links, digits or
/// punctuation that makes it a sentence, a label ("Telefon:") or an address; standing after a
/// finished sentence (`after_text`: the block before is text) and before prose (a paragraph of
/// at least [`MIN_PROSE_WORDS`] words ending a sentence).
pub(super) fn is_plain_title_line(blocks: &[Block], i: usize, after_text: bool) -> bool {
    let b = &blocks[i];
    let text = b.text.trim();
    let plain = b.kind == BlockKind::Paragraph
        && b.list_item.is_none()
        && b.link_share == 0.0
        && (1..=MAX_PLAIN_TITLE_WORDS).contains(&b.words)
        && text.chars().next().is_some_and(char::is_uppercase)
        && !text.contains(|c: char| {
            c.is_ascii_digit()
                || matches!(
                    c,
                    ',' | ';' | ':' | '.' | '!' | '?' | '@' | '/' | '(' | '[' | '|' | '*'
                )
        });
    if !plain {
        return false;
    }
    // A second copy of the title before it, already read as text, stays text (folded only
    // here: the block before may be a long paragraph).
    let copy_of_previous = i > 0 && fold(&blocks[i - 1].text) == fold(text);
    if copy_of_previous || is_interface_label(text) {
        return false;
    }
    let ends_sentence = |t: &str| t.trim_end().ends_with(['.', '!', '?', ':', ';']);
    let before_ok = i == 0 || !after_text || ends_sentence(&blocks[i - 1].text);
    // The prose opens a sentence: a line broken by `<br>` inside a sentence ("Wir verwenden
    // Cookies<br>um …") goes on in lower case.
    let next_is_prose = blocks.get(i + 1).is_some_and(|n| {
        n.kind == BlockKind::Paragraph
            && !starts_lowercase(&n.text)
            && n.words >= MIN_PROSE_WORDS
            && ends_sentence(&n.text)
    });
    before_ok && next_is_prose
}

/// Interface labels that stand alone on a line like a title but name no section: an
/// advertisement slot, a subscribe or share button, a "read more" link set as text.
const INTERFACE_LABELS: &[&str] = &[
    "advertisement",
    "anzeige",
    "werbung",
    "subscribe",
    "abonnieren",
    "learn more",
    "read more",
    "mehr erfahren",
    "weiterlesen",
    "share",
    "teilen",
    "print",
    "drucken",
    "back to top",
    "nach oben",
    "en savoir plus",
    "publicité",
];

/// Whether a line is one of the [`INTERFACE_LABELS`] (case folded).
fn is_interface_label(text: &str) -> bool {
    INTERFACE_LABELS.contains(&text.to_lowercase().as_str())
}
