//! `checkSchema`: everything the schema editor shows about an output schema, as diagnostics at
//! text ranges — JSON syntax, meta-schema and compile problems, authoring lints and provider
//! compatibility. It never fails: broken text (the editor holds it while the user types) is a
//! diagnostic like any other.
//!
//! Ranges have 1-based lines and columns and 0-based offsets, columns and offsets counted in
//! UTF-16 code units, as editors and JavaScript strings count them.

use crate::agent::config::{shape_diagnostics, ConfigCode};
use crate::schema::contract::{self, Contract, Options};
use crate::validator::draft::{drafts_knowing, Draft};
use crate::schema::error::{SchemaErrorKind, SchemaIssue};
use crate::schema::strict;
use crate::json::path::escape_pointer_token;
use crate::json::sourcemap::{SourceMap, Span};
pub use crate::json::textpos::Range;
use crate::json::textpos::LineIndex;
use crate::agent::tool::{self, ChangeKind, Provider};
use serde::Serialize;
use serde_json::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub message: String,
    /// Text that replaces the diagnostic's range (an editor applies it as one edit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable: editors and tests match on it.
    pub code: String,
    pub message: String,
    pub pointer: String,
    pub range: Range,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// The draft for a schema without `$schema` (default: the library's).
    pub draft: Option<Draft>,
    pub provider: Option<Provider>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// No diagnostic of severity `error`.
    pub valid: bool,
    /// The draft in effect.
    pub draft: &'static str,
    pub diagnostics: Vec<Diagnostic>,
}

/// Which part of a member a diagnostic points at.
#[derive(Clone, Copy)]
enum At {
    Key,
    Value,
    /// The first character of the value: for what an object lacks, so the editor marks its
    /// opening brace rather than underlining the whole object.
    Open,
}

struct Locator<'t> {
    lines: LineIndex<'t>,
    map: Option<SourceMap>,
    len: usize,
}

impl Locator<'_> {
    fn span(&self, pointer: &str, at: At) -> Span {
        let whole = Span { start: 0, end: self.len };
        let Some(map) = &self.map else { return whole };
        match (map.get(pointer), at) {
            (Some(n), At::Key) => n.key.unwrap_or(n.value),
            (Some(n), At::Value) => n.value,
            (Some(n), At::Open) => Span { start: n.value.start, end: (n.value.start + 1).min(n.value.end) },
            (None, _) => map.nearest(pointer).map_or(whole, |n| n.key.unwrap_or(n.value)),
        }
    }

    fn range(&self, span: Span) -> Range {
        self.lines.range(span.start, span.end)
    }
}

struct Report<'t> {
    at: Locator<'t>,
    out: Vec<Diagnostic>,
}

impl Report<'_> {
    fn add(&mut self, severity: Severity, code: &str, pointer: &str, at: At, message: String, fix: Option<Fix>) {
        let range = self.at.range(self.at.span(pointer, at));
        self.out.push(Diagnostic { severity, code: code.into(), message, pointer: pointer.into(), range, fix });
    }
}

/// Checks schema text for the editor.
pub fn check_schema(text: &str, options: &CheckOptions) -> CheckReport {
    let compile = Options { draft: options.draft, ..Options::default() };
    let lines = LineIndex::new(text);
    let schema = match contract::parse_schema_text(text, &compile) {
        Ok(v) => v,
        Err(e) => {
            let mut out = Vec::new();
            for issue in &e.issues {
                // serde's column counts bytes from the line start, 1-based.
                let start = match (issue.line, issue.column) {
                    (Some(l), Some(c)) => lines.byte_of_byte_column(l, c),
                    _ => 0,
                };
                let range = lines.range(start, start + 1);
                let code = if issue.kind == SchemaErrorKind::InvalidJson { "json_syntax" } else { issue.kind.as_str() };
                out.push(Diagnostic { severity: Severity::Error, code: code.into(), message: issue.message.clone(), pointer: String::new(), range, fix: None });
            }
            let draft = options.draft.unwrap_or(crate::validator::draft::DEFAULT_DRAFT).name();
            return CheckReport { valid: false, draft, diagnostics: out };
        }
    };
    let mut report = Report { at: Locator { lines, map: SourceMap::new(text), len: text.len() }, out: Vec::new() };
    let draft = match Contract::compile(&schema, &compile) {
        Ok(c) => c.draft(),
        Err(e) => {
            let draft = schema
                .get("$schema")
                .and_then(Value::as_str)
                .and_then(Draft::from_meta_schema_uri)
                .unwrap_or(options.draft.unwrap_or(crate::validator::draft::DEFAULT_DRAFT));
            for issue in &e.issues {
                compile_issue(&mut report, issue, draft);
            }
            draft
        }
    };
    ids_beside_ref(&mut report, &schema, draft);
    authoring(&mut report, &schema);
    match options.provider {
        Some(Provider::OpenAi) => openai(&mut report, &schema),
        Some(Provider::Anthropic) => anthropic(&mut report, &schema),
        _ => {}
    }
    let mut diagnostics = report.out;
    crate::sort::sort_by(&mut diagnostics, |a, b| (a.range.start.offset, a.severity as u8).cmp(&(b.range.start.offset, b.severity as u8)));
    let valid = !diagnostics.iter().any(|d| d.severity == Severity::Error);
    CheckReport { valid, draft: draft.name(), diagnostics }
}

fn compile_issue(report: &mut Report, issue: &SchemaIssue, draft: Draft) {
    let keyword = issue.keyword.as_deref().unwrap_or_default();
    let (code, at, fix) = match issue.kind {
        SchemaErrorKind::UnknownKeyword => match (drafts_knowing(keyword, draft).first(), &issue.suggestion) {
            // A keyword of another draft gets its own code: the fix is choosing the draft, not a rename.
            (Some(home), _) => ("keyword_from_other_draft", At::Key, Some(fix(format!("add \"$schema\": \"{}\" at the root", home.meta_schema_uri()), None))),
            (None, Some(near)) => (issue.kind.as_str(), At::Key, Some(fix(format!("rename to '{near}'"), Some(format!("\"{near}\""))))),
            (None, None) => (issue.kind.as_str(), At::Key, None),
        },
        SchemaErrorKind::RefSibling => {
            let message = format!(
                "put \"$ref\" and \"{keyword}\" in an \"allOf\", or add \"$schema\": \"{}\" at the root",
                Draft::Draft201909.meta_schema_uri()
            );
            (issue.kind.as_str(), At::Key, Some(fix(message, None)))
        }
        _ => (issue.kind.as_str(), At::Value, None),
    };
    report.add(Severity::Error, code, &issue.pointer, at, issue.message.clone(), fix);
}

fn fix(message: String, replacement: Option<String>) -> Fix {
    Fix { message, replacement }
}

/// An identifier beside a `$ref` in Drafts 4–7: ignored, so a warning rather than an error.
fn ids_beside_ref(report: &mut Report, schema: &Value, draft: Draft) {
    for issue in strict::ids_beside_ref(schema, draft) {
        let keyword = issue.keyword.as_deref().unwrap_or_default();
        let message = format!("remove \"{keyword}\", or put the \"$ref\" in an \"allOf\" so that it resolves against \"{keyword}\"");
        report.add(Severity::Warning, "id_beside_ref", &issue.pointer, At::Key, issue.message, Some(fix(message, None)));
    }
}

/// Every subschema with its pointer, root first (breadth of real schemas; bounded depth).
fn subschemas(root: &Value) -> Vec<(String, &serde_json::Map<String, Value>)> {
    const ONE: [&str; 11] = ["additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else", "additionalItems", "unevaluatedItems", "unevaluatedProperties"];
    const LISTS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
    const MAPS: [&str; 5] = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
    let mut out = Vec::new();
    let mut todo = vec![(String::new(), root, 0usize)];
    while let Some((pointer, value, depth)) = todo.pop() {
        let Value::Object(map) = value else { continue };
        if depth > 64 {
            continue;
        }
        for (key, sub) in map {
            let base = format!("{pointer}/{}", escape_pointer_token(key));
            match sub {
                Value::Object(_) if ONE.contains(&key.as_str()) => todo.push((base, sub, depth + 1)),
                Value::Array(list) if LISTS.contains(&key.as_str()) => {
                    todo.extend(list.iter().enumerate().map(|(i, s)| (format!("{base}/{i}"), s, depth + 1)));
                }
                Value::Object(members) if MAPS.contains(&key.as_str()) => {
                    todo.extend(members.iter().map(|(n, s)| (format!("{base}/{}", escape_pointer_token(n)), s, depth + 1)));
                }
                _ => {}
            }
        }
        out.push((pointer, map));
    }
    crate::sort::sort_by(&mut out, |a, b| a.0.cmp(&b.0));
    out
}

fn authoring(report: &mut Report, schema: &Value) {
    // The schema was compiled above: only the root's shape is left to check.
    for d in shape_diagnostics(schema) {
        let (code, message) = match d.code {
            ConfigCode::RootNotObject => ("root_not_object", "the output schema's root should be \"type\": \"object\": the output reaches the agent as a tool call's arguments and as result_data, both objects, and agent configs refuse any other root"),
            ConfigCode::NoProperties => ("no_properties", "the output schema has no \"properties\": the model is told nothing about the fields it must produce"),
            ConfigCode::InvalidSchema => continue,
        };
        let at = if d.pointer.is_empty() { At::Open } else { At::Value };
        report.add(Severity::Warning, code, &d.pointer, at, message.into(), None);
    }
    if let Some(root) = schema.as_object() {
        match root.get("$id").and_then(Value::as_str) {
            None => report.add(Severity::Info, "missing_id", "", At::Open, "no \"$id\": contracts are cached and reported by id; give it a versioned URI such as https://example.com/schemas/<agent>/1.0.0, so a changed contract gets a new id".into(), None),
            Some(id) if !has_semver(id) => report.add(Severity::Info, "id_not_versioned", "/$id", At::Value, format!("\"$id\" {id:?} has no version: put a semver segment in its path (…/1.0.0) so a changed contract gets a new id"), None),
            _ => {}
        }
        for key in ["title", "description"] {
            if !root.contains_key(key) {
                report.add(Severity::Info, &format!("missing_{key}"), "", At::Open, format!("no \"{key}\" at the root: the dashboard and the model's prompt show it"), None);
            }
        }
    }
    for (pointer, map) in subschemas(schema) {
        object_lints(report, &pointer, map);
        if let Some(Value::String(description)) = map.get("description") {
            let free_string = map.get("type").and_then(Value::as_str) == Some("string")
                && !["enum", "const", "pattern", "format"].iter().any(|k| map.contains_key(*k));
            if free_string && lists_options(description) {
                report.add(Severity::Info, "enum_in_description", &format!("{pointer}/description"), At::Value, "the description lists the allowed values but the schema accepts any string: use \"enum\" so they are enforced".into(), None);
            }
        }
        if map.contains_key("oneOf") {
            report.add(Severity::Info, "prefer_any_of", &format!("{pointer}/oneOf"), At::Key, "\"oneOf\" fails when a value matches two branches and providers do not support it in strict mode: prefer \"anyOf\" with disjoint branches".into(), Some(Fix { message: "use anyOf".into(), replacement: Some("\"anyOf\"".into()) }));
        }
    }
}

fn object_lints(report: &mut Report, pointer: &str, map: &serde_json::Map<String, Value>) {
    let Some(Value::Object(props)) = map.get("properties") else { return };
    if !map.contains_key("additionalProperties") && !map.contains_key("unevaluatedProperties") && !map.contains_key("patternProperties") {
        report.add(Severity::Info, "open_object", &format!("{pointer}/properties"), At::Key, "this object accepts properties it does not declare: add \"additionalProperties\": false to catch misspelt fields".into(), Some(Fix { message: "close the object".into(), replacement: Some("\"additionalProperties\": false, \"properties\"".into()) }));
    }
    match map.get("required") {
        None if !props.is_empty() => report.add(Severity::Info, "no_required", &format!("{pointer}/properties"), At::Key, "no \"required\": every property is optional, so an empty object is valid output".into(), None),
        Some(Value::Array(names)) => {
            let open = map.get("additionalProperties").is_some_and(Value::is_object) || map.contains_key("patternProperties");
            for (i, name) in names.iter().enumerate() {
                if let Some(n) = name.as_str().filter(|n| !props.contains_key(*n) && !open) {
                    report.add(Severity::Warning, "required_not_in_properties", &format!("{pointer}/required/{i}"), At::Value, format!("\"{n}\" is required but not described in \"properties\": the model is not told what it is (a typo?)"), None);
                }
            }
        }
        _ => {}
    }
}

fn has_semver(id: &str) -> bool {
    id.split(['/', '@', '#', '?']).any(|seg| {
        let seg = seg.strip_prefix('v').unwrap_or(seg);
        let parts: Vec<&str> = seg.split('.').collect();
        parts.len() == 3 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// "one of: low, medium, high", "either 'a' or 'b'", "a | b | c".
fn lists_options(description: &str) -> bool {
    let lower = description.to_lowercase();
    let quoted = description.matches(['\'', '"', '`']).count() >= 4;
    lower.contains("one of") || lower.contains("either") || lower.contains(" | ") || (quoted && lower.contains(" or "))
}

fn openai(report: &mut Report, schema: &Value) {
    let def = tool::submit_result_tool(schema, Provider::OpenAi, None, None);
    for c in def.changes {
        let (severity, what) = match c.kind {
            ChangeKind::Rejected => (Severity::Error, "OpenAI strict mode rejects this schema"),
            ChangeKind::DroppedKeyword | ChangeKind::DroppedFormat => (Severity::Warning, "OpenAI strict mode drops this (validation still checks it)"),
            ChangeKind::OneOfToAnyOf | ChangeKind::MergedAllOf => (Severity::Warning, "OpenAI strict mode changes this"),
            ChangeKind::ClosedObject | ChangeKind::MadeNullable => (Severity::Info, "OpenAI strict mode changes this"),
        };
        let code = format!("openai_{}", serde_json::to_value(c.kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default());
        let at = match c.kind {
            ChangeKind::DroppedKeyword | ChangeKind::DroppedFormat | ChangeKind::OneOfToAnyOf | ChangeKind::MergedAllOf => At::Key,
            // About the object as a whole (closed, or refused at the root): its opening brace.
            ChangeKind::ClosedObject => At::Open,
            ChangeKind::Rejected if c.pointer.is_empty() => At::Open,
            _ => At::Value,
        };
        report.add(severity, &code, &c.pointer, at, format!("{what}: {}", c.message), None);
    }
}

fn anthropic(report: &mut Report, schema: &Value) {
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        report.add(Severity::Error, "anthropic_root_not_object", "", At::Open, "Anthropic rejects a tool input_schema whose root is not \"type\": \"object\"".into(), None);
    }
    for (pointer, map) in subschemas(schema) {
        if let Some(Value::String(r)) = map.get("$ref") {
            if !r.starts_with('#') {
                report.add(Severity::Error, "anthropic_external_ref", &format!("{pointer}/$ref"), At::Value, format!("Anthropic does not resolve references outside the schema ({r}): inline it under $defs"), None);
            }
        }
    }
}
