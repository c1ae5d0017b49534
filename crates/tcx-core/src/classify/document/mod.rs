//! The type of an analysed page ([`classify_document`]) and of each document of a page that
//! holds several ([`classify_section`]).
//!
//! A few general signals add scores per [`DocumentType`]; the highest score wins.
//!
//! | signal | source | weight |
//! |---|---|---|
//! | the names of documents ([`match_label`](super::vocabulary::match_label)) in the page `<title>` | `title` | 3.0 |
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

mod words;

pub use words::CONTENT;

use aho_corasick::Anchored;
use aho_corasick::automaton::{Automaton, StateID};
use aho_corasick::dfa::DFA;

use super::text_vocabulary::TextVocabulary;
use super::vocabulary::{
    FoldedBytes, LabelMatch, fold, fold_bytes_with, label_coverage, longest_named, phrases_named_in,
};
use crate::model::{
    Document, DocumentType, DocumentTypeInfo, EvidenceSource, Section, TypeEvidence,
};
use crate::structure::hierarchy::names_a_document;
use DocumentType::*;
use words::OTHER_LABELS;

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

/// Top-level headings looked at besides the first.
const MAX_HEADINGS: usize = 24;

/// Labels longer than this many words are sentences, not names.
const MAX_LABEL_WORDS: usize = 12;

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
    classify_document_with(doc, hints, &TextVocabulary::of(&doc.sections))
}

/// [`classify_document`] with the words of the Document's text already found (`words` is
/// [`TextVocabulary::of`] its sections): a caller that types a page again, or also asks for
/// the legal verdict, folds its text once.
pub fn classify_document_with(
    doc: &Document,
    hints: &TypeHints,
    words: &TextVocabulary,
) -> Option<DocumentTypeInfo> {
    let mut scores = Scores::default();
    if let Some(title) = &doc.title {
        scores.title(title);
    }
    let first = first_heading(&doc.sections);
    if let Some(h) = first {
        scores.label(EvidenceSource::Heading, h, W_FIRST_HEADING);
    }
    let mut heading_weight = [0.0; 7];
    for s in doc
        .sections
        .iter()
        .filter(|s| s.number.is_none())
        .take(MAX_HEADINGS)
    {
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
    scores.vocabulary(words.content_hits());
    scores.finish()
}

/// The type of one document of a page that holds several (a top-level section): its title and
/// the typical words of its text. `None` when nothing speaks for any type.
pub fn classify_section(section: &Section) -> Option<DocumentTypeInfo> {
    let words = TextVocabulary::of(std::slice::from_ref(section));
    section_type(section, words.section_hits(0))
}

/// The type of a section from its title and the type vocabulary found in its text.
fn section_type(section: &Section, hits: Vec<Hits>) -> Option<DocumentTypeInfo> {
    let mut scores = Scores::default();
    if let Some(t) = section.title.as_deref() {
        scores.label(EvidenceSource::Heading, t, W_FIRST_HEADING);
    }
    scores.vocabulary(hits);
    scores.finish()
}

/// Sets the page's type and, on a page whose top-level sections are several documents
/// (at least two of their titles name a document), each top-level section's.
pub(crate) fn annotate(doc: &mut Document, words: &TextVocabulary) {
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
    doc.document_type = classify_document_with(doc, &hints, words);
    let documents = doc
        .sections
        .iter()
        .filter(|s| s.title.as_deref().is_some_and(names_a_document))
        .count();
    if documents >= 2 {
        for (i, s) in doc.sections.iter_mut().enumerate() {
            s.document_type = section_type(s, words.section_hits(i));
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
/// starts, the longest name wins ([`match_label`](super::vocabulary::match_label)); the weak names of `other` ("Legal",
/// "Policies") count only when nothing else is named.
pub(crate) fn first_named(label: &str) -> Option<LabelMatch> {
    let folded = fold(label);
    // Only the phrases the whole label names can name a run of its words.
    let named = phrases_named_in(&folded);
    let longest = longest_named(&folded, &named)?;
    let words: Vec<&str> = label.split_whitespace().collect();
    for i in 0..words.len() {
        for end in (i + 1..=words.len().min(i + 4)).rev() {
            let window = fold(&words[i..end].join(" "));
            if let Some(m) = longest_named(&window, &named)
                && window.starts_with(m.phrase)
                && !(m.kind == Other && m.phrase.len() < 9)
            {
                return Some(m);
            }
        }
    }
    Some(longest)
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

    fn vocabulary(&mut self, hits: Vec<Hits>) {
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

/// The typical words of each type ([`CONTENT`]) in a text, per type that has any (for
/// tests; the classifiers read a [`TextVocabulary`]).
#[cfg(test)]
pub(crate) fn content_hits(text: &str) -> Vec<Hits> {
    TextVocabulary::of_text(text).content_hits()
}

/// The typical words of each type found on some lines ([`PhraseIndex`] positions per line:
/// [`CONTENT`]'s first, others ignored), per type that has any. A line (a paragraph) adds at
/// most [`LINE_CAP`] to a type: words spread over the text count more than words crowded in
/// one passage (an AGB that quotes the withdrawal notice stays terms).
pub(crate) fn hits_in_lines<'a>(lines: impl Iterator<Item = &'a [usize]>) -> Vec<Hits> {
    let mut weight = [0.0; 7];
    let mut count = [0usize; 7];
    let mut phrase_counts = vec![0usize; CONTENT.len()];
    for found in lines {
        let mut line_weight = [0.0; 7];
        for &j in found {
            let Some(&(_, kind, w)) = CONTENT.get(j) else {
                continue;
            };
            phrase_counts[j] += 1;
            line_weight[index(kind)] += w;
            count[index(kind)] += 1;
        }
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

/// An index of [`CONTENT`]'s phrases followed by `more` (their positions in the index follow
/// [`CONTENT`]'s).
pub(crate) fn content_and(more: &[&'static str]) -> PhraseIndex {
    PhraseIndex::new(CONTENT.iter().map(|c| c.0).chain(more.iter().copied()))
}

/// A set of folded phrases found in one pass over a text (an Aho-Corasick automaton: one
/// look at each byte however many phrases there are). A phrase matches where a word starts;
/// one ending in `*` may continue into the word, one without must end a word.
///
/// The text is folded ([`fold_bytes_with`]) straight into the automaton, a space before
/// every word, and the automaton holds each phrase with a space before it: no folded copy
/// is written and read again, and only matches at word starts are reported (not the many
/// inside words, "recht" in "widerrufsrecht").
pub(crate) struct PhraseIndex {
    automaton: DFA,
    /// Per phrase of the automaton: the index given to [`PhraseIndex::new`] and whether it
    /// must end a word.
    phrases: Vec<(usize, bool)>,
}

impl PhraseIndex {
    pub(crate) fn new(phrases: impl IntoIterator<Item = &'static str>) -> PhraseIndex {
        let mut stems = Vec::new();
        let mut kept = Vec::new();
        for (i, phrase) in phrases.into_iter().enumerate() {
            let (stem, whole) = match phrase.strip_suffix('*') {
                Some(stem) => (stem, false),
                None => (phrase, true),
            };
            if !stem.is_empty() {
                stems.push(format!(" {stem}"));
                kept.push((i, whole));
            }
        }
        let automaton = DFA::builder()
            .prefilter(false)
            .build(&stems)
            .expect("the phrase lists are small");
        PhraseIndex {
            automaton,
            phrases: kept,
        }
    }

    /// Folds `text` and calls `found` with the index of every phrase occurrence in it, in
    /// the order they end (phrases ending at the same place in the automaton's order);
    /// returns the words of the folded text.
    pub(crate) fn scan_text(&self, text: &str, found: impl FnMut(usize)) -> usize {
        let start = self
            .automaton
            .start_state(Anchored::No)
            .expect("an unanchored automaton has an unanchored start");
        let mut walk = PhraseWalk {
            index: self,
            start,
            state: start,
            words: 0,
            found,
        };
        fold_bytes_with(text, true, &mut walk);
        walk.report(true);
        walk.words
    }
}

/// [`PhraseIndex::scan_text`]'s walk through the automaton, fed the folded text.
struct PhraseWalk<'a, F> {
    index: &'a PhraseIndex,
    /// The automaton's start state: every phrase begins with a space, so only a space leads
    /// out of it (and it ends no phrase).
    start: StateID,
    state: StateID,
    /// Spaces read: each word follows one.
    words: usize,
    found: F,
}

impl<F: FnMut(usize)> PhraseWalk<'_, F> {
    /// Reports the phrases ending at the current state; those that must end a word only
    /// when the word ends there (`word_ends`).
    #[inline(always)]
    fn report(&mut self, word_ends: bool) {
        let automaton = &self.index.automaton;
        // Most bytes end no phrase: one comparison (special states hold the matches).
        if automaton.is_special(self.state) && automaton.is_match(self.state) {
            self.report_matches(word_ends);
        }
    }

    #[inline(never)]
    fn report_matches(&mut self, word_ends: bool) {
        let automaton = &self.index.automaton;
        for i in 0..automaton.match_len(self.state) {
            let pattern = automaton.match_pattern(self.state, i);
            let (index, whole) = self.index.phrases[pattern.as_usize()];
            if !whole || word_ends {
                (self.found)(index);
            }
        }
    }
}

impl<F: FnMut(usize)> FoldedBytes for PhraseWalk<'_, F> {
    #[inline(always)]
    fn push_byte(&mut self, byte: u8) {
        // Most bytes are inside words that start no phrase: the walk stays at the start.
        if self.state == self.start && byte != b' ' {
            return;
        }
        // A phrase that ended at the previous byte is known to end its word only now.
        self.report(byte == b' ');
        self.words += usize::from(byte == b' ');
        self.state = self
            .index
            .automaton
            .next_state(Anchored::No, self.state, byte);
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
mod tests;
