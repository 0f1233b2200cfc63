//! Checking an output against a compiled contract: reading it within the limits, extracting the
//! JSON from model text, the one-pass text path (`verdict`, with `units` for invalid outputs)
//! and the in-flight checks of a stream (`early`). Each evaluates the validator's compiled nodes.

pub(crate) mod early;
pub mod extract;
pub mod output;
pub(crate) mod verdict;
