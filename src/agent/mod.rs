//! Around an agent: the prompt texts, the submit tool and its arguments, the stream state
//! machine (in-flight, soft-complete, retry, hard-complete) and the load-time check of an agent's
//! output schema, and merging patches into a document before it is validated.

pub mod config;
pub mod patch;
pub mod provider;
pub mod prompt;
pub mod stream;
pub mod tool;
