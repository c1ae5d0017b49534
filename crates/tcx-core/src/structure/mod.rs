//! The structure step: from the reduced tree to the section tree.
//!
//! - [`style`] computes a static style per node (UA defaults, the page's style sheets, inline
//!   styles) without a browser; [`heps`] neutralises inline styles that sit
//!   inside sentences (the HEPS preprocessing).
//! - [`blocks`] cuts the tree into text blocks with their style.
//! - [`enumeration`] reads clause numbers (`1.2`, `§ 3`, `(1)`, `a)`, `IV.`).
//! - [`hierarchy`] decides which blocks are headings and nests them into sections;
//!   [`clauses`] makes the numbered paragraphs inside a section addressable.

pub mod blocks;
pub mod clauses;
pub mod enumeration;
pub mod heps;
pub mod hierarchy;
pub mod style;
