//! The rules a JSON Type Definition schema must follow (RFC 8927 section 2): every way a schema
//! breaks them, each with a JSON Pointer to the keyword at fault and the reason. A schema that
//! breaks them has no defined meaning, so it is refused rather than guessed at.

use crate::json::path::escape_pointer_token;
use crate::schema::error::{SchemaErrorKind, SchemaIssue};
use serde_json::{Map, Value};

/// The `type` values RFC 8927 defines.
pub const TYPES: [&str; 11] = ["boolean", "string", "timestamp", "float32", "float64", "int8", "uint8", "int16", "uint16", "int32", "uint32"];

/// The keywords of a JTD schema object.
const KEYWORDS: [&str; 13] = [
    "metadata", "nullable", "definitions", "ref", "type", "enum", "elements", "properties",
    "optionalProperties", "additionalProperties", "values", "discriminator", "mapping",
];


/// Every rule `schema` breaks, in schema order.
pub fn check(schema: &Value) -> Vec<SchemaIssue> {
    let mut c = Checker { definitions: None, issues: Vec::new() };
    if let Some(Value::Object(defs)) = schema.get("definitions") {
        c.definitions = Some(defs);
    }
    c.schema(schema, "", true, 0);
    c.issues
}

struct Checker<'s> {
    definitions: Option<&'s Map<String, Value>>,
    issues: Vec<SchemaIssue>,
}

/// How deep schemas may nest here (the contract's depth limit is checked before, so this only
/// keeps the walk itself bounded).
const MAX_DEPTH: usize = 512;

fn at(pointer: &str, keyword: &str) -> String {
    format!("{pointer}/{}", escape_pointer_token(keyword))
}

impl<'s> Checker<'s> {
    fn issue(&mut self, kind: SchemaErrorKind, pointer: String, keyword: &str, message: String) {
        self.issues.push(SchemaIssue::new(kind, pointer, message).with_keyword(keyword));
    }

    fn rule(&mut self, pointer: String, keyword: &str, message: impl Into<String>) {
        self.issue(SchemaErrorKind::MetaSchema, pointer, keyword, message.into());
    }

    fn schema(&mut self, value: &'s Value, pointer: &str, root: bool, depth: usize) {
        self.schema_tagged(value, pointer, root, depth, None);
    }

    /// The schema at `pointer`; `mapping`: set when it is a schema of a discriminator's
    /// `mapping`, with the tag's name when the discriminator names one.
    fn schema_tagged(&mut self, value: &'s Value, pointer: &str, root: bool, depth: usize, mapping: Option<Option<&str>>) {
        if depth > MAX_DEPTH {
            return;
        }
        let Value::Object(obj) = value else {
            let keyword = pointer.rsplit('/').next().unwrap_or("");
            self.rule(pointer.to_string(), keyword, "a JTD schema must be an object");
            return;
        };
        for key in obj.keys() {
            if !KEYWORDS.contains(&key.as_str()) {
                self.issue(
                    SchemaErrorKind::UnknownKeyword,
                    at(pointer, key),
                    key,
                    format!("unknown keyword '{key}' for JSON Type Definition (RFC 8927 allows no other keywords; put extra data in 'metadata')"),
                );
            }
        }
        if obj.get("metadata").is_some_and(|m| !m.is_object()) {
            self.rule(at(pointer, "metadata"), "metadata", "'metadata' must be an object");
        }
        if obj.get("nullable").is_some_and(|n| !n.is_boolean()) {
            self.rule(at(pointer, "nullable"), "nullable", "'nullable' must be true or false");
        }
        if let Some(defs) = obj.get("definitions") {
            if !root {
                self.rule(at(pointer, "definitions"), "definitions", "'definitions' is allowed only at the root of a JTD schema");
            }
            match defs {
                Value::Object(map) => {
                    for (name, def) in map {
                        self.schema(def, &at(&at(pointer, "definitions"), name), false, depth + 1);
                    }
                }
                _ => self.rule(at(pointer, "definitions"), "definitions", "'definitions' must be an object of schemas"),
            }
        }
        self.form(obj, pointer, depth, mapping);
    }

    fn form(&mut self, obj: &'s Map<String, Value>, pointer: &str, depth: usize, mapping: Option<Option<&str>>) {
        const FORMS: [(&str, &[&str]); 7] = [
            ("ref", &["ref"]),
            ("type", &["type"]),
            ("enum", &["enum"]),
            ("elements", &["elements"]),
            ("properties", &["properties", "optionalProperties", "additionalProperties"]),
            ("values", &["values"]),
            ("discriminator", &["discriminator", "mapping"]),
        ];
        let present: Vec<(&str, &str)> = FORMS
            .iter()
            .filter_map(|(form, keys)| keys.iter().find(|k| obj.contains_key(**k)).map(|k| (*form, *k)))
            .collect();
        if let [(_, first), rest @ ..] = present.as_slice() {
            for (_, other) in rest {
                self.rule(
                    at(pointer, other),
                    other,
                    format!("'{other}' cannot be beside '{first}': a JTD schema has one form (ref, type, enum, elements, properties, values or discriminator)"),
                );
            }
        }
        if mapping.is_some() && !matches!(present.first(), Some(("properties", _))) {
            self.rule(pointer.to_string(), "mapping", "a schema of 'mapping' must be of the properties form (have 'properties' or 'optionalProperties')");
        }
        let child = |c: &mut Self, key: &str| {
            if let Some(v) = obj.get(key) {
                c.schema(v, &at(pointer, key), false, depth + 1);
            }
        };
        match present.first().map(|(f, _)| *f) {
            Some("ref") => self.reference(obj, pointer),
            Some("type") => match obj.get("type") {
                Some(Value::String(t)) if TYPES.contains(&t.as_str()) => {}
                _ => self.rule(at(pointer, "type"), "type", format!("'type' must be one of {}", TYPES.join(", "))),
            },
            Some("enum") => self.enumeration(obj.get("enum"), pointer),
            Some("elements") => child(self, "elements"),
            Some("properties") => self.properties(obj, pointer, depth, mapping.flatten()),
            Some("values") => child(self, "values"),
            Some("discriminator") => self.discriminator(obj, pointer, depth),
            _ => {}
        }
    }

    fn reference(&mut self, obj: &Map<String, Value>, pointer: &str) {
        match obj.get("ref") {
            Some(Value::String(name)) => {
                if !self.definitions.is_some_and(|d| d.contains_key(name)) {
                    self.issue(
                        SchemaErrorKind::UnresolvableRef,
                        at(pointer, "ref"),
                        "ref",
                        format!("ref {name:?} names no definition: the root's 'definitions' has no {name:?}"),
                    );
                }
            }
            _ => self.rule(at(pointer, "ref"), "ref", "'ref' must be a string naming a definition"),
        }
    }

    fn enumeration(&mut self, value: Option<&Value>, pointer: &str) {
        let here = at(pointer, "enum");
        let Some(Value::Array(list)) = value else {
            return self.rule(here, "enum", "'enum' must be an array of strings");
        };
        if list.is_empty() {
            return self.rule(here, "enum", "'enum' must list at least one string");
        }
        for (i, item) in list.iter().enumerate() {
            match item {
                Value::String(s) if list.iter().take(i).any(|o| o.as_str() == Some(s)) => {
                    self.rule(format!("{here}/{i}"), "enum", format!("'enum' lists {s:?} more than once"));
                }
                Value::String(_) => {}
                _ => self.rule(format!("{here}/{i}"), "enum", "'enum' values must be strings"),
            }
        }
    }

    fn properties(&mut self, obj: &'s Map<String, Value>, pointer: &str, depth: usize, tag: Option<&str>) {
        if !obj.contains_key("properties") && !obj.contains_key("optionalProperties") {
            self.rule(at(pointer, "additionalProperties"), "additionalProperties", "'additionalProperties' needs 'properties' or 'optionalProperties' beside it");
        }
        if obj.get("additionalProperties").is_some_and(|a| !a.is_boolean()) {
            self.rule(at(pointer, "additionalProperties"), "additionalProperties", "'additionalProperties' must be true or false");
        }
        let required = obj.get("properties");
        for key in ["properties", "optionalProperties"] {
            let Some(members) = obj.get(key) else { continue };
            let Value::Object(map) = members else {
                self.rule(at(pointer, key), key, format!("'{key}' must be an object of schemas"));
                continue;
            };
            for (name, sub) in map {
                let here = at(&at(pointer, key), name);
                if key == "optionalProperties" && required.and_then(|r| r.get(name)).is_some() {
                    self.rule(here.clone(), key, format!("{name:?} is in both 'properties' and 'optionalProperties'"));
                }
                if tag == Some(name.as_str()) {
                    self.rule(here.clone(), key, format!("{name:?} is the discriminator's tag: a schema of 'mapping' cannot define it"));
                }
                self.schema(sub, &here, false, depth + 1);
            }
        }
    }

    fn discriminator(&mut self, obj: &'s Map<String, Value>, pointer: &str, depth: usize) {
        let tag = match obj.get("discriminator") {
            Some(Value::String(t)) => Some(t.as_str()),
            Some(_) => {
                self.rule(at(pointer, "discriminator"), "discriminator", "'discriminator' must be a string naming the tag property");
                None
            }
            None => {
                self.rule(at(pointer, "mapping"), "mapping", "'mapping' needs 'discriminator' beside it");
                None
            }
        };
        match obj.get("mapping") {
            Some(Value::Object(map)) => {
                for (value, sub) in map {
                    let here = at(&at(pointer, "mapping"), value);
                    if sub.get("nullable") == Some(&Value::Bool(true)) {
                        self.rule(at(&here, "nullable"), "nullable", "a schema of 'mapping' cannot be nullable");
                    }
                    self.schema_tagged(sub, &here, false, depth + 1, Some(tag));
                }
            }
            Some(_) => self.rule(at(pointer, "mapping"), "mapping", "'mapping' must be an object of schemas"),
            None if tag.is_some() => self.rule(at(pointer, "discriminator"), "discriminator", "'discriminator' needs 'mapping' beside it"),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reasons_point_at_the_keyword() {
        let issues = check(&json!({"type": "string", "enum": ["a"]}));
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].pointer, "/enum");
        assert!(issues[0].message.contains("one form"), "{}", issues[0].message);
        let issues = check(&json!({"properties": {"a": {"ref": "x"}}}));
        assert_eq!(issues[0].pointer, "/properties/a/ref");
        assert_eq!(issues[0].kind, SchemaErrorKind::UnresolvableRef);
        let issues = check(&json!({"discriminator": "k", "mapping": {"a": {"properties": {"k": {}}}}}));
        assert_eq!(issues[0].pointer, "/mapping/a/properties/k");
        assert!(check(&json!({"definitions": {"a": {"type": "uint8"}}, "elements": {"ref": "a", "nullable": true}, "metadata": {"x": 1}})).is_empty());
    }
}
