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

#[test]
fn keywords_beside_ref_in_drafts_4_to_7_are_errors_at_their_keys() {
    use output_contract::{Contract, Draft, Options, SchemaErrorKind};
    let text = r##"{
  "$id": "https://example.com/schemas/hooks/1.0.0",
  "title": "Hooks",
  "description": "Hooks to run.",
  "type": "object",
  "definitions": {"hook": {"type": "object", "properties": {"id": {"type": "string"}, "entry": {"type": "string"}}}},
  "properties": {
    "hook": {
      "$ref": "#/definitions/hook",
      "$id": "#hook",
      "description": "annotations beside $ref are fine",
      "required": ["id", "entry"]
    }
  },
  "required": ["hook"],
  "additionalProperties": false
}"##;
    for draft in [Draft::Draft6, Draft::Draft7] {
        let r = check_schema(text, &CheckOptions { draft: Some(draft), provider: None });
        assert!(!r.valid);
        let d = at(&r.diagnostics, "ref_sibling");
        assert_eq!(d.severity, Severity::Error);
        assert_eq!((slice(text, d).as_str(), d.pointer.as_str(), d.range.start.line), ("\"required\"", "/properties/hook/required", 12));
        assert!(d.message.contains("allOf") && d.message.contains(draft.title()), "{}", d.message);
        let fix = &d.fix.as_ref().unwrap().message;
        assert!(fix.contains("\"allOf\"") && fix.contains(Draft::Draft201909.meta_schema_uri()), "{fix}");
        // Only `required` is refused: the annotation and the identifier are not.
        assert_eq!(r.diagnostics.iter().filter(|d| d.severity == Severity::Error).count(), 1, "{:?}", codes(&r.diagnostics));
        let w = at(&r.diagnostics, "id_beside_ref");
        assert_eq!((w.severity, slice(text, w).as_str(), w.range.start.line), (Severity::Warning, "\"$id\"", 10));
        assert!(w.fix.is_some());
    }
    // Compiling refuses the same keyword with a typed issue; without strict mode it is ignored,
    // as the specification says, and the object without "entry" passes: the bug strict mode stops.
    let schema: serde_json::Value = serde_json::from_str(text).unwrap();
    let err = Contract::compile(&schema, &Options::default()).unwrap_err();
    assert_eq!(err.kind, SchemaErrorKind::RefSibling);
    assert_eq!((err.issues.len(), err.issues[0].keyword.as_deref()), (1, Some("required")));
    let lax = Contract::compile(&schema, &Options { strict: false, ..Options::default() }).unwrap();
    assert!(lax.validate(&serde_json::json!({"hook": {"id": "a"}})).is_ok());

    // The fix the message names: with the $ref in an allOf the keyword is checked.
    let wrapped = text.replace(
        r##""$ref": "#/definitions/hook",
      "$id": "#hook","##,
        r##""allOf": [{"$ref": "#/definitions/hook"}],"##,
    );
    let r = check_schema(&wrapped, &CheckOptions::default());
    assert!(r.valid, "{:?}", codes(&r.diagnostics));
    assert!(!codes(&r.diagnostics).iter().any(|c| c.contains("ref")), "{:?}", codes(&r.diagnostics));
    let contract = Contract::compile_text(&wrapped, &Options::default()).unwrap();
    assert!(contract.validate(&serde_json::json!({"hook": {"id": "a"}})).is_err());

    // Under 2019-09 and later the keyword is checked where it is: nothing to report (the "$id",
    // a fragment, is not an identifier there, and would be the $ref's base).
    let later = text.replace(r##""$id": "#hook","##, "");
    for draft in [Draft::Draft201909, Draft::Draft202012] {
        let r = check_schema(&later, &CheckOptions { draft: Some(draft), provider: None });
        assert!(r.valid, "{draft:?}: {:?}", codes(&r.diagnostics));
        assert!(!codes(&r.diagnostics).iter().any(|c| c.contains("ref")), "{draft:?}");
    }
}

#[test]
fn a_rename_comes_from_the_issue_suggestion() {
    use output_contract::{Contract, Options};
    let schema = serde_json::json!({"type": "object", "properties": {"a": {"type": "string", "maxLenght": 3}}});
    let err = Contract::compile(&schema, &Options::default()).unwrap_err();
    assert_eq!(err.issues[0].suggestion.as_deref(), Some("maxLength"));
    let text = serde_json::to_string(&schema).unwrap();
    let r = check_schema(&text, &CheckOptions::default());
    let d = at(&r.diagnostics, "unknown_keyword");
    assert_eq!(d.fix.as_ref().unwrap().replacement.as_deref(), Some("\"maxLength\""));
    // No suggestion, no rename: an unknown keyword far from every known one.
    let r = check_schema(r#"{"type": "object", "colour": "red"}"#, &CheckOptions::default());
    assert_eq!(at(&r.diagnostics, "unknown_keyword").fix, None);
}

/// Text users read speaks of the library and JSON Schema alone, never of the documents it was
/// designed from.
#[test]
fn diagnostics_and_schema_errors_name_no_design_document() {
    use output_contract::agent::config::check_output_schema_config;
    use output_contract::{Contract, Options};
    let corpus: serde_json::Value = serde_json::from_str(include_str!("corpus/check-schema.json")).unwrap();
    let mut texts: Vec<(String, CheckOptions)> = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let text = case["schema"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect::<Vec<_>>().join("\n");
            let options = CheckOptions {
                draft: case["draft"].as_str().map(|d| output_contract::Draft::from_name(d).unwrap()),
                provider: case["provider"].as_str().map(|p| Provider::from_name(p).unwrap()),
            };
            (text, options)
        })
        .collect();
    for extra in [
        r##"{"type": "array", "items": {"$ref": "#/definitions/x", "$id": "x", "minItems": 1}, "definitions": {"x": {}}}"##,
        r#"{"properties": {"a": {"format": "no-such-format", "requried": [], "prefixItems": []}}}"#,
        r#"{"$schema": "https://example.com/unknown", "type": "object"}"#,
        r#"[1, 2]"#,
        "",
    ] {
        texts.push((extra.to_string(), CheckOptions::default()));
        texts.push((extra.to_string(), CheckOptions { provider: Some(Provider::OpenAi), ..CheckOptions::default() }));
        texts.push((extra.to_string(), CheckOptions { provider: Some(Provider::Anthropic), ..CheckOptions::default() }));
    }
    let mut read = Vec::new();
    for (text, options) in &texts {
        for d in check_schema(text, options).diagnostics {
            read.push(d.message);
            read.extend(d.fix.map(|f| f.message));
        }
        if let Ok(schema) = serde_json::from_str::<serde_json::Value>(text) {
            if let Err(e) = Contract::compile(&schema, &Options::default()) {
                read.push(e.message);
                read.extend(e.issues.into_iter().map(|i| i.message));
            }
            for d in check_output_schema_config(&schema, &Options::default()) {
                read.push(d.message);
            }
        }
    }
    assert!(read.len() > 100, "{} texts", read.len());
    let named: Vec<&String> = read.iter().filter(|m| m.to_lowercase().contains("seed")).collect();
    assert!(named.is_empty(), "{named:#?}");
}
