//! The WebAssembly bindings: the only module that knows about JavaScript. Schemas, outputs and
//! results cross the boundary as JSON text, which V8 parses and prints faster than any
//! value-by-value conversion; pkg/src/api.js turns them into the public JS API.

use super::boundary::*;
use crate::schema::cache::ContractCache;
use crate::json::sourcemap;
use crate::check::extract::{self, ExtractOptions, Offsets};
use crate::agent::prompt::{self, Templates};
use crate::report::render;
use crate::agent::tool::{self, ToolCallOptions};
use crate::schema::contract::{Contract, Options};
use crate::validator::draft::Draft;
use crate::schema::error::SchemaError;
use crate::check::output::OutputLimits;
use crate::report::canonical::{self, OutputValidationError};
use crate::agent::stream::{Mark, OutputStream, StopReason, StreamOptions, StreamOutcome};
use crate::agent::provider::{EventDecoder, Provider, ProviderOptions, ProviderStream};
use crate::report::violation::Violation;
use super::options::{json_arg, schema_error, to_options, FORMAT_CALLBACKS};
use serde::Deserialize;
use serde_json::Value;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    static CACHE: RefCell<ContractCache> = RefCell::new(ContractCache::default());
}

#[wasm_bindgen(js_name = setFormatCallbacks)]
pub fn set_format_callbacks(call: js_sys::Function, release: js_sys::Function) {
    FORMAT_CALLBACKS.with(|c| *c.borrow_mut() = Some((call, release)));
}

/// Why `source` is not a pattern the library can match (pkg/src/formats.js tells it as an
/// OptionError naming the format, before compiling); `undefined` when it is one.
#[wasm_bindgen(js_name = patternError)]
pub fn pattern_error(source: &str) -> Option<String> {
    crate::validator::ecma::Pattern::new(source).err()
}

/// Compiles (or fetches from the instance's cache) a contract. Throws the `SchemaError` as JSON
/// text, which the JS wrapper turns into a real `SchemaError`.
#[wasm_bindgen(js_name = compileContract)]
pub fn compile_contract(schema_json: &[u8], options_json: &str) -> Result<WasmContract, JsValue> {
    let schema_json = utf8(schema_json);
    #[cfg(feature = "test-trap")]
    test_trap(&schema_json);
    let options = to_options(options_json).map_err(|e| schema_error(&e))?;
    let schema = parse_schema(&schema_json, &options).map_err(|e| schema_error(&e))?;
    CACHE
        .with(|cache| cache.borrow_mut().compile(&schema, &options))
        .map(|contract| WasmContract { contract })
        .map_err(|e| schema_error(&e))
}

#[cfg(feature = "test-trap")]
#[allow(clippy::panic)]
fn test_trap(schema_json: &str) {
    if schema_json.contains("output-contract test trap: panic") {
        panic!("deliberate test panic");
    }
    if schema_json.contains("output-contract test trap: unreachable") {
        core::arch::wasm32::unreachable();
    }
}

fn parse_schema(text: &str, options: &Options) -> Result<Value, SchemaError> {
    // The same parser and limits as `Contract::compile_text`, so errors carry line and column.
    crate::schema::contract::parse_schema_text(text, options)
}

#[wasm_bindgen(js_name = setCacheCapacity)]
pub fn set_cache_capacity(capacity: usize) {
    CACHE.with(|cache| cache.borrow_mut().set_capacity(capacity));
}

/// `{"entries","capacity","hits","misses"}`.
#[wasm_bindgen(js_name = cacheStats)]
pub fn cache_stats() -> String {
    CACHE.with(|cache| {
        let s = cache.borrow().stats();
        serde_json::json!({"entries": s.entries, "capacity": s.capacity, "hits": s.hits, "misses": s.misses}).to_string()
    })
}

#[wasm_bindgen]
pub struct WasmContract {
    contract: Contract,
}

#[wasm_bindgen]
impl WasmContract {
    #[wasm_bindgen(getter, js_name = schemaId)]
    pub fn schema_id(&self) -> String {
        self.contract.schema_id().to_string()
    }

    #[wasm_bindgen(getter, js_name = agentId)]
    pub fn agent_id(&self) -> Option<String> {
        self.contract.agent_id().map(str::to_string)
    }

    /// The schema as compiled, as JSON text.
    #[wasm_bindgen(getter, js_name = schemaJson)]
    pub fn schema_json(&self) -> String {
        self.contract.schema().to_string()
    }

    /// The schema as JSON Schema (a JTD schema's JSON Schema form), as JSON text.
    #[wasm_bindgen(getter, js_name = jsonSchemaJson)]
    pub fn json_schema_json(&self) -> String {
        self.contract.json_schema().to_string()
    }

    #[wasm_bindgen(getter)]
    pub fn draft(&self) -> String {
        self.contract.draft().name().to_string()
    }

    /// Why the schema is read in its draft, as JSON text: `{source, message}` and, by source,
    /// `keyword` and `pointer` (inferred) or `uri` (a dialect or an unknown `$schema`).
    #[wasm_bindgen(getter, js_name = draftReason)]
    pub fn draft_reason(&self) -> String {
        use crate::json::writer::{write_key, write_str};
        use crate::schema::contract::DraftReason;
        let reason = self.contract.draft_reason();
        let mut out = String::new();
        write_key(&mut out, true, "source");
        write_str(&mut out, reason.source());
        write_key(&mut out, false, "message");
        write_str(&mut out, &reason.message(self.contract.draft()));
        let fields: [(&str, &str); 2] = match reason {
            DraftReason::Inferred { keyword, pointer } => [("keyword", keyword), ("pointer", pointer)],
            DraftReason::Dialect { uri, .. } | DraftReason::MetaSchema { uri } | DraftReason::OptionForUnknownSchema { uri } => [("uri", uri), ("", "")],
            _ => [("", ""); 2],
        };
        for (name, value) in fields.iter().filter(|(name, _)| !name.is_empty()) {
            write_key(&mut out, false, name);
            write_str(&mut out, value);
        }
        out.push('}');
        out
    }

    /// Validates the output text in the input area (its first `len` bytes, see `input_area`).
    /// `undefined` when valid, else the canonical error as JSON, whose `raw_output` is empty when
    /// it is the whole text, and the cut marker alone with `raw_output_head` (the head's length
    /// in bytes) when it is a head (JS puts the text back). `refused`: the JS tier found the
    /// value invalid (the answer is the same, found without the module's own verdict first).
    #[wasm_bindgen(js_name = validateText)]
    pub fn validate_text(&self, len: usize, refused: bool) -> Option<String> {
        with_input(len, |text| check_text(&self.contract, text, refused))
    }

    /// The compiled schema's plan (src/validator/plan.rs) with the output limits `validateText`
    /// enforces (`"limits":[maxOutputBytes,maxDepth]`), for the verdict tier (pkg/src/tier/),
    /// which asks for it once per contract.
    #[wasm_bindgen(getter)]
    pub fn plan(&self) -> String {
        let limits = self.contract.limits();
        let plan = crate::validator::plan::plan(self.contract.validator());
        format!("{{\"limits\":[{},{}],{}", limits.max_output_bytes, limits.max_depth, plan.get(1..).unwrap_or_default())
    }

    /// Whether the JSON value in the input area satisfies node `node` of the compiled schema
    /// alone: the tier's answer for a node it does not carry. A text that does not parse within
    /// the limits is false (the tier then takes the whole value to `validateText`).
    #[wasm_bindgen(js_name = nodeIsValid)]
    pub fn node_is_valid(&self, node: usize, len: usize) -> bool {
        with_input(len, |text| {
            crate::check::output::parse(text, self.contract.limits()).is_ok_and(|p| self.contract.validator().node_is_valid(node, &p.value))
        })
    }

    /// Extracts the JSON from model text (in the input area), then validates it:
    /// `{extraction, error?}` as JSON, the extraction's offsets in UTF-16 code units.
    #[wasm_bindgen(js_name = extractAndValidate)]
    pub fn extract_and_validate(&self, len: usize, repair: bool) -> String {
        with_input(len, |text| {
            let (extraction, result) = self.contract.extract_and_validate(text, repair);
            // The error as its own text (`to_json_text`), not converted to a value first: that
            // would link a serializer into values for every type of the error.
            let mut out = format!("{{\"extraction\":{}", extraction.to_json(text, Offsets::Utf16));
            if let Err(e) = result {
                out.push_str(",\"error\":");
                out.push_str(&e.to_json_text());
            }
            out.push('}');
            out
        })
    }

    /// Tool-call arguments (JSON text, in the input area): `{valid, data}` or `{valid, error}` as
    /// JSON. The data is returned too, since `nullAsAbsent` may have removed nulls.
    #[wasm_bindgen(js_name = validateToolCall)]
    pub fn validate_tool_call(&self, len: usize, null_as_absent: bool) -> String {
        let result = with_input(len, |args| tool::validate_tool_call_text(&self.contract, args, ToolCallOptions { null_as_absent }));
        // Written around the parts' own texts, as in `extract_and_validate`.
        match result {
            Ok(data) => format!("{{\"valid\":true,\"data\":{data}}}"),
            Err(e) => format!("{{\"valid\":false,\"error\":{}}}", e.to_json_text()),
        }
    }

    /// A stream validator for this contract: `{maxRetries, extract, abortOnEarlyViolation,
    /// nullAsAbsent}` as JSON, and the retry prompt's templates as JSON (empty: the defaults;
    /// only `enforce` passes them).
    pub fn stream(&self, options_json: &str, templates_json: &str) -> Result<WasmStream, JsError> {
        let js: JsStreamOptions = optional_json(options_json, "stream options")?;
        if js.tool.is_some() {
            return Err(JsError::new("invalid stream options: `tool` is an option of provider streams"));
        }
        let options = js.stream_options();
        let stream = OutputStream::new(&self.contract, options);
        if templates_json.is_empty() {
            return Ok(WasmStream { stream, outcome: String::new() });
        }
        Ok(WasmStream { stream: stream.with_templates(templates(templates_json)?), outcome: String::new() })
    }
}

/// The run failure envelope (`status: "failed"`) for a canonical error given as JSON, after
/// `retries` retries (without it, as many as a stream allows by default).
#[wasm_bindgen(js_name = failureEnvelope)]
pub fn failure_envelope(error_json: &str, run_id: Option<String>, retries: Option<usize>) -> Result<String, JsError> {
    let error: OutputValidationError = parse_error(error_json)?;
    let retries = retries.unwrap_or(StreamOptions::default().max_retries);
    Ok(canonical::failure_envelope(&error, run_id.as_deref(), retries).to_string())
}

fn parse_error(json: &str) -> Result<OutputValidationError, JsError> {
    serde_json::from_str(json).map_err(|e| JsError::new(&format!("not an output_validation_failed error: {e}")))
}

/// The text a parent agent receives for a child's `{result_text?, result_data?}` given as JSON.
#[wasm_bindgen(js_name = formatChildResult)]
pub fn format_child_result(result_json: &str) -> Result<String, JsError> {
    let v: Value = serde_json::from_str(result_json).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(canonical::format_child_result(v.get("result_text").and_then(Value::as_str), v.get("result_data")))
}

/// `extractJson`: the extraction as JSON, offsets in UTF-16 code units (JS string indices).
#[wasm_bindgen(js_name = extractJson)]
pub fn extract_json(text: &str, repair: bool, max_output_bytes: Option<usize>, max_depth: Option<usize>) -> String {
    let defaults = OutputLimits::default();
    let limits = OutputLimits {
        max_output_bytes: max_output_bytes.unwrap_or(defaults.max_output_bytes),
        max_depth: max_depth.unwrap_or(defaults.max_depth),
    };
    extract::extract_json(text, &ExtractOptions { repair, limits }).to_json(text, Offsets::Utf16).to_string()
}

fn templates(json: &str) -> Result<Templates, JsError> {
    optional_json(json, "templates")
}

/// Options given as JSON text, the empty text meaning none given.
fn optional_json<T: serde::de::DeserializeOwned + Default>(json: &str, what: &str) -> Result<T, JsError> {
    if json.is_empty() {
        return Ok(T::default());
    }
    json_arg(json, what)
}

/// The options of `stream()` and of provider streams (`tool` is the provider streams' own,
/// `extract` the text streams'), over `StreamOptions`' defaults.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsStreamOptions {
    max_retries: Option<usize>,
    extract: Option<bool>,
    abort_on_early_violation: Option<bool>,
    null_as_absent: Option<bool>,
    tool: Option<String>,
}

impl JsStreamOptions {
    fn stream_options(&self) -> StreamOptions {
        let defaults = StreamOptions::default();
        StreamOptions {
            max_retries: self.max_retries.unwrap_or(defaults.max_retries),
            extract: self.extract.unwrap_or(defaults.extract),
            abort_on_early_violation: self.abort_on_early_violation.unwrap_or(defaults.abort_on_early_violation),
            null_as_absent: self.null_as_absent.unwrap_or(defaults.null_as_absent),
        }
    }
}

#[wasm_bindgen(js_name = enrichSystemPrompt)]
pub fn enrich_system_prompt(system_prompt: &str, schema_json: &str, templates_json: &str) -> Result<String, JsError> {
    let schema: Value = if schema_json.is_empty() { Value::Null } else { json_arg(schema_json, "schema")? };
    Ok(prompt::enrich_system_prompt(system_prompt, &schema, &templates(templates_json)?))
}

#[wasm_bindgen(js_name = retryPrompt)]
pub fn retry_prompt(violations_json: &str, schema_json: &str, templates_json: &str) -> Result<String, JsError> {
    retry_prompt_in(violations_json, schema_json, templates_json, prompt::retry_prompt_with)
}

fn retry_prompt_in(violations_json: &str, schema_json: &str, templates_json: &str, write: fn(&[Violation], &Value, &Templates) -> String) -> Result<String, JsError> {
    let violations: Vec<Violation> = json_arg(violations_json, "violations")?;
    let schema: Value = json_arg(schema_json, "schema")?;
    Ok(write(&violations, &schema, &templates(templates_json)?))
}

#[wasm_bindgen(js_name = toolFeedback)]
pub fn tool_feedback(violations_json: &str, tool_name: Option<String>, templates_json: &str) -> Result<String, JsError> {
    let violations: Vec<Violation> = json_arg(violations_json, "violations")?;
    let name = tool_name.unwrap_or_else(|| prompt::DEFAULT_TOOL.to_string());
    Ok(prompt::tool_feedback(&violations, &name, &templates(templates_json)?))
}

/// `{tool, changes, validateOptions}` as JSON.
#[wasm_bindgen(js_name = submitResultTool)]
pub fn submit_result_tool(schema_json: &str, provider: &str, name: Option<String>, description: Option<String>, draft: Option<String>) -> Result<String, JsError> {
    let schema: Value = json_arg(schema_json, "schema")?;
    let provider = tool::Provider::from_name(provider)
        .ok_or_else(|| JsError::new(&format!("unknown provider {provider:?}: use \"openai\", \"anthropic\" or \"generic\"")))?;
    let draft = match draft {
        Some(name) => Draft::from_name(&name).ok_or_else(|| JsError::new(&format!("unknown draft {name:?}")))?,
        None => crate::validator::draft::DEFAULT_DRAFT,
    };
    let def = tool::submit_result_tool_in(&schema, draft, provider, name.as_deref(), description.as_deref());
    Ok(serde_json::to_string(&def).unwrap_or_default())
}

/// `locateJson`: the text ranges of pointers in a JSON text, as JSON (`null` for text that is not JSON).
#[wasm_bindgen(js_name = locateJson)]
pub fn locate_json(text: &str, pointers: Vec<String>) -> String {
    serde_json::to_string(&sourcemap::locate(text, &pointers)).unwrap_or_default()
}

#[wasm_bindgen]
pub struct WasmStream {
    stream: OutputStream,
    /// The outcome of the last `finish` as JSON, until JS takes it (`outcome`): empty when it
    /// was a valid one whose data JS builds.
    outcome: String,
}

/// `validateText`'s answer for `text`.
fn check_text(contract: &Contract, text: &str, refused: bool) -> Option<String> {
    // JS parses the data itself when it needs it; the valid path builds no tree here.
    let violations = contract.text_violations(text, refused).err()?;
    // JS holds the text already: an escaped copy of it was most of the error's JSON, encoded
    // here, decoded and parsed again there (a 4 KB head cost more than the rest of a 10 KB
    // output's error). So `raw_output` (the text cut to the limit, `render::truncate_text`) is
    // never copied: the whole text is sent as "", and a cut one as its marker alone plus
    // `raw_output_head`, the head's length in bytes.
    let cap = contract.raw_output_limit();
    let head = (text.len() > cap).then(|| render::cut_end(text, cap));
    let marker = head.map(|end| render::with_marker("", text.len() - end)).unwrap_or_default();
    let mut json = contract.failure_with_raw_output(violations, marker).to_json_text();
    if let Some(len) = head {
        if json.pop() == Some('}') {
            json.push_str(",\"raw_output_head\":");
            crate::json::path::push_index(&mut json, len);
            json.push('}');
        }
    }
    Some(json)
}

thread_local! {
    /// Where JS writes a text before the call that reads it (see `input_area`).
    static INPUT: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}


/// The address in linear memory of the input area, after making it at least `capacity` bytes
/// long (what it holds is kept). JS writes a text there with `TextEncoder.encodeInto` and passes
/// its length: that costs a seventh of `encode` plus the copy wasm-bindgen makes of a byte-array
/// argument (1.3 µs of a 1 KB output's 7 µs, measured).
#[wasm_bindgen(js_name = inputArea)]
pub fn input_area(capacity: usize) -> usize {
    INPUT.with(|cell| {
        let mut area = cell.take();
        if area.len() < capacity {
            area.resize(capacity, 0);
        }
        let address = area.as_mut_ptr() as usize;
        cell.set(area);
        address
    })
}


/// Room for a chunk shorter than `SHORT_CHUNK`: at most 3 UTF-8 bytes a UTF-16 unit.
const CHUNK_ROOM: usize = SHORT_CHUNK * 3;

thread_local! {
    /// Where JS writes a short stream chunk (see `chunk_area`): made `CHUNK_ROOM` long on the
    /// first ask and never resized, so its address holds. A vector, not an array in the cell: a
    /// push borrows the bytes it is given (`Cell::take`, three words), where the array would be
    /// copied whole on every push.
    static CHUNK: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The address in linear memory of the chunk area. Unlike the input area it never moves, so JS
/// asks once per instance and then writes each short chunk there with a loop over its characters
/// and one call (`pushChunk`): a `&str` argument costs the allocator's malloc and free on every
/// chunk, and the input area a call for its address (3% of a 100 KB stream in 20-byte chunks).
#[wasm_bindgen(js_name = chunkArea)]
pub fn chunk_area() -> usize {
    CHUNK.with(|cell| {
        let mut area = cell.take();
        area.resize(CHUNK_ROOM, 0);
        let address = area.as_mut_ptr() as usize;
        cell.set(area);
        address
    })
}

thread_local! {
    /// Where a push of a stream that tracks marks writes them for JS to read: their count, then
    /// a kind and a byte offset each (`MARK_` constants).
    static MARKS: [std::cell::Cell<u32>; 1 + 2 * MARKS_ROOM] = const { [const { std::cell::Cell::new(0) }; 1 + 2 * MARKS_ROOM] };
}

/// The address in linear memory of the marks area (it never moves). JS reads the marks of a push
/// there, without a call per push.
#[wasm_bindgen(js_name = marksArea)]
pub fn marks_area() -> usize {
    MARKS.with(|area| area.as_ptr() as usize)
}

/// Writes the stream's first marks into the marks area (as many as it holds) and forgets them;
/// the count word says whether more remain (`MARKS_MORE`: JS asks for them with `moreMarks`).
fn write_marks(stream: &mut OutputStream) {
    let marks = stream.marks();
    let n = marks.len().min(MARKS_ROOM);
    MARKS.with(|area| {
        for (i, mark) in marks.iter().take(n).enumerate() {
            let (kind, at) = match *mark {
                Mark::Open { array: false, at } => (MARK_OBJECT, at),
                Mark::Open { array: true, at } => (MARK_ARRAY, at),
                Mark::Close(at) => (MARK_CLOSE, at),
                Mark::Cut(at) => (MARK_CUT, at),
            };
            if let (Some(k), Some(offset)) = (area.get(1 + 2 * i), area.get(2 + 2 * i)) {
                k.set(kind);
                // Offsets stay below the output size limit, which a u32 holds.
                offset.set(u32::try_from(at).unwrap_or(u32::MAX));
            }
        }
        if let Some(count) = area.first() {
            // n ≤ MARKS_ROOM, far below the flag's bit.
            count.set(n as u32 | if marks.len() > n { MARKS_MORE } else { 0 });
        }
    });
    stream.take_marks(n);
}

/// `f` of the first `len` bytes of the input area. The area is taken out while `f` runs, so
/// nothing `f` does can move it.
fn with_input_bytes<R>(len: usize, f: impl FnOnce(&[u8]) -> R) -> R {
    let area = INPUT.with(std::cell::Cell::take);
    let result = f(area.get(..len).unwrap_or_default());
    if area.len() <= INPUT_KEPT {
        INPUT.with(|cell| cell.set(area));
    }
    result
}

/// `with_input_bytes`, the bytes read as text (see `utf8`).
fn with_input<R>(len: usize, f: impl FnOnce(&str) -> R) -> R {
    with_input_bytes(len, |bytes| f(&utf8(bytes)))
}

/// Whole texts cross the boundary as UTF-8 bytes that JS encoded with `TextEncoder` (into the
/// input area, or as a byte-array argument):
/// wasm-bindgen copies a `&str` argument one UTF-16 unit at a time in JS, which costs as much as
/// `JSON.parse` of the same text (~2 ns a character in V8), and `TextEncoder` is ~30× faster.
/// Its output is always UTF-8 (a lone surrogate becomes U+FFFD, as wasm-bindgen's own encoding
/// does), so this borrows; the replacement only guards against a direct caller passing other bytes.
/// `str::from_utf8` first: it checks ASCII a word at a time, where the lossy decoder goes byte by
/// byte (a third of a valid output's time in the module, before this).
fn utf8(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

#[wasm_bindgen]
impl WasmStream {
    /// Appends UTF-8 bytes; returns the status packed in one number (see `packed_status`). The
    /// violations are read as JSON only when their number changes.
    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> f64 {
        self.stream.push_quiet(chunk);
        self.marks_out(false)
    }

    /// The status after a push, its marks (if any are tracked) written out or dropped: negative
    /// (`-1 - status`) when the push wrote marks, so that JS reads the area only then.
    fn marks_out(&mut self, write: bool) -> f64 {
        if self.stream.marks().is_empty() {
            return self.packed_status();
        }
        if !write {
            self.stream.take_marks(usize::MAX);
            return self.packed_status();
        }
        write_marks(&mut self.stream);
        -1.0 - self.packed_status()
    }

    /// The next marks of the last push, into the marks area (see `write_marks`).
    #[wasm_bindgen(js_name = moreMarks)]
    pub fn more_marks(&mut self) {
        write_marks(&mut self.stream);
    }

    /// `pushBytes` of the first `len` bytes of the input area (a string chunk, see `input_area`);
    /// with `marks`, the push's marks go to the marks area.
    #[wasm_bindgen(js_name = pushInput)]
    pub fn push_input(&mut self, len: usize, marks: bool) -> f64 {
        with_input_bytes(len, |chunk| self.stream.push_quiet(chunk));
        self.marks_out(marks)
    }

    /// `pushInput` of the first `len` bytes of the chunk area (a short string chunk, see
    /// `chunk_area`).
    #[wasm_bindgen(js_name = pushChunk)]
    pub fn push_chunk(&mut self, len: usize, marks: bool) -> f64 {
        let area = CHUNK.with(std::cell::Cell::take);
        self.stream.push_quiet(area.get(..len).unwrap_or_default());
        CHUNK.with(|cell| cell.set(area));
        // A push that made no marks answers here, its status inlined (see `status_inline`).
        if self.stream.marks().is_empty() {
            return status_inline(&self.stream);
        }
        self.marks_out(marks)
    }

    /// Starts over as a new stream of the same contract and options (no templates): JS keeps a
    /// freed stream for the contract's next one of the same options, which then costs no new
    /// object on either side.
    pub fn renew(&mut self) {
        self.stream.renew();
        self.outcome.clear();
    }

    /// From now on, pushes record where the values of the top levels begin and end (JS builds the
    /// data from the text as it arrives: `Mark`).
    #[wasm_bindgen(js_name = trackMarks)]
    pub fn track_marks(&mut self) {
        self.stream.track_marks();
    }

    #[wasm_bindgen(getter)]
    pub fn bytes(&self) -> usize {
        self.stream.bytes()
    }

    #[wasm_bindgen(getter)]
    pub fn attempt(&self) -> usize {
        self.stream.attempt()
    }

    #[wasm_bindgen(getter)]
    pub fn complete(&self) -> bool {
        self.stream.is_complete()
    }

    #[wasm_bindgen(getter)]
    pub fn aborted(&self) -> bool {
        self.stream.is_aborted()
    }

    /// Whether the stream has reached its final outcome (valid, hard-complete or refused): no
    /// attempt follows, and pushes and finishes are refused (pkg/src/api.js tells which outcome).
    #[wasm_bindgen(getter)]
    pub fn ended(&self) -> bool {
        self.stream.is_done()
    }

    fn not_ended(&self) -> Result<(), JsError> {
        if self.stream.is_done() {
            return Err(JsError::new("the stream has ended: create a new one with contract.stream()"));
        }
        Ok(())
    }

    fn packed_status(&self) -> f64 {
        packed_status(&self.stream)
    }

    /// The early violations of this attempt as JSON.
    #[wasm_bindgen(js_name = earlyViolations)]
    pub fn early_violations(&self) -> String {
        serde_json::to_string(self.stream.early_violations()).unwrap_or_default()
    }

    /// What extraction skipped in this attempt (`[{start, end, place}]`, byte offsets) as JSON.
    pub fn skipped(&self) -> String {
        serde_json::to_string(&self.stream.skipped()).unwrap_or_default()
    }

    /// Changes to the partial value since the last call, as JSON.
    pub fn changes(&mut self) -> String {
        serde_json::to_string(&self.stream.changes()).unwrap_or_default()
    }

    /// The partial value as JSON text (`undefined` before any value has started).
    pub fn partial(&mut self) -> Option<String> {
        self.stream.partial().map(|v| v.to_string())
    }

    /// Ends the attempt; `stop_reason` as the providers say it (`stop`, `length`, `refusal`, …).
    /// Without `with_data`, a valid outcome leaves its `data` to JS (which has the text) and is
    /// answered by its attempt alone (≥ 1); any other outcome answers 0 and is read as JSON with
    /// `outcome`. The end of a valid stream then crosses no text either way: its JSON was most of
    /// what the end of a short output cost. With `with_data`, a valid outcome's JSON holds its
    /// data as the value's text where that is what the data parses from (`with_data_text`).
    pub fn finish(&mut self, stop_reason: Option<String>, refusal: Option<String>, with_data: bool) -> Result<f64, JsError> {
        self.not_ended()?;
        let reason = stop_reason_of(stop_reason.as_deref())?;
        Ok(match self.stream.finish_with(reason, refusal.as_deref(), false) {
            StreamOutcome::Valid { attempt, .. } if !with_data => attempt as f64,
            outcome => {
                self.outcome = with_data_text(serde_json::to_string(&outcome).unwrap_or_default(), self.stream.data_text());
                0.0
            }
        })
    }

    /// The outcome of the last `finish` that answered 0, as JSON (once).
    pub fn outcome(&mut self) -> String {
        std::mem::take(&mut self.outcome)
    }

    /// Ends an attempt whose whole text is in the input area (its first `len` bytes), streamed
    /// into this stream or not (`OutputStream::finish_text`): the outcome as JSON, with its data.
    #[wasm_bindgen(js_name = finishText)]
    pub fn finish_text(&mut self, stop_reason: Option<String>, refusal: Option<String>, len: usize, streamed: bool, repair: bool) -> Result<String, JsError> {
        self.not_ended()?;
        let reason = stop_reason_of(stop_reason.as_deref())?;
        let outcome = with_input(len, |text| self.stream.finish_text_with(reason, refusal.as_deref(), text, streamed, repair, false));
        Ok(with_data_text(serde_json::to_string(&outcome).unwrap_or_default(), self.stream.data_text()))
    }
}

/// The JSON of an outcome (alone, or first in a provider stream's end) with the data a valid
/// stream left in its text (`OutputStream::data_text`) written as that text: JS's `JSON.parse`
/// of the outcome makes the data from it, as `validateText`'s data is made from the output's
/// text, and no value is built and written out here. The first `"data":null` is the valid
/// outcome's data (only its state and `valid` come before it).
fn with_data_text(mut json: String, text: Option<&[u8]>) -> String {
    const DATA: &str = "\"data\":";
    let text = text.and_then(|text| std::str::from_utf8(text).ok());
    if let (Some(text), Some(at)) = (text, json.find("\"data\":null")) {
        let value = at + DATA.len();
        json.drain(value..value + "null".len());
        json.insert_str(value, text);
    }
    json
}

/// A stop reason as the providers say it; none is `stop`.
fn stop_reason_of(name: Option<&str>) -> Result<StopReason, JsError> {
    match name {
        None => Ok(StopReason::Stop),
        Some(r) => StopReason::parse(r).ok_or_else(|| JsError::new(&format!("unknown stopReason {r:?}"))),
    }
}

/// The status in one number, laid out by the `STATUS_` constants.
fn packed_status(stream: &OutputStream) -> f64 {
    status_inline(stream)
}

/// `packed_status`, inlined into the entry of short chunks (`push_chunk`): what such a push
/// costs is mostly what every push costs, of which a call inside the module is a measurable
/// share.
#[inline(always)]
fn status_inline(stream: &OutputStream) -> f64 {
    let attempt = (stream.attempt() as u64).min(STATUS_ATTEMPT_MAX);
    // Any value that fits the field: JS compares it with the last one it saw.
    let revision = stream.early_revision() as u64 % STATUS_REVISION_MASK;
    let bytes = (stream.bytes() as u64).min(STATUS_BYTES_MAX);
    let mut low = attempt << STATUS_ATTEMPT_SHIFT | revision << STATUS_REVISION_SHIFT;
    if stream.is_complete() {
        low |= STATUS_COMPLETE;
    }
    if stream.is_aborted() {
        low |= STATUS_ABORTED;
    }
    let room = stream.plain_room();
    let class = PLAIN_ROOMS.iter().rposition(|&r| room >= r).unwrap_or(0) as u64;
    low |= class << STATUS_PLAIN_SHIFT;
    (low + (bytes << STATUS_BYTES_SHIFT)) as f64
}

/// `parseSchemaId`: `{name, version}` as JSON for an `$id` that carries a semantic version
/// (the registry's convention), else `null`.
#[wasm_bindgen(js_name = parseSchemaId)]
pub fn parse_schema_id(id: &str) -> String {
    let parsed = crate::schema::version::name_and_version(id).map(|(name, version)| serde_json::json!({"name": name, "version": version.to_string()}));
    serde_json::to_string(&parsed).unwrap_or_default()
}

// Provider streams (src/agent/provider): a provider's response body goes in as bytes, a stream
// status comes out per chunk; the events themselves never cross the boundary.

#[wasm_bindgen]
impl WasmContract {
    /// A validator of one `provider` response body: `{tool, maxRetries, abortOnEarlyViolation,
    /// nullAsAbsent}` as JSON.
    #[wasm_bindgen(js_name = providerStream)]
    pub fn provider_stream(&self, provider: &str, options_json: &str) -> Result<WasmProviderStream, JsError> {
        let provider = provider_of(provider)?;
        let js: JsStreamOptions = optional_json(options_json, "provider stream options")?;
        if js.extract.is_some() {
            return Err(JsError::new("invalid provider stream options: `extract` is an option of text streams"));
        }
        let stream = js.stream_options();
        let options = ProviderOptions { stream, tool: js.tool };
        Ok(WasmProviderStream { stream: ProviderStream::new(&self.contract, provider, options) })
    }
}

fn provider_of(name: &str) -> Result<Provider, JsError> {
    Provider::parse(name).ok_or_else(|| JsError::new(&format!("unknown provider {name:?}")))
}

#[wasm_bindgen]
pub struct WasmProviderStream {
    stream: ProviderStream,
}

#[wasm_bindgen]
impl WasmProviderStream {
    /// Appends a chunk of the body; returns the stream status packed as `pushBytes` does.
    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> f64 {
        self.stream.push(chunk);
        packed_status(self.stream.output_stream())
    }

    /// Nothing more will be read (the end, an error, or an early violation that ended it).
    #[wasm_bindgen(getter)]
    pub fn settled(&self) -> bool {
        self.stream.settled()
    }

    #[wasm_bindgen(getter)]
    pub fn aborted(&self) -> bool {
        self.stream.is_aborted()
    }

    #[wasm_bindgen(getter)]
    pub fn attempt(&self) -> usize {
        self.stream.output_stream().attempt()
    }

    #[wasm_bindgen(getter)]
    pub fn bytes(&self) -> usize {
        self.stream.output_stream().bytes()
    }

    /// Bytes of the body the event-stream decoder scanned.
    #[wasm_bindgen(getter)]
    pub fn scanned(&self) -> usize {
        self.stream.scanned()
    }

    #[wasm_bindgen(js_name = earlyViolations)]
    pub fn early_violations(&self) -> String {
        serde_json::to_string(self.stream.output_stream().early_violations()).unwrap_or_default()
    }

    /// The body ended: `{outcome, stopReason, usage}` or `{error}` as JSON.
    pub fn finish(&mut self) -> String {
        // Serialized straight to text, not built as a value first: that would link a serializer
        // into values for every type of the outcome.
        #[derive(serde::Serialize)]
        #[serde(untagged)]
        enum Finished {
            Ended {
                outcome: StreamOutcome,
                #[serde(rename = "stopReason")]
                stop_reason: Option<String>,
                usage: Option<Value>,
            },
            Failed {
                error: crate::agent::provider::ProviderError,
            },
        }
        let finished = match self.stream.finish_with(false) {
            Ok(end) => Finished::Ended { outcome: end.outcome, stop_reason: end.stop_reason, usage: end.usage },
            Err(error) => Finished::Failed { error },
        };
        with_data_text(serde_json::to_string(&finished).unwrap_or_default(), self.stream.output_stream().data_text())
    }
}

/// The normalised events of a provider's response body (`providerEvents` in JS).
#[wasm_bindgen]
pub struct WasmProviderEvents {
    decoder: EventDecoder,
}

#[wasm_bindgen]
impl WasmProviderEvents {
    #[wasm_bindgen(constructor)]
    pub fn new(provider: &str) -> Result<WasmProviderEvents, JsError> {
        Ok(WasmProviderEvents { decoder: EventDecoder::new(provider_of(provider)?) })
    }

    /// The events a chunk completes, as a JSON array.
    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> String {
        let mut events = Vec::new();
        self.decoder.push(chunk, &mut events);
        serde_json::to_string(&events).unwrap_or_default()
    }

    /// The body ended: its last events, as a JSON array.
    pub fn end(&mut self) -> String {
        let mut events = Vec::new();
        self.decoder.end(&mut events);
        serde_json::to_string(&events).unwrap_or_default()
    }

    /// The end or an error was read.
    #[wasm_bindgen(getter)]
    pub fn over(&self) -> bool {
        self.decoder.is_over()
    }

    #[wasm_bindgen(getter)]
    pub fn scanned(&self) -> usize {
        self.decoder.scanned()
    }
}

/// A stop reason a provider gave, as the stream machine reads it (`stop`, `length`, `refusal` or
/// `tool_use`): `enforce` passes it on with a reply read from a provider stream.
#[wasm_bindgen(js_name = providerStopReason)]
pub fn provider_stop_reason(raw: Option<String>) -> String {
    match crate::agent::provider::stop_reason_of(raw.as_deref()) {
        StopReason::Stop => "stop",
        StopReason::Length => "length",
        StopReason::Refusal => "refusal",
        StopReason::ToolUse => "tool_use",
    }
    .to_string()
}

/// The `tool` violation of an answer that called `called` and not `expected` (`enforce` with a
/// provider reply), as JSON.
#[wasm_bindgen(js_name = wrongToolViolation)]
pub fn wrong_tool_violation(called: &str, expected: &str) -> String {
    serde_json::to_string(&crate::report::violation::wrong_tool(called, expected)).unwrap_or_default()
}

// What pkg/src/ would otherwise write again in JavaScript: paths, pointer tokens, draft names and
// the instance's memory. Off the hot paths (a value that is not JSON, a Standard Schema issue, an
// option check), so a call each costs nothing that shows.

/// The instance's linear memory, where pkg/src/api.js writes texts into the input area
/// (`input_area`); bench/memory.mjs reads its size. Asked again after the instance is re-created.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The JSONPath of `segments_json` (a JSON array of keys and indices), as violations write
/// paths: pkg/src/json-value.js names where a value JSON cannot carry is.
#[wasm_bindgen(js_name = jsonPath)]
pub fn json_path(segments_json: &str) -> String {
    use crate::json::path::{InstancePath, Segment};
    let mut path = InstancePath::root();
    if let Ok(Value::Array(segments)) = serde_json::from_str::<Value>(segments_json) {
        for s in segments {
            path.push(match s {
                Value::Number(n) => Segment::Index(n.as_u64().and_then(|i| usize::try_from(i).ok()).unwrap_or_default()),
                Value::String(k) => Segment::Key(k),
                other => Segment::Key(other.to_string()),
            });
        }
    }
    path.to_jsonpath()
}

/// The unescaped tokens of a JSON Pointer, as a JSON array: pkg/src/api.js's Standard Schema
/// issue paths.
#[wasm_bindgen(js_name = pointerTokens)]
pub fn pointer_tokens(pointer: &str) -> String {
    let mut out = String::from("[");
    for (i, token) in pointer.split('/').skip(1).enumerate() {
        if i > 0 {
            out.push(',');
        }
        crate::json::writer::write_str(&mut out, &crate::json::path::unescape_pointer_token(token));
    }
    out.push(']');
    out
}

/// Whether `name` names a draft (`Draft::from_name`): pkg/src/options.js's check of `draft`.
#[wasm_bindgen(js_name = isDraftName)]
pub fn is_draft_name(name: &str) -> bool {
    Draft::from_name(name).is_some()
}

#[wasm_bindgen]
impl WasmContract {
    /// The contract's `maxOutputBytes`, for the schema tools' `applyPatch` (`validateMerged`).
    #[wasm_bindgen(getter, js_name = maxOutputBytes)]
    pub fn max_output_bytes(&self) -> usize {
        self.contract.limits().max_output_bytes
    }

    /// The contract's `maxDepth`, as `maxOutputBytes`.
    #[wasm_bindgen(getter, js_name = maxDepth)]
    pub fn max_depth(&self) -> usize {
        self.contract.limits().max_depth
    }

    /// The canonical error of `violations` (JSON) found in `raw`: `validateMerged`'s for a patch
    /// the schema tools could not apply.
    pub fn failure(&self, violations_json: &str, raw: &str) -> Result<String, JsError> {
        let violations: Vec<Violation> = json_arg(violations_json, "violations")?;
        Ok(self.contract.failure(violations, raw).to_json_text())
    }
}

/// The retry prompt that asks for a JSON Patch to the previous answer (`retryPrompt` with
/// `mode: 'patch'`).
#[wasm_bindgen(js_name = retryPatchPrompt)]
pub fn retry_patch_prompt(violations_json: &str, schema_json: &str, templates_json: &str) -> Result<String, JsError> {
    retry_prompt_in(violations_json, schema_json, templates_json, prompt::retry_patch_prompt_with)
}

#[wasm_bindgen]
impl WasmStream {
    /// Ends an attempt with `violations` (JSON) found in `raw` by the caller (`enforce`: a patch
    /// that did not apply), under the machine's retry and final-failure rules: the outcome as JSON.
    #[wasm_bindgen(js_name = finishFailed)]
    pub fn finish_failed(&mut self, violations_json: &str, raw: &str) -> Result<String, JsError> {
        self.not_ended()?;
        let violations: Vec<Violation> = json_arg(violations_json, "violations")?;
        Ok(serde_json::to_string(&self.stream.finish_failed(violations, raw)).unwrap_or_default())
    }
}
