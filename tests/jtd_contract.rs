//! A JTD contract works as a JSON Schema one does: streamed (early violations, sound on the
//! whole official suite), extracted from prose, enforced through tool definitions, and refused
//! with reasons when its schema breaks RFC 8927's rules.

use output_contract::agent::tool::{submit_result_tool_in, ChangeKind, Provider};
use output_contract::{Contract, Draft, Options, OutputStream, StopReason, StreamOptions, StreamOutcome};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;

fn jtd(schema: &Value) -> Contract {
    Contract::compile(schema, &Options { draft: Some(Draft::Jtd), ..Options::default() }).unwrap()
}

fn early(contract: &Contract, text: &str) -> Vec<(String, String, String)> {
    let mut stream = OutputStream::new(contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
    let mut seen = Vec::new();
    for b in text.as_bytes() {
        let status = stream.push(std::slice::from_ref(b));
        for v in status.early_violations {
            let key = (v.pointer.clone(), v.schema_path.clone(), v.keyword.clone());
            if !seen.contains(&key) {
                seen.push(key);
            }
        }
    }
    seen
}

fn finish(contract: &Contract, text: &str) -> BTreeSet<(String, String)> {
    let mut stream = OutputStream::new(contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
    stream.push(text.as_bytes());
    match stream.finish(StopReason::Stop, None) {
        StreamOutcome::Valid { .. } => BTreeSet::new(),
        StreamOutcome::Failed { error, .. } => error.violations.into_iter().map(|v| (v.pointer, v.schema_path)).collect(),
        other => panic!("{other:?}"),
    }
}

fn pointer(tokens: &Value) -> String {
    tokens.as_array().unwrap().iter().map(|t| format!("/{}", t.as_str().unwrap().replace('~', "~0").replace('/', "~1"))).collect()
}

/// Every case of the official suite streamed a byte at a time: a valid output reports nothing
/// early, an invalid one reports early only violations the final validation reports too, and
/// the stream's final verdict is the suite's.
#[test]
fn streaming_the_suite_is_sound() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/jtd-test-suite/validation.json");
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut failures = Vec::new();
    let mut early_total = 0;
    for (name, case) in cases.as_object().unwrap() {
        let contract = jtd(&case["schema"]);
        let text = serde_json::to_string(&case["instance"]).unwrap();
        let expected: BTreeSet<(String, String)> =
            case["errors"].as_array().unwrap().iter().map(|e| (pointer(&e["instancePath"]), pointer(&e["schemaPath"]))).collect();
        let found = early(&contract, &text);
        early_total += found.len();
        for (p, s, k) in &found {
            if !expected.contains(&(p.clone(), s.clone())) {
                failures.push(format!("{name}: early {k} at ({p}, {s}) is not among {expected:?}"));
            }
        }
        let final_errors = finish(&contract, &text);
        if final_errors != expected {
            failures.push(format!("{name}: streamed verdict {final_errors:?}, expected {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(early_total > 100, "only {early_total} early violations over the suite");
}

#[test]
fn early_violations_come_at_the_byte_that_decides_them() {
    let contract = jtd(&json!({
        "definitions": {"level": {"enum": ["low", "medium", "high"]}},
        "properties": {
            "severity": {"ref": "level"},
            "count": {"type": "uint8"},
            "tags": {"elements": {"type": "string"}},
            "event": {"discriminator": "kind", "mapping": {"click": {"properties": {"x": {"type": "int32"}}}}}
        },
        "optionalProperties": {"note": {"type": "string", "nullable": true}}
    }));
    // An enum prefix no value starts with, reached through a ref: at the definition's path.
    assert_eq!(early(&contract, r#"{"severity": "cri"#), [("/severity".to_string(), "/definitions/level/enum".to_string(), "enum".to_string())]);
    // A wrong type, before the value is complete.
    assert_eq!(early(&contract, r#"{"count": "x"#), [("/count".to_string(), "/properties/count/type".to_string(), "type".to_string())]);
    assert_eq!(early(&contract, r#"{"tags": {"#), [("/tags".to_string(), "/properties/tags/elements".to_string(), "elements".to_string())]);
    assert_eq!(early(&contract, r#"{"tags": ["a", 1"#), [("/tags/1".to_string(), "/properties/tags/elements/type".to_string(), "type".to_string())]);
    assert_eq!(early(&contract, r#"{"note": 5"#), [("/note".to_string(), "/optionalProperties/note/type".to_string(), "type".to_string())]);
    assert!(early(&contract, r#"{"note": null"#).is_empty());
    // An unknown property, at its key.
    assert_eq!(early(&contract, r#"{"colour""#), [("/colour".to_string(), "".to_string(), "additionalProperties".to_string())]);
    // A discriminator's tag: not a string, or a value the mapping does not have.
    assert_eq!(early(&contract, r#"{"event": {"kind": 1"#), [("/event/kind".to_string(), "/properties/event/discriminator".to_string(), "discriminator".to_string())]);
    assert_eq!(early(&contract, r#"{"event": {"kind": "sc"#), [("/event/kind".to_string(), "/properties/event/mapping".to_string(), "mapping".to_string())]);
    assert!(early(&contract, r#"{"event": {"kind": "cli"#).is_empty());
}

#[test]
fn violations_read_like_json_schema_ones() {
    let contract = jtd(&json!({"properties": {"n": {"type": "int8"}, "at": {"type": "timestamp"}}, "optionalProperties": {"e": {"enum": ["a"]}}}));
    let v = contract.violations(&json!({"n": 300, "at": "yesterday", "e": "b", "x": 1}));
    let lines: Vec<String> = v.iter().map(|v| format!("{} {} {} {}", v.pointer, v.schema_path, v.keyword, v.message)).collect();
    assert_eq!(
        lines,
        [
            "/n /properties/n/type type 300 is not of type 'int8'",
            "/at /properties/at/type type 'yesterday' is not of type 'timestamp'",
            "/e /optionalProperties/e/enum enum 'b' is not one of ['a']",
            "/x  additionalProperties Additional properties are not allowed ('x' was unexpected)",
        ]
    );
    let missing = contract.violations(&json!({"at": "2020-02-29T12:00:00Z"}));
    assert_eq!(missing[0].message, "'n' is a required property");
    assert_eq!((missing[0].pointer.as_str(), missing[0].schema_path.as_str(), missing[0].keyword.as_str()), ("", "/properties/n", "properties"));
    // Leap seconds, as RFC 3339 allows them.
    assert!(contract.violations(&json!({"n": -128, "at": "1990-12-31T23:59:60Z"})).is_empty());
    assert!(contract.violations(&json!({"n": 127.0, "at": "1985-04-12T23:20:50.52+01:00"})).is_empty());
}

#[test]
fn extraction_finds_the_json_in_prose() {
    let contract = jtd(&json!({"properties": {"ok": {"type": "boolean"}}}));
    let (extraction, result) = contract.extract_and_validate("Here it is:\n```json\n{\"ok\": true}\n```\nDone.", false);
    assert_eq!(result.unwrap(), json!({"ok": true}));
    assert!(extraction.value.is_some());
    let (_, result) = contract.extract_and_validate("Sure! {\"ok\": \"yes\"}", false);
    let error = result.unwrap_err();
    assert_eq!(error.violations[0].schema_path, "/properties/ok/type");
}

#[test]
fn tool_definitions_send_the_json_schema_form() {
    let schema = json!({"properties": {"n": {"type": "uint16"}, "at": {"type": "timestamp"}}, "optionalProperties": {"note": {"type": "string"}}});
    let def = submit_result_tool_in(&schema, Draft::Jtd, Provider::OpenAi, None, None);
    let parameters = &def.tool["function"]["parameters"];
    assert_eq!(parameters["properties"]["n"], json!({"type": "integer", "minimum": 0, "maximum": 65535}));
    assert_eq!(parameters["properties"]["at"], json!({"type": "string", "format": "date-time"}));
    assert_eq!(parameters["additionalProperties"], json!(false));
    let from_jtd: Vec<&str> = def.changes.iter().filter(|c| c.kind == ChangeKind::FromJtd).map(|c| c.pointer.as_str()).collect();
    assert_eq!(from_jtd, ["/properties/n/type", "/properties/at/type"]);
    // OpenAI's strict mode makes the optional property required and nullable: a null sent for it
    // is read as absent when validated against the JTD schema.
    assert!(def.validate_options.null_as_absent);
    let contract = jtd(&schema);
    let args = json!({"n": 1, "at": "2020-01-01T00:00:00Z", "note": null});
    assert!(output_contract::agent::tool::validate_tool_call(&contract, &args, def.validate_options).is_ok());
    assert_eq!(contract.json_schema()["properties"]["n"]["maximum"], json!(65535));
}

#[test]
fn nulls_read_as_absent_follow_the_jtd_forms() {
    use output_contract::agent::tool::{strip_absent_nulls, validate_tool_call, ToolCallOptions};
    let schema = json!({
        "definitions": {"point": {"properties": {"x": {"type": "float64"}}, "optionalProperties": {"label": {"type": "string"}}}},
        "properties": {"at": {"ref": "point", "nullable": true}, "tags": {"elements": {"optionalProperties": {"t": {"type": "string"}}}}},
        "optionalProperties": {
            "note": {"type": "string"},
            "maybe": {"type": "string", "nullable": true},
            "by": {"values": {"optionalProperties": {"w": {"type": "uint8"}}}},
            "shape": {"discriminator": "kind", "mapping": {"circle": {"optionalProperties": {"r": {"type": "float64"}}}, "square": {"properties": {"side": {"type": "float64"}}}}}
        }
    });
    let contract = jtd(&schema);
    let options = ToolCallOptions { null_as_absent: true };
    // Through a nullable `ref`, `elements`, `values` and the mapped schema of a discriminator;
    // a nullable optional property keeps its null.
    let args = json!({"at": {"x": 1, "label": null}, "tags": [{"t": null}], "note": null, "maybe": null, "by": {"k": {"w": null}}, "shape": {"kind": "circle", "r": null}});
    let expected = json!({"at": {"x": 1}, "tags": [{}], "maybe": null, "by": {"k": {}}, "shape": {"kind": "circle"}});
    let mut stripped = args.clone();
    assert!(strip_absent_nulls(&contract, &mut stripped));
    assert_eq!(stripped, expected);
    assert_eq!(validate_tool_call(&contract, &args, options).unwrap(), expected);
    // A required property's null stays: accepted where it is nullable, a violation elsewhere.
    let e = validate_tool_call(&contract, &json!({"at": null, "tags": null}), options).unwrap_err();
    assert_eq!(e.violations.iter().map(|v| v.pointer.as_str()).collect::<Vec<_>>(), ["/tags"]);
    // Streamed, the same arguments.
    let text = args.to_string();
    for size in [1, 5, text.len()] {
        let mut stream = OutputStream::new(&contract, StreamOptions { max_retries: 0, null_as_absent: true, ..StreamOptions::default() });
        for chunk in text.as_bytes().chunks(size) {
            assert!(stream.push(chunk).early_violations.is_empty());
        }
        match stream.finish(StopReason::ToolUse, None) {
            StreamOutcome::Valid { data, .. } => assert_eq!(data, expected),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn invalid_schemas_say_why_and_where() {
    let options = Options { draft: Some(Draft::Jtd), ..Options::default() };
    let e = Contract::compile(&json!({"properties": {"a": {"type": "strng"}}, "optionalProperties": {"a": {}}}), &options).unwrap_err();
    let issues: Vec<(&str, &str)> = e.issues.iter().map(|i| (i.pointer.as_str(), i.message.as_str())).collect();
    assert_eq!(issues.len(), 2, "{issues:?}");
    assert_eq!(issues[0].0, "/properties/a/type");
    assert!(issues[0].1.contains("must be one of boolean, string, timestamp"), "{}", issues[0].1);
    assert_eq!(issues[1], ("/optionalProperties/a", "\"a\" is in both 'properties' and 'optionalProperties'"));
    // A `$schema` is no JTD keyword: the draft option decides, and the keyword is refused.
    let e = Contract::compile(&json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}), &options).unwrap_err();
    assert_eq!(e.issues[0].pointer, "/$schema");
}
