//! Text read from the page between the tags lol_html reports, instead of from a text handler.
//!
//! With the whole page at hand, pass 1 registers no text handler: lol_html then never decodes
//! and copies text (inline scripts are often most of a page's bytes). Every start and end tag
//! reaches a handler with its byte range, so the text of the page is what lies between them
//! (a *gap*). Inside `script`, `style`, `title`, `textarea` … a gap is one raw text node of
//! that element's kind. Elsewhere a gap may still hold markup no handler sees — comments, the
//! doctype, processing instructions, stray end tags — which separates text nodes exactly as
//! in lol_html's token stream. A test compares both readings on every corpus page. Pass 2
//! (`parse::tree`) reads its text the same way.

use lol_html::html_content::TextType;

use super::ScanState;

/// The kind of text inside an HTML element whose content the tokenizer reads as raw text,
/// as lol_html's tree-builder simulator decides it; `None` for ordinary content.
pub(crate) fn raw_text_kind(tag: &str) -> Option<TextType> {
    match tag {
        "textarea" | "title" => Some(TextType::RCData),
        "plaintext" => Some(TextType::PlainText),
        "script" => Some(TextType::ScriptData),
        "style" | "iframe" | "xmp" | "noembed" | "noframes" | "noscript" => Some(TextType::RawText),
        _ => None,
    }
}

/// Calls `node` with each text node of a gap of ordinary (data) content: the text between
/// the markup in it.
pub(crate) fn data_text_nodes<'a>(gap: &'a str, mut node: impl FnMut(&'a str)) {
    let b = gap.as_bytes();
    let mut text_start = 0;
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'<', &b[from..]) {
        let at = from + k;
        match markup_end(b, at) {
            Some(end) => {
                if at > text_start {
                    node(&gap[text_start..at]);
                }
                text_start = end;
                from = end;
            }
            // A `<` that starts no markup is text.
            None => from = at + 1,
        }
        if from >= b.len() {
            break;
        }
    }
    if text_start < b.len() {
        node(&gap[text_start..]);
    }
}

/// Where the markup starting with the `<` at `at` ends (exclusive), or `None` when that `<`
/// is text. Unterminated markup runs to the end of the gap, as the tokenizer drops it at the
/// end of the input.
fn markup_end(b: &[u8], at: usize) -> Option<usize> {
    let after = |from: usize, needle: &[u8]| {
        memchr::memmem::find(b.get(from..).unwrap_or_default(), needle)
            .map_or(b.len(), |p| from + p + needle.len())
    };
    match *b.get(at + 1)? {
        b'!' if b[at..].starts_with(b"<!--") => {
            // `<!-->` and `<!--->` are (empty) comments too.
            let body = at + 4;
            if b.get(body) == Some(&b'>') {
                Some(body + 1)
            } else if b.get(body..body + 2) == Some(b"->") {
                Some(body + 2)
            } else {
                Some(after(body, b"-->"))
            }
        }
        // The doctype, CDATA outside foreign content, bogus comments.
        b'!' | b'?' => Some(after(at + 2, b">")),
        b'/' => match *b.get(at + 2)? {
            // `</>` is dropped.
            b'>' => Some(at + 3),
            // An end tag no open element took (a stray `</span>`), or a bogus comment.
            _ => Some(after(at + 2, b">")),
        },
        // A start tag no handler saw can only be one cut off by the end of the input.
        c if c.is_ascii_alphabetic() => Some(after(at + 1, b">")),
        _ => None,
    }
}

impl ScanState {
    /// Counts the text of the page from the end of the last token up to `token_start`, then
    /// moves past the token (which ends at `token_end`). Several handlers may run for one token
    /// (an end tag closing nested elements); only the first reads the gap.
    pub(super) fn read_text_until(&mut self, source: &str, token_start: usize, token_end: usize) {
        if token_start < self.text_at {
            return;
        }
        let gap = source.get(self.text_at..token_start).unwrap_or("");
        self.text_at = token_end.max(token_start);
        if gap.is_empty() {
            return;
        }
        let top = self.stack.top().map(|f| &*f.tag).unwrap_or("");
        match raw_text_kind(top) {
            // Foreign content (SVG, MathML) reads `<style>` and `<script>` as ordinary markup.
            Some(kind) if !self.in_svg() && !self.stack.contains_tag("math") => {
                self.text_node(gap, kind);
            }
            _ => data_text_nodes(gap, |t| self.text_node(t, TextType::Data)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(gap: &str) -> Vec<&str> {
        let mut out = Vec::new();
        data_text_nodes(gap, |t| out.push(t));
        out
    }

    #[test]
    fn markup_between_tags_separates_text_nodes() {
        assert_eq!(nodes("a <!-- b --> c"), ["a ", " c"]);
        assert_eq!(nodes("<!DOCTYPE html>\n"), ["\n"]);
        assert_eq!(nodes("x</span>y</>z"), ["x", "y", "z"]);
        assert_eq!(nodes("1 < 2 <3 a<?xml v?>b"), ["1 < 2 <3 a", "b"]);
        assert_eq!(nodes("a<!-->b<!--->c"), ["a", "b", "c"]);
        assert_eq!(nodes("text <!-- unterminated"), ["text "]);
        assert_eq!(nodes("cut off <a href"), ["cut off "]);
        assert_eq!(nodes("ends with <"), ["ends with <"]);
        assert!(nodes("").is_empty());
    }
}
