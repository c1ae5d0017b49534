//! Line breaks of preformatted text (`<pre>`, `<listing>`, `<textarea>`).
//!
//! A browser shows each line of a `<pre>` on its own; folded like other text, a whole terms
//! text kept in one `<pre>` (a plain-text document on a web page) became one block, without
//! sections or titles. Hard-wrapped prose, however, breaks its sentences at the line width, so
//! not every line is a block either. A line break ends the block
//! - at a blank line (a paragraph break);
//! - before a line that opens with a clause number or a list marker ("1.2", "a)", "§ 3", "-");
//! - after a short line that does not end a sentence, before a line that does not go on in
//!   lower case: a title ("1. TERMS OF SERVICE").
//!
//! Otherwise the lines are joined with a space, as the wrapped sentence they are.

use super::{Builder, Context};
use crate::structure::style::Style;

/// Lines shorter than this that end without sentence punctuation are titles: well under the
/// usual 72–80 character width of wrapped text.
pub const PRE_TITLE_MAX_CHARS: usize = 50;

/// What [`Builder`] keeps of the preformatted line being built.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct PreLine {
    /// Characters of the current line so far.
    chars: usize,
    /// Its last character that is not white space.
    last: Option<char>,
    /// Line breaks seen since its last character.
    breaks: u8,
}

impl Builder {
    /// Adds the text of a node inside preformatted text: its lines, broken or joined as the
    /// module docs say.
    pub(super) fn push_pre_text(&mut self, s: &str, ctx: Context, style: Style) {
        for (i, line) in s.split('\n').enumerate() {
            if i > 0 {
                self.pre.breaks = self.pre.breaks.saturating_add(1);
                // A line break is white space.
                self.pending_space = !self.text.is_empty();
            }
            let content = line.trim();
            if content.is_empty() {
                if !line.is_empty() {
                    self.pending_space = !self.text.is_empty();
                }
                continue;
            }
            // A new line begins: it ends the block or joins it, and is counted afresh.
            if self.pre.breaks > 0 {
                if self.pre_line_ends_block(content) {
                    self.flush();
                }
                self.pre = PreLine::default();
            }
            if line.starts_with(char::is_whitespace) {
                self.pending_space = !self.text.is_empty();
            }
            self.push_text_by_chars(content, ctx, style);
            if line.ends_with(char::is_whitespace) {
                self.pending_space = true;
            }
            self.pre.chars += content.chars().count();
            self.pre.last = content.chars().last();
        }
    }

    /// Whether the line break(s) before `next` (a line's text) end the block.
    fn pre_line_ends_block(&self, next: &str) -> bool {
        if self.text.is_empty() {
            return false;
        }
        let blank_line = self.pre.breaks >= 2;
        let title = self.pre.chars > 0
            && self.pre.chars < PRE_TITLE_MAX_CHARS
            && !next.starts_with(char::is_lowercase)
            && !self
                .pre
                .last
                .is_some_and(|c| matches!(c, '.' | ',' | ';' | '!' | '?'));
        blank_line || title || opens_with_a_marker(next)
    }
}

/// Whether a line opens with a clause number or a list marker: "1.", "1.2", "2)", "(a)", "a)",
/// "iv.", "§ 3", "- ", "* ", "• ".
fn opens_with_a_marker(line: &str) -> bool {
    let mut chars = line.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if first == '§' || (matches!(first, '-' | '*' | '•' | '–') && chars.next() == Some(' ')) {
        return true;
    }
    let body = line.strip_prefix('(').unwrap_or(line);
    let token = body.split_whitespace().next().unwrap_or("");
    let numbers = |t: &str| {
        !t.is_empty()
            && t.split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    // "1.2" and "1.2.3" need no closing mark; "12345" is no clause number.
    if token.contains('.') && numbers(token) {
        return true;
    }
    let Some(stem) = token.strip_suffix(['.', ')', ':']) else {
        return false;
    };
    let digits = numbers(stem);
    let letter = stem.len() == 1 && stem.bytes().all(|b| b.is_ascii_lowercase());
    let roman = !stem.is_empty()
        && stem.len() <= 4
        && stem
            .bytes()
            .all(|b| matches!(b, b'i' | b'v' | b'x' | b'I' | b'V' | b'X'));
    digits || letter || roman
}

#[cfg(test)]
mod tests {
    use super::opens_with_a_marker;

    #[test]
    fn markers_open_clauses_and_items() {
        for line in [
            "1. TERMS",
            "1.2 Fees",
            "1.2. Fees",
            "3.1.4 Scope",
            "2) Scope",
            "(a) the user",
            "a) the user",
            "iv. Law",
            "§ 3 Preise",
            "- item",
            "• item",
        ] {
            assert!(opens_with_a_marker(line), "{line}");
        }
        for line in [
            "In 2024 we",
            "We may",
            "12345 Berlin",
            "e.g. this",
            "-5 degrees",
            "I agree",
        ] {
            assert!(!opens_with_a_marker(line), "{line}");
        }
    }
}
