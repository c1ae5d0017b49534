//! Boilerplate recognisable from markup alone. Cookie-consent banners and consent-manager
//! layers hold long prose ("Wir verwenden Cookies, um …") that can out-weigh a short legal
//! page (an imprint of short lines) in the style statistics, so both passes skip them like
//! unrendered elements, as they skip text for screen readers only. A side column or a footer
//! named by its class (`sidebar`, `section-sidebar`, `widget-area`, `site-footer`) is page
//! frame like `<aside>` and `<footer>`.

use std::sync::LazyLock;

use aho_corasick::Anchored;
use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;

/// How an element's markup hides it from a reader — a consent banner, or text for screen
/// readers only (both passes skip either like an unrendered element) — or marks it as the
/// page's frame (a side column or footer).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hiding {
    /// A consent banner: a class or id token names a consent manager, or a banner widget of
    /// the cookie and consent topic ([`token_is_banner`]); only looked for when asked.
    pub banner: bool,
    /// Text for screen readers only: a class token is one of [`SCREEN_READER_ONLY`], the name
    /// with a prefix (`govuk-visually-hidden`, `u-sr-only`) or its focusable variant
    /// (`sr-only-focusable`, a skip link shown only while it has the keyboard focus). A sighted
    /// reader never sees it ("Skip to content", "Breadcrumb", "Share on Twitter", "(opens in a
    /// new window)"), so it is no part of the page's text.
    pub screen_reader_only: bool,
    /// A side column of widgets or the page's footer named by a class or id token
    /// ([`names_page_frame`]: WordPress themes' `<div class="sidebar">`, TYPO3's
    /// `section-sidebar`, Elementor's `elementor-location-footer`) on pages that do not use
    /// `<aside>` or `<footer>`: page frame, not hidden (pass 1 leaves it out of the most common
    /// style).
    pub frame: bool,
    /// A post's publication details, named by a class token ([`POST_META`]: WordPress's
    /// `entry-meta` "Veröffentlicht am … von admin"; Joomla's `dl.article-info` "Details /
    /// Geschrieben von / Zugriffe: 1834"): what the CMS says about the page, not the
    /// document's text; both passes skip it like text for screen readers only.
    pub post_meta: bool,
}

impl Hiding {
    /// Whether both passes leave the element out of the page's text.
    pub fn is_skipped(&self) -> bool {
        self.banner || self.screen_reader_only || self.post_meta
    }
}

/// How the `class` and `id` values hide an element `tag`: one automaton walk over each value
/// finds the words both tests need (most values hold none, and no token is read then).
/// Banners are looked for only with `banners`, and only on the boxes a banner is
/// ([`BANNER_BOXES`]: never the page itself, [`PAGE_TAGS`]).
pub fn hiding(tag: &str, class: Option<&str>, id: Option<&str>, banners: bool) -> Hiding {
    let in_class = class.map(words_in).unwrap_or_default();
    let banner = banners
        && (BANNER_BOXES.contains(&tag) || tag.contains('-'))
        && (in_class.banner || id.is_some_and(|id| words_in(id).banner))
        && tokens(class, id).any(token_is_banner);
    let screen_reader_only = in_class.screen_reader && class.is_some_and(names_screen_reader_only);
    let frame = !PAGE_TAGS.contains(&tag)
        && (in_class.frame || id.is_some_and(|id| words_in(id).frame))
        && tokens(class, id).any(names_page_frame);
    let post_meta = in_class.post_meta
        && tokens(class, None).any(|t| {
            POST_META.iter().any(|name| t.eq_ignore_ascii_case(name))
                || (tag == "dl" && t.eq_ignore_ascii_case(JOOMLA_DETAILS))
        });
    Hiding {
        banner,
        screen_reader_only,
        frame,
        post_meta,
    }
}

/// The class tokens, then the id.
fn tokens<'a>(class: Option<&'a str>, id: Option<&'a str>) -> impl Iterator<Item = &'a str> {
    class
        .into_iter()
        .flat_map(str::split_ascii_whitespace)
        .chain(id)
}

/// Class or id tokens of a side column or one of its columns' names (whole tokens only: a
/// body's `has-sidebar`, Genesis's `content-sidebar-wrap` around the text and its column, or a
/// theme's `penci_sidebar` container name no side column). A lone `widget` is none either:
/// page builders (Plentymarkets' ShopBuilder, Elementor) call every content box one, and
/// WordPress's widgets sit in a column named here.
const SIDE_COLUMNS: [&str; 14] = [
    "sidebar",
    "site-sidebar",
    "page-sidebar",
    "section-sidebar",
    "primary-sidebar",
    "secondary-sidebar",
    "left-sidebar",
    "right-sidebar",
    "sidebar-left",
    "sidebar-right",
    "sidebar-primary",
    "sidebar-secondary",
    "widget-area",
    "widget-column",
];

/// Class or id tokens of the page's footer where it is no `<footer>` (whole tokens only):
/// themes' and page builders' footer wrappers (Elementor's `elementor-location-footer`,
/// Divi's `main-footer`, WordPress's `colophon`, Shopware's `footer-main`). A newsletter box,
/// a link column or a "© 2025 …" line there is the site's, like in `<footer>`; what is only
/// a part of a post (`entry-footer`, `card-footer`, `modal-footer`) is named otherwise.
const PAGE_FOOTERS: [&str; 10] = [
    "footer",
    "site-footer",
    "page-footer",
    "main-footer",
    "global-footer",
    "footer-main",
    "footer-wrapper",
    "footer-container",
    "elementor-location-footer",
    "colophon",
];

/// Whether a class or id token names a side column or the page's footer ([`SIDE_COLUMNS`],
/// [`PAGE_FOOTERS`], any case).
fn names_page_frame(token: &str) -> bool {
    SIDE_COLUMNS
        .iter()
        .chain(&PAGE_FOOTERS)
        .any(|name| token.eq_ignore_ascii_case(name))
}

/// Every [`SIDE_COLUMNS`] and [`PAGE_FOOTERS`] token holds one of these.
const FRAME_WORDS: [&str; 4] = ["sidebar", "widget", "footer", "colophon"];

/// Class tokens of a post's publication details (whole tokens): WordPress themes'
/// `entry-meta`, `entry-byline` and `posted-on`. Joomla's `article-info` counts on a `dl`
/// only ([`JOOMLA_DETAILS`]): Zendesk's help centres call the section holding the whole
/// article so. Wider names (`post-meta`, `post-info`, `byline`) were tried: they wrap
/// whole articles or their headline on news sites (a news page's token F1 0.99 → 0.74).
const POST_META: [&str; 3] = ["entry-meta", "entry-byline", "posted-on"];

/// Joomla's article details: `<dl class="article-info">` ("Details", "Geschrieben von:",
/// "Zugriffe: 1834").
const JOOMLA_DETAILS: &str = "article-info";

/// Every [`POST_META`] token and [`JOOMLA_DETAILS`] holds one of these.
const POST_META_WORDS: [&str; 4] = ["meta", "byline", "posted-on", "article-info"];

/// Whether an element with these `class` and `id` values is a consent banner.
#[cfg(test)]
fn is_consent_banner(class: Option<&str>, id: Option<&str>) -> bool {
    hiding("div", class, id, true).banner
}

/// Whether an element with this `class` is text for screen readers only.
#[cfg(test)]
fn is_screen_reader_only(class: Option<&str>) -> bool {
    hiding("span", class, None, false).screen_reader_only
}

/// The elements a consent banner is: a box over or on the page (and any custom element,
/// `<cookie-consent-banner>`). Its name on anything else
/// names a part of the page's text — a consent tool's cookie table in a cookie policy
/// (`<table class="cookielawinfo-row-cat-table">`), a link to the policy inside a sentence
/// (`<a class="iubenda-cs-cookie-policy-lnk">`) — and a part of a banner is skipped with the
/// box that holds it anyway.
const BANNER_BOXES: [&str; 8] = [
    "div", "section", "aside", "dialog", "form", "nav", "header", "footer",
];

/// Elements that are the page or its main content, never frame on it (nor, being no
/// [`BANNER_BOXES`], a banner): their class names describe the page (WordPress sets
/// `page-cookie-notice` on the `<body>` of a page with that slug, a theme `has-sidebar`).
const PAGE_TAGS: [&str; 3] = ["html", "body", "main"];

/// Whether a class token names text for screen readers only (see [`Hiding`]).
fn names_screen_reader_only(class: &str) -> bool {
    class.split_ascii_whitespace().any(|token| {
        let t = token.to_ascii_lowercase();
        let t = t.strip_suffix("-focusable").unwrap_or(&t);
        SCREEN_READER_ONLY.iter().any(|name| {
            t == *name
                || t.strip_suffix(name)
                    .is_some_and(|prefix| prefix.ends_with('-') || prefix.ends_with('_'))
        })
    })
}

/// Every banner token holds one of these (ASCII case ignored): a topic word of
/// [`token_is_banner`] or a consent vendor's name without one.
const BANNER_WORDS: [&str; 10] = [
    "cookie",
    "consent",
    "gdpr",
    "onetrust",
    "usercentrics",
    "didomi",
    "cmplz",
    "klaro",
    "iubenda-cs",
    "qc-cmp",
];

/// Class names that hide an element from sighted readers and leave it to screen readers
/// (Bootstrap and Tailwind `sr-only`, Drupal and Bootstrap 5 `visually-hidden`, WordPress
/// `screen-reader-text` and `assistive-text`, HTML5 Boilerplate `visuallyhidden`, Foundation
/// `show-for-sr`, Liferay `hide-accessible`, jQuery UI `ui-helper-hidden-accessible`,
/// OneTrust `ot-scrn-rdr` in its cookie lists).
const SCREEN_READER_ONLY: [&str; 11] = [
    "sr-only",
    "visually-hidden",
    "visuallyhidden",
    "screen-reader-text",
    "screen-reader-only",
    "element-invisible",
    "show-for-sr",
    "assistive-text",
    "hide-accessible",
    "hidden-accessible",
    "scrn-rdr",
];

/// [`BANNER_WORDS`], [`SCREEN_READER_ONLY`], [`FRAME_WORDS`] and [`POST_META_WORDS`], as one
/// automaton (ASCII case ignored).
static MARKUP_WORDS: LazyLock<DFA> = LazyLock::new(|| {
    DFA::builder()
        .ascii_case_insensitive(true)
        .prefilter(false)
        .build(
            BANNER_WORDS
                .iter()
                .chain(&SCREEN_READER_ONLY)
                .chain(&FRAME_WORDS)
                .chain(&POST_META_WORDS),
        )
        .expect("a few fixed words")
});

/// Which families of [`MARKUP_WORDS`] a value holds.
#[derive(Debug, Clone, Copy, Default)]
struct WordsIn {
    banner: bool,
    screen_reader: bool,
    frame: bool,
    post_meta: bool,
}

/// Walks [`MARKUP_WORDS`] over `value` byte by byte (values are short: a walk costs less
/// than a search through the general API).
fn words_in(value: &str) -> WordsIn {
    let words = &*MARKUP_WORDS;
    let mut found = WordsIn::default();
    let Ok(mut state) = words.start_state(Anchored::No) else {
        return found;
    };
    for &b in value.as_bytes() {
        state = words.next_state(Anchored::No, state, b);
        if words.is_special(state) && words.is_match(state) {
            for i in 0..words.match_len(state) {
                let pattern = words.match_pattern(state, i).as_usize();
                if pattern < BANNER_WORDS.len() {
                    found.banner = true;
                } else if pattern < BANNER_WORDS.len() + SCREEN_READER_ONLY.len() {
                    found.screen_reader = true;
                } else if pattern
                    < BANNER_WORDS.len() + SCREEN_READER_ONLY.len() + FRAME_WORDS.len()
                {
                    found.frame = true;
                } else {
                    found.post_meta = true;
                }
            }
        }
    }
    found
}

/// Consent managers' names, found at the start of a class or id token.
const VENDORS: &[&str] = &[
    "onetrust",
    "cookiebot",
    "cybotcookiebot",
    "usercentrics",
    "borlabs-cookie",
    "didomi",
    "cookieyes",
    "cmplz",
    "cookie-law-info",
    "cookielawinfo",
    "klaro",
    "iubenda-cs",
    "truste-consent",
    "qc-cmp",
];

fn token_is_banner(token: &str) -> bool {
    // Called for every class token of the page: the vendors' names and the topic words are
    // looked for in the token as written, ASCII case ignored; only a token holding a topic
    // word is lower-cased, for the widget words.
    const WIDGETS: &[&str] = &[
        "banner",
        "notice",
        "bar",
        "popup",
        "modal",
        "overlay",
        "layer",
        "dialog",
        "hint",
        "message",
        "window",
        "disclaimer",
        "warning",
        "alert",
        "toast",
        "popover",
        "prompt",
    ];
    let b = token.as_bytes();
    let word_at = |i: usize, word: &str| {
        b.get(i..i + word.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(word.as_bytes()))
    };
    let Some(first) = b.first().map(u8::to_ascii_lowercase) else {
        return false;
    };
    if VENDORS
        .iter()
        .any(|v| v.as_bytes()[0] == first && word_at(0, v))
    {
        return true;
    }
    // The topic words start with `c` or `g` (`| 0x20` lower-cases an ASCII letter).
    let topic = (0..b.len()).any(|i| match b[i] | 0x20 {
        b'c' => word_at(i, "cookie") || word_at(i, "consent"),
        b'g' => word_at(i, "gdpr"),
        _ => false,
    });
    if !topic {
        return false;
    }
    let t = token.to_ascii_lowercase();
    WIDGETS.iter().any(|w| t.contains(w)) || t.contains("cookie-consent") || t == "cc-window"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_columns_are_named_by_their_class_or_id() {
        let side = |class: Option<&str>, id: Option<&str>| hiding("div", class, id, true).frame;
        assert!(side(Some("col-4 sidebar"), None));
        assert!(side(Some("section-sidebar"), None));
        assert!(side(None, Some("Sidebar")));
        assert!(side(None, Some("sidebar-primary")));
        assert!(side(Some("x"), Some("widget-area")));
        assert!(!side(Some("page has-sidebar"), None));
        assert!(!side(Some("content-sidebar-wrap"), None));
        assert!(!side(Some("container penci_sidebar"), None));
        assert!(!side(Some("widget widget-text"), None));
        assert!(!hiding("body", Some("sidebar"), None, true).frame);
        assert!(!side(
            Some("elementor-widget elementor-widget-text-editor"),
            None
        ));
        assert!(!side(Some("content"), Some("main")));
    }

    #[test]
    fn page_footers_are_named_by_their_class_or_id() {
        let frame = |class: Option<&str>, id: Option<&str>| hiding("div", class, id, true).frame;
        assert!(frame(
            Some("elementor elementor-28 elementor-location-footer"),
            None
        ));
        assert!(frame(Some("site-footer"), None));
        assert!(frame(None, Some("footer")));
        assert!(frame(None, Some("colophon")));
        assert!(!frame(Some("entry-footer"), None));
        assert!(!frame(Some("card-footer"), None));
        assert!(!frame(Some("footer-link"), None));
        assert!(!hiding("main", Some("footer"), None, true).frame);
    }

    #[test]
    fn screen_reader_only_classes_are_recognised() {
        for class in [
            "sr-only",
            "visually-hidden",
            "a visuallyhidden b",
            "screen-reader-text",
            "govuk-visually-hidden",
            "u-sr-only",
            "ot-scrn-rdr",
            "sr-only-focusable",
            "Element-Invisible",
            "show-for-sr",
            "hide-accessible",
            "ui-helper-hidden-accessible",
        ] {
            assert!(is_screen_reader_only(Some(class)), "{class}");
        }
        for class in [
            "hidden-xs",
            "visually",
            "sr-only-text-wrapper",
            "nosr-only",
            "content",
        ] {
            assert!(!is_screen_reader_only(Some(class)), "{class}");
        }
        assert!(!is_screen_reader_only(None));
    }

    #[test]
    fn banners_are_recognised() {
        for (class, id) in [
            (Some("cookie-consent-banner__text"), None),
            (Some("x cookie-notice"), None),
            (None, Some("onetrust-banner-sdk")),
            (None, Some("CybotCookiebotDialog")),
            (Some("cmplz-cookiebanner"), None),
            (Some("gdpr-modal"), None),
            (Some("klaro"), None),
            (None, Some("didomi-host")),
            (Some("row site-GDPR-bar"), None),
            (Some("qc-cmp2-container"), None),
            (Some("Iubenda-cs-banner"), None),
            (Some("alert alert-dismissible cookie-warning"), None),
            (None, Some("cookieAlert")),
        ] {
            assert!(is_consent_banner(class, id), "{class:?} {id:?}");
        }
    }

    #[test]
    fn the_quick_test_lets_every_banner_token_through() {
        for vendor in VENDORS {
            assert!(words_in(vendor).banner, "{vendor}");
            assert!(token_is_banner(vendor), "{vendor}");
        }
        // What a topic word alone does not make a banner is left to the token test.
        assert!(words_in("Cookie-Policy").banner);
        assert!(!is_consent_banner(Some("cookie-policy"), None));
        assert!(!words_in("content legal-text").banner);
    }

    #[test]
    fn cookie_policy_content_is_not_a_banner() {
        for (class, id) in [
            (Some("content"), Some("cookies")),
            (Some("cookie-policy"), None),
            (None, Some("section-cookies-and-tracking")),
            (Some("consent"), None),
            (None, None),
        ] {
            assert!(!is_consent_banner(class, id), "{class:?} {id:?}");
        }
    }
}
