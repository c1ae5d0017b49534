//! Parsing: the two streaming lol_html passes and the element stack they share.
//!
//! - [`scan`] (pass 1) reads the whole page once, without building a DOM, into flat
//!   [`scan::StyleStats`]: one record per element with its naive style and text counts.
//! - [`tree`] (pass 2) reads only the byte ranges the content step chose into a
//!   [`tree::ReducedTree`] of element and text nodes.
//! - [`stack`] is the HTML element stack both passes use (implied end tags, void and
//!   unrendered elements), [`consent`] recognises consent-banner markup both passes skip,
//!   [`gaps`] reads the page between the start tags (text, end tags) for both passes, and
//!   `start_tags` gives them the start tags from lol_html's tokenizer without its rewriter.

pub mod consent;
pub(crate) mod gaps;
pub mod scan;
pub mod stack;
pub(crate) mod start_tags;
pub mod tree;
