//! The extraction table (tests/corpus/extract.json, shared with the JS tests): realistic model
//! answers and what `extract_json` must make of each.

use output_contract::check::extract::{extract_json, ExtractOptions, Offsets};
use output_contract::{Contract, Options};
use serde_json::{json, Value};

fn table() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/extract.json")).unwrap();
    serde_json::from_str::<Vec<Value>>(&text).unwrap()
}

#[test]
fn every_case_of_the_table() {
    let cases = table();
    assert!(cases.len() >= 40);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let text = case["text"].as_str().unwrap();
        let options = ExtractOptions { repair: case["repair"] == json!(true), ..Default::default() };
        let got = extract_json(text, &options);
        let expect = &case["expect"];
        assert_eq!(got.found(), expect["found"] == json!(true), "{name}: {got:?}");
        let out = got.to_json(text, Offsets::Bytes);
        if got.found() {
            assert_eq!(out["value"], expect["value"], "{name}");
            assert!(out["error"].is_null(), "{name}");
            if got.repairs.is_empty() {
                assert_eq!(&text[got.start..got.end], got.json.as_deref().unwrap(), "{name}: json is the span");
            }
            // What was skipped and the value cover the text exactly.
            let mut covered = 0;
            for s in &got.skipped {
                covered += s.end - s.start;
            }
            assert_eq!(covered + got.end - got.start, text.len(), "{name}: skipped + value = text");
        } else {
            assert_eq!(out["error"]["kind"], expect["error"], "{name}: {out}");
            assert!(out["value"].is_null() && out["json"].is_null(), "{name}");
        }
        for key in ["fence", "candidates"] {
            if !expect[key].is_null() {
                assert_eq!(out[key], expect[key], "{name}: {key}");
            }
        }
        if let Some(kinds) = expect["repairs"].as_array() {
            let got_kinds: Vec<Value> = got.repairs.iter().map(|r| json!(r.kind)).collect();
            assert_eq!(&got_kinds, kinds, "{name}: repairs");
        }
    }
}

#[test]
fn repairs_point_at_what_they_changed() {
    let text = "x {\"a\": [1,], // note\n \"b\": \"l1\nl2\"}";
    let got = extract_json(text, &ExtractOptions { repair: true, ..Default::default() });
    assert_eq!(got.value, Some(json!({"a": [1], "b": "l1\nl2"})));
    let spans: Vec<&str> = got.repairs.iter().map(|r| &text[r.start..r.end]).collect();
    assert_eq!(spans, vec![",", "// note", "\n"]);
    assert_eq!(got.json.as_deref(), Some("{\"a\": [1], \n \"b\": \"l1\\nl2\"}"));
}

#[test]
fn errors_say_where() {
    let text = "Answer:\n{\"a\": 1,\n \"b\": tru}";
    let got = extract_json(text, &ExtractOptions::default());
    let e = got.error.unwrap();
    assert_eq!(e.message, "invalid JSON at line 3, column 10: invalid literal: expected 'true'");
    assert_eq!(&text[e.offset..e.offset + 1], "}");
    assert_eq!(e.violation().keyword, "json");

    let got = extract_json("Here:\n```json\n{\"a\": [1", &ExtractOptions::default());
    let e = got.error.unwrap();
    assert_eq!(e.message, "output ends before the JSON value is complete (line 3, column 8)");
    assert_eq!(e.violation().keyword, "truncated");
    assert_eq!(e.violation().received, json!("{\"a\": [1"));
}

#[test]
fn offsets_in_utf16_for_javascript() {
    let text = "😀 é {\"a\": 1}";
    let got = extract_json(text, &ExtractOptions::default());
    let out = got.to_json(text, Offsets::Utf16);
    assert_eq!(out["start"], json!(5));
    assert_eq!(out["end"], json!(13));
    assert_eq!(out["skipped"], json!([{"start": 0, "end": 5, "place": "before"}]));
}

#[test]
fn adversarial_text_is_linear_and_bounded() {
    // Many unclosed openers and many prose braces: answered, not hung.
    let text = "{".repeat(200_000) + &"{x} ".repeat(50_000) + "[\"a\"";
    let got = extract_json(&text, &ExtractOptions::default());
    assert!(!got.found());
    let text = "[".repeat(1_000_000);
    let got = extract_json(&text, &ExtractOptions { limits: output_contract::OutputLimits { max_output_bytes: 2 << 20, max_depth: 128 }, ..Default::default() });
    assert!(!got.found());
}

#[test]
fn validate_text_with_extraction() {
    let schema = json!({"type": "object", "properties": {"approved": {"type": "boolean"}}, "required": ["approved"]});
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    let (ex, result) = contract.extract_and_validate("Sure:\n```json\n{\"approved\": true}\n```", false);
    assert_eq!(result.unwrap(), json!({"approved": true}));
    assert_eq!(ex.fence.as_deref(), Some("json"));

    let (_, result) = contract.extract_and_validate("I cannot do that.", false);
    let e = result.unwrap_err();
    assert_eq!(e.violations[0].message, "No JSON output found but output_schema requires structured output");
    assert_eq!(e.raw_output, "I cannot do that.");
    assert!(e.retryable);

    let (_, result) = contract.extract_and_validate("```json\n{\"approved\": \"yes\"}\n```", false);
    let e = result.unwrap_err();
    assert_eq!(e.lines(), vec!["$.approved: 'yes' is not of type 'boolean'"]);

    let (ex, result) = contract.extract_and_validate("{\"approved\": true,}", true);
    assert!(result.is_ok());
    assert_eq!(ex.repairs.len(), 1);
}

#[test]
fn broken_json_in_a_fence_or_after_prose_is_reported_where_it_breaks() {
    // JSON written with single quotes (a Python dict) is the answer's JSON, broken: a `json`
    // violation at its line and column within the answer, not "no JSON".
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    for (text, at) in [
        ("```json\n{'name':'x'}\n```", "line 2, column 2"),
        ("Here it is: {'name':'x'}", "line 1, column 14"),
        ("Sure.\n\n```\n{'name':'x'}\n```", "line 4, column 2"),
    ] {
        let (_, result) = contract.extract_and_validate(text, false);
        let v = &result.unwrap_err().violations[0];
        assert_eq!(v.keyword, "json", "{text}");
        assert!(v.message.starts_with(&format!("invalid JSON at {at}: ")), "{text}: {}", v.message);
    }
    // Prose in braces is still passed over.
    let (_, result) = contract.extract_and_validate("Fill {name} in: {\"name\": \"x\"}", false);
    assert_eq!(result.unwrap(), json!({"name": "x"}));
    let (_, result) = contract.extract_and_validate("No {name} given.", false);
    assert_eq!(result.unwrap_err().violations[0].message, "No JSON output found but output_schema requires structured output");
}
