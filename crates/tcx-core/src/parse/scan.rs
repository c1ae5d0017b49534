//! Pass 1: one streaming lol_html pass over the whole page, no DOM.
//!
//! For every element it keeps a flat record (parent, depth, naive style, byte range and the
//! characters of its *direct* text nodes), which is all the content step needs: subtree sums
//! follow from one reverse pass over the records because they are stored in document order.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;
use std::rc::Rc;

use lol_html::html_content::{Element, EndTag, TextChunk, TextType};
use lol_html::{HtmlRewriter, MemorySettings, Settings, doc_text, element, end};

use super::consent::is_consent_banner;
use super::stack::{ElementStack, is_unrendered, is_void};
use crate::{AnalysisOptions, AnalyzeError};

/// Index of an element in [`StyleStats::elements`]; 0 is the virtual document root.
pub type ElementId = u32;
/// Index of a naive style key in [`StyleStats::style_keys`].
pub type StyleId = u32;

/// What pass 1 knows about one element.
#[derive(Debug, Clone, PartialEq)]
pub struct ElementRecord {
    /// The enclosing element (the root's parent is itself).
    pub parent: ElementId,
    /// 0 for the virtual root, 1 for `<html>` and so on.
    pub depth: u32,
    /// Interned tag name ([`StyleStats::tag_name`]).
    pub tag: u32,
    /// Interned naive style key: tag plus attributes sorted by name.
    pub style: StyleId,
    /// Characters of direct text nodes with at least `min_words` words.
    pub counted_chars: u32,
    /// Characters of all direct text nodes (used when no text reaches `min_words`).
    pub all_chars: u32,
    /// False inside `script`, `head`, `svg` … (see [`is_unrendered`]).
    pub rendered: bool,
    /// Inside an `<a>` (its text is link text).
    pub in_link: bool,
    /// A non-blank text node stands directly in the parent between the previous sibling
    /// element and this one (it breaks a run of siblings in the fallback).
    pub text_before: bool,
    /// Byte range in the input: start of the start tag to the end of the end tag (or to where
    /// the element was implicitly closed).
    pub range: Range<usize>,
}

/// Result of pass 1.
#[derive(Debug, Clone, PartialEq)]
pub struct StyleStats {
    /// Records in document order; index 0 is the virtual root spanning the whole input.
    pub elements: Vec<ElementRecord>,
    /// Naive style keys by [`StyleId`].
    pub style_keys: Vec<String>,
    /// Interned tag names.
    pub tags: Vec<String>,
    /// The first `<title>`, whitespace folded.
    pub title: Option<String>,
    /// Contents of `<style>` elements, in document order.
    pub stylesheets: Vec<String>,
    /// The element whose subtree is the page body: `<body>`, else `<html>`, else the root.
    pub content_root: ElementId,
    /// Number of `<script>` elements.
    pub scripts: usize,
    /// Bytes of inline script code.
    pub script_bytes: usize,
    /// Text of the `h1`–`h3` elements (whitespace folded, at most
    /// [`HEADING_TEXT_MAX_CHARS`] bytes each), in document order: enough to recognise a
    /// document title outside the content.
    pub heading_texts: Vec<(ElementId, String)>,
}

/// Longest heading text kept by pass 1, in bytes.
pub const HEADING_TEXT_MAX_CHARS: usize = 200;

/// Mutable state shared by the lol_html handlers of pass 1.
struct ScanState {
    stats: StyleStats,
    stack: ElementStack,
    style_ids: HashMap<String, StyleId, FastHash>,
    tag_ids: HashMap<String, u32, FastHash>,
    /// Reused buffer for building style keys (most keys are already interned).
    key: String,
    /// Reused buffer for the attributes of the element being opened.
    attrs: Vec<(String, String)>,
    /// Per record: a non-blank direct text node was seen since its last child element.
    text_since_child: Vec<bool>,
    text: String,
    closed: Vec<u32>,
    min_words: usize,
    input_len: usize,
    body: Option<ElementId>,
    html: Option<ElementId>,
    in_title: bool,
    /// The outermost open `h1`–`h3`, whose text is kept.
    heading: Option<ElementId>,
}

impl StyleStats {
    /// Whether the page looks rendered by JavaScript: almost no visible text in the body but
    /// scripts that would insert it in a browser.
    pub fn looks_script_rendered(&self) -> bool {
        self.scripts > 0 && self.visible_chars() < 200
    }

    /// Visible characters under the content root.
    pub fn visible_chars(&self) -> u64 {
        let root = self.content_root as usize;
        let mut in_root = vec![false; self.elements.len()];
        let mut visible = 0u64;
        for (i, e) in self.elements.iter().enumerate() {
            in_root[i] = root == 0 || i == root || (i != 0 && in_root[e.parent as usize]);
            if in_root[i] && e.rendered {
                visible += u64::from(e.all_chars);
            }
        }
        visible
    }

    /// Runs pass 1 over a whole page.
    pub fn scan(html: &str, options: &AnalysisOptions) -> Result<StyleStats, AnalyzeError> {
        Self::scan_chunks([html.as_bytes()], html.len(), options)
    }

    /// Runs pass 1 over the page given in chunks (which may split tags, entities and UTF-8
    /// sequences anywhere); `total_len` is the sum of the chunk lengths.
    pub fn scan_chunks<'a>(
        chunks: impl IntoIterator<Item = &'a [u8]>,
        total_len: usize,
        options: &AnalysisOptions,
    ) -> Result<StyleStats, AnalyzeError> {
        let state = Rc::new(RefCell::new(ScanState::new(total_len, options.min_words)));
        let on_element = Rc::clone(&state);
        let on_text = Rc::clone(&state);
        let on_end = Rc::clone(&state);
        let settings = Settings::new()
            .with_strict(false)
            .with_memory_settings(parser_memory(options.max_parser_memory))
            .append_element_content_handler(element!("*", move |el| {
                start_element(&on_element, el);
                Ok(())
            }))
            .append_document_content_handler(doc_text!(move |t| {
                on_text.borrow_mut().text_chunk(t);
                Ok(())
            }))
            .append_document_content_handler(end!(move |_| {
                on_end.borrow_mut().finish();
                Ok(())
            }));
        let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
        for chunk in chunks {
            rewriter
                .write(chunk)
                .map_err(|e| AnalyzeError::Parser(e.to_string()))?;
        }
        rewriter
            .end()
            .map_err(|e| AnalyzeError::Parser(e.to_string()))?;
        let state = Rc::try_unwrap(state)
            .map_err(|_| AnalyzeError::Parser("pass 1 state still shared".into()))?
            .into_inner();
        Ok(state.into_stats())
    }

    /// The naive style key of a style id.
    pub fn style_key(&self, id: StyleId) -> &str {
        self.style_keys
            .get(id as usize)
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The tag name of an element.
    pub fn tag_name(&self, id: ElementId) -> &str {
        self.elements
            .get(id as usize)
            .and_then(|e| self.tags.get(e.tag as usize))
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The elements enclosing `id`, outermost first (excluding `id` and the virtual root),
    /// with the attributes recorded in their style keys.
    pub fn ancestors(&self, id: ElementId) -> Vec<super::tree::AncestorElement> {
        let mut chain = Vec::new();
        let mut cur = self
            .elements
            .get(id as usize)
            .map(|e| e.parent)
            .unwrap_or(0);
        while cur != 0 {
            let Some(e) = self.elements.get(cur as usize) else {
                break;
            };
            chain.push(super::tree::AncestorElement {
                tag: self.tag_name(cur).to_owned(),
                attributes: parse_style_key(self.style_key(e.style)),
            });
            cur = e.parent;
        }
        chain.reverse();
        chain
    }

    #[cfg(test)]
    /// XPath-like location of an element, e.g. `/html/body/div[2]`; the index is written when
    /// the parent has more than one child with that tag.
    pub fn path(&self, id: ElementId) -> String {
        self.paths(&[id]).pop().unwrap_or_default()
    }

    /// The locations of several elements, joined as an XPath union (`a | b`); `/` for the
    /// virtual root.
    pub fn union_path(&self, ids: &[ElementId]) -> String {
        self.paths(ids).join(" | ")
    }

    /// [`StyleStats::path`] of each element, sharing one pass over the records.
    pub fn paths(&self, ids: &[ElementId]) -> Vec<String> {
        let mut index = vec![0u32; self.elements.len()];
        let mut totals: HashMap<(ElementId, u32), u32, FastHash> = HashMap::default();
        for (i, e) in self.elements.iter().enumerate().skip(1) {
            let n = totals.entry((e.parent, e.tag)).or_insert(0);
            *n += 1;
            index[i] = *n;
        }
        ids.iter()
            .map(|&id| {
                let mut parts = Vec::new();
                let mut cur = id;
                while cur != 0 {
                    let Some(e) = self.elements.get(cur as usize) else {
                        break;
                    };
                    let tag = self.tag_name(cur);
                    let total = totals.get(&(e.parent, e.tag)).copied().unwrap_or(1);
                    if total > 1 {
                        parts.push(format!("{tag}[{}]", index[cur as usize]));
                    } else {
                        parts.push(tag.to_owned());
                    }
                    cur = e.parent;
                }
                parts.reverse();
                format!("/{}", parts.join("/"))
            })
            .collect()
    }
}

pub(crate) fn parser_memory(max: usize) -> MemorySettings {
    MemorySettings::new()
        .with_preallocated_parsing_buffer_size(1024.min(max))
        .with_max_allowed_memory_usage(max)
}

fn start_element(state: &Rc<RefCell<ScanState>>, el: &mut Element) {
    let tag = el.tag_name();
    let start = el.source_location().bytes().start;
    let mut st = state.borrow_mut();
    let mut closed = std::mem::take(&mut st.closed);
    st.stack.imply_end_tags(&tag, &mut closed);
    st.close_all(&closed, start);
    closed.clear();
    st.closed = closed;
    if is_void(&tag) || !el.can_have_content() {
        return;
    }
    let id = st.open(&tag, el);
    drop(st);
    let on_end = Rc::clone(state);
    let _ = el.on_end_tag(Box::new(move |end: &mut EndTag| {
        let mut st = on_end.borrow_mut();
        let tag_name = end.name();
        // `</body>` and `</html>` are ignored by browsers: content after them still belongs
        // to the body.
        if tag_name == "body" || tag_name == "html" {
            return Ok(());
        }
        let mut closed = std::mem::take(&mut st.closed);
        st.stack.close(id, &mut closed);
        st.close_all(&closed, end.source_location().bytes().end);
        closed.clear();
        st.closed = closed;
        Ok(())
    }));
}

impl ScanState {
    fn new(input_len: usize, min_words: usize) -> Self {
        let root = ElementRecord {
            parent: 0,
            depth: 0,
            tag: 0,
            style: 0,
            counted_chars: 0,
            all_chars: 0,
            rendered: true,
            in_link: false,
            text_before: false,
            range: 0..input_len,
        };
        let mut state = ScanState {
            stats: StyleStats {
                elements: vec![root],
                style_keys: Vec::new(),
                tags: Vec::new(),
                title: None,
                stylesheets: Vec::new(),
                content_root: 0,
                scripts: 0,
                script_bytes: 0,
                heading_texts: Vec::new(),
            },
            stack: ElementStack::new(),
            style_ids: HashMap::default(),
            tag_ids: HashMap::default(),
            key: String::new(),
            attrs: Vec::new(),
            text_since_child: vec![false],
            text: String::new(),
            closed: Vec::new(),
            min_words,
            input_len,
            body: None,
            html: None,
            in_title: false,
            heading: None,
        };
        // Id 0 of both tables belongs to the virtual root.
        state.intern_tag("#document");
        state.intern_style("#document".to_owned());
        state
    }

    fn intern_tag(&mut self, tag: &str) -> u32 {
        if let Some(&id) = self.tag_ids.get(tag) {
            return id;
        }
        let id = self.stats.tags.len() as u32;
        self.stats.tags.push(tag.to_owned());
        self.tag_ids.insert(tag.to_owned(), id);
        id
    }

    fn intern_style(&mut self, key: String) -> StyleId {
        if let Some(&id) = self.style_ids.get(&key) {
            return id;
        }
        let id = self.stats.style_keys.len() as StyleId;
        self.stats.style_keys.push(key.clone());
        self.style_ids.insert(key, id);
        id
    }

    /// Interns the naive style key of an element, allocating only for new keys.
    fn intern_element_style(&mut self, tag: &str, attrs: &mut [(String, String)]) -> StyleId {
        let mut key = std::mem::take(&mut self.key);
        naive_style_key(tag, attrs, &mut key);
        let id = match self.style_ids.get(key.as_str()) {
            Some(&id) => id,
            None => self.intern_style(key.clone()),
        };
        self.key = key;
        id
    }

    fn current(&self) -> ElementId {
        self.stack.top().map(|f| f.id).unwrap_or(0)
    }

    fn open(&mut self, tag: &str, el: &Element) -> ElementId {
        let parent = self.current();
        let parent_rec = &self.stats.elements[parent as usize];
        let depth = parent_rec.depth + 1;
        let parent_rendered = parent_rec.rendered;
        let in_link = parent_rec.in_link || tag == "a";
        let text_before = std::mem::replace(&mut self.text_since_child[parent as usize], false);
        let tag_id = self.intern_tag(tag);
        // Attributes are read once: for the consent-banner test and the style key.
        let mut attrs = std::mem::take(&mut self.attrs);
        attrs.clear();
        if parent_rendered && !is_unrendered(tag) {
            attrs.extend(
                el.attributes()
                    .iter()
                    .map(|a| (a.name(), decode_attribute(&a.value()))),
            );
        }
        let attr = |name: &str| {
            attrs
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let rendered =
            parent_rendered && !is_unrendered(tag) && !is_consent_banner(attr("class"), attr("id"));
        let style = if rendered {
            self.intern_element_style(tag, &mut attrs)
        } else {
            0
        };
        self.attrs = attrs;
        let id = self.stats.elements.len() as ElementId;
        let start = el.source_location().bytes().start;
        self.stats.elements.push(ElementRecord {
            parent,
            depth,
            tag: tag_id,
            style,
            counted_chars: 0,
            all_chars: 0,
            rendered,
            in_link,
            text_before,
            range: start..self.input_len,
        });
        self.text_since_child.push(false);
        match tag {
            "body" if self.body.is_none() => self.body = Some(id),
            "html" if self.html.is_none() => self.html = Some(id),
            "script" => self.stats.scripts += 1,
            "title" => self.in_title = self.stats.title.is_none() && !self.in_svg(),
            "h1" | "h2" | "h3" if rendered && self.heading.is_none() => self.heading = Some(id),
            _ => {}
        }
        self.stack.push(tag, id);
        id
    }

    fn in_svg(&self) -> bool {
        self.stack.contains_tag("svg")
    }

    fn close_all(&mut self, closed: &[u32], at: usize) {
        for &id in closed {
            if let Some(rec) = self.stats.elements.get_mut(id as usize) {
                rec.range.end = at.max(rec.range.start);
            }
            if self.heading == Some(id) {
                self.heading = None;
            }
        }
    }

    fn text_chunk(&mut self, t: &TextChunk) {
        self.text.push_str(t.as_str());
        if t.last_in_text_node() {
            let raw = std::mem::take(&mut self.text);
            self.text_node(&raw, t.text_type());
            self.text = raw;
            self.text.clear();
        }
    }

    fn text_node(&mut self, raw: &str, kind: TextType) {
        if raw.is_empty() {
            return;
        }
        let id = self.current();
        let top_tag = self.stack.top().map(|f| &*f.tag).unwrap_or("");
        if top_tag == "style" && !self.in_svg() {
            self.stats.stylesheets.push(raw.to_owned());
            return;
        }
        if top_tag == "title" && self.in_title {
            let text = decode_text(raw);
            let folded = fold_whitespace(&text);
            if !folded.is_empty() {
                self.stats.title = Some(folded);
            }
            self.in_title = false;
            return;
        }
        if top_tag == "script" {
            self.stats.script_bytes += raw.len();
            return;
        }
        if !matches!(kind, TextType::Data) {
            return;
        }
        let rec = &self.stats.elements[id as usize];
        if !rec.rendered {
            return;
        }
        let text = decode_text(raw);
        let (words, chars) = count_words_and_chars(&text);
        if words == 0 {
            return;
        }
        self.text_since_child[id as usize] = true;
        let rec = &mut self.stats.elements[id as usize];
        rec.all_chars = rec.all_chars.saturating_add(chars);
        if words >= self.min_words {
            rec.counted_chars = rec.counted_chars.saturating_add(chars);
        }
        if let Some(h) = self.heading {
            self.add_heading_text(h, &text);
        }
    }

    fn add_heading_text(&mut self, heading: ElementId, text: &str) {
        let texts = &mut self.stats.heading_texts;
        if texts.last().is_none_or(|(id, _)| *id != heading) {
            texts.push((heading, String::new()));
        }
        let Some((_, kept)) = texts.last_mut() else {
            return;
        };
        for word in text.split_whitespace() {
            if kept.len() + word.len() >= HEADING_TEXT_MAX_CHARS {
                break;
            }
            if !kept.is_empty() {
                kept.push(' ');
            }
            kept.push_str(word);
        }
    }

    fn finish(&mut self) {
        let mut closed = std::mem::take(&mut self.closed);
        self.stack.finish(&mut closed);
        let end = self.input_len;
        self.close_all(&closed, end);
    }

    fn into_stats(mut self) -> StyleStats {
        self.stats.content_root = self.body.or(self.html).unwrap_or(0);
        self.stats
    }
}

/// The paper's naive style: tag plus attributes. Attributes are sorted by name so that the
/// same element written with another attribute order pools its characters.
fn naive_style_key(tag: &str, attrs: &mut [(String, String)], key: &mut String) {
    key.clear();
    key.push_str(tag);
    if attrs.is_empty() {
        return;
    }
    attrs.sort_unstable();
    for (name, value) in attrs.iter() {
        let stable;
        let value = if name == "class" && value.bytes().any(|b| b.is_ascii_digit()) {
            stable = stable_classes(value);
            &stable
        } else {
            value
        };
        key.push(' ');
        key.push_str(name);
        key.push_str("=\"");
        if value.contains('"') {
            key.push_str(&value.replace('"', "&quot;"));
        } else {
            key.push_str(value);
        }
        key.push('"');
    }
}

/// The attributes written into a naive style key by [`naive_style_key`].
fn parse_style_key(key: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = key.split_once(' ').map(|(_, r)| r).unwrap_or("");
    while let Some((name, after)) = rest.split_once("=\"") {
        let Some((value, tail)) = after.split_once('"') else {
            break;
        };
        out.push((name.trim().to_owned(), value.replace("&quot;", "\"")));
        rest = tail.trim_start();
    }
    out
}

/// Class tokens without digits. Generated classes (`y1e`, `x4`, `css-1q2w3e`, `ng-star-
/// inserted_12`) differ between elements of one visual style and would split its characters
/// over many keys (pages converted from PDF give every line its own classes).
fn stable_classes(value: &str) -> String {
    value
        .split_ascii_whitespace()
        .filter(|t| !t.bytes().any(|b| b.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// FxHash: the maps of pass 1 hash short strings on every element; SipHash's DoS
/// resistance buys nothing there (keys come from one page, lookups are bounded by it).
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(b)).wrapping_mul(SEED);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(SEED);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FastHash = BuildHasherDefault<FxHasher>;

/// Decodes character references in text once.
pub(crate) fn decode_text(raw: &str) -> std::borrow::Cow<'_, str> {
    if raw.contains('&') {
        std::borrow::Cow::Owned(htmlize::unescape(raw).into_owned())
    } else {
        std::borrow::Cow::Borrowed(raw)
    }
}

/// Decodes character references in an attribute value once.
pub(crate) fn decode_attribute(raw: &str) -> String {
    if raw.contains('&') {
        htmlize::unescape_attribute(raw).into_owned()
    } else {
        raw.to_owned()
    }
}

/// Words (maximal non-whitespace runs, Unicode whitespace) and characters of the text with
/// its whitespace folded (runs become one space, both ends trimmed).
pub fn count_words_and_chars(text: &str) -> (usize, u32) {
    let mut words = 0usize;
    let mut chars = 0u32;
    let mut in_word = false;
    for c in text.chars() {
        if c.is_whitespace() {
            in_word = false;
        } else {
            if !in_word {
                words += 1;
                in_word = true;
            }
            chars = chars.saturating_add(1);
        }
    }
    let gaps = words.saturating_sub(1) as u32;
    (words, chars.saturating_add(gaps))
}

/// Folds whitespace runs into single spaces and trims both ends.
pub fn fold_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(html: &str) -> StyleStats {
        StyleStats::scan(html, &AnalysisOptions::default()).unwrap()
    }

    fn by_tag<'a>(s: &'a StyleStats, tag: &str) -> Vec<(ElementId, &'a ElementRecord)> {
        s.elements
            .iter()
            .enumerate()
            .filter(|(i, _)| s.tag_name(*i as u32) == tag)
            .map(|(i, e)| (i as u32, e))
            .collect()
    }

    #[test]
    fn counts_direct_text_with_short_text_exclusion() {
        let s = scan("<body><p>Die <b>AGB</b> gelten ab sofort hier.</p></body>");
        let p = by_tag(&s, "p")[0].1;
        assert_eq!(p.counted_chars, "gelten ab sofort hier.".len() as u32);
        assert_eq!(
            p.all_chars,
            ("Die".len() + "gelten ab sofort hier.".len()) as u32
        );
        assert_eq!(by_tag(&s, "b")[0].1.counted_chars, 0);
    }

    #[test]
    fn style_keys_sort_attributes_and_decode_entities() {
        let s = scan(
            r#"<div id="a" class="x&amp;y">one two three four</div><div class="x&y" id="a">five six seven eight</div>"#,
        );
        let divs = by_tag(&s, "div");
        assert_eq!(divs[0].1.style, divs[1].1.style);
        assert_eq!(s.style_key(divs[0].1.style), r#"div class="x&y" id="a""#);
    }

    #[test]
    fn implied_end_tags_make_siblings() {
        let s = scan("<body><p>one two three four<p>five six seven eight</body>");
        let ps = by_tag(&s, "p");
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].1.parent, ps[1].1.parent);
        assert_eq!(s.tag_name(ps[0].1.parent), "body");
    }

    #[test]
    fn unrendered_text_is_ignored_and_title_kept() {
        let s = scan(
            "<html><head><title> Meine  AGB </title><style>p{color:red}</style></head><body><script>var a = 'one two three four';</script><p>x</p></body></html>",
        );
        assert_eq!(s.title.as_deref(), Some("Meine AGB"));
        assert_eq!(s.stylesheets, vec!["p{color:red}".to_owned()]);
        assert!(s.elements.iter().all(|e| e.counted_chars == 0));
        assert_eq!(s.tag_name(s.content_root), "body");
    }

    #[test]
    fn byte_ranges_cover_the_element() {
        let html = "<body><div><p>one two three four</p></div><p>x</p></body>";
        let s = scan(html);
        let (_, div) = by_tag(&s, "div")[0];
        assert_eq!(
            &html[div.range.clone()],
            "<div><p>one two three four</p></div>"
        );
        // An implicitly closed element ends where the closing start tag begins.
        let html = "<body><p>one two three four<div>x</div></body>";
        let s = scan(html);
        let (_, p) = by_tag(&s, "p")[0];
        assert_eq!(&html[p.range.clone()], "<p>one two three four");
    }

    #[test]
    fn chunking_does_not_change_the_result() {
        let html = "<html><body><div class=\"a&amp;b\"><p>Gr&ouml;&szlig;e und Gewicht der Ware &amp; mehr</p></div></body></html>";
        let whole = scan(html);
        for size in [1, 2, 3, 7] {
            let chunks: Vec<&[u8]> = html.as_bytes().chunks(size).collect();
            let s =
                StyleStats::scan_chunks(chunks, html.len(), &AnalysisOptions::default()).unwrap();
            assert_eq!(s, whole, "chunk size {size}");
        }
        let p = by_tag(&whole, "p")[0].1;
        assert_eq!(
            p.counted_chars,
            "Größe und Gewicht der Ware & mehr".chars().count() as u32
        );
    }

    #[test]
    fn paths_index_same_tag_siblings() {
        let s = scan("<html><body><div>a</div><div><p>x</p></div></body></html>");
        let (p, _) = by_tag(&s, "p")[0];
        assert_eq!(s.path(p), "/html/body/div[2]/p");
    }

    #[test]
    fn ancestors_carry_their_attributes() {
        let s = scan(
            r#"<html><body class="page x1"><div id="main" class="content"><p>t</p></div></body></html>"#,
        );
        let (p, _) = by_tag(&s, "p")[0];
        let chain = s.ancestors(p);
        let tags: Vec<&str> = chain.iter().map(|a| a.tag.as_str()).collect();
        assert_eq!(tags, ["html", "body", "div"]);
        assert_eq!(
            chain[1].attributes,
            vec![("class".to_owned(), "page".to_owned())]
        );
        assert_eq!(
            chain[2].attributes,
            vec![
                ("class".to_owned(), "content".to_owned()),
                ("id".to_owned(), "main".to_owned())
            ]
        );
    }

    #[test]
    fn words_and_chars() {
        assert_eq!(count_words_and_chars("  a\tb \u{a0} c "), (3, 5));
        assert_eq!(count_words_and_chars("   "), (0, 0));
    }
}
