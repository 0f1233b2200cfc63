//! JSON text below any schema: the incremental parser, byte scanning, the compact writer,
//! instance paths and pointers, and positions in text (source maps, UTF-16 columns).

pub mod partial;
pub mod path;
pub(crate) mod scan;
pub mod sourcemap;
pub mod textpos;
pub(crate) mod writer;
