//! The pure analysis of tcx: the HTML of a Terms & Conditions page (AGB, T&Cs, privacy
//! policy, Widerrufsbelehrung, imprint) in, a structured [`Document`] out — the main legal
//! text without navigation or footers, its section tree, language and sentences.
//!
//! No I/O and no clock: bytes are decoded with [`decode`], analysed with [`analyze`], and
//! turned into the published [`Document`] with timestamps the caller supplies.
//!
//! ```
//! let html = "<html><body><nav>Home Shop</nav><div><h2>1. Geltungsbereich</h2>\
//!             <p>Diese Bedingungen gelten für alle Bestellungen in unserem Shop.</p></div></body></html>";
//! let analysis = tcx_core::analyze(html, &tcx_core::AnalysisOptions::default()).unwrap();
//! assert_eq!(analysis.sections[0].title.as_deref(), Some("1. Geltungsbereich"));
//! ```
//!
//! The modules follow the data flow (see `pipeline`): `parse` (two lol_html passes),
//! `content` (which part is the legal text), `structure` (styles, blocks, headings, the
//! section tree), `text` (language, sentences, tokens) and `model` (the Document).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod charset;
pub mod classify;
mod content;
mod error;
mod model;
mod options;
mod parse;
mod pipeline;
mod structure;
mod text;

#[cfg(any(test, feature = "research"))]
pub mod research;

pub use charset::{Decoded, decode, decode_owned, looks_like_html, sniff_mime};
pub use classify::{
    DocumentType, LabelMatch, LegalVerdict, TextVocabulary, TypeHints, classify_document,
    classify_document_with, classify_section, fold as fold_label, label_coverage,
    legal_page_verdict, legal_page_verdict_with, match_label, type_of_label, type_of_url,
};
pub use error::AnalyzeError;
pub use model::{
    Clause, ContentInfo, ContentMethod, Document, DocumentTypeInfo, ErrorInfo, EvidenceSource,
    Language, OutputOptions, RunnerUp, SCHEMA_VERSION, Section, Source, Status, TypeEvidence,
};
pub use options::{AnalysisOptions, TextOptions};
pub use pipeline::{Analysis, Stage, analyze, analyze_observed};
pub use structure::blocks::{Block, BlockKind};
pub use text::language::is_known_language;
pub use text::sentences::split as split_sentences;
pub use text::tokens::tokenize;

/// Internal stages, for the service's tests and benches (feature `test-api`). Not a stable
/// API: names and signatures change with the implementation.
#[cfg(feature = "test-api")]
pub mod stages {
    pub use crate::content::select::{Candidate, select};
    pub use crate::parse::scan::StyleStats;
    pub use crate::parse::start_tags::count_start_tags;
    pub use crate::parse::tree::ReducedTree;
    pub use crate::structure::blocks::blocks_with_styles;
    pub use crate::structure::enumeration;
    pub use crate::structure::heps::without_sentence_breaking;
    pub use crate::structure::hierarchy::sections_in;
    pub use crate::structure::style::ComputedStyles;
    pub use crate::text::sentences;
}
