//! Whether an analysed page is a legal page at all ([`legal_page_verdict`]): a shop's home
//! page, a product page or a blog article is not.
//!
//! Three general signals add to a score; the page is legal when the score reaches
//! [`THRESHOLD`]:
//!
//! 1. **Legal vocabulary density** — the share of the text's words that are words of
//!    contracts, rights, liability and data protection in German, English and French
//!    ([`LEGAL_WORDS`]: "Vertrag…", "gemäß", "Haftung…", "liability", "pursuant", "shall",
//!    "données", "conformément" …) plus the typical words of the document types
//!    ([`super::document::CONTENT`]). Its part is `density / `[`DENSITY_FULL`], at most
//!    [`W_DENSITY`].
//! 2. **Clause numbering** — `§` signs and numbered sections (`1.`, `§ 3`, `(2)`, `Art. 4`) per
//!    hundred words: at most [`W_NUMBERING`].
//! 3. **Title and headings** — the page title or the first heading names a legal document
//!    ([`super::vocabulary::match_label`], most of the label being the name): [`W_TITLE`].
//!
//! A page with very little text (under [`MIN_WORDS`] words) needs the title signal or dense
//! imprint words: an imprint is short, a product page is short too.

use super::document::{content_hits, label_weight, section_text, title_parts};
use super::vocabulary::{fold, label_coverage};
use crate::model::{Document, DocumentType, Section};

/// The verdict on a page: legal or not, the score and the signals behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct LegalVerdict {
    /// Whether the page is a legal page (terms, privacy policy, imprint …).
    pub is_legal: bool,
    /// The score compared against [`THRESHOLD`].
    pub score: f64,
    /// The signals and their parts, for a log line or an error message.
    pub reason: String,
}

/// Score at which a page is legal.
pub const THRESHOLD: f64 = 1.0;
/// Most that the legal vocabulary density adds.
pub const W_DENSITY: f64 = 1.5;
/// Density (legal words per word) at which the vocabulary part is 1.
pub const DENSITY_FULL: f64 = 0.05;
/// Most that clause numbering adds.
pub const W_NUMBERING: f64 = 0.4;
/// What a legal document's name in the title or first heading adds.
pub const W_TITLE: f64 = 0.8;
/// Least share of a title that a document's name must cover to count.
pub const MIN_COVERAGE: f64 = 0.3;
/// Fewer words than this: the density alone does not decide.
pub const MIN_WORDS: usize = 100;

/// Words of contracts, rights, liability and data protection (folded; a trailing `*` matches
/// any continuation of the word).
pub const LEGAL_WORDS: &[&str] = &[
    // German.
    "vertrag*",
    "vertrage*",
    "gemass",
    "haftung*",
    "haftet",
    "gewahrleistung*",
    "bestimmung*",
    "gesetzlich*",
    "verpflicht*",
    "rechte",
    "anspruch*",
    "anspruche*",
    "einwilligung*",
    "widerruf*",
    "verbraucher*",
    "unternehmer*",
    "kaufer*",
    "verkaufer*",
    "anbieter*",
    "bgb",
    "abs",
    "personenbezogen*",
    "datenschutz*",
    "verarbeitung*",
    "rechtsgrundlage*",
    "berechtigt*",
    "vereinbar*",
    "geltend*",
    "zustimmung*",
    "agb",
    "ausschliesslich",
    "vorbehalt*",
    "sofern",
    "soweit",
    "unverzuglich",
    "schadensersatz*",
    "gerichtsstand*",
    "impressum",
    "handelsregister*",
    "registergericht*",
    // English.
    "agreement*",
    "agree",
    "terms",
    "conditions",
    "liability",
    "liable",
    "pursuant",
    "shall",
    "hereby",
    "herein",
    "thereof",
    "warrant*",
    "indemnif*",
    "party",
    "parties",
    "third parties",
    "consent",
    "contract*",
    "obligation*",
    "jurisdiction",
    "governing",
    "applicable",
    "provision*",
    "accordance",
    "policy",
    "privacy",
    "personal",
    "disclose*",
    "disclosure",
    "terminate",
    "termination",
    "rights",
    "law",
    "laws",
    "legal",
    "notice",
    "prohibited",
    "permitted",
    "license*",
    "licence*",
    "infring*",
    "breach",
    "damages",
    "limitation",
    "purposes",
    "processing",
    "retain",
    "refund*",
    // French.
    "contrat*",
    "conformement",
    "responsabilite*",
    "donnees",
    "personnelles",
    "droit",
    "droits",
    "utilisateur*",
    "vendeur*",
    "acheteur*",
    "loi",
    "litige*",
    "garantie*",
    "presentes",
    "consentement",
    "traitement*",
    "stipul*",
    "prestataire*",
    "mentions legales",
];

/// Whether `doc` is a legal page, with its score and the signals (see the module docs).
///
/// ```
/// use tcx_core::{Document, Source, analyze, legal_page_verdict};
/// let html = "<html><head><title>Sommerkleid Blau</title></head><body><h1>Sommerkleid Blau</h1>\
///             <p>Leichtes Kleid aus Baumwolle, in vier Größen. Jetzt in den Warenkorb legen \
///             und morgen tragen. Farbe: Blau. Material: 100 % Baumwolle.</p></body></html>";
/// let a = analyze(html, &Default::default()).unwrap();
/// let doc = Document::from_analysis(a, Source::default(), String::new());
/// assert!(!legal_page_verdict(&doc).is_legal);
/// ```
pub fn legal_page_verdict(doc: &Document) -> LegalVerdict {
    let text = section_text(&doc.sections);
    let folded = format!(" {} ", fold(&text));
    let words = folded.split_whitespace().count();

    let legal_hits: usize = LEGAL_WORDS.iter().map(|w| count(&folded, w)).sum();
    let named = doc
        .title
        .as_deref()
        .into_iter()
        .flat_map(title_parts)
        .chain(first_title(&doc.sections))
        .filter_map(names_legal_document)
        .max_by(|a, b| a.1.total_cmp(&b.1));
    // Shipping and payment words count only on a page named for them: a product page has
    // them too.
    let shipping_named = named.is_some_and(|n| n.0 == DocumentType::ShippingPayment);
    let type_hits: usize = content_hits(&text)
        .iter()
        .filter(|h| h.kind != DocumentType::ShippingPayment || shipping_named)
        .map(|h| h.count)
        .sum();
    let density = if words == 0 {
        0.0
    } else {
        (legal_hits + type_hits) as f64 / words as f64
    };
    let mut density_part = (density / DENSITY_FULL).min(1.0) * W_DENSITY;
    if words < MIN_WORDS {
        density_part *= words as f64 / MIN_WORDS as f64;
    }

    let numbered = numbered_sections(&doc.sections) + text.matches('§').count();
    let numbering_part = if words == 0 {
        0.0
    } else {
        ((numbered as f64 * 100.0 / words as f64) / 2.0).min(1.0) * W_NUMBERING
    };

    let title_part = named.map_or(0.0, |n| n.1 * W_TITLE);
    let named = named.map(|n| n.0.name());

    let score = density_part + numbering_part + title_part;
    let reason = format!(
        "{words} words, legal vocabulary {:.1} % ({:.2}), numbering {numbered} ({:.2}), name {} ({:.2}); score {:.2} {} {THRESHOLD}",
        density * 100.0,
        density_part,
        numbering_part,
        named.unwrap_or("none"),
        title_part,
        score,
        if score >= THRESHOLD { "≥" } else { "<" },
    );
    LegalVerdict {
        is_legal: score >= THRESHOLD,
        score: (score * 1000.0).round() / 1000.0,
        reason,
    }
}

/// The type a label names when most of it (at least [`MIN_COVERAGE`]) is a legal
/// document's name, with its weight: 1, or less for the weak names of `other` ("Legal",
/// "Policies", "Guidelines").
fn names_legal_document(label: &str) -> Option<(DocumentType, f64)> {
    let (kind, phrase, weight) = label_weight(label, 1.0)?;
    if kind == DocumentType::Other {
        let strong = phrase.len() >= 9 || weight >= 0.8;
        return Some((kind, if strong { 1.0 } else { 0.5 }));
    }
    (label_coverage(label, kind) >= MIN_COVERAGE).then_some((kind, 1.0))
}

fn first_title(sections: &[Section]) -> Option<&str> {
    sections
        .iter()
        .find_map(|s| s.title.as_deref().or_else(|| first_title(&s.subsections)))
}

fn numbered_sections(sections: &[Section]) -> usize {
    sections
        .iter()
        .map(|s| {
            usize::from(s.number.is_some()) + s.clauses.len() + numbered_sections(&s.subsections)
        })
        .sum()
}

/// Occurrences of a word (or a `*` stem) in a folded text padded with spaces.
fn count(padded: &str, word: &str) -> usize {
    let (stem, whole) = match word.strip_suffix('*') {
        Some(stem) => (stem, false),
        None => (word, true),
    };
    let bytes = padded.as_bytes();
    let mut n = 0;
    let mut from = 0;
    while let Some(i) = padded[from..].find(stem) {
        let at = from + i;
        let end = at + stem.len();
        if at > 0 && bytes[at - 1] == b' ' && (!whole || bytes.get(end) == Some(&b' ')) {
            n += 1;
        }
        from = end;
    }
    n
}
