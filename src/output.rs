//! The published JSON Document: what a consumer of tcx reads.
//!
//! The shape is versioned by [`SCHEMA_VERSION`]; `docs/document.schema.json` is its JSON Schema.

use serde::{Deserialize, Serialize};

use crate::analyze::{Analysis, ContentMethod};
use crate::text::SectionText;

/// Version of the Document's JSON shape. Bumped on any incompatible change.
pub const SCHEMA_VERSION: &str = "1.0";

/// The structured result of one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// Version of this JSON shape ([`SCHEMA_VERSION`]).
    pub schema_version: String,
    /// Id of the job that produced this Document, when it came from a queue or batch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
    /// `ok`, or `error` with [`Document::error`] set.
    pub status: Status,
    /// Where the page came from.
    pub source: Source,
    /// When the analysis ran (RFC 3339, UTC).
    pub extracted_at: String,
    /// The page's `<title>`, whitespace folded; `null` when it has none.
    pub title: Option<String>,
    /// Language of the main content; `null` when undetermined.
    pub language: Option<Language>,
    /// How the main content was chosen; `null` on error.
    pub content: Option<ContentInfo>,
    /// The main content as plain text, one block per line.
    pub text: String,
    /// The section tree of the main content, with sentences (and tokens) per section.
    pub sections: Vec<DocumentSection>,
    /// Set when `status` is `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

/// Outcome of a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The page was analysed.
    Ok,
    /// The page could not be fetched or analysed; see `error`.
    Error,
}

/// Provenance of the page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// The URL (or `file://` path) that was asked for.
    pub url: Option<String>,
    /// The URL after redirects; equal to `url` for local files.
    pub final_url: Option<String>,
    /// When the bytes were fetched or read (RFC 3339, UTC).
    pub fetched_at: Option<String>,
    /// The character encoding the page was decoded from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
}

/// Language of the content with the detector's confidence in `[0, 1]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Language {
    /// ISO 639-1 code, e.g. `de`, `en`.
    pub code: String,
    /// Confidence of the detector, 0 to 1.
    pub confidence: f64,
}

/// How the content step chose the main content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContentInfo {
    /// `lca` (lowest common ancestor above the threshold) or `fallback`.
    pub method: ContentMethod,
    /// XPath-like location of the chosen element(s), e.g. `/html/body/div[2]`.
    pub path: String,
    /// Share of the most common style's characters inside the chosen content, 0 to 1.
    pub coverage: f64,
    /// The naive style key (tag and sorted attributes) that holds the most characters.
    pub most_common_style: String,
    /// Sibling elements added next to the LCA because they hold a real share of the most
    /// common style (content split across containers, a second document after the first).
    pub extended_siblings: usize,
    /// Elements added before the content because they hold its title or lead-in.
    pub lead_in_elements: usize,
    /// Boilerplate blocks (breadcrumbs, share and print links, newsletter boxes) removed at
    /// the start of the content.
    pub trimmed_blocks_start: usize,
    /// Boilerplate blocks removed at the end of the content.
    pub trimmed_blocks_end: usize,
    /// Subtrees dropped because they repeat the text of an earlier one (a widget printed in
    /// every section, a desktop and a mobile copy); the first copy is kept.
    #[serde(default)]
    pub repeats_removed: usize,
}

/// One node of the section tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// The heading as written; `null` for text before the first heading and for
    /// numbered clauses without a title of their own.
    pub title: Option<String>,
    /// The enumeration as written (`§ 3`, `1.2`, `(1)`, `a)`), when the section is numbered.
    pub number: Option<String>,
    /// Depth in the tree, 1 for top-level sections.
    pub level: u32,
    /// The text blocks of this section that precede its first subsection, in order.
    pub paragraphs: Vec<String>,
    /// Nested sections, in document order.
    pub subsections: Vec<Section>,
}

/// One node of the published section tree: a [`Section`] with its text layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentSection {
    /// The heading as written; `null` for text before the first heading and for
    /// numbered clauses without a title of their own.
    pub title: Option<String>,
    /// The enumeration as written (`§ 3`, `1.2`, `(1)`, `a)`), when the section is numbered.
    pub number: Option<String>,
    /// Depth in the tree, 1 for top-level sections.
    pub level: u32,
    /// The text blocks of this section that precede its first subsection, in order.
    pub paragraphs: Vec<String>,
    /// The paragraphs as normalised sentences (NFC, spaces folded, `<br>` splits re-joined,
    /// short lists joined, table rows as `Header: value`).
    #[serde(default)]
    pub sentences: Vec<String>,
    /// Tokens per sentence; present only when enabled (`text.tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Vec<Vec<String>>>,
    /// Language of a top-level section that differs from the document's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// Nested sections, in document order.
    pub subsections: Vec<DocumentSection>,
}

impl DocumentSection {
    /// Joins a section tree with its text layer (same shape; missing text stays empty).
    pub fn build(sections: Vec<Section>, text: Vec<SectionText>) -> Vec<DocumentSection> {
        let mut text = text.into_iter();
        sections
            .into_iter()
            .map(|s| {
                let t = text.next().unwrap_or_default();
                DocumentSection {
                    title: s.title,
                    number: s.number,
                    level: s.level,
                    paragraphs: s.paragraphs,
                    sentences: t.sentences,
                    tokens: t.tokens,
                    language: t.language,
                    subsections: DocumentSection::build(s.subsections, t.subsections),
                }
            })
            .collect()
    }
}

/// A node of a section tree that [`Section::write_outline`] can print.
pub trait OutlineNode {
    /// The heading.
    fn title(&self) -> Option<&str>;
    /// The enumeration.
    fn number(&self) -> Option<&str>;
    /// Depth, 1 for top level.
    fn level(&self) -> u32;
    /// The own paragraphs.
    fn paragraphs(&self) -> &[String];
    /// The nested sections.
    fn children(&self) -> &[Self]
    where
        Self: Sized;
}

macro_rules! outline_node {
    ($t:ty) => {
        impl OutlineNode for $t {
            fn title(&self) -> Option<&str> {
                self.title.as_deref()
            }
            fn number(&self) -> Option<&str> {
                self.number.as_deref()
            }
            fn level(&self) -> u32 {
                self.level
            }
            fn paragraphs(&self) -> &[String] {
                &self.paragraphs
            }
            fn children(&self) -> &[Self] {
                &self.subsections
            }
        }
    };
}
outline_node!(Section);
outline_node!(DocumentSection);

/// A failure, as published in an error Document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorInfo {
    /// A stable machine-readable label, e.g. `not_html`, `timeout`, `http_status`.
    pub kind: String,
    /// Human-readable explanation.
    pub message: String,
    /// Whether trying again later may succeed.
    pub retryable: bool,
}

impl Document {
    /// Builds the ok Document of an analysis. Timestamps come from the caller: the analysis
    /// itself never reads a clock.
    pub fn from_analysis(analysis: Analysis, source: Source, extracted_at: String) -> Self {
        Document {
            schema_version: SCHEMA_VERSION.to_owned(),
            job_id: None,
            status: Status::Ok,
            source,
            extracted_at,
            title: analysis.title,
            language: analysis.language,
            content: Some(analysis.content),
            text: analysis.text,
            sections: DocumentSection::build(analysis.sections, analysis.section_text),
            error: None,
        }
    }

    /// Builds the error Document of a page that could not be processed.
    pub fn from_error(error: ErrorInfo, source: Source, extracted_at: String) -> Self {
        Document {
            schema_version: SCHEMA_VERSION.to_owned(),
            job_id: None,
            status: Status::Error,
            source,
            extracted_at,
            title: None,
            language: None,
            content: None,
            text: String::new(),
            sections: Vec::new(),
            error: Some(error),
        }
    }
}

/// Formats a point in time as RFC 3339 in UTC with second precision.
pub fn rfc3339(t: std::time::SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

impl Section {
    /// Writes the section tree as indented plain text (the CLI's `--format text`).
    pub fn write_outline<S: OutlineNode>(sections: &[S], out: &mut String) {
        for s in sections {
            let indent = "  ".repeat(s.level().saturating_sub(1) as usize);
            match (s.title(), s.number()) {
                (Some(t), _) => out.push_str(&format!("{indent}# {t}\n")),
                (None, Some(n)) => out.push_str(&format!("{indent}# [{n}]\n")),
                (None, None) => {}
            }
            for p in s.paragraphs() {
                out.push_str(&format!("{indent}  {p}\n"));
            }
            Section::write_outline(s.children(), out);
        }
    }
}
