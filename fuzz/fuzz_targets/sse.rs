//! The event-stream decoder and each provider's reading of its events, fed arbitrary bytes at
//! random splits: no panic, the same events as the whole input gives, and each byte scanned once
//! (the decoder never reads a byte twice, however the input is cut).
#![no_main]

use libfuzzer_sys::fuzz_target;
use output_contract::agent::provider::sse::SseDecoder;
use output_contract::agent::provider::{EventDecoder, Provider};

fn events(provider: Provider, input: &[u8], cuts: &[u8]) -> (Vec<String>, usize) {
    let mut decoder = EventDecoder::new(provider);
    let mut out = Vec::new();
    let mut rest = input;
    for &c in cuts {
        let n = usize::from(c).min(rest.len());
        let (chunk, tail) = rest.split_at(n);
        decoder.push(chunk, &mut out);
        rest = tail;
    }
    decoder.push(rest, &mut out);
    let scanned = decoder.scanned();
    decoder.end(&mut out);
    (out.iter().map(|e| format!("{e:?}")).collect(), scanned)
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else { return };
    // The first bytes after the control byte are chunk lengths; the rest is the body.
    let split = usize::from(control % 32).min(rest.len());
    let (cuts, input) = rest.split_at(split);
    let provider = [Provider::OpenAiChat, Provider::OpenAiResponses, Provider::Anthropic][usize::from(control / 32) % 3];
    let (whole, scanned) = events(provider, input, &[]);
    assert_eq!(scanned, input.len());
    let (split_events, scanned) = events(provider, input, cuts);
    assert_eq!(scanned, input.len());
    assert_eq!(whole, split_events);
    // The raw decoder a byte at a time agrees with it whole.
    let (mut one, mut bytes) = (SseDecoder::new(), SseDecoder::new());
    let (mut a, mut b) = (Vec::new(), Vec::new());
    one.push(input, &mut a);
    for byte in input.chunks(1) {
        bytes.push(byte, &mut b);
    }
    assert_eq!(a, b);
    assert_eq!(bytes.scanned(), input.len());
});
