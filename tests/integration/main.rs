//! The one integration-test binary of tcx (one link step on a 2-core machine).

mod analysis;
mod batch;
mod chrome;
mod cli;
mod content;
mod corpus;
mod deploy;
mod discovery;
mod eval;
mod fetch;
mod hardening;
mod hierarchy;
mod layout;
mod support;
mod text;
mod worker;
