//! A registry of versioned output schemas: each schema is known by its `$id`, which carries its
//! name and semantic version (see `version`). Schemas `$ref` each other by `$id`, resolved among
//! the registry's schemas alone (nothing is ever fetched). `check` reports what is wrong with the
//! set as diagnostics with file paths and text ranges, including, for consecutive versions of
//! one name, a version step that does not allow the changes it makes (see `version`'s rule).
//!
//! File names follow the `$id`: `NAME.schema.json`, `NAME.vX.Y.Z.schema.json` (or
//! `NAME.X.Y.Z.schema.json`), or `NAME/X.Y.Z.schema.json`.
//!
//! JSON Type Definition schemas (a registry whose options say `draft: jtd`) have no `$id`:
//! theirs is `metadata.id`, and their title and description `metadata.title` and
//! `metadata.description` (RFC 8927 leaves `metadata` to the user). A JTD `ref` names one of
//! the schema's own `definitions`, so JTD schemas never refer to each other across files.

use crate::json::sourcemap::SourceMap;
use crate::json::textpos::{LineIndex, Range};
use crate::schema::compare::{self, Change};
use crate::schema::contract::{self, Contract, Options};
use crate::schema::error::{SchemaError, SchemaErrorKind, SchemaIssue};
use crate::schema::version::{self, Bump, Version};
use crate::validator::draft::Draft;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem of the registry, in one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable: tools and tests match on it.
    pub code: &'static str,
    pub message: String,
    /// The file as given to `add` (absent when none was).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The schema's `$id`, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Where in the schema (a JSON Pointer).
    pub pointer: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
}

/// One version of a name, as `versions` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VersionEntry {
    pub version: String,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

struct Entry {
    path: Option<String>,
    text: String,
    /// `Err`: the text is not JSON (or is beyond the schema limits).
    value: Result<Value, SchemaError>,
    id: Option<String>,
}

impl Entry {
    fn name_version(&self) -> Option<(String, Version)> {
        self.id.as_deref().and_then(version::name_and_version)
    }

    fn range(&self, pointer: &str) -> Option<Range> {
        let map = SourceMap::new(&self.text)?;
        let node = map.nearest(pointer)?;
        let start = node.key.map_or(node.value.start, |k| k.start);
        Some(LineIndex::new(&self.text).range(start, node.value.end))
    }
}

/// Schemas by `$id`, compiled with the same options.
pub struct Registry {
    entries: Vec<Entry>,
    options: Options,
}

impl Registry {
    /// An empty registry whose schemas compile with `options` (its `resources` are ignored:
    /// the registry's own schemas are the resources).
    pub fn new(options: Options) -> Registry {
        Registry { entries: Vec::new(), options: Options { resources: BTreeMap::new(), ..options } }
    }

    /// Adds schema text, read from `path` if given (used in diagnostics and to check the file
    /// name). Never fails: text that is not a schema is reported by `check`. Returns its `$id`.
    pub fn add(&mut self, text: &str, path: Option<&str>) -> Option<String> {
        let value = contract::parse_schema_text(text, &self.options);
        let id = value.as_ref().ok().and_then(|v| id_of(v, self.draft_of(v))).map(str::to_string);
        self.entries.push(Entry { path: path.map(str::to_string), text: text.to_string(), value, id: id.clone() });
        id
    }

    /// Adds every `*.schema.json` file below `dir` (sub-folders included), in path order.
    /// Returns how many were added; a folder or file that cannot be read is the error.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn add_dir(&mut self, dir: &std::path::Path) -> std::io::Result<usize> {
        let mut files = Vec::new();
        schema_files(dir, &mut files, 0)?;
        files.sort();
        for file in &files {
            let text = std::fs::read_to_string(file)?;
            self.add(&text, Some(&file.to_string_lossy()));
        }
        Ok(files.len())
    }

    fn draft_of(&self, schema: &Value) -> Draft {
        schema.get("$schema").and_then(Value::as_str).and_then(Draft::from_schema_uri).or(self.options.draft).unwrap_or(crate::validator::draft::DEFAULT_DRAFT)
    }

    /// The first schema with this `$id`.
    fn entry(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id.as_deref() == Some(id))
    }

    /// Every other schema, by `$id`, for `$ref`s across schemas.
    fn resources(&self, except: &str) -> BTreeMap<String, Value> {
        let mut out = BTreeMap::new();
        for e in &self.entries {
            if let (Some(id), Ok(value)) = (&e.id, &e.value) {
                if id != except && !out.contains_key(id) {
                    out.insert(id.clone(), value.clone());
                }
            }
        }
        out
    }

    /// The schema with this `$id`, compiled with the others as the documents its `$ref`s name.
    pub fn contract(&self, id: &str) -> Result<Contract, SchemaError> {
        let Some(entry) = self.entry(id) else {
            return Err(SchemaError::single(
                SchemaIssue::new(SchemaErrorKind::UnresolvableRef, "", format!("no schema in the registry has $id {id:?}")).with_uri(id.to_string()),
            ));
        };
        let value = entry.value.as_ref().map_err(Clone::clone)?;
        Contract::compile(value, &Options { resources: self.resources(id), ..self.options.clone() })
    }

    /// The schema (JSON) with this `$id` and the others by `$id`, for a caller that compiles it.
    pub fn schema(&self, id: &str) -> Option<(&Value, BTreeMap<String, Value>)> {
        let value = self.entry(id)?.value.as_ref().ok()?;
        Some((value, self.resources(id)))
    }

    /// The versions of `name`, oldest first.
    pub fn versions(&self, name: &str) -> Vec<VersionEntry> {
        let mut found: Vec<(Version, &Entry)> = self.entries.iter().filter_map(|e| e.name_version().filter(|(n, _)| n == name).map(|(_, v)| (v, e))).collect();
        crate::sort::sort_by(&mut found, |a, b| a.0.cmp(&b.0));
        found.dedup_by(|a, b| a.0 == b.0);
        found.into_iter().filter_map(|(v, e)| Some(VersionEntry { version: v.to_string(), id: e.id.clone()?, path: e.path.clone() })).collect()
    }

    /// Everything wrong with the registry, file by file, then the version steps.
    pub fn check(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            self.check_entry(i, e, &mut out);
        }
        self.check_steps(&mut out);
        out
    }

    fn diagnostic(&self, e: &Entry, severity: Severity, code: &'static str, pointer: &str, message: String) -> Diagnostic {
        Diagnostic { severity, code, message, path: e.path.clone(), id: e.id.clone(), pointer: pointer.to_string(), range: e.range(pointer) }
    }

    fn check_entry(&self, index: usize, e: &Entry, out: &mut Vec<Diagnostic>) {
        let value = match &e.value {
            Ok(v) => v,
            Err(error) => {
                let message = error.issues.first().map_or_else(|| error.message.clone(), |i| i.message.clone());
                let mut d = self.diagnostic(e, Severity::Error, "invalid_json", "", message);
                if let Some(issue) = error.issues.first() {
                    if let (Some(line), Some(column)) = (issue.line, issue.column) {
                        let lines = LineIndex::new(&e.text);
                        let at = lines.byte_of_byte_column(line, column);
                        d.range = Some(lines.range(at, at));
                    }
                }
                out.push(d);
                return;
            }
        };
        let draft = self.draft_of(value);
        let (id_pointer, id_keyword) = version::id_pointer_and_name(draft);
        match &e.id {
            None => out.push(self.diagnostic(e, Severity::Error, "missing_id", "", format!("the schema has no {id_keyword}: the registry knows schemas by it"))),
            Some(id) => match e.name_version() {
                None => out.push(self.diagnostic(
                    e,
                    Severity::Error,
                    "id_without_version",
                    &id_pointer,
                    format!("{id_keyword} {id:?} carries no semantic version: end it with /NAME/X.Y.Z or /NAME.vX.Y.Z.schema.json"),
                )),
                Some((name, version)) => {
                    if let Some(path) = &e.path {
                        if !file_name_matches(path, &name, &version) {
                            let message = format!("file name {:?} does not match {id_keyword} {id:?}: name it {name}.v{version}.schema.json, {name}/{version}.schema.json or {name}.schema.json", file_name(path));
                            out.push(self.diagnostic(e, Severity::Error, "file_name_mismatch", &id_pointer, message));
                        }
                    }
                }
            },
        }
        if let Some(id) = &e.id {
            let first = self.entries.iter().position(|other| other.id.as_deref() == Some(id.as_str()));
            if let Some(first) = first.filter(|f| *f != index) {
                let other = self.entries.get(first).and_then(|o| o.path.clone()).unwrap_or_else(|| format!("schema #{}", first + 1));
                out.push(self.diagnostic(e, Severity::Error, "duplicate_id", &id_pointer, format!("{id_keyword} {id:?} is also the id of {other}: each version of a schema must have its own")));
            }
        }
        let notes = if draft == Draft::Jtd { value.get("metadata").unwrap_or(&Value::Null) } else { value };
        for key in ["title", "description"] {
            if notes.get(key).and_then(Value::as_str).is_none_or(|s| s.trim().is_empty()) {
                out.push(self.diagnostic(e, Severity::Warning, if key == "title" { "missing_title" } else { "missing_description" }, "", format!("the schema has no {}{key}: readers of the registry (and models given the schema) rely on it", if draft == Draft::Jtd { "metadata." } else { "" })));
            }
        }
        let resources = e.id.as_deref().map_or_else(|| self.resources(""), |id| self.resources(id));
        if let Err(error) = Contract::compile(value, &Options { resources, ..self.options.clone() }) {
            for issue in &error.issues {
                out.push(self.issue_diagnostic(e, issue));
            }
        }
    }

    /// A compile problem, in the file it is in (a pointer `URI#/…` is inside another schema).
    fn issue_diagnostic(&self, e: &Entry, issue: &SchemaIssue) -> Diagnostic {
        let code = match issue.kind {
            SchemaErrorKind::UnresolvableRef => "unresolvable_ref",
            _ => "invalid_schema",
        };
        let (target, pointer) = match issue.pointer.split_once('#') {
            Some((uri, pointer)) => (self.entry(uri).unwrap_or(e), pointer),
            None => (e, issue.pointer.as_str()),
        };
        let message = if code == "unresolvable_ref" && issue.kind == SchemaErrorKind::UnresolvableRef {
            match &issue.uri {
                Some(uri) => format!("$ref {uri:?} cannot be resolved: no schema in the registry has that $id, or nothing is at its fragment (nothing is fetched)"),
                None => issue.message.clone(),
            }
        } else {
            issue.message.clone()
        };
        self.diagnostic(target, Severity::Error, code, pointer, message)
    }

    /// For each name, each version against the one before it: does its step allow its changes?
    fn check_steps(&self, out: &mut Vec<Diagnostic>) {
        let mut names: Vec<String> = self.entries.iter().filter_map(|e| e.name_version().map(|(n, _)| n)).collect();
        crate::sort::sort(&mut names);
        names.dedup();
        for name in names {
            let versions = self.versions(&name);
            for step in versions.windows(2) {
                let [old, new] = step else { continue };
                let (Ok(a), Ok(b)) = (self.contract(&old.id), self.contract(&new.id)) else { continue };
                let (Some(va), Some(vb)) = (Version::parse(&old.version), Version::parse(&new.version)) else { continue };
                let bump = Bump::between(&va, &vb);
                let mut comparison = compare::compare(&a, &b);
                if bump.allows(&comparison) {
                    continue;
                }
                let Some(entry) = self.entry(&new.id) else { continue };
                compare::add_ranges(&mut comparison, &entry.text);
                let needed = Bump::needed(&comparison);
                let rule = match bump {
                    Bump::Patch => "a patch step may not change which outputs are accepted",
                    _ => "a minor step may only narrow (every new output must fit consumers of the old version)",
                };
                let mut report = |what: &str, changes: &[Change]| {
                    for c in changes {
                        let message = format!("{name} {} → {} is a {} step, but this {what}: {} ({rule}; it needs a {} step)", old.version, new.version, bump.name(), c.message, needed.name());
                        out.push(Diagnostic { severity: Severity::Error, code: "version_step", message, path: entry.path.clone(), id: entry.id.clone(), pointer: c.pointer.clone(), range: c.range });
                    }
                };
                if bump == Bump::Patch {
                    report("narrows", &comparison.narrowed);
                }
                report("widens", &comparison.widened);
                report("cannot be shown compatible", &comparison.unknown);
            }
        }
    }
}

/// How deep `add_dir` goes into sub-folders (a link cycle ends here).
#[cfg(not(target_arch = "wasm32"))]
const MAX_DIR_DEPTH: usize = 16;

#[cfg(not(target_arch = "wasm32"))]
fn schema_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>, depth: usize) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if depth < MAX_DIR_DEPTH {
                schema_files(&path, out, depth + 1)?;
            }
        } else if path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".schema.json")) {
            out.push(path);
        }
    }
    Ok(())
}

fn id_of(schema: &Value, draft: Draft) -> Option<&str> {
    version::schema_id(schema, draft)
}

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// `NAME.schema.json`, `NAME.vX.Y.Z.schema.json`, `NAME.X.Y.Z.schema.json` or
/// `NAME/X.Y.Z.schema.json` (`.json` alone also counts as the extension).
fn file_name_matches(path: &str, name: &str, version: &Version) -> bool {
    let file = file_name(path);
    let Some(stem) = file.strip_suffix(".schema.json").or_else(|| file.strip_suffix(".json")) else { return false };
    let is_version = |s: &str| Version::parse(s).is_some_and(|v| v == *version);
    if stem == name {
        return true;
    }
    if let Some(rest) = stem.strip_prefix(name).and_then(|r| r.strip_prefix('.')) {
        return is_version(rest);
    }
    let parent = path.rsplit(['/', '\\']).nth(1);
    is_version(stem) && parent == Some(name)
}
