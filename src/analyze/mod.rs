//! The pure analysis: decoded HTML in, [`Analysis`] out.
//!
//! Stages, each a type and testable alone:
//! ```text
//! &str ──scan (pass 1)──▶ StyleStats ──select──▶ Candidate
//! &str + Candidate ──tree (pass 2)──▶ ReducedTree ──repeats──▶ ReducedTree
//! ReducedTree ──blocks──▶ Vec<Block> ──refine (trim edges)──▶ Vec<Block>
//! Vec<Block> ──hierarchy──▶ Vec<Section> ──▶ Analysis
//! ```

pub mod blocks;
pub mod boilerplate;
pub mod enumeration;
pub mod heps;
pub mod hierarchy;
pub mod language;
pub mod refine;
pub mod repeats;
pub mod scan;
pub mod select;
pub mod stack;
pub mod style;
pub mod tree;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use blocks::Block;
pub use scan::StyleStats;
pub use select::Candidate;
pub use tree::ReducedTree;

use crate::output::{ContentInfo, Language, Section};

/// Knobs of the analysis. [`Default`] gives the documented defaults of `config/default.toml`.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisOptions {
    /// Share of the most common style's characters that the chosen element must hold
    /// (`coverage >= threshold`). Must be in (0.5, 1].
    pub threshold: f64,
    /// A text node counts for the style statistics only with at least this many words
    /// (short-text exclusion; the paper's "more than 3 words" is 4).
    pub min_words: usize,
    /// Languages the detector may answer (ISO 639-1 codes).
    pub languages: Vec<String>,
    /// Upper bound for the memory lol_html may use for one pass, in bytes.
    pub max_parser_memory: usize,
    /// The language a job expects (ISO 639-1); wins when detection is unsure.
    pub lang_hint: Option<String>,
    /// Sentences, tokens and normalisation.
    pub text: crate::text::TextOptions,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            threshold: 0.85,
            min_words: 4,
            languages: vec!["de".to_owned(), "en".to_owned()],
            max_parser_memory: 64 * 1024 * 1024,
            lang_hint: None,
            text: crate::text::TextOptions::default(),
        }
    }
}

/// How the content candidate was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContentMethod {
    /// The deepest element holding at least the threshold share of the most common style.
    Lca,
    /// No element reached the threshold: the run of body children with the most characters
    /// of the most common style.
    Fallback,
}

/// Everything the analysis found on one page.
#[derive(Debug, Clone, PartialEq)]
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
    /// The section tree.
    pub sections: Vec<Section>,
    /// Sentences (and tokens) of each section, in the shape of [`Analysis::sections`].
    pub section_text: Vec<crate::text::SectionText>,
}

/// Why a page could not be analysed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum AnalyzeError {
    /// The input holds no bytes, or only whitespace.
    #[error("the page is empty")]
    Empty,
    /// The input does not look like HTML (binary data, a PDF, plain text without markup).
    #[error("the input is not HTML: {0}")]
    NotHtml(String),
    /// The page holds no visible text at all.
    #[error("the page has no visible text")]
    NoText,
    /// The page holds (almost) no text in its HTML but scripts: its content is inserted by
    /// JavaScript in a browser, which tcx does not run.
    #[error(
        "the page's text is inserted by JavaScript; the HTML holds only {0} characters of visible text"
    )]
    ScriptRendered(u64),
    /// The parser refused the input or ran out of its memory budget.
    #[error("HTML parser failed: {0}")]
    Parser(String),
}

impl AnalyzeError {
    /// A stable label for metrics and error results.
    pub fn kind(&self) -> &'static str {
        match self {
            AnalyzeError::Empty => "empty",
            AnalyzeError::NotHtml(_) => "not_html",
            AnalyzeError::NoText => "no_text",
            AnalyzeError::ScriptRendered(_) => "script_rendered",
            AnalyzeError::Parser(_) => "parser",
        }
    }

    /// Analysis errors are deterministic: the same bytes fail again.
    pub fn retryable(&self) -> bool {
        false
    }
}

/// Runs the whole analysis on one decoded page.
pub fn analyze(html: &str, options: &AnalysisOptions) -> Result<Analysis, AnalyzeError> {
    analyze_observed(html, options, &mut |_| {})
}

/// A stage of the analysis, reported by [`analyze_observed`] when it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    let stats = StyleStats::scan(html, options)?;
    stage_done(Stage::Pass1);
    if stats.looks_script_rendered() {
        return Err(AnalyzeError::ScriptRendered(stats.visible_chars()));
    }
    let candidate = select::select(&stats, options.threshold).ok_or(AnalyzeError::NoText)?;
    stage_done(Stage::Select);
    let mut tree = ReducedTree::build(html, &candidate.ranges, options)?;
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
    let sections = hierarchy::sections_in(Some(&tree), &blocks);
    stage_done(Stage::Hierarchy);
    let text = blocks
        .iter()
        .map(|b| b.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let language =
        language::detect_with_hint(&text, &options.languages, options.lang_hint.as_deref());
    let section_text = crate::text::annotate(
        &sections,
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
            trimmed_blocks_start: trimmed.start,
            trimmed_blocks_end: trimmed.end,
            repeats_removed,
        },
        text,
        blocks,
        sections,
        section_text,
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
    if head.contains('\0') {
        return Err(AnalyzeError::NotHtml("it contains binary data".into()));
    }
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
        assert!(check_html("<p>hello</p>").is_ok());
        assert!(check_html("\u{feff}<!doctype html>").is_ok());
    }
}
