//! The WebAssembly bindings: the only code that knows about JavaScript. Two modules are built
//! from the crate: the main one (`wasm`: contracts, validation, streams, agents) and, with the
//! feature `tools-module`, the schema tools (`tools`: the editor's checks, comparison, registry),
//! which pkg/src/tools.js loads only when one of them is first called.

mod boundary;
mod options;
mod runtime;
#[cfg(feature = "tools-module")]
mod tools;
#[cfg(not(feature = "tools-module"))]
mod wasm;
