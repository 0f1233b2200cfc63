//! Arbitrary instances against the JSON-Schema-Test-Suite's schemas (draft 2020-12, read from
//! ../shared beside the repository): the first byte picks a schema, the rest is the output text.
//! Never a panic; the one-shot verdict, the stream's verdict and the byte-level verdict
//! (src/check/verdict.rs: it may only accept what the full path accepts) agree, and so do the full
//! path's canonical error and the one built from the verdict's located subtrees, whose JSON text
//! is serde_json's. The reference implementation (the `jsonschema` crate) gives the same verdict
//! on every output that is JSON, but for the disagreements tests/differential.rs lists.
#![no_main]

use libfuzzer_sys::fuzz_target;
use output_contract::agent::stream::{OutputStream, StopReason, StreamOptions, StreamOutcome};
use output_contract::{Contract, Options, OutputValidationError};
use serde_json::Value;
use std::sync::OnceLock;

/// A schema compiled by the library and, when it compiles it too, by the reference.
type Pair = (Contract, Option<jsonschema::Validator>);

fn contracts() -> &'static [Pair] {
    static ALL: OnceLock<Vec<Pair>> = OnceLock::new();
    ALL.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/json-schema-test-suite/tests/draft2020-12");
        let mut out = Vec::new();
        let mut files: Vec<_> = std::fs::read_dir(dir).expect("the test suite beside the repository").flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
            let groups: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_default()).unwrap_or(Value::Null);
            for group in groups.as_array().into_iter().flatten() {
                let options = Options { strict: false, ..Options::default() };
                if let Ok(c) = Contract::compile(&group["schema"], &options) {
                    // Configured as the library is: Draft 2020-12, formats asserted.
                    let reference = jsonschema::options()
                        .with_draft(jsonschema::Draft::Draft202012)
                        .should_validate_formats(true)
                        .build(&group["schema"])
                        .ok();
                    out.push((c, reference));
                }
            }
        }
        out
    })
}

fuzz_target!(|data: &[u8]| {
    let all = contracts();
    let Some((&pick, rest)) = data.split_first() else { return };
    let Some((contract, reference)) = all.get(pick as usize * all.len() / 256) else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let full = contract.validate_text(text).map(drop);
    let one_shot = full.is_ok();
    assert!(contract.quick_verdict(text) != Some(true) || one_shot, "the verdict accepts {text:?}");
    // check_text's report (from the subtrees the verdict located, when it could) is the full one.
    let checked = contract.check_text(text);
    assert_eq!(checked, full, "{text:?}");
    // The error's text as it crosses to JavaScript (written by hand) is serde_json's.
    if let Err(error) = &checked {
        assert_eq!(error.to_json_text(), serde_json::to_string(error).unwrap_or_default(), "{text:?}");
    }
    let mut stream = OutputStream::new(contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
    for piece in rest.chunks(7) {
        stream.push(piece);
    }
    let streamed = matches!(stream.finish(StopReason::Stop, None), StreamOutcome::Valid { .. });
    assert_eq!(streamed, one_shot, "{text:?}");
    if let (Some(reference), Ok(value)) = (reference, serde_json::from_str::<Value>(text)) {
        if !known_deviation(contract.schema(), text, &full) {
            assert_eq!(reference.is_valid(&value), one_shot, "the reference disagrees on {text:?} for {}", contract.schema());
        }
    }
});

/// Outputs on which the library and the reference are known to differ (tests/differential.rs
/// lists each with its reason), or that the library refuses before validating them.
fn known_deviation(schema: &Value, text: &str, full: &Result<(), OutputValidationError>) -> bool {
    let schema_text = schema.to_string();
    // Past the library's size or depth limits, or a property name written twice: refused by
    // rules of the library's own, where the reference reads the last value.
    let refused = full.as_ref().is_err_and(|e| e.violations.iter().any(|v| matches!(v.keyword.as_str(), "maxOutputBytes" | "maxDepth" | "duplicateKey")));
    // `format: regex`: the library reads regexes in ECMA-262's unicode mode, the reference in
    // a syntax of its own.
    let regex = schema_text.contains(r#""format":"regex""#);
    // `format: hostname`: the library accepts A-labels of code points IDNA disallows.
    let a_label = schema_text.contains("hostname") && text.to_ascii_lowercase().contains("xn--");
    refused || regex || a_label
}
