//! Extraction from arbitrary model text: never a panic; what it finds is a real span of the text
//! holding the JSON it reports (without repairs), and that JSON parses to the value it reports.
#![no_main]

use libfuzzer_sys::fuzz_target;
use output_contract::check::extract::{extract_json, ExtractOptions};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for repair in [false, true] {
        let x = extract_json(&text, &ExtractOptions { repair, ..ExtractOptions::default() });
        let Some(value) = &x.value else {
            assert!(x.error.is_some() || x.candidates == 0);
            continue;
        };
        assert!(x.start <= x.end && x.end <= text.len());
        let span = text.get(x.start..x.end).expect("the span falls on character boundaries");
        let json = x.json.as_deref().expect("a found value has its JSON text");
        if x.repairs.is_empty() {
            assert_eq!(json, span);
        }
        assert_eq!(&serde_json::from_str::<Value>(json).expect("the reported JSON parses"), value);
    }
});
