//! The words of a Document's text that the classifiers weigh, found once
//! ([`TextVocabulary`]).
//!
//! The document type ([`super::document`]), the type of each document on a page that holds
//! several, and the legal verdict ([`super::legal`]) all count the same phrases in the same
//! folded lines. Folding and scanning the text is most of their cost, so a job does it once:
//! one pass folds each line and runs one automaton holding the type vocabulary
//! ([`super::document::CONTENT`]) and the legal words ([`super::legal::LEGAL_WORDS`]); the
//! classifiers then add up what it found, over the whole text or over one top-level section.

use std::ops::Range;
use std::sync::LazyLock;

use super::document::{CONTENT, Hits, PhraseIndex, content_and, hits_in_lines};
use super::legal::LEGAL_WORDS;
use crate::model::Section;

/// The type vocabulary followed by the legal words: one automaton for both.
static INDEX: LazyLock<PhraseIndex> = LazyLock::new(|| content_and(LEGAL_WORDS));

/// What one non-empty line (a title or a line of a paragraph) holds.
#[derive(Debug, Clone, PartialEq)]
struct Line {
    /// Its phrases in [`TextVocabulary::found`].
    found: Range<usize>,
    /// Its words after folding.
    words: usize,
}

/// The phrases of the type vocabulary and the legal words found in a section tree's titles
/// and paragraphs, line by line (a phrase does not run from a title into the next
/// paragraph), with the words per line and the `§` signs.
///
/// ```
/// use tcx_core::{Document, Source, TextVocabulary, TypeHints, analyze};
/// let html = "<html><body><h1>Datenschutzerklärung</h1>\
///             <p>Wir verarbeiten personenbezogene Daten nur nach der DSGVO.</p></body></html>";
/// let a = analyze(html, &Default::default()).unwrap();
/// let (doc, words) = Document::from_analysis_with_vocabulary(a, Source::default(), String::new());
/// // The same vocabulary serves typing the page again and the legal verdict.
/// let typed = tcx_core::classify_document_with(&doc, &TypeHints::default(), &words);
/// assert_eq!(typed, doc.document_type);
/// let verdict = tcx_core::legal_page_verdict_with(&doc, &words);
/// assert_eq!(verdict, tcx_core::legal_page_verdict(&doc));
/// assert_eq!(words, TextVocabulary::of(&doc.sections));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextVocabulary {
    lines: Vec<Line>,
    /// Indices into [`INDEX`]'s phrases, line after line: the type vocabulary's first, then
    /// the legal words.
    found: Vec<usize>,
    /// The lines of each top-level section.
    sections: Vec<Range<usize>>,
    /// `§` signs in the text (folding drops them).
    section_signs: usize,
}

impl TextVocabulary {
    /// Folds and scans the titles and paragraphs of `sections`, depth first.
    pub fn of(sections: &[Section]) -> TextVocabulary {
        let mut words = TextVocabulary::default();
        for section in sections {
            let from = words.lines.len();
            words.add_section(section);
            words.sections.push(from..words.lines.len());
        }
        words
    }

    /// [`TextVocabulary::of`] a plain text, one line a paragraph (for tests).
    #[cfg(test)]
    pub(crate) fn of_text(text: &str) -> TextVocabulary {
        let mut words = TextVocabulary::default();
        words.add_text(text);
        words.sections.push(0..words.lines.len());
        words
    }

    fn add_section(&mut self, section: &Section) {
        if let Some(title) = &section.title {
            self.add_text(title);
        }
        for paragraph in &section.paragraphs {
            self.add_text(paragraph);
        }
        for sub in &section.subsections {
            self.add_section(sub);
        }
    }

    fn add_text(&mut self, text: &str) {
        let bytes = text.as_bytes();
        // `§` is C2 A7 in UTF-8; C2 only ever leads a character, so each such pair is one.
        self.section_signs += memchr::memchr_iter(0xA7, bytes)
            .filter(|&i| i > 0 && bytes[i - 1] == 0xC2)
            .count();
        // Lines split at `\n` (a `\r` before it folds to a separator and goes).
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len())) {
            let line = text.get(start..end).unwrap_or_default();
            start = end + 1;
            let from = self.found.len();
            let found = &mut self.found;
            let words = INDEX.scan_text(line, |j| found.push(j));
            if words > 0 {
                self.lines.push(Line {
                    found: from..self.found.len(),
                    words,
                });
            }
        }
    }

    /// The type vocabulary found in the whole text, per type that has any.
    pub(crate) fn content_hits(&self) -> Vec<Hits> {
        self.hits_in(0..self.lines.len())
    }

    /// The type vocabulary found in top-level section `index` (none past the last).
    pub(crate) fn section_hits(&self, index: usize) -> Vec<Hits> {
        self.hits_in(self.sections.get(index).cloned().unwrap_or(0..0))
    }

    fn hits_in(&self, lines: Range<usize>) -> Vec<Hits> {
        let lines = self.lines.get(lines).unwrap_or_default();
        hits_in_lines(lines.iter().map(|l| &self.found[l.found.clone()]))
    }

    /// Occurrences of the legal words (not the type vocabulary) in the whole text.
    pub(crate) fn legal_hits(&self) -> usize {
        self.found.iter().filter(|&&j| j >= CONTENT.len()).count()
    }

    /// Words of the whole text.
    pub(crate) fn words(&self) -> usize {
        self.lines.iter().map(|l| l.words).sum()
    }

    /// `§` signs in the whole text.
    pub(crate) fn section_signs(&self) -> usize {
        self.section_signs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(title: &str, paragraphs: &[&str]) -> Section {
        Section {
            title: Some(title.to_owned()),
            paragraphs: paragraphs.iter().map(|p| (*p).to_owned()).collect(),
            ..Section::default()
        }
    }

    #[test]
    fn lines_words_and_signs_are_counted_per_section() {
        let sections = [
            section(
                "Datenschutz",
                &["Wir verarbeiten personenbezogene Daten.\n\nNach § 6 DSGVO."],
            ),
            section(
                "Widerrufsbelehrung",
                &["Die Widerrufsfrist beträgt 14 Tage."],
            ),
        ];
        let words = TextVocabulary::of(&sections);
        // Empty lines are skipped; the two sections' lines follow each other.
        assert_eq!(words.sections, vec![0..3, 3..5]);
        assert_eq!(words.section_signs(), 1);
        assert_eq!(words.words(), 1 + 4 + 3 + 1 + 5);
        let privacy = words.section_hits(0);
        assert!(
            privacy
                .iter()
                .any(|h| h.kind == crate::DocumentType::Privacy)
        );
        let withdrawal = words.section_hits(1);
        assert!(
            withdrawal
                .iter()
                .all(|h| h.kind == crate::DocumentType::Withdrawal)
        );
        assert!(words.section_hits(2).is_empty());
        // The whole text holds both sections' words.
        let all: usize = words.content_hits().iter().map(|h| h.count).sum();
        let parts: usize = privacy.iter().chain(&withdrawal).map(|h| h.count).sum();
        assert_eq!(all, parts);
    }

    #[test]
    fn legal_words_are_counted_apart_from_the_type_vocabulary() {
        let words = TextVocabulary::of_text("Der Vertrag gemäß den AGB\nliability");
        assert!(words.legal_hits() >= 2, "{words:?}");
        assert!(words.found.iter().any(|&j| j >= CONTENT.len()));
    }
}
