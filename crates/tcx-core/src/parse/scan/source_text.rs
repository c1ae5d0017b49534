//! Text and end tags read from the page between the start tags lol_html reports, instead of
//! from a text handler and end-tag handlers.
//!
//! With the whole page at hand, pass 1 registers only a start-tag handler: lol_html then never
//! decodes and copies text (inline scripts are often most of a page's bytes) and keeps no
//! end-tag handler per element. Every start tag reaches the handler with its byte range, so
//! the rest of the page is what lies between them (a *gap*): text, end tags, comments, the
//! doctype. The gap is read as lol_html's tokenizer reads it:
//!
//! - inside `script`, `style`, `title`, `textarea` … (raw text) it is one text node of that
//!   element's kind, up to the element's own end tag (for `script` after the tokenizer's
//!   escape rules: `<!--<script>…</script>-->` inside a script does not end it);
//! - elsewhere markup separates text nodes; an end tag closes the innermost element of that
//!   name that lol_html's own element stack holds (no implied end tags: `<p>a<p>b` nests
//!   there), with everything opened after it — the elements whose end-tag handlers lol_html
//!   would have run; a name no open element has is a stray end tag and closes nothing.
//!
//! A test compares this reading with lol_html's handlers on every corpus page. Pass 2
//! (`parse::tree`) reads its text the same way.

use lol_html::html_content::TextType;

use super::{ElementId, ScanState};

/// The kind of text inside an HTML element whose content the tokenizer reads as raw text,
/// as lol_html's tree-builder simulator decides it; `None` for ordinary content.
pub(crate) fn raw_text_kind(tag: &str) -> Option<TextType> {
    raw_text_element(tag).map(|(_, kind)| kind)
}

/// [`raw_text_kind`] with the element's static name.
fn raw_text_element(tag: &str) -> Option<(&'static str, TextType)> {
    Some(match tag {
        "textarea" => ("textarea", TextType::RCData),
        "title" => ("title", TextType::RCData),
        "plaintext" => ("plaintext", TextType::PlainText),
        "script" => ("script", TextType::ScriptData),
        "style" => ("style", TextType::RawText),
        "iframe" => ("iframe", TextType::RawText),
        "xmp" => ("xmp", TextType::RawText),
        "noembed" => ("noembed", TextType::RawText),
        "noframes" => ("noframes", TextType::RawText),
        "noscript" => ("noscript", TextType::RawText),
        _ => return None,
    })
}

/// Markup in a gap of ordinary content.
#[derive(Debug, PartialEq, Eq)]
enum Markup<'a> {
    /// An end tag with its lower-case name (ASCII letters lower-cased, as lol_html compares).
    EndTag(&'a str),
    /// A comment, the doctype, a processing instruction, a dropped or cut-off tag.
    Other,
}

/// The next markup in `b` at or after `from`: its start, its end (exclusive) and what it is.
fn next_markup<'a>(b: &[u8], gap: &'a str, mut from: usize) -> Option<(usize, usize, Markup<'a>)> {
    while let Some(k) = memchr::memchr(b'<', b.get(from..)?) {
        let at = from + k;
        if let Some((end, markup)) = markup_at(b, gap, at) {
            return Some((at, end, markup));
        }
        from = at + 1;
    }
    None
}

/// Calls `node` with each text node of a gap of ordinary (data) content: the text between
/// the markup in it.
pub(crate) fn data_text_nodes<'a>(gap: &'a str, mut node: impl FnMut(&'a str)) {
    let b = gap.as_bytes();
    let mut text_start = 0;
    while let Some((at, end, _)) = next_markup(b, gap, text_start) {
        if at > text_start {
            node(&gap[text_start..at]);
        }
        text_start = end;
    }
    if text_start < b.len() {
        node(&gap[text_start..]);
    }
}

/// The end (exclusive) of the markup starting with the `<` at `at` and what it is, or `None`
/// when that `<` is text. Unterminated markup runs to the end of the gap, as the tokenizer
/// drops it at the end of the input.
fn markup_at<'a>(b: &[u8], gap: &'a str, at: usize) -> Option<(usize, Markup<'a>)> {
    let after = |from: usize, needle: &[u8]| {
        memchr::memmem::find(b.get(from..).unwrap_or_default(), needle)
            .map_or(b.len(), |p| from + p + needle.len())
    };
    match *b.get(at + 1)? {
        b'!' if b[at..].starts_with(b"<!--") => {
            // `<!-->` and `<!--->` are (empty) comments too.
            let body = at + 4;
            let end = if b.get(body) == Some(&b'>') {
                body + 1
            } else if b.get(body..body + 2) == Some(b"->") {
                body + 2
            } else {
                after(body, b"-->")
            };
            Some((end, Markup::Other))
        }
        // The doctype, CDATA outside foreign content, bogus comments.
        b'!' | b'?' => Some((after(at + 2, b">"), Markup::Other)),
        b'/' => match *b.get(at + 2)? {
            // `</>` is dropped.
            b'>' => Some((at + 3, Markup::Other)),
            c if c.is_ascii_alphabetic() => {
                let name_end = b[at + 2..]
                    .iter()
                    .position(|&c| {
                        matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>')
                    })
                    .map_or(b.len(), |p| at + 2 + p);
                match memchr::memchr(b'>', &b[name_end..]) {
                    Some(p) => Some((name_end + p + 1, Markup::EndTag(&gap[at + 2..name_end]))),
                    // Cut off by the end of the input: dropped.
                    None => Some((b.len(), Markup::Other)),
                }
            }
            // A bogus comment.
            _ => Some((after(at + 2, b">"), Markup::Other)),
        },
        // A start tag no handler saw can only be one cut off by the end of the input.
        c if c.is_ascii_alphabetic() => Some((after(at + 1, b">"), Markup::Other)),
        _ => None,
    }
}

/// Where the raw text of an element `tag` in `b` ends: the start and end (exclusive) of its
/// end tag, `(len, len)` when the input ends first (an end tag cut off by the end of the
/// input is dropped with the rest).
fn raw_text_end(b: &[u8], tag: &str, kind: TextType) -> (usize, usize) {
    let len = b.len();
    // `</tag` followed by whitespace, `/` or `>` ends the element.
    let end_tag_at = |i: usize| {
        b.get(i..i + 2) == Some(b"</")
            && b.get(i + 2..i + 2 + tag.len())
                .is_some_and(|n| n.eq_ignore_ascii_case(tag.as_bytes()))
            && b.get(i + 2 + tag.len())
                .is_some_and(|&c| matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>'))
    };
    let close = |i: usize| match memchr::memchr(b'>', &b[i..]) {
        Some(p) => (i, i + p + 1),
        None => (len, len),
    };
    match kind {
        TextType::PlainText => (len, len),
        TextType::ScriptData => script_end(b, end_tag_at).map_or((len, len), close),
        _ => {
            let mut from = 0;
            while let Some(p) = memchr::memmem::find(&b[from..], b"</") {
                if end_tag_at(from + p) {
                    return close(from + p);
                }
                from += p + 2;
            }
            (len, len)
        }
    }
}

/// The start of the end tag that ends a script's text, following the tokenizer's script data
/// states: after `<!--` the text is *escaped*, where `<script` starts a *double-escaped* part
/// that only `</script` (back to escaped) or `-->` leaves; `-->` leaves the escaped part.
fn script_end(b: &[u8], end_tag_at: impl Fn(usize) -> bool) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Data,
        Escaped,
        DoubleEscaped,
    }
    let script_tag_at = |i: usize, open: bool| {
        let name = if open { 1 } else { 2 };
        b.get(i + name..i + name + 6)
            .is_some_and(|n| n.eq_ignore_ascii_case(b"script"))
            && b.get(i + name + 6)
                .is_some_and(|&c| matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>'))
    };
    let mut state = State::Data;
    let mut i = 0;
    loop {
        let next = match state {
            State::Data => memchr::memchr(b'<', &b[i..]),
            _ => memchr::memchr2(b'<', b'-', &b[i..]),
        };
        i += next?;
        match (state, b[i]) {
            (State::Data, _) => {
                if end_tag_at(i) {
                    return Some(i);
                }
                if b[i..].starts_with(b"<!--") {
                    state = State::Escaped;
                    // The dashes of `<!--` may also begin its `-->` (`<!-->`).
                    i += 2;
                    continue;
                }
            }
            (_, b'-') => {
                if b[i..].starts_with(b"-->") {
                    state = State::Data;
                    i += 3;
                    continue;
                }
            }
            (State::Escaped, _) => {
                if end_tag_at(i) {
                    return Some(i);
                }
                if b.get(i + 1) != Some(&b'/') && script_tag_at(i, true) {
                    state = State::DoubleEscaped;
                }
            }
            (State::DoubleEscaped, _) => {
                if b.get(i + 1) == Some(&b'/') && script_tag_at(i, false) {
                    state = State::Escaped;
                }
            }
        }
        i += 1;
    }
}

/// Numbers of the tags of elements only lol_html's stack holds start here.
const PARSER_ONLY_TAG: u32 = u32::MAX / 2;

impl ScanState {
    /// Reads the page from the end of the last token up to the start tag at `token_start`
    /// (the end of the input when it equals the page's length) — its text nodes and end
    /// tags — then moves past the start tag, which ends at `token_end`.
    pub(super) fn read_until(&mut self, source: &str, token_start: usize, token_end: usize) {
        let mut at = self.text_at;
        if token_start < at {
            return;
        }
        self.text_at = token_end.max(token_start);
        while at < token_start {
            let gap = &source[at..token_start];
            let b = gap.as_bytes();
            let top = self.stack.top().map_or("", |f| &*f.tag);
            // Foreign content (SVG, MathML) reads `<style>` and `<script>` as ordinary markup.
            let raw = raw_text_element(top)
                .filter(|_| !self.in_svg() && !self.stack.contains_tag("math"));
            if let Some((tag, kind)) = raw {
                let (end_start, end) = raw_text_end(b, tag, kind);
                self.text_node(&gap[..end_start], kind);
                if end_start < end {
                    self.end_tag_named(tag, at + end_start, at + end);
                }
                at += end;
                continue;
            }
            // Ordinary content: text nodes between markup, until an end tag changes the open
            // elements (the next part of the gap is then read afresh).
            let mut text_start = 0;
            let mut closed_at = None;
            while let Some((m_start, m_end, markup)) = next_markup(b, gap, text_start) {
                if m_start > text_start {
                    self.text_node(&gap[text_start..m_start], TextType::Data);
                }
                text_start = m_end;
                if let Markup::EndTag(name) = markup {
                    self.end_tag_named(name, at + m_start, at + m_end);
                    closed_at = Some(m_end);
                    break;
                }
            }
            match closed_at {
                Some(end) => at += end,
                None => {
                    if text_start < b.len() {
                        self.text_node(&gap[text_start..], TextType::Data);
                    }
                    at = token_start;
                }
            }
        }
    }

    /// Applies an end tag named `name` (as written) found at `start..end`: closes the
    /// innermost element of that name on lol_html's element stack and every element opened
    /// after it. `</body>` and `</html>` leave the elements open (browsers ignore them) but
    /// still leave lol_html's stack, as with its handlers.
    pub(super) fn end_tag_named(&mut self, name: &str, start: usize, end: usize) {
        let lower;
        let name = if name.bytes().any(|c| c.is_ascii_uppercase()) {
            lower = name.to_ascii_lowercase();
            lower.as_str()
        } else {
            name
        };
        let Some(tag) = self.tag_ids.get(name).copied().or_else(|| {
            let extra = self.parser_only_tags.iter().position(|t| t == name)?;
            Some(PARSER_ONLY_TAG + extra as u32)
        }) else {
            return;
        };
        let Some(pos) = self.parser_open.iter().rposition(|(t, _)| *t == tag) else {
            return;
        };
        let ignored = self
            .body_html_end_tags
            .as_ref()
            .is_some_and(|offsets| offsets.binary_search(&start).is_ok());
        let mut popped = std::mem::take(&mut self.popped);
        popped.extend(self.parser_open.drain(pos..).filter_map(|(_, id)| id));
        if !ignored {
            for &id in &popped {
                self.end_tag(id, end);
            }
        }
        popped.clear();
        self.popped = popped;
    }

    /// Records an element lol_html keeps on its element stack (`id` is `None` for one pass 1
    /// keeps no record of, such as a void element it reports as able to have content).
    pub(super) fn parser_opened(&mut self, tag: &str, id: Option<ElementId>) {
        let tag = match id {
            Some(id) => self.stats.elements[id as usize].tag,
            // Not interned among the records' tags (their table is part of the result).
            None => match self.parser_only_tags.iter().position(|t| t == tag) {
                Some(i) => PARSER_ONLY_TAG + i as u32,
                None => {
                    self.parser_only_tags.push(tag.to_owned());
                    PARSER_ONLY_TAG + self.parser_only_tags.len() as u32 - 1
                }
            },
        };
        self.parser_open.push((tag, id));
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
        assert_eq!(nodes("cut off </a"), ["cut off "]);
        assert_eq!(nodes("ends with <"), ["ends with <"]);
        assert!(nodes("").is_empty());
    }

    #[test]
    fn end_tags_are_read_with_their_names() {
        let gap = "a</DIV >b";
        assert_eq!(
            next_markup(gap.as_bytes(), gap, 0),
            Some((1, 8, Markup::EndTag("DIV")))
        );
    }

    #[test]
    fn raw_text_ends_at_its_own_end_tag() {
        fn end<'a>(text: &'a str, tag: &str, kind: TextType) -> (&'a str, &'a str) {
            let (s, e) = raw_text_end(text.as_bytes(), tag, kind);
            (&text[..s], &text[s..e])
        }
        assert_eq!(
            end("a</b></STYLE >c", "style", TextType::RawText),
            ("a</b>", "</STYLE >")
        );
        assert_eq!(
            end("x</stylex>", "style", TextType::RawText),
            ("x</stylex>", "")
        );
        assert_eq!(
            end("if(a<b)</script>c", "script", TextType::ScriptData),
            ("if(a<b)", "</script>")
        );
        // Escaped and double-escaped script text.
        let s = "<!--<script>x</script>y--></script>z";
        assert_eq!(
            end(s, "script", TextType::ScriptData),
            (&s[..26], "</script>")
        );
        let s = "<!-- a </script> b -->";
        assert_eq!(
            end(s, "script", TextType::ScriptData),
            ("<!-- a ", "</script>")
        );
        assert_eq!(end("rest", "plaintext", TextType::PlainText), ("rest", ""));
    }
}
