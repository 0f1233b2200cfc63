//! The schema tools' module: the editor's `checkSchema`, the load-time `checkOutputSchemaConfig`,
//! `compareSchemas` and `SchemaRegistry`, and the patch engine of `validateMerged`. They are a
//! second WebAssembly module (feature `tools-module`), which pkg/src/tools.js loads on their first
//! call, so that an agent that only validates never downloads or compiles them. The module carries its own copy of the compiler.

use super::options::{json_arg, schema_error, to_options};
use crate::agent::{config, tool};
use crate::cli;
use crate::editor::lint;
use crate::schema::error::SchemaError;
use crate::validator::draft::Draft;
use serde::Deserialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// The load-time checks of an output schema as a JSON array of diagnostics (schema given as
/// JSON text).
#[wasm_bindgen(js_name = checkOutputSchemaConfig)]
pub fn check_output_schema_config(schema_json: &str, options_json: &str) -> String {
    let options = match to_options(options_json) {
        Ok(o) => o,
        Err(e) => return config_error(e),
    };
    match crate::schema::contract::parse_schema_text(schema_json, &options) {
        Ok(schema) => serde_json::to_string(&config::check_output_schema_config(&schema, &options)).unwrap_or_default(),
        Err(e) => config_error(e),
    }
}

fn config_error(e: SchemaError) -> String {
    let d = config::ConfigDiagnostic { code: config::ConfigCode::InvalidSchema, pointer: String::new(), message: e.message, issues: e.issues };
    serde_json::to_string(&[d]).unwrap_or_default()
}

/// `checkSchema`: `{valid, draft, diagnostics}` as JSON; never throws for bad schema text.
#[wasm_bindgen(js_name = checkSchema)]
pub fn check_schema(text: &str, draft: Option<String>, provider: Option<String>, formats: Vec<String>, resources_json: &str) -> Result<String, JsError> {
    let draft = match draft {
        None => None,
        Some(name) => Some(Draft::from_name(&name).ok_or_else(|| JsError::new(&format!("unknown draft {name:?}")))?),
    };
    let provider = match provider.as_deref() {
        None => None,
        Some(p @ ("openai" | "anthropic")) => tool::Provider::from_name(p),
        Some(other) => return Err(JsError::new(&format!("unknown provider {other:?}: use \"openai\" or \"anthropic\""))),
    };
    let resources = if resources_json.is_empty() { BTreeMap::new() } else { json_arg(resources_json, "resources")? };
    let report = lint::check_schema(text, &lint::CheckOptions { draft, provider, formats, resources });
    Ok(serde_json::to_string(&report).unwrap_or_default())
}

/// `compareSchemas`: `{narrowed, widened, unknown}` as JSON, each change with its range in the
/// new schema's text. A schema that does not compile throws its `SchemaError`, its message
/// saying which of the two it is.
#[wasm_bindgen(js_name = compareSchemas)]
pub fn compare_schemas(old_text: &str, new_text: &str, options_json: &str) -> Result<String, JsValue> {
    let options = to_options(options_json).map_err(|e| schema_error(&e))?;
    match crate::schema::compare::compare_texts(old_text, new_text, &options) {
        Ok(comparison) => Ok(serde_json::to_string(&comparison).unwrap_or_default()),
        Err((which, mut e)) => {
            e.message = format!("{which} schema: {}", e.message);
            Err(schema_error(&e))
        }
    }
}

/// One schema of a `SchemaRegistry`, as the JS class keeps it.
#[derive(Deserialize)]
struct JsRegistryEntry {
    text: String,
    path: Option<String>,
}

/// The registry the JS class describes: its schemas (`[{text, path}]`) and options. The class
/// keeps the schemas itself, so a registry outlives a re-created module instance.
fn registry_of(entries_json: &str, options_json: &str) -> Result<crate::schema::registry::Registry, JsValue> {
    let options = to_options(options_json).map_err(|e| schema_error(&e))?;
    let entries: Vec<JsRegistryEntry> = json_arg(entries_json, "registry entries")?;
    let mut registry = crate::schema::registry::Registry::new(options);
    for e in entries {
        registry.add(&e.text, e.path.as_deref());
    }
    Ok(registry)
}

/// `SchemaRegistry.add`: the `$id` of schema text (`null` when it has none or is not JSON).
#[wasm_bindgen(js_name = registryIdOf)]
pub fn registry_id_of(text: &str, options_json: &str) -> Result<Option<String>, JsValue> {
    Ok(registry_of("[]", options_json)?.add(text, None))
}

/// `SchemaRegistry.check`: the diagnostics as JSON.
#[wasm_bindgen(js_name = registryCheck)]
pub fn registry_check(entries_json: &str, options_json: &str) -> Result<String, JsValue> {
    Ok(serde_json::to_string(&registry_of(entries_json, options_json)?.check()).unwrap_or_default())
}

/// `SchemaRegistry.versions`: the versions of a name as JSON, oldest first.
#[wasm_bindgen(js_name = registryVersions)]
pub fn registry_versions(entries_json: &str, options_json: &str, name: &str) -> Result<String, JsValue> {
    Ok(serde_json::to_string(&registry_of(entries_json, options_json)?.versions(name)).unwrap_or_default())
}

/// `SchemaRegistry.contract`: `{schema, resources}` for the schema with this `$id` (the other
/// schemas by `$id`), for the JS class to compile as any contract; `null` when none has it.
#[wasm_bindgen(js_name = registrySchema)]
pub fn registry_schema(entries_json: &str, options_json: &str, id: &str) -> Result<String, JsValue> {
    let registry = registry_of(entries_json, options_json)?;
    let found = registry.schema(id).map(|(schema, resources)| serde_json::json!({"schema": schema, "resources": resources}));
    Ok(serde_json::to_string(&found).unwrap_or_default())
}

/// The option table (src/bindings/options.rs), as JSON: scripts/build.sh writes it into the main
/// module's glue as `OPTION_TABLE`; the package never calls it.
#[wasm_bindgen(js_name = optionTable)]
pub fn option_table() -> String {
    super::options::option_table().to_string()
}

/// What the adapters of pkg/src/ need from the module without calling it, as JSON:
/// scripts/build.sh writes it into the main module's glue as `ADAPTERS`, so that the main module
/// carries none of it; the package never calls this. `aiSdkMismatch`: the text toAiSdkSchema's
/// error puts before the violations (src/report/canonical.rs). `ownTargets`: by draft name, the
/// Standard JSON Schema target a contract's JSON Schema already is, and that target's `$schema`
/// (src/schema/target.rs): such a document, naming that URI or none, needs no conversion.
#[wasm_bindgen(js_name = adapterConstants)]
pub fn adapter_constants() -> String {
    use crate::schema::target::Target;
    let own_targets: serde_json::Map<String, serde_json::Value> = crate::validator::draft::ALL_DRAFTS
        .iter()
        .chain(std::iter::once(&Draft::Jtd))
        .filter_map(|&draft| {
            let written = if draft == Draft::Jtd { Draft::Draft202012 } else { draft };
            let target = Target::of_draft(written)?;
            Some((draft.name().to_string(), serde_json::json!({ "target": target.name(), "uri": written.meta_schema_uri() })))
        })
        .collect();
    serde_json::json!({ "aiSdkMismatch": crate::report::canonical::AI_SDK_MISMATCH, "ownTargets": own_targets }).to_string()
}

/// `contract['~standard'].jsonSchema.input/output({ target })` (src/schema/target.rs): the
/// contract's JSON Schema (`schema_json`, a document of the contract's `draft`; a JTD contract's
/// JSON Schema form is Draft 2020-12's) written for `target`, as JSON text. An unknown target, or
/// a keyword the target has no form for, throws its message.
#[wasm_bindgen(js_name = standardJsonSchema)]
pub fn standard_json_schema(schema_json: &str, draft: &str, target: &str) -> Result<String, JsError> {
    use crate::schema::target::{to_target, unknown_target_message, Target};
    let target = Target::from_name(target).ok_or_else(|| JsError::new(&unknown_target_message(target)))?;
    let draft = match Draft::from_name(draft) {
        Some(Draft::Jtd) => Draft::Draft202012,
        Some(d) => d,
        None => return Err(JsError::new(&format!("unknown draft {draft:?}"))),
    };
    let schema: serde_json::Value = json_arg(schema_json, "schema")?;
    to_target(&schema, draft, target).map(|v| v.to_string()).map_err(|e| JsError::new(&e.message))
}

/// What pkg/bin/output-contract.mjs has read for `runCli`: files by path (`{text}` or
/// `{error}`) and folders by path (`{entries: [[path, isFolder]]}` or `{error}`).
#[derive(Deserialize, Default)]
struct CliInputs {
    #[serde(default)]
    files: BTreeMap<String, CliRead<String>>,
    #[serde(default)]
    dirs: BTreeMap<String, CliRead<Vec<(String, bool)>>>,
}

#[derive(Deserialize)]
struct CliRead<T> {
    #[serde(alias = "entries")]
    text: Option<T>,
    error: Option<String>,
}

impl<T: Clone> CliRead<T> {
    fn get(&self) -> Result<T, String> {
        self.text.clone().ok_or_else(|| self.error.clone().unwrap_or_default())
    }
}

/// The command's reads answered from what JavaScript read; what it has not read yet is noted
/// (and read as empty) so that the command can be run again with it.
struct CliReads {
    inputs: CliInputs,
    stdin: Option<Vec<u8>>,
    need_files: Vec<String>,
    need_dirs: Vec<String>,
    need_stdin: bool,
}

impl cli::Io for CliReads {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        match self.inputs.files.get(path) {
            Some(read) => read.get(),
            None => {
                self.need_files.push(path.to_string());
                Ok(String::new())
            }
        }
    }

    /// In the chunks the native binary reads, so that the stream sees what it sees there.
    fn read_stdin(&mut self, chunk: &mut dyn FnMut(&[u8])) -> Result<(), String> {
        match &self.stdin {
            Some(bytes) => bytes.chunks(64 * 1024).for_each(chunk),
            None => self.need_stdin = true,
        }
        Ok(())
    }

    fn list_dir(&mut self, dir: &str) -> Result<Vec<(String, bool)>, String> {
        match self.inputs.dirs.get(dir) {
            Some(read) => read.get(),
            None => {
                self.need_dirs.push(dir.to_string());
                Ok(Vec::new())
            }
        }
    }
}

/// `runCli`: the `output-contract` command (src/cli) for pkg/bin/output-contract.mjs, which
/// does its reading: `args_json` its arguments, `inputs_json` what has been read so far
/// (`CliInputs`), `stdin` standard input's bytes once asked for. Answers `{need: {files, dirs,
/// stdin}}` while the command asks for what has not been read, then `{stdout, stderr, code}`.
#[wasm_bindgen(js_name = runCli)]
pub fn run_cli(args_json: &str, inputs_json: &str, stdin: Option<Vec<u8>>) -> Result<String, JsError> {
    let args: Vec<String> = json_arg(args_json, "arguments")?;
    let inputs: CliInputs = json_arg(inputs_json, "inputs")?;
    let mut reads = CliReads { inputs, stdin, need_files: Vec::new(), need_dirs: Vec::new(), need_stdin: false };
    let outcome = cli::run(&args, &mut reads);
    let answer = if reads.need_files.is_empty() && reads.need_dirs.is_empty() && !reads.need_stdin {
        serde_json::json!({"stdout": outcome.stdout, "stderr": outcome.stderr, "code": outcome.code})
    } else {
        serde_json::json!({"need": {"files": reads.need_files, "dirs": reads.need_dirs, "stdin": reads.need_stdin}})
    };
    Ok(answer.to_string())
}

/// `validateMerged`'s merge (src/agent/patch.rs, `merge`): `base` and `patch` as JSON text, or
/// model text whose JSON is extracted (`*_model`), within the contract's limits. `{"merged"}` or
/// `{"violations", "raw"}` as JSON; the main module validates the one and reports the other.
/// Here rather than in the main module, whose size budget the engine would overrun.
#[wasm_bindgen(js_name = applyPatch)]
pub fn apply_patch(base: &str, base_model: bool, patch: &str, patch_model: bool, format: &str, max_output_bytes: usize, max_depth: usize) -> Result<String, JsError> {
    use crate::agent::patch::{merge, MergeInput, PatchFormat};
    let format = PatchFormat::from_name(format).ok_or_else(|| JsError::new("format must be \"json-patch\" or \"merge-patch\""))?;
    let input = |text, model| if model { MergeInput::Extract(text) } else { MergeInput::Text(text) };
    let limits = crate::check::output::OutputLimits { max_output_bytes, max_depth };
    let json = match merge(input(base, base_model), input(patch, patch_model), format, limits) {
        Ok(merged) => serde_json::json!({ "merged": merged }),
        Err((violations, raw)) => serde_json::json!({ "violations": violations, "raw": raw }),
    };
    Ok(json.to_string())
}
