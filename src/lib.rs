//! The tcx service: everything around the pure analysis of [`tcx_core`] — reading and
//! fetching pages ([`source`], [`fetch`]), jobs and results ([`job`]), the RabbitMQ worker and
//! local batches ([`worker`]), metrics and logs ([`telemetry`]), configuration ([`config`]) and
//! the quality evaluation ([`eval`]). The `tcx` binary is a thin CLI over these.
//!
//! ```
//! let html = "<html><body><div><h2>1. Geltungsbereich</h2>\
//!             <p>Diese Bedingungen gelten für alle Bestellungen in unserem Shop.</p></div></body></html>";
//! let analysis = tcx::analyze(html, &tcx::AnalysisOptions::default()).unwrap();
//! assert_eq!(analysis.sections[0].title.as_deref(), Some("1. Geltungsbereich"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod config;
pub mod discover;
pub mod eval;
pub mod fetch;
pub mod job;
pub mod source;
pub mod telemetry;
pub mod worker;

pub use tcx_core::{Analysis, AnalysisOptions, AnalyzeError, Document, analyze};
