//! output-contract: enforce the output contract of AI agents — the JSON Schema their output must
//! match. Compile a schema once, validate outputs with every violation collected, and report
//! failures as the canonical `output_validation_failed` error.
//!
//! The core is plain Rust; `wasm` holds the only WebAssembly bindings.

// Inside WebAssembly a panic traps and leaves the instance unusable, so library code may not
// panic on data from outside: no unwrap/expect, no unchecked indexing or slicing. Tests may.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::string_slice,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]
// The canonical error and SchemaError are the values users match on; they travel only on the
// failure path, where boxing them would buy nothing but a less direct API.
#![allow(clippy::result_large_err)]

pub mod cache;
pub mod config;
pub mod contract;
pub mod draft;
pub mod early;
pub mod extract;
pub mod error;
pub mod fingerprint;
mod jsontext;
pub mod lint;
pub mod meta;
pub mod output;
pub mod partial;
pub mod path;
pub mod prompt;
pub mod render;
pub mod report;
mod scan;
pub mod sourcemap;
mod sort;
pub mod stream;
pub mod strict;
#[cfg(test)]
mod suite;
pub mod textpos;
pub mod tool;
pub mod validator;
pub mod verdict;
pub mod violation;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use cache::{CacheStats, ContractCache};
pub use contract::{Contract, Options};
pub use draft::Draft;
pub use error::{SchemaError, SchemaErrorKind, SchemaIssue};
pub use output::OutputLimits;
pub use report::{failure_envelope, format_child_result, format_violation, OutputValidationError, ResultEnvelope};
pub use violation::{Branch, Violation};
