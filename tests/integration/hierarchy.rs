//! hierarchy tests
