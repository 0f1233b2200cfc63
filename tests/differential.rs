//! The library against the reference implementation, the `jsonschema` crate, over the whole
//! JSON-Schema-Test-Suite (drafts 4, 6, 7, 2019-09 and 2020-12, `optional/` included): every
//! schema with every instance of the suite and with instances generated from them by small
//! edits (tests/common/mod.rs) must get the same verdict from both. The remote documents are
//! served to both from ../shared/json-schema-test-suite/remotes, never over a network.
//!
//! A disagreement is settled by the suite's expected answer where it has one, and by reading the
//! specification for a generated instance: the reference's known deviations are listed in
//! `REFERENCE_DEVIATIONS`, the library's in `LIBRARY_PENDING` (to be fixed in the library; an
//! entry that starts agreeing fails the run until it is removed, in both lists).

mod common;

use common::{over_limits, Case, Findings, Suite, DRAFTS};
use output_contract::{Contract, Draft, OutputValidationError};

/// The class of the texts with a repeated property name that check_text accepts and
/// validate_text refuses.
const CHECK_TEXT_REPEATS: &str = "check_text accepts a repeated property name";

/// Instances generated from each instance of the suite.
const MUTATIONS: usize = 16;

/// Ids are `<file>::<case>::<test>` for the suite's instances and `<file>::<case>::<text>` for
/// generated ones, the text as compact JSON; `<file>::<case>` alone stands for all of a case's.
///
/// Where the reference does not follow the specification (the suite, or the specification for
/// a generated instance, agrees with the library).
const REFERENCE_DEVIATIONS: &[(&str, &str)] = &[
    // The suite reads patterns in ECMA-262's unicode mode (pattern.json: "pattern with Unicode
    // property escape requires unicode mode"), where only syntax characters and `/` may follow a
    // backslash as themselves; the reference accepts an escaped emoji as a regex.
    (r#"draft2020-12/optional/format/ecmascript-regex.json::\a is not an ECMA 262 control escape::"\\😀""#, "accepts the regex \\😀"),
];

/// Where the library is wrong today: the reference and the specification agree against it, or
/// its two paths disagree.
const LIBRARY_PENDING: &[(&str, &str)] = &[
    // A host name's A-label must decode to code points IDNA allows (RFC 5891 §5.4, RFC 5892):
    // these decode to a C1 control (U+0080), an unassigned U+05FD and a vulgar fraction (U+00BE),
    // which the library accepts.
    (r#"draft7/optional/format/hostname.json::validation of A-label (punycode) host names::"xn--5db3e0a""#, "A-label of a code point IDNA disallows"),
    (r#"draft2020-12/optional/format/hostname.json::validation of A-label (punycode) host names::"xn--a""#, "A-label of a code point IDNA disallows"),
    (r#"draft2020-12/optional/format/hostname.json::validation of A-label (punycode) host names::"xn--ll-0ea0a""#, "A-label of a code point IDNA disallows"),
];

fn reference_draft(draft: Draft) -> jsonschema::Draft {
    match draft {
        Draft::Draft4 => jsonschema::Draft::Draft4,
        Draft::Draft6 => jsonschema::Draft::Draft6,
        Draft::Draft7 => jsonschema::Draft::Draft7,
        Draft::Draft201909 => jsonschema::Draft::Draft201909,
        // JTD is no JSON Schema draft: its cases are not in the JSON Schema suite.
        Draft::Draft202012 | Draft::Jtd => jsonschema::Draft::Draft202012,
    }
}

/// The suite's remote documents as the reference's resources. One that does not name its draft
/// is read as the draft of its directory (`remotes/draft2019-09/…`), else as `draft`, the
/// draft of the tests that use it.
fn registry(suite: &Suite, draft: Draft) -> jsonschema::Registry<'_> {
    let resources = suite.remotes.iter().filter_map(|(uri, doc)| {
        let dir = uri.strip_prefix(common::REMOTE_BASE).unwrap().split('/').next().unwrap();
        let own = DRAFTS.iter().find(|(name, _)| *name == dir).map(|(_, d)| *d);
        // `draft3/` and `v1/` are for drafts the library does not compile (and `v1/`'s
        // documents name ones not there).
        let foreign = dir == "draft3" || dir == "v1";
        (!foreign).then(|| (uri.as_str(), reference_draft(own.unwrap_or(draft)).detect(doc).create_resource_ref(doc)))
    });
    jsonschema::Registry::new().extend(resources).unwrap().prepare().unwrap()
}

/// The reference configured as the library is for `case`: the draft of the suite's directory
/// unless the schema names its own (the library's rule: `$schema` wins), `format` asserted in
/// `optional/format` and where a meta-schema's vocabularies ask for it (the reference's default
/// from 2019-09 on; setting it off would override the vocabularies), an annotation elsewhere.
fn reference(case: &Case, draft: Draft, registry: &jsonschema::Registry<'_>) -> Result<jsonschema::Validator, String> {
    let mut options = jsonschema::options().with_registry(registry);
    if case.formats || draft < Draft::Draft201909 {
        options = options.should_validate_formats(case.formats);
    }
    if case.schema.get("$schema").is_none() {
        options = options.with_draft(reference_draft(draft));
    }
    options.build(&case.schema).map_err(|e| e.to_string())
}

fn verdict(valid: bool) -> &'static str {
    if valid {
        "valid"
    } else {
        "invalid"
    }
}

enum Compared {
    Agree,
    /// What each said.
    Disagree(String),
    /// check_text accepts a text that validate_text refuses for a repeated property name.
    RepeatAccepted,
    /// The library refused the text before validating it: past its size or depth limits, or
    /// for a property name written twice (its own rule: readers differ on which value counts),
    /// where the reference reads the last value.
    Refused,
}

/// One text through the library's two paths (the full one, `validate_text`, and the one-pass
/// `check_text`) and through the reference; `expected` is the suite's answer, if it has one.
fn compare(library: &Contract, reference: &jsonschema::Validator, text: &str, expected: Option<bool>) -> Compared {
    let one_shot = library.validate_text(text);
    let (ours, checked) = (one_shot.is_ok(), library.check_text(text).is_ok());
    let repeats = |e: &OutputValidationError| e.violations.iter().any(|v| v.keyword == "duplicateKey");
    if one_shot.as_ref().is_err_and(repeats) && checked {
        return Compared::RepeatAccepted;
    }
    if !checked && one_shot.as_ref().is_err_and(|e| over_limits(e) || repeats(e)) {
        return Compared::Refused;
    }
    let theirs = reference.is_valid(&serde_json::from_str(text).unwrap());
    if ours == theirs && checked == theirs {
        return Compared::Agree;
    }
    let library = match (verdict(ours), verdict(checked)) {
        (full, quick) if full == quick => full.to_string(),
        (full, quick) => format!("{full} (validate_text), {quick} (check_text)"),
    };
    let suite = expected.map_or(String::new(), |v| format!("; the suite: {}", verdict(v)));
    Compared::Disagree(format!("  library: {library}; reference: {}{suite}", verdict(theirs)))
}

#[derive(Default)]
struct Counts {
    suite: usize,
    generated: usize,
    refused: usize,
    schemas: usize,
}

/// Compares each case of `dir`; returns the summary line.
fn compare_draft(suite: &Suite, dir: &str, draft: Draft, out: &mut Findings) -> String {
    let registry = registry(suite, draft);
    let mut counts = Counts::default();
    for case in suite.cases(dir) {
        let (library, reference) = (case.compile(draft, suite), reference(&case, draft, &registry));
        let (library, reference) = match (library, reference) {
            (Some(l), Ok(r)) => (l, r),
            (l, r) => {
                let library = if l.is_some() { "compiles it" } else { "refuses it" };
                let reference = r.err().unwrap_or_else(|| "compiles it".into());
                out.add_case(&case, format!("  schema {}\n  library: {library}; reference: {reference}", case.schema));
                continue;
            }
        };
        counts.schemas += 1;
        for instance in case.instances(1, MUTATIONS) {
            let compared = compare(&library, &reference, &instance.text, instance.expected());
            if matches!(compared, Compared::Refused) {
                counts.refused += 1;
                continue;
            }
            *if instance.generated { &mut counts.generated } else { &mut counts.suite } += 1;
            match compared {
                Compared::Disagree(what) => out.add(&case, &instance, what),
                Compared::RepeatAccepted => {
                    out.add_to(CHECK_TEXT_REPEATS, &case, &instance, "  validate_text: invalid (duplicateKey); check_text: valid".into())
                }
                _ => {}
            }
        }
    }
    format!(
        "differential {dir}: {} schemas; {} suite instances and {} generated compared ({} skipped: refused before validation for limits or a repeated name)",
        counts.schemas, counts.suite, counts.generated, counts.refused
    )
}

#[test]
fn library_and_reference_agree_on_the_suite() {
    common::run_suite(compare_draft, &[REFERENCE_DEVIATIONS, LIBRARY_PENDING]);
}
