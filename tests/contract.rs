//! The Rust API: canonical errors, compile options, the cache, limits.

use output_contract::schema::contract::DEFAULT_MAX_SCHEMA_BYTES;
use output_contract::{Contract, ContractCache, Draft, Options, SchemaErrorKind};
use serde_json::{json, Value};

fn pr_reviewer() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/pr-reviewer/blueprint.json")).unwrap();
    let blueprint: Value = serde_json::from_str(&text).unwrap();
    blueprint["output_schema"].clone()
}

#[test]
fn pr_reviewer_canonical_error_has_its_documented_shape() {
    let options = Options { agent_id: Some("pr-reviewer".into()), schema_id: Some("pr-reviewer/output.v1".into()), ..Options::default() };
    let contract = Contract::compile(&pr_reviewer(), &options).unwrap();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/pr-reviewer/invalid-output.txt")).unwrap();
    let error = contract.validate_text(&text).unwrap_err();
    let value = serde_json::to_value(&error).unwrap();
    let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["error", "schema_id", "agent_id", "violations", "raw_output", "retryable"]);
    assert_eq!(value["error"], "output_validation_failed");
    assert_eq!(value["retryable"], true);
    assert_eq!(value["violations"][1], json!({
        "path": "$.comments[0].line",
        "keyword": "type",
        "expected": "integer",
        "received": "42",
        "message": "'42' is not of type 'integer'",
        "pointer": "/comments/0/line",
        "schema_path": "/properties/comments/items/properties/line/type"
    }));
    assert_eq!(error.lines(), vec![
        "$.approval: 'approved' is not one of ['approve', 'request_changes', 'comment']",
        "$.comments[0].line: '42' is not of type 'integer'",
        "$.comments[0].severity: 'critical' is not one of ['nitpick', 'suggestion', 'concern', 'blocker']",
        "$.comments[1]: 'line' is a required property",
        "$.comments[1]: 'message' is a required property",
        "$.metrics.complexity_score: 11 is greater than maximum 10",
    ]);
    let envelope = output_contract::failure_envelope(&error, Some("run_abc123"), 1);
    assert_eq!(envelope["error"]["message"], "Output did not match schema after 1 retry");
    assert_eq!(envelope["status"], "failed");
    // The text that crosses to JavaScript (written by hand for speed) is serde_json's, with an
    // agent id, and with a branch below.
    assert_eq!(error.to_json_text(), serde_json::to_string(&error).unwrap());
    let union = Contract::compile(&json!({"anyOf": [{"type": "integer"}, {"required": ["a"], "properties": {"a": {"const": "x\n"}}}]}), &options).unwrap();
    let error = union.validate_text(r#"{"a": "é\u0001"}"#).unwrap_err();
    assert!(error.violations[0].branch.is_some());
    assert_eq!(error.to_json_text(), serde_json::to_string(&error).unwrap());
}

#[test]
fn valid_output_returns_the_data() {
    let contract = Contract::compile(&pr_reviewer(), &Options::default()).unwrap();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/pr-reviewer/valid-output.json")).unwrap();
    let data = contract.validate_text(&text).unwrap();
    assert_eq!(data["approval"], "request_changes");
    // Key order of the output is kept.
    let keys: Vec<&String> = data.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["summary", "approval", "comments", "metrics"]);
}

#[test]
fn schema_errors_are_typed() {
    let err = Contract::compile_text("{\n \"type\": }", &Options::default()).unwrap_err();
    assert_eq!(err.kind, SchemaErrorKind::InvalidJson);
    assert_eq!((err.issues[0].line, err.issues[0].column), (Some(2), Some(10)));

    let err = Contract::compile(&json!({"type": "object", "requried": ["a"]}), &Options::default()).unwrap_err();
    assert_eq!(err.kind, SchemaErrorKind::UnknownKeyword);
    assert!(err.message.contains("did you mean 'required'"), "{}", err.message);

    let err = Contract::compile(&json!({"$ref": "http://example.com/s.json"}), &Options::default()).unwrap_err();
    assert_eq!(err.kind, SchemaErrorKind::UnresolvableRef);
    assert_eq!(err.issues[0].uri.as_deref(), Some("http://example.com/s.json"));
    assert_eq!(err.issues[0].pointer, "/$ref");
    // The $ref is found where it is, not reported at the root.
    let schema = json!({"$id": "https://example.com/schemas/a/1.0.0", "properties": {"x": {"items": [{"$ref": "other.json"}]}, "y": {"$ref": "#/$defs/nope"}}});
    let err = Contract::compile(&schema, &Options { strict: false, ..Options::default() }).unwrap_err();
    assert_eq!(err.issues[0].pointer, "/properties/x/items/0/$ref", "{}", err.message);
    let schema = json!({"properties": {"y": {"$ref": "#/$defs/nope"}}});
    let err = Contract::compile(&schema, &Options::default()).unwrap_err();
    assert_eq!(err.issues[0].pointer, "/properties/y/$ref", "{}", err.message);

    let deep = (0..300).fold(json!({}), |acc, _| json!({"items": acc}));
    let err = Contract::compile(&deep, &Options::default()).unwrap_err();
    assert_eq!(err.kind, SchemaErrorKind::LimitExceeded);

    let big = format!("{{\"description\": \"{}\"}}", "x".repeat(DEFAULT_MAX_SCHEMA_BYTES));
    assert_eq!(Contract::compile_text(&big, &Options::default()).unwrap_err().kind, SchemaErrorKind::LimitExceeded);
}

/// A configuration-file schema as published ones are written: `count` definitions of objects with
/// typed, patterned and enumerated fields, each one referring to the previous, all reachable from
/// the root's properties.
fn configuration_schema(count: usize) -> String {
    let definitions: Vec<String> = (0..count)
        .map(|i| {
            format!(
                r##""Resource{i}": {{"type": "object", "description": "Resource {i}: a block of settings with typed fields.", "properties": {{
                    "Name": {{"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[A-Za-z][A-Za-z0-9_-]*$"}},
                    "Kind": {{"enum": ["alpha", "beta", "gamma", "delta"]}},
                    "Count": {{"type": "integer", "minimum": 0, "maximum": 1000}},
                    "Tags": {{"type": "array", "uniqueItems": true, "items": {{"type": "object", "required": ["Key"], "properties": {{"Key": {{"type": "string"}}, "Value": {{"type": "string"}}}}}}}},
                    "Endpoint": {{"type": "string", "format": "uri"}},
                    "Previous": {{"$ref": "#/definitions/Resource{}"}}
                }}, "required": ["Name", "Kind"], "additionalProperties": false}}"##,
                i.saturating_sub(1)
            )
        })
        .collect();
    let properties: Vec<String> = (0..count).map(|i| format!(r##""resource{i}": {{"$ref": "#/definitions/Resource{i}"}}"##)).collect();
    format!(
        r#"{{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "definitions": {{{}}}, "properties": {{{}}}, "additionalProperties": false}}"#,
        definitions.join(",\n"),
        properties.join(",\n")
    )
}

#[test]
fn schemas_of_several_megabytes_compile_by_default() {
    let text = configuration_schema(2600);
    assert!((2_000_000..3_000_000).contains(&text.len()), "{} bytes", text.len());
    let contract = Contract::compile_text(&text, &Options::default()).unwrap();
    assert!(contract.validate(&json!({"resource7": {"Name": "db", "Kind": "beta", "Previous": {"Name": "x", "Kind": "alpha"}}})).is_ok());
    let violations = contract.violations(&json!({"resource2599": {"Name": "9db", "Kind": "omega", "Previous": {"Kind": "alpha"}}}));
    let keywords: Vec<&str> = violations.iter().map(|v| v.keyword.as_str()).collect();
    assert_eq!(keywords.len(), 3, "{keywords:?}");
    // The limit is kept, and still refuses before parsing: a smaller one refuses this schema.
    let options = Options { max_schema_bytes: 1024 * 1024, ..Options::default() };
    let err = Contract::compile_text(&text, &options).unwrap_err();
    assert_eq!(err.kind, SchemaErrorKind::LimitExceeded);
    assert!(err.message.contains(&format!("more than the limit of {} bytes", 1024 * 1024)), "{}", err.message);
}

#[test]
fn resources_serve_refs_and_nothing_is_fetched() {
    let mut options = Options::default();
    options.resources.insert("https://schemas.example/item.json".into(), json!({"type": "object", "required": ["id"]}));
    let schema = json!({"type": "array", "items": {"$ref": "https://schemas.example/item.json"}});
    let contract = Contract::compile(&schema, &options).unwrap();
    let violations = contract.violations(&json!([{"id": 1}, {}]));
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].path, "$[1]");
    assert_eq!(violations[0].schema_path, "/items/$ref/required");
}

#[test]
fn draft_detection() {
    let c = Contract::compile(&json!({"$schema": "https://json-schema.org/draft/2019-09/schema"}), &Options { draft: Some(Draft::Draft4), ..Options::default() }).unwrap();
    assert_eq!(c.draft(), Draft::Draft201909);
    assert_eq!(Contract::compile(&json!({}), &Options::default()).unwrap().draft(), Draft::Draft7);
}

#[test]
fn the_cache_hits_on_the_same_schema_and_replaces_a_changed_one() {
    let mut cache = ContractCache::new(2);
    let options = Options::default();
    let a = json!({"$id": "urn:a", "type": "string"});
    cache.compile(&a, &options).unwrap();
    cache.compile(&a, &options).unwrap();
    assert_eq!((cache.stats().hits, cache.stats().misses), (1, 1));
    let a2 = json!({"$id": "urn:a", "type": "integer"});
    let c = cache.compile(&a2, &options).unwrap();
    assert_eq!(cache.stats().entries, 1);
    assert!(c.is_valid(&json!(1)));
    cache.compile(&json!({"$id": "urn:b"}), &options).unwrap();
    cache.compile(&json!({"$id": "urn:c"}), &options).unwrap();
    assert_eq!(cache.stats().entries, 2);
    assert!(cache.get("urn:a").is_none());
}

#[test]
fn any_of_reports_the_closest_branch() {
    let schema = json!({"anyOf": [{"type": "string"}, {"type": "object", "properties": {"n": {"minimum": 1}}}]});
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    let v = contract.violations(&json!({"n": 0}));
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].path, "$.n");
    assert_eq!(v[0].keyword, "minimum");
    let branch = v[0].branch.as_ref().unwrap();
    assert_eq!((branch.keyword.as_str(), branch.index, branch.count), ("anyOf", 1, 2));
}

#[test]
fn received_values_are_truncated() {
    let contract = Contract::compile(&json!({"maxLength": 3}), &Options::default()).unwrap();
    let v = contract.violations(&json!("y".repeat(1000)));
    let received = v[0].received.as_str().unwrap();
    assert!(received.ends_with("…[truncated 744 bytes]"), "{received}");
    assert!(v[0].message.len() < 200);
}

#[test]
fn validate_hands_back_the_data() {
    let contract = Contract::compile(&json!({"type": "object", "required": ["a"]}), &Options::default()).unwrap();
    let value = json!({"a": 1});
    assert_eq!(contract.validate(&value).unwrap(), &value);
    let error = contract.validate(&json!({})).unwrap_err();
    assert_eq!(error.raw_output, "{}");
    assert_eq!(error.violations[0].keyword, "required");
}

/// Messages a model can act on: one violation listing what a disjunction of values accepts, a
/// pattern as the schema writes it, sizes named by their count.
#[test]
fn messages_name_what_is_accepted_and_never_paste_large_values() {
    let message = |schema: Value, value: Value| {
        let contract = Contract::compile(&schema, &Options::default()).unwrap();
        let e = contract.validate(&value).unwrap_err();
        assert_eq!(e.violations.len(), 1, "{:?}", e.violations);
        let v = e.violations.into_iter().next().unwrap();
        (v.keyword, v.schema_path, v.expected, v.message)
    };
    assert_eq!(
        message(json!({"anyOf": [{"const": 1}, {"const": 2}, {"type": "null"}]}), json!(3)),
        ("anyOf".into(), "/anyOf".into(), json!({"enum": [1, 2], "type": ["null"]}), "3 is not one of [1, 2] and not of type 'null'".into())
    );
    assert_eq!(message(json!({"enum": [1, 2, null]}), json!(3)).3, "3 is not one of [1, 2, null]");
    assert_eq!(
        message(json!({"anyOf": [{"const": 1}, {"enum": [2]}, {"const": null}]}), json!(3)),
        ("anyOf".into(), "/anyOf".into(), json!([1, 2, null]), "3 is not one of [1, 2, null]".into())
    );
    assert_eq!(
        message(json!({"oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]}), json!("m")),
        ("oneOf".into(), "/oneOf".into(), json!(["s", "l"]), "'m' is not one of ['s', 'l']".into())
    );
    assert_eq!(message(json!({"anyOf": [{"type": "string"}, {"type": "null"}]}), json!(3)).3, "3 is not of type 'string', 'null'");
    // A branch that failed on more than its value or type: its closest branch speaks, as before.
    assert_eq!(message(json!({"anyOf": [{"type": "string", "minLength": 3}, {"const": 1}]}), json!("ab")).0, "minLength");
    // The pattern as written, between slashes.
    assert_eq!(message(json!({"pattern": "^\\d+\\.\\d+$"}), json!("v1")).3, "'v1' does not match /^\\d+\\.\\d+$/");
    // Sizes by their count.
    let big = json!([{"id": "step-0", "kind": "http"}, {"a": 1}, {"b": 2}]);
    assert_eq!(message(json!({"maxItems": 2}), big.clone()).3, "an array of 3 items has more than 2");
    assert_eq!(message(json!({"minItems": 2}), json!([1])).3, "an array of 1 item has fewer than 2");
    assert_eq!(message(json!({"maxLength": 3}), json!("abcdef")).3, "a string of 6 characters is longer than 3");
    assert_eq!(message(json!({"minLength": 2}), json!("é")).3, "a string of 1 character is shorter than 2");
    assert_eq!(message(json!({"maxProperties": 1}), json!({"a": 1, "b": 2})).3, "an object with 2 properties has more than 1");
    assert_eq!(message(json!({"minProperties": 2}), json!({"a": 1})).3, "an object with 1 property has fewer than 2");
    assert_eq!(message(json!({"uniqueItems": true}), json!([1, 2, 1])).3, "an array of 3 items has non-unique elements");
    assert_eq!(message(json!({"items": [{}], "additionalItems": false}), json!([1, 2, 3])).3, "an array of 3 items has more than 1 (additional items are not allowed)");
    let v202012 = |mut s: Value| {
        s["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        s
    };
    assert_eq!(message(json!({"contains": {"const": 1}}), json!([2, 3])).3, "an array of 2 items has 0 items matching the 'contains' schema, fewer than 1");
    assert_eq!(message(v202012(json!({"contains": {"const": 1}, "minContains": 2})), json!([1, 3])).3, "an array of 2 items has 1 item matching the 'contains' schema, fewer than 2");
    assert_eq!(message(v202012(json!({"contains": {"const": 1}, "maxContains": 1})), json!([1, 1, 1])).3, "an array of 3 items has 3 items matching the 'contains' schema, more than 1");
    // A large array or object is named by its size wherever a message would quote it.
    let long: Value = (0..40).map(|i| json!({"i": i})).collect();
    assert_eq!(message(json!({"type": "string"}), long).3, "an array of 40 items is not of type 'string'");
    assert_eq!(message(json!({"type": "string"}), json!([1, 2])).3, "[1, 2] is not of type 'string'");
}
