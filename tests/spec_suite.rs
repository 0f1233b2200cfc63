//! The official JSON-Schema-Test-Suite (../shared/json-schema-test-suite) through the Rust API,
//! for drafts 4, 6, 7, 2019-09 and 2020-12. Required tests must all pass except the ones listed
//! with a reason in tests/spec-known-failures.json; `optional/` is reported separately.
//!
//! The runner uses the specification's defaults, not the product's stricter ones: unknown
//! keywords are ignored (strict: false) and `format` is an annotation (formats: false), except in
//! `optional/format`, whose tests are about asserting formats.

use output_contract::{Contract, Draft, Options};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn suite_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/json-schema-test-suite");
    if !root.exists() {
        panic!("the JSON-Schema-Test-Suite is expected at {}", root.display());
    }
    root
}

fn remotes(root: &Path) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    let base = root.join("remotes");
    let mut stack = vec![base.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                let rel = path.strip_prefix(&base).unwrap().to_string_lossy().replace('\\', "/");
                let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                out.insert(format!("http://localhost:1234/{rel}"), doc);
            }
        }
    }
    out
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// `draft7/ref.json::case description::test description`
fn known_failures() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec-known-failures.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["id"].as_str().unwrap().to_string(), f["reason"].as_str().unwrap().to_string()))
        .collect()
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: Vec<String>,
    known: usize,
}

#[derive(Default)]
struct Verdicts {
    checked: usize,
    /// Valid texts of schemas with a verdict, and those it recognised itself.
    valid: usize,
    fast: usize,
    /// Invalid texts, and those reported from located subtrees.
    invalid: usize,
    located: usize,
}

#[test]
fn json_schema_test_suite() {
    let root = suite_root();
    let resources = remotes(&root);
    let known = known_failures();
    let mut seen_known = BTreeSet::new();
    let mut unexpected = Vec::new();
    let mut summary = Vec::new();
    let mut verdicts = Verdicts::default();
    for (dir, draft) in [
        ("draft4", Draft::Draft4),
        ("draft6", Draft::Draft6),
        ("draft7", Draft::Draft7),
        ("draft2019-09", Draft::Draft201909),
        ("draft2020-12", Draft::Draft202012),
    ] {
        let tests_dir = root.join("tests").join(dir);
        let (mut required, mut optional) = (Tally::default(), Tally::default());
        for file in json_files(&tests_dir) {
            let rel = file.strip_prefix(root.join("tests")).unwrap().to_string_lossy().replace('\\', "/");
            let is_optional = rel.contains("/optional/");
            let formats = rel.contains("/optional/format/");
            let cases: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            for case in cases.as_array().unwrap() {
                let options = Options {
                    draft: Some(draft),
                    strict: false,
                    formats,
                    resources: resources.clone(),
                    ..Options::default()
                };
                let compiled = Contract::compile(&case["schema"], &options);
                // The byte-level verdict (src/check/verdict.rs), planned from the validator's
                // nodes: on every instance, as compact and as indented text, it must agree with
                // the full path.
                for test in case["tests"].as_array().unwrap() {
                    if let Ok(contract) = &compiled {
                        for text in [serde_json::to_string(&test["data"]).unwrap(), serde_json::to_string_pretty(&test["data"]).unwrap()] {
                            let full = contract.validate_text(&text).is_ok();
                            let quick = contract.quick_verdict(&text);
                            assert!(quick != Some(true) || full, "{rel}: the verdict accepts {text}, the full path does not, for {}", case["schema"]);
                            // An invalid text's report may come from the subtrees the verdict
                            // located: it must be the full path's report, violation for violation.
                            let located = contract.check_text(&text).err();
                            assert_eq!(located, contract.validate_text(&text).err(), "{rel}: check_text and the full path disagree on {text} for {}", case["schema"]);
                            // The error's text as it crosses to JavaScript, written by hand, is
                            // serde_json's.
                            if let Some(error) = &located {
                                assert_eq!(error.to_json_text(), serde_json::to_string(error).unwrap(), "{rel}: {text}");
                            }
                            verdicts.located += usize::from(!full && contract.located_units(&text).is_some());
                            verdicts.invalid += usize::from(!full);
                            verdicts.checked += 1;
                            verdicts.valid += usize::from(full && quick.is_some());
                            verdicts.fast += usize::from(quick == Some(true));
                        }
                    }
                    let id = format!("{rel}::{}::{}", case["description"].as_str().unwrap(), test["description"].as_str().unwrap());
                    let expected = test["valid"].as_bool().unwrap();
                    let ok = match &compiled {
                        Ok(contract) => {
                            let valid = contract.is_valid(&test["data"]);
                            // The full report must agree with the verdict.
                            let violations = contract.violations(&test["data"]);
                            assert_eq!(valid, violations.is_empty(), "{id}: is_valid and violations disagree");
                            valid == expected
                        }
                        Err(_) => false,
                    };
                    let tally = if is_optional { &mut optional } else { &mut required };
                    if ok {
                        tally.passed += 1;
                    } else if known.contains_key(&id) {
                        seen_known.insert(id.clone());
                        tally.known += 1;
                    } else {
                        if !is_optional {
                            let why = match &compiled {
                                Err(e) => format!("compile error: {e}"),
                                Ok(_) => format!("expected valid={expected}"),
                            };
                            unexpected.push(format!("{id} ({why})"));
                        }
                        tally.failed.push(id);
                    }
                }
            }
        }
        summary.push(format!(
            "{dir}: required {} passed, {} failed, {} known | optional {} passed, {} failed, {} known",
            required.passed,
            required.failed.len(),
            required.known,
            optional.passed,
            optional.failed.len(),
            optional.known
        ));
    }
    for line in &summary {
        println!("{line}");
    }
    println!(
        "verdict: {} texts checked against the full path; of {} valid texts under a schema with a verdict, {} recognised in one pass; of {} invalid texts, {} reported from located subtrees",
        verdicts.checked, verdicts.valid, verdicts.fast, verdicts.invalid, verdicts.located
    );
    assert!(verdicts.fast > 1000, "the byte-level verdict applies to too few spec cases: {}", verdicts.fast);
    let stale: Vec<&String> = known.keys().filter(|k| !seen_known.contains(*k)).collect();
    assert!(stale.is_empty(), "known failures that now pass (remove them from the list): {stale:#?}");
    assert!(unexpected.is_empty(), "{} required spec tests failed:\n{}", unexpected.len(), unexpected.join("\n"));
}
