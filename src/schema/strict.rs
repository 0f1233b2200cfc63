//! Strict mode: every keyword in a schema must mean something in the draft in effect. A keyword
//! the validator does not know is silently never checked — the bug users of output schemas hit
//! most (`prefixItems` under Draft-7, `requried` for `required`) — so strict mode refuses it.

use crate::validator::draft::{drafts_knowing, keywords, Draft};
use crate::schema::error::{SchemaErrorKind, SchemaIssue};
use crate::json::path::escape_pointer_token;
use serde_json::{Map, Value};

/// Keywords that carry no assertion and are always allowed, whatever the draft.
const ANNOTATIONS: &[&str] = &[
    "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly",
];

/// Finds every unknown keyword in `schema` (walking only places that hold subschemas, so property
/// names under `properties` are never mistaken for keywords).
pub fn unknown_keywords(schema: &Value, draft: Draft) -> Vec<SchemaIssue> {
    let mut issues = Vec::new();
    walk(schema, draft, &mut String::new(), &mut issues, 0);
    issues
}

/// Deep enough for any real schema; deeper documents are refused by the schema depth limit first.
const MAX_WALK_DEPTH: usize = 512;

fn walk(schema: &Value, draft: Draft, pointer: &mut String, issues: &mut Vec<SchemaIssue>, depth: usize) {
    let Value::Object(map) = schema else { return };
    if depth > MAX_WALK_DEPTH {
        return;
    }
    // An embedded resource may declare its own dialect.
    let draft = map
        .get("$schema")
        .and_then(Value::as_str)
        .and_then(Draft::from_meta_schema_uri)
        .unwrap_or(draft);
    for (key, value) in map {
        let len = pointer.len();
        pointer.push('/');
        pointer.push_str(&escape_pointer_token(key));
        if !is_allowed(key, draft) {
            issues.push(unknown_keyword_issue(key, draft, pointer));
        } else {
            walk_keyword(key, value, draft, pointer, issues, depth);
        }
        pointer.truncate(len);
    }
}

fn is_allowed(key: &str, draft: Draft) -> bool {
    key.starts_with("x-") || ANNOTATIONS.contains(&key) || keywords(draft).contains(&key)
}

/// Recurses into the subschemas a known keyword holds.
fn walk_keyword(key: &str, value: &Value, draft: Draft, pointer: &mut String, issues: &mut Vec<SchemaIssue>, depth: usize) {
    match key {
        // One subschema.
        "additionalItems" | "additionalProperties" | "contains" | "propertyNames" | "not" | "if"
        | "then" | "else" | "unevaluatedItems" | "unevaluatedProperties" | "contentSchema" => {
            walk(value, draft, pointer, issues, depth + 1)
        }
        // A subschema or a list of them.
        "items" => match value {
            Value::Array(list) => walk_list(list, draft, pointer, issues, depth),
            other => walk(other, draft, pointer, issues, depth + 1),
        },
        // Lists of subschemas.
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
            if let Value::Array(list) = value {
                walk_list(list, draft, pointer, issues, depth)
            }
        }
        // Maps of name → subschema (`dependencies` values may also be lists of names).
        "properties" | "patternProperties" | "definitions" | "$defs" | "dependentSchemas" | "dependencies" => {
            if let Value::Object(map) = value {
                walk_map(map, draft, pointer, issues, depth)
            }
        }
        _ => {}
    }
}

fn walk_list(list: &[Value], draft: Draft, pointer: &mut String, issues: &mut Vec<SchemaIssue>, depth: usize) {
    for (i, item) in list.iter().enumerate() {
        let len = pointer.len();
        pointer.push('/');
        pointer.push_str(&i.to_string());
        walk(item, draft, pointer, issues, depth + 1);
        pointer.truncate(len);
    }
}

fn walk_map(map: &Map<String, Value>, draft: Draft, pointer: &mut String, issues: &mut Vec<SchemaIssue>, depth: usize) {
    for (name, sub) in map {
        let len = pointer.len();
        pointer.push('/');
        pointer.push_str(&escape_pointer_token(name));
        walk(sub, draft, pointer, issues, depth + 1);
        pointer.truncate(len);
    }
}

fn unknown_keyword_issue(key: &str, draft: Draft, pointer: &str) -> SchemaIssue {
    let elsewhere = drafts_knowing(key, draft);
    let message = if let Some(newest) = elsewhere.first() {
        let names: Vec<&str> = elsewhere.iter().map(|d| d.title()).collect();
        format!(
            "unknown keyword '{key}': it is a {} keyword, but this schema is {} where it would never be checked; add \"$schema\": \"{}\" to use it, or remove it",
            names.join(" / "),
            draft.title(),
            newest.meta_schema_uri(),
        )
    } else if let Some(near) = closest_keyword(key, draft) {
        format!("unknown keyword '{key}' for {} (did you mean '{near}'?); it would never be checked", draft.title())
    } else {
        format!(
            "unknown keyword '{key}' for {}; it would never be checked (prefix extensions with 'x-', or compile with strict: false)",
            draft.title()
        )
    };
    SchemaIssue::new(SchemaErrorKind::UnknownKeyword, pointer, message).with_keyword(key)
}

/// A known keyword within two edits of `key` (typos such as `requried`, `additionalProperty`).
fn closest_keyword(key: &str, draft: Draft) -> Option<&'static str> {
    keywords(draft)
        .iter()
        .chain(ANNOTATIONS.iter().copied())
        .map(|k| (edit_distance(&key.to_ascii_lowercase(), &k.to_ascii_lowercase()), k))
        .filter(|(d, k)| *d <= 2 && *d < k.len() / 2 + 1)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
        .or_else(|| {
            // `additionalProperty`, `minimumLength` style: a known keyword as a prefix of the key.
            keywords(draft).iter().find(|k| k.len() > 4 && (key.starts_with(*k) || k.starts_with(key)) && key.len() > 4)
        })
}

fn edit_distance(a: &str, b: &str) -> usize {
    // Levenshtein over two rows; rows are built by iterators, so no index can fall outside.
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for ((cb, diag), up) in b.iter().zip(&prev).zip(prev.iter().skip(1)) {
            let left = cur.last().copied().unwrap_or(usize::MAX - 1);
            cur.push((diag + usize::from(ca != *cb)).min(up + 1).min(left + 1));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_the_draft_a_keyword_belongs_to() {
        let issues = unknown_keywords(&json!({"type": "array", "prefixItems": [{"type": "string"}]}), Draft::Draft7);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].pointer, "/prefixItems");
        assert!(issues[0].message.contains("Draft 2020-12"), "{}", issues[0].message);
        assert!(issues[0].message.contains("https://json-schema.org/draft/2020-12/schema"));

        let issues = unknown_keywords(&json!({"dependencies": {"a": ["b"]}}), Draft::Draft202012);
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("Draft 7"), "{}", issues[0].message);
    }

    #[test]
    fn suggests_the_keyword_meant() {
        let issues = unknown_keywords(&json!({"type": "object", "requried": ["a"]}), Draft::Draft7);
        assert!(issues[0].message.contains("did you mean 'required'"), "{}", issues[0].message);
    }

    #[test]
    fn property_names_and_annotations_are_not_keywords() {
        let schema = json!({
            "title": "t", "x-ui": {"anything": 1}, "$comment": "c", "deprecated": true,
            "properties": {"requried": {"type": "string", "examples": ["a"]}},
            "definitions": {"foo": {"enum": [{"notAKeyword": 1}]}}
        });
        assert!(unknown_keywords(&schema, Draft::Draft7).is_empty());
        let nested = json!({"properties": {"a": {"items": [{"bogus": 1}]}}});
        let issues = unknown_keywords(&nested, Draft::Draft7);
        assert_eq!(issues[0].pointer, "/properties/a/items/0/bogus");
    }
}
