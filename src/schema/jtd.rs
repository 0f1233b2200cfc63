//! The rules a JSON Type Definition schema must follow (RFC 8927 section 2): every way a schema
//! breaks them, each with a JSON Pointer to the keyword at fault and the reason. A schema that
//! breaks them has no defined meaning, so it is refused rather than guessed at.

use crate::json::path::escape_pointer_token;
use crate::schema::error::{SchemaErrorKind, SchemaIssue};
use crate::validator::draft::Draft;
use serde_json::{Map, Value};

/// The `type` values RFC 8927 defines.
pub const TYPES: [&str; 11] = ["boolean", "string", "timestamp", "float32", "float64", "int8", "uint8", "int16", "uint16", "int32", "uint32"];



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
            if !Draft::Jtd.knows(key) {
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

/// A place where the JSON Schema form of a JTD schema says less than, or something else than,
/// the JTD schema (`pointer` into the JTD schema).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conversion {
    pub pointer: String,
    pub message: String,
}

/// The JSON Schema (2020-12 vocabulary, `$defs` for the definitions) that accepts what the JTD
/// schema accepts, for consumers that read only JSON Schema: providers' tool and structured
/// output definitions, prompts, the AI SDK. Where JSON Schema says it differently (an integer
/// type's range as `minimum`/`maximum`, a timestamp as `format: date-time`, a discriminator as an
/// `anyOf` of objects whose tag is a `const`), a `Conversion` says so. The schema is assumed to
/// follow RFC 8927's rules (a contract's has been checked).
pub fn to_json_schema(schema: &Value) -> (Value, Vec<Conversion>) {
    let mut changes = Vec::new();
    let mut out = convert(schema, "", None, &mut changes, 0);
    if let (Value::Object(map), Some(Value::Object(defs))) = (&mut out, schema.get("definitions")) {
        let converted: Map<String, Value> =
            defs.iter().map(|(name, def)| (name.clone(), convert(def, &at(&at("", "definitions"), name), None, &mut changes, 1))).collect();
        map.insert("$defs".into(), Value::Object(converted));
    }
    (out, changes)
}

/// `nullable` as JSON Schema says it: `null` added to `type`, or the schema as an `anyOf` branch.
fn or_null(mut schema: Map<String, Value>, nullable: bool) -> Value {
    if !nullable {
        return Value::Object(schema);
    }
    match schema.get("type").cloned() {
        Some(Value::String(t)) => {
            schema.insert("type".into(), serde_json::json!([t, "null"]));
            if let Some(Value::Array(options)) = schema.get_mut("enum") {
                options.push(Value::Null);
            }
            Value::Object(schema)
        }
        _ => serde_json::json!({"anyOf": [schema, {"type": "null"}]}),
    }
}

fn convert(schema: &Value, pointer: &str, tag: Option<(&str, &str)>, changes: &mut Vec<Conversion>, depth: usize) -> Value {
    let Some(obj) = schema.as_object().filter(|_| depth <= MAX_DEPTH) else { return Value::Object(Map::new()) };
    let nullable = obj.get("nullable") == Some(&Value::Bool(true));
    let mut out = Map::new();
    if let Some(Value::String(d)) = obj.get("metadata").and_then(|m| m.get("description")) {
        out.insert("description".into(), Value::String(d.clone()));
    }
    let mut change = |keyword: &str, message: String| changes.push(Conversion { pointer: at(pointer, keyword), message });
    if let Some(Value::String(name)) = obj.get("ref") {
        out.insert("$ref".into(), Value::String(format!("#/$defs/{}", escape_pointer_token(name))));
    } else if let Some(Value::String(t)) = obj.get("type") {
        let range = crate::validator::JtdType::from_name(t).and_then(|k| k.range());
        match (t.as_str(), range) {
            ("boolean" | "string", _) => {
                out.insert("type".into(), Value::String(t.clone()));
            }
            ("float32" | "float64", _) => {
                out.insert("type".into(), "number".into());
            }
            ("timestamp", _) => {
                out.insert("type".into(), "string".into());
                out.insert("format".into(), "date-time".into());
                change("type", "timestamp: a string with format date-time (RFC 3339)".into());
            }
            (_, Some((min, max))) => {
                out.insert("type".into(), "integer".into());
                out.insert("minimum".into(), min.into());
                out.insert("maximum".into(), max.into());
                change("type", format!("{t}: an integer with minimum {min} and maximum {max}"));
            }
            _ => {}
        }
    } else if let Some(values) = obj.get("enum") {
        out.insert("type".into(), "string".into());
        out.insert("enum".into(), values.clone());
    } else if let Some(elements) = obj.get("elements") {
        out.insert("type".into(), "array".into());
        out.insert("items".into(), convert(elements, &at(pointer, "elements"), None, changes, depth + 1));
    } else if obj.contains_key("properties") || obj.contains_key("optionalProperties") {
        let mut properties = Map::new();
        let mut required = Vec::new();
        if let Some((name, value)) = tag {
            properties.insert(name.to_string(), serde_json::json!({"const": value}));
            required.push(Value::String(name.to_string()));
        }
        for key in ["properties", "optionalProperties"] {
            let Some(Value::Object(map)) = obj.get(key) else { continue };
            for (name, sub) in map {
                properties.insert(name.clone(), convert(sub, &at(&at(pointer, key), name), None, changes, depth + 1));
                if key == "properties" {
                    required.push(Value::String(name.clone()));
                }
            }
        }
        out.insert("type".into(), "object".into());
        out.insert("properties".into(), Value::Object(properties));
        out.insert("required".into(), Value::Array(required));
        out.insert("additionalProperties".into(), Value::Bool(obj.get("additionalProperties") == Some(&Value::Bool(true))));
    } else if let Some(values) = obj.get("values") {
        out.insert("type".into(), "object".into());
        out.insert("additionalProperties".into(), convert(values, &at(pointer, "values"), None, changes, depth + 1));
    } else if let (Some(Value::String(name)), Some(Value::Object(mapping))) = (obj.get("discriminator"), obj.get("mapping")) {
        let branches: Vec<Value> = mapping
            .iter()
            .map(|(value, sub)| convert(sub, &at(&at(pointer, "mapping"), value), Some((name, value)), changes, depth + 1))
            .collect();
        out.insert("type".into(), "object".into());
        out.insert("anyOf".into(), Value::Array(branches));
        changes.push(Conversion {
            pointer: at(pointer, "discriminator"),
            message: format!("discriminator {name:?}: an anyOf of objects whose {name:?} is a const, one for each value of 'mapping'"),
        });
    }
    or_null(out, nullable)
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

    #[test]
    fn converts_to_json_schema_saying_what_differs() {
        let schema = json!({
            "definitions": {"n": {"type": "uint8"}},
            "properties": {"at": {"type": "timestamp"}, "n": {"ref": "n", "nullable": true}, "e": {"discriminator": "k", "mapping": {"a": {"properties": {"x": {"type": "string"}}}}}},
            "optionalProperties": {"tags": {"elements": {"enum": ["x", "y"]}, "nullable": true}},
        });
        let (out, changes) = to_json_schema(&schema);
        assert_eq!(out["$defs"]["n"], json!({"type": "integer", "minimum": 0, "maximum": 255}));
        assert_eq!(out["properties"]["at"], json!({"type": "string", "format": "date-time"}));
        assert_eq!(out["properties"]["n"], json!({"anyOf": [{"$ref": "#/$defs/n"}, {"type": "null"}]}));
        assert_eq!(out["properties"]["tags"], json!({"type": ["array", "null"], "items": {"type": "string", "enum": ["x", "y"]}}));
        assert_eq!(out["required"], json!(["at", "n", "e"]));
        assert_eq!(out["additionalProperties"], json!(false));
        assert_eq!(
            out["properties"]["e"]["anyOf"][0],
            json!({"type": "object", "properties": {"k": {"const": "a"}, "x": {"type": "string"}}, "required": ["k", "x"], "additionalProperties": false})
        );
        let pointers: Vec<&str> = changes.iter().map(|c| c.pointer.as_str()).collect();
        assert_eq!(pointers, ["/properties/at/type", "/properties/e/discriminator", "/definitions/n/type"]);
    }
}
