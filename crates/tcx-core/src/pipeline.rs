//! The whole analysis as one function: decoded HTML in, [`Analysis`] out, no I/O, no clock.
//!
//! ```text
//! &str ──parse::scan (pass 1)──▶ StyleStats ──content::select──▶ Candidate
//! &str + Candidate ──parse::tree (pass 2)──▶ ReducedTree ──content::repeats──▶ ReducedTree
//! ReducedTree ──structure::style + heps──▶ ComputedStyles ──structure::blocks──▶ Vec<Block>
//! Vec<Block> ──content::refine (trim edges)──▶ Vec<Block> ──structure::hierarchy──▶ Vec<Section>
//! Vec<Section> ──text (language, sentences, tokens)──▶ Analysis ──▶ model::Document
//! ```

use crate::content::{refine, repeats, select};
use crate::model::{ContentInfo, Document, Language, SCHEMA_VERSION, Section, Source, Status};
use crate::parse::scan::StyleStats;
use crate::parse::tree::ReducedTree;
use crate::structure::blocks::Block;
use crate::structure::{blocks, heps, hierarchy, style};
use crate::text::language;
use crate::{AnalysisOptions, AnalyzeError, TextVocabulary};

/// Everything the analysis found on one page.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Analysis {
    /// The page's `<title>`, whitespace folded.
    pub title: Option<String>,
    /// Language of the main content.
    pub language: Option<Language>,
    /// How the main content was chosen.
    pub content: ContentInfo,
    /// The main content, one block per line.
    pub text: String,
    /// The blocks of the main content in document order.
    pub blocks: Vec<Block>,
    /// The section tree with sentences (and tokens) per section.
    pub sections: Vec<Section>,
}

impl Document {
    /// Builds the ok Document of an analysis. Timestamps come from the caller: the analysis
    /// itself never reads a clock.
    ///
    /// The Document's [`Document::document_type`] (and, on a page holding several
    /// documents, each top-level section's) is set by [`crate::classify_document`], with
    /// `source`'s address as a hint when it is http or https.
    pub fn from_analysis(analysis: Analysis, source: Source, extracted_at: String) -> Self {
        Document::from_analysis_with_vocabulary(analysis, source, extracted_at).0
    }

    /// [`Document::from_analysis`], also returning the words of its text the type was read
    /// from ([`TextVocabulary::of`] its sections), for a caller that types the page again
    /// ([`crate::classify_document_with`]) or asks for the legal verdict
    /// ([`crate::legal_page_verdict_with`]) without folding the text again.
    pub fn from_analysis_with_vocabulary(
        analysis: Analysis,
        source: Source,
        extracted_at: String,
    ) -> (Self, TextVocabulary) {
        let mut doc = Document {
            schema_version: SCHEMA_VERSION.to_owned(),
            job_id: None,
            status: Status::Ok,
            source,
            extracted_at,
            title: analysis.title,
            language: analysis.language,
            content: Some(analysis.content),
            text: analysis.text,
            document_type: None,
            sections: analysis.sections,
            error: None,
        };
        let words = TextVocabulary::of(&doc.sections);
        crate::classify::document::annotate(&mut doc, &words);
        (doc, words)
    }
}

/// Runs the whole analysis on one decoded page.
pub fn analyze(html: &str, options: &AnalysisOptions) -> Result<Analysis, AnalyzeError> {
    analyze_observed(html, options, &mut |_| {})
}

/// A stage of the analysis, reported by [`analyze_observed`] when it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stage {
    /// Pass 1 over the whole page.
    Pass1,
    /// Choosing the content candidate.
    Select,
    /// Pass 2 over the candidate.
    Pass2,
    /// Styles, blocks, trimming and the section tree.
    Hierarchy,
    /// Text and language.
    Text,
}

impl Stage {
    /// All stages in order.
    pub const ALL: [Stage; 5] = [
        Stage::Pass1,
        Stage::Select,
        Stage::Pass2,
        Stage::Hierarchy,
        Stage::Text,
    ];

    /// The stage's metric label.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Pass1 => "pass1",
            Stage::Select => "select",
            Stage::Pass2 => "pass2",
            Stage::Hierarchy => "hierarchy",
            Stage::Text => "text",
        }
    }
}

/// [`analyze`], telling `stage_done` as each [`Stage`] ends. The analysis itself reads no
/// clock: a caller that wants stage times measures between the calls.
pub fn analyze_observed(
    html: &str,
    options: &AnalysisOptions,
    stage_done: &mut dyn FnMut(Stage),
) -> Result<Analysis, AnalyzeError> {
    check_html(html)?;
    // Browsers ignore NUL characters in a page's text (a parse error, not a reason to refuse
    // the page); binary data was refused above by its share of control characters.
    let without_nul;
    // (memchr's vectorised search: the page is read whole here.)
    let html = if memchr::memchr(0, html.as_bytes()).is_some() {
        without_nul = html.replace('\0', "");
        without_nul.as_str()
    } else {
        html
    };
    let stats = StyleStats::scan(html, options)?;
    stage_done(Stage::Pass1);
    if stats.looks_script_rendered() {
        return Err(AnalyzeError::ScriptRendered(stats.visible_chars()));
    }
    let candidate =
        select::select_in(&stats, html, options.threshold).ok_or(AnalyzeError::NoText)?;
    stage_done(Stage::Select);
    let mut tree = ReducedTree::build_with(
        html,
        &candidate.ranges,
        options,
        stats.consent_banners_skipped,
    )?;
    if let Some(&first) = candidate.elements.first() {
        tree.ancestors = stats.ancestors(first);
    }
    let repeats_removed = repeats::remove_repeats(&mut tree);
    stage_done(Stage::Pass2);
    let styles = style::ComputedStyles::compute(&tree, &stats.stylesheets);
    // HEPS preprocessing: inline elements inside sentences, and their style, are body text.
    let styles = heps::without_sentence_breaking(&tree, &styles);
    let mut blocks = blocks::blocks_with_styles(&tree, &styles);
    let trimmed = refine::trim_edges(&mut blocks);
    let mut sections = hierarchy::sections_in(Some(&tree), &blocks);
    crate::structure::clauses::add_clauses(&mut sections);
    stage_done(Stage::Hierarchy);
    let text = blocks
        .iter()
        .map(|b| b.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let language =
        language::detect_with_hint(&text, &options.languages, options.lang_hint.as_deref());
    crate::text::annotate(
        &mut sections,
        &blocks,
        Some(&tree),
        language.as_ref(),
        &options.languages,
        &options.text,
    );
    stage_done(Stage::Text);
    Ok(Analysis {
        title: stats.title.clone(),
        language,
        content: ContentInfo {
            method: candidate.method,
            path: candidate.path.clone(),
            coverage: candidate.coverage,
            most_common_style: stats.style_key(candidate.most_common_style).to_owned(),
            extended_siblings: candidate.extended_siblings,
            lead_in_elements: candidate.lead_in_elements,
            closing_elements: candidate.closing_elements,
            trimmed_blocks_start: trimmed.start,
            trimmed_blocks_end: trimmed.end,
            repeats_removed,
            runner_up: candidate.runner_up.clone(),
        },
        text,
        blocks,
        sections,
    })
}

/// Rejects input that is clearly not an HTML page before any parsing.
fn check_html(html: &str) -> Result<(), AnalyzeError> {
    let trimmed = html.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if trimmed.is_empty() {
        return Err(AnalyzeError::Empty);
    }
    if trimmed.starts_with("%PDF") {
        return Err(AnalyzeError::NotHtml("it is a PDF document".into()));
    }
    let head: String = trimmed.chars().take(4096).collect();
    // Binary data: more than 5 % control characters (NUL included) at the start. A stray
    // NUL or control byte in a text page does not make it binary.
    let controls = head
        .chars()
        .filter(|c| c.is_control() && !c.is_whitespace())
        .count();
    if controls * 20 > head.chars().count() {
        return Err(AnalyzeError::NotHtml("it contains binary data".into()));
    }
    if !looks_like_markup(&head) {
        return Err(AnalyzeError::NotHtml("no HTML markup found".into()));
    }
    Ok(())
}

/// True when the text holds at least one tag-like `<x`, `</x` or `<!`.
fn looks_like_markup(s: &str) -> bool {
    s.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || w[1] == b'/' || w[1] == b'!'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_are_reported_in_order() {
        let mut seen = Vec::new();
        let html = "<html><body><div><p>Diese Bedingungen gelten für alle Bestellungen.</p></div></body></html>";
        analyze_observed(html, &AnalysisOptions::default(), &mut |s| seen.push(s)).unwrap();
        assert_eq!(seen, Stage::ALL);
    }

    #[test]
    fn nul_characters_are_dropped_from_the_text() {
        let html = "<html><body><div><p>Diese Bedingungen\0 gelten für alle Bestellungen im Shop.</p></div></body></html>";
        let a = analyze(html, &AnalysisOptions::default()).unwrap();
        assert_eq!(
            a.text,
            "Diese Bedingungen gelten für alle Bestellungen im Shop."
        );
    }

    #[test]
    fn rejects_empty_and_non_html() {
        assert!(matches!(check_html(""), Err(AnalyzeError::Empty)));
        assert!(matches!(check_html("  \n\t"), Err(AnalyzeError::Empty)));
        assert!(matches!(
            check_html("%PDF-1.7 ..."),
            Err(AnalyzeError::NotHtml(_))
        ));
        assert!(matches!(
            check_html("just some words"),
            Err(AnalyzeError::NotHtml(_))
        ));
        assert!(matches!(
            check_html("<p\0\0\0"),
            Err(AnalyzeError::NotHtml(_))
        ));
        // One NUL (or another control byte) in a text page is no reason to refuse it.
        let page = format!(
            "<html><body>\0<p>{}</p>\u{1}</body></html>",
            "Diese Bedingungen gelten für alle Bestellungen. ".repeat(20)
        );
        assert!(check_html(&page).is_ok());
        assert!(check_html("<p>hello</p>").is_ok());
        assert!(check_html("\u{feff}<!doctype html>").is_ok());
    }
}
