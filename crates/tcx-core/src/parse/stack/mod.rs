//! The element stack shared by both passes.
//!
//! lol_html tokenizes but builds no HTML5 tree: it nests `<p>a<p>b` and `<li>x<li>y`, knows no
//! implied end tags and drops stray end tags silently. [`ElementStack`] supplies the parts of
//! the HTML tree builder that matter for text structure, so that parent/child relations seen by
//! pass 1 and pass 2 are the ones a browser would build:
//! - implied end tags: `p` closed by block starts, `li` by `li`, `dt`/`dd` by `dt`/`dd`,
//!   `tr`/`td`/`th`, `thead`/`tbody`/`tfoot`, `option`/`optgroup`, headings by headings,
//!   `head` by any body element;
//! - void elements are never pushed ([`is_void`]);
//! - end tags close by name, on this stack, by the tree builder's scope rules
//!   ([`ElementStack::close_by_name`]): a stray `</p>` closes nothing, `</span>` stops at a
//!   `div` opened inside it, and what was opened inside the closed element closes with it;
//! - [`ElementStack::finish`] closes whatever is still open at end of input.

use std::borrow::Cow;

/// One open element: its tag name and the caller's id for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Lower-case tag name (borrowed for the tags of HTML, owned for others).
    pub tag: Cow<'static, str>,
    /// Id of the element in the caller's table (pass 1) or tree (pass 2).
    pub id: u32,
}

/// The static name of a common HTML tag: a frame of the stack needs no allocation for it.
#[rustfmt::skip]
pub(crate) fn static_tag(tag: &str) -> Option<&'static str> {
    // A match on the bytes compiles to a decision tree on length and bytes.
    Some(match tag.as_bytes() {
        b"a" => "a", b"abbr" => "abbr", b"address" => "address", b"article" => "article",
        b"aside" => "aside", b"b" => "b", b"bdi" => "bdi", b"bdo" => "bdo", b"big" => "big",
        b"blockquote" => "blockquote", b"body" => "body", b"button" => "button",
        b"caption" => "caption", b"center" => "center", b"cite" => "cite", b"code" => "code",
        b"colgroup" => "colgroup", b"dd" => "dd", b"defs" => "defs", b"del" => "del",
        b"details" => "details", b"dfn" => "dfn", b"div" => "div", b"dl" => "dl", b"dt" => "dt",
        b"em" => "em", b"fieldset" => "fieldset", b"figcaption" => "figcaption",
        b"figure" => "figure", b"font" => "font", b"footer" => "footer", b"form" => "form",
        b"g" => "g", b"h1" => "h1", b"h2" => "h2", b"h3" => "h3", b"h4" => "h4", b"h5" => "h5",
        b"h6" => "h6", b"head" => "head", b"header" => "header", b"html" => "html", b"i" => "i",
        b"iframe" => "iframe", b"ins" => "ins", b"kbd" => "kbd", b"label" => "label",
        b"legend" => "legend", b"li" => "li", b"main" => "main", b"mark" => "mark",
        b"menu" => "menu", b"nav" => "nav", b"noscript" => "noscript", b"object" => "object",
        b"ol" => "ol", b"optgroup" => "optgroup", b"option" => "option", b"p" => "p",
        b"path" => "path", b"picture" => "picture", b"pre" => "pre", b"q" => "q", b"s" => "s",
        b"samp" => "samp", b"script" => "script", b"section" => "section", b"select" => "select",
        b"small" => "small", b"span" => "span", b"strong" => "strong", b"style" => "style",
        b"sub" => "sub", b"summary" => "summary", b"sup" => "sup", b"svg" => "svg",
        b"symbol" => "symbol", b"table" => "table", b"tbody" => "tbody", b"td" => "td",
        b"template" => "template", b"textarea" => "textarea", b"tfoot" => "tfoot", b"th" => "th",
        b"thead" => "thead", b"time" => "time", b"title" => "title", b"tr" => "tr", b"u" => "u",
        b"ul" => "ul", b"use" => "use", b"var" => "var", b"video" => "video",
        _ => return None,
    })
}

/// The stack of open elements.
#[derive(Debug, Default)]
pub struct ElementStack {
    frames: Vec<Frame>,
    /// How many elements of each [`TRACKED`] tag are open: the implied-end-tag rules look
    /// down the stack only when one is, so deep nesting (10,000 `div`s) stays linear.
    open: [u32; TRACKED.len()],
}

/// Tags whose open count is kept.
const TRACKED: [&str; 11] = [
    "head", "p", "li", "dt", "dd", "tr", "td", "th", "table", "svg", "title",
];

fn tracked(tag: &str) -> Option<usize> {
    // A match on the name (compiled to length and byte tests), in the order of TRACKED.
    Some(match tag {
        "head" => 0,
        "p" => 1,
        "li" => 2,
        "dt" => 3,
        "dd" => 4,
        "tr" => 5,
        "td" => 6,
        "th" => 7,
        "table" => 8,
        "svg" => 9,
        "title" => 10,
        _ => return None,
    })
}

impl ElementStack {
    /// An empty stack.
    pub fn new() -> Self {
        Self::default()
    }

    /// The innermost open element.
    pub fn top(&self) -> Option<&Frame> {
        self.frames.last()
    }

    #[cfg(test)]
    /// True when no element is open.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Whether an element with this tag is open anywhere.
    pub fn contains_tag(&self, tag: &str) -> bool {
        match tracked(tag) {
            Some(i) => self.open[i] > 0,
            None => self.frames.iter().any(|f| &*f.tag == tag),
        }
    }

    fn any_open(&self, tags: &[&str]) -> bool {
        tags.iter().any(|t| self.contains_tag(t))
    }

    /// Applies the end tags implied by a start tag `tag` (before it is pushed). The ids of the
    /// closed elements are appended to `closed`, innermost first.
    pub fn imply_end_tags(&mut self, tag: &str, closed: &mut Vec<u32>) {
        if !HEAD_CONTENT.contains(&tag)
            && tag != "html"
            && self.any_open(&["head"])
            && let Some(pos) = self.position(|f| &*f.tag == "head")
        {
            self.pop_to(pos, closed);
        }
        if closes_p(tag)
            && self.any_open(&["p"])
            && let Some(pos) = self.find_in_scope("p", BUTTON_SCOPE)
        {
            self.pop_to(pos, closed);
        }
        match tag {
            "li" if self.any_open(&["li"]) => self.close_list_item(&["li"], closed),
            "dt" | "dd" if self.any_open(&["dt", "dd"]) => {
                self.close_list_item(&["dt", "dd"], closed)
            }
            "tr" if self.any_open(&["tr", "td", "th"]) => {
                self.close_within(&["tr", "td", "th"], TABLE_SECTION_SCOPE, closed)
            }
            "td" | "th" if self.any_open(&["td", "th"]) => {
                self.close_within(&["td", "th"], ROW_SCOPE, closed)
            }
            "thead" | "tbody" | "tfoot" | "caption" | "colgroup" if self.any_open(&["table"]) => {
                // Back to the table: open sections, rows and cells end.
                if let Some(pos) = self.position(|f| &*f.tag == "table") {
                    self.pop_to(pos + 1, closed);
                }
            }
            "option" => self.close_top_if(&["option"], closed),
            "optgroup" => {
                self.close_top_if(&["option"], closed);
                self.close_top_if(&["optgroup"], closed);
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.close_top_if(&["h1", "h2", "h3", "h4", "h5", "h6"], closed)
            }
            _ => {}
        }
    }

    /// Pushes an element that can have content. Call [`ElementStack::imply_end_tags`] first.
    pub fn push(&mut self, tag: &str, id: u32) {
        if let Some(i) = tracked(tag) {
            self.open[i] += 1;
        }
        let tag = match static_tag(tag) {
            Some(known) => Cow::Borrowed(known),
            None => Cow::Owned(tag.to_owned()),
        };
        self.frames.push(Frame { tag, id });
    }

    /// Whether the element `id` is open.
    pub fn is_open(&self, id: u32) -> bool {
        self.frames.iter().rev().any(|f| f.id == id)
    }

    /// Closes what an end tag `</tag>` closes in a browser: the innermost open element of that
    /// name (and everything opened inside it), looked up on this stack, which has applied the
    /// implied end tags. Looking it up by the element lol_html paired the end tag with instead
    /// lets one misnested tag close the page's containers: after `<p>a<div>b</p>c</div>` the
    /// `div` closed the `p`, so the `</p>` closes nothing and the `</div>` its own `div`, not
    /// the column around it (the HTML tree builder's rules, simplified: `</p>` looks in button
    /// scope, table parts within their table, other elements within the default scope).
    pub fn close_by_name(&mut self, tag: &str, closed: &mut Vec<u32>) {
        let boundaries = match tag {
            "p" => BUTTON_SCOPE,
            "li" => LIST_ITEM_SCOPE,
            "table" | "caption" | "tbody" | "thead" | "tfoot" | "tr" | "td" | "th" => TABLE_SCOPE,
            // Formatting elements: the adoption agency moves blocks out of them; closing what
            // was opened inside (as lol_html does) is the simple reading of it.
            _ if is_special(tag) || is_formatting(tag) => DEFAULT_SCOPE,
            // Any other end tag (`</span>`) closes its element only when no special element
            // (`div`, `p`, `li` …) was opened inside it; otherwise it is ignored.
            _ => {
                for i in (0..self.frames.len()).rev() {
                    let open = &*self.frames[i].tag;
                    if open == tag {
                        self.pop_to(i, closed);
                        return;
                    }
                    if is_special(open) {
                        return;
                    }
                }
                return;
            }
        };
        if let Some(pos) = self.find_in_scope(tag, boundaries) {
            self.pop_to(pos, closed);
        }
    }

    /// Closes everything still open (end of input).
    pub fn finish(&mut self, closed: &mut Vec<u32>) {
        if !self.frames.is_empty() {
            self.pop_to(0, closed);
        }
    }

    fn position(&self, pred: impl Fn(&Frame) -> bool) -> Option<usize> {
        self.frames.iter().rposition(pred)
    }

    fn pop_to(&mut self, pos: usize, closed: &mut Vec<u32>) {
        while self.frames.len() > pos {
            if let Some(f) = self.frames.pop() {
                if let Some(i) = tracked(&f.tag) {
                    self.open[i] = self.open[i].saturating_sub(1);
                }
                closed.push(f.id);
            }
        }
    }

    /// Finds `tag` walking down from the top, stopping at a scope boundary.
    fn find_in_scope(&self, tag: &str, boundaries: &[&str]) -> Option<usize> {
        for (i, f) in self.frames.iter().enumerate().rev() {
            if &*f.tag == tag {
                return Some(i);
            }
            if boundaries.contains(&&*f.tag) {
                return None;
            }
        }
        None
    }

    /// The HTML list-item algorithm: close the nearest `targets` element unless a special
    /// element other than address/div/p lies in between.
    fn close_list_item(&mut self, targets: &[&str], closed: &mut Vec<u32>) {
        for i in (0..self.frames.len()).rev() {
            let tag = &*self.frames[i].tag;
            if targets.contains(&tag) {
                self.pop_to(i, closed);
                return;
            }
            if is_special(tag) && !matches!(tag, "address" | "div" | "p") {
                return;
            }
        }
    }

    fn close_within(&mut self, targets: &[&str], boundaries: &[&str], closed: &mut Vec<u32>) {
        for i in (0..self.frames.len()).rev() {
            let tag = &*self.frames[i].tag;
            if boundaries.contains(&tag) {
                return;
            }
            if targets.contains(&tag) {
                // Close the outermost target inside the boundary (a `tr` with open `td`).
                let mut outer = i;
                for j in (0..i).rev() {
                    let t = &*self.frames[j].tag;
                    if boundaries.contains(&t) {
                        break;
                    }
                    if targets.contains(&t) {
                        outer = j;
                    }
                }
                self.pop_to(outer, closed);
                return;
            }
        }
    }

    fn close_top_if(&mut self, targets: &[&str], closed: &mut Vec<u32>) {
        if let Some(top) = self.frames.last()
            && targets.contains(&&*top.tag)
        {
            let pos = self.frames.len() - 1;
            self.pop_to(pos, closed);
        }
    }
}

/// Elements that never have content or an end tag.
pub fn is_void(tag: &str) -> bool {
    matches!(
        tag,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
            | "basefont"
            | "bgsound"
            | "frame"
            | "keygen"
            | "image"
    )
}

/// Elements whose content a reader never sees as text: skipped with their whole subtree.
/// (`center` and `blockquote` are ordinary containers; hidden content such as collapsed
/// accordions is kept on purpose.)
pub fn is_unrendered(tag: &str) -> bool {
    matches!(
        tag,
        "head"
            | "title"
            | "script"
            | "style"
            | "noscript"
            | "template"
            | "svg"
            | "math"
            | "iframe"
            | "frameset"
            | "noframes"
            | "object"
            | "applet"
            | "audio"
            | "video"
            | "canvas"
            | "datalist"
            | "select"
            | "option"
            | "optgroup"
            | "textarea"
            | "meter"
            | "progress"
            | "dialog"
    )
}

/// Block-level elements: text on either side of them belongs to different blocks.
pub fn is_block(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "caption"
            | "center"
            | "dd"
            | "details"
            | "dir"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "html"
            | "legend"
            | "li"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
            | "br"
            | "listing"
            | "search"
    )
}

const HEAD_CONTENT: &[&str] = &[
    "head", "meta", "link", "title", "style", "script", "base", "noscript", "template",
];

const BUTTON_SCOPE: &[&str] = &[
    "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "button",
];
const DEFAULT_SCOPE: &[&str] = &[
    "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template",
];
const LIST_ITEM_SCOPE: &[&str] = &[
    "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "ol", "ul",
];
const TABLE_SCOPE: &[&str] = &["html", "table", "template"];

/// The formatting elements of the HTML tree builder.
fn is_formatting(tag: &str) -> bool {
    matches!(
        tag,
        "a" | "b"
            | "big"
            | "code"
            | "em"
            | "font"
            | "i"
            | "nobr"
            | "s"
            | "small"
            | "strike"
            | "strong"
            | "tt"
            | "u"
    )
}
const TABLE_SECTION_SCOPE: &[&str] = &["table", "thead", "tbody", "tfoot"];
const ROW_SCOPE: &[&str] = &["table", "tr", "thead", "tbody", "tfoot"];

fn closes_p(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "center"
            | "details"
            | "dialog"
            | "dir"
            | "div"
            | "dl"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "header"
            | "hgroup"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "p"
            | "search"
            | "section"
            | "summary"
            | "ul"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "pre"
            | "listing"
            | "form"
            | "li"
            | "dd"
            | "dt"
            | "plaintext"
            | "table"
            | "hr"
            | "xmp"
    )
}

fn is_special(tag: &str) -> bool {
    closes_p(tag)
        || matches!(
            tag,
            "applet"
                | "area"
                | "base"
                | "body"
                | "br"
                | "button"
                | "caption"
                | "col"
                | "colgroup"
                | "embed"
                | "frame"
                | "frameset"
                | "head"
                | "html"
                | "iframe"
                | "img"
                | "input"
                | "link"
                | "marquee"
                | "meta"
                | "noembed"
                | "noframes"
                | "noscript"
                | "object"
                | "param"
                | "script"
                | "select"
                | "source"
                | "style"
                | "tbody"
                | "td"
                | "template"
                | "textarea"
                | "tfoot"
                | "th"
                | "thead"
                | "title"
                | "tr"
                | "track"
                | "wbr"
        )
}

#[cfg(test)]
mod tests;
