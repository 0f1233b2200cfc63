//! The checks an agent's `output_schema` must pass when its config is loaded: the root is
//! `type: "object"` (the output travels as a tool call's arguments and as `result_data`, both
//! objects), it has `properties` (else the model is told nothing about the fields to produce),
//! and it compiles. Each finding is a typed diagnostic, so a config loader can list them all
//! instead of stopping at the first thrown error.

use crate::schema::contract::{Contract, Options};
use crate::schema::error::SchemaIssue;
use serde::Serialize;
use serde_json::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfigCode {
    /// The root's `type` is not `"object"`.
    RootNotObject,
    /// The root has no `properties`.
    NoProperties,
    /// The schema does not compile; `issues` says why.
    InvalidSchema,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigDiagnostic {
    pub code: ConfigCode,
    pub pointer: String,
    pub message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<SchemaIssue>,
}

/// Every problem that keeps `schema` from being an agent's output schema; empty when it can be one.
pub fn check_output_schema_config(schema: &Value, options: &Options) -> Vec<ConfigDiagnostic> {
    let mut out = shape_diagnostics_in(schema, options.draft.unwrap_or(crate::validator::draft::DEFAULT_DRAFT));
    if let Err(e) = Contract::compile(schema, options) {
        out.push(ConfigDiagnostic { code: ConfigCode::InvalidSchema, pointer: String::new(), message: e.message, issues: e.issues });
    }
    out
}

/// The checks of the root's shape alone in `draft`: a JTD schema's root must be of the properties
/// form (which says its fields) or the discriminator form (an object too, its fields by tag).
pub fn shape_diagnostics_in(schema: &Value, draft: crate::validator::draft::Draft) -> Vec<ConfigDiagnostic> {
    if draft != crate::validator::draft::Draft::Jtd {
        return shape_diagnostics(schema);
    }
    let has = |k: &str| schema.get(k).is_some();
    if has("properties") || has("optionalProperties") || has("discriminator") {
        return Vec::new();
    }
    vec![ConfigDiagnostic {
        code: ConfigCode::RootNotObject,
        pointer: String::new(),
        message: "output_schema must be of the JTD properties or discriminator form (an object with fields)".into(),
        issues: Vec::new(),
    }]
}

/// The checks of the root's shape alone, for callers that compile the schema themselves.
pub fn shape_diagnostics(schema: &Value) -> Vec<ConfigDiagnostic> {
    let mut out = Vec::new();
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        out.push(ConfigDiagnostic {
            code: ConfigCode::RootNotObject,
            pointer: "/type".into(),
            message: "output_schema.type must be \"object\"".into(),
            issues: Vec::new(),
        });
    }
    if !schema.get("properties").is_some_and(Value::is_object) {
        out.push(ConfigDiagnostic {
            code: ConfigCode::NoProperties,
            pointer: String::new(),
            message: "output_schema must have properties".into(),
            issues: Vec::new(),
        });
    }
    out
}
