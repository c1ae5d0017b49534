//! The content step: which part of the page is the legal text.
//!
//! - [`select`] chooses the [`select::Candidate`] from pass 1's statistics: the lowest common
//!   ancestor of the most common style (LCA), or the fallback run of body children, with its
//!   extensions (split content, lead-in titles).
//! - [`repeats`] drops repeated interface widgets from the reduced tree.
//! - [`refine`] trims boilerplate blocks (breadcrumbs, share and print links) at the edges.

mod closing;
pub mod refine;
pub mod repeats;
pub mod select;
