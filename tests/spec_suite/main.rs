//! The official JSON-Schema-Test-Suite (../shared/json-schema-test-suite) through the Rust API,
//! for drafts 4, 6, 7, 2019-09 and 2020-12. Required tests must all pass except the ones listed
//! with a reason in tests/spec-known-failures.json; `optional/` is reported separately.
//!
//! The runner uses the specification's defaults, not the product's stricter ones: unknown
//! keywords are ignored (strict: false) and `format` is an annotation (formats: false), except in
//! `optional/format`, whose tests are about asserting formats.
//!
//! Split by concern: the suite is loaded by tests/common (`Suite`); `draft` runs one draft's
//! cases; `known` holds the listed failures and settles them. This file runs the drafts and
//! prints one `draft…:` line each (scripts/test.sh shows those lines).

#[path = "../common/mod.rs"]
mod common;
mod draft;
mod known;

use common::{Suite, DRAFTS};
use draft::Verdicts;
use known::Known;

#[test]
fn json_schema_test_suite() {
    let suite = Suite::load();
    let mut known = Known::load();
    let mut verdicts = Verdicts::default();
    let summary: Vec<String> = DRAFTS.iter().map(|&(dir, draft)| draft::run(&suite, dir, draft, &mut known, &mut verdicts)).collect();
    for line in &summary {
        println!("{line}");
    }
    println!(
        "verdict: {} texts checked against the full path; of {} valid texts under a schema with a verdict, {} recognised in one pass; of {} invalid texts, {} reported from located subtrees",
        verdicts.checked, verdicts.valid, verdicts.fast, verdicts.invalid, verdicts.located
    );
    assert!(verdicts.fast > 1000, "the byte-level verdict applies to too few spec cases: {}", verdicts.fast);
    known.assert_settled();
}
