//! Recorded provider transcripts (tests/fixtures/providers/) through the provider stream: each
//! ends as expected.json says, whether it arrives whole, a byte at a time, cut in two at every
//! byte (short transcripts) or at seeded random bytes (all), and the event-stream decoder scans
//! each byte of it once.

mod common;

use common::Rng;
use output_contract::agent::provider::{ErrorKind, Provider, ProviderError, ProviderOptions, ProviderOutcome, ProviderStream};
use output_contract::agent::stream::{StreamOptions, StreamOutcome};
use output_contract::{Contract, Options};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/providers");
/// Transcripts up to this size are also cut in two at every byte.
const SHORT: usize = 2600;

fn expected() -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{DIR}/expected.json")).unwrap()).unwrap()
}

struct Case {
    name: String,
    bytes: Vec<u8>,
    expect: Value,
    contract: Contract,
}

fn cases() -> Vec<Case> {
    let all = expected();
    let contract = Contract::compile(&all["schema"], &Options::default()).unwrap();
    all["transcripts"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, expect)| Case { name: name.clone(), bytes: std::fs::read(format!("{DIR}/{name}")).unwrap(), expect: expect.clone(), contract: contract.clone() })
        .collect()
}

fn run(case: &Case, splits: &[usize], abort: bool) -> (Result<ProviderOutcome, ProviderError>, usize) {
    let provider = Provider::parse(case.expect["provider"].as_str().unwrap()).unwrap();
    let tool = case.expect["tool"].as_str().map(str::to_string);
    let options = ProviderOptions { tool, stream: StreamOptions { abort_on_early_violation: abort, ..StreamOptions::default() } };
    let mut s = ProviderStream::new(&case.contract, provider, options);
    let mut at = 0;
    for &end in splits.iter().chain([case.bytes.len()].iter()) {
        s.push(&case.bytes[at..end]);
        at = end;
        if s.is_aborted() {
            break;
        }
    }
    let scanned = s.scanned();
    (s.finish(), scanned)
}

fn keywords(outcome: &StreamOutcome) -> Vec<String> {
    match outcome {
        StreamOutcome::Retry { violations, .. } => violations.iter().map(|v| v.keyword.clone()).collect(),
        StreamOutcome::Failed { error, .. } => error.violations.iter().map(|v| v.keyword.clone()).collect(),
        _ => Vec::new(),
    }
}

fn check(case: &Case, result: &Result<ProviderOutcome, ProviderError>, how: &str) {
    let e = &case.expect;
    let at = format!("{} ({how})", case.name);
    if let Some(error) = e.get("error") {
        let got = result.as_ref().expect_err(&at);
        let kind = serde_json::to_value(got.kind).unwrap();
        assert_eq!(kind, error["kind"], "{at}: {got:?}");
        if let Some(code) = error.get("code") {
            assert_eq!(got.code.as_deref(), code.as_str(), "{at}");
        }
        return;
    }
    let got = result.as_ref().unwrap_or_else(|err| panic!("{at}: {err:?}"));
    let outcome = serde_json::to_value(&got.outcome).unwrap();
    assert_eq!(outcome["state"], e["state"], "{at}: {outcome}");
    assert_eq!(got.stop_reason.as_deref(), e["stopReason"].as_str(), "{at}");
    assert_eq!(got.usage.as_ref().unwrap_or(&Value::Null), &e["usage"], "{at}");
    match e["state"].as_str() {
        Some("refused") => assert_eq!(outcome["refusal"], e["refusal"], "{at}"),
        _ if e["valid"] == true => assert_eq!(outcome["data"], e["data"], "{at}"),
        _ => assert_eq!(keywords(&got.outcome), serde_json::from_value::<Vec<String>>(e["keywords"].clone()).unwrap(), "{at}"),
    }
}

/// Seeded: the same cuts on every run.
fn random_splits(len: usize, seed: u64, count: usize) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut cuts: Vec<usize> = (0..count).map(|_| rng.below(len + 1)).collect();
    cuts.sort_unstable();
    cuts
}

#[test]
fn every_transcript_ends_as_expected_whole_and_a_byte_at_a_time() {
    let cases = cases();
    assert!(cases.len() >= 20);
    for case in &cases {
        let (whole, scanned) = run(case, &[], false);
        check(case, &whole, "whole");
        assert_eq!(scanned, case.bytes.len(), "{}", case.name);
        let bytes: Vec<usize> = (1..case.bytes.len()).collect();
        let (split, scanned) = run(case, &bytes, false);
        check(case, &split, "a byte at a time");
        assert_eq!(scanned, case.bytes.len(), "{}: each byte scanned once", case.name);
    }
}

#[test]
fn short_transcripts_cut_in_two_at_every_byte() {
    for case in cases().iter().filter(|c| c.bytes.len() <= SHORT) {
        for cut in 0..=case.bytes.len() {
            let (result, scanned) = run(case, &[cut], false);
            check(case, &result, &format!("cut at {cut}"));
            assert_eq!(scanned, case.bytes.len());
        }
    }
}

#[test]
fn every_transcript_cut_at_seeded_random_bytes() {
    for (n, case) in cases().iter().enumerate() {
        for seed in 1..=12u64 {
            let count = 1 + (seed as usize * 7) % (case.bytes.len() / 8).max(1);
            let cuts = random_splits(case.bytes.len(), seed * 7919 + n as u64, count.min(400));
            let (result, scanned) = run(case, &cuts, false);
            check(case, &result, &format!("seed {seed}"));
            assert_eq!(scanned, case.bytes.len());
        }
    }
}

#[test]
fn an_early_violation_stops_the_reading_where_it_appears() {
    let mut seen = 0;
    for case in cases().iter().filter(|c| c.expect.get("early").is_some()) {
        seen += 1;
        let bytes: Vec<usize> = (1..case.bytes.len()).collect();
        let (result, scanned) = run(case, &bytes, true);
        let outcome = result.unwrap().outcome;
        assert_eq!(keywords(&outcome), [case.expect["early"].as_str().unwrap()], "{}", case.name);
        assert!(scanned < case.bytes.len() / 2, "{}: read {scanned} of {} bytes", case.name, case.bytes.len());
    }
    assert_eq!(seen, 3);
}

#[test]
fn a_refusal_a_token_limit_and_an_error_are_never_schema_failures() {
    let cases = cases();
    let kinds: Vec<ErrorKind> = cases.iter().filter_map(|c| run(c, &[], false).0.err()).map(|e| e.kind).collect();
    assert!(kinds.contains(&ErrorKind::ProviderError) && kinds.contains(&ErrorKind::IncompleteStream));
}
