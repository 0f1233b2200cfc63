//! The texts sent to models: the output-format section appended to the system prompt, the retry
//! prompt that lists an answer's violations, and the reply to an output tool call. The built-in
//! wordings are the defaults; each can be
//! replaced by a template with `{name}` placeholders.
//!
//! Schemas are printed as Python's `json.dumps(schema, indent=2)` prints them, except that
//! non-ASCII characters stay as they are rather than `\uXXXX` escapes: models read them better
//! and they cost fewer tokens.

use crate::report::canonical::pretty;
use crate::report::violation::Violation;
use serde::Deserialize;
use serde_json::Value;

/// The output-format section, appended to the system prompt. Placeholder: `{schema}`.
pub const OUTPUT_FORMAT: &str = "\n\n## Required Output Format\n\nYou MUST provide structured output as JSON conforming to this schema:\n\n```json\n{schema}\n```\n\nYour response MUST be valid JSON that matches this schema exactly. Output ONLY the JSON, no additional text.";

/// The retry prompt after an invalid answer. Placeholders: `{errors}` (the lines) and `{schema}`.
pub const RETRY: &str = "<output-validation-error>\nYour output did not match the required schema.\n\n## Validation Errors\n{errors}\n\n## Required Schema\n```json\n{schema}\n```\n\nPlease provide output matching the schema exactly.\n</output-validation-error>";

/// One line of the retry prompt's list. Placeholders: `{path}`, `{message}`, `{keyword}`,
/// `{pointer}` (the JSON Pointer of the value, as a JSON string).
pub const RETRY_LINE: &str = "- {path}: {message}";

/// The retry prompt that asks for a JSON Patch (RFC 6902) to the previous answer instead of a
/// whole new one: a long answer with a few mistakes costs the model a few operations. The schema
/// is not repeated, since the system prompt holds it (`{schema}` is there for a template that
/// wants it). Placeholders: `{errors}` (the lines) and `{schema}`.
pub const RETRY_PATCH: &str = "<output-validation-error>\nYour output did not match the required schema.\n\n## Validation Errors\n{errors}\n\nDo not write the whole output again. Reply with ONLY a JSON Patch (RFC 6902): a JSON array of operations that fix exactly these errors in your previous output, each \"path\" a JSON Pointer into that output, for example:\n[{\"op\": \"replace\", \"path\": \"/items/0/severity\", \"value\": \"high\"},\n {\"op\": \"add\", \"path\": \"/summary\", \"value\": \"...\"}]\n</output-validation-error>";

/// One line of the patch retry prompt's list. Placeholders as `RETRY_LINE`'s.
pub const RETRY_PATCH_LINE: &str = "- {pointer}: {message}";

/// The reply to an output tool call whose arguments are valid.
pub const TOOL_SUCCESS: &str = "Output validated successfully. You may now complete the task.";

/// The reply when they are not. Placeholders: `{errors}` and `{tool}`.
pub const TOOL_FAILURE: &str = "## Validation Failed\n\nYour output does not match the expected schema:\n\n{errors}\n\nPlease fix these issues and call `{tool}` again.";

/// One line of the tool feedback's list. Placeholders: `{index}` (from 1), `{path}`, `{message}`,
/// `{keyword}`.
pub const TOOL_FAILURE_LINE: &str = "{index}. **{path}**: {message}";

/// The output tool the reply asks the model to call again, by default: the name
/// `submit_result_tool` gives the tool it defines, so the two agree unless the caller renames it.
pub const DEFAULT_TOOL: &str = crate::agent::tool::DEFAULT_NAME;

/// The templates, each defaulting to the built-in text; from JS a partial object overrides some.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Templates {
    pub output_format: String,
    pub retry: String,
    pub retry_line: String,
    pub retry_patch: String,
    pub retry_patch_line: String,
    pub tool_success: String,
    pub tool_failure: String,
    pub tool_failure_line: String,
}

impl Default for Templates {
    fn default() -> Self {
        Templates {
            output_format: OUTPUT_FORMAT.into(),
            retry: RETRY.into(),
            retry_line: RETRY_LINE.into(),
            retry_patch: RETRY_PATCH.into(),
            retry_patch_line: RETRY_PATCH_LINE.into(),
            tool_success: TOOL_SUCCESS.into(),
            tool_failure: TOOL_FAILURE.into(),
            tool_failure_line: TOOL_FAILURE_LINE.into(),
        }
    }
}

/// Fills `{name}` placeholders in one pass, so a value that itself contains `{schema}` (a schema
/// describing templates, say) is never filled again. Unknown `{…}` stay as written.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let (head, tail) = rest.split_at(open);
        out.push_str(head);
        let name_end = tail.find('}');
        let value = name_end.and_then(|end| {
            let name = tail.get(1..end)?;
            values.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v, end))
        });
        match value {
            Some((v, end)) => {
                out.push_str(v);
                rest = tail.get(end + 1..).unwrap_or("");
            }
            None => {
                out.push('{');
                rest = tail.get(1..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether there is a schema to describe: no schema, `null`, `false`, `{}` and `[]` add nothing
/// (as an executor's `if not output_schema` reads them).
fn has_schema(schema: &Value) -> bool {
    match schema {
        Value::Null | Value::Bool(false) => false,
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// The system prompt with the `## Required Output Format` section appended as its last section.
pub fn enrich_system_prompt(system_prompt: &str, schema: &Value, templates: &Templates) -> String {
    if !has_schema(schema) {
        return system_prompt.to_string();
    }
    let section = fill(&templates.output_format, &[("schema", &pretty(schema))]);
    format!("{system_prompt}{section}")
}

fn lines(violations: &[Violation], template: &str, separator: &str) -> String {
    let lines: Vec<String> = violations
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let index = (i + 1).to_string();
            // The pointer as a JSON string: the root's is `""`, visible in a line.
            let pointer = Value::from(v.pointer.as_str()).to_string();
            fill(template, &[("index", &index), ("pointer", &pointer), ("path", &v.path), ("message", &v.message), ("keyword", &v.keyword)])
        })
        .collect();
    lines.join(separator)
}

/// The `<output-validation-error>` block: one `- {path}: {message}` line per violation and the
/// schema pretty-printed with two-space indentation.
pub fn retry_prompt(violations: &[Violation], schema: &Value) -> String {
    retry_prompt_with(violations, schema, &Templates::default())
}

pub fn retry_prompt_with(violations: &[Violation], schema: &Value, templates: &Templates) -> String {
    retry_prompt_of(violations, schema, &templates.retry, &templates.retry_line)
}

fn retry_prompt_of(violations: &[Violation], schema: &Value, template: &str, line: &str) -> String {
    let errors = lines(violations, line, "\n");
    fill(template, &[("errors", &errors), ("schema", &pretty(schema))])
}

/// The retry prompt that asks for a JSON Patch to the previous answer: one `- "{pointer}":
/// {message}` line per violation (`retryPatch`, `retryPatchLine`).
pub fn retry_patch_prompt_with(violations: &[Violation], schema: &Value, templates: &Templates) -> String {
    retry_prompt_of(violations, schema, &templates.retry_patch, &templates.retry_patch_line)
}

/// The reply to an output tool call: the success text when there are no violations, else the
/// numbered list and the instruction to call `tool` again.
pub fn tool_feedback(violations: &[Violation], tool: &str, templates: &Templates) -> String {
    if violations.is_empty() {
        return fill(&templates.tool_success, &[("tool", tool)]);
    }
    let errors = lines(violations, &templates.tool_failure_line, "\n");
    fill(&templates.tool_failure, &[("errors", &errors), ("tool", tool)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patch_retry_prompt_lists_pointers_and_leaves_the_schema_out() {
        let v = crate::report::violation::Violation::of_output("enum", Value::Null, Value::Null, "'x' is not one of ['a']".into());
        let mut at = v.clone();
        at.pointer = "/a~1b/0".into();
        let prompt = retry_patch_prompt_with(&[v, at], &serde_json::json!({"type": "object"}), &Templates::default());
        assert!(prompt.contains("\n- \"\": 'x' is not one of ['a']\n- \"/a~1b/0\": 'x' is not one of ['a']\n"), "{prompt}");
        assert!(prompt.contains("JSON Patch (RFC 6902)"));
        assert!(!prompt.contains("\"type\""));
    }

    #[test]
    fn fill_is_single_pass_and_keeps_unknown_braces() {
        assert_eq!(fill("a {x} {y} {", &[("x", "{y}")]), "a {y} {y} {");
        assert_eq!(fill("{x}{x}", &[("x", "1")]), "11");
    }
}
