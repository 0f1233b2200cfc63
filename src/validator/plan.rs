//! The plan: a compact JSON description of the compiled nodes, for verdict tiers outside the
//! module (the JavaScript tier in pkg/src/tier/ turns it into closures). It is a transcription
//! of the nodes the validator evaluates, never a second reading of the schema, so both judge by
//! the same meaning.
//!
//! Format (version 1): `{"v":1,"root":R,"dynamic":B,"patterns":[source…],"linear":[0|1…],
//! "nodes":[node…]}`. `linear[i]` is 1 when pattern `i` may run on JavaScript's own
//! `RegExp(source, "u")` with the same verdict and in time linear in the text (ecma/gate.rs);
//! 0: only the module's engine judges it.
//! `nodes` is indexed as the validator's nodes are (so a tier can name a node back to the
//! module); a node not reachable from the root is `0`, a reachable one is an array of keywords,
//! each an array whose first element is its opcode:
//!
//! | opcode | keyword | arguments |
//! |---|---|---|
//! | `F` | false schema | |
//! | `D` | the node must be judged by the module (see below) | |
//! | `R` | `$ref` | node |
//! | `T` | `type` | mask (null 1, boolean 2, integer 4, number 8, string 16, array 32, object 64) |
//! | `E` / `C` | `enum` / `const` | the values / the value |
//! | `g` `l` `G` `L` | minimum, maximum, exclusiveMinimum, exclusiveMaximum | limit |
//! | `M` / `m` | multipleOf, an integer / any other number | divisor |
//! | `s` `S` | minLength, maxLength (code points) | limit |
//! | `~` | pattern | index into `patterns` |
//! | `%` | format | name; a custom format's pattern index, or null for a custom function |
//! | `$` | contentEncoding / contentMediaType | name |
//! | `i` `I` | minItems, maxItems | limit |
//! | `U` | uniqueItems | |
//! | `A` | prefixItems/items | [nodes], rest node or null |
//! | `c` | contains | node, min, max or null |
//! | `q` | required | [names] |
//! | `o` `O` | minProperties, maxProperties | limit |
//! | `P` | properties, JTD optionalProperties | [[name, node]…] sorted by name |
//! | `pp` | patternProperties | [[pattern index, node]…] |
//! | `X` | additionalProperties | node, [names] (sorted), [pattern indexes] |
//! | `K` | propertyNames | node |
//! | `d` | dependentRequired | [[name, [names]]…] |
//! | `e` | dependentSchemas | [[name, node]…] |
//! | `&` `\|` `1` | allOf, anyOf, oneOf | [nodes] |
//! | `!` | not | node |
//! | `?` | if/then/else | cond, then or null, else or null |
//! | `u` `w` | unevaluatedItems, unevaluatedProperties | node |
//! | `j` | JTD ref | node, nullable |
//! | `t` | JTD integer type | min, max, nullable |
//! | `ts` | JTD timestamp | nullable |
//! | `f` | JTD form's type | mask |
//! | `r` | JTD required | [names] |
//! | `x` | JTD additional members refused | [allowed names] (sorted) |
//! | `V` | JTD values | node |
//! | `=` | JTD discriminator | tag, [[tag value, node]…] sorted |
//!
//! `D` marks what no tier can judge from the node's keywords alone: a node that gathers
//! annotations (`unevaluated*`, which needs what its applicators evaluated), and a number a
//! JavaScript double cannot hold exactly (a bound, constant or enum value beyond 2^53), which the
//! module compares exactly. `dynamic` is true when the meaning of some node depends on the
//! dynamic scope (`$dynamicRef`, `$recursiveRef`): then `nodes` is empty and only the module
//! judges. A tier carries the opcodes it can answer exactly and hands any node with another
//! opcode to the module (`Validator::node_is_valid`) — so it never guesses.

// Only the main module's bindings (src/bindings/wasm.rs) read the plan; the other builds (the
// schema tools' module, native) compile it for its tests.
#![cfg_attr(any(not(target_arch = "wasm32"), feature = "tools-module"), allow(dead_code))]

use super::{ecma::linear_in_js, format::Check, Kw, Validator};
use crate::json::writer::{write_str, write_value};
use serde_json::{Number, Value};

/// The plan format's version (`v`), raised whenever an opcode changes meaning.
pub(crate) const PLAN_VERSION: u32 = 1;

/// 2^53: integers up to this magnitude are exact as JavaScript numbers.
const EXACT_INT: u64 = 1 << 53;

/// The plan of `v` as JSON text (see the module's documentation).
pub(crate) fn plan(v: &Validator) -> String {
    let mut out = String::with_capacity(256);
    raw(&mut out, "{\"v\":");
    num(&mut out, u64::from(PLAN_VERSION));
    raw(&mut out, ",\"root\":");
    num(&mut out, v.root() as u64);
    if v.uses_dynamic_scope() {
        out.push_str(",\"dynamic\":true,\"patterns\":[],\"linear\":[],\"nodes\":[]}");
        return out;
    }
    let reachable = reachable(v);
    let mut patterns: Vec<(usize, &str)> = Vec::new();
    let mut nodes = String::new();
    for (n, seen) in reachable.iter().enumerate() {
        if n > 0 {
            nodes.push(',');
        }
        if !seen {
            nodes.push('0');
            continue;
        }
        node(&mut nodes, v.keywords(n), &mut patterns);
    }
    // Patterns by the validator's index: a slot for each index up to the highest used.
    let count = patterns.iter().map(|(i, _)| i + 1).max().unwrap_or(0);
    let mut sources: Vec<Option<&str>> = vec![None; count];
    for (i, source) in patterns {
        if let Some(slot) = sources.get_mut(i) {
            *slot = Some(source);
        }
    }
    out.push_str(",\"dynamic\":false,\"patterns\":[");
    for (i, source) in sources.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match source {
            Some(s) => write_str(&mut out, s),
            None => out.push_str("null"),
        }
    }
    // Which patterns a JavaScript tier may run on its own RegExp (ecma/gate.rs): 1 or 0.
    out.push_str("],\"linear\":[");
    for (i, source) in sources.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push(if source.is_some_and(linear_in_js) { '1' } else { '0' });
    }
    out.push_str("],\"nodes\":[");
    out.push_str(&nodes);
    out.push_str("]}");
    out
}

/// Which nodes the root reaches (the graph's one traversal, `keywords::for_each_node`).
fn reachable(v: &Validator) -> Vec<bool> {
    let mut seen: Vec<bool> = Vec::new();
    super::keywords::for_each_node(v.root(), |n| v.keywords(n), |n| {
        if seen.len() <= n {
            seen.resize(n + 1, false);
        }
        if let Some(slot) = seen.get_mut(n) {
            *slot = true;
        }
        true
    });
    seen
}

/// Whether a number is the same when read as a JavaScript double.
fn exact(n: &Number) -> bool {
    match (n.as_i64(), n.as_u64()) {
        (Some(i), _) => i.unsigned_abs() <= EXACT_INT,
        (None, Some(u)) => u <= EXACT_INT,
        _ => n.as_f64().is_some_and(f64::is_finite),
    }
}

/// Whether every number in a value is exact as a JavaScript double.
fn exact_value(v: &Value) -> bool {
    match v {
        Value::Number(n) => exact(n),
        Value::Array(items) => items.iter().all(exact_value),
        Value::Object(map) => map.values().all(exact_value),
        _ => true,
    }
}

/// Whether the module alone can judge this keyword (see `D`).
fn needs_module(kw: &Kw) -> bool {
    match kw {
        Kw::UnevaluatedItems(_) | Kw::UnevaluatedProperties(_) | Kw::DynamicRef { .. } | Kw::RecursiveRef(_) => true,
        Kw::Minimum(n) | Kw::Maximum(n) | Kw::ExclusiveMinimum(n) | Kw::ExclusiveMaximum(n) | Kw::MultipleOf(n) => !exact(n),
        Kw::Enum(v) | Kw::Const(v) => !exact_value(v),
        _ => false,
    }
}

fn node<'v>(out: &mut String, kws: &'v [Kw], patterns: &mut Vec<(usize, &'v str)>) {
    out.push('[');
    let delegate = kws.iter().any(needs_module);
    if delegate {
        out.push_str("[\"D\"]");
    }
    for (i, kw) in kws.iter().enumerate() {
        if i > 0 || delegate {
            out.push(',');
        }
        keyword(out, kw, patterns);
    }
    out.push(']');
}

// The writers below are kept out of line: inlined at each of the many call sites they made the
// main module, whose size is budgeted, noticeably larger.
#[inline(never)]
fn raw(out: &mut String, s: &str) {
    out.push_str(s);
}

#[inline(never)]
fn num(out: &mut String, n: u64) {
    raw(out, &n.to_string());
}

#[inline(never)]
fn op(out: &mut String, code: &str) {
    raw(out, "[\"");
    raw(out, code);
    out.push('"');
}

#[inline(never)]
fn arg_num(out: &mut String, n: u64) {
    out.push(',');
    num(out, n);
}

fn arg_bool(out: &mut String, b: bool) {
    raw(out, if b { ",true" } else { ",false" });
}

#[inline(never)]
fn arg_opt(out: &mut String, n: Option<u64>) {
    match n {
        Some(n) => arg_num(out, n),
        None => raw(out, ",null"),
    }
}

fn arg_number(out: &mut String, n: &Number) {
    out.push(',');
    write_value(out, &Value::Number(n.clone()));
}

#[inline(never)]
fn arg_nodes(out: &mut String, nodes: &[usize]) {
    raw(out, ",[");
    for (i, n) in nodes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        num(out, *n as u64);
    }
    out.push(']');
}

#[inline(never)]
fn arg_names(out: &mut String, names: &[String]) {
    raw(out, ",[");
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(out, name);
    }
    out.push(']');
}

#[inline(never)]
fn arg_named_nodes(out: &mut String, list: &[(String, usize)]) {
    raw(out, ",[");
    for (i, (name, n)) in list.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        write_str(out, name);
        arg_num(out, *n as u64);
        out.push(']');
    }
    out.push(']');
}

fn keyword<'v>(out: &mut String, kw: &'v Kw, patterns: &mut Vec<(usize, &'v str)>) {
    match kw {
        Kw::False => op(out, "F"),
        Kw::Ref(n) | Kw::RecursiveRef(n) | Kw::DynamicRef { target: n, .. } => {
            op(out, "R");
            arg_num(out, *n as u64);
        }
        Kw::Type { mask, .. } => {
            op(out, "T");
            arg_num(out, u64::from(*mask));
        }
        Kw::Enum(v) | Kw::Const(v) => {
            op(out, if matches!(kw, Kw::Enum(_)) { "E" } else { "C" });
            out.push(',');
            // `enum` that is not an array allows nothing (as in evaluation).
            match (kw, v) {
                (Kw::Enum(_), Value::Array(_)) | (Kw::Const(_), _) => write_value(out, v),
                _ => raw(out, "[]"),
            }
        }
        Kw::Minimum(n) | Kw::Maximum(n) | Kw::ExclusiveMinimum(n) | Kw::ExclusiveMaximum(n) => {
            op(out, match kw {
                Kw::Minimum(_) => "g",
                Kw::Maximum(_) => "l",
                Kw::ExclusiveMinimum(_) => "G",
                _ => "L",
            });
            arg_number(out, n);
        }
        Kw::MultipleOf(n) => {
            op(out, if n.is_i64() || n.is_u64() { "M" } else { "m" });
            arg_number(out, n);
        }
        Kw::MinLength(n) | Kw::MaxLength(n) | Kw::MinItems(n) | Kw::MaxItems(n) | Kw::MinProperties(n) | Kw::MaxProperties(n) => {
            op(out, match kw {
                Kw::MinLength(_) => "s",
                Kw::MaxLength(_) => "S",
                Kw::MinItems(_) => "i",
                Kw::MaxItems(_) => "I",
                Kw::MinProperties(_) => "o",
                _ => "O",
            });
            // Limits beyond 2^53 mean "no limit" to any value JavaScript holds.
            arg_num(out, (*n).min(EXACT_INT));
        }
        Kw::Pattern(index, source) => {
            patterns.push((*index, source));
            op(out, "~");
            arg_num(out, *index as u64);
        }
        Kw::Format(check, name) => {
            op(out, "%");
            out.push(',');
            write_str(out, name);
            match check {
                Check::Builtin(_) => {}
                Check::Pattern(index, source) => {
                    patterns.push((*index, source));
                    arg_num(out, *index as u64);
                }
                Check::Function(_) => raw(out, ",null"),
            }
        }
        Kw::ContentEncoding(name) | Kw::ContentMediaType(name, _) => {
            op(out, "$");
            out.push(',');
            write_str(out, name);
        }
        Kw::UniqueItems => op(out, "U"),
        Kw::Items { prefix, rest, .. } => {
            op(out, "A");
            arg_nodes(out, prefix);
            arg_opt(out, rest.map(|n| n as u64));
        }
        Kw::Contains { node, min, max, .. } => {
            op(out, "c");
            arg_num(out, *node as u64);
            arg_num(out, (*min).min(EXACT_INT));
            arg_opt(out, max.map(|m| m.min(EXACT_INT)));
        }
        Kw::Required(names) | Kw::JtdRequired(names) => {
            op(out, if matches!(kw, Kw::Required(_)) { "q" } else { "r" });
            arg_names(out, names);
        }
        Kw::Properties(list) | Kw::OptionalProperties(list) => {
            op(out, "P");
            arg_named_nodes(out, list);
        }
        Kw::PatternProperties(list) => {
            op(out, "pp");
            raw(out, ",[");
            for (i, (index, source, n)) in list.iter().enumerate() {
                patterns.push((*index, source));
                if i > 0 {
                    out.push(',');
                }
                out.push('[');
                num(out, *index as u64);
                arg_num(out, *n as u64);
                out.push(']');
            }
            out.push(']');
        }
        Kw::AdditionalProperties { node, names, patterns: indexes } => {
            op(out, "X");
            arg_num(out, *node as u64);
            arg_names(out, names);
            arg_nodes(out, indexes);
        }
        Kw::PropertyNames(n) => {
            op(out, "K");
            arg_num(out, *n as u64);
        }
        Kw::DependentRequired(_, deps) => {
            op(out, "d");
            raw(out, ",[");
            for (i, (name, required)) in deps.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('[');
                write_str(out, name);
                arg_names(out, required);
                out.push(']');
            }
            out.push(']');
        }
        Kw::DependentSchemas(_, list) => {
            op(out, "e");
            arg_named_nodes(out, list);
        }
        Kw::AllOf(list) | Kw::AnyOf(list) | Kw::OneOf(list) => {
            op(out, match kw {
                Kw::AllOf(_) => "&",
                Kw::AnyOf(_) => "|",
                _ => "1",
            });
            arg_nodes(out, list);
        }
        Kw::Not(n, _) => {
            op(out, "!");
            arg_num(out, *n as u64);
        }
        Kw::If { cond, then, otherwise } => {
            op(out, "?");
            arg_num(out, *cond as u64);
            arg_opt(out, then.map(|n| n as u64));
            arg_opt(out, otherwise.map(|n| n as u64));
        }
        Kw::UnevaluatedItems(n) | Kw::UnevaluatedProperties(n) => {
            op(out, if matches!(kw, Kw::UnevaluatedItems(_)) { "u" } else { "w" });
            arg_num(out, *n as u64);
        }
        Kw::JtdRef { node, nullable, .. } => {
            op(out, "j");
            arg_num(out, *node as u64);
            arg_bool(out, *nullable);
        }
        Kw::JtdType { kind, nullable } => {
            match kind.range() {
                Some((min, max)) => {
                    op(out, "t");
                    out.push(',');
                    write_value(out, &Value::from(min));
                    arg_num(out, max.unsigned_abs());
                }
                None => op(out, "ts"),
            }
            arg_bool(out, *nullable);
        }
        Kw::JtdForm { mask, .. } => {
            op(out, "f");
            arg_num(out, u64::from(*mask));
        }
        Kw::JtdAdditional(allowed) => {
            op(out, "x");
            arg_names(out, allowed);
        }
        Kw::Values(n) => {
            op(out, "V");
            arg_num(out, *n as u64);
        }
        Kw::Discriminator { tag, mapping } => {
            op(out, "=");
            out.push(',');
            write_str(out, tag);
            arg_named_nodes(out, mapping);
        }
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::plan;
    use crate::validator::draft::Draft;
    use crate::validator::{Options, Validator};
    use serde_json::{json, Value};
    use std::collections::BTreeMap;

    fn plan_of(schema: Value, draft: Draft) -> Value {
        let resources = BTreeMap::new();
        let custom_formats = BTreeMap::new();
        let options = Options { draft, formats: true, refuse_unknown_formats: false, resources: &resources, custom_formats: &custom_formats };
        let v = Validator::new(&schema, &options).expect("compiles");
        serde_json::from_str(&plan(&v)).expect("the plan is JSON")
    }

    fn root_node(p: &Value) -> &Value {
        let root = p["root"].as_u64().expect("root") as usize;
        &p["nodes"][root]
    }

    #[test]
    fn a_plan_carries_the_keywords_by_opcode() {
        let p = plan_of(
            json!({
                "type": "object",
                "required": ["a"],
                "properties": {"a": {"type": "integer", "minimum": 1, "multipleOf": 3}, "b": {"enum": [1, "x", {"k": [null]}]}},
                "additionalProperties": false,
                "patternProperties": {"^x-": {"maxLength": 4}},
            }),
            Draft::Draft202012,
        );
        assert_eq!(p["v"], 1);
        assert_eq!(p["dynamic"], false);
        assert_eq!(p["patterns"], json!(["^x-"]));
        let root = root_node(&p);
        let ops: Vec<&str> = root.as_array().expect("keywords").iter().map(|k| k[0].as_str().expect("opcode")).collect();
        assert_eq!(ops, ["T", "q", "P", "pp", "X"]);
        assert_eq!(root[0], json!(["T", 64]));
        assert_eq!(root[1], json!(["q", ["a"]]));
        let a = root[2][1][0][1].as_u64().expect("node") as usize;
        assert_eq!(p["nodes"][a], json!([["T", 4], ["g", 1], ["M", 3]]));
        let b = root[2][1][1][1].as_u64().expect("node") as usize;
        assert_eq!(p["nodes"][b], json!([["E", [1, "x", {"k": [null]}]]]));
        // additionalProperties: its node, the names it skips, the pattern indexes it skips.
        assert_eq!(root[4][2], json!(["a", "b"]));
        assert_eq!(root[4][3], json!([0]));
        assert_eq!(p["nodes"][root[4][1].as_u64().expect("node") as usize], json!([["F"]]));
    }

    #[test]
    fn references_are_links_and_cycles_close() {
        let p = plan_of(json!({"$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}}, "$ref": "#/$defs/t"}), Draft::Draft202012);
        let root = root_node(&p);
        let target = root[0][1].as_u64().expect("link") as usize;
        let t = &p["nodes"][target];
        let item = t[1][2].as_u64().expect("rest") as usize;
        assert_eq!(p["nodes"][item], json!([["R", target]]));
    }

    #[test]
    fn what_a_tier_cannot_judge_is_marked() {
        // A node that gathers annotations, and numbers beyond a double's exact integers.
        let p = plan_of(json!({"properties": {"a": {"maximum": 9007199254740993u64}}, "unevaluatedProperties": false}), Draft::Draft202012);
        let root = root_node(&p);
        assert_eq!(root[0], json!(["D"]));
        let a = root[1][1][0][1].as_u64().expect("node") as usize;
        assert_eq!(p["nodes"][a][0], json!(["D"]));
        // The dynamic scope: no nodes at all.
        let p = plan_of(json!({"$dynamicAnchor": "n", "items": {"$dynamicRef": "#n"}}), Draft::Draft202012);
        assert_eq!(p["dynamic"], true);
        assert_eq!(p["nodes"], json!([]));
        // A fractional divisor keeps its own opcode (the decimal rule).
        let p = plan_of(json!({"multipleOf": 0.1, "format": "email"}), Draft::Draft202012);
        assert_eq!(root_node(&p), &json!([["m", 0.1], ["%", "email"]]));
    }

    #[test]
    fn patterns_say_whether_javascript_may_run_them() {
        let mut custom_formats = BTreeMap::new();
        custom_formats.insert("code".to_string(), crate::validator::format::CustomFormat::pattern("^[A-Z]{3}$"));
        custom_formats.insert("odd".to_string(), crate::validator::format::CustomFormat::function(|s| s.len() % 2 == 1));
        let resources = BTreeMap::new();
        let options = Options { draft: Draft::Draft202012, formats: true, refuse_unknown_formats: false, resources: &resources, custom_formats: &custom_formats };
        let schema = json!({"properties": {"a": {"pattern": "^(a+)+$"}, "b": {"format": "code"}, "c": {"format": "odd"}, "d": {"format": "date"}}, "patternProperties": {"^x-": true}});
        let v = Validator::new(&schema, &options).expect("compiles");
        let p: Value = serde_json::from_str(&plan(&v)).expect("the plan is JSON");
        let patterns = p["patterns"].as_array().expect("patterns");
        let linear = p["linear"].as_array().expect("linear");
        assert_eq!(patterns.len(), linear.len());
        for (source, gate) in patterns.iter().zip(linear) {
            let expected = if source == "^(a+)+$" { 0 } else { 1 };
            assert_eq!(gate, &json!(expected), "{source}");
        }
        let text = p.to_string();
        assert!(text.contains("[\"%\",\"odd\",null]") && text.contains("[\"%\",\"date\"]"), "{text}");
        assert!(text.contains("[\"%\",\"code\","), "{text}");
    }

    #[test]
    fn jtd_forms_have_opcodes() {
        let p = plan_of(
            json!({"discriminator": "k", "mapping": {"a": {"properties": {"n": {"type": "uint8"}}, "optionalProperties": {"t": {"type": "timestamp", "nullable": true}}}}}),
            Draft::Jtd,
        );
        let text = p.to_string();
        for op in ["\"=\"", "\"t\",0,255,false", "\"ts\",true", "\"r\",[\"n\"]", "\"x\",[\"k\",\"n\",\"t\"]"] {
            assert!(text.contains(op), "{op} in {text}");
        }
    }
}
