//! Pass 1: one streaming lol_html pass over the whole page, no DOM.
//!
//! For every element it keeps a flat record (parent, depth, naive style, byte range and the
//! characters of its *direct* text nodes), which is all the content step needs: subtree sums
//! follow from one reverse pass over the records because they are stored in document order.

mod source_text;
mod state;
mod style_key;
mod text;
pub(crate) use state::has_font_attributes;
use state::*;
pub(crate) use style_key::FastHash;
use style_key::*;
use text::*;
pub(crate) use text::{attribute, decode_text, tag_in_source};

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;
use std::rc::Rc;

use lol_html::html_content::{EndTag, TextChunk, TextType};
use lol_html::{HtmlRewriter, MemorySettings, Settings, doc_text, element, end};

use super::consent::{Hiding, hiding};
use super::stack::{ElementStack, is_unrendered, is_void};
use super::start_tags::for_each_start_tag;
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
    /// Inside the page frame or preformatted/code text ([`is_frame_or_code`]): left out of
    /// the most common style when the rest of the page has prose enough.
    pub in_frame: bool,
    /// A non-blank text node stands directly in the parent between the previous sibling
    /// element and this one (it breaks a run of siblings in the fallback).
    pub text_before: bool,
    /// Byte range in the input: start of the start tag to the end of the end tag (or to where
    /// the element was implicitly closed).
    pub range: Range<usize>,
}

/// Characters of prose per control (button, input, select) above which a skipped "consent
/// banner" reads like a document and pass 1 is run again without skipping it.
const BANNER_CHARS_PER_CONTROL: u64 = 2_000;

/// What pass 1 saw inside one skipped consent banner (an outermost element named as one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkippedBanner {
    /// Counted characters (text nodes of at least `min_words` words).
    pub chars: u64,
    /// Controls (`button`, `input`, `select`).
    pub controls: u64,
    /// It holds an `h1`: the page's own title, which no consent banner carries.
    pub title: bool,
}

impl SkippedBanner {
    /// Whether it reads like a document rather than a banner: a consent banner is short text
    /// around its buttons; a policy is long text with a button at most here and there, or
    /// the page's title (a cookie policy with a "Cookie settings" button in a box named
    /// `cookie-notice-content`).
    fn reads_like_a_document(&self) -> bool {
        self.controls == 0 || self.chars > BANNER_CHARS_PER_CONTROL * self.controls || self.title
    }
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
    /// Whether consent banners were skipped (see [`StyleStats::scan`]); pass 2 skips them
    /// only then.
    pub consent_banners_skipped: bool,
    /// The skipped consent banners (outermost elements named so), in document order.
    pub banners: Vec<SkippedBanner>,
    /// End tags the page misnests, read by the browser's rules where lol_html's element stack
    /// pairs them otherwise (`<p>a<div>b</p>`: the `div` closed the `p`, the `</p>` closes
    /// nothing); 0 on a well-nested page. Given in chunks, without the whole page, the
    /// statistics follow lol_html's pairing and this stays 0.
    pub repaired_end_tags: usize,
}

/// Longest heading text kept by pass 1, in bytes.
pub const HEADING_TEXT_MAX_CHARS: usize = 200;

/// Mutable state of pass 1, shared by the start-tag callback and the readers of the page.
struct ScanState {
    stats: StyleStats,
    stack: ElementStack,
    style_ids: HashMap<String, StyleId, FastHash>,
    tag_ids: HashMap<String, u32, FastHash>,
    /// Reused buffer for building style keys (most keys are already interned).
    key: String,
    /// Per record: a non-blank direct text node was seen since its last child element.
    text_since_child: Vec<bool>,
    text: String,
    closed: Vec<u32>,
    min_words: usize,
    input_len: usize,
    /// Skip consent banners (recognised by class and id).
    skip_banners: bool,
    /// Per element: the index of the skipped banner it is in, if any.
    in_banner: Vec<Option<u32>>,
    body: Option<ElementId>,
    html: Option<ElementId>,
    in_title: bool,
    /// The outermost open `h1`–`h3`, whose text is kept.
    heading: Option<ElementId>,
    /// The whole page is at hand: text and end tags are read from it between the start tags
    /// (see `source_text`), not from lol_html's handlers.
    reads_source: bool,
    /// With the whole page at hand: the elements on lol_html's own element stack (interned
    /// tag, record), which end tags read from the page close (see `source_text`).
    parser_open: crate::parse::gaps::ParserStack<u32>,
    /// Reused buffer of the records an end tag closes.
    popped: Vec<ElementId>,
    /// Names of the elements on lol_html's stack that have no record (void elements it lets
    /// have content, such as SVG's `<image>`).
    parser_only_tags: Vec<String>,
    /// The tokenizer's namespace and raw-text state, as lol_html has them.
    tokenizer: crate::parse::gaps::TokenizerState,
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
        Self::scan_input([html.as_bytes()], html.len(), options, Some(html))
    }

    /// Runs pass 1 over the page given in chunks (which may split tags, entities and UTF-8
    /// sequences anywhere); `total_len` is the sum of the chunk lengths.
    ///
    /// Consent banners recognised by class or id are skipped — unless they would hold more
    /// prose than the rest of the page: a class name alone must never remove a page's main
    /// text (a cookie *policy* in a container named `cookie-notice-content`). Then the page is
    /// scanned again with nothing skipped.
    #[cfg(any(test, feature = "test-api"))]
    pub fn scan_chunks<'a>(
        chunks: impl IntoIterator<Item = &'a [u8]> + Clone,
        total_len: usize,
        options: &AnalysisOptions,
    ) -> Result<StyleStats, AnalyzeError> {
        Self::scan_input(chunks, total_len, options, None)
    }

    /// [`StyleStats::scan_chunks`]; `source` is the whole page when at hand (names and
    /// attribute values are then read from it, not copied out of the parser).
    fn scan_input<'a>(
        chunks: impl IntoIterator<Item = &'a [u8]> + Clone,
        total_len: usize,
        options: &AnalysisOptions,
        source: Option<&str>,
    ) -> Result<StyleStats, AnalyzeError> {
        let stats = Self::scan_pass(chunks.clone(), total_len, options, true, source)?;
        let counted: u64 = stats
            .elements
            .iter()
            .filter(|e| e.rendered)
            .map(|e| u64::from(e.counted_chars))
            .sum();
        // Judged per banner, and for all of them together: a consent tool names its banner
        // and the policy it generates alike (Complianz's `cmplz-cookiebanner` and
        // `cmplz-document`), and the banner's buttons must not make the policy look like one.
        let all = stats
            .banners
            .iter()
            .fold(SkippedBanner::default(), |all, b| SkippedBanner {
                chars: all.chars + b.chars,
                controls: all.controls + b.controls,
                title: all.title || b.title,
            });
        if std::iter::once(&all)
            .chain(&stats.banners)
            .any(|b| b.chars > counted && b.reads_like_a_document())
        {
            return Self::scan_pass(chunks, total_len, options, false, source);
        }
        Ok(stats)
    }

    fn scan_pass<'a>(
        chunks: impl IntoIterator<Item = &'a [u8]>,
        total_len: usize,
        options: &AnalysisOptions,
        skip_banners: bool,
        source: Option<&str>,
    ) -> Result<StyleStats, AnalyzeError> {
        let mut scan = ScanState::new(total_len, options.min_words);
        scan.skip_banners = skip_banners;
        scan.reads_source = source.is_some();
        scan.stats.consent_banners_skipped = skip_banners;
        let state = Rc::new(RefCell::new(scan));
        match source {
            // The whole page at hand: lol_html's start tags, the rest read from the page.
            Some(source) => {
                let mut attrs: AttributeBuffer<'_> = Vec::new();
                for_each_start_tag(source.as_bytes(), options.max_parser_memory, |tag| {
                    start_element(&state, tag, Some(source), &mut attrs);
                })?;
                let mut st = state.borrow_mut();
                crate::parse::gaps::read_up_to(&mut *st, source, source.len()..source.len());
                st.finish();
            }
            None => Self::scan_with_handlers(chunks, &state, options)?,
        }
        let state = Rc::try_unwrap(state)
            .map_err(|_| AnalyzeError::Parser("pass 1 state still shared".into()))?
            .into_inner();
        Ok(state.into_stats())
    }

    /// Pass 1 over chunks: text, start and end tags all from lol_html's rewriter handlers.
    fn scan_with_handlers<'a>(
        chunks: impl IntoIterator<Item = &'a [u8]>,
        state: &Rc<RefCell<ScanState>>,
        options: &AnalysisOptions,
    ) -> Result<(), AnalyzeError> {
        let on_element = Rc::clone(state);
        let on_text = Rc::clone(state);
        let on_end = Rc::clone(state);
        let mut attrs: AttributeBuffer<'_> = Vec::new();
        let settings = Settings::new()
            .with_strict(false)
            .with_memory_settings(parser_memory(options.max_parser_memory))
            .append_element_content_handler(element!("*", move |el| {
                if let Some(own_tag) = start_element(&on_element, el, None, &mut attrs) {
                    let on_end_tag = Rc::clone(&on_element);
                    let _ = el.on_end_tag(Box::new(move |end: &mut EndTag| {
                        end_element(&on_end_tag, &own_tag, end);
                        Ok(())
                    }));
                }
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
            .map_err(|e| AnalyzeError::Parser(e.to_string()))
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
        // Only the children of elements on the way up from `ids` are counted.
        let mut on_way = vec![false; self.elements.len()];
        for &id in ids {
            let mut cur = id;
            while let Some(e) = self.elements.get(cur as usize) {
                if cur == 0 || std::mem::replace(&mut on_way[e.parent as usize], true) {
                    break;
                }
                cur = e.parent;
            }
        }
        let mut index = vec![0u32; self.elements.len()];
        let mut totals: HashMap<(ElementId, u32), u32, FastHash> = HashMap::default();
        for (i, e) in self.elements.iter().enumerate().skip(1) {
            if !on_way[e.parent as usize] {
                continue;
            }
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

#[cfg(test)]
mod tests;

/// Whether an element is page frame — `header`, `nav`, `footer`, `aside`, or the ARIA
/// landmarks `banner`, `navigation`, `contentinfo`, `complementary` —, a dialog over the page
/// (`dialog`, ARIA `dialog`/`alertdialog`, `aria-modal="true"`), or preformatted or code text
/// (`pre`, `code`). Their text is left out of the most common style (see
/// `content::select::statistics`): a newsletter block in the footer, a survey's privacy
/// notice in a hidden dialog or ASCII art in a `<pre>` must not decide what the page's prose
/// looks like, nor pull the content's container up to hold them. They still count as text, and
/// the content may still include them.
pub(crate) fn is_frame_or_code(tag: &str, role: Option<&str>, aria_modal: Option<&str>) -> bool {
    matches!(
        tag,
        "header" | "nav" | "footer" | "aside" | "dialog" | "pre" | "code"
    ) || aria_modal.is_some_and(|m| m.trim().eq_ignore_ascii_case("true"))
        || role.is_some_and(|r| {
            r.split_ascii_whitespace().any(|r| {
                matches!(
                    r.to_ascii_lowercase().as_str(),
                    "banner"
                        | "navigation"
                        | "contentinfo"
                        | "complementary"
                        | "dialog"
                        | "alertdialog"
                )
            })
        })
}
