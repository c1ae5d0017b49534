//! Pass 2: re-read only the candidate's byte range(s) and build the reduced tree of element
//! and text nodes that the block and hierarchy stages work on.

use std::borrow::Cow;
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use lol_html::html_content::{EndTag, TextType};
use lol_html::{HtmlRewriter, Settings, doc_text, element, end};

use super::consent::hiding;
use super::gaps::{
    GapReader, ParserStack, TokenizerState, is_ignored_end_tag, lower_tag, read_up_to,
};
use super::scan::{attribute, decode_text, has_font_attributes, parser_memory, tag_in_source};
use super::stack::{ElementStack, is_unrendered, is_void, static_tag};
use super::start_tags::{OpenedTag, for_each_start_tag};
use crate::{AnalysisOptions, AnalyzeError};

/// Index of a node in [`ReducedTree::nodes`]; 0 is the synthetic root.
pub type NodeId = u32;

/// Attributes the later stages read; everything else is dropped.
pub const KEPT_ATTRIBUTES: &[&str] = &[
    "class",
    "id",
    "style",
    "href",
    "title",
    "colspan",
    "rowspan",
    "size",
    "color",
    "face",
    "align",
    "hidden",
    "open",
    "role",
    "type",
    "start",
    "value",
    "src",
    "alt",
    "height",
    "width",
    "name",
    "aria-expanded",
];

/// Whether an `<a>` with these attributes is a link. An `<a>` without `href` that carries a
/// `name` or `id` is a jump target (legal pages wrap their section titles in them for a table
/// of contents), rendered as plain text; one with neither is a script-driven link.
pub fn is_link_anchor(href: Option<&str>, name: Option<&str>, id: Option<&str>) -> bool {
    href.is_some() || (name.is_none() && id.is_none())
}

/// One node of the reduced tree.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// An element with its kept attributes (names lower-case, values decoded).
    Element {
        /// Lower-case tag name (borrowed for the tags of HTML).
        tag: Cow<'static, str>,
        /// Kept attributes in source order: names from [`KEPT_ATTRIBUTES`], values decoded.
        attributes: Vec<(&'static str, String)>,
    },
    /// A text node, entities decoded, whitespace as in the source.
    Text(String),
}

/// A node and its place in the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The parent node (the root is its own parent).
    pub parent: NodeId,
    /// Element or text.
    pub kind: NodeKind,
    /// Children in document order.
    pub children: Vec<NodeId>,
}

/// The candidate's subtree(s) under one synthetic root.
#[derive(Debug, Clone, PartialEq)]
pub struct ReducedTree {
    /// Nodes in document order; node 0 is the synthetic root (tag `#root`).
    pub nodes: Vec<Node>,
    /// The elements enclosing the candidate on the page, outermost (`html`) first, with the
    /// attributes pass 1 saw (`class` without generated tokens); empty when unknown. CSS
    /// selectors such as `.content h2` need them.
    pub ancestors: Vec<AncestorElement>,
}

/// An element above the candidate: tag and attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AncestorElement {
    /// Lower-case tag name.
    pub tag: String,
    /// Attributes (names lower-case, values decoded), sorted by name.
    pub attributes: Vec<(String, String)>,
}

impl AncestorElement {
    /// The value of an attribute.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Node {
    /// The tag name, or `None` for text.
    pub fn tag(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Element { tag, .. } => Some(tag),
            NodeKind::Text(_) => None,
        }
    }

    /// The value of a kept attribute.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        match &self.kind {
            NodeKind::Element { attributes, .. } => attributes
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.as_str()),
            NodeKind::Text(_) => None,
        }
    }
}

struct BuildState {
    nodes: Vec<Node>,
    stack: ElementStack,
    text: String,
    closed: Vec<u32>,
    /// Depth of unrendered elements currently open (their subtree is skipped).
    skipped: Vec<u32>,
    /// Skip consent banners (as pass 1 did, see `StyleStats::consent_banners_skipped`).
    skip_banners: bool,
    /// Text and end tags are read from the page between the start tags (as pass 1 does, see
    /// `parse::gaps`), not from lol_html's text and end-tag handlers.
    from_source: bool,
    /// lol_html's own element stack, pairing end tags read from the page with nodes.
    parser_open: ParserStack<Cow<'static, str>>,
    /// Reused buffer of the nodes an end tag closes.
    popped: Vec<u32>,
    /// The tokenizer's namespace and raw-text state, as lol_html has them.
    tokenizer: TokenizerState,
}

impl ReducedTree {
    /// Parses the given byte ranges of `html` (in document order) into one tree, skipping
    /// consent banners.
    #[cfg(any(test, feature = "test-api"))]
    pub fn build(
        html: &str,
        ranges: &[Range<usize>],
        options: &AnalysisOptions,
    ) -> Result<ReducedTree, AnalyzeError> {
        Self::build_with(html, ranges, options, true)
    }

    /// [`ReducedTree::build`], skipping consent banners only when `skip_banners` (pass 1 did
    /// not skip them when they held most of the page's prose).
    pub fn build_with(
        html: &str,
        ranges: &[Range<usize>],
        options: &AnalysisOptions,
        skip_banners: bool,
    ) -> Result<ReducedTree, AnalyzeError> {
        Self::build_reading(html, ranges, options, skip_banners, true)
    }

    /// [`ReducedTree::build`] with the text taken from lol_html's text handler instead of
    /// from the page between the tags: the reference both readings are compared against.
    #[cfg(any(test, feature = "test-api"))]
    pub fn build_with_text_handler(
        html: &str,
        ranges: &[Range<usize>],
        options: &AnalysisOptions,
    ) -> Result<ReducedTree, AnalyzeError> {
        Self::build_reading(html, ranges, options, true, false)
    }

    fn build_reading(
        html: &str,
        ranges: &[Range<usize>],
        options: &AnalysisOptions,
        skip_banners: bool,
        from_source: bool,
    ) -> Result<ReducedTree, AnalyzeError> {
        let state = Rc::new(RefCell::new(BuildState {
            nodes: vec![Node {
                parent: 0,
                kind: NodeKind::Element {
                    tag: Cow::Borrowed("#root"),
                    attributes: Vec::new(),
                },
                children: Vec::new(),
            }],
            stack: ElementStack::new(),
            text: String::new(),
            closed: Vec::new(),
            skipped: Vec::new(),
            skip_banners,
            from_source,
            parser_open: ParserStack::default(),
            popped: Vec::new(),
            tokenizer: TokenizerState::default(),
        }));
        for range in ranges {
            let slice = html
                .get(range.clone())
                .ok_or_else(|| AnalyzeError::Parser(format!("bad candidate range {range:?}")))?;
            parse_slice(slice, &state, options)?;
        }
        let state = Rc::try_unwrap(state)
            .map_err(|_| AnalyzeError::Parser("pass 2 state still shared".into()))?
            .into_inner();
        Ok(ReducedTree {
            nodes: state.nodes,
            ancestors: Vec::new(),
        })
    }

    #[cfg(test)]
    /// The root node.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// A node by id.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }
}

fn parse_slice(
    slice: &str,
    state: &Rc<RefCell<BuildState>>,
    options: &AnalysisOptions,
) -> Result<(), AnalyzeError> {
    let from_source = {
        let mut st = state.borrow_mut();
        // lol_html starts each range afresh.
        st.tokenizer = TokenizerState::default();
        st.parser_open = ParserStack::default();
        st.from_source
    };
    if from_source {
        // lol_html's start tags, the rest read from the page.
        for_each_start_tag(slice.as_bytes(), options.max_parser_memory, |tag| {
            start_element(state, tag, slice);
        })?;
        let mut st = state.borrow_mut();
        read_up_to(&mut *st, slice, slice.len()..slice.len());
        st.finish_slice();
        return Ok(());
    }
    let on_element = Rc::clone(state);
    let on_text = Rc::clone(state);
    let on_end = Rc::clone(state);
    let settings = Settings::new()
        .with_strict(false)
        .with_memory_settings(parser_memory(options.max_parser_memory))
        .append_element_content_handler(element!("*", move |el| {
            if let Some(own_tag) = start_element(&on_element, el, slice) {
                let on_end_tag = Rc::clone(&on_element);
                let _ = el.on_end_tag(Box::new(move |end: &mut EndTag| {
                    // lol_html calls the handler of every element the end tag pops; only the
                    // element it names closes, by the browser's rules.
                    let name = end.name();
                    if name.eq_ignore_ascii_case(&own_tag) && !is_ignored_end_tag(&own_tag) {
                        on_end_tag.borrow_mut().close_by_name(&own_tag);
                    }
                    Ok(())
                }));
            }
            Ok(())
        }))
        .append_document_content_handler(doc_text!(move |t| {
            let mut st = on_text.borrow_mut();
            st.text.push_str(t.as_str());
            if t.last_in_text_node() {
                let raw = std::mem::take(&mut st.text);
                if matches!(t.text_type(), TextType::Data) {
                    st.add_text(&raw);
                }
                st.text = raw;
                st.text.clear();
            }
            Ok(())
        }))
        .append_document_content_handler(end!(move |_| {
            on_end.borrow_mut().finish_slice();
            Ok(())
        }));
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    rewriter
        .write(slice.as_bytes())
        .map_err(|e| AnalyzeError::Parser(e.to_string()))?;
    rewriter
        .end()
        .map_err(|e| AnalyzeError::Parser(e.to_string()))
}

/// The page up to a start tag read (text, end tags) and the tag's name, its effect on the
/// tokenizer recorded.
fn reach_start_tag(st: &mut BuildState, el: &impl OpenedTag, source: &str) -> Cow<'static, str> {
    let location = el.source_range();
    if st.from_source {
        read_up_to(st, source, location.clone());
    }
    let tag: Cow<'static, str> = match tag_in_source(source, location.start) {
        Some(t) => static_tag(t).map_or_else(|| Cow::Owned(t.to_owned()), Cow::Borrowed),
        None => Cow::Owned(el.name()),
    };
    if st.from_source {
        let font_attrs = tag == "font" && has_font_attributes(el);
        st.tokenizer
            .start_tag(&tag, el.is_self_closing(), font_attrs);
    }
    tag
}

/// Opens an element; without the page at hand (`from_source` false) returns its tag, whose
/// end tag lol_html must then report.
fn start_element(
    state: &Rc<RefCell<BuildState>>,
    el: &impl OpenedTag,
    source: &str,
) -> Option<Cow<'static, str>> {
    let mut st = state.borrow_mut();
    let tag = reach_start_tag(&mut st, el, source);
    let mut closed = std::mem::take(&mut st.closed);
    st.stack.imply_end_tags(&tag, &mut closed);
    st.after_close(&closed);
    closed.clear();
    st.closed = closed;
    let skipping = !st.skipped.is_empty();
    let can_have_content = el.can_have_content();
    if is_void(&tag) || !can_have_content {
        if can_have_content && st.from_source {
            st.parser_open.push(tag.clone(), None);
        }
        // Void elements matter for text structure only as `<br>`/`<hr>` breaks.
        if !skipping && matches!(&*tag, "br" | "hr" | "img") {
            let parent = st.current();
            let attributes = kept_attributes(el, source);
            st.add_node(parent, NodeKind::Element { tag, attributes });
        }
        return None;
    }
    let (id, unrendered) = if skipping || is_unrendered(&tag) {
        (0, true)
    } else {
        let attributes = kept_attributes(el, source);
        let attr = |name: &str| {
            attributes
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.as_str())
        };
        let hidden = hiding(&tag, attr("class"), attr("id"), st.skip_banners);
        if hidden.is_skipped() {
            (0, true)
        } else {
            let parent = st.current();
            let id = st.add_node(
                parent,
                NodeKind::Element {
                    tag: tag.clone(),
                    attributes,
                },
            );
            (id, false)
        }
    };
    let id = if unrendered {
        // Keep a frame so end tags stay matched, but no node.
        let marker = u32::MAX - st.skipped.len() as u32;
        st.skipped.push(marker);
        marker
    } else {
        id
    };
    st.stack.push(&tag, id);
    if st.from_source {
        // Its end tag is read from the page (see `parse::gaps`).
        st.parser_open.push(tag, Some(id));
        return None;
    }
    Some(tag)
}

/// The attributes of [`KEPT_ATTRIBUTES`], read from the page.
fn kept_attributes(el: &impl OpenedTag, source: &str) -> Vec<(&'static str, String)> {
    el.attributes()
        .iter()
        .filter_map(|a| {
            let (name, value) = attribute(a, Some(source));
            let kept = KEPT_ATTRIBUTES.iter().find(|k| **k == name)?;
            Some((*kept, value.into_owned()))
        })
        .collect()
}

impl GapReader for BuildState {
    fn tokenizer(&mut self) -> &mut TokenizerState {
        &mut self.tokenizer
    }

    fn text(&mut self, raw: &str, kind: TextType) {
        // Only ordinary content is text of the tree.
        if matches!(kind, TextType::Data) {
            self.add_text(raw);
        }
    }

    /// Closes what the end tag closes in a browser (see
    /// [`crate::parse::stack::ElementStack::close_by_name`]), whether or not lol_html's stack
    /// pairs it with an element; `</body>` and `</html>` leave the elements open (browsers
    /// ignore them) but still leave lol_html's stack.
    fn end_tag(&mut self, name: &str, _end: usize) {
        let mut popped = std::mem::take(&mut self.popped);
        let name = lower_tag(name);
        let ignored = is_ignored_end_tag(&name);
        let key = match static_tag(&name) {
            Some(tag) => Cow::Borrowed(tag),
            None => Cow::Owned(name.into_owned()),
        };
        self.parser_open.pop_to(&key, &mut popped);
        if !ignored {
            self.close_by_name(&key);
        }
        popped.clear();
        self.popped = popped;
    }
}

impl BuildState {
    fn current(&self) -> NodeId {
        // Skipped frames carry marker ids at the top of the range; real nodes are below.
        self.stack.top().map(|f| f.id).unwrap_or(0)
    }

    fn add_node(&mut self, parent: NodeId, kind: NodeKind) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            parent,
            kind,
            children: Vec::new(),
        });
        if let Some(p) = self.nodes.get_mut(parent as usize) {
            p.children.push(id);
        }
        id
    }

    fn add_text(&mut self, raw: &str) {
        if !self.skipped.is_empty() || raw.is_empty() {
            return;
        }
        let text = decode_text(raw).into_owned();
        let parent = self.current();
        // Merge with a preceding text sibling (comments split text nodes).
        if let Some(&last) = self.nodes[parent as usize].children.last()
            && let NodeKind::Text(prev) = &mut self.nodes[last as usize].kind
        {
            prev.push_str(&text);
            return;
        }
        self.add_node(parent, NodeKind::Text(text));
    }

    /// Closes what the end tag `</tag>` closes (see
    /// [`crate::parse::stack::ElementStack::close_by_name`]).
    fn close_by_name(&mut self, tag: &str) {
        let mut closed = std::mem::take(&mut self.closed);
        self.stack.close_by_name(tag, &mut closed);
        self.after_close(&closed);
        closed.clear();
        self.closed = closed;
    }

    /// Closes what is still open at the end of a slice.
    fn finish_slice(&mut self) {
        let mut closed = std::mem::take(&mut self.closed);
        self.stack.finish(&mut closed);
        self.after_close(&closed);
    }

    fn after_close(&mut self, closed: &[u32]) {
        for &id in closed {
            if self.skipped.last() == Some(&id) {
                self.skipped.pop();
            }
        }
    }
}

#[cfg(test)]
impl ReducedTree {
    /// The tree of a whole document with the default options (for unit tests).
    pub(crate) fn of_whole(html: &str) -> ReducedTree {
        ReducedTree::build(
            html,
            std::slice::from_ref(&(0..html.len())),
            &AnalysisOptions::default(),
        )
        .expect("test HTML parses")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(html: &str) -> ReducedTree {
        ReducedTree::of_whole(html)
    }

    fn outline(t: &ReducedTree, id: NodeId, out: &mut String) {
        let n = t.node(id);
        match &n.kind {
            NodeKind::Text(s) => out.push_str(&format!("'{s}'")),
            NodeKind::Element { tag, .. } => {
                out.push_str(tag);
                if !n.children.is_empty() {
                    out.push('(');
                    for (i, c) in n.children.iter().enumerate() {
                        if i > 0 {
                            out.push(' ');
                        }
                        outline(t, *c, out);
                    }
                    out.push(')');
                }
            }
        }
    }

    fn shape(html: &str) -> String {
        let t = build(html);
        let mut s = String::new();
        outline(&t, 0, &mut s);
        s
    }

    #[test]
    fn malformed_markup_is_repaired() {
        assert_eq!(shape("<div><p>a<p>b</div>"), "#root(div(p('a') p('b')))");
        assert_eq!(shape("<ul><li>a<li>b</ul>"), "#root(ul(li('a') li('b')))");
        assert_eq!(shape("<div>a</span>b</div>"), "#root(div('ab'))");
        assert_eq!(shape("<div><p>open"), "#root(div(p('open')))");
        assert_eq!(shape("<p>a<div>b</div>c</p>"), "#root(p('a') div('b') 'c')");
    }

    #[test]
    fn unrendered_subtrees_are_skipped_and_entities_decoded() {
        assert_eq!(
            shape("<div>a &amp; b<script>x<y</script><svg><text>t</text></svg><br>c</div>"),
            "#root(div('a & b' br 'c'))"
        );
    }

    #[test]
    fn only_needed_attributes_are_kept() {
        let t = build(r#"<p class="x" data-foo="1" style="font-weight:bold" onclick="y">t</p>"#);
        match &t.node(1).kind {
            NodeKind::Element { attributes, .. } => assert_eq!(
                attributes,
                &vec![
                    ("class", "x".to_owned()),
                    ("style", "font-weight:bold".to_owned())
                ]
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn several_ranges_share_one_root() {
        let html = "<p>a</p><nav>x</nav><p>b</p>";
        let t = ReducedTree::build(html, &[0..8, 20..28], &AnalysisOptions::default()).unwrap();
        assert_eq!(t.root().children.len(), 2);
    }
}
