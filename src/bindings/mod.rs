//! The WebAssembly bindings: the only code that knows about JavaScript.

mod wasm;
