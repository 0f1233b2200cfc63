//! JSON Type Definition (RFC 8927) compiled into the validator's nodes: each of the eight forms
//! becomes the keywords that report its errors at the RFC's instance and schema paths. The
//! schema is assumed to follow the RFC's rules (src/schema/jtd.rs refuses those that do not);
//! what is still wrong here (a `ref` to nothing) is a compile error, never a panic.

use super::compile::{JtdType, Kw, SchemaNode, Resource, ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING};
use super::draft::Draft;
use super::{CompileError, Validator};
use serde_json::{Map, Value};
use std::collections::HashMap;

struct JtdCompiler<'s> {
    nodes: Vec<SchemaNode>,
    definitions: HashMap<&'s str, usize>,
}

pub(super) fn compile(schema: &Value) -> Result<Validator, CompileError> {
    let mut c = JtdCompiler { nodes: Vec::new(), definitions: HashMap::new() };
    let root_obj = schema.as_object();
    let definitions = root_obj.and_then(|o| o.get("definitions")).and_then(Value::as_object);
    // Every definition has its node before any is compiled: a `ref` (recursive ones included)
    // points at a node that is there.
    let mut todo = Vec::new();
    if let Some(defs) = definitions {
        for (name, def) in defs {
            let at = format!("/definitions/{}", crate::json::path::escape_pointer_token(name));
            let index = c.alloc(&at);
            c.definitions.insert(name.as_str(), index);
            todo.push((index, def, at));
        }
    }
    let root = c.alloc("");
    for (index, def, at) in todo {
        c.fill(index, def, &at, None)?;
    }
    c.fill(root, schema, "", None)?;
    Ok(Validator {
        nodes: c.nodes,
        patterns: Vec::new(),
        resources: vec![Resource { dynamic_anchors: Vec::new(), recursive_root: None }],
        root,
        dynamic: false,
    })
}

/// `names` with `"null"` after them when the schema is nullable.
fn with_null(mask: u8, names: &[&'static str], nullable: bool) -> (u8, Vec<&'static str>) {
    let mut names = names.to_vec();
    if nullable {
        names.push("null");
    }
    (if nullable { mask | NULL } else { mask }, names)
}

fn form(mask: u8, name: &'static str, keyword: &'static str, nullable: bool) -> Kw {
    let (mask, names) = with_null(mask, &[name], nullable);
    Kw::JtdForm { mask, names, keyword }
}

impl<'s> JtdCompiler<'s> {
    fn alloc(&mut self, location: &str) -> usize {
        self.nodes.push(SchemaNode { kws: Vec::new(), resource: 0, gathers: false, draft: Draft::Jtd, location: location.to_string(), selected_by: None });
        self.nodes.len() - 1
    }

    fn child(&mut self, value: &'s Value, at: &str, tag: Option<&str>) -> Result<usize, CompileError> {
        let index = self.alloc(at);
        self.fill(index, value, at, tag)?;
        Ok(index)
    }

    /// Compiles the schema at `at` into node `index`; `tag`: the discriminator's tag, when the
    /// schema is one of its mapping's (the tag is then no additional property).
    fn fill(&mut self, index: usize, value: &'s Value, at: &str, tag: Option<&str>) -> Result<(), CompileError> {
        let Some(obj) = value.as_object() else { return Ok(()) };
        let kws = self.keywords(obj, at, tag)?;
        if let Some(node) = self.nodes.get_mut(index) {
            node.kws = kws;
        }
        Ok(())
    }

    fn keywords(&mut self, obj: &'s Map<String, Value>, at: &str, tag: Option<&str>) -> Result<Vec<Kw>, CompileError> {
        let nullable = obj.get("nullable") == Some(&Value::Bool(true));
        let mut kws = Vec::new();
        if let Some(Value::String(name)) = obj.get("ref") {
            let node = *self.definitions.get(name.as_str()).ok_or_else(|| CompileError::MissingTarget {
                pointer: format!("{at}/ref"),
                reference: name.clone(),
                uri: format!("#/definitions/{}", crate::json::path::escape_pointer_token(name)),
            })?;
            kws.push(Kw::JtdRef { node, name: name.clone(), nullable });
        } else if let Some(Value::String(name)) = obj.get("type") {
            let plain = match name.as_str() {
                "boolean" => Some((BOOLEAN, "boolean")),
                "string" => Some((STRING, "string")),
                "float32" => Some((NUMBER, "float32")),
                "float64" => Some((NUMBER, "float64")),
                _ => None,
            };
            if let Some((mask, name)) = plain {
                let (mask, names) = with_null(mask, &[name], nullable);
                kws.push(Kw::Type { mask, names });
            } else if let Some(kind) = JtdType::from_name(name) {
                kws.push(Kw::JtdType { kind, nullable });
            }
        } else if let Some(Value::Array(values)) = obj.get("enum") {
            let mut options = values.clone();
            if nullable {
                options.push(Value::Null);
            }
            kws.push(Kw::Enum(Value::Array(options)));
        } else if let Some(elements) = obj.get("elements") {
            kws.push(form(ARRAY, "array", "elements", nullable));
            let rest = self.child(elements, &format!("{at}/elements"), None)?;
            kws.push(Kw::Items { prefix: Vec::new(), prefix_keyword: "elements", rest: Some(rest), rest_keyword: "elements" });
        } else if obj.contains_key("properties") || obj.contains_key("optionalProperties") {
            self.properties(obj, at, tag, nullable, &mut kws)?;
        } else if let Some(values) = obj.get("values") {
            kws.push(form(OBJECT, "object", "values", nullable));
            kws.push(Kw::Values(self.child(values, &format!("{at}/values"), None)?));
        } else if let Some(Value::String(tag)) = obj.get("discriminator") {
            kws.push(form(OBJECT, "object", "discriminator", nullable));
            let mut mapping = Vec::new();
            if let Some(Value::Object(map)) = obj.get("mapping") {
                for (value, schema) in map {
                    let here = format!("{at}/mapping/{}", crate::json::path::escape_pointer_token(value));
                    mapping.push((value.clone(), self.child(schema, &here, Some(tag))?));
                }
            }
            crate::sort::sort_by(&mut mapping, |a, b| a.0.cmp(&b.0));
            kws.push(Kw::Discriminator { tag: tag.clone(), mapping });
        }
        Ok(kws)
    }

    fn properties(&mut self, obj: &'s Map<String, Value>, at: &str, tag: Option<&str>, nullable: bool, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
        let keyword = if obj.contains_key("properties") { "properties" } else { "optionalProperties" };
        kws.push(form(OBJECT, "object", keyword, nullable));
        let mut allowed: Vec<String> = tag.map(str::to_string).into_iter().collect();
        let mut lists = [Vec::new(), Vec::new()];
        for (slot, key) in lists.iter_mut().zip(["properties", "optionalProperties"]) {
            let Some(Value::Object(map)) = obj.get(key) else { continue };
            for (name, schema) in map {
                let here = format!("{at}/{key}/{}", crate::json::path::escape_pointer_token(name));
                slot.push((name.clone(), self.child(schema, &here, None)?));
                allowed.push(name.clone());
            }
            crate::sort::sort_by(slot, |a, b| a.0.cmp(&b.0));
        }
        let [required, optional] = lists;
        if !required.is_empty() {
            kws.push(Kw::JtdRequired(required.iter().map(|(n, _)| n.clone()).collect()));
            kws.push(Kw::Properties(required));
        }
        if !optional.is_empty() {
            kws.push(Kw::OptionalProperties(optional));
        }
        if obj.get("additionalProperties") != Some(&Value::Bool(true)) {
            crate::sort::sort(&mut allowed);
            allowed.dedup();
            kws.push(Kw::JtdAdditional(allowed));
        }
        Ok(())
    }
}
