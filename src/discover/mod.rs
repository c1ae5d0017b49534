//! Discovery: from a shop's page to its legal pages.
//!
//! A site job names a shop (`shop_url`). Its start page is fetched (robots.txt and the
//! per-host limit apply), its links are read ([`links`]), and each link that names a legal
//! document — by its text, or by its address when the text says nothing — and stays on the
//! shop's site ([`site`]) becomes a page job of its own. Footer links come first; at most
//! `discovery.max_pages` pages are taken per site, each once ([`site::page_key`]).
//!
//! What is recorded for every link found ([`LinkAction`]): enqueued, a PDF or another file
//! (found, not extracted), refused by robots.txt, or over the limit.

pub mod links;
pub mod robots;
pub mod site;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use url::Url;

use tcx_core::{DocumentType, label_coverage, match_label, type_of_url};

use crate::fetch::FetchError;
pub use links::{PageLink, PageLinks, page_links};
pub use robots::{RobotsCache, RobotsVerdict};
pub use site::{SiteScope, page_key, registrable_domain};

/// A link text of more words than this is prose or a product name, not a document's name.
const MAX_LABEL_WORDS: usize = 8;

/// Least share of a link text that must be a document's name ([`label_coverage`]).
const MIN_LABEL_COVERAGE: f64 = 0.5;

/// A link text of at most this many words that names no document ("hier", an icon, a
/// generic `aria-label` such as "List item link") says nothing; the address decides.
const MAX_UNINFORMATIVE_WORDS: usize = 3;

/// Words that say how a document is offered, not which it is: left out before measuring how
/// much of a link text is a document's name ("AGB als PDF", "Download our Privacy Policy").
const FILLER_WORDS: &[&str] = &[
    "als",
    "as",
    "pdf",
    "download",
    "herunterladen",
    "hier",
    "here",
    "unsere",
    "unserer",
    "our",
    "the",
    "die",
    "der",
    "das",
    "und",
    "and",
    "zur",
    "zu",
    "to",
    "read",
    "lesen",
    "view",
    "ansehen",
    "full",
    "vollstandige",
    "vollstandigen",
];

/// How a link's type was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkEvidence {
    /// The link text names the document.
    Text,
    /// The text says nothing; the address names the document.
    Url,
}

/// What became of a legal link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkAction {
    /// A page job was made for it.
    Enqueued,
    /// A PDF: recorded, not extracted (tcx reads HTML only).
    Pdf,
    /// Another file that is not a web page (`.doc`, `.docx`, `.odt`, `.rtf`, `.txt`):
    /// recorded, not extracted.
    File,
    /// robots.txt disallows it for our user agent.
    RobotsDisallowed,
    /// Its host's robots.txt could not be read (5xx, timeout): nothing there is fetched.
    RobotsUnreachable,
    /// Past `discovery.max_pages` for this site.
    OverLimit,
}

/// A legal link found on a page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FoundLink {
    /// The absolute URL (fragment removed).
    pub url: String,
    /// The link text.
    pub text: String,
    /// The document type the link names.
    pub document_type: DocumentType,
    /// Whether the text or the address named it.
    pub evidence: LinkEvidence,
    /// Whether the link sits in the page footer.
    pub in_footer: bool,
    /// Whether it points to the page it was found on (that page is then analysed as it is,
    /// not fetched again).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_start_page: bool,
    /// What became of it.
    pub action: LinkAction,
}

/// Why a shop's legal pages could not be looked for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiscoveryError {
    /// The start page could not be fetched.
    #[error("start page: {0}")]
    Fetch(#[from] FetchError),
    /// robots.txt disallows the start page.
    #[error("robots.txt of {0} disallows the start page")]
    RobotsDisallowed(String),
    /// robots.txt of the start page's host could not be read.
    #[error("robots.txt of {0} could not be read (5xx, network error or timeout)")]
    RobotsUnreachable(String),
    /// The start page redirected to another site.
    #[error("the start page redirected off-site, to {0}")]
    OffSiteRedirect(String),
    /// No link on the start page names a legal document.
    #[error("no link to a legal page found on {0}")]
    NoLegalPages(String),
}

impl DiscoveryError {
    /// A stable label for results and metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            DiscoveryError::Fetch(e) => e.kind(),
            DiscoveryError::RobotsDisallowed(_) => "robots_disallowed",
            DiscoveryError::RobotsUnreachable(_) => "robots_unreachable",
            DiscoveryError::OffSiteRedirect(_) => "off_site_redirect",
            DiscoveryError::NoLegalPages(_) => "no_legal_pages",
        }
    }

    /// Whether a later try may succeed (transient fetch errors, an unreadable robots.txt).
    pub fn retryable(&self) -> bool {
        match self {
            DiscoveryError::Fetch(e) => e.retryable(),
            DiscoveryError::RobotsUnreachable(_) => true,
            _ => false,
        }
    }
}

/// The legal links of a page at `page_url`, typed and de-duplicated, footer links first,
/// the first `max_pages` of them (PDFs aside) marked [`LinkAction::Enqueued`] and the rest
/// [`LinkAction::OverLimit`]. Pure: robots.txt is applied by the caller.
pub fn legal_links(
    html: &str,
    page_url: &Url,
    scope: &SiteScope,
    max_pages: usize,
) -> Vec<FoundLink> {
    let found = page_links(html);
    let base = found
        .base
        .as_deref()
        .and_then(|b| page_url.join(b).ok())
        .unwrap_or_else(|| page_url.clone());
    let start_key = page_key(page_url);
    let mut seen = std::collections::HashSet::new();
    let mut typed: Vec<FoundLink> = Vec::new();
    // Footer links first: that is where shops keep their legal links.
    let ordered = found
        .links
        .iter()
        .filter(|l| l.in_footer)
        .chain(found.links.iter().filter(|l| !l.in_footer));
    for link in ordered {
        let Some(url) = resolve(&base, &link.href) else {
            continue;
        };
        if !scope.contains(&url) {
            continue;
        }
        let Some((document_type, evidence)) = link_type(&link.text, &url) else {
            continue;
        };
        let key = page_key(&url);
        let is_start_page = key == start_key;
        if !seen.insert(key) {
            continue;
        }
        let path = url.path().to_ascii_lowercase();
        let is_pdf = path.ends_with(".pdf");
        let is_file = [".doc", ".docx", ".odt", ".rtf", ".txt"]
            .iter()
            .any(|ext| path.ends_with(ext));
        typed.push(FoundLink {
            is_start_page,
            url: url.into(),
            text: link.text.clone(),
            document_type,
            evidence,
            in_footer: link.in_footer,
            action: if is_pdf {
                LinkAction::Pdf
            } else if is_file {
                LinkAction::File
            } else {
                LinkAction::Enqueued
            },
        });
    }
    let mut taken = 0;
    for link in &mut typed {
        if link.action == LinkAction::Enqueued {
            taken += 1;
            if taken > max_pages {
                link.action = LinkAction::OverLimit;
            }
        }
    }
    typed
}

/// The type a link names: by its text when most of a short text is a document's name; by
/// its address when the text is (nearly) empty.
pub fn link_type(text: &str, url: &Url) -> Option<(DocumentType, LinkEvidence)> {
    let words = text.split_whitespace().count();
    let core: String = tcx_core::fold_label(text)
        .split(' ')
        .filter(|w| !FILLER_WORDS.contains(w))
        .collect::<Vec<_>>()
        .join(" ");
    if words <= MAX_LABEL_WORDS
        && let Some(m) = match_label(&core)
        && label_coverage(&core, m.kind) >= MIN_LABEL_COVERAGE
    {
        return Some((m.kind, LinkEvidence::Text));
    }
    if words <= MAX_UNINFORMATIVE_WORDS && match_label(text).is_none() {
        return type_of_url(url.as_str()).map(|kind| (kind, LinkEvidence::Url));
    }
    None
}

/// An `href` resolved against the base, when it leads to another http(s) page: not a
/// fragment of this page, not `javascript:`, `mailto:` or `tel:`. The fragment is dropped.
fn resolve(base: &Url, href: &str) -> Option<Url> {
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let mut url = base.join(href).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    url.set_fragment(None);
    Some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    const SHOP: &str = r##"<html><body>
        <nav><a href="/">Startseite</a><a href="/neu">Neuheiten</a>
          <a href="/p/cookie-ausstecher">Cookie Ausstecher Set</a>
          <a href="#" onclick="consent()">Cookie-Einstellungen</a>
          <a href="javascript:void(0)">AGB</a></nav>
        <main><p>Es gelten unsere <a href="/agb#abs2">AGB</a>.</p></main>
        <footer>
          <a href="https://www.shop.test/agb">AGB</a>
          <a href="https://legal.shop.test/datenschutz">Datenschutz</a>
          <a href="/impressum">Impressum</a>
          <a href="/info/widerrufsrecht.html"><img src="x.png" alt=""></a>
          <a href="/files/agb.pdf">AGB (PDF)</a>
          <a href="https://other.example/agb">AGB des Partners</a>
          <a href="mailto:info@shop.test">Kontakt</a>
          <a href="/">Startseite</a>
        </footer></body></html>"##;

    #[test]
    fn legal_links_of_a_shop_page() {
        let start = url("https://www.shop.test/");
        let scope = SiteScope::of(&start, &[]).unwrap();
        let links = legal_links(SHOP, &start, &scope, 10);
        let got: Vec<(&str, DocumentType, LinkEvidence, LinkAction)> = links
            .iter()
            .map(|l| (l.url.as_str(), l.document_type, l.evidence, l.action))
            .collect();
        use DocumentType::*;
        use LinkAction::*;
        assert_eq!(
            got,
            vec![
                (
                    "https://www.shop.test/agb",
                    Terms,
                    LinkEvidence::Text,
                    Enqueued
                ),
                (
                    "https://legal.shop.test/datenschutz",
                    Privacy,
                    LinkEvidence::Text,
                    Enqueued
                ),
                (
                    "https://www.shop.test/impressum",
                    Imprint,
                    LinkEvidence::Text,
                    Enqueued
                ),
                (
                    "https://www.shop.test/info/widerrufsrecht.html",
                    Withdrawal,
                    LinkEvidence::Url,
                    Enqueued
                ),
                (
                    "https://www.shop.test/files/agb.pdf",
                    Terms,
                    LinkEvidence::Text,
                    Pdf
                ),
            ]
        );
        assert!(links.iter().all(|l| l.in_footer && !l.is_start_page));
    }

    #[test]
    fn the_limit_and_the_start_page_itself() {
        let start = url("https://shop.test/agb/");
        let scope = SiteScope::of(&start, &[]).unwrap();
        let links = legal_links(SHOP, &start, &scope, 2);
        let actions: Vec<LinkAction> = links.iter().map(|l| l.action).collect();
        assert_eq!(
            actions,
            vec![
                LinkAction::Enqueued,
                LinkAction::Enqueued,
                LinkAction::OverLimit,
                LinkAction::OverLimit,
                LinkAction::Pdf
            ]
        );
        assert!(links[0].is_start_page, "the AGB page links to itself");
    }

    #[test]
    fn long_texts_and_product_names_are_not_document_names() {
        let u = url("https://shop.test/p/x");
        assert_eq!(link_type("Cookie Cutter Set", &u), None);
        assert_eq!(
            link_type(
                "Lesen Sie hier unsere ausführlichen Hinweise zu allem, was wichtig ist",
                &u
            ),
            None
        );
        assert_eq!(
            link_type("", &url("https://shop.test/datenschutz")),
            Some((DocumentType::Privacy, LinkEvidence::Url))
        );
    }
}
