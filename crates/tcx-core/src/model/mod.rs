//! The published JSON Document: what a consumer of tcx reads.
//!
//! The shape is versioned by [`SCHEMA_VERSION`]; `docs/document.schema.json` is its JSON Schema.
//! The model depends on no other module: every stage writes into these types.

use serde::{Deserialize, Serialize};

/// How the content candidate was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContentMethod {
    /// The deepest element holding at least the threshold share of the most common style.
    Lca,
    /// No element reached the threshold: the run of body children with the most characters
    /// of the most common style.
    Fallback,
}

impl ContentMethod {
    /// The method's label, as in the JSON and in metrics.
    pub fn name(self) -> &'static str {
        match self {
            ContentMethod::Lca => "lca",
            ContentMethod::Fallback => "fallback",
        }
    }
}

/// The kinds of legal document a shop publishes (a small fixed vocabulary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentType {
    /// Terms and conditions, AGB, terms of service or use, conditions of sale.
    Terms,
    /// Withdrawal notice (Widerrufsbelehrung), returns and refund policy.
    Withdrawal,
    /// Privacy policy (Datenschutzerklärung).
    Privacy,
    /// Imprint (Impressum), legal notice.
    Imprint,
    /// Shipping and payment information.
    ShippingPayment,
    /// Cookie and tracker policy.
    Cookies,
    /// Another legal text (acceptable use, community guidelines, copyright, disclaimer).
    Other,
}

impl DocumentType {
    /// Every type, in declaration order.
    pub const ALL: [DocumentType; 7] = [
        DocumentType::Terms,
        DocumentType::Withdrawal,
        DocumentType::Privacy,
        DocumentType::Imprint,
        DocumentType::ShippingPayment,
        DocumentType::Cookies,
        DocumentType::Other,
    ];

    /// The snake_case name used in JSON and metrics (`terms`, `shipping_payment`, …).
    pub fn name(self) -> &'static str {
        match self {
            DocumentType::Terms => "terms",
            DocumentType::Withdrawal => "withdrawal",
            DocumentType::Privacy => "privacy",
            DocumentType::Imprint => "imprint",
            DocumentType::ShippingPayment => "shipping_payment",
            DocumentType::Cookies => "cookies",
            DocumentType::Other => "other",
        }
    }

    /// Parses [`DocumentType::name`].
    pub fn from_name(name: &str) -> Option<DocumentType> {
        DocumentType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The Open Terms Archive terms type this maps to, where one fits (OTA has no type for
    /// withdrawal notices or shipping information, nor one for "other").
    pub fn ota_name(self) -> Option<&'static str> {
        match self {
            DocumentType::Terms => Some("Terms of Service"),
            DocumentType::Withdrawal => None,
            DocumentType::Privacy => Some("Privacy Policy"),
            DocumentType::Imprint => Some("Imprint"),
            DocumentType::ShippingPayment => None,
            DocumentType::Cookies => Some("Trackers Policy"),
            DocumentType::Other => None,
        }
    }
}

/// Where a piece of evidence for a document type was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum EvidenceSource {
    /// The page's `<title>`.
    Title,
    /// A heading of the content (the first one, or a top-level section's title).
    Heading,
    /// The page's address (http or https only).
    Url,
    /// The text of the link the page was found by.
    LinkText,
    /// The typical words of the text.
    Vocabulary,
}

/// One signal for a document type: where it was found, what it said and how much it weighed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TypeEvidence {
    /// Where it was found.
    pub source: EvidenceSource,
    /// The type it speaks for.
    pub kind: DocumentType,
    /// The phrase that matched (folded: lower case, letters and digits), or for
    /// [`EvidenceSource::Vocabulary`] the words counted, most frequent first.
    pub phrase: String,
    /// The text it was found in (a title, heading, address or link text; for vocabulary, the
    /// number of hits), shortened to 120 characters.
    pub value: String,
    /// The score it added to `kind`.
    pub weight: f64,
}

/// Which legal document a page (or a top-level section) is, how sure, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DocumentTypeInfo {
    /// The type.
    pub kind: DocumentType,
    /// The Open Terms Archive terms type it maps to, where one fits ("Terms of Service",
    /// "Privacy Policy", "Imprint", "Trackers Policy").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ota_name: Option<String>,
    /// The winning type's share of all the evidence's weight, damped when the evidence is
    /// thin: 0 to 1.
    pub confidence: f64,
    /// The signals used, strongest first.
    pub evidence: Vec<TypeEvidence>,
}

/// Version of the Document's JSON shape. Bumped on any incompatible change.
pub const SCHEMA_VERSION: &str = "1.2";

/// The structured result of one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
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
    /// Which legal document the page is (the first or main one, when it holds several);
    /// `null` on error and when nothing names a type (schema 1.2).
    #[serde(default)]
    pub document_type: Option<DocumentTypeInfo>,
    /// How the main content was chosen; `null` on error.
    pub content: Option<ContentInfo>,
    /// The main content as plain text, one block per line. Present only with
    /// [`OutputOptions::text`]: by default the section tree is the one copy of the text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// The section tree of the main content, with sentences (and tokens) per section.
    pub sections: Vec<Section>,
    /// Set when `status` is `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

/// Outcome of a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Status {
    /// The page was analysed.
    Ok,
    /// The page could not be fetched or analysed; see `error`.
    Error,
}

/// Provenance of the page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
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
#[non_exhaustive]
pub struct Language {
    /// ISO 639-1 code, e.g. `de`, `en`.
    pub code: String,
    /// Confidence of the detector, 0 to 1.
    pub confidence: f64,
}

/// How the content step chose the main content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
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
    /// Elements added after the content: closing lines that end its container (a contact
    /// paragraph after the last section). Schema 1.2.
    #[serde(default)]
    pub closing_elements: usize,
    /// Boilerplate blocks (breadcrumbs, share and print links, newsletter boxes, notices about
    /// the browser or the site) removed at the start of the content.
    pub trimmed_blocks_start: usize,
    /// Boilerplate blocks removed at the end of the content.
    pub trimmed_blocks_end: usize,
    /// Subtrees dropped because they repeat the text of an earlier one (a widget printed in
    /// every section, a desktop and a mobile copy); the first copy is kept.
    #[serde(default)]
    pub repeats_removed: usize,
    /// The next-best candidate the step did not take: for an LCA choice, the fallback's best
    /// run of body children; for a fallback choice, the element holding the most of the most
    /// common style. `None` when it would be the same elements. Schema 1.2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner_up: Option<RunnerUp>,
}

/// The candidate the content step ranked second ([`ContentInfo::runner_up`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunnerUp {
    /// How it was found.
    pub method: ContentMethod,
    /// Its XPath (a union for several elements).
    pub path: String,
    /// Its share of the most common style's characters, 0 to 1.
    pub coverage: f64,
}

/// One node of the section tree, with its text layer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
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
    /// The paragraphs as normalised sentences (NFC, spaces folded, `<br>` splits re-joined,
    /// short lists joined, table rows as `Header: value`). Present only with
    /// [`OutputOptions::sentences`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sentences: Vec<String>,
    /// Tokens per sentence; present only when enabled (`text.tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Vec<Vec<String>>>,
    /// Language of a top-level section that differs from the document's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// On a page that holds several documents (AGB, Widerrufsbelehrung, Muster-
    /// Widerrufsformular), the type of the document this top-level section is (schema 1.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_type: Option<DocumentTypeInfo>,
    /// The numbered paragraphs of [`Section::paragraphs`] (`(1)`, `a)`, `1.`, `(ii)`) as a
    /// tree of addressable clauses; empty (and left out of the JSON) when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<Clause>,
    /// Nested sections, in document order.
    pub subsections: Vec<Section>,
}

/// A numbered paragraph of a section (a German *Absatz* `(3)`, a letter `b)`, an English
/// `(ii)`) with the clauses nested in it. Its text is the section's `paragraphs[start..end]`:
/// its own paragraph, its nested clauses and the paragraphs that continue it (the text is not
/// stored twice).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Clause {
    /// The number as written: `(3)`, `b)`, `1.`, `(ii)`.
    pub number: String,
    /// The full address: the numbers of the enclosing numbered sections, of the enclosing
    /// clauses, then its own, e.g. `["§ 2", "(3)", "b)"]` or `["4.", "(b)", "(ii)"]`.
    pub address: Vec<String>,
    /// Index of the clause's first paragraph in the section's `paragraphs`.
    pub start: usize,
    /// One past its last paragraph.
    pub end: usize,
    /// Clauses nested in it (`a)`, `b)` inside `(3)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<Clause>,
}

impl Clause {
    /// A clause starting at paragraph `start` (spanning it alone until extended).
    pub fn new(number: String, address: Vec<String>, start: usize) -> Self {
        Clause {
            number,
            address,
            start,
            end: start + 1,
            clauses: Vec::new(),
        }
    }

    /// The clause's text in `section` (the section it belongs to): its paragraphs, one a line.
    pub fn text(&self, section: &Section) -> String {
        section
            .paragraphs
            .get(self.start..self.end.min(section.paragraphs.len()))
            .unwrap_or_default()
            .join("\n")
    }
}

impl Section {
    /// The clause with this address (`["§ 2", "(3)", "b)"]`) anywhere in this section tree,
    /// with the section that holds it.
    pub fn find_clause<'a>(
        sections: &'a [Section],
        address: &[&str],
    ) -> Option<(&'a Section, &'a Clause)> {
        let mut todo: Vec<&Section> = sections.iter().collect();
        while let Some(s) = todo.pop() {
            let mut clauses: Vec<&Clause> = s.clauses.iter().collect();
            while let Some(c) = clauses.pop() {
                if c.address
                    .iter()
                    .map(String::as_str)
                    .eq(address.iter().copied())
                {
                    return Some((s, c));
                }
                clauses.extend(c.clauses.iter());
            }
            todo.extend(s.subsections.iter());
        }
        None
    }
}

impl Section {
    /// A section with a heading and a number and no text yet.
    pub fn new(title: Option<String>, number: Option<String>, level: u32) -> Section {
        Section {
            title,
            number,
            level,
            ..Section::default()
        }
    }

    /// Writes the section tree as indented plain text (the CLI's `--format text`).
    pub fn write_outline(sections: &[Section], out: &mut String) {
        for s in sections {
            let indent = "  ".repeat(s.level.saturating_sub(1) as usize);
            match (&s.title, &s.number) {
                (Some(t), _) => out.push_str(&format!("{indent}# {t}\n")),
                (None, Some(n)) => out.push_str(&format!("{indent}# [{n}]\n")),
                (None, None) => {}
            }
            for p in &s.paragraphs {
                out.push_str(&format!("{indent}  {p}\n"));
            }
            Section::write_outline(&s.subsections, out);
        }
    }
}

/// A failure, as published in an error Document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ErrorInfo {
    /// A stable machine-readable label, e.g. `not_html`, `timeout`, `http_status`.
    pub kind: String,
    /// Human-readable explanation.
    pub message: String,
    /// Whether trying again later may succeed.
    pub retryable: bool,
}

impl ErrorInfo {
    /// An error with its stable `kind` label, message and whether a retry may succeed.
    pub fn new(kind: impl Into<String>, message: impl Into<String>, retryable: bool) -> Self {
        ErrorInfo {
            kind: kind.into(),
            message: message.into(),
            retryable,
        }
    }
}

impl Source {
    /// Provenance of a page: the address asked for, the address after redirects, when it
    /// was read (RFC 3339) and the encoding it was decoded from.
    pub fn new(
        url: Option<String>,
        final_url: Option<String>,
        fetched_at: Option<String>,
        encoding: Option<String>,
    ) -> Self {
        Source {
            url,
            final_url,
            fetched_at,
            encoding,
        }
    }
}

impl Language {
    /// A language code with the detector's confidence.
    pub fn new(code: impl Into<String>, confidence: f64) -> Self {
        Language {
            code: code.into(),
            confidence,
        }
    }
}

/// What a published Document carries besides the section tree (`[output]` in the
/// configuration). The tree's titles and paragraphs hold the whole text once; the flat `text`
/// and the per-section `sentences` (with `tokens`) repeat it and are opt-in, which keeps a
/// result near the size of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OutputOptions {
    /// Keep `text`, the main content as one string.
    pub text: bool,
    /// Keep `sentences` (and `tokens`, when the text layer made them) per section.
    pub sentences: bool,
}

impl OutputOptions {
    /// Everything the analysis produced.
    pub const FULL: OutputOptions = OutputOptions {
        text: true,
        sentences: true,
    };
}

impl Document {
    /// The Document with only what `output` asks for besides the section tree.
    pub fn with_output(mut self, output: OutputOptions) -> Self {
        if !output.text {
            self.text = String::new();
        }
        if !output.sentences {
            let mut todo: Vec<&mut Section> = self.sections.iter_mut().collect();
            while let Some(s) = todo.pop() {
                s.sentences = Vec::new();
                s.tokens = None;
                todo.extend(s.subsections.iter_mut());
            }
        }
        self
    }

    /// The Document tagged with the id of the job that produced it.
    pub fn with_job_id(mut self, job_id: impl Into<String>) -> Self {
        self.job_id = Some(job_id.into());
        self
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
            document_type: None,
            content: None,
            text: String::new(),
            sections: Vec::new(),
            error: Some(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_options_keep_the_tree_and_drop_the_copies() {
        let mut child = Section::new(Some("1.1".into()), Some("1.1".into()), 2);
        child.paragraphs = vec!["Text.".into()];
        child.sentences = vec!["Text.".into()];
        child.tokens = Some(vec![vec!["Text".into(), ".".into()]]);
        let mut top = Section::new(Some("1. Titel".into()), Some("1.".into()), 1);
        top.sentences = vec!["Satz.".into()];
        top.subsections = vec![child];
        let mut doc = Document::from_error(
            ErrorInfo::new("x", "y", false),
            Source::default(),
            "t".into(),
        );
        doc.error = None;
        doc.status = Status::Ok;
        doc.text = "1. Titel\n1.1\nText.".into();
        doc.sections = vec![top];
        let full = doc.clone().with_output(OutputOptions::FULL);
        assert_eq!(full, doc);
        let lean = doc.with_output(OutputOptions::default());
        assert!(lean.text.is_empty());
        let child = &lean.sections[0].subsections[0];
        assert!(lean.sections[0].sentences.is_empty() && child.sentences.is_empty());
        assert!(child.tokens.is_none());
        assert_eq!(child.paragraphs, ["Text."]);
        let json = serde_json::to_value(&lean).unwrap();
        assert!(json.get("text").is_none());
        assert!(json["sections"][0].get("sentences").is_none());
    }
}
