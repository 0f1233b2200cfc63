//! A compiled output contract: the schema compiled once, with the options that decide what
//! "valid" means (draft, strictness, formats, resources, limits).

use crate::validator::draft::{self, Dialect, Draft, Found, Inferred, DEFAULT_DRAFT};
use crate::schema::error::{SchemaError, SchemaErrorKind, SchemaIssue};
use crate::check::extract::{self, ExtractOptions, Extraction};
use crate::check::output::{self, OutputLimits};
use crate::report::render::{self, truncate_text};
use crate::report::canonical::OutputValidationError;
use crate::check::verdict::{Judgement, Verdict};
use crate::report::violation::{self, Violation};
use crate::schema::fingerprint::{self, Fingerprint};
use crate::schema::{meta, strict};
use crate::validator::ecma::Pattern;
use crate::validator::format::CustomFormat;
use crate::validator::{self as engine, CompileError, Validator};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use crate::check::early::EarlySchema;

pub const DEFAULT_RAW_OUTPUT_LIMIT: usize = 4096;
pub const DEFAULT_RECEIVED_LIMIT: usize = 256;
/// Schema text larger than this is refused before it is parsed. Published configuration-file
/// schemas reach several megabytes; 16 MiB is eight times a 2 MB one, and what a schema of that
/// size can make the module allocate (2.5 GB at worst, SECURITY.md) stays within WebAssembly's
/// 4 GiB, so a larger one is a typed error rather than an out-of-memory trap.
pub const DEFAULT_MAX_SCHEMA_BYTES: usize = 16 * 1024 * 1024;
pub const DEFAULT_MAX_SCHEMA_DEPTH: usize = 256;

/// How to compile a contract. `Options::default()` is the product's behaviour: the draft of
/// `$schema`, else the one the keywords used say (Draft 2020-12 for its keywords, else Draft 7),
/// strict keywords, formats asserted.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Used when the schema has no `$schema`, or one that names no draft or dialect the library
    /// knows; a known `$schema` always wins. `None`: read from the keywords (`DraftReason`).
    pub draft: Option<Draft>,
    /// Refuse keywords the draft does not know (and formats the library cannot check).
    pub strict: bool,
    /// Assert `format` (every draft), rather than treat it as an annotation.
    pub formats: bool,
    /// The user's formats by name, asserted whatever `formats` says; a name of a built-in format
    /// overrides it, and strict mode knows them. A contract with a function among them is never
    /// cached (`ContractCache` compiles it anew each time).
    pub custom_formats: BTreeMap<String, CustomFormat>,
    /// Defaults to the schema's `$id`, else a stable content hash.
    pub schema_id: Option<String>,
    pub agent_id: Option<String>,
    /// Extra schema documents by URI, for `$ref` across documents. Nothing is ever fetched.
    pub resources: BTreeMap<String, Value>,
    pub limits: OutputLimits,
    /// The schema document's own limits, checked before anything else.
    pub max_schema_bytes: usize,
    pub max_schema_depth: usize,
    /// How much of the output `raw_output` keeps.
    pub raw_output_limit: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            draft: None,
            strict: true,
            formats: true,
            custom_formats: BTreeMap::new(),
            schema_id: None,
            agent_id: None,
            resources: BTreeMap::new(),
            limits: OutputLimits::default(),
            max_schema_bytes: DEFAULT_MAX_SCHEMA_BYTES,
            max_schema_depth: DEFAULT_MAX_SCHEMA_DEPTH,
            raw_output_limit: DEFAULT_RAW_OUTPUT_LIMIT,
        }
    }
}

impl Options {
    /// A fingerprint of everything that changes the compiled result, for the cache.
    pub(crate) fn fingerprint(&self, schema: &Value) -> Fingerprint {
        let resources: Vec<&Value> = self.resources.values().collect();
        let keys: Vec<&str> = self.resources.keys().map(String::as_str).collect();
        // Functions are told apart by `has_format_functions` (such a contract is not cached).
        let patterns: Vec<String> = self
            .custom_formats
            .iter()
            .filter_map(|(name, f)| match f {
                CustomFormat::Pattern(source) => Some(format!("{name:?}={source:?}")),
                CustomFormat::Function(_) => None,
            })
            .collect();
        let scalars = format!(
            "{:?}|{}|{}|{:?}|{:?}|{}|{}|{}|{}|{}|{}|{}",
            self.draft.map(Draft::name),
            self.strict,
            self.formats,
            self.schema_id,
            self.agent_id,
            self.limits.max_output_bytes,
            self.limits.max_depth,
            self.max_schema_bytes,
            self.max_schema_depth,
            self.raw_output_limit,
            keys.join("\u{1}"),
            patterns.join("\u{1}"),
        );
        fingerprint::fingerprint(schema, &resources, &[&scalars])
    }

    /// Some custom format is a function, which no fingerprint can tell from another.
    pub(crate) fn has_format_functions(&self) -> bool {
        self.custom_formats.values().any(|f| matches!(f, CustomFormat::Function(_)))
    }
}

pub(crate) struct Compiled {
    validator: Arc<Validator>,
    schema: Value,
    schema_id: String,
    agent_id: Option<String>,
    draft: Draft,
    draft_reason: DraftReason,
    limits: OutputLimits,
    raw_output_limit: usize,
    pub(crate) fingerprint: u64,
    early: OnceLock<Arc<EarlySchema>>,
    /// Built on the first validation of text (compiling stays as cheap as before).
    verdict: OnceLock<Option<Arc<Verdict>>>,
}

/// A compiled output contract. Cheap to clone (shared); immutable; safe to use from many calls.
#[derive(Clone)]
pub struct Contract {
    inner: Arc<Compiled>,
}

impl std::fmt::Debug for Contract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Contract")
            .field("schema_id", &self.inner.schema_id)
            .field("draft", &self.inner.draft)
            .finish_non_exhaustive()
    }
}

impl Contract {
    /// Compiles schema text. Invalid JSON is a `SchemaError` of kind `invalid_json` with the
    /// line and column of the problem.
    pub fn compile_text(text: &str, options: &Options) -> Result<Contract, SchemaError> {
        let schema = parse_schema_text(text, options)?;
        Contract::compile(&schema, options)
    }

    /// Compiles a schema value.
    pub fn compile(schema: &Value, options: &Options) -> Result<Contract, SchemaError> {
        let fingerprint = options.fingerprint(schema);
        Contract::compile_with_fingerprint(schema, options, fingerprint)
    }

    pub(crate) fn compile_with_fingerprint(schema: &Value, options: &Options, fingerprint: Fingerprint) -> Result<Contract, SchemaError> {
        check_schema_limits(schema, options)?;
        check_custom_formats(options)?;
        let (draft, draft_reason) = detect_draft(schema, options)?;

        let mut issues = meta::check(schema, draft);
        // A JTD schema's unknown keywords are among its rules' issues, strict or not.
        if options.strict && draft != Draft::Jtd {
            issues.extend(strict::unknown_keywords(schema, draft));
        }
        if !issues.is_empty() {
            return Err(SchemaError::from_issues(issues));
        }

        let validator = Arc::new(Validator::new(schema, &engine_options(draft, options, &options.resources)).map_err(|e| SchemaError::single(compile_issue(e)))?);

        let schema_id = options
            .schema_id
            .clone()
            .or_else(|| schema.get(draft.id_keyword()).and_then(Value::as_str).map(str::to_string))
            .unwrap_or_else(|| format!("urn:output-contract:schema:{:016x}", fingerprint.schema));

        Ok(Contract {
            inner: Arc::new(Compiled {
                validator,
                schema: schema.clone(),
                schema_id,
                agent_id: options.agent_id.clone(),
                draft,
                draft_reason,
                limits: options.limits,
                raw_output_limit: options.raw_output_limit,
                fingerprint: fingerprint.contract,
                early: OnceLock::new(),
                verdict: OnceLock::new(),
            }),
        })
    }

    pub fn schema_id(&self) -> &str {
        &self.inner.schema_id
    }

    pub fn agent_id(&self) -> Option<&str> {
        self.inner.agent_id.as_deref()
    }

    pub fn draft(&self) -> Draft {
        self.inner.draft
    }

    /// Why the schema is read in that draft (`$schema`, the option, the keywords it uses …).
    pub fn draft_reason(&self) -> &DraftReason {
        &self.inner.draft_reason
    }

    pub fn schema(&self) -> &Value {
        &self.inner.schema
    }

    /// The schema as JSON Schema, for what reads only JSON Schema (providers' tool definitions,
    /// prompts, the AI SDK): the schema itself, or a JTD schema's JSON Schema form (see
    /// `schema::jtd::to_json_schema`).
    pub fn json_schema(&self) -> std::borrow::Cow<'_, Value> {
        if self.inner.draft == Draft::Jtd {
            std::borrow::Cow::Owned(crate::schema::jtd::to_json_schema(&self.inner.schema).0)
        } else {
            std::borrow::Cow::Borrowed(&self.inner.schema)
        }
    }

    pub fn limits(&self) -> OutputLimits {
        self.inner.limits
    }

    /// The schema prepared for in-flight checks, built on the first stream and kept.
    pub fn early_schema(&self) -> Arc<EarlySchema> {
        Arc::clone(self.inner.early.get_or_init(|| Arc::new(EarlySchema::with_verdict(Arc::clone(&self.inner.validator), self.shared_verdict().clone()))))
    }

    pub fn raw_output_limit(&self) -> usize {
        self.inner.raw_output_limit
    }

    /// The compiled schema, for what reads its nodes (schema comparison).
    pub(crate) fn validator(&self) -> &Validator {
        &self.inner.validator
    }

    pub(crate) fn fingerprint(&self) -> u64 {
        self.inner.fingerprint
    }

    /// Whether `value` satisfies the contract (no report is built).
    pub fn is_valid(&self, value: &Value) -> bool {
        output::value_depth(value, self.inner.limits.max_depth) <= self.inner.limits.max_depth && self.inner.validator.is_valid(value)
    }

    /// Every violation of `value`, in document order; empty when valid.
    pub fn violations(&self, value: &Value) -> Vec<Violation> {
        if output::value_depth(value, self.inner.limits.max_depth) > self.inner.limits.max_depth {
            return vec![output::too_deep(self.inner.limits.max_depth)];
        }
        if self.inner.validator.is_valid(value) {
            return Vec::new();
        }
        violation::from_errors(self.inner.validator.errors(value), value, DEFAULT_RECEIVED_LIMIT)
    }

    /// Validates a value and hands it back. The failure carries every violation; `raw_output` is
    /// the value's JSON.
    pub fn validate<'v>(&self, value: &'v Value) -> Result<&'v Value, OutputValidationError> {
        let violations = self.violations(value);
        if violations.is_empty() {
            return Ok(value);
        }
        Err(self.failure(violations, &value.to_string()))
    }

    /// Parses `text` (within the limits) and validates it; returns the parsed data.
    pub fn validate_text(&self, text: &str) -> Result<Value, OutputValidationError> {
        let parsed = output::parse(text, self.inner.limits).map_err(|v| self.failure(vec![v], text))?;
        self.report_parsed(&parsed.value, text, false, parsed.repeated)?;
        Ok(parsed.value)
    }

    /// Validates output text like `validate_text`, without returning the data: a valid output is
    /// recognised in one pass over its bytes when the schema allows (`verdict`), and only an
    /// invalid one is parsed into a tree for the canonical error.
    pub fn check_text(&self, text: &str) -> Result<(), OutputValidationError> {
        self.text_violations(text, false).map_err(|violations| self.failure(violations, text))
    }

    /// `check_text` for an output the caller already found invalid (see `text_violations`):
    /// the same answer. For tests.
    #[doc(hidden)]
    pub fn check_refused_text(&self, text: &str) -> Result<(), OutputValidationError> {
        self.text_violations(text, true).map_err(|violations| self.failure(violations, text))
    }

    /// `check_text`'s violations alone, for a caller that holds `text` and writes `raw_output`
    /// itself (the module's `validateText`, whose caller has the text already): the error's
    /// copy of the text is then never made.
    /// `refused`: the caller already found the output invalid (the JS tier's verdict on the
    /// value whose JSON.stringify text this is), so the violations are located without the
    /// verdict's pass first; should that find none, the output takes the usual path.
    pub(crate) fn text_violations(&self, text: &str, refused: bool) -> Result<(), Vec<Violation>> {
        let small = text.len() <= self.inner.limits.max_output_bytes;
        let mut violated = false;
        if let Some(verdict) = self.verdict().filter(|_| small) {
            // A located report is the full path's (tests/verdict.rs), whichever pass sent the
            // output to it; the locating walk gives up on a limit or a unit of most of the output.
            if refused {
                if let Some(violations) = self.located_violations(verdict, text) {
                    return Err(violations);
                }
            }
            match verdict.judge(&self.inner.validator, text, self.inner.limits.max_depth) {
                Judgement::Valid => return Ok(()),
                Judgement::Invalid { locate, violated: v } => {
                    if locate && !refused {
                        if let Some(violations) = self.located_violations(verdict, text) {
                            return Err(violations);
                        }
                    }
                    violated = v;
                }
            }
        }
        let parsed = output::parse(text, self.inner.limits).map_err(|v| vec![v])?;
        self.parsed_violations(&parsed.value, violated, parsed.repeated)
    }

    /// The one-pass verdict alone (see `check_text`): `None` when the schema has none, else
    /// whether it recognised `text` as valid. For tests and benchmarks.
    #[doc(hidden)]
    pub fn quick_verdict(&self, text: &str) -> Option<bool> {
        self.verdict().map(|v| v.is_valid(&self.inner.validator, text, self.inner.limits.max_depth))
    }

    /// How many subtrees `check_text` would report an invalid `text` from (`None`: the full
    /// path reports it). For tests and benchmarks.
    #[doc(hidden)]
    pub fn located_units(&self, text: &str) -> Option<usize> {
        self.verdict()?.units(&self.inner.validator, text, self.inner.limits.max_depth).map(|units| units.len())
    }

    fn verdict(&self) -> Option<&Verdict> {
        self.shared_verdict().as_deref()
    }

    /// The one-pass verdict and the nodes it numbers, for the streams' resumed scan.
    pub(crate) fn verdict_parts(&self) -> Option<(&Verdict, &Validator)> {
        Some((self.verdict()?, &self.inner.validator))
    }

    /// The verdict, compiled on first use, shared by one-shot validation and the streams' checks.
    fn shared_verdict(&self) -> &Option<Arc<Verdict>> {
        self.inner.verdict.get_or_init(|| Verdict::compile(&self.inner.validator).map(Arc::new))
    }

    /// The violations of an output the verdict refused, from the subtrees that hold them
    /// (`Verdict::units`): only they are parsed and validated. `None` sends the caller to the
    /// full path.
    fn located_violations(&self, verdict: &Verdict, text: &str) -> Option<Vec<Violation>> {
        let validator = &self.inner.validator;
        let units = verdict.units(validator, text, self.inner.limits.max_depth)?;
        let mut violations = Vec::new();
        for unit in &units {
            if !unit.missing.is_empty() {
                let received = render::truncate_text_value(text.get(unit.span.clone())?, DEFAULT_RECEIVED_LIMIT)?;
                let schema_path = joined(&unit.schema_path, "/required");
                let (last, others) = unit.missing.split_last()?;
                for name in others {
                    violations.push(violation::required(&unit.path, &unit.order, &schema_path, name, received.clone()));
                }
                violations.push(violation::required(&unit.path, &unit.order, &schema_path, last, received));
                continue;
            }
            let value: Value = serde_json::from_str(text.get(unit.span.clone())?).ok()?;
            let found = violation::from_errors(validator.node_errors(unit.node, &value), &value, DEFAULT_RECEIVED_LIMIT);
            if found.is_empty() {
                return None;
            }
            let (json_path, pointer) = (unit.path.to_jsonpath(), unit.path.to_pointer());
            for mut v in found {
                // The unit's evaluation paths start at its node; the full path's at the root.
                v.schema_path = joined(&unit.schema_path, &v.schema_path);
                v.path = joined(&json_path, v.path.strip_prefix('$')?);
                v.pointer = joined(&pointer, &v.pointer);
                v.order.splice(0..0, unit.order.iter().copied());
                violations.push(v);
            }
        }
        violation::sort(&mut violations);
        Some(violations)
    }

    /// Validates a value parsed from `raw` (within the limits already; the failure quotes `raw`):
    /// see `parsed_violations`.
    fn report_parsed(&self, value: &Value, raw: &str, violated: bool, repeated: Vec<Violation>) -> Result<(), OutputValidationError> {
        self.parsed_violations(value, violated, repeated).map_err(|violations| self.failure(violations, raw))
    }

    /// The violations of a value parsed from text (within the limits already), asking the
    /// validator for the errors at once when the verdict saw a violation (validity first would
    /// evaluate the whole schema twice). Should the validator find none, the value is valid:
    /// the validator has the last word. `repeated`: the text's repeated member names
    /// (`output::Parsed`), violations whatever the schema says.
    fn parsed_violations(&self, value: &Value, violated: bool, repeated: Vec<Violation>) -> Result<(), Vec<Violation>> {
        if !violated && repeated.is_empty() && self.inner.validator.is_valid(value) {
            return Ok(());
        }
        let mut violations = violation::from_errors(self.inner.validator.errors(value), value, DEFAULT_RECEIVED_LIMIT);
        if repeated.is_empty() && violations.is_empty() {
            return Ok(());
        }
        if !repeated.is_empty() {
            violations.extend(repeated);
            violation::sort(&mut violations);
        }
        Err(violations)
    }

    /// Finds the JSON in model text (prose, fences, several candidates: see `extract`), then
    /// validates it. The error's `raw_output` is the whole text, as the model wrote it.
    pub fn extract_and_validate(&self, text: &str, repair: bool) -> (Extraction, Result<Value, OutputValidationError>) {
        let extraction = extract::extract_json(text, &ExtractOptions { repair, limits: self.inner.limits });
        let result = match (&extraction.value, &extraction.error) {
            (Some(value), _) => {
                // The extracted text's repeated names, which its value no longer shows.
                let limits = OutputLimits { max_output_bytes: usize::MAX, ..self.inner.limits };
                let repeated = extraction.json.as_deref().and_then(|json| output::parse(json, limits).ok()).map(|p| p.repeated).unwrap_or_default();
                self.report_parsed(value, text, false, repeated).map(|()| value.clone())
            }
            (None, Some(e)) => Err(self.failure(vec![e.violation().clone()], text)),
            (None, None) => Err(self.failure(vec![], text)),
        };
        (extraction, result)
    }

    /// The canonical error for `violations` found in `raw`.
    pub fn failure(&self, violations: Vec<Violation>, raw: &str) -> OutputValidationError {
        self.failure_with_raw_output(violations, truncate_text(raw, self.inner.raw_output_limit))
    }

    /// The canonical error with `raw_output` already cut to the limit (streams keep only the head).
    pub fn failure_with_raw_output(&self, violations: Vec<Violation>, raw_output: String) -> OutputValidationError {
        OutputValidationError::new(&self.inner.schema_id, self.inner.agent_id.as_deref(), violations, raw_output)
    }
}

/// `head` then `tail` in one allocation (`format!` went through the formatting machinery three
/// times per violation).
fn joined(head: &str, tail: &str) -> String {
    let mut out = String::with_capacity(head.len() + tail.len());
    out.push_str(head);
    out.push_str(tail);
    out
}

pub(crate) fn parse_schema_text(text: &str, options: &Options) -> Result<Value, SchemaError> {
    if text.len() > options.max_schema_bytes {
        return Err(schema_too_large(text.len(), options.max_schema_bytes));
    }
    if output::nesting_depth(text.as_bytes(), options.max_schema_depth) > options.max_schema_depth {
        return Err(schema_too_deep(options.max_schema_depth));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de)
        .and_then(|v: Value| de.end().map(|()| v))
        .map_err(|e| {
            let reason = e.to_string();
            let reason = reason.split(" at line ").next().unwrap_or(&reason).to_string();
            SchemaError::single(
                SchemaIssue::new(SchemaErrorKind::InvalidJson, "", format!("schema is not valid JSON: {reason}"))
                    .at_line_column(e.line(), e.column()),
            )
        })
}

fn check_schema_limits(schema: &Value, options: &Options) -> Result<(), SchemaError> {
    if output::value_depth(schema, options.max_schema_depth) > options.max_schema_depth {
        return Err(schema_too_deep(options.max_schema_depth));
    }
    for (uri, doc) in &options.resources {
        if output::value_depth(doc, options.max_schema_depth) > options.max_schema_depth {
            return Err(SchemaError::single(
                SchemaIssue::new(
                    SchemaErrorKind::LimitExceeded,
                    "",
                    format!("resource {uri} nests deeper than the limit of {} levels", options.max_schema_depth),
                )
                .with_uri(uri.clone()),
            ));
        }
    }
    Ok(())
}

fn schema_too_large(bytes: usize, limit: usize) -> SchemaError {
    SchemaError::single(SchemaIssue::new(
        SchemaErrorKind::LimitExceeded,
        "",
        format!("schema is {bytes} bytes, more than the limit of {limit} bytes"),
    ))
}

fn schema_too_deep(limit: usize) -> SchemaError {
    SchemaError::single(SchemaIssue::new(
        SchemaErrorKind::LimitExceeded,
        "",
        format!("schema nests deeper than the limit of {limit} levels"),
    ))
}

/// How many custom meta-schemas may stand between a schema and a known draft.
const MAX_META_SCHEMA_CHAIN: usize = 8;

/// For a `$schema` that is not one of the five drafts but is provided in `resources`: the draft
/// its chain of meta-schemas ends in.
fn custom_meta_schema(schema: &Value, options: &Options) -> Option<Draft> {
    let mut uri = schema.get("$schema")?.as_str()?;
    if Draft::from_schema_uri(uri).is_some() {
        return None;
    }
    for _ in 0..MAX_META_SCHEMA_CHAIN {
        // Keyed as the compiler keys the resources, so that both find the same document.
        let doc = options.resources.iter().find(|(k, _)| engine::uri::normalize(k) == engine::uri::normalize(uri))?.1;
        uri = doc.get("$schema")?.as_str()?;
        if let Some(draft) = Draft::from_schema_uri(uri) {
            return Some(draft);
        }
    }
    None
}

/// Why a contract reads its schema in the draft it does (`Contract::draft_reason`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftReason {
    /// `$schema` names the draft's meta-schema.
    Schema,
    /// `$schema` names a dialect of the draft by another URI (the latest-draft alias, OpenAPI 3.1).
    Dialect { uri: String, dialect: Dialect },
    /// `$schema` names a custom meta-schema among the resources, whose chain ends in the draft.
    MetaSchema { uri: String },
    /// No `$schema`: the `draft` option.
    Option,
    /// `$schema` names nothing the library knows: the `draft` option decides.
    OptionForUnknownSchema { uri: String },
    /// No `$schema` and no option: a keyword only the draft's era has, at `pointer`.
    Inferred { keyword: &'static str, pointer: String },
    /// No `$schema`, no option and no keyword that marks a draft: the library's default.
    Default,
}

impl DraftReason {
    /// A stable name for what decided (`"schema"`, `"dialect"`, `"meta_schema"`, `"option"`,
    /// `"option_for_unknown_schema"`, `"inferred"`, `"default"`).
    pub fn source(&self) -> &'static str {
        match self {
            DraftReason::Schema => "schema",
            DraftReason::Dialect { .. } => "dialect",
            DraftReason::MetaSchema { .. } => "meta_schema",
            DraftReason::Option => "option",
            DraftReason::OptionForUnknownSchema { .. } => "option_for_unknown_schema",
            DraftReason::Inferred { .. } => "inferred",
            DraftReason::Default => "default",
        }
    }

    /// Why, in a sentence: "Draft 2020-12: the schema uses \"$defs\" (at /) and has no \"$schema\"".
    pub fn message(&self, draft: Draft) -> String {
        let title = draft.title();
        match self {
            DraftReason::Schema => format!("{title}: its \"$schema\" names it"),
            DraftReason::Dialect { uri, dialect } => format!("{title}: \"$schema\" {uri:?} is {}, read as {title}", dialect.title()),
            DraftReason::MetaSchema { uri } => format!("{title}: \"$schema\" {uri:?} is a meta-schema among the resources based on it"),
            DraftReason::Option => format!("{title}: the schema has no \"$schema\" and the draft option says so"),
            DraftReason::OptionForUnknownSchema { uri } => {
                format!("{title}: \"$schema\" {uri:?} names no draft the library knows, so the draft option decides")
            }
            DraftReason::Inferred { keyword, pointer } => format!(
                "{title}: the schema has no \"$schema\" and uses {keyword:?} (at {}), a keyword of {title}; add \"$schema\": \"{}\" to say so",
                if pointer.is_empty() { "the root" } else { pointer.as_str() },
                draft.meta_schema_uri(),
            ),
            DraftReason::Default => format!("{title}: the schema has no \"$schema\" and uses no keyword of a later draft, so the default applies"),
        }
    }
}

/// `$schema` wins (a custom meta-schema among the resources counts as its base draft, a known
/// dialect as its draft); then the `draft` option; then the keywords the schema uses; then
/// Draft-7. A `$schema` the library does not know takes the `draft` option when there is one.
pub(crate) fn detect_draft(schema: &Value, options: &Options) -> Result<(Draft, DraftReason), SchemaError> {
    // A JTD schema has no `$schema` (RFC 8927 refuses the keyword): the option alone says so.
    if options.draft == Some(Draft::Jtd) {
        return Ok((Draft::Jtd, DraftReason::Option));
    }
    if let Some(draft) = custom_meta_schema(schema, options) {
        let uri = schema.get("$schema").and_then(Value::as_str).unwrap_or_default().to_string();
        return Ok((draft, DraftReason::MetaSchema { uri }));
    }
    match schema.get("$schema") {
        None => match options.draft {
            Some(draft) => Ok((draft, DraftReason::Option)),
            None => inferred_draft(schema, options),
        },
        Some(Value::String(uri)) => {
            if let Some(draft) = Draft::from_meta_schema_uri(uri) {
                return Ok((draft, DraftReason::Schema));
            }
            if let Some(dialect) = Dialect::from_uri(uri) {
                return Ok((Draft::Draft202012, DraftReason::Dialect { uri: uri.clone(), dialect }));
            }
            let issue = |message: String| SchemaError::single(SchemaIssue::new(SchemaErrorKind::UnknownDraft, "/$schema", message).with_keyword("$schema").with_uri(uri.clone()));
            if draft::is_draft3_uri(uri) {
                return Err(issue(format!(
                    "$schema {uri:?} is Draft 3, which the library does not support: its \"required\": true, \"extends\" and \"disallow\" have no meaning in the supported drafts 4, 6, 7, 2019-09 and 2020-12; rewrite the schema for one of them (for example \"{}\")",
                    Draft::Draft7.meta_schema_uri()
                )));
            }
            match options.draft {
                Some(draft) => Ok((draft, DraftReason::OptionForUnknownSchema { uri: uri.clone() })),
                None => Err(issue(format!(
                    "unknown $schema {uri:?}: supported drafts are 4, 6, 7, 2019-09 and 2020-12 (for example \"{}\"); to compile it under one of them, pass the draft option (draft: \"draft2020-12\")",
                    Draft::Draft202012.meta_schema_uri()
                ))),
            }
        }
        Some(_) => Err(SchemaError::single(
            SchemaIssue::new(SchemaErrorKind::MetaSchema, "/$schema", "$schema must be a string URI").with_keyword("$schema"),
        )),
    }
}

/// The draft of a schema with neither `$schema` nor a `draft` option, from the keywords it uses:
/// those of 2019-09/2020-12 make it Draft 2020-12, else Draft 7. Keywords of both eras are a
/// schema no draft reads whole: refused in strict mode, Draft 2020-12 otherwise.
fn inferred_draft(schema: &Value, options: &Options) -> Result<(Draft, DraftReason), SchemaError> {
    match draft::infer(schema) {
        Inferred::Nothing | Inferred::Earlier(_) => Ok((DEFAULT_DRAFT, DraftReason::Default)),
        Inferred::Later(Found { keyword, pointer }) => Ok((Draft::Draft202012, DraftReason::Inferred { keyword, pointer })),
        Inferred::Mixed { later, earlier } if options.strict => Err(SchemaError::single(mixed_drafts_issue(&later, &earlier))),
        Inferred::Mixed { later: Found { keyword, pointer }, .. } => Ok((Draft::Draft202012, DraftReason::Inferred { keyword, pointer })),
    }
}

/// Strict mode: a schema without `$schema` that uses keywords of Draft 2020-12 and keywords it
/// dropped. The issue sits at the earlier keyword (the one 2020-12 would never check).
fn mixed_drafts_issue(later: &Found, earlier: &Found) -> SchemaIssue {
    let at = |f: &Found| if f.pointer.is_empty() { "the root".to_string() } else { f.pointer.clone() };
    let earlier_name = if earlier.keyword == "items" { "\"items\" as an array".to_string() } else { format!("{:?}", earlier.keyword) };
    let message = format!(
        "the schema mixes drafts: {:?} (at {}) is a Draft 2019-09 / 2020-12 keyword and {earlier_name} (at {}) a keyword of earlier drafts, so no one draft would check both; \
         add \"$schema\" to say which draft it is (\"{}\" or \"{}\") and write it in that draft's keywords",
        later.keyword,
        at(later),
        at(earlier),
        Draft::Draft202012.meta_schema_uri(),
        Draft::Draft7.meta_schema_uri(),
    );
    let pointer = format!("{}/{}", earlier.pointer, crate::json::path::escape_pointer_token(earlier.keyword));
    SchemaIssue::new(SchemaErrorKind::UnknownKeyword, pointer, message).with_keyword(earlier.keyword)
}

/// How the validator is to read a schema under these options (`resources`: the documents its
/// `$ref`s may name).
fn engine_options<'a>(draft: Draft, options: &'a Options, resources: &'a BTreeMap<String, Value>) -> engine::Options<'a> {
    engine::Options {
        draft,
        formats: options.formats,
        refuse_unknown_formats: options.strict && options.formats,
        resources,
        custom_formats: &options.custom_formats,
    }
}

/// Every custom format's pattern compiles, whether the schema uses it or not: a bad one is a
/// mistake in the options, told as such.
fn check_custom_formats(options: &Options) -> Result<(), SchemaError> {
    for (name, format) in &options.custom_formats {
        if let CustomFormat::Pattern(source) = format {
            if let Err(reason) = Pattern::new(source) {
                return Err(SchemaError::single(
                    SchemaIssue::new(SchemaErrorKind::InvalidOption, "", custom_format_error(name, source, &reason)).with_keyword("format"),
                ));
            }
        }
    }
    Ok(())
}

/// Why the pattern of custom format `name` is refused.
fn custom_format_error(name: &str, source: &str, reason: &str) -> String {
    format!("format {name:?}: {source:?} is not a regular expression the library can match ({reason})")
}

/// The validator's compile error as a typed issue at the keyword at fault.
fn compile_issue(error: CompileError) -> SchemaIssue {
    match error {
        CompileError::MissingDocument { pointer, uri, .. } => SchemaIssue::new(
            SchemaErrorKind::UnresolvableRef,
            pointer,
            format!("$ref {uri:?} cannot be resolved: it is not in the schema or its resources (nothing is fetched over a network or from files)"),
        )
        .with_keyword("$ref")
        .with_uri(uri),
        CompileError::MissingTarget { pointer, reference, uri } => SchemaIssue::new(
            SchemaErrorKind::UnresolvableRef,
            pointer,
            format!("$ref {reference:?} cannot be resolved: nothing in the schema is at {uri:?}"),
        )
        .with_keyword("$ref")
        .with_uri(uri),
        CompileError::InvalidRegex { pointer, pattern, .. } => {
            SchemaIssue::new(SchemaErrorKind::InvalidRegex, pointer, format!("invalid regular expression {pattern:?}")).with_keyword("pattern")
        }
        CompileError::UnknownFormat { pointer, format } => SchemaIssue::new(
            SchemaErrorKind::UnknownFormat,
            pointer,
            format!(
                "unknown format {format:?}: it would never be checked; define it with the formats option (formats: {{ {}: … }}), add a \"pattern\" beside it, or compile with strict: false to treat every unknown format as an annotation",
                if format.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && !format.is_empty() { format.clone() } else { format!("{format:?}") }
            ),
        )
        .with_keyword("format"),
    }
}
