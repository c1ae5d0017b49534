//! cli tests
