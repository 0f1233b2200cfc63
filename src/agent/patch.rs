//! Merging, validated: RFC 6902 JSON Patch and RFC 7396 merge patch applied to a copy of a
//! document (the base is never changed), and the result validated against the contract — the
//! post-merge hook, for answers built from parts or repaired by a patch after a retry.
//!
//! A patch that cannot be applied is data, not an error: a `patch` violation (retryable) naming
//! the operation's index and path. The first operation that fails stops the patch, since RFC
//! 6902 applies a patch whole or not at all.

use crate::check::extract::{self, ExtractOptions};
use crate::check::output::{self, OutputLimits};
use crate::json::path::unescape_pointer_token;
use crate::report::canonical::OutputValidationError;
use crate::report::render::truncate_value;
use crate::report::violation::{self, PatchProblem, Violation};
use crate::agent::stream::{StopReason, StreamOutcome};
use crate::schema::contract::{Contract, DEFAULT_RECEIVED_LIMIT};
use serde_json::{Map, Value};

/// At most this many operations in one JSON Patch: a model fixing a handful of violations needs
/// a handful, and each operation may copy a subtree.
pub const MAX_OPERATIONS: usize = 10_000;

/// How a patch is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchFormat {
    /// RFC 6902: an array of `add`, `remove`, `replace`, `move`, `copy` and `test` operations.
    JsonPatch,
    /// RFC 7396: an object whose members replace the base's, `null` removing one.
    MergePatch,
}

impl PatchFormat {
    /// `json-patch` or `merge-patch`.
    pub fn from_name(name: &str) -> Option<PatchFormat> {
        match name {
            "json-patch" => Some(PatchFormat::JsonPatch),
            "merge-patch" => Some(PatchFormat::MergePatch),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PatchFormat::JsonPatch => "json-patch",
            PatchFormat::MergePatch => "merge-patch",
        }
    }
}

/// The limits a patch is applied within: the document's (size in bytes of its JSON, nesting
/// depth), which the merged document may not pass either, and the number of operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatchLimits {
    pub output: OutputLimits,
    pub max_operations: usize,
}

impl Default for PatchLimits {
    fn default() -> Self {
        PatchLimits { output: OutputLimits::default(), max_operations: MAX_OPERATIONS }
    }
}

/// Applies `patch` to a copy of `base`. `base` and `patch` must be within `limits.output` (the
/// callers below check); the result is too, or the answer is a `maxOutputBytes` / `maxDepth`
/// violation.
pub fn apply(base: &Value, patch: &Value, format: PatchFormat, limits: &PatchLimits) -> Result<Value, Violation> {
    match format {
        PatchFormat::JsonPatch => json_patch(base, patch, limits),
        PatchFormat::MergePatch => {
            let merged = merge_patch(base, patch);
            let size = json_size(&merged, limits.output.max_output_bytes);
            if size > limits.output.max_output_bytes {
                return Err(output::too_large(size, limits.output.max_output_bytes));
            }
            Ok(merged)
        }
    }
}

/// RFC 7396 section 2, on a copy of `target`. A merge patch always applies.
pub fn merge_patch(target: &Value, patch: &Value) -> Value {
    let mut out = target.clone();
    merge_into(&mut out, patch);
    out
}

fn merge_into(target: &mut Value, patch: &Value) {
    let Value::Object(members) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(object) = target {
        for (name, value) in members {
            if value.is_null() {
                object.shift_remove(name);
            } else {
                merge_into(object.entry(name.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

/// Why an operation failed: a problem of the patch (the model can send another), or a limit.
enum Failure {
    Problem(PatchProblem),
    Limit(Box<Violation>),
}

impl From<PatchProblem> for Failure {
    fn from(p: PatchProblem) -> Self {
        Failure::Problem(p)
    }
}

/// RFC 6902 section 4: the operations in order, on a copy of `base`; the first that fails stops
/// the patch.
pub fn json_patch(base: &Value, patch: &Value, limits: &PatchLimits) -> Result<Value, Violation> {
    let Value::Array(operations) = patch else {
        return Err(violation::patch(None, "", "", &PatchProblem::NotAnArray, truncate_value(patch, DEFAULT_RECEIVED_LIMIT)));
    };
    if operations.len() > limits.max_operations {
        let problem = PatchProblem::TooManyOperations { count: operations.len(), limit: limits.max_operations };
        return Err(violation::patch(None, "", "", &problem, Value::from(operations.len())));
    }
    let mut doc = base.clone();
    // What the document's JSON would weigh: each operation adds what it inserts and takes off
    // what it removes, so a chain of `copy`s cannot grow the document past the limit unseen.
    let mut size = json_size(base, limits.output.max_output_bytes);
    for (index, operation) in operations.iter().enumerate() {
        let op_name = operation.get("op").and_then(Value::as_str).unwrap_or("");
        let path = operation.get("path").and_then(Value::as_str).unwrap_or("");
        match apply_one(&mut doc, operation, &mut size, limits) {
            Ok(()) => {}
            Err(Failure::Limit(v)) => return Err(*v),
            Err(Failure::Problem(problem)) => {
                let received = truncate_value(operation, DEFAULT_RECEIVED_LIMIT);
                return Err(violation::patch(Some(index), op_name, path, &problem, received));
            }
        }
    }
    Ok(doc)
}

/// A pointer's reference tokens (RFC 6901 section 3), unescaped; `None` when it is not a pointer.
fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/')
        .map(|raw| {
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
                    return None;
                }
            }
            Some(unescape_pointer_token(raw).into_owned())
        })
        .collect()
}

/// An array index token (RFC 6901 section 4): digits, no leading zero but in `0` itself.
fn index_of(token: &str) -> Option<usize> {
    let digits = token.bytes().all(|b| b.is_ascii_digit());
    if token.is_empty() || !digits || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

fn bad_index(token: &str, len: usize) -> PatchProblem {
    PatchProblem::BadIndex { token: token.to_string(), len }
}

fn get<'v>(doc: &'v Value, tokens: &[String]) -> Option<&'v Value> {
    tokens.iter().try_fold(doc, |at, token| match at {
        Value::Object(map) => map.get(token),
        Value::Array(items) => items.get(index_of(token)?),
        _ => None,
    })
}

fn get_mut<'v>(doc: &'v mut Value, tokens: &[String]) -> Option<&'v mut Value> {
    tokens.iter().try_fold(doc, |at, token| match at {
        Value::Object(map) => map.get_mut(token),
        Value::Array(items) => items.get_mut(index_of(token)?),
        _ => None,
    })
}

fn member<'o>(operation: &'o Value, name: &'static str, missing: &'static str, not_string: &'static str) -> Result<&'o Value, PatchProblem> {
    let value = operation.get(name).ok_or(PatchProblem::Malformed(missing))?;
    if !matches!(name, "value") && !value.is_string() {
        return Err(PatchProblem::Malformed(not_string));
    }
    Ok(value)
}

fn pointer_member(operation: &Value, name: &'static str) -> Result<Vec<String>, PatchProblem> {
    let (missing, not_string) = match name {
        "from" => ("'from' is missing", "'from' is not a string"),
        _ => ("'path' is missing", "'path' is not a string"),
    };
    let text = member(operation, name, missing, not_string)?.as_str().unwrap_or("");
    tokens(text).ok_or(PatchProblem::BadPointer { member: name })
}

fn apply_one(doc: &mut Value, operation: &Value, size: &mut usize, limits: &PatchLimits) -> Result<(), Failure> {
    if !operation.is_object() {
        return Err(PatchProblem::Malformed("an operation is an object").into());
    }
    let op = member(operation, "op", "'op' is missing", "'op' is not a string")?.as_str().unwrap_or("");
    let path = pointer_member(operation, "path")?;
    let value = || member(operation, "value", "'value' is missing", "");
    match op {
        "add" => {
            let value = value()?;
            grow(size, value, &path, limits)?;
            add(doc, &path, value.clone())
        }
        "remove" => {
            let removed = remove(doc, &path, false)?;
            shrink(size, &removed, limits);
            Ok(())
        }
        "replace" => {
            let value = value()?;
            let target = get_mut(doc, &path).ok_or(PatchProblem::Missing { from: false })?;
            let old = std::mem::replace(target, Value::Null);
            shrink(size, &old, limits);
            grow(size, value, &path, limits)?;
            if let Some(target) = get_mut(doc, &path) {
                *target = value.clone();
            }
            Ok(())
        }
        "move" => {
            let from = pointer_member(operation, "from")?;
            if from == path {
                return get(doc, &from).map(|_| ()).ok_or(PatchProblem::Missing { from: true }.into());
            }
            if path.len() > from.len() && path.starts_with(&from) {
                return Err(PatchProblem::IntoItself.into());
            }
            let moved = remove(doc, &from, true)?;
            depth_check(&moved, &path, limits)?;
            add(doc, &path, moved)
        }
        "copy" => {
            let from = pointer_member(operation, "from")?;
            let copied = get(doc, &from).ok_or(PatchProblem::Missing { from: true })?.clone();
            grow(size, &copied, &path, limits)?;
            add(doc, &path, copied)
        }
        "test" => {
            let expected = value()?;
            let actual = get(doc, &path).ok_or(PatchProblem::Missing { from: false })?;
            if equal(actual, expected) {
                Ok(())
            } else {
                Err(PatchProblem::TestFailed.into())
            }
        }
        other => Err(PatchProblem::UnknownOp(other.to_string()).into()),
    }
}

/// RFC 6902 section 4.1: `value` at `path`, whose parent must exist; `-` appends to an array.
fn add(doc: &mut Value, path: &[String], value: Value) -> Result<(), Failure> {
    let Some((last, parent)) = path.split_last() else {
        *doc = value;
        return Ok(());
    };
    match get_mut(doc, parent) {
        Some(Value::Object(map)) => {
            map.insert(last.clone(), value);
            Ok(())
        }
        Some(Value::Array(items)) => {
            if last == "-" {
                items.push(value);
                return Ok(());
            }
            match index_of(last) {
                Some(i) if i <= items.len() => {
                    items.insert(i, value);
                    Ok(())
                }
                _ => Err(bad_index(last, items.len()).into()),
            }
        }
        _ => Err(PatchProblem::NoParent.into()),
    }
}

/// RFC 6902 section 4.2: takes out the value at `path` (of `from`, for a `move`).
fn remove(doc: &mut Value, path: &[String], from: bool) -> Result<Value, Failure> {
    let Some((last, parent)) = path.split_last() else {
        return Err(PatchProblem::RemoveRoot.into());
    };
    let missing = PatchProblem::Missing { from };
    match get_mut(doc, parent) {
        Some(Value::Object(map)) => map.shift_remove(last).ok_or(missing.into()),
        Some(Value::Array(items)) => match index_of(last) {
            Some(i) if i < items.len() => Ok(items.remove(i)),
            _ if from => Err(missing.into()),
            _ => Err(bad_index(last, items.len()).into()),
        },
        _ => Err(missing.into()),
    }
}

/// The value inserted at `path` keeps the document within the depth limit.
fn depth_check(value: &Value, path: &[String], limits: &PatchLimits) -> Result<(), Failure> {
    let max = limits.output.max_depth;
    let room = max.saturating_sub(path.len());
    if path.len() > max || output::value_depth(value, room) > room {
        return Err(Failure::Limit(Box::new(output::too_deep(max))));
    }
    Ok(())
}

fn grow(size: &mut usize, value: &Value, path: &[String], limits: &PatchLimits) -> Result<(), Failure> {
    depth_check(value, path, limits)?;
    let cap = limits.output.max_output_bytes;
    *size = size.saturating_add(json_size(value, cap));
    if *size > cap {
        return Err(Failure::Limit(Box::new(output::too_large(*size, cap))));
    }
    Ok(())
}

fn shrink(size: &mut usize, value: &Value, limits: &PatchLimits) {
    *size = size.saturating_sub(json_size(value, limits.output.max_output_bytes));
}

/// The length of `value`'s compact JSON (as `to_string` writes it), counted until it passes
/// `cap`. Counted rather than written: a serializer into a counting writer cost the module more
/// than the rest of this file.
fn json_size(value: &Value, cap: usize) -> usize {
    let mut size = 0usize;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        let here = match v {
            Value::Null | Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(n) => n.to_string().len(),
            Value::String(s) => string_size(s),
            Value::Array(items) => {
                stack.extend(items);
                1 + items.len().max(1)
            }
            Value::Object(map) => {
                let mut members = 1 + map.len().max(1);
                for (name, value) in map {
                    members = members.saturating_add(string_size(name) + 1);
                    stack.push(value);
                }
                members
            }
        };
        size = size.saturating_add(here);
        if size > cap {
            break;
        }
    }
    size
}

/// A string's JSON length: its quotes, and the escapes of `"`, `\\` and control characters.
fn string_size(s: &str) -> usize {
    s.bytes().fold(s.len() + 2, |n, b| match b {
        b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => n + 1,
        0..=0x1f => n + 5,
        _ => n,
    })
}

/// RFC 6902 section 4.6's equality: numbers by value (`1` equals `1.0`), objects whatever the
/// order of their members.
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(i), Some(j), _, _) => i == j,
            (_, _, Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| equal(v, w)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w))),
        _ => a == b,
    }
}

/// A document or patch given to `merge_and_validate`.
#[derive(Clone, Copy, Debug)]
pub enum MergeInput<'a> {
    Value(&'a Value),
    /// JSON text, read as `validate_text` reads it.
    Text(&'a str),
    /// Model text, whose JSON is found as `extract_and_validate` finds it.
    Extract(&'a str),
}

/// What `merge_and_validate` reports besides the result: whether the patch was applied (so a
/// failure is the merged document's), for a retry loop choosing its next retry.
#[derive(Debug)]
pub struct Merged {
    pub result: Result<Value, OutputValidationError>,
    pub applied: bool,
    /// The merged document when it was made but is invalid (a retry's next base).
    pub invalid_document: Option<Value>,
}

/// Why `merge` made no document: the violations, and the text they were found in (for the
/// failure's `raw_output`).
pub type Unmerged = (Vec<Violation>, String);

/// Reads `base` and `patch` within `limits` and applies the patch to a copy of the base: the
/// merged document (not validated), or why there is none — the base or the patch is not JSON or
/// not within the limits, the base has a repeated member name, or the patch does not apply.
pub fn merge(base: MergeInput<'_>, patch: MergeInput<'_>, format: PatchFormat, limits: OutputLimits) -> Result<Value, Unmerged> {
    let base_value = match read_input(base, limits)? {
        (value, repeated) if repeated.is_empty() => value,
        (value, repeated) => return Err((repeated, input_text(base, &value))),
    };
    let (patch_value, repeated) = read_input(patch, limits)?;
    if let Some(v) = repeated_member(&repeated) {
        return Err((vec![v], input_text(patch, &patch_value)));
    }
    let limits = PatchLimits { output: limits, ..PatchLimits::default() };
    apply(&base_value, &patch_value, format, &limits).map_err(|v| (vec![v], input_text(patch, &patch_value)))
}

/// A value within the limits, with the violations of its text's repeated member names.
fn read_input(input: MergeInput<'_>, limits: OutputLimits) -> Result<(Value, Vec<Violation>), Unmerged> {
    match input {
        MergeInput::Value(value) => {
            if output::value_depth(value, limits.max_depth) > limits.max_depth {
                return Err((vec![output::too_deep(limits.max_depth)], String::new()));
            }
            let size = json_size(value, limits.max_output_bytes);
            if size > limits.max_output_bytes {
                return Err((vec![output::too_large(size, limits.max_output_bytes)], String::new()));
            }
            Ok((value.clone(), Vec::new()))
        }
        MergeInput::Extract(text) => {
            let found = extract::extract_json(text, &ExtractOptions { repair: false, limits });
            match (found.value, found.error) {
                (Some(value), _) => {
                    let unlimited = OutputLimits { max_output_bytes: usize::MAX, ..limits };
                    let repeated = found.json.as_deref().and_then(|json| output::parse(json, unlimited).ok()).map(|p| p.repeated).unwrap_or_default();
                    Ok((value, repeated))
                }
                (None, Some(e)) => Err((vec![e.violation().clone()], text.to_string())),
                (None, None) => Err((vec![output::no_json(text)], text.to_string())),
            }
        }
        MergeInput::Text(text) => output::parse(text, limits).map(|p| (p.value, p.repeated)).map_err(|v| (vec![v], text.to_string())),
    }
}

impl Contract {
    /// Applies `patch` to a copy of `base` and validates the result: the merged document, or the
    /// canonical error (whose violations are a `patch` one when the patch could not be applied).
    pub fn validate_merged(&self, base: &Value, patch: &Value, format: PatchFormat) -> Result<Value, OutputValidationError> {
        self.merge_and_validate(MergeInput::Value(base), MergeInput::Value(patch), format).result
    }

    /// `validate_merged` for inputs that may be text, telling whether the patch was applied.
    pub fn merge_and_validate(&self, base: MergeInput<'_>, patch: MergeInput<'_>, format: PatchFormat) -> Merged {
        let merged = match merge(base, patch, format, self.limits()) {
            Ok(merged) => merged,
            Err((violations, raw)) => return Merged { result: Err(self.failure(violations, &raw)), applied: false, invalid_document: None },
        };
        let violations = self.violations(&merged);
        if violations.is_empty() {
            return Merged { result: Ok(merged), applied: true, invalid_document: None };
        }
        let failure = self.failure(violations, &merged.to_string());
        Merged { result: Err(failure), applied: true, invalid_document: Some(merged) }
    }
}

/// An input's text as the failure quotes it.
fn input_text(input: MergeInput<'_>, value: &Value) -> String {
    match input {
        MergeInput::Text(text) | MergeInput::Extract(text) => text.to_string(),
        MergeInput::Value(_) => value.to_string(),
    }
}

/// A member named twice in a patch (`duplicateKey` violations of its text) as the `patch`
/// violation of the operation that holds it.
fn repeated_member(repeated: &[Violation]) -> Option<Violation> {
    let first = repeated.first()?;
    let name = first.received.as_str().unwrap_or("").to_string();
    let index = first.pointer.strip_prefix('/').and_then(|rest| rest.split('/').next()).and_then(index_of);
    Some(violation::patch(index, "", "", &PatchProblem::RepeatedMember(name), first.received.clone()))
}

impl crate::agent::stream::OutputStream {
    /// Ends an attempt whose reply is a patch to `base` (the document of the attempt before, as
    /// the retry prompt asked): the patch, found in `text` by extraction's rule, is applied and
    /// the merged document validated, under `finish_text`'s refusal, retry and final-failure
    /// rules. A reply the model's token limit cut is read as `finish_text` reads it. Also returns
    /// the merged document while it is invalid and retried (the next patch's base) and whether the
    /// patch was applied.
    pub fn finish_patch(&mut self, reason: StopReason, refusal: Option<&str>, base: &Value, text: &str, format: PatchFormat) -> (StreamOutcome, Option<Value>, bool) {
        if reason == StopReason::Length || reason == StopReason::Refusal || refusal.is_some() {
            return (self.finish_text(reason, refusal, text, false, false), None, false);
        }
        let merged = self.contract.merge_and_validate(MergeInput::Value(base), MergeInput::Extract(text), format);
        (self.conclude(merged.result), merged.invalid_document, merged.applied)
    }

    /// Ends an attempt with `violations` found in `raw` by its caller (a patch that `merge` could
    /// not apply), under the machine's retry and final-failure rules.
    pub fn finish_failed(&mut self, violations: Vec<Violation>, raw: &str) -> StreamOutcome {
        let failure = self.contract.failure(violations, raw);
        self.conclude(Err(failure))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_size_is_the_length_of_compact_json() {
        let values = [
            json!(null),
            json!([]),
            json!({}),
            json!([1, -2.5, 1e300, true, false, null]),
            json!({"a\"\\\n\u{1}é": {"b": [[], {}, "x\ty"]}, "": 18446744073709551615u64}),
        ];
        for v in values {
            assert_eq!(json_size(&v, usize::MAX), v.to_string().len(), "{v}");
        }
        assert!(json_size(&Value::from(vec!["0123456789"; 100]), 50) > 50);
    }
}
