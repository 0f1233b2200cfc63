//! Merging, validated: every example of RFC 6902 (appendix A) and RFC 7396 (section 3 and
//! appendix A), conformance cases written from RFC 6902's rules, the limits, and
//! `Contract::validate_merged` / `merge_and_validate`.

// The library's own results carry a Violation (see src/lib.rs).
#![allow(clippy::result_large_err)]

use output_contract::agent::patch::{self, MergeInput, PatchFormat, PatchLimits};
use output_contract::{Contract, Options, OutputLimits};
use serde_json::{json, Value};

fn apply(base: Value, ops: Value) -> Result<Value, output_contract::Violation> {
    let before = base.clone();
    let out = patch::json_patch(&base, &ops, &PatchLimits::default());
    assert_eq!(base, before, "the base is never changed");
    out
}

fn ok(base: Value, ops: Value, expected: Value) {
    let got = apply(base, ops).unwrap();
    assert_eq!(got, expected);
    // Member order too: serde_json compares maps without it.
    assert_eq!(got.to_string(), expected.to_string());
}

fn fails(base: Value, ops: Value) -> output_contract::Violation {
    let v = apply(base, ops).unwrap_err();
    assert_eq!(v.keyword, "patch");
    assert!(v.is_retryable());
    v
}

// RFC 6902 appendix A.

#[test]
fn a01_adding_an_object_member() {
    ok(json!({"foo": "bar"}), json!([{"op": "add", "path": "/baz", "value": "qux"}]), json!({"foo": "bar", "baz": "qux"}));
}

#[test]
fn a02_adding_an_array_element() {
    ok(json!({"foo": ["bar", "baz"]}), json!([{"op": "add", "path": "/foo/1", "value": "qux"}]), json!({"foo": ["bar", "qux", "baz"]}));
}

#[test]
fn a03_removing_an_object_member() {
    ok(json!({"baz": "qux", "foo": "bar"}), json!([{"op": "remove", "path": "/baz"}]), json!({"foo": "bar"}));
}

#[test]
fn a04_removing_an_array_element() {
    ok(json!({"foo": ["bar", "qux", "baz"]}), json!([{"op": "remove", "path": "/foo/1"}]), json!({"foo": ["bar", "baz"]}));
}

#[test]
fn a05_replacing_a_value() {
    ok(
        json!({"baz": "qux", "foo": "bar"}),
        json!([{"op": "replace", "path": "/baz", "value": "boo"}]),
        json!({"baz": "boo", "foo": "bar"}),
    );
}

#[test]
fn a06_moving_a_value() {
    ok(
        json!({"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}),
        json!([{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]),
        json!({"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}),
    );
}

#[test]
fn a07_moving_an_array_element() {
    ok(
        json!({"foo": ["all", "grass", "cows", "eat"]}),
        json!([{"op": "move", "from": "/foo/1", "path": "/foo/3"}]),
        json!({"foo": ["all", "cows", "eat", "grass"]}),
    );
}

#[test]
fn a08_testing_a_value_success() {
    let doc = json!({"baz": "qux", "foo": ["a", 2, "c"]});
    ok(doc.clone(), json!([{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}]), doc);
}

#[test]
fn a09_testing_a_value_error() {
    let v = fails(json!({"baz": "qux"}), json!([{"op": "test", "path": "/baz", "value": "bar"}]));
    assert_eq!(v.pointer, "/baz");
    assert_eq!(v.path, "$.baz");
    assert_eq!(v.message, "patch operation 0 (test '/baz'): the value is not equal to the test's 'value'");
}

#[test]
fn a10_adding_a_nested_member_object() {
    ok(
        json!({"foo": "bar"}),
        json!([{"op": "add", "path": "/child", "value": {"grandchild": {}}}]),
        json!({"foo": "bar", "child": {"grandchild": {}}}),
    );
}

#[test]
fn a11_ignoring_unrecognized_elements() {
    ok(json!({"foo": "bar"}), json!([{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}]), json!({"foo": "bar", "baz": "qux"}));
}

#[test]
fn a12_adding_to_a_nonexistent_target() {
    let v = fails(json!({"foo": "bar"}), json!([{"op": "add", "path": "/baz/bat", "value": "qux"}]));
    assert_eq!(v.pointer, "/baz/bat");
    assert!(v.message.starts_with("patch operation 0 (add '/baz/bat'): "), "{}", v.message);
}

#[test]
fn a13_invalid_json_patch_document() {
    // Only text can hold the repeated `op`: a value has one of them.
    let contract = Contract::compile(&json!({}), &Options::default()).unwrap();
    let text = r#"[{ "op": "add", "path": "/baz", "value": "qux", "op": "remove" }]"#;
    let merged = contract.merge_and_validate(MergeInput::Value(&json!({"foo": "bar"})), MergeInput::Text(text), PatchFormat::JsonPatch);
    assert!(!merged.applied);
    let e = merged.result.unwrap_err();
    assert_eq!(e.violations.len(), 1);
    assert_eq!(e.violations[0].keyword, "patch");
    assert_eq!(e.violations[0].message, "patch operation 0: member 'op' appears more than once");
    assert!(e.retryable);
}

#[test]
fn a14_tilde_escape_ordering() {
    let doc = json!({"/": 9, "~1": 10});
    ok(doc.clone(), json!([{"op": "test", "path": "/~01", "value": 10}]), doc);
}

#[test]
fn a15_comparing_strings_and_numbers() {
    let v = fails(json!({"/": 9, "~1": 10}), json!([{"op": "test", "path": "/~01", "value": "10"}]));
    assert_eq!(v.pointer, "/~01");
}

#[test]
fn a16_adding_an_array_value() {
    ok(json!({"foo": ["bar"]}), json!([{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]), json!({"foo": ["bar", ["abc", "def"]]}));
}

// Conformance cases from RFC 6902 section 4 and RFC 6901.

#[test]
fn whole_document_operations() {
    ok(json!({"a": 1}), json!([{"op": "replace", "path": "", "value": [1]}]), json!([1]));
    ok(json!({"a": 1}), json!([{"op": "add", "path": "", "value": "x"}]), json!("x"));
    ok(json!({"a": 1}), json!([{"op": "test", "path": "", "value": {"a": 1.0}}]), json!({"a": 1}));
    ok(json!({"a": {"b": 1}}), json!([{"op": "copy", "from": "/a", "path": ""}]), json!({"b": 1}));
    fails(json!({"a": 1}), json!([{"op": "remove", "path": ""}]));
    ok(json!({}), json!([]), json!({}));
}

#[test]
fn member_order_is_kept() {
    ok(json!({"a": 1, "b": 2, "c": 3}), json!([{"op": "remove", "path": "/a"}]), json!({"b": 2, "c": 3}));
    ok(json!({"a": 1, "b": 2, "c": 3}), json!([{"op": "replace", "path": "/a", "value": 0}]), json!({"a": 0, "b": 2, "c": 3}));
    ok(json!({"a": 1, "b": 2}), json!([{"op": "add", "path": "/a", "value": 5}]), json!({"a": 5, "b": 2}));
}

#[test]
fn array_indexes() {
    ok(json!([1, 2]), json!([{"op": "add", "path": "/2", "value": 3}]), json!([1, 2, 3]));
    ok(json!([1, 2]), json!([{"op": "add", "path": "/0", "value": 0}]), json!([0, 1, 2]));
    let v = fails(json!([1, 2]), json!([{"op": "add", "path": "/3", "value": 3}]));
    assert_eq!(v.message, "patch operation 0 (add '/3'): '3' is not an index of an array of 2 items");
    fails(json!([1, 2]), json!([{"op": "add", "path": "/01", "value": 3}]));
    fails(json!([1, 2]), json!([{"op": "replace", "path": "/-", "value": 3}]));
    fails(json!([1, 2]), json!([{"op": "remove", "path": "/2"}]));
    fails(json!([1, 2]), json!([{"op": "replace", "path": "/+1", "value": 3}]));
    ok(json!({"0": "x"}), json!([{"op": "replace", "path": "/0", "value": "y"}]), json!({"0": "y"}));
    ok(json!({"-": 1}), json!([{"op": "remove", "path": "/-"}]), json!({}));
}

#[test]
fn pointers() {
    ok(json!({"a/b": 1, "m~n": 2, "": 3}), json!([{"op": "remove", "path": "/a~1b"}, {"op": "remove", "path": "/m~0n"}, {"op": "replace", "path": "/", "value": 4}]), json!({"": 4}));
    let v = fails(json!({"a": 1}), json!([{"op": "remove", "path": "a"}]));
    assert_eq!(v.message, "patch operation 0 (remove 'a'): 'path' is not a JSON Pointer");
    assert_eq!(v.pointer, "");
    fails(json!({"a~2": 1}), json!([{"op": "remove", "path": "/a~2"}]));
    fails(json!({"a": 1}), json!([{"op": "move", "from": "a", "path": "/b"}]));
}

#[test]
fn malformed_operations() {
    let cases = [
        (json!(["add"]), "patch operation 0: an operation is an object"),
        (json!([{"path": "/a"}]), "patch operation 0 ('/a'): 'op' is missing"),
        (json!([{"op": 1, "path": "/a"}]), "patch operation 0 ('/a'): 'op' is not a string"),
        (json!([{"op": "add", "value": 1}]), "patch operation 0 (add): 'path' is missing"),
        (json!([{"op": "add", "path": 1, "value": 1}]), "patch operation 0 (add): 'path' is not a string"),
        (json!([{"op": "add", "path": "/a"}]), "patch operation 0 (add '/a'): 'value' is missing"),
        (json!([{"op": "test", "path": "/a"}]), "patch operation 0 (test '/a'): 'value' is missing"),
        (json!([{"op": "copy", "path": "/a"}]), "patch operation 0 (copy '/a'): 'from' is missing"),
        (json!([{"op": "move", "path": "/a", "from": 3}]), "patch operation 0 (move '/a'): 'from' is not a string"),
        (json!([{"op": "merge", "path": "/a"}]), "patch operation 0 (merge '/a'): 'merge' is not one of 'add', 'remove', 'replace', 'move', 'copy', 'test'"),
    ];
    for (ops, message) in cases {
        let v = fails(json!({"a": 1}), ops.clone());
        assert_eq!(v.message, message, "{ops}");
    }
    let v = fails(json!({"a": 1}), json!({"op": "add"}));
    assert_eq!(v.message, "patch cannot be applied: a JSON Patch is an array of operations");
    // `value: null` is a value.
    ok(json!({"a": 1}), json!([{"op": "replace", "path": "/a", "value": null}]), json!({"a": null}));
}

#[test]
fn the_failing_operation_is_named_and_nothing_applies() {
    let v = fails(
        json!({"a": 1, "b": [1]}),
        json!([{"op": "replace", "path": "/a", "value": 2}, {"op": "remove", "path": "/b/5"}, {"op": "remove", "path": "/a"}]),
    );
    assert_eq!(v.message, "patch operation 1 (remove '/b/5'): '5' is not an index of an array of 1 item");
    assert_eq!(v.path, "$.b[5]");
    assert_eq!(v.received, json!({"op": "remove", "path": "/b/5"}));
}

#[test]
fn move_and_copy() {
    let v = fails(json!({"a": {"b": 1}}), json!([{"op": "move", "from": "/a", "path": "/a/c"}]));
    assert_eq!(v.message, "patch operation 0 (move '/a/c'): a value cannot be moved into itself");
    ok(json!({"a": {"b": 1}}), json!([{"op": "move", "from": "/a", "path": "/a"}]), json!({"a": {"b": 1}}));
    ok(json!({"a": 1, "ab": 2}), json!([{"op": "move", "from": "/a", "path": "/ab"}]), json!({"ab": 1}));
    let v = fails(json!({"a": 1}), json!([{"op": "move", "from": "/x", "path": "/y"}]));
    assert_eq!(v.message, "patch operation 0 (move '/y'): the location 'from' names does not exist");
    fails(json!({"a": 1}), json!([{"op": "copy", "from": "/x", "path": "/y"}]));
    ok(json!({"a": [1, 2]}), json!([{"op": "copy", "from": "/a", "path": "/b"}, {"op": "add", "path": "/b/-", "value": 3}]), json!({"a": [1, 2], "b": [1, 2, 3]}));
    ok(json!([1, 2, 3]), json!([{"op": "move", "from": "/0", "path": "/-"}]), json!([2, 3, 1]));
}

#[test]
fn test_compares_values_not_spellings() {
    let doc = json!({"n": 1, "f": 1.5, "o": {"x": 1, "y": [true, null]}, "big": 18446744073709551615u64});
    ok(doc.clone(), json!([{"op": "test", "path": "/n", "value": 1.0}]), doc.clone());
    ok(doc.clone(), json!([{"op": "test", "path": "/o", "value": {"y": [true, null], "x": 1.0}}]), doc.clone());
    ok(doc.clone(), json!([{"op": "test", "path": "/big", "value": 18446744073709551615u64}]), doc.clone());
    fails(doc.clone(), json!([{"op": "test", "path": "/o", "value": {"x": 1}}]));
    fails(doc.clone(), json!([{"op": "test", "path": "/o/y", "value": [true]}]));
    fails(doc.clone(), json!([{"op": "test", "path": "/f", "value": 1}]));
    fails(doc, json!([{"op": "test", "path": "/missing", "value": null}]));
}

#[test]
fn limits() {
    let limits = PatchLimits { output: OutputLimits { max_output_bytes: 1000, max_depth: 5 }, max_operations: 3 };
    let four = json!([{"op": "test", "path": "", "value": 1}, {"op": "test", "path": "", "value": 1}, {"op": "test", "path": "", "value": 1}, {"op": "test", "path": "", "value": 1}]);
    let v = patch::json_patch(&json!(1), &four, &limits).unwrap_err();
    assert_eq!(v.keyword, "patch");
    assert_eq!(v.message, "patch cannot be applied: the patch has 4 operations, more than the limit of 3");
    // Copies that double the document stop at the size limit.
    let limits = PatchLimits { output: OutputLimits { max_output_bytes: 1000, max_depth: 64 }, max_operations: 100 };
    let doubling: Vec<Value> = (0..20).map(|_| json!({"op": "copy", "from": "/a", "path": "/a/-"})).collect();
    let v = patch::json_patch(&json!({"a": ["0123456789"]}), &Value::Array(doubling), &limits);
    let copies: Vec<Value> = (0..20).map(|_| json!({"op": "copy", "from": "", "path": "/x"})).collect();
    assert_eq!(v.unwrap_err().keyword, "maxOutputBytes");
    let v = patch::json_patch(&json!({"x": 1}), &Value::Array(copies), &limits).unwrap_err();
    assert!(matches!(v.keyword.as_str(), "maxOutputBytes" | "maxDepth"), "{v:?}");
    assert!(!v.is_retryable());
    // Depth.
    let limits = PatchLimits { output: OutputLimits { max_output_bytes: 1000, max_depth: 3 }, max_operations: 100 };
    let v = patch::json_patch(&json!({"a": {}}), &json!([{"op": "add", "path": "/a/b", "value": [[1]]}]), &limits).unwrap_err();
    assert_eq!(v.keyword, "maxDepth");
    patch::json_patch(&json!({"a": {}}), &json!([{"op": "add", "path": "/a/b", "value": [1]}]), &limits).unwrap();
    // A merge patch's result is held to the size limit.
    let limits = PatchLimits { output: OutputLimits { max_output_bytes: 20, max_depth: 3 }, max_operations: 100 };
    let v = patch::apply(&json!({"a": "0123456789"}), &json!({"b": "0123456789"}), PatchFormat::MergePatch, &limits).unwrap_err();
    assert_eq!(v.keyword, "maxOutputBytes");
}

// RFC 7396.

fn merge(target: Value, patch_value: Value, expected: Value) {
    let before = target.clone();
    let got = patch::merge_patch(&target, &patch_value);
    assert_eq!(target, before);
    assert_eq!(got, expected, "{target} + {patch_value}");
}

#[test]
fn rfc7396_section_3_example() {
    let target = json!({
        "title": "Goodbye!",
        "author": {"givenName": "John", "familyName": "Doe"},
        "tags": ["example", "sample"],
        "content": "This will be unchanged"
    });
    let patch_value = json!({
        "title": "Hello!",
        "phoneNumber": "+01-123-456-7890",
        "author": {"familyName": null},
        "tags": ["example"]
    });
    let expected = json!({
        "title": "Hello!",
        "author": {"givenName": "John"},
        "tags": ["example"],
        "content": "This will be unchanged",
        "phoneNumber": "+01-123-456-7890"
    });
    merge(target.clone(), patch_value.clone(), expected.clone());
    assert_eq!(patch::merge_patch(&target, &patch_value).to_string(), expected.to_string());
}

#[test]
fn rfc7396_appendix_a() {
    let table = [
        (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
        (json!({"a": "b"}), json!({"b": "c"}), json!({"a": "b", "b": "c"})),
        (json!({"a": "b"}), json!({"a": null}), json!({})),
        (json!({"a": "b", "b": "c"}), json!({"a": null}), json!({"b": "c"})),
        (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
        (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
        (json!({"a": {"b": "c"}}), json!({"a": {"b": "d", "c": null}}), json!({"a": {"b": "d"}})),
        (json!({"a": [{"b": "c"}]}), json!({"a": [1]}), json!({"a": [1]})),
        (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
        (json!({"a": "b"}), json!(["c"]), json!(["c"])),
        (json!({"a": "foo"}), json!(null), json!(null)),
        (json!({"a": "foo"}), json!("bar"), json!("bar")),
        (json!({"e": null}), json!({"a": 1}), json!({"e": null, "a": 1})),
        (json!([1, 2]), json!({"a": "b", "c": null}), json!({"a": "b"})),
        (json!({}), json!({"a": {"bb": {"ccc": null}}}), json!({"a": {"bb": {}}})),
    ];
    for (target, patch_value, expected) in table {
        merge(target, patch_value, expected);
    }
}

// Contract::validate_merged.

fn review_contract() -> Contract {
    let schema = json!({
        "type": "object",
        "required": ["severity", "line"],
        "properties": {
            "severity": {"enum": ["low", "medium", "high"]},
            "line": {"type": "integer"},
            "notes": {"type": "array", "items": {"type": "string"}}
        },
        "additionalProperties": false
    });
    Contract::compile(&schema, &Options::default()).unwrap()
}

#[test]
fn validate_merged_returns_the_merged_document() {
    let c = review_contract();
    let base = json!({"severity": "critical", "line": "12"});
    let fix = json!([{"op": "replace", "path": "/severity", "value": "high"}, {"op": "replace", "path": "/line", "value": 12}]);
    assert_eq!(c.validate_merged(&base, &fix, PatchFormat::JsonPatch).unwrap(), json!({"severity": "high", "line": 12}));
    assert_eq!(base, json!({"severity": "critical", "line": "12"}));
    let merged = c.validate_merged(&base, &json!({"severity": "low", "line": 3}), PatchFormat::MergePatch).unwrap();
    assert_eq!(merged, json!({"severity": "low", "line": 3}));
}

#[test]
fn validate_merged_reports_the_merged_documents_violations() {
    let c = review_contract();
    let base = json!({"severity": "critical", "line": "12"});
    // Each part is fine alone; merged, the line is still a string.
    let fix = json!([{"op": "replace", "path": "/severity", "value": "high"}, {"op": "add", "path": "/notes", "value": [1]}]);
    let e = c.validate_merged(&base, &fix, PatchFormat::JsonPatch).unwrap_err();
    let got: Vec<(&str, &str)> = e.violations.iter().map(|v| (v.keyword.as_str(), v.pointer.as_str())).collect();
    assert_eq!(got, [("type", "/line"), ("type", "/notes/0")]);
    assert!(e.retryable);
    assert_eq!(e.raw_output, r#"{"severity":"high","line":"12","notes":[1]}"#);
    let merged = c.merge_and_validate(MergeInput::Value(&base), MergeInput::Value(&fix), PatchFormat::JsonPatch);
    assert!(merged.applied);
}

#[test]
fn validate_merged_reports_a_patch_that_does_not_apply() {
    let c = review_contract();
    let base = json!({"severity": "critical", "line": 1});
    let e = c.validate_merged(&base, &json!([{"op": "replace", "path": "/sev", "value": "high"}]), PatchFormat::JsonPatch).unwrap_err();
    assert_eq!(e.violations.len(), 1);
    let v = &e.violations[0];
    assert_eq!((v.keyword.as_str(), v.pointer.as_str(), v.path.as_str()), ("patch", "/sev", "$.sev"));
    assert_eq!(v.message, "patch operation 0 (replace '/sev'): the location does not exist");
    assert!(e.retryable);
}

#[test]
fn merge_and_validate_reads_text() {
    let c = review_contract();
    let base = r#"{"severity": "critical", "line": 4}"#;
    let reply = "Here is the fix:\n```json\n[{\"op\": \"replace\", \"path\": \"/severity\", \"value\": \"low\"}]\n```";
    let merged = c.merge_and_validate(MergeInput::Text(base), MergeInput::Extract(reply), PatchFormat::JsonPatch);
    assert!(merged.applied);
    assert_eq!(merged.result.unwrap(), json!({"severity": "low", "line": 4}));
    // Without extraction the prose is not JSON.
    let merged = c.merge_and_validate(MergeInput::Text(base), MergeInput::Text(reply), PatchFormat::JsonPatch);
    assert!(!merged.applied);
    assert_eq!(merged.result.unwrap_err().violations[0].keyword, "json");
    // A base that is not JSON.
    let merged = c.merge_and_validate(MergeInput::Text("{\"a\":"), MergeInput::Text("[]"), PatchFormat::JsonPatch);
    assert_eq!(merged.result.unwrap_err().violations[0].keyword, "truncated");
    // A base with a repeated name.
    let merged = c.merge_and_validate(MergeInput::Text(r#"{"line": 1, "line": 2}"#), MergeInput::Text("[]"), PatchFormat::JsonPatch);
    assert_eq!(merged.result.unwrap_err().violations[0].keyword, "duplicateKey");
}

#[test]
fn inputs_are_held_to_the_contracts_limits() {
    let options = Options { limits: OutputLimits { max_output_bytes: 64, max_depth: 4 }, ..Options::default() };
    let c = Contract::compile(&json!({}), &options).unwrap();
    let deep = json!({"a": {"b": {"c": {"d": {"e": 1}}}}});
    let e = c.validate_merged(&deep, &json!([]), PatchFormat::JsonPatch).unwrap_err();
    assert_eq!(e.violations[0].keyword, "maxDepth");
    let e = c.validate_merged(&json!({}), &json!({"a": "x".repeat(100)}), PatchFormat::MergePatch).unwrap_err();
    assert_eq!(e.violations[0].keyword, "maxOutputBytes");
    assert!(!e.retryable);
    assert_eq!(PatchFormat::from_name("merge-patch"), Some(PatchFormat::MergePatch));
    assert_eq!(PatchFormat::from_name("json-patch").map(PatchFormat::name), Some("json-patch"));
    assert_eq!(PatchFormat::from_name("diff"), None);
}

// The stream machine's patch attempts (what enforce's `retry: 'patch'` does, natively).

#[test]
fn a_stream_attempt_can_be_a_patch_to_the_answer_before() {
    use output_contract::{OutputStream, StopReason, StreamOptions, StreamOutcome};
    let c = review_contract();
    let mut stream = OutputStream::new(&c, StreamOptions { extract: true, max_retries: 2, ..StreamOptions::default() });
    let first = r#"{"severity": "critical", "line": "12"}"#;
    assert!(matches!(stream.finish_text(StopReason::Stop, None, first, false, false), StreamOutcome::Retry { .. }));
    let base = json!({"severity": "critical", "line": "12"});
    // A fix that leaves one violation: retried, with the merged document as the next base.
    let (outcome, merged, applied) = stream.finish_patch(StopReason::Stop, None, &base, r#"[{"op": "replace", "path": "/severity", "value": "high"}]"#, PatchFormat::JsonPatch);
    assert!(applied);
    let StreamOutcome::Retry { violations, .. } = outcome else { panic!("{outcome:?}") };
    assert_eq!(violations.iter().map(|v| v.pointer.as_str()).collect::<Vec<_>>(), ["/line"]);
    let merged = merged.unwrap();
    assert_eq!(merged, json!({"severity": "high", "line": "12"}));
    let (outcome, _, _) = stream.finish_patch(StopReason::Stop, None, &merged, "```json\n[{\"op\": \"replace\", \"path\": \"/line\", \"value\": 12}]\n```", PatchFormat::JsonPatch);
    assert_eq!(outcome, StreamOutcome::Valid { valid: true, data: json!({"severity": "high", "line": 12}), attempt: 3 });
}

#[test]
fn a_patch_that_does_not_apply_counts_as_a_failed_attempt() {
    use output_contract::{OutputStream, StopReason, StreamOptions, StreamOutcome};
    let c = review_contract();
    let mut stream = OutputStream::new(&c, StreamOptions { extract: true, max_retries: 1, ..StreamOptions::default() });
    stream.finish_text(StopReason::Stop, None, r#"{"severity": "critical", "line": 1}"#, false, false);
    let base = json!({"severity": "critical", "line": 1});
    let (outcome, merged, applied) = stream.finish_patch(StopReason::Stop, None, &base, r#"[{"op": "remove", "path": "/x"}]"#, PatchFormat::JsonPatch);
    assert!(!applied && merged.is_none());
    let StreamOutcome::Failed { error, attempts, .. } = outcome else { panic!("{outcome:?}") };
    assert_eq!((attempts, error.violations[0].keyword.as_str(), error.retryable), (2, "patch", false));
    // The same through `merge` and `finish_failed`, as the package does it.
    let mut stream = OutputStream::new(&c, StreamOptions { extract: true, max_retries: 1, ..StreamOptions::default() });
    stream.finish_text(StopReason::Stop, None, r#"{"severity": "critical", "line": 1}"#, false, false);
    let (violations, raw) = patch::merge(MergeInput::Value(&base), MergeInput::Text(r#"[{"op": "remove", "path": "/x"}]"#), PatchFormat::JsonPatch, OutputLimits::default()).unwrap_err();
    let StreamOutcome::Failed { error: again, .. } = stream.finish_failed(violations, &raw) else { panic!() };
    assert_eq!(again, error);
    // A refusal is the machine's, not read as a patch.
    let mut stream = OutputStream::new(&c, StreamOptions::default());
    let (outcome, _, _) = stream.finish_patch(StopReason::Refusal, Some("no"), &base, "[]", PatchFormat::JsonPatch);
    assert!(matches!(outcome, StreamOutcome::Refused { .. }));
}
