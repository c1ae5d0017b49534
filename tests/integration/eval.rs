//! eval tests
