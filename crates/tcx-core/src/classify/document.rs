//! The type of an analysed page ([`classify_document`]) and of each document of a page that
//! holds several ([`classify_section`]).
//!
//! A few general signals add scores per [`DocumentType`]; the highest score wins.
//!
//! | signal | source | weight |
//! |---|---|---|
//! | the names of documents ([`match_label`]) in the page `<title>` | `title` | 3.0 |
//! | … in the first heading of the content | `heading` | 3.0 |
//! | … in other unnumbered top-level headings (at most [`W_HEADINGS_MAX`] per type) | `heading` | 1.0 |
//! | … in the address's path words (http and https only, never `file://`) | `url` | 2.5 |
//! | … in the text of the link the page was found by | `link_text` | 3.0 |
//! | the typical words of each type in the text (see [`CONTENT`]) | `vocabulary` | up to 4.0 |
//!
//! A label's weight is scaled by how much of it the name covers ([`label_coverage`]:
//! `0.4 + 0.6 × coverage`), so "AGB" counts fully and "Versandhaus Müller" little; a title
//! is split at its separators (`|`, `–`, ` - `, `:` …) first, so a shop's name beside the
//! document's name does not hide it. The names of the `other` type count half, its weak
//! names ("Legal", "Policies": more often a hub of several documents) a quarter.
//!
//! The vocabulary score of a type is [`W_VOCABULARY`] × its share of all the typical words
//! found × the strength of the evidence (the hits over [`VOCABULARY_FULL`], at most 1). The
//! typical words are general phrases of the kind ("personenbezogene Daten", "personal data",
//! "données personnelles" for privacy; "Widerrufsfrist", "withdraw from this contract",
//! "délai de rétractation" for withdrawal; "Handelsregister", "USt-IdNr", "registered office",
//! "SIRET" for the imprint …) in German, English and French.
//!
//! The confidence is the winner's share of all scores, damped when the evidence is thin
//! (`share × (1 − e^(−score/3))`).

use super::vocabulary::{LabelMatch, fold, label_coverage, match_label};
use crate::model::{
    Document, DocumentType, DocumentTypeInfo, EvidenceSource, Section, TypeEvidence,
};
use crate::structure::hierarchy::names_a_document;
use DocumentType::*;
use std::collections::HashMap;
use std::sync::LazyLock;

/// What the caller knows about a page besides its content: the address it was fetched from
/// and the text of the link it was found by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TypeHints<'a> {
    /// The page's address; only `http`/`https` addresses count.
    pub url: Option<&'a str>,
    /// The text of the link the page was found by ("Datenschutz", "Terms of Service").
    pub link_text: Option<&'a str>,
}

/// Weight of a document name in the page title.
pub const W_TITLE: f64 = 3.0;
/// Weight of a document name in the first heading of the content.
pub const W_FIRST_HEADING: f64 = 3.0;
/// Weight of a document name in another unnumbered top-level heading.
pub const W_HEADING: f64 = 1.0;
/// Most that the other top-level headings add to one type.
pub const W_HEADINGS_MAX: f64 = 2.0;
/// Weight of a document name in the address.
pub const W_URL: f64 = 2.5;
/// Weight of a document name in the link text.
pub const W_LINK_TEXT: f64 = 3.0;
/// Most that the typical words of the text add to one type.
pub const W_VOCABULARY: f64 = 4.0;
/// Weighted hits of typical words at which the vocabulary counts fully.
pub const VOCABULARY_FULL: f64 = 12.0;

/// Most that one line (a paragraph) adds to one type's vocabulary.
pub const LINE_CAP: f64 = 1.5;

/// Labels longer than this many words are sentences, not names.
const MAX_LABEL_WORDS: usize = 12;

/// Typical words of each type in the text: `(folded phrase, type, weight)`. A phrase matches
/// at the start of a word; one ending in `*` may continue into the word ("widerrufsfrist*"
/// matches "Widerrufsfristen").
pub const CONTENT: &[(&str, DocumentType, f64)] = &[
    // Terms: the contract, its conclusion, liability, law.
    ("vertragsschluss*", Terms, 2.0),
    ("vertragsabschluss*", Terms, 2.0),
    ("zustandekommen des vertrag*", Terms, 2.0),
    ("vertragspartner*", Terms, 1.0),
    ("vertragssprache", Terms, 2.0),
    ("eigentumsvorbehalt*", Terms, 2.0),
    ("gewahrleistung*", Terms, 1.0),
    ("mangelhaftung*", Terms, 1.0),
    ("geltungsbereich", Terms, 1.0),
    ("gerichtsstand*", Terms, 1.0),
    ("haftung*", Terms, 0.5),
    ("these terms", Terms, 1.0),
    ("this agreement", Terms, 1.0),
    ("you agree", Terms, 0.5),
    ("governing law", Terms, 2.0),
    ("limitation of liability", Terms, 2.0),
    ("limitation on liability", Terms, 2.0),
    ("indemnif*", Terms, 1.0),
    ("disclaimer of warrant*", Terms, 2.0),
    ("warranties", Terms, 0.5),
    ("termination", Terms, 0.5),
    ("terminate your account", Terms, 1.0),
    ("intellectual property", Terms, 0.5),
    ("user content", Terms, 0.5),
    ("dispute*", Terms, 0.5),
    ("arbitration", Terms, 1.0),
    ("jurisdiction", Terms, 0.5),
    ("conditions generales", Terms, 2.0),
    ("presentes conditions", Terms, 2.0),
    ("formation du contrat", Terms, 2.0),
    ("reserve de propriete", Terms, 2.0),
    ("responsabilite", Terms, 0.5),
    ("garantie legale", Terms, 1.0),
    ("loi applicable", Terms, 2.0),
    ("droit applicable", Terms, 2.0),
    ("litige*", Terms, 0.5),
    // Terms: the parties of a sales contract, named in the third person (a withdrawal notice
    // and a privacy policy speak to "you").
    ("kunde", Terms, 0.5),
    ("kunden", Terms, 0.5),
    ("verkaufer*", Terms, 0.5),
    ("kaufer*", Terms, 0.5),
    ("besteller*", Terms, 0.5),
    ("bestellvorgang*", Terms, 1.0),
    ("vertragstext*", Terms, 1.5),
    ("the customer", Terms, 0.5),
    ("the buyer", Terms, 0.5),
    ("the seller", Terms, 0.5),
    ("le client", Terms, 0.5),
    ("l acheteur", Terms, 0.5),
    ("le vendeur", Terms, 0.5),
    // Terms: the general words of a contract, each weak (a privacy policy has some).
    ("shall", Terms, 0.3),
    ("liable", Terms, 0.3),
    ("liability", Terms, 0.3),
    ("warranty", Terms, 0.3),
    ("agreement", Terms, 0.3),
    ("breach", Terms, 0.3),
    ("vertrag", Terms, 0.3),
    ("vertrages", Terms, 0.3),
    ("vertrags*", Terms, 0.3),
    ("haftet", Terms, 0.3),
    ("anspruch*", Terms, 0.3),
    ("anspruche*", Terms, 0.3),
    ("contrat*", Terms, 0.3),
    ("obligations", Terms, 0.3),
    // Withdrawal: the right to withdraw, its period, returns and refunds.
    ("widerrufsfrist*", Withdrawal, 1.5),
    ("widerrufsrecht*", Withdrawal, 1.5),
    ("widerrufsbelehrung*", Withdrawal, 1.5),
    ("widerrufsformular*", Withdrawal, 1.5),
    ("widerrufen", Withdrawal, 1.5),
    ("ihren widerruf", Withdrawal, 1.0),
    ("folgen des widerrufs", Withdrawal, 1.5),
    ("vierzehn tag*", Withdrawal, 1.0),
    ("rucksendung*", Withdrawal, 1.0),
    ("rucksende*", Withdrawal, 1.0),
    ("retoure*", Withdrawal, 1.0),
    ("ruckerstattung*", Withdrawal, 1.0),
    ("umtausch*", Withdrawal, 1.0),
    ("withdraw from this contract", Withdrawal, 1.5),
    ("right of withdrawal", Withdrawal, 2.0),
    ("right to withdraw", Withdrawal, 2.0),
    ("withdrawal period", Withdrawal, 1.5),
    ("cancellation period", Withdrawal, 2.0),
    ("refund*", Withdrawal, 1.0),
    ("return*", Withdrawal, 0.3),
    ("returned", Withdrawal, 0.5),
    ("exchange*", Withdrawal, 0.3),
    ("delai de retractation", Withdrawal, 1.5),
    ("droit de retractation", Withdrawal, 2.0),
    ("retracte*", Withdrawal, 1.0),
    ("retractation", Withdrawal, 1.0),
    ("remboursement*", Withdrawal, 1.0),
    ("retour*", Withdrawal, 0.5),
    ("store credit", Withdrawal, 1.0),
    ("original packaging", Withdrawal, 1.0),
    ("originalverpackung", Withdrawal, 1.0),
    ("emballage d origine", Withdrawal, 1.0),
    // Privacy: personal data and its processing.
    ("personenbezogene*", Privacy, 2.0),
    ("personenbezogener*", Privacy, 2.0),
    ("datenschutz*", Privacy, 1.0),
    ("dsgvo", Privacy, 1.5),
    ("ds gvo", Privacy, 1.5),
    ("verarbeitung*", Privacy, 0.5),
    ("betroffene person*", Privacy, 1.0),
    ("auskunftsrecht*", Privacy, 1.0),
    ("speicherdauer", Privacy, 1.0),
    ("personal data", Privacy, 2.0),
    ("personal information", Privacy, 2.0),
    ("personally identifiable", Privacy, 2.0),
    ("data protection", Privacy, 1.0),
    ("data controller", Privacy, 2.0),
    ("gdpr", Privacy, 1.5),
    ("privacy", Privacy, 0.3),
    ("we collect", Privacy, 1.0),
    ("information we collect", Privacy, 2.0),
    ("your information", Privacy, 1.0),
    ("your data", Privacy, 1.0),
    ("data subject*", Privacy, 1.0),
    ("processing", Privacy, 0.5),
    ("donnees personnelles", Privacy, 2.0),
    ("donnees a caractere personnel", Privacy, 2.0),
    ("protection des donnees", Privacy, 1.0),
    ("rgpd", Privacy, 1.5),
    ("traitement*", Privacy, 0.5),
    ("responsable du traitement", Privacy, 2.0),
    ("cnil", Privacy, 1.5),
    // Imprint: who the provider is, registered how.
    ("handelsregister*", Imprint, 3.0),
    ("registergericht*", Imprint, 3.0),
    ("registernummer*", Imprint, 2.0),
    ("ust idnr*", Imprint, 3.0),
    ("ust id*", Imprint, 2.0),
    ("umsatzsteuer identifikationsnummer*", Imprint, 3.0),
    ("umsatzsteueridentifikationsnummer*", Imprint, 3.0),
    ("geschaftsfuhrer*", Imprint, 1.5),
    ("vertreten durch", Imprint, 2.0),
    ("vertretungsberechtigt*", Imprint, 2.0),
    ("angaben gemass", Imprint, 3.0),
    ("5 tmg", Imprint, 3.0),
    ("5 ddg", Imprint, 3.0),
    ("inhaltlich verantwortlich*", Imprint, 3.0),
    ("verantwortlich fur den inhalt", Imprint, 3.0),
    ("streitschlichtung*", Imprint, 1.0),
    ("registered office", Imprint, 2.0),
    ("company number", Imprint, 2.0),
    ("registration number", Imprint, 1.5),
    ("registered in", Imprint, 1.5),
    ("vat id*", Imprint, 2.0),
    ("vat number", Imprint, 2.0),
    ("vat no", Imprint, 2.0),
    ("managing director*", Imprint, 2.0),
    ("commercial register", Imprint, 3.0),
    ("register court", Imprint, 3.0),
    ("siret", Imprint, 3.0),
    ("siren", Imprint, 2.0),
    ("rcs", Imprint, 2.0),
    ("capital social", Imprint, 2.0),
    ("directeur de la publication", Imprint, 3.0),
    ("hebergeur", Imprint, 2.0),
    ("hebergement", Imprint, 1.0),
    ("siege social", Imprint, 1.5),
    ("firmenbuch*", Imprint, 3.0),
    ("firmensitz", Imprint, 2.0),
    ("firmenregister", Imprint, 2.0),
    ("uid", Imprint, 2.0),
    ("uid nr*", Imprint, 2.0),
    ("herausgeber", Imprint, 1.0),
    ("inhaber*", Imprint, 1.0),
    // Shipping and payment: costs, times, carriers, payment methods.
    ("versandkosten*", ShippingPayment, 2.0),
    ("versandart*", ShippingPayment, 2.0),
    ("versand*", ShippingPayment, 0.5),
    ("lieferzeit*", ShippingPayment, 1.5),
    ("lieferung*", ShippingPayment, 0.5),
    ("zahlungsart*", ShippingPayment, 2.0),
    ("zahlungsmoglichkeit*", ShippingPayment, 2.0),
    ("vorkasse", ShippingPayment, 1.5),
    ("nachnahme", ShippingPayment, 1.5),
    ("sofortuberweisung", ShippingPayment, 1.5),
    ("paypal", ShippingPayment, 0.5),
    ("kreditkarte*", ShippingPayment, 0.5),
    ("dhl", ShippingPayment, 1.0),
    ("hermes", ShippingPayment, 1.0),
    ("paket*", ShippingPayment, 0.5),
    ("shipping cost*", ShippingPayment, 2.0),
    ("shipping method*", ShippingPayment, 2.0),
    ("shipping", ShippingPayment, 0.5),
    ("delivery time*", ShippingPayment, 1.5),
    ("dispatch*", ShippingPayment, 0.5),
    ("payment method*", ShippingPayment, 1.0),
    ("frais de port", ShippingPayment, 2.0),
    ("frais de livraison", ShippingPayment, 2.0),
    ("delai de livraison", ShippingPayment, 1.5),
    ("livraison*", ShippingPayment, 0.5),
    ("modes de paiement", ShippingPayment, 2.0),
    ("moyens de paiement", ShippingPayment, 2.0),
    ("expedition*", ShippingPayment, 0.5),
    ("colissimo", ShippingPayment, 1.0),
    ("chronopost", ShippingPayment, 1.0),
    ("mondial relay", ShippingPayment, 1.0),
    ("transporteur*", ShippingPayment, 0.5),
    ("tracking number", ShippingPayment, 1.0),
    ("sendungsverfolgung", ShippingPayment, 1.0),
    ("delivery", ShippingPayment, 0.3),
    // Cookies and trackers.
    ("cookie*", Cookies, 0.4),
    ("tracker*", Cookies, 1.0),
    ("local storage", Cookies, 1.0),
    ("pixel tag*", Cookies, 1.0),
    ("web beacon*", Cookies, 1.0),
    ("traceur*", Cookies, 1.0),
    ("textdatei*", Cookies, 1.0),
    ("temoin*", Cookies, 0.5),
    ("google analytics", Cookies, 0.5),
    // Other legal texts.
    ("community guidelines", Other, 2.0),
    ("community standards", Other, 2.0),
    ("hate speech", Other, 1.0),
    ("harassment", Other, 0.5),
    ("copyright infringement", Other, 2.0),
    ("dmca", Other, 1.5),
    ("counter notification", Other, 2.0),
    ("law enforcement", Other, 1.0),
    ("acceptable use", Other, 1.5),
    // Community guidelines: behaviour towards other members.
    ("our community", Other, 1.0),
    ("bully*", Other, 0.5),
    ("hateful", Other, 0.5),
    ("nudity", Other, 0.5),
    ("spam", Other, 0.3),
    ("hassrede*", Other, 1.0),
    ("belastig*", Other, 0.5),
    ("respektvoll*", Other, 0.5),
    ("harcelement", Other, 0.5),
    ("haineux", Other, 0.5),
    // Copyright claims, vulnerability disclosure, law enforcement, captioning policies.
    ("takedown", Other, 1.0),
    ("copyright agent", Other, 2.0),
    ("vulnerabilit*", Other, 1.0),
    ("security researcher*", Other, 2.0),
    ("responsible disclosure", Other, 2.0),
    ("bug bount*", Other, 2.0),
    ("subpoena*", Other, 1.0),
    ("closed caption*", Other, 2.0),
];

static CONTENT_INDEX: LazyLock<PhraseIndex> =
    LazyLock::new(|| PhraseIndex::new(CONTENT.iter().map(|c| c.0)));

/// Names of documents of the `other` kind that the label vocabulary does not list, and
/// whether they are strong names (a generic "Guidelines" is weak).
const OTHER_LABELS: &[(&str, bool)] = &[
    ("guidelines", false),
    ("richtlinie", false),
    ("law enforcement", true),
    ("vulnerability disclosure", true),
    ("closed captioning", true),
    ("security polic", true),
    ("security practices", true),
    ("responsible disclosure", true),
    ("bug bounty", true),
    ("copyright polic", true),
    ("brand guidelines", true),
    ("content policy", true),
    ("gemeinschaftsrichtlinie", true),
    ("community richtlinie", true),
    ("nutzungsrichtlinie", true),
    ("verhaltensregeln", true),
    ("code of conduct", true),
    ("etiquette", false),
    ("regles de la communaute", true),
];

/// The type of an analysed page: its title, its first heading and top-level headings, its
/// address (http/https only) and the link text it was found by ([`TypeHints`]), and the
/// typical words of its text (weights in the module docs). `None` when nothing speaks for
/// any type.
///
/// ```
/// use tcx_core::{DocumentType, Document, Source, TypeHints, analyze, classify_document};
/// let html = "<html><head><title>Datenschutz</title></head><body><h1>Datenschutzerklärung</h1>\
///             <p>Wir verarbeiten personenbezogene Daten nur nach der DSGVO.</p></body></html>";
/// let a = analyze(html, &Default::default()).unwrap();
/// let doc = Document::from_analysis(a, Source::default(), String::new());
/// let info = classify_document(&doc, &TypeHints::default()).unwrap();
/// assert_eq!(info.kind, DocumentType::Privacy);
/// ```
pub fn classify_document(doc: &Document, hints: &TypeHints) -> Option<DocumentTypeInfo> {
    let mut scores = Scores::default();
    if let Some(title) = &doc.title {
        scores.title(title);
    }
    let first = first_heading(&doc.sections);
    if let Some(h) = first {
        scores.label(EvidenceSource::Heading, h, W_FIRST_HEADING);
    }
    let mut heading_weight = [0.0; 7];
    for s in doc.sections.iter().filter(|s| s.number.is_none()) {
        let Some(t) = s.title.as_deref() else {
            continue;
        };
        if Some(t) == first {
            continue;
        }
        if let Some((kind, phrase, weight)) = label_weight(t, W_HEADING) {
            let room = W_HEADINGS_MAX - heading_weight[index(kind)];
            let weight = weight.min(room);
            if weight > 0.0 {
                heading_weight[index(kind)] += weight;
                scores.add(EvidenceSource::Heading, kind, phrase, t, weight);
            }
        }
    }
    if let Some(url) = hints.url.filter(|u| is_http(u)) {
        scores.url(url);
    }
    if let Some(link) = hints.link_text {
        scores.label(EvidenceSource::LinkText, link, W_LINK_TEXT);
    }
    scores.vocabulary(&section_text(&doc.sections));
    scores.finish()
}

/// The type of one document of a page that holds several (a top-level section): its title and
/// the typical words of its text. `None` when nothing speaks for any type.
pub fn classify_section(section: &Section) -> Option<DocumentTypeInfo> {
    let mut scores = Scores::default();
    if let Some(t) = section.title.as_deref() {
        scores.label(EvidenceSource::Heading, t, W_FIRST_HEADING);
    }
    scores.vocabulary(&section_text(std::slice::from_ref(section)));
    scores.finish()
}

/// Sets the page's type and, on a page whose top-level sections are several documents
/// (at least two of their titles name a document), each top-level section's.
pub(crate) fn annotate(doc: &mut Document) {
    let url = doc
        .source
        .final_url
        .as_deref()
        .filter(|u| is_http(u))
        .or(doc.source.url.as_deref().filter(|u| is_http(u)));
    let hints = TypeHints {
        url,
        link_text: None,
    };
    doc.document_type = classify_document(doc, &hints);
    let documents = doc
        .sections
        .iter()
        .filter(|s| s.title.as_deref().is_some_and(names_a_document))
        .count();
    if documents >= 2 {
        for s in &mut doc.sections {
            s.document_type = classify_section(s);
        }
    }
}

/// Whether an address is http or https (a `file://` path says nothing about the page).
fn is_http(url: &str) -> bool {
    let lower = url
        .trim_start()
        .get(..8)
        .unwrap_or(url)
        .to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// The first titled section, depth first.
fn first_heading(sections: &[Section]) -> Option<&str> {
    for s in sections {
        if let Some(t) = s.title.as_deref().filter(|t| !t.trim().is_empty()) {
            return Some(t);
        }
        if let Some(t) = first_heading(&s.subsections) {
            return Some(t);
        }
    }
    None
}

/// The titles and paragraphs of a section tree, one a line.
pub(crate) fn section_text(sections: &[Section]) -> String {
    fn walk(sections: &[Section], out: &mut String) {
        for s in sections {
            if let Some(t) = &s.title {
                out.push_str(t);
                out.push('\n');
            }
            for p in &s.paragraphs {
                out.push_str(p);
                out.push('\n');
            }
            walk(&s.subsections, out);
        }
    }
    let mut out = String::new();
    walk(sections, &mut out);
    out
}

fn index(kind: DocumentType) -> usize {
    DocumentType::ALL
        .iter()
        .position(|&k| k == kind)
        .unwrap_or(0)
}

/// The type a short label names, the phrase and its weight: `base` scaled by how much of the
/// label the name covers, half for the weak `other` names.
pub(crate) fn label_weight(label: &str, base: f64) -> Option<(DocumentType, String, f64)> {
    if label.split_whitespace().count() > MAX_LABEL_WORDS {
        return None;
    }
    if let Some(m) = first_named(label) {
        let coverage = label_coverage(label, m.kind);
        let mut weight = base * (0.4 + 0.6 * coverage);
        if m.kind == Other {
            // "Legal", "Policies": a hub of several documents more often than one of them.
            weight *= if m.phrase.len() < 9 { 0.25 } else { 0.5 };
        }
        return Some((m.kind, m.phrase.to_owned(), weight));
    }
    let folded = fold(label);
    OTHER_LABELS
        .iter()
        .find(|(p, _)| matches_at_word(&folded, p, p.len() < 6) > 0)
        .map(|(p, strong)| {
            let weight = if *strong { base * 0.8 } else { base * 0.5 };
            (Other, (*p).to_owned(), weight)
        })
}

/// The document a label names first: "Terms of Use and Privacy Policy" is terms, "AGB &
/// Widerrufsrecht" is terms (a page names its main document first). Where the first name
/// starts, the longest name wins ([`match_label`]); the weak names of `other` ("Legal",
/// "Policies") count only when nothing else is named.
pub(crate) fn first_named(label: &str) -> Option<LabelMatch> {
    let words: Vec<&str> = label.split_whitespace().collect();
    for i in 0..words.len() {
        for end in (i + 1..=words.len().min(i + 4)).rev() {
            let window = words[i..end].join(" ");
            if let Some(m) = match_label(&window)
                && fold(&window).starts_with(m.phrase)
                && !(m.kind == Other && m.phrase.len() < 9)
            {
                return Some(m);
            }
        }
    }
    match_label(label)
}

/// Occurrences of `phrase` in `folded` starting a word; when `whole`, also ending one.
fn matches_at_word(folded: &str, phrase: &str, whole: bool) -> usize {
    let bytes = folded.as_bytes();
    folded
        .match_indices(phrase)
        .filter(|(i, _)| {
            let starts = *i == 0 || bytes[i - 1] == b' ';
            let end = i + phrase.len();
            starts && (!whole || end == bytes.len() || bytes[end] == b' ')
        })
        .count()
}

/// Scores per type with their evidence.
#[derive(Default)]
struct Scores {
    score: [f64; 7],
    evidence: Vec<TypeEvidence>,
}

impl Scores {
    fn add(
        &mut self,
        source: EvidenceSource,
        kind: DocumentType,
        phrase: String,
        value: &str,
        weight: f64,
    ) {
        self.score[index(kind)] += weight;
        self.evidence.push(TypeEvidence {
            source,
            kind,
            phrase,
            value: shorten(value),
            weight: round3(weight),
        });
    }

    fn label(&mut self, source: EvidenceSource, label: &str, base: f64) {
        if let Some((kind, phrase, weight)) = label_weight(label, base) {
            self.add(source, kind, phrase, label, weight);
        }
    }

    /// A page title: each part between separators may name a document; the best part per
    /// type counts.
    fn title(&mut self, title: &str) {
        let mut best: Vec<(DocumentType, String, f64)> = Vec::new();
        for part in title_parts(title) {
            if let Some((kind, phrase, weight)) = label_weight(part, W_TITLE) {
                match best.iter_mut().find(|b| b.0 == kind) {
                    Some(b) if b.2 >= weight => {}
                    Some(b) => *b = (kind, phrase, weight),
                    None => best.push((kind, phrase, weight)),
                }
            }
        }
        for (kind, phrase, weight) in best {
            self.add(EvidenceSource::Title, kind, phrase, title, weight);
        }
    }

    fn url(&mut self, url: &str) {
        if let Some(kind) = super::vocabulary::type_of_url(url) {
            let weight = if kind == Other { W_URL * 0.5 } else { W_URL };
            self.add(
                EvidenceSource::Url,
                kind,
                kind.name().to_owned(),
                url,
                weight,
            );
        }
    }

    fn vocabulary(&mut self, text: &str) {
        let hits = content_hits(text);
        let total: f64 = hits.iter().map(|h| h.weight).sum();
        if total <= 0.0 {
            return;
        }
        let strength = (total / VOCABULARY_FULL).min(1.0);
        for h in hits {
            let weight = W_VOCABULARY * h.weight / total * strength;
            if weight >= 0.05 {
                let value = format!("{} hits", h.count);
                let phrase = h.phrases.join(", ");
                self.add(EvidenceSource::Vocabulary, h.kind, phrase, &value, weight);
            }
        }
    }

    fn finish(mut self) -> Option<DocumentTypeInfo> {
        let total: f64 = self.score.iter().sum();
        let (best, &top) = self
            .score
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))?;
        if top <= 0.0 {
            return None;
        }
        let kind = DocumentType::ALL[best];
        let confidence = top / total * (1.0 - (-top / 3.0).exp());
        self.evidence.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        Some(DocumentTypeInfo {
            kind,
            ota_name: kind.ota_name().map(str::to_owned),
            confidence: round3(confidence),
            evidence: self.evidence,
        })
    }
}

/// The typical words of one type found in a text.
#[derive(Debug)]
pub(crate) struct Hits {
    pub kind: DocumentType,
    /// Weighted hits.
    pub weight: f64,
    /// Occurrences.
    pub count: usize,
    /// The phrases found, most frequent first (at most five).
    pub phrases: Vec<String>,
}

/// The typical words of each type ([`CONTENT`]) in a text, per type that has any. A line
/// (a paragraph) adds at most [`LINE_CAP`] to a type: words spread over the text count more
/// than words crowded in one passage (an AGB that quotes the withdrawal notice stays terms).
pub(crate) fn content_hits(text: &str) -> Vec<Hits> {
    let mut weight = [0.0; 7];
    let mut count = [0usize; 7];
    let mut phrase_counts = vec![0usize; CONTENT.len()];
    for line in text.lines() {
        let folded = fold(line);
        if folded.is_empty() {
            continue;
        }
        let mut line_weight = [0.0; 7];
        CONTENT_INDEX.scan(&folded, |j| {
            let (_, kind, w) = CONTENT[j];
            phrase_counts[j] += 1;
            line_weight[index(kind)] += w;
            count[index(kind)] += 1;
        });
        for (total, line) in weight.iter_mut().zip(line_weight) {
            *total += line.min(LINE_CAP);
        }
    }
    DocumentType::ALL
        .into_iter()
        .filter(|&kind| count[index(kind)] > 0)
        .map(|kind| {
            let mut phrases: Vec<(usize, &str)> = CONTENT
                .iter()
                .zip(&phrase_counts)
                .filter(|((_, k, _), n)| *k == kind && **n > 0)
                .map(|((p, _, _), n)| (*n, p.trim_end_matches('*')))
                .collect();
            phrases.sort_by_key(|p| std::cmp::Reverse(p.0));
            Hits {
                kind,
                weight: weight[index(kind)],
                count: count[index(kind)],
                phrases: phrases.iter().take(5).map(|p| p.1.to_owned()).collect(),
            }
        })
        .collect()
}

/// A set of folded phrases found in one pass over a text: each phrase is looked up at every
/// word start by its first three bytes. A phrase ending in `*` may continue into the word;
/// one without must end a word.
pub(crate) struct PhraseIndex {
    /// `(stem, whole word)` per phrase, in the order given.
    phrases: Vec<(&'static str, bool)>,
    /// Phrase indices by the first three bytes of their stem (shorter stems: all of it).
    by_prefix: HashMap<&'static [u8], Vec<usize>>,
}

impl PhraseIndex {
    pub(crate) fn new(phrases: impl IntoIterator<Item = &'static str>) -> PhraseIndex {
        let mut index = PhraseIndex {
            phrases: Vec::new(),
            by_prefix: HashMap::new(),
        };
        for (i, phrase) in phrases.into_iter().enumerate() {
            let (stem, whole) = match phrase.strip_suffix('*') {
                Some(stem) => (stem, false),
                None => (phrase, true),
            };
            let key = &stem.as_bytes()[..stem.len().min(3)];
            index.by_prefix.entry(key).or_default().push(i);
            index.phrases.push((stem, whole));
        }
        index
    }

    /// Calls `found` with the index of every phrase occurrence in `folded` (a [`fold`]ed
    /// text).
    pub(crate) fn scan(&self, folded: &str, mut found: impl FnMut(usize)) {
        let bytes = folded.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if i == 0 || bytes[i - 1] == b' ' {
                for len in [3, 2, 1] {
                    let Some(key) = bytes.get(i..i + len) else {
                        continue;
                    };
                    let Some(candidates) = self.by_prefix.get(key) else {
                        continue;
                    };
                    for &j in candidates {
                        let (stem, whole) = self.phrases[j];
                        let end = i + stem.len();
                        if bytes.get(i..end) == Some(stem.as_bytes())
                            && (!whole || end == bytes.len() || bytes[end] == b' ')
                        {
                            found(j);
                        }
                    }
                }
            }
            i += 1;
        }
    }
}

/// The parts of a page title between its separators.
pub(crate) fn title_parts(title: &str) -> Vec<&str> {
    title
        .split(['|', '–', '—', ':', '·', '»', '«', '•', '/'])
        .flat_map(|p| p.split(" - "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

fn shorten(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_owned(),
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;
    use crate::{AnalysisOptions, analyze};

    fn doc_with(html: &str, url: Option<&str>) -> Document {
        let a = analyze(html, &AnalysisOptions::default()).expect("analysis");
        let source = Source::new(url.map(str::to_owned), url.map(str::to_owned), None, None);
        Document::from_analysis(a, source, String::new())
    }

    fn page(title: &str, body: &str) -> String {
        format!(
            "<html><head><title>{title}</title></head><body><nav><a href=/>Start</a> \
             <a href=/shop>Shop</a></nav><main>{body}</main><footer>© Shop</footer></body></html>"
        )
    }

    const AGB_DE: &str = "<h1>Allgemeine Geschäftsbedingungen</h1>\
        <h2>§ 1 Geltungsbereich</h2><p>Diese AGB gelten für alle Verträge zwischen dem Kunden \
        und der Beispiel GmbH, die über den Online-Shop geschlossen werden.</p>\
        <h2>§ 2 Vertragsschluss</h2><p>Die Darstellung der Produkte stellt kein bindendes \
        Angebot dar. Der Vertrag kommt mit unserer Auftragsbestätigung zustande.</p>\
        <h2>§ 3 Eigentumsvorbehalt</h2><p>Die Ware bleibt bis zur vollständigen Zahlung unser \
        Eigentum. Der Kunde haftet für Schäden.</p>\
        <h2>§ 4 Gewährleistung</h2><p>Es gilt das gesetzliche Mängelhaftungsrecht.</p>";

    #[test]
    fn a_german_agb_by_title_heading_and_words() {
        let doc = doc_with(&page("AGB | Beispiel-Shop", AGB_DE), None);
        let t = doc.document_type.expect("typed");
        assert_eq!(t.kind, DocumentType::Terms);
        assert_eq!(t.ota_name.as_deref(), Some("Terms of Service"));
        assert!(t.confidence > 0.5, "{t:?}");
        let sources: Vec<EvidenceSource> = t.evidence.iter().map(|e| e.source).collect();
        assert!(sources.contains(&EvidenceSource::Title));
        assert!(sources.contains(&EvidenceSource::Heading));
        assert!(sources.contains(&EvidenceSource::Vocabulary));
        // A single document: the sections are not typed one by one.
        assert!(doc.sections.iter().all(|s| s.document_type.is_none()));
    }

    #[test]
    fn an_english_privacy_policy_without_a_telling_title() {
        let body = "<h1>How we handle your information</h1>\
            <p>We collect personal data when you create an account, such as your name and \
            e-mail address. The data controller is Example Ltd.</p>\
            <h2>Your rights</h2><p>Under the GDPR you may ask for a copy of your personal \
            data and ask us to delete your personal information.</p>\
            <h2>Retention</h2><p>We keep your data for as long as your account exists.</p>";
        let doc = doc_with(&page("Example Ltd", body), None);
        let t = doc.document_type.expect("typed");
        assert_eq!(t.kind, DocumentType::Privacy, "{t:?}");
        assert!(
            t.evidence
                .iter()
                .all(|e| e.source == EvidenceSource::Vocabulary)
        );
    }

    #[test]
    fn french_pages() {
        let mentions = "<h1>Mentions légales</h1><p>Éditeur du site : Exemple SAS au capital \
            social de 10 000 euros, RCS Paris 123 456 789, SIRET 123 456 789 00012, siège \
            social : 1 rue de la Paix, 75002 Paris.</p><p>Directeur de la publication : Jean \
            Dupont. Hébergeur : OVH, Roubaix.</p>";
        let doc = doc_with(&page("Exemple", mentions), None);
        assert_eq!(
            doc.document_type.map(|t| t.kind),
            Some(DocumentType::Imprint)
        );

        let retractation = "<h2>Votre droit</h2><p>Vous disposez d'un délai de rétractation \
            de quatorze jours pour exercer votre droit de rétractation sans avoir à motiver \
            votre décision.</p><p>En cas de rétractation, nous vous rembourserons tous les \
            paiements reçus. Le remboursement est effectué au plus tard quatorze jours après \
            le retour des produits.</p>";
        let doc = doc_with(&page("Exemple", retractation), None);
        assert_eq!(
            doc.document_type.map(|t| t.kind),
            Some(DocumentType::Withdrawal)
        );

        let cgv = "<h1>Conditions générales de vente</h1><h2>Article 1 - Objet</h2><p>Les \
            présentes conditions générales régissent les ventes entre le vendeur et le client. \
            La formation du contrat intervient à la validation de la commande.</p>";
        let doc = doc_with(&page("CGV – Exemple", cgv), None);
        assert_eq!(doc.document_type.map(|t| t.kind), Some(DocumentType::Terms));
    }

    #[test]
    fn the_address_counts_only_over_http() {
        let body = "<p>Wir liefern mit DHL. Die Versandkosten betragen 4,90 Euro, die \
            Lieferzeit zwei bis drei Werktage.</p><p>Sie zahlen per PayPal, Vorkasse oder \
            Kreditkarte.</p>";
        let html = page("Beispiel-Shop", body);
        let doc = doc_with(&html, Some("https://shop.example/versand-und-zahlung"));
        let t = doc.document_type.expect("typed");
        assert_eq!(t.kind, DocumentType::ShippingPayment);
        assert!(t.evidence.iter().any(|e| e.source == EvidenceSource::Url));
        let doc = doc_with(&html, Some("file:///corpus/versand-und-zahlung.html"));
        let t = doc.document_type.expect("typed");
        assert!(t.evidence.iter().all(|e| e.source != EvidenceSource::Url));
    }

    #[test]
    fn a_link_text_the_caller_knows_is_evidence() {
        let body = "<p>Diese Seite verwendet Cookies. Notwendige Cookies speichern Ihren \
            Warenkorb; Cookies für Statistik setzen wir nur mit Ihrer Einwilligung.</p>";
        let doc = doc_with(&page("Beispiel-Shop", body), None);
        let hints = TypeHints {
            url: None,
            link_text: Some("Cookie-Richtlinie"),
        };
        let t = classify_document(&doc, &hints).expect("typed");
        assert_eq!(t.kind, DocumentType::Cookies);
        assert!(
            t.evidence
                .iter()
                .any(|e| e.source == EvidenceSource::LinkText && e.value == "Cookie-Richtlinie")
        );
    }

    #[test]
    fn a_page_holding_several_documents_types_each() {
        let body = format!(
            "{AGB_DE}<h1>Widerrufsbelehrung</h1><h2>Widerrufsrecht</h2><p>Sie haben das \
             Recht, binnen vierzehn Tagen ohne Angabe von Gründen diesen Vertrag zu \
             widerrufen. Die Widerrufsfrist beträgt vierzehn Tage ab dem Tag, an dem Sie die \
             Waren in Besitz genommen haben.</p><h2>Folgen des Widerrufs</h2><p>Wenn Sie \
             diesen Vertrag widerrufen, haben wir Ihnen alle Zahlungen zurückzuzahlen.</p>\
             <h1>Muster-Widerrufsformular</h1><p>Wenn Sie den Vertrag widerrufen wollen, dann \
             füllen Sie bitte dieses Formular aus und senden Sie es zurück.</p><p>Hiermit \
             widerrufe(n) ich/wir den von mir/uns abgeschlossenen Vertrag über den Kauf der \
             folgenden Waren.</p>"
        );
        let doc = doc_with(&page("AGB und Kundeninformationen", &body), None);
        assert_eq!(
            doc.document_type.as_ref().map(|t| t.kind),
            Some(DocumentType::Terms)
        );
        let typed: Vec<(Option<&str>, Option<DocumentType>)> = doc
            .sections
            .iter()
            .map(|s| (s.title.as_deref(), s.document_type.as_ref().map(|t| t.kind)))
            .collect();
        assert_eq!(
            typed,
            [
                (
                    Some("Allgemeine Geschäftsbedingungen"),
                    Some(DocumentType::Terms)
                ),
                (Some("Widerrufsbelehrung"), Some(DocumentType::Withdrawal)),
                (
                    Some("Muster-Widerrufsformular"),
                    Some(DocumentType::Withdrawal)
                ),
            ],
            "{:#?}",
            doc.sections
        );
        let json = serde_json::to_value(&doc).expect("json");
        assert_eq!(json["document_type"]["kind"], "terms");
        assert_eq!(json["sections"][1]["document_type"]["kind"], "withdrawal");
        assert!(
            json["sections"][0]["subsections"][0]
                .get("document_type")
                .is_none()
        );
    }

    #[test]
    fn labels_name_their_first_document() {
        assert_eq!(
            first_named("AGB & Widerrufsrecht").map(|m| m.kind),
            Some(Terms)
        );
        assert_eq!(
            first_named("Terms of Use and Privacy Policy").map(|m| m.kind),
            Some(Terms)
        );
        assert_eq!(
            first_named("Ubuntu legal terms and policies").map(|m| m.kind),
            Some(Terms)
        );
        assert_eq!(first_named("Legal").map(|m| m.kind), Some(Other));
        assert_eq!(
            title_parts("Shop – AGB | Versandhaus Müller"),
            ["Shop", "AGB", "Versandhaus Müller"]
        );
    }

    #[test]
    fn nothing_to_go_by_gives_no_type() {
        let doc = doc_with(
            &page(
                "Startseite",
                "<p>Willkommen! Neue Sommerkleider sind da.</p>",
            ),
            None,
        );
        assert_eq!(doc.document_type, None);
        assert!(is_http("HTTPS://x.de/agb") && !is_http("file:///x/agb.html"));
    }
}
