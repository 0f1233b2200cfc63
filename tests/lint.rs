//! checkSchema: diagnostics at the right text ranges, never an error thrown.

use output_contract::editor::lint::{check_schema, CheckOptions, Diagnostic, Severity};
use output_contract::agent::tool::Provider;

fn codes(d: &[Diagnostic]) -> Vec<&str> {
    d.iter().map(|d| d.code.as_str()).collect()
}

fn at<'d>(d: &'d [Diagnostic], code: &str) -> &'d Diagnostic {
    d.iter().find(|d| d.code == code).unwrap_or_else(|| panic!("no {code} in {:?}", codes(d)))
}

fn slice(text: &str, d: &Diagnostic) -> String {
    // Offsets are UTF-16 units: slice as JavaScript would.
    let units: Vec<u16> = text.encode_utf16().collect();
    String::from_utf16(&units[d.range.start.offset..d.range.end.offset]).unwrap()
}

const GOOD: &str = r#"{
  "$id": "https://example.com/schemas/pr-reviewer/1.0.0",
  "title": "PR review",
  "description": "What the reviewer returns.",
  "type": "object",
  "properties": {
    "summary": {"type": "string"},
    "approval": {"enum": ["approve", "request_changes", "comment"]}
  },
  "required": ["summary", "approval"],
  "additionalProperties": false
}"#;

#[test]
fn a_good_schema_has_no_diagnostics() {
    let r = check_schema(GOOD, &CheckOptions::default());
    assert!(r.valid);
    assert_eq!(r.draft, "draft7");
    assert!(r.diagnostics.is_empty(), "{:?}", codes(&r.diagnostics));
}

#[test]
fn syntax_errors_at_their_line_and_column() {
    let text = "{\n  \"type\": \"object\",\n  \"properties\": {},\n}";
    let r = check_schema(text, &CheckOptions::default());
    assert!(!r.valid);
    let d = at(&r.diagnostics, "json_syntax");
    assert_eq!((d.range.start.line, d.range.start.column), (4, 1));
    let r = check_schema("", &CheckOptions::default());
    assert_eq!(codes(&r.diagnostics), vec!["json_syntax"]);
    let r = check_schema("{\"a\": \"😀\" x}", &CheckOptions::default());
    let d = at(&r.diagnostics, "json_syntax");
    assert_eq!(slice("{\"a\": \"😀\" x}", d), "x", "UTF-16 offsets past an astral character");
}

#[test]
fn meta_schema_and_compile_problems_at_their_nodes() {
    let text = GOOD.replace(r#""summary": {"type": "string"}"#, r#""summary": {"type": "strng"}"#);
    let r = check_schema(&text, &CheckOptions::default());
    assert!(!r.valid);
    let d = at(&r.diagnostics, "meta_schema");
    assert_eq!(d.pointer, "/properties/summary/type");
    assert_eq!(slice(&text, d), "\"strng\"");
    assert_eq!(d.range.start.line, 7);

    let text = GOOD.replace(r#""required": ["summary", "approval"]"#, r#""requried": ["summary", "approval"]"#);
    let r = check_schema(&text, &CheckOptions::default());
    let d = at(&r.diagnostics, "unknown_keyword");
    assert_eq!(slice(&text, d), "\"requried\"");
    assert_eq!(d.fix.as_ref().unwrap().replacement.as_deref(), Some("\"required\""));

    let text = r##"{"type": "object", "properties": {"a": {"type": "string", "pattern": "(unclosed"}, "b": {"$ref": "#/$defs/missing"}}}"##;
    let r = check_schema(text, &CheckOptions::default());
    let found = codes(&r.diagnostics);
    assert!(found.contains(&"invalid_regex") || found.contains(&"meta_schema"), "{found:?}");
}

#[test]
fn authoring_lints_with_stable_codes() {
    let text = r#"{
  "$id": "https://example.com/schemas/reviewer",
  "type": "object",
  "properties": {
    "severity": {"type": "string", "description": "One of: low, medium, high"},
    "kind": {"oneOf": [{"type": "string"}, {"type": "number"}]}
  },
  "required": ["severity", "sevrity"]
}"#;
    let r = check_schema(text, &CheckOptions::default());
    assert!(r.valid, "lints are not errors");
    let found = codes(&r.diagnostics);
    for code in ["id_not_versioned", "missing_title", "missing_description", "open_object", "enum_in_description", "prefer_any_of", "required_not_in_properties"] {
        assert!(found.contains(&code), "{code} missing from {found:?}");
    }
    let d = at(&r.diagnostics, "required_not_in_properties");
    assert_eq!(slice(text, d), "\"sevrity\"");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(slice(text, at(&r.diagnostics, "prefer_any_of")), "\"oneOf\"");

    let r = check_schema(r#"{"type": "array", "items": {}}"#, &CheckOptions::default());
    assert!(codes(&r.diagnostics).contains(&"root_not_object"));
    let r = check_schema(r#"{"type": "object", "properties": {"a": {}}}"#, &CheckOptions::default());
    assert!(codes(&r.diagnostics).contains(&"no_required"));
}

#[test]
fn provider_compatibility() {
    let text = r#"{"type": "object", "properties": {"s": {"type": "string", "maxLength": 10, "format": "uri"}}, "required": ["s"]}"#;
    let r = check_schema(text, &CheckOptions { provider: Some(Provider::OpenAi), ..CheckOptions::default() });
    assert_eq!(slice(text, at(&r.diagnostics, "openai_dropped_keyword")), "\"maxLength\"");
    assert_eq!(slice(text, at(&r.diagnostics, "openai_dropped_format")), "\"format\"");
    assert!(codes(&r.diagnostics).contains(&"openai_closed_object"));
    let r = check_schema(r#"{"type": "array"}"#, &CheckOptions { provider: Some(Provider::OpenAi), ..CheckOptions::default() });
    assert!(!r.valid);
    assert_eq!(at(&r.diagnostics, "openai_rejected").severity, Severity::Error);
    let r = check_schema(r#"{"type": "array"}"#, &CheckOptions { provider: Some(Provider::Anthropic), ..CheckOptions::default() });
    assert!(codes(&r.diagnostics).contains(&"anthropic_root_not_object"));
}

#[test]
fn never_panics_on_prefixes_of_a_schema() {
    for end in 0..=GOOD.len() {
        if GOOD.is_char_boundary(end) {
            let r = check_schema(&GOOD[..end], &CheckOptions::default());
            assert_eq!(r.valid, end == GOOD.len(), "prefix of {end} bytes");
        }
    }
}

#[test]
fn compile_problems_listed() {
    let text = r##"{"type": "object", "properties": {"b": {"$ref": "#/$defs/missing"}}, "required": ["b"], "additionalProperties": false}"##;
    let r = check_schema(text, &CheckOptions::default());
    let d = at(&r.diagnostics, "unresolvable_ref");
    assert!(!r.valid);
    assert_eq!(slice(text, d), "\"#/$defs/missing\"", "{d:?}");
    assert_eq!(d.pointer, "/properties/b/$ref");
    let text = r##"{"type": "object", "properties": {"a": {"type": "string", "pattern": "(unclosed"}}}"##;
    let r = check_schema(text, &CheckOptions::default());
    let d = at(&r.diagnostics, "invalid_regex");
    assert_eq!(slice(text, d), "\"(unclosed\"");
}

#[test]
fn keywords_of_another_draft_are_errors_with_their_own_code() {
    use output_contract::{Contract, Draft, Options};
    use serde_json::json;
    // Each case: a schema, the draft in effect, the keyword, the draft that has it, and an
    // instance that keyword would reject but the draft in effect accepts: why strict mode (and
    // the editor) refuse it.
    let cases = [
        (json!({"type": "array", "prefixItems": [{"type": "string"}]}), Draft::Draft7, "prefixItems", Draft::Draft202012, json!([1])),
        (json!({"type": "object", "dependentRequired": {"a": ["b"]}}), Draft::Draft7, "dependentRequired", Draft::Draft202012, json!({"a": 1})),
        (json!({"type": "object", "dependencies": {"a": ["b"]}}), Draft::Draft202012, "dependencies", Draft::Draft7, json!({"a": 1})),
        (json!({"const": 1}), Draft::Draft4, "const", Draft::Draft202012, json!(2)),
        (json!({"if": {"const": 1}, "then": false}), Draft::Draft6, "if", Draft::Draft202012, json!(1)),
    ];
    for (schema, draft, keyword, home, instance) in cases {
        let text = serde_json::to_string_pretty(&schema).unwrap();
        let r = check_schema(&text, &CheckOptions { draft: Some(draft), provider: None });
        assert!(!r.valid);
        let d = at(&r.diagnostics, "keyword_from_other_draft");
        assert_eq!(d.severity, Severity::Error);
        assert_eq!(slice(&text, d), format!("\"{keyword}\""));
        assert_eq!(d.fix.as_ref().unwrap().message, format!("add \"$schema\": \"{}\" at the root", home.meta_schema_uri()));
        assert!(!codes(&r.diagnostics).contains(&"unknown_keyword"));
        let lax = Options { draft: Some(draft), strict: false, ..Options::default() };
        // The validator still applies the legacy "dependencies" under 2019-09 and later, though
        // the drafts dropped it (as the test suite's optional tests expect); the editor refuses it
        // all the same, as the draft's readers would not.
        if keyword != "dependencies" {
            assert!(Contract::compile(&schema, &lax).unwrap().validate(&instance).is_ok(), "{keyword} is not enforced under {draft:?}");
        }
        // Under the draft that has it: no diagnostic.
        let r = check_schema(&text, &CheckOptions { draft: Some(home), provider: None });
        assert!(!codes(&r.diagnostics).contains(&"keyword_from_other_draft"), "{keyword} under {home:?}");
    }
    // A typo stays unknown_keyword, with its rename.
    let r = check_schema(r#"{"type": "object", "requried": []}"#, &CheckOptions::default());
    assert_eq!(at(&r.diagnostics, "unknown_keyword").fix.as_ref().unwrap().replacement.as_deref(), Some("\"required\""));
}

#[test]
fn every_code_at_its_range_in_the_shared_corpus() {
    use output_contract::Draft;
    let corpus: serde_json::Value = serde_json::from_str(include_str!("corpus/check-schema.json")).unwrap();
    let mut failures = Vec::new();
    for case in corpus["cases"].as_array().unwrap() {
        let code = case["code"].as_str().unwrap();
        let text = case["schema"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect::<Vec<_>>().join("\n");
        let options = CheckOptions {
            draft: case["draft"].as_str().map(|d| Draft::from_name(d).unwrap()),
            provider: case["provider"].as_str().map(|p| Provider::from_name(p).unwrap()),
        };
        let r = check_schema(&text, &options);
        let Some(d) = r.diagnostics.iter().find(|d| d.code == code) else {
            failures.push(format!("{code}: not reported, got {:?}", codes(&r.diagnostics)));
            continue;
        };
        let got = (format!("{:?}", d.severity).to_lowercase(), slice(&text, d), d.range.start.line);
        let want = (case["severity"].as_str().unwrap().to_string(), case["at"].as_str().unwrap().to_string(), case["line"].as_u64().unwrap() as usize);
        if got != want {
            failures.push(format!("{code}: got {got:?}, want {want:?} ({})", d.message));
        }
        assert_eq!(r.valid, !r.diagnostics.iter().any(|d| d.severity == Severity::Error));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
