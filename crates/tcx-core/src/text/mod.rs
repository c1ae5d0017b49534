//! The text layer: normalised sentences (and optionally tokens) per section, and the
//! language of each top-level section where it differs from the document's.
//!
//! ```text
//! Section paragraphs ──fold (NFC, spaces, soft hyphens)──▶ units
//!   ──<br> re-join, list flattening, table rows, <abbr> titles──▶ units
//!   ──sentences::split per unit──▶ sentences ──tokens::tokenize──▶ tokens
//! ```
//! Every block is segmented on its own, so block ends are sentence ends; section titles
//! stay in [`Section::title`] as written and are not repeated among the sentences.

pub mod language;
pub mod normalize;
pub mod sentences;
pub mod tokens;

use std::collections::HashMap;

use crate::TextOptions;
use crate::model::{Language, Section};
use crate::parse::tree::ReducedTree;
use crate::structure::blocks::{Block, BlockKind};

/// Characters of a top-level section read to detect its own language.
const SECTION_SAMPLE: usize = 1_500;
/// A top-level section needs this many characters of text to get a language of its own.
const SECTION_MIN_CHARS: usize = 300;

/// Fills in the text layer of `sections` (sentences, tokens, a top-level section's own
/// language). `blocks` tell list items and table rows apart, `tree` supplies `<abbr>` titles,
/// `language` is the document's language.
pub fn annotate(
    sections: &mut [Section],
    blocks: &[Block],
    tree: Option<&ReducedTree>,
    language: Option<&Language>,
    allowed: &[String],
    options: &TextOptions,
) {
    let mut ctx = options.sentences.then(|| Context {
        kinds: blocks.iter().map(|b| (b.text.as_str(), b.kind)).collect(),
        titles: tree.map(normalize::abbreviation_titles).unwrap_or_default(),
        done: Vec::new(),
        options,
    });
    // Reported languages may be any; the rules applied are those of an allowed one.
    let doc_code = language.map_or("de", |l| l.code.as_str());
    let doc_rules = language::processing_language(Some(doc_code), allowed, None).unwrap_or("en");
    let several = sections.len() > 1;
    for s in sections.iter_mut() {
        // One top-level section is the document: it has no language of its own.
        let own = if several {
            section_language(s, doc_code, allowed)
        } else {
            None
        };
        let code = own
            .as_ref()
            .and_then(|l| language::processing_language(Some(&l.code), allowed, None))
            .unwrap_or(doc_rules)
            .to_owned();
        if let Some(ctx) = ctx.as_mut() {
            ctx.section(s, &code);
        }
        s.language = own;
    }
}

/// The language of a top-level section when it is reliably another than `doc_code`.
fn section_language(section: &Section, doc_code: &str, allowed: &[String]) -> Option<Language> {
    let mut text = String::new();
    collect_text(section, &mut text);
    if text.chars().count() < SECTION_MIN_CHARS {
        return None;
    }
    // Cheap pre-check (function words): a section that clearly reads like the document's
    // German or English needs no detector run.
    if stopword_guess(&text) == Some(doc_code) {
        return None;
    }
    let (lang, reliable) = language::detect_info(&text, allowed)?;
    (reliable && lang.code != doc_code).then_some(lang)
}

/// True when the text ends with a word that cannot end a sentence (an article, preposition
/// or conjunction): a `<br>` after it splits a sentence even before a capitalised noun.
fn ends_mid_phrase(text: &str) -> bool {
    const WORDS: &[&str] = &[
        "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "und",
        "oder", "an", "in", "im", "am", "zu", "zur", "zum", "für", "mit", "von", "vom", "bei",
        "auf", "aus", "nach", "über", "unter", "gegen", "ohne", "durch", "bis", "als", "the", "a",
        "an", "and", "or", "of", "to", "in", "on", "at", "for", "with", "by", "from", "our",
        "your",
    ];
    let last = text.rsplit(char::is_whitespace).next().unwrap_or("");
    WORDS.contains(&last.to_lowercase().as_str())
}

/// `de` or `en` when one language's function words clearly outnumber the other's.
fn stopword_guess(text: &str) -> Option<&'static str> {
    let de_words = &language::GERMAN_FUNCTION_WORDS[..language::CORE_FUNCTION_WORDS];
    let en_words = &language::ENGLISH_FUNCTION_WORDS[..language::CORE_FUNCTION_WORDS];
    let (mut de, mut en) = (0usize, 0usize);
    for w in text.split(|c: char| !c.is_alphabetic()) {
        if w.is_empty() || w.len() > 5 {
            continue;
        }
        let w = w.to_lowercase();
        de += usize::from(de_words.contains(&w.as_str()));
        en += usize::from(en_words.contains(&w.as_str()));
    }
    if de >= 10 && de > 4 * en {
        Some("de")
    } else if en >= 10 && en > 4 * de {
        Some("en")
    } else {
        None
    }
}

fn collect_text(section: &Section, out: &mut String) {
    let mut todo = vec![section];
    while let Some(s) = todo.pop() {
        if out.len() >= SECTION_SAMPLE {
            return;
        }
        if let Some(t) = &s.title {
            out.push_str(t);
            out.push('\n');
        }
        for p in &s.paragraphs {
            out.push_str(p);
            out.push('\n');
        }
        todo.extend(s.subsections.iter().rev());
    }
}

struct Context<'a> {
    kinds: HashMap<&'a str, BlockKind>,
    titles: Vec<(String, String)>,
    done: Vec<bool>,
    options: &'a TextOptions,
}

/// A piece of text segmented on its own.
struct Unit {
    text: String,
    kind: BlockKind,
}

impl Context<'_> {
    fn section(&mut self, section: &mut Section, lang: &str) {
        let mut units = self.units(&section.paragraphs);
        let absorbed = self.absorb_list_subsections(&mut units, &section.subsections);
        let mut sentences = Vec::new();
        for u in units {
            if u.kind == BlockKind::TableRow {
                sentences.extend(
                    u.text
                        .split("; ")
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned),
                );
            } else {
                sentences.extend(sentences::split(&u.text, lang));
            }
        }
        section.tokens = self
            .options
            .tokens
            .then(|| sentences.iter().map(|s| tokens::tokenize(s)).collect());
        section.sentences = sentences;
        // Absorbed list items are part of this section's sentences: they get none of their own.
        for s in section.subsections.iter_mut().skip(absorbed) {
            self.section(s, lang);
        }
    }

    /// Folds the paragraphs, re-joins `<br>` splits, flattens short lists and expands
    /// `<abbr>` titles.
    fn units(&mut self, paragraphs: &[String]) -> Vec<Unit> {
        let mut units: Vec<Unit> = Vec::with_capacity(paragraphs.len());
        let mut open = false;
        for p in paragraphs {
            let kind = self
                .kinds
                .get(p.as_str())
                .copied()
                .unwrap_or(BlockKind::Paragraph);
            let text = normalize::fold(p);
            if text.is_empty() {
                continue;
            }
            let starts_lower = text.chars().next().is_some_and(char::is_lowercase);
            let prose = matches!(kind, BlockKind::Paragraph | BlockKind::TableCell);
            match units.last_mut() {
                Some(last) if open && prose && (starts_lower || ends_mid_phrase(&last.text)) => {
                    last.text.push(' ');
                    last.text.push_str(&text);
                }
                _ => units.push(Unit { text, kind }),
            }
            open = prose
                && units.last().is_some_and(|l| {
                    !normalize::ends_sentence(&l.text) && !l.text.ends_with([':', ';', ','])
                });
        }
        if self.options.join_short_lists {
            units = self.join_short_lists(units);
        }
        for u in &mut units {
            if !self.titles.is_empty() {
                u.text = normalize::expand_abbreviations(&u.text, &self.titles, &mut self.done);
            }
        }
        units
    }

    /// The hierarchy may make each item of a list its own untitled subsection: a short run of
    /// such items right after a unit ending with `:` joins that unit. Returns how many
    /// leading subsections were absorbed.
    fn absorb_list_subsections(&self, units: &mut [Unit], subsections: &[Section]) -> usize {
        let o = self.options;
        if !o.join_short_lists {
            return 0;
        }
        let Some(last) = units.last_mut() else {
            return 0;
        };
        if last.kind == BlockKind::ListItem || !last.text.ends_with(':') {
            return 0;
        }
        let items: Vec<&String> = subsections
            .iter()
            .take_while(|s| {
                s.title.is_none()
                    && s.number.is_none()
                    && s.subsections.is_empty()
                    && s.paragraphs.len() == 1
                    && self.kinds.get(s.paragraphs[0].as_str()) == Some(&BlockKind::ListItem)
            })
            .map(|s| &s.paragraphs[0])
            .collect();
        let n = items.len();
        let fits = n > 0
            && n <= o.short_list_max_items
            && subsections.get(n).is_none_or(|s| {
                !(s.title.is_none()
                    && s.paragraphs
                        .first()
                        .and_then(|p| self.kinds.get(p.as_str()))
                        == Some(&BlockKind::ListItem))
            })
            && items
                .iter()
                .all(|p| p.split_whitespace().count() <= o.short_list_max_words);
        if !fits {
            return 0;
        }
        let joined: Vec<String> = items
            .iter()
            .map(|p| {
                normalize::fold(p)
                    .trim_end_matches([';', ',', '.'])
                    .to_owned()
            })
            .collect();
        last.text = format!("{} {}.", last.text, joined.join(", "));
        last.kind = BlockKind::Paragraph;
        n
    }

    /// A short list after a unit ending with `:` joins it as one sentence.
    fn join_short_lists(&self, units: Vec<Unit>) -> Vec<Unit> {
        let o = self.options;
        let mut out: Vec<Unit> = Vec::with_capacity(units.len());
        let mut i = 0;
        while i < units.len() {
            let u = &units[i];
            let run = units[i + 1..]
                .iter()
                .take_while(|n| n.kind == BlockKind::ListItem)
                .count();
            let fits = run > 0
                && run <= o.short_list_max_items
                && u.kind != BlockKind::ListItem
                && u.text.ends_with(':')
                && units[i + 1..=i + run]
                    .iter()
                    .all(|n| n.text.split_whitespace().count() <= o.short_list_max_words);
            if fits {
                let items: Vec<&str> = units[i + 1..=i + run]
                    .iter()
                    .map(|n| n.text.trim_end_matches([';', ',', '.']))
                    .collect();
                out.push(Unit {
                    text: format!("{} {}.", u.text, items.join(", ")),
                    kind: BlockKind::Paragraph,
                });
                i += run + 1;
            } else {
                out.push(Unit {
                    text: u.text.clone(),
                    kind: u.kind,
                });
                i += 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(paragraphs: &[&str]) -> Section {
        Section {
            paragraphs: paragraphs.iter().map(|s| (*s).to_owned()).collect(),
            ..Section::new(Some("Titel".into()), None, 1)
        }
    }

    #[test]
    fn function_words_guess() {
        let de = "Die Ware ist nicht mit der Post zu senden, und wir haften nicht für die \
                  Lieferung oder den Verlust, die von Dritten verursacht wird. Das ist so.";
        assert_eq!(stopword_guess(de), Some("de"));
        let en = "The goods are shipped to you with care, and we are not liable for any loss \
                  of the goods or for delays that are caused by third parties or by the carrier.";
        assert_eq!(stopword_guess(en), Some("en"));
        assert_eq!(stopword_guess("Impressum Kontakt"), None);
    }

    #[test]
    fn sentences_per_section_with_breaks_rejoined() {
        let s = section(&[
            "Die Lieferung erfolgt",
            "innerhalb von ca. 3 Tagen. Der Versand ist frei.",
            "Kontakt",
            "Die Ware geht an die",
            "Adresse des Kunden.",
        ]);
        let mut t = [s];
        annotate(&mut t, &[], None, None, &[], &TextOptions::default());
        assert_eq!(
            t[0].sentences,
            [
                "Die Lieferung erfolgt innerhalb von ca. 3 Tagen.",
                "Der Versand ist frei.",
                "Kontakt",
                "Die Ware geht an die Adresse des Kunden."
            ]
        );
        assert!(t[0].tokens.is_none());
        let mut t = [section(&["Es gilt § 3."])];
        annotate(
            &mut t,
            &[],
            None,
            None,
            &[],
            &TextOptions {
                tokens: true,
                ..TextOptions::default()
            },
        );
        assert_eq!(
            t[0].tokens,
            Some(vec![vec![
                "Es".to_owned(),
                "gilt".into(),
                "§ 3".into(),
                ".".into()
            ]])
        );
    }

    #[test]
    fn sentences_off_skips_the_segmentation() {
        let mut t = [section(&[
            "Die Lieferung erfolgt in drei Tagen. Der Versand ist frei.",
        ])];
        let off = TextOptions {
            sentences: false,
            tokens: true,
            ..TextOptions::default()
        };
        annotate(&mut t, &[], None, None, &[], &off);
        assert!(t[0].sentences.is_empty() && t[0].tokens.is_none());
    }
}
