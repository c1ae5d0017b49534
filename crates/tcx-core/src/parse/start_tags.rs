//! The start tags of a page from lol_html's tokenizer, without its rewriter.
//!
//! Both passes read text and end tags from the page between consecutive start tags
//! (`parse::gaps`), so all they need of lol_html is each start tag — its name, attributes,
//! position, and whether the tokenizer lets it have content. `HtmlRewriter` with an
//! `element!("*")` handler gives that, but also runs its selector machine (an open-element
//! stack, pushed and popped on every tag), builds an `Element` around each tag, and writes
//! every token back out as bytes for an output nobody reads: about a third of pass 1's
//! parsing time went there. This module drives lol_html's own `TransformStream` with a
//! controller that asks for start tags only and emits nothing.
//!
//! `TransformStream` is public under lol_html's `_integration_test` feature, an interface
//! outside its semver promise, so the dependency is pinned to one version (`=3.0.3` in the
//! workspace manifest). The chunk-fed readings (`test-api`) still use `HtmlRewriter`; a
//! property test (`scan::tests`) and the corpus test compare both readings, so a lol_html
//! update that changes the interface fails to build, and one that changes what it reports
//! most likely fails those tests.
//!
//! Memory: the page is written in one piece, so lol_html buffers only a tag's attribute
//! records beyond it (`max_memory` bounds them); the passes' own element stacks grow with the
//! page's nesting, which the page's size bounds.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use lol_html::errors::RewritingError;
use lol_html::html_content::{Attribute, DocumentEnd, Element, StartTag};
use lol_html::{
    AsciiCompatibleEncoding, LocalName, Namespace, SharedMemoryLimiter, StartTagHandlingResult,
    Tag, Token, TokenCaptureFlags, TransformController, TransformStream, TransformStreamSettings,
};

use crate::AnalyzeError;

/// What the passes read of an opened element: lol_html's `Element` (chunk-fed readings) or a
/// bare [`StartTag`] from [`for_each_start_tag`].
pub(crate) trait OpenedTag {
    /// The byte range of the start tag in the input.
    fn source_range(&self) -> Range<usize>;
    /// The tag name, lower case.
    fn name(&self) -> String;
    /// Whether the tag ends with `/>`.
    fn is_self_closing(&self) -> bool;
    /// Whether the element can have content (not void in HTML, not self-closed in SVG or
    /// MathML), as lol_html decides it.
    fn can_have_content(&self) -> bool;
    /// The tag's attributes.
    fn attributes(&self) -> &[Attribute<'_>];
    /// Whether the tag has the attribute `name`.
    fn has_attribute(&self, name: &str) -> bool {
        self.attributes().iter().any(|a| a.name() == name)
    }
}

impl OpenedTag for Element<'_, '_> {
    fn source_range(&self) -> Range<usize> {
        self.source_location().bytes()
    }
    fn name(&self) -> String {
        self.tag_name()
    }
    fn is_self_closing(&self) -> bool {
        Element::is_self_closing(self)
    }
    fn can_have_content(&self) -> bool {
        Element::can_have_content(self)
    }
    fn attributes(&self) -> &[Attribute<'_>] {
        Element::attributes(self)
    }
    fn has_attribute(&self, name: &str) -> bool {
        Element::has_attribute(self, name)
    }
}

/// A start tag from [`for_each_start_tag`].
pub(crate) struct BareStartTag<'t, 'i> {
    tag: &'t StartTag<'i>,
    can_have_content: bool,
}

impl OpenedTag for BareStartTag<'_, '_> {
    fn source_range(&self) -> Range<usize> {
        self.tag.source_location().bytes()
    }
    fn name(&self) -> String {
        self.tag.name()
    }
    fn is_self_closing(&self) -> bool {
        self.tag.self_closing()
    }
    fn can_have_content(&self) -> bool {
        self.can_have_content
    }
    fn attributes(&self) -> &[Attribute<'_>] {
        self.tag.attributes()
    }
    fn has_attribute(&self, name: &str) -> bool {
        self.tag.has_attribute(name)
    }
}

/// Whether lol_html's element stack treats an HTML element of this name as void
/// (`selectors_vm::stack`, which decides `Element::can_have_content`): then it has no content;
/// any other HTML element has, and an SVG or MathML element has unless it is self-closed.
fn is_void_for_lol_html(name: &LocalName<'_>) -> bool {
    use Tag::*;
    [
        Area, Base, Basefont, Bgsound, Br, Col, Embed, Hr, Img, Input, Keygen, Link, Meta, Param,
        Source, Track, Wbr,
    ]
    .iter()
    .any(|t| *name == *t)
}

/// Asks lol_html for every start tag and for nothing else; emits nothing.
struct StartTagsOnly<F> {
    on_start_tag: F,
    /// Whether the tag the tokenizer is reading can have content, as far as its name and
    /// namespace tell (`None`: not HTML, so it can unless it is self-closed).
    next_can_have_content: Option<bool>,
}

impl<F: FnMut(&BareStartTag<'_, '_>)> TransformController for StartTagsOnly<F> {
    // Nothing is asked for but the next start tag, which lol_html's tag scanner hands to the
    // lexer; once the token is out the flag is spent (`to_token`), and scanning resumes. An
    // end tag must ask for nothing, or the lexer would run from it to the next start tag.
    fn initial_capture_flags(&self) -> TokenCaptureFlags {
        TokenCaptureFlags::empty()
    }

    fn handle_start_tag(
        &mut self,
        name: LocalName<'_>,
        namespace: Namespace,
    ) -> StartTagHandlingResult<Self> {
        self.next_can_have_content =
            (namespace == Namespace::Html).then(|| !is_void_for_lol_html(&name));
        Ok(TokenCaptureFlags::NEXT_START_TAG)
    }

    fn handle_end_tag(&mut self, _: LocalName<'_>) -> TokenCaptureFlags {
        TokenCaptureFlags::empty()
    }

    fn handle_token(&mut self, token: &mut Token<'_>) -> Result<(), RewritingError> {
        if let Token::StartTag(tag) = token {
            let can_have_content = self.next_can_have_content.unwrap_or(!tag.self_closing());
            (self.on_start_tag)(&BareStartTag {
                tag,
                can_have_content,
            });
        }
        Ok(())
    }

    fn handle_end(&mut self, _: &mut DocumentEnd<'_>) -> Result<(), RewritingError> {
        Ok(())
    }

    fn should_emit_content(&self) -> bool {
        false
    }
}

/// Calls `on_start_tag` for every start tag of `html`, in order, as lol_html's tokenizer
/// (non-strict, UTF-8) reads them; `max_memory` bounds its buffers like
/// [`super::scan::parser_memory`].
pub(crate) fn for_each_start_tag(
    html: &[u8],
    max_memory: usize,
    on_start_tag: impl FnMut(&BareStartTag<'_, '_>),
) -> Result<(), AnalyzeError> {
    let encoding = AsciiCompatibleEncoding::new(encoding_rs::UTF_8)
        .ok_or_else(|| AnalyzeError::Parser("UTF-8 is not ASCII-compatible".into()))?;
    let mut stream = TransformStream::new(TransformStreamSettings {
        transform_controller: StartTagsOnly {
            on_start_tag,
            next_can_have_content: None,
        },
        output_sink: |_: &[u8]| {},
        preallocated_parsing_buffer_size: 1024.min(max_memory),
        memory_limiter: SharedMemoryLimiter::new(max_memory),
        encoding,
        next_encoding: Arc::new(OnceLock::new()),
        strict: false,
        graceful_bail_out_on_memory_limit_exceeded: false,
        graceful_bail_out_on_content_handler_error: false,
    });
    stream
        .write(html)
        .map_err(|e| AnalyzeError::Parser(e.to_string()))?;
    stream
        .end()
        .map_err(|e| AnalyzeError::Parser(e.to_string()))
}

/// How many start tags lol_html's tokenizer reads in `html`, driven as the passes drive it but
/// with no work per tag: the parsing cost under both passes (`cargo bench --bench analysis`).
#[cfg(any(test, feature = "test-api"))]
pub fn count_start_tags(html: &str) -> Result<usize, AnalyzeError> {
    let mut count = 0;
    for_each_start_tag(html.as_bytes(), usize::MAX, |_| count += 1)?;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the passes read of each start tag: the name, where it is, and whether lol_html
    /// lets it have content (void HTML elements not; SVG elements unless self-closed).
    #[test]
    fn start_tags_come_with_position_and_content_model() {
        let html = r#"<p class="a">x<br>y</p><svg><path/><g></g></svg><img src=x><div/>z"#;
        let mut seen = Vec::new();
        for_each_start_tag(html.as_bytes(), 1 << 20, |t| {
            let r = t.source_range();
            seen.push((t.name(), html[r].to_owned(), t.can_have_content()));
        })
        .expect("parses");
        let expected = [
            ("p", r#"<p class="a">"#, true),
            ("br", "<br>", false),
            ("svg", "<svg>", true),
            ("path", "<path/>", false),
            ("g", "<g>", true),
            ("img", "<img src=x>", false),
            ("div", "<div/>", true),
        ];
        let expected: Vec<_> = expected
            .iter()
            .map(|(n, s, c)| ((*n).to_owned(), (*s).to_owned(), *c))
            .collect();
        assert_eq!(seen, expected);
        assert_eq!(count_start_tags(html).ok(), Some(7));
    }

    /// Markup inside raw text (a script's `"<div>"`) is no start tag, as in a browser.
    #[test]
    fn raw_text_holds_no_start_tags() {
        let html = "<script>var s = '<div>';</script><textarea><b></textarea><i>";
        assert_eq!(count_start_tags(html).ok(), Some(3));
    }

    /// The memory limit is lol_html's: a tag with more attributes than it allows records for
    /// is an error, not a panic; an ordinary page stays well within it.
    #[test]
    fn a_tag_over_the_memory_limit_is_an_error() {
        let attributes: String = (0..2_000).map(|i| format!(" a{i}=x")).collect();
        let huge = format!("<div{attributes}>x</div>");
        assert!(for_each_start_tag(huge.as_bytes(), 16 * 1024, |_| {}).is_err());
        let page = "<div class=\"a b\" id=x><p>Text</p></div>".repeat(1_000);
        assert!(for_each_start_tag(page.as_bytes(), 16 * 1024, |_| {}).is_ok());
    }
}
