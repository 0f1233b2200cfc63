//! The schema editor's view of a schema: `checkSchema` diagnostics at text ranges.

pub mod lint;
