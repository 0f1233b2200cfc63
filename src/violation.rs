//! One violation of an output contract: where (`path`, `pointer`), which keyword, what was
//! expected and received, and the one message template of that keyword.

use crate::path::InstancePath;
use crate::render::{quote, repr, truncate_value};
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::ValidationError;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::cmp::Ordering;

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
        !matches!(self.keyword.as_str(), "maxOutputBytes" | "maxDepth") && !self.message.contains("backtracking limit")
    }

    /// `$.severity: 'critical' is not one of ['low', 'medium', 'high']` — the one-line form used
    /// by failure envelopes and retry prompts.
    pub fn one_line(&self) -> String {
        format!("{}: {}", self.path, self.message)
    }
}

/// Sorts violations into instance document order (a parent before its children), then keyword,
/// then schema location, so the same output always reports in the same order.
pub fn sort(violations: &mut [Violation]) {
    violations.sort_by(|a, b| {
        compare_order(&a.order, &b.order)
            .then_with(|| a.keyword.cmp(&b.keyword))
            .then_with(|| a.schema_path.cmp(&b.schema_path))
            .then_with(|| a.message.cmp(&b.message))
    });
}

fn compare_order(a: &[usize], b: &[usize]) -> Ordering {
    a.iter().cmp(b.iter())
}

/// Converts jsonschema's errors for `root` into violations (anyOf/oneOf failures become the
/// violations of their closest branch).
pub fn from_errors<'a>(errors: impl Iterator<Item = ValidationError<'a>>, root: &Value, received_cap: usize) -> Vec<Violation> {
    let mut out = Vec::new();
    for error in errors {
        convert(&error, root, received_cap, None, &mut out);
    }
    sort(&mut out);
    out
}

fn convert(error: &ValidationError<'_>, root: &Value, cap: usize, branch: Option<&Branch>, out: &mut Vec<Violation>) {
    let instance: &Value = error.instance();
    // The evaluation path (the specification's keywordLocation) goes through `$ref`s, so it says
    // how the keyword was reached even when it lives in another document.
    let schema_path = error.evaluation_path().as_str().to_string();
    let (path, order) = InstancePath::resolve(error.instance_path().as_str(), root);
    // The instance's rendering only where a message quotes it: rendering costs as much as the
    // rest of a violation, and a `required` on a large object never shows it.
    let r = || repr(instance);
    let kind = error.kind();
    let mut keyword = kind.keyword().to_string();
    let (expected, message): (Value, String) = match kind {
        ValidationErrorKind::Type { kind } => {
            let names: Vec<String> = match kind {
                TypeKind::Single(t) => vec![t.to_string()],
                TypeKind::Multiple(set) => set.iter().map(|t| t.to_string()).collect(),
            };
            let quoted: Vec<String> = names.iter().map(|n| quote(n)).collect();
            let expected = match names.as_slice() {
                [one] => json!(one),
                many => json!(many),
            };
            (expected, format!("{} is not of type {}", r(), quoted.join(", ")))
        }
        ValidationErrorKind::Enum { options } => ((**options).clone(), format!("{} is not one of {}", r(), repr(options))),
        ValidationErrorKind::Constant { expected_value } => {
            ((**expected_value).clone(), format!("{} was expected", repr(expected_value)))
        }
        ValidationErrorKind::Required { property } => {
            if let Some(k) = keyword_in_path(&schema_path, &["dependentRequired", "dependencies"]) {
                keyword = k;
            }
            let name = property.as_str().map_or_else(|| repr(property), quote);
            (property.clone(), format!("{name} is a required property"))
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            for key in unexpected {
                let mut v = base(&path, &order, &keyword, &schema_path, branch);
                v.expected = json!("no additional properties");
                v.received = json!(key);
                v.message = format!("Additional properties are not allowed ({} was unexpected)", quote(key));
                out.push(v);
            }
            return;
        }
        ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            for key in unexpected {
                let mut v = base(&path, &order, &keyword, &schema_path, branch);
                v.expected = json!("no unevaluated properties");
                v.received = json!(key);
                v.message = format!("Unevaluated properties are not allowed ({} was unexpected)", quote(key));
                out.push(v);
            }
            return;
        }
        ValidationErrorKind::UnevaluatedItems { unexpected } => {
            (json!("no unevaluated items"), format!("Unevaluated items are not allowed ({} unexpected)", unexpected.join(", ")))
        }
        ValidationErrorKind::AdditionalItems { limit } => {
            (json!(limit), format!("{} has more than {limit} items (additional items are not allowed)", r()))
        }
        ValidationErrorKind::Minimum { limit } => (limit.clone(), format!("{} is less than minimum {limit}", r())),
        ValidationErrorKind::Maximum { limit } => (limit.clone(), format!("{} is greater than maximum {limit}", r())),
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            (limit.clone(), format!("{} is less than or equal to exclusive minimum {limit}", r()))
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            (limit.clone(), format!("{} is greater than or equal to exclusive maximum {limit}", r()))
        }
        ValidationErrorKind::MultipleOf { multiple_of } => {
            let m = number(*multiple_of);
            (m.clone(), format!("{} is not a multiple of {m}", r()))
        }
        ValidationErrorKind::MinLength { limit } => {
            (json!(limit), format!("{} is shorter than {limit} character{}", r(), plural(*limit)))
        }
        ValidationErrorKind::MaxLength { limit } => {
            (json!(limit), format!("{} is longer than {limit} character{}", r(), plural(*limit)))
        }
        ValidationErrorKind::MinItems { limit } => (json!(limit), format!("{} has fewer than {limit} item{}", r(), plural(*limit))),
        ValidationErrorKind::MaxItems { limit } => (json!(limit), format!("{} has more than {limit} item{}", r(), plural(*limit))),
        ValidationErrorKind::MinProperties { limit } => {
            (json!(limit), format!("{} has fewer than {limit} propert{}", r(), if *limit == 1 { "y" } else { "ies" }))
        }
        ValidationErrorKind::MaxProperties { limit } => {
            (json!(limit), format!("{} has more than {limit} propert{}", r(), if *limit == 1 { "y" } else { "ies" }))
        }
        ValidationErrorKind::UniqueItems => (json!("unique items"), format!("{} has non-unique elements", r())),
        ValidationErrorKind::Pattern { pattern } => (json!(pattern), format!("{} does not match {}", r(), quote(pattern))),
        ValidationErrorKind::BacktrackLimitExceeded { .. } | ValidationErrorKind::RegexEngineFailure { .. } => (
            Value::Null,
            format!("{} could not be checked against its pattern: backtracking limit exceeded", r()),
        ),
        ValidationErrorKind::Format { format } => (json!(format), format!("{} is not a valid {}", r(), quote(format))),
        ValidationErrorKind::Contains => {
            if let Some(k) = keyword_in_path(&schema_path, &["minContains", "maxContains"]) {
                keyword = k;
            }
            (Value::Null, format!("{} does not contain the required number of items matching the 'contains' schema", r()))
        }
        ValidationErrorKind::Not { schema } => (json!({ "not": schema }), format!("{} must not be valid under {}", r(), repr(schema))),
        ValidationErrorKind::FalseSchema => (json!(false), format!("False schema does not allow {}", r())),
        ValidationErrorKind::PropertyNames { error } => {
            let name = error.instance();
            let mut inner = Vec::new();
            convert(error, name, cap, branch, &mut inner);
            let detail = inner.first().map_or_else(|| "is not allowed".to_string(), |v| v.message.clone());
            (Value::Null, format!("property name {detail}"))
        }
        ValidationErrorKind::ContentEncoding { content_encoding } => {
            (json!(content_encoding), format!("{} is not valid {}", r(), quote(content_encoding)))
        }
        ValidationErrorKind::FromUtf8 { .. } => (json!("utf-8"), format!("{} does not decode to UTF-8 text", r())),
        ValidationErrorKind::ContentMediaType { content_media_type } => {
            (json!(content_media_type), format!("{} is not of media type {}", r(), quote(content_media_type)))
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => (
            json!("exactly one matching schema"),
            format!("{} is valid under more than one of the schemas listed in 'oneOf'", r()),
        ),
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            if let Some((index, errors)) = closest_branch(context, error.instance_path().as_str()) {
                let here = Branch { keyword: keyword.clone(), index, count: context.len() };
                for e in errors {
                    convert(e, root, cap, Some(branch.unwrap_or(&here)), out);
                }
                return;
            }
            (Value::Null, format!("{} is not valid under any of the schemas listed in '{keyword}'", r()))
        }
        ValidationErrorKind::Custom { message, .. } => (Value::Null, message.clone()),
        ValidationErrorKind::Referencing(e) => (Value::Null, format!("reference could not be resolved: {e}")),
    };
    let mut v = base(&path, &order, &keyword, &schema_path, branch);
    v.expected = expected;
    v.received = truncate_value(instance, cap);
    v.message = message;
    out.push(v);
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

/// The branch that came nearest to matching: a branch whose very type is wrong at the instance is
/// farthest; then fewer violations win; then the earlier branch.
fn closest_branch<'e>(context: &'e [Vec<ValidationError<'static>>], at: &str) -> Option<(usize, &'e [ValidationError<'static>])> {
    context
        .iter()
        .enumerate()
        .filter(|(_, errors)| !errors.is_empty())
        .min_by_key(|(i, errors)| {
            let wrong_type_here = errors.iter().any(|e| {
                e.instance_path().as_str() == at
                    && matches!(e.kind(), ValidationErrorKind::Type { .. } | ValidationErrorKind::FalseSchema)
            });
            (wrong_type_here, errors.len(), *i)
        })
        .map(|(i, errors)| (i, errors.as_slice()))
}

fn keyword_in_path(schema_path: &str, candidates: &[&str]) -> Option<String> {
    schema_path
        .split('/')
        .rev()
        .take(2)
        .find(|seg| candidates.contains(seg))
        .map(str::to_string)
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
