//! JSON text below any schema: its tokens (`lex`, shared by every reader), the incremental
//! parser, the sets of an object's names, the compact writer, instance paths and pointers, and
//! positions in text (source maps, UTF-16 columns).

pub(crate) mod lex;
pub(crate) mod names;
pub mod partial;
pub mod path;
pub mod sourcemap;
pub mod textpos;
pub(crate) mod writer;
