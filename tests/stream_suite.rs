//! The stream over the whole JSON-Schema-Test-Suite (drafts 4, 6, 7, 2019-09 and 2020-12,
//! `optional/` included): every instance of the suite, and instances generated from them by
//! small edits (tests/common/mod.rs), streamed byte by byte and in random chunks.
//!
//! - Sound: when one-shot validation (`validate_text`) accepts the text, no prefix of it ever
//!   has an early violation (an early violation is a promise that the output cannot be valid).
//! - Agreeing: the stream's final outcome is one-shot validation's, with the same violations,
//!   and every early violation (as written once its value closed) is one of them, unless a
//!   member name repeats (an early check judged the first value, the final value is the last).
//!
//! Cases the library gets wrong today are listed in `LIBRARY_PENDING` (to be fixed in the
//! library; an entry that starts passing fails the run until it is removed).

mod common;

use common::{over_limits, Findings, Rng, Suite};
use output_contract::{Contract, Draft, OutputStream, StopReason, StreamOptions, StreamOutcome, Violation};

/// Instances generated from each instance of the suite.
const MUTATIONS: usize = 6;

/// Ids are `<file>::<case>::<test>` for the suite's instances and `<file>::<case>::<text>` for
/// generated ones, the text as compact JSON; `<file>::<case>` alone stands for all of a case's.
const LIBRARY_PENDING: &[(&str, &str)] = &[];

#[derive(Default)]
struct Counts {
    suite: usize,
    generated: usize,
    bytes: usize,
    /// Invalid texts that got an early violation.
    early: usize,
    over_limits: usize,
}

/// One pass of a stream over a text.
struct Streamed {
    /// The first early violation, and after how many bytes it was reported.
    early: Option<(usize, String)>,
    /// Every early violation, as the stream holds them once it finished.
    reported: Vec<Violation>,
    outcome: StreamOutcome,
}

/// Streams `text` in the pieces `cut` gives (their lengths).
fn stream(contract: &Contract, text: &str, mut cut: impl FnMut() -> usize) -> Streamed {
    let mut s = OutputStream::new(contract, StreamOptions { max_retries: 0, ..StreamOptions::default() });
    let (mut rest, mut at, mut early) = (text.as_bytes(), 0, None);
    while !rest.is_empty() {
        let (piece, tail) = rest.split_at(cut().min(rest.len()));
        at += piece.len();
        if s.push_quiet(piece) > 0 && early.is_none() {
            let v = &s.early_violations()[0];
            early = Some((at, format!("{} {}: {}", v.path, v.keyword, v.message)));
        }
        rest = tail;
    }
    let outcome = s.finish(StopReason::Stop, None);
    Streamed { early, reported: s.early_violations().to_vec(), outcome }
}

fn listed(violations: &[Violation]) -> String {
    format!("invalid: {:?}", violations.iter().map(Violation::one_line).collect::<Vec<_>>())
}

/// What is wrong with one text's streams, if anything; else whether an early violation was
/// reported (on an invalid text).
fn check(contract: &Contract, text: &str, rng: &mut Rng) -> Result<bool, String> {
    let one_shot = contract.validate_text(text);
    let runs = [("byte by byte", stream(contract, text, || 1)), ("in random chunks", stream(contract, text, || rng.chunk(24)))];
    let mut any_early = false;
    for (how, Streamed { early, reported, outcome }) in runs {
        any_early |= early.is_some();
        if let (Ok(_), Some((at, violation))) = (&one_shot, &early) {
            return Err(format!("  valid, yet streamed {how} an early violation after {at} bytes: {violation}"));
        }
        let agrees = match (&outcome, &one_shot) {
            (StreamOutcome::Valid { data, .. }, Ok(value)) => data == value,
            (StreamOutcome::Failed { error, .. }, Err(expected)) => error.violations == expected.violations,
            _ => false,
        };
        if let StreamOutcome::Failed { error, .. } = &outcome {
            // As the canonical error carries them (a violation's sorting key is not part of it).
            let canonical = |v: &Violation| serde_json::to_value(v).unwrap();
            let last: Vec<_> = error.violations.iter().map(canonical).collect();
            let repeats = error.violations.iter().any(|v| v.keyword == "duplicateKey");
            if let Some(v) = reported.iter().find(|v| !repeats && !last.contains(&canonical(v))) {
                return Err(format!("  streamed {how}: the early violation {} is not one of the final error's: {}", v.one_line(), listed(&error.violations)));
            }
        }
        if !agrees {
            let one_shot = one_shot.as_ref().map_or_else(|e| listed(&e.violations), |_| "valid".to_string());
            let streamed = match &outcome {
                StreamOutcome::Failed { error, .. } => listed(&error.violations),
                other => format!("{other:?}"),
            };
            return Err(format!("  streamed {how}: {streamed}\n  one-shot: {one_shot}"));
        }
    }
    Ok(any_early)
}

/// Streams each case of `dir`; returns the summary line.
fn stream_draft(suite: &Suite, dir: &str, draft: Draft, out: &mut Findings) -> String {
    let mut counts = Counts::default();
    for case in suite.cases(dir) {
        // A schema the library refuses has no stream; tests/spec_suite.rs tells which those are.
        let Some(contract) = case.compile(draft, suite) else { continue };
        // The chunks' lengths.
        let mut rng = Rng::for_case(&case, 2);
        for instance in case.instances(1, MUTATIONS) {
            // Refused before validation for the library's size or depth limits: both paths say
            // so, and the stream's parser stops there too.
            if contract.validate_text(&instance.text).as_ref().is_err_and(over_limits) {
                counts.over_limits += 1;
                continue;
            }
            *if instance.generated { &mut counts.generated } else { &mut counts.suite } += 1;
            counts.bytes += instance.text.len();
            // The suite's instances are also streamed as indented text.
            let pretty = (!instance.generated).then(|| serde_json::to_string_pretty(&instance.test.data).unwrap());
            let checked: Result<Vec<bool>, String> = [Some(&instance.text), pretty.as_ref()].into_iter().flatten().map(|t| check(&contract, t, &mut rng)).collect();
            counts.early += usize::from(checked.as_ref().is_ok_and(|early| early.contains(&true)));
            if let Err(what) = checked {
                out.add(&case, &instance, what);
            }
        }
    }
    format!(
        "stream {dir}: {} suite instances and {} generated streamed ({} bytes, each byte by byte and in random chunks; {} skipped past the library's limits); {} invalid ones stopped early",
        counts.suite, counts.generated, counts.bytes, counts.over_limits, counts.early
    )
}

#[test]
fn streams_are_sound_and_agree_with_one_shot_on_the_suite() {
    common::run_suite(stream_draft, &[LIBRARY_PENDING]);
}
