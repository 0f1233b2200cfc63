//! The official JSON Type Definition test suite (../shared/jtd-test-suite) through the Rust API:
//! every validation case must report exactly the expected errors, compared as sets of
//! (instance path, schema path) — the violations' `pointer` and `schema_path` — and every
//! invalid schema must be refused with a reason. Both the value path (`violations`) and the
//! one-pass text path (`validate_text`) are checked.

use output_contract::{Contract, Draft, Options};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn suite_file(name: &str) -> Value {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/jtd-test-suite").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("the JTD test suite is expected at {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn jtd() -> Options {
    Options { draft: Some(Draft::Jtd), ..Options::default() }
}

fn pointer(tokens: &Value) -> String {
    tokens.as_array().unwrap().iter().map(|t| format!("/{}", t.as_str().unwrap().replace('~', "~0").replace('/', "~1"))).collect()
}

#[test]
fn validation_cases_report_the_expected_errors() {
    let cases = suite_file("validation.json");
    let cases = cases.as_object().unwrap();
    assert_eq!(cases.len(), 316);
    let mut failures = Vec::new();
    for (name, case) in cases {
        let contract = match Contract::compile(&case["schema"], &jtd()) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: schema refused: {e}"));
                continue;
            }
        };
        let expected: BTreeSet<(String, String)> =
            case["errors"].as_array().unwrap().iter().map(|e| (pointer(&e["instancePath"]), pointer(&e["schemaPath"]))).collect();
        let instance = &case["instance"];
        let got: BTreeSet<(String, String)> = contract.violations(instance).into_iter().map(|v| (v.pointer, v.schema_path)).collect();
        if got != expected {
            failures.push(format!("{name}: expected {expected:?}, got {got:?}"));
        }
        if contract.is_valid(instance) != expected.is_empty() {
            failures.push(format!("{name}: is_valid disagrees"));
        }
        let text = serde_json::to_string(instance).unwrap();
        let from_text: BTreeSet<(String, String)> = match contract.validate_text(&text) {
            Ok(_) => BTreeSet::new(),
            Err(e) => e.violations.into_iter().map(|v| (v.pointer, v.schema_path)).collect(),
        };
        if from_text != expected {
            failures.push(format!("{name} (as text): expected {expected:?}, got {from_text:?}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[test]
fn invalid_schemas_are_refused_with_a_reason() {
    let cases = suite_file("invalid_schemas.json");
    let cases = cases.as_object().unwrap();
    assert_eq!(cases.len(), 49);
    let mut accepted = Vec::new();
    for (name, schema) in cases {
        match Contract::compile(schema, &jtd()) {
            Ok(_) => accepted.push(name.clone()),
            Err(e) => assert!(!e.issues.is_empty() && !e.message.is_empty(), "{name}: {e:?}"),
        }
    }
    assert!(accepted.is_empty(), "accepted invalid schemas:\n{}", accepted.join("\n"));
}
