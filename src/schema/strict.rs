//! Strict mode: every keyword in a schema must be checked by the draft in effect. A keyword the
//! validator does not know is silently never checked — the bug users of output schemas hit most
//! (`prefixItems` under Draft 7, `requried` for `required`) — so strict mode refuses it. So is a
//! validation keyword beside `$ref` in Drafts 4, 6 and 7: there a `$ref` stands for its whole
//! schema object and the specification has every keyword next to it ignored, while other
//! validators (Ajv) check them, and schemas written for those rely on it.

use crate::validator::draft::{drafts_knowing, keywords, Dialect, Draft, OPENAPI_KEYWORDS};
use crate::validator::keywords::{self as table, Step, MAX_WALK_DEPTH};
use crate::schema::error::{SchemaErrorKind, SchemaIssue};
use crate::json::path::escape_pointer_token;
use serde_json::Value;

/// Keywords that carry no assertion and are always allowed, whatever the draft.
const ANNOTATIONS: &[&str] = &[
    "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly",
];

/// Keywords that may sit beside a `$ref` in Drafts 4–7 although they are ignored there, because
/// ignoring them changes nothing: the dialect, and the maps that hold reference targets (found by
/// JSON Pointer whatever sits beside them). The identifier (`$id`, Draft 4's `id`) is allowed
/// too, but changes where references resolve: see [`ids_beside_ref`].
const HARMLESS_BESIDE_REF: &[&str] = &["$ref", "$schema", "definitions", "$defs"];

/// Finds every keyword of `schema` that would never be checked: keywords the draft does not know,
/// and validation keywords beside a `$ref` in Drafts 4–7. Only places that hold subschemas are
/// walked, so property names under `properties` are never mistaken for keywords.
pub fn unknown_keywords(schema: &Value, draft: Draft) -> Vec<SchemaIssue> {
    Walk::run(schema, draft).refused
}

/// Every identifier (`$id`, or `id` in Draft 4) beside a `$ref` in Drafts 4–7. It is ignored
/// there: the `$ref` resolves against the enclosing base URI, not against it, and no reference
/// reaches the schema by it. Common in generated schemas and harmless when nothing relies on it,
/// so it is not refused; the editor warns about it.
pub fn ids_beside_ref(schema: &Value, draft: Draft) -> Vec<SchemaIssue> {
    Walk::run(schema, draft).ignored_ids
}

#[derive(Default)]
struct Walk {
    pointer: String,
    /// The root's `$schema` is OpenAPI 3.1's dialect: its annotation keywords are allowed.
    openapi: bool,
    refused: Vec<SchemaIssue>,
    ignored_ids: Vec<SchemaIssue>,
}

impl Walk {
    fn run(schema: &Value, draft: Draft) -> Walk {
        let openapi = schema.get("$schema").and_then(Value::as_str).and_then(Dialect::from_uri) == Some(Dialect::OpenApi31);
        let mut walk = Walk { openapi, ..Walk::default() };
        walk.schema(schema, draft, 0);
        walk
    }

    /// Runs `f` with `token` appended to the pointer.
    fn under(&mut self, token: &str, f: impl FnOnce(&mut Self)) {
        let len = self.pointer.len();
        self.pointer.push('/');
        self.pointer.push_str(&escape_pointer_token(token));
        f(self);
        self.pointer.truncate(len);
    }

    fn schema(&mut self, schema: &Value, draft: Draft, depth: usize) {
        let Value::Object(map) = schema else { return };
        if depth > MAX_WALK_DEPTH {
            return;
        }
        // An embedded resource may declare its own dialect.
        let draft = map
            .get("$schema")
            .and_then(Value::as_str)
            .and_then(Draft::from_schema_uri)
            .unwrap_or(draft);
        let openapi = self.openapi;
        let allowed = |k: &str| is_allowed(k, draft) || generator_vocabulary(k, map, openapi);
        // Before 2019-09 a string `$ref` hides every keyword beside it.
        let reference = map.get("$ref").and_then(Value::as_str).filter(|_| draft.ref_hides_siblings());
        let hidden: Vec<&str> = match reference {
            Some(_) => map.keys().map(String::as_str).filter(|k| is_allowed(k, draft) && hidden_beside_ref(k, draft)).collect(),
            None => Vec::new(),
        };
        for (key, value) in map {
            self.under(key, |w| {
                if !allowed(key) {
                    w.refused.push(unknown_keyword_issue(key, draft, &w.pointer));
                } else if let (Some(reference), true) = (reference, hidden.contains(&key.as_str())) {
                    w.refused.push(ref_sibling_issue(key, reference, &hidden, draft, &w.pointer));
                } else {
                    if reference.is_some() && key == draft.id_keyword() {
                        w.ignored_ids.push(id_beside_ref_issue(key, draft, &w.pointer));
                    }
                    w.keyword(key, value, draft, depth);
                }
            });
        }
    }

    /// Recurses into the subschemas a known keyword holds (by its shape in the keyword table).
    fn keyword(&mut self, key: &str, value: &Value, draft: Draft, depth: usize) {
        let Some(shape) = table::lookup(key).map(|k| k.shape) else { return };
        table::subschemas_of(shape, value, |sub, step| match step {
            Step::Whole => self.schema(sub, draft, depth + 1),
            Step::Index(i) => self.under(&i.to_string(), |w| w.schema(sub, draft, depth + 1)),
            Step::Name(name) => self.under(name, |w| w.schema(sub, draft, depth + 1)),
        });
    }
}

/// The annotations of schema generators' vocabularies: OpenAPI's `discriminator` beside
/// `oneOf`/`anyOf` (Pydantic and OpenAPI documents write it there), and in OpenAPI 3.1's
/// dialect its other keywords anywhere.
fn generator_vocabulary(key: &str, map: &serde_json::Map<String, Value>, openapi: bool) -> bool {
    (key == "discriminator" && (map.contains_key("oneOf") || map.contains_key("anyOf"))) || (openapi && OPENAPI_KEYWORDS.contains(&key))
}

fn is_allowed(key: &str, draft: Draft) -> bool {
    key.starts_with("x-") || ANNOTATIONS.contains(&key) || keywords(draft).contains(&key)
}

/// A keyword that beside a `$ref` is ignored and would have been checked without it.
fn hidden_beside_ref(key: &str, draft: Draft) -> bool {
    !(key.starts_with("x-") || ANNOTATIONS.contains(&key) || HARMLESS_BESIDE_REF.contains(&key) || key == draft.id_keyword())
}

fn ref_sibling_issue(key: &str, reference: &str, hidden: &[&str], draft: Draft, pointer: &str) -> SchemaIssue {
    let quoted: Vec<String> = hidden.iter().map(|k| format!("\"{k}\"")).collect();
    let message = format!(
        "\"{key}\" beside \"$ref\" would never be checked: {} ignores every keyword next to a $ref; \
         move {} into an \"allOf\" with it ({{\"allOf\": [{{\"$ref\": {}}}, {{{}: …}}]}}), \
         or declare \"$schema\": \"{}\" at the root (Draft 2019-09 and later check keywords beside $ref)",
        draft.title(),
        quoted.join(", "),
        Value::from(reference),
        quoted.join(": …, "),
        Draft::Draft201909.meta_schema_uri(),
    );
    SchemaIssue::new(SchemaErrorKind::RefSibling, pointer, message).with_keyword(key)
}

fn id_beside_ref_issue(key: &str, draft: Draft, pointer: &str) -> SchemaIssue {
    let message = format!(
        "\"{key}\" beside \"$ref\" is ignored in {}: the $ref resolves against the enclosing base URI, not this one, and no reference reaches this schema by it; \
         remove it, or put the $ref in an \"allOf\" if it should resolve against \"{key}\"",
        draft.title(),
    );
    SchemaIssue::new(SchemaErrorKind::RefSibling, pointer, message).with_keyword(key)
}

fn unknown_keyword_issue(key: &str, draft: Draft, pointer: &str) -> SchemaIssue {
    let elsewhere = drafts_knowing(key, draft);
    let issue = |message: String| SchemaIssue::new(SchemaErrorKind::UnknownKeyword, pointer, message).with_keyword(key);
    if let Some(newest) = elsewhere.first() {
        let names: Vec<&str> = elsewhere.iter().map(|d| d.title()).collect();
        issue(format!(
            "unknown keyword '{key}': it is a {} keyword, but this schema is {} where it would never be checked; add \"$schema\": \"{}\" to use it, or remove it",
            names.join(" / "),
            draft.title(),
            newest.meta_schema_uri(),
        ))
    } else if let Some(near) = closest_keyword(key, draft) {
        issue(format!("unknown keyword '{key}' for {} (did you mean '{near}'?); it would never be checked", draft.title())).with_suggestion(near)
    } else {
        issue(format!(
            "unknown keyword '{key}' for {}; it would never be checked (prefix extensions with 'x-', or compile with strict: false)",
            draft.title()
        ))
    }
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
        assert_eq!(issues[0].suggestion.as_deref(), Some("required"));
        // A keyword of another draft is no misspelling: the fix is the draft, not a rename.
        let issues = unknown_keywords(&json!({"prefixItems": []}), Draft::Draft7);
        assert_eq!(issues[0].suggestion, None);
    }

    #[test]
    fn validation_keywords_beside_ref_are_refused_before_2019_09() {
        let schema = json!({
            "definitions": {"hook": {"type": "object", "properties": {"id": {"type": "string"}}}},
            "type": "array",
            "items": {
                "$ref": "#/definitions/hook", "required": ["id", "entry"], "additionalProperties": false,
                "title": "a hook", "description": "d", "default": {}, "examples": [], "$comment": "c",
                "readOnly": true, "writeOnly": false, "x-ui": 1, "$id": "#hook"
            }
        });
        for draft in [Draft::Draft6, Draft::Draft7] {
            let issues = unknown_keywords(&schema, draft);
            let pointers: Vec<&str> = issues.iter().map(|i| i.pointer.as_str()).collect();
            assert_eq!(pointers, ["/items/required", "/items/additionalProperties"], "{draft:?}");
            assert!(issues.iter().all(|i| i.kind == SchemaErrorKind::RefSibling));
            let message = &issues[0].message;
            assert!(message.starts_with("\"required\" beside \"$ref\" would never be checked"), "{message}");
            assert!(message.contains(r##"{"allOf": [{"$ref": "#/definitions/hook"}, {"required": …, "additionalProperties": …}]}"##), "{message}");
            assert!(message.contains(Draft::Draft201909.meta_schema_uri()), "{message}");
            let ids = ids_beside_ref(&schema, draft);
            assert_eq!(ids.len(), 1);
            assert_eq!(ids[0].pointer, "/items/$id");
        }
        // Draft 4: `id` is its identifier (a warning); `$id` is no keyword there at all.
        let draft4 = json!({"definitions": {"a": {}}, "properties": {"p": {"$ref": "#/definitions/a", "id": "#p", "minimum": 1}}});
        let issues = unknown_keywords(&draft4, Draft::Draft4);
        assert_eq!(issues.iter().map(|i| i.pointer.as_str()).collect::<Vec<_>>(), ["/properties/p/minimum"]);
        assert_eq!(ids_beside_ref(&draft4, Draft::Draft4)[0].pointer, "/properties/p/id");
        // From 2019-09 on, keywords beside $ref are checked: nothing to refuse or warn about.
        for draft in [Draft::Draft201909, Draft::Draft202012] {
            assert!(unknown_keywords(&schema, draft).is_empty(), "{draft:?}");
            assert!(ids_beside_ref(&schema, draft).is_empty(), "{draft:?}");
        }
        // An embedded resource's own $schema decides.
        let embedded = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
            "old": {"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/x", "definitions": {"x": {}}, "type": "string"},
            "new": {"$ref": "#/$defs/old", "type": "string"}
        }});
        let issues = unknown_keywords(&embedded, Draft::Draft7);
        assert_eq!(issues.iter().map(|i| i.pointer.as_str()).collect::<Vec<_>>(), ["/$defs/old/type"]);
    }

    #[test]
    fn what_sits_beside_ref_is_walked_only_where_targets_live() {
        // `definitions` beside a root $ref holds the targets: walked. A refused sibling is not
        // walked (its own keywords are never checked either): one issue, not one per keyword.
        let schema = json!({
            "$ref": "#/definitions/a",
            "definitions": {"a": {"type": "object", "requried": []}},
            "properties": {"b": {"minimum": 1, "bogus": 1}}
        });
        let issues = unknown_keywords(&schema, Draft::Draft7);
        let found: Vec<(&str, SchemaErrorKind)> = issues.iter().map(|i| (i.pointer.as_str(), i.kind)).collect();
        assert_eq!(found, [("/definitions/a/requried", SchemaErrorKind::UnknownKeyword), ("/properties", SchemaErrorKind::RefSibling)]);
        // A `$ref` that is not a string hides nothing (the meta-schema refuses it).
        assert!(unknown_keywords(&json!({"$ref": 1, "type": "string"}), Draft::Draft7).is_empty());
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
