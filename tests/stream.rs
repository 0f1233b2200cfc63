//! The stream state machine and its agreement with one-shot validation.

use output_contract::agent::stream::{OutputStream, StopReason, StreamOptions, StreamOutcome};
use output_contract::{Contract, Options};
use serde_json::{json, Value};

fn pr_reviewer() -> Contract {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/pr-reviewer/blueprint.json")).unwrap();
    let blueprint: Value = serde_json::from_str(&text).unwrap();
    Contract::compile(&blueprint["output_schema"], &Options { agent_id: Some("pr-reviewer".into()), ..Options::default() }).unwrap()
}

fn example(name: &str) -> String {
    std::fs::read_to_string(format!("{}/examples/pr-reviewer/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn run(contract: &Contract, text: &str, chunk: usize) -> (StreamOutcome, Vec<usize>) {
    let mut s = OutputStream::new(contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
    let mut early_counts = Vec::new();
    for c in text.as_bytes().chunks(chunk.max(1)) {
        early_counts.push(s.push(c).early_violations.len());
    }
    (s.finish(StopReason::Stop, None), early_counts)
}

/// A large valid pr-reviewer output (about 100 KB), generated deterministically.
fn large_valid() -> String {
    let comments: Vec<Value> = (0..600)
        .map(|i| {
            let severity = ["nitpick", "suggestion", "concern", "blocker"][i % 4];
            json!({"file": format!("src/module_{i}/file é😀.rs"), "line": i * 7 + 1, "severity": severity, "message": format!("Comment number {i}: \"quoted\" text with escapes \\ and \n newlines.")})
        })
        .collect();
    serde_json::to_string_pretty(&json!({"summary": "Large review", "approval": "comment", "comments": comments, "metrics": {"files_reviewed": 600, "lines_changed": 12000, "complexity_score": 7.25}})).unwrap()
}

#[test]
fn chunked_streams_agree_with_one_shot_validation() {
    let contract = pr_reviewer();
    for text in [example("valid-output.json"), example("invalid-output.txt"), large_valid()] {
        let one_shot = contract.validate_text(&text);
        for chunk in [1, 2, 3, 7, 20, 64, 1000, 1 << 20] {
            if text.len() > 20_000 && chunk < 20 {
                continue;
            }
            let (outcome, _) = run(&contract, &text, chunk);
            match (&outcome, &one_shot) {
                (StreamOutcome::Valid { data, .. }, Ok(value)) => assert_eq!(data, value),
                (StreamOutcome::Failed { error, .. }, Err(expected)) => assert_eq!(error.violations, expected.violations),
                other => panic!("chunk {chunk}: {other:?}"),
            }
        }
    }
}

/// A syntax error reads the same whether the output arrived whole or streamed.
#[test]
fn syntax_errors_read_the_same_whole_and_streamed() {
    let contract = Contract::compile(&json!({"type": "object"}), &Options::default()).unwrap();
    for text in ["{\"a\":}", "[\"\\ud83d\"]", "{\"a\":1,}", "[1 2]", "{\n  \"b\": tru\n}", "\"\\x\"", "[1e400]", "{\"a\" 1}", "[\"a\u{1}\"]", "[01]", "{\"a\":1}}", "{\"é😀\": x}"] {
        let one_shot = contract.validate_text(text).unwrap_err();
        let (outcome, _) = run(&contract, text, 3);
        let StreamOutcome::Failed { error, .. } = outcome else { panic!("{text}: {outcome:?}") };
        assert_eq!(one_shot.violations[0].message, error.violations[0].message, "{text}");
        assert!(one_shot.violations[0].message.starts_with("invalid JSON at line "), "{text}");
    }
    // A line break at fault is the last character of its line (not column 0 of the next).
    for (text, message) in [
        ("{\"a\": \"x\ny\"}", "invalid JSON at line 1, column 9: control character in a string (escape it)"),
        ("{\n  \"b\": tru\n}", "invalid JSON at line 2, column 11: invalid literal: expected 'true'"),
    ] {
        assert_eq!(contract.validate_text(text).unwrap_err().violations[0].message, message);
        let (outcome, _) = run(&contract, text, 1);
        let StreamOutcome::Failed { error, .. } = outcome else { panic!("{text}: {outcome:?}") };
        assert_eq!(error.violations[0].message, message);
    }
}

/// An output that ends early is truncated, or has no JSON, the same whole and streamed.
#[test]
fn cut_outputs_read_the_same_whole_and_streamed() {
    let contract = Contract::compile(&json!({"type": "object"}), &Options::default()).unwrap();
    for (text, keyword) in [("nul", "truncated"), ("tru", "truncated"), ("-", "truncated"), ("[1,", "truncated"), ("{\"a\"", "truncated"), ("\"ab", "truncated"), ("  ", "json"), ("", "json")] {
        let one_shot = contract.validate_text(text).unwrap_err();
        let (outcome, _) = run(&contract, text, 2);
        let StreamOutcome::Failed { error, .. } = outcome else { panic!("{text}: {outcome:?}") };
        assert_eq!(one_shot.violations[0].keyword, keyword, "{text}");
        assert_eq!(error.violations[0].keyword, keyword, "{text}");
    }
}

#[test]
fn valid_documents_report_no_early_violation_on_any_prefix() {
    let contract = pr_reviewer();
    for text in [example("valid-output.json"), large_valid()] {
        let step = if text.len() > 20_000 { 20 } else { 1 };
        let (outcome, early) = run(&contract, &text, step);
        assert!(matches!(outcome, StreamOutcome::Valid { .. }));
        assert!(early.iter().all(|n| *n == 0));
    }
}

#[test]
fn invalid_output_reports_early_at_the_first_wrong_byte() {
    let contract = pr_reviewer();
    let text = example("invalid-output.txt");
    let mut s = OutputStream::new(&contract, StreamOptions::default());
    let mut first = None;
    for (i, b) in text.as_bytes().iter().enumerate() {
        let status = s.push(std::slice::from_ref(b));
        if first.is_none() && !status.early_violations.is_empty() {
            first = Some((i, status.early_violations[0].path.clone(), status.early_violations[0].keyword.clone()));
        }
    }
    // `"approval": "approved"`: no enum value starts with "approve" followed by 'd'.
    let at = text.find("approved").unwrap() + "approve".len();
    assert_eq!(first, Some((at, "$.approval".to_string(), "enum".to_string())));
}

#[test]
fn state_machine() {
    let contract = pr_reviewer();
    let valid = example("valid-output.json");
    let invalid = example("invalid-output.txt");

    // valid on the first try
    let mut s = OutputStream::new(&contract, StreamOptions::default());
    s.push(valid.as_bytes());
    assert!(matches!(s.finish(StopReason::Stop, None), StreamOutcome::Valid { attempt: 1, .. }));

    // invalid, then valid on the retry (same stream)
    let mut s = OutputStream::new(&contract, StreamOptions::default());
    s.push(invalid.as_bytes());
    let StreamOutcome::Retry { prompt, violations, attempt, .. } = s.finish(StopReason::Stop, None) else { panic!() };
    assert_eq!(attempt, 1);
    assert!(prompt.starts_with("<output-validation-error>\nYour output did not match the required schema.\n\n## Validation Errors\n- $.approval: 'approved' is not one of ['approve', 'request_changes', 'comment']\n"));
    assert!(prompt.ends_with("```\n\nPlease provide output matching the schema exactly.\n</output-validation-error>"));
    assert_eq!(violations.len(), 6);
    assert_eq!(s.push(valid.as_bytes()).attempt, 2);
    assert!(matches!(s.finish(StopReason::Stop, None), StreamOutcome::Valid { attempt: 2, .. }));

    // invalid twice: hard-complete, retryable false
    let mut s = OutputStream::new(&contract, StreamOptions::default());
    s.push(invalid.as_bytes());
    assert!(matches!(s.finish(StopReason::Stop, None), StreamOutcome::Retry { .. }));
    s.push(invalid.as_bytes());
    let StreamOutcome::Failed { error, attempts, .. } = s.finish(StopReason::Stop, None) else { panic!() };
    assert_eq!((attempts, error.retryable, error.error.as_str()), (2, false, "output_validation_failed"));

    // truncation at the token limit: its own violation kind, retried
    let mut s = OutputStream::new(&contract, StreamOptions::default());
    s.push(&valid.as_bytes()[..40]);
    let StreamOutcome::Retry { violations, .. } = s.finish(StopReason::Length, None) else { panic!() };
    assert_eq!(violations[0].keyword, "truncated");

    // refusal: an outcome, not a failure
    let mut s = OutputStream::new(&contract, StreamOptions::default());
    s.push(b"I can't help with that.");
    assert_eq!(s.finish(StopReason::Refusal, Some("I can't help with that.")), StreamOutcome::Refused { refusal: "I can't help with that.".into(), attempt: 1 });

    // fenced output with prose, extracted while streaming
    let mut s = OutputStream::new(&contract, StreamOptions { extract: true, ..StreamOptions::default() });
    for chunk in format!("Here is my review:\n```json\n{valid}\n```\nThanks!").as_bytes().chunks(5) {
        s.push(chunk);
    }
    assert!(matches!(s.finish(StopReason::Stop, None), StreamOutcome::Valid { .. }));

    // abort on the first early violation
    let mut s = OutputStream::new(&contract, StreamOptions { abort_on_early_violation: true, ..StreamOptions::default() });
    let mut aborted_at = None;
    for (i, chunk) in invalid.as_bytes().chunks(8).enumerate() {
        if s.push(chunk).aborted {
            aborted_at = Some(i);
            break;
        }
    }
    assert!(aborted_at.is_some());
    let StreamOutcome::Retry { violations, .. } = s.finish(StopReason::Stop, None) else { panic!() };
    assert_eq!(violations[0].path, "$.approval");
}

/// The seed corpus: every prefix of every valid output is free of early violations, and several
/// chunkings of every output end in the same outcome as one-shot validation.
#[test]
fn seed_corpus_soundness_and_agreement() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/seeds.json")).unwrap();
    let corpus: Value = serde_json::from_str(&text).unwrap();
    for entry in corpus["contracts"].as_array().unwrap() {
        let name = entry["name"].as_str().unwrap();
        let contract = Contract::compile(&entry["schema"], &Options::default()).unwrap();
        for (valid, docs) in [(true, &entry["valid"]), (false, &entry["invalid"])] {
            for doc in docs.as_array().unwrap() {
                for text in [doc.to_string(), serde_json::to_string_pretty(doc).unwrap()] {
                    let one_shot = contract.validate_text(&text);
                    assert_eq!(one_shot.is_ok(), valid, "{name}: {text}");
                    for chunk in [1, 2, 5, 13, 64] {
                        let (outcome, early) = run(&contract, &text, chunk);
                        match (&outcome, &one_shot) {
                            (StreamOutcome::Valid { data, .. }, Ok(value)) => assert_eq!(data, value),
                            (StreamOutcome::Failed { error, .. }, Err(expected)) => {
                                assert_eq!(error.violations, expected.violations, "{name} chunk {chunk}")
                            }
                            other => panic!("{name} chunk {chunk}: {other:?}"),
                        }
                        if valid {
                            assert!(early.iter().all(|n| *n == 0), "{name}: early violation on a valid output: {text}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn raw_output_of_a_stream_counts_every_byte_left_out() {
    let schema = json!({"type": "object", "required": ["x"]});
    let contract = Contract::compile(&schema, &Options { raw_output_limit: 8, ..Options::default() }).unwrap();
    let mut s = OutputStream::new(&contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
    let text = r#"{"a": "ééé", "b": [1, 2, 3]}"#;
    for chunk in text.as_bytes().chunks(3) {
        s.push(chunk);
    }
    let StreamOutcome::Failed { error, .. } = s.finish(StopReason::Stop, None) else { panic!() };
    // 8 bytes kept end inside "é": the head stops before it and the count covers the rest.
    assert_eq!(error.raw_output, format!("{{\"a\": \"…[truncated {} bytes]", text.len() - 7));
    assert_eq!(error.raw_output, contract.validate_text(text).unwrap_err().raw_output);
}

#[test]
fn a_chain_of_thousands_of_references_neither_overflows_nor_hangs() {
    // Each `$ref` leads to the next: compiling, the one-pass verdict, the in-flight checks and
    // the validator (and the removal of nulls read as absent) each stop at their depth limit
    // instead of exhausting the stack.
    let n = 5000;
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(format!("a{i}"), json!({"$ref": format!("#/$defs/a{}", i + 1)}));
    }
    defs.insert(format!("a{n}"), json!({"type": "string"}));
    let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs, "$ref": "#/$defs/a0"});
    // A debug build's frames are several times a release build's (the wasm is built for
    // release): 512 nested evaluations get the stack they need there.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let contract = Contract::compile(&schema, &Options { strict: false, ..Options::default() }).unwrap();
            let error = contract.check_text("1").unwrap_err();
            assert!(error.violations[0].message.contains("nest deeper than"), "{}", error.violations[0].message);
            let mut s = OutputStream::new(&contract, StreamOptions::default());
            s.push(b"\"ab");
            s.push(b"c\"");
            let _ = s.finish(StopReason::Stop, None);
            // The removal of nulls read as absent follows the chain too.
            let mut s = OutputStream::new(&contract, StreamOptions { null_as_absent: true, ..StreamOptions::default() });
            s.push(br#"{"x": null}"#);
            let _ = s.finish(StopReason::ToolUse, None);
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Every early violation of `text` streamed a byte at a time, and the final error's.
fn early_and_final(contract: &Contract, text: &str) -> (Vec<Value>, Vec<Value>) {
    let mut s = OutputStream::new(contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
    for b in text.as_bytes() {
        s.push(std::slice::from_ref(b));
    }
    // As the canonical error carries them (a violation's sorting key is not part of it).
    let canonical = |list: &[output_contract::Violation]| list.iter().map(|v| serde_json::to_value(v).unwrap()).collect::<Vec<_>>();
    let early = canonical(s.early_violations());
    let last = match s.finish(StopReason::Stop, None) {
        StreamOutcome::Failed { error, .. } => canonical(&error.violations),
        _ => Vec::new(),
    };
    (early, last)
}

#[test]
fn references_resolve_inside_embedded_resources_as_the_validator_resolves_them() {
    // `#/$defs/s` inside the resource `https://example.com/a` is that resource's string, not the
    // root's integer: a valid answer is neither reported early nor refused.
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"s": {"type": "integer"}},
        "properties": {"a": {"$id": "https://example.com/a", "$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s"}}
    });
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    assert!(contract.validate_text(r#"{"a":"x"}"#).is_ok());
    let (early, last) = early_and_final(&contract, r#"{"a":"x"}"#);
    assert!(early.is_empty() && last.is_empty(), "{early:?} {last:?}");
    let (early, last) = early_and_final(&contract, r#"{"a":7}"#);
    assert_eq!(early, last);
    assert_eq!(last[0]["schema_path"], "/properties/a/$ref/type");
}

#[test]
fn an_early_violation_is_the_final_errors_violation_once_its_value_is_complete() {
    let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {
        "n": {"type": "integer"},
        "s": {"enum": ["low", "high"]},
        "t": {"maxLength": 3},
        "r": {"$ref": "#/$defs/sev"},
        "p": {"prefixItems": [{"type": "integer"}], "items": false},
        "m": {"maxItems": 2},
        "o": {"maxProperties": 1},
        "d": {"anyOf": [{"const": 1}, {"const": 2}, {"type": "null"}]},
        "e": {"oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
        "c": {"anyOf": [{"properties": {"x": {"const": 1}}}, {"properties": {"x": {"const": 2}}}]},
        "f": {"anyOf": [{"$ref": "#/$defs/sev"}, {"allOf": [{"enum": ["a", "b"]}]}, {"type": "null"}]},
        "x": false,
        "y": {"$ref": "#/$defs/none"},
        "u": {"anyOf": [{"$ref": "#/$defs/kinds"}, {"type": "array", "items": {"$ref": "#/$defs/kinds"}, "minItems": 1}]},
        "v": {"allOf": [{"properties": {"a": {}}}, {"$ref": "#/$defs/sized"}], "unevaluatedProperties": false},
        "q": {"anyOf": [{"$ref": "#/$defs/only_n"}, {"type": "null"}]}
    }, "$defs": {"sev": {"const": "ok"}, "none": false, "kinds": {"enum": ["array", "integer", "string"]}, "sized": {"properties": {"n": {"type": "integer"}}}, "only_n": {"properties": {"n": {"type": "integer"}}, "additionalProperties": false}}});
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    for text in [
        r#"{"n": "a string"}"#, r#"{"s": "hx"}"#, r#"{"t": "abcdef"}"#, r#"{"r": "no"}"#, r#"{"n": {"deep": [1, 2]}}"#, r#"{"p": [1, "x", 3]}"#, r#"{"m": [1, 2, 3]}"#,
        r#"{"m": [1, 2, 3, 4, 5]}"#, r#"{"o": {"a": 1, "b": 2, "c": 3}}"#, r#"{"d": 3}"#, r#"{"d": "x"}"#, r#"{"d": [1]}"#, r#"{"e": "m"}"#, r#"{"e": 7}"#,
        r#"{"c": {"x": 3}}"#, r#"{"c": {"x": "s"}}"#, r#"{"f": "x"}"#, r#"{"f": 4}"#, r#"{"x": 1}"#, r#"{"y": [1]}"#,
        r#"{"u": "intege"}"#, r#"{"u": [1]}"#, r#"{"u": ["string", 2]}"#, r#"{"v": {"a": 1, "n": 3, "y": 4, "z": 2}}"#,
        r#"{"q": {"n": "x"}}"#, r#"{"q": {"m": 1}}"#,
    ] {
        let (early, last) = early_and_final(&contract, text);
        assert!(!early.is_empty(), "{text}");
        assert_eq!(early, last, "{text}");
    }
}

#[test]
fn a_repeated_member_name_is_reported_early_and_in_the_final_error() {
    let contract = Contract::compile(&json!({"properties": {"a": {"type": "integer"}}}), &Options::default()).unwrap();
    let text = r#"{"a": 1, "a": 2}"#;
    let (early, last) = early_and_final(&contract, text);
    assert_eq!(early.iter().map(|v| v["keyword"].as_str().unwrap()).collect::<Vec<_>>(), vec!["duplicateKey"]);
    assert_eq!(early, last);
    let one_shot: Vec<Value> = contract.validate_text(text).unwrap_err().violations.iter().map(|v| serde_json::to_value(v).unwrap()).collect();
    assert_eq!(one_shot, last);
}

#[test]
fn a_runaway_stream_is_cut_at_its_limit_whatever_the_abort_option() {
    // Past maxOutputBytes or maxDepth no answer can be valid: an early violation that ends the
    // attempt, not retried, even when early violations do not abort.
    let options = Options { limits: output_contract::OutputLimits { max_output_bytes: 64, max_depth: 4 }, ..Options::default() };
    let contract = Contract::compile(&json!({"type": "object"}), &options).unwrap();
    for (text, keyword) in [(format!(r#"{{"a": "{}"}}"#, "x".repeat(200)), "maxOutputBytes"), (r#"{"a": [[[[[1]]]]]}"#.to_string(), "maxDepth")] {
        let mut s = OutputStream::new(&contract, StreamOptions { max_retries: 3, abort_on_early_violation: false, ..StreamOptions::default() });
        let mut cut_at = None;
        for (i, b) in text.as_bytes().iter().enumerate() {
            let status = s.push(std::slice::from_ref(b));
            if status.aborted && cut_at.is_none() {
                cut_at = Some(i);
                assert_eq!(status.early_violations.iter().map(|v| v.keyword.as_str()).collect::<Vec<_>>(), vec![keyword]);
            }
        }
        assert!(cut_at.is_some_and(|i| i < text.len() - 1), "{keyword}: cut at {cut_at:?}");
        match s.finish(StopReason::Stop, None) {
            StreamOutcome::Failed { error, attempts, .. } => {
                assert_eq!(attempts, 1, "{keyword}: not retried");
                assert_eq!(error.violations[0].keyword, keyword);
                assert!(!error.retryable);
            }
            other => panic!("{keyword}: {other:?}"),
        }
    }
}

#[test]
fn a_disjunction_reports_one_branch_early_the_one_the_final_error_shows() {
    // At "a" branch 1 breaks fewer rules, at "b" branch 0 does; at "c" branch 1 holds. The final
    // error shows branch 1 (three violations against four); early, the branch first reported is
    // kept, so no violation of branch 0 is mixed in.
    let schema = json!({"anyOf": [
        {"properties": {"a": {"type": "string", "enum": ["x"]}, "b": {"type": "string"}, "c": {"type": "string"}}},
        {"properties": {"a": {"type": "string"}, "b": {"type": "string", "enum": ["y"]}}}
    ]});
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    let (mut early, mut last) = early_and_final(&contract, r#"{"a": 1, "b": 2, "c": 3}"#);
    let key = |v: &Value| format!("{}|{}", v["pointer"], v["keyword"]);
    early.sort_by_key(key);
    last.sort_by_key(key);
    assert_eq!(last.len(), 3);
    assert!(last.iter().all(|v| v["branch"]["index"] == 1), "{last:?}");
    assert_eq!(early, last);
}

/// A value whole in one push (read in one step where its location allows) ends the stream as
/// the same text byte by byte does; a value invalid inside is read byte by byte, its violation
/// the same one, reported by the push that holds its byte.
#[test]
fn a_value_whole_in_one_push_reads_as_byte_by_byte() {
    let schema = json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
        "$defs": {"item": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 5}, "n": {"type": "integer"}}, "required": ["name"], "additionalProperties": false}}
    });
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    let valid = "{\"items\": [{\"name\": \"a\", \"n\": 1},\n {\"name\": \"bc\", \"n\": 2}]}".to_string();
    let invalid = "{\"items\": [{\"name\": \"a\"}, {\"name\": \"abcdefgh\", \"n\": 2}], \"more\": 1}";
    for text in [valid.as_str(), invalid] {
        let mut bytewise = OutputStream::new(&contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
        let mut first = None;
        for (i, b) in text.as_bytes().iter().enumerate() {
            bytewise.push_quiet(std::slice::from_ref(b));
            if first.is_none() && !bytewise.early_violations().is_empty() {
                first = Some(i);
            }
        }
        // The root's bracket alone, then the rest at once (each item whole in it), then byte by
        // byte from where the violation is certain.
        let mut whole = OutputStream::new(&contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
        let cut = first.unwrap_or(text.len() - 1);
        whole.push_quiet(&text.as_bytes()[..1]);
        whole.push_quiet(&text.as_bytes()[1..cut]);
        assert!(whole.early_violations().is_empty(), "{text}: reported before its byte");
        for b in &text.as_bytes()[cut..] {
            whole.push_quiet(std::slice::from_ref(b));
        }
        assert_eq!(whole.early_violations(), bytewise.early_violations(), "{text}");
        assert_eq!(whole.parser().position(), bytewise.parser().position(), "{text}");
        // All of it in one push: the invalid item is whole there, refused, and read byte by byte.
        let mut once = OutputStream::new(&contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
        once.push_quiet(text.as_bytes());
        assert_eq!(once.early_violations(), bytewise.early_violations(), "{text}");
        let outcome = |mut s: OutputStream| serde_json::to_value(s.finish(StopReason::Stop, None)).unwrap();
        let expected = outcome(bytewise);
        assert_eq!(outcome(whole), expected, "{text}");
        assert_eq!(outcome(once), expected, "{text}");
    }
}

/// A container that begins in one push and closes in the next (its second part may hold whole
/// containers, read in one step) ends the stream as the same text byte by byte does: valid, or
/// invalid inside before the boundary or after it (then its violation is reported by the push
/// that holds its byte), at the same position.
#[test]
fn a_value_across_two_pushes_reads_as_byte_by_byte() {
    let schema = json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
        "$defs": {"item": {"type": "object", "properties": {
            "name": {"type": "string", "maxLength": 5},
            "tags": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
            "sub": {"type": "object", "properties": {"k": {"enum": ["x\"]", "y"]}}, "additionalProperties": false}
        }, "required": ["name"], "additionalProperties": false}}
    });
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    let texts = [
        "{\"items\": [{\"name\": \"a\", \"tags\": [[1, 2], [3]], \"sub\": {\"k\": \"x\\\"]\"}},\n {\"name\": \"bc\\u00e9\", \"tags\": [], \"sub\": {}}, {\"name\": \"d\"}], \"x\": 1}",
        "{\"items\": [{\"name\": \"abcdefgh\", \"tags\": [[1, 2], [3]], \"sub\": {\"k\": \"y\"}}, {\"name\": \"d\"}]}",
        "{\"items\": [{\"name\": \"a\", \"tags\": [[1, 2], [3, 4.5]], \"sub\": {\"k\": \"y\"}}, {\"name\": \"d\"}]}",
        "{\"items\": [{\"name\": \"a\", \"tags\": [[1, 2], [3]], \"sub\": {\"k\": \"z\"}}, {\"name\": \"d\"}]}",
        "{\"items\": [{\"name\": \"a\", \"tags\": [[1, 2], [3]], \"sub\": {\"k\": \"y\", \"k\": \"y\"}}]}",
        "{\"items\": [{\"name\": \"a\", \"tags\": [[1, 2], [3]], \"sub\": {\"k\": \"y\"}} {\"name\": \"d\"}]}",
    ];
    let options = || StreamOptions { max_retries: 0, ..StreamOptions::default() };
    let outcome = |mut s: OutputStream| serde_json::to_value(s.finish(StopReason::Stop, None)).unwrap();
    for text in texts {
        let bytes = text.as_bytes();
        let mut bytewise = OutputStream::new(&contract, options());
        let mut first = None;
        for (i, b) in bytes.iter().enumerate() {
            bytewise.push_quiet(std::slice::from_ref(b));
            if first.is_none() && !bytewise.early_violations().is_empty() {
                first = Some(i);
            }
        }
        let cut = first.unwrap_or(bytes.len());
        let early = bytewise.early_violations().to_vec();
        let position = bytewise.parser().position();
        let expected = outcome(bytewise);
        for split in 1..bytes.len() {
            let mut two = OutputStream::new(&contract, options());
            two.push_quiet(&bytes[..split]);
            if split < cut {
                // Up to the violation's byte in the second push, then byte by byte.
                two.push_quiet(&bytes[split..cut]);
                assert!(two.early_violations().is_empty(), "{text} split at {split}: reported before its byte");
                for b in &bytes[cut..] {
                    two.push_quiet(std::slice::from_ref(b));
                }
            } else {
                two.push_quiet(&bytes[split..]);
            }
            assert_eq!(two.early_violations(), early, "{text} split at {split}");
            assert_eq!(two.parser().position(), position, "{text} split at {split}");
            assert_eq!(outcome(two), expected, "{text} split at {split}");
        }
    }
}

/// Where a string's plain content can be handed over later (`plain_room`): inside a string, as
/// much as no text check looks at, never after an escape began, in extract mode, while changes
/// are recorded, or past a third of the size limit's room.
#[test]
fn plain_content_is_taken_only_where_it_can_report_nothing() {
    let schema = json!({
        "type": "object",
        "properties": {
            "s": { "type": "string" },
            "m": { "type": "string", "maxLength": 300 },
            "n": { "type": "string", "maxLength": 10 },
            "e": { "enum": ["alpha", "beta"] }
        }
    });
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    let takes = |text: &str, options: StreamOptions| {
        let mut s = OutputStream::new(&contract, options);
        s.push(text.as_bytes());
        s.plain_room()
    };
    let plain = StreamOptions::default();
    assert_eq!(takes(r#"{"s": "abc"#, plain), (1 << 20) / 3 - 3);
    assert!(takes(r#"{"longer_na"#, plain) > 1000, "a member's name");
    assert_eq!(takes(r#"{"s": "ab\"#, plain), 0, "an escape under way");
    assert_eq!(takes(r#"{"m": "abc"#, plain), 297, "300 - 3 characters of room");
    assert_eq!(takes(&format!(r#"{{"m": "{}"#, "x".repeat(45)), plain), 255);
    assert_eq!(takes(r#"{"n": "abc"#, plain), 7, "maxLength 10");
    assert_eq!(takes(r#"{"e": "al"#, plain), 0, "an enum judges every prefix");
    assert_eq!(takes(r#"{"s": "abc""#, plain), 0, "past the string");
    assert_eq!(takes(r#"{"s": 12"#, plain), 0, "a number");
    assert_eq!(takes(r#"{"s": "abc"#, StreamOptions { extract: true, ..StreamOptions::default() }), 0);
    let mut recording = OutputStream::new(&contract, plain);
    recording.changes();
    recording.push(br#"{"s": "abc"#);
    assert_eq!(recording.plain_room(), 0, "changes recorded");
    let small = Contract::compile(&schema, &Options { limits: output_contract::OutputLimits { max_output_bytes: 700, ..Default::default() }, ..Options::default() }).unwrap();
    let mut near = OutputStream::new(&small, plain);
    near.push(br#"{"s": "abc"#);
    assert_eq!(near.plain_room(), (700 - 10) / 3, "a third of the size limit's room");
}

/// A failure's `raw_output` as the stream defines it: the first `limit` bytes pushed into the
/// attempt (every push until it ended), whole when the stream read no more than that, else cut on
/// a character boundary with a marker counting every byte read and not shown.
fn expected_raw_output(pushed: &[u8], read: usize, limit: usize) -> String {
    let head = &pushed[..limit.min(pushed.len())];
    if read <= head.len() {
        return String::from_utf8_lossy(head).into_owned();
    }
    let valid = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap(),
    };
    format!("{valid}…[truncated {} bytes]", read - valid.len())
}

/// Pushes `text` in `chunk`-byte pieces (pieces cutting UTF-8 sequences) and ends the attempt:
/// the outcome, the bytes the attempt took in and the bytes it read.
fn attempt(s: &mut OutputStream, text: &str, chunk: usize, reason: StopReason) -> (StreamOutcome, Vec<u8>, usize) {
    let mut pushed = Vec::new();
    for c in text.as_bytes().chunks(chunk) {
        // An attempt ended (an early violation or a limit) takes nothing more in.
        if !s.is_aborted() {
            pushed.extend_from_slice(c);
        }
        s.push(c);
    }
    let read = s.status().bytes;
    (s.finish(reason, None), pushed, read)
}

/// `raw_output` for every way an attempt ends: within and past its limit, the limit below and
/// above the size limit, a syntax error mid-push with pushes after it, trailing text, a size or
/// depth limit reached mid-push, a truncated output, extraction, retries, any chunking.
#[test]
fn raw_output_is_the_head_of_what_each_attempt_took_in() {
    let texts = [
        r#"{"a": "ééé", "b": [1, 2, 3], "c": "more text 😀 to read past the limits"}"#,
        r#"{"a": 1,, "b": "é😀 text after the syntax error, pushed on and on"}"#,
        r#"{"a": "é"} trailing text é😀 after the value"#,
        r#"{"a": {"b": {"c": {"d": 1}}}, "e": "é😀 after the depth limit"}"#,
        r#"{"a": "éé😀 cut short"#,
        "no JSON here é😀",
        "Here it is:\n```json\n{\"a\": \"é😀\", \"b\": [1, 2]}\n```\nDone é.",
        "Sure: {\"a\": 1,, \"b\": \"é\"} and more",
        "",
    ];
    let schema = json!({"type": "object", "required": ["x"]});
    let mut failures = 0;
    for raw_output_limit in [0, 1, 5, 8, 13, 21, 30, 4096] {
        for max_output_bytes in [12, 25, 40, 1 << 20] {
            for max_depth in [2, 128] {
                let limits = output_contract::OutputLimits { max_output_bytes, max_depth };
                let contract = Contract::compile(&schema, &Options { raw_output_limit, limits, ..Options::default() }).unwrap();
                for extract in [false, true] {
                    for abort_on_early_violation in [false, true] {
                        for chunk in [1, 2, 3, 5, 7, 64] {
                            for (reason, max_retries) in [(StopReason::Stop, 0), (StopReason::Stop, 1), (StopReason::Length, 1)] {
                                let options = StreamOptions { max_retries, extract, abort_on_early_violation, ..StreamOptions::default() };
                                // Each text as the first attempt, and (when that one is retried) as the second.
                                for text in texts {
                                    let mut s = OutputStream::new(&contract, options);
                                    let (outcome, pushed, read) = attempt(&mut s, text, chunk, reason);
                                    let second = match outcome {
                                        StreamOutcome::Retry { .. } => {
                                            let (outcome, pushed, read) = attempt(&mut s, texts[0], chunk, reason);
                                            Some((outcome, pushed, read))
                                        }
                                        other => {
                                            failures += check_raw_output(&other, &pushed, read, raw_output_limit, text);
                                            None
                                        }
                                    };
                                    if let Some((outcome, pushed, read)) = second {
                                        failures += check_raw_output(&outcome, &pushed, read, raw_output_limit, text);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures > 10_000, "{failures} failures checked");
}

/// 1 for a failure (its `raw_output` checked), 0 for any other outcome.
fn check_raw_output(outcome: &StreamOutcome, pushed: &[u8], read: usize, limit: usize, text: &str) -> usize {
    let StreamOutcome::Failed { error, .. } = outcome else { return 0 };
    assert_eq!(error.raw_output, expected_raw_output(pushed, read, limit), "{text:?}, limit {limit}");
    1
}

#[test]
fn raw_output_after_a_syntax_error_keeps_what_came_after_it() {
    let contract = Contract::compile(&json!({"type": "object"}), &Options { raw_output_limit: 24, ..Options::default() }).unwrap();
    let mut s = OutputStream::new(&contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
    for chunk in [&b"{\"a\": 1,, \"b"[..], b"\": \"\xc3", b"\xa9\xf0\x9f", b"\x98\x80 and more text"] {
        s.push(chunk);
    }
    let StreamOutcome::Failed { error, .. } = s.finish(StopReason::Stop, None) else { panic!() };
    // The text broke at byte 9: what was pushed after it is shown, up to the limit.
    assert_eq!(error.raw_output, "{\"a\": 1,, \"b\": \"é😀 a");
}

#[test]
fn raw_output_past_the_size_limit_counts_the_bytes_read() {
    let limits = output_contract::OutputLimits { max_output_bytes: 10, ..Default::default() };
    // The marker counts the 10 bytes read; within the limit, what was pushed in the chunk that
    // went past it is shown too.
    for (raw_output_limit, expected) in [(4, "{\"a\"…[truncated 6 bytes]"), (30, "{\"a\": \"éé😀 past the size ")] {
        let contract = Contract::compile(&json!({"type": "object"}), &Options { raw_output_limit, limits, ..Options::default() }).unwrap();
        let mut s = OutputStream::new(&contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
        s.push("{\"a\": \"é".as_bytes());
        s.push("é😀 past the size limit\"}".as_bytes());
        s.push(b" ignored");
        let StreamOutcome::Failed { error, .. } = s.finish(StopReason::Stop, None) else { panic!() };
        assert_eq!(error.raw_output, expected, "limit {raw_output_limit}");
    }
}

/// Tool-call arguments streamed with nulls read as absent, in chunks of each size, end as the
/// same arguments validated whole do: the same data, or the same violations (returned as
/// `path keyword` lines).
fn nulls_as_absent(contract: &Contract, text: &str) -> Result<Value, Vec<String>> {
    use output_contract::agent::tool::{validate_tool_call_text, ToolCallOptions};
    let whole = validate_tool_call_text(contract, text, ToolCallOptions { null_as_absent: true });
    let whole_violations = |e: &output_contract::OutputValidationError| e.violations.iter().map(|v| serde_json::to_value(v).unwrap()).collect::<Vec<_>>();
    for size in [1, 7, text.len()] {
        let mut s = OutputStream::new(contract, StreamOptions { max_retries: 0, null_as_absent: true, ..StreamOptions::default() });
        for chunk in text.as_bytes().chunks(size) {
            s.push(chunk);
        }
        match (s.finish(StopReason::ToolUse, None), &whole) {
            (StreamOutcome::Valid { data, .. }, Ok(expected)) => assert_eq!(&data, expected, "{text}"),
            (StreamOutcome::Failed { error, .. }, Err(expected)) => assert_eq!(whole_violations(&error), whole_violations(expected), "{text}"),
            (other, expected) => panic!("{text}: streamed {other:?}, whole {expected:?}"),
        }
    }
    whole.map_err(|e| e.violations.iter().map(|v| format!("{} {}", v.path, v.keyword)).collect())
}

#[test]
fn nulls_read_as_absent_end_a_stream_as_they_end_a_whole_value() {
    let contract = Contract::compile(
        &json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["a"],
            "properties": {
                "a": {"type": "integer"},
                "b": {"type": "string", "minLength": 2},
                "n": {"type": ["string", "null"]},
                "o": {"type": "object", "additionalProperties": false, "required": ["q"], "properties": {"p": {"type": "string"}, "q": {"type": "integer"}}},
                "r": {"$ref": "#/$defs/point"},
                "u": {"anyOf": [{"type": "object", "additionalProperties": false, "required": ["k"], "properties": {"k": {"type": "string"}, "m": {"type": "integer"}}}, {"type": "integer"}]},
                "v": {"anyOf": [{"type": "object", "properties": {"w": {"type": "string"}}}, {"type": "object", "properties": {"w": {"type": "null"}}}]}
            },
            "$defs": {"point": {"type": "object", "additionalProperties": false, "required": ["x"], "properties": {"x": {"type": "number"}, "label": {"type": "string"}}}}
        }),
        &Options::default(),
    )
    .unwrap();
    let ok = |text: &str| nulls_as_absent(&contract, text).unwrap();
    let failed = |text: &str| nulls_as_absent(&contract, text).unwrap_err();
    // Settled valid with no null: the value as written.
    assert_eq!(ok(r#"{"a": 1, "b": "xy", "o": {"q": 2}, "r": {"x": 1}, "u": {"k": "z"}}"#), json!({"a": 1, "b": "xy", "o": {"q": 2}, "r": {"x": 1}, "u": {"k": "z"}}));
    // Nulls the schema accepts stay.
    assert_eq!(ok(r#"{"a": 1, "n": null}"#), json!({"a": 1, "n": null}));
    // Nulls of optional properties that do not accept them are removed: the rest is valid …
    assert_eq!(ok(r#"{"a": 1, "b": null}"#), json!({"a": 1}));
    // … or not, the violations then those of the value without them.
    assert_eq!(failed(r#"{"b": null, "n": null}"#), ["$ required"]);
    assert_eq!(failed(r#"{"a": "1", "b": null}"#), ["$.a type"]);
    // In a nested object, where a required property's null stays a violation.
    assert_eq!(ok(r#"{"a": 1, "o": {"p": null, "q": 2}}"#), json!({"a": 1, "o": {"q": 2}}));
    assert_eq!(failed(r#"{"a": 1, "o": {"p": null, "q": null}}"#), ["$.o.q type"]);
    // Through a `$ref`.
    assert_eq!(ok(r#"{"a": 1, "r": {"x": 1, "label": null}}"#), json!({"a": 1, "r": {"x": 1}}));
    assert_eq!(failed(r#"{"a": 1, "r": {"x": null, "label": null}}"#), ["$.r.x type"]);
    // In an anyOf branch.
    assert_eq!(ok(r#"{"a": 1, "u": {"k": "z", "m": null}}"#), json!({"a": 1, "u": {"k": "z"}}));
    assert_eq!(failed(r#"{"a": 1, "u": {"m": null}}"#), ["$.u required"]);
    // A null valid as written that a branch that does not accept it removes: the value
    // validated is the one without it.
    assert_eq!(ok(r#"{"a": 1, "v": {"w": null}}"#), json!({"a": 1, "v": {}}));
}
