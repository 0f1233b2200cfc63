//! The texts sent to models: the retry prompt of seed 000 §3.3.

use crate::report::pretty;
use crate::violation::Violation;
use serde_json::Value;

/// The `<output-validation-error>` block of seed 000 §3.3: one `- {path}: {message}` line per
/// violation and the schema pretty-printed with two-space indentation.
pub fn retry_prompt(violations: &[Violation], schema: &Value) -> String {
    let lines: Vec<String> = violations.iter().map(|v| format!("- {}: {}", v.path, v.message)).collect();
    format!(
        "<output-validation-error>\nYour output did not match the required schema.\n\n## Validation Errors\n{}\n\n## Required Schema\n```json\n{}\n```\n\nPlease provide output matching the schema exactly.\n</output-validation-error>",
        lines.join("\n"),
        pretty(schema)
    )
}
