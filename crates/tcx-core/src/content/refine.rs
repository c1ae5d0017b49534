//! Trimming boilerplate at the edges of the content, after Kimatu's block ratios.
//!
//! The content candidate often carries a little of the site inside it: a breadcrumb, share
//! buttons, "back to top", a print link, a newsletter box. Every block gets a
//! content-relevance score from four ratios; blocks that score as boilerplate are removed
//! from the start and the end of the content only — never from the middle, because a T&C is
//! continuous. Titles, dates, addresses, phone numbers, e-mail addresses and the lines of a
//! withdrawal form score low but are content (the paper's requirements 3 and 4), so they are
//! protected.

use std::sync::LazyLock;

use regex::Regex;

use super::closing::{before_site_widget, before_teasers};
use crate::structure::blocks::{Block, BlockKind};

/// Characters of a typical sentence: blocks this long get the full length ratio.
pub const TYPICAL_BLOCK_CHARS: f64 = 80.0;
/// Mean word length (characters) of running text: the full average-length ratio.
pub const TYPICAL_WORD_CHARS: f64 = 5.0;
/// Sentence punctuation marks per 100 characters of prose: the full punctuation ratio.
pub const TYPICAL_PUNCTUATION_PER_100: f64 = 1.0;
/// Weights of the length, average-length, punctuation and link ratios in the score.
pub const WEIGHTS: [f64; 4] = [0.3, 0.1, 0.3, 0.3];
/// Blocks scoring below this are boilerplate (unless protected).
pub const BOILERPLATE_BELOW: f64 = 0.45;
/// Short plain lines (titles, dates) of at most this many words are protected when they are
/// not links and not a known boilerplate phrase.
pub const SHORT_LINE_WORDS: usize = 12;
/// A tail of boilerplate-scoring blocks after the last content block shorter than this is
/// the document's own closing lines ("Previous versions", a contact or policy link): only the
/// site phrases at its very end go. From this length on it is a link list (tags, share
/// buttons, related articles) and goes whole.
pub const LINK_LIST_BLOCKS: usize = 4;

/// The ratios and score of one block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockScore {
    /// Length ratio, 0 to 1.
    pub length: f64,
    /// Average word length ratio, 0 to 1.
    pub average_length: f64,
    /// Punctuation ratio, 0 to 1.
    pub punctuation: f64,
    /// Link density: share of link characters, 0 to 1.
    pub link_density: f64,
    /// Weighted content relevance, 0 to 1.
    pub relevance: f64,
}

/// Scores one block.
pub fn score(block: &Block) -> BlockScore {
    let chars = block.text.chars().count() as f64;
    let letters: usize = block
        .text
        .split_whitespace()
        .map(|w| w.chars().filter(|c| c.is_alphanumeric()).count())
        .sum();
    let words = block.words.max(1) as f64;
    let punct = block
        .text
        .chars()
        .filter(|c| matches!(c, '.' | ',' | ';' | ':' | '!' | '?'))
        .count() as f64;
    let length = (chars / TYPICAL_BLOCK_CHARS).min(1.0);
    let average_length = (letters as f64 / words / TYPICAL_WORD_CHARS).min(1.0);
    let punctuation = (punct * 100.0 / chars.max(1.0) / TYPICAL_PUNCTUATION_PER_100).min(1.0);
    let link_density = f64::from(block.link_share).clamp(0.0, 1.0);
    let relevance = WEIGHTS[0] * length
        + WEIGHTS[1] * average_length
        + WEIGHTS[2] * punctuation
        + WEIGHTS[3] * (1.0 - link_density);
    BlockScore {
        length,
        average_length,
        punctuation,
        link_density,
        relevance,
    }
}

static BOILERPLATE_PHRASE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(newsletter|nach oben|zurück nach oben|back to top|scroll to top|seite drucken|drucken|print( this)?( page)?|teilen|share( this)?|tweet|facebook|pinterest|whatsapp|sie sind hier|you are here|startseite|breadcrumb|cookie[- ]?einstellungen|cookie[- ]settings|cookie[- ]consent|cookies? (?:entfernen|löschen|verwalten|akzeptieren|ablehnen)|(?:manage|accept|reject) cookies|zum warenkorb|add to cart|in den warenkorb|weiter einkaufen|continue shopping|pdf herunterladen|download( as)? pdf|jetzt anmelden|subscribe|abonnieren|folgen sie uns|follow us\
|retour en haut|haut de (la )?page|imprimer( cette| la)? page|version imprimable|partager (sur|cette page|cet article)\
|vous êtes ici|fil d'ariane|param[eè]tres des cookies|g[eé]rer (les )?cookies|(accepter|refuser) (les )?cookies\
|ajouter au panier|continuer (mes|vos) achats|t[eé]l[eé]charger (le |en )?pdf|abonnez-vous|s'abonner|suivez-nous\
|was this (page|article|answer|information) helpful|war (diese seite|dieser artikel|diese antwort) hilfreich\
|(cette page|cet article|cette réponse) (vous )?a-t-(il|elle) été utile)\b")
        .expect("valid regex")
});

/// A notice about the reader's browser or the site itself, not about the document: an
/// outdated browser, JavaScript or style sheets that did not load, a new version to reload.
/// Sites print these above the text; a document never opens with one.
static SITE_NOTICE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        // ASCII word boundaries (every alternative begins and ends with an ASCII letter) let
        // the regex run as a DFA instead of backtracking on every short edge block.
        r"(?i)(?-u:\b)(?:(?:very |an? )?(?:old|older|outdated|out of date|unsupported|veralteten?) (?:web ?)?browser",
        r"|navigateur (?:est )?(?:obsol[eè]te|p[eé]rim[eé])|(?:update|upgrade) your (?:web ?)?browser",
        r"|(?:using|are on|update your|upgrade your) internet explorer|internet explorer (?:is )?not supported",
        r"|(?:enable|turn on|activate) javascript|javascript (?:is )?(?:disabled|turned off|required)",
        r"|javascript (?:aktivieren|ist deaktiviert)|aktivieren sie javascript|(?:activer|activez) (?:le )?javascript",
        r"|style ?sheets? (?:didn't|did not|failed to|could not) load|support style ?sheets",
        r"|(?:reload|refresh) (?:the|this) (?:page|site)|seite neu laden)(?-u:\b)",
    ))
    .expect("valid regex")
});

pub(super) static PROTECTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)(\b\d{4,5}\s+\p{Lu}\p{Ll}+", // postcode and town
        r"|\b(tel|telefon|phone|fax|mobil)\b\.?\s*:?\s*[+\d(]", // phone
        r"|\+\d{2}[\d\s/()-]{6,}",         // international number
        r"|[\w.+-]+@[\w-]+\.[\w.]+",       // e-mail
        r"|_{3,}|\(\*\)|\bunterschrift\b|\bdatum\b|\bsignature\b", // withdrawal form
        r"|\b(gmbh|ag|ug|kg|e\.k\.|ltd|inc|llc)\b)", // company names in imprints
    ))
    .expect("valid regex")
});

static FIELD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[^:]{2,40}:\s*\S").expect("valid regex"));

/// Whether a block is content whatever its score.
pub fn is_protected(block: &Block) -> bool {
    if is_heading(block) || block.enumeration.is_some() {
        return true;
    }
    if PROTECTED.is_match(&block.text) {
        return true;
    }
    if block.words > SHORT_LINE_WORDS || BOILERPLATE_PHRASE.is_match(&block.text) {
        return false;
    }
    // A short plain line (a title, a date), or an imprint field: a plain label and its
    // value, which may be a link ("Web design: www.agentur.de").
    block.link_share < 0.2 || (block.link_share <= 0.6 && FIELD.is_match(&block.text))
}

/// Whether a block is a notice about the reader's browser or the site ([`SITE_NOTICE`]):
/// at most [`SITE_NOTICE_MAX_WORDS`] words, not a heading.
pub fn is_site_notice(block: &Block) -> bool {
    block.words <= SITE_NOTICE_MAX_WORDS && !is_heading(block) && SITE_NOTICE.is_match(&block.text)
}

/// Longest site notice, in words: longer text that mentions a browser is the document's own
/// (a cookie policy explaining browser settings).
pub const SITE_NOTICE_MAX_WORDS: usize = 40;

/// Whether a block is boilerplate: link-dense or a known site phrase, or scoring low, and not
/// protected; or a site notice.
pub fn is_boilerplate(block: &Block) -> bool {
    if is_site_notice(block) {
        return true;
    }
    // The score is cheap and clears most blocks; the protection's regular expressions run
    // only on the blocks that score as boilerplate (long content blocks are never scanned).
    let s = score(block);
    let scores_low =
        s.link_density >= 0.5 || s.relevance < BOILERPLATE_BELOW || names_site_phrase(block);
    scores_low && !is_protected(block)
}

/// Whether a tail of link lines is the document's archive of earlier versions: at least three
/// in four of its blocks name a year ("November 2019", "Privacy Policy June 2014 (PDF)").
/// Publishers list them under the text, and their own copy keeps them; a list of related
/// pages or share buttons rarely dates every entry.
fn is_version_archive(tail: &[Block], label: Option<&Block>) -> bool {
    let dated = tail.iter().filter(|b| names_a_year(&b.text)).count();
    // A blog's monthly archive or a dated news list is dated too: the tail or the line before
    // it must also speak of versions or of the document ("Terms of Service Archive:",
    // "Previous Policy PDF Version").
    let speaks_of_versions = tail
        .iter()
        .chain(label)
        .any(|b| VERSION_WORDS.is_match(&b.text));
    dated * 4 >= tail.len() * 3 && speaks_of_versions
}

/// Words of a version archive: versions, earlier texts, the document's own names.
static VERSION_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(?:versions?|previous|former|earlier|prior|pdf|terms|polic(?:y|ies)|conditions|agb|fassung(?:en)?|bedingungen|datenschutz|pr[eé]c[eé]dente?s?)(?-u:\b)")
        .expect("valid regex")
});

/// Whether the text holds a year from 1990 to 2039: a run of exactly four digits (a postcode
/// such as "2000 Antwerpen" passes too; the archive test also asks for version words).
fn names_a_year(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_digit())
        .any(|d| d.len() == 4 && ("1990".."2040").contains(&d))
}

/// Removes the site notices among the title lines that open the content at `first`
/// ("Terms of Service", "You are using a very old browser!", "Free Accounts"): the run of
/// headings and notices up to the first other block. Returns how many went; none when
/// nothing but titles and notices would be left.
fn drop_notices_among_titles(blocks: &mut Vec<Block>, first: usize) -> usize {
    let Some(run) = blocks[first..]
        .iter()
        .position(|b| !(is_site_notice(b) || is_heading(b)))
    else {
        return 0;
    };
    // `blocks[first]` is content, never a notice: the run's notices lie after it.
    if run < 2 {
        return 0;
    }
    let among_titles = first + 1..first + run;
    if !blocks[among_titles.clone()].iter().any(is_site_notice) {
        return 0;
    }
    let before = blocks.len();
    let mut index = 0;
    blocks.retain(|b| {
        let i = index;
        index += 1;
        !(among_titles.contains(&i) && is_site_notice(b))
    });
    before - blocks.len()
}

/// Most words of a kicker over the title ("Legal", "Rechtliches", "Informations légales").
const KICKER_MAX_WORDS: usize = 3;

/// Removes a kicker — a short line of at most [`KICKER_MAX_WORDS`] words that is no heading,
/// no number, no date and names no legal document, standing as the content's first block
/// right over its `h1` ("Legal" over "Terms of Service"): a theme's label of the page's
/// category. The document starts at its title; a line naming the document ("TERMS OF
/// SERVICE" over "GRINDR TERMS AND CONDITIONS OF SERVICE") is part of its title. Returns how
/// many blocks went (0 or 1).
fn drop_kicker_over_title(blocks: &mut Vec<Block>, first: usize) -> usize {
    let kicker = |b: &Block| {
        !is_heading(b)
            && b.words <= KICKER_MAX_WORDS
            && b.enumeration.is_none()
            && !b.text.chars().any(|c| c.is_ascii_digit())
            && !crate::classify::is_a_document_name(&b.text)
    };
    if blocks.get(first).is_some_and(kicker)
        && blocks
            .get(first + 1)
            .is_some_and(|t| t.kind == BlockKind::Heading(1))
    {
        blocks.remove(first);
        return 1;
    }
    0
}

/// Removes a menu of links to the site's other pages standing right under the opening
/// title(s), before the text: one line holding [`MENU_MIN_LINKS`] or more such links and
/// little else ("Privacy Policy | Terms of Use | Movie Ticket Policy | Cookies"), or a run of
/// as many link-only lines to other pages. A table of contents (links to places on the page),
/// a print or download link, numbered lines, a line ending a sentence and a menu with nothing
/// after it stay. Returns how many blocks went.
fn drop_menu_under_title(blocks: &mut Vec<Block>, first: usize) -> usize {
    if !blocks.get(first).is_some_and(is_heading) {
        return 0;
    }
    let titles = blocks[first..].iter().take_while(|b| is_heading(b)).count();
    let start = first + titles;
    let run = blocks[start..]
        .iter()
        .take_while(|b| is_menu_line(b))
        .count();
    let menu = match run {
        0 => false,
        1 => blocks[start].away_links >= MENU_MIN_LINKS,
        n => {
            n >= usize::from(MENU_MIN_LINKS) && blocks[start..start + n].iter().all(|b| b.link_only)
        }
    };
    if !menu || start + run >= blocks.len() {
        return 0;
    }
    blocks.drain(start..start + run);
    run
}

/// Removes a breadcrumb trail next to the opening title: a short line beside a heading that
/// links to other pages and ends, after a separator, with that heading's own text ("Home /
/// Legal / English – Disney Terms of Use" under "English – Disney Terms of Use"). The trail
/// only says where the page stands on the site; the title it repeats stays. A trail set as a
/// list leaves its last crumb, a list item repeating the heading after it, which goes too.
/// Looked for among the first [`BREADCRUMB_WITHIN`] blocks. Returns how many blocks went (0
/// or 1).
fn drop_breadcrumb_by_title(blocks: &mut Vec<Block>, first: usize) -> usize {
    let end = blocks.len().min(first + BREADCRUMB_WITHIN);
    // Whether block `j` is a heading with the words of `text`.
    let heading_says = |j: Option<usize>, text: &str| {
        j.and_then(|j| blocks.get(j))
            .is_some_and(|t| is_heading(t) && same_words(&t.text, text))
    };
    let trail = (first..end).find(|&i| {
        let b = &blocks[i];
        match last_crumb(b) {
            Some(last) => heading_says(i.checked_sub(1), last) || heading_says(Some(i + 1), last),
            // The trail's last crumb, the current page, as a list item of its own ("Home" is
            // a link and went with the leading boilerplate): it repeats the heading after it.
            None => {
                b.kind == BlockKind::ListItem
                    && b.words <= SHORT_LINE_WORDS
                    && heading_says(Some(i + 1), &b.text)
            }
        }
    });
    match trail {
        Some(i) => {
            blocks.remove(i);
            1
        }
        None => 0,
    }
}

/// The blocks at the content's start where a breadcrumb trail is looked for.
const BREADCRUMB_WITHIN: usize = 4;

/// The last part of a breadcrumb trail: the text after the last separator (`/`, `›`, `»`, `>`,
/// `|`, `→` between spaces) of a short line, not a heading, with a link to another page.
fn last_crumb(b: &Block) -> Option<&str> {
    if is_heading(b) || b.away_links == 0 || b.words > SHORT_LINE_WORDS {
        return None;
    }
    let text = b.text.trim();
    [" / ", " › ", " » ", " > ", " | ", " → "]
        .iter()
        .filter_map(|sep| text.rfind(sep).map(|at| at + sep.len()))
        .max()
        .map(|from| text[from..].trim())
        .filter(|last| !last.is_empty())
}

/// The same words, case and spacing aside.
fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace()
        .map(str::to_lowercase)
        .eq(b.split_whitespace().map(str::to_lowercase))
}

/// Whether a block comes from a heading element.
pub(super) fn is_heading(b: &Block) -> bool {
    matches!(b.kind, BlockKind::Heading(_))
}

/// Fewest links to other pages that make the lines under a title a menu.
const MENU_MIN_LINKS: u16 = 3;

/// A line of a menu: mostly links (at least 70 % of its characters: the current page's own
/// name often stands unlinked among them), at least one to another page, not a heading, not
/// numbered, not ending a sentence.
fn is_menu_line(b: &Block) -> bool {
    b.link_share >= 0.7
        && b.away_links > 0
        && b.enumeration.is_none()
        && !is_heading(b)
        && !b.text.trim_end().ends_with(['.', ':', '!', '?'])
}

/// A short line ending in a colon that only introduces what follows ("Weitere Links:",
/// "Share:"): not a heading tag and not enumerated.
fn is_label(block: &Block) -> bool {
    block.text.trim_end().ends_with(':')
        && block.words <= SHORT_LINE_WORDS / 3
        && block.enumeration.is_none()
        && !is_heading(block)
}

/// How many blocks were trimmed at each end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Trimmed {
    /// Blocks removed at the start: before the first content block, site notices among the
    /// opening titles, and a menu of the site's other pages under them.
    pub start: usize,
    /// Blocks removed after the last content block.
    pub end: usize,
}

/// Whether a short block names a known site phrase ("Back to top", "Share", "Print"):
/// furniture even where link lines are the document's own.
/// A statement of the document that only mentions such a phrase ("You can change your consent
/// at any time using the cookie settings link in the footer of every page.") names none: at
/// least [`STATEMENT_WORDS`] words, mostly not link text, ending with a full stop.
pub(super) fn names_site_phrase(block: &Block) -> bool {
    let statement = block.words >= STATEMENT_WORDS
        && block.link_share < 0.5
        && block.text.trim_end().ends_with('.');
    block.words <= 20 && !statement && BOILERPLATE_PHRASE.is_match(&block.text)
}

/// Fewest words of a statement that is no site phrase. A site's calls to action are sentences
/// too, but shorter: "Get the latest updates right in your inbox. Subscribe to our
/// newsletters." (12 words), "Follow our Opinion section on Facebook, Twitter and
/// Instagram." (14 words on a news page).
const STATEMENT_WORDS: usize = 15;

/// Removes boilerplate blocks at the start and the end: the runs of boilerplate before the
/// first and after the last block that is content. Nothing after a content block at the
/// start (a title) or before one at the end (a date line) is touched — except site notices
/// among the opening titles ([`is_site_notice`]) and a menu of links to the site's other
/// pages right under them (`drop_menu_under_title`): a print link under the title stays, as do
/// the lines of a page that only happen to score low. A label left
/// introducing only removed blocks ("Weitere Links:") goes too. Never removes everything: a
/// content made only of boilerplate is left as it is.
///
/// The end is treated with more care than the start. The container already ends where the
/// page's frame begins, and a legal document often closes with a line or two of links of its
/// own ("Previous versions", "View the previous version", "Contact us", the privacy policy it
/// refers to), which its publisher's own copy keeps. So the site phrases at the very end
/// ("Back to top", "Print") go, and of what is left, a tail shorter than
/// [`LINK_LIST_BLOCKS`] stays; a longer one is a link list and goes whole. A site widget
/// (a site phrase followed only by its controls: "Share this:" / Facebook / X) and teasers
/// to other pages go from the end too (`closing`).
pub fn trim_edges(blocks: &mut Vec<Block>) -> Trimmed {
    let Some(first) = blocks.iter().position(|b| !is_boilerplate(b)) else {
        return Trimmed::default();
    };
    let notices = drop_notices_among_titles(blocks, first)
        + drop_kicker_over_title(blocks, first)
        + drop_breadcrumb_by_title(blocks, first)
        + drop_menu_under_title(blocks, first);
    let content_end = blocks
        .iter()
        .rposition(|b| !is_boilerplate(b))
        .unwrap_or(first);
    // The site phrases at the very end go first; what is left of the tail is measured. (Tail
    // blocks are boilerplate, so none is protected.)
    let mut last = blocks.len() - 1;
    while last > content_end && names_site_phrase(&blocks[last]) {
        last -= 1;
    }
    if last - content_end >= LINK_LIST_BLOCKS
        && !is_version_archive(&blocks[content_end + 1..=last], blocks.get(content_end))
    {
        last = content_end;
    }
    while last > first && last + 1 < blocks.len() && is_label(&blocks[last]) {
        last -= 1;
    }
    last = before_site_widget(blocks, first, last);
    last = before_teasers(blocks, first, last);
    // The teasers may have stood after a download or share line of the site's.
    while last > first && is_boilerplate(&blocks[last]) && names_site_phrase(&blocks[last]) {
        last -= 1;
    }
    let trimmed = Trimmed {
        start: first + notices,
        end: blocks.len() - 1 - last,
    };
    blocks.truncate(last + 1);
    blocks.drain(..first);
    trimmed
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::{AnalysisOptions, parse::tree::ReducedTree, structure::blocks::blocks};

    /// The blocks of a page read whole (the content step's tests).
    pub(in crate::content) fn blocks_of(html: &str) -> Vec<Block> {
        let whole = 0..html.len();
        let t = ReducedTree::build(
            html,
            std::slice::from_ref(&whole),
            &AnalysisOptions::default(),
        )
        .unwrap();
        blocks(&t)
    }

    const CLAUSE: &str = "<p>Der Vertrag kommt mit der Annahme der Bestellung durch uns zustande, spätestens mit dem Versand der Ware.</p>";

    #[test]
    fn edges_are_trimmed_middle_is_kept() {
        let html = format!(
            "<p><a href=/>Startseite</a> › <a href=/agb>AGB</a></p><h1>AGB</h1>{CLAUSE}<p><a href=/x>Mehr erfahren</a></p>{CLAUSE}\
             <p><a href=#top>Zurück nach oben</a></p><p>Seite drucken</p><p>Teilen: <a>Facebook</a> <a>Twitter</a></p>\
             <div>Newsletter abonnieren und 10 % sparen</div>"
        );
        let mut b = blocks_of(&html);
        let t = trim_edges(&mut b);
        assert_eq!(t, Trimmed { start: 1, end: 4 });
        assert_eq!(b.first().map(|b| b.text.as_str()), Some("AGB"));
        assert!(
            b.iter().any(|b| b.text == "Mehr erfahren"),
            "the middle stays"
        );
        assert!(b.last().unwrap().text.starts_with("Der Vertrag"));
    }

    #[test]
    fn addresses_phones_and_form_lines_are_content() {
        let html = format!(
            "{CLAUSE}<p>Beispiel GmbH</p><p>Musterstraße 1</p><p>12345 Musterstadt</p><p>Tel.: +49 40 123456</p>\
             <p>E-Mail: info@beispiel.de</p><p>Name des/der Verbraucher(s): ______________</p><p>Datum</p><p>(*) Unzutreffendes streichen.</p>"
        );
        let mut b = blocks_of(&html);
        let n = b.len();
        assert_eq!(trim_edges(&mut b), Trimmed::default());
        assert_eq!(b.len(), n);
    }

    #[test]
    fn imprint_fields_with_a_link_value_are_content() {
        let html = format!(
            "{CLAUSE}<p>Bildrechte: Royalty Free images</p><p>Web design / development: <a href=https://agentur.example>www.agentur.example</a></p>\
             <p>Folgen Sie uns: <a href=/fb>Facebook</a></p>"
        );
        let mut b = blocks_of(&html);
        assert_eq!(trim_edges(&mut b), Trimmed { start: 0, end: 1 });
        assert!(b.last().unwrap().text.starts_with("Web design"));
    }

    #[test]
    fn the_documents_own_closing_links_stay_but_not_a_link_list() {
        // One or two link lines after the last clause are the document's own; a site phrase
        // at the very end still goes.
        let html = format!(
            "{CLAUSE}<p><a href=/terms/2019>Previous versions</a></p><p><a href=/contact>Contact us</a></p>\
             <p><a href=#top>Back to top</a></p>"
        );
        let mut b = blocks_of(&html);
        assert_eq!(trim_edges(&mut b), Trimmed { start: 0, end: 1 });
        assert_eq!(b.last().unwrap().text, "Contact us");
        // Four link lines are a list of related pages: all go.
        let html = format!(
            "{CLAUSE}<p><a href=/a>Our new store in Berlin opens next week</a></p><p><a href=/b>Ten gift ideas for spring</a></p>\
             <p><a href=/c>How we choose our suppliers</a></p><p><a href=/d>Meet the team behind the shop</a></p>"
        );
        let mut b = blocks_of(&html);
        assert_eq!(trim_edges(&mut b), Trimmed { start: 0, end: 4 });
        assert!(b.last().unwrap().text.starts_with("Der Vertrag"));
    }

    #[test]
    fn an_archive_of_dated_earlier_versions_stays_at_the_end() {
        let html = format!(
            "{CLAUSE}<p><strong>Terms of Service Archive:</strong></p><ul><li><a href=/v5.pdf>November 2019</a></li>\
             <li><a href=/v4.pdf>May 2018</a></li><li><a href=/v3.pdf>December 2015</a></li><li><a href=/v1.pdf>September 2014</a></li></ul>"
        );
        let mut b = blocks_of(&html);
        assert_eq!(trim_edges(&mut b), Trimmed::default());
        assert_eq!(b.last().unwrap().text, "September 2014");
        // Undated links of the same length are a link list and go.
        let html = format!(
            "{CLAUSE}<p><a href=/a>Our new store in Berlin opens next week</a></p><p><a href=/b>Ten gift ideas for spring</a></p>\
             <p><a href=/c>How we choose our suppliers</a></p><p><a href=/d>Meet the team behind the shop, since 2019</a></p>"
        );
        let mut b = blocks_of(&html);
        assert_eq!(trim_edges(&mut b), Trimmed { start: 0, end: 4 });
    }

    #[test]
    fn a_blog_archive_of_months_is_a_link_list() {
        // Dated, but nothing speaks of versions or of the document: a blog's archive widget.
        let html = format!(
            "{CLAUSE}<p><a href=/2024/03>März 2024</a></p><p><a href=/2024/02>Februar 2024</a></p>\
             <p><a href=/2024/01>Januar 2024</a></p><p><a href=/2023/12>Dezember 2023</a></p>"
        );
        let mut b = blocks_of(&html);
        assert_eq!(trim_edges(&mut b), Trimmed { start: 0, end: 4 });
    }

    #[test]
    fn a_sentence_about_a_browser_among_the_titles_stays() {
        // Document text that names Internet Explorer is no notice about the reader's browser.
        let html = format!(
            "<h1>Accessibility Statement</h1><h2>Non-accessible content</h2>\
             <p>The booking form cannot be used with Internet Explorer 11.</p>{CLAUSE}"
        );
        let mut b = blocks_of(&html);
        let n = b.len();
        assert_eq!(trim_edges(&mut b), Trimmed::default());
        assert_eq!(b.len(), n);
    }

    #[test]
    fn years_are_whole_words_in_range() {
        assert!(names_a_year("Privacy Policy June 2014 (PDF)"));
        assert!(names_a_year("v2019-05"));
        assert!(!names_a_year("Call 020123456 or 1989"));
        assert!(!names_a_year("12345 Musterstadt"));
    }

    #[test]
    fn scores_prefer_prose() {
        let b = blocks_of(&format!(
            "{CLAUSE}<p><a href=/a>Home</a> | <a href=/b>Shop</a></p>"
        ));
        let prose = score(&b[0]);
        let links = score(&b[1]);
        assert!(prose.relevance > 0.9, "{prose:?}");
        assert!(
            links.link_density > 0.7 && links.relevance < BOILERPLATE_BELOW,
            "{links:?}"
        );
    }

    #[test]
    fn site_notices_before_and_among_the_opening_titles_go() {
        let html = format!(
            "<p>If you can read this, the style sheet didn't load or you have an older browser.</p>\
             <h1>AGB</h1><p>Sie verwenden einen veralteten Browser. Bitte aktualisieren.</p>\
             <h2>§ 1 Geltungsbereich</h2>{CLAUSE}{CLAUSE}"
        );
        let mut b = blocks_of(&html);
        assert_eq!(trim_edges(&mut b), Trimmed { start: 2, end: 0 });
        let text: Vec<&str> = b.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text[..2], ["AGB", "§ 1 Geltungsbereich"]);
    }

    #[test]
    fn browser_words_in_the_document_stay() {
        // After the first prose block, and long explanations anywhere, are the document's.
        let settings = "<p>You can set your browser to refuse cookies; if you use an older browser, \
             some parts of the site may not work as described in this policy, and you may have \
             to enable JavaScript again for the checkout to work properly for you.</p>";
        let html =
            format!("<h1>Cookie Policy</h1>{settings}<p>Please enable JavaScript.</p>{CLAUSE}");
        let mut b = blocks_of(&html);
        let n = b.len();
        assert_eq!(trim_edges(&mut b), Trimmed::default());
        assert_eq!(b.len(), n);
    }

    #[test]
    fn all_boilerplate_is_left_alone() {
        let mut b = blocks_of("<p><a href=/>Home</a></p><p><a href=/x>Shop</a></p>");
        assert_eq!(trim_edges(&mut b), Trimmed::default());
        assert_eq!(b.len(), 2);
    }
}
