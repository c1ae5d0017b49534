//! The page between the start tags lol_html reports, read as lol_html's tokenizer reads it.
//!
//! With the whole page at hand both passes take only the start tags from lol_html
//! (`parse::start_tags`): it then neither decodes and copies text (inline scripts are often
//! most of a page's bytes) nor reports end tags. Every start tag arrives with its byte range, so
//! the rest of the page is what lies between them (a *gap*): text, end tags, comments, the
//! doctype. [`read_gap`] reads a gap:
//!
//! - inside `script`, `style`, `title`, `textarea` … (raw text) it is one text node of that
//!   element's kind, up to the element's own end tag (for `script` after the tokenizer's
//!   escape rules: `<!--<script>…</script>-->` inside a script does not end it);
//! - elsewhere markup separates text nodes; an end tag is handed to the pass, which closes
//!   the innermost element of that name on lol_html's own element stack ([`ParserStack`]: no
//!   implied end tags, `<p>a<p>b` nests there) with everything opened after it — the
//!   elements whose end-tag handlers lol_html would have run. A name no open element has is a
//!   stray end tag and closes nothing.
//!
//! A test compares this reading with lol_html's text and end-tag handlers on every corpus
//! page, for both passes.

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Range;

use lol_html::html_content::TextType;

use crate::parse::scan::FastHash;

/// The name and kind of text of an HTML element whose content the tokenizer reads as raw
/// text, as lol_html's tree-builder simulator decides it; `None` for ordinary content.
pub(crate) fn raw_text_element(tag: &str) -> Option<(&'static str, TextType)> {
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

/// The namespace the tokenizer is in (HTML, or SVG/MathML foreign content).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Namespace {
    Html,
    Svg,
    MathMl,
}

/// What lol_html's tokenizer knows beyond the tags: its namespace (lol_html's tree-builder
/// simulator, rule for rule: SVG and MathML are entered at `<svg>`/`<math>`, left at their end
/// tags, at HTML elements that break out of foreign content, and around integration points)
/// and whether the content after the last start tag is raw text.
#[derive(Debug)]
pub(crate) struct TokenizerState {
    namespaces: Vec<Namespace>,
    raw: Option<(&'static str, TextType)>,
    /// Where the page not yet read begins (the end of the last start tag).
    read_to: usize,
}

impl Default for TokenizerState {
    fn default() -> Self {
        TokenizerState {
            namespaces: vec![Namespace::Html],
            raw: None,
            read_to: 0,
        }
    }
}

impl TokenizerState {
    fn current(&self) -> Namespace {
        self.namespaces.last().copied().unwrap_or(Namespace::Html)
    }

    fn leave(&mut self) {
        if self.namespaces.len() > 1 {
            self.namespaces.pop();
        }
    }

    /// A start tag lol_html reported (lower-case `name`): `self_closing` as written, and
    /// whether a `font` element has a `color`, `face` or `size` attribute.
    pub(crate) fn start_tag(&mut self, name: &str, self_closing: bool, font_attrs: bool) {
        self.raw = None;
        match (name, self.current()) {
            ("svg", _) => self.namespaces.push(Namespace::Svg),
            ("math", _) => self.namespaces.push(Namespace::MathMl),
            (_, Namespace::Html) => self.raw = raw_text_element(name),
            (_, ns) => {
                let integration = match ns {
                    Namespace::Svg => matches!(name, "desc" | "title" | "foreignobject"),
                    _ => matches!(name, "mi" | "mo" | "mn" | "ms" | "mtext"),
                };
                if breaks_out_of_foreign_content(name) || (name == "font" && font_attrs) {
                    self.leave();
                } else if integration && !self_closing {
                    self.namespaces.push(Namespace::Html);
                }
            }
        }
    }

    /// An end tag read from the page (lower-case `name`).
    fn end_tag(&mut self, name: &str) {
        let len = self.namespaces.len();
        match self.current() {
            Namespace::Html if len >= 2 => {
                let leaves = match self.namespaces[len - 2] {
                    Namespace::Svg => matches!(name, "desc" | "title" | "foreignobject"),
                    Namespace::MathMl => {
                        matches!(name, "mi" | "mo" | "mn" | "ms" | "mtext" | "annotation-xml")
                    }
                    Namespace::Html => false,
                };
                if leaves {
                    self.leave();
                }
            }
            Namespace::Html => {}
            ns => {
                let own = matches!(
                    (ns, name),
                    (Namespace::Svg, "svg") | (Namespace::MathMl, "math")
                );
                if own || matches!(name, "p" | "br") {
                    self.leave();
                }
            }
        }
    }
}

/// HTML start tags that end foreign content (the HTML standard's list, as lol_html has it).
fn breaks_out_of_foreign_content(name: &str) -> bool {
    matches!(
        name,
        "b" | "big"
            | "blockquote"
            | "body"
            | "br"
            | "center"
            | "code"
            | "dd"
            | "div"
            | "dl"
            | "dt"
            | "em"
            | "embed"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "head"
            | "hr"
            | "i"
            | "img"
            | "li"
            | "listing"
            | "menu"
            | "meta"
            | "nobr"
            | "ol"
            | "p"
            | "pre"
            | "ruby"
            | "s"
            | "small"
            | "span"
            | "strong"
            | "strike"
            | "sub"
            | "sup"
            | "table"
            | "tt"
            | "u"
            | "ul"
            | "var"
    )
}

/// What reading a gap does to a pass.
pub(crate) trait GapReader {
    /// The tokenizer state the pass keeps (updated by its start-tag handler).
    fn tokenizer(&mut self) -> &mut TokenizerState;
    /// A text node of the given kind, as written (character references not decoded).
    fn text(&mut self, raw: &str, kind: TextType);
    /// An end tag named `name` (as written) that ends at `end` in the page.
    fn end_tag(&mut self, name: &str, end: usize);
}

/// Whether browsers ignore an end tag: `</body>` and `</html>` (content after them still
/// belongs to the body).
pub(crate) fn is_ignored_end_tag(name: &str) -> bool {
    name.eq_ignore_ascii_case("body") || name.eq_ignore_ascii_case("html")
}

/// Reads the page from the end of the last start tag up to the start tag at `tag` (an empty
/// range at the page's length for the end of the input) — its text nodes and end tags — then
/// moves past that start tag. Called again for the same start tag, it reads nothing.
pub(crate) fn read_up_to(reader: &mut impl GapReader, source: &str, tag: Range<usize>) {
    let from = reader.tokenizer().read_to;
    if tag.start < from {
        return;
    }
    reader.tokenizer().read_to = tag.end.max(tag.start);
    read_gap(reader, source, from, tag.start);
}

/// Reads `source[from..to]`, a gap between two start tags (or the end of the input): its text
/// nodes and end tags, in order.
fn read_gap(reader: &mut impl GapReader, source: &str, from: usize, to: usize) {
    let mut at = from;
    while at < to {
        let gap = &source[at..to];
        let b = gap.as_bytes();
        if let Some((tag, kind)) = reader.tokenizer().raw.take() {
            let (end_start, end) = raw_text_end(b, tag, kind);
            reader.text(&gap[..end_start], kind);
            if end_start < end {
                reader.tokenizer().end_tag(tag);
                reader.end_tag(tag, at + end);
            }
            at += end;
            continue;
        }
        // Ordinary content: text nodes between markup, until an end tag changes the open
        // elements (the rest of the gap is then read afresh).
        let mut text_start = 0;
        let mut closed_at = None;
        let cdata = reader.tokenizer().current() != Namespace::Html;
        while let Some((m_start, m_end, markup)) = next_markup(b, gap, text_start, cdata) {
            if m_start > text_start {
                reader.text(&gap[text_start..m_start], TextType::Data);
            }
            text_start = m_end;
            if let Markup::Cdata(text) = markup
                && !text.is_empty()
            {
                reader.text(text, TextType::CDataSection);
            }
            if let Markup::EndTag(name) = markup {
                reader.tokenizer().end_tag(&lower_tag(name));
                reader.end_tag(name, at + m_end);
                closed_at = Some(m_end);
                break;
            }
        }
        match closed_at {
            Some(end) => at += end,
            None => {
                if text_start < b.len() {
                    reader.text(&gap[text_start..], TextType::Data);
                }
                at = to;
            }
        }
    }
}

/// A key naming an element's tag on [`ParserStack`].
pub(crate) trait StackKey: Hash + Eq + Clone {
    /// A small number for this key, when it has one: its open elements are then counted in a
    /// table instead of a map.
    fn small(&self) -> Option<usize> {
        None
    }
}

/// Pass 1's interned tag ids.
impl StackKey for u32 {
    fn small(&self) -> Option<usize> {
        usize::try_from(*self).ok().filter(|&n| n < 1024)
    }
}

/// Pass 2's tag names.
impl StackKey for std::borrow::Cow<'static, str> {}

/// The elements on lol_html's own element stack, by a key naming their tag, with the pass's
/// id of each (`None` for one the pass keeps no record of). How many elements of each key are
/// open is counted (as lol_html does): an end tag whose name no open element has is found
/// stray without a walk down the stack, so thousands of stray end tags under thousands of
/// open elements stay linear.
#[derive(Debug)]
pub(crate) struct ParserStack<K> {
    open: Vec<(K, Option<u32>)>,
    small_counts: Vec<u32>,
    counts: HashMap<K, u32, FastHash>,
}

impl<K> Default for ParserStack<K> {
    fn default() -> Self {
        ParserStack {
            open: Vec::new(),
            small_counts: Vec::new(),
            counts: HashMap::default(),
        }
    }
}

impl<K: StackKey> ParserStack<K> {
    /// The count of open elements of `key`.
    fn count(&mut self, key: &K) -> &mut u32 {
        match key.small() {
            Some(n) => {
                if self.small_counts.len() <= n {
                    self.small_counts.resize(n + 1, 0);
                }
                &mut self.small_counts[n]
            }
            None => self.counts.entry(key.clone()).or_insert(0),
        }
    }

    /// An element lol_html keeps on its stack (one that can have content).
    pub(crate) fn push(&mut self, key: K, id: Option<u32>) {
        *self.count(&key) += 1;
        self.open.push((key, id));
    }

    /// Pops the innermost element with `key` and every element above it, appending their ids
    /// to `popped` (outermost first); nothing when no element has that key. True when the
    /// element of `key` has an id: lol_html would call its end-tag handler.
    pub(crate) fn pop_to(&mut self, key: &K, popped: &mut Vec<u32>) -> bool {
        if *self.count(key) == 0 {
            return false;
        }
        let Some(pos) = self.open.iter().rposition(|(k, _)| k == key) else {
            return false;
        };
        let handled = self.open[pos].1.is_some();
        for (k, id) in &self.open[pos..] {
            let n = match k.small() {
                Some(n) => self.small_counts.get_mut(n),
                None => self.counts.get_mut(k),
            };
            if let Some(n) = n {
                *n = n.saturating_sub(1);
            }
            popped.extend(*id);
        }
        self.open.truncate(pos);
        handled
    }
}

/// `name` with ASCII letters lower-cased, borrowed when it has none upper-case (as lol_html
/// compares tag names).
pub(crate) fn lower_tag(name: &str) -> std::borrow::Cow<'_, str> {
    if name.bytes().any(|c| c.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(name.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

/// Markup in a gap of ordinary content.
#[derive(Debug, PartialEq, Eq)]
enum Markup<'a> {
    /// An end tag with its lower-case name (ASCII letters lower-cased, as lol_html compares).
    EndTag(&'a str),
    /// A CDATA section in foreign content, with its text.
    Cdata(&'a str),
    /// A comment, the doctype, a processing instruction, a dropped or cut-off tag.
    Other,
}

/// The next markup in `b` at or after `from`: its start, its end (exclusive) and what it is.
fn next_markup<'a>(
    b: &[u8],
    gap: &'a str,
    mut from: usize,
    cdata: bool,
) -> Option<(usize, usize, Markup<'a>)> {
    while let Some(k) = memchr::memchr(b'<', b.get(from..)?) {
        let at = from + k;
        if let Some((end, markup)) = markup_at(b, gap, at, cdata) {
            return Some((at, end, markup));
        }
        from = at + 1;
    }
    None
}

/// The end (exclusive) of the markup starting with the `<` at `at` and what it is, or `None`
/// when that `<` is text. Unterminated markup runs to the end of the gap, as the tokenizer
/// drops it at the end of the input.
fn markup_at<'a>(b: &[u8], gap: &'a str, at: usize, cdata: bool) -> Option<(usize, Markup<'a>)> {
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
        // In foreign content a CDATA section is text up to `]]>`.
        b'!' if cdata && b[at..].starts_with(b"<![CDATA[") => {
            let body = at + 9;
            let close = memchr::memmem::find(&b[body..], b"]]>").map_or(b.len(), |p| body + p);
            Some(((close + 3).min(b.len()), Markup::Cdata(&gap[body..close])))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parser_stack_pairs_end_tags_by_name_and_ignores_stray_ones() {
        // Names counted in the map (pass 2) and small numbers counted in the table (pass 1).
        fn check<K: StackKey>(key: impl Fn(&'static str) -> K) {
            let mut stack = ParserStack::default();
            for (name, id) in [
                ("div", Some(1)),
                ("p", Some(2)),
                ("img", None),
                ("p", Some(3)),
            ] {
                stack.push(key(name), id);
            }
            let mut popped = Vec::new();
            stack.pop_to(&key("span"), &mut popped);
            assert!(popped.is_empty());
            stack.pop_to(&key("p"), &mut popped);
            assert_eq!(popped, [3]);
            popped.clear();
            // The outer `p` and everything above it; the element without a record has no id.
            stack.push(key("b"), Some(4));
            stack.pop_to(&key("p"), &mut popped);
            assert_eq!(popped, [2, 4]);
            popped.clear();
            stack.pop_to(&key("p"), &mut popped);
            assert!(popped.is_empty(), "no p is open any more");
            stack.pop_to(&key("div"), &mut popped);
            assert_eq!(popped, [1]);
            assert!(stack.open.is_empty());
        }
        check(std::borrow::Cow::Borrowed);
        let names = ["div", "p", "img", "b", "span"];
        check(|name| names.iter().position(|n| *n == name).unwrap_or(99) as u32);
        check(|name| 5000 + names.iter().position(|n| *n == name).unwrap_or(99) as u32);
    }

    /// Calls `node` with each text node of a gap of ordinary (data) content: the text between
    /// the markup in it.
    fn data_text_nodes<'a>(gap: &'a str, mut node: impl FnMut(&'a str)) {
        let b = gap.as_bytes();
        let mut text_start = 0;
        while let Some((at, end, _)) = next_markup(b, gap, text_start, false) {
            if at > text_start {
                node(&gap[text_start..at]);
            }
            text_start = end;
        }
        if text_start < b.len() {
            node(&gap[text_start..]);
        }
    }

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
            next_markup(gap.as_bytes(), gap, 0, false),
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
