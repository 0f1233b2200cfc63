//! What crosses into both modules as JSON text: `Contract.compile`'s options object (with its
//! custom formats) and the other JSON arguments, and how a `SchemaError` crosses back.

use crate::check::output::OutputLimits;
use crate::schema::contract::Options;
use crate::schema::error::{SchemaError, SchemaErrorKind, SchemaIssue};
use crate::validator::draft::Draft;
use crate::validator::format::CustomFormat;
use serde::Deserialize;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// Every options object the package takes, by function: each option's name and its kind
/// (`boolean`, `string`, `positiveInteger`, `nonNegativeInteger`, `draft`, `formats`,
/// `customFormats`, `resources`, `messages`, `function`, `abortSignal`, `oneOf:a|b`, or an object
/// of nested options). The one declaration of the option set: scripts/build.sh writes it into the
/// glue (`OPTION_TABLE`), pkg/src/options.js checks options from it, and
/// tests/js/options-declared.test.mjs compares index.d.ts's option types with it and has the
/// main module read `Contract.compile`'s (`JsOptions`). Exported by the schema tools' module only
/// (src/bindings/tools.rs): the main module's size is not spent on it.
#[cfg(feature = "tools-module")]
pub(super) fn option_table() -> Value {
    let compile = serde_json::json!({
        "draft": "draft",
        "strict": "boolean",
        "formats": "formats",
        "schemaId": "string",
        "agentId": "string",
        "resources": "resources",
        "maxOutputBytes": "positiveInteger",
        "maxDepth": "positiveInteger",
        "codegen": "boolean",
        "rawOutputLimit": "nonNegativeInteger",
    });
    // The prompt templates (agent::prompt::Templates), checked key by key (`templates.retryLine`).
    let templates = serde_json::json!({
        "outputFormat": "string",
        "retry": "string",
        "retryLine": "string",
        "retryPatch": "string",
        "retryPatchLine": "string",
        "toolSuccess": "string",
        "toolFailure": "string",
        "toolFailureLine": "string",
    });
    let provider = "oneOf:openai-chat|openai-responses|anthropic";
    let stop_reasons: Vec<&str> = crate::agent::stream::StopReason::NAMES.iter().map(|(name, _)| *name).collect();
    serde_json::json!({
        "Contract.compile": compile,
        "contract.validateText": { "extract": "boolean", "repair": "boolean" },
        "contract.validateToolCall": { "nullAsAbsent": "boolean" },
        "contract.validateMerged": { "format": "oneOf:json-patch|merge-patch", "extract": "boolean" },
        "stream.finish": { "stopReason": format!("oneOf:{}", stop_reasons.join("|")), "refusal": "string" },
        "contract.stream": { "maxRetries": "nonNegativeInteger", "extract": "boolean", "abortOnEarlyViolation": "boolean", "nullAsAbsent": "boolean" },
        "extractJson": { "repair": "boolean", "maxOutputBytes": "positiveInteger", "maxDepth": "positiveInteger" },
        "enrichSystemPrompt": { "templates": templates },
        "retryPrompt": { "templates": templates, "mode": "oneOf:full|patch" },
        "toolFeedback": { "tool": "string", "templates": templates },
        "submitResultTool": { "provider": "oneOf:openai|anthropic|generic", "name": "string", "description": "string", "draft": "draft", "patch": "boolean" },
        "checkSchema": { "draft": "draft", "provider": "oneOf:openai|anthropic", "formats": "customFormats", "resources": "resources" },
        "enforce": {
            "systemPrompt": "string",
            "messages": "messages",
            "task": "string",
            "maxRetries": "nonNegativeInteger",
            "onAttempt": "function",
            "templates": templates,
            "repair": "boolean",
            "abortOnEarlyViolation": "boolean",
            "runId": "string",
            "retry": "oneOf:full|patch",
        },
        "validateProviderStream": {
            "provider": provider,
            "tool": "string",
            "maxRetries": "nonNegativeInteger",
            "abortOnEarlyViolation": "boolean",
            "nullAsAbsent": "boolean",
            "onStatus": "function",
            "signal": "abortSignal",
        },
        "providerEvents": { "provider": provider },
        "checkOutputSchemaConfig": compile,
        "compareSchemas": { "draft": "draft", "strict": "boolean", "formats": "boolean", "resources": "resources" },
        "SchemaRegistry": { "draft": "draft", "strict": "boolean", "formats": "boolean" },
        "SchemaRegistry.add": { "path": "string" },
        "McpJsonSchemaValidator": { "draft": "draft", "strict": "boolean", "formats": "formats" },
    })
}

/// The options object of `Contract.compile`, as JSON.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsOptions {
    draft: Option<String>,
    strict: Option<bool>,
    formats: Option<JsFormats>,
    schema_id: Option<String>,
    agent_id: Option<String>,
    resources: Option<BTreeMap<String, Value>>,
    max_output_bytes: Option<usize>,
    max_depth: Option<usize>,
    raw_output_limit: Option<usize>,
    /// JavaScript's alone (whether the verdict tier may generate code): taken and ignored here.
    #[serde(rename = "codegen")]
    _codegen: Option<bool>,
}

/// `formats`: whether the built-in formats are asserted, or the custom formats by name (then the
/// built-in ones keep their default), as pkg/src/formats.js sends them.
#[derive(Deserialize)]
#[serde(untagged)]
enum JsFormats {
    Builtin(bool),
    Custom(BTreeMap<String, JsFormat>),
}

/// A custom format: a pattern's source, or the id of a JavaScript function (pkg/src/formats.js).
#[derive(Deserialize)]
#[serde(untagged)]
enum JsFormat {
    Pattern(String),
    Function(u32),
}

thread_local! {
    /// pkg/src/formats.js's `(id, string) => boolean` that runs format function `id`, and its
    /// `(id) => void` that forgets it; set again in each instance.
    pub(super) static FORMAT_CALLBACKS: RefCell<Option<(js_sys::Function, js_sys::Function)>> = const { RefCell::new(None) };
}

/// A JavaScript format function, by its id, held by the contract compiled with it (and shared
/// with the contract's streams): when the last of them goes, JavaScript is told to forget the
/// function. Only an id: the function itself stays on the JavaScript side (a `Contract` is `Send`).
struct JsFunction(u32);

impl JsFunction {
    fn callbacks() -> Option<(js_sys::Function, js_sys::Function)> {
        // Cloned out: the function may compile a contract, which sets them again.
        FORMAT_CALLBACKS.with(|c| c.borrow().clone())
    }

    /// JavaScript catches what the function throws, answers false and throws it after the call
    /// into the module that ran it.
    fn call(&self, s: &str) -> bool {
        let Some((call, _)) = JsFunction::callbacks() else { return false };
        call.call2(&JsValue::NULL, &JsValue::from(self.0), &JsValue::from_str(s)).is_ok_and(|v| v.as_bool() == Some(true))
    }
}

impl Drop for JsFunction {
    fn drop(&mut self) {
        if let Some((_, release)) = JsFunction::callbacks() {
            let _ = release.call1(&JsValue::NULL, &JsValue::from(self.0));
        }
    }
}

fn custom_formats(formats: BTreeMap<String, JsFormat>) -> BTreeMap<String, CustomFormat> {
    // Inserted one by one rather than collected: `collect` into a map sorts its input first, an
    // instance of the standard sort for this one call, and the names already come sorted.
    let mut out = BTreeMap::new();
    for (name, format) in formats {
        let format = match format {
            JsFormat::Pattern(source) => CustomFormat::Pattern(source),
            JsFormat::Function(id) => {
                let function = JsFunction(id);
                CustomFormat::function(move |s| function.call(s))
            }
        };
        out.insert(name, format);
    }
    out
}

fn option_error(message: String) -> SchemaError {
    SchemaError::single(SchemaIssue::new(SchemaErrorKind::InvalidOption, "", message))
}

pub(super) fn to_options(json: &str) -> Result<Options, SchemaError> {
    let js = if json.is_empty() { JsOptions::default() } else { read_options(json)? };
    let defaults = Options::default();
    let draft = match js.draft {
        None => None,
        Some(name) => Some(Draft::from_name(&name).ok_or_else(|| {
            option_error(format!(
                "unknown draft {name:?}: use \"draft4\", \"draft6\", \"draft7\", \"draft2019-09\", \"draft2020-12\" or \"jtd\""
            ))
        })?),
    };
    let (formats, custom_formats) = match js.formats {
        None => (defaults.formats, BTreeMap::new()),
        Some(JsFormats::Builtin(assert)) => (assert, BTreeMap::new()),
        Some(JsFormats::Custom(custom)) => (defaults.formats, custom_formats(custom)),
    };
    Ok(Options {
        draft,
        strict: js.strict.unwrap_or(defaults.strict),
        formats,
        custom_formats,
        schema_id: js.schema_id,
        agent_id: js.agent_id,
        resources: js.resources.unwrap_or_default(),
        limits: OutputLimits {
            max_output_bytes: js.max_output_bytes.unwrap_or(defaults.limits.max_output_bytes),
            max_depth: js.max_depth.unwrap_or(defaults.limits.max_depth),
        },
        raw_output_limit: js.raw_output_limit.unwrap_or(defaults.raw_output_limit),
        ..defaults
    })
}

/// Apart from `to_options` so that a compile without options (most) does not have V8 compile the
/// options' deserializer on first use (lazily compiled functions are compiled whole).
#[inline(never)]
fn read_options(json: &str) -> Result<JsOptions, SchemaError> {
    serde_json::from_str(json).map_err(|e| option_error(format!("invalid options: {e}")))
}

pub(super) fn schema_error(e: &SchemaError) -> JsValue {
    JsValue::from_str(&serde_json::to_string(e).unwrap_or_default())
}

pub(super) fn json_arg<T: serde::de::DeserializeOwned>(json: &str, what: &str) -> Result<T, JsError> {
    serde_json::from_str(json).map_err(|e| JsError::new(&format!("invalid {what}: {e}")))
}

