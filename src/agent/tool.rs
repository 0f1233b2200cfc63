//! Structured output through a tool call: the model submits its result as the arguments of a
//! `submit_result` tool (whose schema the provider enforces as it generates), defined here in
//! each provider's shape, and the arguments read back and validated.
//!
//! OpenAI's strict function calling accepts a subset of JSON Schema: every property required,
//! `additionalProperties: false` on every object, a short list of keywords and formats, and size
//! limits. The definition sent there is a normalised copy; each change is reported, because the
//! normalised schema is weaker than the original (a dropped `maxLength` is no longer enforced by
//! the provider). Validation always uses the original schema: `validate_tool_call` with
//! `null_as_absent` reads the `null` that strict mode forces for an optional property as "absent".

use crate::schema::contract::Contract;
use crate::check::output;
use crate::report::canonical::OutputValidationError;
use crate::report::violation::Violation;
use crate::validator::{Kw, Validator};
use serde::Serialize;
use serde_json::{json, Map, Value};

pub const DEFAULT_NAME: &str = "submit_result";
/// The tool's description: an order, so that the model ends its turn with the call.
pub const DEFAULT_DESCRIPTION: &str = "Submit final results. You MUST call this tool!";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    OpenAi,
    Anthropic,
    Generic,
}

impl Provider {
    pub fn from_name(name: &str) -> Option<Provider> {
        match name {
            "openai" => Some(Provider::OpenAi),
            "anthropic" => Some(Provider::Anthropic),
            "generic" => Some(Provider::Generic),
            _ => None,
        }
    }
}

/// What normalising for a provider changed, or what the provider will refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// `additionalProperties: false` added (or a looser value replaced).
    ClosedObject,
    /// An optional property made required and nullable.
    MadeNullable,
    /// `oneOf` became `anyOf`: exclusivity is no longer enforced by the provider.
    OneOfToAnyOf,
    /// `allOf` branches merged into their parent.
    MergedAllOf,
    /// A keyword the provider does not support, removed.
    DroppedKeyword,
    /// A `format` the provider does not support, removed.
    DroppedFormat,
    /// The provider will reject the schema (root not an object, a size limit passed, …).
    Rejected,
    /// A JSON Type Definition said in JSON Schema, where it reads differently (the pointer is
    /// into the JTD schema; the other changes' pointers are into its JSON Schema form).
    FromJtd,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// JSON pointer into the original schema.
    pub pointer: String,
    pub kind: ChangeKind,
    pub message: String,
}

/// A tool definition and what was changed to make the provider accept it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinition {
    pub tool: Value,
    pub changes: Vec<Change>,
    /// The options `validate_tool_call` needs for this definition's arguments.
    pub validate_options: ToolCallOptions,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ToolCallOptions {
    /// `null` for an optional property that does not accept `null` means "absent".
    pub null_as_absent: bool,
}

/// OpenAI's documented limits for strict schemas.
const MAX_NESTING: usize = 10;
const MAX_PROPERTIES: usize = 5000;
const MAX_ENUM_VALUES: usize = 1000;
const MAX_TOTAL_STRING: usize = 120_000;
/// Below this the walk stops: a schema this deep is rejected anyway, and recursion stays bounded.
const WALK_LIMIT: usize = 64;

const OPENAI_FORMATS: [&str; 9] = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];
const OPENAI_KEYWORDS: [&str; 24] = [
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs",
    "definitions", "description", "title", "pattern", "format", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "minItems", "maxItems", "$schema", "$id",
];

/// The tool definition for `provider` of a schema in `draft`: a JTD schema is sent as its JSON
/// Schema form, with what that form says differently listed first.
pub fn submit_result_tool_in(schema: &Value, draft: crate::validator::draft::Draft, provider: Provider, name: Option<&str>, description: Option<&str>) -> ToolDefinition {
    if draft != crate::validator::draft::Draft::Jtd {
        return submit_result_tool(schema, provider, name, description);
    }
    let (converted, conversions) = crate::schema::jtd::to_json_schema(schema);
    let mut def = submit_result_tool(&converted, provider, name, description);
    let from_jtd = conversions.into_iter().map(|c| Change { pointer: c.pointer, kind: ChangeKind::FromJtd, message: c.message });
    def.changes.splice(0..0, from_jtd);
    def
}

/// The tool definition for `provider`.
pub fn submit_result_tool(schema: &Value, provider: Provider, name: Option<&str>, description: Option<&str>) -> ToolDefinition {
    let name = name.unwrap_or(DEFAULT_NAME);
    let description = description.unwrap_or(DEFAULT_DESCRIPTION);
    let mut changes = Vec::new();
    if !is_object_schema(schema) {
        changes.push(Change {
            pointer: String::new(),
            kind: ChangeKind::Rejected,
            message: "tool arguments must be an object: the schema's root needs \"type\": \"object\"".into(),
        });
    }
    match provider {
        Provider::OpenAi => {
            let mut n = Normaliser { changes, properties: 0, strings: 0, nullable: false };
            let parameters = n.schema(schema, "", 0);
            if n.properties > MAX_PROPERTIES {
                n.reject("", format!("{} properties, more than OpenAI's limit of {MAX_PROPERTIES}", n.properties));
            }
            if n.strings > MAX_TOTAL_STRING {
                n.reject(
                    "",
                    format!("property names and enum values total {} characters, more than OpenAI's limit of {MAX_TOTAL_STRING}", n.strings),
                );
            }
            let tool = json!({
                "type": "function",
                "function": {"name": name, "description": description, "parameters": parameters, "strict": true},
            });
            ToolDefinition { tool, changes: n.changes, validate_options: ToolCallOptions { null_as_absent: n.nullable } }
        }
        Provider::Anthropic => ToolDefinition {
            tool: json!({"name": name, "description": description, "input_schema": schema}),
            changes,
            validate_options: ToolCallOptions::default(),
        },
        Provider::Generic => ToolDefinition {
            tool: json!({"name": name, "description": description, "parameters": schema}),
            changes,
            validate_options: ToolCallOptions::default(),
        },
    }
}

fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

fn child(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}

struct Normaliser {
    changes: Vec<Change>,
    properties: usize,
    strings: usize,
    nullable: bool,
}

impl Normaliser {
    fn change(&mut self, pointer: &str, kind: ChangeKind, message: String) {
        self.changes.push(Change { pointer: pointer.to_string(), kind, message });
    }

    fn reject(&mut self, pointer: &str, message: String) {
        self.change(pointer, ChangeKind::Rejected, message);
    }

    /// The strict form of `schema` at `pointer`; `depth` counts nested object/array levels.
    fn schema(&mut self, schema: &Value, pointer: &str, depth: usize) -> Value {
        let Some(obj) = schema.as_object() else {
            if schema == &Value::Bool(false) || schema == &Value::Bool(true) {
                self.reject(pointer, "boolean schemas are not supported by OpenAI strict mode".into());
            }
            return schema.clone();
        };
        if depth > MAX_NESTING {
            self.reject(pointer, format!("nested deeper than OpenAI's limit of {MAX_NESTING} levels"));
            if depth > WALK_LIMIT {
                return schema.clone();
            }
        }
        let mut obj = obj.clone();
        if let Some(Value::Array(branches)) = obj.remove("allOf") {
            self.merge_all_of(&mut obj, branches, pointer);
        }
        if let Some(one_of) = obj.remove("oneOf") {
            self.change(
                &child(pointer, "oneOf"),
                ChangeKind::OneOfToAnyOf,
                "oneOf is not supported: sent as anyOf, so a value matching several branches is accepted by the provider".into(),
            );
            obj.insert("anyOf".into(), one_of);
        }
        let mut out = Map::new();
        for (key, value) in obj {
            let at = child(pointer, &key);
            match key.as_str() {
                "properties" => {
                    let props = value.as_object().cloned().unwrap_or_default();
                    let mut strict = Map::new();
                    for (name, sub) in &props {
                        self.properties += 1;
                        self.strings += name.chars().count();
                        strict.insert(name.clone(), self.schema(sub, &child(&at, name), depth + 1));
                    }
                    out.insert(key, Value::Object(strict));
                }
                "items" if value.is_object() => {
                    let items = self.schema(&value, &at, depth + 1);
                    out.insert(key, items);
                }
                "anyOf" => {
                    let branches = value.as_array().cloned().unwrap_or_default();
                    let strict: Vec<Value> =
                        branches.iter().enumerate().map(|(i, b)| self.schema(b, &child(&at, &i.to_string()), depth)).collect();
                    out.insert(key, Value::Array(strict));
                }
                "$defs" | "definitions" => {
                    let defs = value.as_object().cloned().unwrap_or_default();
                    let mut strict = Map::new();
                    for (name, sub) in &defs {
                        strict.insert(name.clone(), self.schema(sub, &child(&at, name), depth));
                    }
                    out.insert(key, Value::Object(strict));
                }
                "enum" => {
                    let values = value.as_array().map_or(0, Vec::len);
                    if values > MAX_ENUM_VALUES {
                        self.reject(&at, format!("{values} enum values, more than OpenAI's limit of {MAX_ENUM_VALUES}"));
                    }
                    self.strings += value.as_array().map_or(0, |a| a.iter().filter_map(Value::as_str).map(|s| s.chars().count()).sum());
                    out.insert(key, value);
                }
                "format" => match value.as_str() {
                    Some(f) if OPENAI_FORMATS.contains(&f) => {
                        out.insert(key, value);
                    }
                    _ => self.change(
                        &at,
                        ChangeKind::DroppedFormat,
                        format!("format {value} is not supported by OpenAI strict mode: removed, checked only by validation"),
                    ),
                },
                "additionalProperties" | "required" => {} // set below, for objects
                k if OPENAI_KEYWORDS.contains(&k) => {
                    out.insert(key, value);
                }
                k => self.change(
                    &at,
                    ChangeKind::DroppedKeyword,
                    format!("{k} is not supported by OpenAI strict mode: removed, checked only by validation"),
                ),
            }
        }
        if out.contains_key("properties") || out.get("type").and_then(Value::as_str) == Some("object") {
            self.close_object(schema, &mut out, pointer);
        }
        Value::Object(out)
    }

    /// Every property required (optional ones nullable) and no other properties allowed.
    fn close_object(&mut self, original: &Value, out: &mut Map<String, Value>, pointer: &str) {
        let extra = original.get("additionalProperties");
        if extra != Some(&Value::Bool(false)) {
            self.change(
                pointer,
                ChangeKind::ClosedObject,
                "additionalProperties: false added: strict mode requires closed objects, so the provider never sends other properties".into(),
            );
        }
        out.insert("additionalProperties".into(), Value::Bool(false));
        let required: Vec<&str> = original
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let names: Vec<String> = out.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
        for name in &names {
            if required.contains(&name.as_str()) {
                continue;
            }
            let at = child(&child(pointer, "properties"), name);
            if let Some(prop) = out.get_mut("properties").and_then(Value::as_object_mut).and_then(|p| p.get_mut(name)) {
                make_nullable(prop);
            }
            self.nullable = true;
            self.change(
                &at,
                ChangeKind::MadeNullable,
                format!("optional property {name:?} made required and nullable: read null as absent (validateToolCall does)"),
            );
        }
        out.insert("required".into(), Value::Array(names.into_iter().map(Value::String).collect()));
    }

    /// `allOf` branches that are plain objects merged into the parent; conflicting keys keep the
    /// parent's and are reported.
    fn merge_all_of(&mut self, obj: &mut Map<String, Value>, branches: Vec<Value>, pointer: &str) {
        let at = child(pointer, "allOf");
        self.change(&at, ChangeKind::MergedAllOf, "allOf is not supported: its branches were merged into one schema".into());
        for (i, branch) in branches.into_iter().enumerate() {
            let Value::Object(branch) = branch else { continue };
            for (key, value) in branch {
                match (key.as_str(), obj.get_mut(&key)) {
                    ("properties", Some(Value::Object(props))) => {
                        if let Value::Object(more) = value {
                            props.extend(more);
                        }
                    }
                    ("required", Some(Value::Array(req))) => {
                        for r in value.as_array().into_iter().flatten() {
                            if !req.contains(r) {
                                req.push(r.clone());
                            }
                        }
                    }
                    (_, Some(existing)) if *existing != value => self.change(
                        &child(&child(&at, &i.to_string()), &key),
                        ChangeKind::DroppedKeyword,
                        format!("{key} conflicts with the value already in the merged schema: removed"),
                    ),
                    (_, Some(_)) => {}
                    (_, None) => {
                        obj.insert(key, value);
                    }
                }
            }
        }
    }
}

/// Adds `null` to what `schema` accepts.
fn make_nullable(schema: &mut Value) {
    if accepts_null(schema) {
        return;
    }
    let Some(obj) = schema.as_object_mut() else { return };
    let simple = !obj.contains_key("anyOf") && !obj.contains_key("$ref") && !obj.contains_key("const");
    match obj.get_mut("type") {
        Some(Value::String(t)) if simple => {
            let t = std::mem::take(t);
            obj.insert("type".into(), json!([t, "null"]));
            if let Some(Value::Array(values)) = obj.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        Some(Value::Array(types)) if simple => {
            types.push(json!("null"));
            if let Some(Value::Array(values)) = obj.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        _ => {
            let inner = std::mem::take(schema);
            *schema = json!({"anyOf": [inner, {"type": "null"}]});
        }
    }
}

/// Whether `schema` plainly accepts `null` (its type, enum, const or an `anyOf`/`oneOf` branch
/// says so), read on the schema being rewritten for the provider. A schema that accepts it only
/// through a `$ref` counts as not accepting it: it is then wrapped with a `null` branch, which
/// changes nothing it accepts.
fn accepts_null(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(o) if o.is_empty() => true,
        Value::Object(o) => {
            let by_type = match o.get("type") {
                Some(Value::String(t)) => t == "null",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
                _ => false,
            };
            let by_enum = o.get("enum").and_then(Value::as_array).is_some_and(|v| v.contains(&Value::Null));
            let by_const = o.get("const") == Some(&Value::Null);
            let by_branch = ["anyOf", "oneOf"]
                .iter()
                .any(|k| o.get(*k).and_then(Value::as_array).is_some_and(|bs| bs.iter().any(accepts_null)));
            by_type || by_enum || by_const || by_branch
        }
        _ => false,
    }
}

/// Removes from `args` the `null` members that strict mode sends for an optional property: a
/// member its object's schema names in `properties` (or JTD's `optionalProperties`) but does not
/// require, whose own schema does not accept `null` — what strict mode's "required and
/// nullable" means. Follows the compiled schema into members and items (`properties`, additional
/// members, `items`, JTD's `values` and `elements`), through references, every branch of
/// `allOf`/`anyOf`/`oneOf` and a discriminator's mapped schema. Returns whether it removed any.
pub fn strip_absent_nulls(contract: &Contract, args: &mut Value) -> bool {
    Nulls { validator: contract.validator(), entered: Vec::new(), start: 0, scope: Vec::new() }.at_value(contract.validator().root(), args, 0)
}

/// The walk of `strip_absent_nulls` over the compiled nodes.
struct Nulls<'v> {
    validator: &'v Validator,
    /// The nodes entered at each value on the way down: those from `start` are the current
    /// value's. A node entered again at the same value has nothing left to remove (a reference
    /// cycle, or a node that several branches share), so it is skipped.
    entered: Vec<usize>,
    start: usize,
    /// The resources entered on the way (the dynamic scope, for `$dynamicRef`s and for judging
    /// `null` as evaluation would).
    scope: Vec<usize>,
}

impl Nulls<'_> {
    /// `node` applied to a member or an item: a new value, with no node entered at it yet.
    fn at_value(&mut self, node: usize, value: &mut Value, depth: usize) -> bool {
        let (start, entered) = (self.start, self.entered.len());
        self.start = entered;
        let removed = self.at_node(node, value, depth);
        self.entered.truncate(entered);
        self.start = start;
        removed
    }

    /// `node` applied to the current value (through a reference or a branch).
    fn at_node(&mut self, node: usize, value: &mut Value, depth: usize) -> bool {
        if depth > crate::validator::MAX_DEPTH || self.entered.get(self.start..).is_some_and(|here| here.contains(&node)) {
            return false;
        }
        self.entered.push(node);
        let scope = self.scope.len();
        self.validator.scope_entered(&mut self.scope, node);
        let validator = self.validator;
        let kws = validator.keywords(node);
        let mut removed = false;
        if let Value::Object(fields) = &mut *value {
            let required = |name: &str| kws.iter().any(|k| matches!(k, Kw::Required(r) | Kw::JtdRequired(r) if r.iter().any(|n| n == name)));
            let declared = |name: &str| {
                kws.iter().find_map(|k| match k {
                    Kw::Properties(list) | Kw::OptionalProperties(list) => list.iter().find(|(n, _)| n == name).map(|(_, sub)| *sub),
                    _ => None,
                })
            };
            let scope = &self.scope;
            let before = fields.len();
            // `retain` keeps the members' order (a removal by key would move the last one).
            fields.retain(|name, v| !(v.is_null() && !required(name) && declared(name).is_some_and(|sub| !validator.node_is_valid_in(sub, &Value::Null, scope))));
            removed = fields.len() < before;
        }
        for kw in kws {
            removed |= match (kw, &mut *value) {
                (Kw::Ref(n) | Kw::JtdRef { node: n, .. }, value) => self.at_node(*n, value, depth + 1),
                (Kw::DynamicRef { .. } | Kw::RecursiveRef(_), value) => match validator.dynamic_target(kw, &self.scope) {
                    Some(n) => self.at_node(n, value, depth + 1),
                    None => false,
                },
                (Kw::AllOf(list) | Kw::AnyOf(list) | Kw::OneOf(list), value) => list.iter().fold(false, |r, n| self.at_node(*n, value, depth + 1) | r),
                (Kw::Properties(list) | Kw::OptionalProperties(list), Value::Object(fields)) => list
                    .iter()
                    .fold(false, |r, (name, n)| fields.get_mut(name).is_some_and(|m| self.at_value(*n, m, depth + 1)) | r),
                (Kw::AdditionalProperties { node: n, names, patterns }, Value::Object(fields)) => fields
                    .iter_mut()
                    .filter(|(name, _)| !names.contains(name) && !patterns.iter().any(|p| validator.name_matches(*p, name)))
                    .fold(false, |r, (_, m)| self.at_value(*n, m, depth + 1) | r),
                (Kw::Values(n), Value::Object(fields)) => fields.values_mut().fold(false, |r, m| self.at_value(*n, m, depth + 1) | r),
                (Kw::Discriminator { tag, mapping }, Value::Object(fields)) => {
                    let chosen = fields.get(tag).and_then(Value::as_str).and_then(|t| mapping.iter().find(|(v, _)| v == t)).map(|(_, n)| *n);
                    chosen.is_some_and(|n| self.at_node(n, value, depth + 1))
                }
                (Kw::Items { prefix, rest, .. }, Value::Array(items)) => items
                    .iter_mut()
                    .enumerate()
                    .fold(false, |r, (i, item)| prefix.get(i).copied().or(*rest).is_some_and(|n| self.at_value(n, item, depth + 1)) | r),
                _ => false,
            };
        }
        self.scope.truncate(scope);
        removed
    }
}

/// Validates tool-call arguments given as a value, as `Contract::validate` does; with
/// `null_as_absent`, after `strip_absent_nulls`. Returns the arguments as validated.
pub fn validate_tool_call(contract: &Contract, args: &Value, options: ToolCallOptions) -> Result<Value, OutputValidationError> {
    checked_args(contract, args, options).map_err(|violations| contract.failure(violations, &args.to_string()))
}

/// Tool-call arguments as the providers send them: JSON text. `raw_output` is that text.
pub fn validate_tool_call_text(contract: &Contract, text: &str, options: ToolCallOptions) -> Result<Value, OutputValidationError> {
    let parsed = output::parse(text, contract.limits()).map_err(|v| contract.failure(vec![v], text))?;
    let checked = checked_args(contract, &parsed.value, options);
    match (checked, parsed.repeated) {
        (Ok(args), repeated) if repeated.is_empty() => Ok(args),
        (checked, mut repeated) => {
            repeated.extend(checked.err().unwrap_or_default());
            crate::report::violation::sort(&mut repeated);
            Err(contract.failure(repeated, text))
        }
    }
}

fn checked_args(contract: &Contract, args: &Value, options: ToolCallOptions) -> Result<Value, Vec<Violation>> {
    let mut args = args.clone();
    if options.null_as_absent {
        strip_absent_nulls(contract, &mut args);
    }
    let violations = contract.violations(&args);
    if violations.is_empty() { Ok(args) } else { Err(violations) }
}
