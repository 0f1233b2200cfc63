//! What a failed validation says: one violation per problem (with the one message template of
//! its keyword), values rendered inside messages, and the canonical error built from them.

pub mod canonical;
pub mod render;
pub mod violation;
