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

// Layers, lowest first; a module imports only from its own layer or lower ones:
// json → validator → report → check → schema → agent → editor → cli → bindings.
pub mod agent;
#[cfg(target_arch = "wasm32")]
mod bindings;
pub mod check;
// The command line: the native binary's, and the schema tools' module's (`runCli`); never the main
// wasm module's.
#[cfg(any(not(target_arch = "wasm32"), feature = "tools-module"))]
pub mod cli;
pub mod editor;
pub mod json;
pub mod report;
pub mod schema;
mod sort;
#[cfg(test)]
mod suite;
// The tests' one seeded random source, shared with the integration tests (tests/common).
#[cfg(test)]
#[path = "../tests/common/rng.rs"]
mod test_rng;
pub(crate) mod validator;

pub use agent::stream::{OutputStream, StopReason, StreamOptions, StreamOutcome};
pub use check::output::OutputLimits;
pub use report::canonical::{failure_envelope, format_child_result, format_violation, OutputValidationError, ResultEnvelope};
pub use report::violation::{Branch, Violation};
pub use schema::cache::{CacheStats, ContractCache};
pub use schema::contract::{Contract, DraftReason, Options};
pub use schema::error::{SchemaError, SchemaErrorKind, SchemaIssue};
pub use validator::draft::{Dialect, Draft};
pub use validator::format::{CustomFormat, FormatFn};

/// Internals that the fuzz targets and the pattern tests drive directly; not a stable API.
#[doc(hidden)]
pub mod internals {
    pub use crate::json::partial::{NoObserver, Parser, Status};
    pub use crate::validator::ecma::Pattern;
}
