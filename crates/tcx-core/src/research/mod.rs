//! Research code kept beside the production path: the full HEPS segmentation, with its
//! reference cases as unit tests. Built for tests and with the `research` feature (the
//! threshold-tuning examples); the analysis never calls it.

pub mod heps;
