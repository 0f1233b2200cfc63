//! Meta-schema validation: every way a schema breaks its draft's meta-schema, each with a JSON
//! Pointer into the schema. The meta-schema validators are built once per thread (once per
//! WebAssembly instance) and reused by every compile.

use crate::validator::draft::{Draft, ALL_DRAFTS};
use crate::schema::error::{SchemaErrorKind, SchemaIssue};
use crate::report::violation;
use crate::validator::{Options, Validator};
use crate::validator::keywords::{self as table, Shape};
use crate::json::path::escape_pointer_token;
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

fn meta_schema(draft: Draft) -> Option<&'static Value> {
    // A JTD schema never reaches the meta-schemas (`check` reads it by RFC 8927's rules).
    let draft = if draft == Draft::Jtd { Draft::Draft202012 } else { draft };
    crate::validator::metaschemas::document(draft.meta_schema_uri().trim_end_matches('#'))
}

/// The validator of `draft`'s meta-schema, built on first use.
pub fn validator(draft: Draft) -> Option<Rc<Validator>> {
    META.with(|cells| {
        cells.get(slot(draft)).and_then(|cell| {
            cell.get_or_init(|| {
                // `format: regex` in the meta-schemas is checked when the pattern compiles.
                let options = Options { draft, formats: false, refuse_unknown_formats: false, resources: &BTreeMap::new(), custom_formats: &BTreeMap::new() };
                meta_schema(draft).and_then(|schema| Validator::new(schema, &options).ok()).map(Rc::new)
            })
            .clone()
        })
    })
}

/// Every meta-schema violation of `schema`, in schema document order; an embedded resource
/// with a `$schema` of its own is checked against that draft.
pub fn check(schema: &Value, draft: Draft) -> Vec<SchemaIssue> {
    if draft == Draft::Jtd {
        return crate::schema::jtd::check(schema);
    }
    let mut issues = Vec::new();
    check_at(schema, draft, "", &mut issues);
    nested(schema, "", 0, &mut issues);
    issues
}

/// Resources below the root that name their own draft, found where subschemas are (the keyword
/// table's walk: a value under `const` or `enum` that looks like a schema is not one).
fn nested(value: &Value, pointer: &str, depth: usize, issues: &mut Vec<SchemaIssue>) {
    let Value::Object(map) = value else { return };
    if depth > table::MAX_WALK_DEPTH {
        return;
    }
    table::subschemas(map, |_| true, |key, child, step| {
        let mut here = format!("{pointer}/{}", escape_pointer_token(key));
        if let Some(token) = step.token() {
            here.push('/');
            here.push_str(&escape_pointer_token(&token));
        }
        // An embedded resource (it has an identifier) may name its own draft.
        let draft = child.get("$schema").and_then(Value::as_str).and_then(Draft::from_schema_uri);
        if let Some(d) = draft.filter(|d| child.get(d.id_keyword()).is_some()) {
            check_at(child, d, &here, issues);
        }
        nested(child, &here, depth + 1, issues);
    });
}

fn check_at(schema: &Value, draft: Draft, at: &str, issues: &mut Vec<SchemaIssue>) {
    if plainly_valid(schema, draft, 0) {
        return;
    }
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

/// Whether `schema` passes `draft`'s meta-schema by rules as strict as the meta-schema's or
/// stricter, for the keywords of every draft; `false` means "ask the meta-schema". Building a
/// meta-schema's validator and running it was a third of a cold start in Node (import, first
/// compile and first validate: 38.6 -> 25.1 ms without it), most of it V8 compiling that code
/// on first use, so the schemas these rules settle never build it. A keyword no meta-schema
/// names is unconstrained there and passes. The tests check that every keyword the
/// meta-schemas name has its rule here, and that no schema passes these rules and fails its
/// meta-schema.
fn plainly_valid(schema: &Value, draft: Draft, depth: usize) -> bool {
    let Value::Object(map) = schema else {
        // `true`/`false` are schemas from Draft 6 on.
        return schema.is_boolean() && draft != Draft::Draft4;
    };
    if depth > 64 {
        return false;
    }
    let sub = |v: &Value| plainly_valid(v, draft, depth + 1);
    let subs = |v: &Value| v.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(sub));
    let sub_map = |v: &Value| v.as_object().is_some_and(|m| m.values().all(sub));
    // Draft 4's arrays of names have at least one.
    let names = |v: &Value| v.as_array().is_some_and(|a| (draft != Draft::Draft4 || !a.is_empty()) && unique_strings(a));
    let count = |v: &Value| v.as_u64().is_some();
    map.iter().all(|(key, v)| match key.as_str() {
        "$schema" | "$ref" | "$comment" | "$dynamicRef" | "$recursiveRef" | "id" | "title" | "description" | "format"
        | "pattern" | "contentMediaType" | "contentEncoding" => v.is_string(),
        // No fragment but an empty one (2019-09 on).
        "$id" => v.as_str().is_some_and(|id| id.find('#').is_none_or(|i| i + 1 == id.len())),
        "$anchor" | "$dynamicAnchor" => v.as_str().is_some_and(anchor),
        "$recursiveAnchor" => match draft {
            Draft::Draft201909 => v.is_boolean(),
            _ => v.as_str().is_some_and(anchor),
        },
        "$vocabulary" => v.as_object().is_some_and(|m| m.values().all(Value::is_boolean)),
        "default" | "const" => true,
        "examples" | "enum" => v.is_array(),
        "readOnly" | "writeOnly" | "deprecated" | "uniqueItems" => v.is_boolean(),
        "multipleOf" => v.as_f64().is_some_and(|m| m > 0.0),
        "maximum" | "minimum" => v.is_number(),
        "exclusiveMaximum" | "exclusiveMinimum" if draft == Draft::Draft4 => {
            // Draft 4 also wants the bound they qualify.
            v.is_boolean() && map.contains_key(if key == "exclusiveMaximum" { "maximum" } else { "minimum" })
        }
        "exclusiveMaximum" | "exclusiveMinimum" => v.is_number(),
        "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties" | "minProperties" | "maxContains"
        | "minContains" => count(v),
        "type" => match v {
            Value::String(t) => SIMPLE_TYPES.contains(&t.as_str()),
            Value::Array(a) => !a.is_empty() && unique_strings(a) && a.iter().all(|t| t.as_str().is_some_and(|t| SIMPLE_TYPES.contains(&t))),
            _ => false,
        },
        "required" => names(v),
        "dependentRequired" => v.as_object().is_some_and(|m| m.values().all(names)),
        // Draft 4 takes booleans here too; an object is a schema in every draft.
        "additionalProperties" | "additionalItems" => v.is_boolean() || sub(v),
        // Keywords holding subschemas, by their shape in the keyword table.
        _ => match table::lookup(key).map(|k| k.shape) {
            Some(Shape::One) => sub(v),
            Some(Shape::List) => subs(v),
            Some(Shape::Map) => sub_map(v),
            Some(Shape::OneOrList) => match v {
                Value::Array(_) => draft != Draft::Draft202012 && subs(v),
                _ => sub(v),
            },
            Some(Shape::MapOfSchemaOrNames) => v.as_object().is_some_and(|m| m.values().all(|d| if d.is_array() { names(d) } else { sub(d) })),
            Some(Shape::Leaf) | None => true,
        },
    })
}

const SIMPLE_TYPES: [&str; 7] = ["array", "boolean", "integer", "null", "number", "object", "string"];

/// The keywords `plainly_valid` has a rule for (every keyword a meta-schema names).
#[cfg(test)]
const RULED: [&str; 63] = [
    "$schema", "$ref", "$comment", "$dynamicRef", "$recursiveRef", "id", "title", "description", "format", "pattern",
    "contentMediaType", "contentEncoding", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary",
    "default", "const", "examples", "enum", "readOnly", "writeOnly", "deprecated", "uniqueItems", "multipleOf",
    "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "maxLength", "minLength", "maxItems", "minItems",
    "maxProperties", "minProperties", "maxContains", "minContains", "type", "required", "dependentRequired",
    "dependencies", "properties", "patternProperties", "definitions", "$defs", "dependentSchemas",
    "additionalProperties", "additionalItems", "items", "prefixItems", "allOf", "anyOf", "oneOf", "not", "if", "then",
    "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
];

/// The anchor names of both 2019-09 (`^[A-Za-z][-A-Za-z0-9.:_]*$`) and 2020-12
/// (`^[A-Za-z_][-A-Za-z0-9._]*$`).
fn anchor(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic()) && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
}

/// Strings, no two the same.
fn unique_strings(items: &[Value]) -> bool {
    let mut names: Vec<&str> = Vec::with_capacity(items.len());
    for item in items {
        match item.as_str() {
            Some(name) => names.push(name),
            None => return false,
        }
    }
    crate::sort::sort(&mut names);
    names.windows(2).all(|w| w.first() != w.last())
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

    /// An embedded resource naming its own draft is checked against it where subschemas are, and
    /// only there: a value under `const` that looks like one is a value, not a schema.
    #[test]
    fn embedded_resources_are_found_where_subschemas_are() {
        // Draft 4's `exclusiveMinimum` is a boolean; 2020-12's a number.
        let embedded = json!({"$schema": "http://json-schema.org/draft-04/schema#", "id": "http://example.com/e", "minimum": 1, "exclusiveMinimum": 3});
        let pointers = |schema: Value| check(&schema, Draft::Draft202012).into_iter().map(|i| i.pointer).collect::<Vec<_>>();
        assert_eq!(pointers(json!({"$defs": {"e": embedded.clone()}})), vec!["/$defs/e/exclusiveMinimum"]);
        assert_eq!(pointers(json!({"dependentSchemas": {"x": {"prefixItems": [embedded.clone()]}}})), vec!["/dependentSchemas/x/prefixItems/0/exclusiveMinimum"]);
        assert!(pointers(json!({"const": embedded.clone(), "enum": [embedded]})).is_empty());
    }

    /// Every keyword a meta-schema document names (under `properties`) has a rule in
    /// `plainly_valid`: a keyword it does not know passes there unchecked.
    #[test]
    fn every_keyword_the_meta_schemas_name_has_a_rule() {
        use crate::validator::metaschemas;
        let documents: Vec<&Value> = metaschemas::uris().filter_map(metaschemas::document).collect();
        assert_eq!(documents.len(), 19);
        let mut named = 0;
        for document in documents {
            for keyword in document.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.keys()) {
                assert!(RULED.contains(&keyword.as_str()), "no rule for {keyword}");
                named += 1;
            }
        }
        assert!(named > 100, "{named}");
    }

    /// No schema passes `plainly_valid` and fails its meta-schema: every schema of the
    /// JSON-Schema-Test-Suite, each with every keyword of every object in it given each of a set
    /// of values, and each keyword with a rule added to it with each of those values, under every
    /// draft. (The other way round only costs time: the meta-schema is asked.)
    #[test]
    fn plainly_valid_schemas_pass_their_meta_schema() {
        let schemas: Vec<Value> = crate::suite::groups().into_iter().filter_map(|g| g.get("schema").cloned()).collect();
        assert!(schemas.len() > 1000, "{}", schemas.len());
        let values = [
            json!(-1), json!(0), json!(2), json!(1.5), json!(1.0), json!(""), json!("x"), json!("a#b"), json!("x#"), json!("#"),
            json!("1a"), json!("_a"), json!("a:b"), json!("string"), json!("strng"), json!([]), json!(["a", "a"]), json!(["a", "b"]),
            json!(["string", "strng"]), json!(["string", "null"]), json!([{}]), json!([true]), json!([1]), json!({}), json!({"a": 1}),
            json!({"a": {}}), json!({"a": ["b"]}), json!({"a": []}), json!({"a": true}), json!({"type": "strng"}),
            json!({"minimum": 1, "exclusiveMinimum": true}), json!({"exclusiveMaximum": true}), json!(true), json!(false), json!(null),
        ];
        let mut variants = schemas.clone();
        for schema in &schemas {
            mutate(schema, &values, &mut Vec::new(), schema, &mut variants);
        }
        for keyword in RULED {
            for value in &values {
                variants.push(json!({ keyword: value }));
                variants.push(json!({"type": "object", "properties": {"a": { keyword: value }}}));
            }
        }
        let mut settled = 0;
        for draft in ALL_DRAFTS {
            let meta = validator(draft).unwrap();
            for variant in &variants {
                if plainly_valid(variant, draft, 0) {
                    settled += 1;
                    assert!(meta.is_valid(variant), "{} fails its meta-schema: {variant}", draft.name());
                }
            }
        }
        // Most schemas are settled without the meta-schema.
        assert!(settled * 2 > variants.len(), "{settled} of {}", variants.len() * ALL_DRAFTS.len());
    }

    /// `root` with the value at `at` (a path of object keys) replaced, for every key of every
    /// object below `at`, by each of `values`.
    fn mutate(node: &Value, values: &[Value], at: &mut Vec<String>, root: &Value, out: &mut Vec<Value>) {
        let Value::Object(map) = node else { return };
        for (key, child) in map {
            at.push(key.clone());
            for value in values {
                let mut variant = root.clone();
                let mut place = &mut variant;
                for token in at.iter() {
                    place = place.get_mut(token.as_str()).unwrap();
                }
                *place = value.clone();
                out.push(variant);
            }
            if at.len() < 4 {
                mutate(child, values, at, root, out);
            }
            at.pop();
        }
    }

    #[test]
    fn builds_each_meta_validator_once() {
        let a = validator(Draft::Draft202012).map(|v| Rc::as_ptr(&v));
        let b = validator(Draft::Draft202012).map(|v| Rc::as_ptr(&v));
        assert!(a.is_some());
        assert_eq!(a, b);
    }
}
