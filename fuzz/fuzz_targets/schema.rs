//! Schemas from arbitrary bytes, as the dashboard's users may type them: `checkSchema` on the
//! text and compilation of whatever parses never panic; diagnostics stay inside the text, and a
//! compiled contract validates arbitrary instances.
#![no_main]

use libfuzzer_sys::fuzz_target;
use output_contract::editor::lint::{check_schema, CheckOptions, Severity};
use output_contract::{Contract, Options};
use serde_json::{json, Value};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let units = text.encode_utf16().count();
    let report = check_schema(&text, &CheckOptions::default());
    assert_eq!(report.valid, !report.diagnostics.iter().any(|d| d.severity == Severity::Error));
    for d in &report.diagnostics {
        assert!(d.range.start.offset <= d.range.end.offset && d.range.end.offset <= units, "{d:?}");
        assert!(d.range.start.line >= 1 && d.range.start.column >= 1);
    }
    let Ok(schema) = serde_json::from_str::<Value>(&text) else { return };
    for strict in [true, false] {
        if let Ok(contract) = Contract::compile(&schema, &Options { strict, ..Options::default() }) {
            for instance in [json!(null), json!({}), json!([1, "a", {"b": [true]}]), json!("x"), schema.clone()] {
                let _ = contract.validate(&instance);
            }
            let _ = contract.validate_text(&text);
        }
    }
});
