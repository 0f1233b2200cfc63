//! Custom formats (`Options::custom_formats`): asserted on strings by every evaluator through the
//! one compiled schema, known to strict mode and the editor, and never confused by the cache.

use output_contract::agent::stream::{OutputStream, StopReason, StreamOptions, StreamOutcome};
use output_contract::agent::tool::{validate_tool_call_text, ToolCallOptions};
use output_contract::editor::lint::{check_schema, CheckOptions};
use output_contract::{Contract, ContractCache, CustomFormat, Options, SchemaErrorKind, Violation};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn formats(list: &[(&str, CustomFormat)]) -> BTreeMap<String, CustomFormat> {
    list.iter().map(|(n, f)| ((*n).to_string(), f.clone())).collect()
}

fn options(list: &[(&str, CustomFormat)]) -> Options {
    Options { custom_formats: formats(list), ..Options::default() }
}

fn order() -> Value {
    json!({
        "type": "object",
        "properties": {"phone": {"format": "phone"}, "sku": {"type": "string", "format": "sku"}},
        "required": ["phone", "sku"]
    })
}

fn shop() -> Options {
    options(&[("phone", CustomFormat::pattern(r"^\+[0-9]+$")), ("sku", CustomFormat::function(|s| s.starts_with("SKU-")))])
}

fn violations(contract: &Contract, value: Value) -> Vec<Violation> {
    contract.violations(&value)
}

#[test]
fn a_pattern_and_a_function_assert_on_strings_with_the_built_ins_message() {
    let contract = Contract::compile(&order(), &shop()).unwrap();
    assert!(contract.is_valid(&json!({"phone": "+4412345", "sku": "SKU-1"})));
    let found = violations(&contract, json!({"phone": "0044 12345", "sku": "sku-1"}));
    let summary: Vec<(&str, &str, &str, &Value)> = found.iter().map(|v| (v.path.as_str(), v.keyword.as_str(), v.message.as_str(), &v.expected)).collect();
    assert_eq!(
        summary,
        [
            ("$.phone", "format", "'0044 12345' is not a valid 'phone'", &json!("phone")),
            ("$.sku", "format", "'sku-1' is not a valid 'sku'", &json!("sku")),
        ]
    );
    assert_eq!(found[0].schema_path, "/properties/phone/format");
    // As for the built-in formats, a value that is not a string is not the format's business.
    assert!(contract.is_valid(&json!({"phone": 44, "sku": "SKU-2"})));
}

#[test]
fn custom_formats_assert_even_where_the_built_in_ones_do_not() {
    let schema = json!({"properties": {"p": {"format": "phone"}, "e": {"format": "email"}}});
    let contract = Contract::compile(&schema, &Options { formats: false, ..options(&[("phone", CustomFormat::pattern("^\\+"))]) }).unwrap();
    let found = violations(&contract, json!({"p": "12", "e": "not an email"}));
    assert_eq!(found.iter().map(|v| v.path.as_str()).collect::<Vec<_>>(), ["$.p"]);
}

#[test]
fn a_custom_format_overrides_the_built_in_of_that_name() {
    let schema = json!({"format": "email"});
    let built_in = Contract::compile(&schema, &Options::default()).unwrap();
    assert!(built_in.is_valid(&json!("joe@example.com")));
    let corporate = Contract::compile(&schema, &options(&[("email", CustomFormat::pattern("@example\\.org$"))])).unwrap();
    assert!(!corporate.is_valid(&json!("joe@example.com")));
    assert!(corporate.is_valid(&json!("joe@example.org")));
}

#[test]
fn strict_mode_knows_custom_names_and_still_refuses_unknown_ones() {
    let schema = json!({"properties": {"a": {"format": "phone"}, "b": {"format": "fone"}}});
    let error = Contract::compile(&schema, &options(&[("phone", CustomFormat::pattern("^\\+"))])).unwrap_err();
    assert_eq!(error.kind, SchemaErrorKind::UnknownFormat);
    assert_eq!(error.issues.len(), 1);
    assert_eq!(error.issues[0].pointer, "/properties/b/format");
    let ok = json!({"properties": {"a": {"format": "phone"}}});
    assert!(Contract::compile(&ok, &Options::default()).is_err());
    assert!(Contract::compile(&ok, &options(&[("phone", CustomFormat::pattern("^\\+"))])).is_ok());
}

#[test]
fn a_bad_pattern_is_an_option_error_whether_used_or_not() {
    let error = Contract::compile(&json!({}), &options(&[("broken", CustomFormat::pattern("(unclosed"))])).unwrap_err();
    assert_eq!(error.kind, SchemaErrorKind::InvalidOption);
    assert!(error.message.contains("format \"broken\""), "{}", error.message);
    assert!(error.message.contains("(unclosed"), "{}", error.message);
    // Patterns are ECMA-262 in Unicode mode, as `pattern` reads them: no inline flags.
    assert!(Contract::compile(&json!({}), &options(&[("ci", CustomFormat::pattern("(?i)abc"))])).is_err());
}

#[test]
fn the_text_paths_judge_custom_formats_as_validation_does() {
    let contract = Contract::compile(&order(), &shop()).unwrap();
    let good = r#"{"phone": "+4412345", "sku": "SKU-1"}"#;
    let bad = r#"{"phone": "+4412345", "sku": "X-1"}"#;
    // The one-pass verdict reads the compiled `format` keyword too.
    assert_eq!(contract.quick_verdict(good), Some(true));
    assert_eq!(contract.quick_verdict(bad), Some(false));
    assert!(contract.check_text(good).is_ok());
    let text_error = contract.check_text(bad).unwrap_err();
    let value_error = contract.validate(&serde_json::from_str(bad).unwrap()).unwrap_err();
    assert_eq!(text_error.violations, value_error.violations);
    assert_eq!(contract.validate_text(bad).unwrap_err().violations, value_error.violations);
    let tool = validate_tool_call_text(&contract, bad, ToolCallOptions::default()).unwrap_err();
    assert_eq!(tool.violations, value_error.violations);
}

#[test]
fn a_streamed_string_is_judged_when_it_closes_as_the_final_validation_judges_it() {
    let contract = Contract::compile(&order(), &shop()).unwrap();
    let text = r#"{"phone": "0044", "sku": "SKU-1"}"#;
    let closes = text.find("\", \"sku\"").unwrap() + 1;
    let mut stream = OutputStream::new(&contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
    let bytes = text.as_bytes();
    let before = stream.push(&bytes[..closes - 1]);
    assert!(before.early_violations.is_empty(), "an open string may still match");
    let after = stream.push(&bytes[closes - 1..closes]);
    assert_eq!(after.early_violations.len(), 1);
    let early = after.early_violations[0].clone();
    assert_eq!((early.path.as_str(), early.keyword.as_str()), ("$.phone", "format"));
    stream.push(&bytes[closes..]);
    match stream.finish(StopReason::Stop, None) {
        StreamOutcome::Failed { error, .. } => assert_eq!(serde_json::to_value(&error.violations).unwrap(), json!([early])),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn the_cache_keys_patterns_and_never_keeps_functions() {
    let schema = json!({"format": "code"});
    let mut cache = ContractCache::new(8);
    let digits = options(&[("code", CustomFormat::pattern("^[0-9]+$"))]);
    let letters = options(&[("code", CustomFormat::pattern("^[a-z]+$"))]);
    let a = cache.compile(&schema, &digits).unwrap();
    let b = cache.compile(&schema, &letters).unwrap();
    assert!(a.is_valid(&json!("123")) && !a.is_valid(&json!("abc")));
    assert!(b.is_valid(&json!("abc")) && !b.is_valid(&json!("123")));
    cache.compile(&schema, &letters).unwrap();
    assert_eq!(cache.stats().hits, 1);

    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let function = options(&[("code", CustomFormat::function(move |s| {
        counted.fetch_add(1, Ordering::Relaxed);
        s == "x"
    }))]);
    let entries = cache.stats().entries;
    let f1 = cache.compile(&schema, &function).unwrap();
    let f2 = cache.compile(&schema, &function).unwrap();
    assert_eq!(cache.stats().entries, entries, "a contract with a function is not kept");
    assert_eq!(cache.stats().hits, 1);
    assert!(f1.is_valid(&json!("x")) && !f2.is_valid(&json!("123")));
    assert_eq!(calls.load(Ordering::Relaxed), 2);
    // Nor does a function format hand back the contract compiled with a pattern of that name.
    assert!(!cache.compile(&schema, &function).unwrap().is_valid(&json!("abc")));
}

#[test]
fn options_compare_patterns_by_source_and_functions_by_identity() {
    let f = CustomFormat::function(|_| true);
    assert_eq!(f, f.clone());
    assert_ne!(f, CustomFormat::function(|_| true));
    assert_eq!(CustomFormat::pattern("a"), CustomFormat::pattern("a"));
    assert_eq!(format!("{:?}", shop().custom_formats), r#"{"phone": Pattern("^\\+[0-9]+$"), "sku": Function(..)}"#);
}

#[test]
fn the_editor_knows_custom_names() {
    let text = r#"{"properties": {"a": {"format": "phone"}, "b": {"format": "phnoe"}}}"#;
    let plain = check_schema(text, &CheckOptions::default());
    // Compiling stops at the first unknown format.
    let first = plain.diagnostics.iter().find(|d| d.code == "unknown_format").unwrap();
    assert_eq!(first.pointer, "/properties/a/format");
    let known = check_schema(text, &CheckOptions { formats: vec!["phone".into()], ..CheckOptions::default() });
    let unknown: Vec<_> = known.diagnostics.iter().filter(|d| d.code == "unknown_format").collect();
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].pointer, "/properties/b/format");
    assert!(unknown[0].message.contains("did you mean \"phone\""), "{}", unknown[0].message);
}

#[test]
fn a_pattern_format_that_gives_up_is_a_format_violation_that_is_not_retryable() {
    let contract = Contract::compile(&json!({"format": "runaway"}), &options(&[("runaway", CustomFormat::pattern(r"^(a+)+\1$"))])).unwrap();
    let long = format!("{}b", "a".repeat(20_000));
    let error = contract.validate_text(&json!(long).to_string()).unwrap_err();
    assert_eq!(error.violations.len(), 1);
    assert_eq!(error.violations[0].keyword, "format");
    assert!(error.violations[0].message.ends_with("backtracking limit exceeded"), "{}", error.violations[0].message);
    assert!(!error.retryable);
}
