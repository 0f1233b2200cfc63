//! The incremental parser against serde_json on the complete input, and every split point of
//! the input against the one-piece parse.
#![no_main]

use libfuzzer_sys::fuzz_target;
use output_contract::internals::{NoObserver, Parser, Status};
use serde_json::Value;

fn parse(pieces: &[&[u8]]) -> Parser {
    let mut p = Parser::new(usize::MAX, 256, false);
    for piece in pieces {
        p.push(piece, &mut NoObserver);
    }
    p.end(&mut NoObserver);
    p
}

fuzz_target!(|data: &[u8]| {
    let whole = parse(&[data]);
    // serde_json's own recursion limit is 128; compare only below it.
    if output_contract::check::output::nesting_depth(data, 120) <= 120 {
        match (serde_json::from_slice::<Value>(data), whole.status()) {
            (Ok(v), Status::Complete) => assert_eq!(whole.value(), Some(&v)),
            (Err(e), Status::Incomplete) if e.is_eof() => {}
            (Err(e), Status::Broken(_)) if !e.is_eof() => {}
            (r, s) => panic!("serde {r:?}, parser {s:?}"),
        }
    }
    for cut in 0..=data.len().min(64) {
        let (a, b) = data.split_at(cut);
        let split = parse(&[a, b]);
        assert_eq!(split.status().clone(), whole.status().clone());
        assert_eq!(split.value(), whole.value());
    }
});
