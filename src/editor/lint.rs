//! `checkSchema`: everything the schema editor shows about an output schema, as diagnostics at
//! text ranges — JSON syntax, meta-schema and compile problems, authoring lints and provider
//! compatibility. It never fails: broken text (the editor holds it while the user types) is a
//! diagnostic like any other. Text that is JSON but for trailing commas, comments or raw control
//! characters in strings gets an error with a fix at each, and every other diagnostic as if they
//! were fixed, at its place in the text as written.
//!
//! Ranges have 1-based lines and columns and 0-based offsets, columns and offsets counted in
//! UTF-16 code units, as editors and JavaScript strings count them.

use crate::agent::config::{shape_diagnostics, ConfigCode};
use crate::schema::contract::{self, Contract, DraftReason, Options};
use crate::validator::draft::{drafts_knowing, Draft};
use crate::validator::keywords::{self, MAX_WALK_DEPTH};
use crate::schema::error::{SchemaErrorKind, SchemaIssue};
use crate::schema::strict;
use crate::schema::version;
use crate::json::path::escape_pointer_token;
use crate::json::sourcemap::{SourceMap, Span};
pub use crate::json::textpos::Range;
use crate::json::textpos::LineIndex;
use crate::agent::tool::{self, ChangeKind, Provider};
use crate::check::extract::{self, Repair, RepairKind};
use crate::validator::format::{self, CustomFormat};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

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
    /// The names of the custom formats the schema is compiled with (`Options::custom_formats`):
    /// known, so strict mode does not flag them.
    pub formats: Vec<String>,
    /// Schema documents by URI that `$ref`s resolve against (`Options::resources`).
    pub resources: BTreeMap<String, Value>,
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
    /// Of the text as the user wrote it: every range is in it.
    lines: LineIndex<'t>,
    /// Of the text parsed: the user's, or its repaired form.
    map: Option<SourceMap>,
    len: usize,
    /// The repairs that turned the user's text into the text parsed.
    edits: Edits,
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

    /// The range in the user's text of a span of the text parsed.
    fn range(&self, span: Span) -> Range {
        self.lines.range(self.edits.original(span.start, false), self.edits.original(span.end, true))
    }
}

/// Repairs as byte edits of the user's text, in text order.
struct Edits(Vec<Edit>);

struct Edit {
    /// The span of the user's text replaced.
    start: usize,
    stop: usize,
    /// Where its replacement starts in the repaired text, and its length (0 for a removal).
    at: usize,
    len: usize,
}

impl Edits {
    /// From spans of the user's text and the lengths of their replacements.
    fn new(spans: impl Iterator<Item = (usize, usize, usize)>) -> Edits {
        let mut shift = 0isize;
        let mut out = Vec::new();
        for (start, stop, len) in spans {
            let at = start.saturating_add_signed(shift);
            shift += len as isize - stop.saturating_sub(start) as isize;
            out.push(Edit { start, stop, at, len });
        }
        Edits(out)
    }

    /// The offset in the user's text of offset `at` of the repaired text. A span's `end` keeps
    /// before a removal (so it never takes in a removed comma), its start after.
    fn original(&self, at: usize, end: bool) -> usize {
        // The last edit before `at`; the bytes after it are the user's, unchanged.
        let after = self.0.partition_point(|e| e.at < at || !end && e.at == at);
        let Some(e) = after.checked_sub(1).and_then(|i| self.0.get(i)) else { return at };
        match e.at + e.len {
            // Inside a replacement: the character it replaces.
            replaced if at < replaced || end && at == replaced => {
                if end {
                    e.stop
                } else {
                    e.start
                }
            }
            replaced => e.stop + (at - replaced),
        }
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
    // Only the names matter here: nothing is validated against the schema.
    let custom_formats = options.formats.iter().map(|name| (name.clone(), CustomFormat::function(|_| true))).collect();
    let compile = Options { draft: options.draft, custom_formats, resources: options.resources.clone(), ..Options::default() };
    let (schema, repaired) = match contract::parse_schema_text(text, &compile) {
        Ok(v) => (v, None),
        Err(e) => match parse_repaired(text, &e, &compile) {
            Some((v, fixed, repairs)) => (v, Some((fixed, repairs))),
            None => return unparsed(text, &e, options),
        },
    };
    let parsed = repaired.as_ref().map_or(text, |(fixed, _)| fixed.as_str());
    let repairs = repaired.as_ref().map_or(&[][..], |(_, r)| r.as_slice());
    let edits = Edits::new(repairs.iter().map(|r| (r.start, r.end, replacement(text, r).len())));
    let at = Locator { lines: LineIndex::new(text), map: SourceMap::new(parsed), len: parsed.len(), edits };
    let mut report = Report { at, out: Vec::new() };
    for r in repairs {
        syntax_repair(&mut report, text, r);
    }
    let objects = subschemas(&schema);
    let draft = match Contract::compile(&schema, &compile) {
        Ok(c) => {
            drafts_and_formats(&mut report, &c, &objects, &options.formats);
            c.draft()
        }
        Err(e) => {
            let draft = contract::detect_draft(&schema, &compile).map(|(d, _)| d).unwrap_or_else(|_| {
                schema
                    .get("$schema")
                    .and_then(Value::as_str)
                    .and_then(Draft::from_schema_uri)
                    .filter(|_| options.draft != Some(Draft::Jtd))
                    .unwrap_or(options.draft.unwrap_or(crate::validator::draft::DEFAULT_DRAFT))
            });
            // The meta-schema can report one problem through several of its branches.
            let mut seen = BTreeSet::new();
            for issue in e.issues.iter().filter(|i| seen.insert((i.pointer.as_str(), i.message.as_str()))) {
                compile_issue(&mut report, issue, draft, &schema, &objects, &options.formats);
            }
            draft
        }
    };
    // JTD: its rules' issues alone. The lints below read JSON Schema keywords, and a provider's
    // diagnostics would be about the schema's JSON Schema form, at pointers not in this text.
    let lints = if draft == Draft::Jtd { None } else { options.provider };
    if draft != Draft::Jtd {
        ids_beside_ref(&mut report, &schema, draft);
        authoring(&mut report, &schema, &objects);
    }
    match lints {
        Some(Provider::OpenAi) => openai(&mut report, &schema),
        Some(Provider::Anthropic) => anthropic(&mut report, &schema, &objects),
        _ => {}
    }
    let mut diagnostics = report.out;
    crate::sort::sort_by(&mut diagnostics, |a, b| (a.range.start.offset, a.severity as u8).cmp(&(b.range.start.offset, b.severity as u8)));
    let valid = !diagnostics.iter().any(|d| d.severity == Severity::Error);
    CheckReport { valid, draft: draft.name(), diagnostics }
}

/// Text that is not JSON: its syntax errors, nothing else.
fn unparsed(text: &str, e: &crate::schema::error::SchemaError, options: &CheckOptions) -> CheckReport {
    let lines = LineIndex::new(text);
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
    CheckReport { valid: false, draft, diagnostics: out }
}

/// Text that is JSON but for what model output's repair fixes (trailing commas, comments, raw
/// control characters in strings): the value of the repaired text, the text and the repairs.
fn parse_repaired(text: &str, e: &crate::schema::error::SchemaError, options: &Options) -> Option<(Value, String, Vec<Repair>)> {
    if e.kind != SchemaErrorKind::InvalidJson {
        return None;
    }
    let (fixed, repairs) = extract::repair(text)?;
    let value = contract::parse_schema_text(&fixed, options).ok()?;
    Some((value, fixed, repairs))
}

/// What a repair puts in place of the text it fixes.
fn replacement(text: &str, r: &Repair) -> String {
    match (r.kind, text.as_bytes().get(r.start)) {
        (RepairKind::ControlCharacter, Some(&b)) => extract::control_escape(b),
        _ => String::new(),
    }
}

/// A syntax error the repair fixed: an error at the text it fixes, with the repair as the fix.
fn syntax_repair(report: &mut Report, text: &str, r: &Repair) {
    let (message, fix_message) = match r.kind {
        RepairKind::TrailingComma => ("trailing comma: JSON allows no comma after the last member of an object or the last item of an array", "remove the comma".to_string()),
        RepairKind::Comment => ("comment: JSON has no comments (a schema can say it in \"$comment\" or \"description\")", "remove the comment".to_string()),
        RepairKind::ControlCharacter => (
            "raw control character (such as a line break or a tab) in a string: JSON strings must escape it",
            format!("escape it as {}", replacement(text, r)),
        ),
    };
    let range = report.at.lines.range(r.start, r.end);
    let fix = Some(fix(fix_message, Some(replacement(text, r))));
    report.out.push(Diagnostic { severity: Severity::Error, code: "json_syntax".into(), message: message.into(), pointer: String::new(), range, fix });
}

/// A schema object with its pointer, as [`subschemas`] lists them.
type Object<'s> = (String, &'s Map<String, Value>);

fn compile_issue(report: &mut Report, issue: &SchemaIssue, draft: Draft, schema: &Value, objects: &[Object], custom_formats: &[String]) {
    let keyword = issue.keyword.as_deref().unwrap_or_default();
    let (code, at, fix) = match issue.kind {
        SchemaErrorKind::UnknownKeyword if draft == Draft::Jtd => (issue.kind.as_str(), At::Key, None),
        SchemaErrorKind::MetaSchema if draft == Draft::Jtd && keyword == "type" => {
            let name = schema.pointer(&issue.pointer).and_then(Value::as_str).unwrap_or_default();
            let near = nearest(name, &crate::schema::jtd::TYPES, &[]);
            (issue.kind.as_str(), At::Value, near.map(rename))
        }
        SchemaErrorKind::UnknownKeyword => match (drafts_knowing(keyword, draft).first(), &issue.suggestion) {
            // A keyword of another draft gets its own code: the fix is choosing the draft, not a rename.
            (Some(home), _) => ("keyword_from_other_draft", At::Key, Some(fix(format!("add \"$schema\": \"{}\" at the root", home.meta_schema_uri()), None))),
            (None, Some(near)) => (issue.kind.as_str(), At::Key, Some(rename(near))),
            (None, None) => (issue.kind.as_str(), At::Key, None),
        },
        SchemaErrorKind::RefSibling => {
            let message = format!(
                "put \"$ref\" and \"{keyword}\" in an \"allOf\", or add \"$schema\": \"{}\" at the root",
                Draft::Draft201909.meta_schema_uri()
            );
            (issue.kind.as_str(), At::Key, Some(fix(message, None)))
        }
        SchemaErrorKind::MetaSchema if unknown_types(report, issue, objects) => return,
        SchemaErrorKind::UnknownFormat => {
            let name = schema.pointer(&issue.pointer).and_then(Value::as_str).unwrap_or_default();
            let built_in = FORMATS.into_iter().chain(format::GENERATED).filter(|f| format::lookup(f, draft).is_some());
            let known: Vec<&str> = built_in.chain(custom_formats.iter().map(String::as_str)).collect();
            if let Some(near) = nearest(name, &known, &FORMAT_ALIASES) {
                let message = format!("unknown format {name:?} (did you mean {near:?}?): it would never be checked");
                report.add(Severity::Error, issue.kind.as_str(), &issue.pointer, At::Value, message, Some(rename(near)));
                return;
            }
            (issue.kind.as_str(), At::Value, None)
        }
        _ => (issue.kind.as_str(), At::Value, None),
    };
    report.add(Severity::Error, code, &issue.pointer, at, issue.message.clone(), fix);
}

/// What decided the draft, when it is not plain (`draft_inferred`, `dialect`, and the warning
/// `unknown_schema_uri`); and the formats the draft in effect does not define although the
/// library asserts them (`format_from_later_draft`, `format_extension`), or does not know and
/// leaves to the `pattern` beside them (`format_annotation`).
fn drafts_and_formats(report: &mut Report, contract: &Contract, objects: &[Object], custom_formats: &[String]) {
    let draft = contract.draft();
    if draft == Draft::Jtd {
        return;
    }
    let reason = contract.draft_reason();
    match reason {
        DraftReason::Inferred { keyword, pointer } => {
            let at = format!("{pointer}/{}", escape_pointer_token(keyword));
            let message = format!("add \"$schema\": \"{}\" at the root", draft.meta_schema_uri());
            report.add(Severity::Info, "draft_inferred", &at, At::Key, reason.message(draft), Some(fix(message, None)));
        }
        DraftReason::Dialect { .. } => report.add(Severity::Info, "dialect_alias", "/$schema", At::Value, reason.message(draft), None),
        DraftReason::OptionForUnknownSchema { .. } => {
            let message = format!("name the draft in \"$schema\" (\"{}\") so the schema says what it means wherever it is used", draft.meta_schema_uri());
            report.add(Severity::Warning, "unknown_schema_uri", "/$schema", At::Value, reason.message(draft), Some(fix(message, None)));
        }
        _ => {}
    }
    let validator = contract.validator();
    let mut notes: Vec<(String, String)> = Vec::new();
    keywords::for_each_node(validator.root(), |n| validator.keywords(n), |n| {
        let location = validator.location(n);
        for kw in validator.keywords(n) {
            if let (crate::validator::Kw::Format(format::Check::Builtin(_), name), false) = (kw, location.contains('#')) {
                notes.push((format!("{location}/format"), name.clone()));
            }
        }
        true
    });
    crate::sort::sort(&mut notes);
    notes.dedup();
    for (pointer, name) in notes {
        match format::since(&name) {
            Some(since) if since > draft => report.add(
                Severity::Info,
                "format_from_later_draft",
                &pointer,
                At::Value,
                format!("format {name:?} is defined by {} and later; it is asserted in {} too, as other validators (Ajv with ajv-formats) do", since.title(), draft.title()),
                None,
            ),
            Some(_) => {}
            None => report.add(
                Severity::Info,
                "format_extension",
                &pointer,
                At::Value,
                format!("format {name:?} is no JSON Schema format but one schema generators write (Zod's); the library asserts it as Zod defines it"),
                None,
            ),
        }
    }
    for (pointer, map) in objects {
        let Some(Value::String(name)) = map.get("format") else { continue };
        if map.get("pattern").is_some_and(Value::is_string) && format::lookup(name, draft).is_none() && !custom_formats.contains(name) {
            report.add(
                Severity::Info,
                "format_annotation",
                &format!("{pointer}/format"),
                At::Value,
                format!("format {name:?} is not one the library knows: it is an annotation here, and the \"pattern\" beside it checks the value"),
                None,
            );
        }
    }
}

fn fix(message: String, replacement: Option<String>) -> Fix {
    Fix { message, replacement }
}

/// The fix of a misspelt name: the name meant, in place of the string at the range.
fn rename(near: &str) -> Fix {
    fix(format!("rename to '{near}'"), Some(format!("\"{near}\"")))
}

/// JSON Schema's type names.
const TYPES: [&str; 7] = ["string", "number", "integer", "boolean", "object", "array", "null"];
/// What other languages call those types.
const TYPE_ALIASES: [(&str, &str); 14] = [
    ("int", "integer"), ("long", "integer"), ("float", "number"), ("double", "number"), ("decimal", "number"),
    ("str", "string"), ("text", "string"), ("bool", "boolean"), ("dict", "object"), ("map", "object"),
    ("list", "array"), ("tuple", "array"), ("none", "null"), ("nil", "null"),
];
/// The formats a schema may assert, as far as the draft in effect defines them.
const FORMATS: [&str; 17] = [
    "date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri",
    "iri-reference", "json-pointer", "relative-json-pointer", "uri-template", "uuid", "regex",
];
/// Names other tools give those formats.
const FORMAT_ALIASES: [(&str, &str); 6] =
    [("url", "uri"), ("guid", "uuid"), ("timestamp", "date-time"), ("ipaddress", "ipv4"), ("pattern", "regex"), ("host", "hostname")];

/// A meta-schema error at a `type` that names types JSON Schema does not have: an error at each
/// such name (the item, in a list of types), with its did-you-mean. False for any other error.
fn unknown_types(report: &mut Report, issue: &SchemaIssue, objects: &[Object]) -> bool {
    let Some(parent) = issue.pointer.strip_suffix("/type") else { return false };
    // Only where `type` is a keyword: a property called "type" is a schema, not a type name.
    let Ok(i) = objects.binary_search_by(|(p, _)| p.as_str().cmp(parent)) else { return false };
    let names: Vec<(String, &str)> = match objects.get(i).and_then(|(_, map)| map.get("type")) {
        Some(Value::String(name)) => vec![(issue.pointer.clone(), name.as_str())],
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
            items.iter().enumerate().map(|(i, name)| (format!("{}/{i}", issue.pointer), name.as_str().unwrap_or_default())).collect()
        }
        _ => return false,
    };
    let unknown: Vec<(String, &str)> = names.into_iter().filter(|(_, name)| !TYPES.contains(name)).collect();
    for (pointer, name) in &unknown {
        let near = nearest(name, &TYPES, &TYPE_ALIASES);
        let message = match near {
            Some(near) => format!("unknown type {name:?} (did you mean {near:?}?)"),
            None => format!("unknown type {name:?}: the types are \"string\", \"number\", \"integer\", \"boolean\", \"object\", \"array\" and \"null\""),
        };
        report.add(Severity::Error, issue.kind.as_str(), pointer, At::Value, message, near.map(rename));
    }
    !unknown.is_empty()
}

/// The name of `names` that `typed` most likely stands for: the same but for case, `-` and `_`;
/// one of `aliases`; a name it begins (`int`, `obj`); or the one sharing the most letters in
/// order with it, when it misses or adds two letters at most (`integr`, `emial`).
fn nearest<'n>(typed: &str, names: &[&'n str], aliases: &[(&str, &'n str)]) -> Option<&'n str> {
    let squeeze = |s: &str| s.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).flat_map(char::to_lowercase).collect::<String>();
    let typed = squeeze(typed);
    if let Some((_, name)) = aliases.iter().find(|(alias, name)| *alias == typed && names.contains(name)) {
        return Some(name);
    }
    let score = |name: &str| {
        let name = squeeze(name);
        let shared = common_letters(&typed, &name);
        match () {
            () if name == typed => Some(usize::MAX),
            () if typed.len() >= 3 && name.starts_with(&typed) => Some(usize::MAX - 1),
            () if shared >= 3 && shared + 2 >= typed.len().max(name.len()) => Some(shared),
            () => None,
        }
    };
    let mut best: Option<(usize, &'n str)> = None;
    for &name in names {
        if let Some(s) = score(name).filter(|s| best.is_none_or(|(b, _)| *s > b)) {
            best = Some((s, name));
        }
    }
    best.map(|(_, name)| name)
}

/// The length of the longest common subsequence of `a` and `b`.
fn common_letters(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row = vec![0usize; b.len() + 1];
    for ca in a.chars() {
        // `row` holds the previous letter's row until each cell is overwritten.
        let (mut diagonal, mut left) = (0, 0);
        for (cb, cell) in b.iter().zip(row.iter_mut().skip(1)) {
            let up = *cell;
            *cell = if ca == *cb { diagonal + 1 } else { up.max(left) };
            (diagonal, left) = (up, *cell);
        }
    }
    row.last().copied().unwrap_or(0)
}

/// An identifier beside a `$ref` in Drafts 4–7: ignored, so a warning rather than an error.
fn ids_beside_ref(report: &mut Report, schema: &Value, draft: Draft) {
    for issue in strict::ids_beside_ref(schema, draft) {
        let keyword = issue.keyword.as_deref().unwrap_or_default();
        let message = format!("remove \"{keyword}\", or put the \"$ref\" in an \"allOf\" so that it resolves against \"{keyword}\"");
        report.add(Severity::Warning, "id_beside_ref", &issue.pointer, At::Key, issue.message, Some(fix(message, None)));
    }
}

/// Every subschema with its pointer, sorted by pointer: the keyword table's walk, whatever the
/// draft (a keyword another draft reads is still linted), as deep as strict mode walks.
fn subschemas(root: &Value) -> Vec<Object<'_>> {
    let mut out = Vec::new();
    let mut todo = vec![(String::new(), root, 0usize)];
    while let Some((pointer, value, depth)) = todo.pop() {
        let Value::Object(map) = value else { continue };
        if depth > MAX_WALK_DEPTH {
            continue;
        }
        keywords::subschemas(map, |_| true, |key, sub, step| {
            let mut at = format!("{pointer}/{}", escape_pointer_token(key));
            if let Some(token) = step.token() {
                at.push('/');
                at.push_str(&escape_pointer_token(&token));
            }
            todo.push((at, sub, depth + 1));
        });
        out.push((pointer, map));
    }
    crate::sort::sort_by(&mut out, |a, b| a.0.cmp(&b.0));
    out
}

fn authoring(report: &mut Report, schema: &Value, objects: &[Object]) {
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
            Some(id) if version::name_and_version(id).is_none() => report.add(Severity::Info, "id_not_versioned", "/$id", At::Value, format!("\"$id\" {id:?} has no version: end it with …/NAME/X.Y.Z (or …/NAME.vX.Y.Z.schema.json) so a changed contract gets a new id"), None),
            _ => {}
        }
        for (key, code) in [("title", "missing_title"), ("description", "missing_description")] {
            if !root.contains_key(key) {
                report.add(Severity::Info, code, "", At::Open, format!("no \"{key}\" at the root: the dashboard and the model's prompt show it"), None);
            }
        }
    }
    for (pointer, map) in objects {
        object_lints(report, pointer, map);
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

fn object_lints(report: &mut Report, pointer: &str, map: &Map<String, Value>) {
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

/// "one of: low, medium, high", "either 'a' or 'b'", "a | b | c".
fn lists_options(description: &str) -> bool {
    let lower = description.to_lowercase();
    let quoted = description.matches(['\'', '"', '`']).count() >= 4;
    lower.contains("one of") || lower.contains("either") || lower.contains(" | ") || (quoted && lower.contains(" or "))
}

fn openai(report: &mut Report, schema: &Value) {
    let def = tool::submit_result_tool(schema, Provider::OpenAi, None, None);
    for c in def.changes {
        const DROPS: &str = "OpenAI strict mode drops this (validation still checks it)";
        const CHANGES: &str = "OpenAI strict mode changes this";
        let (severity, code, what) = match c.kind {
            ChangeKind::Rejected => (Severity::Error, "openai_rejected", "OpenAI strict mode rejects this schema"),
            ChangeKind::DroppedKeyword => (Severity::Warning, "openai_dropped_keyword", DROPS),
            ChangeKind::DroppedFormat => (Severity::Warning, "openai_dropped_format", DROPS),
            ChangeKind::OneOfToAnyOf => (Severity::Warning, "openai_one_of_to_any_of", CHANGES),
            ChangeKind::MergedAllOf => (Severity::Warning, "openai_merged_all_of", CHANGES),
            ChangeKind::ClosedObject => (Severity::Info, "openai_closed_object", CHANGES),
            ChangeKind::MadeNullable => (Severity::Info, "openai_made_nullable", CHANGES),
            // Only for a JTD schema, which gets no provider diagnostics (see `check_schema`).
            ChangeKind::FromJtd => continue,
        };
        let at = match c.kind {
            ChangeKind::DroppedKeyword | ChangeKind::DroppedFormat | ChangeKind::OneOfToAnyOf | ChangeKind::MergedAllOf => At::Key,
            // About the object as a whole (closed, or refused at the root): its opening brace.
            ChangeKind::ClosedObject => At::Open,
            ChangeKind::Rejected if c.pointer.is_empty() => At::Open,
            _ => At::Value,
        };
        report.add(severity, code, &c.pointer, at, format!("{what}: {}", c.message), None);
    }
}

fn anthropic(report: &mut Report, schema: &Value, objects: &[Object]) {
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        report.add(Severity::Error, "anthropic_root_not_object", "", At::Open, "Anthropic rejects a tool input_schema whose root is not \"type\": \"object\"".into(), None);
    }
    for (pointer, map) in objects {
        if let Some(Value::String(r)) = map.get("$ref") {
            if !r.starts_with('#') {
                report.add(Severity::Error, "anthropic_external_ref", &format!("{pointer}/$ref"), At::Value, format!("Anthropic does not resolve references outside the schema ({r}): inline it under $defs"), None);
            }
        }
    }
}
