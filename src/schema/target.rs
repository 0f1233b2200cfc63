//! A contract's JSON Schema written for the dialect a consumer asks for: Standard JSON Schema's
//! targets `draft-07`, `draft-2020-12` and `openapi-3.0` (the AI SDK asks for `draft-07`). The
//! document is rewritten keyword by keyword, the way the OpenAI-strict normalisation
//! (agent::tool) and the JTD form (schema::jtd) rewrite theirs, with one difference: nothing that
//! checks a value is dropped or weakened. A keyword the target has no form for is an error
//! naming it and where it is, since a consumer given less would accept what the contract
//! rejects. What only annotates (`$comment`, `contentSchema`) is left out where the target has
//! no place for it, and a keyword the source draft never applied (`prefixItems` in a Draft 7
//! document, a validation keyword beside a Draft 7 `$ref`) is left out so the target does not
//! start applying it.
//!
//! For the drafts, subschemas that move (`$defs` → `definitions`, `items` → `prefixItems` …) are
//! recorded, and every `$ref` whose fragment is a JSON Pointer into the same resource is
//! rewritten to the new place. OpenAPI 3.0's Schema Object has no local definitions: local
//! references are inlined, and a recursive one is an error.

use crate::json::path::escape_pointer_token;
use crate::validator::draft::Draft;
use crate::validator::keywords::{self as table, Shape, MAX_WALK_DEPTH};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// A dialect a contract's JSON Schema can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Draft07,
    Draft202012,
    OpenApi30,
}

impl Target {
    /// Standard JSON Schema's names for the targets.
    pub fn from_name(name: &str) -> Option<Target> {
        match name {
            "draft-07" => Some(Target::Draft07),
            "draft-2020-12" => Some(Target::Draft202012),
            "openapi-3.0" => Some(Target::OpenApi30),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Target::Draft07 => "draft-07",
            Target::Draft202012 => "draft-2020-12",
            Target::OpenApi30 => "openapi-3.0",
        }
    }

    /// The draft whose keywords the target reads (OpenAPI 3.0's Schema Object: Draft 4's, with
    /// its own changes).
    fn draft(self) -> Draft {
        match self {
            Target::Draft07 => Draft::Draft7,
            Target::Draft202012 => Draft::Draft202012,
            Target::OpenApi30 => Draft::Draft4,
        }
    }

    /// The target a draft's own documents are already written in, if it is one.
    pub fn of_draft(draft: Draft) -> Option<Target> {
        match draft {
            Draft::Draft7 => Some(Target::Draft07),
            Draft::Draft202012 => Some(Target::Draft202012),
            _ => None,
        }
    }
}

/// The message for a target the library does not write.
pub fn unknown_target_message(name: &str) -> String {
    format!("unknown JSON Schema target {name:?}: output-contract writes \"draft-07\", \"draft-2020-12\" and \"openapi-3.0\"")
}

/// Why a document cannot be written in a target: the keyword, where it is (a JSON Pointer into
/// the contract's schema), and a message naming both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetError {
    pub keyword: String,
    pub pointer: String,
    pub message: String,
}

/// `schema` (a document of draft `from`) written in `target`.
pub fn to_target(schema: &Value, from: Draft, target: Target) -> Result<Value, TargetError> {
    let mut c = Converter { root: schema, target, moved: BTreeMap::new(), refs: Vec::new(), inlining: Vec::new() };
    let at = At { old: String::new(), new: String::new(), resource_old: String::new(), resource_new: String::new(), from, depth: 0 };
    let mut out = c.schema(schema, &at)?;
    c.rewrite_refs(&mut out);
    Ok(out)
}

/// Where a subschema is: its pointer in the source and in the output, the same two of the
/// resource (the nearest schema with an identifier) it belongs to, the draft in effect there.
#[derive(Clone)]
struct At {
    old: String,
    new: String,
    resource_old: String,
    resource_new: String,
    from: Draft,
    depth: usize,
}

impl At {
    fn below(&self, old: &[&str], new: &[&str]) -> At {
        let join = |base: &str, tokens: &[&str]| tokens.iter().fold(base.to_string(), |p, t| format!("{p}/{}", escape_pointer_token(t)));
        At { old: join(&self.old, old), new: join(&self.new, new), depth: self.depth + 1, ..self.clone() }
    }
}

/// A `$ref` written into the output: the schema holding it (a pointer into the output) and the
/// resource its fragment is read in.
struct RefSite {
    at: String,
    resource_old: String,
    resource_new: String,
}

struct Converter<'s> {
    root: &'s Value,
    target: Target,
    /// Each subschema's pointer in the source → its pointer in the output.
    moved: BTreeMap<String, String>,
    refs: Vec<RefSite>,
    /// OpenAPI: the references being inlined, outermost first.
    inlining: Vec<String>,
}

/// Keywords that carry no assertion (kept wherever the target knows them).
const ANNOTATIONS: &[&str] =
    &["title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding"];

/// Keywords that only annotate, or only mean something in a meta-schema, and that a target
/// without them can leave out without accepting anything more.
const DROPPABLE: &[&str] = &["contentSchema", "$vocabulary", "$comment"];

/// Beside a Draft 4–7 `$ref`, what still means something: the dialect, the maps that hold
/// reference targets (found by pointer whatever sits beside them) and annotations.
fn kept_beside_ref(key: &str) -> bool {
    matches!(key, "$ref" | "$schema" | "definitions" | "$defs") || ANNOTATIONS.contains(&key)
}

/// A keyword of the table that the source draft does not apply (so the output must not either).
fn never_applied(key: &str, from: Draft) -> bool {
    table::lookup(key).is_some() && !from.knows(key) && !matches!(key, "$defs" | "definitions") && !ANNOTATIONS.contains(&key)
}

fn pointer_text(pointer: &str) -> &str {
    if pointer.is_empty() {
        "the root"
    } else {
        pointer
    }
}

impl<'s> Converter<'s> {
    fn error(&self, keyword: &str, pointer: &str, why: &str) -> TargetError {
        let message = format!("cannot write the schema as {}: '{keyword}' at {} {why}", self.target.name(), pointer_text(pointer));
        TargetError { keyword: keyword.to_string(), pointer: pointer.to_string(), message }
    }

    fn no_form(&self, keyword: &str, pointer: &str) -> TargetError {
        let why = match self.target {
            Target::OpenApi30 => "has no OpenAPI 3.0 form (OpenAPI 3.0's Schema Object has no keyword that checks the same)",
            _ => "has no form in that draft (no keyword of it checks the same)",
        };
        self.error(keyword, pointer, why)
    }

    fn schema(&mut self, value: &'s Value, at: &At) -> Result<Value, TargetError> {
        if at.depth > MAX_WALK_DEPTH {
            return Err(self.error("", &at.old, "is nested too deep to convert"));
        }
        self.moved.entry(at.old.clone()).or_insert_with(|| at.new.clone());
        let Value::Object(map) = value else {
            return Ok(match (self.target, value) {
                (Target::OpenApi30, Value::Bool(true)) => json!({}),
                (Target::OpenApi30, Value::Bool(false)) => json!({"not": {}}),
                _ => value.clone(),
            });
        };
        let mut at = at.clone();
        // An embedded resource may declare its own dialect.
        if let Some(draft) = map.get("$schema").and_then(Value::as_str).and_then(Draft::from_meta_schema_uri) {
            at.from = draft;
        }
        // A new resource: fragments of `$ref`s below are read in it.
        if map.get(at.from.id_keyword()).and_then(Value::as_str).is_some_and(|id| !id.starts_with('#')) {
            at.resource_old = at.old.clone();
            at.resource_new = at.new.clone();
        }
        match self.target {
            Target::OpenApi30 => self.openapi(map, &at),
            _ => self.draft(map, &at),
        }
    }

    /// The subschemas of `value` (keyword `key` of the source, of `shape`) converted, written
    /// under `new_key` in the output.
    fn by_shape(&mut self, key: &str, new_key: &str, shape: Shape, value: &'s Value, at: &At) -> Result<Value, TargetError> {
        Ok(match (shape, value) {
            (Shape::Leaf, _) => value.clone(),
            (Shape::List | Shape::OneOrList, Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let index = i.to_string();
                    out.push(self.schema(item, &at.below(&[key, &index], &[new_key, &index]))?);
                }
                Value::Array(out)
            }
            (Shape::One | Shape::OneOrList, v) => self.schema(v, &at.below(&[key], &[new_key]))?,
            (Shape::Map | Shape::MapOfSchemaOrNames, Value::Object(members)) => {
                let mut out = Map::new();
                for (name, sub) in members {
                    let converted = if shape == Shape::MapOfSchemaOrNames && sub.is_array() {
                        sub.clone()
                    } else {
                        self.schema(sub, &at.below(&[key, name], &[new_key, name]))?
                    };
                    out.insert(name.clone(), converted);
                }
                Value::Object(out)
            }
            _ => value.clone(),
        })
    }

    /// A keyword copied under its own name, its subschemas converted.
    fn same(&mut self, key: &str, value: &'s Value, at: &At) -> Result<Value, TargetError> {
        match table::lookup(key) {
            Some(row) => self.by_shape(key, key, row.shape, value, at),
            None => Ok(value.clone()),
        }
    }

    /// A schema object for Draft 7 or Draft 2020-12.
    fn draft(&mut self, map: &'s Map<String, Value>, at: &At) -> Result<Value, TargetError> {
        let from = at.from;
        let to = self.target.draft();
        let reference = map.get("$ref").and_then(Value::as_str);
        // Before 2019-09 a `$ref` hides every keyword beside it: what it hid is left out of a
        // target that would check it, and kept as it is in one that hides it too.
        let hidden = reference.is_some() && from.ref_hides_siblings();
        // From 2019-09 on the keywords beside a `$ref` apply: in Draft 7 the `$ref` goes into an
        // `allOf` so that they still do.
        let wrap_ref = reference.is_some()
            && !from.ref_hides_siblings()
            && to.ref_hides_siblings()
            && map.keys().any(|k| !kept_beside_ref(k) && !k.starts_with("x-"));
        let exclusive = |key: &str| from == Draft::Draft4 && map.get(key) == Some(&Value::Bool(true));
        let mut out = Map::new();
        let mut dependencies = Map::new();
        for (key, value) in map {
            let k = key.as_str();
            if hidden && !kept_beside_ref(k) {
                if to.ref_hides_siblings() {
                    out.insert(key.clone(), value.clone());
                }
                continue;
            }
            if never_applied(k, from) {
                continue;
            }
            match k {
                "$schema" => {
                    out.insert(key.clone(), Value::String(to.meta_schema_uri().to_string()));
                }
                "$ref" if wrap_ref => {}
                "$ref" => {
                    self.refs.push(RefSite { at: at.new.clone(), resource_old: at.resource_old.clone(), resource_new: at.resource_new.clone() });
                    out.insert(key.clone(), value.clone());
                }
                // Draft 4's boolean `exclusiveMaximum` modifies `maximum`; later drafts give the bound itself.
                "maximum" if exclusive("exclusiveMaximum") => {}
                "minimum" if exclusive("exclusiveMinimum") => {}
                "exclusiveMaximum" | "exclusiveMinimum" if from == Draft::Draft4 => {
                    let bound = if k == "exclusiveMaximum" { "maximum" } else { "minimum" };
                    if let (Value::Bool(true), Some(limit)) = (value, map.get(bound)) {
                        out.insert(key.clone(), limit.clone());
                    }
                }
                "id" | "$id" if k == from.id_keyword() => self.identifier(map, key, value, at, to, &mut out)?,
                "$anchor" if to == Draft::Draft7 => {
                    if map.contains_key("$id") {
                        return Err(self.error(k, &at.old, "sits beside \"$id\": Draft 7 names a schema by one \"$id\", so it cannot carry both"));
                    }
                    if let Some(name) = value.as_str() {
                        out.insert("$id".into(), Value::String(format!("#{name}")));
                    }
                }
                "$dynamicRef" | "$dynamicAnchor" | "$recursiveRef" | "$recursiveAnchor" | "unevaluatedItems" | "unevaluatedProperties"
                | "minContains" | "maxContains"
                    if !to.knows(k) =>
                {
                    return Err(self.no_form(k, &format!("{}/{}", at.old, escape_pointer_token(k))));
                }
                k if DROPPABLE.contains(&k) && !to.knows(k) => {}
                // Draft 2020-12's arrays: `prefixItems` and `items` are Draft 7's array `items` and
                // `additionalItems`.
                "prefixItems" if to == Draft::Draft7 => {
                    out.insert("items".into(), self.by_shape(k, "items", Shape::List, value, at)?);
                }
                "items" if to == Draft::Draft7 && from == Draft::Draft202012 && map.contains_key("prefixItems") => {
                    out.insert("additionalItems".into(), self.by_shape(k, "additionalItems", Shape::One, value, at)?);
                }
                "items" if to == Draft::Draft202012 && from < Draft::Draft202012 && value.is_array() => {
                    out.insert("prefixItems".into(), self.by_shape(k, "prefixItems", Shape::List, value, at)?);
                }
                "additionalItems" if to == Draft::Draft202012 => {
                    // Without an array `items`, `additionalItems` checks nothing.
                    if map.get("items").is_some_and(Value::is_array) {
                        out.insert("items".into(), self.by_shape(k, "items", Shape::One, value, at)?);
                    }
                }
                "$defs" if to == Draft::Draft7 => {
                    let converted = self.by_shape(k, "definitions", Shape::Map, value, at)?;
                    self.merge_map(&mut out, "definitions", converted, k, &at.old)?;
                }
                "definitions" if to == Draft::Draft7 => {
                    let converted = self.same(k, value, at)?;
                    self.merge_map(&mut out, "definitions", converted, "$defs", &at.old)?;
                }
                "dependentRequired" | "dependentSchemas" if to == Draft::Draft7 => {
                    let Value::Object(members) = value else { continue };
                    let both = |name: &str| map.get("dependentRequired").and_then(|r| r.get(name)).is_some();
                    for (name, sub) in members {
                        // A schema that shares its property with required names ends up in the `allOf`.
                        let place: &[&str] = if both(name) { &["dependencies", name, "allOf", "0"] } else { &["dependencies", name] };
                        let converted = if k == "dependentRequired" { sub.clone() } else { self.schema(sub, &at.below(&[k, name], place))? };
                        match dependencies.remove(name) {
                            // One property named by both: its schema and its required names, together.
                            Some(earlier) => {
                                let (names, schema) = if k == "dependentRequired" { (converted, earlier) } else { (earlier, converted) };
                                dependencies.insert(name.clone(), json!({"required": names, "allOf": [schema]}));
                            }
                            None => {
                                dependencies.insert(name.clone(), converted);
                            }
                        }
                    }
                }
                "dependencies" if to == Draft::Draft202012 => {
                    let Value::Object(members) = value else { continue };
                    for (name, sub) in members {
                        if sub.is_array() {
                            insert_member(&mut out, "dependentRequired", name, sub.clone());
                        } else {
                            let converted = self.schema(sub, &at.below(&[k, name], &["dependentSchemas", name]))?;
                            insert_member(&mut out, "dependentSchemas", name, converted);
                        }
                    }
                }
                _ => {
                    let converted = self.same(k, value, at)?;
                    out.insert(key.clone(), converted);
                }
            }
        }
        if !dependencies.is_empty() {
            out.insert("dependencies".into(), Value::Object(dependencies));
        }
        if let (true, Some(reference)) = (wrap_ref, reference) {
            let all_of = out.entry("allOf").or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(branches) = all_of {
                self.refs.push(RefSite {
                    at: format!("{}/allOf/{}", at.new, branches.len()),
                    resource_old: at.resource_old.clone(),
                    resource_new: at.resource_new.clone(),
                });
                branches.push(json!({"$ref": reference}));
            }
        }
        Ok(Value::Object(out))
    }

    /// An identifier (`id` in Draft 4, `$id` since): Draft 2020-12 names a place in a resource by
    /// `$anchor`, never by a fragment of `$id`.
    fn identifier(&mut self, map: &Map<String, Value>, key: &str, value: &Value, at: &At, to: Draft, out: &mut Map<String, Value>) -> Result<(), TargetError> {
        let Some(id) = value.as_str() else {
            out.insert(to.id_keyword().into(), value.clone());
            return Ok(());
        };
        if to == Draft::Draft7 {
            out.insert("$id".into(), value.clone());
            return Ok(());
        }
        let (base, fragment) = id.split_once('#').unwrap_or((id, ""));
        if !base.is_empty() {
            out.insert("$id".into(), Value::String(base.to_string()));
        }
        if !fragment.is_empty() {
            if fragment.starts_with('/') || map.contains_key("$anchor") {
                return Err(self.error(key, &at.old, "has a fragment Draft 2020-12 cannot name (an \"$anchor\" is a plain name, one per schema)"));
            }
            out.insert("$anchor".into(), Value::String(fragment.to_string()));
        }
        Ok(())
    }

    /// Adds the members of `more` to the map at `out[key]`; a name both have is an error.
    fn merge_map(&self, out: &mut Map<String, Value>, key: &str, more: Value, keyword: &str, pointer: &str) -> Result<(), TargetError> {
        let Value::Object(more) = more else { return Ok(()) };
        for (name, sub) in more {
            if out.get(key).and_then(|m| m.get(&name)).is_some() {
                return Err(self.error(keyword, pointer, &format!("and \"definitions\" both name {name:?}: one of them must be renamed first")));
            }
            insert_member(out, key, &name, sub);
        }
        Ok(())
    }

    /// A schema object for OpenAPI 3.0's Schema Object.
    fn openapi(&mut self, map: &'s Map<String, Value>, at: &At) -> Result<Value, TargetError> {
        let from = at.from;
        let mut out = Map::new();
        let mut all_of: Vec<Value> = Vec::new();
        let hidden = map.get("$ref").is_some_and(Value::is_string) && from.ref_hides_siblings();
        let mut inlined = None;
        for (key, value) in map {
            let k = key.as_str();
            let at_key = || format!("{}/{}", at.old, escape_pointer_token(k));
            if (hidden && !kept_beside_ref(k)) || never_applied(k, from) {
                continue;
            }
            match k {
                "$ref" => inlined = Some(self.inline(value, at)?),
                // Identifiers, definitions (inlined where referenced), annotations without a place.
                "$schema" | "$id" | "id" | "$anchor" | "$dynamicAnchor" | "$recursiveAnchor" | "$defs" | "definitions" | "contentMediaType"
                | "contentEncoding" => {}
                k if DROPPABLE.contains(&k) => {}
                "type" => match value {
                    Value::String(t) if t == "null" => return Err(self.error(k, &at_key(), "is \"null\" alone: OpenAPI 3.0 has no null type (only \"nullable\" beside another type)")),
                    Value::Array(types) => {
                        let named: Vec<&Value> = types.iter().filter(|t| t.as_str() != Some("null")).collect();
                        let nullable = named.len() < types.len();
                        match named.as_slice() {
                            [] => return Err(self.error(k, &at_key(), "allows only null: OpenAPI 3.0 has no null type")),
                            [one] => {
                                out.insert("type".into(), (*one).clone());
                                if nullable {
                                    out.insert("nullable".into(), Value::Bool(true));
                                }
                            }
                            several => {
                                let branches = several.iter().map(|t| if nullable { json!({"type": t, "nullable": true}) } else { json!({"type": t}) }).collect();
                                all_of.push(json!({"anyOf": Value::Array(branches)}));
                            }
                        }
                    }
                    _ => {
                        out.insert(key.clone(), value.clone());
                    }
                },
                "const" => {
                    if map.contains_key("enum") {
                        all_of.push(json!({"enum": [value]}));
                    } else {
                        out.insert("enum".into(), json!([value]));
                    }
                }
                "maximum" | "minimum" | "exclusiveMaximum" | "exclusiveMinimum" => {
                    let upper = k.ends_with("aximum");
                    if !out.contains_key(if upper { "maximum" } else { "minimum" }) {
                        self.openapi_bound(map, upper, from, &mut out);
                    }
                }
                "examples" => {
                    if let Some(first) = value.as_array().and_then(|e| e.first()) {
                        out.entry("example").or_insert_with(|| first.clone());
                    }
                }
                "required" if value.as_array().is_some_and(Vec::is_empty) => {}
                "items" if value.is_array() => return Err(self.error(k, &at_key(), "is a list (a tuple): OpenAPI 3.0's \"items\" is one schema")),
                "additionalItems" if map.get("items").is_some_and(Value::is_array) => return Err(self.no_form(k, &at_key())),
                "additionalItems" => {}
                "additionalProperties" if value.is_boolean() => {
                    out.insert(key.clone(), value.clone());
                }
                "allOf" => {
                    if let Value::Array(branches) = self.same(k, value, at)? {
                        all_of.splice(0..0, branches);
                    }
                }
                "title" | "description" | "default" | "format" | "pattern" | "multipleOf" | "maxLength" | "minLength" | "maxItems" | "minItems"
                | "uniqueItems" | "maxProperties" | "minProperties" | "required" | "enum" | "readOnly" | "writeOnly" | "deprecated" | "anyOf"
                | "oneOf" | "not" | "properties" | "additionalProperties" | "items" => {
                    let converted = self.same(k, value, at)?;
                    out.insert(key.clone(), converted);
                }
                // OpenAPI's own keywords and extensions.
                "discriminator" | "xml" | "externalDocs" | "example" | "nullable" => {
                    out.insert(key.clone(), value.clone());
                }
                k if k.starts_with("x-") => {
                    out.insert(key.clone(), value.clone());
                }
                k if table::lookup(k).is_some() => return Err(self.no_form(k, &at_key())),
                // Not a keyword: checked nothing, and a Schema Object takes no other members.
                _ => {}
            }
        }
        if let Some(target) = inlined {
            if hidden || out.is_empty() && all_of.is_empty() {
                return Ok(target);
            }
            all_of.push(target);
        }
        if !all_of.is_empty() {
            out.insert("allOf".into(), Value::Array(all_of));
        }
        Ok(Value::Object(out))
    }

    /// `maximum` (`upper`) or `minimum` as OpenAPI 3.0 writes it (Draft 4's boolean
    /// `exclusiveMaximum`): of a bound and an exclusive bound, the one that admits less.
    fn openapi_bound(&self, map: &Map<String, Value>, upper: bool, from: Draft, out: &mut Map<String, Value>) {
        let (bound, exclusive) = if upper { ("maximum", "exclusiveMaximum") } else { ("minimum", "exclusiveMinimum") };
        let inclusive = map.get(bound).filter(|v| v.is_number());
        let strict = match map.get(exclusive) {
            Some(Value::Bool(true)) if from == Draft::Draft4 => {
                if let Some(limit) = inclusive {
                    out.insert(bound.into(), limit.clone());
                    out.insert(exclusive.into(), Value::Bool(true));
                }
                return;
            }
            Some(v) if v.is_number() && from != Draft::Draft4 => Some(v),
            _ => None,
        };
        let tighter = |a: f64, b: f64| if upper { a < b } else { a > b };
        match (inclusive, strict) {
            (Some(i), Some(s)) if tighter(i.as_f64().unwrap_or(0.0), s.as_f64().unwrap_or(0.0)) => {
                out.insert(bound.into(), i.clone());
            }
            (_, Some(s)) => {
                out.insert(bound.into(), s.clone());
                out.insert(exclusive.into(), Value::Bool(true));
            }
            (Some(i), None) => {
                out.insert(bound.into(), i.clone());
            }
            (None, None) => {}
        }
    }

    /// A local `$ref` replaced by its target, converted (OpenAPI 3.0 has no local definitions).
    fn inline(&mut self, reference: &Value, at: &At) -> Result<Value, TargetError> {
        let pointer = format!("{}/$ref", at.old);
        let unresolvable = |c: &Self, why: &str| c.error("$ref", &pointer, why);
        let Some(reference) = reference.as_str() else { return Err(unresolvable(self, "is not a string")) };
        let Some(fragment) = local_fragment(self.root, reference) else {
            return Err(unresolvable(self, "names another document: OpenAPI 3.0 can only be given it inlined, and nothing is fetched"));
        };
        if !(fragment.is_empty() || fragment.starts_with('/')) || fragment.contains('%') {
            return Err(unresolvable(self, "names its target by an anchor or an escaped pointer, which is not inlined"));
        }
        let target_pointer = format!("{}{fragment}", at.resource_old);
        if self.inlining.contains(&target_pointer) || at.old.starts_with(&format!("{target_pointer}/")) || target_pointer == at.old {
            return Err(unresolvable(self, "is recursive: OpenAPI 3.0 has no local definitions, and a recursive schema cannot be inlined"));
        }
        let Some(target) = self.root.pointer(&target_pointer) else { return Err(unresolvable(self, "names nothing in the schema")) };
        self.inlining.push(target_pointer.clone());
        let place = At { old: target_pointer, new: at.new.clone(), depth: at.depth + 1, ..at.clone() };
        let converted = self.schema(target, &place);
        self.inlining.pop();
        converted
    }

    /// Each `$ref` of the output whose fragment points into its own resource, pointed at where
    /// its target was moved.
    fn rewrite_refs(&self, out: &mut Value) {
        for site in &self.refs {
            let Some(Value::String(reference)) = out.pointer_mut(&format!("{}/$ref", site.at)) else { continue };
            let Some(hash) = reference.find('#') else { continue };
            let fragment = reference.get(hash + 1..).unwrap_or("");
            if !fragment.starts_with('/') || fragment.contains('%') {
                continue;
            }
            // `…#/…` with the root's `$id` before the `#` is read in the root resource.
            let (resource_old, resource_new) = match hash {
                0 => (site.resource_old.as_str(), site.resource_new.as_str()),
                _ if local_fragment(self.root, reference).is_some() => ("", ""),
                _ => continue,
            };
            let old = format!("{resource_old}{fragment}");
            let Some(new) = self.moved_to(&old) else { continue };
            let Some(relative) = new.strip_prefix(resource_new) else { continue };
            let head = reference.get(..=hash).unwrap_or("#").to_string();
            *reference = format!("{head}{relative}");
        }
    }

    /// Where the subschema at `old` went: the longest moved prefix, the rest of the pointer kept.
    fn moved_to(&self, old: &str) -> Option<String> {
        let mut prefix = old;
        loop {
            if let Some(new) = self.moved.get(prefix) {
                return Some(format!("{new}{}", old.get(prefix.len()..).unwrap_or("")));
            }
            let cut = prefix.rfind('/')?;
            prefix = prefix.get(..cut)?;
        }
    }
}

/// The fragment of a reference into the document itself: `#…`, or the root's `$id` then `#…`.
fn local_fragment<'r>(root: &Value, reference: &'r str) -> Option<&'r str> {
    let (base, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if base.is_empty() {
        return Some(fragment);
    }
    let id = root.get("$id").or_else(|| root.get("id")).and_then(Value::as_str)?;
    (id.trim_end_matches('#') == base).then_some(fragment)
}

fn insert_member(out: &mut Map<String, Value>, key: &str, name: &str, value: Value) {
    if let Value::Object(members) = out.entry(key).or_insert_with(|| Value::Object(Map::new())) {
        members.insert(name.to_string(), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to07(schema: Value) -> Value {
        to_target(&schema, Draft::Draft202012, Target::Draft07).unwrap()
    }

    #[test]
    fn draft_2020_12_arrays_definitions_and_dependencies_in_draft_07() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"$ref": "#/$defs/n"}], "items": false},
                "list": {"type": "array", "items": {"$ref": "#/$defs/n"}},
                "tuple": {"prefixItems": [{"$ref": "#/properties/pair/prefixItems/0"}]}
            },
            "dependentRequired": {"a": ["b"], "c": ["d"]},
            "dependentSchemas": {"a": {"required": ["e"]}, "f": {"$ref": "#/dependentSchemas/a"}},
            "$defs": {"n": {"type": "number", "$anchor": "num"}}
        });
        assert_eq!(
            to07(schema),
            json!({
                "type": "object",
                "$schema": "http://json-schema.org/draft-07/schema#",
                "definitions": {"n": {"type": "number", "$id": "#num"}},
                "properties": {
                    "pair": {"type": "array", "items": [{"type": "string"}, {"$ref": "#/definitions/n"}], "additionalItems": false},
                    "list": {"type": "array", "items": {"$ref": "#/definitions/n"}},
                    "tuple": {"items": [{"$ref": "#/properties/pair/items/0"}]}
                },
                "dependencies": {"a": {"required": ["b"], "allOf": [{"required": ["e"]}]}, "c": ["d"], "f": {"$ref": "#/dependencies/a/allOf/0"}}
            })
        );
    }

    #[test]
    fn keywords_beside_ref_still_apply_in_draft_07() {
        let out = to07(json!({"$defs": {"a": {"type": "object"}}, "$ref": "#/$defs/a", "required": ["x"], "title": "t"}));
        assert_eq!(out, json!({"definitions": {"a": {"type": "object"}}, "required": ["x"], "title": "t", "allOf": [{"$ref": "#/definitions/a"}]}));
        // Only annotations beside it: the $ref stays where it is.
        assert_eq!(to07(json!({"$ref": "#/$defs/a", "description": "d", "$defs": {"a": {}}})), json!({"$ref": "#/definitions/a", "description": "d", "definitions": {"a": {}}}));
    }

    #[test]
    fn what_draft_07_cannot_say_is_an_error_naming_it() {
        for (schema, keyword, pointer) in [
            (json!({"properties": {"a": {"unevaluatedProperties": false}}}), "unevaluatedProperties", "/properties/a/unevaluatedProperties"),
            (json!({"$dynamicRef": "#meta"}), "$dynamicRef", "/$dynamicRef"),
            (json!({"contains": {}, "minContains": 2}), "minContains", "/minContains"),
        ] {
            let e = to_target(&schema, Draft::Draft202012, Target::Draft07).unwrap_err();
            assert_eq!((e.keyword.as_str(), e.pointer.as_str()), (keyword, pointer));
            assert!(e.message.contains(keyword) && e.message.contains("draft-07"), "{}", e.message);
        }
    }

    #[test]
    fn older_drafts_in_draft_2020_12() {
        let schema = json!({
            "id": "http://example.com/s#", "type": "object",
            "properties": {
                "t": {"items": [{"type": "string"}], "additionalItems": {"$ref": "#/definitions/n"}},
                "u": {"items": {"type": "string"}, "additionalItems": false},
                "m": {"type": "number", "maximum": 5, "exclusiveMaximum": true, "minimum": 1, "exclusiveMinimum": false},
                "r": {"$ref": "#/properties/t/items/0", "minLength": 3, "title": "kept"}
            },
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}},
            "definitions": {"n": {"id": "#n", "type": "number"}}
        });
        assert_eq!(
            to_target(&schema, Draft::Draft4, Target::Draft202012).unwrap(),
            json!({
                "$id": "http://example.com/s", "type": "object",
                "properties": {
                    "t": {"prefixItems": [{"type": "string"}], "items": {"$ref": "#/definitions/n"}},
                    "u": {"items": {"type": "string"}},
                    "m": {"type": "number", "exclusiveMaximum": 5, "minimum": 1},
                    "r": {"$ref": "#/properties/t/prefixItems/0", "title": "kept"}
                },
                "dependentRequired": {"a": ["b"]},
                "dependentSchemas": {"c": {"required": ["d"]}},
                "definitions": {"n": {"$anchor": "n", "type": "number"}}
            })
        );
        // A keyword the source never applied is not applied by the target either.
        assert_eq!(to_target(&json!({"prefixItems": [{"type": "string"}]}), Draft::Draft7, Target::Draft202012).unwrap(), json!({}));
    }

    #[test]
    fn openapi_3_0() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "name": {"type": ["string", "null"], "minLength": 1},
                "kind": {"const": "a"},
                "n": {"type": "number", "exclusiveMinimum": 0, "maximum": 10, "examples": [3]},
                "ref": {"$ref": "#/$defs/tag"},
                "either": {"type": ["string", "integer"]}
            },
            "required": [],
            "additionalProperties": false,
            "$defs": {"tag": {"type": "string", "enum": ["x", "y"]}}
        });
        assert_eq!(
            to_target(&schema, Draft::Draft202012, Target::OpenApi30).unwrap(),
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "nullable": true, "minLength": 1},
                    "kind": {"enum": ["a"]},
                    "n": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 10, "example": 3},
                    "ref": {"type": "string", "enum": ["x", "y"]},
                    "either": {"allOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}]}]}
                },
                "additionalProperties": false
            })
        );
        let recursive = json!({"$defs": {"node": {"properties": {"next": {"$ref": "#/$defs/node"}}}}, "$ref": "#/$defs/node"});
        let e = to_target(&recursive, Draft::Draft202012, Target::OpenApi30).unwrap_err();
        assert_eq!(e.keyword, "$ref");
        assert!(e.message.contains("recursive"), "{}", e.message);
        for (schema, keyword) in [(json!({"prefixItems": [{}]}), "prefixItems"), (json!({"if": {}}), "if"), (json!({"type": "null"}), "type")] {
            assert_eq!(to_target(&schema, Draft::Draft202012, Target::OpenApi30).unwrap_err().keyword, keyword);
        }
    }

    #[test]
    fn refs_inside_an_embedded_resource_are_read_in_it() {
        let schema = json!({"$defs": {"inner": {"$id": "https://example.com/inner", "$defs": {"x": {"type": "string"}}, "$ref": "#/$defs/x"}}});
        // Draft 7 ignores an `$id` beside a `$ref`: the `$ref` goes into an `allOf`, where it is
        // still read against that `$id`.
        assert_eq!(
            to07(schema),
            json!({"definitions": {"inner": {"$id": "https://example.com/inner", "definitions": {"x": {"type": "string"}}, "allOf": [{"$ref": "#/definitions/x"}]}}})
        );
    }

    #[test]
    fn a_document_already_in_the_target_names_its_meta_schema_by_the_target_uri() {
        let schema = json!({"$schema": "https://spec.openapis.org/oas/3.1/dialect/base", "type": "object", "discriminator": {"propertyName": "k"}});
        assert_eq!(
            to_target(&schema, Draft::Draft202012, Target::Draft202012).unwrap(),
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "discriminator": {"propertyName": "k"}})
        );
    }

    #[test]
    fn target_names() {
        assert_eq!(Target::from_name("draft-07"), Some(Target::Draft07));
        assert_eq!(Target::from_name("draft-99"), None);
        assert!(unknown_target_message("draft-99").contains("\"draft-99\""));
    }
}
