//! Prompts (the exact default texts), submit_result tool definitions, tool-call validation and
//! the output-schema configuration checks.

use output_contract::agent::config::{check_output_schema_config, ConfigCode};
use output_contract::agent::prompt::{enrich_system_prompt, retry_prompt, retry_prompt_with, tool_feedback, Templates, DEFAULT_TOOL};
use output_contract::agent::tool::{strip_absent_nulls, DEFAULT_NAME, submit_result_tool, validate_tool_call, validate_tool_call_text, ChangeKind, Provider, ToolCallOptions};
use output_contract::{Contract, Options, Violation};
use serde_json::{json, Value};

fn corpus() -> Value {
    serde_json::from_str(include_str!("corpus/prompts.json")).unwrap()
}

fn violations(v: &Value) -> Vec<Violation> {
    serde_json::from_value(v.clone()).unwrap()
}

#[test]
fn prompts_are_the_default_texts() {
    let c = corpus();
    for case in c["enrich"].as_array().unwrap() {
        let got = enrich_system_prompt(case["systemPrompt"].as_str().unwrap(), &case["schema"], &Templates::default());
        assert_eq!(got, case["expected"].as_str().unwrap(), "enrich {}", case["systemPrompt"]);
    }
    for case in c["retry"].as_array().unwrap() {
        assert_eq!(retry_prompt(&violations(&case["violations"]), &case["schema"]), case["expected"].as_str().unwrap());
    }
    for case in c["toolFeedback"].as_array().unwrap() {
        // The default texts name `task_output` where they give no tool.
        let tool = case["tool"].as_str().unwrap_or("task_output");
        assert_eq!(tool_feedback(&violations(&case["violations"]), tool, &Templates::default()), case["expected"].as_str().unwrap());
    }
}

#[test]
fn tool_feedback_names_the_tool_submit_result_tool_defines() {
    assert_eq!(DEFAULT_TOOL, DEFAULT_NAME);
    let def = submit_result_tool(&json!({"type": "object"}), Provider::Generic, None, None);
    assert_eq!(def.tool["name"], DEFAULT_TOOL);
    let v = vec![Violation::of_output("json", json!(null), json!(null), "m".into())];
    assert!(tool_feedback(&v, DEFAULT_TOOL, &Templates::default()).ends_with("call `submit_result` again."));
    assert!(tool_feedback(&v, "record_review", &Templates::default()).ends_with("call `record_review` again."));
}

#[test]
fn templates_override_and_fill_once() {
    let t = Templates { retry: "Fix: {errors}".into(), retry_line: "[{keyword}] {path}".into(), ..Templates::default() };
    let v = vec![Violation::of_output("json", json!(null), json!(null), "m".into())];
    assert_eq!(retry_prompt_with(&v, &json!({}), &t), "Fix: [json] $");
    let t = Templates { output_format: "\n\nSchema: {schema} {unknown}".into(), ..Templates::default() };
    assert_eq!(enrich_system_prompt("S", &json!({"a": "{schema}"}), &t), "S\n\nSchema: {\n  \"a\": \"{schema}\"\n} {unknown}");
}

fn pr_reviewer() -> Value {
    json!({
        "type": "object",
        "properties": {
            "summary": {"type": "string", "minLength": 10, "maxLength": 2000},
            "approval": {"type": "string", "enum": ["approve", "request_changes", "comment"]},
            "risk": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "url": {"type": "string", "format": "uri"},
            "when": {"type": "string", "format": "date-time"},
            "comments": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"file": {"type": "string"}, "line": {"type": "integer", "minimum": 1}},
                    "required": ["file"]
                },
                "uniqueItems": true
            }
        },
        "required": ["summary", "approval"]
    })
}

fn kinds_at(changes: &[output_contract::agent::tool::Change], pointer: &str) -> Vec<ChangeKind> {
    changes.iter().filter(|c| c.pointer == pointer).map(|c| c.kind).collect()
}

#[test]
fn openai_strict_normalisation() {
    let def = submit_result_tool(&pr_reviewer(), Provider::OpenAi, None, None);
    let f = &def.tool["function"];
    assert_eq!(def.tool["type"], "function");
    assert_eq!(f["name"], "submit_result");
    assert_eq!(f["description"], "Submit final results. You MUST call this tool!");
    assert_eq!(f["strict"], true);
    let p = &f["parameters"];
    // Every object closed, every property required, optionals nullable.
    assert_eq!(p["additionalProperties"], false);
    assert_eq!(p["required"], json!(["summary", "approval", "risk", "url", "when", "comments"]));
    assert_eq!(p["properties"]["when"]["type"], json!(["string", "null"]));
    assert_eq!(p["properties"]["comments"]["type"], json!(["array", "null"]));
    assert_eq!(p["properties"]["risk"], json!({"anyOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}]}, {"type": "null"}]}));
    let item = &p["properties"]["comments"]["items"];
    assert_eq!(item["additionalProperties"], false);
    assert_eq!(item["required"], json!(["file", "line"]));
    assert_eq!(item["properties"]["line"], json!({"type": ["integer", "null"], "minimum": 1}));
    // Unsupported keywords and formats removed, each reported.
    assert!(p["properties"]["summary"].get("minLength").is_none());
    assert!(p["properties"]["url"].get("format").is_none());
    assert_eq!(p["properties"]["when"]["format"], "date-time");
    let c = &def.changes;
    assert_eq!(kinds_at(c, "/properties/summary/minLength"), vec![ChangeKind::DroppedKeyword]);
    assert_eq!(kinds_at(c, "/properties/url/format"), vec![ChangeKind::DroppedFormat]);
    assert_eq!(kinds_at(c, "/properties/risk/oneOf"), vec![ChangeKind::OneOfToAnyOf]);
    assert_eq!(kinds_at(c, "/properties/comments/uniqueItems"), vec![ChangeKind::DroppedKeyword]);
    assert_eq!(kinds_at(c, "/properties/comments/items/properties/line"), vec![ChangeKind::MadeNullable]);
    assert_eq!(kinds_at(c, ""), vec![ChangeKind::ClosedObject]);
    assert!(kinds_at(c, "/properties/summary").is_empty(), "required properties stay as they are");
    assert!(def.validate_options.null_as_absent);
    // The original schema is untouched.
    assert_eq!(pr_reviewer()["properties"]["summary"]["minLength"], 10);
}

#[test]
fn openai_rejections_and_all_of() {
    let def = submit_result_tool(&json!({"type": "array"}), Provider::OpenAi, None, None);
    assert_eq!(kinds_at(&def.changes, ""), vec![ChangeKind::Rejected]);

    let many: serde_json::Map<String, Value> = (0..1001).map(|i| (format!("v{i}"), json!(i))).collect();
    let values: Vec<Value> = many.keys().map(|k| json!(k)).collect();
    let def = submit_result_tool(&json!({"type": "object", "properties": {"e": {"enum": values}}, "required": ["e"]}), Provider::OpenAi, None, None);
    assert_eq!(kinds_at(&def.changes, "/properties/e/enum"), vec![ChangeKind::Rejected]);

    let mut deep = json!({"type": "string"});
    for _ in 0..12 {
        deep = json!({"type": "object", "properties": {"x": deep}, "required": ["x"], "additionalProperties": false});
    }
    let def = submit_result_tool(&deep, Provider::OpenAi, None, None);
    assert!(def.changes.iter().any(|c| c.kind == ChangeKind::Rejected && c.message.contains("10 levels")));

    let merged = submit_result_tool(
        &json!({"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}, {"properties": {"b": {"type": "number"}}}], "properties": {}, "required": []}),
        Provider::OpenAi,
        Some("report"),
        Some("Report."),
    );
    let p = &merged.tool["function"]["parameters"];
    assert_eq!(p["required"], json!(["a", "b"]));
    assert_eq!(p["properties"]["b"]["type"], json!(["number", "null"]));
    assert_eq!(merged.tool["function"]["name"], "report");
    assert_eq!(kinds_at(&merged.changes, "/allOf"), vec![ChangeKind::MergedAllOf]);
}

#[test]
fn anthropic_and_generic_shapes_keep_the_schema() {
    let schema = pr_reviewer();
    let a = submit_result_tool(&schema, Provider::Anthropic, None, None);
    assert_eq!(a.tool, json!({"name": "submit_result", "description": "Submit final results. You MUST call this tool!", "input_schema": schema}));
    assert!(a.changes.is_empty());
    let g = submit_result_tool(&schema, Provider::Generic, Some("task_output"), Some("d"));
    assert_eq!(g.tool, json!({"name": "task_output", "description": "d", "parameters": schema}));
}

#[test]
fn tool_calls_validate_against_the_original_schema() {
    let schema = pr_reviewer();
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    let opts = ToolCallOptions { null_as_absent: true };
    // What a strict-mode model sends: every property, nulls for the optional ones.
    let args = json!({"summary": "Looks fine overall.", "approval": "approve", "risk": null, "url": null, "when": null,
                      "comments": [{"file": "a.rs", "line": null}]});
    let data = validate_tool_call(&contract, &args, opts).unwrap();
    assert_eq!(data, json!({"summary": "Looks fine overall.", "approval": "approve", "comments": [{"file": "a.rs"}]}));
    // Without the option, the nulls are violations.
    let e = validate_tool_call(&contract, &args, ToolCallOptions::default()).unwrap_err();
    let paths: Vec<&str> = e.violations.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, vec!["$.risk", "$.url", "$.when", "$.comments[0].line"]);
    // A null for a required property stays a violation; the original's minLength still holds.
    let e = validate_tool_call_text(&contract, r#"{"summary": "short", "approval": null}"#, opts).unwrap_err();
    assert_eq!(e.lines(), vec![
        "$.summary: a string of 5 characters is shorter than 10".to_string(),
        "$.approval: null is not one of ['approve', 'request_changes', 'comment']".to_string(),
        "$.approval: null is not of type 'string'".to_string(),
    ]);
    assert_eq!(e.raw_output, r#"{"summary": "short", "approval": null}"#);
    let e = validate_tool_call_text(&contract, r#"{"summary": "#, opts).unwrap_err();
    assert_eq!(e.violations[0].keyword, "truncated");
    let e = validate_tool_call_text(&contract, r#"{"summary" 1}"#, opts).unwrap_err();
    assert_eq!(e.violations[0].keyword, "json");
    // Nullable optionals keep their null.
    let nullable = json!({"type": "object", "properties": {"n": {"type": ["string", "null"]}}});
    assert_eq!(stripped(&nullable, json!({"n": null})), (json!({"n": null}), false));
    // Through local $refs.
    let refd = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/X"}}, "$defs": {"X": {"type": "object", "properties": {"y": {"type": "string"}}}}});
    assert_eq!(stripped(&refd, json!({"x": {"y": null}})), (json!({"x": {}}), true));
}

/// `args` with the nulls read as absent removed by `schema`'s contract, and whether any was.
fn stripped(schema: &Value, mut args: Value) -> (Value, bool) {
    let contract = Contract::compile(schema, &Options::default()).unwrap();
    let removed = strip_absent_nulls(&contract, &mut args);
    (args, removed)
}

#[test]
fn nulls_read_as_absent_follow_the_compiled_schema() {
    let schema = json!({
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "string"},
            "o": {"type": "object", "properties": {"p": {"type": "string"}, "q": {"type": "integer"}}, "required": ["q"]},
            "list": {"type": "array", "items": {"type": "object", "properties": {"z": {"type": "boolean"}}}},
            "tuple": {"type": "array", "prefixItems": [{"type": "object", "properties": {"t": {"type": "string"}}}]},
            "u": {"anyOf": [{"type": "object", "properties": {"k": {"type": "string"}}}, {"type": "integer"}]},
            "all": {"allOf": [{"properties": {"a1": {"type": "string"}}}, {"properties": {"a2": {"type": "string"}}}]}
        },
        "additionalProperties": {"type": "object", "properties": {"w": {"type": "number"}}}
    });
    // A required property's null stays, and so does a member no `properties` names.
    assert_eq!(stripped(&schema, json!({"id": null, "o": {"q": null, "extra": null}})), (json!({"id": null, "o": {"q": null, "extra": null}}), false));
    assert_eq!(
        stripped(&schema, json!({"id": "x", "o": {"p": null, "q": 1}, "list": [{"z": null}, {"z": true}], "tuple": [{"t": null}],
                                 "u": {"k": null}, "all": {"a1": null, "a2": null}, "more": {"w": null}})),
        (json!({"id": "x", "o": {"q": 1}, "list": [{}, {"z": true}], "tuple": [{}], "u": {}, "all": {}, "more": {}}), true)
    );
    // Members under `patternProperties` are not the additional ones.
    let patterned = json!({"patternProperties": {"^x-": {}}, "additionalProperties": {"properties": {"w": {"type": "number"}}}});
    assert_eq!(stripped(&patterned, json!({"x-a": {"w": null}, "b": {"w": null}})), (json!({"x-a": {"w": null}, "b": {}}), true));
    // A cycle of references ends.
    let cyclic = json!({"$ref": "#/$defs/n", "$defs": {"n": {"anyOf": [{"$ref": "#/$defs/n"}, {"properties": {"next": {"$ref": "#/$defs/n"}, "v": {"type": "string"}}}]}}});
    assert_eq!(stripped(&cyclic, json!({"next": {"next": {"v": null}}, "v": null})), (json!({"next": {"next": {}}}), true));
}

#[test]
fn whether_a_property_accepts_null_is_the_validators_judgement() {
    let args = json!({"v": null});
    // Nulls its schema accepts stay, however it accepts them: through a reference, with no
    // `type` at all, through `not` or `allOf`.
    for accepts in [
        json!({"$ref": "#/$defs/maybe"}),
        json!({"description": "anything"}),
        json!({"not": {"type": "string"}}),
        json!({"allOf": [{"type": ["string", "null"]}, {"maxLength": 3}]}),
    ] {
        let schema = json!({"properties": {"v": accepts}, "$defs": {"maybe": {"type": ["string", "null"]}}});
        assert_eq!(stripped(&schema, args.clone()), (args.clone(), false), "{schema}");
        let contract = Contract::compile(&schema, &Options::default()).unwrap();
        assert_eq!(validate_tool_call(&contract, &args, ToolCallOptions { null_as_absent: true }).unwrap(), args);
    }
    // Nulls it rejects go, even where `null` is written in it: listed in an `enum` its type
    // rules out, or accepted by two branches of a `oneOf`. The arguments are then valid.
    for rejects in [json!({"type": "string", "enum": [null, "a"]}), json!({"oneOf": [{"type": "null"}, {"enum": [null]}]})] {
        let schema = json!({"properties": {"v": rejects}});
        assert_eq!(stripped(&schema, args.clone()), (json!({}), true), "{schema}");
        let contract = Contract::compile(&schema, &Options::default()).unwrap();
        assert_eq!(validate_tool_call(&contract, &args, ToolCallOptions { null_as_absent: true }).unwrap(), json!({}));
    }
}

#[test]
fn output_schema_config_checks() {
    let ok = check_output_schema_config(&pr_reviewer(), &Options::default());
    assert!(ok.is_empty(), "{ok:?}");
    let codes = |s: Value| check_output_schema_config(&s, &Options::default()).iter().map(|d| d.code).collect::<Vec<_>>();
    assert_eq!(codes(json!({"type": "array"})), vec![ConfigCode::RootNotObject, ConfigCode::NoProperties]);
    assert_eq!(codes(json!({"type": "object"})), vec![ConfigCode::NoProperties]);
    let bad = check_output_schema_config(&json!({"type": "object", "properties": {"a": {"type": "strng"}}}), &Options::default());
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].code, ConfigCode::InvalidSchema);
    assert_eq!(bad[0].issues[0].pointer, "/properties/a/type");
}

#[test]
fn tool_call_arguments_streamed_as_deltas() {
    use output_contract::agent::stream::{OutputStream, StopReason, StreamOptions, StreamOutcome};
    let contract = Contract::compile(&pr_reviewer(), &Options::default()).unwrap();
    let options = StreamOptions { max_retries: 0, null_as_absent: true, ..StreamOptions::default() };
    let args = r#"{"summary": "Looks fine overall.", "approval": "approve", "risk": null, "url": null, "when": null, "comments": [{"file": "a.rs", "line": null}]}"#;
    for size in [1, 3, 16] {
        let mut s = OutputStream::new(&contract, options);
        for chunk in args.as_bytes().chunks(size) {
            let status = s.push(chunk);
            assert!(status.early_violations.is_empty(), "strict-mode nulls are not violations: {:?}", status.early_violations);
        }
        match s.finish(StopReason::ToolUse, None) {
            StreamOutcome::Valid { data, .. } => {
                assert_eq!(data, json!({"summary": "Looks fine overall.", "approval": "approve", "comments": [{"file": "a.rs"}]}))
            }
            other => panic!("{other:?}"),
        }
    }
    // What no removal of nulls repairs is still reported while streaming.
    let mut s = OutputStream::new(&contract, options);
    let status = s.push(br#"{"approval": "maybe", "summary": null"#);
    assert_eq!(status.early_violations.iter().map(|v| v.path.as_str()).collect::<Vec<_>>(), vec!["$.approval"]);
    s.push(b"}");
    match s.finish(StopReason::ToolUse, None) {
        StreamOutcome::Failed { error, .. } => {
            let paths: Vec<&str> = error.violations.iter().map(|v| v.path.as_str()).collect();
            assert_eq!(paths, vec!["$.approval", "$.summary"], "a required property's null stays a violation");
        }
        other => panic!("{other:?}"),
    }
}
