//! corpus tests
