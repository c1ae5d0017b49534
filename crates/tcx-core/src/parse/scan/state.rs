//! The pass-1 handlers: one record per element, text counted into its element.

use super::*;
use crate::parse::gaps::{is_ignored_end_tag, read_up_to};
use crate::parse::start_tags::OpenedTag;
use crate::parse::tree::is_link_anchor;

/// Attributes of the element being opened: lower-case names and decoded values, borrowed
/// from the page where it needs no change.
pub(super) type AttributeBuffer<'a> = Vec<(Cow<'a, str>, Cow<'a, str>)>;

/// Opens an element. With the whole page at hand (`source`), its tag and attribute names and
/// values are read from the page (no string allocated per element); otherwise from lol_html,
/// and the element's tag is returned: its end tag must then be reported by lol_html (see
/// [`end_element`]).
pub(super) fn start_element<'a>(
    state: &Rc<RefCell<ScanState>>,
    el: &impl OpenedTag,
    source: Option<&'a str>,
    attrs: &mut AttributeBuffer<'a>,
) -> Option<String> {
    let location = el.source_range();
    let start = location.start;
    if let Some(source) = source {
        read_up_to(&mut *state.borrow_mut(), source, location.clone());
    }
    let owned_tag;
    let tag = match source.and_then(|s| tag_in_source(s, start)) {
        Some(t) => t,
        None => {
            owned_tag = el.name();
            owned_tag.as_str()
        }
    };
    let mut st = state.borrow_mut();
    if st.reads_source_text() {
        let font_attrs = tag == "font" && has_font_attributes(el);
        st.tokenizer
            .start_tag(tag, el.is_self_closing(), font_attrs);
    }
    let mut closed = std::mem::take(&mut st.closed);
    st.stack.imply_end_tags(tag, &mut closed);
    st.close_all(&closed, start);
    closed.clear();
    st.closed = closed;
    let can_have_content = el.can_have_content();
    if is_void(tag) || !can_have_content {
        if can_have_content && st.reads_source_text() {
            st.parser_opened(tag, None);
        }
        return None;
    }
    attrs.clear();
    // Attributes are read once (consent-banner test, style key), and only where rendered.
    if st.current_rendered() && !is_unrendered(tag) {
        attrs.extend(el.attributes().iter().map(|a| attribute(a, source)));
    }
    let id = st.open(tag, attrs, start);
    if st.reads_source_text() {
        // Its end tag is read from the page too (see `source_text`).
        st.parser_opened(tag, Some(id));
        return None;
    }
    Some(tag.to_owned())
}

/// Without the page at hand: closes the element `own_tag` that lol_html's end tag `end` pops.
pub(super) fn end_element(state: &RefCell<ScanState>, own_tag: &str, end: &EndTag) {
    // lol_html calls the handler of every element the end tag pops; only the element it
    // names closes, by the browser's rules.
    if end.name().eq_ignore_ascii_case(own_tag) && !is_ignored_end_tag(own_tag) {
        state
            .borrow_mut()
            .close_by_name(own_tag, end.source_location().bytes().end);
    }
}

/// Whether a `font` element has an attribute that makes it end foreign content.
pub(crate) fn has_font_attributes(el: &impl OpenedTag) -> bool {
    ["color", "face", "size"]
        .iter()
        .any(|a| el.has_attribute(a))
}

impl ScanState {
    pub(super) fn new(input_len: usize, min_words: usize) -> Self {
        let root = ElementRecord {
            parent: 0,
            depth: 0,
            tag: 0,
            style: 0,
            counted_chars: 0,
            all_chars: 0,
            rendered: true,
            in_link: false,
            in_frame: false,
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
                consent_banners_skipped: true,
                banners: Vec::new(),
                repaired_end_tags: 0,
            },
            stack: ElementStack::new(),
            // Sized for a typical page: rehashing was 1 % of pass 1.
            style_ids: HashMap::with_capacity_and_hasher(512, FastHash::default()),
            tag_ids: HashMap::with_capacity_and_hasher(64, FastHash::default()),
            key: String::new(),
            text_since_child: vec![false],
            text: String::new(),
            closed: Vec::new(),
            min_words,
            input_len,
            skip_banners: true,
            in_banner: vec![None],
            body: None,
            html: None,
            in_title: false,
            heading: None,
            reads_source: false,
            parser_open: Default::default(),
            popped: Vec::new(),
            parser_only_tags: Vec::new(),
            tokenizer: Default::default(),
        };
        // Id 0 of both tables belongs to the virtual root.
        state.intern_tag("#document");
        state.intern_style("#document".to_owned());
        state
    }

    pub(super) fn intern_tag(&mut self, tag: &str) -> u32 {
        if let Some(&id) = self.tag_ids.get(tag) {
            return id;
        }
        let id = self.stats.tags.len() as u32;
        self.stats.tags.push(tag.to_owned());
        self.tag_ids.insert(tag.to_owned(), id);
        id
    }

    pub(super) fn intern_style(&mut self, key: String) -> StyleId {
        if let Some(&id) = self.style_ids.get(&key) {
            return id;
        }
        let id = self.stats.style_keys.len() as StyleId;
        self.stats.style_keys.push(key.clone());
        self.style_ids.insert(key, id);
        id
    }

    /// Interns the naive style key of an element, allocating only for new keys.
    pub(super) fn intern_element_style(
        &mut self,
        tag: &str,
        attrs: &mut [(Cow<'_, str>, Cow<'_, str>)],
    ) -> StyleId {
        let mut key = std::mem::take(&mut self.key);
        naive_style_key(tag, attrs, &mut key);
        let id = match self.style_ids.get(key.as_str()) {
            Some(&id) => id,
            None => self.intern_style(key.clone()),
        };
        self.key = key;
        id
    }

    pub(super) fn current(&self) -> ElementId {
        self.stack.top().map(|f| f.id).unwrap_or(0)
    }

    /// Whether the innermost open element is rendered.
    pub(super) fn current_rendered(&self) -> bool {
        self.stats.elements[self.current() as usize].rendered
    }

    pub(super) fn open(
        &mut self,
        tag: &str,
        attrs: &mut [(Cow<'_, str>, Cow<'_, str>)],
        start: usize,
    ) -> ElementId {
        let parent = self.current();
        let parent_rec = &self.stats.elements[parent as usize];
        let depth = parent_rec.depth + 1;
        let parent_rendered = parent_rec.rendered;
        let parent_in_frame = parent_rec.in_frame;
        let parent_in_link = parent_rec.in_link;
        let text_before = std::mem::replace(&mut self.text_since_child[parent as usize], false);
        let tag_id = self.intern_tag(tag);
        let attr = |name: &str| {
            attrs
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_ref())
        };
        let in_link = parent_in_link
            || (tag == "a" && is_link_anchor(attr("href"), attr("name"), attr("id")));
        let hidden = if parent_rendered {
            hiding(tag, attr("class"), attr("id"), self.skip_banners)
        } else {
            Hiding::default()
        };
        let rendered = parent_rendered && !is_unrendered(tag) && !hidden.is_skipped();
        let in_banner = self.in_banner[parent as usize].or_else(|| {
            hidden.banner.then(|| {
                self.stats.banners.push(SkippedBanner::default());
                self.stats.banners.len() as u32 - 1
            })
        });
        if let Some(banner) = in_banner.and_then(|b| self.stats.banners.get_mut(b as usize)) {
            match tag {
                "button" | "input" | "select" => banner.controls += 1,
                "h1" => banner.title = true,
                _ => {}
            }
        }
        let in_frame = parent_in_frame
            || hidden.frame
            || is_frame_or_code(tag, attr("role"), attr("aria-modal"));
        let style = if rendered {
            self.intern_element_style(tag, attrs)
        } else {
            0
        };
        let id = self.stats.elements.len() as ElementId;
        self.stats.elements.push(ElementRecord {
            parent,
            depth,
            tag: tag_id,
            style,
            counted_chars: 0,
            all_chars: 0,
            rendered,
            in_link,
            in_frame,
            text_before,
            range: start..self.input_len,
        });
        self.text_since_child.push(false);
        self.in_banner.push(in_banner);
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

    /// Closes the element `id` at its end tag, which ends at `end`.
    /// Closes what the end tag `</tag>` at `end` closes (see
    /// [`crate::parse::stack::ElementStack::close_by_name`]); returns how many it closed.
    pub(super) fn close_by_name(&mut self, tag: &str, end: usize) -> usize {
        let mut closed = std::mem::take(&mut self.closed);
        self.stack.close_by_name(tag, &mut closed);
        self.close_all(&closed, end);
        let count = closed.len();
        closed.clear();
        self.closed = closed;
        count
    }

    /// Whether text and end tags are read from the page between the start tags (see
    /// `source_text`).
    pub(super) fn reads_source_text(&self) -> bool {
        self.reads_source
    }

    pub(super) fn in_svg(&self) -> bool {
        self.stack.contains_tag("svg")
    }

    pub(super) fn close_all(&mut self, closed: &[u32], at: usize) {
        for &id in closed {
            if let Some(rec) = self.stats.elements.get_mut(id as usize) {
                rec.range.end = at.max(rec.range.start);
            }
            if self.heading == Some(id) {
                self.heading = None;
            }
        }
    }

    pub(super) fn text_chunk(&mut self, t: &TextChunk) {
        self.text.push_str(t.as_str());
        if t.last_in_text_node() {
            let raw = std::mem::take(&mut self.text);
            self.text_node(&raw, t.text_type());
            self.text = raw;
            self.text.clear();
        }
    }

    pub(super) fn text_node(&mut self, raw: &str, kind: TextType) {
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
        // Whitespace between tags (most text nodes of a page) counts nothing.
        if !matches!(kind, TextType::Data) || raw.bytes().all(|b| b.is_ascii_whitespace()) {
            return;
        }
        let rec = &self.stats.elements[id as usize];
        if !rec.rendered {
            if let Some(b) = self.in_banner[id as usize] {
                let (words, chars) = count_words_and_chars(&decode_text(raw));
                if words >= self.min_words
                    && let Some(banner) = self.stats.banners.get_mut(b as usize)
                {
                    banner.chars += u64::from(chars);
                }
            }
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

    pub(super) fn add_heading_text(&mut self, heading: ElementId, text: &str) {
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

    pub(super) fn finish(&mut self) {
        let mut closed = std::mem::take(&mut self.closed);
        self.stack.finish(&mut closed);
        let end = self.input_len;
        self.close_all(&closed, end);
    }

    pub(super) fn into_stats(mut self) -> StyleStats {
        self.stats.content_root = self.body.or(self.html).unwrap_or(0);
        self.stats
    }
}
