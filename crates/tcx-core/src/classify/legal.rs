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
//!    ([`super::document::CONTENT`]). Its part is [`W_DENSITY`] × density ÷ [`DENSITY_FULL`],
//!    at most [`W_DENSITY`].
//! 2. **Clause numbering** — `§` signs, numbered sections and clauses (`1.`, `§ 3`, `(2)`,
//!    `a)`); two per hundred words count fully: at most [`W_NUMBERING`].
//! 3. **Title and headings** — a part of the page title (between separators) or the first
//!    heading names a legal document ([`super::vocabulary::match_label`]), the name covering
//!    at least [`MIN_COVERAGE`] of it: [`W_TITLE`] (half for the weak names of `other`,
//!    "Legal", "Policies"). So does the page's http(s) address or the link text it was found
//!    by, when the Document's `document_type` holds them as evidence.
//!
//! The density part shrinks in proportion on a page with very little text (under
//! [`MIN_WORDS`] words) or few legal words (under [`MIN_HITS`]): an imprint is short, but a
//! product page or a home page is short too, and one sentence about the privacy policy in a
//! newsletter box is no legal text. Shipping and payment words count only on a page named
//! for shipping or payment, or typed so with a confidence of at least
//! [`MIN_SHIPPING_CONFIDENCE`] (a product page has them too, spread thin).
//!
//! The weights were set on the tuning half of `gold-legal.tsv` (split by site with
//! `scripts/split-gold-legal`), the OTA and static-mirror pages and the non-legal pages of the
//! corpus; `tcx eval --types` measures them (see `docs/eval.md`).

use super::document::{label_weight, title_parts};
use super::text_vocabulary::TextVocabulary;
use super::vocabulary::label_coverage;
use crate::model::{Document, DocumentType, EvidenceSource, Section};

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
/// Fewer legal words than this: the density counts in proportion (three words in a
/// home page's newsletter box are no legal text).
pub const MIN_HITS: usize = 6;
/// Least confidence of a shipping-and-payment type for its words to count as legal words.
pub const MIN_SHIPPING_CONFIDENCE: f64 = 0.4;
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
    legal_page_verdict_with(doc, &TextVocabulary::of(&doc.sections))
}

/// [`legal_page_verdict`] with the words of the Document's text already found (`found` is
/// [`TextVocabulary::of`] its sections), so the text is folded once for its type and its
/// verdict.
pub fn legal_page_verdict_with(doc: &Document, found: &TextVocabulary) -> LegalVerdict {
    let named = doc
        .title
        .as_deref()
        .into_iter()
        .flat_map(title_parts)
        .chain(first_title(&doc.sections))
        .filter_map(names_legal_document)
        .chain(named_by_address_or_link(doc))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    // Shipping and payment words count only on a page named for them or typed so with
    // some confidence: a product page has them too.
    let shipping_named = named.is_some_and(|n| n.0 == DocumentType::ShippingPayment)
        || doc.document_type.as_ref().is_some_and(|t| {
            t.kind == DocumentType::ShippingPayment && t.confidence >= MIN_SHIPPING_CONFIDENCE
        });
    let type_hits: usize = found
        .content_hits()
        .iter()
        .filter(|h| h.kind != DocumentType::ShippingPayment || shipping_named)
        .map(|h| h.count)
        .sum();
    let hits = found.legal_hits() + type_hits;
    let words = found.words();
    let density = if words == 0 {
        0.0
    } else {
        hits as f64 / words as f64
    };
    let mut density_part = (density / DENSITY_FULL).min(1.0) * W_DENSITY;
    if words < MIN_WORDS {
        density_part *= words as f64 / MIN_WORDS as f64;
    }
    if hits < MIN_HITS {
        density_part *= hits as f64 / MIN_HITS as f64;
    }

    let numbered = numbered_sections(&doc.sections) + found.section_signs();
    let numbering_part = if words == 0 {
        0.0
    } else {
        ((numbered as f64 * 100.0 / words as f64) / 2.0).min(1.0) * W_NUMBERING
    };

    let title_part = named.map_or(0.0, |n| n.1 * W_TITLE);
    let named = named.map(|n| n.0.name());

    let score = density_part + numbering_part + title_part;
    let reason = format!(
        "{words} words, legal vocabulary {hits} hits {:.1} % ({:.2}), numbering {numbered} ({:.2}), name {} ({:.2}); score {:.2} {} {THRESHOLD}",
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

/// The type the page's address or the link it was found by names, as recorded in its
/// [`Document::document_type`] evidence (set from an http(s) address by
/// `Document::from_analysis`, or by a caller that classified the page again with the link
/// text it knows).
fn named_by_address_or_link(doc: &Document) -> Option<(DocumentType, f64)> {
    let info = doc.document_type.as_ref()?;
    info.evidence
        .iter()
        .filter(|e| matches!(e.source, EvidenceSource::Url | EvidenceSource::LinkText))
        .filter(|e| e.kind != DocumentType::Other && e.weight >= 2.0)
        .map(|e| (e.kind, 1.0))
        .next()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;
    use crate::{AnalysisOptions, analyze};

    fn verdict(html: &str) -> LegalVerdict {
        let a = analyze(html, &AnalysisOptions::default()).expect("analysis");
        legal_page_verdict(&Document::from_analysis(
            a,
            Source::default(),
            String::new(),
        ))
    }

    #[test]
    fn a_product_page_is_not_legal() {
        let v = verdict(
            "<html><head><title>Sommerkleid Blau – Beispiel-Shop</title></head><body>\
             <main><h1>Sommerkleid Blau</h1><p>Leichtes Sommerkleid aus reiner Baumwolle mit \
             V-Ausschnitt und Bindegürtel. Perfekt für warme Tage am Strand oder in der \
             Stadt.</p><ul><li>Material: 100 % Baumwolle</li><li>Farbe: Blau</li>\
             <li>Größen: S, M, L, XL</li></ul><p>49,90 € inkl. MwSt. zzgl. Versandkosten. \
             Lieferzeit 2–3 Werktage. Zahlung per PayPal oder Kreditkarte.</p>\
             <p>In den Warenkorb</p><h2>Kundenbewertungen</h2><p>Sehr schöner Stoff, fällt \
             normal aus. Ich würde es wieder kaufen!</p></main></body></html>",
        );
        assert!(!v.is_legal, "{v:?}");
    }

    #[test]
    fn a_home_page_is_not_legal() {
        let v = verdict(
            "<html><head><title>Beispiel-Shop – Mode online kaufen</title></head><body>\
             <main><h1>Willkommen bei Beispiel-Shop</h1><p>Entdecken Sie die neue \
             Sommerkollektion! Kostenloser Versand ab 50 € und 30 Tage Rückgaberecht.</p>\
             <h2>Neu im Shop</h2><p>Sommerkleid Blau 49,90 €</p><p>Leinenhemd Weiß 39,90 €\
             </p><h2>Newsletter</h2><p>Melden Sie sich an und erhalten Sie 10 % Rabatt auf \
             Ihre erste Bestellung. Ihre Daten verwenden wir gemäß unserer \
             Datenschutzerklärung.</p></main><footer><a href=/agb>AGB</a> \
             <a href=/datenschutz>Datenschutz</a> <a href=/impressum>Impressum</a></footer>\
             </body></html>",
        );
        assert!(!v.is_legal, "{v:?}");
    }

    #[test]
    fn a_blog_article_is_not_legal() {
        let v = verdict(
            "<html><head><title>Five tips for a better sourdough | The Bread Blog</title>\
             </head><body><article><h1>Five tips for a better sourdough</h1><p>Sourdough \
             baking has become a favourite hobby for many people. Here are five tips that \
             helped me bake a better loaf at home.</p><h2>1. Feed your starter</h2><p>A \
             lively starter is the heart of every good bread. Feed it twice a day with flour \
             and water and keep it somewhere warm.</p><h2>2. Use a scale</h2><p>Weighing \
             your ingredients gives you the same dough every time, and you can adjust the \
             water to the flour you use.</p><h2>3. Be patient</h2><p>Let the dough rise \
             slowly, ideally overnight in the fridge. The flavour improves with time.</p>\
             </article></body></html>",
        );
        assert!(!v.is_legal, "{v:?}");
        assert!(v.reason.contains("words"), "{}", v.reason);
    }

    #[test]
    fn legal_pages_in_three_languages() {
        let agb = verdict(
            "<html><head><title>AGB</title></head><body><h1>Allgemeine \
             Geschäftsbedingungen</h1><h2>§ 1 Geltungsbereich</h2><p>(1) Diese \
             Geschäftsbedingungen gelten für alle Verträge zwischen dem Verkäufer und dem \
             Kunden. (2) Abweichende Bedingungen des Käufers gelten nicht, soweit der \
             Verkäufer ihnen nicht ausdrücklich zustimmt.</p><h2>§ 2 Haftung</h2><p>Der \
             Verkäufer haftet gemäß den gesetzlichen Bestimmungen. Ansprüche des Kunden auf \
             Schadensersatz sind ausgeschlossen, sofern nicht Vorsatz vorliegt.</p>\
             </body></html>",
        );
        assert!(agb.is_legal, "{agb:?}");
        let terms = verdict(
            "<html><head><title>Terms of Service</title></head><body><h1>Terms of \
             Service</h1><p>By using the service you agree to these terms. If you do not \
             agree, you shall not use the service.</p><h2>Limitation of liability</h2><p>To \
             the extent permitted by applicable law, we shall not be liable for any indirect \
             damages. Nothing in this agreement limits your statutory rights.</p>\
             <h2>Governing law</h2><p>This agreement is governed by the laws of England; the \
             courts of London have exclusive jurisdiction.</p></body></html>",
        );
        assert!(terms.is_legal, "{terms:?}");
        let cgv = verdict(
            "<html><head><title>Conditions générales de vente</title></head><body><h1>\
             Conditions générales de vente</h1><p>Les présentes conditions générales \
             régissent les relations contractuelles entre le vendeur et l'acheteur. Toute \
             commande vaut acceptation des présentes conditions.</p><h2>Responsabilité</h2>\
             <p>La responsabilité du vendeur ne saurait être engagée en cas de force \
             majeure. Tout litige relève du droit français, conformément à la loi \
             applicable.</p></body></html>",
        );
        assert!(cgv.is_legal, "{cgv:?}");
    }

    #[test]
    fn the_link_a_page_was_found_by_names_it() {
        let html = "<html><head><title>Example Store</title></head><body><main><h2>Processing \
            time</h2><p>Orders are dispatched within 1-2 business days. You will receive a \
            tracking number by email once your order has shipped.</p><h2>Shipping rates</h2>\
            <p>Standard shipping costs $5.95; free shipping on orders over $75. Express \
            delivery is available at checkout.</p><h2>International shipping</h2><p>We ship \
            to most countries. Customs duties are the responsibility of the customer.</p>\
            </main></body></html>";
        let a = analyze(html, &AnalysisOptions::default()).expect("analysis");
        let mut doc = Document::from_analysis(a, Source::default(), String::new());
        assert_eq!(
            doc.document_type.as_ref().map(|t| t.kind),
            Some(DocumentType::ShippingPayment)
        );
        let alone = legal_page_verdict(&doc);
        let hints = crate::TypeHints {
            url: Some("https://store.example/policies/shipping-policy"),
            link_text: Some("Shipping policy"),
        };
        doc.document_type = crate::classify_document(&doc, &hints);
        let named = legal_page_verdict(&doc);
        assert!(named.is_legal, "{named:?}");
        assert!(named.score > alone.score, "{alone:?} {named:?}");
    }

    #[test]
    fn a_short_imprint_is_legal() {
        let v = verdict(
            "<html><head><title>Impressum – Beispiel-Shop</title></head><body><h1>Impressum\
             </h1><p>Angaben gemäß § 5 TMG: Beispiel GmbH, Musterstraße 1, 12345 \
             Musterstadt. Vertreten durch den Geschäftsführer Max Muster. Registergericht: \
             Amtsgericht Musterstadt, Handelsregister HRB 12345. USt-IdNr.: DE123456789.</p>\
             </body></html>",
        );
        assert!(v.is_legal, "{v:?}");
    }
}
