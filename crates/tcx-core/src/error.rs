//! The typed failure of an analysis.

use thiserror::Error;

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
