//! Which legal document a page (or a top-level section, or a link) is: terms, withdrawal
//! notice, privacy policy, imprint, shipping and payment, cookie policy, or another legal text.
//!
//! [`vocabulary`] holds the names documents go by in six languages; it types link texts,
//! titles and addresses. [`document`] types a whole analysed page (and each document of a page
//! that holds several) from its title, headings, address, link text and the words of its text;
//! [`legal`] tells a legal page from a home page, a product page or an article.

pub mod document;
pub mod legal;
mod text_vocabulary;
pub mod vocabulary;

pub use crate::model::DocumentType;
pub use document::{TypeHints, classify_document, classify_document_with, classify_section};
pub use legal::{LegalVerdict, legal_page_verdict, legal_page_verdict_with};
pub use text_vocabulary::TextVocabulary;

pub use vocabulary::{LabelMatch, fold, label_coverage, match_label, type_of_label, type_of_url};

/// Share of a label's letters a document's names must cover for the label to be that name
/// (a title line, a kicker): "most of it".
const MOSTLY_A_NAME: f64 = 0.5;

/// Whether a short line is mostly the name of a legal document ("Privacy Policy", "TERMS OF
/// SERVICE", "Allgemeine Geschäftsbedingungen"), not of `other` legal texts.
pub(crate) fn is_a_document_name(label: &str) -> bool {
    match_label(label).is_some_and(|m| {
        m.kind != DocumentType::Other && label_coverage(label, m.kind) >= MOSTLY_A_NAME
    })
}
