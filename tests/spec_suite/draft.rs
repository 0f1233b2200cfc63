//! One draft's cases of the suite: each instance's answer against the suite's, and the
//! byte-level verdict and the located report against the full path on every instance.

use crate::common::{Case, Suite};
use crate::known::Known;
use output_contract::{Contract, Draft, Options};
use serde_json::Value;

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    known: usize,
}

#[derive(Default)]
pub struct Verdicts {
    pub checked: usize,
    /// Valid texts of schemas with a verdict, and those it recognised itself.
    pub valid: usize,
    pub fast: usize,
    /// Invalid texts, and those reported from located subtrees.
    pub invalid: usize,
    pub located: usize,
}

/// Runs every case of directory `dir` under `draft`: failures not listed in `known` are kept
/// there to be reported; returns the draft's summary line.
pub fn run(suite: &Suite, dir: &str, draft: Draft, known: &mut Known, verdicts: &mut Verdicts) -> String {
    let (mut required, mut optional) = (Tally::default(), Tally::default());
    for case in suite.cases(dir) {
        let rel = &case.file;
        let is_optional = rel.contains("/optional/");
        // Every remote document, for every schema (as a user who registers them all would).
        let options = Options { draft: Some(draft), strict: false, formats: case.formats, resources: suite.remotes.clone(), ..Options::default() };
        let compiled = Contract::compile(&case.schema, &options);
        for test in &case.tests {
            if let Ok(contract) = &compiled {
                check_verdict(contract, &case, &test.data, verdicts);
            }
            let id = format!("{}::{}", case.id(), test.description);
            let ok = match &compiled {
                Ok(contract) => {
                    let valid = contract.is_valid(&test.data);
                    // The full report must agree with the verdict.
                    let violations = contract.violations(&test.data);
                    assert_eq!(valid, violations.is_empty(), "{id}: is_valid and violations disagree");
                    valid == test.valid
                }
                Err(_) => false,
            };
            let tally = if is_optional { &mut optional } else { &mut required };
            if ok {
                tally.passed += 1;
            } else if known.settle(&id) {
                tally.known += 1;
            } else {
                if !is_optional {
                    let why = match &compiled {
                        Err(e) => format!("compile error: {e}"),
                        Ok(_) => format!("expected valid={}", test.valid),
                    };
                    known.unexpected(format!("{id} ({why})"));
                }
                tally.failed += 1;
            }
        }
    }
    format!(
        "{dir}: required {} passed, {} failed, {} known | optional {} passed, {} failed, {} known",
        required.passed, required.failed, required.known, optional.passed, optional.failed, optional.known
    )
}

/// The byte-level verdict (src/check/verdict.rs), planned from the validator's nodes: on the
/// instance as compact and as indented text, it must agree with the full path.
fn check_verdict(contract: &Contract, case: &Case, data: &Value, verdicts: &mut Verdicts) {
    let rel = &case.file;
    for text in [serde_json::to_string(data).unwrap(), serde_json::to_string_pretty(data).unwrap()] {
        let full = contract.validate_text(&text).is_ok();
        let quick = contract.quick_verdict(&text);
        assert!(quick != Some(true) || full, "{rel}: the verdict accepts {text}, the full path does not, for {}", case.schema);
        // An invalid text's report may come from the subtrees the verdict located: it must be
        // the full path's report, violation for violation.
        let located = contract.check_text(&text).err();
        assert_eq!(located, contract.validate_text(&text).err(), "{rel}: check_text and the full path disagree on {text} for {}", case.schema);
        // The error's text as it crosses to JavaScript, written by hand, is serde_json's.
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
