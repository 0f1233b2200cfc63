//! compareSchemas on a table of changes: each row is an old and a new schema and how the change
//! must be classified (narrowed, widened, unknown: the lists that are not empty, and the kind of
//! the first change of each).

use output_contract::schema::compare::{compare, compare_texts, Comparison};
use output_contract::schema::version::Bump;
use output_contract::{Contract, Draft, Options};
use serde_json::{json, Value};

fn run(old: &Value, new: &Value) -> Comparison {
    run_with(old, new, &Options::default())
}

fn jtd() -> Options {
    Options { draft: Some(Draft::Jtd), ..Options::default() }
}

fn run_with(old: &Value, new: &Value, options: &Options) -> Comparison {
    let old = Contract::compile(old, options).unwrap();
    let new = Contract::compile(new, options).unwrap();
    compare(&old, &new)
}

/// `expect`: which lists are non-empty, as letters N, W, U (`""`: no change), and the kind of
/// the first change found.
struct Row {
    name: &'static str,
    old: Value,
    new: Value,
    expect: &'static str,
    kind: &'static str,
}

fn obj(props: Value) -> Value {
    json!({"type": "object", "properties": props})
}

fn table() -> Vec<Row> {
    let s = json!({"type": "string"});
    vec![
        Row { name: "identical", old: s.clone(), new: s.clone(), expect: "", kind: "" },
        Row { name: "description only", old: s.clone(), new: json!({"type": "string", "description": "d"}), expect: "", kind: "" },
        Row { name: "new required name", old: json!({"type": "object", "properties": {"a": {}}}), new: json!({"type": "object", "properties": {"a": {}}, "required": ["a"]}), expect: "N", kind: "required" },
        Row { name: "dropped required name", old: json!({"type": "object", "required": ["a"]}), new: json!({"type": "object"}), expect: "W", kind: "required" },
        Row { name: "lower maxLength", old: json!({"type": "string", "maxLength": 10}), new: json!({"type": "string", "maxLength": 5}), expect: "N", kind: "maxLength" },
        Row { name: "higher maxLength", old: json!({"type": "string", "maxLength": 5}), new: json!({"type": "string", "maxLength": 10}), expect: "W", kind: "maxLength" },
        Row { name: "added maxLength", old: s.clone(), new: json!({"type": "string", "maxLength": 5}), expect: "N", kind: "maxLength" },
        Row { name: "dropped minLength", old: json!({"type": "string", "minLength": 1}), new: s.clone(), expect: "W", kind: "minLength" },
        Row { name: "removed enum value", old: json!({"enum": ["a", "b"]}), new: json!({"enum": ["a"]}), expect: "N", kind: "enum" },
        Row { name: "added enum value", old: json!({"enum": ["a"]}), new: json!({"enum": ["a", "b"]}), expect: "W", kind: "enum" },
        Row { name: "enum values reordered", old: json!({"enum": ["a", "b"]}), new: json!({"enum": ["b", "a"]}), expect: "", kind: "" },
        Row { name: "enum replaced by const", old: json!({"enum": ["a", "b"]}), new: json!({"const": "a"}), expect: "N", kind: "const" },
        Row { name: "closed object", old: obj(json!({"a": s})), new: json!({"type": "object", "properties": {"a": s}, "additionalProperties": false}), expect: "N", kind: "additionalProperties" },
        Row { name: "opened object", old: json!({"type": "object", "additionalProperties": false}), new: json!({"type": "object"}), expect: "W", kind: "additionalProperties" },
        Row { name: "new optional property on a closed object", old: json!({"type": "object", "properties": {"a": s}, "additionalProperties": false}), new: json!({"type": "object", "properties": {"a": s, "b": s}, "additionalProperties": false}), expect: "W", kind: "properties" },
        Row { name: "property removed from a closed object", old: json!({"type": "object", "properties": {"a": s, "b": s}, "additionalProperties": false}), new: json!({"type": "object", "properties": {"a": s}, "additionalProperties": false}), expect: "N", kind: "properties" },
        Row { name: "pattern where there was none", old: s.clone(), new: json!({"type": "string", "pattern": "^[a-z]+$"}), expect: "N", kind: "pattern" },
        Row { name: "pattern dropped", old: json!({"type": "string", "pattern": "^a"}), new: s.clone(), expect: "W", kind: "pattern" },
        Row { name: "two different patterns", old: json!({"type": "string", "pattern": "^a"}), new: json!({"type": "string", "pattern": "^b"}), expect: "U", kind: "pattern" },
        Row { name: "null allowed", old: s.clone(), new: json!({"type": ["string", "null"]}), expect: "W", kind: "type" },
        Row { name: "null no longer allowed", old: json!({"type": ["string", "null"]}), new: s.clone(), expect: "N", kind: "type" },
        Row { name: "number to integer", old: json!({"type": "number"}), new: json!({"type": "integer"}), expect: "N", kind: "type" },
        Row { name: "integer to number", old: json!({"type": "integer"}), new: json!({"type": "number"}), expect: "W", kind: "type" },
        Row { name: "type changed", old: s.clone(), new: json!({"type": "number"}), expect: "NW", kind: "type" },
        Row { name: "raised minimum", old: json!({"type": "number", "minimum": 0}), new: json!({"type": "number", "minimum": 1}), expect: "N", kind: "minimum" },
        Row { name: "minimum made exclusive", old: json!({"type": "number", "minimum": 0}), new: json!({"type": "number", "exclusiveMinimum": 0}), expect: "N", kind: "exclusiveMinimum" },
        Row { name: "raised maximum", old: json!({"type": "number", "maximum": 5}), new: json!({"type": "number", "maximum": 9}), expect: "W", kind: "maximum" },
        Row { name: "multipleOf 2 to 4", old: json!({"type": "number", "multipleOf": 2}), new: json!({"type": "number", "multipleOf": 4}), expect: "N", kind: "multipleOf" },
        Row { name: "multipleOf 2 to 3", old: json!({"type": "number", "multipleOf": 2}), new: json!({"type": "number", "multipleOf": 3}), expect: "NW", kind: "multipleOf" },
        Row { name: "lower maxItems", old: json!({"type": "array", "maxItems": 3}), new: json!({"type": "array", "maxItems": 2}), expect: "N", kind: "maxItems" },
        Row { name: "uniqueItems added", old: json!({"type": "array"}), new: json!({"type": "array", "uniqueItems": true}), expect: "N", kind: "uniqueItems" },
        Row { name: "narrowed items", old: json!({"type": "array", "items": {"type": ["string", "number"]}}), new: json!({"type": "array", "items": s}), expect: "N", kind: "type" },
        Row { name: "nested property narrowed", old: obj(json!({"a": obj(json!({"b": {"type": "string"}}))})), new: obj(json!({"a": obj(json!({"b": {"type": "string", "maxLength": 3}}))})), expect: "N", kind: "maxLength" },
        Row { name: "format added", old: s.clone(), new: json!({"type": "string", "format": "email"}), expect: "N", kind: "format" },
        Row { name: "format changed", old: json!({"type": "string", "format": "date"}), new: json!({"type": "string", "format": "date-time"}), expect: "U", kind: "format" },
        Row { name: "anyOf branch added", old: json!({"anyOf": [{"type": "string"}, {"type": "number"}]}), new: json!({"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]}), expect: "W", kind: "anyOf" },
        Row { name: "anyOf branch removed", old: json!({"anyOf": [{"type": "string"}, {"type": "number"}]}), new: json!({"anyOf": [{"type": "number"}]}), expect: "N", kind: "anyOf" },
        Row { name: "anyOf branches reordered", old: json!({"anyOf": [{"type": "string"}, {"type": "number"}]}), new: json!({"anyOf": [{"type": "number"}, {"type": "string"}]}), expect: "", kind: "" },
        Row { name: "oneOf branch added", old: json!({"oneOf": [{"type": "string"}]}), new: json!({"oneOf": [{"type": "string"}, {"maxLength": 3}]}), expect: "WU", kind: "oneOf" },
        Row { name: "if/then added", old: obj(json!({"a": s})), new: json!({"type": "object", "properties": {"a": s}, "if": {"required": ["a"]}, "then": {"required": ["b"]}}), expect: "U", kind: "if" },
        Row { name: "if condition changed", old: json!({"if": {"required": ["a"]}, "then": {"required": ["b"]}}), new: json!({"if": {"required": ["c"]}, "then": {"required": ["b"]}}), expect: "U", kind: "if" },
        Row { name: "then narrowed under the same if", old: json!({"if": {"required": ["a"]}, "then": {"required": ["b"]}}), new: json!({"if": {"required": ["a"]}, "then": {"required": ["b", "c"]}}), expect: "N", kind: "required" },
        Row { name: "changed $ref target", old: json!({"definitions": {"a": s, "b": {"type": "string", "maxLength": 3}}, "properties": {"x": {"$ref": "#/definitions/a"}}}), new: json!({"definitions": {"a": s, "b": {"type": "string", "maxLength": 3}}, "properties": {"x": {"$ref": "#/definitions/b"}}}), expect: "U", kind: "$ref" },
        Row { name: "$ref to a renamed definition with the same content", old: json!({"definitions": {"a": s}, "properties": {"x": {"$ref": "#/definitions/a"}}}), new: json!({"definitions": {"b": s}, "properties": {"x": {"$ref": "#/definitions/b"}}}), expect: "", kind: "" },
        Row { name: "draft 4 exclusiveMaximum made exclusive", old: json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "number", "maximum": 5}), new: json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "number", "maximum": 5, "exclusiveMaximum": true}), expect: "N", kind: "exclusiveMaximum" },
        Row { name: "prefixItems narrowed and the rest closed", old: json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "array", "prefixItems": [{"type": ["string", "null"]}]}), new: json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "array", "prefixItems": [{"type": "string"}], "items": false}), expect: "N", kind: "items" },
        Row { name: "contains dropped", old: json!({"type": "array", "contains": {"const": 1}}), new: json!({"type": "array"}), expect: "W", kind: "contains" },
        Row { name: "propertyNames narrowed", old: json!({"type": "object", "propertyNames": {"maxLength": 10}}), new: json!({"type": "object", "propertyNames": {"maxLength": 5}}), expect: "N", kind: "maxLength" },
        Row { name: "narrowed behind the same $ref", old: json!({"definitions": {"a": s}, "properties": {"x": {"$ref": "#/definitions/a"}}}), new: json!({"definitions": {"a": {"type": "string", "maxLength": 2}}, "properties": {"x": {"$ref": "#/definitions/a"}}}), expect: "N", kind: "maxLength" },
        Row { name: "$ref inlined", old: json!({"definitions": {"a": s}, "properties": {"x": {"$ref": "#/definitions/a"}}}), new: json!({"properties": {"x": s}}), expect: "", kind: "" },
        Row { name: "not widened narrows", old: json!({"not": {"type": "string"}}), new: json!({"not": {"type": ["string", "null"]}}), expect: "N", kind: "type" },
        Row { name: "schema false to true", old: json!({"properties": {"a": false}}), new: json!({"properties": {"a": true}}), expect: "W", kind: "false" },
        Row { name: "unevaluatedProperties added", old: json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}), new: json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "unevaluatedProperties": false}), expect: "U", kind: "unevaluatedProperties" },
        Row { name: "patternProperties changed", old: json!({"patternProperties": {"^a": s}}), new: json!({"patternProperties": {"^b": s}}), expect: "U", kind: "patternProperties" },
        Row { name: "recursive schema unchanged", old: json!({"definitions": {"n": {"type": "object", "properties": {"next": {"$ref": "#/definitions/n"}}}}, "$ref": "#/definitions/n"}), new: json!({"definitions": {"n": {"type": "object", "properties": {"next": {"$ref": "#/definitions/n"}}}}, "$ref": "#/definitions/n"}), expect: "", kind: "" },
        Row { name: "recursive schema narrowed", old: json!({"definitions": {"n": {"type": "object", "properties": {"next": {"$ref": "#/definitions/n"}}}}, "$ref": "#/definitions/n"}), new: json!({"definitions": {"n": {"type": "object", "properties": {"next": {"$ref": "#/definitions/n"}}, "required": ["v"]}}, "$ref": "#/definitions/n"}), expect: "N", kind: "required" },
        Row { name: "recursive anyOf unchanged", old: json!({"definitions": {"n": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"l": {"$ref": "#/definitions/n"}, "r": {"$ref": "#/definitions/n"}}}]}}, "$ref": "#/definitions/n"}), new: json!({"definitions": {"n": {"anyOf": [{"type": "object", "properties": {"l": {"$ref": "#/definitions/n"}, "r": {"$ref": "#/definitions/n"}}}, {"type": "null"}]}}, "$ref": "#/definitions/n"}), expect: "", kind: "" },
        Row { name: "recursive anyOf narrowed deep inside", old: json!({"definitions": {"n": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"v": {"type": "string"}, "l": {"$ref": "#/definitions/n"}}}]}}, "$ref": "#/definitions/n"}), new: json!({"definitions": {"n": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"v": {"type": "string", "maxLength": 9}, "l": {"$ref": "#/definitions/n"}}}]}}, "$ref": "#/definitions/n"}), expect: "N", kind: "maxLength" },
        Row { name: "property dropped from an open object", old: obj(json!({"a": s, "b": s})), new: obj(json!({"a": s})), expect: "W", kind: "properties" },
        Row { name: "dependentRequired added", old: json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}), new: json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "dependentRequired": {"a": ["b"]}}), expect: "N", kind: "dependentRequired" },
    ]
}

fn jtd_table() -> Vec<Row> {
    let props = |p: Value| json!({"properties": p});
    let s = json!({"type": "string"});
    let defs = |d: Value, root: Value| {
        let mut root = root;
        root["definitions"] = d;
        root
    };
    vec![
        Row { name: "jtd identical", old: props(json!({"a": s})), new: props(json!({"a": s})), expect: "", kind: "" },
        Row { name: "jtd metadata only", old: props(json!({"a": s})), new: json!({"metadata": {"description": "d"}, "properties": {"a": s}}), expect: "", kind: "" },
        Row { name: "jtd new required property on an open object", old: json!({"properties": {"a": s}, "additionalProperties": true}), new: json!({"properties": {"a": s, "b": s}, "additionalProperties": true}), expect: "N", kind: "properties" },
        // A closed object refused the name before: it also widens.
        Row { name: "jtd new required property on a closed object", old: props(json!({"a": s})), new: props(json!({"a": s, "b": s})), expect: "NW", kind: "properties" },
        Row { name: "jtd required made optional", old: props(json!({"a": s, "b": s})), new: json!({"properties": {"a": s}, "optionalProperties": {"b": s}}), expect: "W", kind: "optionalProperties" },
        Row { name: "jtd optional made required", old: json!({"properties": {"a": s}, "optionalProperties": {"b": s}}), new: props(json!({"a": s, "b": s})), expect: "N", kind: "properties" },
        Row { name: "jtd new optional property on a closed object", old: props(json!({"a": s})), new: json!({"properties": {"a": s}, "optionalProperties": {"b": s}}), expect: "W", kind: "optionalProperties" },
        Row { name: "jtd object closed", old: json!({"properties": {"a": s}, "additionalProperties": true}), new: props(json!({"a": s})), expect: "N", kind: "additionalProperties" },
        Row { name: "jtd object opened", old: props(json!({"a": s})), new: json!({"properties": {"a": s}, "additionalProperties": true}), expect: "W", kind: "additionalProperties" },
        Row { name: "jtd enum value added", old: json!({"enum": ["a", "b"]}), new: json!({"enum": ["a", "b", "c"]}), expect: "W", kind: "enum" },
        Row { name: "jtd enum value removed", old: json!({"enum": ["a", "b"]}), new: json!({"enum": ["b"]}), expect: "N", kind: "enum" },
        Row { name: "jtd enum reordered", old: json!({"enum": ["a", "b"]}), new: json!({"enum": ["b", "a"]}), expect: "", kind: "" },
        Row { name: "jtd nullable added", old: s.clone(), new: json!({"type": "string", "nullable": true}), expect: "W", kind: "nullable" },
        Row { name: "jtd nullable removed", old: json!({"type": "string", "nullable": true}), new: s.clone(), expect: "N", kind: "nullable" },
        Row { name: "jtd int8 to int16", old: json!({"type": "int8"}), new: json!({"type": "int16"}), expect: "W", kind: "type" },
        Row { name: "jtd int16 to int8", old: json!({"type": "int16"}), new: json!({"type": "int8"}), expect: "N", kind: "type" },
        Row { name: "jtd uint8 to int8", old: json!({"type": "uint8"}), new: json!({"type": "int8"}), expect: "NW", kind: "type" },
        Row { name: "jtd float32 to float64", old: json!({"type": "float32"}), new: json!({"type": "float64"}), expect: "", kind: "" },
        Row { name: "jtd float64 to int32", old: json!({"type": "float64"}), new: json!({"type": "int32"}), expect: "N", kind: "type" },
        Row { name: "jtd string to timestamp", old: s.clone(), new: json!({"type": "timestamp"}), expect: "N", kind: "type" },
        Row { name: "jtd timestamp to string", old: json!({"type": "timestamp"}), new: s.clone(), expect: "W", kind: "type" },
        Row { name: "jtd string to boolean", old: s.clone(), new: json!({"type": "boolean"}), expect: "NW", kind: "type" },
        Row { name: "jtd string to enum", old: s.clone(), new: json!({"enum": ["a"]}), expect: "N", kind: "enum" },
        Row { name: "jtd elements narrowed", old: json!({"elements": {"type": "int32"}}), new: json!({"elements": {"type": "int8"}}), expect: "N", kind: "type" },
        Row { name: "jtd values widened", old: json!({"values": s}), new: json!({"values": {"type": "string", "nullable": true}}), expect: "W", kind: "nullable" },
        Row { name: "jtd property's type changed deep inside", old: props(json!({"a": props(json!({"b": {"type": "uint8"}}))})), new: props(json!({"a": props(json!({"b": {"type": "uint16"}}))})), expect: "W", kind: "type" },
        Row { name: "jtd empty form narrowed", old: props(json!({"a": {}})), new: props(json!({"a": s})), expect: "N", kind: "type" },
        Row { name: "jtd schema emptied", old: props(json!({"a": s})), new: props(json!({"a": {}})), expect: "W", kind: "type" },
        Row { name: "jtd elements to values", old: json!({"elements": s}), new: json!({"values": s}), expect: "NW", kind: "values" },
        Row { name: "jtd values to properties", old: json!({"values": s}), new: props(json!({"a": s})), expect: "U", kind: "properties" },
        Row { name: "jtd mapping value added", old: json!({"discriminator": "t", "mapping": {"a": props(json!({"x": s}))}}), new: json!({"discriminator": "t", "mapping": {"a": props(json!({"x": s})), "b": props(json!({}))}}), expect: "W", kind: "mapping" },
        Row { name: "jtd mapping value removed", old: json!({"discriminator": "t", "mapping": {"a": props(json!({"x": s})), "b": props(json!({}))}}), new: json!({"discriminator": "t", "mapping": {"a": props(json!({"x": s}))}}), expect: "N", kind: "mapping" },
        Row { name: "jtd mapping schema narrowed", old: json!({"discriminator": "t", "mapping": {"a": json!({"optionalProperties": {"x": s}})}}), new: json!({"discriminator": "t", "mapping": {"a": props(json!({"x": s}))}}), expect: "N", kind: "properties" },
        Row { name: "jtd tag renamed", old: json!({"discriminator": "t", "mapping": {"a": props(json!({}))}}), new: json!({"discriminator": "kind", "mapping": {"a": props(json!({}))}}), expect: "NW", kind: "discriminator" },
        Row { name: "jtd definition narrowed behind the same ref", old: defs(json!({"d": s}), props(json!({"a": {"ref": "d"}}))), new: defs(json!({"d": {"type": "timestamp"}}), props(json!({"a": {"ref": "d"}}))), expect: "N", kind: "type" },
        Row { name: "jtd ref to another definition with the same content", old: defs(json!({"d": s}), props(json!({"a": {"ref": "d"}}))), new: defs(json!({"e": s}), props(json!({"a": {"ref": "e"}}))), expect: "", kind: "" },
        Row { name: "jtd ref to another definition that widens", old: defs(json!({"d": {"type": "int8"}, "e": {"type": "int32"}}), props(json!({"a": {"ref": "d"}}))), new: defs(json!({"d": {"type": "int8"}, "e": {"type": "int32"}}), props(json!({"a": {"ref": "e"}}))), expect: "W", kind: "type" },
        Row { name: "jtd ref inlined", old: defs(json!({"d": s}), props(json!({"a": {"ref": "d"}}))), new: props(json!({"a": s})), expect: "", kind: "" },
        Row { name: "jtd ref made nullable", old: defs(json!({"d": s}), props(json!({"a": {"ref": "d"}}))), new: defs(json!({"d": s}), props(json!({"a": {"ref": "d", "nullable": true}}))), expect: "W", kind: "nullable" },
        Row {
            name: "jtd recursive definition narrowed",
            old: defs(json!({"n": json!({"properties": {"v": s}, "optionalProperties": {"next": {"ref": "n"}}})}), json!({"ref": "n"})),
            new: defs(json!({"n": json!({"properties": {"v": {"type": "timestamp"}}, "optionalProperties": {"next": {"ref": "n"}}})}), json!({"ref": "n"})),
            expect: "N",
            kind: "type",
        },
    ]
}

fn check_rows(rows: &[Row], options: &Options) {
    let mut failures = Vec::new();
    for row in rows {
        let c = run_with(&row.old, &row.new, options);
        let mut got = String::new();
        for (letter, list) in [('N', &c.narrowed), ('W', &c.widened), ('U', &c.unknown)] {
            if !list.is_empty() {
                got.push(letter);
            }
        }
        let first = c.narrowed.first().or(c.widened.first()).or(c.unknown.first()).map_or("", |ch| ch.kind.as_str());
        let kind_ok = row.kind.is_empty() || c.narrowed.iter().chain(&c.widened).chain(&c.unknown).any(|ch| ch.kind == row.kind);
        if got != row.expect || !kind_ok {
            failures.push(format!("{}: expected {:?} ({}), got {:?} (first kind {first}): {:#?}", row.name, row.expect, row.kind, got, c));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_change_in_the_table_is_classified() {
    let rows = table();
    assert!(rows.len() >= 30, "{} rows", rows.len());
    check_rows(&rows, &Options::default());
}

#[test]
fn every_jtd_change_in_the_table_is_classified() {
    let rows = jtd_table();
    assert!(rows.len() >= 12, "{} rows", rows.len());
    check_rows(&rows, &jtd());
}

#[test]
fn jtd_pointers_are_schema_paths() {
    let old = r#"{"properties": {"name": {"type": "string"}}, "optionalProperties": {"x": {"type": "int8"}}}"#;
    let new = "{\n  \"properties\": {\"name\": {\"type\": \"string\"}, \"age\": {\"type\": \"uint8\"}},\n  \"optionalProperties\": {\"x\": {\"type\": \"int16\"}}\n}";
    let c = compare_texts(old, new, &jtd()).unwrap();
    let pointers = |list: &[output_contract::schema::compare::Change]| list.iter().map(|ch| ch.pointer.clone()).collect::<Vec<_>>();
    assert_eq!(pointers(&c.narrowed), ["/properties/age"], "{c:#?}");
    assert_eq!(pointers(&c.widened), ["/properties/age", "/optionalProperties/x/type"], "{c:#?}");
    assert_eq!(c.widened[1].range.unwrap().start.line, 3);
    assert!(c.unknown.is_empty());
    assert_eq!(c.needed, "major");
}

#[test]
fn jtd_versions_come_from_metadata_id() {
    let old = json!({"metadata": {"id": "https://x.test/ticket/1.0.0"}, "properties": {"a": {"type": "string"}}});
    let new = json!({"metadata": {"id": "https://x.test/ticket/1.1.0"}, "properties": {"a": {"type": "string"}}, "optionalProperties": {"b": {"type": "string"}}});
    let c = run_with(&old, &new, &jtd());
    let step = c.step.unwrap();
    assert_eq!((step.from.as_str(), step.to.as_str(), step.bump, step.allowed), ("1.0.0", "1.1.0", "minor", false));
}

#[test]
fn a_jtd_schema_against_a_json_schema_is_unknown() {
    let old = Contract::compile(&json!({"properties": {"a": {"type": "string"}}}), &jtd()).unwrap();
    let new = Contract::compile(&json!({"type": "object", "properties": {"a": {"type": "string"}}}), &Options::default()).unwrap();
    let c = compare(&old, &new);
    assert_eq!(c.unknown.len(), 1, "{c:#?}");
    assert_eq!(c.unknown[0].kind, "draft");
}

#[test]
fn pointers_name_the_place_in_the_new_schema_and_ranges_its_text() {
    let old = r#"{"type": "object", "properties": {"title": {"type": "string"}}}"#;
    let new = "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"title\": {\"type\": \"string\", \"maxLength\": 80}\n  },\n  \"required\": [\"title\"]\n}";
    let c = compare_texts(old, new, &Options::default()).unwrap();
    let pointers: Vec<&str> = c.narrowed.iter().map(|ch| ch.pointer.as_str()).collect();
    assert_eq!(pointers, ["/properties/title/maxLength", "/required"], "{c:#?}");
    let range = c.narrowed[0].range.unwrap();
    assert_eq!((range.start.line, range.start.column), (4, 33));
    assert_eq!(c.narrowed[0].message, "maxLength: at most 80 characters (was no limit)");
    assert_eq!(c.narrowed[1].range.unwrap().start.line, 6);
    assert!(c.widened.is_empty() && c.unknown.is_empty());
}

#[test]
fn a_schema_that_does_not_compile_is_named() {
    let err = compare_texts(r#"{"type": "string"}"#, r#"{"type": "string", "maxLenght": 3}"#, &Options::default()).unwrap_err();
    assert_eq!(err.0, "new");
}

#[test]
fn the_version_rule() {
    let narrowed = run(&json!({"type": "string"}), &json!({"type": "string", "maxLength": 3}));
    let widened = run(&json!({"type": "string", "maxLength": 3}), &json!({"type": "string"}));
    let unknown = run(&json!({"type": "string", "pattern": "a"}), &json!({"type": "string", "pattern": "b"}));
    let none = run(&json!({"type": "string"}), &json!({"type": "string", "title": "t"}));
    assert!(Bump::Patch.allows(&none));
    assert!(!Bump::Patch.allows(&narrowed));
    assert!(Bump::Minor.allows(&narrowed));
    assert!(!Bump::Minor.allows(&widened));
    assert!(!Bump::Minor.allows(&unknown));
    assert!(Bump::Major.allows(&widened) && Bump::Major.allows(&unknown));
}
