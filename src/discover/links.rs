//! The links of a page, with their visible text and whether they sit in the page footer: one
//! lol_html pass, no tree. Pure and synchronous (HTML in, links out).

use std::cell::RefCell;
use std::rc::Rc;

use lol_html::html_content::TextType;
use lol_html::{HtmlRewriter, Settings, doc_text, element, end_tag};

/// Most links read from one page; a page with more is cut here (footers come last in a page,
/// so a page this large keeps its header and body links only — bounded work over loss).
pub const MAX_LINKS: usize = 5_000;

/// Longest link text kept, in characters.
const MAX_TEXT: usize = 200;

/// One `<a href>` of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageLink {
    /// The `href` as written (entities decoded), not yet resolved.
    pub href: String,
    /// The visible text, whitespace folded; the `title` or `aria-label` (or an image's `alt`)
    /// when the link has no text.
    pub text: String,
    /// Inside a `<footer>`, an element with `role="contentinfo"`, or one whose id or class
    /// names a footer.
    pub in_footer: bool,
}

/// The links of `html` and its `<base href>` if any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageLinks {
    /// Links in document order.
    pub links: Vec<PageLink>,
    /// The first `<base href>`, when the page sets one.
    pub base: Option<String>,
}

#[derive(Default)]
struct State {
    out: PageLinks,
    /// Index of the link whose text is being read.
    open_link: Option<usize>,
    /// Fallback label of the open link (title / aria-label / img alt).
    fallback: String,
    footer_depth: usize,
    raw_text: String,
}

/// Reads the links of a page. Malformed HTML never fails: what was read up to a parser error
/// is returned.
pub fn page_links(html: &str) -> PageLinks {
    let state = Rc::new(RefCell::new(State::default()));
    let (s_a, s_img, s_footer, s_base, s_text) = (
        Rc::clone(&state),
        Rc::clone(&state),
        Rc::clone(&state),
        Rc::clone(&state),
        Rc::clone(&state),
    );
    let settings = Settings::new()
        .append_element_content_handler(element!("a[href]", move |el| {
            let mut st = s_a.borrow_mut();
            st.finish_link();
            if st.out.links.len() >= MAX_LINKS {
                return Ok(());
            }
            let href = decode(&el.get_attribute("href").unwrap_or_default());
            let label = el
                .get_attribute("aria-label")
                .or_else(|| el.get_attribute("title"))
                .map(|l| decode(&l))
                .unwrap_or_default();
            let in_footer = st.footer_depth > 0;
            st.out.links.push(PageLink {
                href: href.trim().to_owned(),
                text: String::new(),
                in_footer,
            });
            st.open_link = Some(st.out.links.len() - 1);
            st.fallback = label;
            drop(st);
            let end = Rc::clone(&s_a);
            let _ = el.on_end_tag(end_tag!(move |_end| {
                end.borrow_mut().finish_link();
                Ok(())
            }));
            Ok(())
        }))
        .append_element_content_handler(element!("a[href] img[alt]", move |el| {
            let mut st = s_img.borrow_mut();
            if st.open_link.is_some() && st.fallback.is_empty() {
                st.fallback = decode(&el.get_attribute("alt").unwrap_or_default());
            }
            Ok(())
        }))
        .append_element_content_handler(element!(
            "footer, [role=contentinfo], [id*=footer], [class*=footer], [id*=Footer], [class*=Footer]",
            move |el| {
                if !el.can_have_content() {
                    return Ok(());
                }
                s_footer.borrow_mut().footer_depth += 1;
                let end = Rc::clone(&s_footer);
                let registered = el.on_end_tag(end_tag!(move |_end| {
                    let mut st = end.borrow_mut();
                    st.footer_depth = st.footer_depth.saturating_sub(1);
                    Ok(())
                }));
                if registered.is_err() {
                    let mut st = s_footer.borrow_mut();
                    st.footer_depth = st.footer_depth.saturating_sub(1);
                }
                Ok(())
            }
        ))
        .append_element_content_handler(element!("base[href]", move |el| {
            let mut st = s_base.borrow_mut();
            if st.out.base.is_none() {
                st.out.base = el.get_attribute("href").map(|h| decode(&h));
            }
            Ok(())
        }))
        .append_document_content_handler(doc_text!(move |t| {
            let mut st = s_text.borrow_mut();
            if st.open_link.is_some() && matches!(t.text_type(), TextType::Data) {
                st.raw_text.push_str(t.as_str());
            }
            Ok(())
        }));
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    // A parser error (e.g. the memory limit) ends the pass; the links read so far stand.
    let _ = rewriter
        .write(html.as_bytes())
        .and_then(|()| rewriter.end());
    let mut st = state.borrow_mut();
    st.finish_link();
    std::mem::take(&mut st.out)
}

impl State {
    fn finish_link(&mut self) {
        let Some(i) = self.open_link.take() else {
            return;
        };
        let mut text = fold_whitespace(&decode(&self.raw_text));
        self.raw_text.clear();
        if text.is_empty() {
            text = fold_whitespace(&self.fallback);
        }
        self.fallback.clear();
        if let Some((cut, _)) = text.char_indices().nth(MAX_TEXT) {
            text.truncate(cut);
        }
        if let Some(link) = self.out.links.get_mut(i) {
            link.text = text;
        }
    }
}

fn decode(raw: &str) -> String {
    htmlize::unescape(raw).into_owned()
}

fn fold_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_with_text_footer_flag_and_base() {
        let html = r#"<html><head><base href="https://shop.example/de/"></head><body>
            <nav><a href="/">Start</a> <a href="neu">Neu <b>im</b> Shop</a></nav>
            <div id="page-footer"><ul>
              <li><a href="agb.html">AGB</a></li>
              <li><a href="/datenschutz?x=1&amp;y=2" title="ignored">Daten&shy;schutz</a></li>
              <li><a href="/impressum" aria-label="Impressum"><img src="i.png"></a></li>
              <li><a href="/widerruf"><img alt="Widerruf" src="w.png"></a></li>
            </ul></div>
            <a href="/after">After</a></body></html>"#;
        let found = page_links(html);
        assert_eq!(found.base.as_deref(), Some("https://shop.example/de/"));
        let got: Vec<(&str, &str, bool)> = found
            .links
            .iter()
            .map(|l| (l.href.as_str(), l.text.as_str(), l.in_footer))
            .collect();
        assert_eq!(
            got,
            vec![
                ("/", "Start", false),
                ("neu", "Neu im Shop", false),
                ("agb.html", "AGB", true),
                ("/datenschutz?x=1&y=2", "Daten\u{ad}schutz", true),
                ("/impressum", "Impressum", true),
                ("/widerruf", "Widerruf", true),
                ("/after", "After", false),
            ]
        );
    }

    #[test]
    fn unclosed_links_and_garbage_do_not_fail() {
        let found = page_links("<a href=/a>One<a href=/b>Two</div></p><footer><a href=/c>C");
        let texts: Vec<&str> = found.links.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, vec!["One", "Two", "C"]);
        assert!(found.links[2].in_footer);
        assert!(page_links("").links.is_empty());
        assert!(page_links("\u{0}<<<>>>").links.is_empty());
    }
}
