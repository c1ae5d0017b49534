//! tcx turns the HTML of a Terms & Conditions page (AGB, T&Cs, privacy policy,
//! Widerrufsbelehrung, imprint) into a structured [`Document`]: the main legal text without
//! navigation or footers, split into its section tree.
//!
//! The analysis ([`analyze()`]) is pure and synchronous: bytes in, [`Analysis`] out, no I/O
//! and no clock. Fetching ([`fetch`]), decoding ([`charset`]) and the CLI live at the edges.
//!
//! ```
//! let html = "<html><body><nav>Home Shop About</nav><div><h2>1. Geltungsbereich</h2>\
//!             <p>Diese Bedingungen gelten für alle Bestellungen in unserem Shop.</p>\
//!             <h2>2. Vertragsschluss</h2><p>Der Vertrag kommt mit der Bestätigung zustande.</p>\
//!             </div></body></html>";
//! let analysis = tcx::analyze(html, &tcx::AnalysisOptions::default()).unwrap();
//! assert_eq!(analysis.sections[0].title.as_deref(), Some("1. Geltungsbereich"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analyze;
pub mod charset;
pub mod config;
pub mod eval;
pub mod fetch;
pub mod job;
pub mod output;
pub mod source;
pub mod telemetry;
pub mod text;
pub mod worker;

pub use analyze::{Analysis, AnalysisOptions, AnalyzeError, analyze};
pub use output::Document;
