//! The one integration-test binary of tcx (one link step on a 2-core machine).

mod analysis;
mod cli;
mod corpus;
mod eval;
mod fetch;
mod hierarchy;
mod support;
