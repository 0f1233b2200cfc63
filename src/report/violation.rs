//! One violation of an output contract: where (`path`, `pointer`), which keyword, what was
//! expected and received, and the one message template of that keyword.

use crate::json::writer::{write_str, write_value};
use crate::json::path::{push_index, InstancePath};
use crate::report::render::{describe, pattern, quote, repr, sized, truncate_value};
use crate::validator::{branch_rank, nearest_branch, Error, ErrorKind};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::cmp::Ordering;

/// How a message about a pattern that needed too much backtracking ends.
const BACKTRACKED: &str = "backtracking limit exceeded";

/// The `anyOf` / `oneOf` branch a violation was taken from: the closest of `count` branches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Branch {
    pub keyword: String,
    pub index: usize,
    pub count: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    /// JSONPath-style location: `$`, `$.comments[0].severity`, `$['odd key']`.
    pub path: String,
    /// The keyword that failed (`type`, `enum`, …) or, for problems before schema validation,
    /// one of `json`, `truncated`, `maxOutputBytes`, `maxDepth`.
    pub keyword: String,
    #[serde(default)]
    pub expected: Value,
    /// The offending value; longer than the cap, it becomes a string with a truncation marker.
    #[serde(default)]
    pub received: Value,
    pub message: String,
    /// RFC 6901 pointer to the same location.
    #[serde(default)]
    pub pointer: String,
    /// The failing keyword's location, reached from the root schema (through `$ref`s, as the
    /// specification's `keywordLocation`).
    #[serde(default)]
    pub schema_path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<Branch>,
    /// Document order of the location, for sorting; not part of the canonical object.
    #[serde(skip, default)]
    pub(crate) order: Vec<usize>,
}

impl Violation {
    /// Appends the violation as `OutputValidationError::to_json_text` writes it: the fields in
    /// their declared order, as the derived `Serialize` writes them.
    pub(crate) fn write_json(&self, out: &mut String) {
        // Each key with its punctuation as one literal: `write_key` pushes it in four pieces,
        // and these keys are written for every violation of every invalid output.
        out.push_str("{\"path\":");
        write_str(out, &self.path);
        out.push_str(",\"keyword\":");
        write_str(out, &self.keyword);
        out.push_str(",\"expected\":");
        write_value(out, &self.expected);
        out.push_str(",\"received\":");
        write_value(out, &self.received);
        out.push_str(",\"message\":");
        write_str(out, &self.message);
        out.push_str(",\"pointer\":");
        write_str(out, &self.pointer);
        out.push_str(",\"schema_path\":");
        write_str(out, &self.schema_path);
        if let Some(branch) = &self.branch {
            out.push_str(",\"branch\":{\"keyword\":");
            write_str(out, &branch.keyword);
            out.push_str(",\"index\":");
            push_index(out, branch.index);
            out.push_str(",\"count\":");
            push_index(out, branch.count);
            out.push('}');
        }
        out.push('}');
    }

    /// A violation found before any schema keyword ran (bad JSON, limits).
    pub fn of_output(keyword: &str, expected: Value, received: Value, message: String) -> Self {
        Violation {
            path: "$".into(),
            keyword: keyword.into(),
            expected,
            received,
            message,
            pointer: String::new(),
            schema_path: String::new(),
            branch: None,
            order: Vec::new(),
        }
    }

    /// Whether the model can repair it by answering again (false for resource limits).
    pub fn is_retryable(&self) -> bool {
        // The backtracking message ends every message that carries it (a property name's
        // included); `contains` set up a substring search per violation, 1% of an invalid output.
        !matches!(self.keyword.as_str(), "maxOutputBytes" | "maxDepth") && !self.message.ends_with(BACKTRACKED)
    }

    /// `$.severity: 'critical' is not one of ['low', 'medium', 'high']` — the one-line form used
    /// by failure envelopes and retry prompts.
    pub fn one_line(&self) -> String {
        format!("{}{LINE_SEPARATOR}{}", self.path, self.message)
    }
}

/// Between a violation's path and its message in `one_line`; pkg/src/api.js's `formatViolation`
/// writes the same line from it (src/bindings/boundary.rs, boundary_constants).
pub const LINE_SEPARATOR: &str = ": ";

/// Sorts violations into instance document order (a parent before its children), then keyword,
/// then schema location, so the same output always reports in the same order.
pub fn sort(violations: &mut [Violation]) {
    crate::sort::sort_by(violations, |a, b| {
        compare_order(&a.order, &b.order)
            .then_with(|| a.keyword.cmp(&b.keyword))
            .then_with(|| a.schema_path.cmp(&b.schema_path))
            .then_with(|| a.message.cmp(&b.message))
    });
}

fn compare_order(a: &[usize], b: &[usize]) -> Ordering {
    a.iter().cmp(b.iter())
}

/// Converts the validator's errors for `root` into violations (anyOf/oneOf failures become the
/// violations of their closest branch).
pub fn from_errors(errors: Vec<Error<'_>>, root: &Value, received_cap: usize) -> Vec<Violation> {
    let mut out = Vec::new();
    for error in &errors {
        convert(error, root, received_cap, None, None, &mut out);
    }
    sort(&mut out);
    out
}

/// What is known of a value a stream has not finished: how a message speaks of it ("a string",
/// "a string starting with 'ab'") and the `received` shown until the value is complete.
pub(crate) struct Partial {
    pub subject: String,
    pub received: Value,
}

/// The violations of `error` (about the value itself: its instance path is empty) found while
/// an output streams in, at `path`. With the value complete (`partial` None) they are the very
/// objects the final validation reports; before that, the message template speaks of what is
/// known, and the stream replaces them with the complete ones when the value closes.
pub(crate) fn in_flight(error: &Error<'_>, path: &InstancePath, partial: Option<&Partial>, cap: usize) -> Vec<Violation> {
    let mut out = Vec::new();
    convert(error, &error.instance, cap, None, partial.map(|p| p.subject.as_str()), &mut out);
    for v in &mut out {
        v.path = path.to_jsonpath();
        v.pointer = path.to_pointer();
        v.order.clear();
        if let Some(p) = partial {
            v.received = p.received.clone();
        }
    }
    out
}

/// `subject`: how the message names the instance, when it is not complete yet.
fn convert(error: &Error<'_>, root: &Value, cap: usize, branch: Option<&Branch>, subject: Option<&str>, out: &mut Vec<Violation>) {
    let instance: &Value = &error.instance;
    // The evaluation path (the specification's keywordLocation) goes through `$ref`s, so it says
    // how the keyword was reached even when it lives in another document.
    let schema_path = error.evaluation_path.as_str();
    let (path, order) = InstancePath::resolve(&error.instance_path, root);
    // The instance's rendering only where a message quotes it: rendering costs as much as the
    // rest of a violation, and a `required` on a large object never shows it.
    let r = || subject.map_or_else(|| describe(instance), str::to_string);
    // Size keywords name the size, never the value (`an array of 3 items`).
    let size = || subject.map_or_else(|| sized(instance), str::to_string);
    let keyword = error.keyword;
    let (expected, message): (Value, String) = match &error.kind {
        ErrorKind::Type { expected } => {
            let quoted: Vec<String> = expected.iter().map(|n| quote(n)).collect();
            let list = match expected.as_slice() {
                [one] => json!(one),
                many => json!(many),
            };
            (list, format!("{} is not of type {}", r(), quoted.join(", ")))
        }
        ErrorKind::Enum { options } => (options.clone(), format!("{} is not one of {}", r(), repr(options))),
        ErrorKind::Const { expected } => (expected.clone(), format!("{} was expected", repr(expected))),
        ErrorKind::Required { property } => (json!(property), required_message(property)),
        ErrorKind::AdditionalProperties { unexpected } | ErrorKind::UnevaluatedProperties { unexpected } => {
            let (want, which) = match error.kind {
                ErrorKind::AdditionalProperties { .. } => ("no additional properties", "Additional"),
                _ => ("no unevaluated properties", "Unevaluated"),
            };
            for key in unexpected {
                let mut v = base(&path, &order, keyword, schema_path, branch);
                v.expected = json!(want);
                v.received = json!(key);
                v.message = format!("{which} properties are not allowed ({} was unexpected)", quote(key));
                out.push(v);
            }
            return;
        }
        ErrorKind::UnevaluatedItems { unexpected } => {
            let items: Vec<String> = unexpected.iter().filter_map(|i| instance.get(*i)).map(|item| quote(&item.to_string())).collect();
            let verb = if items.len() == 1 { "was" } else { "were" };
            (json!("no unevaluated items"), format!("Unevaluated items are not allowed ({} {verb} unexpected)", items.join(", ")))
        }
        ErrorKind::AdditionalItems { limit } => {
            (json!(limit), format!("{} has more than {limit} (additional items are not allowed)", size()))
        }
        ErrorKind::Minimum { limit } => (json!(limit), format!("{} is less than minimum {limit}", r())),
        ErrorKind::Maximum { limit } => (json!(limit), format!("{} is greater than maximum {limit}", r())),
        ErrorKind::ExclusiveMinimum { limit } => {
            (json!(limit), format!("{} is less than or equal to exclusive minimum {limit}", r()))
        }
        ErrorKind::ExclusiveMaximum { limit } => {
            (json!(limit), format!("{} is greater than or equal to exclusive maximum {limit}", r()))
        }
        ErrorKind::MultipleOf { multiple_of } => (json!(multiple_of), format!("{} is not a multiple of {multiple_of}", r())),
        ErrorKind::MinLength { limit } => (json!(limit), format!("{} is shorter than {limit}", size())),
        ErrorKind::MaxLength { limit } => (json!(limit), format!("{} is longer than {limit}", size())),
        ErrorKind::MinItems { limit } | ErrorKind::MinProperties { limit } => (json!(limit), format!("{} has fewer than {limit}", size())),
        ErrorKind::MaxItems { limit } | ErrorKind::MaxProperties { limit } => (json!(limit), format!("{} has more than {limit}", size())),
        ErrorKind::UniqueItems => (json!("unique items"), format!("{} has non-unique elements", size())),
        ErrorKind::Pattern { pattern: source } => (json!(source), format!("{} does not match {}", r(), pattern(source))),
        ErrorKind::Backtracked { .. } => {
            (Value::Null, format!("{} could not be checked against its pattern: {BACKTRACKED}", r()))
        }
        ErrorKind::Format { format } => (json!(format), format!("{} is not a valid {}", r(), quote(format))),
        ErrorKind::Contains { matched, min, max } => {
            // The keyword says which bound: `maxContains` the upper, else the lower.
            let (limit, than) = match max {
                Some(max) if keyword == "maxContains" => (*max, "more"),
                _ => (*min, "fewer"),
            };
            let message = format!("{} has {matched} item{} matching the 'contains' schema, {than} than {limit}", size(), plural(*matched));
            (json!(limit), message)
        }
        ErrorKind::Not { schema } => (json!({ "not": schema }), format!("{} must not be valid under {}", r(), repr(schema))),
        ErrorKind::FalseSchema => (json!(false), format!("False schema does not allow {}", r())),
        ErrorKind::PropertyNames { error } => {
            let mut inner = Vec::new();
            convert(error, &error.instance, cap, branch, None, &mut inner);
            let detail = inner.first().map_or_else(|| "is not allowed".to_string(), |v| v.message.clone());
            (Value::Null, format!("property name {detail}"))
        }
        ErrorKind::ContentEncoding { encoding } => (json!(encoding), format!("{} is not valid {}", r(), quote(encoding))),
        ErrorKind::ContentMediaType { media_type } => {
            (json!(media_type), format!("{} is not of media type {}", r(), quote(media_type)))
        }
        ErrorKind::OneOfMultipleValid => (
            json!("exactly one matching schema"),
            format!("{} is valid under more than one of the schemas listed in 'oneOf'", r()),
        ),
        ErrorKind::AnyOf { context } | ErrorKind::OneOfNotValid { context } => {
            if let Some((expected, accepted)) = accepted_choices(context, &error.instance_path) {
                (expected, format!("{} {accepted}", r()))
            } else if let Some((index, errors)) = closest_branch(context, &error.instance_path) {
                let here = Branch { keyword: keyword.to_string(), index, count: context.len() };
                for e in errors {
                    convert(e, root, cap, Some(branch.unwrap_or(&here)), None, out);
                }
                return;
            } else {
                (Value::Null, format!("{} is not valid under any of the schemas listed in '{keyword}'", r()))
            }
        }
        ErrorKind::Recursion => {
            (Value::Null, format!("{} could not be checked: the schema's references nest deeper than {} levels here", r(), crate::validator::MAX_DEPTH))
        }
    };
    let mut v = base(&path, &order, keyword, schema_path, branch);
    v.expected = expected;
    v.received = truncate_value(instance, cap);
    v.message = message;
    out.push(v);
}

/// What a disjunction accepts when each of its branches failed on a `const`, an `enum` or a
/// `type` alone, where the disjunction is (`anyOf: [{const: 1}, {const: 2}, {type: 'null'}]`):
/// the `expected` of the one violation it becomes, and the message after its subject —
/// `is not one of [1, 2]`, `is not of type 'null'`, or both joined (`is not one of [1, 2] and
/// not of type 'null'`). `None` when a branch failed otherwise: its closest branch speaks.
fn accepted_choices(context: &[Vec<Error<'_>>], at: &str) -> Option<(Value, String)> {
    if context.is_empty() {
        return None;
    }
    let mut values: Vec<Value> = Vec::new();
    // The types, each once in the order first named, and their quoted list for the message.
    let mut types: Vec<Value> = Vec::new();
    let mut quoted = String::new();
    for branch in context {
        let [only] = branch.as_slice() else { return None };
        if only.instance_path != at {
            return None;
        }
        match &only.kind {
            ErrorKind::Const { expected } => values.push(expected.clone()),
            ErrorKind::Enum { options: Value::Array(options) } => values.extend(options.iter().cloned()),
            ErrorKind::Type { expected } => {
                for t in expected.iter() {
                    if !types.iter().any(|named| named == t) {
                        if !types.is_empty() {
                            quoted.push_str(", ");
                        }
                        quoted.push_str(&quote(t));
                        types.push(Value::from(*t));
                    }
                }
            }
            _ => return None,
        }
    }
    let listed = Value::Array(values);
    let types = Value::Array(types);
    Some(match (listed.as_array().is_some_and(|v| !v.is_empty()), types.as_array().is_some_and(|t| !t.is_empty())) {
        (true, false) => (listed.clone(), ["is not one of ", &repr(&listed)].concat()),
        (false, _) => {
            // One type is named as a string, several as an array.
            let expected = match types {
                Value::Array(mut one) if one.len() == 1 => one.pop().unwrap_or_default(),
                many => many,
            };
            (expected, ["is not of type ", &quoted].concat())
        }
        (true, true) => {
            let message = ["is not one of ", &repr(&listed), " and not of type ", &quoted].concat();
            let mut expected = serde_json::Map::new();
            expected.insert("enum".to_string(), listed);
            expected.insert("type".to_string(), types);
            (Value::Object(expected), message)
        }
    })
}

fn required_message(property: &str) -> String {
    format!("{} is a required property", quote(property))
}

/// The `required` violation of an object without `property`, as `convert` makes it from the
/// validator's error, for a caller that has the object's `received` but not the object (the
/// verdict's located units: src/schema/contract.rs).
pub fn required(path: &InstancePath, order: &[usize], schema_path: &str, property: &str, received: Value) -> Violation {
    let mut v = base(path, order, "required", schema_path, None);
    v.expected = json!(property);
    v.received = received;
    v.message = required_message(property);
    v
}

fn base(path: &InstancePath, order: &[usize], keyword: &str, schema_path: &str, branch: Option<&Branch>) -> Violation {
    Violation {
        path: path.to_jsonpath(),
        keyword: keyword.to_string(),
        expected: Value::Null,
        received: Value::Null,
        message: String::new(),
        pointer: path.to_pointer(),
        schema_path: schema_path.to_string(),
        branch: branch.cloned(),
        order: order.to_vec(),
    }
}

/// The branch that came nearest to matching (`branch_rank`; the earlier of equals).
fn closest_branch<'e, 'v>(context: &'e [Vec<Error<'v>>], at: &str) -> Option<(usize, &'e [Error<'v>])> {
    let i = nearest_branch(context.iter().map(|errors| (!errors.is_empty()).then(|| branch_rank(errors, at))))?;
    context.get(i).map(|errors| (i, errors.as_slice()))
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The `tool` violation of an answer that called the tool `called` and not `expected`, the tool
/// whose arguments are the output. Retryable: the model can call the right tool.
pub fn wrong_tool(called: &str, expected: &str) -> Violation {
    let expected_quoted = quote(expected);
    let message = ["the answer called the tool ", &quote(called), " instead of ", &expected_quoted, ": call ", &expected_quoted, " with the output as its arguments"].concat();
    Violation::of_output("tool", json!(expected), json!(called), message)
}

/// Why a patch (RFC 6902 JSON Patch, RFC 7396 merge patch) could not be applied: the `patch`
/// violation's cases, each with its one message (`patch`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatchProblem {
    /// A JSON Patch that is not an array of operations.
    NotAnArray,
    /// An operation that is not an object, or lacks a member its `op` needs (or has one of the
    /// wrong type): the reason names it.
    Malformed(&'static str),
    /// An `op` other than the six of RFC 6902.
    UnknownOp(String),
    /// A `path` or `from` that is not an RFC 6901 pointer (it neither is empty nor starts with `/`,
    /// or has a `~` not followed by `0` or `1`).
    BadPointer { member: &'static str },
    /// The location (of `path`, or of `from` when `from` is true) does not exist.
    Missing { from: bool },
    /// The parent of an `add`'s location is not an object or array, or does not exist.
    NoParent,
    /// An array index that is not a number without leading zeros, or is past the end.
    BadIndex { token: String, len: usize },
    /// A `move` whose `from` is a parent of its `path`.
    IntoItself,
    /// A `remove` or `move` of the whole document.
    RemoveRoot,
    /// A `test` whose value differs from the value at its location.
    TestFailed,
    /// More operations than the limit.
    TooManyOperations { count: usize, limit: usize },
    /// An object member named twice in an operation (RFC 6902 section 4 leaves such a patch no meaning).
    RepeatedMember(String),
}

/// The `patch` violation: the operation at `index` (from 0; `None` for the patch as a whole)
/// with its `op` and `path` could not be applied. The location is the operation's `path`
/// (when it is a pointer), `received` is the operation. Retryable: the model can send another patch.
pub fn patch(index: Option<usize>, op: &str, pointer: &str, problem: &PatchProblem, received: Value) -> Violation {
    let (expected, reason): (Value, String) = match problem {
        PatchProblem::NotAnArray => (json!("an array of operations"), "a JSON Patch is an array of operations".into()),
        PatchProblem::Malformed(reason) => (json!("a JSON Patch operation"), (*reason).to_string()),
        PatchProblem::UnknownOp(name) => (
            json!(["add", "remove", "replace", "move", "copy", "test"]),
            format!("{} is not one of 'add', 'remove', 'replace', 'move', 'copy', 'test'", quote(name)),
        ),
        PatchProblem::BadPointer { member } => (json!("a JSON Pointer"), format!("'{member}' is not a JSON Pointer")),
        PatchProblem::Missing { from: true } => (json!("an existing location"), "the location 'from' names does not exist".into()),
        PatchProblem::Missing { from: false } => (json!("an existing location"), "the location does not exist".into()),
        PatchProblem::NoParent => (json!("an existing object or array"), "the parent of the location does not exist or is not an object or array".into()),
        PatchProblem::BadIndex { token, len } => (
            json!(format!("an index from 0 to {len}")),
            format!("{} is not an index of an array of {len} item{}", quote(token), plural(*len as u64)),
        ),
        PatchProblem::IntoItself => (json!("a location outside 'from'"), "a value cannot be moved into itself".into()),
        PatchProblem::RemoveRoot => (json!("a location inside the document"), "the whole document cannot be removed".into()),
        PatchProblem::TestFailed => (json!("an equal value"), "the value is not equal to the test's 'value'".into()),
        PatchProblem::TooManyOperations { count, limit } => (
            json!(limit),
            format!("the patch has {count} operations, more than the limit of {limit}"),
        ),
        PatchProblem::RepeatedMember(name) => (json!("unique member names"), format!("member {} appears more than once", quote(name))),
    };
    let named: Vec<String> = [(!op.is_empty()).then(|| op.to_string()), (!pointer.is_empty()).then(|| quote(pointer))].into_iter().flatten().collect();
    let message = match index {
        Some(i) if named.is_empty() => format!("patch operation {i}: {reason}"),
        Some(i) => format!("patch operation {i} ({}): {reason}", named.join(" ")),
        None => format!("patch cannot be applied: {reason}"),
    };
    let located = pointer.is_empty() || pointer.starts_with('/');
    let path = if located { pointer_path(pointer) } else { InstancePath::root() };
    let mut v = Violation::of_output("patch", expected, received, message);
    v.path = path.to_jsonpath();
    v.pointer = path.to_pointer();
    // Operations sort in patch order.
    v.order = index.into_iter().collect();
    v
}

/// A pointer's location without a document to resolve it in: an all-digit token reads as an index.
fn pointer_path(pointer: &str) -> InstancePath {
    use crate::json::path::{unescape_pointer_token, Segment};
    let mut path = InstancePath::root();
    for raw in pointer.split('/').skip(1) {
        let token = unescape_pointer_token(raw);
        match token.parse::<usize>() {
            Ok(i) if !token.starts_with('+') && (token == "0" || !token.starts_with('0')) => path.push(Segment::Index(i)),
            _ => path.push(Segment::Key(token.into_owned())),
        }
    }
    path
}
