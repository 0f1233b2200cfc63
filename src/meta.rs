//! Meta-schema validation: every way a schema breaks its draft's meta-schema, each with a JSON
//! Pointer into the schema. The meta-schema validators are built once per thread (once per
//! WebAssembly instance) and reused by every compile.

use crate::draft::{Draft, ALL_DRAFTS};
use crate::error::{SchemaErrorKind, SchemaIssue};
use crate::violation;
use crate::validator::{Options, Validator};
use serde_json::Value;
use std::collections::BTreeMap;
use std::cell::OnceCell;
use std::rc::Rc;

thread_local! {
    // A thread-local rather than a static: on wasm32 a `Validator` is not `Sync`.
    static META: [OnceCell<Option<Rc<Validator>>>; 5] = const { [const { OnceCell::new() }; 5] };
}

fn slot(draft: Draft) -> usize {
    ALL_DRAFTS.iter().position(|d| *d == draft).unwrap_or(0)
}

fn meta_schema(draft: Draft) -> &'static Value {
    match draft {
        Draft::Draft4 => &referencing::meta::DRAFT4,
        Draft::Draft6 => &referencing::meta::DRAFT6,
        Draft::Draft7 => &referencing::meta::DRAFT7,
        Draft::Draft201909 => &referencing::meta::DRAFT201909,
        Draft::Draft202012 => &referencing::meta::DRAFT202012,
    }
}

/// The validator of `draft`'s meta-schema, built on first use.
pub fn validator(draft: Draft) -> Option<Rc<Validator>> {
    META.with(|cells| {
        cells.get(slot(draft)).and_then(|cell| {
            cell.get_or_init(|| {
                // `format: regex` in the meta-schemas is checked when the pattern compiles.
                let options = Options { draft, formats: false, refuse_unknown_formats: false, resources: &BTreeMap::new() };
                Validator::new(meta_schema(draft), &options).ok().map(Rc::new)
            })
            .clone()
        })
    })
}

/// Every meta-schema violation of `schema`, in schema document order; an embedded resource
/// with a `$schema` of its own is checked against that draft.
pub fn check(schema: &Value, draft: Draft) -> Vec<SchemaIssue> {
    let mut issues = Vec::new();
    check_at(schema, draft, "", &mut issues);
    nested(schema, "", 0, &mut issues);
    issues
}

/// Resources below the root that name their own draft.
fn nested(value: &Value, pointer: &str, depth: usize, issues: &mut Vec<SchemaIssue>) {
    if depth > 256 {
        return;
    }
    let children: Box<dyn Iterator<Item = (String, &Value)>> = match value {
        Value::Object(map) => Box::new(map.iter().map(|(k, v)| (crate::path::escape_pointer_token(k).into_owned(), v))),
        Value::Array(items) => Box::new(items.iter().enumerate().map(|(i, v)| (i.to_string(), v))),
        _ => return,
    };
    for (token, child) in children {
        let here = format!("{pointer}/{token}");
        // An embedded resource (it has an identifier) may name its own draft.
        let draft = child.get("$schema").and_then(Value::as_str).and_then(Draft::from_meta_schema_uri);
        if let Some(d) = draft.filter(|d| child.get(d.id_keyword()).is_some()) {
            check_at(child, d, &here, issues);
        }
        nested(child, &here, depth + 1, issues);
    }
}

fn check_at(schema: &Value, draft: Draft, at: &str, issues: &mut Vec<SchemaIssue>) {
    let Some(meta) = validator(draft) else { return };
    if meta.is_valid(schema) {
        return;
    }
    issues.extend(violation::from_errors(meta.errors(schema), schema, 120)
        .into_iter()
        .map(|mut v| {
            v.pointer = format!("{at}{}", v.pointer);
            SchemaIssue::new(SchemaErrorKind::MetaSchema, v.pointer.clone(), v.message.clone()).with_keyword(
                // The schema keyword at fault is the last token of the pointer.
                v.pointer.rsplit('/').next().unwrap_or("").to_string(),
            )
        }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reports_every_meta_violation_with_pointers() {
        let issues = check(&json!({"type": "strng", "properties": {"a": {"minLength": -1}}}), Draft::Draft7);
        let pointers: Vec<&str> = issues.iter().map(|i| i.pointer.as_str()).collect();
        assert_eq!(pointers, vec!["/type", "/properties/a/minLength"], "{issues:?}");
        assert!(issues[0].message.contains("'strng' is not one of"), "{}", issues[0].message);
    }

    #[test]
    fn builds_each_meta_validator_once() {
        let a = validator(Draft::Draft202012).map(|v| Rc::as_ptr(&v));
        let b = validator(Draft::Draft202012).map(|v| Rc::as_ptr(&v));
        assert!(a.is_some());
        assert_eq!(a, b);
    }
}
