//! The canonical error (`output_validation_failed`) and the other shapes results leave in: the
//! run failure envelope after retries, the result fields of a run, and the child-result text a
//! parent agent receives.

use crate::report::violation::Violation;
use crate::json::writer::{write_key, write_str};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// `output_validation_failed`: everything a caller needs to branch (retry or not) and to tell the
/// model what was wrong. Field order and names are fixed: callers
/// and models read them as documented.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutputValidationError {
    pub error: String,
    pub schema_id: String,
    #[serde(default)]
    pub agent_id: Option<String>,
    pub violations: Vec<Violation>,
    /// The output as received, cut to the configured cap with a visible marker.
    #[serde(default)]
    pub raw_output: String,
    /// True when the model can repair it with another turn; false for resource limits and
    /// exhausted retries.
    #[serde(default)]
    pub retryable: bool,
}

pub const OUTPUT_VALIDATION_FAILED: &str = "output_validation_failed";

impl OutputValidationError {
    pub fn new(schema_id: &str, agent_id: Option<&str>, violations: Vec<Violation>, raw_output: String) -> Self {
        let retryable = violations.iter().all(Violation::is_retryable);
        OutputValidationError {
            error: OUTPUT_VALIDATION_FAILED.to_string(),
            schema_id: schema_id.to_string(),
            agent_id: agent_id.map(str::to_string),
            violations,
            raw_output,
            retryable,
        }
    }

    /// The one-line form of every violation, in order.
    pub fn lines(&self) -> Vec<String> {
        self.violations.iter().map(Violation::one_line).collect()
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The error as compact JSON text, byte for byte what `serde_json::to_string` writes (the
    /// tests hold them equal), written faster (`jsontext`): this text is how every failure
    /// crosses to JavaScript.
    pub fn to_json_text(&self) -> String {
        let mut out = String::with_capacity(256 + self.raw_output.len() + 320 * self.violations.len());
        write_key(&mut out, true, "error");
        write_str(&mut out, &self.error);
        write_key(&mut out, false, "schema_id");
        write_str(&mut out, &self.schema_id);
        write_key(&mut out, false, "agent_id");
        match &self.agent_id {
            Some(id) => write_str(&mut out, id),
            None => out.push_str("null"),
        }
        write_key(&mut out, false, "violations");
        out.push('[');
        for (i, v) in self.violations.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            v.write_json(&mut out);
        }
        out.push(']');
        write_key(&mut out, false, "raw_output");
        write_str(&mut out, &self.raw_output);
        write_key(&mut out, false, "retryable");
        out.push_str(if self.retryable { "true" } else { "false" });
        out.push('}');
        out
    }
}

/// The head of the error `toAiSdkSchema`'s validation gives the AI SDK, before the violations'
/// lines. The SDK validates a structured output and a tool's input alike, without saying which,
/// and names that itself around this text ("Invalid input for tool …", "No object generated …"):
/// this text names neither.
pub const AI_SDK_MISMATCH: &str = "the value does not match the contract";

/// `$.path: message`.
pub fn format_violation(v: &Violation) -> String {
    v.one_line()
}

/// The run failure envelope, once retries are exhausted.
pub fn failure_envelope(error: &OutputValidationError, run_id: Option<&str>, retries: usize) -> Value {
    let mut envelope = serde_json::Map::new();
    if let Some(id) = run_id {
        envelope.insert("run_id".into(), json!(id));
    }
    envelope.insert("status".into(), json!("failed"));
    envelope.insert(
        "error".into(),
        json!({
            "type": "output_schema_validation_failed",
            "message": format!("Output did not match schema after {retries} retr{}", if retries == 1 { "y" } else { "ies" }),
            "validation_errors": error.lines(),
        }),
    );
    Value::Object(envelope)
}

/// The result fields of a run: `result_data` when there is an output schema, otherwise
/// `result_text` — never both.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultEnvelope {
    pub result_text: Option<String>,
    pub result_data: Option<Value>,
}

impl ResultEnvelope {
    pub fn data(value: Value) -> Self {
        ResultEnvelope { result_text: None, result_data: Some(value) }
    }

    pub fn text(text: String) -> Self {
        ResultEnvelope { result_text: Some(text), result_data: None }
    }
}

/// What a parent agent receives from a child: `result_data` as indented JSON when
/// present, else `result_text`, else `(No result available)`.
pub fn format_child_result(result_text: Option<&str>, result_data: Option<&Value>) -> String {
    match result_data {
        Some(data) if !data.is_null() => pretty(data),
        _ => match result_text {
            Some(text) if !text.is_empty() => text.to_string(),
            _ => "(No result available)".to_string(),
        },
    }
}

/// JSON indented with two spaces, as Python's `json.dumps(indent=2)` writes it.
/// Written through `Value`'s alternate `Display` (the same pretty printer as `to_string_pretty`),
/// whose instance the module carries anyway: `to_string_pretty` would be a second copy of it.
pub fn pretty(value: &Value) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = write!(out, "{value:#}");
    out
}
