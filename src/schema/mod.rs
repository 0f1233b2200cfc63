//! Schemas as the library receives them: the contract compiled once with its options, strict
//! mode, meta-schema validation, the schema's fingerprint and the cache keyed by it, and the
//! typed error of a schema that does not compile; versions of a schema, how two of them compare,
//! and the registry that holds them.

pub mod cache;
pub mod compare;
pub mod contract;
pub mod error;
pub mod fingerprint;
pub mod jtd;
pub mod meta;
pub mod registry;
pub mod strict;
// Standard JSON Schema's targets: the schema tools' module's, never the main wasm module's.
#[cfg(any(not(target_arch = "wasm32"), feature = "tools-module"))]
pub mod target;
pub mod version;
