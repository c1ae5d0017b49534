//! Which legal document a page (or a top-level section, or a link) is: terms, withdrawal
//! notice, privacy policy, imprint, shipping and payment, cookie policy, or another legal text.
//!
//! [`vocabulary`] holds the names documents go by in six languages; it types link texts,
//! titles and addresses.

pub mod vocabulary;

pub use vocabulary::{LabelMatch, fold, label_coverage, match_label, type_of_label, type_of_url};

use serde::{Deserialize, Serialize};

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
