//! The stream state machine under random chunking and random finish events: it never panics,
//! attempts only grow, and a valid outcome's data always passes one-shot validation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use output_contract::agent::stream::{OutputStream, StopReason, StreamOptions, StreamOutcome};
use output_contract::{Contract, Options};
use serde_json::json;
use std::sync::OnceLock;

fn contract() -> &'static Contract {
    static C: OnceLock<Contract> = OnceLock::new();
    C.get_or_init(|| {
        let schema = json!({
            "type": "object", "additionalProperties": false, "required": ["a"],
            "properties": {
                "a": {"type": "array", "maxItems": 3, "items": {"anyOf": [{"type": "string", "maxLength": 5}, {"enum": [1, 2]}]}},
                "b": {"oneOf": [{"type": "number", "minimum": 0}, {"type": "null"}]},
                "c": {"const": "x"}
            }
        });
        Contract::compile(&schema, &Options::default()).expect("the fuzz schema compiles")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, input)) = data.split_first() else { return };
    let options = StreamOptions { max_retries: usize::from(control & 3), extract: control & 4 != 0, abort_on_early_violation: control & 8 != 0, null_as_absent: control & 16 != 0 };
    let mut s = OutputStream::new(contract(), options);
    let mut attempt = 1;
    let mut rest = input;
    let mut step = 0usize;
    while !rest.is_empty() && !s.is_done() {
        let n = 1 + (usize::from(rest[0]) % 17);
        let (chunk, tail) = rest.split_at(n.min(rest.len()));
        rest = tail;
        let status = s.push(chunk);
        assert_eq!(status.attempt, attempt);
        step += 1;
        if chunk[0] % 29 == 0 {
            let reason = [StopReason::Stop, StopReason::Length, StopReason::Refusal, StopReason::ToolUse][step % 4];
            match s.finish(reason, None) {
                StreamOutcome::Valid { data, .. } => assert!(contract().is_valid(&data)),
                StreamOutcome::Retry { .. } => attempt += 1,
                StreamOutcome::Failed { error, .. } => assert!(!error.retryable),
                StreamOutcome::Refused { .. } => {}
            }
        }
    }
});
