//! analysis tests
