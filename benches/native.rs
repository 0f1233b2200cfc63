//! The Rust core against jsonschema called directly (issue 7): the overhead of our layer
//! (limits, the depth pre-check, parsing, the canonical error) on the benchmark corpus, which
//! bench/compare.mjs writes to target/bench/corpus.json before running this.
//!
//! `cargo bench --bench native` (after `node bench/compare.mjs` has written the corpus).
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use output_contract::{Contract, Options};
use serde_json::Value;
use std::hint::black_box;

struct Case {
    name: String,
    schema: Value,
    outputs: Vec<(u64, String, String)>,
}

fn corpus() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/target/bench/corpus.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|_| panic!("{path} is missing: node bench/compare.mjs writes it"));
    let all: Vec<Value> = serde_json::from_str(&text).expect("corpus.json");
    all.into_iter()
        .map(|c| Case {
            name: c["name"].as_str().unwrap_or_default().to_string(),
            schema: c["schema"].clone(),
            outputs: c["outputs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|o| {
                    let s = |k: &str| o[k].as_str().unwrap_or_default().to_string();
                    (o["target"].as_u64().unwrap_or_default(), s("valid"), s("invalid"))
                })
                .collect(),
        })
        .collect()
}

/// jsonschema as a user would set it up for the same contract: formats asserted, the schema's
/// `$schema` or else Draft 7 (output-contract's default).
fn plain_validator(schema: &Value) -> jsonschema::Validator {
    let mut options = jsonschema::options().should_validate_formats(true);
    if schema.get("$schema").is_none() {
        options = options.with_draft(jsonschema::Draft::Draft7);
    }
    options.build(schema).expect("schema compiles")
}

fn bench(c: &mut Criterion) {
    for case in corpus() {
        let contract = Contract::compile(&case.schema, &Options::default()).expect("contract compiles");
        let plain = plain_validator(&case.schema);
        for (target, valid, invalid) in &case.outputs {
            let id = format!("{}-{}", case.name, target);
            c.benchmark_group("valid-jsonschema").bench_function(BenchmarkId::from_parameter(&id), |b| {
                b.iter(|| {
                    let value: Value = serde_json::from_str(black_box(valid)).expect("parses");
                    assert!(plain.is_valid(&value));
                })
            });
            c.benchmark_group("valid-output-contract").bench_function(BenchmarkId::from_parameter(&id), |b| {
                b.iter(|| assert!(contract.validate_text(black_box(valid)).is_ok()))
            });
            // The one-pass verdict alone (what validateText runs for a valid output).
            c.benchmark_group("valid-check").bench_function(BenchmarkId::from_parameter(&id), |b| {
                b.iter(|| assert!(contract.check_text(black_box(valid)).is_ok()))
            });
            c.benchmark_group("invalid-jsonschema").bench_function(BenchmarkId::from_parameter(&id), |b| {
                b.iter(|| {
                    let value: Value = serde_json::from_str(black_box(invalid)).expect("parses");
                    let messages: Vec<String> = plain.iter_errors(&value).map(|e| e.to_string()).collect();
                    assert!(!messages.is_empty());
                })
            });
            c.benchmark_group("invalid-output-contract").bench_function(BenchmarkId::from_parameter(&id), |b| {
                b.iter(|| assert!(contract.validate_text(black_box(invalid)).is_err()))
            });
            // What `validateText` runs in the module for an invalid output: the verdict's first
            // pass, the locating walk, the units parsed and validated, the canonical error and its
            // text (without `raw_output`, which JavaScript fills in from the text it holds).
            c.benchmark_group("invalid-check").bench_function(BenchmarkId::from_parameter(&id), |b| {
                b.iter(|| {
                    let mut error = contract.check_text(black_box(invalid)).expect_err("invalid");
                    error.raw_output.clear();
                    error.to_json_text().len()
                })
            });
            // The locating walk alone: how much of the invalid path is walking the output, which
            // any design that reports every violation must do once.
            c.benchmark_group("invalid-locate").bench_function(BenchmarkId::from_parameter(&id), |b| {
                b.iter(|| contract.located_units(black_box(invalid)))
            });
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_millis(800));
    targets = bench
}
criterion_main!(benches);
