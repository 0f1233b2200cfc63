//! The adversarial catalogue (tests/corpus/adversarial.json) through the Rust API: every case is
//! a typed error or the right verdict, and normal validation still works after each. Times are
//! printed (run with --nocapture), not asserted.

use output_contract::{Contract, Options};
use serde_json::{json, Value};
use std::time::Instant;

/// Builds the text a case's source describes (the catalogue keeps its large inputs as recipes).
fn source_text(source: &Value) -> String {
    if let Some(t) = source.get("text").and_then(Value::as_str) {
        return t.to_string();
    }
    if let Some(t) = source.get("raw").and_then(Value::as_str) {
        return t.to_string();
    }
    if let Some(n) = source.get("nest") {
        let depth = n["depth"].as_u64().unwrap() as usize;
        let (open, close) = (n["open"].as_str().unwrap(), n["close"].as_str().unwrap());
        return format!("{}{}{}", open.repeat(depth), n.get("inner").and_then(Value::as_str).unwrap_or(""), close.repeat(depth));
    }
    if let Some(r) = source.get("repeat") {
        let count = r["count"].as_u64().unwrap() as usize;
        let unit = r["unit"].as_str().unwrap();
        let sep = r.get("sep").and_then(Value::as_str).unwrap_or("");
        let items: Vec<String> = (0..count).map(|i| unit.replace('#', &i.to_string())).collect();
        return format!("{}{}{}", r["prefix"].as_str().unwrap(), items.join(sep), r["suffix"].as_str().unwrap());
    }
    if let Some(n) = source.get("gen_enum").and_then(Value::as_u64) {
        return json!({ "enum": (0..n).map(|i| format!("v{i}")).collect::<Vec<_>>() }).to_string();
    }
    source.to_string()
}

fn options(case: &Value) -> Options {
    let mut o = Options::default();
    if let Some(n) = case.pointer("/options/maxOutputBytes").and_then(Value::as_u64) {
        o.limits.max_output_bytes = n as usize;
    }
    o
}

#[test]
fn every_adversarial_case_gets_a_typed_answer_and_leaves_the_library_working() {
    let corpus: Value = serde_json::from_str(include_str!("corpus/adversarial.json")).unwrap();
    let normal = Contract::compile(&json!({"type": "object", "required": ["ok"]}), &Options::default()).unwrap();
    for case in corpus["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let expect = &case["expect"];
        let schema_text = source_text(&case["schema"]);
        let output = source_text(&case["output"]);
        let started = Instant::now();
        match Contract::compile_text(&schema_text, &options(case)) {
            Err(e) => assert_eq!(Some(e.kind.as_str()), expect["schema_error"].as_str(), "{name}: {}", e.message),
            Ok(contract) => {
                assert!(expect["schema_error"].is_null(), "{name}: compiled, expected {}", expect["schema_error"]);
                let result = contract.validate_text(&output);
                assert_eq!(result.is_ok(), expect["valid"].as_bool().unwrap(), "{name}: {:?}", result.as_ref().err().map(|e| &e.violations));
                if let Err(error) = result {
                    let first = error.violations.first().unwrap();
                    assert_eq!(first.keyword, expect["keyword"].as_str().unwrap(), "{name}: {}", first.message);
                    if let Some(text) = expect["message_contains"].as_str() {
                        assert!(first.message.contains(text), "{name}: {}", first.message);
                    }
                    if let Some(retryable) = expect["retryable"].as_bool() {
                        assert_eq!(error.retryable, retryable, "{name}");
                    }
                    assert!(error.raw_output.len() <= 4096 + 64, "{name}: raw_output is capped");
                }
            }
        }
        println!("{name}: {:?}", started.elapsed());
        assert!(normal.validate_text(r#"{"ok": 1}"#).is_ok());
        assert!(normal.validate_text("{}").is_err());
    }
}
