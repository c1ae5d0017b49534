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
//! document's name does not hide it. The weak names of the `other` type ("Legal",
//! "Policies") count half.
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
    // Withdrawal: the right to withdraw, its period, returns and refunds.
    ("widerrufsfrist*", Withdrawal, 3.0),
    ("widerrufsrecht*", Withdrawal, 1.5),
    ("widerrufsbelehrung*", Withdrawal, 1.5),
    ("widerrufsformular*", Withdrawal, 1.5),
    ("widerrufen", Withdrawal, 1.5),
    ("ihren widerruf", Withdrawal, 2.0),
    ("folgen des widerrufs", Withdrawal, 3.0),
    ("vierzehn tag*", Withdrawal, 1.0),
    ("rucksendung*", Withdrawal, 1.0),
    ("rucksende*", Withdrawal, 1.0),
    ("retoure*", Withdrawal, 1.0),
    ("ruckerstattung*", Withdrawal, 1.0),
    ("umtausch*", Withdrawal, 1.0),
    ("withdraw from this contract", Withdrawal, 3.0),
    ("right of withdrawal", Withdrawal, 2.0),
    ("right to withdraw", Withdrawal, 2.0),
    ("withdrawal period", Withdrawal, 3.0),
    ("cancellation period", Withdrawal, 2.0),
    ("refund*", Withdrawal, 1.0),
    ("return*", Withdrawal, 0.3),
    ("returned", Withdrawal, 0.5),
    ("exchange*", Withdrawal, 0.3),
    ("delai de retractation", Withdrawal, 3.0),
    ("droit de retractation", Withdrawal, 2.0),
    ("retracte*", Withdrawal, 1.0),
    ("retractation", Withdrawal, 1.0),
    ("remboursement*", Withdrawal, 1.0),
    ("retour*", Withdrawal, 0.5),
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
    ("privacy", Privacy, 0.5),
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
    // Cookies and trackers.
    ("cookie*", Cookies, 0.6),
    ("tracker*", Cookies, 1.0),
    ("local storage", Cookies, 1.0),
    ("pixel tag*", Cookies, 1.0),
    ("web beacon*", Cookies, 1.0),
    ("traceur*", Cookies, 1.0),
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
];

/// Names of documents of the `other` kind that the label vocabulary does not list, and
/// whether they are strong names (a generic "Guidelines" is weak).
const OTHER_LABELS: &[(&str, bool)] = &[
    ("guidelines", false),
    ("richtlinie", false),
    ("law enforcement", true),
    ("vulnerability disclosure", true),
    ("closed captioning", true),
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
            weight *= 0.5;
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

/// The typical words of each type ([`CONTENT`]) in a text, per type that has any.
pub(crate) fn content_hits(text: &str) -> Vec<Hits> {
    let folded = format!(" {} ", fold(text));
    let mut per_type: Vec<(DocumentType, f64, usize, Vec<(usize, &str)>)> = Vec::new();
    for &(phrase, kind, weight) in CONTENT {
        let (stem, whole) = match phrase.strip_suffix('*') {
            Some(stem) => (stem, false),
            None => (phrase, true),
        };
        let n = count_phrase(&folded, stem, whole);
        if n == 0 {
            continue;
        }
        let entry = match per_type.iter_mut().position(|e| e.0 == kind) {
            Some(i) => &mut per_type[i],
            None => {
                per_type.push((kind, 0.0, 0, Vec::new()));
                let last = per_type.len() - 1;
                &mut per_type[last]
            }
        };
        entry.1 += weight * n as f64;
        entry.2 += n;
        entry.3.push((n, stem));
    }
    per_type
        .into_iter()
        .map(|(kind, weight, count, mut phrases)| {
            phrases.sort_by(|a, b| b.0.cmp(&a.0));
            Hits {
                kind,
                weight,
                count,
                phrases: phrases.iter().take(5).map(|p| p.1.to_owned()).collect(),
            }
        })
        .collect()
}

/// Occurrences of ` stem` in a text folded and padded with spaces; when `whole`, followed
/// by a space.
fn count_phrase(padded: &str, stem: &str, whole: bool) -> usize {
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
