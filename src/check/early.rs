//! In-flight checks: while an output streams in, report each violation at the byte where it
//! becomes certain — one that no continuation of the stream could repair.
//!
//! Soundness is the invariant: for a document that is valid when complete, no prefix reports.
//! So only constraints that surely apply at a location are checked: those reached through
//! `properties`, `patternProperties`, `additionalProperties`, `items`/`prefixItems`, `allOf` and
//! `$ref`. `anyOf`/`oneOf` are disjunctions: a violation is reported only once no branch remains
//! viable. Anything conditional (`not`, `if`/`then`/`else`, `dependentSchemas`, dynamic
//! references, `unevaluated*` of a parent) is left to the final validation, which is sound by
//! doing nothing early.

use crate::validator::draft::Draft;
use crate::json::partial::{Event, Kind, Observer, Position};
use crate::json::path::{InstancePath, Segment};
use crate::report::render::{quote, repr};
use crate::report::violation::{self, Branch, Violation};
use crate::validator::{self as engine, Part, Validator};
use crate::validator::ecma::Pattern;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

type NodeId = usize;

/// How deep `allOf`/`anyOf`/`$ref` are expanded at one location; a deeper (or cyclic) chain is
/// treated as satisfiable, which is sound.
const MAX_EXPANSION: usize = 24;

#[derive(Default)]
struct Node {
    /// JSON Pointer of the subschema in the root document (`None` inside resources).
    pointer: Option<String>,
    /// The subschema in the contract's validator, to check a closed subtree against it.
    part: Option<Part>,
    always_false: bool,
    /// Every keyword here is decided when the value begins (`type` without `integer`) or has no
    /// say on validity: its closed value needs no validation (half the leaves of a typical
    /// output, whose validation was a quarter of a stream's cost).
    decided_at_begin: bool,
    /// Beside what `decided_at_begin` allows, only `properties`, `items` (one schema), `required`
    /// and `additionalProperties: false` (told at each key).
    structural: bool,
    /// `structural`, with a part, and every child's own check complete (see `EarlySchema::new`):
    /// a closed value is then valid here when its required names are there. Validating each
    /// closed container in full again was most of a long stream's in-flight cost.
    shallow: bool,
    required: Vec<String>,
    types: Option<Vec<&'static str>>,
    /// `enum` values, or the `const` value (keyword says which).
    choices: Option<(&'static str, Vec<Value>)>,
    max_length: Option<u64>,
    max_items: Option<u64>,
    max_properties: Option<u64>,
    properties: Vec<(String, NodeId)>,
    /// `None` regex: the pattern could not be compiled here, so it may match anything.
    patterns: Vec<(Option<Pattern>, NodeId)>,
    additional: Option<NodeId>,
    prefix: Vec<NodeId>,
    rest: Option<NodeId>,
    all: Vec<NodeId>,
    any: Vec<(&'static str, Vec<NodeId>)>,
}

/// The schema compiled for in-flight checks (built once per contract, on first stream).
pub struct EarlySchema {
    nodes: Vec<Node>,
    root: NodeId,
    /// The whole schema, compiled with a part for each node that has a pointer.
    validator: Option<Validator>,
}

impl EarlySchema {
    /// `options`: how to compile validators of the closed subtrees (`None`: no such checks).
    pub fn new(schema: &Value, draft: Draft, resources: &BTreeMap<String, Value>, options: Option<&engine::Options<'_>>) -> Self {
        let mut b = Builder { nodes: Vec::new(), memo: BTreeMap::new(), draft, root: schema, resources, depth: 0 };
        let root = b.node(schema, Some(String::new()), None);
        let mut nodes = b.nodes;
        let pointers: Vec<&str> = nodes.iter().filter_map(|n| n.pointer.as_deref()).collect();
        let compiled = options.and_then(|o| Validator::with_parts(schema, o, &pointers).ok());
        let validator = compiled.map(|(validator, parts)| {
            let mut parts = parts.into_iter();
            for node in nodes.iter_mut().filter(|n| n.pointer.is_some()) {
                node.part = parts.next().flatten();
            }
            validator
        });
        // A child's check is complete when it validates the child's whole subtree (a part) or
        // needs none (decided when it begins); a shallow child's is complete by induction.
        let complete: Vec<bool> = nodes.iter().map(|n| n.part.is_some() || n.decided_at_begin).collect();
        for node in &mut nodes {
            let mut children = node.properties.iter().map(|(_, id)| *id).chain(node.rest).chain(node.additional);
            node.shallow = node.structural && node.part.is_some() && children.all(|id| complete.get(id).copied().unwrap_or(false));
        }
        EarlySchema { nodes, root, validator }
    }

    fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id)
    }
}

struct Builder<'s> {
    nodes: Vec<Node>,
    /// (document URI or "" for the root, pointer) → node, so `$ref` cycles close.
    memo: BTreeMap<(String, String), NodeId>,
    draft: Draft,
    root: &'s Value,
    resources: &'s BTreeMap<String, Value>,
    /// Subschemas being built, one inside the other.
    depth: usize,
}

/// How many subschemas may be built one inside the other (a chain of `$ref`s can be as long as
/// the schema); deeper ones constrain nothing here, which is sound for in-flight checks.
const MAX_BUILD_DEPTH: usize = 300;

impl Builder<'_> {
    /// `doc` is `None` for the root document, else the resource URI.
    fn node(&mut self, schema: &Value, pointer: Option<String>, doc: Option<&str>) -> NodeId {
        let key = (doc.unwrap_or("").to_string(), pointer.clone().unwrap_or_default());
        if let Some(id) = self.memo.get(&key) {
            return *id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        self.memo.insert(key, id);
        let root_pointer = if doc.is_none() { pointer.clone() } else { None };
        let mut node = Node { pointer: root_pointer, ..Node::default() };
        let Value::Object(map) = schema else {
            node.always_false = schema == &Value::Bool(false);
            if let Some(slot) = self.nodes.get_mut(id) {
                *slot = node;
            }
            return id;
        };
        let p = pointer.unwrap_or_default();
        let child = |k: &str| format!("{p}/{}", crate::json::path::escape_pointer_token(k));
        if let Some(Value::String(r)) = map.get("$ref") {
            if let Some(target) = self.resolve_ref(r, doc) {
                node.all.push(target);
            }
            if self.draft <= Draft::Draft7 {
                // Before 2019-09, keywords beside `$ref` are ignored.
                if let Some(slot) = self.nodes.get_mut(id) {
                    *slot = node;
                }
                return id;
            }
        }
        node.types = match map.get("type") {
            Some(Value::String(t)) => Some(vec![type_name(t)]),
            Some(Value::Array(ts)) => Some(ts.iter().filter_map(Value::as_str).map(type_name).collect()),
            _ => None,
        };
        const ANNOTATIONS: [&str; 8] = ["title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"];
        // Only names of the seven types, none of them `integer` (1.0 or 1.5 is told at the end).
        let decided_type = |v: &Value| node.types.as_ref().is_some_and(|t| t.len() == v.as_array().map_or(1, Vec::len) && !t.contains(&"integer") && !t.contains(&"unknown"));
        node.decided_at_begin = map.iter().all(|(k, v)| match k.as_str() {
            "type" => decided_type(v),
            k => ANNOTATIONS.contains(&k),
        });
        node.structural = map.iter().all(|(k, v)| match k.as_str() {
            "type" => decided_type(v),
            "properties" => v.is_object(),
            "items" => v.is_object() || v.is_boolean(),
            "required" => v.as_array().is_some_and(|names| names.iter().all(Value::is_string)),
            "additionalProperties" => v == &Value::Bool(false),
            "$defs" | "definitions" => true,
            k => ANNOTATIONS.contains(&k),
        });
        node.required = map.get("required").and_then(Value::as_array).map(|names| names.iter().filter_map(Value::as_str).map(str::to_string).collect()).unwrap_or_default();
        if let Some(Value::Array(values)) = map.get("enum") {
            node.choices = Some(("enum", values.clone()));
        }
        if let Some(c) = map.get("const") {
            if self.draft >= Draft::Draft6 {
                node.choices = Some(("const", vec![c.clone()]));
            }
        }
        node.max_length = map.get("maxLength").and_then(Value::as_u64);
        node.max_items = map.get("maxItems").and_then(Value::as_u64);
        node.max_properties = map.get("maxProperties").and_then(Value::as_u64);
        if let Some(Value::Object(props)) = map.get("properties") {
            for (k, sub) in props {
                let ptr = child("properties") + "/" + &crate::json::path::escape_pointer_token(k);
                let n = self.node(sub, Some(ptr), doc);
                node.properties.push((k.clone(), n));
            }
        }
        if let Some(Value::Object(pats)) = map.get("patternProperties") {
            for (pat, sub) in pats {
                let ptr = child("patternProperties") + "/" + &crate::json::path::escape_pointer_token(pat);
                let n = self.node(sub, Some(ptr), doc);
                // The validator's own reading of the pattern (ECMA-262), so both agree on names.
                node.patterns.push((Pattern::new(pat).ok(), n));
            }
        }
        if let Some(sub) = map.get("additionalProperties") {
            node.additional = Some(self.node(sub, Some(child("additionalProperties")), doc));
        }
        match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(list)), items) if self.draft >= Draft::Draft202012 => {
                for (i, sub) in list.iter().enumerate() {
                    node.prefix.push(self.node(sub, Some(format!("{}/{i}", child("prefixItems"))), doc));
                }
                if let Some(sub) = items {
                    node.rest = Some(self.node(sub, Some(child("items")), doc));
                }
            }
            (_, Some(Value::Array(list))) if self.draft < Draft::Draft202012 => {
                for (i, sub) in list.iter().enumerate() {
                    node.prefix.push(self.node(sub, Some(format!("{}/{i}", child("items"))), doc));
                }
                if let Some(sub) = map.get("additionalItems") {
                    node.rest = Some(self.node(sub, Some(child("additionalItems")), doc));
                }
            }
            (_, Some(sub)) if !sub.is_array() => {
                node.rest = Some(self.node(sub, Some(child("items")), doc));
            }
            _ => {}
        }
        if let Some(Value::Array(list)) = map.get("allOf") {
            for (i, sub) in list.iter().enumerate() {
                node.all.push(self.node(sub, Some(format!("{}/{i}", child("allOf"))), doc));
            }
        }
        for kw in ["anyOf", "oneOf"] {
            if let Some(Value::Array(list)) = map.get(kw) {
                let branches = list
                    .iter()
                    .enumerate()
                    .map(|(i, sub)| self.node(sub, Some(format!("{}/{i}", child(kw))), doc))
                    .collect();
                node.any.push((if kw == "anyOf" { "anyOf" } else { "oneOf" }, branches));
            }
        }
        if let Some(slot) = self.nodes.get_mut(id) {
            *slot = node;
        }
        id
    }

    /// Local pointers (`#/…`) of the current document and whole resource documents; anything
    /// else (anchors, `$id`-relative URIs) is left unresolved, which only means fewer early checks.
    fn resolve_ref(&mut self, r: &str, doc: Option<&str>) -> Option<NodeId> {
        let (base, fragment) = r.split_once('#').unwrap_or((r, ""));
        if !fragment.is_empty() && !fragment.starts_with('/') {
            return None;
        }
        let (document, uri): (&Value, Option<String>) = if base.is_empty() {
            match doc {
                None => (self.root, None),
                Some(u) => (self.resources.get(u)?, Some(u.to_string())),
            }
        } else {
            let (k, v) = self.resources.iter().find(|(k, _)| k.trim_end_matches('#') == base)?;
            (v, Some(k.clone()))
        };
        let target = document.pointer(&percent_decode(fragment))?;
        if self.depth >= MAX_BUILD_DEPTH {
            return None;
        }
        self.depth += 1;
        let id = self.node(target, Some(fragment.to_string()), uri.as_deref());
        self.depth -= 1;
        Some(id)
    }
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            if let Some(h) = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(h);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn type_name(t: &str) -> &'static str {
    match t {
        "object" => "object",
        "array" => "array",
        "string" => "string",
        "number" => "number",
        "integer" => "integer",
        "boolean" => "boolean",
        "null" => "null",
        _ => "unknown",
    }
}

/// The constraints that apply at one location: a conjunction of nodes and of disjunctions.
#[derive(Clone)]
enum Expr {
    Leaf(NodeId),
    All(Vec<Expr>),
    Any(&'static str, Vec<Expr>),
}

/// Per open location: its constraints and what has been seen of its value.
struct Frame {
    expr: Expr,
    /// Some constraint here looks at string contents (`enum`, `const`, `maxLength`).
    needs_text: bool,
    /// The distinct keys so far, kept only where `maxProperties` needs their number.
    keys: Option<HashSet<String>>,
    text: Vec<u8>,
    chars: u64,
    reported: bool,
}

/// Watches the parser's events and collects certain violations.
pub struct Checker {
    schema: Arc<EarlySchema>,
    frames: Vec<Frame>,
    found: Vec<Violation>,
    seen: HashSet<(String, String, String)>,
    /// Byte offset at which each found violation became certain.
    offsets: Vec<usize>,
    /// Strict tool calls send `null` for an optional property, read as absent when validated.
    nulls_absent: bool,
}

enum Check<'a> {
    Begin(Kind),
    Text(&'a [u8], u64),
    Key(&'a str, usize),
    Item(usize),
    End(&'a Value),
}

impl Checker {
    pub fn new(schema: Arc<EarlySchema>) -> Self {
        Checker { schema, frames: Vec::new(), found: Vec::new(), seen: HashSet::new(), offsets: Vec::new(), nulls_absent: false }
    }

    /// Reports only what removing the `null` of optional properties cannot repair: a violation
    /// about a non-null value itself (its type, its text, its number), or an unknown key.
    pub fn with_nulls_as_absent(mut self) -> Self {
        self.nulls_absent = true;
        self
    }

    fn survives_null_removal(v: &Violation) -> bool {
        const OWN_VALUE: [&str; 11] = [
            "type", "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "multipleOf", "additionalProperties",
        ];
        let scalar = !(v.received.is_null() || v.received.is_array() || v.received.is_object());
        !v.received.is_null() && (OWN_VALUE.contains(&v.keyword.as_str()) || scalar && matches!(v.keyword.as_str(), "enum" | "const"))
    }

    pub fn violations(&self) -> &[Violation] {
        &self.found
    }

    /// The byte offsets where the violations became certain (same order).
    #[cfg(test)]
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    #[cfg(test)]
    pub fn into_violations(self) -> Vec<Violation> {
        self.found
    }

    /// A closed value under one shallow node (see `Node::shallow`) whose required names are
    /// there: its children were checked as they closed, so it needs no validation.
    fn valid_by_its_children(&self, expr: &Expr, value: &Value) -> bool {
        let Expr::Leaf(id) = expr else { return false };
        self.schema.get(*id).is_some_and(|n| n.shallow && value.as_object().is_none_or(|map| n.required.iter().all(|k| map.contains_key(k))))
    }

    /// Whether any node in `expr` constrains string contents.
    fn looks_at_text(&self, expr: &Expr) -> bool {
        self.any_node(expr, &|n| n.choices.is_some() || n.max_length.is_some())
    }

    fn any_node(&self, expr: &Expr, test: &dyn Fn(&Node) -> bool) -> bool {
        match expr {
            Expr::Leaf(id) => self.schema.get(*id).is_some_and(test),
            Expr::All(xs) | Expr::Any(_, xs) => xs.iter().any(|x| self.any_node(x, test)),
        }
    }

    fn expand(&self, id: NodeId, depth: usize) -> Expr {
        let Some(node) = self.schema.get(id) else { return Expr::All(Vec::new()) };
        if depth > MAX_EXPANSION {
            return Expr::All(Vec::new());
        }
        // A node without applicators is its own leaf: no vector to build and drop per value,
        // which was most of a stream's cost.
        if node.all.is_empty() && node.any.is_empty() {
            return Expr::Leaf(id);
        }
        let mut parts = vec![Expr::Leaf(id)];
        parts.extend(node.all.iter().map(|n| self.expand(*n, depth + 1)));
        for (kw, branches) in &node.any {
            parts.push(Expr::Any(kw, branches.iter().map(|n| self.expand(*n, depth + 1)).collect()));
        }
        Expr::All(parts)
    }

    /// The constraints at `parent`'s child `segment`.
    fn child(&self, expr: &Expr, segment: &Segment) -> Expr {
        match expr {
            Expr::All(xs) if xs.len() == 1 => xs.first().map_or(Expr::All(Vec::new()), |x| self.child(x, segment)),
            Expr::All(xs) => Expr::All(xs.iter().map(|x| self.child(x, segment)).collect()),
            Expr::Any(kw, xs) => Expr::Any(kw, xs.iter().map(|x| self.child(x, segment)).collect()),
            Expr::Leaf(id) => {
                let Some(node) = self.schema.get(*id) else { return Expr::All(Vec::new()) };
                let mut ids = Vec::new();
                match segment {
                    Segment::Key(k) => {
                        let mut matched = false;
                        for (name, n) in &node.properties {
                            if name == k {
                                ids.push(*n);
                                matched = true;
                            }
                        }
                        for (re, n) in &node.patterns {
                            match re {
                                // A name the pattern could not decide may match.
                                Some(re) if re.is_match(k).unwrap_or(true) => {
                                    ids.push(*n);
                                    matched = true;
                                }
                                Some(_) => {}
                                // Unknown pattern: it may match, so `additionalProperties` may not apply.
                                None => matched = true,
                            }
                        }
                        if !matched {
                            // `additionalProperties: false` was reported at the key already.
                            ids.extend(node.additional.filter(|a| self.schema.get(*a).is_none_or(|n| !n.always_false)));
                        }
                    }
                    Segment::Index(i) => match node.prefix.get(*i) {
                        Some(n) => ids.push(*n),
                        None => ids.extend(node.rest),
                    },
                }
                match ids.as_slice() {
                    [one] => self.expand(*one, 0),
                    _ => Expr::All(ids.into_iter().map(|n| self.expand(n, 0)).collect()),
                }
            }
        }
    }

    /// Evaluates `expr` for a check; `Err` with the violations when it can no longer hold.
    fn eval(&self, expr: &Expr, check: &Check<'_>, path: &InstancePath) -> Result<(), Vec<Violation>> {
        match expr {
            Expr::Leaf(id) => self.leaf(*id, check, path),
            Expr::All(xs) => {
                let mut all = Vec::new();
                for x in xs {
                    if let Err(v) = self.eval(x, check, path) {
                        all.extend(v);
                    }
                }
                if all.is_empty() { Ok(()) } else { Err(all) }
            }
            Expr::Any(kw, xs) => {
                let mut best: Option<(usize, Vec<Violation>)> = None;
                for (i, x) in xs.iter().enumerate() {
                    match self.eval(x, check, path) {
                        Ok(()) => return Ok(()),
                        Err(v) => {
                            if best.as_ref().is_none_or(|(_, b)| v.len() < b.len()) {
                                best = Some((i, v));
                            }
                        }
                    }
                }
                let Some((index, mut violations)) = best else { return Ok(()) };
                for v in &mut violations {
                    if v.branch.is_none() {
                        v.branch = Some(Branch { keyword: kw.to_string(), index, count: xs.len() });
                    }
                }
                Err(violations)
            }
        }
    }

    fn leaf(&self, id: NodeId, check: &Check<'_>, path: &InstancePath) -> Result<(), Vec<Violation>> {
        let Some(node) = self.schema.get(id) else { return Ok(()) };
        let at = |keyword: &str, expected: Value, received: Value, message: String| {
            let mut v = Violation::of_output(keyword, expected, received, message);
            v.path = path.to_jsonpath();
            v.pointer = path.to_pointer();
            v.schema_path = node.pointer.as_ref().map(|p| format!("{p}/{keyword}")).unwrap_or_default();
            v
        };
        let mut out = Vec::new();
        match check {
            Check::Begin(kind) => {
                if node.always_false {
                    out.push(at("false", json!(false), kind_received(*kind), format!("False schema does not allow a {} here", kind_name(*kind))));
                }
                if let Some(types) = &node.types {
                    if !types.iter().any(|t| kind_allows(*kind, t)) {
                        let quoted: Vec<String> = types.iter().map(|t| quote(t)).collect();
                        let expected = match types.as_slice() {
                            [one] => json!(one),
                            many => json!(many),
                        };
                        out.push(at("type", expected, kind_received(*kind), format!("{} is not of type {}", article(*kind), quoted.join(", "))));
                    }
                }
                if let Some((kw, values)) = &node.choices {
                    if !values.iter().any(|v| value_kind_matches(v, *kind)) {
                        out.push(at(kw, Value::Array(values.clone()), kind_received(*kind), choice_message(kw, values, &article(*kind))));
                    }
                }
            }
            Check::Text(prefix, chars) => {
                if let Some(max) = node.max_length {
                    if *chars > max {
                        let shown = String::from_utf8_lossy(prefix);
                        out.push(at("maxLength", json!(max), json!(crate::report::render::truncate_text(&shown, 256)), format!("{} is longer than {max} character{}", repr(&json!(shown)), if max == 1 { "" } else { "s" })));
                    }
                }
                if let Some((kw, values)) = &node.choices {
                    let possible = values.iter().any(|v| v.as_str().is_some_and(|s| s.as_bytes().starts_with(prefix)));
                    if !possible {
                        let shown = String::from_utf8_lossy(prefix);
                        out.push(at(kw, Value::Array(values.clone()), json!(shown), choice_message(kw, values, &format!("a string starting with {}", quote(&shown)))));
                    }
                }
            }
            Check::Key(key, distinct) => {
                if let Some(max) = node.max_properties {
                    if *distinct as u64 > max {
                        out.push(at("maxProperties", json!(max), json!(distinct), format!("object has more than {max} propert{}", if max == 1 { "y" } else { "ies" })));
                    }
                }
                let closed = node.additional.and_then(|a| self.schema.get(a)).is_some_and(|a| a.always_false);
                if closed {
                    let known = node.properties.iter().any(|(n, _)| n == key)
                        || node.patterns.iter().any(|(re, _)| re.as_ref().is_none_or(|re| re.is_match(key).unwrap_or(true)));
                    if !known {
                        let mut v = at("additionalProperties", json!("no additional properties"), json!(key), format!("Additional properties are not allowed ({} was unexpected)", quote(key)));
                        v.schema_path = node.pointer.as_ref().map(|p| format!("{p}/additionalProperties")).unwrap_or_default();
                        out.push(v);
                    }
                }
            }
            Check::Item(index) => {
                if let Some(max) = node.max_items {
                    if *index as u64 >= max {
                        out.push(at("maxItems", json!(max), json!(index + 1), format!("array has more than {max} item{}", if max == 1 { "" } else { "s" })));
                    }
                }
            }
            Check::End(_) if node.decided_at_begin => {}
            Check::End(value) => {
                if let (Some(validator), Some(ptr), Some(part)) = (&self.schema.validator, &node.pointer, node.part) {
                    if !validator.part_is_valid(part, value) {
                        for mut v in violation::from_errors(validator.part_errors(part, value), value, 256) {
                            relocate(&mut v, path, ptr);
                            out.push(v);
                        }
                    }
                }
            }
        }
        if out.is_empty() { Ok(()) } else { Err(out) }
    }

    fn report(&mut self, result: Result<(), Vec<Violation>>, at: Position) {
        if let Err(violations) = result {
            for v in violations {
                if self.nulls_absent && !Self::survives_null_removal(&v) {
                    continue;
                }
                // The same failure found early and again when its subtree closes counts once.
                let which = if matches!(v.keyword.as_str(), "additionalProperties" | "unevaluatedProperties") { v.received.to_string() } else { String::new() };
                let key = (format!("{}|{}", v.pointer, v.schema_path), v.keyword.clone(), format!("{}|{which}", v.expected));
                if self.seen.insert(key) {
                    self.found.push(v);
                    // The index of the byte that made it certain.
                    self.offsets.push(at.offset.saturating_sub(1));
                }
            }
        }
    }
}

/// A violation found by validating a subtree, moved to where the subtree is.
fn relocate(v: &mut Violation, base: &InstancePath, schema_base: &str) {
    v.path = join_jsonpath(&base.to_jsonpath(), &v.path);
    v.pointer = format!("{}{}", base.to_pointer(), v.pointer);
    v.schema_path = format!("{schema_base}{}", v.schema_path);
}

/// `$.a` + `$.b[0]` → `$.a.b[0]`.
fn join_jsonpath(base: &str, rel: &str) -> String {
    format!("{base}{}", rel.strip_prefix('$').unwrap_or(rel))
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Object => "object",
        Kind::Array => "array",
        Kind::String => "string",
        Kind::Number => "number",
        Kind::Bool => "boolean",
        Kind::Null => "null",
    }
}

/// `received` when only the kind of a value is known yet: its name, except for `null`, which is
/// already the whole value.
fn kind_received(kind: Kind) -> Value {
    match kind {
        Kind::Null => Value::Null,
        other => json!(kind_name(other)),
    }
}

fn article(kind: Kind) -> String {
    match kind {
        Kind::Object => "an object".into(),
        Kind::Array => "an array".into(),
        Kind::String => "a string".into(),
        Kind::Number => "a number".into(),
        Kind::Bool => "a boolean".into(),
        Kind::Null => "null".into(),
    }
}

fn kind_allows(kind: Kind, t: &str) -> bool {
    matches!(
        (kind, t),
        (Kind::Object, "object")
            | (Kind::Array, "array")
            | (Kind::String, "string")
            | (Kind::Number, "number" | "integer")
            | (Kind::Bool, "boolean")
            | (Kind::Null, "null")
            | (_, "unknown")
    )
}

fn value_kind_matches(v: &Value, kind: Kind) -> bool {
    matches!(
        (v, kind),
        (Value::Object(_), Kind::Object)
            | (Value::Array(_), Kind::Array)
            | (Value::String(_), Kind::String)
            | (Value::Number(_), Kind::Number)
            | (Value::Bool(_), Kind::Bool)
            | (Value::Null, Kind::Null)
    )
}

fn choice_message(kw: &str, values: &[Value], what: &str) -> String {
    if kw == "const" {
        format!("{} was expected, not {what}", values.first().map(repr).unwrap_or_default())
    } else {
        format!("{what} is not one of {}", repr(&Value::Array(values.to_vec())))
    }
}

impl Observer for Checker {
    fn event(&mut self, event: Event<'_>, path: &InstancePath, at: Position) {
        match event {
            Event::Begin(kind) => {
                let expr = match (self.frames.last(), path.segments().last()) {
                    (None, _) => self.expand(self.schema.root, 0),
                    (Some(parent), Some(seg)) => self.child(&parent.expr, seg),
                    (Some(_), None) => Expr::All(Vec::new()),
                };
                if let (Some(parent), Some(Segment::Index(i))) = (self.frames.last(), path.segments().last()) {
                    let mut parent_path = path.clone();
                    parent_path.pop();
                    let r = self.eval(&parent.expr, &Check::Item(*i), &parent_path);
                    self.report(r, at);
                }
                let r = self.eval(&expr, &Check::Begin(kind), path);
                let reported = r.is_err();
                self.report(r, at);
                let needs_text = kind == Kind::String && self.looks_at_text(&expr);
                let keys = (kind == Kind::Object && self.any_node(&expr, &|n| n.max_properties.is_some())).then(HashSet::new);
                self.frames.push(Frame { expr, needs_text, keys, text: Vec::new(), chars: 0, reported });
            }
            Event::Key(key) => {
                let r = match self.frames.last_mut() {
                    Some(frame) => {
                        let distinct = frame.keys.as_mut().map_or(0, |keys| {
                            keys.insert(key.to_string());
                            keys.len()
                        });
                        self.frames.last().map(|f| self.eval(&f.expr, &Check::Key(key, distinct), path))
                    }
                    None => None,
                };
                if let Some(r) = r {
                    self.report(r, at);
                }
            }
            Event::StringBytes(bytes) => {
                let Some(frame) = self.frames.last_mut() else { return };
                if !frame.needs_text || frame.reported {
                    return;
                }
                frame.chars += bytes.iter().filter(|b| (**b & 0xC0) != 0x80).count() as u64;
                frame.text.extend_from_slice(bytes);
                let r = self.frames.last().map(|f| self.eval(&f.expr, &Check::Text(&f.text, f.chars), path));
                if let Some(r) = r {
                    let failed = r.is_err();
                    self.report(r, at);
                    if let Some(frame) = self.frames.last_mut() {
                        frame.reported = failed;
                    }
                }
            }
            Event::End(value) => {
                if let Some(frame) = self.frames.pop() {
                    // The root's complete value is validated in full at the end of the stream.
                    if !self.frames.is_empty() && !frame.reported && !self.valid_by_its_children(&frame.expr, value) {
                        let r = self.eval(&frame.expr, &Check::End(value), path);
                        self.report(r, at);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
